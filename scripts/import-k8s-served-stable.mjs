#!/usr/bin/env node
// Writes data/kubernetes/served-stable.json: the kinds kube-apiserver serves that data/kubernetes/api-lifecycle.json
// has no row for (engine/families/kubernetes/data/served.ts). Three rows, each citing the upstream registration or release notes
// read for it (no file of the reference folder holds them: the facts are written here, in the script, so that
// `npm run gen:data` regenerates every data table and test/data-fresh.test.mjs compares this one too).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.writeFileSync(dest, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${path.relative(repoRoot, dest)}: ${out.rows.length} rows`);
