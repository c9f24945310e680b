// The field rules built on the per-minor field table (data/kubernetes/fields/fields.json): k8s/unknown-field.
// Their findings on the fixtures are in test/fixtures/rules/k8s/<rule>/snapshot.json; these tests prove the fixes
// by re-analysis and the cases that must stay silent. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, applyEdits } from './helpers/k8s.mjs';

const of = (r, id) => r.diagnostics.filter((d) => d.ruleId === id);
const fieldRules = (r) => r.diagnostics.filter((d) => d.ruleId === 'k8s/unknown-field' || d.ruleId === 'k8s/field-not-served');

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n';

test('k8s/unknown-field: replica is reported at its key with "did you mean", and the fix to replicas leaves no field finding', () => {
  const r = analyze('deployment.yaml', DEPLOYMENT, '1.28..1.30');
  const [d, ...rest] = of(r, 'k8s/unknown-field');
  assert.equal(rest.length, 0);
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /^spec\.replica is not a field of apps\/v1 Deployment .*; did you mean spec\.replicas\?$/);
  assert.deepEqual(d.range, { start: { line: 5, character: 2 }, end: { line: 5, character: 9 } });
  assert.equal(d.fixes.length, 1);
  const fixed = applyEdits(DEPLOYMENT, d.fixes[0].edits);
  assert.equal(fixed, DEPLOYMENT.replace('replica:', 'replicas:'));
  assert.deepEqual(fieldRules(analyze('deployment.yaml', fixed, '1.28..1.30')), []);
});

test('k8s/unknown-field: a JSON key keeps its quotes, positions are exact after a BOM, CRLF and multi-byte text', () => {
  const text = '\uFEFF{"apiVersion":"v1","kind":"Service","metadata":{"name":"s\u00e9","labels":{"\u00e9":"x"}},\r\n"spec":{"ports":[{"port":80,"targetPrt":8080}]}}\r\n';
  const r = analyze('service.json', text, '1.25..1.27');
  const [d, ...rest] = of(r, 'k8s/unknown-field');
  assert.equal(rest.length, 0, rest.map((x) => x.message).join('\n'));
  assert.equal(d.range.start.line, 1);
  const line = text.split('\r\n')[1];
  assert.equal(line.slice(d.range.start.character, d.range.end.character), '"targetPrt"');
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.ok(fixed.includes('"targetPort":8080'));
  assert.deepEqual(fieldRules(analyze('service.json', fixed, '1.25..1.27')), []);
});

test('k8s/unknown-field: no fix when the near field takes another JSON type, is already there, or is one of several', () => {
  // replicas is an integer: a string value is not renamed (the message still names it).
  const str = analyze('deployment.yaml', DEPLOYMENT.replace('replica: 3', 'replica: "3"'), '1.28..1.30');
  const [d] = of(str, 'k8s/unknown-field');
  assert.match(d.message, /did you mean spec\.replicas\?/);
  assert.deepEqual(d.fixes, []);
  // Already there: renaming would make a duplicate key.
  const dup = analyze('deployment.yaml', DEPLOYMENT.replace('replica: 3', 'replica: 3\n  replicas: 3'), '1.28..1.30');
  assert.deepEqual(of(dup, 'k8s/unknown-field').map((x) => x.fixes.length), [0]);
  // A key as near to two fields (PodSpec "hostPIC": one edit from hostPID and from hostIPC) gets both names, no fix.
  const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  hostPIC: true\n  containers:\n  - name: c\n    image: busybox\n';
  const [p] = of(analyze('pod.yaml', pod, '1.28..1.30'), 'k8s/unknown-field');
  assert.match(p.message, /did you mean spec\.hostIPC or spec\.hostPID\?$/);
  assert.deepEqual(p.fixes, []);
});

