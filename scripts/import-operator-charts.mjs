#!/usr/bin/env node
// Importer (npm run gen:data): writes data/operators/charts.json, what the version an operator's workspace pins is read
// from (issue #31 item 3): per operator (the 14 of ../shared/reference/operators), the Helm charts that install it (name,
// repository URLs, OCI reference, the usual `repo/chart` alias) and how a chart version becomes an operator version
// (`map`: a table read from the chart's Chart.yaml at every chart tag; `equals`: the chart version is the operator
// version; `none`: the chart pins no operator version, e.g. a CRD-only chart), the image repositories whose tag is the
// operator version, the release-manifest / kustomize URL patterns whose tag is the operator version, and the releases
// the lifecycle data read (the latest patch per minor: what a version range like `1.x` can reach).
//
// Read (../shared/reference/operators, SOURCES.md): crd-lifecycle.json and crd-lifecycle-b.json (each operator's
// `repo`, `releaseIds`, `releases[].tag` and `pinning`), chart-app-versions.json and chart-app-versions-b.json (chart
// version -> appVersion rows with the git tag each was read at). The reference's `pinning` strings are prose; the
// machine form of each (image match, URL pattern) is written below in own words, and the script fails when a
// reference entry is not covered by one of them (or explicitly left out, with why) or when one below names an entry the
// reference does not have. Every row cites its source: a chart map row its git tag (at the chart's repo/chartPath),
// a pattern the reference string it stands for.
// Output is deterministic (fixed order, compact rows, trailing newline). Sanity checks throw.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceOf } from './lib/reference.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('operators'));
const outFile = path.join(repoRoot, 'data', 'operators', 'charts.json');

function fail(msg) { throw new Error(`import-operator-charts: ${msg}`); }
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(refDir, rel), 'utf8'));

const lifecycleA = readJson('crd-lifecycle.json');
const lifecycleB = readJson('crd-lifecycle-b.json');
const chartsA = readJson('chart-app-versions.json');
const chartsB = readJson('chart-app-versions-b.json');

const OPERATORS = ['cert-manager', 'external-secrets', 'prometheus-operator', 'argo-cd', 'kyverno', 'istio', 'traefik', 'keda', 'velero', 'cilium', 'tekton-pipelines', 'crossplane', 'knative-serving', 'argo-rollouts'];
const lifecycleOf = (id) => ({ ...(lifecycleA.operators[id] ? { file: 'crd-lifecycle.json', op: lifecycleA.operators[id] } : { file: 'crd-lifecycle-b.json', op: lifecycleB.operators[id] }) });
{
  const all = [...Object.keys(lifecycleA.operators), ...Object.keys(lifecycleB.operators)].sort();
  if (all.join(',') !== [...OPERATORS].sort().join(',')) fail(`operators changed: ${all}`);
}

/** "v1.14.2" / "1.14.2" -> "1.14.2"; a pre-release or anything else: null (no operator version). */
function plainVersion(s) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(String(s).trim());
  return m ? `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}` : null;
}

