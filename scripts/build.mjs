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

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }),
  // dist/server.js runs dist/server-main.js (the server) from a V8 code cache: server/src/server/entry.ts.
  build({ ...common, entryPoints: ['server/src/server/entry.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/server/main.ts'], outfile: 'dist/server-main.js' }),
  build({ ...common, entryPoints: ['server/src/engine/index.ts'], outfile: 'dist/engine.js' }),
  // The server's Helm rendering alone, for its tests (not packaged: the server bundles it).
  build({ ...common, entryPoints: ['server/src/server/helm-render.ts'], outfile: 'dist/helm-render.js' }),
  // The web extension (package.json "browser"): the client for the web extension host, the server for a web worker.
  ...webBuilds(),
]);

// The engine just built, loaded fresh (not from a cache of an earlier build).
const enginePath = path.join(root, 'dist/engine.js');
delete createRequire(import.meta.url).cache?.[enginePath];
const engine = createRequire(import.meta.url)(enginePath);
const rules = engine.allRules.map((r) => ({
  id: r.id, family: r.family, defaultSeverity: r.defaultSeverity, title: r.title, what: r.what, why: r.why, docsUrl: engine.docsUrl(r.id),
  ...(r.oncePerRun ? { oncePerRun: true } : {}), ...(r.plutoExitCode ? { plutoExitCode: r.plutoExitCode } : {}),
}));
await Promise.all([
  // dist/lsp-lint.js spawns the server, then runs dist/lsp-lint-main.js from a V8 code cache: server/src/cli/entry.ts.
  build({ ...common, entryPoints: ['server/src/cli/entry.ts'], outfile: 'dist/lsp-lint.js' }),
  build({
    ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/lsp-lint-main.js',
    define: { ...common.define, __SKEWGUARD_RULES__: JSON.stringify(rules) },
  }),
]);

/**
 * The web extension's bundles (dist/web/): the same client features and the same server and engine, for the browser.
 * The server's Node modules are replaced (server/src/web/): node:fs by an in-memory file system holding the package's
 * data/ and the schemas the engine reads (inlined here, the files the .vsix ships) and the workspace files the web
 * client hands over; vscode-languageserver/node by its browser entry; Helm rendering by a stub that never runs Helm.
 * Any other Node module the server's path would reach is an error of this build (platform browser, no externals).
 */
function webBuilds() {
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
      b.onResolve({ filter: /\/helm-render$/ }, (a) => (a.importer.startsWith(path.join(root, 'server/src/server'))
        ? { path: path.join(root, 'server/src/web/helm-render.ts') } : undefined));
      b.onResolve({ filter: /^skewguard:web-data$/ }, () => ({ path: 'web-data', namespace: 'skewguard-web-data' }));
      b.onLoad({ filter: /.*/, namespace: 'skewguard-web-data' }, () => ({ contents: webDataModule(shim('fs.ts')), loader: 'js', resolveDir: root }));
    },
  };
  return [
    build({ ...web, format: 'cjs', entryPoints: ['client/src/browser.ts'], outfile: 'dist/web/client.js', external: ['vscode'] }),
    build({
      ...web, format: 'iife', entryPoints: ['server/src/server/browser.ts'], outfile: 'dist/web/server.js', plugins: [plugin],
      inject: [path.join(root, 'server/src/web/shims/globals.ts')], define: { ...common.define, __dirname: '"/__skewguard__/dist"' },
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