test('k8s/unknown-field: free-form maps, free-form JSON, status, custom resources and unknown kinds are not judged', () => {
  const text = [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {replica: x}\n  annotations: {example.com/anything: "1"}\ndata:\n  anything: x\n',
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  anything: x\n',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector:\n    matchLabels: {anything: x}\n  template:\n    metadata: {labels: {anything: x}}\n    spec:\n      containers: [{name: c, image: i}]\nstatus:\n  anything: 1\n',
    'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: c\nspec:\n  secretNam: x\n',
    'apiVersion: example.com/v1\nkind: Widget\nspec:\n  replica: 1\n',
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ws.example.com\nspec:\n  group: example.com\n  names: {kind: W, plural: ws}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n        properties:\n          replica: {type: integer, default: 1}\n          spec:\n            type: object\n            default: {anything: {deep: 1}}\n',
  ].join('---\n');
  const r = analyze('all.yaml', text, '1.28..1.30');
  assert.deepEqual(of(r, 'k8s/unknown-field').map((d) => d.message), []);
});

test('k8s/unknown-field: a field of the wrong level (imagePullPolicy in the pod spec) is reported; in its container it is not', () => {
  const text = DEPLOYMENT.replace('replica: 3', 'replicas: 3').replace('    spec:\n      containers:', '    spec:\n      imagePullPolicy: Always\n      containers:').replace('image: nginx:1.27', 'image: nginx:1.27\n        imagePullPolicy: Always');
  const found = of(analyze('deployment.yaml', text, '1.28..1.30'), 'k8s/unknown-field');
  assert.deepEqual(found.map((d) => `${d.range.start.line + 1}:${d.message.split(' ')[0]}`), ['13:spec.template.spec.imagePullPolicy']);
  assert.match(found[0].message, /; it is a field of spec\.template\.spec\.containers\[\], spec\.template\.spec\.ephemeralContainers\[\] or spec\.template\.spec\.initContainers\[\]$/);
});

// ---- k8s/invalid-enum-value

const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {imagePullPolicy: always}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    imagePullPolicy: "always"\n';

test('k8s/invalid-enum-value: imagePullPolicy: always is an error at the value, and the case fix leaves no finding', () => {
  const r = analyze('pod.yaml', POD, '1.23..1.27');
  const [d, ...rest] = of(r, 'k8s/invalid-enum-value');
  assert.equal(rest.length, 0, rest.map((x) => x.message).join('\n'));
  assert.equal(d.severity, 'error');
  assert.match(d.message, /^spec\.containers\[0\]\.imagePullPolicy: always is not one of Always, IfNotPresent or Never \(the enum of 1\.23, 1\.27\); not judged at 1\.24\.\.1\.26 /);
  assert.deepEqual(d.range, { start: { line: 9, character: 21 }, end: { line: 9, character: 29 } });
  const fixed = applyEdits(POD, d.fixes[0].edits);
  assert.equal(fixed, POD.replace('"always"', '"Always"'));
  const again = analyze('pod.yaml', fixed, '1.23..1.27');
  assert.deepEqual(of(again, 'k8s/invalid-enum-value'), []);
  assert.deepEqual(fieldRules(again), []);
});

