// Issue #16 item 6, fields: a field the Kubernetes OpenAPI document of a step describes as alpha behind a feature gate
// (data/kubernetes/fields/feature-gates.json, scripts/import-k8s-feature-gates.mjs) is served there only when the gate is
// enabled: a warning at the key, naming steps and gates and quoting the document; neither "served" nor "not served".
// Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, analyze, findings } from './helpers/k8s.mjs';

const gates = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'feature-gates.json'), 'utf8'));
const fields = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json'), 'utf8'));
const gated = (text, window) => analyze('/w/m.yaml', text, window).diagnostics.filter((d) => d.ruleId === 'k8s/field-feature-gated');
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n  resourceClaims:\n    - name: gpu\n      resourceClaimName: gpu-claim\n  containers:\n    - name: app\n      image: app:1\n';

test('data: every gated field is a field of the table at the minors named, with its gate and the sentence of its description', () => {
  assert.ok(Object.keys(gates.fields).length >= 50);
  for (const [key, rows] of Object.entries(gates.fields)) {
    const [model, field] = key.split('.');
    assert.ok(fields.models[model], key);
    assert.ok(field in fields.models[model].fields, key);
    for (const r of rows) {
      assert.ok(r.gates.length && r.gates.every((g) => /^[A-Z][A-Za-z0-9]+$/.test(g)), key);
      assert.match(r.text, /alpha/i, key);
      for (const m of r.minors) assert.match(gates.read[String(m)], /^@kubernetes\/client-node@/, `${key} ${m}`);
    }
  }
  assert.deepEqual(gates.fields['V1PodSpec.resourceClaims'][0].gates, ['DynamicResourceAllocation']);
  // every minor of the table is either read or said not read
  for (let m = fields.first; m <= fields.last; m++) assert.ok(gates.read[String(m)] || gates.notRead[String(m)], String(m));
});

test('Pod spec.resourceClaims over 1.29..1.30: a warning at the key "served only when feature gate DynamicResourceAllocation is enabled"', () => {
  const d = gated(POD, '1.29..1.30');
  assert.deepEqual(findings(d), ['k8s/field-feature-gated @ 6:3']);
  assert.equal(d[0].severity, 'warning');
  assert.equal(d[0].message, 'spec.resourceClaims is served at 1.29..1.30 only when feature gate DynamicResourceAllocation is enabled (alpha gates are off by default; '
    + 'the 1.29 OpenAPI document: "This is an alpha field and requires enabling the DynamicResourceAllocation feature gate.")');
  assert.deepEqual(d[0].data, { path: 'spec.resourceClaims', gates: ['DynamicResourceAllocation'], servedOnlyWhenEnabledAt: ['1.29', '1.30'] });
  // a step whose source was not read for gates, between two read minors that gate the field: inferred, and said so
  const across = gated(POD, '1.30..1.32')[0];
  assert.match(across.message, /served at 1\.30\.\.1\.32 only when .*; at 1\.31 inferred: no field descriptions were read for that minor, and the minors read on both sides \(1\.30, 1\.32\) gate it$/);
  assert.deepEqual(across.data.inferredAt, ['1.31']);
  // the unread step alone: the same inference, not a silent pass
  assert.deepEqual(gated(POD, '1.31').map((d) => [d.severity, d.data.servedOnlyWhenEnabledAt]), [['warning', ['1.31']]]);
  // two gates in one sentence
  const claim = 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\nspec:\n  devices:\n    requests:\n      - name: r\n        exactly:\n          deviceClassName: gpu\n          adminAccess: true\n';
  assert.match(gated(claim, '1.34')[0].message, /^spec\.devices\.requests\[0\]\.exactly\.adminAccess is served at 1\.34 only when feature gate DRAAdminAccess is enabled/);
});

test('nothing said where no step describes the field as gated, and the walk stops at free-form maps', () => {
  const sts = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n  labels: {resourceClaims: x}\nspec:\n  serviceName: db\n  minReadySeconds: 10\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n    spec:\n      containers: [{name: db, image: db:1}]\n';
  assert.deepEqual(gated(sts, '1.25..1.28'), []);
  assert.deepEqual(findings(gated(sts, '1.22')), ['k8s/field-feature-gated @ 8:3']);
  assert.deepEqual(gated('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  resourceClaims: x\n', '1.29'), []);
});
