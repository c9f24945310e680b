// Schema family "kubernetes-fields": one JSON Schema (draft-07) per Kubernetes minor with a source in the field
// table (data/kubernetes/fields/fields.json, scripts/import-k8s-fields.mjs), for ONE manifest object of a built-in
// kind: its fields, nested to the leaves, as that minor's OpenAPI document has them.
//
// Shape of schemas/kubernetes-fields/<minor>/manifest.schema.json:
//  * required [apiVersion, kind]; allOf: per apiVersion/kind the minor serves,
//      if {apiVersion: const, kind: const} then {$ref: "#/definitions/<model>"};
//    an apiVersion/kind the table does not have at that minor passes (the apiVersion rules and the
//    schemas/kubernetes/ family judge apiVersions; CRDs pass);
//  * definitions: every model reachable from those kinds at that minor: an object whose properties are the fields
//    the minor serves, additionalProperties: false (an unknown or misspelt field fails), a free-form map
//    (labels, annotations, data) or free-form JSON accepts anything below it; every value may be null (as
//    `creationTimestamp: null` in generated manifests);
//  * "x-skewguard": { family, minor, source, inferred } - `inferred` lists the "Model.field" the minor's source does
//    not say and that are taken from the minors on both sides (the table's `unsaid`, or a model a partial source
//    leaves out).
// Minors without a source (the table's `gaps`) get no schema; enums are not put in (the sources give them for
// 1.23 and 1.27 only: a schema that checks them there and nowhere else would mislead); they stay in the table.
import { readRepoJson } from './common.mjs';

export const family = 'kubernetes-fields';
export const outputDir = 'schemas/kubernetes-fields';
const DATA = 'data/kubernetes/fields/fields.json';
const ID_BASE = 'https://skewguard.dev/schemas/kubernetes-fields';
const FIRST = 16;

const PRIM = {
  string: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  'int-or-string': { type: ['integer', 'string', 'null'] },
  object: {},
};

function typeAt(entry, row, minor) {
  if (typeof entry === 'string') return minor >= row.seen[0][0] && minor <= row.seen[row.seen.length - 1][1] ? entry : undefined;
  for (const [t, a, b] of entry) if (minor >= a && minor <= b) return t;
  return undefined;
}

function schemaOf(type, want) {
  if (type.startsWith('[]')) return { type: ['array', 'null'], items: schemaOf(type.slice(2), want) };
  if (type.startsWith('{}')) {
    const inner = type.slice(2);
    return { type: ['object', 'null'], additionalProperties: inner === 'object' ? true : schemaOf(inner, want) };
  }
  if (PRIM[type]) return PRIM[type];
  want(type);
  return { $ref: `#/definitions/${type}` };
}

function schemaFor(table, minor) {
  const defs = {};
  const inferred = [];
  const unsaid = new Set(table.unsaid?.[minor] ?? []);
  const queue = [];
  const want = (m) => { if (!(m in defs)) { defs[m] = null; queue.push(m); } };
  const allOf = [];
  const served = [];
  for (const [key, iv] of Object.entries(table.kinds)) {
    const hit = iv.find(([, a, b]) => minor >= a && minor <= b);
    if (!hit) continue;
    const [apiVersion, kind] = key.split(' ');
    served.push(key);
    want(hit[0]);
    allOf.push({
      if: { properties: { apiVersion: { const: apiVersion }, kind: { const: kind } }, required: ['apiVersion', 'kind'] },
      then: { $ref: `#/definitions/${hit[0]}` },
    });
  }
  while (queue.length) {
    const m = queue.shift();
    const row = table.models[m];
    const seen = row.seen.some(([a, b]) => minor >= a && minor <= b);
    const properties = {};
    for (const [f, entry] of Object.entries(row.fields)) {
      const t = typeAt(entry, row, minor);
      if (t === undefined) continue;
      if (!seen || unsaid.has(`${m}.${f}`)) inferred.push(`${m}.${f}`);
      properties[f] = schemaOf(t, want);
    }
    defs[m] = { type: ['object', 'null'], properties, additionalProperties: false };
  }
  const source = table.sources[minor];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${ID_BASE}/1.${minor}/manifest.schema.json`,
    title: `Kubernetes 1.${minor} manifest object (fields of the built-in kinds)`,
    description:
      `One Kubernetes manifest object checked against the fields of its apiVersion/kind in the Kubernetes 1.${minor} OpenAPI document ` +
      `(${source.package}, ${source.openapi}${source.partial ? `, ${source.partial}` : ''}), unknown fields rejected. ` +
      `Generated from ${DATA} by scripts/gen-schemas.mjs. Kinds the table does not serve at 1.${minor} (and CRDs) pass.`,
    type: 'object',
    required: ['apiVersion', 'kind'],
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' } },
    allOf,
    definitions: Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]])),
    'x-skewguard': { family, minor: `1.${minor}`, source: `${source.package} (${source.openapi})`, kinds: served.length, inferred: inferred.sort() },
  };
}

/** Compact but diffable: one definition (and one allOf entry) per line. */
function toFile(schema) {
  const lines = [];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'definitions') lines.push(`"definitions":{\n${Object.entries(v).map(([a, b]) => `${JSON.stringify(a)}:${JSON.stringify(b)}`).join(',\n')}\n}`);
    else if (k === 'allOf') lines.push(`"allOf":[\n${v.map((x) => JSON.stringify(x)).join(',\n')}\n]`);
    else lines.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  }
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** @returns {Map<string, string>} */
export function generate(repoRoot) {
  const table = readRepoJson(repoRoot, DATA);
  const out = new Map();
  for (let m = Math.max(FIRST, table.first); m <= table.last; m++) {
    if (table.sources[m]?.none) continue;
    out.set(`${outputDir}/1.${m}/manifest.schema.json`, toFile(schemaFor(table, m)));
  }
  return out;
}