test('k8s/invalid-enum-value: a window without enum data is never judged (information only, no fix)', () => {
  const found = of(analyze('pod.yaml', POD, '1.28..1.30'), 'k8s/invalid-enum-value');
  assert.deepEqual(found.map((d) => d.severity), ['info']);
  assert.match(found[0].message, /not judged in the window 1\.28\.\.1\.30 \(no enum data for it there/);
  assert.deepEqual(found[0].fixes ?? [], []);
  // A valid value says nothing, with or without enum data.
  for (const w of ['1.23..1.27', '1.28..1.30']) assert.deepEqual(of(analyze('pod.yaml', POD.replace('"always"', 'Never'), w), 'k8s/invalid-enum-value'), []);
});

test('k8s/invalid-enum-value: a value that is not a case variant gets no fix', () => {
  const [d] = of(analyze('pod.yaml', POD.replace('"always"', 'Sometimes'), '1.27'), 'k8s/invalid-enum-value');
  assert.match(d.message, /Sometimes is not one of Always, IfNotPresent or Never \(the enum of 1\.27\)$/);
  assert.deepEqual(d.fixes, []);
});

// ---- k8s/deprecated-annotation

/** Applies the rule's fixes one at a time, re-analysing after each, until it has none left; returns the text. */
function fixAll(file, text, window) {
  for (let i = 0; i < 10; i++) {
    const d = of(analyze(file, text, window), 'k8s/deprecated-annotation').find((x) => x.fixes?.length);
    if (!d) return text;
    text = applyEdits(text, d.fixes[0].edits);
  }
  throw new Error('fixes do not converge');
}

test('k8s/deprecated-annotation: the pod seccomp annotation becomes securityContext.seccompProfile (same meaning), no finding left', () => {
  const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n    seccomp.security.alpha.kubernetes.io/pod: runtime/default\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n';
  const [d] = of(analyze('pod.yaml', text, '1.24..1.26'), 'k8s/deprecated-annotation');
  assert.match(d.message, /deprecated from 1\.19 \(the kubelet ignores it from 1\.25\); use spec\.securityContext\.seccompProfile/);
  const fixed = fixAll('pod.yaml', text, '1.24..1.26');
  assert.equal(fixed, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n  securityContext:\n    seccompProfile:\n      type: RuntimeDefault\n');
  assert.deepEqual(fieldRules(analyze('pod.yaml', fixed, '1.24..1.26')), []);
  assert.deepEqual(of(analyze('pod.yaml', fixed, '1.24..1.26'), 'k8s/deprecated-annotation'), []);
});

test('k8s/deprecated-annotation: container seccomp (localhost/<p>) and AppArmor annotations of a template, CRLF kept, proven by re-analysis', async () => {
  const text = 'apiVersion: apps/v1\r\nkind: Deployment\r\nmetadata:\r\n  name: web\r\nspec:\r\n  selector:\r\n    matchLabels: {app: web}\r\n  template:\r\n    metadata:\r\n      annotations:\r\n        container.seccomp.security.alpha.kubernetes.io/web: localhost/profiles/audit.json\r\n        container.apparmor.security.beta.kubernetes.io/web: unconfined\r\n      labels: {app: web}\r\n    spec:\r\n      containers:\r\n      - name: web\r\n        image: nginx:1.27\r\n        securityContext:\r\n          runAsNonRoot: true\r\n';
  const fixed = fixAll('deployment.yaml', text, '1.30..1.32');
  assert.ok(!/\r(?!\n)|[^\r]\n/.test(fixed), 'line ends stay CRLF');
  const YAML = (await import('yaml')).default;
  const sc = YAML.parse(fixed).spec.template.spec.containers[0].securityContext;
  assert.deepEqual(sc, { runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' }, appArmorProfile: { type: 'Unconfined' } });
  assert.equal(YAML.parse(fixed).spec.template.metadata.annotations, undefined);
  const again = analyze('deployment.yaml', fixed, '1.30..1.32');
  assert.deepEqual([...of(again, 'k8s/deprecated-annotation'), ...fieldRules(again)], []);
});

test('k8s/deprecated-annotation: no fix where a step of the window does not serve the field (AppArmor before 1.30, ingressClassName at 1.17)', () => {
  const dep = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    container.apparmor.security.beta.kubernetes.io/c: runtime/default\nspec:\n  containers:\n  - name: c\n    image: busybox\n';
  const [a] = of(analyze('pod.yaml', dep, '1.29..1.31'), 'k8s/deprecated-annotation');
  assert.match(a.message, /no fix: not every step of the window serves spec\.containers\[0\]\.securityContext\.appArmorProfile$/);
  assert.deepEqual(a.fixes, []);
  // Not deprecated yet anywhere in the window: nothing.
  assert.deepEqual(of(analyze('pod.yaml', dep, '1.27..1.29'), 'k8s/deprecated-annotation'), []);
  const ing = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n  annotations:\n    kubernetes.io/ingress.class: nginx\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
  const [i] = of(analyze('ingress.yaml', ing, '1.17..1.19'), 'k8s/deprecated-annotation');
  assert.deepEqual(i.fixes, []);
  // A quick fix only (fix-all leaves it): a controller older than the field reads only the annotation.
  assert.equal(of(analyze('ingress.yaml', ing, '1.18..1.21'), 'k8s/deprecated-annotation')[0].fixes[0].preferred, undefined);
  const fixed = fixAll('ingress.yaml', ing, '1.18..1.21');
  assert.ok(fixed.includes('  ingressClassName: nginx\n') && !fixed.includes('ingress.class'));
  assert.deepEqual(fieldRules(analyze('ingress.yaml', fixed, '1.18..1.21')), []);
});
