// Issue #28 item 1: every kube-apiserver alpha/beta row of data/kubernetes/api-lifecycle.json answers each minor
// 1.16–1.37 as the generated code does (shared/reference/kubernetes/prerelease-lifecycle.json, `servedAt`: compiled
// in and introduced <= minor < removed), through the engine's own predicate (engine/families/kubernetes/data/lifecycle.ts
// statusAt), and says deprecated from the declared minor; every disagreement is a departure listed in the row with its
// evidence. Reads the reference next to the repository (../shared/reference, or /work/shared/reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e, analyze, findings } from './helpers/k8s.mjs';

const L = e.k8sLifecycle;
const refFile = [path.join(repoRoot, '..', 'shared', 'reference', 'kubernetes', 'prerelease-lifecycle.json'), '/work/shared/reference/kubernetes/prerelease-lifecycle.json'].find((f) => fs.existsSync(f));
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const row = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);

test('the reference is there (the comparison below never passes on a missing file)', () => {
  assert.ok(refFile, 'shared/reference/kubernetes/prerelease-lifecycle.json next to the repository');
});

const ref = refFile ? JSON.parse(fs.readFileSync(refFile, 'utf8')) : { gvks: [], minors: [] };
const gvk = new Map(ref.gvks.map((g) => [`${g.apiVersion}|${g.kind}`, g]));
const isPre = (r) => r.component === 'k8s' && r.servedBy === 'kube-apiserver' && /alpha|beta/.test(r.version ?? '');

test('every prerelease row with lifecycle functions equals the generated code at every minor, or carries its departure', () => {
  const minors = ref.minors;
  assert.equal(minors[0], '1.16');
  assert.equal(minors.at(-1), '1.37');
  let compared = 0;
  const departed = [];
  const notCompared = [];
  for (const r of data.apis.filter(isPre)) {
    const g = gvk.get(`${r.apiVersion}|${r.kind}`);
    if (!g) {
      if (r.typePresence) continue; // compared with the type presence below
      notCompared.push(`${r.apiVersion} ${r.kind}`);
      assert.equal(r.lifecycleFrom, undefined);
      continue;
    }
    const item = g.servingFollows ? gvk.get(`${g.apiVersion}|${g.servingFollows}`) : g;
    assert.ok(r.lifecycleFrom, `${r.apiVersion} ${r.kind}: lifecycleFrom`);
    assert.equal(r.lifecycleFrom.path, item.path);
    assert.equal(r.deprecated, item.deprecated, `${r.apiVersion} ${r.kind}: deprecated`);
    for (const minor of minors) {
      compared++;
      const want = item.servedAt.includes(Number(minor.split('.')[1]));
      const got = L.statusAt(r, minor).served;
      if (got === want) continue;
      const d = (r.departures ?? []).find((x) => x.minors.includes(minor));
      assert.ok(d, `${r.apiVersion} ${r.kind} at ${minor}: served ${got}, the generated code says ${want}, no departure`);
      assert.ok(d.why.length > 40 && /openapi|OpenAPI/.test(d.evidence), `${r.apiVersion} ${r.kind}: departure with evidence`);
      assert.equal(d.generated, item[d.field] ?? null);
      departed.push(`${r.apiVersion} ${r.kind} ${minor}`);
    }
    // a departure names only minors that do depart
    for (const d of r.departures ?? []) for (const minor of d.minors) assert.ok(departed.includes(`${r.apiVersion} ${r.kind} ${minor}`), `${r.apiVersion} ${r.kind} ${minor}: listed departure does not depart`);
  }
  assert.ok(compared > 100 * 22, `${compared} row-minors compared`);
  // Not compared: only kinds the generated code never declares (no lifecycle functions at any tag: the reference's
  // prereleaseWithoutLifecycle) and apps/v1beta1 ReplicaSet, which never existed (Pluto and kubent list it).
  const without = new Set(ref.prereleaseWithoutLifecycle.map((x) => `${x.apiVersion} ${x.kind}`));
  assert.deepEqual(notCompared.filter((k) => !without.has(k) && !without.has(k.replace(/List$/, ''))), ['apps/v1beta1 ReplicaSet']);
  assert.ok(notCompared.includes('rbac.authorization.k8s.io/v1alpha1 Role') && notCompared.length < 15, notCompared.join(', '));
  // the two the reference itself explains (openapiDisagreementCauses): storage gone before the declared removal, and
  // storage registered only behind an alpha feature gate
  const expected = [...['IPAddress', 'ServiceCIDR'].flatMap((k) => [`networking.k8s.io/v1alpha1 ${k} 1.31`, `networking.k8s.io/v1alpha1 ${k} 1.32`]),
    'storage.k8s.io/v1alpha1 CSIStorageCapacity 1.19', 'storage.k8s.io/v1alpha1 CSIStorageCapacity 1.20'];
  assert.deepEqual(departed.sort(), expected.sort());
  assert.deepEqual(data.prereleaseLifecycle.departures.map((d) => `${d.apiVersion} ${d.kind}`).sort(), [...['IPAddress', 'ServiceCIDR'].map((k) => `networking.k8s.io/v1alpha1 ${k}`), 'storage.k8s.io/v1alpha1 CSIStorageCapacity']);
  for (const c of ref.openapiDisagreementCauses.filter((x) => x.apiVersions.some((a) => /networking\.k8s\.io\/v1alpha1|storage\.k8s\.io\/v1alpha1/.test(a)))) {
    assert.ok(data.apis.some((r) => c.apiVersions.includes(r.apiVersion) && r.departures?.some((d) => d.minors.every((m) => c.minors.includes(m)))), c.cause);
  }
});

