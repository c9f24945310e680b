// Kata Containers configuration data (data/kata/config.json), the generated schemas under
// schemas/kata/ and the rendered upstream templates in test/fixtures/kata/config-rendered/
// (see test/fixtures/kata/SOURCES.md). Reads only the repo, never ../shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import semver from 'semver';
import { parseTOML, getStaticTOMLValue } from 'toml-eslint-parser';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'kata', 'config-rendered');
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(repoRoot, rel), 'utf8'));

const data = readJson('data/kata/config.json');
const index = readJson('schemas/kata/index.json');
const row = (section, key) => data.options.find((o) => o.section === section && o.key === key);
const section = (name) => data.sections.find((s) => s.name === name);
const NEWEST = data.releases.at(-1);
const ix = (r) => {
  const i = data.releases.indexOf(r);
  assert.ok(i >= 0, `unknown release ${r}`);
  return i;
};
/** {first,last,missingIn} covers release r (last null = newest) */
const covers = (s, r) => !!s && ix(r) >= ix(s.first) && ix(r) <= (s.last === null ? data.releases.length - 1 : ix(s.last)) && !(s.missingIn ?? []).includes(r);
const coversRange = (e, r) => covers({ first: e.from, last: e.to, missingIn: e.missingIn }, r);
const typeAt = (o, flavour, r) => o.types.filter((t) => t.flavour === flavour && coversRange(t, r)).map((t) => t.type);
const valuesAt = (o, r) => o.values.find((v) => v.flavour === 'go' && coversRange(v, r))?.enum ?? null;
const namesAt = (flavour, r) => data.hypervisorNames.find((h) => h.flavour === flavour && coversRange(h, r));

