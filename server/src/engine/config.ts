// `.skewguard.yaml`: one file for the editor and CI. Parsed with positions so that every problem in it
// is reported at the key or value that is wrong, and resolved together with CLI flags, editor settings
// and workspace facts into the windows a file is checked against.
import type { ErrorObject } from 'ajv';
import { parseYaml, type OffsetRange } from './parse/yaml';
import { didYouMean, own } from './text';
import { parseRange, minorsBetween, compareVersions, normalizeKubernetesVersion } from './versions';
import { findStarlingxRelease, newestStarlingxRelease, starlingxReleases, kubernetesApis, type StxRelease } from './data';
import type { Family, SeveritySetting, SourceInfo } from './types';
import type { PlutoRow } from './families/kubernetes';
import type { OpenapiDoc, OpenapiMinor } from './families/kubernetes/data/openapi';
import { checkGlob } from './glob';
import { COMPONENTS } from './components/registry';

import { SEVERITIES } from '../shared/names';
export { CONFIG_FILENAMES } from '../shared/names';
export { SEVERITIES };
// The families' config sections (families/<id>/config.ts) come from the registry; no family imports this module at
// run time (they import config-core.ts), so the registry is loaded before the schema below is built.
import { FAMILIES, families } from './families/registry';
import type { ConfigSection, ValueProblem } from './config-core';
import { windowPastDataOf, knowledgeOf, windowFromStarlingx } from './windows';
export { windowPastDataOf, starlingxPath, windowFromStarlingx, type WindowPastData } from './windows';
export type { ValueProblem } from './config-core';

/** The families' config sections, in their order (after the Kubernetes window), ties by the registry's. */
export const CONFIG_SECTIONS: readonly ConfigSection[] = families
  .flatMap((f) => ((f as { config?: ConfigSection }).config ? [(f as { config?: ConfigSection }).config!] : []))
  .map((c, i) => [c, i] as const).sort((a, b) => a[0].order - b[0].order || a[1] - b[1]).map(([c]) => c);
const sectionSchemas = Object.fromEntries(CONFIG_SECTIONS.map((c) => [c.section, c.schema]));
import { windowText } from './window-text';

export const configSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'skewguard workspace configuration (.skewguard.yaml)',
  type: 'object',
  additionalProperties: false,
  properties: {
    starlingx: {
      type: 'object', additionalProperties: false,
      properties: {
        release: { type: 'string', description: 'StarlingX release the bootstrap overrides are for, e.g. "6.0".' },
        upgradeFrom: { type: 'string', description: 'StarlingX release the platform is upgraded from, e.g. "10.0": the releases from it to `release` are the path whose FluxCD an application bundle\'s Flux manifests must work with.' },
      },
    },
    kubernetes: {
      type: 'object', additionalProperties: false,
      properties: {
        window: { type: 'string', description: 'Kubernetes versions every file must work with: "1.18..1.21" or one version "1.21".' },
        components: {
          type: 'object',
          description: 'Version of each CRD-providing component whose lifecycle rows are checked at that version instead of the '
            + "Kubernetes window, e.g. { cert-manager: \"1.5\", istio: \"1.11\" }. A component not named here is checked at Pluto's "
            + 'default target for it.',
          // Names and version format are checked by checkComponentVersion (known components, with did-you-mean).
          additionalProperties: { type: 'string' },
        },
        crds: {
          type: 'array', items: { type: 'string' },
          description: 'CustomResourceDefinition files or folders outside the workspace (relative to this file): their CRDs define '
            + 'custom resources as the workspace\'s own do (served, deprecated and storage versions, openAPIV3Schema).',
        },
        openapi: {
          type: 'object',
          description: 'Your cluster\'s own OpenAPI document per Kubernetes minor, e.g. { "1.38": "openapi-1.38.json" } (relative to this file, '
            + 'inside the workspace): the output of `kubectl get --raw /openapi/v2`, or a folder of OpenAPI v3 documents (one per '
            + 'group-version: `kubectl get --raw /openapi/v3/apis/<group>/<version>`). That minor is judged from the document (the kinds '
            + 'it serves and their fields; a v3 document only for the group-versions it covers), even past the shipped data.',
          propertyNames: { pattern: '^\\d+\\.\\d+$' },
          additionalProperties: { type: 'string', minLength: 1 },
        },
        additionalVersions: {
          type: 'array', description: "Lifecycle rows for your own APIs (CRDs), in Pluto's versions.yaml row format.",
          items: {
            type: 'object', required: ['version', 'kind'], additionalProperties: false,
            properties: {
              version: { type: 'string', pattern: '^[^/\\s]+(/[^/\\s]+)?$' },
              kind: { type: 'string' },
              'introduced-in': { type: 'string', pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$' },
              'deprecated-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
              'removed-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
              'replacement-api': { type: 'string' },
              'replacement-available-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
              component: { type: 'string' },
            },
          },
        },
      },
    },
    ...sectionSchemas,
    rules: {
      type: 'object', description: 'Rule severities by rule id.',
      additionalProperties: { enum: SEVERITIES },
    },
    ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns (gitignore syntax) of files not to check.' },
    files: {
      type: 'object', description: 'Associates glob patterns with a file family.',
      additionalProperties: { enum: FAMILIES },
    },
    helm: {
      type: 'object', additionalProperties: false,
      properties: {
        render: {
          type: 'boolean',
          description: 'Also render each Helm chart with a real Helm 3 at every step of the Kubernetes window (off by default; never in '
            + "VS Code's Restricted Mode; never with network access), and use that where skewguard's own template evaluator cannot decide.",
        },
        path: { type: 'string', description: 'The Helm 3 binary to render with (default: helm on PATH); relative to this file.' },
        values: { type: 'array', items: { type: 'string' }, description: 'Values files given to every render (helm template -f), in order; relative to this file.' },
        valueSets: {
          type: 'array', items: { type: 'string' },
          description: "Values scenarios of each chart besides its ci/*-values.yaml: globs (files: syntax) relative to each chart's folder, e.g. \"values-*.yaml\"; each file that matches is rendered as its own scenario over the chart's defaults, by skewguard's evaluator.",
        },
      },
    },
  },
} as const;

