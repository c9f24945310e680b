// Issue #31 items 1, 2, 4 (apiVersion, deprecation, storage version) and 6 (hover): the operators' CRD lifecycles
// (data/operators, scripts/import-operators.mjs), their component windows (components/operators.ts) and the
// k8s/operator-* rules. test/data-fresh regenerates the tables and compares them; here the shipped table is compared
// with the reference JSON directly, and the facts the issue names are checked through the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, findings } from './helpers/k8s.mjs';

const refDir = path.resolve(process.env.SKEWGUARD_REFERENCE ?? path.join(repoRoot, '..', 'shared', 'reference'), 'operators');
const hasRef = fs.existsSync(path.join(refDir, 'crd-lifecycle.json'));
const ref = hasRef ? {
  ...JSON.parse(fs.readFileSync(path.join(refDir, 'crd-lifecycle.json'), 'utf8')).operators,
  ...JSON.parse(fs.readFileSync(path.join(refDir, 'crd-lifecycle-b.json'), 'utf8')).operators,
} : {};
const shipped = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'operators', 'lifecycle.json'), 'utf8'));
const D = e.operatorData;
const status = (op, key, v, r) => D.releaseStatus(D.operatorData(op), key, v, r);
const bin = path.join(repoRoot, 'bin', 'lsp-lint');
const lint = (cwd, args) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60000 });
function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-ops-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  return dir;
}
const check = (text, componentVersions, extra = {}) => e.analyze({ path: '/w/cr.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.33', componentVersions }, ...extra }) }).diagnostics;

const ESO_V1BETA1 = 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: db\nspec:\n  refreshInterval: 1h\n  target: {name: db}\n';
const POLICY = 'apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: p\nspec:\n  rules: []\n';
const CERT_V1ALPHA2 = 'apiVersion: cert-manager.io/v1alpha2\nkind: Certificate\nmetadata:\n  name: c\nspec:\n  secretName: c-tls\n';

test('the shipped table holds every release, CRD version range and curated fact of the reference, with a source per row', { skip: !hasRef && 'no ../shared/reference/operators' }, () => {
  assert.deepEqual(Object.keys(shipped.operators).sort(), Object.keys(ref).sort());
  assert.equal(Object.keys(shipped.operators).length, 14);
  for (const [id, o] of Object.entries(ref)) {
    const s = shipped.operators[id];
    assert.deepEqual(s.releases.map((r) => [r.id, r.tag, r.commit]), o.releaseIds.map((r) => [r, o.releases[r].tag, o.releases[r].commit]), `${id} releases`);
    assert.deepEqual(Object.keys(s.crds).sort(), Object.keys(o.crds).sort(), `${id} CRDs`);
    for (const [key, c] of Object.entries(o.crds)) {
      assert.deepEqual(s.crds[key].releases, c.releases, `${id} ${key} releases`);
      assert.match(s.crds[key].source, new RegExp(`^${o.repo.replace(/[./]/g, '\\$&')}@\\S+ \\([0-9a-f]{12}\\) \\S`), `${id} ${key} cites repo@tag (commit) path`);
      for (const [v, x] of Object.entries(c.versions)) {
        for (const f of ['present', 'served', 'storage', 'deprecated']) assert.deepEqual(s.crds[key].versions[v][f], x[f], `${id} ${key} ${v} ${f}`);
        assert.deepEqual(s.crds[key].versions[v].altOnly ?? [], x.altOnly ?? [], `${id} ${key} ${v} altOnly`);
        assert.deepEqual(s.crds[key].versions[v].deprecationWarning ?? [], x.deprecationWarning ?? [], `${id} ${key} ${v} deprecationWarning`);
      }
    }
    assert.equal(s.curated.length, (o.curatedLifecycle ?? []).length, `${id} curated`);
    for (const c of s.curated) assert.ok(c.basis && c.source.length > 10, `${id} curated row cites basis and source`);
  }
});

