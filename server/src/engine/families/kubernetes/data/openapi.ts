// The user's own OpenAPI document for a Kubernetes minor (kubernetes.openapi in .skewguard.yaml, lsp-lint
// --kubernetes-openapi <minor>=<file>): the output of `kubectl get --raw /openapi/v2` (swagger 2.0), or one OpenAPI 3
// document. A minor given this way is judged from the document: a group/version/kind is served there exactly when one
// of the document's definitions carries it in `x-kubernetes-group-version-kind`. Pure: the server reads the file
// (bounded) and hands the text here; nothing of the document is executed or fetched.
import type { ApiRow } from './apis';
import { compareMinor } from './lifecycle';
import { groupOf } from './api-version';

export interface OpenapiDoc {
  /** "apiVersion kind" of every kind the document serves (List kinds and the shared meta types left out), sorted. */
  gvks: string[];
  /** The fields of the kinds it serves, in the field table's shape (kubernetes/fields.ts): the definitions read. */
  fields: OpenapiFields;
  /** A v3 document of some group-versions only (`/openapi/v3/apis/<g>/<v>`, or a set of them): the group-versions
   *  ("apps/v1", "v1") it speaks for. Absent: the whole cluster's document (`/openapi/v2`), which speaks for all. */
  covers?: string[];
}

/** Fields of a document, as the field table holds them: kinds to a model, models to their fields' types (string,
 *  integer, number, boolean, int-or-string, object = free-form JSON, a model name, []T, {}T), string enums. */
export interface OpenapiFields {
  kinds: Record<string, string>;
  models: Record<string, Record<string, string>>;
  enums: Record<string, string[]>;
}

/** Bounds of one document's reading (a cluster's /openapi/v2 has about 700 definitions and 6,000 properties). */
export const OPENAPI_LIMITS = { definitions: 20000, properties: 400000, depth: 64 };

/** A document as resolved for one minor: the file, the document, and where the setting came from. */
export interface OpenapiMinor { file: string; doc: OpenapiDoc; origin: string }

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Reads a document's text: its served kinds, or why it cannot be used. Never throws. */
export function readOpenapiDocument(text: string): { doc: OpenapiDoc } | { error: string } {
  let v: unknown;
  // Not the parser's message: it quotes the file's text, which a report must not carry.
  try { v = JSON.parse(text.replace(/^\uFEFF/, '')); } catch { return { error: 'not JSON (kubectl get --raw /openapi/v2 writes JSON)' }; }
  if (!isObj(v)) return { error: 'not an OpenAPI document (the top level is not an object)' };
  let defs: unknown;
  if (v.swagger === '2.0') defs = v.definitions;
  else if (typeof v.openapi === 'string' && v.openapi.startsWith('3.')) defs = isObj(v.components) ? v.components.schemas : undefined;
  else return { error: 'not an OpenAPI document: neither "swagger": "2.0" (kubectl get --raw /openapi/v2) nor "openapi": "3.x"' };
  if (!isObj(defs)) return { error: `an OpenAPI document without ${v.swagger === '2.0' ? 'definitions' : 'components.schemas'}` };
  if (Object.keys(defs).length > OPENAPI_LIMITS.definitions) return { error: `more than ${OPENAPI_LIMITS.definitions} definitions: not read` };
  const out = new Set<string>();
  const roots: Record<string, string> = {};
  for (const [name, def] of Object.entries(defs)) {
    if (!isObj(def)) continue;
    const g = def['x-kubernetes-group-version-kind'];
    // The shared meta types (WatchEvent, DeleteOptions …) list every group/version: they are no kind of their own.
    if (!Array.isArray(g) || g.length !== 1 || !isObj(g[0])) continue;
    const { group, version, kind } = g[0];
    if (typeof group !== 'string' || typeof version !== 'string' || typeof kind !== 'string' || !version || !kind) continue;
    if (kind.endsWith('List')) continue;
    const id = `${group ? `${group}/${version}` : version} ${kind}`;
    out.add(id);
    roots[id] ??= name;
  }
  if (!out.size) return { error: 'an OpenAPI document that serves no kind (no definition carries x-kubernetes-group-version-kind)' };
  const fields = fieldsOf(defs, roots);
  if ('error' in fields) return fields;
  // Kubernetes serves OpenAPI v3 per group-version (kubectl get --raw /openapi/v3/apis/<g>/<v>, /openapi/v3/api/v1):
  // such a document speaks for the group-versions of its paths (or, without paths, of the kinds it defines), not for
  // every other group's. A swagger 2.0 document (/openapi/v2) is the whole cluster's.
  if (v.swagger === '2.0') return { doc: { gvks: [...out].sort(), fields } };
  const covers = new Set<string>();
  if (isObj(v.paths)) for (const p of Object.keys(v.paths)) { const gv = groupVersionOfPath(p); if (gv) covers.add(gv); }
  if (!covers.size) for (const id of out) covers.add(id.split(' ')[0]);
  return { doc: { gvks: [...out].filter((id) => covers.has(id.split(' ')[0])).sort(), fields, covers: [...covers].sort() } };
}