// ---------------------------------------------------------------------------------------------
// How each chart's version becomes the operator version. `rule`: map (rows of the chart table named `table`), equals
// (chart version = operator version; `vPrefix`: the chart's versions carry a leading v), none (pins nothing). The
// reference's chartVersion text each rule stands for is checked to say so (`says`).
const CHART_RULES = {
  'cert-manager': { 'cert-manager': { rule: 'equals', vPrefix: true, says: /equals the cert-manager version, v-prefixed/ } },
  'external-secrets': { 'external-secrets': { rule: 'map', table: 'external-secrets', says: /chart-app-versions\.json/ } },
  'prometheus-operator': {
    'kube-prometheus-stack': { rule: 'map', table: 'kube-prometheus-stack', says: /appVersion = prometheus-operator version/ },
    'prometheus-operator-crds': { rule: 'map', table: 'prometheus-operator-crds', says: /appVersion = prometheus-operator version/ },
  },
  'argo-cd': { 'argo-cd': { rule: 'map', table: 'argo-cd', says: /appVersion = Argo CD version/ } },
  kyverno: { kyverno: { rule: 'map', table: 'kyverno', says: /exact rows in chart-app-versions\.json/ } },
  // The other Istio charts (istiod, gateway, cni, ztunnel) share the rule (the reference's chartVersion text names them).
  istio: { base: { rule: 'equals', says: /equals the Istio version \(also istio\/istiod, istio\/gateway, istio\/cni, istio\/ztunnel\)/, alsoCharts: ['istiod', 'gateway', 'cni', 'ztunnel'] } },
  traefik: {
    traefik: { rule: 'map', table: 'traefik', says: /appVersion in chart-app-versions-b\.json/ },
    'traefik-crds': { rule: 'none', says: /no appVersion/, why: 'a CRD-only chart with its own versions and no appVersion: it pins no Traefik version' },
  },
  keda: { keda: { rule: 'map', table: 'keda', says: /chart-app-versions-b\.json/ } },
  velero: { velero: { rule: 'map', table: 'velero', says: /chart-app-versions-b\.json/ } },
  cilium: { cilium: { rule: 'equals', says: /equals the Cilium version/ } },
  'tekton-pipelines': {},
  crossplane: { crossplane: { rule: 'equals', says: /equals the Crossplane version/ } },
  'knative-serving': {},
  'argo-rollouts': { 'argo-rollouts': { rule: 'map', table: 'argo-rollouts', says: /chart-app-versions-b\.json/ } },
};

