#!/usr/bin/env node
// Imports the operators' CRD lifecycles (issue #31 item 1) from ../shared/reference/operators/ (read its SOURCES.md:
// parts A and B) into
//   data/operators/index.json      small: per operator id its releases (id, tag, commit) and the Kind.group keys it
//                                  defines: read at configuration time and when a custom resource appears
//   data/operators/lifecycle.json  per operator, per Kind.group, per version: the release ranges that list (present),
//                                  serve, store, deprecate it, only-in-the-optional-CRD-set (altOnly), its
//                                  deprecationWarning texts, its replacement (the storage version of the same CRD when
//                                  only the version went, from apiVersions[].perKind[].replacement), and the source
//                                  (repo@tag (commit) + path of the newest release that lists it); plus the
//                                  curatedLifecycle facts (basis, source, note) the CRD flags do not carry.
// Read: crd-lifecycle.json (part A: cert-manager, external-secrets, prometheus-operator, argo-cd, kyverno, istio) and
// crd-lifecycle-b.json (part B: traefik, keda, velero, cilium, tekton-pipelines, crossplane, knative-serving,
// argo-rollouts). Not read here: chart-app-versions*.json (the ops-pins import), fields/ and schemas/ (ops-schema).
//
// Rules of the mapping (written into the output's `legend`):
//  * Every range "A..B" is inclusive over the operator's `releases` list (latest patch per minor, as the reference).
//  * A release the reference marks as not a release (Cilium's "1.20-dev" = main) is kept with prerelease: true; it
//    is never a window step (components/operators.ts).
//  * A curatedLifecycle row's `apiVersion` ("a/v1, b/v2", "group/*") becomes `apiVersions` (a list); `kinds` "all" stays.
//  * `apiVersionOnly` on a curated row: the reference says the versions share one schema family and moving is an
//    apiVersion change (checked against its note's wording: the quick fix of k8s/operator-api-not-served rests on it).
// Output is deterministic (fixed order, compact JSON, trailing newline).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceOf } from './lib/reference.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('operators'));
const outDir = path.join(repoRoot, 'data', 'operators');
const fail = (m) => { console.error(`import-operators: ${m}`); process.exit(1); };
const readJson = (f) => JSON.parse(fs.readFileSync(path.join(refDir, f), 'utf8'));

const OPERATORS = ['cert-manager', 'external-secrets', 'prometheus-operator', 'argo-cd', 'kyverno', 'istio', 'traefik', 'keda',
  'velero', 'cilium', 'tekton-pipelines', 'crossplane', 'knative-serving', 'argo-rollouts'];
const FILES = { a: 'crd-lifecycle.json', b: 'crd-lifecycle-b.json' };
const parts = { a: readJson(FILES.a), b: readJson(FILES.b) };
const sourcesMd = fs.readFileSync(path.join(refDir, 'SOURCES.md'), 'utf8');
const notRelease = (op, id, rel) => /-dev$/.test(id) || /^main-/.test(rel.tag ?? '');

const all = {};
for (const [p, d] of Object.entries(parts)) for (const [id, o] of Object.entries(d.operators)) {
  if (all[id]) fail(`operator ${id} in both parts`);
  all[id] = { ...o, part: p };
}
if (Object.keys(all).sort().join(',') !== [...OPERATORS].sort().join(',')) fail(`operators changed: ${Object.keys(all).join(', ')}`);

/** "A..B" or "A" over ids -> [i, j] indexes (inclusive). */
function rangeIdx(ids, r, where) {
  const [a, b = a] = String(r).split('..');
  const i = ids.indexOf(a), j = ids.indexOf(b);
  if (i < 0 || j < 0 || j < i) fail(`${where}: bad range ${r}`);
  return [i, j];
}
const checkRanges = (ids, rs, where) => { for (const r of rs ?? []) rangeIdx(ids, r, where); return rs ?? []; };

/** The crdPath of a release that holds this CRD: the file named after its crdName, plural or kind, else the only file. */
function pathOf(rel, c) {
  const cands = [...(rel.crdPaths ?? []), ...(rel.altPaths ?? [])];
  const stem = (p) => path.posix.basename(p).replace(/\.ya?ml$/, '').replace(/^\d+-/, '').replace(new RegExp(`^${c.group.replace(/\./g, '\\.')}_`), '').replace(/[-_]crd$/, '').replace(/[-_]/g, '').toLowerCase();
  const names = new Set([c.crdName, c.plural, c.kind.toLowerCase()].map((x) => x.replace(/[-_]/g, '').toLowerCase()));
  const named = cands.filter((p) => p.includes(c.crdName) || names.has(stem(p)));
  if (named.length) return named[0];
  const main = rel.crdPaths ?? [];
  return main.length === 1 ? main[0] : main.join(', ');
}

