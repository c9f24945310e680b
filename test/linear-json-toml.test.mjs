// The JSON and TOML readers and the Kata families on inputs of extreme shape (issue #13): deep nesting is reported at
// the place, never a stack overflow and never a pass; long arrays are read (JSON) or reported (TOML, past its item
// limit); and the analyze time grows linearly with the size of each shape (doubling the size at most ~2.5× the time,
// medians of a few runs: ratios only, never absolute times).
// Uses the built dist/ (run `npm run build` first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine } from './helpers/k8s.mjs';

const config = engine.resolveConfig({ cli: { kataWindow: '3.1..3.32', kubernetesWindow: '1.18..1.21' } });
const SID = '6f2b3c1d8e9a4b5c6d7e8f9012345678abcdef0123456789abcdef0123456789';
const PERSIST = `/run/vc/sbs/${SID}/persist.json`;
const sandbox = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/kata/persist-examples/v2-kata-3.32-sandbox.persist.json'), 'utf8'));
const run = (file, text, cfg = config) => engine.analyze({ path: file, text, config: cfg });
// A Kata window across flavours (Go, then runtime-rs): the crossing check reads the file for both.
const crossingConfig = engine.resolveConfig({ cli: { kataWindow: '3.20 (go)..3.22 (runtime-rs)', kubernetesWindow: '1.18..1.21' } });
const offsetOf = (text, pos) => {
  let line = 0, i = 0;
  while (line < pos.line) { i = text.indexOf('\n', i) + 1; line++; }
  return i + pos.character;
};
/** The one diagnostic of a file that is not read, with its offset. */
function notRead(file, text) {
  const r = run(file, text);
  assert.equal(r.diagnostics.length, 1, JSON.stringify(r.diagnostics.map((d) => d.message)));
  const d = r.diagnostics[0];
  return { ruleId: d.ruleId, message: d.message, offset: offsetOf(text, d.range.start) };
}

// ------------------------------------------------------------------------------------------------ item 1: depth

test('JSON: a persist.json of "[" × 10,000 is "nested too deeply to read" at the 1,001st "[", not a pass', () => {
  const d = notRead(PERSIST, '['.repeat(10000));
  assert.equal(d.ruleId, 'syntax/parse-error');
  assert.match(d.message, /nested too deeply to read: more than 1000 levels/);
  assert.equal(d.offset, 1000);
});

test('JSON: valid JSON nested 100,000 deep (arrays, objects) is reported at the 1,001st level', () => {
  const n = 100000;
  const arrays = '['.repeat(n) + ']'.repeat(n);
  const objects = '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  assert.equal(notRead(PERSIST, arrays).offset, 1000);
  const o = notRead(PERSIST, objects);
  assert.equal(o.offset, 1000 * 5);
  assert.match(o.message, /JSON nested too deeply to read/);
  // Brackets inside strings are not nesting; 1000 levels are read.
  const ok = run(PERSIST, JSON.stringify({ ...sandbox, Extra: '['.repeat(5000) }));
  assert.ok(!ok.diagnostics.some((d) => d.ruleId === 'syntax/parse-error'));
  const edge = run(PERSIST, '['.repeat(1000) + ']'.repeat(1000));
  assert.ok(!edge.diagnostics.some((d) => d.ruleId === 'syntax/parse-error'), JSON.stringify(edge.diagnostics));
});

test('JSON: the syntax error positions and messages of broken JSON (the reader is iterative now)', () => {
  const cases = [
    ['{"a": 1,}', 8, 'trailing comma before "}"'],
    ['[1, 2,]', 6, 'trailing comma before "]"'],
    ['{"a" 1}', 5, 'expected ":" after the key'],
    ['{"a": 1 "b": 2}', 8, 'expected "," or "}" after the value'],
    ['[[1] 2]', 5, 'expected "," or "]" after the value'],
    ['{"a": [1, {"b": tru}]}', 16, 'unexpected "t": not a JSON value'],
    ['{"a": "x\\q"}', 8, 'bad escape in a string'],
    ['{"a": [', 7, 'unexpected end of the file: a value was expected'],
    ['{"a": [1', 8, 'unexpected end of the file: "]" expected'],
    ['{"a": {"b": 1', 13, 'unexpected end of the file: "}" expected'],
    ['{1: 2}', 1, 'expected a "key" in the object, found "1"'],
    ['{"a": 1} x', 9, 'unexpected text after the JSON value'],
    ['[' + '[1],'.repeat(500) + '[2]] ]', 2006, 'unexpected text after the JSON value'],
  ];
  for (const [text, offset, message] of cases) {
    const d = notRead(PERSIST, text);
    assert.deepEqual([d.offset, d.message], [offset, `JSON syntax error: ${message}`], text.slice(0, 40));
  }
});

