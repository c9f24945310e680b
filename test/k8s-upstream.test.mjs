// Real upstream manifests (test/fixtures/kubernetes/upstream, see SOURCES.md there) checked against five
// windows. The expected findings were computed once by running the engine and then reviewed by hand against
// data/kubernetes/api-lifecycle.json; the review notes are next to each file below. Positions are 1-based
// line:column of the apiVersion value (of the `{{` for a Helm template), as lsp-lint prints them.
// Reads only the repo. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import YAML from 'yaml';
import { repoRoot, analyze, findings, applyEdits } from './helpers/k8s.mjs';

const dir = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'upstream');
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
const WINDOWS = ['1.18..1.18', '1.19..1.21', '1.18..1.21', '1.21..1.22', '1.25'];

// Review notes (rows of the lifecycle data used):
//   apiextensions.k8s.io/v1beta1 CRD           deprecated 1.16, removed 1.22 -> deprecated up to 1.21, removed from 1.22
//   rbac.authorization.k8s.io/v1beta1 (all 4)  deprecated 1.17, removed 1.22 -> same pattern
//   admissionregistration.k8s.io/v1beta1 VWC   deprecated 1.16, removed 1.22 -> same pattern
//   extensions/v1beta1 Deployment / DaemonSet  removed 1.16                  -> removed in every window here
//   v1 Namespace/Service/ConfigMap/ServiceAccount, apps/v1, batch/v1 Job, rbac v1 -> never a finding
const EXPECTED = {
  // One v1beta1 CRD at line 1.
  'calico-02-crd-ippool.yaml': {
    '1.18..1.18': ['k8s/deprecated-api @ 1:13'],
    '1.19..1.21': ['k8s/deprecated-api @ 1:13'],
    '1.18..1.21': ['k8s/deprecated-api @ 1:13'],
    '1.21..1.22': ['k8s/removed-api @ 1:13'],
    '1.25': ['k8s/removed-api @ 1:13'],
  },
  // A Helm template read without its chart: the 14 v1beta1 CRDs are under `if eq .Values.datastore "kubernetes"`,
  // which cannot be decided without the chart's values: said as not checked at the `if`, never taken as false.
  'calico-kdd-crds.helm.yaml': {
    '1.18..1.18': ['helm/not-evaluated @ 1:1', 'helm/not-in-chart @ 1:1'],
    '1.19..1.21': ['helm/not-evaluated @ 1:1', 'helm/not-in-chart @ 1:1'],
    '1.18..1.21': ['helm/not-evaluated @ 1:1', 'helm/not-in-chart @ 1:1'],
    '1.21..1.22': ['helm/not-evaluated @ 1:1', 'helm/not-in-chart @ 1:1'],
    '1.25': ['helm/not-evaluated @ 1:1', 'helm/not-in-chart @ 1:1'],
  },
  // 8: extensions/v1beta1 Deployment default-http-backend; 111/167/208/226: rbac v1beta1 ClusterRole, Role,
  // RoleBinding, ClusterRoleBinding; 244: extensions/v1beta1 Deployment nginx-ingress-controller.
  'ingress-nginx-0.20.0-mandatory.yaml': {
    '1.18..1.18': ['k8s/removed-api @ 8:13', 'k8s/deprecated-api @ 111:13', 'k8s/deprecated-api @ 167:13', 'k8s/deprecated-api @ 208:13', 'k8s/deprecated-api @ 226:13', 'k8s/removed-api @ 244:13'],
    '1.19..1.21': ['k8s/removed-api @ 8:13', 'k8s/deprecated-api @ 111:13', 'k8s/deprecated-api @ 167:13', 'k8s/deprecated-api @ 208:13', 'k8s/deprecated-api @ 226:13', 'k8s/removed-api @ 244:13'],
    '1.18..1.21': ['k8s/removed-api @ 8:13', 'k8s/deprecated-api @ 111:13', 'k8s/deprecated-api @ 167:13', 'k8s/deprecated-api @ 208:13', 'k8s/deprecated-api @ 226:13', 'k8s/removed-api @ 244:13'],
    '1.21..1.22': ['k8s/removed-api @ 8:13', 'k8s/removed-api @ 111:13', 'k8s/removed-api @ 167:13', 'k8s/removed-api @ 208:13', 'k8s/removed-api @ 226:13', 'k8s/removed-api @ 244:13'],
    '1.25': ['k8s/removed-api @ 8:13', 'k8s/removed-api @ 111:13', 'k8s/removed-api @ 167:13', 'k8s/removed-api @ 208:13', 'k8s/removed-api @ 226:13', 'k8s/removed-api @ 244:13'],
  },
  // 400: admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration; the other 19 objects are current.
  'ingress-nginx-0.34.1-baremetal-deploy.yaml': {
    '1.18..1.18': ['k8s/deprecated-api @ 400:13'],
    '1.19..1.21': ['k8s/deprecated-api @ 400:13'],
    '1.18..1.21': ['k8s/deprecated-api @ 400:13'],
    '1.21..1.22': ['k8s/removed-api @ 400:13'],
    '1.25': ['k8s/removed-api @ 400:13'],
  },
  // 2: v1beta1 CRD; 35/63: rbac v1beta1 ClusterRole, ClusterRoleBinding; 122/182: extensions/v1beta1 DaemonSets.
  'multus-daemonset-pre-1.16.yml': {
    '1.18..1.18': ['k8s/deprecated-api @ 2:13', 'k8s/deprecated-api @ 35:13', 'k8s/deprecated-api @ 63:13', 'k8s/removed-api @ 122:13', 'k8s/removed-api @ 182:13'],
    '1.19..1.21': ['k8s/deprecated-api @ 2:13', 'k8s/deprecated-api @ 35:13', 'k8s/deprecated-api @ 63:13', 'k8s/removed-api @ 122:13', 'k8s/removed-api @ 182:13'],
    '1.18..1.21': ['k8s/deprecated-api @ 2:13', 'k8s/deprecated-api @ 35:13', 'k8s/deprecated-api @ 63:13', 'k8s/removed-api @ 122:13', 'k8s/removed-api @ 182:13'],
    '1.21..1.22': ['k8s/removed-api @ 2:13', 'k8s/removed-api @ 35:13', 'k8s/removed-api @ 63:13', 'k8s/removed-api @ 122:13', 'k8s/removed-api @ 182:13'],
    '1.25': ['k8s/removed-api @ 2:13', 'k8s/removed-api @ 35:13', 'k8s/removed-api @ 63:13', 'k8s/removed-api @ 122:13', 'k8s/removed-api @ 182:13'],
  },
};

