// `.skewguard.yaml`: one file for the editor and CI. Parsed with positions so that every problem in it
// is reported at the key or value that is wrong, and resolved together with CLI flags, editor settings
// and workspace facts into the windows a file is checked against.
import { parseYaml, type OffsetRange } from './parse/yaml';
import { didYouMean, own } from './text';
import type { Family, SeveritySetting, SourceInfo } from './types';
import { checkGlob } from './glob';
import { AJV_OPTIONS, precompiledValidator, type Validator } from './precompiled';

import { SEVERITIES } from '../shared/names';
export { CONFIG_FILENAMES } from '../shared/names';
export { SEVERITIES };
// The families' config sections (families/<id>/config.ts) come from the registry; no family imports this module at
// run time (they import config-core.ts), so the registry is loaded before the schema below is built.
import { FAMILIES, families } from './families/registry';
import { AFTER_CORE_KEYS, type ConfigSection, type ValueProblem, type ResolveContext } from './config-core';
// The core's one hook for products inside manifests: the components' section (kubernetes.components, --component-versions,
// the component modules' windows), composed as a family's section is.
import { componentsConfigSection } from './components/config';
export type { ValueProblem } from './config-core';

/**
 * The configuration's sections, in their order (ConfigSection.order), ties by the registry's: the registry's families'
 * (families/<id>/config.ts), and the components' (engine/components/config.ts), which is a key of another section's.
 */
export const CONFIG_SECTIONS: readonly ConfigSection[] = [
  ...families.flatMap((f) => ((f as { config?: ConfigSection }).config ? [(f as { config?: ConfigSection }).config!] : [])),
  componentsConfigSection,
].map((c, i) => [c, i] as const).sort((a, b) => a[0].order - b[0].order || a[1] - b[1]).map(([c]) => c);
/**
 * The windows every other one is read from (negative order: the StarlingX release, the Kubernetes window) and the
 * components' versions, and the families' own windows, which come after them.
 */
const LEAD = (c: ConfigSection) => c.order < 0;
const REST = (c: ConfigSection) => c.order >= 0 && c.order < AFTER_CORE_KEYS;
/** The sections after the core's own keys (rules, ignore, files): the Helm family's helm:. */
const TAIL = (c: ConfigSection) => c.order >= AFTER_CORE_KEYS;

/** The sections that are a key of another's (ConfigSection.within), put in that section's schema after their key. */
function sectionSchema(c: ConfigSection): object {
  const inner = CONFIG_SECTIONS.filter((k) => k.within?.section === c.section);
  if (!inner.length) return c.schema;
  let props = Object.entries(c.schema.properties);
  for (const k of inner) {
    const at = props.findIndex(([p]) => p === k.within!.after) + 1;
    props = [...props.slice(0, at), [k.section, k.schema], ...props.slice(at)];
  }
  return { ...c.schema, properties: Object.fromEntries(props) };
}
const sectionSchemas = (which: (c: ConfigSection) => boolean) => Object.fromEntries(CONFIG_SECTIONS.filter((c) => !c.within && which(c)).map((c) => [c.section, sectionSchema(c)]));

/** A section's keys in the editor settings (ConfigSection.settingsKeys, with the keys of the sections within it after theirs). */
export function settingsKeysOf(c: ConfigSection): string[] | undefined {
  return c.settingsKeys?.flatMap((k) => [k, ...CONFIG_SECTIONS.filter((i) => i.within?.section === c.section && i.within.after === k).map((i) => i.section)]);
}

export const configSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'skewguard workspace configuration (.skewguard.yaml)',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...sectionSchemas((c) => !TAIL(c)),
    rules: {
      type: 'object', description: 'Rule severities by rule id.',
      additionalProperties: { enum: SEVERITIES },
    },
    ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns (gitignore syntax) of files not to check.' },
    files: {
      type: 'object', description: 'Associates glob patterns with a file family.',
      additionalProperties: { enum: FAMILIES },
    },
    ...sectionSchemas(TAIL),
  },
} as const;

/** The layers' values (CLI flags, .skewguard.yaml, editor settings); each family's config.ts adds its own keys. */
export interface Overrides {
  rules?: Record<string, SeveritySetting>;
  ignore?: string[];
  files?: Record<string, Family>;
}

export interface ConfigProblem { message: string; range: OffsetRange }
export interface LoadedConfig { path: string; text: string; overrides: Overrides; problems: ConfigProblem[] }


