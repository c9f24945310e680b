// Issue #16 item 7: hover on a manifest field key (its type, the steps of the window that serve it, its lifecycle;
// a custom resource's from its workspace CRD) and completion of keys (the fields the table or the CRD schema knows for
// that path, those served at every step of the window first), through the language server.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { withLspClient, uriOf } from './helpers/lsp-client.mjs';

const INGRESS = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n  annotations:\n    kubernetes.io/ingress.class: nginx\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: a\n    \n';
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.acme.example
spec:
  group: acme.example
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, description: "How many widgets."}
              color: {type: string, enum: [red, blue]}
`;

const session = (files, window, fn) => withLspClient({ ...files, '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n` }, fn);
const hoverAt = (client, uri, line, character) => client.request('textDocument/hover', { textDocument: { uri }, position: { line, character } });
const completeAt = (client, uri, line, character) => client.request('textDocument/completion', { textDocument: { uri }, position: { line, character } });

test('LSP hover on a field key: the verdict first (type, steps not served), the window table and sources below', async () => {
  await session({ 'ingress.yaml': INGRESS }, '1.17..1.20', async (client, dir) => {
    const uri = uriOf(path.join(dir, 'ingress.yaml'));
    await client.open(uri, INGRESS);
    const h = await hoverAt(client, uri, 7, 4);
    const [first, ...rest] = h.contents.value.split('\n\n');
    assert.equal(first, '**spec.ingressClassName** of networking.k8s.io/v1beta1 Ingress — `string` — ✗ not served at 1.17 of the window 1.17..1.20.');
    assert.deepEqual(h.range, { start: { line: 7, character: 2 }, end: { line: 7, character: 18 } });
    const details = rest.join('\n\n');
    assert.match(details, /Served in 1\.18\.\.1\.21 .*added in 1\.18/);
    assert.match(details, /\| 1\.17 \| 1\.18 \| 1\.19 \| 1\.20 \|\n\|---\|---\|---\|---\|\n\| ✗ \| ✓ \| ✓ \| ✓ \|/);
    assert.match(details, /Sources: .*@kubernetes\/client-node@0\.12\.3 \(v1\.18\.0\)/);
    // A deprecated annotation: its replacement.
    const a = await hoverAt(client, uri, 5, 10);
    assert.match(a.contents.value, /\*\*Deprecated annotation\*\* \(1\.18\): replaced by the field `spec\.ingressClassName`/);
    // A field served at every step, and a typo no version knows.
    const host = await hoverAt(client, uri, 9, 5);
    assert.match(host.contents.value.split('\n\n')[0], /\*\*spec\.rules\[0\]\.host\*\* .* `string` — ✓ served at every step of the window 1\.17\.\.1\.20\.$/);
  });
  // A field a later minor removes: Service spec.topologyKeys (1.17..1.21 in the table).
  const removed = 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  topologyKeys: ["*"]\n  ports: [{port: 80}]\n';
  await session({ 'svc.yaml': removed }, '1.21..1.23', async (client, dir) => {
    const uri = uriOf(path.join(dir, 'svc.yaml'));
    await client.open(uri, removed);
    const h = await hoverAt(client, uri, 4, 4);
    assert.match(h.contents.value.split('\n\n')[0], /`array of string` — ✗ not served at 1\.22\.\.1\.23 of the window 1\.21\.\.1\.23\.$/);
    assert.match(h.contents.value, /Served in 1\.17\.\.1\.21 .*added in 1\.17, removed in 1\.22 \(last served 1\.21\)/);
  });
});

test('engine hover on an annotation key: "Deprecated annotation" exactly where k8s/deprecated-annotation reads it (an Ingress\'s own, a pod template\'s)', async () => {
  const { createRequire } = await import('node:module');
  const e = createRequire(import.meta.url)('../dist/engine.js');
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.17..1.20' } });
  const hoverOn = (text, line, character) => e.hover(e.analyze({ path: '/x/m.yaml', text, config }), text, { line, character })?.markdown ?? '';
  assert.match(hoverOn(INGRESS, 5, 10), /\*\*Deprecated annotation\*\* \(1\.18\)/);
  // The Ingress annotation on a Pod: the rule does not read it there, nor does the hover.
  const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    kubernetes.io/ingress.class: nginx\nspec:\n  containers:\n  - name: a\n    image: a\n';
  assert.deepEqual(e.analyze({ path: '/x/m.yaml', text: pod, config }).diagnostics.filter((d) => d.ruleId === 'k8s/deprecated-annotation'), []);
  assert.doesNotMatch(hoverOn(pod, 5, 10), /Deprecated annotation/);
  assert.match(hoverOn(pod, 5, 10), /metadata\.annotations\.kubernetes\.io\/ingress\.class/);
});