// The fixtures are the upstream files with their comments stripped (scripts/strip-fixture-comments.mjs): any other
// edit changes these.
const SHA256 = {
  'calico-02-crd-ippool.yaml': '02dd9d026df77eda4f6f536ab4f9de25ea2148ff45d7dcdf4593a4c3efe96d48',
  'calico-kdd-crds.helm.yaml': '17119c8e92a792a189d013b28fac92171dffb68b0e00839be8fadf70afd9a1d6',
  'ingress-nginx-0.20.0-mandatory.yaml': '2b0d0d5f42265414b80c47262ca3e437d1165c6c1075c6260e61411e90072da8',
  'ingress-nginx-0.34.1-baremetal-deploy.yaml': 'fbb05a29e407fb230081dc548540f058fd3b32d5ad256b1f6c2358f9c0b15723',
  'multus-daemonset-pre-1.16.yml': '172a8f9383ca63db70ca9a9541ff11f2124165e53d0e8516455a863fdf51e55f',
};

test('upstream fixtures: every file is listed, unchanged since stripped (sha256 as in SOURCES.md)', () => {
  const files = fs.readdirSync(dir).filter((f) => f !== 'SOURCES.md').sort();
  assert.deepEqual(files, Object.keys(EXPECTED).sort());
  assert.deepEqual(Object.keys(SHA256).sort(), files);
  const sources = read('SOURCES.md');
  for (const f of files) {
    const sum = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex');
    assert.equal(sum, SHA256[f], `${f} changed`);
    assert.ok(sources.includes(`| ${f} |`) && sources.includes(sum), `${f} and its sha256 are in SOURCES.md`);
  }
});

for (const [file, byWindow] of Object.entries(EXPECTED)) {
  test(`upstream ${file}: exact findings in ${WINDOWS.join(', ')}`, () => {
    const text = read(file);
    assert.deepEqual(Object.keys(byWindow), WINDOWS);
    for (const w of WINDOWS) {
      const r = analyze(`/work/${file}`, text, w);
      assert.equal(r.family, /\.helm\.yaml$/.test(file) ? 'helm-chart' : 'kubernetes', `${file} is recognised`);
      assert.deepEqual(findings(r.diagnostics), byWindow[w], `${file} in ${w}`);
    }
  });
}