test('the facts the issue names, read from the reference JSON and from the engine\'s table alike', { skip: !hasRef && 'no ../shared/reference/operators' }, () => {
  // ESO v1beta1: last served 0.16, served: false (and deprecated) from 0.17, still listed at 2.9
  const esoRef = ref['external-secrets'].crds['ExternalSecret.external-secrets.io'].versions.v1beta1;
  assert.equal(esoRef.lastServed, '0.16');
  assert.equal(status('external-secrets', 'ExternalSecret.external-secrets.io', 'v1beta1', '0.16').served, true);
  assert.deepEqual(status('external-secrets', 'ExternalSecret.external-secrets.io', 'v1beta1', '0.17'),
    { release: '0.17', crd: true, present: true, served: false, altOnly: false, storage: false, deprecated: true });
  assert.equal(status('external-secrets', 'ExternalSecret.external-secrets.io', 'v1beta1', '2.9').present, true);
  // cert-manager v1alpha2: last served 1.5 (stops at 1.6), gone from the CRD at 1.7
  assert.equal(ref['cert-manager'].crds['Certificate.cert-manager.io'].versions.v1alpha2.lastServed, '1.5');
  assert.equal(status('cert-manager', 'Certificate.cert-manager.io', 'v1alpha2', '1.5').served, true);
  assert.deepEqual([status('cert-manager', 'Certificate.cert-manager.io', 'v1alpha2', '1.6').served, status('cert-manager', 'Certificate.cert-manager.io', 'v1alpha2', '1.6').present], [false, true]);
  assert.equal(status('cert-manager', 'Certificate.cert-manager.io', 'v1alpha2', '1.7').present, false);
  // Traefik: traefik.containo.us not shipped at 3.0; traefik.io served from 2.10
  assert.deepEqual(ref.traefik.crds['IngressRoute.traefik.containo.us'].releases, ['2.3..2.11']);
  assert.equal(status('traefik', 'IngressRoute.traefik.containo.us', 'v1alpha1', '2.11').served, true);
  assert.equal(status('traefik', 'IngressRoute.traefik.containo.us', 'v1alpha1', '3.0').crd, false);
  assert.equal(status('traefik', 'IngressRoute.traefik.io', 'v1alpha1', '2.10').served, true);
  // Kyverno 1.19: kyverno.io/v1 ClusterPolicy deprecated by the curated webhook warning, not by the CRD flag
  assert.deepEqual(ref.kyverno.crds['ClusterPolicy.kyverno.io'].versions.v1.deprecated, []);
  const k19 = status('kyverno', 'ClusterPolicy.kyverno.io', 'v1', '1.19');
  assert.deepEqual([k19.served, k19.deprecated, k19.curated?.basis], [true, true, 'webhook-warning']);
  assert.equal(status('kyverno', 'ClusterPolicy.kyverno.io', 'v1', '1.18').deprecated, false);
  // prometheus-operator: AlertmanagerConfig v1beta1 only in the optional CRD set
  assert.deepEqual(ref['prometheus-operator'].crds['AlertmanagerConfig.monitoring.coreos.com'].versions.v1beta1.altOnly, ['0.57..0.93']);
  assert.deepEqual([status('prometheus-operator', 'AlertmanagerConfig.monitoring.coreos.com', 'v1beta1', '0.60').served, status('prometheus-operator', 'AlertmanagerConfig.monitoring.coreos.com', 'v1beta1', '0.60').altOnly], [true, true]);
  // Cilium's "1.20-dev" is main, not a release: kept, marked, never a window step
  assert.equal(D.operatorData('cilium').releases.at(-1).prerelease, true);
  assert.deepEqual(D.operatorReleases('cilium').at(-1), ['1.20-dev', 'main-2026-06-25', 'prerelease']);
  // the kinds of argoproj.io are split between Argo CD and Argo Rollouts; another product's kind is nobody's
  assert.equal(D.operatorOfKind('argoproj.io', 'Application'), 'argo-cd');
  assert.equal(D.operatorOfKind('argoproj.io', 'Rollout'), 'argo-rollouts');
  assert.equal(D.operatorOfKind('argoproj.io', 'Workflow'), undefined);
});

