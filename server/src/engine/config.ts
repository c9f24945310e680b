// `.skewguard.yaml`: one file for the editor and CI. Parsed with positions so that every problem in it
// is reported at the key or value that is wrong, and resolved together with CLI flags, editor settings
// and workspace facts into the windows a file is checked against.
import type { ErrorObject } from 'ajv';
import { parseYaml, type OffsetRange } from './parse/yaml';
import { didYouMean, own } from './text';
import { normalizeKubernetesVersion } from './versions';
import { kubernetesApis } from './families/kubernetes/data/apis';
import type { Family, SeveritySetting, SourceInfo } from './types';
import { checkGlob } from './glob';
import { COMPONENTS } from './components/registry';
import type { ComponentWindowInput } from './components/types';
import { checkOperatorSetting, isOperatorId } from './components/operators';
import { operatorIds } from './components/operator-data';

import { SEVERITIES } from '../shared/names';
export { CONFIG_FILENAMES } from '../shared/names';
export { SEVERITIES };
// The families' config sections (families/<id>/config.ts) come from the registry; no family imports this module at
// run time (they import config-core.ts), so the registry is loaded before the schema below is built.
import { FAMILIES, families } from './families/registry';
import { AFTER_CORE_KEYS, type ConfigSection, type ValueProblem, type ResolveContext } from './config-core';
export type { ValueProblem } from './config-core';

/** The families' config sections, in their order (ConfigSection.order), ties by the registry's. */
export const CONFIG_SECTIONS: readonly ConfigSection[] = families
  .flatMap((f) => ((f as { config?: ConfigSection }).config ? [(f as { config?: ConfigSection }).config!] : []))
  .map((c, i) => [c, i] as const).sort((a, b) => a[0].order - b[0].order || a[1] - b[1]).map(([c]) => c);
/**
 * The windows every other one is read from (negative order: the StarlingX release, the Kubernetes window), which come
 * before the core's component versions (kubernetes.components), and the families' own windows, which come after them.
 */
const LEAD = (c: ConfigSection) => c.order < 0;
const REST = (c: ConfigSection) => c.order >= 0 && c.order < AFTER_CORE_KEYS;
/** The sections after the core's own keys (rules, ignore, files): the Helm family's helm:. */
const TAIL = (c: ConfigSection) => c.order >= AFTER_CORE_KEYS;
/** The component modules' windows are read from the StarlingX path: said (--print-config) after the sections before this order. */
const COMPONENT_WINDOWS_AT = -15;

/** kubernetes.components (the component modules' versions, below) is the core's key in that section, after that key. */
const COMPONENTS_KEY = { section: 'kubernetes', after: 'window' } as const;
const componentsSchema = {
  type: 'object',
  description: 'Version of each CRD-providing component whose lifecycle rows are checked at that version instead of the '
    + "Kubernetes window, e.g. { cert-manager: \"1.5\", istio: \"1.11\" }. A component not named here is checked at Pluto's "
    + 'default target for it. An operator of the bundled data (external-secrets, kyverno, traefik …) takes one release or a '
    + 'window of its releases, e.g. { external-secrets: "0.16..0.17" }, and has no default.',
  // Names and version format are checked by checkComponentVersion (known components, with did-you-mean).
  additionalProperties: { type: 'string' },
};

/** A section's schema in .skewguard.yaml's (the core's kubernetes.components put in its place). */
function sectionSchema(c: ConfigSection): object {
  if (c.section !== COMPONENTS_KEY.section) return c.schema;
  const props = Object.entries(c.schema.properties);
  const at = props.findIndex(([k]) => k === COMPONENTS_KEY.after) + 1;
  return { ...c.schema, properties: Object.fromEntries([...props.slice(0, at), ['components', componentsSchema], ...props.slice(at)]) };
}
const sectionSchemas = (which: (c: ConfigSection) => boolean) => Object.fromEntries(CONFIG_SECTIONS.filter(which).map((c) => [c.section, sectionSchema(c)]));

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
  /** Versions of CRD-providing components (cert-manager, istio …) their lifecycle rows are checked at. */
  componentVersions?: Record<string, string>;
}

export interface ConfigProblem { message: string; range: OffsetRange }
export interface LoadedConfig { path: string; text: string; overrides: Overrides; problems: ConfigProblem[] }


