// The field-lifecycle table of the built-in Kubernetes kinds (data/kubernetes/fields/fields.json, written by
// scripts/import-k8s-fields.mjs): which minor serves which field path of which apiVersion/kind, with its type.
// Read lazily, once (fieldTable: each model when first asked for); a path's answer for every minor is computed once and kept.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../data';
import { parseMinor } from '../../../versions';

/** [type, firstMinor, lastMinor]: the field has this type in the minors with a source from first to last. */
type Interval = [string, number, number];
interface ModelRow { seen: [number, number][]; fields: Record<string, string | Interval[]> }
export interface FieldTable {
  description: string;
  notes: string[];
  gaps: Record<string, string>;
  first: number;
  last: number;
  sources: Record<string, { package?: string; document?: string; openapi?: string; partial?: string; none?: string; preRelease?: string }>;
  kinds: Record<string, Interval[]>;
  models: Record<string, ModelRow>;
  enums: Record<string, { values: string[]; minors: number[] }[]>;
  /** Per minor, the "Model.field" its source leaves out without saying so. */
  unsaid: Record<string, string[]>;
}

export const FIELDS_FILE = 'data/kubernetes/fields/fields.json';
/** The component configuration files' table (scripts/import-k8s-component-fields.mjs), same layout, no gaps. */
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
/** The component configuration table alone (hover cites its sources; fields-not-checked its span). */
export function componentFieldTable(): ComponentTable {
  return (componentTable ??= readFieldTable(fs.readFileSync(path.join(packageRoot, COMPONENT_FIELDS_FILE), 'utf8')) as unknown as ComponentTable);
}
/** Whether an apiVersion/kind is a component configuration file's (its paths are judged from its own table, no gaps). */
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
  /** Not read but inferred at `minor`: the minor has no source, or its source leaves this part out without saying
   *  so (the table's `unsaid` and `partial`: e.g. status at 1.31, JSONSchemaProps' x-kubernetes-* at 1.17/1.26). */
  inferred: boolean;
  /** Not served as far as the table knows, but it cannot vouch for that at `minor` (see FieldNode.unknown). */
  unknown: boolean;
  /** The path is, or is inside, a free-form map (labels, annotations, data) or free-form JSON: any key is served. */
  freeForm: boolean;
  /** The table serves the apiVersion/kind itself at `minor`. */
  kindServed: boolean;
}

let gapSet: Set<number> | undefined;
let unsaidSets: Map<number, Set<string>> | undefined;

