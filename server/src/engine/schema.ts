// Versioned JSON Schemas, compiled once each and cached. ajv errors are turned into located problems:
// an unknown property points at its key, every other error at the offending value.
import type { default as Ajv, ErrorObject } from 'ajv';
import { loadJson } from './data';
import { AJV_OPTIONS, precompiledValidator, type Validator } from './precompiled';
import type { YamlDoc, OffsetRange } from './parse/yaml';
import { own } from './text';

/** Made (and ajv required) on first use: the instance (and its meta-schema) costs start-up time a file without a schema never needs. */
let ajv: Ajv | undefined;
const compiled = new Map<string, Validator>();

export function schemaFor(rel: string): Record<string, any> { return loadJson<Record<string, any>>(rel); }

/** The schema's validator: the build's (engine/precompiled.ts), else compiled here once. */
export function validatorFor(rel: string): Validator {
  let v = compiled.get(rel);
  if (!v) {
    const schema = schemaFor(rel);
    v = precompiledValidator(rel, schema) ?? (ajv ??= new ((require('ajv') as typeof import('ajv')).default)({ ...AJV_OPTIONS.data })).compile(schema);
    compiled.set(rel, v);
  }
  return v;
}

export interface SchemaProblem {
  keyword: string;
  /** Path segments of the instance (property names and indices). */
  path: Array<string | number>;
  /** The unknown property, for additionalProperties errors. */
  property?: string;
  message: string;
  params: Record<string, any>;
  range: OffsetRange;
  /** The sub-schema the failing keyword sits in (for descriptions, allowed values). */
  schemaPath: string;
}

export function decodePointer(p: string): Array<string | number> {
  if (!p) return [];
  return p.split('/').slice(1).map((s) => {
    const d = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(d) ? Number(d) : d;
  });
}

/** Validates a document's value; errors below an anyOf/oneOf collapse into the anyOf's own error. */
export function validateDoc(schemaRel: string, doc: YamlDoc, value: unknown = doc.value): SchemaProblem[] {
  const validate = validatorFor(schemaRel);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []) as ErrorObject[];
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  const propNameAllowed = new Map<string, unknown[]>();
  for (const e of errors) {
    if (/\/propertyNames\//.test(e.schemaPath)) {
      if (e.keyword === 'enum') propNameAllowed.set(e.instancePath, (e.params as any).allowedValues);
    }
  }
  for (const e of errors) {
    if (/\/propertyNames\//.test(e.schemaPath)) continue;
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && anyOfPaths.has(e.instancePath) && /\/(anyOf|oneOf)\//.test(e.schemaPath)) continue;
    const path = decodePointer(e.instancePath);
    let range: OffsetRange;
    let property: string | undefined;
    if (e.keyword === 'additionalProperties') {
      property = String((e.params as any).additionalProperty);
      const at = doc.locate([...path, property]);
      range = at.key ?? at.value;
    } else if (e.keyword === 'propertyNames') {
      property = String((e.params as any).propertyName);
      const allowed = propNameAllowed.get(e.instancePath);
      if (allowed) (e.params as any).allowedValues = allowed;
      const at = doc.locate([...path, property]);
      range = at.key ?? at.value;
    } else {
      range = doc.locate(path).value;
    }
    const k = `${e.keyword}|${e.instancePath}|${property ?? ''}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ keyword: e.keyword, path, property, message: e.message ?? e.keyword, params: e.params as any, range, schemaPath: e.schemaPath });
  }
  return out;
}

/** The sub-schema at a data path (following properties / items / additionalProperties), for hovers. */
export function subSchemaAt(schema: Record<string, any>, path: Array<string | number>): Record<string, any> | undefined {
  let s: any = schema;
  for (const seg of path) {
    if (!s) return undefined;
    if (typeof seg === 'number' || Array.isArray(s.items) === false && s.items && !s.properties) s = s.items;
    else s = own(s.properties, seg) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  }
  return s;
}
