// Issue #16 item 3: component configuration APIs (kubeadm, kubelet, kube-proxy, kube-scheduler, kube-apiserver files)
// in the lifecycle data, recognised by apiVersion/kind (kubeadm's multi-document files too), reported as files a
// component no longer reads, never as APIs the apiserver no longer serves. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e, analyze, findings, applyEdits } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const rowOf = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const k8s = (r) => r.diagnostics.filter((d) => d.ruleId.startsWith('k8s/'));
const doc = (apiVersion, kind, body = '') => `apiVersion: ${apiVersion}\nkind: ${kind}\n${body}`;

// kubeadm's own multi-document file: kubeadm init --config reads all four kinds from one file.
const KUBEADM_V1BETA2 = [
  doc('kubeadm.k8s.io/v1beta2', 'InitConfiguration', 'localAPIEndpoint:\n  bindPort: 6443\n'),
  doc('kubeadm.k8s.io/v1beta2', 'ClusterConfiguration', 'kubernetesVersion: v1.25.3\n'),
  doc('kubelet.config.k8s.io/v1beta1', 'KubeletConfiguration', 'cgroupDriver: systemd\n'),
  doc('kubeproxy.config.k8s.io/v1alpha1', 'KubeProxyConfiguration', 'mode: iptables\n'),
].join('---\n');

test('data: every component config row names the component that reads it, is not "served by kube-apiserver", and cites its source', () => {
  const groups = ['kubeadm.k8s.io', 'kubelet.config.k8s.io', 'kubeproxy.config.k8s.io', 'kubescheduler.config.k8s.io', 'kubecontrollermanager.config.k8s.io', 'apiserver.config.k8s.io', 'apiserver.k8s.io'];
  const rows = data.apis.filter((r) => groups.includes(r.group));
  assert.ok(rows.length >= 50, `${rows.length} rows`);
  for (const r of rows) {
    assert.ok(r.readBy, `${r.apiVersion} ${r.kind} readBy`);
    assert.equal(r.servedBy, `${r.readBy} config file`);
    assert.ok(r.sources.some((s) => s.includes('component-config-apis.json')), `${r.apiVersion} ${r.kind} cites the reference`);
    assert.ok(r.sources.length >= 2, `${r.apiVersion} ${r.kind} cites an upstream source`);
  }
  // audit.k8s.io (imported from Pluto/kubent) is a kube-apiserver file too.
  assert.equal(rowOf('audit.k8s.io/v1', 'Policy').readBy, 'kube-apiserver');
  // kubeadm.k8s.io/v1 exists in 1.37 only as an experimental placeholder that "cannot be used yet": no row, said why.
  assert.equal(rowOf('kubeadm.k8s.io/v1', 'ClusterConfiguration'), undefined);
  assert.ok(data.componentConfig.omitted.some((o) => o.apiVersion === 'kubeadm.k8s.io/v1' && /placeholder/.test(o.why)));
});

