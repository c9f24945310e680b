// Issue #28 item 2: fields at 1.16, 1.35 and 1.37 are read from their own documents (shared/reference/kubernetes/openapi:
// the upstream swagger.json of 1.16 and 1.35, client-go's v0.37.0-beta.0 structured-merge-diff schema for 1.37), not
// guessed from the neighbours. Through the engine (dist/engine.js): run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine as e, analyze, findings } from './helpers/k8s.mjs';

const f = e.k8sFields;
const pod = (field) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  ${field}\n  containers:\n  - name: c\n    image: nginx\n`;
const fieldRules = (text, w) => analyze('/w/p.yaml', text, w).diagnostics.filter((d) => /^k8s\/(unknown-field|field-not-served|fields-not-checked)$/.test(d.ruleId));

test('spec.workloadRef of a v1 Pod: a field at 1.35 only (1.36 replaced it with spec.schedulingGroup)', () => {
  assert.deepEqual(f.fieldAt('v1', 'Pod', ['spec', 'workloadRef'], 35).ranges, [[35, 35]]);
  assert.deepEqual(fieldRules(pod('workloadRef: {name: w, podGroup: g}'), '1.35'), []);
  const d = fieldRules(pod('workloadRef: {name: w, podGroup: g}'), '1.35..1.36');
  assert.deepEqual(findings(d), ['k8s/field-not-served @ 6:3']);
  assert.equal(d[0].message, '1.36 does not serve spec.workloadRef (dropped, or refused where field validation is strict); served in 1.35');
  // and its successor, read at 1.36 (client-node 2.0.1) and 1.37 (the pre-release schema)
  assert.deepEqual(fieldRules(pod('schedulingGroup: {podGroupName: x}'), '1.36..1.37'), []);
  assert.deepEqual(findings(fieldRules(pod('schedulingGroup: {podGroupName: x}'), '1.35..1.36')), ['k8s/field-not-served @ 6:3']);
});

test('1.16 from the 1.16 swagger: apiextensions.k8s.io/v1 and admissionregistration.k8s.io/v1 are new there, read not inferred', () => {
  const crd = f.fieldAt('apiextensions.k8s.io/v1', 'CustomResourceDefinition', ['spec', 'versions', 'schema', 'openAPIV3Schema'], 16);
  assert.deepEqual([crd.served, crd.inferred, crd.firstMinor], [true, false, 16]);
  // a field the 1.16 document has that its neighbours' sources type otherwise would show here; the 1.16 answer is its own
  assert.equal(f.fieldAt('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', ['webhooks', 'sideEffects'], 16).served, true);
  assert.equal(f.fieldAt('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', ['webhooks', 'sideEffects'], 15).kindServed, false);
  assert.match(f.sourceOf(16), /swagger-1\.16\.json\.gz, sha256 83a26ef6141a/);
});

test('1.37 from a pre-release source: said in the data; kinds the schema lacks are not checked there, and said so', () => {
  const t = f.fieldTable();
  assert.match(t.sources['37'].preRelease, /^pre-release source/);
  assert.ok(t.sources['37'].servedNotInSchema.includes('apiextensions.k8s.io/v1 CustomResourceDefinition'));
  // new in 1.37 (v0.37.0-beta.0): certificates.k8s.io/v1 ClusterTrustBundle, NodeSpec.podPreemptionPolicy
  assert.equal(f.fieldAt('certificates.k8s.io/v1', 'ClusterTrustBundle', ['spec', 'trustBundle'], 37).served, true);
  assert.equal(f.fieldAt('certificates.k8s.io/v1', 'ClusterTrustBundle', ['spec', 'trustBundle'], 36).kindServed, false);
  assert.deepEqual(f.fieldAt('v1', 'Node', ['spec', 'podPreemptionPolicy'], 37).ranges, [[37, 37]]);
  // the schema says "numeric": integer where the other minors say integer
  assert.equal(f.fieldAt('apps/v1', 'Deployment', ['spec', 'replicas'], 37).type, 'integer');
  const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b.c\nspec:\n  group: b.c\n  scope: Namespaced\n  names: {plural: a, kind: A}\n  versions: []\n';
  const d = analyze('/w/crd.yaml', crd, '1.36..1.37').diagnostics.filter((x) => x.ruleId.startsWith('k8s/'));
  assert.deepEqual(findings(d), ['k8s/fields-not-checked @ 1:13']);
  assert.equal(d[0].message, 'fields of apiextensions.k8s.io/v1 CustomResourceDefinition not checked at 1.37: kube-apiserver serves it there, but the field table has no apiextensions.k8s.io/v1 CustomResourceDefinition at that minor (its sources: shared/reference/kubernetes/openapi/smd-schema-1.37.0-beta.0.yaml.gz, which has no type for it)');
});