const validators = new WeakMap<object, Validator>();

/**
 * Parses and validates a config file's text. Invalid parts are reported and left out; the rest applies.
 * The checks are validateConfigValue's, which the editor settings go through too (shared/settings.ts).
 */
export function parseConfig(path: string, text: string, knownRules: Set<string>): LoadedConfig {
  const file = parseYaml(text);
  const problems: ConfigProblem[] = file.errors.map((e) => ({ message: `YAML syntax: ${e.message}`, range: { start: e.start, end: e.end } }));
  const doc = file.docs.find((d) => !d.empty);
  if (!doc || problems.length) return { path, text, overrides: {}, problems };
  const value = structuredClone(doc.value) as Record<string, any>; // a copy: parsed values are cached and shared
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ message: `the configuration must be a mapping (${Object.keys(configSchema.properties).join(', ')})`, range: doc.rootRange() });
    return { path, text, overrides: {}, problems };
  }
  const { overrides, problems: found } = validateConfigValue(value, knownRules);
  for (const p of found) {
    const at = doc.locate(p.path);
    const range = p.at === 'root' ? doc.rootRange() : p.at === 'key' ? at.key ?? at.value : at.value;
    problems.push({ message: p.message, range: range ?? doc.rootRange() });
  }
  return { path, text, overrides, problems };
}

/**
 * The one validator of configuration values, for `.skewguard.yaml` and the editor settings alike: checks the value
 * against `schema` (default: the config file's) and every value against the data (releases, windows, rule ids,
 * glob limits). Invalid parts are reported with their path and left out; the rest applies. `value` is modified
 * (`off` read as YAML 1.1's false becomes "off"): pass a copy. `schemaKey` names the schema's validator compiled at
 * build time (engine/precompiled.ts: 'config', 'settings').
 */
export function validateConfigValue(value: Record<string, any>, knownRules: Set<string>, schema: object = configSchema, schemaKey = 'config'): { overrides: Overrides; problems: ValueProblem[] } {
  const overrides: Overrides = {};
  const problems: ValueProblem[] = [];
  // `off` unquoted is the boolean false in YAML 1.1: read it as the severity the user meant.
  if (value?.rules && typeof value.rules === 'object') {
    for (const [k, v] of Object.entries(value.rules)) if (v === false) value.rules[k] = 'off';
  }
  let validate = validators.get(schema);
  // The build's compiled validator (engine/precompiled.ts), else compiled here: ajv is required on first use, not at
  // start-up (a run given no settings and no .skewguard.yaml never loads it), without the meta-schema check
  // (AJV_OPTIONS.config: most of a first compile's cost; test/config.test.mjs checks the schema).
  if (!validate) {
    validate = precompiledValidator(schemaKey, schema) ?? new ((require('ajv') as typeof import('ajv')).default)({ ...AJV_OPTIONS.config }).compile(schema);
    validators.set(schema, validate);
  }
  const bad = new Set<string>();
  if (!validate(value)) {
    for (const e of validate.errors ?? []) {
      const segs = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (e.keyword === 'additionalProperties') {
        const prop = (e.params as any).additionalProperty as string;
        const props = (schema as any).properties;
        const parentSchema = segs.length === 0 ? props : own<any>(props, segs[0])?.properties ?? {};
        const hint = didYouMean(prop, Object.keys(parentSchema));
        problems.push({ message: `unknown setting "${[...segs, prop].join('.')}"${hint ? `; did you mean "${hint}"?` : ''}`, path: [...segs, prop], at: 'key' });
        continue;
      }
      const allowed = (e.params as any).allowedValues as unknown[] | undefined;
      problems.push({ message: `${segs.join('.') || 'configuration'}: ${e.message}${allowed ? `: ${allowed.map((a) => JSON.stringify(a)).join(', ')}` : ''}`, path: segs, at: 'value' });
      bad.add(segs.join('.'));
    }
  }
  const ok = (p: string) => ![...bad].some((b) => b === p || b.startsWith(p + '.') || p.startsWith(b + '.'));
  // The sections, each from its own folder (a section within another's: its key there).
  const sections = (which: (c: ConfigSection) => boolean) => {
    for (const c of CONFIG_SECTIONS.filter(which)) {
      const host = c.within?.section;
      const own = host ? (schema as any).properties?.[host]?.properties?.[c.section] : (schema as any).properties?.[c.section];
      if (!own) continue;
      const outer = host ? value[host] : value;
      const part = outer && typeof outer === 'object' && !Array.isArray(outer) ? outer[c.section] : undefined;
      c.validate(part && typeof part === 'object' && !Array.isArray(part) ? part : undefined, { ok, overrides, problems, has: (k) => !!own.properties?.[k] });
    }
  };
  sections(LEAD);
  sections(REST);
  if (value.rules && typeof value.rules === 'object' && !Array.isArray(value.rules)) {
    overrides.rules = {};
    for (const [id, sev] of Object.entries(value.rules as Record<string, unknown>)) {
      if (!knownRules.has(id)) {
        const hint = didYouMean(id, knownRules);
        problems.push({ message: `unknown rule id "${id}"${hint ? `; did you mean "${hint}"?` : ''}`, path: ['rules', id], at: 'key' });
        continue;
      }
      if (ok(`rules.${id}`)) overrides.rules[id] = sev as SeveritySetting;
    }
  }
  // Glob patterns: too long or too complex ones are reported and left out (they are matched by engine/glob.ts).
  if (Array.isArray(value.ignore) && !bad.has('ignore')) {
    overrides.ignore = value.ignore.filter((x: unknown, i: number) => {
      if (typeof x !== 'string') return false;
      const err = checkGlob(x);
      if (err) problems.push({ message: `ignore[${i}] ${shortGlob(x)}: ${err}`, path: ['ignore', i], at: 'value' });
      return !err;
    });
  }
  if (value.files && typeof value.files === 'object' && !Array.isArray(value.files) && !bad.has('files')) {
    overrides.files = {};
    for (const [glob, fam] of Object.entries(value.files as Record<string, Family>)) {
      if (bad.has(`files.${glob}`)) continue; // an unknown family, reported above
      const err = glob.startsWith('!') ? 'a negated pattern (!…) is not supported in files:' : checkGlob(glob);
      if (err) problems.push({ message: `files ${shortGlob(glob)}: ${err}`, path: ['files', glob], at: 'key' });
      else overrides.files[glob] = fam;
    }
  }
  // The sections after the core's keys (the Helm family's helm:).
  sections(TAIL);
  return { overrides, problems };
}