test('operator windows: one release or "A..B" over the operator\'s minors read; unknown id, unknown release, reversed window, pre-release', () => {
  const O = e.operators;
  assert.deepEqual(O.parseOperatorSetting('external-secrets', '0.16..0.17'), { steps: ['0.16', '0.17'], text: '0.16..0.17' });
  assert.deepEqual(O.parseOperatorSetting('cert-manager', 'v1.14.2'), { steps: ['1.14'], text: '1.14' });
  assert.deepEqual(O.parseOperatorSetting('external-secrets', 'v0.16.2..v1.0.0'), { steps: ['0.16', '0.17', '0.18', '0.19', '0.20', '1.0'], text: '0.16..1.0' });
  // Tekton 0.67 and 1.8 were not read: the steps are the minors in the data, and naming a missing one says so
  assert.deepEqual(O.parseOperatorSetting('tekton-pipelines', '0.66..1.0').steps, ['0.66', '0.68', '0.69', '0.70', '1.0']);
  assert.equal(O.parseOperatorSetting('tekton-pipelines', '0.67').error, 'unknown tekton-pipelines release "0.67" (tekton-pipelines releases in the data: 0.20 .. 1.15; 0.67 is not among the minors read from its tags)');
  assert.equal(O.parseOperatorSetting('kyverno', '1.2').error, 'unknown kyverno release "1.2" (kyverno releases in the data: 1.3 .. 1.19)');
  assert.equal(O.parseOperatorSetting('external-secrets', '0.17..0.16').error, 'window "0.17..0.16" is reversed: give the older release first (0.16..0.17)');
  assert.match(O.parseOperatorSetting('cilium', '1.20').error, /unknown cilium release "1\.20" \(cilium releases in the data: 1\.9 \.\. 1\.19\)/);
  assert.match(O.parseOperatorSetting('keda', 'latest').error, /"latest" is not a version/);
  // in .skewguard.yaml: positioned, did-you-mean for the id
  const text = 'kubernetes:\n  components:\n    external-secret: "0.17"\n    kyverno: "1.19..1.18"\n    traefik: "2.10..3.0"\n';
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  assert.deepEqual(loaded.problems.map((p) => [p.message.replace(/ \(known: .*\)$/, ''), text.slice(p.range.start, p.range.end)]), [
    ['kubernetes.components.external-secret: unknown component "external-secret"; did you mean "external-secrets"?', 'external-secret'],
    ['kubernetes.components.kyverno: window "1.19..1.18" is reversed: give the older release first (1.18..1.19)', '"1.19..1.18"'],
  ]);
  const c = e.resolveConfig({ config: loaded });
  assert.deepEqual(O.operatorWindow(c, 'traefik'), { steps: ['2.10', '2.11', '3.0'], source: { kind: 'config', detail: '/w/.skewguard.yaml kubernetes.components: traefik 2.10..3.0' } });
  assert.equal(O.operatorWindow(c, 'kyverno'), undefined, 'a wrong setting gives no window');
  assert.equal(O.operatorWindow(e.resolveConfig({}), 'traefik'), undefined, 'no default window');
});

test('pins read from the workspace form the window (oldest..newest); a version the user gives wins; a pin of an unknown release is left out', () => {
  const O = e.operators;
  const pins = [
    { operator: 'external-secrets', version: '0.17.0', file: 'platform/Chart.yaml', line: 12, detail: 'dependency external-secrets 0.17.0' },
    { operator: 'external-secrets', version: 'v0.16.2', file: 'clusters/a/eso.yaml', line: 9, detail: 'HelmRelease external-secrets' },
    { operator: 'external-secrets', version: '9.9.9', file: 'x.yaml', line: 1, detail: 'image tag' },
    { operator: 'traefik', version: '3.0.4', file: 'traefik.yaml', line: 3, detail: 'image traefik:v3.0.4' },
  ];
  const c = e.resolveConfig({});
  const w = O.operatorWindowsWith(c, () => pins)['external-secrets'];
  assert.deepEqual(w.steps, ['0.16', '0.17']);
  assert.equal(w.source.kind, 'workspace');
  assert.equal(w.source.detail, 'external-secrets 0.17.0 from platform/Chart.yaml:12 (dependency external-secrets 0.17.0); external-secrets v0.16.2 from clusters/a/eso.yaml:9 (HelmRelease external-secrets)');
  assert.deepEqual(O.operatorWindowsWith(c, () => pins).traefik.steps, ['3.0']);
  let asked = 0;
  assert.deepEqual(O.operatorWindowsWith(c, () => { asked++; return []; }), {}, 'no pins, no window');
  assert.equal(asked, 1);
  const user = e.resolveConfig({ cli: { componentVersions: { 'external-secrets': '0.15' } } });
  assert.deepEqual(O.operatorWindowsWith(user, () => pins)['external-secrets'], O.operatorWindows(user)['external-secrets'], 'the user\'s version wins over the pins');
  assert.deepEqual(O.operatorWindow(user, 'external-secrets'), { steps: ['0.15'], source: { kind: 'cli', detail: '--component-versions: external-secrets 0.15' } });
  // the rules read it through the neighbours (the saved workspace's pins): the ExternalSecret v1beta1 is an error with
  // the pins' window, which the message names; a file without an operator's custom resource never asks for the pins
  const scans = [{ file: 'platform/Chart.yaml', pins: pins.slice(0, 2), sources: [], pending: [], unresolved: [] }];
  let read = 0;
  const neighbours = { operatorPins: () => { read++; return { scans, notRead: [] }; } };
  const d = e.analyze({ path: '/w/es.yaml', text: ESO_V1BETA1, config: c, neighbours }).diagnostics;
  assert.deepEqual(findings(d), ['k8s/operator-api-not-served @ 1:13']);
  assert.match(d[0].message, /external-secrets 0\.17 lists v1beta1 with served: false .*external-secrets 0\.17\.0 from platform\/Chart\.yaml:12/);
  assert.ok(read >= 1);
  read = 0;
  e.analyze({ path: '/w/cm.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n', config: c, neighbours });
  assert.equal(read, 0, 'the pins are not read for a file without an operator\'s custom resource');
});

