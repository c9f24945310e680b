// Cross-file behaviour of the skew rules through the language server (`node dist/server.js --stdio`), as an
// editor sees it: a saved change in one file of the workspace changes the diagnostics of another open file —
// localhost.yml's kubernetes_version moves the window of the manifests and the kubeadm file, a static pod's
// image tag changes the findings of the other static pods in its folder — and the hover on an image. Other files read
// the disk (issue #27 item 1: as lsp-lint does): an edit applies to them once saved (the watcher's change), not before.
// Temporary workspaces only. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const range = (l1, c1, l2, c2) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const codes = (p) => p.diagnostics.map((d) => d.code);
const at = (d) => `${d.code} @ ${d.range.start.line + 1}:${d.range.start.character + 1}`;

async function start(t, files) {
  const root = makeWorkspace(files);
  // debounceMs 0: re-checks of the other open files run at once, so the tests wait only for the server.
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } } });
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

/** Replaces the whole text of an open document (a full-content didChange). */
const replaceAll = (client, uri, version, text) => client.change(uri, version, [{ text }]);

/**
 * Edits an open document and saves it: the buffer, then the disk and the watcher's change (what VS Code sends on save).
 * Resolves with the document's own diagnostics for the edit.
 */
async function save(client, root, uri, rel, version, text) {
  const own = await replaceAll(client, uri, version, text);
  fs.writeFileSync(path.join(root, rel), text);
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
  return own;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The next diagnostics published for `uri` after `since` (a re-check triggered by another file). */
const republished = (client, uri, since, pred = () => true) => client.waitFor(uri, pred, { since, timeout: 10000 });

const STX6 = 'starlingx: { release: "6.0" }\n';
const LOCALHOST = (v) => `system_mode: simplex\nkubernetes_version: ${v}\n`;
const INGRESS_V1BETA1 = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const KUBEADM = (v) => `apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\nkubernetesVersion: ${v}\nnetworking:\n  podSubnet: 172.16.0.0/16\n`;
const POD = (c, tag) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${c}\n  namespace: kube-system\nspec:\n  containers:\n    - name: ${c}\n      image: registry.k8s.io/${c}:${tag}\n`;
const CALICO_NODE = (tag) => 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: calico-node\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: calico-node\n'
  + `  template:\n    metadata:\n      labels:\n        k8s-app: calico-node\n    spec:\n      containers:\n        - name: calico-node\n          image: quay.io/calico/node:${tag}\n`;

test('(a) saving localhost.yml kubernetes_version re-checks an open Ingress manifest with the new window', async (t) => {
  const { client, uri, root } = await start(t, { '.skewguard.yaml': STX6, 'localhost.yml': LOCALHOST('1.18.1'), 'manifests/ingress.yaml': INGRESS_V1BETA1 });
  const lh = uri('localhost.yml');
  const ing = uri('manifests/ingress.yaml');
  await client.open(lh, LOCALHOST('1.18.1'));
  const p1 = await client.open(ing, INGRESS_V1BETA1);
  // 6.0 from 1.18.1: the window is the upgrade path 1.18..1.21; networking.k8s.io/v1 is not served by 1.18.
  assert.deepEqual(p1.diagnostics.map(at), ['k8s/deprecated-api @ 1:13']);
  assert.equal(p1.diagnostics[0].severity, 2);
  assert.match(p1.diagnostics[0].message, /\(window 1\.18\.\.1\.21\); networking\.k8s\.io\/v1 is served only from 1\.19 in this window/);
  const actions1 = await client.request('textDocument/codeAction', { textDocument: { uri: ing }, range: range(0, 0, 0, 0), context: { diagnostics: p1.diagnostics } });
  assert.deepEqual(actions1.filter((a) => a.kind === 'quickfix' && !/^(Disable |Fix all skewguard)/.test(a.title)), [], 'no fix while 1.18 is in the window');

  const since = client.count(ing);
  await save(client, root, lh, 'localhost.yml', 2, LOCALHOST('1.21.3'));
  const p2 = await republished(client, ing, since, (p) => /window 1\.21\)/.test(p.diagnostics[0]?.message ?? ''));
  assert.deepEqual(p2.diagnostics.map(at), ['k8s/deprecated-api @ 1:13']);
  assert.match(p2.diagnostics[0].message, /deprecated from Kubernetes 1\.19 and removed in 1\.22 \(window 1\.21\); move to networking\.k8s\.io\/v1, served across the whole window/);
  const actions2 = await client.request('textDocument/codeAction', { textDocument: { uri: ing }, range: range(0, 0, 0, 0), context: { diagnostics: p2.diagnostics } });
  assert.deepEqual(actions2.filter((a) => a.kind === 'quickfix' && !/^(Disable |Fix all skewguard)/.test(a.title)).map((a) => a.title), ['Convert to networking.k8s.io/v1 (spec rewritten)']);

  // And back: the fix disappears again.
  const since3 = client.count(ing);
  await save(client, root, lh, 'localhost.yml', 3, LOCALHOST('1.18.1'));
  const p3 = await republished(client, ing, since3, (p) => /window 1\.18\.\.1\.21/.test(p.diagnostics[0]?.message ?? ''));
  assert.deepEqual(p3.diagnostics.map(at), ['k8s/deprecated-api @ 1:13']);
});

test('(b) saving kube-apiserver.yaml\'s image tag changes the diagnostics of the open kube-scheduler.yaml in the same folder', async (t) => {
  const files = {
    '.skewguard.yaml': 'kubernetes: { window: "1.28" }\n',
    'manifests/kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
    'manifests/kube-scheduler.yaml': POD('kube-scheduler', 'v1.28.4'),
    'other/kube-scheduler.yaml': POD('kube-scheduler', 'v1.28.4'),
  };
  const { client, uri, root } = await start(t, files);
  const api = uri('manifests/kube-apiserver.yaml');
  const sch = uri('manifests/kube-scheduler.yaml');
  const otherSch = uri('other/kube-scheduler.yaml');
  assert.deepEqual((await client.open(api, files['manifests/kube-apiserver.yaml'])).diagnostics, []);
  assert.deepEqual((await client.open(sch, files['manifests/kube-scheduler.yaml'])).diagnostics, []);
  assert.deepEqual((await client.open(otherSch, files['other/kube-scheduler.yaml'])).diagnostics, []);

  // The apiserver moves to 1.30 (saved): the scheduler is now two minors older.
  let since = client.count(sch);
  const otherSince = client.count(otherSch);
  const API = 'manifests/kube-apiserver.yaml';
  await save(client, root, api, API, 2, POD('kube-apiserver', 'v1.30.0'));
  let p = await republished(client, sch, since, (x) => x.diagnostics.length > 0);
  assert.deepEqual(p.diagnostics.map(at), ['k8s/control-plane-skew @ 9:14']);
  assert.equal(p.diagnostics[0].severity, 1);
  assert.equal(p.diagnostics[0].message, 'kube-scheduler v1.28.4 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.30); at most 1 allowed');
  assert.deepEqual(p.diagnostics[0].range, range(8, 13, 8, 51));

  // Newer than the apiserver is an error too.
  since = client.count(sch);
  await save(client, root, api, API, 3, POD('kube-apiserver', 'v1.27.5'));
  p = await republished(client, sch, since, (x) => /newer/.test(x.diagnostics[0]?.message ?? ''));
  assert.equal(p.diagnostics[0].message, 'kube-scheduler v1.28.4 is outside the version-skew policy: it is newer than the kube-apiserver in kube-apiserver.yaml (1.27); it must never be newer');

  // One minor ahead of the scheduler is allowed: the finding goes away.
  since = client.count(sch);
  await save(client, root, api, API, 4, POD('kube-apiserver', 'v1.29.1'));
  p = await republished(client, sch, since, (x) => x.diagnostics.length === 0);
  assert.deepEqual(p.diagnostics, []);
  // A kube-scheduler in another folder is not part of this control plane: nothing was re-published for it.
  assert.equal(client.count(otherSch), otherSince);
});

// Issue #27 item 1: an unsaved edit was a fact for the folder's other files in the editor and not in lsp-lint. The
// folder's static pods are read from the disk now: the edit applies once saved.
test('(b) a static pod opened after its folder\'s apiserver was edited sees the saved text, not the unsaved edit; saved, the edit applies', async (t) => {
  const files = {
    '.skewguard.yaml': 'kubernetes: { window: "1.28" }\n',
    'manifests/kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
    'manifests/kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.28.4'),
  };
  const { client, uri, root } = await start(t, files);
  const api = uri('manifests/kube-apiserver.yaml');
  const kcm = uri('manifests/kube-controller-manager.yaml');
  await client.open(api, files['manifests/kube-apiserver.yaml']);
  // Only the apiserver is open in its folder when it changes.
  await replaceAll(client, api, 2, POD('kube-apiserver', 'v1.30.0'));
  const p = await client.open(kcm, files['manifests/kube-controller-manager.yaml']);
  assert.deepEqual(p.diagnostics, [], 'the apiserver on disk is 1.28, as lsp-lint reads it');
  const since = client.count(kcm);
  fs.writeFileSync(path.join(root, 'manifests/kube-apiserver.yaml'), POD('kube-apiserver', 'v1.30.0'));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: api, type: 2 }] });
  const saved = await republished(client, kcm, since, (x) => x.diagnostics.length > 0);
  assert.deepEqual(saved.diagnostics.map((d) => d.message), [
    'kube-controller-manager v1.28.4 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.30); at most 1 allowed',
  ]);
});

// Issue #27 item 1: the unsaved edit used to count for the folder until the buffer was closed; now it never does.
test('(b) an apiserver edited and closed without saving changes nothing for its folder: the file on disk counts', async (t) => {
  const files = {
    '.skewguard.yaml': 'kubernetes: { window: "1.28" }\n',
    'manifests/kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
    'manifests/kube-scheduler.yaml': POD('kube-scheduler', 'v1.28.4'),
  };
  const { client, uri } = await start(t, files);
  const api = uri('manifests/kube-apiserver.yaml');
  const sch = uri('manifests/kube-scheduler.yaml');
  await client.open(api, files['manifests/kube-apiserver.yaml']);
  await client.open(sch, files['manifests/kube-scheduler.yaml']);
  const since = client.count(sch);
  await replaceAll(client, api, 2, POD('kube-apiserver', 'v1.30.0'));
  await sleep(300);
  await client.notify('textDocument/didClose', { textDocument: { uri: api } });
  await sleep(300);
  for (const p of client.published.get(sch).slice(since)) assert.deepEqual(p.diagnostics, [], 'the apiserver on disk is still 1.28');
  // The scheduler's own re-check (an edit of it) still reads the disk's apiserver.
  const p = await replaceAll(client, sch, 2, `${files['manifests/kube-scheduler.yaml']}# edited\n`);
  assert.deepEqual(p.diagnostics, []);
  // Opened with unsaved changes (as VS Code restores a buffer after a restart) before anything read the folder: the same.
  const { client: c2, uri: u2 } = await start(t, files);
  await c2.open(u2('manifests/kube-apiserver.yaml'), POD('kube-apiserver', 'v1.30.0'));
  assert.deepEqual((await c2.open(u2('manifests/kube-scheduler.yaml'), files['manifests/kube-scheduler.yaml'])).diagnostics, [], 'the apiserver on disk is 1.28');
});