test('every alpha/beta kind the API server serves at some minor 1.16–1.37 has a row', () => {
  const missing = ref.gvks.filter((g) => (g.stability === 'alpha' || g.stability === 'beta') && !g.list && !g.notAResource && g.servedAt.length && !row(g.apiVersion, g.kind));
  assert.deepEqual(missing.map((g) => `${g.apiVersion} ${g.kind}`), []);
  // the nine that had none before issue #28
  for (const [av, k] of [['certificates.k8s.io/v1alpha1', 'PodCertificateRequest'], ['certificates.k8s.io/v1beta1', 'PodCertificateRequest'], ['coordination.k8s.io/v1alpha1', 'LeaseCandidate'],
    ['networking.k8s.io/v1alpha1', 'ClusterCIDR'], ['resource.k8s.io/v1alpha3', 'DeviceTaintRule'], ['resource.k8s.io/v1alpha3', 'ResourcePoolStatusRequest'], ['resource.k8s.io/v1beta2', 'DeviceTaintRule'],
    ['storage.k8s.io/v1alpha1', 'CSIStorageCapacity'], ['storage.k8s.io/v1alpha1', 'VolumeAttachment']]) {
    const r = row(av, k);
    assert.ok(r && data.prereleaseLifecycle.added.includes(`${av} ${k}`), `${av} ${k}`);
    assert.ok(r.offByDefault || /beta/.test(av), `${av} ${k}: alpha is off by default`);
  }
});

test('the rows the issue names: served minors from the generated code', () => {
  const served = (av, k) => data.minors.filter((m) => L.statusAt(row(av, k), m).served);
  const span = (a, b) => data.minors.filter((m) => L.compareMinor(m, a) >= 0 && L.compareMinor(m, b) <= 0);
  assert.deepEqual(served('authentication.k8s.io/v1beta1', 'SelfSubjectReview'), span('1.27', '1.32')); // removed 1.33
  for (const [av, k] of [['networking.k8s.io/v1beta1', 'ServiceCIDR'], ['networking.k8s.io/v1beta1', 'IPAddress'], ['storage.k8s.io/v1beta1', 'VolumeAttributesClass']]) {
    assert.equal(row(av, k).removed, '1.37', `${av} ${k}`);
    assert.equal(L.statusAt(row(av, k), '1.37').served, false);
    assert.match(row(av, k).lifecycleFrom.preRelease, /^1\.37 is read at kubernetes\/api v0\.37\.0-beta\.0/); // 1.37 decided by a pre-release tag
  }
  assert.equal(row('certificates.k8s.io/v1alpha1', 'ClusterTrustBundle').removed, '1.37');
  assert.equal(row('admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy').removed, '1.32');
  assert.deepEqual(row('admissionregistration.k8s.io/v1alpha1', 'ValidatingAdmissionPolicy').crossChecks.pluto, { removed: '1.33', deprecated: '1.28' });
  assert.match(data.prereleaseLifecycle.preRelease['1.37'], /v0\.37\.0-beta\.0.*pre-release/);
  // Pluto and kubent stay cross-checks: not among the sources of a row the generated code decides
  const dep = row('extensions/v1beta1', 'Deployment');
  assert.ok(dep.lifecycleFrom && !dep.sources.some((s) => /^pluto |^kubent /.test(s)));
  assert.deepEqual(dep.crossChecks.pluto, { deprecated: '1.9' });
});