// Image repositories whose tag is the operator version. `repo`: the normalized repository (registry/path, Docker Hub
// as docker.io, its official images under library/); a workspace image matches it exactly or behind a mirror's prefix
// (`registry.local:9001/quay.io/jetstack/cert-manager-controller`). `path`: the repository path under any registry
// (Kyverno's chart moved its registry from ghcr.io to reg.kyverno.io). `prefix`: a repository prefix (a family of
// images: cilium's operator-<cloud>, Tekton's cmd/*). Each names the reference entry (`from`, a prefix of it) it reads.
// `skip`: a reference entry that pins no operator version by a tag, with why.
const IMAGES = {
  'cert-manager': [
    ...['controller', 'webhook', 'cainjector', 'acmesolver', 'startupapicheck'].map((c) => ({ repo: `quay.io/jetstack/cert-manager-${c}`, from: `quay.io/jetstack/cert-manager-${c}` })),
  ],
  'external-secrets': [{ repo: 'ghcr.io/external-secrets/external-secrets', from: 'ghcr.io/external-secrets/external-secrets' }],
  'prometheus-operator': [
    { repo: 'quay.io/prometheus-operator/prometheus-operator', from: 'quay.io/prometheus-operator/prometheus-operator' },
    { repo: 'quay.io/prometheus-operator/prometheus-config-reloader', from: 'quay.io/prometheus-operator/prometheus-config-reloader' },
  ],
  'argo-cd': [
    { repo: 'quay.io/argoproj/argocd', from: 'quay.io/argoproj/argocd' },
    { repo: 'docker.io/argoproj/argocd', from: 'quay.io/argoproj/argocd (argoproj/argocd on Docker Hub for 1.x)' },
  ],
  kyverno: [
    { path: 'kyverno/kyverno', from: '<registry>/kyverno/kyverno' },
    { path: 'kyverno/kyvernopre', from: 'kyverno/kyvernopre' },
    { path: 'kyverno/background-controller', from: 'kyverno/background-controller' },
    { path: 'kyverno/cleanup-controller', from: 'kyverno/cleanup-controller' },
    { path: 'kyverno/reports-controller', from: 'kyverno/reports-controller' },
    { skip: 'chart default registry', why: 'says which registry the chart uses (ghcr.io up to 1.13, reg.kyverno.io from 1.14): the kyverno/* paths above match under any registry' },
  ],
  istio: [
    { repo: 'docker.io/istio/pilot', from: 'docker.io/istio/pilot' },
    { repo: 'docker.io/istio/proxyv2', from: 'docker.io/istio/proxyv2' },
    { repo: 'gcr.io/istio-release/pilot', from: 'docker.io/istio/proxyv2 (also gcr.io/istio-release/*)' },
    { repo: 'gcr.io/istio-release/proxyv2', from: 'docker.io/istio/proxyv2 (also gcr.io/istio-release/*)' },
  ],
  traefik: [
    { repo: 'docker.io/traefik', from: 'docker.io/traefik' },
    { repo: 'docker.io/library/traefik', from: 'docker.io/traefik (tag vX.Y.Z; also the Docker official image library/traefik)' },
  ],
  keda: [
    { repo: 'ghcr.io/kedacore/keda', from: 'ghcr.io/kedacore/keda' },
    { repo: 'ghcr.io/kedacore/keda-metrics-apiserver', from: 'ghcr.io/kedacore/keda-metrics-apiserver' },
    { repo: 'ghcr.io/kedacore/keda-admission-webhooks', from: 'ghcr.io/kedacore/keda-admission-webhooks' },
  ],
  velero: [
    { repo: 'docker.io/velero/velero', from: 'docker.io/velero/velero' },
    { skip: 'velero/velero-plugin-for-<provider>', why: 'the plugins have their own versions' },
  ],
  cilium: [
    { repo: 'quay.io/cilium/cilium', from: 'quay.io/cilium/cilium' },
    { prefix: 'quay.io/cilium/operator-', from: 'quay.io/cilium/operator-<cloud>' },
  ],
  'tekton-pipelines': [
    { prefix: 'gcr.io/tekton-releases/github.com/tektoncd/pipeline/cmd/', from: 'gcr.io/tekton-releases/github.com/tektoncd/pipeline/cmd/controller (and cmd/webhook, cmd/entrypoint, ...)' },
    { prefix: 'ghcr.io/tektoncd/pipeline/', from: 'ghcr.io/tektoncd/pipeline/... (newer releases)' },
  ],
  crossplane: [
    { repo: 'xpkg.crossplane.io/crossplane/crossplane', from: 'xpkg.crossplane.io/crossplane/crossplane' },
    { repo: 'docker.io/crossplane/crossplane', from: 'xpkg.crossplane.io/crossplane/crossplane (docker.io crossplane/crossplane in older charts)' },
  ],
  'knative-serving': [
    { skip: 'gcr.io/knative-releases/knative.dev/serving/cmd/<component>@sha256', why: 'released YAML refers to the images by digest: a digest pins no version a workspace can read' },
  ],
  'argo-rollouts': [
    { repo: 'quay.io/argoproj/argo-rollouts', from: 'quay.io/argoproj/argo-rollouts' },
    { repo: 'quay.io/argoproj/kubectl-argo-rollouts', from: 'quay.io/argoproj/kubectl-argo-rollouts' },
  ],
};