/** A pattern for a message: quoted, and cut short when long. */
const shortGlob = (g: string) => JSON.stringify(g.length > 60 ? `${g.slice(0, 57)}…` : g);

/**
 * The problems of lsp-lint's window and version flags, with the messages lsp-lint prints as usage errors. The
 * language server checks them (and answers in its initialize result), so that lsp-lint need not bundle the data.
 */
export function checkCliOverrides(cli: Overrides): string[] {
  const out: string[] = [];
  for (const c of CONFIG_SECTIONS) for (const m of c.checkCli(cli)) out.push(m);
  return out;
}

// ---- resolution ----

export interface WorkspaceFacts {
  // A family adds the facts its window is found from (families/<id>/config.ts): StarlingX its localhost.yml.
}

/** The resolved configuration; each family's config.ts adds its part (module augmentation). */
export interface ResolvedConfig {
  // Each family's section adds its part here (families/<id>/config.ts: ResolvedConfig[section]): the StarlingX release,
  // the Kubernetes window (and the user's OpenAPI documents and lifecycle rows), the components' versions and windows
  // (engine/components/config.ts), then each family's window.
  rules: Record<string, SeveritySetting>;
  ruleSources: Record<string, SourceInfo>;
  ignore: string[];
  /**
   * The ignore lists with the folder their patterns are relative to (`base`; undefined: the workspace root), for
   * engine/ignore.ts: the config file's (its folder), the settings' and the command line's.
   */
  ignoreLayers: Array<{ base?: string; patterns: string[]; source: string }>;
  files: Record<string, Family>;
  configPath?: string;
}

export interface ResolveInput {
  cli?: Overrides;
  config?: LoadedConfig;
  settings?: Overrides;
  workspace?: WorkspaceFacts;
}


