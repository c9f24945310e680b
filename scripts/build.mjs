// Bundles the client, the server, the CLI and the engine library into single files under dist/,
// so that extension activation and `lsp-lint` start-up load one file each instead of a module tree.
// Put in at build time (esbuild `define`): the product version from package.json (server/src/shared/version.ts),
// and for lsp-lint, which does not bundle the engine, the rule table it needs for --rule and SARIF
// (server/src/cli/rule-meta.ts), taken from the rule registry of the engine built first.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { schemaDirsUsed } from './package.mjs';
import { familyServicesPlugin } from './family-services.mjs';
import { buildValidators } from './validators.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
  minify: process.argv.includes('--minify'),
  define: { __SKEWGUARD_VERSION__: JSON.stringify(pkg.version) },
};
const require = createRequire(import.meta.url);

/**
 * Start-up plugins of the two bundles a run of lsp-lint starts (dist/server-main.js, dist/lsp-lint-main.js):
 * - Node modules that the LSP libraries require at load time for paths lsp-lint never takes are loaded on first use
 *   (LAZY_BUILTINS; about 3 ms for node:crypto, half a millisecond for node:child_process, in each process):
 *   vscode-jsonrpc's node files want node:crypto for a pipe name and a UUID, vscode-languageserver's files.js wants
 *   node:child_process to find a global npm or yarn. Only for those files, and only the functions each one calls
 *   (checked here against its source): our own sources load such modules lazily themselves.
 * - Node's own modules imported by our sources, and vscode-languageserver/node, are each turned into an ES module once (one esbuild __toESM copy of its exports: 300-odd for the LSP library),
 *   not once per importing source file (ten copies, several milliseconds of the server's start).
 */
const LAZY_BUILTINS = [
  { module: 'crypto', importer: /[\\/]vscode-jsonrpc[\\/]lib[\\/]node[\\/][\w.-]+\.js$/, names: ['randomBytes', 'randomUUID'] },
  { module: 'child_process', importer: /[\\/]vscode-languageserver[\\/]lib[\\/]node[\\/]files\.js$/, names: ['fork', 'spawnSync'] },
];
/** Our own sources (not node_modules), for the plugin's Node-module rule. */
const OWN_SOURCE = /[\\/](server|client)[\\/]src[\\/]/;
const startupPlugin = {
  name: 'skewguard-startup',
  setup(b) {
    for (const lazy of LAZY_BUILTINS) {
      const ns = `skewguard-lazy-${lazy.module}`;
      b.onResolve({ filter: new RegExp(`^(node:)?${lazy.module}$`) }, (a) => {
        if (!lazy.importer.test(a.importer)) return undefined;
        const used = new Set([...fs.readFileSync(a.importer, 'utf8').matchAll(new RegExp(`\\b${lazy.module}_1\\.(\\w+)`, 'g'))].map((m) => m[1]));
        const missing = [...used].filter((n) => !lazy.names.includes(n));
        if (missing.length) return { errors: [{ text: `${a.importer} uses node:${lazy.module}'s ${missing.join(', ')}: add to LAZY_BUILTINS` }] };
        return { path: lazy.module, namespace: ns };
      });
      b.onLoad({ filter: /.*/, namespace: ns }, () => ({
        loader: 'js',
        contents: `let m;\nconst mod = () => (m ??= require('node:${lazy.module}'));\n${lazy.names.map((n) => `export function ${n}(...a) { return mod().${n}(...a); }`).join('\n')}\n`,
      }));
    }
    // Node's own modules imported by our sources (`import * as fs from 'node:fs'`): one ES module per Node module, so
    // one esbuild __toESM copy of node:fs's hundred exports instead of one per importing file (13 of node:fs and 33
    // of node:path in the server: about 2.5 ms of every start). Only import statements: a require() stays a require.
    b.onResolve({ filter: /^node:[\w/]+$/ }, (a) => {
      if (a.kind !== 'import-statement' || a.namespace !== 'file' || !OWN_SOURCE.test(a.importer)) return undefined;
      return { path: a.path, namespace: 'skewguard-builtin-once' };
    });
    b.onLoad({ filter: /.*/, namespace: 'skewguard-builtin-once' }, (a) => {
      const names = Object.keys(require(a.path)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
      return { loader: 'js', resolveDir: root, contents: `export { ${names.join(', ')} } from '${a.path}';\nexport { default } from '${a.path}';\n` };
    });
    b.onResolve({ filter: /^vscode-languageserver\/node$/ }, (a) => (a.namespace === 'skewguard-esm-once' ? undefined
      : { path: require.resolve('vscode-languageserver/node', { paths: [a.resolveDir] }), namespace: 'skewguard-esm-once' }));
    b.onLoad({ filter: /.*/, namespace: 'skewguard-esm-once' }, (a) => {
      const names = Object.keys(require(a.path)).filter((n) => n !== 'default' && n !== '__esModule');
      return { loader: 'js', resolveDir: root, contents: `export { ${names.join(', ')} } from 'vscode-languageserver/node';\n` };
    });
  },
};

// The engine first: the bundles that do not bundle it take tables from it (the rules, the families' window flags, the
// files the families serve).
await build({ ...common, entryPoints: ['server/src/engine/index.ts'], outfile: 'dist/engine.js' });
// The engine just built, loaded fresh (not from a cache of an earlier build).
const enginePath = path.join(root, 'dist/engine.js');
delete require.cache?.[enginePath];
const engine = require(enginePath);
// The files the families serve (server/src/shared/served.ts): lsp-lint's walk, the clients' selector and web reads.
const served = { __SKEWGUARD_SERVED__: JSON.stringify(engine.servedTable()) };
// The families' server sides (server/src/server/family-service.ts), from the registry's ids: scripts/family-services.mjs.
const familyIds = [...engine.FAMILIES];
await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'], define: { ...common.define, ...served } }),
  // dist/server.js runs dist/server-main.js (the server) from a V8 code cache: server/src/server/entry.ts.
  build({ ...common, entryPoints: ['server/src/server/entry.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/server/main.ts'], outfile: 'dist/server-main.js', plugins: [startupPlugin, familyServicesPlugin(root, familyIds)], define: { ...common.define, ...served } }),
  // The Helm family's server-side rendering alone, for its tests (not packaged: the server bundles it).
  build({ ...common, entryPoints: ['server/src/engine/families/helm-chart/server/helm-render.ts'], outfile: 'dist/helm-render.js' }),
  // The web extension (package.json "browser"): the client for the web extension host, the server for a web worker.
  ...webBuilds(served, familyIds),
  // The JSON Schema validators the engine uses, compiled (dist/validators/: scripts/validators.mjs).
  buildValidators(root, engine),
]);

