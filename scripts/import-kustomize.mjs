#!/usr/bin/env node
// Importer of own-words tables (no network, no reference folder): writes data/kubernetes/kustomize.json, the facts the `kustomize` family
// checks a kustomization.yaml against: which kustomize each kubectl minor embeds (`kubectl apply -k`, `kubectl
// kustomize`) and, per kustomization field, the kustomize version that introduced, deprecated or stopped reading it,
// with its replacement.
//
// The facts below were read on 2026-12-01 from public upstream files through the search index (code at a commit,
// release notes, issue threads); each row cites where. There is no local reference folder for kustomize under
// ../shared/reference, so the facts are written here as own-words tables (no upstream code or prose copied).
// Where the sources did not say something, the row says so (`null` + `note`) instead of a guess:
//  * kubectl minors 1.28 and later: the kustomize version of the v1.X.0 tag could not be read (the index stores
//    kubectl's go.mod at the commits that changed it, not at the release tags). They are kustomize v5 (1.27 embeds
//    v5.0.1 and the newest stored kubectl go.mod requires sigs.k8s.io/kustomize/kustomize/v5 v5.8.1), so `major: 5`
//    and `atLeast: 5.0.1`, `version: null`. Facts that hold for every v5 release are checked there; facts that
//    depend on the exact v5 release (commonLabels' deprecation warning) are said as not vouched for.
//  * below 1.14 kubectl has no kustomize at all.
//  * fields added after v2.0.x whose first release no source names: `introduced: null`, with what the sources do
//    show as bounds: `notReadBy` (a release shown rejecting the field: it and every earlier one do not read it) and
//    `readBy` (a release shown reading it: it and every later one read it, as no field ever left
//    kustomize.config.k8s.io/v1beta1, see v500). Steps between the bounds are said as not checked, not passed.
// Facts were added after the first reading (2026-12-07): components (3.7.0), sortOptions (5.0.0), the bounds of
// replacements, buildMetadata and helmCharts.
// It runs with every other scripts/import-*.mjs under `npm run gen:data` (scripts/regen-data.mjs globs them), and
// test/data-fresh.test.mjs checks that data/kubernetes/kustomize.json is what it writes: edit the tables here and
// re-run it (`node scripts/import-kustomize.mjs`), never the JSON.
// Output is deterministic (fixed order, 2-space JSON, trailing newline). Sanity checks throw.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outFile = path.join(repoRoot, 'data', 'kubernetes', 'kustomize.json');

