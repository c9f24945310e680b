// Writes data/kubernetes/annotations.json: annotations Kubernetes deprecated in favour of a field, each row with its
// upstream sources (code and KEPs at a tag or commit) and the minors they give. Facts read by hand from the sources
// cited in each row (the rows are the data; this script only writes them in a stable form):
//   node scripts/import-k8s-annotations.mjs
// Read by server/src/engine/families/kubernetes/rules/deprecated-annotation.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'data', 'kubernetes', 'annotations.json');

const PROFILE_VALUES = {
  'runtime/default': { type: 'RuntimeDefault' },
  'docker/default': { type: 'RuntimeDefault' },
  unconfined: { type: 'Unconfined' },
  'localhost/': { type: 'Localhost', localhostProfile: '$rest' },
};

const rows = [
  {
    key: 'seccomp.security.alpha.kubernetes.io/pod',
    scope: 'pod',
    deprecated: 19,
    ignoredByKubelet: 25,
    nonFunctional: 27,
    field: ['securityContext', 'seccompProfile'],
    values: PROFILE_VALUES,
    sources: [
      'kubernetes/kubernetes pkg/api/pod/warnings.go (master): `non-functional in v1.27+; use the "seccompProfile" field instead`',
      'kubernetes/enhancements keps/sig-node/135-seccomp (KEP-135, seccomp GA in 1.19: fields securityContext.seccompProfile; annotations deprecated)',
      'kubernetes/kubernetes PR 109819 (1.25: the kubelet no longer reads the annotations), PR 114947 (1.27: the API server no longer converts them to the field)',
    ],
    notes: ['docker/default is the older spelling of runtime/default (KEP-135: both map to RuntimeDefault)'],
  },
  {
    prefix: 'container.seccomp.security.alpha.kubernetes.io/',
    scope: 'container',
    deprecated: 19,
    ignoredByKubelet: 25,
    nonFunctional: 27,
    field: ['securityContext', 'seccompProfile'],
    values: PROFILE_VALUES,
    sources: [
      'kubernetes/kubernetes pkg/api/pod/warnings.go (master): `non-functional in v1.27+; use the "seccompProfile" field instead` for SeccompContainerAnnotationKeyPrefix + container name',
      'kubernetes/enhancements keps/sig-node/135-seccomp (KEP-135)',
      'kubernetes/kubernetes PR 109819 (1.25), PR 114947 (1.27)',
    ],
  },
  {
    prefix: 'container.apparmor.security.beta.kubernetes.io/',
    scope: 'container',
    deprecated: 30,
    field: ['securityContext', 'appArmorProfile'],
    values: { 'runtime/default': { type: 'RuntimeDefault' }, unconfined: { type: 'Unconfined' }, 'localhost/': { type: 'Localhost', localhostProfile: '$rest' } },
    sources: [
      'kubernetes/kubernetes pkg/api/pod/warnings.go (master): `deprecated since v1.30; use the "appArmorProfile" field instead` for DeprecatedAppArmorAnnotationKeyPrefix + container name',
      'kubernetes/enhancements keps/sig-node/24-apparmor (KEP-24: securityContext.appArmorProfile from 1.30)',
    ],
    notes: ['No minor that stops honouring the annotation is given upstream up to 1.37 (KEP-24 plans a removal; not seen in the 1.35..1.37 notes).'],
  },
  {
    key: 'kubernetes.io/ingress.class',
    scope: 'ingress',
    deprecated: 18,
    field: ['spec', 'ingressClassName'],
    values: { '*': '$value' },
    sources: [
      'kubernetes/website content/en/docs/concepts/services-networking/ingress.md "Deprecated annotation" (the annotation was never formally defined; spec.ingressClassName and IngressClass from 1.18)',
      'kubernetes/website content/en/blog/_posts/2020-04-02-Improvements-to-the-Ingress-API-in-Kubernetes-1.18.md',
    ],
    notes: ['Kubernetes itself never read the annotation; ingress controllers did, and many still do: the field is what every controller of 1.18+ reads.'],
  },
];

const data = {
  description: 'Annotations Kubernetes deprecated in favour of a field: the minor that deprecates each, where known the minors from which it has no effect, the field that replaces it and how its values map to the field. Written by scripts/import-k8s-annotations.mjs.',
  rows,
};
fs.writeFileSync(out, JSON.stringify(data, null, 2) + '\n');
console.log(`import-k8s-annotations: ${rows.length} rows -> ${path.relative(root, out)}`);
