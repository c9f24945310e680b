#!/usr/bin/env node
// Writes examples/cluster-evidence/helm-releases.yaml: what `kubectl get secrets -A -l owner=helm -o yaml` prints for
// a cluster with two Helm releases, made after the real format (nothing is captured from a cluster). Each record is
// encoded as Helm 3's Secret storage writes it (helm/pkg/storage/driver: the release as JSON, gzipped at
// BestCompression, base64; the Secret's data adds Kubernetes' base64): `release db` keeps revision 6 (superseded) and
// 7 (deployed), both storing a policy/v1beta1 PodDisruptionBudget; `release web` (revision 3, deployed) stores only
// APIs that 1.24 and 1.25 serve. gzip with the mtime 0 and one compression level gives the same bytes every run.
//
//   node scripts/make-helm-release-example.mjs           write the file
//   node scripts/make-helm-release-example.mjs --check   exit 1 when the file differs from what it would write
//   node scripts/make-helm-release-example.mjs --stdout  print it
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT = path.join(root, 'examples', 'cluster-evidence', 'helm-releases.yaml');

const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');

/** A rendered manifest as Helm stores it: each template's output after a `# Source:` line. */
const manifest = (chart, docs) => docs.map(([tpl, body]) => `---\n# Source: ${chart}/templates/${tpl}\n${body}`).join('\n');

const DB_PDB = (apiVersion) => `apiVersion: ${apiVersion}
kind: PodDisruptionBudget
metadata:
  name: db-pdb
  labels:
    app.kubernetes.io/name: db
    app.kubernetes.io/instance: db
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: db
`;
const DB_SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: db
  labels:
    app.kubernetes.io/name: db
spec:
  clusterIP: None
  ports:
    - name: postgres
      port: 5432
  selector:
    app.kubernetes.io/name: db
`;
const DB_STS = (tag) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  labels:
    app.kubernetes.io/name: db
spec:
  serviceName: db
  replicas: 3
  selector:
    matchLabels:
      app.kubernetes.io/name: db
  template:
    metadata:
      labels:
        app.kubernetes.io/name: db
    spec:
      containers:
        - name: postgres
          image: "docker.io/library/postgres:${tag}"
          ports:
            - name: postgres
              containerPort: 5432
`;
const WEB_DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: web
  template:
    metadata:
      labels:
        app.kubernetes.io/name: web
    spec:
      containers:
        - name: web
          image: "docker.io/library/nginx:1.25.3"
`;
const WEB_PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: web
`;
const WEB_INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
    - host: web.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 80
