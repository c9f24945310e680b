// A custom resource read against its CRD version's openAPIV3Schema, the way the API server reads it: structural
// pruning drops a field the schema does not declare (unless x-kubernetes-preserve-unknown-fields, or an
// additionalProperties map), and validation refuses a value of the wrong type or outside an enum. Only what is
// cheap and certain: properties, additionalProperties, items, type, enum, x-kubernetes-int-or-string,
// x-kubernetes-embedded-resource, nullable. Logical junctors (allOf/anyOf/oneOf/not) add no fields in a structural
// schema and are not evaluated.
import type { CrdSchema } from './crds';
import { didYouMean } from '../../text';
import { linkOf, pathSegments, type PathLink } from '../../path-link';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Any key and any value below (x-kubernetes-preserve-unknown-fields, additionalProperties: true, no schema). */
export const ANY: CrdSchema = Object.freeze({ 'x-kubernetes-preserve-unknown-fields': true });

/** The schema of key `key` of a mapping with schema `s`: undefined when the schema does not declare it (pruned). */
export function schemaChild(s: CrdSchema, key: string, root = false): CrdSchema | undefined {
  const props = isObj(s.properties) ? s.properties as Record<string, unknown> : undefined;
  if (props && Object.prototype.hasOwnProperty.call(props, key)) return isObj(props[key]) ? props[key] as CrdSchema : ANY;
  // An embedded object (and the CR's root) has apiVersion, kind and metadata whatever its properties say.
  if ((root || s['x-kubernetes-embedded-resource'] === true) && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) return ANY;
  const ap = s.additionalProperties;
  if (isObj(ap)) return ap as CrdSchema;
  if (ap === true) return ANY;
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return ANY;
  return undefined;
}

/** The schema of a list's items (ANY when the list does not say). */
export const schemaItems = (s: CrdSchema): CrdSchema => (isObj(s.items) ? s.items as CrdSchema : ANY);

/** Whether every key below is accepted (nothing to check in there). */
export const isOpen = (s: CrdSchema): boolean => s === ANY || (s['x-kubernetes-preserve-unknown-fields'] === true && !isObj(s.properties) && !isObj(s.additionalProperties));

/** "string", "integer", "array of object", "map of string", "int-or-string": a schema's type, said. */
export function schemaType(s: CrdSchema): string {
  if (s === ANY) return 'any';
  if (s['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  const t = typeof s.type === 'string' ? s.type : undefined;
  if (t === 'array') return `array of ${schemaType(schemaItems(s))}`;
  if ((t === 'object' || !t) && isObj(s.additionalProperties)) return `map of ${schemaType(s.additionalProperties as CrdSchema)}`;
  if (!t) return s['x-kubernetes-preserve-unknown-fields'] === true ? 'any (x-kubernetes-preserve-unknown-fields)' : 'any';
  return t;
}

function typeFits(value: unknown, s: CrdSchema): boolean {
  if (value === null) return s.nullable === true || s.type === undefined;
  if (s['x-kubernetes-int-or-string'] === true) return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  switch (s.type) {
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'array': return Array.isArray(value);
    case 'object': return isObj(value);
    default: return true;
  }
}

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v === 'object' ? 'object' : typeof v);

export type SchemaIssue =
  | { kind: 'unknown'; path: Array<string | number>; key: string; suggestion?: string; parentKeys: string[] }
  | { kind: 'type'; path: Array<string | number>; expected: string; got: string }
  | { kind: 'enum'; path: Array<string | number>; values: unknown[]; got: unknown; suggestion?: string }
  /** The walk stopped (issue limit or node budget) before `path`: it and what follows were not read. */
  | { kind: 'cut'; path: Array<string | number>; reason: string };

/**
 * Every issue of `value` (a CR without apiVersion/kind/metadata/status, at `at` in its document) against `schema`,
 * depth first, without recursion on the file's shape. At most `limit` issues and 200,000 nodes (a hostile file cannot
 * make it slow); where the walk stops before the end, a last `cut` issue says where.
 */
/** The resource's own keys, not read against its schema. */
const OWN_KEYS = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export function schemaIssues(value: Record<string, unknown>, schema: CrdSchema, at: ReadonlyArray<string | number>, limit = 500): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  // Each value's path is a link to its parent's (path-link.ts): an array is made only for an issue.
  const stack: Array<{ v: unknown; s: CrdSchema; p: PathLink; root: boolean }> = [{ v: value, s: schema, p: linkOf(at), root: true }];
  // A node budget as well: aliases can make a value visit the same nodes many times.
  const NODES = 200000;
  let budget = NODES;
  while (stack.length && out.length < limit && budget > 0) {
    budget--;
    const { v, s, p, root } = stack.pop()!;
    if (s === ANY) continue;
    if (!root) {
      if (!typeFits(v, s)) { out.push({ kind: 'type', path: pathSegments(p), expected: schemaType(s), got: jsonType(v) }); continue; }
      if (Array.isArray(s.enum) && v !== null && typeof v !== 'object' && !s.enum.some((e) => e === v)) {
        const strings = s.enum.filter((e): e is string => typeof e === 'string');
        out.push({ kind: 'enum', path: pathSegments(p), values: s.enum, got: v, suggestion: typeof v === 'string' ? didYouMean(v, strings) : undefined });
        continue;
      }
    }
    if (Array.isArray(v)) {
      const items = schemaItems(s);
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], s: items, p: { up: p, seg: i }, root: false });
      continue;
    }
    if (!isObj(v) || isOpen(s)) continue;
    const keys = Object.keys(v);
    const pending: typeof stack = [];
    // The declared keys this object lacks (what an unknown key may have meant): the same for each of its unknown keys.
    let known: string[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (root && OWN_KEYS.has(k)) continue;
      if (out.length >= limit) {
        // The limit holds within one object too: its keys from here on are not read, and the cut below says so at the
        // first of what was not read (the values of the keys before, then these keys).
        for (; i < keys.length; i++) if (!(root && OWN_KEYS.has(keys[i]))) pending.push({ v: v[keys[i]], s: ANY, p: { up: p, seg: keys[i] }, root: false });
        break;
      }
      const c = schemaChild(s, k, root);
      if (!c) {
        known ??= isObj(s.properties) ? Object.keys(s.properties).filter((name) => !(name in v)) : [];
        out.push({ kind: 'unknown', path: pathSegments({ up: p, seg: k }), key: k, suggestion: didYouMean(k, known), parentKeys: known });
        continue;
      }
      pending.push({ v: v[k], s: c, p: { up: p, seg: k }, root: false });
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
  }
  if (stack.length) {
    const reason = out.length >= limit ? `${limit} issues found` : '200,000 values read';
    out.push({ kind: 'cut', path: pathSegments(stack[stack.length - 1].p), reason });
  }
  return out;
}

/** The schema at a path of keys below a CR's root (list indices are walked into the items), or undefined when not declared. */
export function schemaAt(schema: CrdSchema, path: ReadonlyArray<string | number>): CrdSchema | undefined {
  let s: CrdSchema | undefined = schema;
  for (let i = 0; i < path.length && s; i++) {
    const seg = path[i];
    s = typeof seg === 'number' ? schemaItems(s) : schemaChild(s, seg, i === 0 && s === schema);
    if (s && i === 0 && (seg === 'metadata' || seg === 'apiVersion' || seg === 'kind')) return ANY;
  }
  return s;
}

/** A schema's description, first sentence-ish line, for hovers and completion. */
export const schemaDescription = (s: CrdSchema): string | undefined => (typeof s.description === 'string' ? s.description : undefined);
