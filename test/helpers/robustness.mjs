// Shared by test/robustness.test.mjs (bounded, in `npm test`) and bench/fuzz.mjs (`npm run fuzz`, at length):
// seed documents from the repository's fixtures and examples, fast-check arbitraries that mutate them or
// make random/binary text, and the property checks (every diagnostic range lies inside its document).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { repoRoot, applyTextEdits, LspClient, makeWorkspace, uriOf } from './lsp-client.mjs';

const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');

export const FIX_ALL_KIND = 'source.fixAll.skewguard';

/** File names that select each family (the engine detects the family from the name, then the content). */
export const FAMILY_NAMES = {
  yaml: ['localhost.yml', 'manifest.yaml', 'site/other.yml', 'static-pods/kube-apiserver.yaml'],
  toml: ['configuration-qemu.toml', 'config.d/10-site.toml', 'configuration.toml'],
  json: ['persist.json', 'manifest.json', 'vc/sbs/abc/persist.json'],
};

const kindOf = (file) => (/\.ya?ml$/i.test(file) ? 'yaml' : /\.toml$/i.test(file) ? 'toml' : /\.json$/i.test(file) ? 'json' : undefined);

/**
 * Seed documents: every .yml/.yaml/.toml/.json under examples/ and test/fixtures/ up to `maxBytes`,
 * as { rel, kind, name, text } where `name` is a file name that keeps the seed's family.
 */
