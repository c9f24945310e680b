// Property: one `analyze` of a YAML file takes time linear in the file's size, for the shapes that were
// super-linear (issue #13: a one-line flow map of 50,000 keys took 18.9 s, the duplicate-key check compared every
// key with every earlier one; 20,000 aliases took 23 s, each alias scanned the document from its start) and the
// other big shapes: block maps, many documents, deep nesting, long sequences.
//
// For each shape the median time of a few runs is measured at sizes N and 4N; quadrupling the size may cost at
// most 2.5 x 2.5 = 6.25 times the time (two doublings at ~2.5x each; quadratic code gives 16x). Only ratios are
// compared, never absolute times, and the sizes are chosen so one run takes tens of milliseconds (noise does not
// dominate) and the whole file a few seconds. The parse cache is off and every run's text is new, so every run parses.
// Reads the built engine (dist/engine.js); `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const config = e.resolveConfig({ cli: { kubernetesWindow: '1.16..1.22', starlingxRelease: '12.0' } });
e.setParseCacheBudget(0);

const head = (run) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: run${run}\n`;
const crlf = (t) => t.replace(/\n/g, '\r\n');
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

/** Shapes: [name, base size N, text of size n for run r]. CRLF variants take the full parse (no fast path). */
const SHAPES = [
  ['one-line flow map of N keys', 20000, (n, r) => `${head(r)}data: {${range(n, (i) => `k${i}: v`).join(', ')}}\n`],
  ['one-line flow map of N keys, CRLF', 3000, (n, r) => crlf(`${head(r)}data: {${range(n, (i) => `k${i}: v`).join(', ')}}\n`)],
  ['N anchors, each aliased once', 600, (n, r) => `${head(r)}data:\n${range(n, (i) => `  a${i}: &a${i} v\n  b${i}: *a${i}`).join('\n')}\n`],
  ['N aliases of one anchor (an alias bomb past 1,000)', 1200, (n, r) => `${head(r)}x: &a v\ndata:\n${range(n, (i) => `  k${i}: *a`).join('\n')}\n`],
  ['block map of N keys', 10000, (n, r) => `${head(r)}data:\n${range(n, (i) => `  k${i}: v`).join('\n')}\n`],
  ['block map of N keys, CRLF', 1000, (n, r) => crlf(`${head(r)}data:\n${range(n, (i) => `  k${i}: v`).join('\n')}\n`)],
  ['N documents', 1000, (n, r) => range(n, (i) => `${head(r)}  namespace: d${i}\n---\n`).join('')],
  ['block sequence of N items', 30000, (n, r) => `apiVersion: v1\nkind: List\nmetadata:\n  name: run${r}\nitems:\n${'- 1\n'.repeat(n)}`],
  ['nesting N deep, flow', 4000, (n, r) => `${head(r)}data: ${'['.repeat(n)}${']'.repeat(n)}\n`],
  ['nesting N deep, block', 4000, (n, r) => `${head(r)}data:\n  ${'- '.repeat(n)}x\n`],
  // Every unknown key is a schema problem located by its key: a scan of the keys each time was quadratic.
  ['localhost.yml with N unknown keys', 2000, (n, r) => `system_mode: simplex\nrun_${r}: 1\n${range(n, (i) => `unknown_key_${i}: value`).join('\n')}\n`, { path: '/ws/localhost.yml', family: 'starlingx' }],
];

const RUNS = 3;
let run = 0;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function timeAt(make, n, as = { path: '/ws/manifest.yaml', family: 'kubernetes' }) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const text = make(n, run++);
    const t0 = performance.now();
    const r = e.analyze({ path: as.path, text, config });
    times.push(performance.now() - t0);
    assert.equal(r.family, as.family);
  }
  return median(times);
}

for (const [name, base, make, as] of SHAPES) {
  test(`linear: ${name} (N = ${base} and 4N: 4N at most 6.25x the time of N)`, () => {
    timeAt(make, base, as); // warm up (JIT)
    // Measured twice at most: a busy machine can slow one series down; quadratic code fails both (16x, not 6.25x).
    let why = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const t1 = timeAt(make, base, as), t4 = timeAt(make, 4 * base, as);
      const ratio = t4 / t1;
      if (ratio <= 6.25) return;
      why += `${t1.toFixed(1)} ms at N=${base}, ${t4.toFixed(1)} ms at 4N: ratio ${ratio.toFixed(2)} > 6.25; `;
    }
    assert.fail(`${name}: ${why}`);
  });
}