/** The layers' values (CLI flags, .skewguard.yaml, editor settings); each family's config.ts adds its own keys. */
export interface Overrides {
  starlingxRelease?: string;
  /** StarlingX release the platform is upgraded from: the releases from it to starlingxRelease are the path. */
  starlingxUpgradeFrom?: string;
  kubernetesWindow?: string;
  rules?: Record<string, SeveritySetting>;
  ignore?: string[];
  files?: Record<string, Family>;
  /** Lifecycle rows for the user's own APIs, in Pluto's row format. */
  kubernetesRows?: PlutoRow[];
  /** CRD files or folders outside the workspace (kubernetes.crds), as written: relative to the config file. */
  kubernetesCrds?: string[];
  /** OpenAPI documents per Kubernetes minor (kubernetes.openapi, --kubernetes-openapi), as written. */
  kubernetesOpenapi?: Record<string, string>;
  /** Those documents as read by the server (it reads files; the engine does not). */
  kubernetesOpenapiDocs?: Record<string, { file: string; doc: OpenapiDoc }>;
  /** Versions of CRD-providing components (cert-manager, istio …) their lifecycle rows are checked at. */
  componentVersions?: Record<string, string>;
  /** Render Helm charts with a real Helm (helm.render, --helm-render). */
  helmRender?: boolean;
  /** The Helm binary (helm.path, skewguard.helm.path), as written. */
  helmPath?: string;
  /** Values files for every render (helm.values), as written. */
  helmValues?: string[];
  /** Values scenarios of each chart (helm.valueSets): globs relative to each chart's folder. */
  helmValueSets?: string[];
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
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

