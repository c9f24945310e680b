#!/usr/bin/env node
// Builds the VS Code extension package, skewguard-<version>.vsix, with @vscode/vsce 3.x (a dev dependency; 4.x needs
// Node 22) and checks it:
//
//   1. the manifest: icon (a 128×128 PNG), categories, keywords, activation on every file kind served, untrusted
//      workspaces supported, every setting with a description, a type and a default, every command with a title;
//   2. `vsce ls --no-dependencies`: exactly the files the extension runs (the two self-contained bundles, data/,
//      the StarlingX schemas the engine loads, the grammar, icon, README, CHANGELOG, LICENSE) — no sources, tests,
//      source maps or node_modules (the bundles need none: the package is made with --no-dependencies);
//   3. `vsce package --no-dependencies` (runs `vscode:prepublish`: a minified build);
//   4. the packaged extension really starts: the .vsix is unpacked into an empty temp folder (no node_modules above
//      it), extension/dist/client.js is loaded with a stub `vscode` module (it must need nothing else), and
//      extension/dist/server.js, run by `lsp-lint` as its language server, must report exactly what the repository's
//      own build reports for examples/.
//
//   npm run package [-- --out file.vsix] [-- --skip-smoke]
// Prints the .vsix size and file count. Exit 1 on any failed check.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Module from 'node:module';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const vsceBin = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Files the .vsix must consist of: each packaged path must match one of these. */
export const ALLOWED = [
  /^package\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^LICENSE$/, /^images\/icon\.png$/,
  /^dist\/(client|server|server-main)\.js$/, /^dist\/web\/(client|server)\.js$/,
  // The JSON Schema validators compiled at build time (scripts/validators.mjs, engine/precompiled.ts).
  /^dist\/validators\/[\w.-]+\.js$/,
  /^data\/(starlingx|kubernetes|kata|containerd)\/(?:[\w.-]+\/)?[\w.-]+\.json$/,
  // The bundled operator CRDs (scripts/import-operator-schemas.mjs): an index, then gzip-compressed fields and schemas per operator.
  /^data\/operators\/(?:[\w.-]+\/){0,2}[\w.-]+\.json(?:\.gz)?$/,
  /^syntaxes\/[\w.-]+\.json$/,
  // The rule pages: the editor opens them offline (codeDescription links, "Show documentation for <rule>").
  /^docs\/rules\/(?:[\w.-]+\/)?[\w.-]+\.md$/,
  // The JSON Schema of .skewguard.yaml, for the YAML extension (contributes.yamlValidation).
  /^schemas\/config\/skewguard\.schema\.json$/,
];
/** Files the .vsix must contain. */
export function requiredFiles() {
  const releases = JSON.parse(fs.readFileSync(path.join(root, 'data/starlingx/releases.json'), 'utf8')).releases;
  const list = [
    'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', pkg.icon, pkg.main.replace(/^\.\//, ''), 'dist/server.js', 'dist/server-main.js',
    pkg.browser.replace(/^\.\//, ''), 'dist/web/server.js',
    ...fs.readdirSync(path.join(root, 'data'), { recursive: true }).filter((f) => f.endsWith('.json') || f.endsWith('.json.gz')).map((f) => `data/${f.split(path.sep).join('/')}`),
    ...fs.readdirSync(path.join(root, 'docs/rules'), { recursive: true }).filter((f) => f.endsWith('.md')).map((f) => `docs/rules/${f.split(path.sep).join('/')}`),
    ...releases.filter((r) => r.hasSchema).map((r) => `schemas/starlingx/${r.release}/localhost.schema.json`),
    // A compiled validator for each schema the engine validates with (scripts/validators.mjs): named by the built engine.
    ...['config', 'settings', ...validatedSchemaPaths()].map((k) => `dist/validators/${builtEngine().validatorFile(k)}`),
  ];
  for (const v of pkg.contributes.yamlValidation ?? []) list.push(v.url.replace(/^\.\//, ''));
  for (const g of pkg.contributes.grammars ?? []) list.push(g.path.replace(/^\.\//, ''));
  for (const l of pkg.contributes.languages ?? []) if (l.configuration) list.push(l.configuration.replace(/^\.\//, ''));
  return [...new Set(list)].sort();
}

/**
 * The JSON Schemas the engine validates with at run time (each gets a validator compiled at build time,
 * scripts/validators.mjs): every `*.schema.json` under schemaDirsUsed(), sorted.
 */
export function validatedSchemaPaths() {
  return schemaDirsUsed().flatMap((d) => fs.readdirSync(path.join(root, d), { recursive: true }).map(String)
    .filter((f) => f.endsWith('.schema.json')).sort().map((f) => d + f.split(path.sep).join('/')));
}

/** dist/engine.js of the last build (requiredFiles runs after one). */
const builtEngine = () => Module.createRequire(import.meta.url)(path.join(root, 'dist', 'engine.js'));

/**
 * Folders under schemas/ that the engine reads at run time: the constant part of every `schemas/...` path and of every
 * schemaPath('<family>', …) call in server/src (e.g. schemas/starlingx/, schemas/kata/persist/). The rest of schemas/
 * is for users' own tooling and stays out of the package.
 */
export function schemaDirsUsed() {
  const used = new Set();
  for (const f of fs.readdirSync(path.join(root, 'server/src'), { recursive: true })) {
    if (!f.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(root, 'server/src', f), 'utf8');
    for (const m of text.matchAll(/schemaPath\(\s*['"]([\w-]+)['"]/g)) used.add(`schemas/${m[1]}/`);
    for (const m of text.matchAll(/['"`](schemas\/(?:[\w.-]+\/)+)/g)) used.add(m[1]);
  }
  // schemaPath() itself builds `schemas/${family}/…`: covered by its callers.
  return [...used].sort();
}

function pngSize(file) {
  const b = fs.readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG' || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Problems with the manifest fields the Marketplace and VS Code read. */
export function manifestProblems(p = pkg) {
  const out = [];
  if (!p.icon) out.push('no "icon"');
  else {
    const s = fs.existsSync(path.join(root, p.icon)) ? pngSize(path.join(root, p.icon)) : undefined;
    if (!s) out.push(`icon ${p.icon} is not a PNG file`);
    else if (s.width !== 128 || s.height !== 128) out.push(`icon is ${s.width}×${s.height}, not 128×128`);
  }
  for (const k of ['name', 'displayName', 'description', 'version', 'publisher', 'license', 'repository']) if (!p[k]) out.push(`no "${k}"`);
  if (!p.categories?.length) out.push('no categories');
  if (!(p.keywords?.length >= 3)) out.push('fewer than 3 keywords');
  // Limited only in that Helm is never run in Restricted Mode (its binary setting is restricted).
  const untrusted = p.capabilities?.untrustedWorkspaces;
  if (untrusted?.supported !== true && !(untrusted?.supported === 'limited' && untrusted.description && untrusted.restrictedConfigurations?.length)) {
    out.push('capabilities.untrustedWorkspaces.supported is neither true nor "limited" with a description and its restrictedConfigurations');
  }
  const ev = new Set(p.activationEvents ?? []);
  for (const lang of ['yaml', 'json', 'toml', 'kata-toml']) if (!ev.has(`onLanguage:${lang}`)) out.push(`no activation event onLanguage:${lang}`);
  for (const c of p.contributes?.commands ?? []) if (!c.title) out.push(`command ${c.command} has no title`);
  for (const [name, s] of Object.entries(p.contributes?.configuration?.properties ?? {})) {
    if (!s.description && !s.markdownDescription) out.push(`setting ${name} has no description`);
    if (!s.type) out.push(`setting ${name} has no type`);
    if (!('default' in s)) out.push(`setting ${name} has no default`);
    if (s.enum && !s.enum.includes(s.default)) out.push(`setting ${name}: default is not one of its enum values`);
  }
  return out;
}

/** `vsce ls --no-dependencies`: the files the package would hold. */
export function vsceLs() {
  const r = spawnSync(process.execPath, [vsceBin, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`vsce ls failed (${r.status}):\n${r.stderr}`);
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean).sort();
}

/** Problems with a package file list (paths relative to the extension folder). */
export function fileListProblems(files) {
  const out = [];
  const schemaDirs = schemaDirsUsed();
  const allowed = (f) => ALLOWED.some((re) => re.test(f)) || (f.endsWith('.json') && schemaDirs.some((d) => f.startsWith(d)));
  for (const f of files) if (!allowed(f)) out.push(`packaged but not needed: ${f}`);
  const have = new Set(files);
  for (const f of requiredFiles()) if (!have.has(f)) out.push(`missing from the package: ${f}`);
  for (const d of schemaDirs) {
    const want = fs.readdirSync(path.join(root, d), { recursive: true }).filter((f) => f.endsWith('.json')).map((f) => d + f.split(path.sep).join('/'));
    for (const f of want) if (!have.has(f)) out.push(`the engine reads ${d} but the package leaves out ${f}`);
  }
  return out;
}

/** Minimal .zip reader (stored and deflated entries), enough for a .vsix. */
export function readZip(file) {
  const b = fs.readFileSync(file);
  let eocd = b.length - 22;
  while (eocd >= 0 && b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file}: not a zip file`);
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const method = b.readUInt16LE(p + 10), csize = b.readUInt32LE(p + 20);
    const nlen = b.readUInt16LE(p + 28), xlen = b.readUInt16LE(p + 30), clen = b.readUInt16LE(p + 32);
    const local = b.readUInt32LE(p + 42);
    const name = b.toString('utf8', p + 46, p + 46 + nlen);
    const data = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(data, data + csize);
    if (!name.endsWith('/')) entries.set(name, method === 0 ? raw : zlib.inflateRawSync(raw));
    p += 46 + nlen + xlen + clen;
  }
  return entries;
}

function lint(serverJs) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/lsp-lint.js'), '--format', 'json', '--max-warnings=-1', 'examples/'], {
    cwd: root, encoding: 'utf8', env: { ...process.env, SKEWGUARD_SERVER: serverJs }, maxBuffer: 64 << 20,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`lsp-lint with ${serverJs} exited ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

/** Unpacks the .vsix and checks that the packaged client loads and the packaged server works on examples/. */
export function smokeTest(vsix) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-vsix-')));
  try {
    for (const [name, data] of readZip(vsix)) {
      const dest = path.join(dir, name);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, data);
    }
    const ext = path.join(dir, 'extension');
    // The client: loading it may require only `vscode` and Node built-ins.
    const stubs = new Map([['vscode', new Proxy({}, { get: () => new Proxy(function () {}, { get: () => ({}) }) })]]);
    const resolve = Module._resolveFilename;
    const needed = [];
    Module._resolveFilename = function (request, ...rest) {
      if (stubs.has(request)) return request;
      if (!Module.isBuiltin(request) && !request.startsWith('.') && !path.isAbsolute(request)) needed.push(request);
      return resolve.call(this, request, ...rest);
    };
    const req = Module.createRequire(path.join(ext, 'package.json'));
    Module._cache.vscode = { id: 'vscode', exports: stubs.get('vscode'), loaded: true };
    try {
      const client = req(path.join(ext, JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8')).main));
      if (typeof client.activate !== 'function') throw new Error('the packaged client exports no activate()');
    } finally {
      Module._resolveFilename = resolve;
      delete Module._cache.vscode;
    }
    if (needed.length) throw new Error(`the packaged client needs modules that are not in the package: ${needed.join(', ')}`);
    // The server: the packaged one must report exactly what the repository's build reports.
    const packaged = lint(path.join(ext, 'dist', 'server.js'));
    const repo = lint(path.join(root, 'dist', 'server.js'));
    const n = JSON.parse(packaged).reduce?.((s, f) => s + (f.messages?.length ?? f.diagnostics?.length ?? 0), 0);
    if (packaged !== repo) throw new Error('the packaged server reports something else than the repository build for examples/');
    return { findings: n };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function fail(title, problems) {
  process.stderr.write(`package: ${title}:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}

function main() {
  const args = process.argv.slice(2);
  const outArg = args.indexOf('--out');
  const out = path.resolve(root, outArg >= 0 ? args[outArg + 1] : `${pkg.name}-${pkg.version}.vsix`);
  const t0 = Date.now();

  const mp = manifestProblems();
  if (mp.length) fail('package.json', mp);

  const r = spawnSync(process.execPath, [vsceBin, 'package', '--no-dependencies', '--out', out], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail('vsce package failed', [`exit ${r.status}`]);

  // After the prepublish build, so dist/ exists.
  const listed = vsceLs();
  const lp = fileListProblems(listed);
  if (lp.length) fail('vsce ls', lp);
  // vsce stores README.md, CHANGELOG.md and LICENSE as readme.md, changelog.md and LICENSE.txt.
  const RENAMED = { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md', 'LICENSE.txt': 'LICENSE' };
  const packed = [...readZip(out).keys()].filter((n) => n.startsWith('extension/'))
    .map((n) => n.slice('extension/'.length)).map((n) => RENAMED[n] ?? n).sort();
  if (JSON.stringify(packed) !== JSON.stringify(listed)) fail('the .vsix differs from `vsce ls`', [`vsix: ${packed.length} files, vsce ls: ${listed.length}`]);

  let smoke = '';
  if (!args.includes('--skip-smoke')) {
    // lsp-lint (the repo's bin) and the repo's dist/server.js come from the same build as the package.
    const { findings } = smokeTest(out);
    smoke = `; packaged client loads, packaged server reports the same ${findings} findings on examples/ as the build`;
  }
  const size = fs.statSync(out).size;
  process.stdout.write(`package: ${path.relative(process.cwd(), out) || out}: ${(size / 1024 / 1024).toFixed(2)} MB (${size} bytes), `
    + `${listed.length} files${smoke} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try { main(); } catch (e) { fail('error', [e.stack ?? String(e)]); }
}
