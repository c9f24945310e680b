// Kubernetes API lifecycle data (data/kubernetes/api-lifecycle.json), the lifecycle predicates
// of the engine (server/src/engine/families/kubernetes/data/lifecycle.ts via dist/engine.js) and the generated
// schemas/kubernetes/<minor>/manifest.schema.json. Reads only the repo (fixtures: see
// test/fixtures/kubernetes/SOURCES.md), never ../shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
const { k8sLifecycle: L, minorsBetween } = require('../dist/engine.js');
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'kubernetes');
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(repoRoot, rel), 'utf8'));

const data = readJson('data/kubernetes/api-lifecycle.json');
const apis = data.apis;
const pluto = YAML.parse(fs.readFileSync(path.join(fixtures, 'pluto-versions.yaml'), 'utf8'))['deprecated-versions'];
const kubent = JSON.parse(fs.readFileSync(path.join(fixtures, 'kubent-rules.json'), 'utf8'));
const row = (apiVersion, kind) => apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const schemaOf = (minor) => readJson(`schemas/kubernetes/${minor}/manifest.schema.json`);
const compile = (schema) => new Ajv({ allErrors: true, strict: false }).compile(schema);

/** "v1.16.0" -> "1.16"; "" / undefined -> null (Pluto's "never / unknown") */
const minorOf = (v) => (v ? v.replace(/^v/, '').split('.').slice(0, 2).join('.') : null);
const plutoRow = (e) => ({
  apiVersion: e.version,
  kind: e.kind,
  introduced: null,
  deprecated: minorOf(e['deprecated-in']),
  removed: minorOf(e['removed-in']),
  replacement: e['replacement-api'] || null,
  replacementAvailable: minorOf(e['replacement-available-in']),
});
const shift = (minor, d) => {
  const [a, b] = minor.split('.').map(Number);
  return b + d < 0 ? null : `${a}.${b + d}`;
};
const STATUS_FIELDS = ['deprecated', 'removed', 'replacementAvailable'];
const RAW_FIELDS = ['kind', 'deprecated', 'removed', 'replacement', 'replacementAvailable'];

// ---------------------------------------------------------------------------------------------

test('data: as-of date, minors 1.16 … 1.37, row shape, sources on every row', () => {
  assert.equal(data.asOf, '2026-12-01');
  assert.equal(data.minors[0], '1.16');
  assert.equal(data.minors.at(-1), '1.37');
  assert.deepEqual(data.minors, minorsBetween('1.16', '1.37'));
  const seen = new Set();
  for (const r of apis) {
    const id = `${r.apiVersion}|${r.kind}`;
    assert.ok(!seen.has(id), `duplicate row ${id}`);
    seen.add(id);
    assert.ok(Array.isArray(r.sources) && r.sources.length > 0, `${id} has sources`);
    assert.ok(['k8s', 'cert-manager', 'istio', 'fluxcd', 'gateway-api', 'calico', 'multus', 'sriov-network-operator'].includes(r.component), `${id} component`);
    assert.ok([null, 'apiVersion-only', 'spec-changes', 'no-replacement', 'unknown'].includes(r.migration), `${id} migration`);
    assert.ok(['reference', 'changelog', 'type-presence'].includes(r.confidence), `${id} confidence`);
    if (r.confidence === 'type-presence') assert.ok(r.typePresence && r.sources.some((x) => /prereleaseWithoutLifecycle/.test(x)), `${id}: a type-presence row says where it comes from`);
    for (const f of ['introduced', 'deprecated', 'removed', 'replacementAvailable']) {
      assert.ok(r[f] === null || /^\d+\.\d+$/.test(r[f]), `${id} ${f}=${r[f]}`);
    }
    if (r.migration === null) assert.ok(!r.replacement && !r.deprecated && !r.removed, `${id}: migration null only for current rows`);
    if (r.introduced && r.removed) assert.ok(L.compareMinor(r.introduced, r.removed) < 0, `${id}: introduced < removed`);
  }
});