test('(b) HA apiservers two minors apart: each reports the other, and the fix of one clears both', async (t) => {
  const files = {
    '.skewguard.yaml': 'kubernetes: { window: "1.28" }\n',
    'manifests/kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
    'manifests/kube-apiserver-b.yaml': POD('kube-apiserver', 'v1.26.1'),
  };
  const { client, uri, root } = await start(t, files);
  const a = uri('manifests/kube-apiserver.yaml');
  const b = uri('manifests/kube-apiserver-b.yaml');
  const pa = await client.open(a, files['manifests/kube-apiserver.yaml']);
  const pb = await client.open(b, files['manifests/kube-apiserver-b.yaml']);
  assert.deepEqual(pa.diagnostics.map((d) => d.message), ['kube-apiserver v1.28.4 is outside the version-skew policy: the kube-apiserver in kube-apiserver-b.yaml runs 1.26: HA apiservers must be within one minor of each other']);
  assert.deepEqual(pb.diagnostics.map((d) => d.message), ['kube-apiserver v1.26.1 is outside the version-skew policy: the kube-apiserver in kube-apiserver.yaml runs 1.28: HA apiservers must be within one minor of each other']);
  const since = client.count(a);
  const pb2 = await save(client, root, b, 'manifests/kube-apiserver-b.yaml', 2, POD('kube-apiserver', 'v1.27.5'));
  assert.deepEqual(pb2.diagnostics, []);
  const pa2 = await republished(client, a, since, (x) => x.diagnostics.length === 0);
  assert.deepEqual(pa2.diagnostics, []);
});