const SRC = {
  typesNow: { repo: 'kubernetes-sigs/kustomize', path: 'api/types/kustomization.go', commit: '04e51ad97bafe253f8860190c0e6f6e209a95620', what: 'the Kustomization struct (fields, `Deprecated:` comments), CheckDeprecatedFields (the build warnings), FixKustomization / FixKustomizationPreMarshalling (what `kustomize edit fix` does), Unmarshal with DisallowUnknownFields (an unknown field is an error)' },
  typesV2: { repo: 'kubernetes-sigs/kustomize', path: 'pkg/types/kustomization.go', commit: '004828a2889c235a3afdfc2d8093dec8de321bf6', what: 'a v2.0.x revision of the Kustomization struct (the v2.0.3 tag itself was not read): no labels/replacements/replicas/components/generators/transformers/…; `patches` is a deprecated list of strategic-merge file paths; `resources` takes files only' },
  labelsGo: { repo: 'kubernetes-sigs/kustomize', path: 'api/types/labels.go', commit: null, what: 'labelFromCommonLabels: commonLabels become one `labels` entry with the same pairs and includeSelectors: true (search-index copy, commit not shown)' },
  fixConvert: { repo: 'kubernetes-sigs/kustomize', path: 'kustomize/commands/edit/fix/convert.go', commit: '015d04bf06ff62c9d00fd4d1acd0ebfb431e0ee4', what: 'ConvertVarsToReplacements: rewrites the resource files ($(VAR) → VAR_PLACEHOLDER) and builds replacement targets from them: not an edit of the kustomization alone' },
  v210: { repo: 'kubernetes-sigs/kustomize', path: 'site/content/en/blog/releases/v2.1.0.md', commit: '27e970bae00fc0288c82362633addad213e9ada1', what: 'v2.1.0: `resources` generalised (takes what `bases` took: kustomization directories and URLs), `bases` deprecated; `replicas`, `inventory`, generator/transformer plugins added' },
  v310: { repo: 'kubernetes-sigs/kustomize', path: 'site/content/en/blog/releases/v3.1.0.md', commit: '27e970bae00fc0288c82362633addad213e9ada1', what: 'v3.1.0: extended patches (one strategic-merge or JSON patch applied to several targets: the `patches` field of path/patch + target)' },
  v500: { repo: 'GoogleCloudPlatform/microservices-demo', path: 'issue #1564', commit: null, what: 'quotes the kustomize v5.0.0 release notes (kubernetes-sigs/kustomize release kustomize/v5.0.0): patchesStrategicMerge, patchesJson6902, vars and imageTags deprecated; never removed from kustomize.config.k8s.io/v1beta1' },
  docs500: { repo: 'kubernetes-sigs/cli-experimental', path: 'pull request #289', commit: null, what: 'kustomize reference docs: "The patchesJson6902 field was deprecated in v5.0.0", "The vars field was deprecated in v5.0.0", "The bases field was deprecated in v2.1.0"' },
  labels410: { repo: 'kubernetes-sigs/kustomize', path: 'issue #3937', commit: null, what: '"The new labels feature introduced in 4.1.0 includes a boolean flag called includeSelectors"' },
  commonLabelsWarn: { repo: 'kubernetes-sigs/kueue', path: 'pull request #3091', commit: null, what: "2024-09-18: kustomize prints \"# Warning: 'commonLabels' is deprecated. Please use 'labels' instead.\"; the kustomize release that added the warning was not read (it is not in CheckDeprecatedFields at commit 04e51ad…)" },
  k121: { repo: 'kubernetes/kubernetes', path: 'Kubernetes v1.21.0 release notes (CHANGELOG/CHANGELOG-1.21.md, search-index copy), "Kustomize Updates in Kubectl" and Dependencies', commit: null, what: 'kustomize in kubectl jumped from v2.0.3 to v4.0.5 (kubernetes/kubernetes#98946); removed dependency sigs.k8s.io/kustomize v2.0.3+incompatible' },
  readmeTable: { repo: 'kubernetes-sigs/kustomize', path: 'README.md, "kubectl integration" table', commit: null, what: 'kubectl → kustomize: v1.14-v1.20 v2.0.3, v1.21 v4.0.5, v1.22 v4.2.0, v1.23 v4.4.1, v1.24 v4.5.4, v1.25 v4.5.7, v1.26 v4.5.7, v1.27 v5.0.1 (read from copies of the README in the search index; the upstream README stored there is an older revision without the table); the go.mod at the v1.X.0 tags could not be read' },
  components370: { repo: 'kubernetes-sigs/cli-experimental', path: 'site/content/en/guides/config_management/components.md', commit: '25c494211a0c8bfa3dcbdb23dd7bf4f6d848b7e4', what: 'kubectl.docs.kubernetes.io components guide: "As of v3.7.0" kustomize supports Components (kind: Component, included with the `components` field)' },
  sortOptionsDoc: { repo: 'kubernetes-sigs/cli-experimental', path: 'site/content/en/references/kustomize/kustomization/sortoptions/_index.md (pull request #306; page kubectl.docs.kubernetes.io/references/kustomize/kustomization/sortoptions)', commit: null, what: 'the sortOptions field "is available in kustomize v5.0.0+" (added by kubernetes-sigs/kustomize#4019)' },
  sortOptionsKf: { repo: 'kubeflow/community-distribution', path: 'issue #2388', commit: null, what: '2023-02-22: one kustomization.yaml cannot serve kustomize 5 and earlier releases, as `sortOptions` is read only by kustomize 5' },
  repl1277: { repo: 'kubernetes/kubectl', path: 'issue #1277', commit: null, what: '2022-09-11: `kubectl kustomize` of kubectl v1.21.4 (kustomize 4.0.5) fails with `json: unknown field "replacements"`; fixed by a newer kubectl' },
  repl4009: { repo: 'kubernetes-sigs/kustomize', path: 'issue #4009', commit: null, what: '2021-06-22: a kustomization with `replacements` built with kustomize 4.1.3; the maintainer answers about "the new `replacements` field" (the bug was in `edit set image`, not in reading the field)' },
  buildMetaDoc: { repo: 'kubernetes-sigs/cli-experimental', path: 'site/content/en/references/kustomize/kustomization/buildmetadata/_index.md', commit: '6ea0f91b8b13c8c8f7233d1fa537c1a7572e1223', what: 'buildMetadata reference: `buildMetadata: [managedByLabel]` built into the label app.kubernetes.io/managed-by: kustomize-v4.4.1 (kustomize 4.4.1 reads the field); the release that added it is not said' },
  helm4794: { repo: 'kubernetes-sigs/kustomize', path: 'issue #4794', commit: null, what: '2022-09-13: `kustomize build --enable-helm` of a kustomization with `helmCharts` renders the chart with kustomize 4.5.7 (the issue is the chart cache, not the field)' },
  helm3816: { repo: 'kubernetes-sigs/kustomize', path: 'issue #3816', commit: null, what: '2021-04-19: "The new `helmCharts` feature (#3784)": helmCharts/helmGlobals came with kubernetes-sigs/kustomize#3784; the release that first shipped it is not said' },
  openapiKep: { repo: 'kubernetes/enhancements', path: 'issue #2206', commit: null, what: 'the `openapi` kustomization field (kubernetes-sigs/kustomize#3617, #3621; the version form #3245): no kustomize release is named' },
  argo2701: { repo: 'argoproj/argo-events', path: 'issue #2701', commit: null, what: '`kubectl version --client`: Client Version v1.27.3, Kustomize Version v5.0.1' },
  kubectlHead: { repo: 'kubernetes/kubernetes', path: 'staging/src/k8s.io/kubectl/go.mod', commit: '008b3652959ca58af8be3fb5b6ecfe9ae7638282', what: 'newest stored kubectl go.mod (not a release tag): sigs.k8s.io/kustomize/kustomize/v5 v5.8.1, sigs.k8s.io/kustomize/api v0.21.1' },
};

