// The field-lifecycle table of the built-in Kubernetes kinds (data/kubernetes/fields/fields.json, written by
// scripts/import-k8s-fields.mjs): which minor serves which field path of which apiVersion/kind, with its type.
// Read lazily, once (fieldTable: each model when first asked for); a path's answer for every minor is computed once and kept.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../data';
import { parseMinor } from '../../../versions';
import { speaksFor, type OpenapiDoc, type OpenapiMinor } from './openapi';
import { linkOf, pathSegments, type PathLink } from '../../../path-link';

/** [type, firstMinor, lastMinor]: the field has this type in the minors with a source from first to last. */
type Interval = [string, number, number];
interface ModelRow { seen: [number, number][]; fields: Record<string, string | Interval[]> }
export interface FieldTable {
  description: string;
  notes: string[];
  /** Minors of the span without a source and why (none since #28: every minor 1.15..1.37 has one). Such a minor is not
   *  covered (covers): its fields are not checked and k8s/fields-not-checked says so; nothing is inferred from neighbours. */
  gaps: Record<string, string>;
  first: number;
  last: number;
  sources: Record<string, { package?: string; document?: string; openapi?: string; partial?: string; none?: string; preRelease?: string }>;
  kinds: Record<string, Interval[]>;
  models: Record<string, ModelRow>;
  enums: Record<string, { values: string[]; minors: number[] }[]>;
  /** Per minor, the "Model.field" its source leaves out without saying so. */
  unsaid: Record<string, string[]>;
  /** Minors whose fields come from the user's OpenAPI document (fieldTableWith): the document, as the findings cite it. */
  documents?: Record<string, string>;
  /** Those documents, per minor ("38"). */
  openapiDocs?: Record<string, OpenapiDoc>;
}

export const FIELDS_FILE = 'data/kubernetes/fields/fields.json';
/** The component configuration files' table (scripts/import-k8s-component-fields.mjs), same layout. */
export const COMPONENT_FIELDS_FILE = 'data/kubernetes/fields/component-config.json';
let table: FieldTable | undefined;
let componentTable: ComponentTable | undefined;
export interface ComponentTable {
  kinds: Record<string, Interval[]>;
  models: Record<string, ModelRow>;
  readBy: Record<string, string>;
  formats: Record<string, string>;
  files: Record<string, string[]>;
  preReleaseMinors: Record<string, string>;
  /** Values a field takes only from some minor (kube-proxy `mode: nftables` from 1.29). */
  values: Array<{ apiVersion: string; kind: string; path: string[]; value: string; from: number; change: string; sources: string[] }>;
}
/**
 * Whether the table has a source for a minor's fields: inside its span, with a source (every minor 1.15..1.37 of the
 * shipped table; a table with the user's documents also has their minors, and none between the data and them).
 * The field rules check exactly these minors; k8s/fields-not-checked says the others.
 */
export function covers(t: FieldTable, minor: number): boolean {
  if (!(minor >= t.first && minor <= t.last)) return false;
  const s = t.sources[String(minor)];
  return !!s && !s.none;
}

/** The component configuration table alone (hover cites its sources; fields-not-checked its span). */
export function componentFieldTable(): ComponentTable {
  return (componentTable ??= readFieldTable(fs.readFileSync(path.join(packageRoot, COMPONENT_FIELDS_FILE), 'utf8')) as unknown as ComponentTable);
}
/** Whether an apiVersion/kind is a component configuration file's (its paths are judged from its own table). */
export function isComponentKind(apiVersion: string, kind: string): boolean { return !!componentFieldTable().kinds[`${apiVersion} ${kind}`]; }
/** The component that reads a component configuration kind ("kubeadm", "kubelet", "kube-proxy" …), else undefined. */
export function componentReader(apiVersion: string, kind: string): string | undefined {
  const r = componentFieldTable().readBy[`${apiVersion} ${kind}`];
  return r ? r.split(/[\s/]/)[0] : undefined;
}
/** "1.31..1.37": the minors the component table has an apiVersion/kind at. */
export function componentSpan(apiVersion: string, kind: string): string {
  const iv = componentFieldTable().kinds[`${apiVersion} ${kind}`] ?? [];
  return iv.map(([, a, b]) => (a === b ? `1.${a}` : `1.${a}..1.${b}`)).join(', ');
}
/** What a component does with a field it does not know: not recorded per component and minor (the reference says so). */
export const COMPONENT_UNKNOWN = 'ignored, warned about or refused, depending on the component and its version';
export function fieldTable(): FieldTable { return (table ??= withComponents(readFieldTable(fs.readFileSync(path.join(packageRoot, FIELDS_FILE), 'utf8')), componentFieldTable())); }

