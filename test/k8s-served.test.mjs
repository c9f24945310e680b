// What a Kubernetes minor serves (server/src/engine/families/kubernetes/data/served.ts, via dist/engine.js): Helm's
// .Capabilities.APIVersions at a step of the window, and the apiVersions the Helm chart rules check emissions against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { k8sServed: S } = require('../dist/engine.js');

test('servedAt: removed group/versions and kinds drop out at their removal minor', () => {
  assert.equal(S.servesAt('1.24', 'batch/v1beta1/CronJob'), true);
  assert.equal(S.servesAt('1.24', 'batch/v1beta1'), true);
  assert.equal(S.servesAt('1.25', 'batch/v1beta1/CronJob'), false);
  assert.equal(S.servesAt('1.25', 'batch/v1beta1'), false);
  assert.equal(S.servesAt('1.20', 'batch/v1/CronJob'), false);
  assert.equal(S.servesAt('1.21', 'batch/v1/CronJob'), true);
  assert.equal(S.servesAt('1.21', 'networking.k8s.io/v1beta1/Ingress'), true);
  assert.equal(S.servesAt('1.22', 'networking.k8s.io/v1beta1/Ingress'), false);
  assert.equal(S.servesAt('1.22', 'networking.k8s.io/v1/Ingress'), true);
  assert.equal(S.servesAt('1.25', 'policy/v1beta1/PodSecurityPolicy'), false);
  assert.equal(S.servesAt('1.24', 'policy/v1beta1/PodSecurityPolicy'), true);
});

test('servedAt: the stable core kinds (data rows plus served-stable.json), matched as exact strings like VersionSet.Has', () => {
  for (const m of ['1.16', '1.25', '1.33']) {
    for (const s of ['v1', 'v1/Pod', 'v1/Service', 'v1/ConfigMap', 'v1/Binding', 'apps/v1', 'apps/v1/Deployment', 'apps/v1/ControllerRevision', 'rbac.authorization.k8s.io/v1/Role', 'batch/v1/Job']) {
      assert.equal(S.servesAt(m, s), true, `${s} at ${m}`);
    }
    assert.equal(S.servesAt(m, 'apps/v1/'), false);
    assert.equal(S.servesAt(m, 'Apps/v1'), false);
    assert.equal(S.servesAt(m, 'apps/v1/deployment'), false);
  }
  // Not kube-apiserver's: config-file kinds and CRD-provided ones are not in a cluster's discovery by default.
  assert.equal(S.servesAt('1.25', 'audit.k8s.io/v1'), false);
  assert.equal(S.servesAt('1.25', 'snapshot.storage.k8s.io/v1'), false);
  const strings = S.apiVersionsAt('1.25');
  assert.ok(strings.includes('v1/Pod') && strings.includes('apps/v1') && !strings.includes('extensions/v1beta1'));
  assert.deepEqual(strings, [...strings].sort());
});

test('capabilitiesAt: KubeVersion and Has at a step', () => {
  const c = S.capabilitiesAt('v1.25.3');
  assert.equal(c.kubeVersion, 'v1.25.0');
  assert.equal(c.has('batch/v1/CronJob'), true);
  assert.equal(c.has('batch/v1beta1/CronJob'), false);
  assert.throws(() => S.servedAt('latest'), /not a Kubernetes minor/);
});

test('served-stable.json: every row is cited and not already a lifecycle row', () => {
  const stable = JSON.parse(fs.readFileSync(new URL('../data/kubernetes/served-stable.json', import.meta.url), 'utf8')).rows;
  const apis = JSON.parse(fs.readFileSync(new URL('../data/kubernetes/api-lifecycle.json', import.meta.url), 'utf8')).apis;
  for (const r of stable) {
    assert.ok(r.sources.length > 0, `${r.apiVersion} ${r.kind}`);
    assert.ok(!apis.some((a) => a.apiVersion === r.apiVersion && a.kind === r.kind), `${r.apiVersion} ${r.kind} duplicates a lifecycle row`);
  }
});

test('servedAt: at every minor 1.0..1.45, exactly the rows kube-apiserver serves by default (introduced <= minor < removed), from the data files', () => {
  const repo = new URL('..', import.meta.url);
  const apis = JSON.parse(fs.readFileSync(new URL('data/kubernetes/api-lifecycle.json', repo), 'utf8')).apis;
  const stable = JSON.parse(fs.readFileSync(new URL('data/kubernetes/served-stable.json', repo), 'utf8')).rows;
  const rows = [
    ...apis.filter((r) => (r.component ?? 'k8s') === 'k8s' && (r.servedBy ?? 'kube-apiserver') === 'kube-apiserver' && r.kind !== '' && !r.kind.endsWith('List') && !r.offByDefault),
    ...stable,
  ];
  const num = (v) => { const [a, b] = v.replace(/^v/i, '').split('.').map(Number); return a * 1000 + b; };
  let changes = 0;
  let previous = '';
  for (let m = 0; m <= 45; m++) {
    const minor = `1.${m}`;
    const want = new Set();
    for (const r of rows) {
      if (r.introduced && num(r.introduced) > num(minor)) continue;
      if (r.removed && num(r.removed) <= num(minor)) continue;
      want.add(r.apiVersion);
      want.add(`${r.apiVersion}/${r.kind}`);
    }
    const got = S.apiVersionsAt(minor);
    assert.deepEqual(got, [...want].sort(), minor);
    if (got.join() !== previous) changes++;
    previous = got.join();
  }
  assert.ok(changes > 10, `the served set changes from minor to minor (${changes} times): the comparison is not vacuous`);
});