test('every Pluto entry maps to a row; duplicate Policy is one row; FlowControl folds into the real kinds', () => {
  assert.equal(pluto.length, 112);
  for (let i = 0; i < pluto.length; i++) {
    const rows = apis.filter((r) => r.plutoEntries?.includes(i));
    const e = pluto[i];
    if (e.kind === 'FlowControl') {
      assert.deepEqual(rows.map((r) => `${r.apiVersion}|${r.kind}`).sort(), [
        'flowcontrol.apiserver.k8s.io/v1beta1|FlowSchema',
        'flowcontrol.apiserver.k8s.io/v1beta1|PriorityLevelConfiguration',
      ]);
    } else if (/^(acme\.)?cert-manager\.io\//.test(e.version)) {
      // Moved to data/operators (cert-manager's own CRDs per release, issue #31): no row here.
      assert.equal(rows.length, 0, `Pluto entry ${i} (${e.version} ${e.kind}) moved to data/operators`);
    } else {
      assert.equal(rows.length, 1, `Pluto entry ${i} (${e.version} ${e.kind})`);
      assert.equal(rows[0].apiVersion, e.version);
      assert.equal(rows[0].kind, e.kind);
      assert.equal(rows[0].component, e.component);
    }
  }
  const policy = row('audit.k8s.io/v1alpha1', 'Policy');
  assert.equal(policy.plutoEntries.length, 2);
  assert.match(policy.note, /twice/);
  assert.ok(!apis.some((r) => r.kind === 'FlowControl'));
  const istio = row('authentication.istio.io/v1alpha1', '');
  assert.ok(istio && /every kind/.test(istio.note));
  assert.equal(L.findRow(apis, 'authentication.istio.io/v1alpha1', 'Policy'), istio);
});

test('Pluto parity: our rows agree with Pluto everywhere except exactly the corrections and fills', () => {
  const expected = new Set([...data.corrections, ...data.filled].map((c) => `${c.apiVersion}|${c.kind}|${c.field}`));
  const fix = new Map([...data.corrections, ...data.filled].map((c) => [`${c.apiVersion}|${c.kind}|${c.field}`, c]));
  const differing = new Set();
  for (let i = 0; i < pluto.length; i++) {
    const e = pluto[i];
    const p = plutoRow(e);
    for (const ours of apis.filter((r) => r.plutoEntries?.includes(i))) {
      const entryKey = `${e.version}|${e.kind}`;
      // raw values
      for (const f of RAW_FIELDS) {
        if (ours[f] === p[f]) continue;
        // A kube-apiserver alpha/beta row takes deprecated/removed from the generated code (lifecycleFrom); Pluto's
        // differing value is kept there as a cross-check (test/k8s-prerelease-lifecycle.test.mjs checks the row).
        if (ours.lifecycleFrom && (f === 'deprecated' || f === 'removed')) {
          assert.equal(ours.crossChecks?.pluto?.[f], p[f], `Pluto entry ${i} ${entryKey}: ${f} Pluto ${p[f]} kept as a cross-check`);
          if (fix.has(`${entryKey}|${f}`)) differing.add(`${entryKey}|${f}`);
          continue;
        }
        const k = `${entryKey}|${f}`;
        differing.add(k);
        const c = fix.get(k);
        assert.ok(c, `Pluto entry ${i} ${entryKey}: ${f} differs (Pluto ${p[f]}, ours ${ours[f]}) without a correction`);
        if ('pluto' in c) assert.equal(c.pluto, p[f], `${k}: correction records Pluto's value`);
        else assert.equal(p[f], null, `${k}: only empty Pluto values are filled`);
        if (f === 'kind') assert.ok(c.value.split(', ').includes(ours.kind), k);
        else assert.equal(ours[f], c.value, `${k}: row carries the corrected value`);
      }
      // Pluto status around deprecated-in and removed-in (deprecated-1, deprecated, removed-1, removed, removed+1),
      // for Pluto's and our values
      const targets = new Set();
      for (const r of [p, ours]) {
        if (r.deprecated) [shift(r.deprecated, -1), r.deprecated].forEach((t) => t && targets.add(t));
        if (r.removed) [shift(r.removed, -1), r.removed, shift(r.removed, 1)].forEach((t) => t && targets.add(t));
      }
      for (const t of targets) {
        const sp = L.statusAt(p, t);
        const so = L.statusAt(ours, t);
        for (const f of STATUS_FIELDS) {
          if (sp[f] === so[f]) continue;
          if (ours.lifecycleFrom && (f === 'deprecated' || f === 'removed') && ours.crossChecks?.pluto && f in ours.crossChecks.pluto) continue;
          const k = `${entryKey}|${f}`;
          assert.ok(expected.has(k), `Pluto entry ${i} ${entryKey} at ${t}: ${f} Pluto=${sp[f]} ours=${so[f]} without a correction`);
        }
      }
    }
  }
  const missing = [...expected].filter((k) => !differing.has(k));
  const extra = [...differing].filter((k) => !expected.has(k));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, 'exactly the corrected/filled fields differ');
  for (const f of data.filled) assert.ok(f.value, `${f.apiVersion} ${f.kind} ${f.field}: filled value`);
  for (const c of data.corrections) assert.ok(c.why && c.source, `${c.apiVersion} ${c.kind} ${c.field}: why + source`);
});

