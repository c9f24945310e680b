// A chart's values.schema.json, validated as Helm validates it (`helm install`, `helm template`, `helm lint`: the
// coalesced values against the top chart's schema) against values.yaml and against each values scenario, with ajv
// (draft-07 semantics, as Helm's JSON Schema library; a `$schema` of 2019-09 or 2020-12 is honoured). Each error is
// said in the values file that sets the value: values.yaml for the defaults, the scenario's file for what it sets.
// Remote `$ref`s are never fetched; a schema that cannot be read or compiled is a "not checked" note on the schema.
import type { default as AjvCore, ErrorObject, ValidateFunction } from 'ajv';
import type { Rule, Finding } from '../../../rules/types';
import type { HelmContext } from '../index';
import { parseYaml, type YamlDoc } from '../../../parse/yaml';
import { decodePointer } from '../../../schema';
import { valuesOf, mergeValues } from '../chart';

/** Largest schema compiled (its nodes: objects and arrays, all levels), and how many user schemas stay compiled. */
const MAX_SCHEMA_NODES = 50000;
const MAX_COMPILED = 16;

interface Compiled { validate?: ValidateFunction; why?: string; at?: Array<string | number>; unresolved?: { ref: string; at: Array<string | number> } }

const instances = new Map<string, AjvCore>();
function ajvFor(draft: '07' | '2019' | '2020'): AjvCore {
  let a = instances.get(draft);
  if (!a) {
    const opts = { allErrors: true, strict: false, validateFormats: false, logger: false as const };
    const Ctor = draft === '2020' ? (require('ajv/dist/2020') as { default: new (o: object) => AjvCore }).default
      : draft === '2019' ? (require('ajv/dist/2019') as { default: new (o: object) => AjvCore }).default
        : (require('ajv') as { default: new (o: object) => AjvCore }).default;
    instances.set(draft, (a = new Ctor(opts)));
  }
  return a;
}

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const compiled = new Map<string, Compiled>();

/** The schema's text compiled (cached by text): or why not, and where in it. */
export function compileValuesSchema(text: string): Compiled {
  const hit = compiled.get(text);
  if (hit) return hit;
  const out = compileOnce(text);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(text, out);
  return out;
}

function compileOnce(text: string): Compiled {
  let schema: unknown;
  try { schema = JSON.parse(text.replace(/^\uFEFF/, '')); } catch (e) { return { why: `it is not JSON (${(e as Error).message})` }; }
  if (typeof schema === 'boolean') schema = schema ? {} : { not: {} };
  if (!isObj(schema)) return { why: 'it is not a JSON object (a JSON Schema)' };
  // Bounded: count the nodes; take out every $ref that is not local (never fetched), remembering the first.
  let nodes = 0;
  let unresolved: Compiled['unresolved'];
  const walk = (v: unknown, at: Array<string | number>): unknown => {
    if (++nodes > MAX_SCHEMA_NODES) throw new RangeError('big');
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...at, i]));
    if (!isObj(v)) return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if ((k === '$ref' || k === '$dynamicRef' || k === '$recursiveRef') && typeof x === 'string' && !x.startsWith('#')) { unresolved ??= { ref: x, at: [...at, k] }; continue; }
      o[k] = walk(x, [...at, k]);
    }
    return o;
  };
  let clean: Record<string, unknown>;
  try { clean = walk(schema, []) as Record<string, unknown>; } catch { return { why: `it has more than ${MAX_SCHEMA_NODES} objects and arrays: too big to be checked here` }; }
  const declared = typeof clean.$schema === 'string' ? clean.$schema : '';
  let draft: '07' | '2019' | '2020' = '07';
  if (/2020-12/.test(declared)) draft = '2020';
  else if (/2019-09/.test(declared)) draft = '2019';
  else if (declared && !/draft-0[4-7]/.test(declared)) return { why: `its $schema "${declared}" is not a JSON Schema draft Helm reads (draft-04 to draft-07, 2019-09, 2020-12)`, at: ['$schema'] };
  // Draft-04 to 07 read with draft-07's semantics, as Helm's library reads them.
  if (draft === '07') delete clean.$schema;
  // A $id would register the schema by name in the shared instance: each is compiled on its own.
  delete clean.$id;
  try {
    return { validate: ajvFor(draft).compile(clean), unresolved };
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0];
    // ajv names the schema's own path in a meta-schema error ("schema is invalid: data/properties/x/minimum must be number").
    const at = /\bdata((?:\/[^\s/]+)+)/.exec(msg)?.[1].split('/').slice(1).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
    return { why: `it does not compile as a JSON Schema (${msg})`, unresolved, ...(at ? { at } : {}) };
  }
}