const rules = engine.allRules.map((r) => ({
  id: r.id, family: r.family, defaultSeverity: r.defaultSeverity, title: r.title, what: r.what, why: r.why, docsUrl: engine.docsUrl(r.id),
  ...(r.oncePerRun ? { oncePerRun: true } : {}), ...(r.plutoExitCode ? { plutoExitCode: r.plutoExitCode } : {}),
}));
// The families' window flags (their config sections: server/src/cli/family-flags.ts).
const familyFlags = engine.CONFIG_SECTIONS.flatMap((c) => c.flags);
await Promise.all([
  // dist/lsp-lint.js spawns the server, then runs dist/lsp-lint-main.js from a V8 code cache: server/src/cli/entry.ts.
  build({ ...common, entryPoints: ['server/src/cli/entry.ts'], outfile: 'dist/lsp-lint.js' }),
  build({
    ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/lsp-lint-main.js', plugins: [startupPlugin],
    define: { ...common.define, __SKEWGUARD_RULES__: JSON.stringify(rules), __SKEWGUARD_FAMILY_FLAGS__: JSON.stringify(familyFlags), ...served },
  }),
]);
for (const f of ['dist/server-main.js', 'dist/lsp-lint-main.js']) asciiOnly(path.join(root, f));
// Node reads the nearest package.json of each script it loads (for its "type"): the repository's is the 95 KB
// extension manifest, read and parsed at every start of lsp-lint and of its server (about 1 ms each). This one in
// dist/ (and bin/package.json for bin/) is found first. npm ships both (.npmignore); the .vsix needs neither.
fs.writeFileSync(path.join(root, 'dist', 'package.json'), `${JSON.stringify({ private: true, type: 'commonjs' })}\n`);