test('data: the upstream facts — kubeadm v1beta2 gone from 1.27, v1beta3 deprecated 1.31 (doc.go verified) and gone 1.37, scheduler v1beta2/v1beta3 gone 1.28/1.29', () => {
  // kubernetes/kubernetes#114540 removed v1beta2 in 1.27; kubeadm v1.27 and newer no longer support it (config API docs).
  assert.deepEqual(['introduced', 'deprecated', 'removed', 'replacement'].map((f) => rowOf('kubeadm.k8s.io/v1beta2', 'ClusterConfiguration')[f]), ['1.15', '1.24', '1.27', 'kubeadm.k8s.io/v1beta3']);
  // #125029 (v1beta4 in 1.31, v1beta3 deprecated; doc.go: "DEPRECATED: v1beta3 is deprecated in favor of v1beta4"),
  // #136016 (removal, CHANGELOG-1.37 v1.37.0-alpha.1).
  const b3 = rowOf('kubeadm.k8s.io/v1beta3', 'InitConfiguration');
  assert.deepEqual([b3.introduced, b3.deprecated, b3.removed, b3.replacement, b3.replacementAvailable], ['1.22', '1.31', '1.37', 'kubeadm.k8s.io/v1beta4', '1.31']);
  assert.match(b3.note, /Verified: deprecation verified: .*v1beta3\/doc\.go/);
  // kube-scheduler config/v1beta2 gone at v0.28.0, config/v1beta3 gone at v0.29.0 (#117649, #119994).
  assert.equal(rowOf('kubescheduler.config.k8s.io/v1beta2', 'KubeSchedulerConfiguration').removed, '1.28');
  assert.equal(rowOf('kubescheduler.config.k8s.io/v1beta3', 'KubeSchedulerConfiguration').removed, '1.29');
  // kubeadm v1beta3 dropped ClusterStatus (#101915): no replacement for v1beta2 ClusterStatus.
  assert.equal(rowOf('kubeadm.k8s.io/v1beta2', 'ClusterStatus').migration, 'no-replacement');
  // Marked "inferred" in the reference and not verified here: said in the row.
  assert.match(rowOf('kubescheduler.config.k8s.io/v1beta1', 'KubeSchedulerConfiguration').note, /inferred.*not verified/);
});

test('served: config files are never part of what the apiserver serves (discovery, Helm .Capabilities)', () => {
  for (const m of ['1.25', '1.31', '1.37']) {
    const s = e.k8sServed.servedAt(m);
    for (const gv of ['kubeadm.k8s.io/v1beta3', 'kubelet.config.k8s.io/v1beta1', 'kubeproxy.config.k8s.io/v1alpha1', 'kubescheduler.config.k8s.io/v1', 'apiserver.config.k8s.io/v1', 'audit.k8s.io/v1']) {
      assert.equal(s.groupVersions.has(gv), false, `${m} ${gv}`);
    }
    assert.equal(e.k8sServed.capabilitiesAt(m).has('kubeadm.k8s.io/v1beta3/ClusterConfiguration'), false);
  }
});

test('kubeadm multi-document file v1beta2, window 1.25..1.28: "kubeadm 1.27 no longer reads", at both kubeadm documents, nothing at the kubelet/kube-proxy ones', () => {
  const r = analyze('/w/kubeadm-config.yaml', KUBEADM_V1BETA2, '1.25..1.28');
  const d = k8s(r);
  assert.deepEqual(findings(d), ['k8s/removed-api @ 1:13', 'k8s/removed-api @ 6:13']);
  assert.match(d[0].message, /^kubeadm 1\.27 no longer reads kubeadm\.k8s\.io\/v1beta2 InitConfiguration, and 1\.27 is in the window 1\.25\.\.1\.28/);
  assert.match(d[1].message, /^kubeadm 1\.27 no longer reads kubeadm\.k8s\.io\/v1beta2 ClusterConfiguration/);
  for (const x of d) {
    assert.doesNotMatch(x.message, /serve/);
    assert.equal(x.severity, 'error');
    assert.equal(x.data.readBy, 'kubeadm');
  }
  // The fix moves to v1beta3 (kubeadm 1.22..1.36 reads it) but only partially: v1beta3 dropped useHyperKubeImage and
  // dns.type (#101537), so a plain apiVersion change may not keep meaning; the title says what to check.
  const fix = (typeof d[1].fixes === 'function' ? d[1].fixes() : d[1].fixes)[0];
  assert.equal(fix.partial, true);
  assert.match(fix.title, /kubeadm\.k8s\.io\/v1beta3 — partial: .*useHyperKubeImage.*kubeadm config migrate/);
  const fixed = applyEdits(KUBEADM_V1BETA2, fix.edits);
  assert.match(fixed, /apiVersion: kubeadm\.k8s\.io\/v1beta3\nkind: ClusterConfiguration/);
  assert.deepEqual(findings(k8s(analyze('/w/kubeadm-config.yaml', fixed, '1.25..1.28'))), ['k8s/removed-api @ 1:13']);
});