const schemaCache = new Map();
function validatorFor(flavour, release) {
  const file = index.schemas[flavour][release];
  assert.ok(file, `no ${flavour} schema for ${release}`);
  if (!schemaCache.has(file)) schemaCache.set(file, new Ajv({ allErrors: true, strict: false }).compile(readJson(`schemas/kata/${file}`)));
  return schemaCache.get(file);
}
const parse = (text) => getStaticTOMLValue(parseTOML(text));
function errorsOf(flavour, release, doc) {
  const v = validatorFor(flavour, release);
  return v(doc) ? [] : v.errors.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

function walk(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// data shape

test('data: releases sorted by semver, 1.0.0 … 4.1.0, every range inside them', () => {
  assert.equal(data.releases[0], '1.0.0');
  assert.equal(NEWEST, '4.1.0');
  assert.equal(data.asOf, NEWEST);
  assert.deepEqual(data.releases, [...data.releases].sort(semver.compare));
  assert.equal(new Set(data.releases).size, data.releases.length);
  for (const r of data.templateReleases) assert.ok(data.releases.includes(r), r);
  const check = (s, what) => {
    if (!s) return;
    ix(s.first ?? s.from);
    const last = s.last !== undefined ? s.last : s.to;
    if (last !== null) assert.ok(ix(last) >= ix(s.first ?? s.from), `${what}: range ends before it starts`);
  };
  for (const s of data.sections) for (const f of Object.values(s.flavours)) check(f, s.name);
  for (const o of data.options) {
    const id = `${o.section}|${o.key}`;
    for (const f of Object.values(o.flavours)) check(f, id);
    for (const t of o.types) check(t, id);
    for (const v of o.values) check(v, id);
  }
  for (const h of data.hypervisorNames) check(h, `hypervisorNames ${h.flavour}`);
});

test('data: one row per (section, key), every row has sources and a known section', () => {
  const seen = new Set();
  const sections = new Set(data.sections.map((s) => s.name));
  for (const o of data.options) {
    const id = `${o.section}|${o.key}`;
    assert.ok(!seen.has(id), `duplicate row ${id}`);
    seen.add(id);
    assert.ok(sections.has(o.section), `${id}: unknown section`);
    assert.ok(Array.isArray(o.sources) && o.sources.length > 0, `${id} has sources`);
    assert.ok(Object.keys(o.flavours).length > 0 || o.note, `${id}: accepted by no flavour and no note says why`);
    for (const t of o.types) assert.ok(t.source, `${id}: type without source`);
    for (const v of o.values) assert.ok(v.source && typeof v.fatal === 'boolean', `${id}: values without source/fatal`);
    for (const r of o.renamedTo) assert.ok(r.source, `${id}: renamedTo without source`);
  }
  for (const r of data.renames) assert.ok(r.source, `rename ${r.from} without source`);
  assert.ok(data.options.length >= 434, 'at least every catalog option');
});

test('data: hypervisor.* rows stand for every hypervisor table (Go parser struct, kata-types Hypervisor struct)', () => {
  const generic = data.options.filter((o) => o.section === 'hypervisor.*');
  assert.ok(generic.length > 90);
  for (const o of generic) {
    assert.equal(o.commonToAllHypervisors, true);
    // Both runtimes decode every hypervisor table with one struct: Go's from config.go, runtime-rs's from kata-types.
    assert.ok(Object.keys(o.flavours).length > 0 && Object.keys(o.flavours).every((f) => f === 'go' || f === 'runtime-rs'), o.key);
    if (o.flavours['runtime-rs']) assert.ok(o.sources.some((x) => x.startsWith('runtime-rs-config-keys.json tags[')), `${o.key}: runtime-rs facts cite tag and path`);
  }
  // concrete hypervisor tables carry no runtime-rs parser range: kata-types has no per-plugin struct
  for (const o of data.options.filter((x) => /^hypervisor\.[^.*]+$/.test(x.section))) assert.equal(o.flavours['runtime-rs'], undefined, `${o.section}|${o.key}`);
  // a concrete row is never accepted by Go outside the releases that accept its table
  for (const o of data.options.filter((x) => /^hypervisor\.[^.*]+$/.test(x.section) && x.flavours.go)) {
    const name = o.section.split('.')[1];
    for (const r of data.releases) {
      if (covers(o.flavours.go, r)) assert.ok(namesAt('go', r).names.includes(name), `${o.section}|${o.key} accepted by Go in ${r}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// facts of skew-facts.md

test('fact 12: default_vcpus is an integer up to 3.2.x and a number from 3.3.0 (Go)', () => {
  for (const s of ['hypervisor.*', 'hypervisor.qemu', 'hypervisor.clh']) {
    const o = row(s, 'default_vcpus');
    assert.deepEqual(typeAt(o, 'go', '1.13.0'), ['integer'], s);
    assert.deepEqual(typeAt(o, 'go', '3.2.0'), ['integer'], s);
    assert.deepEqual(typeAt(o, 'go', '3.3.0'), ['number'], s);
    assert.deepEqual(typeAt(o, 'go', NEWEST), ['number'], s);
  }
  const goTypes = row('hypervisor.*', 'memory_offset').goTypes;
  assert.deepEqual(goTypes.map((t) => [t.goType, t.from]), [['uint32', '1.5.0'], ['uint64', '2.2.0']]);
  // and the schemas: 0.5 is rejected by 3.2.0, accepted by 3.3.0
  const doc = parse('[hypervisor.qemu]\ndefault_vcpus = 0.5\n');
  assert.notDeepEqual(errorsOf('go', '3.2.0', doc), []);
  assert.deepEqual(errorsOf('go', '3.3.0', doc), []);
});

test('fact 11: shared_fs "none" is accepted from 3.2.0 only; virtio-fs-nydus from 2.4.0', () => {
  const o = row('hypervisor.*', 'shared_fs');
  assert.ok(!valuesAt(o, '3.1.3').includes('none'));
  assert.ok(valuesAt(o, '3.2.0').includes('none'));
  assert.ok(valuesAt(o, NEWEST).includes('none'));
  assert.ok(!valuesAt(o, '2.3.3').includes('virtio-fs-nydus'));
  assert.ok(valuesAt(o, '2.4.0').includes('virtio-fs-nydus'));
  assert.ok(o.values.every((v) => v.fatal === true));
  assert.deepEqual(valuesAt(row('hypervisor.qemu', 'shared_fs'), '3.2.0'), valuesAt(o, '3.2.0'));
  const doc = parse('[hypervisor.qemu]\nshared_fs = "none"\n');
  assert.notDeepEqual(errorsOf('go', '3.1.3', doc), []);
  assert.deepEqual(errorsOf('go', '3.2.0', doc), []);
  assert.notDeepEqual(errorsOf('go', NEWEST, parse('[hypervisor.qemu]\nshared_fs = "virtio-fs-bogus"\n')), []);
  // other validated keys
  assert.deepEqual(valuesAt(row('hypervisor.*', 'block_device_aio'), '3.0.0'), ['io_uring', 'native', 'threads']);
  assert.ok(valuesAt(row('hypervisor.*', 'extra_monitor_socket'), '3.2.0').includes('qmp-pretty'));
  assert.ok(valuesAt(row('runtime', 'emptydir_mode'), '3.28.0').includes('block-encrypted'));
  assert.deepEqual(valuesAt(row('hypervisor.*', 'hot_plug_vfio'), '3.2.0').sort(), ['bridge-port', 'no-port', 'root-port', 'switch-port']);
});

test('hotplug_vfio_on_root_bus: last in 3.1.3, renamed to hot_plug_vfio at 3.2.0', () => {
  for (const s of ['hypervisor.*', 'hypervisor.qemu']) {
    const o = row(s, 'hotplug_vfio_on_root_bus');
    assert.equal(o.flavours.go.last, '3.1.3', s);
    assert.deepEqual(
      o.renamedTo.filter((x) => x.flavour === 'go').map((x) => [x.key, x.in]),
      [['hot_plug_vfio', '3.2.0']],
      s,
    );
    assert.equal(row(s, 'hot_plug_vfio').flavours.go.first, '3.2.0', s);
  }
  const rn = data.renames.find((r) => r.from === 'hotplug_vfio_on_root_bus');
  assert.equal(rn.lastWithOld, '3.1.3');
  assert.equal(rn.firstWithNew, '3.2.0');
});

test('fact 10: acrn is not a valid hypervisor name from 3.10.0; unknown names fatal from 3.2.0', () => {
  assert.ok(namesAt('go', '3.9.0').names.includes('acrn'));
  assert.ok(!namesAt('go', '3.10.0').names.includes('acrn'));
  assert.ok(!namesAt('go', NEWEST).names.includes('acrn'));
  assert.equal(section('hypervisor.acrn').flavours.go.last, '3.9.0');
  assert.equal(namesAt('go', '3.1.3').unknownIsFatal, false);
  assert.equal(namesAt('go', '3.2.0').unknownIsFatal, true);
  assert.equal(data.fatal.unknownHypervisorSection.go, '3.2.0');
  const doc = parse('[hypervisor.acrn]\npath = "/usr/bin/acrn-dm"\n');
  assert.deepEqual(errorsOf('go', '3.9.0', doc), []);
  assert.notDeepEqual(errorsOf('go', '3.10.0', doc), []);
  // before 3.2.0 an unknown hypervisor table is skipped silently
  const unknown = parse('[hypervisor.bogus]\npath = "/x"\n');
  assert.deepEqual(errorsOf('go', '3.1.3', unknown), []);
  assert.notDeepEqual(errorsOf('go', '3.2.0', unknown), []);
});

test('fact 13: runtime-rs denies unknown [agent.kata] keys from 3.29.0', () => {
  const f = data.fatal.denyUnknownFields['runtime-rs'];
  assert.equal(f.from, '3.29.0');
  assert.ok(f.schemaTables.includes('agent.kata') && f.schemaTables.includes('agent.kata.mem_agent'));
  const dial = row('agent.kata', 'dial_timeout');
  // kata-types never reads dial_timeout (only dial_timeout_ms, 3.0.0+); the runtime-rs templates ship it until 3.28.0.
  assert.equal(dial.flavours['runtime-rs'], undefined);
  assert.equal(dial.templates['runtime-rs'].last, '3.28.0');
  assert.equal(dial.flavours.go.last, null, 'the Go runtime keeps dial_timeout');
  const doc = parse('[agent.kata]\ndial_timeout = 45\n');
  assert.deepEqual(errorsOf('runtime-rs', '3.28.0', doc), []);
  assert.notDeepEqual(errorsOf('runtime-rs', '3.29.0', doc), []);
  assert.notDeepEqual(errorsOf('runtime-rs', NEWEST, parse('[agent.kata]\nno_such_key = 1\n')), []);
  assert.deepEqual(errorsOf('runtime-rs', '3.28.0', parse('[agent.kata]\nno_such_key = 1\n')), []);
  // the Go runtime ignores unknown agent keys
  assert.deepEqual(errorsOf('go', NEWEST, parse('[agent.kata]\nno_such_key = 1\n')), []);
});

test('fact 14: runtime-rs [hypervisor.cloud-hypervisor] became [hypervisor.clh] at 3.30.0', () => {
  assert.equal(section('hypervisor.cloud-hypervisor').flavours['runtime-rs'].last, '3.29.0');
  assert.equal(section('hypervisor.clh').flavours['runtime-rs'].first, '3.30.0');
  assert.deepEqual(section('hypervisor.cloud-hypervisor').renamedTo.section, 'hypervisor.clh');
  assert.ok(namesAt('runtime-rs', '3.29.0').names.includes('cloud-hypervisor'));
  assert.ok(namesAt('runtime-rs', '3.30.0').names.includes('clh'));
});

test('fact 15: [proxy.kata], [shim.kata], use_vsock and enable_agent_pidns are 1.x only', () => {
  for (const s of ['proxy.kata', 'shim.kata']) {
    assert.equal(section(s).flavours.go.last, '1.13.0', s);
    assert.equal(section(s).flavours['runtime-rs'], undefined, s);
  }
  assert.equal(row('hypervisor.*', 'use_vsock').flavours.go.last, '1.13.0');
  assert.equal(row('runtime', 'enable_agent_pidns').flavours.go.last, '1.13.0');
  for (const r of data.releases.filter((x) => semver.gte(x, '2.0.0'))) {
    assert.ok(!covers(row('hypervisor.*', 'use_vsock').flavours.go, r), `use_vsock in ${r}`);
  }
});

test('fact 9: drop-ins from 2.5.0 (Go)', () => {
  assert.equal(data.dropIns.go.from, '2.5.0');
  assert.equal(data.dropIns.go.dir, 'config.d');
});

// ---------------------------------------------------------------------------------------------
// schemas

test('schema index covers every release for both flavours', () => {
  assert.deepEqual(index.releases, data.releases);
  for (const flavour of ['go', 'runtime-rs']) {
    assert.deepEqual(Object.keys(index.schemas[flavour]).sort(semver.compare), data.releases, flavour);
    for (const r of data.releases) {
      const file = index.schemas[flavour][r];
      if (flavour === 'runtime-rs' && semver.lt(r, data.flavours['runtime-rs'].first)) {
        assert.equal(file, null, `runtime-rs ${r}`);
        continue;
      }
      assert.ok(file, `${flavour} ${r}`);
      const schema = readJson(`schemas/kata/${file}`);
      assert.ok(schema['x-skewguard'].releases.includes(r), `${file} does not say it stands for ${r}`);
      assert.equal(schema['x-skewguard'].flavour, flavour);
      assert.equal(schema['x-skewguard'].family, 'kata-config');
    }
    // change points are the first release of each file
    for (const cp of index.changePoints[flavour]) assert.equal(index.schemas[flavour][cp].split('/')[0], cp);
  }
});

test('every schema file compiles (ajv, allErrors, strict off) and the tree stays under ~4 MB', () => {
  let bytes = 0;
  for (const file of walk(path.join(repoRoot, 'schemas', 'kata'))) {
    bytes += fs.statSync(file).size;
    if (path.basename(file) === 'index.json') continue;
    const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  assert.ok(bytes < 4.2 * 1024 * 1024, `schemas/kata is ${bytes} bytes`);
});

test('every rendered template validates under the schema of its own release and flavour', () => {
  const files = walk(fixtures);
  assert.equal(files.length, 91);
  const releases = new Set();
  const failures = [];
  for (const file of files) {
    const rel = path.relative(fixtures, file).split(path.sep).join('/');
    const [release] = rel.split('/');
    releases.add(release);
    const flavour = rel.includes('/runtime-rs/') ? 'runtime-rs' : 'go';
    const errors = errorsOf(flavour, release, parse(fs.readFileSync(file, 'utf8')));
    if (errors.length) failures.push(`${rel} (${flavour} ${index.schemas[flavour][release]}):\n    ${errors.join('\n    ')}`);
  }
  assert.deepEqual([...releases].sort(semver.compare), data.templateReleases);
  assert.deepEqual(failures, []);
});

test('the schemas type listed keys and carry doc + acceptance in descriptions', () => {
  const go = readJson(`schemas/kata/${index.schemas.go[NEWEST]}`);
  const dv = go.definitions.hypervisor.properties.default_vcpus;
  assert.equal(dv.type, 'number');
  assert.match(dv.description, /Default number of vCPUs/);
  assert.match(dv.description, /Accepted by Go runtime 1\.0\.0\.\.4\.1\.0/);
  assert.equal(go.properties.hypervisor.additionalProperties, false);
  const old = readJson(`schemas/kata/${index.schemas.go['3.1.3']}`);
  assert.equal(old.properties.hypervisor.additionalProperties, undefined);
  assert.equal(old.definitions.hypervisor.properties.default_vcpus.type, 'integer');
  // wrong type in an open Go table is still an error; an unknown key is not
  assert.notDeepEqual(errorsOf('go', NEWEST, parse('[runtime]\nenable_debug = "yes"\n')), []);
  assert.deepEqual(errorsOf('go', NEWEST, parse('[runtime]\nno_such_key = "yes"\n')), []);
});

test('#27 no build-time placeholder (@DEFVALIDFILEMEMBACKENDS@) reaches people: not in a doc, a hover or a schema description', async () => {
  const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8'));
  const PH = /@[A-Z][A-Z0-9_]*@/;
  const leaks = [...data.options, ...data.sections].filter((o) => o.doc && PH.test(o.doc)).map((o) => `${o.section ?? o.name}.${o.key ?? ''}: ${PH.exec(o.doc)[0]}`);
  assert.deepEqual(leaks, []);
  const row = data.options.find((o) => o.key === 'valid_file_mem_backends' && o.doc);
  assert.match(row.doc, /Your distribution recommends: \(a value chosen when Kata is built\)/);
  // The hover shows the doc as the data has it.
  const { createRequire } = await import('node:module');
  const e = createRequire(import.meta.url)('../dist/engine.js');
  const text = '[hypervisor.qemu]\nvalid_file_mem_backends = []\n';
  const r = e.analyze({ path: '/etc/kata-containers/configuration.toml', text, config: e.resolveConfig({ cli: { kataWindow: '3.2..3.32' } }) });
  const h = e.hover(r, text, { line: 1, character: 3 });
  assert.ok(h && /distribution recommends/.test(h.markdown), h?.markdown);
  assert.doesNotMatch(h.markdown, PH);
  for (const f of fs.readdirSync(path.join(repoRoot, 'schemas', 'kata'), { recursive: true }).filter((x) => x.endsWith('.json'))) {
    const s = fs.readFileSync(path.join(repoRoot, 'schemas', 'kata', f), 'utf8');
    const descs = [...s.matchAll(/"(?:description|markdownDescription)": "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).filter((d) => PH.test(d));
    assert.deepEqual(descs, [], `schemas/kata/${f}`);
  }
});

test('a Go []struct key is an array of tables the Go runtime reads, its fields not listed (keysNotListed), over the key\'s releases', () => {
  const structs = data.options.filter((o) => (o.goTypes ?? []).some((g) => /^\[\]\*?[a-z]/i.test(g.goType) && g.goType !== '[]string'));
  assert.deepEqual(structs.map((o) => `${o.section}|${o.key}`), ['hypervisor.*|guest_extension_images']);
  for (const o of structs) {
    const s = section(`${o.section}.${o.key}`);
    assert.equal(s?.kind, 'arrayOfTables');
    assert.deepEqual(s.flavours.go, o.flavours.go);
    assert.deepEqual({ first: s.keysNotListed.go.first, last: s.keysNotListed.go.last }, o.flavours.go);
    assert.equal(s.keysNotListed.go.goType, o.goTypes[0].goType);
    // No Go rows for its keys: the reference does not give them, and none are made up.
    assert.deepEqual(data.options.filter((x) => x.section === s.name && x.flavours.go), []);
  }
});
