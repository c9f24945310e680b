// Issue #16 item 5: Gateway API and the CNI CRDs (Calico, Multus, SR-IOV network operator) in the lifecycle data, each
// checked at its component's own version (kubernetes.components.<name> / --component-versions), as cert-manager's
// rows are. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, findings } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const rowOf = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const manifest = (apiVersion, kind) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\n`;
const check = (text, cli = {}, loaded) => e.analyze({ path: '/w/m.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.28..1.30', ...cli }, config: loaded }) }).diagnostics;
const ECO = ['gateway-api', 'calico', 'multus', 'sriov-network-operator'];

test('item 5: every ecosystem row has its component, a CRD servedBy, sources naming the upstream file, and a default target', () => {
  for (const c of ECO) {
    const rows = data.apis.filter((r) => r.component === c);
    assert.ok(rows.length > 0, c);
    assert.match(data.componentTargets[c].version, /^\d+\.\d+$/, c);
    assert.ok(data.componentTargets[c].source, c);
    for (const r of rows) {
      const id = `${r.apiVersion} ${r.kind}`;
      assert.ok(r.sources.length && r.sources.every((s) => /\//.test(s)), `${id}: sources name a repository file`);
      assert.match(r.servedBy, /CRD|API server/, id);
      assert.match(r.note, /not Kubernetes minors/, id);
      // a value no source gave is null and the note says so
      if (r.introduced === null) assert.match(r.note, /not recorded in the sources read/, id);
      if (r.replacement) assert.ok(rowOf(r.replacement, r.kind), `${id}: replacement has a row`);
    }
  }
  // the Gateway API facts read upstream
  assert.deepEqual(['introduced', 'deprecated', 'removed', 'replacementAvailable'].map((f) => rowOf('gateway.networking.k8s.io/v1alpha2', 'HTTPRoute')[f]), ['0.4', '0.6', '0.8', '0.5']);
  assert.deepEqual(['introduced', 'deprecated', 'removed'].map((f) => rowOf('gateway.networking.k8s.io/v1alpha2', 'ReferenceGrant')[f]), ['0.5', '0.8', '1.2']);
  assert.deepEqual(['introduced', 'removed'].map((f) => rowOf('gateway.networking.k8s.io/v1alpha2', 'GRPCRoute')[f]), ['0.6', '1.2']);
  assert.equal(rowOf('gateway.networking.k8s.io/v1', 'Gateway').introduced, '1.0');
  assert.equal(rowOf('gateway.networking.k8s.io/v1', 'GRPCRoute').introduced, '1.1');
  assert.equal(rowOf('gateway.networking.k8s.io/v1alpha2', 'ReferencePolicy').removed, '0.6');
  assert.equal(rowOf('networking.x-k8s.io/v1alpha1', 'HTTPRoute').removed, '0.4');
  assert.ok(rowOf('gateway.networking.x-k8s.io/v1alpha1', 'XListenerSet'));
  assert.ok(rowOf('crd.projectcalico.org/v1', 'IPPool'));
  assert.ok(rowOf('projectcalico.org/v3', 'GlobalNetworkPolicy'));
  assert.ok(rowOf('k8s.cni.cncf.io/v1', 'NetworkAttachmentDefinition'));
  assert.ok(rowOf('sriovnetwork.openshift.io/v1', 'SriovNetworkNodePolicy'));
});

test('item 5: Gateway API rows are checked at the Gateway API version, never at the Kubernetes window', () => {
  const route = manifest('gateway.networking.k8s.io/v1alpha2', 'HTTPRoute');
  // default target (1.4): removed in 0.8
  const d = check(route);
  assert.deepEqual(findings(d), ['k8s/removed-api @ 1:13']);
  assert.match(d[0].message, /^gateway\.networking\.k8s\.io\/v1alpha2 HTTPRoute is removed in gateway-api 0\.8 \(checked at gateway-api 1\.4: newest Gateway API release/);
  assert.match(d[0].message, /use gateway\.networking\.k8s\.io\/v1, served at gateway-api 1\.4$/);
  assert.deepEqual([d[0].data.component, d[0].data.componentVersion], ['gateway-api', '1.4']);
  // deprecated at 0.6 (v1beta1 is there since 0.5), clean at 0.5, not served yet at 0.3
  const dep = check(route, { componentVersions: { 'gateway-api': '0.6' } });
  assert.deepEqual(findings(dep), ['k8s/deprecated-api @ 1:13']);
  assert.match(dep[0].message, /deprecated from gateway-api 0\.6 and removed in 0\.8 \(checked at gateway-api 0\.6: from --component-versions\); move to gateway\.networking\.k8s\.io\/v1beta1, served at gateway-api 0\.6/);
  assert.deepEqual(check(route, { componentVersions: { 'gateway-api': '0.5' } }), []);
  assert.deepEqual(findings(check(route, { componentVersions: { 'gateway-api': '0.3' } })), ['k8s/api-not-yet-served @ 1:13']);
  // the Kubernetes window does not matter
  assert.deepEqual(findings(check(route, { kubernetesWindow: '1.16..1.37' })), ['k8s/removed-api @ 1:13']);
  // GRPCRoute v1alpha2 gone in 1.2, v1 not served before 1.1
  assert.deepEqual(findings(check(manifest('gateway.networking.k8s.io/v1alpha2', 'GRPCRoute'), { componentVersions: { 'gateway-api': '1.2' } })), ['k8s/removed-api @ 1:13']);
  assert.deepEqual(findings(check(manifest('gateway.networking.k8s.io/v1', 'GRPCRoute'), { componentVersions: { 'gateway-api': '1.0' } })), ['k8s/api-not-yet-served @ 1:13']);
  assert.deepEqual(check(manifest('gateway.networking.k8s.io/v1', 'Gateway')), []);
});

test('item 5: .skewguard.yaml kubernetes.components takes the new components, with did-you-mean for a misspelt one', () => {
  const text = 'kubernetes:\n  components:\n    gateway-api: "0.6"\n    gatway-api: "1.0"\n';
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  assert.deepEqual(loaded.problems.map((p) => [text.slice(p.range.start, p.range.end), /did you mean "gateway-api"/.test(p.message)]), [['gatway-api', true]]);
  const d = check(manifest('gateway.networking.k8s.io/v1alpha2', 'Gateway'), {}, loaded);
  assert.deepEqual(findings(d), ['k8s/deprecated-api @ 1:13']);
  assert.match(d[0].message, /\(checked at gateway-api 0\.6: from \/w\/\.skewguard\.yaml kubernetes\.components\)/);
  // the flag wins
  assert.deepEqual(findings(check(manifest('gateway.networking.k8s.io/v1alpha2', 'Gateway'), { componentVersions: { 'gateway-api': '0.8' } }, loaded)), ['k8s/removed-api @ 1:13']);
});

test('item 5: Calico, Multus and SR-IOV CRs are known component APIs: clean at their default version, no k8s finding', () => {
  for (const [v, k] of [['crd.projectcalico.org/v1', 'IPPool'], ['projectcalico.org/v3', 'NetworkPolicy'], ['k8s.cni.cncf.io/v1', 'NetworkAttachmentDefinition'], ['sriovnetwork.openshift.io/v1', 'SriovNetwork']]) {
    assert.deepEqual(check(manifest(v, k)), [], `${v} ${k}`);
  }
});

test('item 5: lsp-lint --component-versions gateway-api=… and --print-config components', (t) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-eco-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'route.yaml'), manifest('gateway.networking.k8s.io/v1alpha2', 'HTTPRoute'));
  const env = { ...process.env };
  delete env.SKEWGUARD_SERVER;
  const lint = (args) => spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint'), '--kubernetes-window', '1.30', ...args], { cwd: dir, encoding: 'utf8', env, timeout: 60000 });
  assert.equal(lint(['--component-versions', 'gateway-api=0.5', 'route.yaml']).status, 0);
  const r = lint(['--component-versions', 'gateway-api=0.8', '--exit-codes', 'pluto', 'route.yaml']);
  assert.equal(r.status, 3, r.stdout + r.stderr);
  const cfg = JSON.parse(lint(['--print-config', 'route.yaml']).stdout);
  for (const c of ECO) assert.equal(cfg.components[c].version, data.componentTargets[c].version, c);
});