/** "/apis/apps/v1/namespaces/{namespace}/deployments" -> "apps/v1"; "/api/v1/pods" -> "v1"; else undefined. */
export function groupVersionOfPath(p: string): string | undefined {
  const m = /^\/(?:api\/(v\d[a-z0-9]*)|apis\/([^/]+)\/(v\d[a-z0-9]*))(?:\/|$)/.exec(p);
  return m ? (m[1] ?? `${m[2]}/${m[3]}`) : undefined;
}

/**
 * Several documents of one minor (a v3 document set: one file per group-version) as one: the kinds and fields of all,
 * speaking for the group-versions any of them covers (a whole-cluster v2 document among them speaks for all).
 */
export function mergeOpenapiDocuments(docs: readonly OpenapiDoc[]): OpenapiDoc {
  if (docs.length === 1) return docs[0];
  const gvks = new Set<string>();
  const fields: OpenapiFields = { kinds: {}, models: {}, enums: {} };
  let covers: Set<string> | undefined = new Set();
  for (const d of docs) {
    for (const g of d.gvks) gvks.add(g);
    for (const [k, m] of Object.entries(d.fields.kinds)) fields.kinds[k] ??= m;
    for (const [k, m] of Object.entries(d.fields.models)) fields.models[k] ??= m;
    for (const [k, e] of Object.entries(d.fields.enums)) fields.enums[k] ??= e;
    if (!d.covers) covers = undefined;
    else if (covers) for (const c of d.covers) covers.add(c);
  }
  return { gvks: [...gvks].sort(), fields, ...(covers ? { covers: [...covers].sort() } : {}) };
}

// Definitions that are leaves whatever their schema says (apimachinery's custom (un)marshalled types).
const LEAF: Record<string, string> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'string',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'int-or-string',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'object',
};

/**
 * The definitions reachable from the kinds, as models named by their definition id (an inline object is a model of
 * its own, `<parent>.<field>`). `$ref` to "#/definitions/<id>" (v2) or "#/components/schemas/<id>" (v3), `allOf` of
 * one schema (v3 wraps refs so), `oneOf`/`anyOf` of string and integer (int-or-string), x-kubernetes-int-or-string,
 * x-kubernetes-preserve-unknown-fields. Iterative, bounded by OPENAPI_LIMITS.
 */
