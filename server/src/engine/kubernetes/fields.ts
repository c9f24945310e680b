// The field-lifecycle table of the built-in Kubernetes kinds (data/kubernetes/fields/fields.json, written by
// scripts/import-k8s-fields.mjs): which minor serves which field path of which apiVersion/kind, with its type.
// Read lazily, once (engine/data.ts's loadJson); a path's answer for every minor is computed once and kept.
import { loadJson } from '../data';

/** [type, firstMinor, lastMinor]: the field has this type in the minors with a source from first to last. */
type Interval = [string, number, number];
interface ModelRow { seen: [number, number][]; fields: Record<string, string | Interval[]> }
export interface FieldTable {
  description: string;
  notes: string[];
  gaps: Record<string, string>;
  first: number;
  last: number;
  sources: Record<string, { package?: string; openapi?: string; partial?: string; none?: string }>;
  kinds: Record<string, Interval[]>;
  models: Record<string, ModelRow>;
  enums: Record<string, { values: string[]; minors: number[] }[]>;
  /** Per minor, the "Model.field" its source leaves out without saying so. */
  unsaid: Record<string, string[]>;
}

export const FIELDS_FILE = 'data/kubernetes/fields/fields.json';
export function fieldTable(): FieldTable { return loadJson<FieldTable>(FIELDS_FILE); }

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
  /** The path is, or is inside, a free-form map (labels, annotations, data) or free-form JSON: any key is served. */
  freeForm: boolean;
  /** The table serves the apiVersion/kind itself at `minor`. */
  kindServed: boolean;
}

interface Step { served: boolean; kindServed: boolean; type?: string; model?: string; field?: string; inferred: boolean; freeForm: boolean }
interface PathRow { steps: Step[]; info: Omit<FieldInfo, 'served' | 'type' | 'inferred' | 'freeForm' | 'kindServed' | 'enum' | 'enumMinors'>; firstType?: string }

const cache = new Map<string, PathRow | null>();
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

/** One minor: walk the path from the kind's model. */
function resolve(t: FieldTable, key: string, path: readonly string[], minor: number): Step {
  const gap = gaps().has(minor);
  const root = t.kinds[key];
  let rootType: string | undefined;
  if (root) for (const [m, a, b] of root) if (minor >= a && minor <= b) rootType = m;
  if (rootType === undefined) return { served: false, inferred: gap, freeForm: false, kindServed: false };
  let type: string = rootType;
  let inferred = gap;
  let model: string | undefined;
  let field: string | undefined;
  for (let i = 0; i < path.length; i++) {
    let base: string = type;
    while (base.startsWith('[]')) base = base.slice(2);
    if (base.startsWith('{}')) {
      // A map: this segment is a key of the map (any key is served), the next ones are inside its value.
      type = base.slice(2);
      if (type === 'string' || type === 'object' || i === path.length - 1) return { served: true, type, model, field, inferred, freeForm: true, kindServed: true };
      continue;
    }
    if (base === 'object') return { served: true, type: base, model, field, inferred, freeForm: true, kindServed: true };
    if (PRIMITIVE.has(base)) return { served: false, inferred, freeForm: false, kindServed: true };
    const row = t.models[base];
    if (!row) return { served: false, inferred, freeForm: false, kindServed: true };
    if (!modelSeen(row, minor) || unsaidAt(minor)?.has(`${base}.${path[i]}`)) inferred = true;
    const next = typeIn(row.fields[path[i]], row, minor);
    if (next === undefined) return { served: false, inferred, freeForm: false, kindServed: true };
    model = base;
    field = path[i];
    type = next;
  }
  const last = type.replace(/^(\[\])+/, '');
  return { served: true, type, model, field, inferred, freeForm: last === 'object' || last.startsWith('{}'), kindServed: true };
}

function row(apiVersion: string, kind: string, path: readonly string[]): PathRow | null {
  const key = `${apiVersion} ${kind}`;
  const ck = `${key}\u0000${path.join('\u0000')}`;
  const hit = cache.get(ck);
  if (hit !== undefined) return hit;
  const t = fieldTable();
  if (!t.kinds[key]) { cache.set(ck, null); return null; }
  const steps: Step[] = [];
  const ranges: [number, number][] = [];
  let firstType: string | undefined;
  for (let m = t.first; m <= t.last; m++) {
    const s = resolve(t, key, path, m);
    steps.push(s);
    if (s.served) {
      firstType ??= s.type;
      const r = ranges[ranges.length - 1];
      if (r && r[1] === m - 1) r[1] = m; else ranges.push([m, m]);
    }
  }
  const out: PathRow = {
    steps,
    firstType,
    info: { firstMinor: ranges.length ? ranges[0][0] : 0, lastMinor: ranges.length ? ranges[ranges.length - 1][1] : 0, ranges },
  };
  cache.set(ck, out);
  return out;
}

/** "1.18", "v1.18.3", 18 -> 18; anything else -> NaN. */
export function minorOf(v: number | string): number {
  if (typeof v === 'number') return v;
  const m = /^v?1\.(\d+)/.exec(v.trim());
  return m ? Number(m[1]) : Number.NaN;
}

/**
 * What the table says about `path` (JSON field names, no array indices; a map's key is one segment) of
 * `apiVersion`/`kind` at `minor`. Undefined when the table does not have the apiVersion/kind at all, the minor is
 * outside the table, or the path is served at no minor of the table.
 */
export function fieldAt(apiVersion: string, kind: string, path: readonly string[], minor: number | string): FieldInfo | undefined {
  const t = fieldTable();
  const m = minorOf(minor);
  if (!(m >= t.first && m <= t.last)) return undefined;
  const r = row(apiVersion, kind, path);
  if (!r || !r.info.ranges.length) return undefined;
  const s = r.steps[m - t.first];
  let type = s.type;
  let model = s.model;
  let field = s.field;
  if (!s.served) {
    // The nearest minor that serves it, for the type.
    for (let d = 1; d <= t.last - t.first && type === undefined; d++) {
      for (const n of [m + d, m - d]) {
        const o = r.steps[n - t.first];
        if (o?.served) { type = o.type; model = o.model; field = o.field; break; }
      }
    }
  }
  // Where the values differ between sources, those of the minor nearest to the one asked about.
  const es = model && field ? t.enums[`${model}.${field}`] : undefined;
  const dist = (x: { minors: number[] }) => Math.min(...x.minors.map((n) => Math.abs(n - m)));
  const e = es?.reduce((a, b) => (dist(b) < dist(a) ? b : a));
  return {
    served: s.served,
    type: type ?? r.firstType ?? 'object',
    ...(e ? { enum: e.values, enumMinors: e.minors } : {}),
    ...r.info,
    inferred: s.inferred,
    freeForm: s.freeForm,
    kindServed: s.kindServed,
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
  const s = fieldTable().sources[String(minorOf(minor))];
  if (!s) return undefined;
  if (s.none) return `no source: ${s.none}`;
  return `${s.package} (${s.openapi})${s.partial ? `, ${s.partial}` : ''}`;
}