const operators = {};
const index = {};
const kindOwner = new Map();
for (const id of OPERATORS) {
  const o = all[id];
  const ids = o.releaseIds;
  if (!Array.isArray(ids) || !ids.length) fail(`${id}: no releaseIds`);
  const releases = ids.map((rid) => {
    const r = o.releases[rid];
    if (!r?.tag || !/^[0-9a-f]{40}$/.test(r.commit ?? '')) fail(`${id} ${rid}: no tag/commit`);
    const fp = o.firstPatchChecks?.[rid];
    return {
      id: rid, tag: r.tag, commit: r.commit, date: r.date,
      ...(notRelease(id, rid, r) ? { prerelease: true } : {}),
      ...(r.sourceFork ? { sourceFork: r.sourceFork } : {}),
      ...(r.altOnlyVersions?.length ? { altOnlyVersions: r.altOnlyVersions } : {}),
      // The x.y.0 tag differs from the latest patch read (SOURCES.md "firstPatchChecks"): said where the release is used.
      ...(fp && fp.sameAsLastPatch === false ? { firstPatch: { tag: fp.tag, commit: fp.commit, differences: fp.differences ?? [] } } : {}),
    };
  });
  // perKind replacement / introducedBeforeCoverage per apiVersion row
  const perKind = new Map();
  for (const row of o.apiVersions ?? []) {
    const kinds = row.perKind ?? row.kinds.map((k) => ({ kind: k, ...row }));
    for (const pk of kinds) perKind.set(`${pk.kind}.${row.group ?? row.apiVersion.split('/')[0]}/${row.version ?? row.apiVersion.split('/')[1]}`, pk);
  }
  const crds = {};
  for (const key of Object.keys(o.crds).sort()) {
    const c = o.crds[key];
    if (`${c.kind}.${c.group}` !== key) fail(`${id}: crd key ${key} is not Kind.group`);
    if (kindOwner.has(key)) fail(`${key} in ${kindOwner.get(key)} and ${id}`);
    kindOwner.set(key, id);
    const rel = checkRanges(ids, c.releases, `${id} ${key}`);
    const newest = rangeIdx(ids, rel[rel.length - 1], key)[1];
    const r = o.releases[ids[newest]];
    const versions = {};
    for (const v of Object.keys(c.versions)) {
      const x = c.versions[v];
      const w = `${id} ${key} ${v}`;
      const pk = perKind.get(`${key}/${v}`);
      versions[v] = {
        present: checkRanges(ids, x.present, w), served: checkRanges(ids, x.served, w), storage: checkRanges(ids, x.storage, w),
        deprecated: checkRanges(ids, x.deprecated, w),
        ...(x.altOnly?.length ? { altOnly: checkRanges(ids, x.altOnly, w) } : {}),
        ...(x.deprecationWarning?.length ? { deprecationWarning: x.deprecationWarning.map((d) => ({ text: d.text, releases: checkRanges(ids, d.releases, w) })) } : {}),
        ...(pk?.replacement ? { replacement: pk.replacement } : {}),
        ...(pk?.introducedBeforeCoverage ? { beforeCoverage: true } : {}),
      };
    }
    crds[key] = {
      group: c.group, kind: c.kind, crdName: c.crdName, releases: rel, versions,
      source: `${o.repo}@${r.tag} (${r.commit.slice(0, 12)}) ${pathOf(r, c)}`,
    };
  }
  const curated = (o.curatedLifecycle ?? []).map((cl, n) => {
    const w = `${id} curatedLifecycle[${n}]`;
    if (!cl.basis || !cl.source) fail(`${w}: no basis/source`);
    for (const f of ['deprecated', 'stoppedServing', 'removedFromCRD', 'introduced']) if (cl[f] != null && !ids.includes(cl[f])) fail(`${w}: ${f} ${cl[f]} not a release read`);
    const apiVersions = String(cl.apiVersion).split(/,\s*/).map((s) => s.trim()).filter(Boolean);
    const apiVersionOnly = /share one schema family; upgrading manifests is an apiVersion change/.test(cl.note ?? '');
    return {
      apiVersions, kinds: cl.kinds,
      ...Object.fromEntries(['introduced', 'deprecated', 'stoppedServing', 'removedFromCRD', 'replacement', 'fieldsRemoved'].filter((f) => cl[f] != null).map((f) => [f, cl[f]])),
      ...(apiVersionOnly ? { apiVersionOnly: true } : {}),
      basis: cl.basis, source: cl.source.startsWith(o.repo) ? cl.source : `${o.repo}: ${cl.source}`, ...(cl.note ? { note: cl.note } : {}),
    };
  });
  operators[id] = {
    repo: o.repo, snapshotHead: o.snapshotHead ?? null, part: o.part === 'a' ? FILES.a : FILES.b,
    ...(o.sourceNote ? { sourceNote: o.sourceNote } : {}),
    releases, crds, curated,
  };
  index[id] = { releases: releases.map((r) => [r.id, r.tag, ...(r.prerelease ? ['prerelease'] : [])]), kinds: Object.keys(crds) };
}