// kubectl minor → the kustomize it embeds.
const KUBECTL = [
  { from: '1.0', to: '1.13', version: null, major: null, note: 'kubectl has no kustomize before 1.14: `kubectl apply -k` does not exist', sources: ['readmeTable'] },
  { from: '1.14', to: '1.20', version: '2.0.3', major: 2, sources: ['readmeTable', 'k121'] },
  { from: '1.21', to: '1.21', version: '4.0.5', major: 4, sources: ['readmeTable', 'k121'] },
  { from: '1.22', to: '1.22', version: '4.2.0', major: 4, sources: ['readmeTable'] },
  { from: '1.23', to: '1.23', version: '4.4.1', major: 4, sources: ['readmeTable'] },
  { from: '1.24', to: '1.24', version: '4.5.4', major: 4, sources: ['readmeTable'] },
  { from: '1.25', to: '1.26', version: '4.5.7', major: 4, sources: ['readmeTable'] },
  { from: '1.27', to: '1.27', version: '5.0.1', major: 5, sources: ['readmeTable', 'argo2701'] },
  { from: '1.28', to: null, version: null, major: 5, atLeast: '5.0.1', note: 'the go.mod of the v1.X.0 tags was not read: a kustomize v5 release, at least 5.0.1 (1.27) and at most 5.8.1 (the newest stored kubectl go.mod); the exact release is not in the data', sources: ['kubectlHead'] },
];

