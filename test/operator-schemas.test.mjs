// Issue #31 items 4 (fields) and 5: the bundled operator CRD data (data/operators/, scripts/import-operator-schemas.mjs)
// spot-checked against the reference it is read from, custom resources with no workspace CRD judged against it per
// release, and the CEL rules (x-kubernetes-validations) evaluated with the Kubernetes libraries, bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { engine, repoRoot, findings } from './helpers/k8s.mjs';

const refDir = path.resolve(process.env.SKEWGUARD_REFERENCE ?? path.join(repoRoot, '..', 'shared', 'reference'), 'operators');
const gz = (p) => JSON.parse(zlib.gunzipSync(fs.readFileSync(p)).toString('utf8'));
const hasRef = fs.existsSync(path.join(refDir, 'SOURCES.md'));

const analyze = (text, cli = {}, file = 'cr.yaml') => engine.analyze({ path: file, text, config: engine.resolveConfig({ cli: { kubernetesWindow: '1.30', ...cli } }) }).diagnostics;
const only = (ds, rule) => ds.filter((d) => d.ruleId === rule);

test('the shipped operator data equals the reference where it is copied, and keeps what the rules read', { skip: !hasRef && 'no reference folder' }, () => {
  const index = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/operators/schema-index.json'), 'utf8'));
  assert.equal(Object.keys(index.operators).length, 14);
  assert.equal(index.kinds['cert-manager.io/Certificate'], 'cert-manager');
  assert.equal(index.kinds['external-secrets.io/ExternalSecret'], 'external-secrets');
  assert.equal(index.kinds['argoproj.io/Rollout'], 'argo-rollouts');
  assert.equal(index.kinds['argoproj.io/Application'], 'argo-cd');
  // Cited per operator and release: repo, tag and commit as the reference's lifecycle file has them.
  const lifecycle = JSON.parse(fs.readFileSync(path.join(refDir, 'crd-lifecycle.json'), 'utf8')).operators['cert-manager'];
  assert.equal(index.operators['cert-manager'].repo, 'cert-manager/cert-manager');
  assert.deepEqual(index.operators['cert-manager'].releases['1.14'], { tag: lifecycle.releases['1.14'].tag, commit: lifecycle.releases['1.14'].commit });
  // A snapshot stands for the releases back to its version's last schema change (v1 Certificate changed in 1.21).
  assert.deepEqual(index.operators['cert-manager'].crds['Certificate.cert-manager.io'].versions.v1.schemas, { '1.5': '1.5..1.6', '1.21': '1.21' });
  assert.ok(lifecycle.crds['Certificate.cert-manager.io'].versions.v1.schemaChangedIn.includes('1.7'));
  // fields: the reference's paths by release, unchanged.
  const shipped = gz(path.join(repoRoot, 'data/operators/fields/external-secrets.json.gz'));
  const ref = gz(path.join(refDir, 'fields/external-secrets.json.gz'));
  assert.deepEqual(shipped.crds, ref.crds);
  assert.deepEqual(shipped.crds['Certificate.cert-manager.io'], undefined);
  // schemas: enums, required and CEL rules kept, descriptions dropped.
  const s = gz(path.join(repoRoot, 'data/operators/schemas/cert-manager/1.21.json.gz'));
  const r = gz(path.join(refDir, 'schemas/cert-manager/1.21.json.gz'));
  assert.equal(s.tag, r.tag);
  assert.equal(s.commit, r.commit);
  const pk = (x) => x.crds['Certificate.cert-manager.io'].versions.v1.openAPIV3Schema.properties.spec.properties.privateKey.properties.algorithm;
  assert.deepEqual(pk(s).enum, pk(r).enum);
  assert.ok(typeof pk(r).description === 'string' && pk(s).description === undefined);
  const venafi = (x) => x.crds['Issuer.cert-manager.io'].versions.v1.openAPIV3Schema.properties.spec.properties.venafi['x-kubernetes-validations'];
  assert.deepEqual(venafi(s), venafi(r).map(({ rule, message }) => ({ message, rule })));
  assert.ok(JSON.stringify(s).length < JSON.stringify(r).length / 3, 'descriptions dropped');
});

const CERT = 'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web\nspec:\n  secretName: web-tls\n  dnsName: [a.example.com]\n  otherNames:\n  - oid: 1.2.3\n    utf8Value: x\n  privateKey:\n    algorithm: RSB\n    size: "2048"\n  issuerRef: {name: ca, kind: Issuer}\n';

