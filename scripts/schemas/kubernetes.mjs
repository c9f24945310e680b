// Schema family "kubernetes": one JSON Schema (draft-07) per Kubernetes minor (data.minors,
// 1.16 … the newest minor of the data) for ONE manifest object, generated from data/kubernetes/api-lifecycle.json only.
//
// Shape of schemas/kubernetes/<minor>/manifest.schema.json:
//  * required: [apiVersion, kind] (both strings); everything else is left open;
//  * allOf: one entry per kind of the k8s rows served by kube-apiserver or read by it as a
//    config file (CRD-served rows — VolumeSnapshot*, cert-manager, istio — are left out, their
//    versions do not follow the Kubernetes minor):
//      if   {kind: const K, apiVersion: <in a group that K has rows for>}
//      then {apiVersion: enum [every apiVersion serving K in this minor]}
//    (or `not: {}` when no apiVersion serves K in this minor, e.g. PodSecurityPolicy from 1.25).
//    The group guard keeps CRDs that reuse a built-in kind name (kyverno.io Policy, …) valid.
//  * "x-skewguard": { family, minor, asOf, served: {K: [apiVersions]},
//                     deprecated: {"apiVersion|K": "1.X"} for served-but-deprecated apiVersions }.
// "served" uses the same rule as server/src/engine/families/kubernetes/data/lifecycle.ts (statusAt):
// (introduced null or <= minor) and (removed null or > minor); the data test checks that the
// two agree for every minor and kind.
import { readRepoJson, toJsonFile } from './common.mjs';

export const family = 'kubernetes';
export const outputDir = 'schemas/kubernetes';
const DATA = 'data/kubernetes/api-lifecycle.json';
const ID_BASE = 'https://skewguard.dev/schemas/kubernetes';
const FIRST_MINOR = '1.16';

function cmpMinor(a, b) {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}
const atOrAfter = (minor, since) => since != null && cmpMinor(minor, since) >= 0;
const served = (row, minor) => (row.introduced == null || atOrAfter(minor, row.introduced)) && !atOrAfter(minor, row.removed);
const sortStrings = (list) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rows the schemas constrain: Kubernetes component, not CRD-served. */
export function schemaRows(data) {
  return data.apis.filter((r) => r.component === 'k8s' && !r.servedBy.startsWith('CRD') && r.kind !== '');
}

/** apiVersion pattern matching the groups `kind` has rows for ("" = core group: no slash). */
function groupPattern(rows) {
  const groups = sortStrings(new Set(rows.map((r) => r.group)));
  const named = groups.filter((g) => g !== '').map(escapeRe);
  const parts = [];
  if (groups.includes('')) parts.push('[^/]+');
  if (named.length) parts.push(`(?:${named.join('|')})/.+`);
  return `^(?:${parts.join('|')})$`;
}

function schemaFor(data, minor) {
  const rows = schemaRows(data);
  const kinds = sortStrings(new Set(rows.map((r) => r.kind)));
  const servedMap = {};
  const deprecatedMap = {};
  const allOf = [];
  for (const kind of kinds) {
    const kindRows = rows.filter((r) => r.kind === kind);
    const list = sortStrings(new Set(kindRows.filter((r) => served(r, minor)).map((r) => r.apiVersion)));
    servedMap[kind] = list;
    for (const r of kindRows) {
      if (served(r, minor) && atOrAfter(minor, r.deprecated)) deprecatedMap[`${r.apiVersion}|${kind}`] = r.deprecated;
    }
    const apiVersion = list.length ? { enum: list } : { not: {}, description: `No apiVersion serves ${kind} in Kubernetes ${minor}.` };
    allOf.push({
      if: {
        properties: { kind: { const: kind }, apiVersion: { pattern: groupPattern(kindRows) } },
        required: ['kind', 'apiVersion'],
      },
      then: { properties: { apiVersion } },
    });
  }
  const sortedDeprecated = Object.fromEntries(sortStrings(Object.keys(deprecatedMap)).map((k) => [k, deprecatedMap[k]]));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${ID_BASE}/${minor}/manifest.schema.json`,
    title: `Kubernetes ${minor} manifest object (apiVersion/kind served)`,
    description:
      `One Kubernetes manifest object checked against the apiVersions kube-apiserver ${minor} serves for its kind ` +
      `(built-in API groups only; other groups and unknown kinds pass). Generated from ${DATA} (data as of ${data.asOf}) ` +
      'by scripts/gen-schemas.mjs. Deprecated-but-served apiVersions are accepted here and listed in x-skewguard.deprecated.',
    type: 'object',
    required: ['apiVersion', 'kind'],
    properties: {
      apiVersion: { type: 'string', description: 'group/version (core group: just the version, e.g. v1).' },
      kind: { type: 'string' },
    },
    allOf,
    'x-skewguard': { family, minor, asOf: data.asOf, served: servedMap, deprecated: sortedDeprecated },
  };
}

/** @returns {Map<string, string>} */
export function generate(repoRoot) {
  const data = readRepoJson(repoRoot, DATA);
  const out = new Map();
  for (const minor of data.minors) {
    if (cmpMinor(minor, FIRST_MINOR) < 0) continue;
    out.set(`${outputDir}/${minor}/manifest.schema.json`, toJsonFile(schemaFor(data, minor)));
  }
  return out;
}