test('LSP completion of keys: the table\'s fields for the path, served at every step first, the others with the steps missing', async () => {
  await session({ 'ingress.yaml': INGRESS }, '1.17..1.20', async (client, dir) => {
    const uri = uriOf(path.join(dir, 'ingress.yaml'));
    // A new key in spec: ingressClassName is written already; backend, rules, tls served everywhere.
    const text = INGRESS.replace('  ingressClassName: nginx\n', '  ingressClassName: nginx\n  \n');
    await client.open(uri, text);
    const items = await completeAt(client, uri, 8, 2);
    const labels = items.map((i) => i.label);
    assert.ok(!labels.includes('ingressClassName') && !labels.includes('rules'), 'keys the mapping has (above and below) are not offered');
    assert.deepEqual(labels.filter((l) => ['backend', 'tls'].includes(l)).sort(), ['backend', 'tls']);
    assert.ok(items.every((i) => i.sortText.startsWith('0')), JSON.stringify(items.map((i) => [i.label, i.sortText])));
    assert.deepEqual(items.find((i) => i.label === 'tls').textEdit, { range: { start: { line: 8, character: 2 }, end: { line: 8, character: 2 } }, newText: 'tls: ' });
    assert.match(items.find((i) => i.label === 'tls').detail, /array of object \(.*IngressTLS\) · served at every step of 1\.17\.\.1\.20/);
  });
  // Deployment spec.template.spec at 1.21..1.23: os is served from 1.23 only — offered after the others, with the steps it misses.
  const dep = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      contain\n      hostname: h\n';
  await session({ 'dep.yaml': dep }, '1.21..1.23', async (client, dir) => {
    const uri = uriOf(path.join(dir, 'dep.yaml'));
    await client.open(uri, dep);
    const items = await completeAt(client, uri, 6, 13);
    const byLabel = Object.fromEntries(items.map((i) => [i.label, i]));
    assert.ok(byLabel.containers && byLabel.os, JSON.stringify(Object.keys(byLabel)));
    assert.ok(!byLabel.hostname, 'hostname is written below');
    assert.match(byLabel.containers.sortText, /^0/);
    assert.match(byLabel.os.sortText, /^1/);
    assert.match(byLabel.os.detail, /object \(V1PodOS\) · not served at 1\.21\.\.1\.22$/);
    assert.deepEqual(byLabel.containers.textEdit.range, { start: { line: 6, character: 6 }, end: { line: 6, character: 13 } });
    const sorted = [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
    assert.ok(sorted.findIndex((i) => i.label === 'os') > sorted.findIndex((i) => i.label === 'volumes'), 'fields served everywhere come first');
    // Inside a list item (containers[0]) the container's fields.
    const inList = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        imagePu\n';
    await client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: inList }] });
    const c = await completeAt(client, uri, 8, 15);
    assert.ok(c.some((i) => i.label === 'imagePullPolicy') && !c.some((i) => i.label === 'name'), JSON.stringify(c.map((i) => i.label)));
  });
});

test('LSP hover and completion on a custom resource: from its workspace CRD\'s schema', async () => {
  const cr = 'apiVersion: acme.example/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  size: 2\n  \n';
  await session({ 'crds/widget.yaml': CRD, 'w.yaml': cr }, '1.30', async (client, dir) => {
    const uri = uriOf(path.join(dir, 'w.yaml'));
    await client.open(uri, cr);
    const h = await hoverAt(client, uri, 4, 3);
    assert.match(h.contents.value.split('\n\n')[0], /^\*\*spec\.size\*\* of acme\.example\/v1 Widget — `integer` — ✓ in the schema of v1\.$/);
    assert.match(h.contents.value, /Defined by the CustomResourceDefinition widgets\.acme\.example \(crds\/widget\.yaml\); served versions with this field: v1beta1, v1/);
    assert.match(h.contents.value, /How many widgets\./);
    const av = await hoverAt(client, uri, 0, 15);
    assert.match(av.contents.value, /^\*\*acme\.example\/v1 Widget\*\* — ✓ served by the CustomResourceDefinition widgets\.acme\.example/);
    assert.match(av.contents.value, /\| v1beta1 \| ✓ \| {2}\| ⚠ \|/);
    const items = await completeAt(client, uri, 5, 2);
    assert.deepEqual(items.map((i) => [i.label, i.sortText[0]]), [['color', '1']]);
    assert.match(items[0].detail, /string · the CustomResourceDefinition widgets\.acme\.example \(crds\/widget\.yaml\), v1 \(not in every served version\)/);
  });
});

test('engine hover and completion inside a KubeSchedulerConfiguration\'s plugin args: the fields of the plugin\'s Args kind', async () => {
  const { createRequire } = await import('node:module');
  const e = createRequire(import.meta.url)('../dist/engine.js');
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.21..1.22' } });
  const text = 'apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: s\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n      \n';
  const analysis = e.analyze({ path: '/x/s.yaml', text, config });
  const h = e.hover(analysis, text, { line: 7, character: 8 })?.markdown ?? '';
  assert.equal(h.split('\n\n')[0], '**profiles[0].pluginConfig[0].args.scoringStrategy** of kubescheduler.config.k8s.io/v1beta1 NodeResourcesFitArgs — '
    + '`object (kubescheduler.config.k8s.io/v1beta1 NodeResourcesFitArgs.scoringStrategy)` — ✗ not served at 1.21 of the window 1.21..1.22.');
  // The configuration's own keys are still its own.
  assert.match(e.hover(analysis, text, { line: 5, character: 6 })?.markdown ?? '', /^\*\*profiles\[0\]\.pluginConfig\[0\]\.name\*\* of kubescheduler\.config\.k8s\.io\/v1beta1 KubeSchedulerConfiguration/);
  const items = e.complete(analysis, text, { line: 9, character: 6 }) ?? [];
  assert.deepEqual(items.map((i) => i.label).sort(), ['ignoredResourceGroups', 'ignoredResources'], JSON.stringify(items.map((i) => i.label)));
});