/** The widest span of minors a table may have: its masks are 31-bit integers. */
export const MAX_SPAN = 31;

/**
 * The field table with the user's OpenAPI documents (kubernetes.openapi, --kubernetes-openapi): at a minor given a
 * document, every kind's fields are the document's (its definitions, read by kubernetes/openapi.ts) and the shipped
 * table's are not used; the span grows to the documents' minors (a minor between the data and a document has no
 * source: not covered, said by k8s/fields-not-checked). A document's models are named "<definition>@1.<minor>", so
 * two documents never share one. A document whose minor would make the span wider than MAX_SPAN is left out (its
 * minor is then not covered). Memoised per documents read; the shipped table when there is none.
 */
export function fieldTableWith(openapi: Readonly<Record<string, OpenapiMinor>> | undefined): FieldTable {
  const base = fieldTable();
  if (!openapi) return base;
  const docs = Object.entries(openapi).map(([m, d]) => ({ m: minorNumber(m), d })).filter((x) => Number.isInteger(x.m)).sort((a, b) => a.m - b.m);
  const fit: typeof docs = [];
  let first = base.first, last = base.last;
  for (const x of docs) {
    const f = Math.min(first, x.m), l = Math.max(last, x.m);
    if (l - f + 1 > MAX_SPAN) continue;
    fit.push(x); first = f; last = l;
  }
  if (!fit.length) return base;
  let hit = overlays.get(base);
  if (!hit) overlays.set(base, (hit = new Map()));
  const key = fit.map((x) => `${x.m}\u0000${x.d.file}\u0000${x.d.origin}`).join('\n');
  const was = hit.get(key);
  if (was && was.docs.length === fit.length && was.docs.every((d, i) => d === fit[i].d.doc)) return was.table;
  if (hit.size >= 16) hit.clear();
  const table = overlay(base, fit, first, last);
  hit.set(key, { docs: fit.map((x) => x.d.doc), table });
  return table;
}
const overlays = new WeakMap<FieldTable, Map<string, { docs: unknown[]; table: FieldTable }>>();