/**
 * The two bundles that shared/code-cache.ts loads at every start, in ASCII: esbuild escapes strings, not comments or
 * regular expression literals ("…" in a doc comment, /[✓✗⚠]/), and a text that is not ASCII is decoded as UTF-8 into
 * a two-byte string twice the size, several milliseconds more than latin1 for the server's 2 MB. Each character left
 * is written as its \u escape, which means the same in a comment and in a regular expression (the only places esbuild
 * leaves one). A line of any other kind leaves the bundle as it is (correct, only slower to load), with a warning.
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/[^\x00-\x7f]/.test(lines[i])) continue;
    const t = lines[i].trim();
    if (!/^(\/\/|\/\*|\*)/.test(t) && !/^(var|let|const) \w+ = \/.*\/[dgimsuvy]*;$/.test(t)) {
      console.warn(`build: ${path.relative(root, file)}:${i + 1} has a character outside ASCII outside a comment or a regular expression literal; left as UTF-8 (slower start-up)`);
      return;
    }
    lines[i] = lines[i].replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  fs.writeFileSync(file, lines.join('\n'));
}

/**
 * The web extension's bundles (dist/web/): the same client features and the same server and engine, for the browser.
 * The server's Node modules are replaced (server/src/web/): node:fs by an in-memory file system holding the package's
 * data/ and the schemas the engine reads (inlined here, the files the .vsix ships) and the workspace files the web
 * client hands over; vscode-languageserver/node by its browser entry; a module of a family's server folder by its
 * `.web.ts` sibling when it has one (Helm rendering by a stub that never runs Helm: scripts/family-services.mjs).
 * Any other Node module the server's path would reach is an error of this build (platform browser, no externals).
 */
function webBuilds(served, familyIds) {
  const web = { ...common, platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'] };
  const shim = (f) => path.join(root, 'server/src/web/shims', f);
  const byModule = { fs: shim('fs.ts'), path: shim('path.ts'), 'fs/promises': shim('misc.ts') };
  const NODE = /^(node:)?(fs|fs\/promises|path|url|util|zlib|crypto|stream|os|child_process|net|http|https|module|vm|buffer|readline|events|v8)$/;
  const plugin = {
    name: 'skewguard-web',
    setup(b) {
      b.onResolve({ filter: NODE }, (a) => {
        const m = a.path.replace(/^node:/, '');
        // The real 'events'/'buffer' packages are not dependencies; nothing on the server's path needs them.
        return { path: byModule[m] ?? shim('misc.ts') };
      });
      b.onResolve({ filter: /^vscode-languageserver\/node$/ }, () => ({ path: path.join(root, 'server/src/web/lsp-node.ts') }));
      b.onResolve({ filter: /^skewguard:web-data$/ }, () => ({ path: 'web-data', namespace: 'skewguard-web-data' }));
      b.onLoad({ filter: /.*/, namespace: 'skewguard-web-data' }, () => ({ contents: webDataModule(shim('fs.ts')), loader: 'js', resolveDir: root }));
    },
  };
  return [
    build({ ...web, format: 'cjs', entryPoints: ['client/src/browser.ts'], outfile: 'dist/web/client.js', external: ['vscode'], define: { ...common.define, ...served } }),
    build({
      ...web, format: 'iife', entryPoints: ['server/src/server/browser.ts'], outfile: 'dist/web/server.js', plugins: [plugin, familyServicesPlugin(root, familyIds, { web: true })],
      inject: [path.join(root, 'server/src/web/shims/globals.ts')], define: { ...common.define, ...served, __dirname: '"/__skewguard__/dist"' },
    }),
  ];
}

/** The package's data/ and the schema folders the engine reads (what the .vsix ships), as files of the in-memory file system. */
function webDataModule(fsShim) {
  const dirs = ['data/', ...schemaDirsUsed()];
  const files = {};
  for (const d of dirs) {
    for (const f of fs.readdirSync(path.join(root, d), { recursive: true })) {
      if (!f.endsWith('.json')) continue;
      const rel = d + f.split(path.sep).join('/');
      // Compact JSON: the same values, a third smaller.
      files[rel] = JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')));
    }
  }
  return `import { putFile, PACKAGE_ROOT } from ${JSON.stringify(fsShim)};
const files = ${JSON.stringify(files)};
for (const rel of Object.keys(files)) putFile(PACKAGE_ROOT + '/' + rel, files[rel], files[rel].length);
`;
}