export function resolveConfig(input: ResolveInput): ResolvedConfig {
  const layers: Array<[Overrides | undefined, SourceInfo]> = [
    [input.cli, { kind: 'cli', detail: 'command line' }],
    [input.config?.overrides, { kind: 'config', detail: input.config?.path ?? '.skewguard.yaml' }],
    [input.settings, { kind: 'settings', detail: 'editor settings' }],
  ];
  const pick = <K extends keyof Overrides>(k: K): [NonNullable<Overrides[K]>, SourceInfo] | undefined => {
    for (const [o, s] of layers) if (o && o[k] !== undefined && o[k] !== '') return [o[k]!, s];
    return undefined;
  };

  // The sections, in order, each resolved with the parts before it (a window found in the workspace is read when first
  // asked for); the StarlingX release first, which the Kubernetes window is read from.
  const ctx: ResolveContext = { pick, layers, workspace: input.workspace, resolved: {}, sections: CONFIG_SECTIONS };
  const resolveSections = (which: (c: ConfigSection) => boolean) => {
    const out: Record<string, unknown> = {};
    for (const c of CONFIG_SECTIONS.filter(which)) out[c.section] = (ctx.resolved as Record<string, unknown>)[c.section] = c.resolve(ctx);
    return out;
  };
  const lead = resolveSections(LEAD);
  const sections = resolveSections(REST);
  const tail = resolveSections(TAIL);
  // Other keys the sections set (the user's lifecycle rows and OpenAPI documents, the component windows).
  const also = Object.assign({}, ...CONFIG_SECTIONS.map((c) => c.also?.(ctx) ?? {}));

  const rules: Record<string, SeveritySetting> = {};
  const ruleSources: Record<string, SourceInfo> = {};
  for (const [o, s] of [...layers].reverse()) {
    for (const [id, sev] of Object.entries(o?.rules ?? {})) { rules[id] = sev; ruleSources[id] = s; }
  }
  const ignore = [...(input.config?.overrides.ignore ?? []), ...(input.settings?.ignore ?? []), ...(input.cli?.ignore ?? [])];
  const ignoreLayers = ignoreLayersOf(input);
  const files = { ...(input.settings?.files ?? {}), ...(input.config?.overrides.files ?? {}), ...(input.cli?.files ?? {}) };
  return { ...lead, ...sections, rules, ruleSources, ignore, ignoreLayers, files, ...also, configPath: input.config?.path, ...tail } as ResolvedConfig;
}

/**
 * The ignore lists of a resolved configuration (ResolvedConfig.ignoreLayers): they depend on the configuration file,
 * the settings and the command line only, not on the workspace's windows, so a question of which files are ignored
 * (lsp-lint's skewguard/ignoredFiles for every walked file, the root indexes' walks) needs no window resolved.
 */
export function ignoreLayersOf(input: Pick<ResolveInput, 'config' | 'settings' | 'cli'>): ResolvedConfig['ignoreLayers'] {
  return [
    ...(input.config?.overrides.ignore?.length ? [{ base: folderOf(input.config.path), patterns: input.config.overrides.ignore, source: input.config.path }] : []),
    ...(input.settings?.ignore?.length ? [{ patterns: input.settings.ignore, source: 'settings (skewguard.ignore)' }] : []),
    ...(input.cli?.ignore?.length ? [{ patterns: input.cli.ignore, source: 'command line (--ignore)' }] : []),
  ];
}

/** The folder of a config file path (both separators), where its relative paths start. */
const folderOf = (p: string) => { const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); return i < 0 ? '.' : p.slice(0, i) || '/'; };

/** A human summary of the resolved windows and their sources (status bar tooltip, --print-config). */
export function describeResolved(c: ResolvedConfig): Record<string, unknown> {
  // Each section's part under its key, in order; what a section's `also` set (describeAlso) before the sections of its order.
  const parts = CONFIG_SECTIONS.flatMap((s) => [
    ...(s.describeAlso ? [{ order: s.describeAlso.order, first: 0, said: () => s.describeAlso!.describe(c) }] : []),
    { order: s.order, first: 1, said: () => ({ [s.section]: s.describe(c) }) },
  ]).map((p, i) => ({ ...p, i })).sort((a, b) => a.order - b.order || a.first - b.first || a.i - b.i);
  const described = (tail: boolean) => Object.assign({}, ...parts.filter((p) => (p.order >= AFTER_CORE_KEYS) === tail).map((p) => p.said()));
  return {
    ...described(false),
    rules: Object.fromEntries(Object.entries(c.rules).map(([k, v]) => [k, { severity: v, source: c.ruleSources[k] }])),
    ignore: c.ignore,
    files: c.files,
    ...described(true),
    config: c.configPath ?? null,
  };
}