test('through the rules: SelfSubjectReview v1beta1 is removed at 1.33, ServiceCIDR v1beta1 at 1.37', () => {
  const m = (av, k) => `apiVersion: ${av}\nkind: ${k}\nmetadata:\n  name: x\n`;
  const ssr = analyze('/w/ssr.yaml', m('authentication.k8s.io/v1beta1', 'SelfSubjectReview'), '1.32..1.33').diagnostics.filter((d) => d.ruleId === 'k8s/removed-api');
  assert.deepEqual(findings(ssr), ['k8s/removed-api @ 1:13']);
  assert.match(ssr[0].message, /removed in Kubernetes 1\.33/);
  const cidr = analyze('/w/c.yaml', m('networking.k8s.io/v1beta1', 'ServiceCIDR'), '1.36..1.37').diagnostics.filter((d) => d.ruleId === 'k8s/removed-api');
  assert.match(cidr[0].message, /removed in Kubernetes 1\.37/);
  assert.deepEqual(analyze('/w/c.yaml', m('networking.k8s.io/v1beta1', 'ServiceCIDR'), '1.35..1.36').diagnostics.filter((d) => d.ruleId === 'k8s/removed-api'), []);
});

// The alpha/beta kinds that never had lifecycle functions (prereleaseWithoutLifecycle: batch/v2alpha1 CronJob,
// resource.k8s.io/v1alpha2, scheduling.k8s.io/v1alpha1–v1alpha3 …) were served at every minor for want of a row. Their
// rows are inferred from where the Go type exists, cut where the reference's OpenAPI documents lose the kind.
test('every prerelease kind without lifecycle functions has a row; a type-presence row serves exactly where the type is', () => {
  const without = ref.prereleaseWithoutLifecycle;
  const byKey = new Map(without.map((x) => [`${x.apiVersion}|${x.kind}`, x]));
  const documented = new Set(ref.openapiSources.map((s) => s.minor));
  const notServed = data.prereleaseLifecycle.typePresence.notServed.map((x) => `${x.apiVersion} ${x.kind}`);
  assert.deepEqual(notServed, ['extensions/v1beta1 ReplicationControllerDummy']);
  let compared = 0;
  for (const x of without) {
    if (x.notAResource || notServed.includes(`${x.apiVersion} ${x.kind}`)) continue;
    const r = row(x.apiVersion, x.kind);
    const item = x.kind.endsWith('List') && byKey.get(`${x.apiVersion}|${x.kind.slice(0, -4)}`);
    // a List kind whose item keeps an older (Pluto/changelog) row without a List row: the item's row answers
    if (!r) { assert.ok(item && row(item.apiVersion, item.kind) && !row(item.apiVersion, item.kind).typePresence, `${x.apiVersion} ${x.kind}: no row`); continue; }
    if (!r.typePresence) { assert.ok(r.sources.length && r.confidence !== 'type-presence'); continue; } // rbac v1alpha1, scheduling v1alpha1 PriorityClass
    const it = item || x;
    assert.equal(r.confidence, 'type-presence');
    assert.ok(r.sources.some((s) => s.includes('prerelease-lifecycle.json prereleaseWithoutLifecycle') && s.includes(it.typeFirstTag)), `${x.apiVersion} ${x.kind}: cites the reference`);
    assert.deepEqual(r.typePresence.typeAt, [`1.${it.typeAt[0]}`, `1.${it.typeAt.at(-1)}`]);
    const seen = it.openapiServedAt ?? [];
    const lastSeen = seen.length ? Math.max(...seen) : null;
    for (const minor of data.minors) {
      const m = Number(minor.split('.')[1]);
      const typed = it.typeAt.includes(m) || (m < it.typeAt[0] && it.typeAt[0] === 16);
      const goneFromDocs = lastSeen !== null && ref.openapiSources.some((s) => { const d = Number(s.minor.split('.')[1]); return d > lastSeen && d <= m && !seen.includes(d); });
      // where the documents leave a gap, the field table's per-minor sources settle the removal (import-kubernetes.mjs)
      const goneFromTable = r.typePresence.removedBy === 'fieldTable' && m > Number(r.typePresence.fieldTableLast.split('.')[1]);
      assert.equal(L.statusAt(r, minor).served, typed && !goneFromDocs && !goneFromTable, `${x.apiVersion} ${x.kind} at ${minor}`);
      compared++;
    }
    assert.ok(r.offByDefault, `${x.apiVersion} ${x.kind}: alpha is off by default`);
  }
  assert.ok(compared > 40 * 22, `${compared} row-minors compared`);
  assert.ok(documented.has('1.28') && !documented.has('1.24'));
  // what the tester's manifests name
  const want = { 'batch/v2alpha1|CronJob': [null, '1.21'], 'settings.k8s.io/v1alpha1|PodPreset': [null, '1.20'], 'resource.k8s.io/v1alpha2|ResourceClaim': ['1.27', '1.31'],
    'discovery.k8s.io/v1alpha1|EndpointSlice': [null, '1.17'], 'auditregistration.k8s.io/v1alpha1|AuditSink': [null, '1.19'], 'node.k8s.io/v1alpha1|RuntimeClass': [null, '1.24'],
    'scheduling.k8s.io/v1alpha1|Workload': ['1.35', '1.36'], 'scheduling.k8s.io/v1alpha2|PodGroup': ['1.36', '1.37'], 'scheduling.k8s.io/v1alpha3|Workload': ['1.37', null] };
  for (const [k, [introduced, removed]] of Object.entries(want)) {
    const r = row(...k.split('|'));
    assert.deepEqual([r.introduced, r.removed], [introduced, removed], k);
  }
  // the documents' gap (1.23..1.27) settled by the field table, as CHANGELOG-1.24 says (#103061), with both sources
  const rc = row('node.k8s.io/v1alpha1', 'RuntimeClass');
  assert.deepEqual([rc.typePresence.removedBetween, rc.typePresence.removedBy, rc.typePresence.fieldTableLast], [['1.23', '1.28'], 'fieldTable', '1.23']);
  assert.ok(rc.sources.some((s) => s.startsWith('data/kubernetes/fields/fields.json: the 1.23 OpenAPI document has RuntimeClass')), JSON.stringify(rc.sources));
  // 1.37 is read at a pre-release tag: a value it decides says so
  assert.match(row('scheduling.k8s.io/v1alpha2', 'PodGroup').typePresence.preRelease, /^1\.37 is read at kubernetes\/api v0\.37\.0-beta\.0/);
  assert.match(row('scheduling.k8s.io/v1alpha3', 'Workload').typePresence.preRelease, /pre-release/);
  assert.equal(row('batch/v2alpha1', 'CronJob').typePresence.preRelease, undefined);
  // node.k8s.io/v1alpha1 keeps its type to 1.37 but leaves the documents after 1.22 (none for 1.23–1.27)
  assert.deepEqual(row('node.k8s.io/v1alpha1', 'RuntimeClass').typePresence.removedBetween, ['1.23', '1.28']);
});

