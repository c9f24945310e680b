// StarlingX facts corrected by issue 17, one test per fact, each checked against starlingx/ansible-playbooks (the
// sources are in data/starlingx/releases.json keysReplaced and playbookImageVars). Uses the built dist/engine.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine as e } from './helpers/k8s.mjs';

const lint = (text, release) => e.analyze({ path: '/site/localhost.yml', text, config: e.resolveConfig({ cli: { starlingxRelease: release } }) }).diagnostics;
const brief = (ds) => ds.map((d) => `${d.ruleId} ${d.severity}`);

test('5.0: kubernetes_version is ignored (replaced by the kubeadm template\'s value), so a "v" prefix is no error there', () => {
  const ds = lint('system_mode: simplex\nkubernetes_version: v1.18.1\n', '5.0');
  assert.deepEqual(brief(ds), ['starlingx/key-not-read warning']);
  assert.match(ds[0].message, /"kubernetes_version" is ignored by StarlingX 5\.0: .*kubeadm template/);
  assert.deepEqual(ds[0].range.start, { line: 1, character: 0 });
  // 6.0 reads it: the "v" prefix is an error there
  assert.deepEqual(brief(lint('system_mode: simplex\nkubernetes_version: v1.21.3\n', '6.0')), ['starlingx/kubernetes-version-v-prefix error']);
});

test('7.0: kubernetes_version 1.18.1 makes bootstrap fail (no load-images-information/vars/k8s-v1.18.1): an error', () => {
  const ds = lint('system_mode: simplex\nkubernetes_version: 1.18.1\n', '7.0');
  const d = ds.find((x) => x.ruleId === 'starlingx/unshipped-kubernetes-version');
  assert.ok(d, JSON.stringify(brief(ds)));
  assert.equal(d.severity, 'error');
  assert.match(d.message, /no roles\/common\/load-images-information\/vars\/k8s-v1\.18\.1 directory, so bootstrap fails/);
  assert.deepEqual(d.data.imageVars, ['1.21.8', '1.22.5', '1.23.1']);
  // a version with its image vars is fine
  assert.equal(lint('system_mode: simplex\nkubernetes_version: 1.22.5\n', '7.0').filter((x) => x.severity === 'error').length, 0);
});

test('6.0–8.0: cluster_host_floating_address is read only on the platform-data migration path and then overwritten', () => {
  for (const r of ['6.0', '7.0', '8.0']) {
    const ds = lint('system_mode: simplex\ncluster_host_floating_address: 192.168.206.2\n', r);
    assert.deepEqual(brief(ds), ['starlingx/key-not-read warning'], r);
    assert.match(ds[0].message, /ignored by StarlingX .*migration path.*replaces it/, r);
  }
});
