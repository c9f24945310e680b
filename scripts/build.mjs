// Bundles the client, the server, the CLI and the engine library into single files under dist/,
// so that extension activation and `lsp-lint` start-up load one file each instead of a module tree.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
  minify: process.argv.includes('--minify'),
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/src/server/main.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/lsp-lint.js' }),
  build({ ...common, entryPoints: ['server/src/engine/index.ts'], outfile: 'dist/engine.js' }),
]);