// Every field of the Kustomization struct now (typesNow), with what is known of its history.
// introduced: the kustomize version that first reads it ('1.0' = before v2, i.e. known to every kubectl kustomize);
// null = after v2.0.x but the exact release was not read: missing at v2 steps, missing up to `notReadBy` and read from
// `readBy` where a source shows that; at the steps in between kustomize/field-not-read says it is not checked. deprecated: the version whose build warns / documents it deprecated; replacement and fix say
// what replaces it and whether the change is mechanical.
const F = (name, o) => ({ name, introduced: '1.0', deprecated: null, replacement: null, fix: null, kind: null, sources: ['typesNow', 'typesV2'], ...o });
const FIELDS = [
  F('apiVersion', { kind: 'string', what: 'kustomize.config.k8s.io/v1beta1 for a Kustomization, kustomize.config.k8s.io/v1alpha1 for a Component' }),
  F('kind', { kind: 'string', what: 'Kustomization, or Component (a reusable piece included with `components:`)' }),
  F('metadata', { kind: 'map', introduced: null, sources: ['typesNow', 'typesV2'], note: 'not in the v2.0.x struct; no source read names the release that added it, nor a v3/v4 release that reads it', what: 'the kustomization\'s own name/annotations (not applied to the resources)' }),
  F('openapi', { kind: 'map', introduced: null, sources: ['typesNow', 'typesV2', 'openapiKep'], note: 'not in the v2.0.x struct; the sources name the pull requests that added it (2020-11..2021-02), not a kustomize release', what: 'which Kubernetes OpenAPI schema strategic merges use' }),
  F('namePrefix', { kind: 'string', what: 'prefix added to every resource\'s name' }),
  F('nameSuffix', { kind: 'string', what: 'suffix added to every resource\'s name' }),
  F('namespace', { kind: 'string', what: 'namespace set on every namespaced resource' }),
  F('commonLabels', { kind: 'map', deprecated: '5.x', replacement: 'labels', replacementSince: '4.1.0', fix: 'commonLabels-to-labels', sources: ['typesNow', 'labelsGo', 'commonLabelsWarn'],
    note: 'labels added to every resource and to its selectors and pod templates; `kustomize edit fix` turns it into one `labels` entry with includeSelectors: true (labelFromCommonLabels). The deprecation warning exists in kustomize v5 by 2024-09 (kueue#3091) but not in CheckDeprecatedFields at commit 04e51ad…: the v5 release that added it is not in the data', what: 'labels added to every resource, its selectors and its pod templates' }),
  F('labels', { kind: 'list', introduced: '4.1.0', sources: ['typesNow', 'labels410'], what: 'labels (pairs) added to resources; includeSelectors: true also adds them to selectors and templates, includeTemplates to templates only' }),
  F('commonAnnotations', { kind: 'map', what: 'annotations added to every resource' }),
  F('patchesStrategicMerge', { kind: 'list', deprecated: '5.0.0', replacement: 'patches', replacementSince: '3.1.0', fix: 'patchesStrategicMerge-to-patches', sources: ['typesNow', 'v500', 'docs500'], what: 'strategic-merge patches (file paths or inline), each targeting the resource its own metadata names' }),
  F('patchesJson6902', { kind: 'list', deprecated: '5.0.0', replacement: 'patches', replacementSince: '3.1.0', fix: 'patchesJson6902-to-patches', sources: ['typesNow', 'v500', 'docs500'], what: 'RFC 6902 JSON patches, each with a target (group, version, kind, name, namespace) and a path or inline patch' }),
  F('patches', { kind: 'list', introduced: '3.1.0', sources: ['typesNow', 'typesV2', 'v310'], note: 'in kustomize v2.0.x `patches` was a deprecated list of strategic-merge file paths (appended to patchesStrategicMerge); the object form (path or patch, target, options) came with v3.1.0', what: 'patches (strategic merge or JSON 6902, by path or inline), each applied to the resources its target selects' }),
  F('images', { kind: 'list', what: 'image name, tag or digest changes (name, newName, newTag, digest) applied to every container image of that name' }),
  F('imageTags', { kind: 'list', deprecated: '5.0.0', replacement: 'images', replacementSince: '1.0', fix: 'imageTags-to-images', sources: ['typesNow', 'typesV2', 'v500'], note: 'an alias of images; deprecated in v2 already (`Deprecated. Use Image`), warned from v5.0.0', what: 'old name of images' }),
  F('replacements', { kind: 'list', introduced: null, notReadBy: '4.0.5', readBy: '4.1.3', sources: ['typesNow', 'typesV2', 'repl1277', 'repl4009'], note: 'kustomize 4.0.5 (kubectl 1.21) rejects it (kubectl#1277), kustomize 4.1.3 reads it (kustomize#4009): the first release in between was not read', what: 'copy a field\'s value from a source resource into target fields' }),
  F('replicas', { kind: 'list', introduced: '2.1.0', sources: ['typesNow', 'v210'], what: 'replica counts by resource name' }),
  F('vars', { kind: 'list', deprecated: '5.0.0', replacement: 'replacements', fix: null, sources: ['typesNow', 'v500', 'docs500', 'fixConvert'], note: 'no mechanical fix: replacements name their targets explicitly, while a var is substituted wherever $(NAME) appears; `kustomize edit fix` converts them by rewriting the resource files (experimental)', what: 'values substituted for $(NAME) in resources' }),
  F('sortOptions', { kind: 'map', introduced: '5.0.0', sources: ['typesNow', 'typesV2', 'sortOptionsDoc', 'sortOptionsKf'], what: 'output order of the resources (legacy or fifo)' }),
  F('resources', { kind: 'list', sources: ['typesNow', 'typesV2', 'v210'], note: 'until v2.0.x files only; from v2.1.0 also kustomization directories and URLs (what bases took)', what: 'resource files, kustomization directories and URLs to include' }),
  F('components', { kind: 'list', introduced: '3.7.0', sources: ['typesNow', 'typesV2', 'components370'], what: 'Component kustomizations applied to this one' }),
  F('crds', { kind: 'list', what: 'CustomResourceDefinition files whose kinds transformers may then handle' }),
  F('bases', { kind: 'list', deprecated: '2.1.0', replacement: 'resources', replacementSince: '2.1.0', fix: 'bases-to-resources', sources: ['typesNow', 'typesV2', 'v210', 'docs500'], what: 'kustomization directories or URLs to include (old form of resources)' }),
  F('configMapGenerator', { kind: 'list', what: 'ConfigMaps generated from files, env files and literals' }),
  F('secretGenerator', { kind: 'list', what: 'Secrets generated from files, env files and literals' }),
  F('helmGlobals', { kind: 'map', introduced: null, sources: ['typesNow', 'typesV2', 'helm3816'], note: 'came with helmCharts (kustomize#3784); no source read names the release, nor a release that reads helmGlobals', what: 'Helm settings shared by helmCharts (chartHome, configHome)' }),
  F('helmCharts', { kind: 'list', introduced: null, readBy: '4.5.7', sources: ['typesNow', 'typesV2', 'helm3816', 'helm4794'], note: 'came with kustomize#3784 (2021-04); kustomize 4.5.7 reads it (kustomize#4794); the first release that does was not read', what: 'Helm charts inflated with `helm template` (needs --enable-helm)' }),
  F('helmChartInflationGenerator', { kind: 'list', introduced: null, note: 'no source read names the release that added it; deprecated in the struct comment ("Auto-converted to HelmGlobals and HelmCharts"); the release that deprecated it was not read', what: 'old form of helmCharts' }),
  F('generatorOptions', { kind: 'map', what: 'options of every ConfigMap/Secret generator (labels, annotations, disableNameSuffixHash)' }),
  F('configurations', { kind: 'list', what: 'transformer configuration files' }),
  F('generators', { kind: 'list', introduced: '2.1.0', sources: ['typesNow', 'v210'], what: 'generator plugin configurations' }),
  F('transformers', { kind: 'list', introduced: '2.1.0', sources: ['typesNow', 'v210'], what: 'transformer plugin configurations' }),
  F('validators', { kind: 'list', introduced: null, note: 'not in the v2.0.x struct; no source read names the release that added it, nor a v3/v4 release that reads it', what: 'validator plugin configurations' }),
  F('inventory', { kind: 'map', introduced: '2.1.0', sources: ['typesNow', 'v210'], what: 'an inventory object recording every other object (for pruning)' }),
  F('buildMetadata', { kind: 'list', introduced: null, readBy: '4.4.1', sources: ['typesNow', 'typesV2', 'buildMetaDoc'], note: 'kustomize 4.4.1 reads it (the reference page\'s managedByLabel output); the first release that does was not read', what: 'build options (originAnnotations, transformerAnnotations, managedByLabel)' }),
];