export function seedDocuments({ maxBytes = 64 * 1024 } = {}) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { walk(p); continue; }
      const kind = kindOf(e.name);
      if (!kind || e.name === 'sarif-schema-2.1.0.json' || e.name === 'kubent-rules.json') continue;
      const st = fs.statSync(p);
      if (st.size > maxBytes) continue;
      const rel = path.relative(repoRoot, p);
      let name = e.name;
      if (kind === 'yaml' && /localhost|starlingx/.test(rel) && !/localhost/.test(name)) name = 'localhost.yml';
      if (kind === 'yaml' && !/localhost/.test(name)) name = 'manifest.yaml';
      if (kind === 'toml' && !/^configuration/.test(name)) name = 'configuration.toml';
      if (kind === 'json' && /persist/.test(rel)) name = 'persist.json';
      out.push({ rel, kind, name, text: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(path.join(repoRoot, 'examples'));
  walk(path.join(repoRoot, 'test', 'fixtures'));
  return out.sort((a, b) => (a.rel < b.rel ? -1 : 1));
}

/** Tokens that matter to the three syntaxes, and characters that trouble positions. */
export const TOKENS = [
  ':', ': ', '- ', '-', '[', ']', '{', '}', ',', '"', "'", '&a ', '*a', '!!str ', '!!binary ', '!custom ', '<<: ', '<<: *a', '---\n', '...\n',
  '? ', '|', '|-\n', '>', '%YAML 1.2\n', '#', ' #', '\t', '\r', '\r\n', '\n', '\n\n', '  ', '\uFEFF', '\u00A0', '\u2028', '😀', '𝔘', '\uD800', '\uDFFF',
  '\u0000', '\u001B', '=', ' = ', '[[', ']]', '.', '\\', '\\u', '\\U0001F600', '"""', "'''", '0x', '1e9999', '-0', 'inf', 'nan', 'true', 'false',
  '~', 'null', '1979-05-27T07:32:00Z', '__proto__', 'constructor', 'prototype', 'apiVersion: ', 'kind: ', 'v1', 'extensions/v1beta1',
  'kubernetes_version: ', 'v1.21.3', '[hypervisor.qemu]\n', '[runtime]\n', 'PersistVersion', '"Config": ', '{{ .Values.x }}', '$(id)', '${HOME}',
];

/** One mutation of a text: insert a token, delete or duplicate a span, replace a span, re-indent a line, … */
export const mutation = fc.oneof(
  fc.record({ op: fc.constant('insert'), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
  fc.record({ op: fc.constant('insertText'), at: fc.nat(), token: fc.string({ unit: 'binary', maxLength: 12 }) }),
  fc.record({ op: fc.constant('delete'), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('duplicate'), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant('indent'), at: fc.nat(), by: fc.constantFrom(' ', '  ', '\t', '') }),
  fc.record({ op: fc.constant('eol'), style: fc.constantFrom('\r\n', '\r', '\n') }),
  fc.record({ op: fc.constant('bom') }),
  fc.record({ op: fc.constant('truncate'), at: fc.nat() }),
);

/** Applies one mutation; positions are taken modulo the text length. */
export function mutate(text, m) {
  const n = text.length;
  const at = n ? m.at % (n + 1) : 0;
  switch (m.op) {
    case 'insert': case 'insertText': return text.slice(0, at) + m.token + text.slice(at);
    case 'delete': return text.slice(0, at) + text.slice(at + m.len);
    case 'duplicate': return text.slice(0, at + m.len) + text.slice(at, at + m.len) + text.slice(at + m.len);
    case 'indent': { const ls = text.lastIndexOf('\n', at - 1) + 1; return text.slice(0, ls) + m.by + text.slice(ls); }
    case 'eol': return text.replace(/\r\n|\r|\n/g, m.style);
    case 'bom': return text.startsWith('\uFEFF') ? text.slice(1) : `\uFEFF${text}`;
    case 'truncate': return text.slice(0, at);
    default: return text;
  }
}

/** A document to analyse: { name, text, how } — a mutated seed, random text, or bytes decoded as UTF-8 or Latin-1. */
export function documentArbitrary(seeds, { maxMutations = 8 } = {}) {
  const names = Object.values(FAMILY_NAMES).flat();
  const mutated = fc.record({ seed: fc.constantFrom(...seeds), ms: fc.array(mutation, { maxLength: maxMutations }), other: fc.boolean() })
    .map(({ seed, ms, other }) => ({ name: seed.name, text: ms.reduce(mutate, seed.text), how: `${seed.rel} + ${JSON.stringify(ms)}`, other }))
    .chain((d) => (d.other ? fc.constantFrom(...FAMILY_NAMES[kindOf(d.name)]).map((name) => ({ ...d, name })) : fc.constant(d)));
  const spliced = fc.record({ a: fc.constantFrom(...seeds), b: fc.constantFrom(...seeds), i: fc.nat(), j: fc.nat() })
    .map(({ a, b, i, j }) => ({ name: a.name, text: a.text.slice(0, i % (a.text.length + 1)) + b.text.slice(j % (b.text.length + 1)), how: `splice ${a.rel} | ${b.rel} at ${i}/${j}` }));
  const random = fc.record({ name: fc.constantFrom(...names), text: fc.string({ unit: fc.constantFrom(...TOKENS, 'a', 'b', '1', ' ', '\n'), maxLength: 200 }) })
    .map((d) => ({ ...d, text: d.text, how: 'tokens' }));
  const binary = fc.record({ name: fc.constantFrom(...names), bytes: fc.uint8Array({ maxLength: 2000 }), latin1: fc.boolean() })
    .map(({ name, bytes, latin1 }) => ({ name, text: Buffer.from(bytes).toString(latin1 ? 'latin1' : 'utf8'), how: `bytes(${bytes.length}, ${latin1 ? 'latin1' : 'utf8'})` }));
  const unicode = fc.record({ name: fc.constantFrom(...names), text: fc.string({ unit: 'binary', maxLength: 300 }) }).map((d) => ({ ...d, how: 'unicode' }));
  return fc.oneof({ arbitrary: mutated, weight: 6 }, { arbitrary: spliced, weight: 1 }, { arbitrary: random, weight: 2 }, { arbitrary: binary, weight: 1 }, { arbitrary: unicode, weight: 1 });
}

/** Line lengths as LSP counts them (lines end at \r\n, \r or \n; characters are UTF-16 code units). */
export function lineLengths(text) {
  const out = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      out.push(i - start);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  out.push(text.length - start);
  return out;
}

/** Problems with diagnostic ranges: outside the document, negative, or end before start. [] when all is well. */
export function rangeProblems(text, diagnostics) {
  const lens = lineLengths(text);
  const bad = [];
  const okPos = (p) => Number.isInteger(p?.line) && Number.isInteger(p?.character) && p.line >= 0 && p.character >= 0 && p.line < lens.length && p.character <= lens[p.line];
  for (const d of diagnostics) {
    const r = d.range;
    const code = d.code ?? d.ruleId;
    if (!okPos(r?.start) || !okPos(r?.end)) bad.push(`${code} ${JSON.stringify(r)} outside the document (${lens.length} lines${r?.start && lens[r.start.line] !== undefined ? `, line ${r.start.line} has ${lens[r.start.line]} characters` : ''})`);
    else if (r.end.line < r.start.line || (r.end.line === r.start.line && r.end.character < r.start.character)) bad.push(`${code} ${JSON.stringify(r)} ends before it starts`);
  }
  return bad;
}

/** The diagnostics of a publishDiagnostics or analyze(), as comparable strings (order-free). */
export const signature = (diags) => diags.map((d) => `${d.code ?? d.ruleId}|${d.severity}|${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}|${d.message}`).sort();

/** Special inputs: name, text and the bound (ms) the server must answer within. */
export function specialInputs() {
  const N = 10000;
  const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)];
  const big = [];
  for (let i = 0, n = 0; n < 10 * 1024 * 1024; i++) {
    const d = `---\napiVersion: ${i % 7 ? 'apps/v1' : 'extensions/v1beta1'}\nkind: Deployment\nmetadata:\n  name: app-${i}\n  labels: {team: "t${i % 13}", tier: "gold"}\nspec:\n  replicas: ${i % 5}\n  template:\n    spec:\n      containers:\n        - name: c\n          image: "nginx:1.25.${i % 9}"\n`;
    big.push(d);
    n += d.length;
  }
  const bytes = (arr) => Buffer.from(arr).toString('utf8');
  return [
    { name: '10 MB manifest', file: 'big.yaml', text: big.join(''), bound: 30000 },
    { name: '1 MB line, YAML scalar', file: 'manifest.yaml', text: `apiVersion: v1\nkind: ConfigMap\ndata:\n  k: ${'x'.repeat(1 << 20)}\n`, bound: 5000 },
    { name: '1 MB line, localhost.yml', file: 'localhost.yml', text: `system_mode: simplex\ndns_servers: [${'"8.8.8.8",'.repeat(100000)}]\n`, bound: 5000 },
    { name: '1 MB line, TOML string', file: 'configuration-qemu.toml', text: `[hypervisor.qemu]\nkernel_params = "${'x'.repeat(1 << 20)}"\n`, bound: 5000 },
    { name: '1 MB line, JSON', file: 'persist.json', text: `{"PersistVersion": 2, "x": "${'y'.repeat(1 << 20)}"}`, bound: 5000 },
    { name: '1 MB line, no line break', file: 'manifest.yaml', text: 'a b c d '.repeat(1 << 17), bound: 5000 },
    { name: 'nesting 10,000, YAML flow sequences', file: 'manifest.yaml', text: `apiVersion: v1\nkind: ConfigMap\ndata: ${'['.repeat(N)}${']'.repeat(N)}\n`, bound: 5000 },
    { name: 'nesting 10,000, YAML flow mappings', file: 'localhost.yml', text: `system_mode: simplex\nx: ${'{a: '.repeat(N)}1${'}'.repeat(N)}\n`, bound: 5000 },
    { name: 'nesting 10,000, YAML block sequences', file: 'manifest.yaml', text: `apiVersion: v1\nkind: ConfigMap\ndata:\n  ${'- '.repeat(N)}x\n`, bound: 5000 },
    { name: 'nesting 10,000, YAML unclosed', file: 'manifest.yaml', text: `apiVersion: v1\nkind: ConfigMap\ndata: ${'['.repeat(N)}\n`, bound: 5000 },
    { name: 'nesting 10,000, TOML inline tables', file: 'configuration-qemu.toml', text: `[hypervisor.qemu]\nx = ${'{a = '.repeat(N)}1${'}'.repeat(N)}\n`, bound: 5000 },
    { name: 'nesting 10,000, TOML arrays', file: 'configuration-qemu.toml', text: `[hypervisor.qemu]\nx = ${'['.repeat(N)}${']'.repeat(N)}\n`, bound: 5000 },
    { name: 'nesting 10,000, TOML dotted key', file: 'configuration-qemu.toml', text: `[hypervisor.qemu]\n${Array(N).fill('a').join('.')} = 1\n`, bound: 8000 },
    { name: 'nesting 10,000, JSON arrays', file: 'persist.json', text: `${'['.repeat(N)}${']'.repeat(N)}`, bound: 5000 },
    { name: 'nesting 10,000, JSON objects', file: 'persist.json', text: `${'{"a":'.repeat(N)}1${'}'.repeat(N)}`, bound: 5000 },
    { name: 'nesting 10,000, JSON manifest', file: 'manifest.json', text: `{"apiVersion":"v1","kind":"ConfigMap","data":${'{"a":'.repeat(N)}1${'}'.repeat(N)}}`, bound: 5000 },
    { name: 'billion laughs, manifest', file: 'manifest.yaml', text: `apiVersion: v1\nkind: ConfigMap\n${lol.join('\n')}\n`, bound: 3000 },
    { name: 'billion laughs, localhost.yml', file: 'localhost.yml', text: `${lol.join('\n')}\n`, bound: 3000 },
    { name: 'billion laughs, .skewguard.yaml-shaped', file: 'site/other.yml', text: `rules:\n  x: &x [${Array(9).fill('error').join(',')}]\n${lol.join('\n')}\n`, bound: 3000 },
    { name: 'alias cycle-ish merge keys', file: 'manifest.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nbase: &b {x: 1}\nd1: &d1 {<<: *b}\nd2: &d2 {<<: [*b, *d1]}\nd3: {<<: [*d1, *d2]}\n', bound: 3000 },
    { name: 'invalid UTF-8 decoded (U+FFFD)', file: 'localhost.yml', text: bytes([0x73, 0x79, 0x73, 0x74, 0x65, 0x6d, 0x5f, 0x6d, 0x6f, 0x64, 0x65, 0x3a, 0x20, 0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0xf0, 0x28, 0x8c, 0x28, 0x0a, 0xe2, 0x82, 0x0a]), bound: 3000 },
    { name: 'invalid UTF-8 in a TOML key', file: 'configuration-qemu.toml', text: `[hypervisor.qemu]\n${bytes([0xc0, 0xaf, 0x61])} = 1\nkernel = "${bytes([0xed, 0xbf, 0xbf])}"\n`, bound: 3000 },
    { name: 'BOM + CRLF manifest', file: 'manifest.yaml', text: '\uFEFFapiVersion: extensions/v1beta1\r\nkind: Deployment\r\nmetadata:\r\n  name: x\r\n', bound: 3000 },
    { name: 'lone CR line ends', file: 'manifest.yaml', text: 'apiVersion: extensions/v1beta1\rkind: Deployment\rmetadata:\r  name: x\r', bound: 3000 },
    { name: 'BOM + CRLF TOML', file: 'configuration-qemu.toml', text: '\uFEFF[hypervisor.qemu]\r\nhotplug_vfio_on_root_bus = true\r\ndefault_vcpus = "2"\r\n', bound: 3000 },
    { name: 'BOM JSON', file: 'persist.json', text: '\uFEFF{"PersistVersion": "2", "__proto__": {}}', bound: 3000 },
    { name: 'tabs as indentation', file: 'localhost.yml', text: 'system_mode: simplex\ndns_servers:\n\t- 8.8.8.8\n', bound: 3000 },
    { name: 'astral characters', file: 'manifest.yaml', text: '# 😀😀😀\napiVersion: extensions/v1beta1 # 𝔘𝔫𝔦\nkind: Deployment\nmetadata:\n  name: "😀"\n  labels: {😀: 𝔘}\n', bound: 3000 },
    { name: 'astral characters, TOML', file: 'configuration-qemu.toml', text: '# 😀\n[hypervisor.qemu]\n"😀" = "𝔘"\ndefault_vcpus = "😀"\n', bound: 3000 },
    { name: 'lone surrogates', file: 'localhost.yml', text: 'system_mode: simplex\nkubernetes_version: v1.21.3\uD800\n\uDC00x: 1\n', bound: 3000 },
    { name: 'only a BOM', file: 'localhost.yml', text: '\uFEFF', bound: 3000 },
    { name: 'empty', file: 'configuration-qemu.toml', text: '', bound: 3000 },
  ];
}

/** Problems these properties found, each now fixed and tested on its own (see the tests that use them). */
export const KNOWN = {
  /** yaml 2.x Document.toJS on nested flow collections used as mapping keys: super-polynomial (parse/yaml.ts). */
  flowKeyBlowup: { name: 'nested flow collections as keys', file: 'manifest.yaml', text: '{['.repeat(400) },
  /** toml-eslint-parser 1.0.3: String.fromCodePoint(...out) overflows the stack on strings of ~120k+ characters. */
  longTomlString: '1 MB line, TOML string',
};

/** LSP position of an offset (lines end at \r\n, \r or \n). */
export function positionAt(text, offset) {
  let line = 0, start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) { if (i + 1 >= offset) break; i++; }
      line++; start = i + 1;
    }
  }
  return { line, character: offset - start };
}