test('TOML: arrays and inline tables nested 100,000 deep are "nested too deeply to read" at the 1,001st level', () => {
  const n = 100000;
  const head = '[hypervisor.qemu]\nx = ';
  const a = notRead('/ws/configuration.toml', `${head}${'['.repeat(n)}1${']'.repeat(n)}\n`);
  assert.equal(a.ruleId, 'syntax/parse-error');
  assert.match(a.message, /TOML nested too deeply to read: more than 1000 levels/);
  assert.equal(a.offset, head.length + 1000);
  const t = notRead('/ws/configuration.toml', `${head}${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`);
  assert.equal(t.offset, head.length + 1000 * 6);
  // Headers, strings and comments are not nesting; 1000 levels are read.
  const fine = '[[a]]\n[b."[[[[x"]\ns = "[[[{{{"\nm = """\n[[[\n"""\nl = \'\'\'[[[\'\'\'\n# [[[[[\n' + `[hypervisor.qemu]\nx = ${'['.repeat(1000)}1${']'.repeat(1000)}\n`;
  const r = run('/ws/configuration.toml', fine);
  assert.ok(!r.diagnostics.some((d) => d.ruleId === 'syntax/parse-error' || d.ruleId === 'skewguard/skipped-file'), JSON.stringify(r.diagnostics.map((d) => d.message)));
});

// ------------------------------------------------------------------------------------------------ item 1: length

test('JSON: a persist.json whose Devices array has 1,000,000 items is checked, with no stack overflow', () => {
  const devices = Array.from({ length: 1000000 }, () => ({}));
  const text = JSON.stringify({ ...sandbox, Devices: devices });
  const r = run(PERSIST, text);
  assert.equal(r.family, 'kata-persist');
  assert.ok(r.persist, 'the persist rules ran');
  assert.ok(Array.isArray(r.persist.eras()), 'the layout eras were computed');
  assert.ok(!r.diagnostics.some((d) => d.ruleId === 'syntax/parse-error' || d.ruleId === 'skewguard/skipped-file'));
});

test('TOML: an array of 1,000,000 items is reported at its 100,001st item as not checked; 20,000 items are read', () => {
  const head = '[hypervisor.qemu]\nkernel_params = [';
  const text = `${head}${Array.from({ length: 1000000 }, () => '0').join(',')}]\n`;
  const d = notRead('/ws/configuration.toml', text);
  assert.equal(d.ruleId, 'skewguard/skipped-file');
  assert.match(d.message, /not checked: an array of more than 100,000 items/);
  assert.equal(d.offset, head.length + 2 * 100000 - 1);
  const t = run('/ws/configuration.toml', `[hypervisor.qemu]\nkernel_params = [${Array.from({ length: 20000 }, () => '"a"').join(',')}]\n`);
  assert.equal(t.toml.value.hypervisor.qemu.kernel_params.length, 20000);
  const invalid = t.diagnostics.find((x) => x.ruleId === 'kata/invalid-type');
  assert.ok(invalid && invalid.message.length < 400, 'the message quotes the value shortened');
});

test('TOML: a string of 1,000,000 characters is reported at the string as not checked', () => {
  const head = '[hypervisor.qemu]\nkernel_params = ';
  const d = notRead('/ws/configuration.toml', `${head}"${'x'.repeat(1000000)}"\n`);
  assert.equal(d.ruleId, 'skewguard/skipped-file');
  assert.match(d.message, /a string of more than 50,000 characters/);
  assert.equal(d.offset, head.length);
});