// Release-manifest and kustomize remote URLs whose tag is the operator version. `pattern`: the reference's URL with the
// version as {v} (the whole tag, its `v` and any `knative-` prefix included where the URL has them); `ref`: a kustomize
// remote base (`…?ref=vX.Y.Z`); `minor`: the URL names only the minor (Traefik's docs branch v3.N). `skip`: a reference
// entry that is no URL (a CLI, an operator CR), with why.
const MANIFESTS = {
  'cert-manager': [
    { pattern: 'github.com/cert-manager/cert-manager/releases/download/v{v}/', from: 'https://github.com/cert-manager/cert-manager/releases/download/vX.Y.Z/cert-manager.yaml' },
  ],
  'external-secrets': [
    { pattern: 'raw.githubusercontent.com/external-secrets/external-secrets/v{v}/', from: 'https://raw.githubusercontent.com/external-secrets/external-secrets/vX.Y.Z/deploy/crds/bundle.yaml' },
  ],
  'prometheus-operator': [
    { pattern: 'github.com/prometheus-operator/prometheus-operator/releases/download/v{v}/', from: 'https://github.com/prometheus-operator/prometheus-operator/releases/download/vX.Y.Z/bundle.yaml' },
    { pattern: 'github.com/prometheus-operator/prometheus-operator', ref: true, from: 'kustomize: github.com/prometheus-operator/prometheus-operator?ref=vX.Y.Z' },
    { skip: 'kube-prometheus', why: 'kube-prometheus release-0.N branches name no prometheus-operator release' },
  ],
  'argo-cd': [
    { pattern: 'raw.githubusercontent.com/argoproj/argo-cd/v{v}/', from: 'https://raw.githubusercontent.com/argoproj/argo-cd/vX.Y.Z/manifests/install.yaml' },
    { pattern: 'github.com/argoproj/argo-cd/manifests/', ref: true, from: 'kustomize: https://github.com/argoproj/argo-cd/manifests/cluster-install?ref=vX.Y.Z' },
  ],
  kyverno: [
    { pattern: 'github.com/kyverno/kyverno/releases/download/v{v}/', from: 'https://github.com/kyverno/kyverno/releases/download/vX.Y.Z/install.yaml' },
  ],
  istio: [
    { skip: 'istioctl install', why: 'a CLI run, not a file of the workspace' },
    { skip: 'revision labels', why: 'a revision label names a revision, which need not be a version' },
  ],
  traefik: [
    { pattern: 'raw.githubusercontent.com/traefik/traefik/v{v}/docs/content/reference/dynamic-configuration/', minor: true, from: 'https://raw.githubusercontent.com/traefik/traefik/v3.N/docs/content/reference/dynamic-configuration/kubernetes-crd-definition-v1.yml' },
  ],
  keda: [{ skip: 'GitHub release assets of kedacore/keda', why: 'not read by the reference' }],
  velero: [{ skip: 'velero install', why: 'a CLI run, not a file of the workspace' }],
  cilium: [{ skip: 'cilium install', why: 'a CLI run, not a file of the workspace' }],
  'tekton-pipelines': [
    { pattern: 'storage.googleapis.com/tekton-releases/pipeline/previous/v{v}/', from: 'https://storage.googleapis.com/tekton-releases/pipeline/previous/vX.Y.Z/release.yaml' },
    { pattern: 'infra.tekton.dev/tekton-releases/pipeline/previous/v{v}/', from: 'https://infra.tekton.dev/tekton-releases/pipeline/previous/vX.Y.Z/release.yaml' },
    { skip: 'Tekton Operator', why: 'the Tekton Operator has its own versions (not read)' },
  ],
  crossplane: [],
  'knative-serving': [
    { pattern: 'github.com/knative/serving/releases/download/knative-v{v}/', from: 'https://github.com/knative/serving/releases/download/knative-vX.Y.Z/serving-crds.yaml' },
    { skip: 'Knative Operator', why: 'a KnativeServing CR of the Knative Operator (spec.version): not read yet' },
  ],
  'argo-rollouts': [
    { pattern: 'github.com/argoproj/argo-rollouts/releases/download/v{v}/', from: 'https://github.com/argoproj/argo-rollouts/releases/download/vX.Y.Z/install.yaml' },
    { pattern: 'github.com/argoproj/argo-rollouts/manifests/', ref: true, from: 'kustomize: https://github.com/argoproj/argo-rollouts/manifests/cluster-install?ref=vX.Y.Z' },
  ],
};

// ---------------------------------------------------------------------------------------------
const tables = { ...chartsA.charts, ...chartsB.charts };
const tableFile = (name) => (chartsA.charts[name] ? 'chart-app-versions.json' : 'chart-app-versions-b.json');

/** A chart table's rows, one per chart version: [chartVersion, operatorVersion, gitTags]. Duplicate chart versions
 *  (a tag re-released with the same Chart.yaml) merge their tags; a duplicate with another appVersion fails. A row
 *  whose appVersion is no release (a pre-release) keeps null: that chart version pins no release. */
