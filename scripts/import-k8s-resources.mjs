#!/usr/bin/env node
// gen:data after: import-kubernetes.mjs
// Writes data/kubernetes/resources.json: the REST resource (plural, as the API server's metrics and audit events name
// it: "cronjobs", "podsecuritypolicies") of each group/version/kind, read from the paths of the upstream swagger
// documents of the reference folder (kubernetes/openapi/, each checked against its SOURCES.md sha256). A path
// /apis/<group>/<version>/[namespaces/{namespace}/]<resource>[/{name}] whose operations carry
// x-kubernetes-group-version-kind names the resource of that kind (subresources, watch paths and List kinds are left
// out). Each row says which documents show it (`seenIn`).
// A kind of data/kubernetes/api-lifecycle.json that kube-apiserver serves and that no document shows at its own
// group/version (a version that lived between two documents, e.g. flowcontrol v1beta2, 1.23–1.28) takes the resource
// that the same group's kind has at another version, and says so (`inferredFrom`): a kind's resource name is the
// same across the versions of its group. A served kind with neither is listed in `unmapped`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { referenceOf } from './lib/reference.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dest = path.join(repoRoot, 'data', 'kubernetes', 'resources.json');
const lifecycle = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));

const openapiDir = path.join(referenceOf('kubernetes'), 'openapi');
const sourcesMd = fs.readFileSync(path.join(openapiDir, 'SOURCES.md'), 'utf8');
const swaggers = fs.readdirSync(openapiDir).filter((f) => /^swagger-1\.\d+\.json\.gz$/.test(f)).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
if (!swaggers.length) throw new Error(`no swagger-1.N.json.gz in ${openapiDir}`);

// /api/v1/… or /apis/<group>/<version>/…, optionally namespaced, then the resource and optionally /{name}: nothing after.
const PATH = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(?:namespaces\/\{namespace\}\/)?([^/{]+)(\/\{name\})?$/;
const rows = new Map(); // "apiVersion resource" -> row
const documents = [];
for (const file of swaggers) {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(openapiDir, file))).toString('utf8');
  const sum = crypto.createHash('sha256').update(text).digest('hex');
  const line = sourcesMd.split('\n').find((l) => l.startsWith(`| ${file} `));
  if (!line || !line.includes(sum)) throw new Error(`${file}: sha256 ${sum} is not the one openapi/SOURCES.md gives`);
  const minor = file.replace(/^swagger-/, '').replace(/\.json\.gz$/, '');
  documents.push({ file: `kubernetes/openapi/${file}`, minor, sha256: sum });
  const paths = JSON.parse(text).paths;
  for (const p of Object.keys(paths).sort()) {
    const m = PATH.exec(p);
    if (!m || m[4] === 'watch') continue;
    const pathGv = m[1] ?? `${m[2]}/${m[3]}`;
    for (const verb of Object.keys(paths[p]).sort()) {
      const g = paths[p][verb]?.['x-kubernetes-group-version-kind'];
      if (!g || /List$/.test(g.kind)) continue;
      const apiVersion = `${g.group ? `${g.group}/` : ''}${g.version}`;
      if (apiVersion !== pathGv) continue; // an operation answering with another group's kind (none today): not this resource's
      const key = `${apiVersion} ${m[4]}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { apiVersion, resource: m[4], kind: g.kind, namespaced: false, seenIn: [] }));
      if (p.includes('/namespaces/{namespace}/')) row.namespaced = true;
      if (row.kind !== g.kind) throw new Error(`${file} ${p}: ${key} is ${g.kind} here and ${row.kind} elsewhere`);
      if (!row.seenIn.includes(minor)) row.seenIn.push(minor);
    }
  }
}

// Served kinds of the lifecycle data that no document shows at their own group/version.
const groupOf = (av) => (av.includes('/') ? av.split('/')[0] : '');
const unmapped = [];
const inferred = [];
const known = new Set([...rows.values()].map((r) => `${r.apiVersion} ${r.kind}`));
for (const r of lifecycle.apis) {
  if ((r.component ?? 'k8s') !== 'k8s' || (r.servedBy ?? 'kube-apiserver') !== 'kube-apiserver' || !r.kind || /List$/.test(r.kind)) continue;
  if (known.has(`${r.apiVersion} ${r.kind}`)) continue;
  const other = [...rows.values()].filter((x) => groupOf(x.apiVersion) === groupOf(r.apiVersion) && x.kind === r.kind).sort((a, b) => (a.apiVersion < b.apiVersion ? -1 : 1));
  const resources = [...new Set(other.map((x) => x.resource))];
  if (resources.length !== 1) {
    unmapped.push({ apiVersion: r.apiVersion, kind: r.kind, why: resources.length ? `the group's other versions name it ${resources.join(', ')}` : 'no reference document shows this kind in its group' });
    continue;
  }
  known.add(`${r.apiVersion} ${r.kind}`);
  inferred.push({ apiVersion: r.apiVersion, resource: resources[0], kind: r.kind, namespaced: other[0].namespaced, inferredFrom: other.map((x) => `${x.apiVersion} (${x.seenIn.join(', ')})`) });
}

const sorted = [...rows.values(), ...inferred].sort((a, b) => (a.apiVersion < b.apiVersion ? -1 : a.apiVersion > b.apiVersion ? 1 : a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
const out = {
  asOf: lifecycle.asOf,
  description: 'The REST resource (the plural in URLs, in the API server\'s apiserver_requested_deprecated_apis metric and in audit events\' objectRef) of each group/version/kind kube-apiserver serves, read from the paths of the upstream swagger documents of the reference folder. Written by scripts/import-k8s-resources.mjs; the lifecycle of each kind is data/kubernetes/api-lifecycle.json.',
  fields: {
    apiVersion: 'group/version ("v1" for the core group)',
    resource: 'the resource name of the path /apis/<group>/<version>/[namespaces/{namespace}/]<resource>',
    kind: 'the x-kubernetes-group-version-kind of its operations',
    namespaced: 'whether some path of it is under namespaces/{namespace}',
    seenIn: 'the minors whose document has the path',
    inferredFrom: 'no document has this group/version: the resource name the same kind has at these versions of its group (the lifecycle data says it is served at some minor)',
  },
  documents,
  resources: sorted,
  unmapped,
};
fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.writeFileSync(dest, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${path.relative(repoRoot, dest)}: ${sorted.length} resources (${inferred.length} inferred from another version), ${unmapped.length} unmapped`);
