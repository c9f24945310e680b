#!/usr/bin/env node
// Writes data/kubernetes/served-stable.json: the kinds kube-apiserver serves that data/kubernetes/api-lifecycle.json
// has no row for (engine/families/kubernetes/data/served.ts). Three rows, each citing the upstream registration or release notes
// read for it (no file of the reference folder holds them: the facts are written here, in the script, so that
// `npm run gen:data` regenerates every data table and test/data-fresh.test.mjs compares this one too).
// Each row is verified against the upstream swagger documents of the reference folder (kubernetes/openapi/, each
// checked against its SOURCES.md sha256): at every minor a swagger exists for, the row says served exactly when the
// swagger has a definition of that group/version/kind (x-kubernetes-group-version-kind). A disagreement fails the
// run unless the row records it, with its evidence, in `departures`; each row says which documents it was checked
// against (`checkedAgainst`).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { referenceOf } from './lib/reference.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dest = path.join(repoRoot, 'data', 'kubernetes', 'served-stable.json');

const out = {
  "asOf": "2026-12-01",
  "description": "Kinds that kube-apiserver serves and that data/kubernetes/api-lifecycle.json has no row for (it lists the apiVersions that were or will be removed and their replacements). Together with the lifecycle rows of servedBy kube-apiserver, these give what a Kubernetes minor serves (engine/families/kubernetes/data/served.ts), e.g. for Helm's .Capabilities.APIVersions at a step of the window. Only kinds a manifest or a chart names; subresources (Eviction, TokenRequest, Scale) and option types are not resources of discovery and are left out.",
  "fields": {
    "introduced": "minor \"X.Y\" from which kube-apiserver serves this kind at this apiVersion",
    "deprecated": "minor from which it is deprecated (still served); null = never",
    "removed": "first minor that no longer serves it; null = still served",
    "sources": "upstream code at a commit (file and the registration of the kind), or the release notes of the minor"
  },
  "rows": [
    {
      "apiVersion": "v1",
      "kind": "Binding",
      "introduced": "1.0",
      "deprecated": null,
      "removed": null,
      "sources": [
        "kubernetes/kubernetes staging/src/k8s.io/api/core/v1/register.go @ 09c5beae2eddbb67914f448f2e7d3dccca1a7afc (addKnownTypes: &Binding{})"
      ]
    },
    {
      "apiVersion": "v1",
      "kind": "ComponentStatus",
      "introduced": "1.0",
      "deprecated": "1.19",
      "removed": null,
      "sources": [
        "kubernetes/kubernetes staging/src/k8s.io/api/core/v1/register.go @ 09c5beae2eddbb67914f448f2e7d3dccca1a7afc (addKnownTypes: &ComponentStatus{})",
        "Kubernetes 1.19 changelog/release notes (ComponentStatus deprecated; still served)"
      ]
    },
    {
      "apiVersion": "apps/v1",
      "kind": "ControllerRevision",
      "introduced": "1.9",
      "deprecated": null,
      "removed": null,
      "sources": [
        "Kubernetes 1.9 changelog/release notes (apps/v1 GA: Deployment, DaemonSet, ReplicaSet, StatefulSet, ControllerRevision)"
      ],
      "note": "kubernetes/kubernetes staging/src/k8s.io/api/apps/v1/register.go @ 0b6bdcf6922fe1359aaffaf31e12468870543e3d (the 1.8 development state) registers only Deployment and DaemonSet in apps/v1: the group version was completed for 1.9."
    }
  ]
};

// ---- verification against the reference swaggers
const openapiDir = path.join(referenceOf('kubernetes'), 'openapi');
const sources = fs.readFileSync(path.join(openapiDir, 'SOURCES.md'), 'utf8');
const swaggers = fs.readdirSync(openapiDir).filter((f) => /^swagger-1\.\d+\.json\.gz$/.test(f)).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
if (!swaggers.length) throw new Error(`no swagger-1.N.json.gz in ${openapiDir}`);
const minorNum = (v) => Number(v.split('.')[1]);
const servedIn = (row, minor) => minorNum(row.introduced) <= minor && (row.removed == null || minor < minorNum(row.removed));
const disagreements = [];
for (const row of out.rows) row.checkedAgainst = [];
for (const file of swaggers) {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(openapiDir, file))).toString('utf8');
  const sum = crypto.createHash('sha256').update(text).digest('hex');
  const line = sources.split('\n').find((l) => l.startsWith(`| ${file} `));
  if (!line || !line.includes(sum)) throw new Error(`${file}: sha256 ${sum} is not the one openapi/SOURCES.md gives`);
  const minor = minorNum(file.replace(/^swagger-/, ''));
  const defs = JSON.parse(text).definitions;
  const has = new Map();
  for (const [id, d] of Object.entries(defs)) {
    const g = d['x-kubernetes-group-version-kind'];
    if (Array.isArray(g) && g.length === 1) has.set(`${g[0].group ? `${g[0].group}/` : ''}${g[0].version} ${g[0].kind}`, id);
  }
  for (const row of out.rows) {
    const def = has.get(`${row.apiVersion} ${row.kind}`);
    const says = servedIn(row, minor);
    const evidence = `${file} (sha256 ${sum.slice(0, 12)} uncompressed): ${def ? `definition ${def}` : 'no definition of this group/version/kind'}`;
    if (says !== !!def && !(row.departures ?? []).some((d) => d.minor === `1.${minor}`)) disagreements.push(`${row.apiVersion} ${row.kind} at 1.${minor}: the row says ${says ? 'served' : 'not served'}, ${evidence}`);
    row.checkedAgainst.push(`1.${minor}: ${def ? 'served' : 'not served'} (${evidence})`);
  }
}
if (disagreements.length) throw new Error(`served-stable rows disagree with the reference swaggers:\n${disagreements.join('\n')}`);

fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.writeFileSync(dest, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${path.relative(repoRoot, dest)}: ${out.rows.length} rows`);