test('through the rules: alpha kinds without lifecycle functions are no longer a silent pass', () => {
  const m = (av, k) => `apiVersion: ${av}\nkind: ${k}\nmetadata:\n  name: x\n`;
  const rules = (av, k, w) => [...new Set(analyze('/w/a.yaml', m(av, k), w).diagnostics.map((d) => d.ruleId))].sort();
  for (const [av, k] of [['batch/v2alpha1', 'CronJob'], ['node.k8s.io/v1alpha1', 'RuntimeClass'], ['discovery.k8s.io/v1alpha1', 'EndpointSlice'], ['resource.k8s.io/v1alpha2', 'ResourceClaim']]) {
    assert.ok(rules(av, k, '1.33..1.36').includes('k8s/removed-api'), `${av} ${k}`);
  }
  for (const [av, k] of [['settings.k8s.io/v1alpha1', 'PodPreset'], ['auditregistration.k8s.io/v1alpha1', 'AuditSink']]) {
    assert.ok(rules(av, k, '1.29..1.32').some((r) => r === 'k8s/removed-api' || r === 'k8s/no-common-api-version'), `${av} ${k}`);
  }
  // resource.k8s.io/v1alpha2 is served to 1.30: across 1.29..1.32 no apiVersion of ResourceClaim spans the window
  assert.ok(rules('resource.k8s.io/v1alpha2', 'ResourceClaim', '1.29..1.32').includes('k8s/no-common-api-version'));
  assert.ok(rules('scheduling.k8s.io/v1alpha2', 'PodGroup', '1.29..1.32').includes('k8s/api-not-yet-served'));
  assert.ok(rules('scheduling.k8s.io/v1alpha3', 'Workload', '1.33..1.36').length > 0);
  assert.deepEqual(rules('batch/v2alpha1', 'CronJob', '1.18..1.20').filter((r) => r === 'k8s/removed-api'), []);
});