test('done bar: ESO v1beta1 is an error under --component-versions external-secrets=0.16..0.17 (fixed to v1), Kyverno v1 ClusterPolicy a warning at 1.19, cert-manager v1alpha2 Certificate an error at 1.6', (t) => {
  const dir = workspace(t, { 'es.yaml': ESO_V1BETA1, 'policy.yaml': POLICY, 'cert.yaml': CERT_V1ALPHA2 });
  const es = lint(dir, ['--format', 'json', '--component-versions', 'external-secrets=0.16..0.17', 'es.yaml']);
  assert.equal(es.status, 1, es.stderr);
  const m = JSON.parse(es.stdout)[0].messages;
  assert.deepEqual(m.map((x) => [x.ruleId, x.severity]), [['k8s/operator-api-not-served', 'error']]);
  assert.match(m[0].message, /external-secrets 0\.17 lists v1beta1 with served: false \(last served in 0\.16\); move to external-secrets\.io\/v1/);
  const fixed = lint(dir, ['--fix', '--component-versions', 'external-secrets=0.16..0.17', 'es.yaml']);
  assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'es.yaml'), 'utf8'), ESO_V1BETA1.replace('external-secrets.io/v1beta1', 'external-secrets.io/v1'), 'only the apiVersion changes');
  const ky = lint(dir, ['--format', 'json', '--component-versions', 'kyverno=1.19', 'policy.yaml']);
  assert.equal(ky.status, 0, ky.stderr);
  assert.deepEqual(JSON.parse(ky.stdout)[0].messages.map((x) => [x.ruleId, x.severity]), [['k8s/operator-api-deprecated', 'warning']]);
  const cm = lint(dir, ['--format', 'json', '--component-versions', 'cert-manager=1.6', 'cert.yaml']);
  assert.equal(cm.status, 1, cm.stderr);
  assert.deepEqual(JSON.parse(cm.stdout)[0].messages.map((x) => [x.ruleId, x.severity]), [['k8s/operator-api-not-served', 'error']]);
  const cfg = JSON.parse(lint(dir, ['--component-versions', 'external-secrets=0.16..0.17', '--print-config', 'es.yaml']).stdout);
  assert.deepEqual(cfg['operator:external-secrets'], { window: '0.16..0.17', versions: [{ release: '0.16', tag: 'v0.16.2' }, { release: '0.17', tag: 'v0.17.0' }], source: { kind: 'cli', detail: '--component-versions: external-secrets 0.16..0.17' } });
});

test('no fix where the versions do not share a schema, or where the target is not served at every step', () => {
  const tr = check('apiVersion: traefik.containo.us/v1alpha1\nkind: IngressRoute\nmetadata: {name: r}\n', { traefik: '2.11..3.0' });
  assert.deepEqual(findings(tr), ['k8s/operator-api-not-served @ 1:13']);
  assert.deepEqual(tr[0].fixes ?? [], []);
  // ESO 0.15..0.17: v1 is not served at 0.15, so moving to it would break the rollback end: no fix
  const es = check(ESO_V1BETA1, { 'external-secrets': '0.15..0.17' });
  assert.ok(es.some((d) => d.ruleId === 'k8s/operator-api-not-served' && !(d.fixes ?? []).length));
});

