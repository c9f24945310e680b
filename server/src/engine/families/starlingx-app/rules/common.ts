// The checks of a metadata.yaml key's value, as sysinv's validator makes them (data/starlingx/app-metadata.json keys[].check).
import type { AppContext, AppEntry } from '../index';
import type { AppKey } from '../data';
import type { OffsetRange } from '../../../parse/yaml';
import { listText, stripV } from '../index';

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
export const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null (empty)' : Array.isArray(v) ? 'a list' : isMap(v) ? 'a mapping' : String(v));

/** Releases of the path whose validator checks this key's type and value. */
export function validatingReleases(ctx: AppContext, spec: AppKey): string[] {
  return ctx.releases.filter((r) => spec.releases[r]?.validated);
}

/** The cited source of the rule in the newest of the releases, for a message. */
export function sourceIn(spec: AppKey, releases: string[]): string {
  const r = [...releases].reverse().find((x) => spec.releases[x]?.source);
  return r ? spec.releases[r].source!.replace(/^starlingx\/config /, '') : 'data/starlingx/app-metadata.json';
}

export interface ValueIssue { kind: 'type' | 'value'; message: string; range: OffsetRange; releases: string[] }

/** What is wrong with an entry's value at the releases that validate it. */
export function issuesOf(ctx: AppContext, e: AppEntry): ValueIssue[] {
  const spec = e.spec;
  if (!spec) return [];
  const rels = validatingReleases(ctx, spec);
  if (!rels.length) return [];
  const c = spec.check;
  const out: ValueIssue[] = [];
  const at = (path: Array<string | number>) => ctx.doc.locate(path).value;
  const v = e.value;
  const typeIssue = (want: string, range = e.valueRange, rs = rels) => out.push({ kind: 'type', message: `${e.name} must be ${want}, not ${show(v)}`, range, releases: rs });
  switch (c.type) {
    case 'string': {
      if (c.typeChecked && !c.typeChecked.length) {
        // app_name / app_version: sysinv checks only that they are set (and, from 9.0, not empty).
        const ne = rels.filter((r) => c.nonEmpty?.includes(r));
        if (v === '' && ne.length) out.push({ kind: 'value', message: `${e.name} is an empty string`, range: e.valueRange, releases: ne });
        break;
      }
      if (v !== null && typeof v !== 'string') { typeIssue('a string'); break; }
      if (typeof v === 'string' && c.format) {
        const fr = rels.filter((r) => c.format!.includes(r));
        if (fr.length && !new RegExp(c.pattern!).test(stripV(v))) {
          out.push({ kind: 'value', message: `${e.name} "${v}" is not a Kubernetes version sysinv accepts: after a leading "v" it must be MAJOR.MINOR or MAJOR.MINOR.PATCH with a one-digit major, e.g. v1.29.2`, range: e.valueRange, releases: fr });
        }
      }
      break;
    }
    case 'mapping':
      if (!isMap(v)) { typeIssue('a mapping'); break; }
      if (c.values === 'list-of-strings') {
        for (const [k, x] of Object.entries(v)) {
          if (!Array.isArray(x) || x.some((y) => typeof y !== 'string')) out.push({ kind: 'type', message: `${e.name}.${k} must be a list of patch ids (strings)`, range: at([...e.path, k]), releases: rels });
        }
      }
      break;
    case 'list':
      if (!Array.isArray(v)) { typeIssue('a list'); break; }
      v.forEach((item, i) => {
        const r = at([...e.path, i]);
        if (c.items === 'string' && typeof item !== 'string') out.push({ kind: 'type', message: `${e.name}[${i}] must be a string, not ${show(item)}`, range: r, releases: rels });
        if (c.items === 'trigger') {
          if (!isMap(item)) out.push({ kind: 'type', message: `${e.name}[${i}] must be a mapping (type, filter_field, filters)`, range: r, releases: rels });
          else {
            for (const f of ['type', 'filter_field']) if (f in item && typeof item[f] !== 'string') out.push({ kind: 'type', message: `${e.name}[${i}].${f} must be a string`, range: at([...e.path, i, f]), releases: rels });
            if ('filters' in item && !Array.isArray(item.filters)) out.push({ kind: 'type', message: `${e.name}[${i}].filters must be a list`, range: at([...e.path, i, 'filters']), releases: rels });
          }
        }
        if (c.items === 'dependency' || c.items === 'parent-exception') {
          const one = (d: unknown, path: Array<string | number>, label: string) => {
            if (!isMap(d)) { out.push({ kind: 'type', message: `${label} must be a mapping (name, version${c.items === 'dependency' ? ', action' : ''})`, range: at(path), releases: rels }); return; }
            if (typeof d.name !== 'string') out.push({ kind: 'type', message: `${label}.name must be a string`, range: at('name' in d ? [...path, 'name'] : path), releases: rels });
            if (typeof d.version !== 'string') out.push({ kind: 'type', message: `${label}.version is required: a regular expression (full match) of the versions`, range: at('version' in d ? [...path, 'version'] : path), releases: rels });
            if (c.items === 'dependency' && 'action' in d && !['warn', 'ignore', 'error', 'apply'].includes(String(d.action))) {
              out.push({ kind: 'value', message: `${label}.action ${show(d.action)} is not one of warn, ignore, error, apply`, range: at([...path, 'action']), releases: rels });
            }
          };
          if (Array.isArray(item) && c.items === 'dependency') {
            if (item.length < 2) out.push({ kind: 'value', message: `${e.name}[${i}] lists mutually exclusive apps: it needs at least 2 of them`, range: r, releases: rels });
            item.forEach((d, j) => one(d, [...e.path, i, j], `${e.name}[${i}][${j}]`));
          } else one(item, [...e.path, i], `${e.name}[${i}]`);
        }
      });
      break;
    case 'boolstr':
      if (typeof v === 'boolean') break;
      if (v === null || typeof v === 'object') { typeIssue('a boolean or boolean string (true/false/yes/no/y/n/1/0)'); break; }
      if (!(c.values as string[]).includes(String(v).toLowerCase())) out.push({ kind: 'value', message: `${e.name} ${show(v)} is not a boolean string (sysinv accepts true/false/yes/no/y/n/1/0, any case)`, range: e.valueRange, releases: rels });
      break;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) { typeIssue('an integer'); break; }
      if (c.minimum !== undefined && v < c.minimum) out.push({ kind: 'value', message: `${e.name} must be at least ${c.minimum}, not ${v}`, range: e.valueRange, releases: rels });
      break;
    case 'enum':
      if (!(c.values as string[]).includes(v as string)) out.push({ kind: typeof v === 'string' ? 'value' : 'type', message: `${e.name} ${show(v)} is not one of ${listText((c.values as string[]).map((x) => `"${x}"`))}`, range: e.valueRange, releases: rels });
      break;
    default:
      break;
  }
  return out;
}