function chartRows(name) {
  const t = tables[name];
  if (!t) fail(`no chart table ${name}`);
  const cols = t.columns.join(',');
  if (cols !== 'chartVersion,appVersion,gitTag') fail(`${name}: columns ${cols}`);
  const by = new Map();
  for (const r of t.rows) {
    const [chart, app, tag] = r;
    const v = plainVersion(app);
    const key = chart.replace(/^v/, '');
    const hit = by.get(key);
    if (hit) {
      if (hit[1] !== v) fail(`${name}: chart ${chart} has two appVersions (${hit[1]}, ${v})`);
      hit[2] = `${hit[2]} ${tag}`;
      continue;
    }
    by.set(key, [chart, v, tag]);
  }
  const out = [...by.values()];
  // By chart version (Helm's order), so that a range's lowest and highest admitted rows are the ends.
  const num = (s) => s.replace(/^v/, '').split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  out.sort((a, b) => {
    const x = num(a[0]), y = num(b[0]);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (x[i] === y[i]) continue;
      if (x[i] === undefined) return -1;
      if (y[i] === undefined) return 1;
      return typeof x[i] === 'number' && typeof y[i] === 'number' ? x[i] - y[i] : String(x[i]) < String(y[i]) ? -1 : 1;
    }
    return 0;
  });
  return out;
}