  const rel = str(value.starlingx?.release);
  if (rel !== undefined && ok('starlingx.release')) {
    if (findStarlingxRelease(rel)) overrides.starlingxRelease = rel;
    else problems.push({ message: unknownReleaseMessage(rel), path: ['starlingx', 'release'], at: 'value' });
  }
  const from = str(value.starlingx?.upgradeFrom);
  if (from !== undefined && ok('starlingx.upgradeFrom')) {
    const f = findStarlingxRelease(from);
    const to = overrides.starlingxRelease ? findStarlingxRelease(overrides.starlingxRelease) : undefined;
    if (!f) problems.push({ message: unknownReleaseMessage(from), path: ['starlingx', 'upgradeFrom'], at: 'value' });
    else if (to && releaseIndex(f) > releaseIndex(to)) problems.push({ message: `starlingx.upgradeFrom ${f.release} is newer than starlingx.release ${to.release}: an upgrade path goes from an older release to a newer one`, path: ['starlingx', 'upgradeFrom'], at: 'value' });
    else overrides.starlingxUpgradeFrom = from;
  }
  const kw = str(value.kubernetes?.window);
  if (kw !== undefined && ok('kubernetes.window')) {
    const err = checkKubernetesWindow(kw);
    if (err) problems.push({ message: err, path: ['kubernetes', 'window'], at: 'value' });
    else overrides.kubernetesWindow = kw;
  }
  // The families' sections (their windows), each from its own folder.
  for (const c of CONFIG_SECTIONS) {
    if (!(schema as any).properties?.[c.section]) continue;
    const part = value[c.section];
    c.validate(part && typeof part === 'object' && !Array.isArray(part) ? part : undefined, { ok, overrides, problems, has: (k) => !!(schema as any).properties?.[c.section]?.properties?.[k] });
  }
  if (Array.isArray(value.kubernetes?.additionalVersions) && ok('kubernetes.additionalVersions')) {
    // A row's versions must be in lifecycle order; a row that is not is reported and left out (it would make every
    // window answer nonsense, e.g. removed before it was introduced).
    const rows = value.kubernetes.additionalVersions as Array<Record<string, unknown>>;
    const order = ['introduced-in', 'deprecated-in', 'removed-in'] as const;
    overrides.kubernetesRows = rows.filter((row, i) => {
      const set = order.filter((f) => typeof row[f] === 'string' && row[f] !== '');
      for (let a = 0; a < set.length; a++) {
        for (let b = a + 1; b < set.length; b++) {
          const x = String(row[set[a]]), y = String(row[set[b]]);
          if (compareVersions(normalizeKubernetesVersion(x), normalizeKubernetesVersion(y)) > 0) {
            problems.push({
              message: `kubernetes.additionalVersions[${i}] (${String(row.version)} ${String(row.kind)}): ${set[b]} ${y} is before ${set[a]} ${x}; `
                + 'a row must be introduced, then deprecated, then removed. The row is not used',
              path: ['kubernetes', 'additionalVersions', i, set[b]], at: 'value',
            });
            return false;
          }
        }
      }
      return true;
    }) as unknown as PlutoRow[];
  }
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
  const oa = value.kubernetes?.openapi;
  if (oa && typeof oa === 'object' && !Array.isArray(oa) && (schema as any).properties?.kubernetes?.properties?.openapi && ok('kubernetes.openapi')) {
    overrides.kubernetesOpenapi = {};
    for (const [minor, file] of Object.entries(oa as Record<string, unknown>)) {
      if (!ok(`kubernetes.openapi.${minor}`) || typeof file !== 'string' || !/^\d+\.\d+$/.test(minor) || !file.trim()) continue; // reported by the schema
      overrides.kubernetesOpenapi[minor] = file;
    }
  }
  if (Array.isArray(value.kubernetes?.crds) && (schema as any).properties?.kubernetes?.properties?.crds && ok('kubernetes.crds')) {
    overrides.kubernetesCrds = value.kubernetes.crds.filter((v: unknown, i: number) => {
      if (typeof v === 'string' && v.trim() !== '') return true;
      problems.push({ message: `kubernetes.crds[${i}]: a CRD file or folder path must not be empty`, path: ['kubernetes', 'crds', i], at: 'value' });
      return false;
    });
  }
  // Only the helm keys this schema has (the editor settings have just the path): an unknown one is reported above.
  const helmKey = (k: string) => !!(schema as any).properties?.helm?.properties?.[k] && ok(`helm.${k}`);
  if (typeof value.helm?.render === 'boolean' && helmKey('render')) overrides.helmRender = value.helm.render;
  if (typeof value.helm?.path === 'string' && value.helm.path !== '' && helmKey('path')) overrides.helmPath = value.helm.path;
  if (Array.isArray(value.helm?.values) && helmKey('values')) {
    overrides.helmValues = value.helm.values.filter((v: unknown, i: number) => {
      if (typeof v === 'string' && v.trim() !== '') return true;
      problems.push({ message: `helm.values[${i}]: a values file path must not be empty`, path: ['helm', 'values', i], at: 'value' });
      return false;
    });
  }
  if (Array.isArray(value.helm?.valueSets) && helmKey('valueSets')) {
    overrides.helmValueSets = value.helm.valueSets.filter((v: unknown, i: number) => {
      const err = typeof v !== 'string' ? undefined : v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v) ? "a pattern is relative to each chart's folder, not absolute" : checkGlob(v);
      if (typeof v === 'string' && !err) return true;
      if (err) problems.push({ message: `helm.valueSets[${i}]: ${err}`, path: ['helm', 'valueSets', i], at: 'value' });
      return false;
    });
  }
  return { overrides, problems };
}

