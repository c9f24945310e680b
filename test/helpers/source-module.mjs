// A source module of the server or client that dist/ does not export, bundled alone with esbuild and loaded, for a unit
// test of it: `rel` (repository-relative) or `{ contents }` (a TypeScript entry that re-exports what the test needs).
// `require`: what the bundle's own require() is (a stand-in for node:fs, vscode …); by default the tests' own.
// `external`: packages left to that require (e.g. the engine's, resolved from dist/ with `require` made there).
import path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from './k8s.mjs';

const testsRequire = createRequire(import.meta.url);

export async function loadSource(entry, { require = testsRequire, ...opts } = {}) {
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', '__dirname', await bundleSource(entry, opts))(mod, mod.exports, require, path.join(repoRoot, 'dist'));
  return mod.exports;
}

/** The CommonJS text loadSource runs (for a test that runs it elsewhere: a child process with flags of its own). */
export async function bundleSource(entry, { packagesExternal = false, external = [] } = {}) {
  const { buildSync } = await import('esbuild');
  const input = typeof entry === 'string'
    ? { entryPoints: [path.join(repoRoot, entry)] }
    : { stdin: { contents: entry.contents, resolveDir: repoRoot, loader: 'ts' } };
  return buildSync({
    ...input, absWorkingDir: repoRoot, bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent',
    external, ...(packagesExternal ? { packages: 'external' } : {}),
  }).outputFiles[0].text;
}

/** require() as dist/engine.js sees it: for a bundle whose packages are left external (packagesExternal). */
export const distRequire = createRequire(path.join(repoRoot, 'dist/engine.js'));