test('a workspace CRD of the group/kind wins; an operator without a window gets one information per file, not an error', () => {
  const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: externalsecrets.external-secrets.io}\nspec:\n  group: external-secrets.io\n  scope: Namespaced\n  names: {plural: externalsecrets, kind: ExternalSecret}\n  versions:\n  - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}\n';
  assert.deepEqual(check(`${crd}---\n${ESO_V1BETA1}`, { 'external-secrets': '0.17' }).filter((d) => d.ruleId.startsWith('k8s/operator-')), []);
  const two = check(`${ESO_V1BETA1}---\n${ESO_V1BETA1}---\n${POLICY}`, {});
  assert.deepEqual(two.map((d) => [d.ruleId, d.severity, d.range.start.line]), [
    ['k8s/operator-api-not-served', 'info', 0],
    ['k8s/operator-api-not-served', 'info', 16],
  ]);
  assert.match(two[1].message, /no kyverno version is known/);
});

test('hover on an operator resource\'s apiVersion: the verdict for the window, the release timeline, where the window came from', () => {
  const cfg = e.resolveConfig({ cli: { componentVersions: { 'external-secrets': '0.15..0.17' } } });
  const r = e.analyze({ path: '/w/es.yaml', text: ESO_V1BETA1, config: cfg });
  const h = e.hover(r, ESO_V1BETA1, { line: 0, character: 20 }).markdown;
  const paras = h.split(/\n{2,}/);
  assert.equal(paras[0], '**external-secrets** `external-secrets.io/v1beta1` ExternalSecret');
  assert.equal(paras[1], 'Window 0.15..0.17 (cli: --component-versions: external-secrets 0.15..0.17): ✗ not served at 0.17.');
  assert.match(h, /- 0\.1\.\.0\.4: not listed in the CRD\n- 0\.5\.\.0\.16: served \(window: 0\.15, 0\.16\)\n- 0\.17\.\.2\.9: listed, served: false \(window: 0\.17\)/);
  assert.match(h, /Source: external-secrets\/external-secrets@v2\.9\.0 \([0-9a-f]{12}\) deploy\/crds\/bundle\.yaml\./);
  const none = e.hover(e.analyze({ path: '/w/es.yaml', text: ESO_V1BETA1, config: e.resolveConfig({}) }), ESO_V1BETA1, { line: 0, character: 20 }).markdown;
  assert.match(none.split(/\n{2,}/)[1], /^No external-secrets version is known, so this is not checked: set `kubernetes\.components\.external-secrets`/);
});

test('a manifest without custom resources never reads the operator table; a resource of a known kind does', () => {
  const script = `
    const fs = require('node:fs');
    const read = [];
    const orig = fs.readFileSync;
    fs.readFileSync = function (p, ...a) { read.push(String(p)); return orig.call(this, p, ...a); };
    const e = require(${JSON.stringify(path.join(repoRoot, 'dist', 'engine.js'))});
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.30' } });
    const deploy = 'apiVersion: apps/v1\\nkind: Deployment\\nmetadata: {name: web}\\nspec:\\n  template:\\n    spec:\\n      containers: [{name: web, image: nginx}]\\n---\\napiVersion: networking.k8s.io/v1\\nkind: Ingress\\nmetadata: {name: web}\\n';
    e.analyze({ path: '/w/deploy.yaml', text: deploy, config });
    const before = read.filter((p) => p.includes('operators')).map((p) => p.split(/[\\\\/]/).pop());
    e.analyze({ path: '/w/es.yaml', text: 'apiVersion: external-secrets.io/v1\\nkind: ExternalSecret\\nmetadata: {name: x}\\n', config });
    const after = read.filter((p) => p.includes('operators')).map((p) => p.split(/[\\\\/]/).pop());
    console.log(JSON.stringify({ before, after }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  const { before, after } = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.ok(!before.includes('lifecycle.json'), `read before a custom resource: ${before}`);
  assert.ok(after.includes('lifecycle.json'), `read for an ExternalSecret: ${after}`);
});

test('the editor setting skewguard.kubernetes.components takes an operator window too, validated like the config file', () => {
  const n = e.normalizeSettings({ kubernetes: { components: { 'external-secrets': '0.16..0.17', kyvern: '1.19' } } }, new Set(e.ruleIds));
  assert.deepEqual(n.problems.map((p) => p.setting), ['skewguard.kubernetes.components.kyvern']);
  assert.match(n.problems[0].message, /did you mean "kyverno"\?/);
  assert.deepEqual(n.settings.kubernetes, { components: { 'external-secrets': '0.16..0.17' } });
  const w = e.operators.operatorWindow(e.resolveConfig({ settings: n.overrides }), 'external-secrets');
  assert.deepEqual(w, { steps: ['0.16', '0.17'], source: { kind: 'settings', detail: 'editor settings: external-secrets 0.16..0.17' } });
});