/** Where .skewguard.yaml's kubernetes.openapi entry for a minor is (the server reports a document it cannot read there). */
export const openapiEntry = (minor: string): { path: Array<string | number> } => ({ path: ['kubernetes', 'openapi', minor] });

/** Where .skewguard.yaml's kubernetes.crds entry i is (the server reports an entry it cannot read there). */
export const crdsEntry = (i: number): { path: Array<string | number> } => ({ path: ['kubernetes', 'crds', i] });

/** A pattern for a message: quoted, and cut short when long. */
const shortGlob = (g: string) => JSON.stringify(g.length > 60 ? `${g.slice(0, 57)}…` : g);

/** A release's place in the data (master last). */
const releaseIndex = (r: StxRelease) => starlingxReleases().releases.indexOf(r);

/** The StarlingX releases from `from` to `to`, in order (master only when it is `to`). */
export function starlingxUpgradePath(from: StxRelease | undefined, to: StxRelease): StxRelease[] {
  if (!from || releaseIndex(from) >= releaseIndex(to)) return [to];
  return starlingxReleases().releases.slice(releaseIndex(from), releaseIndex(to) + 1).filter((r) => r === to || r.release !== 'master');
}

export function unknownReleaseMessage(rel: string): string {
  return `unknown StarlingX release "${rel}"; known: ${starlingxReleases().releases.map((r) => r.release).join(', ')}`;
}

/** Returns an error message for a malformed Kubernetes window, or undefined when it is fine. */
export function checkKubernetesWindow(s: string): string | undefined {
  const r = parseRange(s);
  if (!r) return `Kubernetes window "${s}" is not a version or range such as "1.18..1.21"`;
  if (!minorsBetween(r.from, r.to)) return `Kubernetes window "${s}": the start must not be newer than the end`;
  return undefined;
}



/**
 * The problems of lsp-lint's window and version flags, with the messages lsp-lint prints as usage errors. The
 * language server checks them (and answers in its initialize result), so that lsp-lint need not bundle the data.
 */
export function checkCliOverrides(cli: Overrides): string[] {
  const out: string[] = [];
  if (cli.starlingxRelease !== undefined && !findStarlingxRelease(cli.starlingxRelease)) out.push(`unknown StarlingX release "${cli.starlingxRelease}"`);
  if (cli.starlingxUpgradeFrom !== undefined) {
    const f = findStarlingxRelease(cli.starlingxUpgradeFrom), to = cli.starlingxRelease ? findStarlingxRelease(cli.starlingxRelease) : undefined;
    if (!f) out.push(`--starlingx-upgrade-from: unknown StarlingX release "${cli.starlingxUpgradeFrom}"`);
    else if (to && releaseIndex(f) > releaseIndex(to)) out.push(`--starlingx-upgrade-from ${f.release} is newer than --starlingx-release ${to.release}: an upgrade path goes from an older release to a newer one`);
  }
  const k = cli.kubernetesWindow !== undefined ? checkKubernetesWindow(cli.kubernetesWindow) : undefined;
  if (k) out.push(k);
  for (const [name, v] of Object.entries(cli.componentVersions ?? {})) {
    const err = checkComponentVersion(name, v);
    if (err) out.push(`--component-versions ${name}: ${err}`);
  }
  for (const c of CONFIG_SECTIONS) for (const m of c.checkCli(cli)) out.push(m);
  return out;
}

// ---- resolution ----

export interface WorkspaceFacts {
  /** A StarlingX localhost.yml found in the workspace and what it says. */
  localhost?: { path: string; kubernetesVersion?: string; note?: string };
  // A family adds the facts its window is found from (families/<id>/config.ts).
}

export interface KubeWindow {
  /** Minor versions, ascending: ["1.18", "1.19", ...]. */
  minors: string[];
  /** Exact patch versions along a StarlingX upgrade path, when the window came from one. */
  patches?: string[];
  source: SourceInfo;
}

