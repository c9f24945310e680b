// The values the evaluator works on, as Go's reflection sees Helm's data:
//   undefined  an invalid reflect.Value ("no value": a pipeline's nil result, a nil dot)
//   null       a nil interface{} (a missing map key under missingkey=zero, a YAML null)
//   boolean, string; bigint = Go int; number = Go float64 (values.yaml numbers are float64 in Helm);
//   TypedInt = an int64 (sprig's int64, add, sub …) or a uint64 (semver's Major …)
//   V[] = []interface{}; Map = map[string]interface{}; GoStruct = a struct or named type with fields/methods;
//   Unk = a value the evaluator does not compute (never a guess).
import { charge } from './cost';

export type V = undefined | null | boolean | string | number | bigint | TypedInt | V[] | Map<string, V> | GoStruct | Unk;

export class TypedInt {
  constructor(readonly v: bigint, readonly type: 'int64' | 'uint64') {}
}
export const int64 = (v: bigint) => new TypedInt(BigInt.asIntN(64, v), 'int64');
/** The integer of an int, int64 or uint64. */
export function intOf(v: V): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof TypedInt) return v.v;
  return undefined;
}

export type ParamType = 'any' | 'string' | 'int' | 'int64' | 'float' | 'bool' | 'map' | 'list';

export interface Method { params: ParamType[]; variadic?: ParamType; fn: (args: V[]) => V }

export class GoStruct {
  constructor(
    readonly type: string,
    readonly fields: Map<string, V>,
    readonly methods: Map<string, Method> = new Map(),
    /** fmt's Stringer, when the type has String(). */
    readonly str?: string,
  ) {}
}

export class Unk {
  constructor(readonly reason: string, readonly path: string, readonly start: number, readonly end: number) {}
}

/** Lists whose order is Go's random map order (sprig `keys`, `values`): only order-free uses are evaluated. */
export const UNORDERED = new WeakSet<V[]>();

/** Maps of Helm's named type chartutil.Values (the top-level data and .Values): a type assertion to
 *  map[string]interface{} (sprig's dig) fails on them, and %T names them. */
export const CHART_VALUES = new WeakSet<Map<string, V>>();

/**
 * Maps of a conversion of .Values/.Chart that every render of a chart shares (eval.ts sharedFromJs: converted once
 * per chart, not per template and step). A render that would change one (set, unset, merge) throws SharedMutation
 * and is rendered again with copies of its own (copy on write for the rare template that mutates its values).
 */
export const SHARED = new WeakSet<object>();
export class SharedMutation extends Error {}
/** Off while a render runs on copies of its own. */
export const sharing = { on: true };
/** Called before a map is changed. */
export function mutating(m: Map<string, V>): void {
  if (sharing.on && SHARED.has(m)) throw new SharedMutation('a shared map is about to change');
}

export function isMap(v: V): v is Map<string, V> { return v instanceof Map; }
export function isList(v: V): v is V[] { return Array.isArray(v); }

/** Go's %T. */
export function goType(v: V): string {
  if (v === undefined || v === null) return '<nil>';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
  }
  if (v instanceof TypedInt) return v.type;
  if (Array.isArray(v)) return '[]interface {}';
  if (v instanceof Map) return CHART_VALUES.has(v) ? 'chartutil.Values' : 'map[string]interface {}';
  if (v instanceof GoStruct) return v.type;
  return 'unknown';
}

/** reflect.Kind's name (sprig kindOf / kindIs). */
export function goKind(v: V): string {
  if (v === undefined || v === null) return 'invalid';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'string': return 'string';
    case 'bigint': return 'int';
    case 'number': return 'float64';
  }
  if (v instanceof TypedInt) return v.type;
  if (Array.isArray(v)) return 'slice';
  if (v instanceof Map) return 'map';
  if (v instanceof GoStruct) return v.type.startsWith('*') ? 'ptr' : 'struct';
  return 'invalid';
}

/** Go's template truth (text/template isTrue). */
export function truth(v: V): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'boolean': return v;
    case 'string': return v.length > 0;
    case 'bigint': return v !== 0n;
    case 'number': return v !== 0;
  }
  if (v instanceof TypedInt) return v.v !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  return true; // structs and pointers to them
}

/** sprig's empty (same as not truth for the kinds we have). */
export function empty(v: V): boolean { return !truth(v); }

export function findUnk(v: V, depth = 0): Unk | undefined {
  if (v instanceof Unk) return v;
  if (depth > 100) return undefined;
  if (Array.isArray(v) || v instanceof Map) charge(1 + (Array.isArray(v) ? v.length : v.size));
  if (Array.isArray(v)) { for (const x of v) { const u = findUnk(x, depth + 1); if (u) return u; } }
  else if (v instanceof Map) { for (const x of v.values()) { const u = findUnk(x, depth + 1); if (u) return u; } }
  return undefined;
}

/** Plain JS data (values.yaml as parsed) into Go's view of it: objects become maps, numbers float64. */
export function fromJs(x: unknown, depth = 0): V {
  charge();
  if (depth > 200) return new Unk('values nested deeper than 200 levels are not evaluated', '', 0, 0);
  if (x === null || x === undefined) return null;
  if (typeof x === 'string' || typeof x === 'boolean' || typeof x === 'number' || typeof x === 'bigint') return x;
  if (x instanceof Map || x instanceof GoStruct || x instanceof Unk || x instanceof TypedInt) return x as V;
  if (Array.isArray(x)) return x.map((e) => fromJs(e, depth + 1));
  if (x instanceof Date) return x.toISOString();
  if (typeof x === 'object') {
    const m = new Map<string, V>();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) m.set(k, fromJs(v, depth + 1));
    return m;
  }
  return new Unk(`a ${typeof x} value is not evaluated`, '', 0, 0);
}

/** UTF-8 length of a string (Go's len). */
export function byteLen(s: string): number { return Buffer.byteLength(s, 'utf8'); }
