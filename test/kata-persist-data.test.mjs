// Kata Containers persist.json data (data/kata/persist.json), the layout-era schemas under
// schemas/kata/persist/ and the constructed examples in test/fixtures/kata/persist-examples/
// (see its SOURCES.md). Reads only the repo, never ../shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import semver from 'semver';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'kata', 'persist-examples');
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(repoRoot, rel), 'utf8'));

const data = readJson('data/kata/persist.json');
const { releases } = readJson('data/kata/config.json');
const index = readJson('schemas/kata/persist/index.json');
const eraIds = data.eras.map((e) => e.id);
const eraOf = (release) => data.eras.find((e) => e.releases.includes(release));
const field = (file, ...p) => data.fields.find((f) => f.file === file && f.path.join('.') === p.join('.'));
const inRange = (g, r) => semver.gte(r, g.from) && (g.to === null || semver.lte(r, g.to));
const writes = (f, r) => f.writtenBy.some((g) => inRange(g, r));

const validators = new Map();
function validator(eraId) {
  if (!validators.has(eraId)) validators.set(eraId, new Ajv({ allErrors: true, strict: false }).compile(readJson(`schemas/kata/persist/${eraId}.schema.json`)));
  return validators.get(eraId);
}
function errorsOf(eraId, doc) {
  const v = validator(eraId);
  return v(doc) ? [] : v.errors.map((e) => `${e.instancePath} ${e.message}`);
}

// README.md of the examples: file -> the release whose layout it has (kind from the file name)
const EXAMPLES = {
  'v1-runtime-1.8-sandbox.persist.json': { kind: 'sandbox', readme: 'kata-containers/runtime 1.7.x–1.8.x', release: '1.8.0', era: 'v1-1.7', persistVersion: 1 },
  'v2-runtime-1.13-sandbox.persist.json': { kind: 'sandbox', readme: 'kata-containers/runtime 1.13.0', release: '1.13.0', era: 'v2-1.9', persistVersion: 2 },
  'v2-kata-3.32-sandbox.persist.json': { kind: 'sandbox', readme: 'kata-containers/kata-containers 3.32.0', release: '3.32.0', era: 'v2-3.3', persistVersion: 2 },
  'v2-kata-3.32-container.persist.json': { kind: 'container', readme: '3.32.0 `ContainerState`', release: '3.32.0', era: 'v2-3.3', persistVersion: null },
};
const example = (name) => JSON.parse(fs.readFileSync(path.join(fixtures, name), 'utf8'));

// --- era markers as an engine would use them (the engine owns real inference) -----------------

/** the objects a path's parent resolves to ("*" = every array element / map value) */
function parents(doc, p) {
  let cur = [doc];
  for (const seg of p.slice(0, -1)) {
    const next = [];
    for (const o of cur) {
      if (seg === '*') {
        if (Array.isArray(o)) next.push(...o);
        else if (o && typeof o === 'object') next.push(...Object.values(o));
      } else if (o && typeof o === 'object' && !Array.isArray(o) && seg in o) next.push(o[seg]);
    }
    cur = next;
  }
  return cur.filter((o) => o && typeof o === 'object' && !Array.isArray(o));
}
const jsonType = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v);
/** eras whose presence / absence / type markers agree with the document */
function markerEras(doc, kind) {
  const ok = new Set(eraIds);
  for (const m of data.eraMarkers) {
    if (m.kind !== 'presence' || m.file !== kind) continue;
    const key = m.path.at(-1);
    const ps = parents(doc, m.path);
    const present = ps.filter((o) => key in o);
    for (const e of eraIds) {
      if (present.length && !m.presentIn.includes(e)) ok.delete(e);
      if (ps.some((o) => !(key in o)) && (m.absentRulesOut ?? []).includes(e)) ok.delete(e);
      if (present.length && m.byType) {
        const t = m.byType.find((b) => b.eras.includes(e));
        const allowed = t ? [].concat(t.type) : [];
        for (const o of present) {
          const vt = jsonType(o[key]);
          if (vt !== 'null' && !allowed.includes(vt) && !(vt === 'integer' && allowed.includes('number'))) ok.delete(e);
        }
      }
    }
  }
  return eraIds.filter((e) => ok.has(e));
}