/** The resolved configuration; each family's config.ts adds its part (module augmentation). */
export interface ResolvedConfig {
  /** path: the releases from starlingx.upgradeFrom to release (just [release] without one). */
  starlingx: { release: StxRelease; source: SourceInfo; path: StxRelease[] };
  // Each component module with a window (components/<id>.ts) adds it here (Flux: `flux`), after `starlingx`.
  kubernetes: KubeWindow;
  // Each family's section adds its window here (families/<id>/config.ts: ResolvedConfig[section]).
  rules: Record<string, SeveritySetting>;
  ruleSources: Record<string, SourceInfo>;
  ignore: string[];
  /**
   * The ignore lists with the folder their patterns are relative to (`base`; undefined: the workspace root), for
   * engine/ignore.ts: the config file's (its folder), the settings' and the command line's.
   */
  ignoreLayers: Array<{ base?: string; patterns: string[]; source: string }>;
  files: Record<string, Family>;
  /** The user's OpenAPI documents per Kubernetes minor (kubernetes.openapi, --kubernetes-openapi; the command line wins per minor). */
  kubernetesOpenapi?: Record<string, OpenapiMinor>;
  /** The user's lifecycle rows and the file they came from. */
  kubernetesRows?: { rows: PlutoRow[]; origin: string };
  /** The version each component's lifecycle rows are checked at, and where it came from. */
  components: Record<string, ComponentVersionSetting>;
  configPath?: string;
  /** Real Helm rendering: whether asked for, the binary and values files (paths relative to `base`, where they were written). */
  helm: HelmSettings;
}

export interface HelmSettings {
  render: boolean;
  source: SourceInfo;
  /**
   * user: the user's own setting (skewguard.helm.path) when .skewguard.yaml's path won over it: the one used when the
   * repository's is refused (a workspace not trusted).
   */
  path?: { value: string; base?: string; source: SourceInfo; user?: { value: string; source: SourceInfo } };
  values: { files: string[]; base?: string; source: SourceInfo };
  /** Values scenarios of each chart besides its ci/*-values.yaml (helm.valueSets): globs relative to each chart's folder. */
  valueSets: { patterns: string[]; source: SourceInfo };
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

  const relPick = pick('starlingxRelease');
  const relFound = relPick && findStarlingxRelease(relPick[0]);
  const release = relFound ?? newestStarlingxRelease();
  const relSource: SourceInfo = relFound ? relPick![1] : { kind: 'default', detail: 'newest StarlingX release in the data' };

  let kubernetes: KubeWindow;
  const kw = pick('kubernetesWindow');
  const r = kw && parseRange(kw[0]);
  const minors = r ? minorsBetween(r.from, r.to) : undefined;
  if (kw && minors) kubernetes = { minors, source: kw[1] };
  else if (input.workspace?.localhost) {
    const l = input.workspace.localhost;
    kubernetes = windowFromStarlingx(release, l.kubernetesVersion, {
      kind: 'workspace', detail: `${l.path}: StarlingX ${release.release} upgrade path from ${l.kubernetesVersion ?? `the default ${release.default}`}${l.note ? ` (${l.note})` : ''}`,
    });
  } else {
    kubernetes = windowFromStarlingx(release, undefined, { kind: 'default', detail: `StarlingX ${release.release} default Kubernetes ${release.default} to its newest version` });
  }

  // The families' windows, each resolved by its section (a window found in the workspace is read when first asked for).
  const sections = Object.fromEntries(CONFIG_SECTIONS.map((c) => [c.section, c.resolve({ pick, workspace: input.workspace })]));

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
  let kubernetesOpenapi: Record<string, OpenapiMinor> | undefined;
  for (const [o, s] of [...layers].reverse()) {
    for (const [minor, d] of Object.entries(o?.kubernetesOpenapiDocs ?? {})) (kubernetesOpenapi ??= {})[minor] = { file: d.file, doc: d.doc, origin: s.kind === 'cli' ? 'from the command line' : `from ${s.detail}` };
  }
  const rowsPick = pick('kubernetesRows');
  const kubernetesRows = rowsPick ? { rows: rowsPick[0], origin: rowsPick[1].detail } : undefined;
  const components = resolveComponentVersions(input);
  const fromPick = pick('starlingxUpgradeFrom');
  const path = starlingxUpgradePath(fromPick ? findStarlingxRelease(fromPick[0]) : undefined, release);
  // Where the configuration or the workspace says StarlingX (its upgrade path): what a component's window may be read from.
  const saysStarlingx = relFound || fromPick || input.workspace?.localhost;
  const starlingx = saysStarlingx ? {
    path, release, source: (fromPick
      ? { kind: fromPick[1].kind, detail: `${fromPick[1].detail}: StarlingX upgrade path ${path[0].release}..${release.release}` }
      : relFound ? { kind: relSource.kind, detail: `${relSource.detail}: StarlingX ${release.release}` }
        : { kind: 'workspace', detail: `${input.workspace!.localhost!.path}: StarlingX ${release.release} (newest release in the data)` }) as SourceInfo,
  } : undefined;
  const componentWindows = Object.fromEntries(COMPONENTS.map((m) => [m.key, m.window({ starlingx, version: components[m.id] })]));
  return { starlingx: { release, source: relSource, path }, ...componentWindows, kubernetes, ...sections, rules, ruleSources, ignore, ignoreLayers, files, kubernetesRows, ...(kubernetesOpenapi ? { kubernetesOpenapi } : {}), components, configPath: input.config?.path, helm: resolveHelm(input, pick) } as ResolvedConfig;
}

