// Issue #31 item 3: the operator versions a workspace pins. data/operators/charts.json (scripts/import-operator-charts.mjs)
// spot-checked against the reference's chart tables, and engine/components/operator-pins.ts read on real-shaped files
// (comments, quoted scalars, CRLF, several documents): a chart dependency, a Flux HelmRelease through its HelmRepository
// or OCIRepository, an Argo CD Application / ApplicationSet, kustomize remote URLs and images:, a workload's image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine } from './helpers/k8s.mjs';

const o = engine.operatorPins;
const ref = path.join(repoRoot, '..', 'shared', 'reference', 'operators');
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'operators', 'charts.json'), 'utf8'));
const pinsOf = (files) => o.pinsOf(files.map(([file, text]) => o.scanFilePins(file, text)));
const short = (p) => `${p.operator} ${p.version} @ ${p.file}:${p.line}`;

test('the chart maps agree with the reference tables (Traefik 28 → 3.0, kube-prometheus-stack, Kyverno 3.9 → 1.19)', { skip: !fs.existsSync(ref) && 'no reference folder' }, () => {
  const a = JSON.parse(fs.readFileSync(path.join(ref, 'chart-app-versions.json'), 'utf8'));
  const b = JSON.parse(fs.readFileSync(path.join(ref, 'chart-app-versions-b.json'), 'utf8'));
  const refRow = (t, v) => ({ ...a.charts, ...b.charts })[t].rows.find((r) => r[0] === v);
  const row = (t, v) => data.chartTables[t].rows.find((r) => r[0] === v);
  // Traefik chart 28.x is Traefik 3.0.x (SOURCES.md: "28.x: v3.0.0..v3.0.2").
  for (const v of ['28.0.0', '28.1.0', '28.2.0', '28.3.0']) assert.match(row('traefik', v)[1], /^3\.0\.\d+$/, v);
  assert.equal(row('traefik', '27.0.2')[1], '2.11.2');
  // kube-prometheus-stack: the newest row of the reference, and one in the middle, with the tag it was read at.
  for (const v of ['88.5.3', '45.0.0']) {
    const r = refRow('kube-prometheus-stack', v);
    assert.deepEqual(row('kube-prometheus-stack', v), [v, r[1].replace(/^v/, ''), r[2]]);
  }
  // Kyverno chart 3.9 → 1.19 (the 4th column of the reference, the kyverno-api subchart, is not a pin).
  assert.equal(row('kyverno', '3.9.0')[1], '1.19.0');
  assert.equal(row('kyverno', 'v2.2.1')[2], 'helm-chart-v.2.2.1 helm-chart-v2.2.1', 'a chart version released under two tags keeps both');
  // A pre-release appVersion pins no release.
  assert.equal(row('kyverno', 'v2.1.0')[1], null);
  // Every operator of the issue, each chart with its rule, each map row citing its tag.
  assert.deepEqual(Object.keys(data.operators).sort(), ['argo-cd', 'argo-rollouts', 'cert-manager', 'cilium', 'crossplane', 'external-secrets', 'istio', 'keda', 'knative-serving', 'kyverno', 'prometheus-operator', 'tekton-pipelines', 'traefik', 'velero']);
  assert.equal(data.operators['cert-manager'].charts[0].rule, 'equals');
  assert.equal(data.operators.istio.charts.map((c) => c.chart).join(','), 'base,istiod,gateway,cni,ztunnel');
  assert.equal(data.operators.traefik.charts.find((c) => c.chart === 'traefik-crds').rule, 'none');
  for (const t of Object.values(data.chartTables)) for (const r of t.rows) assert.ok(r[2].length > 0, `${t.chartPath} ${r[0]} cites its tag`);
});

test('chart versions become operator versions; a range is a window', () => {
  const tr = o.chartOf('traefik', 'https://traefik.github.io/charts/');
  assert.equal(tr.operator, 'traefik');
  assert.deepEqual(o.operatorVersionsOfChart('traefik', tr.chart, '28.0.0').versions, ['3.0.0']);
  const range = o.operatorVersionsOfChart('traefik', tr.chart, '28.x');
  assert.deepEqual(range.versions, ['3.0.0', '3.0.2']);
  assert.equal(range.range, true);
  assert.match(o.operatorVersionsOfChart('traefik', tr.chart, '99.0.0'), /not in the chart map/);
  const cm = o.chartOf('cert-manager', 'oci://quay.io/jetstack/charts');
  assert.equal(cm.operator, 'cert-manager');
  assert.deepEqual(o.operatorVersionsOfChart('cert-manager', cm.chart, 'v1.14.2').versions, ['1.14.2']);
  assert.deepEqual(o.operatorVersionsOfChart('cert-manager', cm.chart, '1.x').versions, ['1.0.4', '1.21.1'], 'the latest patches of the releases the data read');
  assert.deepEqual(o.operatorVersionsOfChart('cert-manager', cm.chart, '>=1.13.0 <1.16.0').versions, ['1.13.6', '1.15.5']);
  // Repositories: alias, Argo CD's OCI form without a scheme, an unknown mirror (no pin), a generic name with no repository.
  assert.equal(o.chartOf('kyverno', '@kyverno')?.operator, 'kyverno');
  assert.equal(o.chartOf('cert-manager', 'quay.io/jetstack/charts')?.operator, 'cert-manager');
  assert.equal(o.chartOf('cert-manager', 'https://charts.example.com'), undefined);
  assert.equal(o.chartOf('base', undefined), undefined);
  assert.equal(o.chartOf('base', 'https://istio-release.storage.googleapis.com/charts')?.operator, 'istio');
});