const gaps = (): Set<number> => (gapSet ??= new Set(Object.keys(fieldTable().gaps).map(Number)));
const unsaidAt = (minor: number): Set<string> | undefined => {
  unsaidSets ??= new Map(Object.entries(fieldTable().unsaid ?? {}).map(([m, xs]) => [Number(m), new Set(xs)]));
  return unsaidSets.get(minor);
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

/**
 * A minor without a source (the table's gaps) serves a path when the nearest minors with a source on both sides
 * do (whatever the model is called there): its type is the later one's. Filled in after the minors with a source.
 */
function fillGaps(types: (string | undefined)[], owners: (string | undefined)[], freeForm: number): { freeForm: number; unknown: number } {
  const t = fieldTable();
  let unknown = 0;
  for (const g of gaps()) {
    const i = g - t.first;
    if (i < 0 || i >= types.length) continue;
    let p = i - 1;
    while (p >= 0 && gaps().has(t.first + p)) p--;
    let n = i + 1;
    while (n < types.length && gaps().has(t.first + n)) n++;
    const before = p >= 0 ? types[p] !== undefined : undefined;
    const after = n < types.length ? types[n] !== undefined : undefined;
    if (before && after) {
      types[i] = types[n];
      owners[i] = owners[n];
      if (freeForm & (1 << n)) freeForm |= 1 << i;
    } else {
      types[i] = undefined;
      // Both sides without it: not served either. One side with it (or no side to ask): cannot be judged.
      if (before !== false || after !== false) unknown |= 1 << i;
    }
  }
  return { freeForm, unknown };
}

/** Bit of `minor` in a node's masks (bit 0 = the table's first minor). */
export function minorBit(minor: number): number { return 1 << (minor - fieldTable().first); }
/** The mask of a list of minors (those outside the table are left out). */
export function maskOf(minors: readonly number[]): number {
  const t = fieldTable();
  let m = 0;
  for (const n of minors) if (n >= t.first && n <= t.last) m |= 1 << (n - t.first);
  return m;
}

let gapMaskMemo: number | undefined;
/** The mask of the minors without a field source (the table's gaps), computed once. */
export function gapMask(): number { return (gapMaskMemo ??= maskOf([...gaps()])); }

/**
 * One field path of one apiVersion/kind, for every minor of the table at once: a rule walks a manifest's keys
 * with `child()` (memoized: one Map lookup per key once warm) and tests the masks against its window's.
 */
export class FieldNode {
  /** Minors (bits) that serve the path. */
  readonly served: number;
  /** Minors where that answer is inferred, not read (no source, or the source leaves this part out unsaid). */
  readonly inferred: number;
  /** Minors where the path is not served as far as the table knows, but the table cannot vouch for it: a minor
   *  without a source whose neighbours disagree, or a part its source leaves out. A subset of `inferred`. */
  readonly unknown: number;
  /** Minors where the path is, or is inside, a free-form map or free-form JSON (any key below is served). */
  readonly freeForm: number;
  /** Minors that serve the apiVersion/kind. */
  readonly kindServed: number;
  private children?: Map<string, FieldNode>;
  private mapChild?: FieldNode;

  /** types[i]: the path's type at minor first+i (undefined: not served); owners[i]: the model holding the field. */
  constructor(readonly types: readonly (string | undefined)[], readonly owners: readonly (string | undefined)[], inferred: number, freeForm: number, kindServed: number, unknown = 0, private readonly inMap = false,
    /** A component configuration kind's path: every minor of its table has a source (the table's gaps are not its). */
    readonly noGaps = false) {
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
    const t = fieldTable();
    const n = this.types.length;
    const types: (string | undefined)[] = new Array(n);
    const owners: (string | undefined)[] = new Array(n);
    let inferred = this.inferred;
    let unknown = 0;
    let freeForm = 0;
    let named = false;
    let mapped = false;
    const gap = this.noGaps ? NO_GAPS : gaps();
    for (let i = 0; i < n; i++) {
      const type = this.types[i];
      if (type === undefined || gap.has(t.first + i)) continue;
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
      if (!modelSeen(row, minor) || unsaidAt(minor)?.has(`${base}.${name}`)) { inferred |= 1 << i; unknown |= 1 << i; }
      const next = typeIn(row.fields[name], row, minor);
      if (next === undefined) continue;
      types[i] = next;
      owners[i] = base;
      if (isFree(next)) freeForm |= 1 << i;
    }
    const filled = this.noGaps ? { freeForm, unknown: 0 } : fillGaps(types, owners, freeForm);
    const node = new FieldNode(types, owners, inferred, filled.freeForm, this.kindServed, unknown | filled.unknown, mapped, this.noGaps);
    if (mapped && !named) { this.mapChild = node; return node; }
    // Memoize only what some minor serves: unknown keys (typos, hostile input) leave no trace.
    if (node.served !== 0 && !this.inMap) (this.children ??= new Map()).set(name, node);
    else if (node.served !== 0 && (this.children?.size ?? 0) < 256) (this.children ??= new Map()).set(name, node);
    return node;
  }
}

const NO_GAPS: ReadonlySet<number> = new Set();
const roots = new Map<string, FieldNode | null>();

/** A JSON path as a linked list, built while walking (no array per step). */
export type FieldPath = { up: FieldPath; seg: string | number } | null;

/** A path's segments, outermost first. */
export function pathSegments(p: FieldPath): Array<string | number> {
  const segs: Array<string | number> = [];
  for (let q = p; q; q = q.up) segs.push(q.seg);
  return segs.reverse();
}

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
  let base: FieldPath = null;
  for (const seg of at) base = { up: base, seg };
  const stack: Array<{ v: unknown; node: FieldNode; at: FieldPath; parent: number }> = [{ v: value, node: root, at: base, parent: -1 }];
  while (stack.length) {
    const { v, node, at: p, parent } = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], node, at: { up: p, seg: i }, parent });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    const m = v as Record<string, unknown>;
    for (const key of Object.keys(m)) {
      if (node === root && key === 'status') continue;
      const c = node.child(key);
      const val = m[key];
      const i = out.length;
      out.push({ v: m, node, at: p, key, c, val, parent });
      if (c.served && (c.freeForm & c.served) !== c.served && val && typeof val === 'object') stack.push({ v: val, node: c, at: { up: p, seg: key }, parent: i });
    }
  }
  return out;
}

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
  const below = new Int32Array(entries.length);
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
export function rootNode(apiVersion: string, kind: string): FieldNode | undefined {
  const key = `${apiVersion} ${kind}`;
  let r = roots.get(key);
  if (r === undefined) {
    const t = fieldTable();
    const iv = t.kinds[key];
    if (!iv) r = null;
    else {
      const n = t.last - t.first + 1;
      const types: (string | undefined)[] = new Array(n);
      let kindServed = 0;
      let inferred = 0;
      const owners: (string | undefined)[] = new Array(n);
      const own = isComponentKind(apiVersion, kind);
      for (let i = 0; i < n; i++) {
        const minor = t.first + i;
        if (!own && gaps().has(minor)) { inferred |= 1 << i; continue; }
        for (const [m, a, b] of iv) if (minor >= a && minor <= b) types[i] = m;
      }
      const filled = own ? { unknown: 0 } : fillGaps(types, owners, 0);
      for (let i = 0; i < n; i++) if (types[i] !== undefined) kindServed |= 1 << i;
      r = new FieldNode(types, owners, inferred, 0, kindServed, filled.unknown, false, own);
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
export function fieldAt(apiVersion: string, kind: string, path: readonly string[], minor: number | string): FieldInfo | undefined {
  const t = fieldTable();
  const m = minorNumber(minor);
  if (!(m >= t.first && m <= t.last)) return undefined;
  let node = rootNode(apiVersion, kind);
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
  if (type.startsWith('[]')) return `array of ${describeType(type.slice(2))}`;
  if (type.startsWith('{}')) return `map of ${describeType(type.slice(2))}`;
  if (type === 'object') return 'object (free-form)';
  if (PRIMITIVE.has(type)) return type;
  return `object (${type})`;
}

/** The source of one minor, as the data cites it ("@kubernetes/client-node@0.13.2 (v1.19.0)", or why none). */
export function sourceOf(minor: number | string): string | undefined {
  const s = fieldTable().sources[String(minorNumber(minor))];
  if (!s) return undefined;
  if (s.none) return `no source: ${s.none}`;
  // An upstream document read from the reference folder (1.16, 1.35, 1.37): its `openapi` names it and its copy.
  if (s.document) return s.openapi;
  return `${s.package} (${s.openapi})${s.partial ? `, ${s.partial}` : ''}`;
}