/** The folder of a config file path (both separators), where its relative paths start. */
const folderOf = (p: string) => { const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); return i < 0 ? '.' : p.slice(0, i) || '/'; };

function resolveHelm(input: ResolveInput, pick: <K extends keyof Overrides>(k: K) => [NonNullable<Overrides[K]>, SourceInfo] | undefined): HelmSettings {
  const base = (s: SourceInfo) => (s.kind === 'config' && input.config ? folderOf(input.config.path) : undefined);
  const render = pick('helmRender');
  const p = pick('helmPath');
  const v = pick('helmValues');
  const vs = pick('helmValueSets');
  const user = p?.[1].kind === 'config' && input.settings?.helmPath ? { value: input.settings.helmPath, source: { kind: 'settings', detail: 'editor settings' } as SourceInfo } : undefined;
  return {
    render: render?.[0] ?? false,
    source: render?.[1] ?? { kind: 'default', detail: 'off unless asked for (--helm-render, helm.render)' },
    ...(p ? { path: { value: p[0], base: base(p[1]), source: p[1], ...(user ? { user } : {}) } } : {}),
    values: v ? { files: v[0], base: base(v[1]), source: v[1] } : { files: [], source: { kind: 'default', detail: 'the chart\'s own values.yaml only' } },
    valueSets: vs ? { patterns: vs[0], source: vs[1] } : { patterns: [], source: { kind: 'default', detail: 'each chart\'s ci/*-values.yaml only' } },
  };
}

/** A human summary of the resolved windows and their sources (status bar tooltip, --print-config). */
export function describeResolved(c: ResolvedConfig): Record<string, unknown> {
  return {
    starlingx: { release: c.starlingx.release.release, source: c.starlingx.source, ...(c.starlingx.path.length > 1 ? { path: c.starlingx.path.map((r) => r.release) } : {}) },
    // The component modules' windows (components/registry.ts), those that have one.
    ...Object.fromEntries(COMPONENTS.flatMap((m) => ((c as unknown as Record<string, unknown>)[m.key] ? [[m.key, m.describe((c as unknown as Record<string, unknown>)[m.key])]] : []))),
    kubernetes: { window: windowText(c.kubernetes.minors), versions: c.kubernetes.patches ?? c.kubernetes.minors, source: c.kubernetes.source, pastData: windowPastDataOf(c.kubernetes.minors, c.kubernetesOpenapi) ?? null, knowledge: knowledgeOf(c) },
    components: c.components,
    ...Object.fromEntries(CONFIG_SECTIONS.map((s) => [s.section, s.describe(c)])),
    rules: Object.fromEntries(Object.entries(c.rules).map(([k, v]) => [k, { severity: v, source: c.ruleSources[k] }])),
    ignore: c.ignore,
    files: c.files,
    helm: { render: c.helm.render, source: c.helm.source, path: c.helm.path ?? null, values: c.helm.values, valueSets: c.helm.valueSets },
    config: c.configPath ?? null,
  };
}

// ---- the Kubernetes window and the lifecycle data (k8s/window-past-data) ----


// ---- component versions (cert-manager, istio …: their lifecycle rows use the component's own releases) ----

export interface ComponentVersionSetting { version: string; source: SourceInfo }

/** Components with lifecycle rows in the shipped data, and Pluto's default target for each. */
export function knownComponents(): Record<string, { version: string; plutoTarget?: string; source: string }> {
  return kubernetesApis().componentTargets ?? {};
}

/** Whether the component name itself is wrong (Kubernetes, or not a known component). */
function componentNameProblem(name: string, extra: string[]): boolean {
  return name === 'k8s' || name === 'kubernetes' || !(Object.keys(knownComponents()).includes(name) || extra.includes(name));
}

/** An error message for a component version setting, or undefined when it is fine. `extra`: components of user rows. */
export function checkComponentVersion(name: string, v: unknown, extra: string[] = []): string | undefined {
  const known = [...new Set([...Object.keys(knownComponents()), ...extra])].sort();
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