test('images and URLs name operators under mirrors and registries', () => {
  assert.equal(o.operatorOfImage('quay.io/jetstack/cert-manager-controller'), 'cert-manager');
  assert.equal(o.operatorOfImage('registry.local:9001/quay.io/jetstack/cert-manager-webhook'), 'cert-manager');
  assert.equal(o.operatorOfImage('traefik'), 'traefik');
  assert.equal(o.operatorOfImage('docker.io/library/traefik'), 'traefik');
  assert.equal(o.operatorOfImage('mycompany/traefik'), undefined, 'another project\'s image of the same name');
  assert.equal(o.operatorOfImage('reg.kyverno.io/kyverno/kyverno'), 'kyverno');
  assert.equal(o.operatorOfImage('quay.io/cilium/operator-generic'), 'cilium');
  assert.equal(o.operatorOfImage('velero/velero-plugin-for-aws'), undefined, 'plugins have their own versions');
  assert.deepEqual(o.operatorOfUrl('https://github.com/cert-manager/cert-manager/releases/download/v1.14.2/cert-manager.yaml'), { operator: 'cert-manager', version: '1.14.2', tag: 'v1.14.2' });
  assert.deepEqual(o.operatorOfUrl('github.com/prometheus-operator/prometheus-operator?ref=v0.70.0'), { operator: 'prometheus-operator', version: '0.70.0', tag: 'v0.70.0' });
  assert.equal(o.operatorOfUrl('https://github.com/argoproj/argo-cd/manifests/cluster-install?ref=v2.10.4').version, '2.10.4');
  assert.equal(o.operatorOfUrl('https://github.com/knative/serving/releases/download/knative-v1.11.2/serving-crds.yaml').operator, 'knative-serving');
  assert.equal(o.operatorOfUrl('https://raw.githubusercontent.com/traefik/traefik/v3.1/docs/content/reference/dynamic-configuration/kubernetes-crd-definition-v1.yml').version, '3.1');
  assert.equal(o.operatorOfUrl('https://github.com/cert-manager/cert-manager/releases/latest/download/cert-manager.yaml'), undefined, 'latest pins nothing');
  assert.equal(o.versionOfTag('v1.19.0-distroless'), '1.19.0');
  assert.equal(o.versionOfTag('latest'), undefined);
});

test('every image rule of the data, looked up by its own repository, names its operator (the rules are prepared once)', () => {
  // The operator the rules of the data give for a repository, read from the data as it is (no preparation).
  const norm = o.normalizeRepository;
  const direct = (repository) => {
    const raw = repository.trim().toLowerCase(), n = norm(repository);
    for (const [operator, e] of Object.entries(data.operators)) {
      for (const i of e.images) {
        if (i.repo && (n === norm(i.repo) || raw.endsWith(`/${i.repo}`) || raw.endsWith(`/${norm(i.repo)}`))) return operator;
        if (i.path && n.endsWith(`/${i.path}`)) return operator;
        if (i.prefix && (n.startsWith(i.prefix) || raw.includes(`/${i.prefix}`))) return operator;
      }
    }
    return undefined;
  };
  const probes = [];
  for (const e of Object.values(data.operators)) {
    for (const i of e.images) {
      for (const r of [i.repo, i.path, i.prefix].filter(Boolean)) probes.push(r, `mirror.example:5000/${r}`, `docker.io/${r}`, `${r}-sidecar`, r.toUpperCase());
    }
  }
  assert.ok(probes.length > 50, `${probes.length} probes`);
  let named = 0;
  for (const r of probes) { const want = direct(r); assert.equal(o.operatorOfImage(r), want, r); if (want) named++; }
  assert.ok(named > probes.length / 3, `${named} of ${probes.length} probes name an operator`);
});