/** A random edit of `text`: a range (by offsets, never inside a \r\n) and its replacement. */
export const editArbitrary = fc.record({ a: fc.nat(), len: fc.integer({ min: 0, max: 30 }), insert: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 8 }), fc.constant('')) });

export function toChange(text, e) {
  let s = text.length ? e.a % (text.length + 1) : 0;
  let end = Math.min(text.length, s + e.len);
  if (text[s - 1] === '\r' && text[s] === '\n') s--;
  if (text[end - 1] === '\r' && text[end] === '\n') end++;
  end = Math.max(s, end);
  return { range: { start: positionAt(text, s), end: positionAt(text, end) }, text: e.insert };
}

/** What fix-all gives, applied pass after pass (as lsp-lint --fix does), through the server. */
export async function fixAllThroughServer(client, uri, text) {
  let version = 1;
  await client.open(uri, text, version);
  for (let pass = 0; pass < 10; pass++) {
    const actions = await client.request('textDocument/codeAction', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: [FIX_ALL_KIND] },
    });
    const edits = (actions ?? []).find((a) => a.kind === FIX_ALL_KIND)?.edit?.changes?.[uri] ?? [];
    if (!edits.length) break;
    const next = applyTextEdits(text, edits);
    if (next === text) break;
    text = next;
    await client.change(uri, ++version, [{ text }]);
  }
  await client.notify('textDocument/didClose', { textDocument: { uri } });
  return text;
}