// ---------------------------------------------------------------------------------------------
// data shape

test('data: eras cover 1.7.0 … newest without gaps, ids v<PersistVersion>-<x.y>', () => {
  const persist = releases.filter((r) => semver.gte(r, '1.7.0'));
  assert.deepEqual(data.persistReleases, persist);
  assert.deepEqual(eraIds, ['v1-1.7', 'v2-1.9', 'v2-2.0', 'v2-2.3', 'v2-2.4', 'v2-3.2', 'v2-3.3', 'v2-4.0']);
  assert.deepEqual(data.eras.flatMap((e) => e.releases), persist);
  for (const e of data.eras) {
    assert.equal(e.id, `v${e.persistVersion}-${e.releases[0].split('.').slice(0, 2).join('.')}`);
    assert.equal(e.writtenBy.from, e.releases[0]);
    assert.equal(e.writtenBy.to, e.releases.at(-1) === releases.at(-1) ? null : e.releases.at(-1));
    assert.deepEqual(e.files, ['sandbox persist.json', 'container persist.json']);
    assert.ok(e.source, e.id);
    for (const f of e.fields) {
      assert.ok(['sandbox', 'container'].includes(f.file));
      for (const t of [].concat(f.type)) assert.ok(['integer', 'string', 'boolean', 'object', 'array', 'number'].includes(t), `${e.id} ${f.path.join('.')}: ${t}`);
      assert.ok(f.meaning && f.lostOnRead, `${e.id} ${f.path.join('.')}`);
    }
  }
});

test('data: every field row has a source, ranges inside the release universe, readBy = writtenBy', () => {
  assert.ok(data.fields.length > 300);
  const seen = new Set();
  for (const f of data.fields) {
    const id = `${f.file}|${f.path.join('.')}`;
    assert.ok(!seen.has(id), `duplicate row ${id}`);
    seen.add(id);
    assert.ok(typeof f.source === 'string' && f.source.length > 0, `${id}: no source`);
    assert.equal(f.name, f.path.at(-1));
    assert.ok(f.writtenBy.length > 0, id);
    for (const g of [...f.writtenBy, ...f.types]) {
      assert.ok(releases.includes(g.from), `${id}: ${g.from}`);
      assert.ok(g.to === null || releases.includes(g.to), `${id}: ${g.to}`);
    }
    assert.deepEqual(f.readBy, f.writtenBy, id);
    for (const q of f.required) assert.ok(q.source && q.from, id);
  }
  // required only where the material says so
  assert.deepEqual(
    data.fields.filter((f) => f.required.length).map((f) => f.path.join('.')),
    ['Config'],
  );
});

// ---------------------------------------------------------------------------------------------
// facts

