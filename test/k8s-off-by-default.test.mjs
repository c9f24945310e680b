// Issue #16 item 6: "served only when enabled" is a state of its own. kube-apiserver registers alpha versions and the
// beta versions added from 1.24 on but disables them by default (pkg/controlplane/instance.go
// DefaultAPIResourceConfigSource; data/kubernetes/api-lifecycle.json `offByDefault`): such a step is reported as a
// warning "served at 1.xx only when <group/version> is enabled", not as served (Helm's .Capabilities of a default
// cluster leave it out) and not as unserved. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e, analyze, findings } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const rowOf = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const manifest = (apiVersion, kind) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\n`;
const k8s = (text, window) => analyze('/w/m.yaml', text, window).diagnostics.filter((d) => d.ruleId.startsWith('k8s/') && d.ruleId !== 'k8s/fields-not-checked');

test('data: offByDefault only on kube-apiserver alpha rows and beta rows added from 1.24, with the source read; the legacy-enabled betas stay on', () => {
  const off = data.apis.filter((r) => r.offByDefault);
  assert.ok(off.length >= 40, `${off.length} rows`);
  for (const r of off) {
    const id = `${r.apiVersion} ${r.kind}`;
    assert.equal(r.component, 'k8s', id);
    assert.equal(r.servedBy, 'kube-apiserver', id);
    assert.ok(/alpha/.test(r.version) || (/beta/.test(r.version) && e.k8sLifecycle.compareMinor(r.introduced, '1.24') >= 0), id);
    assert.match(r.offByDefault.source, /pkg\/controlplane\/instance\.go DefaultAPIResourceConfigSource/, id);
    assert.equal(r.offByDefault.enable, `kube-apiserver --runtime-config=${r.apiVersion}=true`, id);
  }
  for (const [a, k] of [['resource.k8s.io/v1beta1', 'ResourceClaim'], ['resource.k8s.io/v1beta2', 'DeviceClass'], ['storage.k8s.io/v1beta1', 'VolumeAttributesClass'],
    ['networking.k8s.io/v1beta1', 'IPAddress'], ['networking.k8s.io/v1beta1', 'ServiceCIDR'], ['admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy'],
    ['admissionregistration.k8s.io/v1beta1', 'MutatingAdmissionPolicy'], ['coordination.k8s.io/v1beta1', 'LeaseCandidate'], ['certificates.k8s.io/v1beta1', 'ClusterTrustBundle'],
    ['rbac.authorization.k8s.io/v1alpha1', 'Role']]) {
    assert.ok(rowOf(a, k)?.offByDefault, `${a} ${k}`);
  }
  // legacyBetaEnabledByDefaultResources: flowcontrol v1beta3 FlowSchema / PriorityLevelConfiguration; betas before 1.24
  for (const [a, k] of [['flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'], ['flowcontrol.apiserver.k8s.io/v1beta3', 'PriorityLevelConfiguration'],
    ['batch/v1beta1', 'CronJob'], ['policy/v1beta1', 'PodDisruptionBudget'], ['networking.k8s.io/v1', 'ServiceCIDR']]) {
    assert.equal(rowOf(a, k).offByDefault, undefined, `${a} ${k}`);
  }
  // the 1.38 removal of resource.k8s.io/v1beta1 stays announced; its "never served by default" (inferred in the reference) is now the rule of the source
  assert.equal(rowOf('resource.k8s.io/v1beta1', 'ResourceSlice').removed, '1.38');
  assert.ok(rowOf('resource.k8s.io/v1beta1', 'ResourceSlice').offByDefault);
  // the rows added for the kinds no other source listed cite the field table's OpenAPI document of their first minor
  assert.deepEqual(['introduced', 'removed'].map((f) => rowOf('networking.k8s.io/v1alpha1', 'IPAddress')[f]), ['1.27', '1.31']);
  assert.match(rowOf('networking.k8s.io/v1', 'IPAddress').sources[0], /fields\.json: the 1\.33 OpenAPI document \(@kubernetes\/client-node@1\.3\.0\)/);
});

test('a manifest of an API off by default: a warning naming the steps and how to enable it, never removed/not-yet-served there', () => {
  const d = k8s(manifest('resource.k8s.io/v1beta1', 'ResourceClaim'), '1.33..1.34');
  assert.deepEqual(findings(d), ['k8s/api-off-by-default @ 1:13']);
  assert.equal(d[0].severity, 'warning');
  assert.equal(d[0].message, 'resource.k8s.io/v1beta1 ResourceClaim is served at 1.33..1.34 only when resource.k8s.io/v1beta1 is enabled '
    + '(kube-apiserver --runtime-config=resource.k8s.io/v1beta1=true): beta API versions added from 1.24 on are disabled by default (KEP-3136); '
    + 'no apiVersion of the kind is served by default at every step of the window');
  // where a default cluster serves another apiVersion at every step: named, with a fix (partial: no known conversion)
  // (deprecated from 1.34 and removed in 1.37 by the generated lifecycle code: shared/reference/kubernetes/prerelease-lifecycle.json)
  const cidr = k8s(manifest('networking.k8s.io/v1beta1', 'ServiceCIDR'), '1.33..1.36').filter((x) => x.ruleId !== 'k8s/deprecated-api');
  assert.deepEqual(findings(cidr), ['k8s/api-off-by-default @ 1:13']);
  assert.deepEqual(findings(k8s(manifest('networking.k8s.io/v1beta1', 'ServiceCIDR'), '1.33..1.36')), ['k8s/api-off-by-default @ 1:13', 'k8s/deprecated-api @ 1:13']);
  assert.match(cidr[0].message, /networking\.k8s\.io\/v1 is served by default at every step of the window$/);
  const fixes = typeof cidr[0].fixes === 'function' ? cidr[0].fixes() : cidr[0].fixes;
  assert.match(fixes[0].title, /^Change apiVersion to networking\.k8s\.io\/v1 — partial/);
  // alpha
  assert.match(k8s(manifest('rbac.authorization.k8s.io/v1alpha1', 'Role'), '1.19..1.21').find((x) => x.ruleId === 'k8s/api-off-by-default').message, /served at 1\.19\.\.1\.21 only when rbac\.authorization\.k8s\.io\/v1alpha1 is enabled .*: alpha API versions are always disabled by default/);
  // not a finding for the legacy-enabled beta, nor for GA
  assert.deepEqual(k8s(manifest('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'), '1.26..1.28'), []);
  assert.deepEqual(k8s(manifest('networking.k8s.io/v1', 'ServiceCIDR'), '1.33..1.36'), []);
});

test('Helm .Capabilities / discovery of a default cluster leave out the APIs off by default', () => {
  const S = e.k8sServed;
  assert.equal(S.servesAt('1.33', 'resource.k8s.io/v1beta1'), false);
  assert.equal(S.servesAt('1.33', 'resource.k8s.io/v1beta1/ResourceClaim'), false);
  assert.equal(S.servesAt('1.34', 'resource.k8s.io/v1/ResourceClaim'), true);
  assert.equal(S.servesAt('1.33', 'networking.k8s.io/v1beta1/ServiceCIDR'), false);
  assert.equal(S.servesAt('1.33', 'networking.k8s.io/v1/ServiceCIDR'), true);
  assert.equal(S.servesAt('1.28', 'flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema'), true);
  assert.equal(S.capabilitiesAt('1.30').has('admissionregistration.k8s.io/v1beta1/ValidatingAdmissionPolicy'), false);
  assert.equal(S.capabilitiesAt('1.30').has('admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy'), true);
});