test('a misspelt Certificate field is found with no CRD in the workspace, whatever version is known', () => {
  const none = analyze(CERT);
  assert.deepEqual(findings(only(none, 'k8s/cr-unknown-field')), ['k8s/cr-unknown-field @ 7:3']);
  assert.match(only(none, 'k8s/cr-unknown-field')[0].message, /did you mean spec\.dnsNames\?/);
  assert.match(only(none, 'k8s/cr-unknown-field')[0].message, /every bundled cert-manager release serving v1 \(1\.0\.\.1\.21\)/);
  // No version: no value judged (the enum and type need a release's schema).
  assert.deepEqual(only(none, 'k8s/cr-invalid-value'), []);
  const at112 = analyze(CERT, { componentVersions: { 'cert-manager': '1.12.3' } });
  assert.deepEqual(findings(only(at112, 'k8s/cr-unknown-field')), ['k8s/cr-unknown-field @ 7:3', 'k8s/cr-unknown-field @ 8:3']);
  assert.match(only(at112, 'k8s/cr-unknown-field')[1].message, /spec\.otherNames .* at cert-manager 1\.12 \(cert-manager 1\.12 fields, bundled; --component-versions: cert-manager 1\.12\): cert-manager accepts it from 1\.14/);
  const at121 = analyze(CERT, { componentVersions: { 'cert-manager': 'v1.21.1' } });
  assert.deepEqual(findings(only(at121, 'k8s/cr-unknown-field')), ['k8s/cr-unknown-field @ 7:3']);
  const values = only(at121, 'k8s/cr-invalid-value');
  assert.deepEqual(findings(values), ['k8s/cr-invalid-value @ 12:16', 'k8s/cr-invalid-value @ 13:11']);
  assert.match(values[0].message, /\(cert-manager 1\.21 schema, bundled; --component-versions: cert-manager 1\.21\).*did you mean RSA\?/);
  // A version outside the releases bundled: read as no version, and said.
  const old = only(analyze(CERT, { componentVersions: { 'cert-manager': '0.16.1' } }), 'k8s/cr-unknown-field');
  assert.deepEqual(findings(old), ['k8s/cr-unknown-field @ 7:3']);
  // (the configuration refuses such a version, with the releases it has: it makes no window, and is read as none)
  assert.match(engine.checkComponentVersion('cert-manager', '0.16.1'), /unknown cert-manager release "0\.16\.1" \(cert-manager releases in the data: 1\.0 \.\. 1\.21/);
  assert.match(old[0].message, /no cert-manager version is known .*, so it was read against the fields of every bundled cert-manager release serving v1 \(1\.0\.\.1\.21\)/);
});

test('External Secrets: each release judged by the snapshot whose schema holds for it; an unserved version falls back to never-accepted fields', () => {
  const es = 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: db\nspec:\n  refreshInteval: 1h\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target:\n    name: db\n    creationPolicy: Maybe\n';
  // (kubernetes.components accepts external-secrets once the operator windows land; the engine reads it already.)
  const at = (v) => analyze(es, { componentVersions: { 'external-secrets': v } });
  const a = at('0.16.2');
  assert.deepEqual(findings(a.filter((d) => /^k8s\/cr-/.test(d.ruleId))), ['k8s/cr-unknown-field @ 6:3', 'k8s/cr-invalid-value @ 10:21']);
  assert.match(a.find((d) => d.ruleId === 'k8s/cr-invalid-value').message, /external-secrets 0\.16 schema, bundled/);
  assert.match(at('0.14.0').find((d) => d.ruleId === 'k8s/cr-invalid-value').message, /at external-secrets 0\.14 \(external-secrets 0\.15 schema, bundled/);
  const c = at('0.17.0').filter((d) => /^k8s\/cr-/.test(d.ruleId));
  assert.deepEqual(findings(c), ['k8s/cr-unknown-field @ 6:3']);
  assert.match(c[0].message, /--component-versions: external-secrets 0\.17 does not serve external-secrets\.io\/v1beta1 ExternalSecret with a schema, so it was read against the fields of every bundled external-secrets release serving v1beta1 \(0\.5\.\.0\.16\)/);
});

test('a CRD in the workspace for the group wins over the bundled data', () => {
  const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: issuers.cert-manager.io\nspec:\n  group: cert-manager.io\n  scope: Namespaced\n  names: {plural: issuers, kind: Issuer}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n---\n';
  // The group has a workspace CRD (for Issuer): the Certificate is not judged by the bundled data either.
  const ds = analyze(crd + CERT, { componentVersions: { 'cert-manager': '1.21' } });
  assert.deepEqual(only(ds, 'k8s/cr-unknown-field'), []);
  assert.deepEqual(only(ds, 'k8s/cr-invalid-value'), []);
});

test('x-kubernetes-preserve-unknown-fields of the bundled data is honoured', () => {
  const mw = 'apiVersion: traefik.io/v1alpha1\nkind: Middleware\nmetadata:\n  name: p\nspec:\n  plugin:\n    demo: {anything: [1, 2]}\n  headerz: {}\n';
  const ds = only(analyze(mw), 'k8s/cr-unknown-field');
  assert.deepEqual(findings(ds), ['k8s/cr-unknown-field @ 8:3']);
  assert.match(ds[0].message, /did you mean spec\.headers\?/);
  // Where the reference lists fields below a preserve-unknown node (Argo Rollouts' job volumes), they are still open.
  const at = 'apiVersion: argoproj.io/v1alpha1\nkind: AnalysisTemplate\nmetadata:\n  name: t\nspec:\n  metrics:\n  - name: m\n    provider:\n      job:\n        spec:\n          template:\n            spec:\n              volumes:\n              - name: v\n                madeUp: 1\n    sucessCondition: x\n';
  assert.deepEqual(findings(only(analyze(at), 'k8s/cr-unknown-field')), ['k8s/cr-unknown-field @ 16:5']);
});

test('manifests without custom resources never load the operator data', () => {
  // A fresh process: the analysis of built-in kinds must not read data/operators (lazy: bench-neutral).
  const script = `
    const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];
    fs.readFileSync = function (p, ...a) { seen.push(String(p)); return read.call(this, p, ...a); };
    const e = require(${JSON.stringify(path.join(repoRoot, 'dist', 'engine.js'))});
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.30' } });
    e.analyze({ path: 'd.yaml', text: 'apiVersion: apps/v1\\nkind: Deployment\\nmetadata: {name: x}\\nspec: {replicas: 1}\\n', config });
    // The operator ids (data/operators/index.json, 15 KB: the component registry's modules) are read when the engine loads.
    const data = (p) => p.includes('data/operators') && !p.endsWith('data/operators/index.json');
    const before = seen.filter(data).length;
    e.analyze({ path: 'c.yaml', text: ${JSON.stringify(CERT)}, config });
    console.log(JSON.stringify({ before, after: seen.filter(data).length }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60000 });
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.equal(out.before, 0, 'no operator lifecycle, schema or field data read for a Deployment');
  assert.ok(out.after >= 2, 'the index and cert-manager fields read for a Certificate');
});

test('CEL: Kubernetes libraries, transition rules skipped, unsupported functions named, cost bounded', () => {
  const cel = engine.k8sCel;
  const run = (rule, self) => {
    const p = cel.prepareRule(rule);
    assert.equal(p.kind, 'ok', `${rule}: ${JSON.stringify(p)}`);
    const v = cel.celValue(self, undefined, { n: 1e6 });
    return cel.runRule(p, { rule }, v, cel.sizeOf(self));
  };
  const ok = (rule, self) => assert.deepEqual(run(rule, self), { kind: 'pass' }, rule);
  const bad = (rule, self) => assert.equal(run(rule, self).kind, 'fail', rule);
  ok("quantity(self.m).isLessThan(quantity('1Gi'))", { m: '1000Mi' });
  bad("quantity(self.m).isLessThan(quantity('1Gi'))", { m: '1.5Gi' });
  ok("quantity('1500m').compareTo(quantity('1.5')) == 0 && quantity('2k').asInteger() == 2000 && isQuantity('10Ki') && !isQuantity('ten')", {});
  ok("sets.contains(self.a, ['x']) && sets.equivalent(['a','b'], ['b','a']) && !sets.intersects(['a'], ['b'])", { a: ['x', 'y'] });
  ok("self.l.isSorted() && self.l.sum() == 6 && self.l.min() == 1 && self.l.max() == 3 && self.l.indexOf(2) == 1", { l: [1, 2, 3] });
  ok("self.s.charAt(0) == 'a' && self.s.replace('b', 'x') == 'axc' && self.s.reverse() == 'cba' && self.s.upperAscii() == 'ABC'", { s: 'abc' });
  ok("self.s.matches('^a.c$') && self.s.find('[bc]+') == 'bc' && self.s.findAll('[a-c]') == ['a','b','c']", { s: 'abc' });
  ok("isURL(self.u) && url(self.u).getScheme() == 'https' && url(self.u).getHostname() == 'ex.com' && url(self.u).getPort() == '8443'", { u: 'https://ex.com:8443/p?q=1' });
  ok('(has(self.tpp) ? 1 : 0) + (has(self.cloud) ? 1 : 0) == 1', { tpp: {} });
  bad('(has(self.tpp) ? 1 : 0) + (has(self.cloud) ? 1 : 0) == 1', { tpp: {}, cloud: {} });
  ok("self.?x.orValue('d') == 'd'", {});
  // RE2 semantics: a pattern that backtracks exponentially in JavaScript is linear here.
  const t0 = Date.now();
  bad("self.s.matches('^(a+)+$')", { s: `${'a'.repeat(5000)}b` });
  assert.ok(Date.now() - t0 < 2000);
  assert.deepEqual(cel.prepareRule('self.replicas >= oldSelf.replicas'), { kind: 'transition' });
  assert.deepEqual(cel.prepareRule("ip(self.a).family() == 4 && self.b.format([1]) == ''"), { kind: 'unsupported', names: ['family', 'format', 'ip'] });
  ok("isIP('10.0.0.1') && isIP('fd00::1') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0') && !isIP('::ffff:1.2.3.4') && !isIP('x')", {});
  ok("isCIDR('10.0.0.0/8') && isCIDR('fd00::/64') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0') && !isCIDR('10.0.0.0/08')", {});
  assert.equal(cel.prepareRule('self.a ==').kind, 'invalid');
  // Nested comprehensions over a large list: not run, said.
  const big = { l: Array.from({ length: 2000 }, (_, i) => i) };
  const out = run('self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))', big);
  assert.equal(out.kind, 'too-costly');
  // A missing field (no has()) is an evaluation error, reported as not checked, never a pass.
  assert.equal(run('self.missing == 1', {}).kind, 'error');
  // The schema's defaults are applied before the rules run, as the API server does.
  const dflt = { type: 'object', properties: { tls: { type: 'object', properties: { mode: { type: 'string', default: 'Terminate' } } }, n: { type: 'number', default: 2 } } };
  const pd = cel.prepareRule("self.tls.mode == 'Terminate' && self.n == 2.0");
  assert.deepEqual(cel.runRule(pd, { rule: 'x' }, cel.celValue({ tls: {} }, dflt, { n: 100 }), 2), { kind: 'pass' });
  // messageExpression wins over message.
  const p = cel.prepareRule('self.n < 3');
  assert.deepEqual(cel.runRule(p, { rule: 'self.n < 3', message: 'm', messageExpression: "'n is ' + string(self.n)" }, cel.celValue({ n: 5 }, undefined, { n: 100 }), 2), { kind: 'fail', message: 'n is 5' });
});

test('CEL: every rule of the bundled schemas parses and uses only supported functions', () => {
  const names = {};
  let ok = 0, transition = 0;
  const dir = path.join(repoRoot, 'data/operators/schemas');
  for (const op of fs.readdirSync(dir)) for (const f of fs.readdirSync(path.join(dir, op))) {
    const d = gz(path.join(dir, op, f));
    const walk = (s) => {
      if (!s || typeof s !== 'object') return;
      for (const r of s['x-kubernetes-validations'] ?? []) {
        const p = engine.k8sCel.prepareRule(r.rule);
        assert.notEqual(p.kind, 'invalid', `${op} ${f}: ${r.rule}: ${p.why}`);
        if (p.kind === 'ok') ok++; else if (p.kind === 'transition') transition++; else for (const n of p.names) names[n] = (names[n] ?? 0) + 1;
      }
      for (const v of Object.values(s.properties ?? {})) walk(v);
      walk(s.items);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties);
    };
    for (const c of Object.values(d.crds)) for (const v of Object.values(c.versions)) walk(v.openAPIV3Schema);
  }
  assert.ok(ok > 700, `${ok} rules ready`);
  assert.ok(transition > 0);
  assert.deepEqual(Object.keys(names), []);
});