`;

/** A release as Helm 3 marshals it (pkg/release: Release, Info, Chart with its templates' bytes as base64). */
function release({ name, namespace, revision, status, chart, version, appVersion, description, deployed, templates, values, docs }) {
  return {
    name,
    info: { first_deployed: '2025-03-02T09:14:05.123456789Z', last_deployed: deployed, deleted: '', description, status },
    chart: {
      metadata: { name: chart, version, description: `A Helm chart for ${chart}`, apiVersion: 'v2', appVersion, type: 'application' },
      lock: null,
      templates: templates.map(([tpl, body]) => ({ name: `templates/${tpl}`, data: b64(body) })),
      values,
      schema: null,
      files: [],
    },
    config: {},
    manifest: manifest(chart, docs),
    version: revision,
    namespace,
  };
}

/** JSON → gzip (BestCompression, as Helm's encodeRelease) → base64 → the Secret's base64. */
function encodeSecret(rel) {
  const gz = zlib.gzipSync(Buffer.from(JSON.stringify(rel), 'utf8'), { level: 9 });
  return Buffer.from(gz.toString('base64'), 'latin1').toString('base64');
}

const RELEASES = [
  release({
    name: 'db', namespace: 'db', revision: 6, status: 'superseded', chart: 'db', version: '1.1.4', appVersion: '15.3',
    description: 'Upgrade complete', deployed: '2025-09-18T14:02:44.418112913Z',
    templates: [['pdb.yaml', '{{- if .Values.pdb.enabled }}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n{{- end }}\n'], ['service.yaml', 'apiVersion: v1\nkind: Service\n'], ['statefulset.yaml', 'apiVersion: apps/v1\nkind: StatefulSet\n']],
    values: { pdb: { enabled: true, minAvailable: 1 }, image: { tag: '15.3' } },
    docs: [['pdb.yaml', DB_PDB('policy/v1beta1')], ['service.yaml', DB_SERVICE], ['statefulset.yaml', DB_STS('15.3')]],
  }),
  release({
    name: 'db', namespace: 'db', revision: 7, status: 'deployed', chart: 'db', version: '1.2.0', appVersion: '15.4',
    description: 'Upgrade complete', deployed: '2026-02-11T08:31:27.009151744Z',
    templates: [['pdb.yaml', '{{- if .Values.pdb.enabled }}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n{{- end }}\n'], ['service.yaml', 'apiVersion: v1\nkind: Service\n'], ['statefulset.yaml', 'apiVersion: apps/v1\nkind: StatefulSet\n']],
    values: { pdb: { enabled: true, minAvailable: 1 }, image: { tag: '15.4' } },
    docs: [['pdb.yaml', DB_PDB('policy/v1beta1')], ['service.yaml', DB_SERVICE], ['statefulset.yaml', DB_STS('15.4')]],
  }),
  release({
    name: 'web', namespace: 'web', revision: 3, status: 'deployed', chart: 'web', version: '0.4.1', appVersion: '1.25.3',
    description: 'Upgrade complete', deployed: '2026-01-20T16:45:09.771203118Z',
    templates: [['deployment.yaml', 'apiVersion: apps/v1\nkind: Deployment\n'], ['pdb.yaml', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\n'], ['ingress.yaml', 'apiVersion: networking.k8s.io/v1\nkind: Ingress\n']],
    values: { replicaCount: 2, ingress: { enabled: true, host: 'web.example.com' } },
    docs: [['deployment.yaml', WEB_DEPLOY], ['pdb.yaml', WEB_PDB], ['ingress.yaml', WEB_INGRESS]],
  }),
];

const UIDS = ['3f6c2a8e-5b1d-4c9e-8a47-2d0f6e9b1c35', '9a1e4d7c-2f8b-4e63-b5d0-7c4a1f8e2b96', 'c27b5e90-8d3a-41f6-9e2c-5a8d0b7f3e14'];

function secretYaml(rel, i) {
  const obj = `sh.helm.release.v1.${rel.name}.v${rel.version}`;
  return [
    '- apiVersion: v1',
    '  data:',
    `    release: ${encodeSecret(rel)}`,
    '  kind: Secret',
    '  metadata:',
    `    creationTimestamp: "${rel.info.last_deployed.replace(/\.\d+Z$/, 'Z')}"`,
    '    labels:',
    `      modifiedAt: "${Math.floor(Date.parse(rel.info.last_deployed) / 1000)}"`,
    `      name: ${rel.name}`,
    '      owner: helm',
    `      status: ${rel.info.status}`,
    `      version: "${rel.version}"`,
    `    name: ${obj}`,
    `    namespace: ${rel.namespace}`,
    `    resourceVersion: "${48213 + i * 977}"`,
    `    uid: ${UIDS[i]}`,
    '  type: helm.sh/release.v1',
  ].join('\n');
}

export function exampleText() {
  return ['apiVersion: v1', 'items:', ...RELEASES.map(secretYaml), 'kind: List', 'metadata:', '  resourceVersion: ""', ''].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = exampleText();
  if (process.argv.includes('--stdout')) process.stdout.write(text);
  else if (process.argv.includes('--check')) {
    const now = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
    if (now !== text) { console.error(`${path.relative(root, OUT)} differs from what scripts/make-helm-release-example.mjs writes`); process.exit(1); }
  } else {
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, text);
    console.log(`wrote ${path.relative(root, OUT)}`);
  }
}