// Spot checks against facts SOURCES.md states in prose (a reference change that breaks them fails here).
const served = (op, key, v) => operators[op].crds[key].versions[v].served;
const need = (what, ok) => { if (!ok) fail(`check failed: ${what}`); };
need('ESO v1beta1 served 0.5..0.16', JSON.stringify(served('external-secrets', 'ExternalSecret.external-secrets.io', 'v1beta1')) === '["0.5..0.16"]');
need('cert-manager v1alpha2 served 1.0..1.5', JSON.stringify(served('cert-manager', 'Certificate.cert-manager.io', 'v1alpha2')) === '["1.0..1.5"]');
need('Traefik containo.us IngressRoute gone at 3.0', JSON.stringify(operators.traefik.crds['IngressRoute.traefik.containo.us'].releases) === '["2.3..2.11"]');
need('ESO v1beta1 curated apiVersionOnly', operators['external-secrets'].curated.some((c) => c.apiVersions.includes('external-secrets.io/v1beta1') && c.apiVersionOnly));
need('Kyverno 1.19 webhook warning', operators.kyverno.curated.some((c) => c.basis === 'webhook-warning' && c.deprecated === '1.19' && c.apiVersions.includes('kyverno.io/v1')));
need('SOURCES.md part A and B', /## Part A/.test(sourcesMd) && /## Part B/.test(sourcesMd));

const readDate = [parts.a.readDate, parts.b.readDate].sort().at(-1);
const legend = {
  releases: 'per operator: the minors read (latest patch per minor): id, tag, commit, commit date; prerelease: not a release (never a window step); firstPatch: the x.y.0 tag differs from the latest patch (differences as the reference says them)',
  ranges: 'every "A..B" is inclusive over that operator\'s releases list',
  crds: '"Kind.group": releases shipping the CRD; per version: present (listed), served, storage, deprecated (versions[].deprecated), altOnly (only the optional CRD set has it), deprecationWarning [{text, releases}], replacement (storage version of the same CRD when only the version went), beforeCoverage (served in the first release read, so maybe older); source: repo@tag (commit) path of the newest release listing the CRD',
  curated: 'facts the CRD flags do not carry, from the reference\'s curatedLifecycle: apiVersions, kinds (list or "all"), introduced/deprecated/stoppedServing/removedFromCRD (release ids), replacement (text), basis, source, note; apiVersionOnly: the versions share one schema family, moving is an apiVersion change',
};
const lifecycle = {
  description: 'CRD API lifecycle of 14 operators across their own releases (issue #31), from ../shared/reference/operators (scripts/import-operators.mjs)',
  readDate, sources: [FILES.a, FILES.b, 'SOURCES.md'], legend, operators,
};
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'lifecycle.json'), JSON.stringify(lifecycle) + '\n');
fs.writeFileSync(path.join(outDir, 'index.json'), JSON.stringify({
  description: 'The operators of data/operators/lifecycle.json: releases [id, tag, "prerelease"?] and the Kind.group keys each defines (read without the whole table)',
  readDate, operators: index,
}) + '\n');
console.log(`import-operators: ${OPERATORS.length} operators, ${kindOwner.size} CRDs -> data/operators/{index,lifecycle}.json`);
