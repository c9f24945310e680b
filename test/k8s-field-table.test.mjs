// The field-lifecycle table (data/kubernetes/fields/fields.json, scripts/import-k8s-fields.mjs) through the
// engine's accessor (engine/families/kubernetes/data/fields.ts): facts the sources state, checked at the minors they name.
// Reads only the repo. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const f = e.k8sFields;
const table = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json'), 'utf8'));
const at = (apiVersion, kind, p, minor) => f.fieldAt(apiVersion, kind, p.split('.'), minor);

test('every minor 1.15..1.37 has a source package naming its OpenAPI document, or says why it has none', () => {
  assert.equal(table.first, 15);
  assert.equal(table.last, 37);
  for (let m = 15; m <= 37; m++) {
    const s = table.sources[m];
    assert.ok(s, `1.${m}`);
    assert.equal(s.none, undefined, `1.${m}: a source`);
    if (s.document) assert.match(s.document, /^shared\/reference\/kubernetes\/openapi\/(swagger-1\.(16|35)\.json|smd-schema-1\.37\.0-beta\.0\.yaml)\.gz$/, `1.${m}`);
    else assert.match(s.package, /^(@kubernetes\/client-node|kubernetes-types|cdk8s-plus-\d+)@\d/);
    assert.match(s.openapi, new RegExp(`1\\.${m}\\b`), `1.${m}: ${s.openapi}`);
  }
  // issue #28: no minor of the table is without a source any more; 1.37's is a pre-release
  assert.deepEqual(Object.keys(table.gaps), []);
  assert.match(table.sources[37].preRelease, /^pre-release source: client-go v0\.37\.0-beta\.0/);
  assert.match(f.sourceOf(16), /^kubernetes 1\.16 api\/openapi-spec\/swagger\.json \(shared\/reference\/kubernetes\/openapi\/swagger-1\.16\.json\.gz, sha256 83a26ef6141a uncompressed\)$/);
  assert.match(f.sourceOf(37), /v0\.37\.0-beta\.0 .*\(1\.37 pre-release\)/);
  assert.match(f.sourceOf('1.19'), /^@kubernetes\/client-node@0\.13\.2 \(v1\.19\.0\)$/);
  assert.equal(f.sourceOf(23), 'cdk8s-plus-23@2.3.14 (1.23.0, status from kubernetes-models@3.1.0 (1.23.5))');
  assert.equal(f.sourceOf(31), 'cdk8s-plus-31@2.6.43 (1.31.0), no status');
  assert.match(f.sourceOf(35), /swagger-1\.35\.json\.gz/);
});

test('the table is closed: every kind and every field type names a model of the table, within its minors', () => {
  const prim = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string', 'object']);
  const check = (t, where) => {
    const base = t.replace(/^(\[\]|\{\})+/, '');
    assert.ok(prim.has(base) || table.models[base], `${where}: ${t}`);
  };
  for (const [k, iv] of Object.entries(table.kinds)) for (const [m, a, b] of iv) { check(m, k); assert.ok(a <= b && a >= 15 && b <= 37); }
  for (const [n, row] of Object.entries(table.models)) {
    assert.ok(row.seen.length > 0, n);
    for (const [fld, v] of Object.entries(row.fields)) {
      if (typeof v === 'string') check(v, `${n}.${fld}`);
      else for (const [t, a, b] of v) { check(t, `${n}.${fld}`); assert.ok(a <= b, `${n}.${fld}`); }
    }
  }
});

test('spec.ingressClassName: networking.k8s.io/v1 Ingress serves it from 1.19 (the kind too), v1beta1 from 1.18', () => {
  const v1 = at('networking.k8s.io/v1', 'Ingress', 'spec.ingressClassName', '1.19');
  assert.equal(v1.served, true);
  assert.equal(v1.type, 'string');
  assert.equal(v1.firstMinor, 19);
  assert.equal(v1.inferred, false);
  const v1at18 = at('networking.k8s.io/v1', 'Ingress', 'spec.ingressClassName', 18);
  assert.equal(v1at18.served, false);
  assert.equal(v1at18.kindServed, false);
  const beta18 = at('networking.k8s.io/v1beta1', 'Ingress', 'spec.ingressClassName', 18);
  assert.equal(beta18.served, true);
  assert.deepEqual([beta18.firstMinor, beta18.lastMinor], [18, 21]);
  const beta17 = at('networking.k8s.io/v1beta1', 'Ingress', 'spec.ingressClassName', 17);
  assert.equal(beta17.served, false);
  assert.equal(beta17.kindServed, true, '1.17 serves the kind but not the field (silently dropped)');
  assert.equal(at('networking.k8s.io/v1beta1', 'Ingress', 'spec.backend.serviceName', 17).served, true);
  // extensions/v1beta1 Ingress is a model of its own (same version and kind in two groups).
  assert.deepEqual(table.kinds['extensions/v1beta1 Ingress'].map((x) => x[0]), ['ExtensionsV1beta1Ingress']);
  assert.deepEqual(table.kinds['networking.k8s.io/v1beta1 Ingress'].map((x) => x[0]), ['NetworkingV1beta1Ingress']);
});