test('kubeadm v1beta2 in 1.25..1.26 is only deprecated (warning) and the window ending at 1.27 is an error', () => {
  const ok = k8s(analyze('/w/k.yaml', doc('kubeadm.k8s.io/v1beta2', 'ClusterConfiguration'), '1.25..1.26'));
  assert.deepEqual(findings(ok), ['k8s/deprecated-api @ 1:13']);
  assert.match(ok[0].message, /^kubeadm\.k8s\.io\/v1beta2 ClusterConfiguration is deprecated for kubeadm from 1\.24 and kubeadm 1\.27 no longer reads it/);
  assert.deepEqual(findings(k8s(analyze('/w/k.yaml', doc('kubeadm.k8s.io/v1beta2', 'ClusterConfiguration'), '1.26..1.27'))), ['k8s/removed-api @ 1:13']);
});

test('kubeadm v1beta3: deprecated by v1beta4 in 1.31 (warning, move to v1beta4), refused by kubeadm 1.37 (error)', () => {
  const dep = k8s(analyze('/w/k.yaml', doc('kubeadm.k8s.io/v1beta3', 'InitConfiguration'), '1.31..1.33'));
  assert.deepEqual(findings(dep), ['k8s/deprecated-api @ 1:13']);
  assert.match(dep[0].message, /deprecated for kubeadm from 1\.31 and kubeadm 1\.37 no longer reads it .*move to kubeadm\.k8s\.io\/v1beta4, read by kubeadm at every step of the window/);
  const rem = k8s(analyze('/w/k.yaml', doc('kubeadm.k8s.io/v1beta3', 'InitConfiguration'), '1.36..1.37'));
  assert.deepEqual(findings(rem), ['k8s/removed-api @ 1:13']);
  assert.match(rem[0].message, /^kubeadm 1\.37 no longer reads kubeadm\.k8s\.io\/v1beta3 InitConfiguration/);
  // v1beta4 across 1.31..1.37: read at every step, nothing to say.
  assert.deepEqual(findings(k8s(analyze('/w/k.yaml', doc('kubeadm.k8s.io/v1beta4', 'InitConfiguration'), '1.31..1.37'))), []);
});

test('kube-scheduler: v1beta2 refused from 1.28, v1beta3 from 1.29, named as kube-scheduler', () => {
  const b2 = k8s(analyze('/w/s.yaml', doc('kubescheduler.config.k8s.io/v1beta2', 'KubeSchedulerConfiguration'), '1.27..1.28'));
  assert.deepEqual(findings(b2), ['k8s/removed-api @ 1:13']);
  assert.match(b2[0].message, /^kube-scheduler 1\.28 no longer reads kubescheduler\.config\.k8s\.io\/v1beta2 KubeSchedulerConfiguration.*use kubescheduler\.config\.k8s\.io\/v1/);
  const b3 = k8s(analyze('/w/s.yaml', doc('kubescheduler.config.k8s.io/v1beta3', 'KubeSchedulerConfiguration'), '1.28..1.29'));
  assert.deepEqual(findings(b3), ['k8s/removed-api @ 1:13']);
  assert.match(b3[0].message, /^kube-scheduler 1\.29 no longer reads kubescheduler\.config\.k8s\.io\/v1beta3/);
  assert.deepEqual(findings(k8s(analyze('/w/s.yaml', doc('kubescheduler.config.k8s.io/v1beta3', 'KubeSchedulerConfiguration'), '1.26..1.28'))).length, 1); // deprecated 1.26
});

test('kubelet CredentialProviderConfig v1 read only from 1.26: "kubelet reads … only from 1.26", use v1beta1', () => {
  const d = k8s(analyze('/w/c.yaml', doc('kubelet.config.k8s.io/v1', 'CredentialProviderConfig', 'providers: []\n'), '1.25..1.27'));
  assert.deepEqual(findings(d), ['k8s/api-not-yet-served @ 1:13']);
  assert.match(d[0].message, /^kubelet reads kubelet\.config\.k8s\.io\/v1 CredentialProviderConfig only from 1\.26, but the window starts at 1\.25: kubelet refuses this file until the upgrade reaches 1\.26; use kubelet\.config\.k8s\.io\/v1beta1/);
});

