#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the Kubernetes reference material in
// ../shared/reference/kubernetes (relative to the repo root; override with argv[2]) into
//   data/kubernetes/api-lifecycle.json   one row per apiVersion/kind: introduced, deprecated,
//                                        removed, replacement, migration, sources, notes
// Read from the reference directory: pluto-versions.yaml (Pluto v5.24.0, verbatim),
// kubent-rules.json (kube-no-trouble rules as facts), releases.json (Kubernetes minors and the
// snapshot date), SOURCES.md (read-on date). Facts that are NOT in the reference directory
// (Kubernetes deprecation guide, kubernetes/api lifecycle tags, changelogs, cert-manager
// release notes) are written below as own-words tables, each with its source, and marked
// confidence "changelog" in the output.
//
// Rules (see the Kubernetes brief in the repo history):
//  * every Pluto entry becomes a row (the duplicate audit.k8s.io/v1alpha1 Policy is one row;
//    Pluto's "FlowControl" kind is folded into the FlowSchema and PriorityLevelConfiguration
//    rows of the same apiVersion), `plutoEntries` lists the 0-based positions in versions.yaml;
//  * every kubent rule not covered by Pluto becomes a row;
//  * where upstream Kubernetes disagrees with a Pluto value the row carries the upstream value
//    and the change is listed in `corrections`; where Pluto leaves a value empty and a source
//    gives it, the row carries it and it is listed in `filled`. Every other value is Pluto's.
//  * replacement targets and commonly used current apiVersions are added so the engine can
//    answer "which apiVersions of this kind are served in 1.X".
// Output is deterministic (fixed order, 2-space JSON, trailing newline). Sanity checks throw.
// gen:data after: import-k8s-fields.mjs
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { normalizeKubernetesVersion } from './lib/kubernetes-version.mjs';
import { fluxcdRows } from './lib/fluxcd-rows.mjs';
import { ecosystemRows } from './lib/ecosystem-rows.mjs';
import { componentConfigRows } from './lib/component-config-rows.mjs';
import { applyPrerelease, applyTypePresence, applyGaIntroduced, TYPE_PRESENCE_CONFIDENCE } from './lib/prerelease-rows.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('kubernetes'));
const outFile = path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json');

// ---------------------------------------------------------------------------------------------
// helpers

function fail(msg) {
  throw new Error(`import-kubernetes: ${msg}`);
}
const readText = (rel) => fs.readFileSync(path.join(refDir, rel), 'utf8');
const readJson = (rel) => JSON.parse(readText(rel));
/** "v1.16.0" -> "1.16"; "" / undefined -> null */
function minorOf(v) {
  if (v === undefined || v === null || v === '') return null;
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(normalizeKubernetesVersion(String(v)));
  if (!m) fail(`not a version: ${JSON.stringify(v)}`);
  return `${Number(m[1])}.${Number(m[2])}`;
}
function cmpMinor(a, b) {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}
const key = (apiVersion, kind) => `${apiVersion}|${kind}`;
function splitApiVersion(apiVersion) {
  const i = apiVersion.indexOf('/');
  if (i < 0) {
    // core group ("v1") — or Pluto's version-less "rbac.istio.io"
    return /^v\d+((alpha|beta)\d+)?$/.test(apiVersion)
      ? { group: '', version: apiVersion }
      : { group: apiVersion, version: null };
  }
  return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}
/** Kubernetes version priority: GA > beta > alpha, higher number first. */
function versionRank(version) {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version ?? '');
  if (!m) return [9, 0, 0];
  const level = m[2] === 'alpha' ? 2 : m[2] === 'beta' ? 1 : 0;
  return [level, -Number(m[1]), -Number(m[3] ?? 0)];
}

// ---------------------------------------------------------------------------------------------
// source names (used in `sources`)

const PLUTO = 'pluto v5.24.0 versions.yaml';
const kubentSrc = (ruleFile) => `kubent ${ruleFile}`;
const GUIDE_URL = 'https://kubernetes.io/docs/reference/using-api/deprecation-guide/';
const guideSrc = (section) => `Kubernetes Deprecated API Migration Guide §${section}`;
const K8S_API_COMMIT = '0e0a1eb3f4553d4b179a0d03051b2ed71a744422';
const apiTags = (pkg) => `kubernetes/api ${pkg}/types.go +k8s:prerelease-lifecycle-gen tags`;
// The generated lifecycle functions (APILifecycleIntroduced/Deprecated/Removed) read through the search index's copy
// of kubernetes/kubernetes at the commit named (the commit of that file version, not a release tag).
const genLifecycle = (pkg, commit) => `kubernetes/kubernetes staging/src/k8s.io/api/${pkg}/zz_generated.prerelease-lifecycle.go @ ${commit}`;
const TOKENREVIEW_GEN = genLifecycle('authentication/v1beta1', '819ecd4dbe6afbaa4f6227d22b9c46938d48e603');
const AUTHZ_V1BETA1_GEN = genLifecycle('authorization/v1beta1', '2d58ef7868e6efda493e876aeaf72fb7dfea7c44');
const AUTHN_V1ALPHA1_GEN = genLifecycle('authentication/v1alpha1', 'e63752e0f2710cbb0ae36a012878fa1812b14e5a');
const DRA_V1BETA1_GEN = genLifecycle('resource/v1beta1', 'd7ce957d8a8729e0e9c2e365288277d742491a5b');
const DRA_V1BETA2_GEN = genLifecycle('resource/v1beta2', '898b9f800267a757615ecfb71fc377d04d996c6b');
const SSR_GATE = 'kubernetes/website content/en/docs/reference/command-line-tools-reference/feature-gates/APISelfSubjectReview.md (alpha 1.26, beta 1.27, stable 1.28)';
const LIFECYCLE_REF = 'shared/reference/kubernetes/lifecycle-1.33-1.38.json';
const changelog = (minor, what) => `Kubernetes ${minor} changelog/release notes${what ? ` (${what})` : ''}`;
const CM = (v, what) => `cert-manager ${v} release notes${what ? ` (${what})` : ''}`;

// ---------------------------------------------------------------------------------------------
// Deprecation guide facts (own words; revisions read: kubernetes/website
// content/en/docs/reference/using-api/deprecation-guide.md at 02afb71016ac558fc5836738711e78e77b1ad44a
// (v1.16–v1.25 sections) and the copy in dancer1325/kubernetes-website at
// d46ff627136bc060a79556d797193108676f849a (v1.16–v1.32 sections), cross-read with the
// kubernetes.io page mirror k8s.jobcher.com). No section exists for removals after v1.32.