const API_VERSIONS = [
  { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', sources: ['typesNow'] },
  { apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component', sources: ['typesNow'], note: 'EnforceFields: a Component must use v1alpha1, a Kustomization v1beta1' },
];

// ---- sanity checks ----
const cmpVer = (a, b) => { const x = a.split('.').map(Number), y = b.split('.').map(Number); for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0); return 0; };
const names = new Set();
for (const f of FIELDS) {
  if (names.has(f.name)) throw new Error(`duplicate field ${f.name}`);
  names.add(f.name);
  for (const s of f.sources) if (!SRC[s]) throw new Error(`${f.name}: unknown source ${s}`);
  if (f.replacement && !FIELDS.some((x) => x.name === f.replacement)) throw new Error(`${f.name}: replacement ${f.replacement} is no field`);
  if ((f.readBy || f.notReadBy) && f.introduced !== null) throw new Error(`${f.name}: readBy/notReadBy are bounds for an undated field (introduced null)`);
  if (f.readBy && f.notReadBy && cmpVer(f.notReadBy, f.readBy) >= 0) throw new Error(`${f.name}: notReadBy ${f.notReadBy} is not below readBy ${f.readBy}`);
}
for (const r of KUBECTL) for (const s of r.sources) if (!SRC[s]) throw new Error(`kubectl ${r.from}: unknown source ${s}`);

const out = {
  asOf: '2026-12-01',
  legend: {
    kubectl: 'kubectl minors from..to (to null: and every later minor) and the kustomize they embed; version null = not read (see note), major/atLeast = what is known',
    introduced: "kustomize version that first reads the field; '1.0' = every kustomize kubectl ever embedded; null = after v2.0.x, exact release not read",
    notReadBy: 'with introduced null: a kustomize release a source shows rejecting the field (it and every earlier release do not read it)',
    readBy: 'with introduced null: a kustomize release a source shows reading the field (it and every later release read it; no field ever left kustomize.config.k8s.io/v1beta1)',
    deprecated: "kustomize version from which the field is deprecated ('5.x' = some v5 release, not pinned)",
    replacementSince: 'kustomize version from which the replacement does what the deprecated field did (resources taking directories: 2.1.0; the object form of patches: 3.1.0; labels: 4.1.0)',
    fix: 'id of the mechanical, meaning-preserving conversion the rule offers, or null',
  },
  kubectl: KUBECTL.map((r) => ({ ...r, sources: r.sources.map((s) => SRC[s]) })),
  apiVersions: API_VERSIONS.map((r) => ({ ...r, sources: r.sources.map((s) => SRC[s]) })),
  fields: FIELDS.map((f) => ({ ...f, sources: f.sources.map((s) => SRC[s]) })),
};
fs.writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${FIELDS.length} fields, ${KUBECTL.length} kubectl rows`);