test('spec.template.spec.os of apps/v1 Deployment: served from 1.23 (cdk8s-plus-23: alpha, IdentifyPodOS gate), not at 1.22', () => {
  const os = at('apps/v1', 'Deployment', 'spec.template.spec.os', 23);
  assert.equal(os.served, true);
  assert.equal(os.type, 'V1PodOS');
  assert.equal(os.firstMinor, 23);
  assert.equal(os.lastMinor, 37);
  assert.equal(f.describeType(os.type), 'object (V1PodOS)');
  const at22 = at('apps/v1', 'Deployment', 'spec.template.spec.os', '1.22');
  assert.equal(at22.served, false);
  assert.equal(at22.kindServed, true);
  assert.equal(at22.type, 'V1PodOS', 'the type of the nearest minor serving it');
  assert.equal(at('apps/v1', 'Deployment', 'spec.template.spec.os.name', 24).type, 'string');
});

test('status.nodeInfo.kubeProxyVersion of v1 Node: still in the 1.32 OpenAPI document (and, as the sources say, through 1.36)', () => {
  const kp = at('v1', 'Node', 'status.nodeInfo.kubeProxyVersion', 32);
  assert.equal(kp.served, true);
  assert.equal(kp.inferred, false);
  assert.deepEqual(kp.ranges, [[15, 37]]);
  // cdk8s-plus-31 leaves status out: 1.31 is inside the interval but inferred, not read (1.23's status is read
  // from kubernetes-models).
  assert.equal(at('v1', 'Node', 'status.nodeInfo.kubeProxyVersion', 31).inferred, true);
  assert.equal(at('v1', 'Node', 'status.nodeInfo.kubeProxyVersion', 31).served, true);
  assert.equal(at('v1', 'Node', 'status.nodeInfo.kubeProxyVersion', 23).inferred, false);
  assert.equal(at('v1', 'Node', 'spec.podCIDR', 31).inferred, false);
});

test('the gitRepo volume is served at every minor of the table (pod and pod template)', () => {
  for (const m of [15, 19, 26, 36]) {
    const g = at('v1', 'Pod', 'spec.volumes.gitRepo', m);
    assert.equal(g.served, true);
    assert.equal(g.type, 'V1GitRepoVolumeSource');
  }
  assert.deepEqual(at('apps/v1', 'Deployment', 'spec.template.spec.volumes.gitRepo.repository', 30).ranges, [[15, 37]]);
  assert.equal(at('v1', 'Pod', 'spec.volumes', 30).type, '[]V1Volume');
});

