// `.skewguard.yaml`: one file for the editor and CI. Parsed with positions so that every problem in it
// is reported at the key or value that is wrong, and resolved together with CLI flags, editor settings
// and workspace facts into the windows a file is checked against.
import type { ErrorObject } from 'ajv';
import { parseYaml, type OffsetRange } from './parse/yaml';
import { didYouMean, own } from './text';
import { parseRange, minorsBetween, compareVersions, minorOf, normalizeKubernetesVersion } from './versions';
import { findStarlingxRelease, newestStarlingxRelease, starlingxReleases, kubernetesApis, type StxRelease } from './data';
import type { Family, SeveritySetting, SourceInfo } from './types';
import type { PlutoRow } from './families/kubernetes';
import type { OpenapiDoc, OpenapiMinor } from './kubernetes/openapi';
import { checkKataWindowSpec, parseKataWindowSpec, isSpec, type KataWindowSpec } from './kata/window';
import { containerdWindow, containerdMinors } from './containerd/data';
import { checkGlob } from './glob';
import { fluxWindowOf, type FluxWindow } from './starlingx-app/data';

import { SEVERITIES } from '../shared/names';
export { CONFIG_FILENAMES } from '../shared/names';
export { SEVERITIES };
// The family ids come from the registry (families/registry.ts), which imports the families, some of which import
// this module: read them when used (the getter below), not while the modules load.
import { FAMILIES } from './families/registry';

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
    kata: {
      type: 'object', additionalProperties: false,
      properties: {
        window: {
          type: 'string',
          description: 'Kata Containers releases in the live-upgrade/rollback window, e.g. "3.2..3.32". A release may carry its runtime '
            + 'flavour: "3.20 (go)..4.1 (runtime-rs)" checks each configuration with the Go runtime at 3.20.0 … 4.0.x and with '
            + 'runtime-rs at 4.1.x (a window whose two ends have one flavour sets kata.flavour).',
        },
        flavour: { enum: ['go', 'runtime-rs'], description: 'Kata runtime flavour: go or runtime-rs.' },
      },
    },
    containerd: {
      type: 'object', additionalProperties: false,
      properties: {
        window: { type: 'string', description: 'containerd minors in the upgrade/rollback window of containerd\'s config.toml, e.g. "1.7..2.1".' },
      },
    },
    rules: {
      type: 'object', description: 'Rule severities by rule id.',
      additionalProperties: { enum: SEVERITIES },
    },
    ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns (gitignore syntax) of files not to check.' },
    files: {
      type: 'object', description: 'Associates glob patterns with a file family.',
      additionalProperties: { get enum(): readonly Family[] { return FAMILIES; } },
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
      },
    },
  },
} as const;

export interface Overrides {
  starlingxRelease?: string;
  /** StarlingX release the platform is upgraded from: the releases from it to starlingxRelease are the path. */
  starlingxUpgradeFrom?: string;
  kubernetesWindow?: string;
  kataWindow?: string;
  kataFlavour?: string;
  containerdWindow?: string;
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
}

export interface ConfigProblem { message: string; range: OffsetRange }
export interface LoadedConfig { path: string; text: string; overrides: Overrides; problems: ConfigProblem[] }

