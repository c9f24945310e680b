// The user's own OpenAPI document for a Kubernetes minor (kubernetes.openapi in .skewguard.yaml, lsp-lint
// --kubernetes-openapi <minor>=<file>): the output of `kubectl get --raw /openapi/v2` (swagger 2.0), or one OpenAPI 3
// document. A minor given this way is judged from the document: a group/version/kind is served there exactly when one
// of the document's definitions carries it in `x-kubernetes-group-version-kind`. Pure: the server reads the file
// (bounded) and hands the text here; nothing of the document is executed or fetched.
import type { ApiRow } from '../../../data';
import { compareMinor } from './lifecycle';

export interface OpenapiDoc {
  /** "apiVersion kind" of every kind the document serves (List kinds and the shared meta types left out), sorted. */
  gvks: string[];
}

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
  const out = new Set<string>();
  for (const def of Object.values(defs)) {
    if (!isObj(def)) continue;
    const g = def['x-kubernetes-group-version-kind'];
    // The shared meta types (WatchEvent, DeleteOptions …) list every group/version: they are no kind of their own.
    if (!Array.isArray(g) || g.length !== 1 || !isObj(g[0])) continue;
    const { group, version, kind } = g[0];
    if (typeof group !== 'string' || typeof version !== 'string' || typeof kind !== 'string' || !version || !kind) continue;
    if (kind.endsWith('List')) continue;
    out.add(`${group ? `${group}/${version}` : version} ${kind}`);
  }
  if (!out.size) return { error: 'an OpenAPI document that serves no kind (no definition carries x-kubernetes-group-version-kind)' };
  return { doc: { gvks: [...out].sort() } };
}

const groupOf = (apiVersion: string) => { const i = apiVersion.indexOf('/'); return i < 0 ? '' : apiVersion.slice(0, i); };

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
      at[m] = served.get(m)!.has(id);
      const introduced = r.introduced == null || r.introduced === '' || compareMinor(m, r.introduced) >= 0;
      if (!at[m] && introduced && (removed == null || removed === '' || compareMinor(m, removed) < 0)) removed = m;
      // Served where the data has it removed (an API the cluster still serves, e.g. an announced removal not done):
      // the document's word; a removal after it is not known.
      else if (at[m] && removed != null && removed !== '' && compareMinor(m, removed) >= 0) removed = null;
    }
    return { ...r, removed, servedAt: at, sources: [...(r.sources ?? []), ...minors.map((m) => `${openapi[m].file} (OpenAPI document for ${m}, ${openapi[m].origin})`)] };
  });
  for (const m of minors) {
    for (const id of served.get(m)!) {
      if (known.has(id)) continue;
      const [apiVersion, kind] = id.split(' ');
      if (!groups.has(groupOf(apiVersion))) continue;
      known.add(id);
      const at: Record<string, boolean> = {};
      for (const n of minors) at[n] = served.get(n)!.has(id);
      out.push({ apiVersion, kind, introduced: m, deprecated: null, removed: null, replacementAvailable: null, servedAt: at, sources: [`${openapi[m].file} (OpenAPI document for ${m}, ${openapi[m].origin})`] });
    }
  }
  return out;
}
