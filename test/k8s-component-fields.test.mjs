// Issue #28 item 3: the fields of the component configuration files (kubeadm, kubelet, kube-proxy, kube-scheduler,
// kube-apiserver configuration files, audit Policy) are checked like manifests' at every step of the window, from
// data/kubernetes/fields/component-config.json (scripts/import-k8s-component-fields.mjs). Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { analyze, engine as e, configFor, repoRoot } from './helpers/k8s.mjs';

const byRule = (r, ...ids) => r.diagnostics.filter((d) => ids.includes(d.ruleId)).map((d) => `${d.ruleId} @ ${d.range.start.line + 1}:${d.range.start.character + 1}`).sort();
const FIELD_RULES = ['k8s/unknown-field', 'k8s/field-not-served', 'k8s/field-type', 'k8s/component-config-kind'];

const refDir = [path.join(repoRoot, '..', 'shared', 'reference', 'kubernetes'), '/work/shared/reference/kubernetes'].find((d) => fs.existsSync(path.join(d, 'component-config-fields.json')));

// Its freshness (the shipped table is what the script writes) is test/data-fresh's, for every table at once.
test('component-config.json against the shared reference: every kind and every path, with its first minor', () => {
  assert.ok(refDir, 'the shared reference (../shared/reference/kubernetes) is needed');
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, 'component-config-fields.json'), 'utf8'));
  const table = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'component-config.json'), 'utf8'));
  assert.equal(Object.keys(table.kinds).length, Object.keys(ref.kinds).length);
  let paths = 0;
  for (const [key, k] of Object.entries(ref.kinds)) {
    for (const [p, f] of Object.entries(k.fields)) {
      paths++;
      const segs = p.replace(/\[\]|\{\}/g, '').split('.');
      const sp = key.indexOf(' ');
      const info = e.k8sFields.fieldAt(key.slice(0, sp), key.slice(sp + 1), segs, f.introduced);
      assert.ok(info?.served, `${key} ${p} served at ${f.introduced}`);
      assert.equal(info.firstMinor, Number(f.introduced.split('.')[1]), `${key} ${p} first minor`);
      if (f.removed) assert.equal(e.k8sFields.fieldAt(key.slice(0, sp), key.slice(sp + 1), segs, f.removed)?.served, false, `${key} ${p} gone at ${f.removed}`);
    }
  }
  assert.equal(paths, table.counts.paths);
  assert.equal(paths, 2288);
});

const KUBEADM = [
  'apiVersion: kubeadm.k8s.io/v1beta4', 'kind: InitConfiguration', 'localAPIEndpoint:', '  advertiseAddress: 10.0.0.1', '---',
  'apiVersion: kubeadm.k8s.io/v1beta4', 'kind: ClusterConfiguration', 'kubernetesVersion: v1.32.2', 'networking:', '  podSubnett: 10.244.0.0/16', '  serviceSubnet: 10.96.0.0/12',
  'apiServer:', '  extraArgs:', '    authorization-mode: Node,RBAC', '    enable-admission-plugins: NodeRestriction', '---',
  'apiVersion: kubeadm.k8s.io/v1beta3', 'kind: KubeletConfiguration', 'cgroupDriver: systemd', '---',
  'apiVersion: kubelet.config.k8s.io/v1beta1', 'kind: KubeletConfiguration', 'cgroupDriver: systemd', '',
].join('\n');

test('kubeadm multi-document file: podSubnett (did you mean podSubnet), a v1beta3 extraArgs map in v1beta4, KubeletConfiguration under kubeadm.k8s.io', () => {
  const r = analyze('kubeadm.yaml', KUBEADM, '1.31..1.33');
  assert.deepEqual(byRule(r, ...FIELD_RULES), ['k8s/component-config-kind @ 17:13', 'k8s/field-type @ 13:3', 'k8s/unknown-field @ 10:3']);
  const typo = r.diagnostics.find((d) => d.ruleId === 'k8s/unknown-field');
  assert.match(typo.message, /^networking\.podSubnett is not a field of kubeadm\.k8s\.io\/v1beta4 ClusterConfiguration .*did you mean networking\.podSubnet\?$/);
  assert.equal(typo.fixes[0].edits[0].newText, 'podSubnet');
  const type = r.diagnostics.find((d) => d.ruleId === 'k8s/field-type');
  assert.match(type.message, /^apiServer\.extraArgs is a mapping, but kubeadm 1\.31\.\.1\.33 want a list of \{name, value\}/);
  // The keys of the mapping are not reported again as unknown fields of {name, value}.
  const kind = r.diagnostics.find((d) => d.ruleId === 'k8s/component-config-kind');
  assert.match(kind.message, /^KubeletConfiguration is not a kind of kubeadm\.k8s\.io\/v1beta3: .* as kubelet\.config\.k8s\.io\/v1beta1$/);
  assert.equal(kind.fixes[0].edits[0].newText, 'kubelet.config.k8s.io/v1beta1');
  // The same map is right in v1beta3.
  const v1beta3 = KUBEADM.replaceAll('kubeadm.k8s.io/v1beta4', 'kubeadm.k8s.io/v1beta3').replace('podSubnett', 'podSubnet');
  assert.deepEqual(byRule(analyze('kubeadm.yaml', v1beta3, '1.29..1.30'), 'k8s/unknown-field', 'k8s/field-not-served', 'k8s/field-type'), []);
});