/** A problem in a configuration value, at a path of keys ("at" says whether the key or the value is wrong). */
export interface ValueProblem { message: string; path: Array<string | number>; at: 'key' | 'value' | 'root' }

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
  const kk = str(value.kata?.window);
  if (kk !== undefined && ok('kata.window')) {
    const err = checkKataWindow(kk);
    if (err) problems.push({ message: err, path: ['kata', 'window'], at: 'value' });
    else overrides.kataWindow = kk;
  }
  const cw = str(value.containerd?.window);
  if (cw !== undefined && ok('containerd.window')) {
    const err = checkContainerdWindow(cw);
    if (err) problems.push({ message: err, path: ['containerd', 'window'], at: 'value' });
    else overrides.containerdWindow = cw;
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
  if (value.kata?.flavour && ok('kata.flavour')) overrides.kataFlavour = value.kata.flavour;
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

/** Returns an error message for a Kata window that is malformed or names no known release. */
export function checkKataWindow(s: string): string | undefined {
  // Releases may carry their flavour ("3.20 (go)..4.1 (runtime-rs)"): engine/kata/window.ts.
  return checkKataWindowSpec(s);
}

/** Returns an error message for a containerd window that is malformed or names no containerd minor of the data. */
export function checkContainerdWindow(s: string): string | undefined {
  const r = parseRange(s);
  if (!r) return `containerd.window "${s}" is not a containerd minor or range such as "1.7..2.1"`;
  if (!containerdWindow(r.from, r.to).length) {
    const ms = containerdMinors();
    return `containerd window "${s}" holds no containerd minor of the data (it knows ${ms[0]} … ${ms[ms.length - 1]})`;
  }
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
  const kata = cli.kataWindow !== undefined ? checkKataWindow(cli.kataWindow) : undefined;
  if (kata) out.push(kata);
  const ctr = cli.containerdWindow !== undefined ? checkContainerdWindow(cli.containerdWindow) : undefined;
  if (ctr) out.push(`--containerd-window: ${ctr}`);
  return out;
}

// ---- resolution ----

export interface WorkspaceFacts {
  /** A StarlingX localhost.yml found in the workspace and what it says. */
  localhost?: { path: string; kubernetesVersion?: string; note?: string };
  /** kata-deploy's image tags in the workspace (its DaemonSet or Helm values): the Kata window when none is configured. */
  kataDeploy?: { path: string; tags: string[] };
}

export interface KubeWindow {
  /** Minor versions, ascending: ["1.18", "1.19", ...]. */
  minors: string[];
  /** Exact patch versions along a StarlingX upgrade path, when the window came from one. */
  patches?: string[];
  source: SourceInfo;
}

export interface ResolvedConfig {
  /** path: the releases from starlingx.upgradeFrom to release (just [release] without one). */
  starlingx: { release: StxRelease; source: SourceInfo; path: StxRelease[] };
  /**
   * The Flux of the StarlingX releases on the path, when the configuration or workspace says StarlingX (a release, an
   * upgradeFrom, or a localhost.yml) and no Flux version is given (kubernetes.components.fluxcd); else undefined.
   */
  flux?: FluxWindow;
  kubernetes: KubeWindow;
  /** window: its ends, each with the flavour written after it ("3.20 (go)..4.1 (runtime-rs)"), engine/kata/window.ts. */
  kata: { window?: KataWindowSpec; flavour?: string; source: SourceInfo; flavourSource?: SourceInfo };
  /** The containerd window when configured (else the containerd family derives it from StarlingX or the Kubernetes window). */
  containerd: { window?: { from: string; to: string }; source?: SourceInfo };
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
}

export interface ResolveInput {
  cli?: Overrides;
  config?: LoadedConfig;
  settings?: Overrides;
  workspace?: WorkspaceFacts;
}

/** The upgrade path of a StarlingX release from `start` to its newest version, one minor at a time, newest patch of each minor. */
export function starlingxPath(rel: StxRelease, start: string): string[] {
  const versions = rel.kubernetes.map((k) => k.version);
  const startMinor = minorOf(start);
  const bestPerMinor = new Map<string, string>();
  for (const v of versions) {
    const m = minorOf(v)!;
    if (!bestPerMinor.has(m) || compareVersions(v, bestPerMinor.get(m)!) > 0) bestPerMinor.set(m, v);
  }
  const path = [start];
  for (const [m, v] of [...bestPerMinor].sort((a, b) => compareVersions(a[0], b[0]))) {
    if (startMinor && compareVersions(m, startMinor) > 0) path.push(v);
  }
  return path;
}

export function windowFromStarlingx(rel: StxRelease, kubernetesVersion: string | undefined, source: SourceInfo): KubeWindow {
  const shipped = rel.kubernetes.map((k) => k.version);
  const v = kubernetesVersion === undefined ? undefined : normalizeKubernetesVersion(kubernetesVersion);
  const start = v && shipped.includes(v) ? v : rel.default;
  const patches = starlingxPath(rel, start);
  return { minors: patches.map((p) => minorOf(p)!), patches, source };
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

  // No configured window: kata-deploy's image tag(s) in the workspace, as localhost.yml sets the Kubernetes window. Read
  // only when a Kata file asks (the workspace walk is not done for the files of the other families).
  const kata = resolveKata(pick('kataWindow'), pick('kataFlavour'), () => kataDeployWindow(input.workspace?.kataDeploy));

  const ctrW = pick('containerdWindow');
  const containerd = { window: ctrW ? parseRange(ctrW[0]) : undefined, source: ctrW?.[1] };

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
  const fluxGiven = components.fluxcd && components.fluxcd.source.kind !== 'default';
  const saysStarlingx = relFound || fromPick || input.workspace?.localhost;
  const flux = !fluxGiven && saysStarlingx ? fluxWindowOf(path, fromPick
    ? { kind: fromPick[1].kind, detail: `${fromPick[1].detail}: StarlingX upgrade path ${path[0].release}..${release.release}` }
    : relFound ? { kind: relSource.kind, detail: `${relSource.detail}: StarlingX ${release.release}` }
      : { kind: 'workspace', detail: `${input.workspace!.localhost!.path}: StarlingX ${release.release} (newest release in the data)` }) : undefined;
  return { starlingx: { release, source: relSource, path }, flux, kubernetes, kata, containerd, rules, ruleSources, ignore, ignoreLayers, files, kubernetesRows, ...(kubernetesOpenapi ? { kubernetesOpenapi } : {}), components, configPath: input.config?.path, helm: resolveHelm(input, pick) };
}

/** The folder of a config file path (both separators), where its relative paths start. */
const folderOf = (p: string) => { const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); return i < 0 ? '.' : p.slice(0, i) || '/'; };