function fieldsOf(defs: Record<string, unknown>, roots: Record<string, string>): OpenapiFields | { error: string } {
  const models: Record<string, Record<string, string>> = {};
  const enums: Record<string, string[]> = {};
  const todo: Array<[string, Record<string, unknown>]> = [];
  let properties = 0;
  const refName = (ref: string) => ref.replace(/^#\/(definitions|components\/schemas)\//, '');
  const model = (name: string, sc: Record<string, unknown>): string => {
    if (!(name in models)) { models[name] = {}; todo.push([name, sc]); }
    return name;
  };
  const typeOf = (p: unknown, owner: string, depth = 0): string => {
    if (!isObj(p) || depth > OPENAPI_LIMITS.depth) return 'object';
    if (p['x-kubernetes-int-or-string'] === true) return 'int-or-string';
    for (const key of ['oneOf', 'anyOf'] as const) {
      const alts = p[key];
      if (!Array.isArray(alts)) continue;
      const ts = new Set(alts.filter((x) => !(isObj(x) && x.type === 'null')).map((x) => typeOf(x, owner, depth + 1)));
      if (ts.size === 2 && ts.has('string') && ts.has('integer')) return 'int-or-string';
      return ts.size === 1 ? [...ts][0] : 'object';
    }
    if (Array.isArray(p.allOf) && p.allOf.length === 1 && !p.type && !p.properties) return typeOf(p.allOf[0], owner, depth + 1);
    if (typeof p.$ref === 'string') {
      const id = refName(p.$ref);
      if (LEAF[id]) return LEAF[id];
      const sc = Object.prototype.hasOwnProperty.call(defs, id) ? defs[id] : undefined;
      if (!isObj(sc)) return 'object';
      if (isObj(sc.properties)) return model(id, sc);
      return typeOf({ ...sc, $ref: undefined }, owner, depth + 1);
    }
    switch (p.type) {
      case 'string': return p.format === 'int-or-string' ? 'int-or-string' : 'string';
      case 'boolean': case 'integer': case 'number': return p.type;
      case 'array': return `[]${p.items ? typeOf(p.items, owner, depth + 1) : 'object'}`;
      default:
        if (isObj(p.properties)) return model(owner, p);
        if (isObj(p.additionalProperties)) return `{}${typeOf(p.additionalProperties, `${owner}{}`, depth + 1)}`;
        return 'object';
    }
  };
  const kinds: Record<string, string> = {};
  for (const [id, name] of Object.entries(roots)) {
    const sc = defs[name];
    if (isObj(sc) && isObj(sc.properties)) kinds[id] = model(name, sc);
  }
  while (todo.length) {
    const [name, sc] = todo.pop()!;
    const fields = models[name];
    for (const [f, p] of Object.entries(sc.properties as Record<string, unknown>)) {
      if (++properties > OPENAPI_LIMITS.properties) return { error: `more than ${OPENAPI_LIMITS.properties} properties: not read` };
      const t = typeOf(p, `${name}.${f}`);
      fields[f] = t;
      const e = isObj(p) ? p.enum : undefined;
      if (t === 'string' && Array.isArray(e) && f !== 'apiVersion' && f !== 'kind') {
        const values = e.filter((x): x is string => typeof x === 'string');
        if (values.length) enums[`${name}.${f}`] = values;
      }
    }
  }
  return { kinds, models, enums };
}


/** Rows kube-apiserver serves (what a document can speak for): not a component's, not a file a component reads. */
const servedRow = (r: ApiRow) => (r.component ?? 'k8s') === 'k8s' && (r.servedBy ?? 'kube-apiserver') === 'kube-apiserver' && !r.readBy && r.kind !== '';

/**
 * The lifecycle rows with the documents' minors judged from the documents: each served row's status at a document's
 * minor is the document's (`servedAt`, which statusAt reads first); a row the document drops is removed from the first
 * such minor on, one it serves past the data's removal is not removed (a later removal is not known); a kind of a group the data knows that only the document serves gets a row introduced at the first
 * document minor serving it. Kinds of groups the data does not know (a vendor's CRDs) get no row: what serves them
 * before the document's minor is not known. Memoised per rows and documents.
 */
export function withOpenapi(rows: ApiRow[], openapi: Readonly<Record<string, OpenapiMinor>> | undefined): ApiRow[] {
  if (!openapi || !Object.keys(openapi).length) return rows;
  // Keyed by the documents read (each read once per configuration), not by the resolved object, which each resolution
  // makes anew: the same rows array keeps the per-rows caches of the lifecycle rules shared across files.
  const minors = Object.keys(openapi).sort();
  const docs = minors.map((m) => openapi[m].doc);
  const sig = minors.map((m) => `${m}\u0000${openapi[m].file}\u0000${openapi[m].origin}`).join('\n');
  let byDocs = memo.get(rows);
  if (!byDocs) memo.set(rows, (byDocs = new Map()));
  let hit = byDocs.get(sig);
  if (!hit || hit.docs.some((d, i) => d !== docs[i])) {
    if (byDocs.size >= 64) byDocs.clear();
    byDocs.set(sig, (hit = { docs, rows: applyOpenapi(rows, openapi) }));
  }
  return hit.rows;
}
const memo = new WeakMap<ApiRow[], Map<string, { docs: OpenapiDoc[]; rows: ApiRow[] }>>();

/** Whether a document speaks for an apiVersion: a whole cluster's always, a v3 document set for the group-versions it covers. */
export const speaksFor = (doc: OpenapiDoc, apiVersion: string): boolean => !doc.covers || doc.covers.includes(apiVersion);

function applyOpenapi(rows: ApiRow[], openapi: Readonly<Record<string, OpenapiMinor>>): ApiRow[] {
  const minors = Object.keys(openapi).sort(compareMinor);
  const served = new Map(minors.map((m) => [m, new Set(openapi[m].doc.gvks)]));
  const known = new Set<string>(), groups = new Set<string>();
  const out = rows.map((r) => {
    if (!servedRow(r)) return r;
    const id = `${r.apiVersion} ${r.kind}`;
    known.add(id); groups.add(groupOf(r.apiVersion));
    const at: Record<string, boolean> = {};
    let removed = r.removed;
    for (const m of minors) {
      // A document of some group-versions (OpenAPI v3) says nothing about the others: the data answers there.
      if (!speaksFor(openapi[m].doc, r.apiVersion)) continue;
      at[m] = served.get(m)!.has(id);
      const introduced = r.introduced == null || r.introduced === '' || compareMinor(m, r.introduced) >= 0;
      if (!at[m] && introduced && (removed == null || removed === '' || compareMinor(m, removed) < 0)) removed = m;
      // Served where the data has it removed (an API the cluster still serves, e.g. an announced removal not done):
      // the document's word; a removal after it is not known.
      else if (at[m] && removed != null && removed !== '' && compareMinor(m, removed) >= 0) removed = null;
    }
    const judged = minors.filter((m) => m in at);
    if (!judged.length) return r;
    return { ...r, removed, servedAt: at, sources: [...(r.sources ?? []), ...judged.map((m) => `${openapi[m].file} (OpenAPI document for ${m}, ${openapi[m].origin})`)] };
  });
  for (const m of minors) {
    for (const id of served.get(m)!) {
      if (known.has(id)) continue;
      const [apiVersion, kind] = id.split(' ');
      if (!groups.has(groupOf(apiVersion))) continue;
      known.add(id);
      const at: Record<string, boolean> = {};
      for (const n of minors) if (speaksFor(openapi[n].doc, apiVersion)) at[n] = served.get(n)!.has(id);
      out.push({ apiVersion, kind, introduced: m, deprecated: null, removed: null, replacementAvailable: null, servedAt: at, sources: [`${openapi[m].file} (OpenAPI document for ${m}, ${openapi[m].origin})`] });
    }
  }
  return out;
}