function overlay(base: FieldTable, docs: ReadonlyArray<{ m: number; d: OpenapiMinor }>, first: number, last: number): FieldTable {
  const kinds: Record<string, Interval[]> = {};
  // The shipped table's kinds, without the documents' minors (a v3 document set's only for the group-versions it covers).
  for (const [k, iv] of Object.entries(base.kinds)) {
    const apiVersion = k.slice(0, k.indexOf(' '));
    // A component configuration file's kind (kubelet, kubeadm …) is no API the document serves: its own table stays.
    const at = isComponentKind(apiVersion, k.slice(k.indexOf(' ') + 1)) ? new Set<number>() : new Set(docs.filter((x) => speaksFor(x.d.doc, apiVersion)).map((x) => x.m));
    if (!at.size) { kinds[k] = iv; continue; }
    const out: Interval[] = [];
    for (const [model, a, b] of iv) {
      let from = a;
      for (let m = a; m <= b + 1; m++) {
        if (m <= b && !at.has(m)) continue;
        if (from <= m - 1) out.push([model, from, m - 1]);
        from = m + 1;
      }
    }
    if (out.length) kinds[k] = out;
  }
  const own: Record<string, ModelRow> = {};
  const enums: FieldTable['enums'] = { ...base.enums };
  const sources: FieldTable['sources'] = { ...base.sources };
  const unsaid: FieldTable['unsaid'] = { ...base.unsaid };
  const documents: Record<string, string> = {};
  const openapiDocs: Record<string, OpenapiDoc> = {};
  const PRIM = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string', 'object']);
  for (const { m, d } of docs) {
    const tag = `@1.${m}`;
    const named = (type: string): string => {
      const pre = /^(\[\]|\{\})*/.exec(type)![0];
      const b = type.slice(pre.length);
      return PRIM.has(b) ? type : `${pre}${b}${tag}`;
    };
    const f = d.doc.fields;
    for (const [k, model] of Object.entries(f.kinds)) (kinds[k] ??= []).push([`${model}${tag}`, m, m]);
    for (const [name, fields] of Object.entries(f.models)) {
      const row: ModelRow = { seen: [[m, m]], fields: {} };
      for (const [fname, type] of Object.entries(fields)) row.fields[fname] = named(type);
      own[`${name}${tag}`] = row;
    }
    for (const [k, values] of Object.entries(f.enums)) enums[`${k.slice(0, k.lastIndexOf('.'))}${tag}${k.slice(k.lastIndexOf('.'))}`] = [{ values, minors: [m] }];
    const cite = `${d.file} (OpenAPI document for 1.${m}, ${d.origin})`;
    sources[String(m)] = { document: d.file, openapi: cite };
    delete unsaid[String(m)];
    documents[String(m)] = cite;
    openapiDocs[String(m)] = d.doc;
  }
  for (const k of Object.keys(kinds)) kinds[k].sort((a, b) => a[1] - b[1]);
  const b = base.models;
  const models = new Proxy({} as Record<string, ModelRow>, {
    get: (_, k) => (typeof k === 'string' ? own[k] ?? b[k] : undefined),
    has: (_, k) => k in own || k in b,
    ownKeys: () => [...new Set([...Reflect.ownKeys(b), ...Reflect.ownKeys(own)])],
    getOwnPropertyDescriptor: (_, k) => { const v = typeof k === 'string' ? own[k] ?? b[k] : undefined; return v ? { value: v, writable: true, enumerable: true, configurable: true } : undefined; },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return { ...base, first, last, kinds, models, enums, sources, unsaid, gaps: {}, documents, openapiDocs };
}

/**
 * The built-in kinds' table with the component configuration kinds and models beside them: one table for the walk,
 * the rules, hover and completion. The component kinds' minors are clipped to the table's span.
 */
function withComponents(t: FieldTable, c: ComponentTable): FieldTable {
  const kinds: Record<string, Interval[]> = { ...t.kinds };
  for (const [k, iv] of Object.entries(c.kinds)) {
    if (kinds[k]) continue;
    const clipped = iv.map(([m, a, b]): Interval => [m, Math.max(a, t.first), Math.min(b, t.last)]).filter(([, a, b]) => a <= b);
    if (clipped.length) kinds[k] = clipped;
  }
  const a = t.models;
  const b = c.models;
  const models = new Proxy({} as Record<string, ModelRow>, {
    get: (_, k) => (typeof k === 'string' ? a[k] ?? b[k] : undefined),
    has: (_, k) => k in a || k in b,
    ownKeys: () => [...new Set([...Reflect.ownKeys(a), ...Reflect.ownKeys(b)])],
    getOwnPropertyDescriptor: (_, k) => { const v = typeof k === 'string' ? a[k] ?? b[k] : undefined; return v ? { value: v, writable: true, enumerable: true, configurable: true } : undefined; },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return { ...t, kinds, models };
}

/**
 * The table as JSON.parse gives it, except that each of its `models` is parsed when first asked for. The models are
 * four fifths of the file: over a thousand objects with keys of their own, which JSON.parse is slow to build (about
 * 5 ms of lsp-lint's start-up on one file), and a file's check reads a handful of them. The generator writes one
 * model per line (scripts/import-k8s-fields.mjs); a text laid out otherwise (the web build's compact copy) is parsed
 * whole. Exported for its test: the same values, model for model.
 */
export function readFieldTable(text: string): FieldTable {
  const open = '\n"models":{\n';
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf('\n}', start + open.length - 1);
  if (start < 0 || end < 0) return JSON.parse(text) as FieldTable;
  const spans = new Map<string, [number, number]>();
  for (let at = start + open.length; at < end + 1;) {
    let eol = text.indexOf('\n', at);
    if (eol < 0 || eol > end) eol = end;
    // "Name":{…} or "Name":{…}, on one line; a name with an escape (never written) would need JSON.parse.
    const q = text.indexOf('"', at + 1);
    if (text.charCodeAt(at) !== 34 || q < 0 || q + 3 > eol || !text.startsWith('":{', q)) return JSON.parse(text) as FieldTable;
    const name = text.slice(at + 1, q);
    if (name.includes('\\')) return JSON.parse(text) as FieldTable;
    spans.set(name, [q + 2, text.charCodeAt(eol - 1) === 44 /* , */ ? eol - 1 : eol]);
    at = eol + 1;
  }
  const t = JSON.parse(`${text.slice(0, start)}\n"models":{}${text.slice(end + 2)}`) as FieldTable;
  const parsed = new Map<string, ModelRow>();
  const row = (name: string): ModelRow | undefined => {
    let r = parsed.get(name);
    if (r) return r;
    const span = spans.get(name);
    if (!span) return undefined;
    parsed.set(name, (r = JSON.parse(text.slice(span[0], span[1])) as ModelRow));
    return r;
  };
  const own = (k: string | symbol): k is string => typeof k === 'string' && spans.has(k);
  t.models = new Proxy({} as Record<string, ModelRow>, {
    get: (target, k) => (own(k) ? row(k) : Reflect.get(target, k)),
    has: (target, k) => own(k) || Reflect.has(target, k),
    ownKeys: () => [...spans.keys()],
    getOwnPropertyDescriptor: (_, k) => (own(k) ? { value: row(k), writable: true, enumerable: true, configurable: true } : undefined),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return t;
}

export interface FieldInfo {
  /** The minor asked about serves the path (for a minor without a source: both neighbours with one do). */
  served: boolean;
  /** Its type at that minor (or, when not served there, at the nearest minor that serves it): string, integer,
   *  number, boolean, int-or-string, object (free-form JSON), a model name, []T (array of T), {}T (map to T). */
  type: string;
  /** The values the OpenAPI document lists, where a source gives them (`enumMinors`: which minors' sources). */
  enum?: string[];
  enumMinors?: number[];
  /** The first and the last minor of the table that serve the path (anywhere in the table, not only around `minor`). */
  firstMinor: number;
  lastMinor: number;
  /** Every run of minors that serve it. */
  ranges: [number, number][];
  /** Not read but inferred at `minor`: its source leaves this part out without saying
   *  so (the table's `unsaid` and `partial`: e.g. status at 1.31, JSONSchemaProps' x-kubernetes-* at 1.17/1.26). */
  inferred: boolean;
  /** Not served as far as the table knows, but it cannot vouch for that at `minor` (see FieldNode.unknown). */
  unknown: boolean;
  /** The path is, or is inside, a free-form map (labels, annotations, data) or free-form JSON: any key is served. */
  freeForm: boolean;
  /** The table serves the apiVersion/kind itself at `minor`. */
  kindServed: boolean;
}

const unsaidSets = new WeakMap<FieldTable, Map<number, Set<string>>>();
const unsaidAt = (t: FieldTable, minor: number): Set<string> | undefined => {
  let sets = unsaidSets.get(t);
  if (!sets) unsaidSets.set(t, (sets = new Map(Object.entries(t.unsaid ?? {}).map(([m, xs]) => [Number(m), new Set(xs)]))));
  return sets.get(minor);
};

function typeIn(entry: string | Interval[] | undefined, model: ModelRow, minor: number): string | undefined {
  if (entry === undefined) return undefined;
  if (typeof entry === 'string') return minor >= model.seen[0][0] && minor <= model.seen[model.seen.length - 1][1] ? entry : undefined;
  for (const [t, a, b] of entry) if (minor >= a && minor <= b) return t;
  return undefined;
}
const modelSeen = (model: ModelRow, minor: number): boolean => model.seen.some(([a, b]) => minor >= a && minor <= b);
const PRIMITIVE = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string', 'object']);
/** Whether any key below a value of this type is served: free-form JSON, or a map (of maps, of arrays) of scalars
 *  or free-form JSON (labels, annotations, data). A map of a model (CRD `properties`) is not: its values are typed. */
const isFree = (type: string): boolean => {
  const base = type.replace(/^(\[\]|\{\})+/, '');
  return base === 'object' || (base !== type.replace(/^(\[\])+/, '') && PRIMITIVE.has(base));
};

/** Bit of `minor` in a node's masks (bit 0 = the table's first minor). */
export function minorBit(minor: number, t: FieldTable = fieldTable()): number { return 1 << (minor - t.first); }
/** The mask of a list of minors (those the table has no source for are left out: covers). */
export function maskOf(minors: readonly number[], t: FieldTable = fieldTable()): number {
  let m = 0;
  for (const n of minors) if (covers(t, n)) m |= 1 << (n - t.first);
  return m;
}

/**
 * One field path of one apiVersion/kind, for every minor of the table at once: a rule walks a manifest's keys
 * with `child()` (memoized: one Map lookup per key once warm) and tests the masks against its window's.
 */
export class FieldNode {
  /** Minors (bits) that serve the path. */
  readonly served: number;
  /** Minors where that answer is inferred, not read (the source leaves this part out unsaid). */
  readonly inferred: number;
  /** Minors where the path is not served as far as the table knows, but the table cannot vouch for it: a minor
   *  where its source leaves the part out (the table's `unsaid`). A subset of `inferred`. */
  readonly unknown: number;
  /** Minors where the path is, or is inside, a free-form map or free-form JSON (any key below is served). */
  readonly freeForm: number;
  /** Minors that serve the apiVersion/kind. */
  readonly kindServed: number;
  private children?: Map<string, FieldNode>;
  private mapChild?: FieldNode;

  /** types[i]: the path's type at minor first+i of `table` (undefined: not served); owners[i]: the model holding the field. */
  constructor(readonly table: FieldTable, readonly types: readonly (string | undefined)[], readonly owners: readonly (string | undefined)[], inferred: number, freeForm: number, kindServed: number, unknown = 0, private readonly inMap = false,
    /** A component configuration kind's path (its own table, component-config.json). */
    readonly component = false) {
    let served = 0;
    for (let i = 0; i < types.length; i++) if (types[i] !== undefined) served |= 1 << i;
    this.served = served;
    this.inferred = inferred;
    this.unknown = unknown & ~served;
    this.freeForm = freeForm;
    this.kindServed = kindServed;
  }

  /** The node of field `name` below this one (a map's key: any name gives the same node). */
  child(name: string): FieldNode {
    const hit = this.children?.get(name);
    if (hit) return hit;
    if (this.mapChild) return this.mapChild;
    const t = this.table;
    const n = this.types.length;
    const types: (string | undefined)[] = new Array(n);
    const owners: (string | undefined)[] = new Array(n);
    let inferred = this.inferred;
    let unknown = 0;
    let freeForm = 0;
    let named = false;
    let mapped = false;
    for (let i = 0; i < n; i++) {
      const type = this.types[i];
      if (type === undefined) continue;
      let base = type;
      while (base.startsWith('[]')) base = base.slice(2);
      if (base.startsWith('{}')) {
        mapped = true;
        const value = base.slice(2);
        types[i] = value;
        // A key of the map: free when its values are scalars or free-form (the key itself is anything).
        if (isFree(value) || PRIMITIVE.has(value.replace(/^(\[\])+/, ''))) freeForm |= 1 << i;
        continue;
      }
      if (base === 'object') { mapped = true; types[i] = 'object'; freeForm |= 1 << i; continue; }
      if (PRIMITIVE.has(base)) continue;
      named = true;
      const row = t.models[base];
      if (!row) continue;
      const minor = t.first + i;
      if (!modelSeen(row, minor) || unsaidAt(t, minor)?.has(`${base}.${name}`)) { inferred |= 1 << i; unknown |= 1 << i; }
      const next = typeIn(row.fields[name], row, minor);
      if (next === undefined) continue;
      types[i] = next;
      owners[i] = base;
      if (isFree(next)) freeForm |= 1 << i;
    }
    const node = new FieldNode(t, types, owners, inferred, freeForm, this.kindServed, unknown, mapped, this.component);
    if (mapped && !named) { this.mapChild = node; return node; }
    // Memoize only what some minor serves: unknown keys (typos, hostile input) leave no trace.
    if (node.served !== 0 && !this.inMap) (this.children ??= new Map()).set(name, node);
    else if (node.served !== 0 && (this.children?.size ?? 0) < 256) (this.children ??= new Map()).set(name, node);
    return node;
  }
}

const rootsOf = new WeakMap<FieldTable, Map<string, FieldNode | null>>();

/** A JSON path as a linked list, built while walking (no array per step). */
export type FieldPath = PathLink;
export { pathSegments };

/** "spec.rules[0].host": segments (relative to the object) as a manifest path is said in findings. */
export function pathText(segs: ReadonlyArray<string | number>): string {
  return segs.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');
}

/**
 * One key of a mapping of a built-in object, in fieldEntries' depth-first order: the mapping `v` (at path `at`, of node
 * `node`), its key, the key's node `c` and value `val`; `parent` is the index of the entry whose value holds the
 * mapping (-1: the object itself). The items of a list are walked with the list's node.
 */
export interface FieldEntry {
  readonly v: Record<string, unknown>;
  readonly node: FieldNode;
  readonly at: FieldPath;
  readonly key: string;
  readonly c: FieldNode;
  readonly val: unknown;
  readonly parent: number;
}

/**
 * The walk the field rules share, done once per object, depth first and without recursion: every key of every mapping
 * reached by going into each key some minor serves whose value is not free-form at every such minor (the root's
 * `status` is left out). A rule that goes into fewer keys reads a subsequence in the same order (leaving out a
 * subtree of a depth-first walk keeps the order of the rest): walkServedEntries.
 */
export function fieldEntries(value: unknown, root: FieldNode, at: ReadonlyArray<string | number>): FieldEntry[] {
  const out: FieldEntry[] = [];
  const base = linkOf(at);
  // The values still to walk, as four parallel stacks (an object per value was a third of the walk's allocation).
  const sv = WALK_V, sn = WALK_NODE, sp = WALK_PATH, sq = WALK_PARENT;
  const bottom = sv.length;
  sv.push(value); sn.push(root); sp.push(base); sq.push(-1);
  try {
    while (sv.length > bottom) {
      const v = sv.pop(), node = sn.pop()!, p = sp.pop()!, parent = sq.pop()!;
      if (Array.isArray(v)) {
        // Only the items there is something to walk in: a list of scalars (args, command) makes no path link per item.
        for (let i = v.length - 1; i >= 0; i--) {
          const x = v[i];
          if (x && typeof x === 'object') { sv.push(x); sn.push(node); sp.push({ up: p, seg: i }); sq.push(parent); }
        }
        continue;
      }
      if (!v || typeof v !== 'object') continue;
      const m = v as Record<string, unknown>;
      // A parsed mapping (a plain object: Object.prototype has no enumerable key) by for-in, which gives Object.keys' keys
      // in its order without an array per mapping; any other object by Object.keys.
      if (Object.getPrototypeOf(m) === Object.prototype) {
        for (const key in m) if (!(node === root && key === 'status')) entry(out, m, node, p, key, parent, sv, sn, sp, sq);
      } else {
        for (const key of Object.keys(m)) if (!(node === root && key === 'status')) entry(out, m, node, p, key, parent, sv, sn, sp, sq);
      }
    }
  } finally {
    sv.length = sn.length = sp.length = sq.length = bottom;
  }
  return out;
}
/** fieldEntries' step for one key: its entry, and its value on the stacks when the walk goes into it. */
function entry(out: FieldEntry[], m: Record<string, unknown>, node: FieldNode, p: FieldPath, key: string, parent: number,
  sv: unknown[], sn: FieldNode[], sp: FieldPath[], sq: number[]): void {
  const c = node.child(key);
  const val = m[key];
  const i = out.length;
  out.push({ v: m, node, at: p, key, c, val, parent });
  if (c.served && (c.freeForm & c.served) !== c.served && val && typeof val === 'object') { sv.push(val); sn.push(c); sp.push({ up: p, seg: key }); sq.push(i); }
}
const WALK_V: unknown[] = [];
const WALK_NODE: FieldNode[] = [];
const WALK_PATH: FieldPath[] = [];
const WALK_PARENT: number[] = [];

/**
 * Every key of a built-in object that some minor of the table serves, from its fieldEntries, with `alive`: the steps
 * of `win` where its parent is served (the kind's at the root; `status`, `apiVersion` and `kind` of the root are left
 * out). It goes on below a key at the steps that serve it, unless every such step takes the key's value as a
 * free-form map or free-form JSON (nothing to look at there). The walk of the field-lifecycle rules.
 */
export function walkServedEntries(
  entries: readonly FieldEntry[], root: FieldNode, win: number,
  visit: (key: string, node: FieldNode, alive: number, parent: FieldPath) => void,
): void {
  const alive0 = root.kindServed & win;
  if (!alive0) return;
  // below[i]: the steps where the mappings in entry i's value are served (its `alive`), 0 where the walk does not go.
  // One zeroed scratch array across calls (an ArrayBuffer per object and rule cost more than the walk; see BELOW_KEEP);
  // a fresh one when a visit walks again before returning, or for an object too big to keep one for.
  const n = entries.length;
  const mine = !belowBusy && n <= BELOW_KEEP;
  if (!mine) { walkBelow(entries, root, alive0, new Int32Array(n), visit); return; }
  if (belowScratch.length < n) belowScratch = new Int32Array(Math.min(BELOW_KEEP, Math.max(n, belowScratch.length * 2)));
  belowScratch.fill(0, 0, n);
  belowBusy = true;
  try {
    walkBelow(entries, root, alive0, belowScratch, visit);
  } finally {
    belowBusy = false;
  }
}
/** Entries (of one object) up to which walkServedEntries reuses its scratch array: 256 KB. */
const BELOW_KEEP = 1 << 16;
let belowScratch = new Int32Array(1024);
let belowBusy = false;
function walkBelow(
  entries: readonly FieldEntry[], root: FieldNode, alive0: number, below: Int32Array,
  visit: (key: string, node: FieldNode, alive: number, parent: FieldPath) => void,
): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const alive = e.parent < 0 ? alive0 : below[e.parent];
    if (!alive) continue;
    const key = e.key;
    if (e.node === root && (key === 'status' || key === 'apiVersion' || key === 'kind')) continue;
    const c = e.c;
    if (!c.served) continue;
    visit(key, c, alive, e.at);
    const next = alive & c.served;
    if (next && (c.freeForm & next) !== next) {
      const val = e.val;
      if (val && typeof val === 'object') below[i] = next;
    }
  }
}

/** The node of an apiVersion/kind's object, or undefined when the table has no such kind. */
export function rootNode(apiVersion: string, kind: string, t: FieldTable = fieldTable()): FieldNode | undefined {
  const key = `${apiVersion} ${kind}`;
  let roots = rootsOf.get(t);
  if (!roots) rootsOf.set(t, (roots = new Map()));
  let r = roots.get(key);
  if (r === undefined) {
    const iv = t.kinds[key];
    if (!iv) r = null;
    else {
      const n = t.last - t.first + 1;
      const types: (string | undefined)[] = new Array(n);
      let kindServed = 0;
      const owners: (string | undefined)[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const minor = t.first + i;
        for (const [m, a, b] of iv) if (minor >= a && minor <= b) types[i] = m;
      }
      for (let i = 0; i < n; i++) if (types[i] !== undefined) kindServed |= 1 << i;
      r = new FieldNode(t, types, owners, 0, 0, kindServed, 0, false, isComponentKind(apiVersion, kind));
    }
    if (roots.size < 4096) roots.set(key, r);
  }
  return r ?? undefined;
}

function rangesOf(mask: number, first: number, n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (!(mask & (1 << i))) continue;
    const r = out[out.length - 1];
    if (r && r[1] === first + i - 1) r[1] = first + i; else out.push([first + i, first + i]);
  }
  return out;
}

/** "1.18", "v1.18.3", 18 -> 18: the minor number of a 1.x version as engine/versions.ts reads it; anything else -> NaN. */
export function minorNumber(v: number | string): number {
  if (typeof v === 'number') return v;
  const m = parseMinor(v.trim());
  return m && m.major === 1 ? m.minor : Number.NaN;
}

/**
 * What the table says about `path` (JSON field names, no array indices; a map's key is one segment) of
 * `apiVersion`/`kind` at `minor`. Undefined when the table does not have the apiVersion/kind at all, the minor is
 * outside the table, or the path is served at no minor of the table.
 */
export function fieldAt(apiVersion: string, kind: string, path: readonly string[], minor: number | string, t: FieldTable = fieldTable()): FieldInfo | undefined {
  const m = minorNumber(minor);
  if (!covers(t, m)) return undefined;
  let node = rootNode(apiVersion, kind, t);
  if (!node) return undefined;
  for (const seg of path) node = node.child(seg);
  if (!node.served) return undefined;
  const i = m - t.first;
  const bit = 1 << i;
  const n = t.last - t.first + 1;
  let j = i;
  if (node.types[i] === undefined) {
    // The nearest minor that serves it, for the type.
    for (let d = 1; d < n; d++) {
      if (node.types[i + d] !== undefined) { j = i + d; break; }
      if (node.types[i - d] !== undefined) { j = i - d; break; }
    }
  }
  const owner = node.owners[j];
  const es = owner && path.length ? t.enums[`${owner}.${path[path.length - 1]}`] : undefined;
  // Where the values differ between sources, those of the minor nearest to the one asked about.
  const dist = (x: { minors: number[] }) => x.minors.reduce((d, k) => Math.min(d, Math.abs(k - m)), Infinity);
  const e = es?.reduce((a, b) => (dist(b) < dist(a) ? b : a));
  const ranges = rangesOf(node.served, t.first, n);
  return {
    served: (node.served & bit) !== 0,
    type: node.types[j] as string,
    ...(e ? { enum: e.values, enumMinors: e.minors } : {}),
    firstMinor: ranges[0][0],
    lastMinor: ranges[ranges.length - 1][1],
    ranges,
    inferred: (node.inferred & bit) !== 0,
    unknown: (node.unknown & bit) !== 0,
    freeForm: (node.freeForm & bit) !== 0,
    kindServed: (node.kindServed & bit) !== 0,
  };
}

/** Whether the table has the apiVersion/kind at some minor. */
export function hasKind(apiVersion: string, kind: string): boolean { return !!fieldTable().kinds[`${apiVersion} ${kind}`]; }

/** "array of V1Container", "map of string", "object (V1PodOS)", "string". */
export function describeType(type: string): string {
  const doc = /@1\.\d+$/.exec(type);
  if (doc) return describeType(type.slice(0, doc.index)); // a model of the user's OpenAPI document (fieldTableWith)
  if (type.startsWith('[]')) return `array of ${describeType(type.slice(2))}`;
  if (type.startsWith('{}')) return `map of ${describeType(type.slice(2))}`;
  if (type === 'object') return 'object (free-form)';
  if (PRIMITIVE.has(type)) return type;
  return `object (${type})`;
}

/** The source of one minor, as the data cites it ("@kubernetes/client-node@0.13.2 (v1.19.0)", or why none). */
export function sourceOf(minor: number | string, t: FieldTable = fieldTable()): string | undefined {
  const s = t.sources[String(minorNumber(minor))];
  if (!s) return undefined;
  if (s.none) return `no source: ${s.none}`;
  // An upstream document read from the reference folder (1.16, 1.35, 1.37): its `openapi` names it and its copy.
  if (s.document) return s.openapi;
  return `${s.package} (${s.openapi})${s.partial ? `, ${s.partial}` : ''}`;
}

/** "1.15..1.37", or "1.15..1.37 and the OpenAPI document for 1.39": the minors a table has sources for, as findings say them. */
export function fieldSpanText(t: FieldTable): string {
  const docs = Object.keys(t.documents ?? {}).map(Number).sort((a, b) => a - b);
  const base = fieldTable();
  const outside = docs.filter((m) => m < base.first || m > base.last);
  return `1.${base.first}..1.${base.last}${outside.length ? ` and the OpenAPI document${outside.length > 1 ? 's' : ''} for ${outside.map((m) => `1.${m}`).join(', ')}` : ''}`;
}