function resolveHelm(input: ResolveInput, pick: <K extends keyof Overrides>(k: K) => [NonNullable<Overrides[K]>, SourceInfo] | undefined): HelmSettings {
  const base = (s: SourceInfo) => (s.kind === 'config' && input.config ? folderOf(input.config.path) : undefined);
  const render = pick('helmRender');
  const p = pick('helmPath');
  const v = pick('helmValues');
  const user = p?.[1].kind === 'config' && input.settings?.helmPath ? { value: input.settings.helmPath, source: { kind: 'settings', detail: 'editor settings' } as SourceInfo } : undefined;
  return {
    render: render?.[0] ?? false,
    source: render?.[1] ?? { kind: 'default', detail: 'off unless asked for (--helm-render, helm.render)' },
    ...(p ? { path: { value: p[0], base: base(p[1]), source: p[1], ...(user ? { user } : {}) } } : {}),
    values: v ? { files: v[0], base: base(v[1]), source: v[1] } : { files: [], source: { kind: 'default', detail: 'the chart\'s own values.yaml only' } },
  };
}

/** A human summary of the resolved windows and their sources (status bar tooltip, --print-config). */
export function describeResolved(c: ResolvedConfig): Record<string, unknown> {
  return {
    starlingx: { release: c.starlingx.release.release, source: c.starlingx.source, ...(c.starlingx.path.length > 1 ? { path: c.starlingx.path.map((r) => r.release) } : {}) },
    ...(c.flux ? { flux: { window: c.flux.text, versions: c.flux.steps.map((s) => ({ starlingx: s.starlingx, flux: s.flux })), source: c.flux.source } } : {}),
    kubernetes: { window: c.kubernetes.minors.length > 1 ? `${c.kubernetes.minors[0]}..${c.kubernetes.minors[c.kubernetes.minors.length - 1]}` : c.kubernetes.minors[0], versions: c.kubernetes.patches ?? c.kubernetes.minors, source: c.kubernetes.source, pastData: windowPastDataOf(c.kubernetes.minors, c.kubernetesOpenapi) ?? null, knowledge: knowledgeOf(c) },
    components: c.components,
    kata: { window: c.kata.window ? kataWindowText(c.kata.window) : null, flavour: c.kata.flavour ?? null, source: c.kata.source },
    containerd: { window: c.containerd.window ? `${c.containerd.window.from}..${c.containerd.window.to}` : null, source: c.containerd.source ?? { kind: 'default', detail: 'from StarlingX\'s release data or the Kubernetes window, per file (containerd family)' } },
    rules: Object.fromEntries(Object.entries(c.rules).map(([k, v]) => [k, { severity: v, source: c.ruleSources[k] }])),
    ignore: c.ignore,
    files: c.files,
    helm: { render: c.helm.render, source: c.helm.source, path: c.helm.path ?? null, values: c.helm.values },
    config: c.configPath ?? null,
  };
}

// ---- the Kubernetes window and the lifecycle data (k8s/window-past-data) ----

export interface WindowPastData {
  /** Newest minor the API lifecycle data knows. */
  knownUpTo: string;
  asOf: string;
  /** Window minors newer than knownUpTo: the data cannot vouch for them. */
  steps: string[];
  /** Removals the data has for those steps anyway (announced upstream), "apiVersion in minor". */
  announced: string[];
}

