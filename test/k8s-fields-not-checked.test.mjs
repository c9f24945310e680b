// Issue #16 "silent steps": the field rules cannot check steps outside the field table (1.15..1.37) and a built-in
// kind the table lacks at a step. k8s/fields-not-checked says so at a position, once per file (once per apiVersion/kind
// for a missing kind), never per field. Since issue #28 every minor of the table has a source (1.16, 1.35 and 1.37
// were gaps), so the rule says nothing about a window inside 1.15..1.37 but for kinds a minor's source lacks.
// Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine as e, analyze, findings } from './helpers/k8s.mjs';

const notes = (text, window, file = '/w/deploy.yaml') => analyze(file, text, window).diagnostics.filter((d) => d.ruleId === 'k8s/fields-not-checked');
const deploy = (name) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`;
const three = [deploy('a'), deploy('b'), deploy('c')].join('---\n');
const table = e.k8sFields.fieldTable();

test('steps outside the field table: one info per file, at the first built-in object\'s apiVersion, naming the steps', () => {
  const d = notes(three, '1.12..1.15');
  assert.deepEqual(findings(d), ['k8s/fields-not-checked @ 1:13']);
  assert.equal(d[0].severity, 'info');
  assert.equal(d[0].message, `fields not checked at 1.12..1.14: the field table covers 1.${table.first}..1.${table.last} (data/kubernetes/fields/fields.json)`);
  assert.deepEqual(d[0].data, { reason: 'outside-table', minors: ['1.12', '1.13', '1.14'] });
  const past = notes(three, '1.36..1.39');
  assert.deepEqual(past.map((x) => x.data.reason), ['outside-table']);
  assert.match(past[0].message, /^fields not checked at 1\.38\.\.1\.39:/);
});

test('issue #28: 1.16, 1.35 and 1.37 have a field source: nothing said inside the table, no gap left', () => {
  assert.deepEqual(Object.keys(table.gaps), []);
  for (const w of ['1.15..1.17', '1.34..1.36', '1.36..1.37', '1.15..1.37']) assert.deepEqual(notes(three, w), [], w);
  // a field only 1.35 has is judged at 1.35 from its own document
  const pod = (field) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  ${field}\n  containers:\n  - name: c\n    image: nginx\n`;
  const fieldFindings = (text, w) => analyze('/w/p.yaml', text, w).diagnostics.filter((d) => /^k8s\/(unknown-field|field-not-served|fields-not-checked)$/.test(d.ruleId));
  assert.deepEqual(fieldFindings(pod('workloadRef: {name: w, podGroup: g}'), '1.35'), []);
});

test('a built-in kind the field table lacks at a step the apiserver serves it: once per apiVersion/kind of the file', () => {
  const cs = 'apiVersion: v1\nkind: ComponentStatus\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ComponentStatus\nmetadata:\n  name: b\n';
  const d = notes(cs, '1.30', '/w/cs.yaml');
  assert.deepEqual(findings(d), ['k8s/fields-not-checked @ 1:13']);
  assert.match(d[0].message, /^fields of v1 ComponentStatus not checked at 1\.30: kube-apiserver serves it there, but the field table has no v1 ComponentStatus at that minor \(its sources: @kubernetes\/client-node@0\.22\.3\)$/);
});

test('nothing said where every step is checked, for files without a built-in object, and positions stay exact (CRLF, BOM)', () => {
  assert.deepEqual(notes(three, '1.32..1.34'), []);
  assert.deepEqual(notes('apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: x\n', '1.12..1.37', '/w/i.yaml'), []);
  const crlf = `\uFEFF# lead\r\n${deploy('x').replace(/\n/g, '\r\n')}`;
  const d = notes(crlf, '1.13..1.15');
  assert.deepEqual(d.map((x) => [x.range.start, x.range.end]), [[{ line: 1, character: 12 }, { line: 1, character: 19 }]]);
});