const validators = new WeakMap<object, ((v: unknown) => boolean) & { errors?: ErrorObject[] | null }>();

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
    problems.push({ message: 'the configuration must be a mapping (starlingx, kubernetes, kata, rules, ignore, files)', range: doc.rootRange() });
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
 * (`off` read as YAML 1.1's false becomes "off"): pass a copy.
 */
export function validateConfigValue(value: Record<string, any>, knownRules: Set<string>, schema: object = configSchema): { overrides: Overrides; problems: ValueProblem[] } {
  const overrides: Overrides = {};
  const problems: ValueProblem[] = [];
  // `off` unquoted is the boolean false in YAML 1.1: read it as the severity the user meant.
  if (value?.rules && typeof value.rules === 'object') {
    for (const [k, v] of Object.entries(value.rules)) if (v === false) value.rules[k] = 'off';
  }
  let validate = validators.get(schema);
  // validateSchema: false: our own constant schemas are not checked against the draft-07 meta-schema at run time
  // (that compile is most of a first validation's cost: ~30 ms of lsp-lint's start-up); test/config.test.mjs does.
  // ajv is required here, on first use, not at start-up: a run given no settings and no .skewguard.yaml never loads it.
  if (!validate) { const Ajv = (require('ajv') as typeof import('ajv')).default; validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(schema); validators.set(schema, validate); }
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
  // The families' sections, each from its own folder.
  const sections = (which: (c: ConfigSection) => boolean) => {
    for (const c of CONFIG_SECTIONS.filter(which)) {
      if (!(schema as any).properties?.[c.section]) continue;
      const part = value[c.section];
      c.validate(part && typeof part === 'object' && !Array.isArray(part) ? part : undefined, { ok, overrides, problems, has: (k) => !!(schema as any).properties?.[c.section]?.properties?.[k] });
    }
  };
  sections(LEAD);
  const comps = value.kubernetes?.components;
  if (comps && typeof comps === 'object' && !Array.isArray(comps) && ok('kubernetes.components')) {
    const userComponents = (overrides.kubernetesRows ?? []).map((r) => r.component).filter((c): c is string => !!c);
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(comps as Record<string, unknown>)) {
      const err = checkComponentVersion(name, v, userComponents);
      // A wrong name is reported at the name, a wrong version at the version.
      if (err) problems.push({ message: `kubernetes.components.${name}: ${err}`, path: ['kubernetes', 'components', name], at: componentNameProblem(name, userComponents) ? 'key' : 'value' });
      else out[name] = normalizeKubernetesVersion(String(v));
    }
    if (Object.keys(out).length) overrides.componentVersions = out;
  }
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
  for (const c of CONFIG_SECTIONS.filter(LEAD)) for (const m of c.checkCli(cli)) out.push(m);
  for (const [name, v] of Object.entries(cli.componentVersions ?? {})) {
    const err = checkComponentVersion(name, v);
    if (err) out.push(`--component-versions ${name}: ${err}`);
  }
  for (const c of CONFIG_SECTIONS.filter((s) => !LEAD(s))) for (const m of c.checkCli(cli)) out.push(m);
  return out;
}

// ---- resolution ----

export interface WorkspaceFacts {
  // A family adds the facts its window is found from (families/<id>/config.ts): StarlingX its localhost.yml.
}

/** The resolved configuration; each family's config.ts adds its part (module augmentation). */
export interface ResolvedConfig {
  // Each family's section adds its part here (families/<id>/config.ts: ResolvedConfig[section]): the StarlingX release,
  // the Kubernetes window (and the user's OpenAPI documents and lifecycle rows), then each family's window.
  // Each component module with a window (components/<id>.ts) adds it here (Flux: `flux`).
  rules: Record<string, SeveritySetting>;
  ruleSources: Record<string, SourceInfo>;
  ignore: string[];
  /**
   * The ignore lists with the folder their patterns are relative to (`base`; undefined: the workspace root), for
   * engine/ignore.ts: the config file's (its folder), the settings' and the command line's.
   */
  ignoreLayers: Array<{ base?: string; patterns: string[]; source: string }>;
  files: Record<string, Family>;
  /** The version each component's lifecycle rows are checked at, and where it came from. */
  components: Record<string, ComponentVersionSetting>;
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
  const ctx: ResolveContext = { pick, layers, workspace: input.workspace, resolved: {} };
  const resolveSections = (which: (c: ConfigSection) => boolean) => {
    const out: Record<string, unknown> = {};
    for (const c of CONFIG_SECTIONS.filter(which)) out[c.section] = (ctx.resolved as Record<string, unknown>)[c.section] = c.resolve(ctx);
    return out;
  };
  const lead = resolveSections(LEAD);
  const sections = resolveSections(REST);
  const tail = resolveSections(TAIL);
  // Other keys the sections set (the user's lifecycle rows and OpenAPI documents).
  const also = Object.assign({}, ...CONFIG_SECTIONS.map((c) => c.also?.(ctx) ?? {}));