const GUIDE = [
  { section: 'v1.32 Flow control resources', removed: '1.32', apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta3'], kinds: ['FlowSchema', 'PriorityLevelConfiguration'], replacement: 'flowcontrol.apiserver.k8s.io/v1', available: '1.29' },
  { section: 'v1.29 Flow control resources', removed: '1.29', apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta2'], kinds: ['FlowSchema', 'PriorityLevelConfiguration'], replacement: 'flowcontrol.apiserver.k8s.io/v1beta3', available: '1.26', alsoNote: 'the guide names flowcontrol.apiserver.k8s.io/v1 (available since 1.29) as the other target' },
  { section: 'v1.27 CSIStorageCapacity', removed: '1.27', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['CSIStorageCapacity'], replacement: 'storage.k8s.io/v1', available: '1.24' },
  { section: 'v1.26 Flow control resources', removed: '1.26', apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta1'], kinds: ['FlowSchema', 'PriorityLevelConfiguration'], replacement: 'flowcontrol.apiserver.k8s.io/v1beta3', available: '1.26', alsoNote: 'an earlier revision of the guide named flowcontrol.apiserver.k8s.io/v1beta2 (served 1.23–1.28) instead' },
  { section: 'v1.26 HorizontalPodAutoscaler', removed: '1.26', apiVersions: ['autoscaling/v2beta2'], kinds: ['HorizontalPodAutoscaler'], replacement: 'autoscaling/v2', available: '1.23' },
  { section: 'v1.25 CronJob', removed: '1.25', apiVersions: ['batch/v1beta1'], kinds: ['CronJob'], replacement: 'batch/v1', available: '1.21' },
  { section: 'v1.25 EndpointSlice', removed: '1.25', apiVersions: ['discovery.k8s.io/v1beta1'], kinds: ['EndpointSlice'], replacement: 'discovery.k8s.io/v1', available: '1.21' },
  { section: 'v1.25 Event', removed: '1.25', apiVersions: ['events.k8s.io/v1beta1'], kinds: ['Event'], replacement: 'events.k8s.io/v1', available: '1.19' },
  { section: 'v1.25 HorizontalPodAutoscaler', removed: '1.25', apiVersions: ['autoscaling/v2beta1'], kinds: ['HorizontalPodAutoscaler'], replacement: 'autoscaling/v2', available: '1.23' },
  { section: 'v1.25 PodDisruptionBudget', removed: '1.25', apiVersions: ['policy/v1beta1'], kinds: ['PodDisruptionBudget'], replacement: 'policy/v1', available: '1.21' },
  { section: 'v1.25 PodSecurityPolicy', removed: '1.25', apiVersions: ['policy/v1beta1'], kinds: ['PodSecurityPolicy'], replacement: null, available: null },
  { section: 'v1.25 RuntimeClass', removed: '1.25', apiVersions: ['node.k8s.io/v1beta1'], kinds: ['RuntimeClass'], replacement: 'node.k8s.io/v1', available: '1.20' },
  { section: 'v1.22 Webhook resources', removed: '1.22', apiVersions: ['admissionregistration.k8s.io/v1beta1'], kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], replacement: 'admissionregistration.k8s.io/v1', available: '1.16' },
  { section: 'v1.22 CustomResourceDefinition', removed: '1.22', apiVersions: ['apiextensions.k8s.io/v1beta1'], kinds: ['CustomResourceDefinition'], replacement: 'apiextensions.k8s.io/v1', available: '1.16' },
  { section: 'v1.22 APIService', removed: '1.22', apiVersions: ['apiregistration.k8s.io/v1beta1'], kinds: ['APIService'], replacement: 'apiregistration.k8s.io/v1', available: '1.10' },
  { section: 'v1.22 TokenReview', removed: '1.22', apiVersions: ['authentication.k8s.io/v1beta1'], kinds: ['TokenReview'], replacement: 'authentication.k8s.io/v1', available: '1.6' },
  { section: 'v1.22 SubjectAccessReview resources', removed: '1.22', apiVersions: ['authorization.k8s.io/v1beta1'], kinds: ['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SubjectAccessReview'], replacement: 'authorization.k8s.io/v1', available: '1.6' },
  { section: 'v1.22 CertificateSigningRequest', removed: '1.22', apiVersions: ['certificates.k8s.io/v1beta1'], kinds: ['CertificateSigningRequest'], replacement: 'certificates.k8s.io/v1', available: '1.19' },
  { section: 'v1.22 Lease', removed: '1.22', apiVersions: ['coordination.k8s.io/v1beta1'], kinds: ['Lease'], replacement: 'coordination.k8s.io/v1', available: '1.14' },
  { section: 'v1.22 Ingress', removed: '1.22', apiVersions: ['extensions/v1beta1', 'networking.k8s.io/v1beta1'], kinds: ['Ingress'], replacement: 'networking.k8s.io/v1', available: '1.19' },
  { section: 'v1.22 IngressClass', removed: '1.22', apiVersions: ['networking.k8s.io/v1beta1'], kinds: ['IngressClass'], replacement: 'networking.k8s.io/v1', available: '1.19' },
  { section: 'v1.22 RBAC resources', removed: '1.22', apiVersions: ['rbac.authorization.k8s.io/v1beta1'], kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'], replacement: 'rbac.authorization.k8s.io/v1', available: '1.8' },
  { section: 'v1.22 PriorityClass', removed: '1.22', apiVersions: ['scheduling.k8s.io/v1beta1'], kinds: ['PriorityClass'], replacement: 'scheduling.k8s.io/v1', available: '1.14' },
  { section: 'v1.22 Storage resources', removed: '1.22', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['CSIDriver'], replacement: 'storage.k8s.io/v1', available: '1.19' },
  { section: 'v1.22 Storage resources', removed: '1.22', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['CSINode'], replacement: 'storage.k8s.io/v1', available: '1.17' },
  { section: 'v1.22 Storage resources', removed: '1.22', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['StorageClass'], replacement: 'storage.k8s.io/v1', available: '1.6' },
  { section: 'v1.22 Storage resources', removed: '1.22', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['VolumeAttachment'], replacement: 'storage.k8s.io/v1', available: '1.13' },
  { section: 'v1.16 NetworkPolicy', removed: '1.16', apiVersions: ['extensions/v1beta1'], kinds: ['NetworkPolicy'], replacement: 'networking.k8s.io/v1', available: '1.8' },
  { section: 'v1.16 DaemonSet', removed: '1.16', apiVersions: ['extensions/v1beta1', 'apps/v1beta2'], kinds: ['DaemonSet'], replacement: 'apps/v1', available: '1.9' },
  { section: 'v1.16 Deployment', removed: '1.16', apiVersions: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'], kinds: ['Deployment'], replacement: 'apps/v1', available: '1.9' },
  { section: 'v1.16 StatefulSet', removed: '1.16', apiVersions: ['apps/v1beta1', 'apps/v1beta2'], kinds: ['StatefulSet'], replacement: 'apps/v1', available: '1.9' },
  { section: 'v1.16 ReplicaSet', removed: '1.16', apiVersions: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'], kinds: ['ReplicaSet'], replacement: 'apps/v1', available: '1.9' },
];
/** The guide section for apiVersion/kind ("XList" falls back to "X"). */
function guideFor(apiVersion, kind) {
  const k = kind.endsWith('List') ? kind.slice(0, -4) : kind;
  return GUIDE.find((g) => g.apiVersions.includes(apiVersion) && (g.kinds.includes(kind) || g.kinds.includes(k)));
}

// ---------------------------------------------------------------------------------------------
// Migration text per (old apiVersion -> replacement) family, from the guide's "notable changes".

const MIG = {
  appsSelector: ['spec-changes', 'apps/v1: spec.selector is required and immutable (use the template labels); defaults change (Deployment: progressDeadlineSeconds 600, revisionHistoryLimit 10, maxSurge/maxUnavailable 25%; DaemonSet/StatefulSet: updateStrategy RollingUpdate); extensions/v1beta1 DaemonSet spec.templateGeneration and Deployment spec.rollbackTo are gone. Only the apiVersion changes when spec.selector is already set.'],
  ingress: ['spec-changes', 'networking.k8s.io/v1: spec.backend -> spec.defaultBackend; backend serviceName -> service.name; servicePort -> service.port.number (numeric) or service.port.name (string); pathType is required on every path (ImplementationSpecific keeps the v1beta1 behaviour).'],
  crd: ['spec-changes', 'apiextensions.k8s.io/v1: spec.scope required; spec.version/validation/subresources/additionalPrinterColumns move under spec.versions[*]; spec.versions[*].schema.openAPIV3Schema required and must be structural; preserveUnknownFields: true -> x-kubernetes-preserve-unknown-fields; conversion.webhookClientConfig -> conversion.webhook.clientConfig; printer column JSONPath -> jsonPath.'],
  webhook: ['spec-changes', 'admissionregistration.k8s.io/v1: webhooks[*].sideEffects (None/NoneOnDryRun) and admissionReviewVersions are required; defaults change (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10); webhook names must be unique.'],
  pdb: ['spec-changes', 'policy/v1: an empty spec.selector ({}) selects every pod in the namespace (in policy/v1beta1 it selected none); an unset selector selects none in both.'],
  hpaV2beta1: ['spec-changes', 'autoscaling/v2: metric targets are restructured, e.g. targetAverageUtilization -> target: {type: Utilization, averageUtilization}.'],
  hpaV2beta2: ['apiVersion-only', 'autoscaling/v2beta2 already uses the v2 metric structure. (The deprecation guide repeats the v2beta1 note about targetAverageUtilization under v1.26; it does not apply to v2beta2.)'],
  csr: ['spec-changes', 'certificates.k8s.io/v1: spec.signerName and spec.usages are required; kubernetes.io/legacy-unknown cannot be requested; stricter status rules for approvers/signers.'],
  event: ['spec-changes', 'events.k8s.io/v1: type limited to Normal/Warning; involvedObject -> regarding; action, reason, reportingController, reportingInstance required; deprecated* fields (firstTimestamp, lastTimestamp, count, source) are not allowed in new objects.'],
  endpointSlice: ['spec-changes', 'discovery.k8s.io/v1: per-endpoint nodeName and zone replace topology["kubernetes.io/hostname"] / topology["topology.kubernetes.io/zone"]; topology becomes the read-only deprecatedTopology.'],
  sar: ['spec-changes', 'authorization.k8s.io/v1: spec.group is renamed spec.groups.'],
  plcRename: ['spec-changes', 'PriorityLevelConfiguration spec.limited.assuredConcurrencyShares is renamed spec.limited.nominalConcurrencyShares (v1beta3 and v1).'],
  plcV1: ['apiVersion-only', 'flowcontrol v1: spec.limited.nominalConcurrencyShares defaults to 30 only when unset; an explicit 0 stays 0 (v1beta3 turned 0 into 30).'],
  same: ['apiVersion-only', 'No notable changes: only the apiVersion changes.'],
  psp: ['no-replacement', 'PodSecurityPolicy has no replacement API: migrate to Pod Security Admission (namespace labels) or a third-party admission webhook.'],
  endpoints: ['spec-changes', 'Endpoints (core v1) is deprecated in favour of EndpointSlice (discovery.k8s.io/v1), a different kind with a different structure; GA APIs are not removed.'],
  certManager: ['spec-changes', 'cert-manager changed fields between API versions (e.g. Certificate key settings moved under spec.privateKey, CertificateRequest spec.csr became spec.request); convert manifests with cmctl convert (formerly kubectl cert-manager convert).'],
  certManagerV1alpha1: ['spec-changes', 'cert-manager 0.11 renamed the group certmanager.k8s.io to cert-manager.io (Order/Challenge to acme.cert-manager.io) and reworked ACME solver configuration; annotations moved from certmanager.k8s.io/* to cert-manager.io/*.'],
  istioRbac: ['spec-changes', 'Istio RBAC (ServiceRole/ServiceRoleBinding/RbacConfig) is replaced by a different kind, security.istio.io/v1beta1 AuthorizationPolicy.'],
  istioAuthn: ['spec-changes', 'authentication.istio.io Policy/MeshPolicy are replaced by different kinds, security.istio.io/v1beta1 PeerAuthentication and RequestAuthentication.'],
  dra: ['spec-changes', 'Dynamic Resource Allocation objects were restructured between versions (e.g. v1beta2 moved device request fields under exactly and flattened ResourceSlice basic devices); rewrite against the target version.'],
  unknown: ['unknown', 'No source read describes the field changes.'],
};

// ---------------------------------------------------------------------------------------------
// Per-row knowledge for Pluto / kubent rows (key "apiVersion|kind", kind as Pluto writes it).
// introduced: [value, source]; mig: a MIG key; note: extra sentence.

const K = {};
function know(apiVersions, kinds, info) {
  for (const a of [].concat(apiVersions)) for (const k of [].concat(kinds)) K[key(a, k)] = { ...(K[key(a, k)] ?? {}), ...info };
}
// apps workloads (removed 1.16)
know('extensions/v1beta1', ['Deployment', 'DaemonSet', 'ReplicaSet'], { introduced: ['1.2', changelog('1.2', 'Deployment, DaemonSet and ReplicaSet in extensions/v1beta1')], mig: 'appsSelector' });
know('apps/v1beta1', 'Deployment', { introduced: ['1.6', apiTags('apps/v1beta1')], mig: 'appsSelector', note: 'kubernetes/api apps/v1beta1 tags this Deployment deprecated=1.8; Pluto says 1.9 (kept).' });
know('apps/v1beta1', 'StatefulSet', { introduced: ['1.5', changelog('1.5', 'PetSet renamed StatefulSet in apps/v1beta1')], mig: 'appsSelector' });
know('apps/v1beta2', ['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'], { introduced: ['1.8', changelog('1.8', 'apps/v1beta2 workloads API')], mig: 'appsSelector' });
know('apps/v1beta1', 'ReplicaSet', { mig: 'appsSelector', note: 'apps/v1beta1 never served ReplicaSet (the group version only had Deployment, StatefulSet and ControllerRevision); Pluto, kubent and the deprecation guide all list it anyway, so the row is kept for parity with introduced unknown.' });
know('extensions/v1beta1', 'NetworkPolicy', { introduced: ['1.3', changelog('1.3', 'NetworkPolicy beta in extensions/v1beta1')], mig: 'same', note: 'networking.k8s.io/v1 NetworkPolicy went GA in 1.7 per the 1.7 changelog, but Pluto, kubent and the deprecation guide all give 1.8 as replacement availability; 1.8 kept here, the networking.k8s.io/v1 row says introduced 1.7.' });
know('extensions/v1beta1', 'PodSecurityPolicy', { introduced: ['1.3', changelog('1.3', 'PodSecurityPolicy in extensions/v1beta1')], mig: 'same' });
know('policy/v1beta1', 'PodSecurityPolicy', { introduced: ['1.10', changelog('1.10', 'PodSecurityPolicy moved to policy/v1beta1')], mig: 'psp', note: 'No replacement API: Pluto leaves replacement-api empty, kubent writes "<removed>".' });
// networking
know('extensions/v1beta1', 'Ingress', { introduced: ['1.1', apiTags('extensions/v1beta1')], mig: 'ingress' });
know('networking.k8s.io/v1beta1', 'Ingress', { introduced: ['1.14', apiTags('networking/v1beta1')], mig: 'ingress' });
know('networking.k8s.io/v1beta1', 'IngressClass', { introduced: ['1.18', changelog('1.18', 'IngressClass added in networking.k8s.io/v1beta1')], mig: 'same' });
// scheduling
know('scheduling.k8s.io/v1beta1', 'PriorityClass', { introduced: ['1.11', changelog('1.11', 'PriorityClass beta')], mig: 'same' });
know('scheduling.k8s.io/v1alpha1', 'PriorityClass', { introduced: ['1.8', changelog('1.8', 'PriorityClass alpha')], mig: 'same' });
// extension APIs
know('apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition', { introduced: ['1.7', apiTags('apiextensions/v1beta1')], mig: 'crd' });
know('admissionregistration.k8s.io/v1beta1', ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], { introduced: ['1.9', changelog('1.9', 'admission webhooks beta')], mig: 'webhook' });
know('apiregistration.k8s.io/v1beta1', 'APIService', { introduced: ['1.7', changelog('1.7', 'API aggregation beta')], mig: 'same' });
// rbac
for (const v of ['v1alpha1', 'v1beta1']) {
  know(`rbac.authorization.k8s.io/${v}`, ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList'], { mig: 'same' });
}
know('rbac.authorization.k8s.io/v1beta1', ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList'], { introduced: ['1.6', changelog('1.6', 'RBAC beta')] });
know('rbac.authorization.k8s.io/v1alpha1', ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList'], { note: 'Alpha API (disabled unless enabled with --runtime-config); the deprecation guide lists only the v1beta1 removal in 1.22.' });
// node, policy, autoscaling, batch
know('node.k8s.io/v1beta1', 'RuntimeClass', { introduced: ['1.14', changelog('1.14', 'RuntimeClass beta in node.k8s.io/v1beta1')], mig: 'same' });
know('policy/v1beta1', ['PodDisruptionBudget', 'PodDisruptionBudgetList'], { introduced: ['1.5', changelog('1.5', 'PodDisruptionBudget beta')], mig: 'pdb' });
know('autoscaling/v2beta1', ['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], { introduced: ['1.8', changelog('1.8', 'autoscaling/v2beta1')], mig: 'hpaV2beta1' });
know('autoscaling/v2beta2', ['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], { introduced: ['1.12', changelog('1.12', 'autoscaling/v2beta2')], mig: 'hpaV2beta2' });
know('batch/v1beta1', ['CronJob', 'CronJobList'], { introduced: ['1.8', changelog('1.8', 'CronJob beta in batch/v1beta1')], mig: 'same' });
// storage
know('storage.k8s.io/v1beta1', 'CSINode', { introduced: ['1.14', changelog('1.14', 'CSINode beta')], mig: 'same' });
know('storage.k8s.io/v1beta1', 'CSIDriver', { introduced: ['1.14', changelog('1.14', 'CSIDriver beta')], mig: 'same', note: 'storage.k8s.io/v1 CSIDriver went GA in 1.18 per the 1.18 changelog, but Pluto, kubent and the deprecation guide give 1.19 as replacement availability (kept); the storage.k8s.io/v1 row says introduced 1.18.' });
know('storage.k8s.io/v1beta1', 'CSIStorageCapacity', { introduced: ['1.21', changelog('1.21', 'CSIStorageCapacity beta')], mig: 'same' });
know('storage.k8s.io/v1beta1', 'StorageClass', { introduced: ['1.4', changelog('1.4', 'StorageClass beta')], mig: 'same' });
know('storage.k8s.io/v1beta1', 'VolumeAttachment', { introduced: ['1.10', changelog('1.10', 'VolumeAttachment beta')], mig: 'same' });
know('storage.k8s.io/v1beta1', 'VolumeAttributesClass', { introduced: ['1.31', changelog('1.31', 'VolumeAttributesClass beta')], mig: 'same', note: 'Pluto gives no removal release and no other source read names one: removed unknown (served from 1.31 on as far as the data knows). Beta APIs added after 1.24 are off by default.' });
know('storage.k8s.io/v1alpha1', 'VolumeAttributesClass', { introduced: ['1.29', changelog('1.29', 'VolumeAttributesClass alpha')], mig: 'same', note: 'Alpha API (disabled by default).' });
know('storagemigration.k8s.io/v1alpha1', 'StorageVersionMigration', { introduced: ['1.30', changelog('1.30', 'StorageVersionMigration alpha')], mig: 'unknown', note: 'Alpha API (disabled by default); Pluto marks it deprecated and removed in the same release.' });
// auth & misc
know('authentication.k8s.io/v1beta1', 'TokenReview', { introduced: ['1.4', TOKENREVIEW_GEN], mig: 'same', note: 'TokenReview is create-only (never stored): it appears in client code, rarely in manifests.' });
know('authorization.k8s.io/v1beta1', 'SubjectAccessReview', { introduced: ['1.2', apiTags('authorization/v1beta1')], deprecatedFrom: ['1.19', apiTags('authorization/v1beta1')], mig: 'sar' });
know('authorization.k8s.io/v1beta1', ['SelfSubjectAccessReview', 'LocalSubjectAccessReview'], { deprecatedFrom: ['1.19', `${kubentSrc('deprecated-1-22.rego')} (since 1.19)`], mig: 'sar' });
know('certificates.k8s.io/v1beta1', 'CertificateSigningRequest', { introduced: ['1.12', apiTags('certificates/v1beta1')], mig: 'csr', note: 'kubernetes/api certificates/v1beta1 tags CSR deprecated=1.19, matching Pluto.' });
know('coordination.k8s.io/v1beta1', 'Lease', { introduced: ['1.12', changelog('1.12', 'Lease in coordination.k8s.io/v1beta1')], mig: 'same' });
know('events.k8s.io/v1beta1', 'Event', { introduced: ['1.8', changelog('1.8', 'events.k8s.io/v1beta1')], mig: 'event' });
know('discovery.k8s.io/v1beta1', 'EndpointSlice', { introduced: ['1.17', changelog('1.17', 'EndpointSlice beta; alpha v1alpha1 in 1.16')], mig: 'endpointSlice', note: "The kubernetes/api discovery/v1beta1 lifecycle tag says introduced=1.16, but 1.16 served EndpointSlice only as discovery.k8s.io/v1alpha1; the 1.17 changelog is followed." });
// flowcontrol
know('flowcontrol.apiserver.k8s.io/v1beta1', ['FlowSchema', 'FlowControl'], { introduced: ['1.20', apiTags('flowcontrol/v1beta1')], mig: 'same' });
know('flowcontrol.apiserver.k8s.io/v1beta1', 'PriorityLevelConfiguration', { introduced: ['1.20', apiTags('flowcontrol/v1beta1')], mig: 'plcRename', note: 'The guide says "no notable changes" for v1beta1 -> v1beta3, but v1beta3 renamed assuredConcurrencyShares to nominalConcurrencyShares.' });
know('flowcontrol.apiserver.k8s.io/v1beta2', 'FlowSchema', { introduced: ['1.23', apiTags('flowcontrol/v1beta2')], mig: 'same' });
know('flowcontrol.apiserver.k8s.io/v1beta2', 'PriorityLevelConfiguration', { introduced: ['1.23', apiTags('flowcontrol/v1beta2')], mig: 'plcRename' });
know('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', { introduced: ['1.26', apiTags('flowcontrol/v1beta3')], mig: 'same' });
know('flowcontrol.apiserver.k8s.io/v1beta3', 'PriorityLevelConfiguration', { introduced: ['1.26', apiTags('flowcontrol/v1beta3')], mig: 'plcV1' });
// audit (kube-apiserver configuration / audit events, not served objects)
for (const v of ['v1alpha1', 'v1beta1']) {
  know(`audit.k8s.io/${v}`, ['Policy', 'PolicyList', 'Event', 'EventList'], { mig: 'unknown', servedBy: 'kube-apiserver config file', note: 'Not a served API: an audit policy file (--audit-policy-file) or an audit event; "served" means "accepted by kube-apiserver". Deprecated by kubernetes/kubernetes#98858 (1.21), removed by #108092 (1.24).' });
}
// admission policy, DRA, migration
know('admissionregistration.k8s.io/v1alpha1', ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], { introduced: ['1.26', changelog('1.26', 'ValidatingAdmissionPolicy alpha')], mig: 'unknown', note: 'Alpha API (disabled by default). No source read confirms the removal release; Pluto\'s 1.33 kept.' });
for (const k of ['ResourceSlice', 'ResourceClaim', 'DeviceClass', 'ResourceClaimTemplate']) {
  know('resource.k8s.io/v1alpha3', k, { introduced: ['1.31', apiTags('resource/v1alpha3')], mig: 'dra', note: 'Alpha API (disabled by default); kubernetes/api tags v1beta1 as its replacement, Pluto names resource.k8s.io/v1 (kept).' });
  know('resource.k8s.io/v1beta1', k, { introduced: ['1.32', changelog('1.32', 'DRA structured parameters beta')], mig: 'dra', note: `Beta APIs added after 1.24 are off by default. The generated lifecycle code says introduced 1.32, deprecated 1.35, removed 1.38 for ${k} and ${k}List; the API server warning quoted in NVIDIA/k8s-test-infra#600 says the same ("deprecated in v1.35+, unavailable in v1.38+", ${LIFECYCLE_REF}).` });
}
// cert-manager (versions are cert-manager's own)
for (const k of ['Certificate', 'Issuer', 'ClusterIssuer', 'CertificateRequest', 'Order', 'Challenge']) {
  know('certmanager.k8s.io/v1alpha1', k, { mig: 'certManagerV1alpha1', servedBy: 'CRD (cert-manager)' });
}
for (const g of ['cert-manager.io', 'acme.cert-manager.io']) {
  for (const v of ['v1alpha2', 'v1alpha3', 'v1beta1']) {
    for (const k of g === 'cert-manager.io' ? ['Certificate', 'Issuer', 'ClusterIssuer', 'CertificateRequest'] : ['Order', 'Challenge']) {
      know(`${g}/${v}`, k, {
        mig: g === 'cert-manager.io' && ['Certificate', 'CertificateRequest'].includes(k) ? 'certManager' : 'unknown',
        servedBy: 'CRD (cert-manager)',
        ...(v === 'v1alpha2' ? { introduced: ['0.11', CM('v0.11', 'API group renamed to cert-manager.io / acme.cert-manager.io, v1alpha2')] } : { note: 'cert-manager release that added this version not recorded in the sources read.' }),
      });
    }
  }
}
// istio
know('rbac.istio.io', 'AuthorizationPolicies', { mig: 'istioRbac', servedBy: 'CRD (istio)', note: 'Pluto entry taken verbatim but it can never match a manifest: "rbac.istio.io" has no version (the real apiVersion was rbac.istio.io/v1alpha1) and "AuthorizationPolicies" is a plural, not a kind (the kinds were ServiceRole, ServiceRoleBinding, RbacConfig, ClusterRbacConfig). Not corrected: no source read gives the Istio releases for those kinds.' });
know('authentication.istio.io/v1alpha1', '', { mig: 'istioAuthn', servedBy: 'CRD (istio)', note: 'kind "" (Pluto: empty kind) means every kind of this apiVersion (Policy, MeshPolicy).' });
// kubent-only rows
know('snapshot.storage.k8s.io/v1beta1', ['VolumeSnapshot', 'VolumeSnapshotClass', 'VolumeSnapshotContent'], { introduced: ['1.17', changelog('1.17', 'CSI volume snapshot beta')], repAvail: ['1.20', changelog('1.20', 'CSI volume snapshot GA')], mig: 'same', servedBy: 'CRD (kubernetes-csi/external-snapshotter)', note: 'Served by the external-snapshotter CRDs, not kube-apiserver: which versions exist depends on the installed snapshot controller, not the Kubernetes minor. kubent reports it from 1.21 ("to be removed in future"); no removal release recorded.' });

// Corrections (Pluto value -> upstream value), keyed by Pluto's apiVersion|kind.
const CORRECTIONS = [
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], field: 'removed', value: '1.26',
    why: 'Upstream stopped serving flowcontrol v1beta1 in 1.26; kubent (deprecated-1-26.rego) and Pluto\'s own FlowControl entry agree, the deprecation guide has it under v1.26, and kubernetes/api tags it introduced=1.20 (default removal = introduced+6 = 1.26).',
    source: `${guideSrc('v1.26 Flow control resources')}; kubent deprecated-1-26.rego; ${apiTags('flowcontrol/v1beta1')}`,
    confidence: 'reference',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], field: 'deprecated', value: '1.23',
    why: 'kubernetes/api tags flowcontrol v1beta1 introduced=1.20 with default deprecation introduced+3 = 1.23; Pluto\'s own FlowControl entry for this apiVersion says v1.23.0. Pluto\'s 1.24 is copied from its v1beta2 rows.',
    source: `${apiTags('flowcontrol/v1beta1')}; ${PLUTO} (FlowControl entry)`,
    confidence: 'reference',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], field: 'deprecated', value: '1.26',
    why: 'kubernetes/api tags flowcontrol v1beta2 introduced=1.23 (default deprecation 1.26, removal 1.29 — the removal matches Pluto); kubent reports it from 1.26, when its replacement v1beta3 appeared. Pluto\'s 1.24 would flag it before any replacement exists.',
    source: `${apiTags('flowcontrol/v1beta2')}; kubent deprecated-1-29.rego`,
    confidence: 'changelog',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kinds: ['FlowSchema'], field: 'deprecated', value: '1.29',
    why: 'flowcontrol v1beta3 only exists from 1.26, so Pluto\'s deprecated-in 1.24 is impossible; kubernetes/api tags it introduced=1.26 (default deprecation 1.29, removal 1.32), kubent reports it from 1.29.',
    source: `${apiTags('flowcontrol/v1beta3')}; kubent deprecated-1-32.rego`,
    confidence: 'changelog',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kinds: ['PriorityLevelConfiguration'], field: 'deprecated', value: '1.29',
    why: 'Same apiVersion as FlowSchema (deprecated together when flowcontrol v1 went GA in 1.29); kubernetes/api default deprecation introduced(1.26)+3 = 1.29; kubent reports it from 1.29. Pluto\'s 1.31 disagrees with its own FlowSchema row (1.24).',
    source: `${apiTags('flowcontrol/v1beta3')}; kubent deprecated-1-32.rego`,
    confidence: 'changelog',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kinds: ['FlowControl'], field: 'kind', value: 'FlowSchema, PriorityLevelConfiguration',
    why: '"FlowControl" is not a Kubernetes kind, so Pluto\'s entry never matches anything; its values (deprecated 1.23, removed 1.26) are the upstream ones for the two real kinds of this apiVersion and are folded into those rows.',
    source: `${apiTags('flowcontrol/v1beta1')}`,
    confidence: 'reference',
  },
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kinds: ['FlowControl'], field: 'replacement', value: 'flowcontrol.apiserver.k8s.io/v1beta3',
    why: 'The folded rows keep the replacement of Pluto\'s FlowSchema/PriorityLevelConfiguration entries, kubent and the current guide (v1beta3); the FlowControl entry (and an older guide revision) name v1beta2, which bridges 1.23–1.28.',
    source: `kubent deprecated-1-26.rego; ${guideSrc('v1.26 Flow control resources')}`,
    confidence: 'reference',
  },
  {
    apiVersion: 'authentication.k8s.io/v1beta1', kinds: ['TokenReview'], field: 'deprecated', value: '1.19',
    why: 'The generated lifecycle code of authentication.k8s.io/v1beta1 says TokenReview was introduced in 1.4, deprecated in 1.19 and removed in 1.22, like the authorization.k8s.io/v1beta1 review kinds (deprecated 1.19). Pluto\'s 1.6 is the release its replacement authentication.k8s.io/v1 appeared, not a deprecation.',
    source: TOKENREVIEW_GEN,
    confidence: 'changelog',
  },
  ...[['deprecated', '1.35'], ['removed', '1.38']].map(([field, value]) => ({
    apiVersion: 'resource.k8s.io/v1beta1', kinds: ['ResourceSlice', 'ResourceClaim', 'DeviceClass', 'ResourceClaimTemplate'], field, value,
    why: 'The generated lifecycle code of resource.k8s.io/v1beta1 says deprecated 1.35, removed 1.38 for every kind (and the API server warns "deprecated in v1.35+, unavailable in v1.38+"); Pluto\'s values (deprecated 1.33, removed 1.36) do not match the source.',
    source: `${DRA_V1BETA1_GEN}; ${LIFECYCLE_REF} (NVIDIA/k8s-test-infra#600)`,
    confidence: 'changelog',
  })),
  ...['v1alpha2', 'v1alpha3', 'v1beta1'].flatMap((v) => ['Order', 'Challenge'].map((k) => ({
    apiVersion: `acme.cert-manager.io/${v}`, kinds: [k], field: 'replacement', value: 'acme.cert-manager.io/v1',
    why: 'Order and Challenge are in the acme.cert-manager.io group in every cert-manager version since 0.11; cert-manager.io/v1 has no Order or Challenge.',
    source: CM('v1.0', 'acme.cert-manager.io/v1 Order, Challenge'),
    confidence: 'changelog',
  }))),
  ...['Order', 'Challenge'].map((k) => ({
    apiVersion: 'certmanager.k8s.io/v1alpha1', kinds: [k], field: 'replacement', value: 'acme.cert-manager.io/v1alpha2',
    why: 'cert-manager 0.11 moved Order and Challenge to acme.cert-manager.io, not cert-manager.io.',
    source: CM('v0.11', 'API group rename'),
    confidence: 'changelog',
  })),
];

// Values Pluto leaves empty, filled from a source: [apiVersion, kinds, field, value, source, confidence]
const FILLS = [];
function fill(apiVersion, kinds, field, value, source, confidence) {
  for (const k of [].concat(kinds)) FILLS.push({ apiVersion, kind: k, field, value, source, confidence });
}
fill('extensions/v1beta1', 'ReplicaSet', 'deprecated', '1.9', 'kubent deprecated-1-16.rego (since 1.9); Pluto\'s Deployment/DaemonSet rows of the same apiVersions (1.9)', 'reference');
fill('apps/v1beta1', 'ReplicaSet', 'deprecated', '1.9', 'kubent deprecated-1-16.rego (since 1.9); Pluto\'s Deployment/StatefulSet rows of the same apiVersion (1.9)', 'reference');
fill('apps/v1beta2', 'ReplicaSet', 'deprecated', '1.9', 'kubent deprecated-1-16.rego (since 1.9); Pluto\'s Deployment/DaemonSet/StatefulSet rows of the same apiVersion (1.9)', 'reference');
fill('scheduling.k8s.io/v1alpha1', 'PriorityClass', 'replacementAvailable', '1.14', `${guideSrc('v1.22 PriorityClass')}; Pluto's scheduling.k8s.io/v1beta1 row`, 'reference');
for (const v of ['v1alpha1', 'v1beta1']) {
  for (const k of ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList']) {
    if (v === 'v1alpha1' && !k.endsWith('List')) continue; // Pluto has 1.8 there already
    fill(`rbac.authorization.k8s.io/${v}`, k, 'replacementAvailable', '1.8', `${guideSrc('v1.22 RBAC resources')}; kubent deprecated-1-22.rego (since 1.8)`, 'reference');
  }
}
fill('policy/v1beta1', 'PodDisruptionBudgetList', 'replacementAvailable', '1.21', `${guideSrc('v1.25 PodDisruptionBudget')}; Pluto's PodDisruptionBudget row`, 'reference');
fill('autoscaling/v2beta1', 'HorizontalPodAutoscalerList', 'replacementAvailable', '1.23', `${guideSrc('v1.25 HorizontalPodAutoscaler')}; Pluto's HorizontalPodAutoscaler row`, 'reference');
fill('autoscaling/v2beta2', ['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], 'replacementAvailable', '1.23', `${guideSrc('v1.26 HorizontalPodAutoscaler')}; kubent deprecated-1-26.rego (since 1.23)`, 'reference');
fill('batch/v1beta1', 'CronJobList', 'replacementAvailable', '1.21', `${guideSrc('v1.25 CronJob')}; Pluto's CronJob row`, 'reference');
fill('flowcontrol.apiserver.k8s.io/v1beta1', ['FlowSchema', 'PriorityLevelConfiguration', 'FlowControl'], 'replacementAvailable', '1.26', `${guideSrc('v1.26 Flow control resources')} (v1beta3 available since 1.26)`, 'changelog');
fill('flowcontrol.apiserver.k8s.io/v1beta2', ['FlowSchema', 'PriorityLevelConfiguration'], 'replacementAvailable', '1.26', `${guideSrc('v1.29 Flow control resources')}; kubent deprecated-1-29.rego (since 1.26)`, 'reference');
fill('flowcontrol.apiserver.k8s.io/v1beta3', ['FlowSchema', 'PriorityLevelConfiguration'], 'replacementAvailable', '1.29', `${guideSrc('v1.32 Flow control resources')}; kubent deprecated-1-32.rego (since 1.29)`, 'reference');
for (const v of ['v1alpha1', 'v1beta1']) {
  fill(`audit.k8s.io/${v}`, ['Policy', 'PolicyList', 'Event', 'EventList'], 'replacementAvailable', '1.12', 'kubernetes/kubernetes#65891 (audit.k8s.io/v1 in release-1.12)', 'changelog');
}
for (const k of ['Certificate', 'Issuer', 'ClusterIssuer', 'CertificateRequest', 'Order', 'Challenge']) {
  fill('certmanager.k8s.io/v1alpha1', k, 'replacementAvailable', '0.11', CM('v0.11', 'v1alpha2 API groups'), 'changelog');
  for (const v of ['v1alpha2', 'v1alpha3', 'v1beta1']) {
    const g = ['Order', 'Challenge'].includes(k) ? 'acme.cert-manager.io' : 'cert-manager.io';
    fill(`${g}/${v}`, k, 'replacementAvailable', '1.0', CM('v1.0', 'v1 API'), 'changelog');
  }
}

// ---------------------------------------------------------------------------------------------
// Rows that are in neither Pluto nor kubent: current served versions and predecessors.
// [apiVersion, kinds, introduced, introducedSource, extra]

const EXTRA = [];
function extra(apiVersion, kinds, introduced, source, more = {}) {
  for (const k of [].concat(kinds)) EXTRA.push({ apiVersion, kind: k, introduced, source, ...more });
}
const GA_BEFORE = 'GA before 1.16 (every minor the schemas cover); the exact minor is not recorded in the sources read.';
const CORE_KINDS = ['Pod', 'Service', 'ConfigMap', 'Secret', 'ServiceAccount', 'Namespace', 'PersistentVolume', 'PersistentVolumeClaim', 'Node', 'LimitRange', 'ResourceQuota', 'Event', 'ReplicationController', 'PodTemplate'];
extra('v1', CORE_KINDS, '1.0', changelog('1.0', 'core v1 API'));
extra('v1', 'Endpoints', '1.0', changelog('1.0', 'core v1 API'), {
  deprecated: ['1.33', changelog('1.33', 'Endpoints API deprecated in favour of EndpointSlice, KEP-4974')],
  replacement: 'discovery.k8s.io/v1', replacementAvailable: ['1.21', guideSrc('v1.25 EndpointSlice')], mig: 'endpoints',
  note: 'Deprecated GA API: kube-apiserver warns from 1.33 but GA versions are not removed (removed stays null).',
});
extra('apps/v1', ['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'], '1.9', guideSrc('v1.16 Deployment'));
extra('batch/v1', 'Job', null, 'Kubernetes API reference v1.16 (batch/v1 Job)', { note: GA_BEFORE });
extra('batch/v1', ['CronJob', 'CronJobList'], '1.21', guideSrc('v1.25 CronJob'));
extra('networking.k8s.io/v1', 'NetworkPolicy', '1.7', changelog('1.7', 'NetworkPolicy GA in networking.k8s.io/v1'), { note: 'Pluto, kubent and the deprecation guide say "available since 1.8" for this replacement; the 1.7 changelog is followed here.' });
extra('networking.k8s.io/v1', ['Ingress', 'IngressClass'], '1.19', guideSrc('v1.22 Ingress'));
extra('policy/v1', ['PodDisruptionBudget', 'PodDisruptionBudgetList'], '1.21', guideSrc('v1.25 PodDisruptionBudget'));
extra('autoscaling/v2', ['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], '1.23', guideSrc('v1.25 HorizontalPodAutoscaler'));
extra('autoscaling/v1', ['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], null, 'Kubernetes API reference v1.16 (autoscaling/v1 HorizontalPodAutoscaler)', { note: GA_BEFORE });
extra('rbac.authorization.k8s.io/v1', ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList'], '1.8', guideSrc('v1.22 RBAC resources'));
extra('admissionregistration.k8s.io/v1', ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], '1.16', guideSrc('v1.22 Webhook resources'));
extra('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '1.16', guideSrc('v1.22 CustomResourceDefinition'));
extra('apiregistration.k8s.io/v1', 'APIService', '1.10', guideSrc('v1.22 APIService'));
extra('authentication.k8s.io/v1', 'TokenReview', '1.6', guideSrc('v1.22 TokenReview'));
extra('authorization.k8s.io/v1', ['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview'], '1.6', guideSrc('v1.22 SubjectAccessReview resources'));
extra('authorization.k8s.io/v1beta1', 'SelfSubjectRulesReview', '1.8', AUTHZ_V1BETA1_GEN, {
  deprecated: ['1.19', AUTHZ_V1BETA1_GEN], removed: ['1.22', AUTHZ_V1BETA1_GEN],
  replacement: 'authorization.k8s.io/v1', replacementAvailable: ['1.8', changelog('1.8', 'SelfSubjectRulesReview added to authorization.k8s.io v1 and v1beta1')], mig: 'same',
  note: 'In neither Pluto nor kubent; the deprecation guide\'s v1.22 section lists the other authorization.k8s.io/v1beta1 review kinds but not this one. The generated lifecycle code names authorization.k8s.io/v1 SelfSubjectRulesReview as the replacement. Create-only (never stored): it appears in client code, rarely in manifests.',
});
extra('authorization.k8s.io/v1', 'SelfSubjectRulesReview', '1.8', changelog('1.8', 'SelfSubjectRulesReview added to authorization.k8s.io v1 and v1beta1'));
extra('authentication.k8s.io/v1alpha1', 'SelfSubjectReview', '1.26', SSR_GATE, {
  deprecated: ['1.28', AUTHN_V1ALPHA1_GEN], removed: ['1.31', AUTHN_V1ALPHA1_GEN],
  replacement: 'authentication.k8s.io/v1', replacementAvailable: ['1.28', SSR_GATE], mig: 'same',
  note: 'Alpha API (disabled by default). The generated lifecycle code says introduced 1.25, deprecated 1.28, removed 1.31; the feature gate page (and the 1.26 release) put the alpha in 1.26, which is followed for introduced. Create-only (never stored).',
});
extra('authentication.k8s.io/v1beta1', 'SelfSubjectReview', '1.27', SSR_GATE, {
  replacement: 'authentication.k8s.io/v1', replacementAvailable: ['1.28', SSR_GATE], mig: 'same',
  note: 'Beta API (beta APIs added after 1.24 are off by default). Deprecation and removal releases not read in any source (kept null: treated as served from 1.27 on). Create-only (never stored).',
});
extra('authentication.k8s.io/v1', 'SelfSubjectReview', '1.28', SSR_GATE);
extra('storage.k8s.io/v1', 'CSIDriver', '1.18', changelog('1.18', 'CSIDriver GA'), { note: 'The deprecation guide, Pluto and kubent say storage.k8s.io/v1 CSIDriver is "available since 1.19"; the 1.18 changelog (CSIDriver GA) is followed here.' });
extra('storage.k8s.io/v1', 'CSINode', '1.17', guideSrc('v1.22 Storage resources'));
extra('storage.k8s.io/v1', 'StorageClass', '1.6', guideSrc('v1.22 Storage resources'));
extra('storage.k8s.io/v1', 'VolumeAttachment', '1.13', guideSrc('v1.22 Storage resources'));
extra('storage.k8s.io/v1', 'CSIStorageCapacity', '1.24', guideSrc('v1.27 CSIStorageCapacity'));
extra('storage.k8s.io/v1', 'VolumeAttributesClass', '1.34', `${PLUTO} (replacement-available-in of the v1beta1 / v1alpha1 rows)`, { confidence: 'reference' });
extra('scheduling.k8s.io/v1', 'PriorityClass', '1.14', guideSrc('v1.22 PriorityClass'));
extra('coordination.k8s.io/v1', 'Lease', '1.14', guideSrc('v1.22 Lease'));
extra('discovery.k8s.io/v1', 'EndpointSlice', '1.21', guideSrc('v1.25 EndpointSlice'));
extra('events.k8s.io/v1', 'Event', '1.19', guideSrc('v1.25 Event'));
extra('node.k8s.io/v1', 'RuntimeClass', '1.20', guideSrc('v1.25 RuntimeClass'));
extra('certificates.k8s.io/v1', 'CertificateSigningRequest', '1.19', guideSrc('v1.22 CertificateSigningRequest'));
extra('flowcontrol.apiserver.k8s.io/v1alpha1', ['FlowSchema', 'PriorityLevelConfiguration'], '1.18', apiTags('flowcontrol/v1alpha1'), {
  deprecated: ['1.20', apiTags('flowcontrol/v1alpha1')], removed: ['1.21', apiTags('flowcontrol/v1alpha1')],
  replacement: 'flowcontrol.apiserver.k8s.io/v1beta1', replacementAvailable: ['1.20', apiTags('flowcontrol/v1beta1')], mig: 'same',
  note: 'Alpha API (disabled by default). Lifecycle from the explicit kubernetes/api tags introduced=1.18, deprecated=1.20, removed=1.21, replacement v1beta2 (v1beta1 is the version available in 1.20, kept as replacement here).',
});
extra('flowcontrol.apiserver.k8s.io/v1', ['FlowSchema', 'PriorityLevelConfiguration'], '1.29', guideSrc('v1.32 Flow control resources'));
for (const k of ['Policy', 'PolicyList', 'Event', 'EventList']) {
  extra('audit.k8s.io/v1', k, '1.12', 'kubernetes/kubernetes#65891 (audit.k8s.io/v1 in release-1.12)', { servedBy: 'kube-apiserver config file', note: 'Audit policy file / audit event format, not a served API. The deprecation release note (kubernetes/kubernetes#98858) says v1 is "available since v1.13"; the v1 package shipped in release-1.12 (#65891), which is followed.' });
}
extra('admissionregistration.k8s.io/v1beta1', ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], '1.28', changelog('1.28', 'ValidatingAdmissionPolicy beta'), { replacement: 'admissionregistration.k8s.io/v1', replacementAvailable: ['1.30', `${PLUTO} (v1alpha1 rows)`], mig: 'unknown', note: 'Beta APIs added after 1.24 are off by default. Deprecation and removal releases not recorded in the sources read (kept null: treated as served from 1.28 on).' });
extra('admissionregistration.k8s.io/v1', ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], '1.30', `${PLUTO} (replacement-available-in of the v1alpha1 rows)`, { confidence: 'reference' });
for (const k of ['ResourceSlice', 'ResourceClaim', 'DeviceClass', 'ResourceClaimTemplate']) {
  extra('resource.k8s.io/v1beta2', k, '1.33', `${PLUTO} (replacement-available-in of the v1beta1 rows)`, {
    replacement: 'resource.k8s.io/v1', replacementAvailable: ['1.34', `${PLUTO} (replacement-available-in of the v1alpha3 rows)`], mig: 'dra',
    deprecated: ['1.36', DRA_V1BETA2_GEN], removed: ['1.39', DRA_V1BETA2_GEN],
    note: 'Beta API (off by default). Deprecated 1.36 and removed 1.39 per the generated lifecycle code (introduced 1.33 there too); 1.39 is after the newest minor the data knows, so it is an announcement.',
  });
  extra('resource.k8s.io/v1', k, '1.34', `${PLUTO} (replacement-available-in of the v1alpha3 rows)`, { confidence: 'reference' });
}
extra('storagemigration.k8s.io/v1beta1', 'StorageVersionMigration', '1.35', `${PLUTO} (replacement-available-in of the v1alpha1 row)`, { confidence: 'reference', note: 'Beta API (off by default). Its deprecation and removal after storagemigration.k8s.io/v1 (1.37) are not recorded in the sources read (kept null).' });
extra('storagemigration.k8s.io/v1', 'StorageVersionMigration', '1.37', `${LIFECYCLE_REF} (Kubernetes v1.37 release blog: StorageVersionMigration stable and enabled by default, KEP-4192)`);
// The field table (data/kubernetes/fields/fields.json, written by import-k8s-fields.mjs before this script), read once:
// the off-by-default kinds below and the type-presence rows' gaps (step 6) take facts from it.
const ft = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json'), 'utf8'));
// Kinds whose alpha/beta versions are off by default (#16 item 6) that no other source here lists: each apiVersion
// from the field table (data/kubernetes/fields/fields.json: the Kubernetes OpenAPI document of each minor, the package
// cited there, lists every registered version, enabled or not). introduced = the first minor whose document has it,
// removed = the minor after the last one when a later document with a source lacks it; the table's last source is
// 1.36, so an apiVersion still there is not vouched for after it (removed stays null).
{
  const lastSourced = Math.max(...Object.entries(ft.sources).filter(([, v]) => v.package || v.document).map(([m]) => Number(m)));
  const src = (m) => {
    const s = ft.sources[String(m)];
    return `data/kubernetes/fields/fields.json: the 1.${m} OpenAPI document (${s.package ?? s.document}${s.preRelease ? ', a pre-release source' : ''})`;
  };
  for (const kind of ['IPAddress', 'ServiceCIDR', 'LeaseCandidate', 'ClusterTrustBundle', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']) {
    const versions = Object.entries(ft.kinds).filter(([k]) => k.split(' ')[1] === kind).map(([k, iv]) => ({ apiVersion: k.split(' ')[0], first: Math.min(...iv.map((x) => x[1])), last: Math.max(...iv.map((x) => x[2])) }));
    const ga = versions.find((v) => /^[^/]+\/v\d+$/.test(v.apiVersion));
    for (const v of versions) {
      const removed = v.last < lastSourced ? `1.${v.last + 1}` : null;
      const sources = [src(v.first), ...(removed ? [`${src(v.last + 1)} no longer has it`] : [])];
      const pre = /alpha|beta/.test(v.apiVersion);
      extra(v.apiVersion, kind, `1.${v.first}`, sources[0], {
        confidence: 'reference',
        ...(removed ? { removed: [removed, sources[1]] } : {}),
        ...(pre && ga ? { replacement: ga.apiVersion, replacementAvailable: [`1.${ga.first}`, src(ga.first)], mig: 'unknown' } : {}),
        note: [pre ? (/alpha/.test(v.apiVersion) ? 'Alpha API (disabled by default).' : 'Beta API (off by default).') : null,
          removed ? null : `Still in the 1.${lastSourced} document, the newest with a source; later minors not vouched for.`,
          'Deprecation not recorded in the sources read.'].filter(Boolean).join(' '),
      });
    }
  }
}
extra('snapshot.storage.k8s.io/v1', ['VolumeSnapshot', 'VolumeSnapshotClass', 'VolumeSnapshotContent'], '1.20', changelog('1.20', 'CSI volume snapshot GA'), { servedBy: 'CRD (kubernetes-csi/external-snapshotter)', note: 'Served by the external-snapshotter CRDs (v1 since external-snapshotter 4.0, released with Kubernetes 1.20), not by kube-apiserver.' });
for (const k of ['Certificate', 'Issuer', 'ClusterIssuer', 'CertificateRequest']) {
  extra('cert-manager.io/v1', k, '1.0', CM('v1.0', 'v1 API'), { component: 'cert-manager', servedBy: 'CRD (cert-manager)', note: 'Versions are cert-manager releases, not Kubernetes minors.' });
}
for (const k of ['Order', 'Challenge']) {
  extra('acme.cert-manager.io/v1', k, '1.0', CM('v1.0', 'v1 API'), { component: 'cert-manager', servedBy: 'CRD (cert-manager)', note: 'Versions are cert-manager releases, not Kubernetes minors.' });
}

// ---------------------------------------------------------------------------------------------
// read the reference material

const sourcesMd = readText('SOURCES.md');
const readOn = /Read on (\d{4}-\d{2}-\d{2})/.exec(sourcesMd)?.[1] ?? fail('SOURCES.md: no "Read on YYYY-MM-DD"');
const plutoCommit = /tag v5\.24\.0 = commit ([0-9a-f]{40}) \((\d{4}-\d{2}-\d{2})/.exec(sourcesMd) ?? fail('SOURCES.md: no Pluto v5.24.0 commit');
const releases = readJson('releases.json');
const kubent = readJson('kubent-rules.json');
const pluto = YAML.parse(readText('pluto-versions.yaml'));
const entries = pluto['deprecated-versions'];
if (!Array.isArray(entries) || entries.length !== 112) fail(`expected 112 Pluto entries, got ${entries?.length}`);
const byComp = {};
for (const e of entries) byComp[e.component] = (byComp[e.component] ?? 0) + 1;
if (byComp.k8s !== 86 || byComp['cert-manager'] !== 24 || byComp.istio !== 2) fail(`Pluto component counts changed: ${JSON.stringify(byComp)}`);
if (kubent.rules.length !== kubent.count || kubent.count !== 51) fail(`expected 51 kubent rules, got ${kubent.rules.length}`);
// releases.json stops at 1.36; lifecycle-1.33-1.38.json (read later) gives the releases since. A minor counts as known
// once its release date is on or before that file's read date (1.37: 2026-08-26; 1.38 is scheduled for 2026-12-16,
// so it is not known: only its announced removals are in the rows).
const later = readJson('lifecycle-1.33-1.38.json');
const laterReleases = later.rows.filter((r) => r.kind === 'release')
  .map((r) => ({ minor: r.minors.release, date: /^\d{4}-\d{2}-\d{2}/.exec(r.date)?.[0] ?? null }))
  .filter((r) => r.date && r.date <= later.readDate);
const asOf = [readOn, releases.snapshotDate, later.readDate].sort().at(-1);
const minors = [...new Set([...releases.releases.map((r) => r.minor), ...laterReleases.map((r) => r.minor)])].sort(cmpMinor);
for (let i = 1; i < minors.length; i++) if (cmpMinor(minors[i], minors[i - 1]) !== 1) fail(`minors not contiguous at ${minors[i]}`);

// Pluto's default target version per component (its `target-versions`, used when `--target-versions` does not name
// the component): cert-manager and istio rows are checked at these unless the user gives a version. k8s is not
// taken: the Kubernetes window replaces it.
const componentTargets = {};
for (const [component, v] of Object.entries(pluto['target-versions'] ?? {}).sort()) {
  if (component === 'k8s') continue;
  componentTargets[component] = { version: normalizeKubernetesVersion(String(v)), plutoTarget: String(v), source: `${PLUTO} target-versions` };
}
if (Object.keys(componentTargets).join(',') !== 'cert-manager,istio') fail(`Pluto target-versions changed: ${JSON.stringify(pluto['target-versions'])}`);
// cert-manager.io and acme.cert-manager.io are judged at the cert-manager window (data/operators, see MOVED_TO_OPERATORS below).
componentTargets['cert-manager'].source += '; used only for the certmanager.k8s.io rows (cert-manager before 0.11)';

// ---------------------------------------------------------------------------------------------
// build rows

/** @type {Map<string, any>} key -> row under construction */
const rows = new Map();
const corrections = [];
const filled = [];

function newRow(apiVersion, kind, component) {
  const { group, version } = splitApiVersion(apiVersion);
  return {
    apiVersion, group, version, kind, component,
    servedBy: component === 'k8s' ? 'kube-apiserver' : `CRD (${component})`,
    introduced: null, deprecated: null, removed: null, replacement: null, replacementAvailable: null,
    migration: null, migrationNote: null,
    confidence: 'reference', changelogFields: [],
    sources: [], plutoEntries: [], notes: [],
  };
}
/** Adds a source name unless it is already there (also as "<name> (detail)" of a listed name). */
function addSource(row, s) {
  if (!s || row.sources.some((x) => x === s || s.startsWith(`${x} (`))) return;
  row.sources = row.sources.filter((x) => !x.startsWith(`${s} (`));
  row.sources.push(s);
}
const addNote = (row, n) => { if (n && !row.notes.includes(n)) row.notes.push(n); };
const markChangelog = (row, field) => { if (!row.changelogFields.includes(field)) row.changelogFields.push(field); };

function applyKnowledge(row, pkey) {
  const info = K[pkey];
  if (!info) return;
  if (info.introduced && row.introduced === null) {
    row.introduced = info.introduced[0];
    addSource(row, info.introduced[1]);
    markChangelog(row, 'introduced');
  }
  if (info.servedBy) row.servedBy = info.servedBy;
  if (info.mig && !row.migration) [row.migration, row.migrationNote] = MIG[info.mig];
  addNote(row, info.note);
}

// 1. Pluto entries, in file order; the "FlowControl" entry last (it only attaches to the rows of
//    its apiVersion's real kinds, whose values come from their own entries)
const order = entries.map((e, i) => i).sort((a, b) => (entries[a].kind === 'FlowControl') - (entries[b].kind === 'FlowControl') || a - b);
for (const i of order) {
  const e = entries[i];
  const apiVersion = e.version;
  const kinds = e.kind === 'FlowControl' ? ['FlowSchema', 'PriorityLevelConfiguration'] : [e.kind];
  for (const kind of kinds) {
    const k = key(apiVersion, kind);
    let row = rows.get(k);
    const plutoValues = {
      deprecated: minorOf(e['deprecated-in']), removed: minorOf(e['removed-in']),
      replacement: e['replacement-api'] || null, replacementAvailable: minorOf(e['replacement-available-in']),
    };
    if (!row) {
      if (e.kind === 'FlowControl') fail(`FlowControl entry ${i}: no ${kind} row for ${apiVersion}`);
      row = newRow(apiVersion, kind, e.component);
      Object.assign(row, plutoValues);
      rows.set(k, row);
    } else if (e.kind !== 'FlowControl') {
      // duplicate Pluto entry: must be identical
      for (const f of Object.keys(plutoValues)) if (row[f] !== plutoValues[f]) fail(`duplicate Pluto entry ${k} differs in ${f}`);
      addNote(row, `Pluto lists ${apiVersion} ${kind} twice (identical entries ${row.plutoEntries.join(', ')} and ${i}); kept as one row.`);
    }
    row.plutoEntries.push(i);
    addSource(row, PLUTO);
    if (e.kind === 'FlowControl') {
      addNote(row, `Pluto entry ${i} has kind "FlowControl" (no such kind) for this apiVersion with deprecated-in v1.23.0, removed-in v1.26.0, replacement v1beta2; it is read as FlowSchema + PriorityLevelConfiguration and its dates are the upstream ones used here.`);
    }
    applyKnowledge(row, key(apiVersion, e.kind));
    applyKnowledge(row, k);
  }
}

// 2. kubent rules not covered by Pluto
for (const r of kubent.rules) {
  const k = key(r.apiVersion, r.kind);
  let row = rows.get(k);
  if (!row) {
    row = newRow(r.apiVersion, r.kind, 'k8s');
    row.removed = r.removedIn;
    row.replacement = r.replacement === '<removed>' ? null : r.replacement;
    const info = K[k] ?? {};
    if (info.deprecatedFrom) {
      if (info.deprecatedFrom[0] !== r.since) fail(`${k}: deprecatedFrom differs from kubent since`);
      row.deprecated = info.deprecatedFrom[0];
      addSource(row, info.deprecatedFrom[1]);
    } else {
      row.deprecated = r.since;
      addNote(row, `deprecated = kubent's since (${r.since}), the release from which kubent reports it.`);
    }
    const g = guideFor(r.apiVersion, r.kind);
    if (info.repAvail) {
      row.replacementAvailable = info.repAvail[0];
      addSource(row, info.repAvail[1]);
      markChangelog(row, 'replacementAvailable');
    } else if (g?.available) {
      row.replacementAvailable = g.available;
      addSource(row, guideSrc(g.section));
      markChangelog(row, 'replacementAvailable');
    }
    rows.set(k, row);
    applyKnowledge(row, k);
  }
  addSource(row, kubentSrc(r.ruleFile));
}

// 3. corrections and fills (keyed by Pluto's apiVersion + Pluto's kind)
for (const c of CORRECTIONS) {
  for (const plutoKind of c.kinds) {
    const idx = entries.findIndex((e) => e.version === c.apiVersion && e.kind === plutoKind);
    if (idx < 0) fail(`correction for unknown Pluto entry ${c.apiVersion} ${plutoKind}`);
    const e = entries[idx];
    const plutoValue =
      c.field === 'kind' ? e.kind
      : c.field === 'replacement' ? e['replacement-api'] || null
      : minorOf(e[{ deprecated: 'deprecated-in', removed: 'removed-in', replacementAvailable: 'replacement-available-in' }[c.field]]);
    if (plutoValue === c.value) fail(`correction ${c.apiVersion} ${plutoKind} ${c.field} equals Pluto`);
    corrections.push({ apiVersion: c.apiVersion, kind: plutoKind, field: c.field, pluto: plutoValue, value: c.value, why: c.why, source: c.source, confidence: c.confidence });
    const targets = plutoKind === 'FlowControl' ? ['FlowSchema', 'PriorityLevelConfiguration'] : [plutoKind];
    for (const kind of targets) {
      const row = rows.get(key(c.apiVersion, kind));
      if (c.field !== 'kind') {
        if (plutoKind !== 'FlowControl') row[c.field] = c.value;
        else if (row[c.field] !== c.value) fail(`FlowControl correction ${c.field} does not match the folded row`);
      }
      if (plutoKind !== 'FlowControl') {
        addNote(row, `Corrected ${c.field}: Pluto ${plutoValue ?? 'empty'} -> ${c.value}. ${c.why}`);
        for (const s of c.source.split('; ')) addSource(row, s);
        if (c.confidence === 'changelog') markChangelog(row, c.field);
      }
    }
  }
}
for (const f of FILLS) {
  const idx = entries.findIndex((e) => e.version === f.apiVersion && e.kind === f.kind);
  if (idx < 0) fail(`fill for unknown Pluto entry ${f.apiVersion} ${f.kind}`);
  const e = entries[idx];
  const plutoField = { deprecated: 'deprecated-in', removed: 'removed-in', replacementAvailable: 'replacement-available-in' }[f.field];
  if (minorOf(e[plutoField]) !== null) fail(`fill for ${f.apiVersion} ${f.kind} ${f.field}: Pluto has a value`);
  filled.push({ apiVersion: f.apiVersion, kind: f.kind, field: f.field, value: f.value, source: f.source, confidence: f.confidence });
  const targets = f.kind === 'FlowControl' ? ['FlowSchema', 'PriorityLevelConfiguration'] : [f.kind];
  for (const kind of targets) {
    const row = rows.get(key(f.apiVersion, kind));
    if (row[f.field] !== null && row[f.field] !== f.value) fail(`fill conflict ${f.apiVersion} ${kind} ${f.field}`);
    row[f.field] = f.value;
    if (f.kind !== 'FlowControl') {
      addNote(row, `${f.field} ${f.value} filled in (Pluto leaves it empty).`);
      for (const s of f.source.split('; ')) addSource(row, s);
      if (f.confidence === 'changelog') markChangelog(row, f.field);
    }
  }
}

// 4. extra rows
for (const x of EXTRA) {
  const k = key(x.apiVersion, x.kind);
  if (rows.has(k)) fail(`extra row ${k} duplicates an existing row`);
  const row = newRow(x.apiVersion, x.kind, x.component ?? 'k8s');
  if (x.servedBy) row.servedBy = x.servedBy;
  row.introduced = x.introduced;
  addSource(row, x.source);
  row.extraConfidence = x.confidence ?? 'changelog';
  if (x.introduced !== null && row.extraConfidence === 'changelog') markChangelog(row, 'introduced');
  for (const f of ['deprecated', 'removed', 'replacementAvailable']) {
    if (x[f]) {
      row[f] = x[f][0];
      addSource(row, x[f][1]);
      if (!x[f][1].startsWith(PLUTO)) markChangelog(row, f);
    }
  }
  if (x.replacement) row.replacement = x.replacement;
  if (x.mig) [row.migration, row.migrationNote] = MIG[x.mig];
  else if (row.replacement) [row.migration, row.migrationNote] = MIG.unknown;
  addNote(row, x.note);
  rows.set(k, row);
}

// ---------------------------------------------------------------------------------------------
// cross-checks against kubent and the deprecation guide (every row they cover)

for (const row of rows.values()) {
  const kr = kubent.rules.find((r) => r.apiVersion === row.apiVersion && r.kind === row.kind);
  if (kr) {
    if (kr.removedIn !== row.removed) fail(`kubent removedIn ${kr.removedIn} != ${row.removed} for ${row.apiVersion} ${row.kind}`);
    const krRepl = kr.replacement === '<removed>' ? null : kr.replacement;
    if (krRepl !== row.replacement) fail(`kubent replacement ${krRepl} != ${row.replacement} for ${row.apiVersion} ${row.kind}`);
    if (kr.since !== row.deprecated && kr.since !== row.replacementAvailable) {
      addNote(row, `kubent reports it from ${kr.since} (its "since"), which is neither the deprecated (${row.deprecated ?? 'none'}) nor the replacement-available (${row.replacementAvailable ?? 'none'}) release used here; the two tools mean different things by these values.`);
    }
  }
  const g = guideFor(row.apiVersion, row.kind);
  if (g) {
    addSource(row, guideSrc(g.section));
    if (g.removed !== row.removed) fail(`guide removed ${g.removed} != ${row.removed} for ${row.apiVersion} ${row.kind}`);
    if (g.replacement !== row.replacement) {
      addNote(row, `The deprecation guide names ${g.replacement ?? 'no replacement'} (available since ${g.available}).`);
    } else if (g.available !== row.replacementAvailable) {
      addNote(row, `The deprecation guide says the replacement is available since ${g.available}; ${row.replacementAvailable ?? 'none'} kept here.`);
    }
    if (g.alsoNote) addNote(row, `Deprecation guide: ${g.alsoNote}.`);
  } else if (row.component === 'k8s' && row.removed && row.plutoEntries.length) {
    addNote(row, 'Not covered by the deprecation guide (it has no section for this apiVersion/kind).');
  }
  // migration stays null only for a current apiVersion (no replacement, not deprecated/removed)
  if (!row.migration && (row.replacement || row.deprecated || row.removed)) [row.migration, row.migrationNote] = MIG.unknown;
  if (row.kind.endsWith('List') && row.kind !== 'List') addNote(row, 'List kind: appears in `kubectl get -o yaml` output and List manifests rather than as a stand-alone object.');
  if (row.introduced === null && row.component === 'k8s' && !row.notes.some((n) => /introduced|GA before|never served/.test(n))) {
    addNote(row, 'introduced unknown (not recorded in the sources read); treated as served before any minor asked about.');
  }
  if (row.introduced === null && row.component !== 'k8s' && !row.notes.some((n) => /not recorded/.test(n))) {
    addNote(row, 'introduced unknown (not recorded in the sources read).');
  }
  row.confidence = row.changelogFields.length || row.extraConfidence === 'changelog' ? 'changelog' : 'reference';
  if (!row.sources.length) fail(`${row.apiVersion} ${row.kind} has no source`);
  // consistency
  for (const f of ['introduced', 'deprecated', 'removed', 'replacementAvailable']) {
    if (row[f] !== null && !/^\d+\.\d+$/.test(row[f])) fail(`${row.apiVersion} ${row.kind} ${f}=${row[f]}`);
  }
  if (row.introduced && row.removed && cmpMinor(row.introduced, row.removed) >= 0) {
    fail(`${row.apiVersion} ${row.kind}: introduced ${row.introduced} >= removed ${row.removed}`);
  }
}

// 5. prerelease rows from the generated code (shared/reference/kubernetes/prerelease-lifecycle.json,
//    scripts/lib/prerelease-rows.mjs): introduced / deprecated / removed of every kube-apiserver alpha/beta row with
//    lifecycle functions; what Pluto and kubent said is kept in `crossChecks` where it differs.
const prerelease = applyPrerelease({
  rows, refDir, fail, addSource, addNote, MIG,
  newRow: (apiVersion, kind) => newRow(apiVersion, kind, 'k8s'),
  previous: (row) => {
    const out = {};
    const e = row.plutoEntries.map((i) => entries[i]).find((x) => x.kind === row.kind) ?? (row.plutoEntries.length ? entries[row.plutoEntries[0]] : null);
    if (e) out.pluto = { deprecated: minorOf(e['deprecated-in']), removed: minorOf(e['removed-in']) };
    const kr = kubent.rules.find((r) => r.apiVersion === row.apiVersion && r.kind === row.kind);
    if (kr) out.kubent = { since: kr.since, removed: kr.removedIn };
    const g = guideFor(row.apiVersion, row.kind);
    if (g) out.deprecationGuide = { removed: g.removed };
    return out;
  },
});
for (const row of rows.values()) {
  if (!row.lifecycleFrom) continue;
  if (row.introduced && row.removed && cmpMinor(row.introduced, row.removed) >= 0) fail(`${row.apiVersion} ${row.kind}: introduced ${row.introduced} >= removed ${row.removed}`);
  row.sources = row.sources.filter((s) => s !== PLUTO && !s.startsWith('kubent '));
  row.confidence = row.changelogFields.length ? 'changelog' : 'reference';
}

// 6. rows for the alpha/beta kinds that never had lifecycle functions and have no row yet (batch/v2alpha1 CronJob,
//    resource.k8s.io/v1alpha2, scheduling.k8s.io/v1alpha1–v1alpha3 …): inferred from the minors whose tag has the Go
//    type (scripts/lib/prerelease-rows.mjs applyTypePresence). Without a row such a kind counted as served everywhere.
const typePresence = applyTypePresence({
  rows, refDir, fail, addSource, addNote, MIG,
  newRow: (apiVersion, kind) => newRow(apiVersion, kind, 'k8s'),
});
// Where the reference's OpenAPI documents leave a gap before the removal (node.k8s.io/v1alpha1 RuntimeClass: in the
// documents to 1.22, none from 1.23 to 1.27, gone at 1.28), the field table (data/kubernetes/fields/fields.json, one
// OpenAPI-derived source per minor) has those minors: the first one whose source no longer has the kind, when every minor
// from there to the documented removal has a source, is the removal (for RuntimeClass 1.24, as CHANGELOG-1.24 says of
// #103061). Said in the row with both sources.
{
  const sourced = (m) => !!(ft.sources[String(m)]?.package || ft.sources[String(m)]?.document);
  for (const row of rows.values()) {
    const tp = row.typePresence;
    if (!tp?.removedBetween) continue;
    const iv = ft.kinds[`${row.apiVersion} ${tp.servingFollows ?? row.kind}`];
    if (!iv?.length) continue;
    const lastInTable = Math.max(...iv.map((x) => x[2]));
    const cut = lastInTable + 1;
    const [from, to] = tp.removedBetween.map((v) => Number(v.split('.')[1]));
    if (cut < from || cut >= to) continue;
    let all = true;
    for (let m = cut; m <= to; m++) if (!sourced(m)) all = false;
    if (!all) continue;
    const s = ft.sources[String(cut)];
    row.removed = `1.${cut}`;
    tp.removedBy = 'fieldTable';
    tp.fieldTableLast = `1.${lastInTable}`;
    addSource(row, `data/kubernetes/fields/fields.json: the 1.${lastInTable} OpenAPI document has ${tp.servingFollows ?? row.kind} (${ft.sources[String(lastInTable)]?.package ?? ft.sources[String(lastInTable)]?.document}); the 1.${cut} one (${s.package ?? s.document}) and every later one no longer have it`);
    addNote(row, `The reference's documents leave ${tp.removedBetween[0]}..${tp.removedBetween[1]} open; the field table's source of each of those minors settles it: removed in 1.${cut}.`);
  }
}
for (const row of rows.values()) {
  if (!row.typePresence) continue;
  if (row.introduced && row.removed && cmpMinor(row.introduced, row.removed) >= 0) fail(`${row.apiVersion} ${row.kind}: introduced ${row.introduced} >= removed ${row.removed}`);
  row.confidence = TYPE_PRESENCE_CONFIDENCE;
}
prerelease.summary.typePresence = typePresence;
// 7. GA apiVersions of a kind the data knows that only the generated code dates (APILifecycleIntroduced; resource.k8s.io/v1
//    DeviceTaintRule, GA in 1.37): without a row such an apiVersion counted as served at every minor.
prerelease.summary.gaAdded = applyGaIntroduced({ rows, refDir, fail, addSource, addNote, newRow: (apiVersion, kind) => newRow(apiVersion, kind, 'k8s') });

// every replacement target must be a row (so "served" questions have an answer)
for (const row of rows.values()) {
  // istio replacements are other kinds; core v1 Endpoints is replaced by the EndpointSlice kind
  if (!row.replacement || row.component === 'istio' || key(row.apiVersion, row.kind) === 'v1|Endpoints') continue;
  const repKind = row.kind;
  if (!rows.has(key(row.replacement, repKind))) fail(`replacement ${row.replacement} ${repKind} (for ${row.apiVersion}) has no row`);
}

// ---------------------------------------------------------------------------------------------
// output

const COMPONENT_ORDER = ['k8s', 'cert-manager', 'istio'];
// cert-manager.io and acme.cert-manager.io moved to data/operators/lifecycle.json (scripts/import-operators.mjs, issue #31:
// cert-manager's own CRDs at every minor 1.0..1.21, judged by the k8s/operator-* rules at the cert-manager window), so
// their rows are left out here. certmanager.k8s.io (cert-manager before 0.11) and Istio's authentication.istio.io and
// rbac.istio.io rows are older than that data (cert-manager 1.0+, Istio 1.9+): they stay, checked as before.
const operatorRef = JSON.parse(fs.readFileSync(path.join(referenceOf('operators'), 'crd-lifecycle.json'), 'utf8')).operators;
const MOVED_TO_OPERATORS = new Set(Object.values(operatorRef['cert-manager'].crds).map((c) => c.group));
if ([...MOVED_TO_OPERATORS].sort().join(',') !== 'acme.cert-manager.io,cert-manager.io') fail(`cert-manager operator groups changed: ${[...MOVED_TO_OPERATORS].join(', ')}`);
for (const g of ['certmanager.k8s.io', 'authentication.istio.io', 'rbac.istio.io']) {
  if (Object.values(operatorRef).some((o) => Object.values(o.crds).some((c) => c.group === g))) fail(`${g} is in the operators data now: move its rows too`);
}
const moved = (r) => r.component === 'cert-manager' && MOVED_TO_OPERATORS.has(r.group);
const movedAv = (av) => MOVED_TO_OPERATORS.has(String(av).split('/')[0]);
const apis = [...rows.values()].filter((r) => !moved(r))
  .sort((a, b) => {
    const c = COMPONENT_ORDER.indexOf(a.component) - COMPONENT_ORDER.indexOf(b.component);
    if (c) return c;
    if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
    if (a.group !== b.group) return a.group < b.group ? -1 : 1;
    const ra = versionRank(a.version);
    const rb = versionRank(b.version);
    for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return 0;
  })
  .map((r) => ({
    apiVersion: r.apiVersion,
    group: r.group,
    version: r.version,
    kind: r.kind,
    component: r.component,
    servedBy: r.servedBy,
    ...(r.servedBy === 'kube-apiserver config file' ? { readBy: 'kube-apiserver' } : {}),
    introduced: r.introduced,
    deprecated: r.deprecated,
    removed: r.removed,
    replacement: r.replacement,
    replacementAvailable: r.replacementAvailable,
    migration: r.migration,
    migrationNote: r.migrationNote,
    confidence: r.confidence,
    ...(r.changelogFields.length ? { changelogFields: [...r.changelogFields].sort() } : {}),
    sources: r.sources,
    ...(r.lifecycleFrom ? { lifecycleFrom: r.lifecycleFrom } : {}),
    ...(r.typePresence ? { typePresence: r.typePresence } : {}),
    ...(r.crossChecks ? { crossChecks: r.crossChecks } : {}),
    ...(r.departures ? { departures: r.departures } : {}),
    ...(r.plutoEntries.length ? { plutoEntries: [...r.plutoEntries].sort((a, b) => a - b) } : {}),
    note: r.notes.length ? r.notes.join(' ') : null,
  }));

// "Served only when enabled": kube-apiserver registers alpha API versions and, from KEP-3136 (1.24), new beta API
// versions disabled by default (--runtime-config enables them). pkg/controlplane/instance.go DefaultAPIResourceConfigSource
// disables alphaAPIGroupVersionsDisabledByDefault ("always disabled by default") and betaAPIGroupVersionsDisabledByDefault
// ("all future beta groupVersions"), then re-enables legacyBetaEnabledByDefaultResources, to which only resources
// "already enabled by default in a beta level" may be added (flowcontrol v1beta3 flowschemas and
// prioritylevelconfigurations); instance_test.go TestNoBetaVersionsEnabledByDefault fails for any other beta enabled
// by default. Search-index copies: instance.go id 133237518 (the 1.29/1.30 lists), instance_test.go id 7302708.
const OFF_SOURCE = 'kubernetes/kubernetes pkg/controlplane/instance.go DefaultAPIResourceConfigSource: alphaAPIGroupVersionsDisabledByDefault ("always disabled by default"), betaAPIGroupVersionsDisabledByDefault ("all future beta groupVersions"), legacyBetaEnabledByDefaultResources (only flowcontrol v1beta3 flowschemas and prioritylevelconfigurations re-enabled) (search-index copy id 133237518); instance_test.go TestNoBetaVersionsEnabledByDefault (id 7302708); KEP-3136 beta APIs off by default (1.24)';
const LEGACY_BETA_ON = new Set(['flowcontrol.apiserver.k8s.io/v1beta3|FlowSchema', 'flowcontrol.apiserver.k8s.io/v1beta3|PriorityLevelConfiguration']);
for (const a of apis) {
  if (a.component !== 'k8s' || a.servedBy !== 'kube-apiserver') continue;
  const alpha = /alpha/.test(a.version);
  const lateBeta = /beta/.test(a.version) && a.introduced != null && Number(a.introduced.split('.')[0]) === 1 && Number(a.introduced.split('.')[1]) >= 24 && !LEGACY_BETA_ON.has(`${a.apiVersion}|${a.kind.replace(/List$/, '')}`);
  if (!alpha && !lateBeta) continue;
  a.offByDefault = {
    why: alpha ? 'alpha API versions are always disabled by default' : 'beta API versions added from 1.24 on are disabled by default (KEP-3136)',
    enable: `kube-apiserver --runtime-config=${a.apiVersion}=true`,
    source: OFF_SOURCE,
  };
}

// FluxCD rows (component fluxcd, versions are Flux minors), from fluxcd-apis.json: scripts/lib/fluxcd-rows.mjs.
const fluxcd = fluxcdRows(refDir, fail);
for (const r of fluxcd.rows) if (apis.some((a) => a.apiVersion === r.apiVersion && a.kind === r.kind)) fail(`fluxcd row ${r.apiVersion} ${r.kind} duplicates a row`);
apis.push(...fluxcd.rows);
componentTargets.fluxcd = fluxcd.target;

// Gateway API, Calico, Multus and SR-IOV network operator rows (each its own version line, as cert-manager's and
// Flux's): scripts/lib/ecosystem-rows.mjs.
const ecosystem = ecosystemRows(fail);
for (const r of ecosystem.rows) if (apis.some((a) => a.apiVersion === r.apiVersion && a.kind === r.kind)) fail(`ecosystem row ${r.apiVersion} ${r.kind} duplicates a row`);
apis.push(...ecosystem.rows);
Object.assign(componentTargets, ecosystem.targets);

// Component configuration files (kubeadm, kubelet, kube-proxy, kube-scheduler, kube-controller-manager, kube-apiserver
// config files), from component-config-apis.json: scripts/lib/component-config-rows.mjs. Not served: read by `readBy`.
const componentConfig = componentConfigRows(refDir, fail);
for (const r of componentConfig.rows) if (apis.some((a) => a.apiVersion === r.apiVersion && a.kind === r.kind)) fail(`component config row ${r.apiVersion} ${r.kind} duplicates a row`);
apis.push(...componentConfig.rows);

const out = {
  asOf,
  description:
    'Kubernetes API lifecycle per apiVersion/kind: the minor where it was first served (introduced), deprecated, stopped being served (removed), its replacement and when that became available, and what a migration involves. ' +
    'Every entry of Pluto v5.24.0 versions.yaml and every kube-no-trouble rule, cross-checked against the Kubernetes Deprecated API Migration Guide, plus the current apiVersions that replace them or that manifests commonly use. ' +
    'Imported by scripts/import-kubernetes.mjs from shared/reference/kubernetes (pluto-versions.yaml, kubent-rules.json, releases.json, SOURCES.md) and the upstream facts written in that script.',
  fields: {
    introduced: 'minor "X.Y" where this apiVersion first served this kind; null = unknown (treated as served since before any minor asked about)',
    deprecated: 'minor from which it counts as deprecated (Pluto: target >= deprecated); null = never/unknown',
    removed: 'first minor that no longer serves it; null = still served / unknown',
    replacementAvailable: 'minor from which `replacement` serves this kind',
    component: 'k8s = Kubernetes minors; cert-manager / istio / fluxcd / gateway-api / calico / multus / sriov-network-operator rows use THAT project\'s release numbers (fluxcd: Flux minors, from fluxcd-apis.json; the others from scripts/lib/ecosystem-rows.mjs)',
    servedBy: 'kube-apiserver, "<component> config file" (audit, kubeadm, kubelet, kube-proxy, kube-scheduler, kube-controller-manager, kube-apiserver configuration files: not served, read from disk by `readBy`), or a CRD-providing project',
    readBy: 'config-file rows only: the component that reads the file (kubeadm, kubelet, kube-proxy, kube-scheduler, kube-controller-manager, kube-apiserver); "removed" is the first minor of that component that no longer reads it',
    kind: '"" = every kind of the apiVersion (Pluto semantics, one istio row)',
    migration: 'apiVersion-only | spec-changes | no-replacement | unknown; null (with migrationNote null) = a current apiVersion with nothing to migrate to',
    confidence: 'reference = every lifecycle value is stated in shared/reference (Pluto, kubent, releases.json); changelog = at least one value (listed in changelogFields) comes from upstream docs/changelogs/source named in `sources`; type-presence = no source declares the lifecycle: introduced and removed are inferred from the minors whose kubernetes/api tag has the Go type (see `typePresence`)',
    plutoEntries: '0-based positions of the Pluto versions.yaml entries this row stands for',
    corrections: 'Pluto values replaced by upstream values (the row carries `value`)',
    filled: 'values Pluto leaves empty, given by another source (the row carries `value`)',
    componentTargets: 'per component other than k8s: the version its rows are checked at unless the user gives one (Pluto\'s default target-versions)',
    offByDefault: 'kube-apiserver rows only: the apiVersion is registered but disabled by default at every minor that serves it (alpha, or beta added from 1.24): served only when enabled (`enable`), with why and the source',
    lifecycleFrom: 'kube-apiserver alpha/beta rows with lifecycle functions (and GA rows the generated code alone dates, prereleaseLifecycle.gaAdded): introduced, deprecated and removed are those of the generated code (zz_generated.prerelease-lifecycle.go) read in shared/reference/kubernetes/prerelease-lifecycle.json: the repository, file and tag that declares them, the first and last minor it is served at (`servedAt`), the declared introduced where the type came later (`declaredIntroduced`), and `preRelease` where the newest minor, read at a pre-release tag, decides a value',
    typePresence: 'kube-apiserver alpha/beta rows whose kind never had lifecycle functions (prereleaseWithoutLifecycle in shared/reference/kubernetes/prerelease-lifecycle.json): the first and last minor whose tag has the Go type (`typeAt`) and its first and last tag; introduced is the first of them (null when it is the first minor read), removed the minor after the last (null while the newest tag has it), or, `removedBy` openapiServedAt, the first minor whose OpenAPI document lacks the kind (`removedBetween`: the minors without a document it may be as early as); `preRelease` where the newest minor, read at a pre-release tag, decides a value; `servingFollows` for a List kind',
    crossChecks: 'rows with `lifecycleFrom`: what Pluto (deprecated, removed), kubent (since, removed) and the deprecation guide (removed) say where it differs from the row; cross-checks, not sources',
    departures: 'rows with `lifecycleFrom`: the minors where the row deliberately answers otherwise than the generated code, the value used, the generated one, why and the upstream evidence',
    prereleaseLifecycle: 'summary of the generated-code import: the reference file, its minors, the minors read at a pre-release tag, the rows changed (before/after), the rows added, the departures',
  },
  sourcesRead: [
    { name: PLUTO, repo: 'FairwindsOps/pluto', path: 'versions.yaml', commit: plutoCommit[1], date: plutoCommit[2], copy: 'shared/reference/kubernetes/pluto-versions.yaml' },
    { name: 'kubent', repo: kubent.source.repo, path: kubent.source.path, commit: kubent.source.commit, copy: 'shared/reference/kubernetes/kubent-rules.json' },
    { name: 'Kubernetes releases', copy: 'shared/reference/kubernetes/releases.json', date: releases.snapshotDate },
    { name: 'Kubernetes 1.33-1.38 lifecycle', copy: LIFECYCLE_REF, date: later.readDate, note: `releases after 1.36 (${laterReleases.map((r) => `${r.minor} ${r.date}`).join(', ')}; the published release dates: the reference did not see the tags themselves); announced removals (resource.k8s.io/v1beta1 in 1.38) verified in the generated lifecycle code` },
    { name: 'generated prerelease lifecycle per minor', copy: 'shared/reference/kubernetes/prerelease-lifecycle.json', date: prerelease.summary.generatedOn, note: 'kubernetes/api, apiextensions-apiserver and kube-aggregator zz_generated.prerelease-lifecycle.go at the latest patch tag of 1.16–1.36 and v0.37.0-beta.0 (1.37, pre-release); the source of every kube-apiserver alpha/beta row with lifecycle functions' },
    { name: 'kubernetes/kubernetes generated lifecycle code', repo: 'kubernetes/kubernetes', path: 'staging/src/k8s.io/api/<group>/<version>/zz_generated.prerelease-lifecycle.go', note: 'search-index copies; the commit of each file version is named per row in `sources`' },
    { name: 'Kubernetes Deprecated API Migration Guide', url: GUIDE_URL, repo: 'kubernetes/website', path: 'content/en/docs/reference/using-api/deprecation-guide.md', commit: '02afb71016ac558fc5836738711e78e77b1ad44a', note: 'v1.16–v1.25 sections; v1.26–v1.32 sections read from the copy in dancer1325/kubernetes-website at d46ff627136bc060a79556d797193108676f849a and the kubernetes.io mirror k8s.jobcher.com' },
    { name: 'kubernetes/api lifecycle tags', repo: 'kubernetes/api', path: '<group>/<version>/types.go (+k8s:prerelease-lifecycle-gen; defaults: deprecated = introduced+3, removed = introduced+6 minors)', commit: K8S_API_COMMIT },
    { name: 'Kubernetes changelogs / release blogs, cert-manager release notes', note: 'named per row in `sources`; confidence "changelog"' },
  ],
  minors,
  componentTargets,
  componentConfig: { source: 'shared/reference/kubernetes/component-config-apis.json', readDate: JSON.parse(fs.readFileSync(path.join(refDir, 'component-config-apis.json'), 'utf8')).readDate, omitted: componentConfig.omitted, settings: componentConfig.settings },
  prereleaseLifecycle: prerelease.summary,
  corrections: corrections.filter((c) => !movedAv(c.apiVersion)),
  filled: filled.filter((f) => !movedAv(f.apiVersion)),
  apis,
};

fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
const counts = {};
for (const a of apis) counts[a.component] = (counts[a.component] ?? 0) + 1;
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${apis.length} rows ${JSON.stringify(counts)}, ${corrections.length} corrections, ${filled.length} filled`);