test('the pin prefilter finds the Flux, Argo CD and Kustomize groups wherever String.includes does', () => {
  const groups = ['toolkit.fluxcd.io', 'argoproj.io', 'kustomize.config.k8s.io'];
  const near = ['fluxcd.io', 'toolkit.fluxcd.i', 'xargoproj.io', 'argoproj.iox', 'config.k8s.io', 'kustomize.config.k8s.i', '.io.io', '..io', 'argoproj', '.io'];
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let k = 0; k < 3000; k++) {
    let text = '';
    for (let p = rnd(6); p >= 0; p--) {
      const pick = rnd(10);
      text += pick < 2 ? groups[rnd(3)] : pick < 7 ? near[rnd(near.length)] : ' apiVersion: v1\n'.slice(rnd(8));
    }
    const want = groups.some((g) => text.includes(g));
    assert.equal(o.namesPinGroup(text), want, JSON.stringify(text));
  }
});

const CHART = [
  '# the platform umbrella chart',
  'apiVersion: v2',
  'name: platform',
  'version: 1.0.0',
  'dependencies:',
  '  - name: external-secrets   # ESO',
  '    repository: "https://charts.external-secrets.io"',
  "    version: '0.17.0'",
  '  - name: cert-manager',
  '    repository: oci://quay.io/jetstack/charts',
  '    version: ~1.14.0',
  '  - name: local-thing',
  '    repository: file://../local-thing',
  '    version: 0.1.0',
  '',
].join('\r\n');

const FLUX = `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata:
  name: traefik
  namespace: flux-system
spec:
  interval: 1h
  url: https://traefik.github.io/charts
---
apiVersion: helm.toolkit.fluxcd.io/v2beta1
kind: HelmRelease
metadata:
  name: traefik
  namespace: traefik
spec:
  interval: 10m
  chart:
    spec:
      chart: traefik
      version: "28.0.0"
      sourceRef:
        kind: HelmRepository
        name: traefik
        namespace: flux-system
  values:
    image:
      tag: "{{ .Values.unused }}"
---
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: OCIRepository
metadata:
  name: cert-manager
  namespace: flux-system
spec:
  url: oci://quay.io/jetstack/charts/cert-manager
  ref:
    tag: v1.14.5
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: cert-manager
  namespace: cert-manager
spec:
  chartRef:
    kind: OCIRepository
    name: cert-manager
    namespace: flux-system
`;

const ARGO = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: monitoring
spec:
  template:
    metadata:
      name: '{{cluster}}-monitoring'
    spec:
      sources:
        - repoURL: https://prometheus-community.github.io/helm-charts
          chart: kube-prometheus-stack
          targetRevision: 88.5.3
        - repoURL: https://github.com/example/values.git
          targetRevision: main
          ref: values
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: kyverno
spec:
  source:
    repoURL: https://kyverno.github.io/kyverno/
    chart: kyverno
    targetRevision: 3.9.0
`;

const KUSTOMIZATION = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - https://github.com/cert-manager/cert-manager/releases/download/v1.14.2/cert-manager.yaml
  - github.com/prometheus-operator/prometheus-operator?ref=v0.70.0
  - ./local.yaml
images:
  - name: quay.io/jetstack/cert-manager-controller
    newTag: v1.14.2
  - name: ghcr.io/external-secrets/external-secrets
    newTag: latest
`;

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: velero
spec:
  template:
    spec:
      initContainers:
        - name: aws
          image: velero/velero-plugin-for-aws:v1.9.0
      containers:
        - name: velero
          image: "docker.io/velero/velero:v1.13.2"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: unrelated
data:
  image: docker.io/velero/velero:v1.2.0
