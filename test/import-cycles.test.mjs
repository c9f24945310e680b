// Issue #30 item 4: no load-time import cycle among server/src's modules. A cycle makes a module's exports undefined
// while its importer loads (the engine's config.ts kept one alive with a `get enum()` getter). The graph is read from
// the sources with the TypeScript compiler API (test/helpers/import-graph.mjs): a static import that is not
// `import type` (nor all of whose names are `type`) is a load-time edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from './helpers/k8s.mjs';
import { importGraph, allCycles, cycleGroups, loadTimeImports } from './helpers/import-graph.mjs';

/**
 * Load-time cycles allowed: none. config.ts → registry → families → config.ts went when the families' config
 * sections moved into their folders, crds.ts ↔ kubernetes/index.ts with manifest-objects.ts. A cycle not listed
 * fails the test, and so does a listed one that is gone (so the list stays exact).
 */
const ALLOWED_CYCLES = [];

/** The graph, read once for the tests below. */
let graph;
const serverGraph = () => (graph ??= importGraph(path.join(repoRoot, 'server/src'), repoRoot));

test('server/src has no load-time import cycle but the listed ones (each listed one still exists)', () => {
  const cycles = allCycles(serverGraph());
  const extra = cycles.filter((c) => !ALLOWED_CYCLES.includes(c));
  const gone = ALLOWED_CYCLES.filter((c) => !cycles.includes(c));
  assert.deepEqual(extra, [], `load-time import cycles (make an import \`import type\`, or move the shared part down):\n${extra.join('\n')}`);
  assert.deepEqual(gone, [], `listed cycles that no longer exist: delete them from ALLOWED_CYCLES:\n${gone.join('\n')}`);
});

test('the language server\'s own modules (server/src/server, shared, cli) are in no cycle at all', () => {
  const groups = cycleGroups(serverGraph());
  const ours = groups.filter((g) => g.some((f) => !f.startsWith('server/src/engine/')));
  assert.deepEqual(ours, []);
});

test('the scanner: type-only imports are no edge, value, side-effect and re-export imports are', () => {
  const text = [
    "import type { A } from './a';",
    "import { type B, type C } from './b';",
    "import { type D, e } from './c';",
    "import f from './d';",
    "import * as g from './e';",
    "import './f';",
    "export { h } from './g';",
    "export type { I } from './h';",
    "export * from './i';",
    "const j = () => import('./j');",
    "const k = require('./k');",
  ].join('\n');
  assert.deepEqual(loadTimeImports(text), ['./c', './d', './e', './f', './g', './i']);
});

test('the cycle finder: every elementary cycle once, none in a chain', () => {
  const g = new Map([['a', ['b']], ['b', ['c', 'a']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
  assert.deepEqual(allCycles(g), ['a → b → a', 'a → b → c → a', 'e → e']);
  assert.deepEqual(cycleGroups(g), [['a', 'b', 'c'], ['e']]);
  assert.deepEqual(allCycles(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
});