test('current component config files across a long window: no finding (KubeletConfiguration v1beta1 since 1.10, KubeProxyConfiguration v1alpha1 since 1.9, EncryptionConfiguration v1 since 1.13)', () => {
  const text = [
    doc('kubelet.config.k8s.io/v1beta1', 'KubeletConfiguration'),
    doc('kubeproxy.config.k8s.io/v1alpha1', 'KubeProxyConfiguration'),
    doc('apiserver.config.k8s.io/v1', 'EncryptionConfiguration', 'resources: []\n'),
    doc('audit.k8s.io/v1', 'Policy', 'rules: []\n'),
  ].join('---\n');
  assert.deepEqual(findings(k8s(analyze('/w/node.yaml', text, '1.16..1.37'))), []);
});

test('audit Policy (kube-apiserver --audit-policy-file): "kube-apiserver 1.24 no longer reads audit.k8s.io/v1beta1" (#108092)', () => {
  const d = k8s(analyze('/w/audit.yaml', doc('audit.k8s.io/v1beta1', 'Policy', 'rules: []\n'), '1.23..1.24'));
  assert.deepEqual(findings(d), ['k8s/removed-api @ 1:13']);
  assert.match(d[0].message, /^kube-apiserver 1\.24 no longer reads audit\.k8s\.io\/v1beta1 Policy.*use audit\.k8s\.io\/v1, read by kube-apiserver at every step of the window$/);
});

test('kube-scheduler v1beta3 over 1.23..1.29: no apiVersion read by every step (v1 from 1.25, v1beta3 until 1.28): the plan says "read by kube-scheduler"', () => {
  const d = k8s(analyze('/w/s.yaml', doc('kubescheduler.config.k8s.io/v1beta3', 'KubeSchedulerConfiguration'), '1.23..1.29'));
  assert.deepEqual(findings(d), ['k8s/no-common-api-version @ 1:13']);
  assert.match(d[0].message, /^no apiVersion of KubeSchedulerConfiguration is read by every kube-scheduler version in 1\.23\.\.1\.29 .*keep kubescheduler\.config\.k8s\.io\/v1beta3 up to 1\.28, switch to kubescheduler\.config\.k8s\.io\/v1 while the cluster is on 1\.25\.\.1\.28/);
});

test('kube-proxy mode: ipvs is deprecated from 1.35 (KEP-5495, #134539): a warning at the value once the window reaches 1.35; failCgroupV1 recorded, not a rule', () => {
  const text = doc('kubeproxy.config.k8s.io/v1alpha1', 'KubeProxyConfiguration', 'mode: ipvs\n');
  const d = k8s(analyze('/w/kp.yaml', text, '1.33..1.35'));
  assert.deepEqual(findings(d), ['k8s/component-setting-deprecated @ 3:7']);
  assert.match(d[0].message, /^kube-proxy deprecates mode: ipvs from 1\.35, which is in the window 1\.33\.\.1\.35 .*move to nftables/);
  assert.deepEqual(findings(k8s(analyze('/w/kp.yaml', text, '1.33..1.34'))), []);
  // In kubeadm's multi-document file too, at the kube-proxy document's own line.
  assert.deepEqual(findings(k8s(analyze('/w/kubeadm.yaml', `${doc('kubeadm.k8s.io/v1beta4', 'ClusterConfiguration')}---\n${text}`, '1.34..1.35'))), ['k8s/component-setting-deprecated @ 6:7']);
  const cg = data.componentConfig.settings.find((s) => s.kind === 'KubeletConfiguration' && s.path[0] === 'failCgroupV1');
  assert.equal(cg.minor, '1.35');
  assert.match(cg.note, /Not checked by a rule: .*host/);
});