test('corrections: the flowcontrol and cert-manager fixes, noted in their rows', () => {
  const ids = data.corrections.map((c) => `${c.apiVersion}|${c.kind}|${c.field}|${c.pluto}->${c.value}`);
  for (const kind of ['FlowSchema', 'PriorityLevelConfiguration']) {
    assert.ok(ids.includes(`flowcontrol.apiserver.k8s.io/v1beta1|${kind}|removed|1.29->1.26`), kind);
    assert.match(row('flowcontrol.apiserver.k8s.io/v1beta1', kind).note, /Corrected removed: Pluto 1\.29 -> 1\.26/);
  }
  for (const c of data.corrections) {
    if (c.kind === 'FlowControl') continue;
    assert.match(row(c.apiVersion, c.kind).note, new RegExp(`Corrected ${c.field}`), `${c.apiVersion} ${c.kind}`);
  }
  assert.equal(row('certmanager.k8s.io/v1alpha1', 'Order').replacement, 'acme.cert-manager.io/v1alpha2');
  assert.ok(!data.corrections.some((c) => /^(acme\.)?cert-manager\.io\//.test(c.apiVersion)), 'the moved rows\' corrections went with them');
});

test('every kubent rule is covered with the same removal release and replacement', () => {
  assert.equal(kubent.rules.length, 51);
  for (const k of kubent.rules) {
    const r = row(k.apiVersion, k.kind);
    assert.ok(r, `${k.apiVersion} ${k.kind}`);
    assert.equal(r.removed, k.removedIn, `${k.apiVersion} ${k.kind} removed`);
    assert.equal(r.replacement, k.replacement === '<removed>' ? null : k.replacement, `${k.apiVersion} ${k.kind} replacement`);
    // kubent is a source of the rows the generated code does not decide, a cross-check of the others.
    if (r.lifecycleFrom) {
      assert.ok(!r.sources.some((s) => s.startsWith('kubent ')), `${k.apiVersion} ${k.kind}: kubent is a cross-check here`);
      if (k.since !== r.deprecated) assert.equal(r.crossChecks?.kubent?.since, k.since, `${k.apiVersion} ${k.kind}: kubent's since kept`);
    } else assert.ok(r.sources.includes(`kubent ${k.ruleFile}`), `${k.apiVersion} ${k.kind} cites kubent`);
  }
});

test('facts: Deployment, Ingress, PodSecurityPolicy, flowcontrol', () => {
  const dep = row('extensions/v1beta1', 'Deployment');
  assert.equal(dep.removed, '1.16');
  assert.equal(L.statusAt(dep, '1.16').served, false);
  assert.equal(L.statusAt(dep, '1.15').served, true);

  const ing = row('networking.k8s.io/v1beta1', 'Ingress');
  assert.equal(ing.deprecated, '1.19');
  assert.equal(ing.removed, '1.22');
  assert.equal(ing.replacement, 'networking.k8s.io/v1');
  assert.equal(ing.replacementAvailable, '1.19');
  assert.equal(ing.migration, 'spec-changes');
  assert.equal(row('networking.k8s.io/v1', 'Ingress').introduced, '1.19');
  assert.deepEqual(L.statusAt(ing, '1.21'), { served: true, deprecated: true, removed: false, replacementAvailable: true });
  assert.deepEqual(L.statusAt(ing, '1.18'), { served: true, deprecated: false, removed: false, replacementAvailable: false });
  assert.deepEqual(L.servedKinds(apis, 'Ingress', '1.21'), ['extensions/v1beta1', 'networking.k8s.io/v1', 'networking.k8s.io/v1beta1']);
  assert.deepEqual(L.servedKinds(apis, 'Ingress', '1.22'), ['networking.k8s.io/v1']);
  assert.deepEqual(L.servedKinds(apis, 'Ingress', '1.18'), ['extensions/v1beta1', 'networking.k8s.io/v1beta1']);

  const psp = row('policy/v1beta1', 'PodSecurityPolicy');
  assert.equal(psp.removed, '1.25');
  assert.equal(psp.replacement, null);
  assert.equal(psp.migration, 'no-replacement');
  assert.deepEqual(L.servedKinds(apis, 'PodSecurityPolicy', '1.25'), []);
  assert.ok(L.knownKind(apis, 'PodSecurityPolicy'));

  assert.equal(row('flowcontrol.apiserver.k8s.io/v1beta2', 'FlowSchema').removed, '1.29');
  assert.equal(row('flowcontrol.apiserver.k8s.io/v1beta2', 'PriorityLevelConfiguration').removed, '1.29');
  assert.equal(row('flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema').removed, '1.26');
  assert.equal(row('flowcontrol.apiserver.k8s.io/v1beta1', 'PriorityLevelConfiguration').removed, '1.26');
  assert.deepEqual(L.servedKinds(apis, 'FlowSchema', '1.26'), [
    'flowcontrol.apiserver.k8s.io/v1beta2',
    'flowcontrol.apiserver.k8s.io/v1beta3',
  ]);
  assert.equal(row('apps/v1', 'Deployment').introduced, '1.9');
  assert.equal(row('batch/v1beta1', 'CronJob').migration, 'apiVersion-only');
  assert.equal(row('v1', 'Pod').introduced, '1.0');
});

test('lifecycle predicates follow Pluto semantics (>=, v-prefixed targets, null = never)', () => {
  const r = { apiVersion: 'x/v1beta1', kind: 'X', introduced: '1.10', deprecated: '1.14', removed: '1.16', replacementAvailable: '1.12' };
  assert.deepEqual(L.statusAt(r, 'v1.16.0'), { served: false, deprecated: true, removed: true, replacementAvailable: true });
  assert.deepEqual(L.statusAt(r, '1.13'), { served: true, deprecated: false, removed: false, replacementAvailable: true });
  assert.deepEqual(L.statusAt(r, '1.9'), { served: false, deprecated: false, removed: false, replacementAvailable: false });
  const never = { apiVersion: 'v1', kind: 'Pod', introduced: null, deprecated: null, removed: null, replacementAvailable: null };
  assert.deepEqual(L.statusAt(never, '1.99'), { served: true, deprecated: false, removed: false, replacementAvailable: false });
  assert.equal(L.compareMinor('1.9', '1.10') < 0, true);
  // cert-manager rows are evaluated with cert-manager versions and only for that component (certmanager.k8s.io: served
  // before 0.11 only; cert-manager.io is in data/operators now)
  assert.deepEqual(L.servedKinds(apis, 'Certificate', '1.22'), []);
  assert.deepEqual(L.servedKinds(apis, 'Certificate', '0.10', 'cert-manager'), ['certmanager.k8s.io/v1alpha1']);
  assert.deepEqual(L.servedKinds(apis, 'Certificate', '1.5', 'cert-manager'), []);
});

test('schemas: one per minor 1.16 … 1.37, compile, served lists equal the engine predicate', () => {
  for (const minor of data.minors) {
    const schema = schemaOf(minor);
    compile(schema);
    const x = schema['x-skewguard'];
    assert.equal(x.family, 'kubernetes');
    assert.equal(x.minor, minor);
    assert.equal(x.asOf, data.asOf);
    assert.match(schema.description, new RegExp(data.asOf));
    assert.deepEqual(schema.required, ['apiVersion', 'kind']);
    for (const [kind, list] of Object.entries(x.served)) {
      const rows = apis.filter((r) => r.component === 'k8s' && !r.servedBy.startsWith('CRD'));
      assert.deepEqual(list, L.servedKinds(rows, kind, minor), `${minor} ${kind}`);
    }
    for (const [id, since] of Object.entries(x.deprecated)) {
      const [apiVersion, kind] = id.split('|');
      const s = L.statusAt(row(apiVersion, kind), minor);
      assert.ok(s.served && s.deprecated && since === row(apiVersion, kind).deprecated, `${minor} ${id}`);
    }
  }
});

test('schemas: 1.21 accepts v1beta1 Ingress and rejects extensions/v1beta1 Deployment; 1.22 rejects v1beta1 Ingress', () => {
  const v21 = compile(schemaOf('1.21'));
  const v22 = compile(schemaOf('1.22'));
  const ingress = { apiVersion: 'networking.k8s.io/v1beta1', kind: 'Ingress', metadata: { name: 'x' } };
  assert.equal(v21(ingress), true);
  assert.equal(v21({ apiVersion: 'extensions/v1beta1', kind: 'Deployment' }), false);
  assert.equal(v21({ apiVersion: 'apps/v1', kind: 'Deployment' }), true);
  assert.equal(v22(ingress), false);
  assert.equal(v22({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' }), true);
  assert.equal(schemaOf('1.21')['x-skewguard'].deprecated['networking.k8s.io/v1beta1|Ingress'], '1.19');
  // CRDs reusing a built-in kind name in another group stay valid; removed kinds are rejected
  assert.equal(v21({ apiVersion: 'kyverno.io/v1', kind: 'Policy' }), true);
  assert.equal(compile(schemaOf('1.25'))({ apiVersion: 'policy/v1beta1', kind: 'PodSecurityPolicy' }), false);
  assert.equal(compile(schemaOf('1.25'))({ apiVersion: 'v1', kind: 'Event' }), true);
  assert.equal(v21({ kind: 'Pod' }), false);
});