const pathText = (p: ReadonlyArray<string | number>) => (p.length ? `\`${p.join('.')}\`` : 'the values');

interface ValuesError { key: string; path: Array<string | number>; message: string; keyword: string }

/** ajv's errors as values paths and messages (those under an anyOf/oneOf said by it). */
function errorsOf(validate: ValidateFunction, value: unknown): ValuesError[] {
  if (validate(value)) return [];
  const errors = (validate.errors ?? []) as ErrorObject[];
  const anyOf = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const out: ValuesError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && anyOf.has(e.instancePath) && /\/(anyOf|oneOf)\//.test(e.schemaPath)) continue;
    if (e.keyword === 'if') continue; // said by the then/else error it stands for
    let p = decodePointer(e.instancePath);
    let message = e.message ?? e.keyword;
    const params = e.params as Record<string, any>;
    if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') { p = [...p, String(params.additionalProperty ?? params.unevaluatedProperty)]; message = 'is not allowed by the schema (no such property)'; }
    else if (e.keyword === 'required') message = `must have the key "${params.missingProperty}"`;
    else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.map((x: unknown) => JSON.stringify(x)).join(', ')}`;
    else if (e.keyword === 'const') message = `must be ${JSON.stringify(params.allowedValue)}`;
    const key = `${e.keyword}|${p.join('\u0000')}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, path: p, message: `${pathText(p)} ${message}`, keyword: e.keyword });
  }
  return out;
}

/** Whether the values set the path (every key on it present). */
function sets(v: unknown, p: ReadonlyArray<string | number>): boolean {
  for (const k of p) {
    if (Array.isArray(v) && typeof k === 'number') { if (k >= v.length) return false; v = v[k]; continue; }
    if (!isObj(v) || !Object.prototype.hasOwnProperty.call(v, String(k))) return false;
    v = v[String(k)];
  }
  return true;
}

/** Where a values file sets a path: its key's line (the key and its value), else the nearest key it sets above, else the file's start. */
function placeIn(text: string, doc: YamlDoc | undefined, value: unknown, p: ReadonlyArray<string | number>): { start: number; end: number } {
  if (!doc) return { start: 0, end: 0 };
  let n = p.length;
  while (n > 0 && !sets(value, p.slice(0, n))) n--;
  if (!n) return { start: 0, end: 0 };
  const loc = doc.locate(p.slice(0, n));
  if (!loc.key) return loc.value;
  // The key and its value when on one line; a block (a map, a list) at its key.
  return /[\r\n]/.test(text.slice(loc.key.start, loc.value.end)) ? loc.key : { start: loc.key.start, end: Math.max(loc.key.end, loc.value.end) };
}

/**
 * What of a values.schema.json is not checked, at its place in it (helm/not-evaluated says it on the schema): it is
 * not JSON, does not compile, is too big; a $ref that is not local (never fetched).
 */
export function schemaNotes(text: string): Array<{ message: string; range: { start: number; end: number } }> {
  const c = compileValuesSchema(text);
  if (!c.why && !c.unresolved) return [];
  const doc = parseYaml(text).docs.find((d) => !d.empty);
  const at = (p?: Array<string | number>) => {
    if (!p || !doc || doc.errors.length) return { start: 0, end: 0 };
    const loc = doc.locate(p);
    return loc.key ?? loc.value;
  };
  const out: Array<{ message: string; range: { start: number; end: number } }> = [];
  if (c.why) out.push({ message: `not checked: the chart's values are not validated against this schema: ${c.why}`, range: at(c.at) });
  if (c.unresolved) out.push({ message: `not resolved: the $ref "${c.unresolved.ref}" (and any other that is not local to this file) is never fetched; the values it would check are not checked against it`, range: at(c.unresolved.at) });
  return out;
}