test('kubelet failCgroupV1 at 1.30 (from 1.31), kube-proxy nftables mode and section before 1.29, an audit Policy rule typo', () => {
  const kubelet = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfailCgroupV1: false\n';
  const d = analyze('kubelet.yaml', kubelet, '1.30..1.31').diagnostics.filter((x) => x.ruleId === 'k8s/field-not-served');
  assert.equal(d.length, 1);
  assert.match(d[0].message, /^kubelet 1\.30 does not know failCgroupV1 .*; known from 1\.31$/);
  assert.equal(d[0].range.start.line, 2);
  assert.deepEqual(byRule(analyze('kubelet.yaml', kubelet, '1.31..1.37'), ...FIELD_RULES), []);

  const proxy = 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\nnftables:\n  masqueradeAll: true\n';
  assert.deepEqual(byRule(analyze('kube-proxy.yaml', proxy, '1.27..1.29'), 'k8s/field-not-served'), ['k8s/field-not-served @ 3:7', 'k8s/field-not-served @ 4:1']);
  const mode = analyze('kube-proxy.yaml', proxy, '1.27..1.29').diagnostics.find((x) => x.range.start.line === 2);
  assert.match(mode.message, /^kube-proxy 1\.27\.\.1\.28 do not know mode: nftables/);
  assert.deepEqual(byRule(analyze('kube-proxy.yaml', proxy, '1.29..1.33'), ...FIELD_RULES), []);
  assert.deepEqual(byRule(analyze('kube-proxy.yaml', proxy.replace('mode: nftables', 'mode: iptables').replace(/nftables:\n.*\n/, ''), '1.27..1.29'), ...FIELD_RULES), []);

  const audit = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: ["RequestReceived"]\nrules:\n- level: Metadata\n  resource:\n  - group: ""\n    resources: ["secrets"]\n';
  const a = analyze('audit.yaml', audit, '1.28..1.30').diagnostics.filter((x) => FIELD_RULES.includes(x.ruleId));
  assert.deepEqual(a.map((x) => `${x.ruleId} @ ${x.range.start.line + 1}:${x.range.start.character + 1}`), ['k8s/unknown-field @ 6:3']);
  assert.match(a[0].message, /did you mean rules\[0\]\.resources\?/);
});

test('component kinds are judged at every minor of their own table (1.16, 1.35 and 1.37 are not gaps there)', () => {
  // kubelet tlsCurvePreferences: from 1.36. At 1.35 it is known to be missing (a source of its own), not inferred.
  const kubelet = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ntlsCurvePreferences: [X25519]\n';
  const d = analyze('kubelet.yaml', kubelet, '1.35..1.36').diagnostics.filter((x) => x.ruleId === 'k8s/field-not-served');
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'error');
  assert.doesNotMatch(d[0].message, /judged from|no field source|not judged/);
  const info = e.k8sFields.fieldAt('kubelet.config.k8s.io/v1beta1', 'KubeletConfiguration', ['tlsCurvePreferences'], '1.35');
  assert.equal(info.served, false);
  assert.equal(info.inferred, false);
});

test('hover and completion on a component configuration file', () => {
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfailCgroupV1: false\n\n';
  const config = configFor('1.30..1.31');
  const result = e.analyze({ path: '/x/kubelet.yaml', text, config });
  const h = e.hover(result, text, { line: 2, character: 3 })?.markdown ?? '';
  assert.match(h, /\*\*failCgroupV1\*\* of kubelet\.config\.k8s\.io\/v1beta1 KubeletConfiguration — `boolean` — ✗ not served at 1\.30/);
  assert.match(h, /Read by kubelet --config/);
  assert.match(h, /kubernetes\/kubelet config\/v1beta1\/types\.go/);
  const items = e.complete(result, text, { line: 3, character: 0 });
  const labels = items.map((i) => i.label);
  for (const k of ['cgroupDriver', 'evictionHard', 'containerRuntimeEndpoint']) assert.ok(labels.includes(k), k);
  assert.ok(!labels.includes('failCgroupV1'), 'a key the mapping has is not offered');
});

test('k8s/fields-not-checked: a component configuration file at a step outside its table (1.38) is said, once per kind, not passed', () => {
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: cgroupfs\n';
  const ds = analyze('kubelet.yaml', text, '1.36..1.38').diagnostics.filter((d) => d.ruleId === 'k8s/fields-not-checked');
  assert.equal(ds.length, 1);
  assert.match(ds[0].message, /^fields of kubelet\.config\.k8s\.io\/v1beta1 KubeletConfiguration not checked at 1\.38: the component configuration table covers 1\.16\.\.1\.37/);
  assert.equal(ds[0].range.start.line, 0);
  assert.deepEqual(analyze('kubelet.yaml', text, '1.35..1.37').diagnostics.filter((d) => d.ruleId === 'k8s/fields-not-checked'), []);
});