test('(c) the kubeadm ClusterConfiguration finding follows localhost.yml\'s saved kubernetes_version', async (t) => {
  const files = { '.skewguard.yaml': STX6, 'localhost.yml': LOCALHOST('1.18.1'), 'bootstrap/kubeadm.yaml': KUBEADM('v1.18.1') };
  const { client, uri, root } = await start(t, files);
  const lh = uri('localhost.yml');
  const ka = uri('bootstrap/kubeadm.yaml');
  await client.open(lh, files['localhost.yml']);
  assert.deepEqual((await client.open(ka, files['bootstrap/kubeadm.yaml'])).diagnostics, []);

  let since = client.count(ka);
  await save(client, root, lh, 'localhost.yml', 2, LOCALHOST('1.21.3'));
  let p = await republished(client, ka, since, (x) => x.diagnostics.length > 0);
  assert.deepEqual(p.diagnostics.map(at), ['k8s/kubeadm-version-mismatch @ 3:20']);
  assert.equal(p.diagnostics[0].severity, 2);
  assert.equal(p.diagnostics[0].message, 'kubernetesVersion v1.18.1 differs from kubernetes_version 1.21.3 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other');
  assert.deepEqual(p.diagnostics[0].range, range(2, 19, 2, 26));
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: ka }, range: range(2, 19, 2, 26), context: { diagnostics: p.diagnostics, only: ['quickfix'] } });
  assert.deepEqual(actions.filter((x) => !/^(Disable |Fix all skewguard)/.test(x.title)).map((x) => [x.title, x.edit.changes[ka]]), [['Use v1.21.3 (from localhost.yml)', [{ range: range(2, 19, 2, 26), newText: 'v1.21.3' }]]]);

  since = client.count(ka);
  await save(client, root, lh, 'localhost.yml', 3, LOCALHOST('1.20.9'));
  p = await republished(client, ka, since, (x) => /1\.20\.9/.test(x.diagnostics[0]?.message ?? ''));
  assert.equal(p.diagnostics[0].message, 'kubernetesVersion v1.18.1 differs from kubernetes_version 1.20.9 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other');

  since = client.count(ka);
  await save(client, root, lh, 'localhost.yml', 4, LOCALHOST('1.18.1'));
  p = await republished(client, ka, since, (x) => x.diagnostics.length === 0);
  assert.deepEqual(p.diagnostics, []);
});