test('facts: PersistVersion 1 before 1.9.0, 2 from 1.9.0; never checked by the loader', () => {
  const pv = data.persistVersion;
  const at = (r) => pv.values.find((v) => inRange(v, r))?.value;
  for (const r of releases) {
    if (semver.lt(r, '1.7.0')) assert.equal(at(r), null, r);
    else if (semver.lt(r, '1.9.0')) assert.equal(at(r), 1, r);
    else assert.equal(at(r), 2, r);
  }
  assert.equal(pv.checkedByLoader, false);
  assert.match(pv.checkedByLoaderSource, /skew-facts\.md #17/);
  assert.equal(pv.keptOnRestore, true);
  assert.equal(pv.identifiesLayout, false);
  for (const e of data.eras) assert.equal(e.persistVersion, semver.lt(e.releases[0], '1.9.0') ? 1 : 2);
});

test('facts: the legacy store is not read from 2.0.0', () => {
  const ls = data.legacyStore;
  assert.equal(ls.notReadFrom, '2.0.0');
  for (const g of [...ls.readBy, ...ls.writtenBy]) assert.ok(g.to !== null && semver.lt(g.to, '2.0.0'), JSON.stringify(g));
  for (const f of ['state.json', 'devices.json', 'hypervisor.json', 'agent.json', 'network.json', 'mounts.json', 'process.json']) {
    assert.ok(ls.files.some((x) => x.file === f), f);
  }
  assert.match(ls.notReadFromSource, /5200ac0678/);
  assert.equal(ls.upgradeFailure.message, null, 'the material quotes no message');
});

test('facts: VirtiofsDaemonPid first written in 2.4.0 (was VirtiofsdPid), NumVCPUsF from 3.3.0', () => {
  const vd = field('sandbox', 'HypervisorState', 'VirtiofsDaemonPid');
  assert.equal(vd.writtenBy[0].from, '2.4.0');
  assert.ok(!writes(vd, '2.3.3') && writes(vd, '2.4.0') && writes(vd, releases.at(-1)));
  assert.deepEqual(vd.renames, [{ from: ['HypervisorState', 'VirtiofsdPid'], to: ['HypervisorState', 'VirtiofsDaemonPid'], in: '2.4.0' }]);
  const old = field('sandbox', 'HypervisorState', 'VirtiofsdPid');
  assert.deepEqual(old.writtenBy, [{ from: '1.9.0', to: '2.3.3' }]);
  const nf = field('sandbox', 'Config', 'HypervisorConfig', 'NumVCPUsF');
  assert.deepEqual(nf.writtenBy, [{ from: '3.3.0', to: null }]);
  assert.equal(nf.types[0].type, 'number');
  assert.deepEqual(field('sandbox', 'Config', 'HypervisorConfig', 'NumVCPUs').writtenBy, [{ from: '1.7.0', to: '3.2.0' }]);
  // the markers the engine will use
  const marker = (name) => data.eraMarkers.find((m) => m.kind === 'presence' && m.name === name);
  assert.deepEqual(marker('VirtiofsDaemonPid').presentIn, ['v2-2.4', 'v2-3.2', 'v2-3.3', 'v2-4.0']);
  assert.deepEqual(marker('NumVCPUsF').presentIn, ['v2-3.3', 'v2-4.0']);
  // other renames the material names without a version bump
  assert.deepEqual(field('sandbox', 'SandboxCgroupPath').writtenBy, [{ from: '2.3.0', to: null }]);
  assert.deepEqual(field('sandbox', 'Network', 'NetworkID').writtenBy, [{ from: '2.4.0', to: null }]);
  assert.deepEqual(field('sandbox', 'HypervisorState', 'HotPlugVFIO').writtenBy, [{ from: '3.2.0', to: null }]);
  assert.deepEqual(field('sandbox', 'Devices', '*', 'BlockDrive', 'PCIAddr').writtenBy, [{ from: '1.7.0', to: '1.12.1' }, { from: '2.0.0', to: '2.0.4' }]);
});

// ---------------------------------------------------------------------------------------------
// schemas

test('schemas: one per era, compile (ajv, allErrors, strict off), x-skewguard, index covers every release', () => {
  for (const e of data.eras) {
    const s = readJson(`schemas/kata/persist/${e.id}.schema.json`);
    assert.equal(s.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(
      { family: s['x-skewguard'].family, era: s['x-skewguard'].era, persistVersion: s['x-skewguard'].persistVersion, writtenBy: s['x-skewguard'].writtenBy },
      { family: 'kata-persist', era: e.id, persistVersion: e.persistVersion, writtenBy: e.writtenBy },
    );
    validator(e.id);
    assert.ok(s.definitions.sandbox.properties.PersistVersion && s.definitions.container.properties.BundlePath);
  }
  assert.deepEqual(Object.keys(index.schemas), releases);
  for (const r of releases) assert.equal(index.schemas[r], semver.lt(r, '1.7.0') ? null : `${eraOf(r).id}.schema.json`, r);
});

test('schemas: unknown keys are allowed, listed keys typed', () => {
  const era = 'v2-3.3';
  assert.deepEqual(errorsOf(era, { PersistVersion: 2, NoSuchKey: 1, HypervisorState: { AlsoUnknown: true } }), []);
  assert.notDeepEqual(errorsOf(era, { PersistVersion: 2, HypervisorState: { VirtiofsDaemonPid: 'x' } }), []);
  assert.notDeepEqual(errorsOf(era, { PersistVersion: 2, Config: { HypervisorConfig: { NumVCPUsF: '1' } } }), []);
  assert.notDeepEqual(errorsOf(era, { BundlePath: 1 }), [], 'container file checked as container');
  assert.deepEqual(errorsOf(era, { BundlePath: '/b', Process: { Pid: -1 } }), []);
});

// ---------------------------------------------------------------------------------------------
// examples

test('fixtures: the examples and README are all copied, with SOURCES.md', () => {
  const files = fs.readdirSync(fixtures).sort();
  assert.deepEqual(files, ['README.md', 'SOURCES.md', ...Object.keys(EXAMPLES)].sort());
  const readme = fs.readFileSync(path.join(fixtures, 'README.md'), 'utf8');
  for (const [name, ex] of Object.entries(EXAMPLES)) {
    const line = readme.split('\n').find((l) => l.startsWith(`| \`${name}\``));
    assert.ok(line, `README has no row for ${name}`);
    assert.ok(line.includes(ex.readme), `${name}: README says ${line}`);
    assert.equal(eraOf(ex.release).id, ex.era, name);
  }
  assert.match(fs.readFileSync(path.join(fixtures, 'SOURCES.md'), 'utf8'), /CONSTRUCTED/);
});

test('every example validates under the schema of its README era', () => {
  for (const [name, ex] of Object.entries(EXAMPLES)) {
    assert.deepEqual(errorsOf(ex.era, example(name)), [], name);
    if (ex.persistVersion !== null) assert.equal(example(name).PersistVersion, ex.persistVersion, name);
  }
});

test('era markers + schemas: the README era is among the consistent eras of every example', (t) => {
  for (const [name, ex] of Object.entries(EXAMPLES)) {
    const doc = example(name);
    const byMarkers = markerEras(doc, ex.kind);
    const bySchema = eraIds.filter((e) => errorsOf(e, doc).length === 0);
    const both = byMarkers.filter((e) => bySchema.includes(e));
    t.diagnostic(`${name}: markers ${byMarkers.join(',')} | schemas ${bySchema.join(',')}`);
    assert.ok(both.includes(ex.era), `${name}: expected ${ex.era} in ${both.join(',')}`);
    // the sandbox examples pin exactly one era
    if (ex.kind === 'sandbox') assert.deepEqual(both, [ex.era], name);
  }
});

test('PersistVersion 2 does not identify a layout: 1.13 and 3.32 examples share it but not an era', () => {
  const a = example('v2-runtime-1.13-sandbox.persist.json');
  const b = example('v2-kata-3.32-sandbox.persist.json');
  assert.equal(a.PersistVersion, b.PersistVersion);
  assert.notDeepEqual(markerEras(a, 'sandbox'), markerEras(b, 'sandbox'));
  // the v1 example (Experimental: bool) is rejected by every schema from 2.0 on
  for (const e of ['v2-2.0', 'v2-2.3', 'v2-2.4', 'v2-3.2', 'v2-3.3', 'v2-4.0']) {
    assert.notDeepEqual(errorsOf(e, example('v1-runtime-1.8-sandbox.persist.json')), [], e);
  }
});