  const rules: Record<string, SeveritySetting> = {};
  const ruleSources: Record<string, SourceInfo> = {};
  for (const [o, s] of [...layers].reverse()) {
    for (const [id, sev] of Object.entries(o?.rules ?? {})) { rules[id] = sev; ruleSources[id] = s; }
  }
  const ignore = [...(input.config?.overrides.ignore ?? []), ...(input.settings?.ignore ?? []), ...(input.cli?.ignore ?? [])];
  const ignoreLayers: ResolvedConfig['ignoreLayers'] = [
    ...(input.config?.overrides.ignore?.length ? [{ base: folderOf(input.config.path), patterns: input.config.overrides.ignore, source: input.config.path }] : []),
    ...(input.settings?.ignore?.length ? [{ patterns: input.settings.ignore, source: 'settings (skewguard.ignore)' }] : []),
    ...(input.cli?.ignore?.length ? [{ patterns: input.cli.ignore, source: 'command line (--ignore)' }] : []),
  ];
  const files = { ...(input.settings?.files ?? {}), ...(input.config?.overrides.files ?? {}), ...(input.cli?.files ?? {}) };
  const components = resolveComponentVersions(input);
  // What the sections tell the component modules' windows (the StarlingX upgrade path when the configuration or the
  // workspace says StarlingX).
  const told = Object.assign({}, ...CONFIG_SECTIONS.map((c) => c.componentInput?.(ctx) ?? {})) as ComponentWindowInput;
  const componentWindows = Object.fromEntries(COMPONENTS.map((m) => [m.key, m.window({ ...told, version: components[m.id] })]));
  return { ...lead, ...componentWindows, ...sections, rules, ruleSources, ignore, ignoreLayers, files, ...also, components, configPath: input.config?.path, ...tail } as ResolvedConfig;
}

/** The folder of a config file path (both separators), where its relative paths start. */
const folderOf = (p: string) => { const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); return i < 0 ? '.' : p.slice(0, i) || '/'; };

/** A human summary of the resolved windows and their sources (status bar tooltip, --print-config). */
export function describeResolved(c: ResolvedConfig): Record<string, unknown> {
  const described = (which: (c: ConfigSection) => boolean) => Object.fromEntries(CONFIG_SECTIONS.filter(which).map((s) => [s.section, s.describe(c)]));
  return {
    ...described((s) => s.order < COMPONENT_WINDOWS_AT),
    // The component modules' windows (components/registry.ts), those that have one.
    ...Object.fromEntries(COMPONENTS.flatMap((m) => ((c as unknown as Record<string, unknown>)[m.key] ? [[m.key, m.describe((c as unknown as Record<string, unknown>)[m.key])]] : []))),
    ...described((s) => s.order >= COMPONENT_WINDOWS_AT && LEAD(s)),
    components: c.components,
    ...described(REST),
    rules: Object.fromEntries(Object.entries(c.rules).map(([k, v]) => [k, { severity: v, source: c.ruleSources[k] }])),
    ignore: c.ignore,
    files: c.files,
    ...described(TAIL),
    config: c.configPath ?? null,
  };
}

// ---- component versions (cert-manager, istio …: their lifecycle rows use the component's own releases) ----

export interface ComponentVersionSetting { version: string; source: SourceInfo }

/** Components with lifecycle rows in the shipped data, and Pluto's default target for each. */
export function knownComponents(): Record<string, { version: string; plutoTarget?: string; source: string }> {
  return kubernetesApis().componentTargets ?? {};
}

/** Whether the component name itself is wrong (Kubernetes, or not a known component). */
function componentNameProblem(name: string, extra: string[]): boolean {
  return name === 'k8s' || name === 'kubernetes' || !(Object.keys(knownComponents()).includes(name) || isOperatorId(name) || extra.includes(name));
}

/** An error message for a component version setting, or undefined when it is fine. `extra`: components of user rows. */
export function checkComponentVersion(name: string, v: unknown, extra: string[] = []): string | undefined {
  const op = checkOperatorSetting(name, v); // an operator: one release or a window (components/operators.ts)
  if (op !== null) return op;
  const known = [...new Set([...Object.keys(knownComponents()), ...operatorIds(), ...extra])].sort();
  if (name === 'k8s' || name === 'kubernetes') return 'Kubernetes versions are the Kubernetes window (kubernetes.window / --kubernetes-window), not a component version';
  if (!known.includes(name)) {
    const hint = didYouMean(name, known);
    return `unknown component "${name}"${hint ? `; did you mean "${hint}"?` : ''} (known: ${known.join(', ')})`;
  }
  if (typeof v !== 'string' || !/^\d+\.\d+(\.\d+)?$/.test(normalizeKubernetesVersion(v))) return `"${String(v)}" is not a version such as 1.5 or v1.5.3`;
  return undefined;
}

function resolveComponentVersions(input: ResolveInput): Record<string, ComponentVersionSetting> {
  const out: Record<string, ComponentVersionSetting> = {};
  for (const [name, d] of Object.entries(knownComponents())) out[name] = { version: d.version, source: { kind: 'default', detail: d.plutoTarget ? `Pluto's default target, ${d.source}` : d.source } };
  const layers: Array<[Record<string, string> | undefined, SourceInfo]> = [
    [input.settings?.componentVersions, { kind: 'settings', detail: 'editor settings' }],
    [input.config?.overrides.componentVersions, { kind: 'config', detail: `${input.config?.path ?? '.skewguard.yaml'} kubernetes.components` }],
    [input.cli?.componentVersions, { kind: 'cli', detail: '--component-versions' }],
  ];
  for (const [o, source] of layers) for (const [name, v] of Object.entries(o ?? {})) out[name] = { version: normalizeKubernetesVersion(v), source };
  return out;
}
