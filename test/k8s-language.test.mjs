// Hover and completion on Kubernetes manifests: the lifecycle timeline with the window marked, and the
// apiVersions a kind can use, those served by every version of the window first.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const e = createRequire(import.meta.url)('../dist/engine.js');
const run = (text, window, file = '/x/m.yaml') => e.analyze({ path: file, text, config: e.resolveConfig({ cli: { kubernetesWindow: window } }) });

const ingress = '# web\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n';

test('hover on apiVersion: timeline, window states, common versions, sources', () => {
  const r = run(ingress, '1.18..1.22');
  const h = e.hover(r, ingress, { line: 1, character: 20 });
  assert.match(h.markdown, /introduced 1\.14 · deprecated 1\.19 · removed 1\.22 · replacement networking\.k8s\.io\/v1 \(available 1\.19\)/);
  assert.match(h.markdown, /\| 1\.18 \| 1\.19 \| 1\.20 \| 1\.21 \| 1\.22 \|/);
  assert.match(h.markdown, /\| ✓ served \| ⚠ deprecated \| ⚠ deprecated \| ⚠ deprecated \| ✗ removed \|/);
  assert.match(h.markdown, /No apiVersion of Ingress is served by every version of the window/);
  assert.match(h.markdown, /Sources: .*networking\/v1beta1\/zz_generated\.prerelease-lifecycle\.go/); // the generated code (issue #28; Pluto is a cross-check there)
  assert.deepEqual(h.range, { start: { line: 1, character: 12 }, end: { line: 1, character: 37 } });
  const h2 = e.hover(run(ingress, '1.18..1.21'), ingress, { line: 2, character: 7 });
  assert.match(h2.markdown, /Served by every version of the window: .*`networking\.k8s\.io\/v1beta1`/);
  assert.equal(e.hover(r, ingress, { line: 4, character: 9 }), undefined, 'no hover on a plain value (a key has the field hover: test/k8s-field-language.test.mjs)');
});

test('hover on an API that is not in the data says it is not checked', () => {
  const crd = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: p}\n';
  assert.match(e.hover(run(crd, '1.21'), crd, { line: 0, character: 14 }).markdown, /Not in the lifecycle data/);
});

test('completion of apiVersion: served across the window first, preselected', () => {
  const text = 'kind: Ingress\napiVersion: \nmetadata: {name: x}\n';
  const items = e.complete(run(text, '1.19..1.21'), text, { line: 1, character: 12 });
  assert.equal(items[0].label, 'networking.k8s.io/v1');
  assert.equal(items[0].preselect, true);
  assert.match(items[0].detail, /served by every version of 1\.19\.\.1\.21/);
  assert.ok(items.some((i) => i.label === 'networking.k8s.io/v1beta1'));
  const narrow = e.complete(run(text, '1.18..1.22'), text, { line: 1, character: 12 });
  assert.ok(narrow.every((i) => /part of/.test(i.detail)), 'nothing is served by the whole 1.18..1.22 window');
  assert.deepEqual(e.complete(run(text, '1.21'), text, { line: 2, character: 3 }), [], 'only on the apiVersion value');
});