test('imagePullPolicy: a string everywhere; its enum comes from the sources that keep enums (1.23, 1.27)', () => {
  const p = at('v1', 'Pod', 'spec.containers.imagePullPolicy', 30);
  assert.equal(p.type, 'string');
  assert.deepEqual(p.enum, ['Always', 'IfNotPresent', 'Never']);
  assert.deepEqual(p.enumMinors, [23, 27]);
  assert.deepEqual(at('v1', 'Service', 'spec.type', 19).enum, ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']);
  assert.equal(at('v1', 'Pod', 'spec.containers.image', 30).enum, undefined);
});

test('free-form maps and JSON: labels, annotations, ConfigMap data serve any key', () => {
  const l = f.fieldAt('apps/v1', 'Deployment', ['metadata', 'labels', 'app.kubernetes.io/name'], 20);
  assert.equal(l.served, true);
  assert.equal(l.freeForm, true);
  assert.equal(l.type, 'string');
  assert.equal(f.fieldAt('apps/v1', 'Deployment', ['metadata', 'labels', 'app', 'nested'], 20), undefined, 'a label value is a string');
  // Free-form JSON (RawExtension): anything below is served.
  assert.equal(at('apps/v1', 'ControllerRevision', 'data.any.depth', 25).freeForm, true);
  assert.equal(at('v1', 'ConfigMap', 'data.anything', 30).freeForm, true);
  assert.equal(at('v1', 'ConfigMap', 'data', 30).type, '{}string');
  assert.equal(at('v1', 'Pod', 'metadata.annotations', 30).freeForm, true);
  assert.equal(at('v1', 'Pod', 'metadata.name', 30).freeForm, false);
});

test('what a source leaves out is not taken as unserved: kubernetes-types drops fields, cdk8s-plus-31 drops status', () => {
  // kubernetes-types 1.26 has no RuleWithOperations.resources (nor PolicyRule's at 1.17): the table takes 1.17 and
  // 1.26 from cdk8s-plus-17/-26, which have them, and the cross-check says what kubernetes-types lacks.
  const r = at('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'webhooks.rules.resources', 26);
  assert.equal(r.served, true);
  assert.equal(r.inferred, false);
  assert.ok(table.crossChecks['26'].examples.onlyFirst.includes('admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration: webhooks.rules.resources'));
  assert.equal(at('rbac.authorization.k8s.io/v1', 'ClusterRole', 'rules.verbs', 17).served, true);
  // (the examples are cut at 40, in kind order: the admission webhooks' rules come first)
  assert.ok(table.crossChecks['17'].examples.onlyFirst.includes('admissionregistration.k8s.io/v1 MutatingWebhookConfiguration: webhooks.rules.resources'));
  // What stays unsaid: the status cdk8s-plus-31 leaves out, the status fields kubernetes-types drops (1.17, 1.26).
  assert.ok(table.unsaid['31'].includes('V1Node.status'));
  assert.ok(!table.unsaid['31'].includes('V1ClusterRole.status'), 'only kinds that have a status elsewhere');
  assert.deepEqual(table.unsaid['26'], ['V1ResourceRule.resources', 'V1ResourceRule.verbs']);
  const rr = at('authorization.k8s.io/v1', 'SelfSubjectRulesReview', 'status.resourceRules.verbs', 26);
  assert.deepEqual([rr.served, rr.inferred], [true, true]);
  // A field that begins later is not pulled back by an unsaid minor: x-kubernetes-validations is from 1.23.
  const v = at('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'spec.versions.schema.openAPIV3Schema.x-kubernetes-validations', 22);
  assert.equal(v.served, false);
  assert.equal(v.firstMinor, 23);
});

test('kinds a source leaves out by name (cdk8s: core v1 Event beside events.k8s.io Event) keep their interval', () => {
  assert.deepEqual(table.kinds['v1 Event'].at(-1), ['CoreV1Event', 19, 37]);
  const ev = at('v1', 'Event', 'involvedObject.name', 23);
  assert.deepEqual([ev.served, ev.inferred, ev.unknown], [true, true, false]);
  // client-node 1.x ships API classes of older generations; only the exported ones count.
  assert.deepEqual(table.kinds['resource.k8s.io/v1alpha2 ResourceClaim'], [['V1alpha2ResourceClaim', 27, 30]]);
});

test('cross-checks: each second source is compared path by path with the first of its minor', () => {
  assert.deepEqual(Object.keys(table.crossChecks).sort(), ['17', '19', '23', '25', '26', '27', '29', '30', '34', '36', '37']);
  // the upstream swagger of 1.34 and 1.36 says exactly what client-node 1.4.0 and 2.0.1 say: same kinds, same paths
  for (const m of ['34', '36']) {
    const c = table.crossChecks[m];
    assert.deepEqual([c.kindsOnlyFirst, c.kindsOnlySecond, c.pathsOnlyFirst, c.pathsOnlySecond, c.typesDiffer], [[], [], 0, 0, 0], m);
  }
  // 1.37: client-go master three days after v0.37.0-beta.0 has more (JobSpec.scheduling, PodSpec.evictionResponders …)
  assert.ok(table.crossChecks['37'].pathsOnlySecond > 100);
  assert.ok(table.crossChecks['37'].examples.onlySecond.includes('apps/v1 DaemonSet: spec.template.spec.evictionResponders'));
  for (const c of Object.values(table.crossChecks).filter((x) => x !== table.crossChecks['37'])) {
    assert.ok(c.kindsCompared > 40 && c.pathsCompared > 10000, c.second);
    assert.ok(c.pathsOnlyFirst + c.pathsOnlySecond < c.pathsCompared / 100, `${c.second}: under 1% of paths differ`);
  }
  // 1.23: cdk8s (1.23.0) and kubernetes-models (1.23.5) differ where kubernetes-models drops description and
  // x-kubernetes-* and types StatefulSet volumeClaimTemplates loosely (its CHANGELOG 2.0.2), and in APIService's
  // spec.service.path; nothing the second has is missing from the first.
  const c23 = table.crossChecks['23'];
  assert.equal(c23.pathsOnlySecond, 0);
  const explained = /\.(description|x-kubernetes-[a-z-]+)(\.|$)|StatefulSet: spec\.volumeClaimTemplates\.|APIService: spec\.service\.path$|^\.\.\. \d+ more$/;
  assert.deepEqual(c23.examples.onlyFirst.filter((p) => !explained.test(p)), []);
});

test('1.16 is read from its own OpenAPI document; a typo or an unknown kind has no entry', () => {
  const img = at('v1', 'Pod', 'spec.containers.image', 16);
  assert.equal(img.served, true);
  assert.equal(img.inferred, false);
  const eph = at('v1', 'Pod', 'spec.ephemeralContainers', 16);
  assert.equal(eph.served, true, 'in the 1.16 swagger (alpha, EphemeralContainers gate)');
  assert.equal(eph.inferred, false);
  // apiextensions.k8s.io/v1 is new in 1.16 (the 1.15 and 1.17 sources bound it)
  assert.deepEqual([at('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'spec.preserveUnknownFields', 16).served, at('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'spec.preserveUnknownFields', 15).kindServed], [true, false]);
  assert.equal(at('apps/v1', 'Deployment', 'spec.replica', 30), undefined);
  assert.equal(at('apps/v1', 'Deployment', 'spec.replicas', 30).type, 'integer');
  assert.equal(at('example.com/v1', 'Widget', 'spec', 30), undefined);
  assert.equal(at('apps/v1', 'Deployment', 'spec.replicas', 14), undefined);
  assert.equal(at('apps/v1', 'Deployment', 'spec.replicas', 'master'), undefined);
  assert.equal(f.hasKind('apps/v1', 'Deployment'), true);
});

// ---- schemas/kubernetes-fields/<minor>/manifest.schema.json (scripts/schemas/kubernetes-fields.mjs)

const schemaAt = (minor) => JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas', 'kubernetes-fields', minor, 'manifest.schema.json'), 'utf8'));
const validators = new Map();
const validate = (minor, obj) => {
  if (!validators.has(minor)) validators.set(minor, new Ajv({ allErrors: true, strict: false }).compile(schemaAt(minor)));
  const v = validators.get(minor);
  return v(obj) ? [] : v.errors.filter((x) => x.keyword !== 'if').map((x) => `${x.instancePath} ${x.message}${x.params?.additionalProperty ? `: ${x.params.additionalProperty}` : ''}`);
};
const deployment = (podSpec) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' }, creationTimestamp: null },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } },
});

test('field schemas: one per minor with a source from 1.16, none for the gaps', () => {
  const dirs = fs.readdirSync(path.join(repoRoot, 'schemas', 'kubernetes-fields')).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  const expected = [];
  for (let m = 16; m <= 37; m++) if (!table.gaps[m]) expected.push(`1.${m}`);
  assert.equal(expected.length, 22);
  assert.deepEqual(dirs, expected);
  const s = schemaAt('1.23');
  assert.equal(s['x-skewguard'].minor, '1.23');
  assert.match(s['x-skewguard'].source, /cdk8s-plus-23@2\.3\.14/);
  assert.deepEqual([...new Set(s['x-skewguard'].inferred.map((x) => x.split('.')[0]))], ['CoreV1Event', 'CoreV1EventSeries'], '1.23 is read whole but for core Event');
  assert.ok(schemaAt('1.31')['x-skewguard'].inferred.includes('V1Node.status'));
});

test('field schemas: spec.template.spec.os fails at 1.22 and passes at 1.23; a typo fails everywhere; null and free-form maps pass', () => {
  const withOs = deployment({ os: { name: 'linux' }, containers: [{ name: 'web', image: 'nginx', imagePullPolicy: 'IfNotPresent', resources: {} }] });
  assert.deepEqual(validate('1.23', withOs), []);
  assert.deepEqual(validate('1.36', withOs), []);
  assert.deepEqual(validate('1.22', withOs), ['/spec/template/spec must NOT have additional properties: os']);
  const typo = deployment({ containers: [{ name: 'web', image: 'nginx' }] });
  typo.spec.replica = 2;
  for (const m of ['1.17', '1.26', '1.36']) assert.deepEqual(validate(m, typo), ['/spec must NOT have additional properties: replica'], m);
  assert.deepEqual(validate('1.20', { ...typo, spec: { ...typo.spec, replica: undefined, replicas: 'two' } }).filter((x) => x.startsWith('/spec/replicas')), ['/spec/replicas must be integer,null']);
});

test('field schemas: ingressClassName is served by networking.k8s.io/v1beta1 Ingress from 1.18, not at 1.17', () => {
  const ing = { apiVersion: 'networking.k8s.io/v1beta1', kind: 'Ingress', metadata: { name: 'i', annotations: { 'kubernetes.io/ingress.class': 'nginx' } }, spec: { ingressClassName: 'nginx', backend: { serviceName: 's', servicePort: 80 } } };
  assert.deepEqual(validate('1.18', ing), []);
  assert.deepEqual(validate('1.17', ing), ['/spec must NOT have additional properties: ingressClassName']);
  // Kinds the minor does not serve and custom resources pass (the apiVersion rules judge those).
  assert.deepEqual(validate('1.22', ing), []);
  assert.deepEqual(validate('1.30', { apiVersion: 'example.com/v1', kind: 'Widget', spec: { anything: 1 } }), []);
});

// ---- the rule k8s/field-not-served on hostile shapes (its findings are in test/fixtures/rules/k8s/field-not-served/)

test('k8s/field-not-served: a CRD schema nested 120 levels deep (a map of typed values at every level) is walked to the bottom', async () => {
  const { analyze } = await import('./helpers/k8s.mjs');
  // One field 1.22 does not serve (x-kubernetes-validations, from 1.23) at the bottom; the text is built by hand
  // (JSON.stringify itself recurses).
  const depth = 120; // the reader refuses more than 300 levels of nesting
  let schema = '{"type":"string","x-kubernetes-validations":[{"rule":"self.size() > 0"}]}';
  for (let i = 0; i < depth; i++) schema = `{"type":"object","properties":{"p${i}":${schema}}}`;
  const text = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.example.com"},"spec":{"group":"example.com","names":{"kind":"W","plural":"ws"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":${schema}}}]}}\n`;
  const r = analyze('crd.json', text, '1.22..1.23');
  const found = r.diagnostics.filter((d) => d.ruleId === 'k8s/field-not-served');
  assert.equal(found.length, 1, r.diagnostics.map((d) => `${d.ruleId}: ${d.message}`).slice(0, 5).join('\n'));
  assert.match(found[0].message, /^1\.22 drops spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\.p119\..*\.properties\.p0\.x-kubernetes-validations silently; served from 1\.23$/);
  assert.equal(found[0].range.start.line, 0);
  assert.equal(text.slice(found[0].range.start.character, found[0].range.end.character), '"x-kubernetes-validations"');
});

test('the table read with its models parsed on first use is the file\'s JSON, model for model (and a compact copy too)', () => {
  const text = fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json'), 'utf8');
  for (const t of [text, JSON.stringify(table), text.replace(/\n/g, '\r\n')]) {
    const lazy = f.readFieldTable(t);
    assert.deepEqual(Object.keys(lazy.models), Object.keys(table.models));
    for (const name of Object.keys(table.models)) {
      assert.ok(name in lazy.models, name);
      assert.deepEqual(lazy.models[name], table.models[name], name);
    }
    assert.equal(lazy.models.NoSuchModel, undefined);
    assert.equal('NoSuchModel' in lazy.models, false);
    const { models: _m, ...rest } = lazy;
    const { models: _n, ...want } = table;
    assert.deepEqual(rest, want);
    assert.deepEqual({ ...lazy.models }, table.models);
  }
  // A model line not in the generator's layout: the whole text is parsed as JSON.
  const odd = text.replace('\n"models":{\n"', '\n"models":{\n "');
  assert.deepEqual({ ...f.readFieldTable(odd).models }, table.models);
});
