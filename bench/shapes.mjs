#!/usr/bin/env node
// Size → analyze() time for the JSON/TOML shapes of issue #13 (and fixes where asked):
//   node bench/shapes.mjs [shape[,shape…]] [--sizes 1000,2000,4000] [--fixes]
// Prints one line per shape and size: characters, analyze ms (median of 3), and diagnostics.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(ROOT, 'package.json'));
// SKEWGUARD_ENGINE=/path/to/engine.js measures another build (e.g. the code before a change).
const engine = require(process.env.SKEWGUARD_ENGINE ?? './dist/engine.js');
const config = engine.resolveConfig({ cli: { kubernetesWindow: '1.18..1.21', kataWindow: '3.1..3.32', starlingxRelease: '12.0' } });
const sandbox = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/kata/persist-examples/v2-kata-3.32-sandbox.persist.json'), 'utf8'));

export const SHAPES = {
  /** A one-line JSON object of n keys (a persist.json: its family reads JSON with the JSON parser). */
  'json-keys': (n) => ({ name: 'persist.json', text: JSON.stringify({ ...sandbox, Extra: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) }) }),
  /** A one-line JSON object of n top-level keys. */
  'json-top-keys': (n) => ({ name: 'persist.json', text: JSON.stringify({ ...sandbox, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) }) }),
  /** persist.json with n small device objects on one line. */
  'persist-devices': (n) => ({ name: 'persist.json', text: JSON.stringify({ ...sandbox, Devices: Array.from({ length: n }, (_, i) => ({ ID: `d${i}`, Type: 'block', RefCount: 1, AttachCount: 1 })) }) }),
  /** persist.json nested n arrays deep. */
  'json-depth': (n) => ({ name: 'persist.json', text: '['.repeat(n) }),
  'json-array': (n) => ({ name: 'persist.json', text: JSON.stringify({ ...sandbox, Extra: Array.from({ length: n }, (_, i) => i) }) }),
  /** Kata TOML: inline tables nested n deep. */
  'toml-inline-depth': (n) => ({ name: 'configuration.toml', text: `[hypervisor.qemu]\nx = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n` }),
  /** Kata TOML: n tables. */
  'toml-tables': (n) => ({ name: 'configuration.toml', text: Array.from({ length: n }, (_, i) => `[t${i}]\nk = ${i}\n`).join('') }),
  /** Kata TOML: n sub-tables ([t0.x], [t1.x], …: each one's parent is looked up). */
  'toml-subtables': (n) => ({ name: 'configuration.toml', text: Array.from({ length: n }, (_, i) => `[t${i}.x]\nk = ${i}\n`).join('') }),
  /** Kata TOML: n [hypervisor.<name>] tables. */
  'toml-hv-tables': (n) => ({ name: 'configuration.toml', text: Array.from({ length: n }, (_, i) => `[hypervisor.h${i}]\npath = "/x"\n`).join('') }),
  /** Kata TOML: n keys in one table. */
  'toml-keys': (n) => ({ name: 'configuration.toml', text: `[hypervisor.qemu]\n${Array.from({ length: n }, (_, i) => `k${i} = ${i}\n`).join('')}` }),
  /** Kata TOML: an array of n items. */
  'toml-array': (n) => ({ name: 'configuration.toml', text: `[hypervisor.qemu]\nkernel_params = [${Array.from({ length: n }, (_, i) => i).join(',')}]\n` }),
  /** Kata TOML: a string of n characters. */
  'toml-string': (n) => ({ name: 'configuration.toml', text: `[hypervisor.qemu]\nkernel_params = "${'x'.repeat(n)}"\n` }),
  /** Kata TOML nested arrays n deep. */
  'toml-array-depth': (n) => ({ name: 'configuration.toml', text: `[hypervisor.qemu]\nx = ${'['.repeat(n)}1${']'.repeat(n)}\n` }),
  /** A JSON Kubernetes List of n items (fixes computed too with --fixes). */
  'json-list': (n) => ({ name: 'list.json', text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: `d${i}` }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } })) }) }),
};

let runNo = 0;
/** One analyze() of a shape; the text gets a unique trailing comment or space so no parse cache answers. */
export function time(d, fixes) {
  const text = d.name.endsWith('.toml') ? `${d.text}# run ${runNo++}\n` : `${d.text}${' '.repeat(runNo++ % 7)}`;
  const t0 = performance.now();
  const r = engine.analyze({ path: path.join('/ws', d.name), text, config });
  if (fixes) for (const x of r.diagnostics) void x.fixes;
  return { ms: performance.now() - t0, r };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const names = (args.find((a) => !a.startsWith('--')) ?? Object.keys(SHAPES).join(',')).split(',');
  const si = args.indexOf('--sizes');
  const sizes = si >= 0 ? args[si + 1].split(',').map(Number) : [1000, 2000, 4000];
  const fixes = args.includes('--fixes');
  for (const name of names) {
    let prev;
    for (const n of sizes) {
      const d = SHAPES[name](n);
      const runs = [];
      let r, err;
      for (let i = 0; i < 3; i++) {
        try { const x = time(d, fixes); runs.push(x.ms); r = x.r; } catch (e) { err = e; break; }
        if (runs[0] > 5000) break;
      }
      runs.sort((a, b) => a - b);
      const ms = runs[Math.floor(runs.length / 2)];
      const diag = r ? `${r.diagnostics.length} diagnostics; first: ${r.diagnostics[0] ? `${r.diagnostics[0].ruleId} ${r.diagnostics[0].message.slice(0, 80)}` : '-'}` : '';
      console.log(`${name} n=${n} chars=${d.text.length} ${err ? `THREW ${String(err.message).slice(0, 100)}` : `${ms.toFixed(0)} ms${prev ? ` (x${(ms / prev).toFixed(2)})` : ''}  ${diag}`}`);
      prev = ms;
    }
  }
}