const operators = {};
const chartsOut = {};
for (const id of OPERATORS) {
  const { file, op } = lifecycleOf(id);
  const pin = op.pinning;
  if (!pin) fail(`${id}: no pinning in ${file}`);
  const source = `${file} operators["${id}"].pinning`;
  // Charts.
  const rules = CHART_RULES[id];
  const refCharts = pin.helm ?? [];
  if (Object.keys(rules).sort().join(',') !== refCharts.map((h) => h.chart).sort().join(',')) fail(`${id}: charts ${refCharts.map((h) => h.chart)} vs rules ${Object.keys(rules)}`);
  const charts = [];
  for (const h of refCharts) {
    const r = rules[h.chart];
    if (!r.says.test(h.chartVersion)) fail(`${id}/${h.chart}: the reference's chartVersion "${h.chartVersion}" does not say ${r.says}`);
    const repoUrls = [h.repoUrl.replace(/\/+$/, '')];
    for (const name of [h.chart, ...(r.alsoCharts ?? [])]) {
      const row = { chart: name, repoUrls, ...(h.oci ? { oci: h.oci.replace(/\/[^/]+$/, `/${name}`) } : {}), alias: h.alias.replace(/\/[^/]+$/, `/${name}`), rule: r.rule, ...(r.vPrefix ? { vPrefix: true } : {}), ...(r.table ? { table: r.table } : {}), ...(r.why ? { why: r.why } : {}), says: h.chartVersion, source };
      charts.push(row);
      if (r.table && !chartsOut[r.table]) {
        const t = tables[r.table];
        chartsOut[r.table] = { repo: t.repo, chartPath: t.chartPath, snapshotHead: t.snapshotHead, source: `${tableFile(r.table)} charts["${r.table}"]`, rows: chartRows(r.table) };
      }
    }
  }
  // Images.
  const images = [];
  const refImages = pin.images ?? [];
  for (const e of IMAGES[id]) {
    const hit = refImages.find((x) => x.startsWith(e.from ?? e.skip));
    if (!hit) fail(`${id}: image entry "${e.from ?? e.skip}" is not in the reference (${refImages.join(' | ')})`);
    images.push(e.skip ? { skip: hit, why: e.why } : { ...(e.repo ? { repo: e.repo } : e.path ? { path: e.path } : { prefix: e.prefix }), from: hit });
  }
  for (const x of refImages) if (!IMAGES[id].some((e) => x.startsWith(e.from ?? e.skip))) fail(`${id}: reference image "${x}" is not covered`);
  // Manifest / kustomize URLs.
  const manifests = [];
  const refManifests = pin.manifests ?? [];
  for (const e of MANIFESTS[id]) {
    const key = e.from ?? e.skip;
    const hit = refManifests.find((x) => x.startsWith(key) || x.includes(key));
    if (!hit) fail(`${id}: manifest entry "${key}" is not in the reference (${refManifests.join(' | ')})`);
    manifests.push(e.skip ? { skip: hit, why: e.why } : { pattern: e.pattern, ...(e.ref ? { ref: true } : {}), ...(e.minor ? { minor: true } : {}), from: hit });
  }
  // A reference URL is covered when a pattern matches it with its placeholder version (vX.Y.Z, v3.N) as {v}.
  const asPattern = (x) => x.replace(/^kustomize:\s*/, '').replace(/^https:\/\//, '').replace(/X\.Y\.Z|3\.N/, '{v}');
  for (const x of refManifests) if (!MANIFESTS[id].some((e) => (e.skip ? x.includes(e.skip) : asPattern(x).startsWith(e.pattern)))) fail(`${id}: reference manifest "${x}" is not covered`);
  for (const e of MANIFESTS[id]) if (e.pattern && !asPattern(e.from).startsWith(e.pattern)) fail(`${id}: pattern ${e.pattern} does not match its reference entry ${e.from}`);
  // The releases the lifecycle data read: a range (chart `1.x`, image tag `v1.14`) reaches these.
  const releases = op.releaseIds.map((r) => [r, op.releases[r].tag]);
  operators[id] = { repo: op.repo, charts, images, manifests, releases, source };
}

// Spot checks of the tables against the reference's own summary lines (SOURCES.md): they fail when a row moves.
const rowOf = (t, v) => chartsOut[t].rows.find((r) => r[0].replace(/^v/, '') === v);
if (rowOf('traefik', '28.0.0')?.[1] !== '3.0.0') fail('traefik chart 28.0.0 is not Traefik 3.0.0');
if (rowOf('kyverno', '3.9.0')?.[1] !== '1.19.0') fail('kyverno chart 3.9.0 is not Kyverno 1.19.0');

const out = {
  asOf: lifecycleA.readDate,
  description: 'Where a workspace pins an operator version (issue #31 item 3): Helm charts (chart -> operator version), image repositories and manifest URLs, per operator. Generated by scripts/import-operator-charts.mjs from ../shared/reference/operators (crd-lifecycle*.json pinning, chart-app-versions*.json).',
  legend: {
    'charts[].rule': 'map: the chart version is looked up in chartTables[table].rows; equals: the chart version is the operator version (vPrefix: written with a leading v); none: the chart pins no operator version (why)',
    'charts[].oci': 'the chart\'s OCI reference (oci://registry/path/chart), when the reference names one',
    'images[]': 'repo: a normalized repository (registry/path; Docker Hub = docker.io, official images under library/), matched exactly or behind a mirror prefix; path: the repository path under any registry; prefix: a repository prefix; skip: a reference entry that pins no version by tag',
    'manifests[]': 'pattern: a URL with the operator version as {v} (https:// left out); ref: a kustomize remote base whose ?ref= is the tag; minor: the URL names only the minor; skip: a reference entry that is no URL',
    releases: '[release id, tag of its latest patch] as the lifecycle data read them (crd-lifecycle*.json releaseIds)',
    'chartTables[].rows': '[chart version as published, operator version (null: a pre-release appVersion), the git tags it was read at (space separated)] in chart version order; source: the chart\'s repo/chartPath at each tag',
  },
  operators,
  chartTables: chartsOut,
};
fs.mkdirSync(path.dirname(outFile), { recursive: true });
// Compact: one row per line in the chart tables (the file is read by the engine, and diffs stay per row).
let json = JSON.stringify(out, null, 1);
json = json.replace(/\[\n\s+("[^"\n]*"|null),\n\s+("[^"\n]*"|null),\n\s+("[^"\n]*")\n\s+\]/g, '[$1, $2, $3]');
json = json.replace(/\[\n\s+("[^"\n]*"),\n\s+("[^"\n]*")\n\s+\]/g, '[$1, $2]');
fs.writeFileSync(outFile, `${json}\n`);
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${OPERATORS.length} operators, ${Object.keys(chartsOut).length} chart tables (${Object.values(chartsOut).reduce((n, t) => n + t.rows.length, 0)} rows)`);