`;

test('every kind of pin is read, at its 0-based line, with where it came from', () => {
  const r = pinsOf([['platform/Chart.yaml', CHART], ['flux/releases.yaml', FLUX], ['argo/apps.yaml', ARGO], ['base/kustomization.yaml', KUSTOMIZATION], ['deploy/velero.yaml', WORKLOAD]]);
  assert.deepEqual(r.pins.map(short), [
    'cert-manager 1.14.2 @ base/kustomization.yaml:3',
    'cert-manager 1.14.2 @ base/kustomization.yaml:8',
    'cert-manager 1.14.5 @ flux/releases.yaml:47',
    'cert-manager 1.14.7 @ platform/Chart.yaml:10',
    'external-secrets 0.17.0 @ platform/Chart.yaml:7',
    'kyverno 1.19.0 @ argo/apps.yaml:25',
    'prometheus-operator 0.93.1 @ argo/apps.yaml:12',
    'prometheus-operator 0.70.0 @ base/kustomization.yaml:4',
    'traefik 3.0.0 @ flux/releases.yaml:20',
    'velero 1.13.2 @ deploy/velero.yaml:12',
  ]);
  const eso = r.pins.find((p) => p.operator === 'external-secrets');
  assert.match(eso.detail, /^external-secrets 0\.17\.0 from platform\/Chart\.yaml dependencies: chart 0\.17\.0/);
  assert.match(r.pins.find((p) => p.operator === 'traefik').detail, /HelmRelease traefik: chart 28\.0\.0 → traefik 3\.0\.0 .*HelmRepository traefik https:\/\/traefik\.github\.io\/charts in flux\/releases\.yaml/);
  assert.match(r.pins.find((p) => p.file === 'platform/Chart.yaml' && p.operator === 'cert-manager').detail, /range ~1\.14\.0/);
  // What names an operator but pins no version is said, not dropped.
  assert.deepEqual(r.unresolved.map((u) => `${u.operator} @ ${u.file}:${u.line}`), ['external-secrets @ base/kustomization.yaml:10']);
  assert.match(r.unresolved[0].why, /newTag "latest" names no version/);
});

test('a HelmRelease whose HelmRepository is elsewhere: matched by a distinctive chart name, said so', () => {
  const release = FLUX.split('---\n')[2];
  const r = pinsOf([['apps/traefik.yaml', release]]);
  assert.deepEqual(r.pins.map(short), ['traefik 3.0.0 @ apps/traefik.yaml:10']);
  assert.match(r.pins[0].detail, /HelmRepository traefik not found in the workspace: matched by chart name/);
  // The HelmRepository of another namespace is not this release's source.
  const other = FLUX.split('---\n')[1].replace('namespace: flux-system', 'namespace: elsewhere').replace('traefik.github.io/charts', 'charts.example.com');
  assert.match(pinsOf([['a.yaml', other], ['b.yaml', release]]).pins[0].detail, /not found in the workspace/);
  // A HelmRepository of the same name at another URL: its chart is not the operator's.
  const mirror = FLUX.split('---\n')[1].replace('traefik.github.io/charts', 'charts.example.com');
  assert.deepEqual(pinsOf([['a.yaml', mirror], ['b.yaml', release]]).pins, []);
});

test('files that do not parse, hold templates or name no operator give no pin and no crash', () => {
  assert.deepEqual(pinsOf([['x/Chart.yaml', 'dependencies: [ {name: cert-manager'], ['t/templates/d.yaml', 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - image: {{ .Values.image }}\n'], ['a.json', '{}'], ['notes.txt', 'image: traefik:v3.0.0']]).pins, []);
  // A kustomization recognised by its apiVersion, whatever its name.
  assert.deepEqual(pinsOf([['k/overlay.yaml', KUSTOMIZATION]]).pins.map((p) => p.version), ['1.14.2', '1.14.2', '0.70.0']);
  // A BOM and a pin on the first line.
  assert.deepEqual(pinsOf([['k/kustomization.yaml', '\uFEFFresources: [https://github.com/kyverno/kyverno/releases/download/v1.12.5/install.yaml]\n']]).pins.map(short), ['kyverno 1.12.5 @ k/kustomization.yaml:0']);
});

test('pins that disagree: each place names the others; a range agrees with what it admits', () => {
  const r = pinsOf([['platform/Chart.yaml', CHART], ['flux/releases.yaml', FLUX], ['base/kustomization.yaml', KUSTOMIZATION]]);
  const d = o.disagreeingPins(r.pins).map((x) => `${short(x.pin)} vs ${x.others.map((y) => y.version).join(',')}`);
  // cert-manager: the Chart.yaml range ~1.14.0 admits every 1.14 pin; the kustomization's 1.14.2 (two places) and the
  // OCIRepository's 1.14.5 disagree with each other.
  assert.deepEqual(d, [
    'cert-manager 1.14.2 @ base/kustomization.yaml:3 vs 1.14.5',
    'cert-manager 1.14.2 @ base/kustomization.yaml:8 vs 1.14.5',
    'cert-manager 1.14.5 @ flux/releases.yaml:47 vs 1.14.2,1.14.2',
  ]);
  // Two ends of one range are one place: never reported against each other.
  const range = pinsOf([['c/Chart.yaml', 'apiVersion: v2\nname: c\nversion: 0.1.0\ndependencies:\n  - name: traefik\n    repository: https://traefik.github.io/charts\n    version: ">=27.0.0 <29.0.0"\n']]);
  assert.deepEqual(range.pins.map((p) => p.version), ['2.11.0', '3.0.2']);
  assert.deepEqual(o.disagreeingPins(range.pins), []);
  assert.equal(o.pinsAgree({ operator: 'x', version: '1.14', file: 'a', line: 0, detail: '' }, { operator: 'x', version: '1.14.3', file: 'b', line: 0, detail: '' }), true);
});
