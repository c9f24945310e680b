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