/**
 * `lsp-lint --fix` over fixable seeds (each also with CRLF line ends, a BOM and comment changes, as fast-check
 * samples them) and broken copies: the written bytes are exactly what the server's fix-all edits give, pass
 * after pass; a file that fails to parse is neither changed nor written; a second --fix changes nothing.
 * Throws an AssertionError on the first violation; returns { files, changed }.
 */
export async function checkLspLintFix({ seeds, engine, config, cli, flags, variants: numVariants = 30, seed: SEED = 1 }) {
  const CLI = cli, CLI_FLAGS = flags;
  // Fixable seeds, each also with CRLF line ends, a BOM, and random comment-only changes; and broken copies.
  const fixable = seeds.filter((s) => s.text.length < 40000).filter((s) => {
    const r = engine.analyze({ path: `/ws/${s.name}`, text: s.text, config });
    return !r.diagnostics.some((d) => d.ruleId === 'syntax/parse-error') && r.diagnostics.some((d) => d.fixes?.some((f) => f.preferred && !f.partial));
  });
  assert.ok(fixable.length >= 5, `only ${fixable.length} fixable seeds`);
  const comment = (s) => (s.kind === 'json' ? '' : '\n# skewguard fuzz comment 😀\t\n');
  const variants = fc.sample(fc.record({ seed: fc.constantFrom(...fixable), crlf: fc.boolean(), bom: fc.boolean(), comments: fc.boolean() }), { numRuns: numVariants, seed: SEED });
  const files = {};
  const broken = new Set();
  variants.forEach((v, i) => {
    let text = v.seed.text;
    if (v.comments) text = comment(v.seed) + text + comment(v.seed);
    if (v.crlf) text = text.replace(/\r?\n/g, '\r\n');
    if (v.bom) text = `\uFEFF${text}`;
    files[`v${String(i).padStart(2, '0')}/${v.seed.name}`] = text;
  });
  fixable.forEach((s, i) => {
    // Fixable findings and a syntax error: fix-all offers nothing, and the file must stay as it is.
    const tail = s.kind === 'yaml' ? '\n---\nkey: [unclosed\n' : s.kind === 'toml' ? '\n[[[broken\n' : '\n,,,';
    const rel = `broken${String(i).padStart(2, '0')}/${s.name}`;
    files[rel] = s.text + tail;
    broken.add(rel);
  });
  const root = makeWorkspace(files);
  let changed = 0;
  const snapshot = () => Object.fromEntries(Object.keys(files).map((rel) => {
    const p = path.join(root, rel);
    return [rel, { bytes: fs.readFileSync(p), mtimeMs: fs.statSync(p).mtimeMs }];
  }));
  try {
    const before = snapshot();
    // mtimes have coarse resolution on some file systems: make any rewrite visible.
    const old = new Date(Date.now() - 60000);
    for (const rel of Object.keys(files)) fs.utimesSync(path.join(root, rel), old, old);
    const stamped = snapshot();
    const run1 = spawnSync(process.execPath, [lspLint, ...CLI_FLAGS, '--fix', '--format', 'json', '.'], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.ok(run1.status === 0 || run1.status === 1, `lsp-lint --fix exited ${run1.status}: ${run1.stderr}`);
    const after1 = snapshot();

    const client = new LspClient(root, { initializationOptions: { cli: CLI }, settings: { skewguard: { debounceMs: 0 } } });
    try {
      await client.initialize();
      for (const rel of Object.keys(files)) {
        const original = before[rel].bytes.toString('utf8');
        if (broken.has(rel)) {
          assert.ok(after1[rel].bytes.equals(before[rel].bytes), `${rel}: a file that fails to parse was changed`);
          assert.equal(after1[rel].mtimeMs, stamped[rel].mtimeMs, `${rel}: a file that fails to parse was written`);
          continue;
        }
        const bom = original.startsWith('\uFEFF');
        const expected = (bom ? '\uFEFF' : '') + await fixAllThroughServer(client, uriOf(path.join(root, 'expect', rel)), bom ? original.slice(1) : original);
        assert.equal(after1[rel].bytes.toString('utf8'), expected, `${rel}: lsp-lint --fix wrote other bytes than its fix edits name`);
        if (expected !== original) changed++;
        else assert.equal(after1[rel].mtimeMs, stamped[rel].mtimeMs, `${rel}: rewritten although nothing changed`);
      }
      await client.shutdown();
    } finally { client.kill(); }

    const run2 = spawnSync(process.execPath, [lspLint, ...CLI_FLAGS, '--fix', '--format', 'json', '.'], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.ok(run2.status === 0 || run2.status === 1, run2.stderr);
    const after2 = snapshot();
    for (const rel of Object.keys(files)) {
      assert.ok(after2[rel].bytes.equals(after1[rel].bytes), `${rel}: a second --fix changed the file`);
      assert.equal(after2[rel].mtimeMs, after1[rel].mtimeMs, `${rel}: a second --fix rewrote the file`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { files: Object.keys(files).length, changed };
}