export const valuesSchema: Rule<HelmContext> = {
  id: 'helm/values-schema',
  family: 'helm-chart',
  defaultSeverity: 'error',
  title: 'Chart values break the chart\'s values.schema.json',
  what: 'Validates the chart\'s `values.yaml` against its `values.schema.json` (draft-07 semantics as Helm reads it; a `$schema` of 2019-09 '
    + 'or 2020-12 is honoured), and each values scenario (`ci/*-values.yaml`, the files `helm.valueSets` names) coalesced over the defaults '
    + 'as Helm coalesces them, and reports each error in the file that sets the value: at its key\'s line, or for a missing required key '
    + 'at its parent\'s key (the file\'s start at the top level). An error the defaults already make is said on `values.yaml` only. '
    + 'A `values.schema.json` that is not JSON, does not compile, or is too big is a "not checked" note on it; a remote `$ref` is never '
    + 'fetched (the note says it was not resolved, and the parts under it are not checked). Formats (`format:`) are not checked. '
    + '(In the examples below, the chart\'s `values.schema.json` says `replicaCount` is an integer.)',
  why: 'Helm validates the values against `values.schema.json` before it renders: `helm install` and `helm upgrade` with values that '
    + 'break it fail, for every release deployed with them.',
  bad: { filename: 'values.yaml', text: 'replicaCount: "two"\nimage:\n  repository: nginx\n', options: 'Kubernetes 1.25..1.27' },
  good: { filename: 'values.yaml', text: 'replicaCount: 2\nimage:\n  repository: nginx\n', options: 'Kubernetes 1.25..1.27' },
  fix: 'none',
  sources: ['Helm pkg/chartutil/jsonschema.go (ValidateAgainstSchema)', 'Helm docs: Charts (Schema Files)', 'JSON Schema draft-07, 2020-12'],
  check(ctx, report) {
    const s = ctx.valuesSchema;
    if (!s || s.text === undefined || ctx.kind === 'schema') return; // what could not be read or compiled: helm/not-evaluated
    const c = compileValuesSchema(s.text);
    if (!c.validate) return; // said on values.schema.json
    const yaml = parseYaml(ctx.text);
    if (yaml.errors.length || yaml.docs.some((d) => d.errors.length)) return; // its syntax is said; Helm does not read it either
    const doc = yaml.docs.find((d) => !d.empty);
    const own: unknown = doc ? doc.value : {};
    const ownValues = isObj(own) ? own : {};
    const findings: Finding[] = [];
    if (ctx.kind === 'values') {
      for (const e of errorsOf(c.validate, ownValues)) {
        findings.push({ message: `${e.message}, as values.schema.json says`, range: placeIn(ctx.text, doc, ownValues, e.path), data: { path: e.path.join('.'), keyword: e.keyword } });
      }
    } else if (ctx.kind === 'scenario' && ctx.scenario && ctx.chart) {
      // Coalesced as Helm coalesces `-f` values over the chart's defaults; what the defaults alone break is values.yaml's.
      const defaults = valuesOf(ctx.chart);
      const before = new Set(errorsOf(c.validate, defaults).map((e) => e.key));
      for (const e of errorsOf(c.validate, mergeValues(defaults, ownValues))) {
        if (before.has(e.key)) continue;
        findings.push({ message: `${e.message} with these values over the chart's defaults, as values.schema.json says`, range: placeIn(ctx.text, doc, ownValues, e.path), data: { path: e.path.join('.'), keyword: e.keyword, scenario: ctx.scenario.id } });
      }
    }
    for (const f of findings.sort((a, b) => a.range.start - b.range.start)) report(f);
  },
};