// A GA apiVersion of a known kind that only the generated code dates (resource.k8s.io/v1 DeviceTaintRule, GA in 1.37)
// had no row and counted as served at every minor.
test('GA apiVersions that came after 1.16 of a kind with rows have a row serving where the generated code does', () => {
  const kinds = new Set(data.apis.filter((r) => r.component === 'k8s' && r.servedBy === 'kube-apiserver' && !r.typePresence).map((r) => r.kind));
  let compared = 0;
  for (const g of ref.gvks) {
    if (g.stability !== 'ga' || g.list || g.notAResource || g.headOnly || !g.servedAt.length || g.servedAt[0] <= 16 || !kinds.has(g.kind)) continue;
    const r = row(g.apiVersion, g.kind);
    assert.ok(r, `${g.apiVersion} ${g.kind}: no row`);
    if (!r.lifecycleFrom) continue; // dated by another source (authorization.k8s.io/v1 reviews: 1.6, which the emulation-era declaration 1.19 is not)
    for (const minor of ref.minors) {
      assert.equal(L.statusAt(r, minor).served, g.servedAt.includes(Number(minor.split('.')[1])), `${g.apiVersion} ${g.kind} at ${minor}`);
      compared++;
    }
  }
  assert.ok(compared >= 22, `${compared} row-minors compared`);
  const dtr = row('resource.k8s.io/v1', 'DeviceTaintRule');
  assert.equal(dtr.introduced, '1.37');
  assert.ok(dtr.sources.some((s) => /resource\/v1\/zz_generated\.prerelease-lifecycle\.go .*APILifecycleIntroduced 1\.37/.test(s)));
  assert.match(dtr.lifecycleFrom.preRelease, /^1\.37 is read at kubernetes\/api v0\.37\.0-beta\.0/);
  assert.deepEqual(data.prereleaseLifecycle.gaAdded, ['resource.k8s.io/v1 DeviceTaintRule']);
  const m = 'apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata:\n  name: x\nspec:\n  taint: {key: a, effect: NoSchedule}\n';
  assert.deepEqual(findings(analyze('/w/dtr.yaml', m, '1.33..1.36').diagnostics.filter((d) => d.ruleId === 'k8s/api-not-yet-served')), ['k8s/api-not-yet-served @ 1:13']);
  assert.deepEqual(analyze('/w/dtr.yaml', m, '1.37').diagnostics.filter((d) => d.ruleId === 'k8s/api-not-yet-served'), []);
});