/** Where each minor of the window (and each minor with a document) is judged from, for --print-config. */
function knowledgeOf(c: ResolvedConfig): Record<string, string> {
  const data = kubernetesApis();
  const knownUpTo = data.minors[data.minors.length - 1];
  const out: Record<string, string> = {};
  const docs = c.kubernetesOpenapi ?? {};
  for (const m of [...new Set([...c.kubernetes.minors, ...Object.keys(docs)])].sort(compareVersions)) {
    const d = docs[m];
    out[m] = d ? `openapi file ${d.file} (${d.origin}): the kinds it serves and their fields${d.doc.covers ? ` (for ${d.doc.covers.join(', ')}; the other group-versions from the shipped data)` : ''}`
      : compareVersions(m, knownUpTo) > 0 ? `not known: past the shipped data (it knows Kubernetes up to ${knownUpTo})`
        : `shipped data (data/kubernetes/api-lifecycle.json as of ${data.asOf}, data/kubernetes/fields/fields.json)`;
  }
  return out;
}

/** The steps of a window the shipped lifecycle data does not know (a minor with the user's OpenAPI document is known); undefined when it knows them all. */
export function windowPastDataOf(minors: string[], openapi?: Readonly<Record<string, unknown>>): WindowPastData | undefined {
  const data = kubernetesApis();
  const knownUpTo = data.minors[data.minors.length - 1];
  const newer = (a: string, b: string) => compareVersions(a, b) > 0;
  // A document of some group-versions only (a v3 document set) does not vouch for the step.
  const steps = minors.filter((m) => newer(m, knownUpTo) && !(openapi?.[m] && !(openapi[m] as { doc?: { covers?: unknown } }).doc?.covers));
  if (!steps.length) return undefined;
  const announced = [...new Set(data.apis
    .filter((r) => (r.component ?? 'k8s') === 'k8s' && r.removed && steps.includes(r.removed))
    .sort((a, b) => compareVersions(a.removed!, b.removed!) || (a.apiVersion < b.apiVersion ? -1 : 1))
    .map((r) => `${r.apiVersion} in ${r.removed}`))];
  return { knownUpTo, asOf: data.asOf, steps, announced };
}

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

/** A kata.window value as the resolved configuration holds it (undefined when malformed: reported where it is read). */
function kataWindowOf(s: string): KataWindowSpec | undefined {
  const r = parseKataWindowSpec(s);
  return isSpec(r) ? r : undefined;
}

/** "3.2..3.32", "3.20 (go)..4.1 (runtime-rs)": a window as --print-config and the status bar show it. */
export function kataWindowText(w: KataWindowSpec): string {
  const end = (v: string, f?: string) => (f ? `${v} (${f})` : v);
  if (w.from === w.to && w.fromFlavour === w.toFlavour) return end(w.from, w.fromFlavour);
  return `${end(w.from, w.fromFlavour)}..${end(w.to, w.toFlavour)}`;
}

/** The Kata window kata-deploy's image tags say: that release, or oldest..newest when the workspace holds several. */
function kataDeployWindow(k: WorkspaceFacts['kataDeploy']): [string, SourceInfo] | undefined {
  if (!k?.tags.length) return undefined;
  const tags = [...new Set(k.tags)].sort(compareVersions);
  // A patch release the data does not list stands for its minor (the data has every minor, not every patch).
  const end = (t: string) => (checkKataWindowSpec(t) ? t.split('.').slice(0, 2).join('.') : t);
  const w = tags.length > 1 ? `${end(tags[0])}..${end(tags[tags.length - 1])}` : end(tags[0]);
  if (checkKataWindowSpec(w)) return undefined;
  return [w, { kind: 'workspace', detail: `${k.path}: kata-deploy image ${tags.join(', ')}` }];
}

type Picked = [string, SourceInfo] | undefined;

/** The Kata part of a ResolvedConfig; without a configured window it is worked out (from kata-deploy) when first read. */
function resolveKata(kataW: Picked, kataF: Picked, fromDeploy: () => Picked): ResolvedConfig['kata'] {
  const build = (w: Picked): ResolvedConfig['kata'] => {
    const kataSpec = w ? kataWindowOf(w[0]) : undefined;
    // A window whose ends carry one flavour sets it, over kata.flavour (a crossing window checks each side with its own).
    const windowFlavour = kataSpec?.fromFlavour && kataSpec.fromFlavour === kataSpec.toFlavour ? kataSpec.fromFlavour : undefined;
    return {
      window: kataSpec,
      flavour: windowFlavour ?? kataF?.[0],
      source: w?.[1] ?? { kind: 'default', detail: 'newest Kata release' } as SourceInfo,
      flavourSource: kataSpec?.fromFlavour ? w![1] : kataF?.[1],
    };
  };
  if (kataW) return build(kataW);
  let memo: ResolvedConfig['kata'] | undefined;
  const get = () => (memo ??= build(fromDeploy()));
  return {
    get window() { return get().window; },
    get flavour() { return get().flavour; },
    get source() { return get().source; },
    get flavourSource() { return get().flavourSource; },
  };
}