test('hover on a Calico image: upstream\'s validated range, the window\'s steps marked, StarlingX pairing, the source', async (t) => {
  const files = { '.skewguard.yaml': STX6, 'localhost.yml': LOCALHOST('1.18.1'), 'manifests/calico-node.yaml': CALICO_NODE('v3.19.1') };
  const { client, uri } = await start(t, files);
  const u = uri('manifests/calico-node.yaml');
  const p = await client.open(u, files['manifests/calico-node.yaml']);
  assert.deepEqual(p.diagnostics.map(at), ['k8s/component-not-validated @ 17:18']);
  const line = files['manifests/calico-node.yaml'].split('\n')[16];
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 16, character: line.indexOf('calico/node') + 3 } });
  assert.deepEqual(h.range, range(16, 17, 16, 44));
  assert.equal(h.contents.kind, 'markdown');
  assert.equal(h.contents.value, [
    '**Calico** `v3.19.1`',
    '',
    'Upstream (tested): validated for 1.19, 1.20, 1.21; may work (not tested) on 1.16, 1.17, 1.18.',
    '',
    'Window 1.18..1.21 (workspace: localhost.yml: StarlingX 6.0 upgrade path from 1.18.1):',
    '',
    '| 1.18 | 1.19 | 1.20 | 1.21 |',
    '|---|---|---|---|',
    '| ⚠ may work (not tested) | ✓ validated | ✓ validated | ✓ validated |',
    '',
    'StarlingX ships it on Kubernetes 1.19, 1.20, 1.21.',
    '',
    'Note: The requirements page also says: will not work on Kubernetes v1.15 or below; v1.16–v1.18 may work but are no longer tested.',
    '',
    'Sources: projectcalico/calico getting-started/kubernetes/requirements.md @ v3.19.0',
  ].join('\n'));

  // After the edit to 3.12.0 the same position shows 3.12's range: nothing of the window validated.
  await replaceAll(client, u, 2, CALICO_NODE('v3.12.0'));
  const h2 = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 16, character: 30 } });
  assert.match(h2.contents.value, /^\*\*Calico\*\* `v3\.12\.0`\n\nUpstream \(tested\): validated for 1\.14, 1\.15, 1\.16, 1\.17\.\n/);
  assert.match(h2.contents.value, /\n\| ⚠ not listed \| ⚠ not listed \| ⚠ not listed \| ⚠ not listed \|\n/);
  assert.match(h2.contents.value, /\nStarlingX ships it on Kubernetes 1\.18\.\n/);
  assert.match(h2.contents.value, /\nSources: projectcalico\/calico getting-started\/kubernetes\/requirements\.md @ v3\.12\.0$/);
  // Off the image (the container name): no image hover.
  const h3 = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 15, character: 20 } });
  assert.equal(h3, null);
});