test('upstream spot checks: the messages say the right versions', () => {
  const crd = analyze('/w/crd.yaml', read('calico-02-crd-ippool.yaml'), '1.21..1.22').diagnostics[0];
  assert.equal(crd.severity, 'error');
  assert.match(crd.message, /^apiextensions\.k8s\.io\/v1beta1 CustomResourceDefinition is removed in Kubernetes 1\.22, which is in the window 1\.21\.\.1\.22/);
  assert.match(crd.message, /use apiextensions\.k8s\.io\/v1, served across the whole window/);
  // A CRD needs spec changes that are not automated: the fix is partial, not preferred, and says what is left.
  assert.equal(crd.fixes.length, 1);
  assert.equal(crd.fixes[0].preferred, false);
  assert.equal(crd.fixes[0].partial, true);
  assert.match(crd.fixes[0].title, /partial: .*openAPIV3Schema/);

  const dep = analyze('/w/crd.yaml', read('calico-02-crd-ippool.yaml'), '1.18..1.21').diagnostics[0];
  assert.equal(dep.severity, 'warning');
  assert.match(dep.message, /deprecated from Kubernetes 1\.16 and removed in 1\.22 \(window 1\.18\.\.1\.21\); move to apiextensions\.k8s\.io\/v1/);

  const nginx = analyze('/w/mandatory.yaml', read('ingress-nginx-0.20.0-mandatory.yaml'), '1.19..1.21').diagnostics;
  const first = nginx.find((d) => d.range.start.line === 7);
  assert.match(first.message, /^extensions\/v1beta1 Deployment was removed in Kubernetes 1\.16: no version of the window 1\.19\.\.1\.21 serves it; use apps\/v1/);
  const rbac = nginx.find((d) => d.range.start.line === 110);
  assert.match(rbac.message, /^rbac\.authorization\.k8s\.io\/v1beta1 ClusterRole is deprecated from Kubernetes 1\.17 and removed in 1\.22/);
  assert.deepEqual(rbac.fixes.map((f) => [f.title, f.preferred, !!f.partial]), [['Convert to rbac.authorization.k8s.io/v1', true, false]]);

  const vwc = analyze('/w/deploy.yaml', read('ingress-nginx-0.34.1-baremetal-deploy.yaml'), '1.25').diagnostics[0];
  assert.match(vwc.message, /^admissionregistration\.k8s\.io\/v1beta1 ValidatingWebhookConfiguration was removed in Kubernetes 1\.22: no version of the window 1\.25 serves it/);

  const helm = analyze('/w/kdd-crds.yaml', read('calico-kdd-crds.helm.yaml'), '1.21..1.22').diagnostics.find((d) => d.ruleId === 'helm/not-evaluated');
  assert.equal(helm.severity, 'info');
  // At the `{{- if … -}}` action whose condition needs the chart's values.
  assert.deepEqual([helm.range.start, helm.range.end], [{ line: 0, character: 0 }, { line: 0, character: 44 }]);
});

test('upstream: applying every preferred complete fix (as --fix does) converts what can be converted', () => {
  const cases = {
    // Everything converts: the Deployments keep their selector, RBAC only changes apiVersion.
    'ingress-nginx-0.20.0-mandatory.yaml': [],
    // The webhook configuration's only fix is partial (sideEffects/admissionReviewVersions): nothing is
    // applied, it is left for a person.
    'ingress-nginx-0.34.1-baremetal-deploy.yaml': ['k8s/removed-api @ 400:13'],
    // The CRD's fix is partial; the DaemonSets get a selector from their template labels.
    'multus-daemonset-pre-1.16.yml': ['k8s/removed-api @ 2:13'],
  };
  for (const [file, left] of Object.entries(cases)) {
    // The copies keep no comments (test/fixtures/SOURCES.md), so comments are added here: one after every top-level
    // apiVersion/kind/metadata/spec key (the findings keep their positions) and a last line, each numbered.
    let n = 0;
    const text = `${read(file).replace(/^(apiVersion|kind|metadata|spec):.*$/gm, (l) => `${l} # c${++n}`)}# c${++n} the end\n`;
    assert.ok(n > 10, `${file}: comments added`);
    const r = analyze(`/w/${file}`, text, '1.21..1.22');
    const edits = r.diagnostics.flatMap((d) => (d.fixes ?? []).filter((f) => f.preferred && !f.partial).slice(0, 1).flatMap((f) => f.edits));
    const out = applyEdits(text, edits);
    assert.equal(out === text, file === 'ingress-nginx-0.34.1-baremetal-deploy.yaml', `${file}: changed exactly when a complete fix exists`);
    const docs = YAML.parseAllDocuments(out, { version: '1.1' });
    assert.deepEqual(docs.flatMap((d) => d.errors.map((e) => e.message)), [], `${file} still parses`);
    assert.deepEqual(findings(analyze(`/w/${file}`, out, '1.21..1.22').diagnostics), left, file);
    // Comments survive.
    assert.deepEqual(out.match(/# c\d+\b.*$/gm), text.match(/# c\d+\b.*$/gm), `${file}: every comment kept, in order`);
    if (file.startsWith('multus')) {
      const ds = docs.map((d) => d.toJS()).filter((o) => o?.kind === 'DaemonSet');
      assert.equal(ds.length, 2);
      for (const o of ds) {
        assert.equal(o.apiVersion, 'apps/v1');
        assert.deepEqual(o.spec.selector, { matchLabels: { tier: 'node', app: 'multus' } });
        assert.deepEqual(o.spec.updateStrategy, { type: 'RollingUpdate' }, 'an explicit strategy is kept as it is');
      }
    }
  }
});