test('TOML: inline tables inside arrays keep their keys in source order, `__proto__` as a plain key (iterative reader)', () => {
  const r = run('/ws/configuration.toml', '[hypervisor.qemu]\nx = [{ b = 1, a = { z = [1, { q = 2 }], y = 3 }, __proto__ = 4, c.d = 5 }, [[]]]\n');
  const [x, y] = r.toml.value.hypervisor.qemu.x;
  assert.deepEqual(Object.keys(x), ['b', 'a', '__proto__', 'c']);
  assert.deepEqual(Object.keys(x.a), ['z', 'y']);
  assert.equal(JSON.stringify([x, y]), '[{"b":1,"a":{"z":[1,{"q":2}],"y":3},"__proto__":4,"c":{"d":5}},[[]]]');
  assert.equal(Object.getPrototypeOf(x), Object.prototype);
  // Entries and tables of nested inline tables, in source order (in a Kata folder, where a file of keys only is Kata's).
  const t = run('/etc/kata-containers/configuration.toml', 'a = { b = { c = 1 }, d = 2 }\ne = 3\n').toml;
  assert.deepEqual(t.entries.map((en) => [...en.table, ...en.key].join('.')), ['a.b.c', 'a.d', 'e']);
  assert.deepEqual(t.tables.map((tb) => tb.path.join('.')), ['a', 'a.b']);
});

// ------------------------------------------------------------------------------------------------ item 3: linear time

const SHAPES = {
  'JSON object of N keys (persist.json)': [4000, (n) => [PERSIST, JSON.stringify({ ...sandbox, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) })]],
  // Eight of them, so that one run is long enough to time (the nesting limit is 1000).
  'TOML inline tables nested N deep': [400, (n) => ['/ws/configuration.toml', `[hypervisor.qemu]\n${Array.from({ length: 8 }, (_, k) => `x${k} = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`).join('')}`]],
  // The same under a containerd config's plugins (its runtime lookup read every table's path: ×2.3-3.4 per doubling
  // before, ×0.9-2.1 after; test/containerd-runtimes counts the path reads exactly).
  'containerd: TOML inline tables nested N deep under plugins': [400, (n) => ['/etc/containerd/config.toml', `version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"\n[plugins.deep]\n${Array.from({ length: 8 }, (_, k) => `x${k} = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`).join('')}`]],
  // The same across flavours: the crossing check built every table's name (×3.1 per doubling, 551 ms at 800; now 106).
  'TOML inline tables nested N deep, Kata window across flavours': [400, (n) => ['/ws/configuration.toml', `[hypervisor.qemu]\n${Array.from({ length: 8 }, (_, k) => `x${k} = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`).join('')}`, crossingConfig]],
  'N TOML tables': [1000, (n) => ['/ws/configuration.toml', Array.from({ length: n }, (_, i) => `[t${i}.x]\nk = ${i}\n`).join('')]],
  'persist.json with N devices': [4000, (n) => [PERSIST, JSON.stringify({ ...sandbox, Devices: Array.from({ length: n }, (_, i) => ({ ID: `d${i}`, Type: 'block', RefCount: 1 })) })]],
};

/** Median analyze time of `runs` runs, each of a text no parse cache has seen. */
function median(file, text, runs, cfg = config) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = file.endsWith('.toml') ? `${text}# ${Math.random()}\n` : `${text}${' '.repeat(i + 1)}`;
    const t0 = performance.now();
    run(file, t, cfg);
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

for (const [name, [n, make]] of Object.entries(SHAPES)) {
  test(`linear: ${name}: doubling N costs at most ~2.5× the time`, () => {
    const [file, text, cfg] = make(n);
    median(file, text, 1, cfg); // warm-up (JIT, data loading)
    // A ratio on a shared, loaded machine: the worst of three tries is a failure, one slow try is noise.
    const ratios = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const [f2, t2, c2] = make(2 * n);
      const small = median(file, text, 5, cfg), big = median(f2, t2, 5, c2);
      ratios.push(big / small);
      if (big / small <= 2.5) return;
    }
    assert.fail(`${name}: N=${n} → ${2 * n} cost ${ratios.map((r) => `×${r.toFixed(2)}`).join(', ')}`);
  });
}
