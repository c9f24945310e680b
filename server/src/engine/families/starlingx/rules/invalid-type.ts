import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { own } from '../../../text';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/invalid-type',
  family: 'starlingx',
  defaultSeverity: 'error',
  title: 'Override value of the wrong type',
  what: 'Reports an override whose YAML type is not the one the playbook expects: a list where a string is read, '
    + 'a number where a version string is needed (`kubernetes_version: 1.20` is the float 1.2), a mapping where a list is read.',
  why: 'The playbooks fail on a wrong type (a `fail` task, or a Jinja error deep inside a role) or, worse, '
    + 'read a different value: `1.20` unquoted is the number 1.2.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\ndns_servers: 8.8.8.8\n' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\ndns_servers:\n  - 8.8.8.8\n' },
  fix: 'none',
  sources: ['generated schemas/starlingx/<release>/localhost.schema.json (types from default.yml values and the validate-config tasks)'],
  check(ctx, report) {
    for (const p of ctx.schemaProblems()) {
      if (p.keyword !== 'type' && !(p.keyword === 'anyOf' && /type/.test(p.schemaPath + p.message))) continue;
      if (p.keyword === 'anyOf' && !isTypeAnyOf(ctx, p.path)) continue;
      const where = p.path.join('.') || 'the file';
      const val = valueAt(ctx.value, p.path);
      const expected = p.keyword === 'type' ? String(p.params.type).split(',').map(yamlType).join(' or ') : describeAnyOf(ctx, p.path);
      let hint = '';
      if (typeof val === 'number' && p.path[p.path.length - 1] === 'kubernetes_version') hint = ` — unquoted, YAML reads it as the number ${val}; quote it`;
      report({ message: `${where} must be ${article(expected)} ${expected}, not ${typeName(val)}${hint}`, range: p.range, data: { expected } });
    }
  },
};

function valueAt(v: unknown, path: Array<string | number>): unknown {
  for (const s of path) v = (v as any)?.[s];
  return v;
}
function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  return `the string ${JSON.stringify(v)}`;
}
function yamlType(t: string): string {
  return ({ array: 'list', object: 'mapping', integer: 'integer', number: 'number', boolean: 'boolean', string: 'string', null: 'empty value' } as Record<string, string>)[t] ?? t;
}
function article(t: string): string { return /^[aeiou]/.test(t) ? 'an' : 'a'; }

function subSchema(ctx: StarlingxContext, path: Array<string | number>): any {
  let s: any = ctx.schema;
  for (const seg of path) s = typeof seg === 'number' ? s?.items : (own(s?.properties, seg) ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined));
  return s;
}
function isTypeAnyOf(ctx: StarlingxContext, path: Array<string | number>): boolean {
  const s = subSchema(ctx, path);
  return Array.isArray(s?.anyOf) && s.anyOf.every((b: any) => b.type);
}
function describeAnyOf(ctx: StarlingxContext, path: Array<string | number>): string {
  const s = subSchema(ctx, path);
  return (s?.anyOf ?? []).map((b: any) => (b.enum ? `${yamlType(b.type)} (${b.enum.join('/')})` : yamlType(b.type))).join(' or ');
}
