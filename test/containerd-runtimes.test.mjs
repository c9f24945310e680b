// containerd's runtime lookup (runtimesOf, server/src/engine/families/containerd/index.ts): the same entries and
// names as the plain reading of every table's and entry's whole path (`reference` below, the code before #29's
// change), on made configs with runtimes written every way TOML allows; and, on inline tables nested N deep under
// plugins, no table's whole path read past a few keys (reading each one's made N paths of up to N keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSource } from './helpers/source-module.mjs';
import { rng } from '../bench/corpus.mjs';

const { runtimesOf, parseTomlText } = await loadSource({ contents: `
  export { runtimesOf } from './server/src/engine/families/containerd/index';
  export { parseTomlText } from './server/src/engine/parse/toml';
` });

/** The lookup as it was: every path read whole. */
function reference(toml) {
  const nameAt = (segs) => {
    if (segs[0] !== 'plugins') return -1;
    for (let i = 1; i + 2 < segs.length; i++) if (segs[i] === 'containerd' && segs[i + 1] === 'runtimes') return i + 2;
    return -1;
  };
  const found = new Map();
  const names = new Set();
  for (const t of toml.tables) {
    const i = nameAt(t.path);
    if (i < 0) continue;
    names.add(t.path[i]);
    const key = t.path.slice(0, i + 1).join('\u0000');
    if (t.path.length === i + 1 && !found.has(key)) found.set(key, { name: t.path[i], table: t, segs: t.path, hasKeys: false, range: t.headerRange });
  }
  for (const e of toml.entries) {
    const segs = [...e.table, ...e.key];
    const i = nameAt(segs);
    if (i < 0) continue;
    names.add(segs[i]);
    const key = segs.slice(0, i + 1).join('\u0000');
    const cur = found.get(key) ?? { name: segs[i], segs: segs.slice(0, i + 1), hasKeys: false, range: e.keyRange };
    found.set(key, cur);
    cur.hasKeys = true;
    const rest = segs.slice(i + 1).join('.');
    if (rest === 'runtime_type') cur.runtimeType = e;
    if (rest === 'runtime_path') cur.runtimePath = e;
    if (rest === 'options.ConfigPath') cur.configPath = e;
  }
  return { entries: [...found.values()], names: [...names] };
}

/** What a lookup found, as plain data (tables and entries by their ranges). */
const shape = (r) => ({
  names: r.names,
  entries: r.entries.map((x) => ({
    name: x.name, segs: [...x.segs], hasKeys: x.hasKeys, range: x.range, table: x.table?.headerRange,
    runtimeType: x.runtimeType?.keyRange, runtimePath: x.runtimePath?.keyRange, configPath: x.configPath?.keyRange,
  })),
});

/** A made containerd config: runtimes as headers, dotted keys, inline tables, across a table's end, deep and shallow. */
function madeConfig(r) {
  const plugin = r.pick(['"io.containerd.grpc.v1.cri"', '"io.containerd.cri.v1.runtime"', 'cri', 'x.containerd', 'a.b']);
  const name = () => r.pick(['kata', 'runc', 'kata-qemu', '"kata.fc"', 'containerd', 'runtimes', 'gvisor']);
  const leaf = () => r.pick(['runtime_type = "io.containerd.kata.v2"', 'runtime_path = "/opt/kata/bin/shim"', 'options.ConfigPath = "/etc/kata/c.toml"', 'privileged_without_host_devices = true', 'options.deep.x = 1']);
  const inline = (d) => (d <= 0 || r.chance(0.4) ? '1' : `{ ${r.pick(['a', 'runtime_type', 'containerd', 'runtimes', 'options'])} = ${inline(d - 1)} }`);
  const parts = new Set();
  const n = r.int(1, 6);
  for (let k = 0; k < n; k++) {
    const v = r.int(0, 7);
    let t;
    if (v === 0) t = `[plugins.${plugin}.containerd.runtimes.${name()}]\n${leaf()}\n`;
    else if (v === 1) t = `[plugins.${plugin}.containerd.runtimes]\n${name()}.${leaf()}\n`;
    else if (v === 2) t = `[plugins.${plugin}.containerd]\nruntimes.${name()}.${leaf()}\n`;
    else if (v === 3) t = `[plugins.${plugin}]\ncontainerd = { runtimes = { ${name()} = { ${leaf().replace(/ = /, ' = ')} } } }\n`;
    else if (v === 4) t = `[plugins.${plugin}.containerd.runtimes.${name()}.options]\nConfigPath = "/x"\nnested = ${inline(r.int(1, 12))}\n`;
    else if (v === 5) t = `[plugins.${plugin}.containerd.runtimes.${name()}]\n`;
    else if (v === 6) t = `[plugins.${plugin}.deep]\nx${k} = ${inline(r.int(1, 20))}\n`;
    else t = `[other.containerd.runtimes.${name()}]\n${leaf()}\n`;
    parts.add(t);
  }
  return `version = 2\n${[...parts].join('')}`;
}

test('runtimesOf: the same runtimes and names as reading every path whole, on 3,000 made configs', () => {
  let valid = 0, withRuntimes = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const text = madeConfig(rng(seed));
    const toml = parseTomlText(text);
    if (toml.errors.length) continue; // a made config TOML refuses (a key defined twice): nothing to look up
    valid++;
    const want = shape(reference(toml));
    if (want.entries.length) withRuntimes++;
    assert.deepEqual(shape(runtimesOf(parseTomlText(`${text}# again\n`))), want, text);
  }
  // Most made configs parse, and most of those have runtimes: the comparison is not of empty results.
  assert.ok(valid > 1000 && withRuntimes > valid / 2, `${valid} valid, ${withRuntimes} with runtimes`);
});

test('runtimesOf: inline tables nested 800 deep under plugins: no deep table has its whole path read', () => {
  const n = 800;
  const text = `version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"\n`
    + `[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\nnested = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`
    + `[plugins.deep]\n${Array.from({ length: 4 }, (_, k) => `x${k} = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`).join('')}`;
  const toml = parseTomlText(text);
  assert.deepEqual(toml.errors, []);
  const want = shape(reference(parseTomlText(`${text}# reference\n`)));
  // Count the keys of every whole path read from a table (the path is built on first read: O(depth)).
  let keysRead = 0;
  for (const t of toml.tables) {
    const get = Object.getOwnPropertyDescriptor(t, 'path');
    Object.defineProperty(t, 'path', { get() { const p = get.get ? get.get.call(t) : get.value; keysRead += p.length; return p; }, enumerable: true, configurable: true });
  }
  const got = shape(runtimesOf(toml));
  assert.deepEqual(got, want);
  assert.deepEqual(got.names, ['kata', 'runc']);
  assert.ok(toml.tables.length > 4 * n, `${toml.tables.length} tables`);
  // Reading them whole would be about 5 × 800²/2 = 1.6 million keys; the lookup reads the headers' few.
  assert.ok(keysRead < 100, `${keysRead} keys of whole paths read`);
});
