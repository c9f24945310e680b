// Values scenarios: a chart rendered with values other than its defaults, as it is deployed. The chart's own are its
// `ci/*-values.yaml` files (chart-testing's convention) and the files `.skewguard.yaml`'s `helm.valueSets` names;
// other sources (a Flux HelmRelease, an Argo CD Application of a chart in the workspace) hand theirs in through the
// same type. Each scenario's values are coalesced over the chart's defaults as Helm coalesces `helm install -f` values
// (maps merged key by key, null deletes a default: chart.ts valuesOf), and the chart is rendered at every step of the
// window by the embedded evaluator (run.ts chartRun), one run per scenario, cached like the defaults' run.
import * as path from 'node:path';
import { ALWAYS_SKIPPED_FOLDERS } from '../../../shared/names';
import type { FileAccess } from '../../files';
import { parseYaml } from '../../parse/yaml';
import { globMatcher, checkGlob } from '../../glob';
import type { OpenapiMinor } from '../kubernetes/data/openapi';
import type { Chart } from './chart';
import { chartRun, type ChartRun } from './run';

/** Values a chart is rendered with over its defaults: one way it is deployed. */
export interface ValuesScenario {
  /** Stable and unique among a chart's scenarios: the chart-relative path of its file (`ci/legacy-values.yaml`), or the deployment's. */
  id: string;
  /** How findings name it ("with ci/legacy-values.yaml"). */
  label: string;
  /** The values given to the release, coalesced over the chart's defaults (not the coalesced result). */
  values: Record<string, unknown>;
  /** The file that sets them (absolute), where what they break is said. */
  file?: string;
  /** 1-based line in `file` where they start (a deployment's `values:`); absent: the file is the values. */
  line?: number;
  /** `.Release.Name` and `.Release.Namespace` (absent: `helm template`'s defaults). */
  release?: { name?: string; namespace?: string };
}

/** The chart rendered under one scenario at every step of the window. */
export interface ScenarioRun { scenario: ValuesScenario; run: ChartRun }

/** The id findings use for the chart's defaults (`values.yaml` alone). */
export const DEFAULTS_ID = 'default';
/** How findings name the defaults when a scenario shares them. */
export const DEFAULTS_LABEL = 'the default values';

/**
 * The chart rendered under each scenario (its defaults' run is chartRun(top, minors) itself). Each run is cached
 * with the chart (per scenario id and values object), and renders a template only when its steps are first read.
 */
export function renderScenarios(top: Chart, minors: string[], scenarios: readonly ValuesScenario[], openapi?: Readonly<Record<string, OpenapiMinor>>): ScenarioRun[] {
  return scenarios.map((scenario) => ({ scenario, run: chartRun(top, minors, undefined, openapi, { id: scenario.id, values: scenario.values, release: scenario.release }) }));
}

/** Most scenarios of one chart read from its files (each costs a render of the chart at every step). */
export const MAX_SCENARIOS = 32;
/** Entries listed while looking for helm.valueSets files in one chart's folder, and how deep. */
const MAX_LISTED = 4000;
const MAX_DEPTH = 4;

export interface ChartScenarios {
  scenarios: ValuesScenario[];
  /** Files that are scenarios but could not be used, and why (said on the file itself, as not checked). */
  problems: Map<string, string>;
  /** What could not be looked at (said on the chart's Chart.yaml). */
  notes: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** chart-testing's convention: `ci/*-values.yaml` in the chart's folder. */
export const isCiValuesName = (name: string): boolean => /^.+-values\.yaml$/.test(name);

const cache = new WeakMap<Chart, Map<string, ChartScenarios>>();

/**
 * A top chart's own scenarios, read through `files`: `ci/*-values.yaml` (by name), then the files `valueSets`
 * (helm.valueSets: globs relative to the chart's folder, `files:` glob syntax) match, by pattern then name; each
 * file once, values.yaml never (it is the defaults). A file that does not parse as YAML or is not a mapping is no
 * scenario, and `problems` says why. Cached per chart object (a FileAccess stamp) and patterns.
 */
export function chartScenarios(top: Chart, files: FileAccess, valueSets: readonly string[] = []): ChartScenarios {
  const key = valueSets.join('\u0000');
  let m = cache.get(top);
  if (!m) cache.set(top, (m = new Map()));
  const hit = m.get(key);
  if (hit) return hit;
  const out: ChartScenarios = { scenarios: [], problems: new Map(), notes: [] };
  if (top.alone || top.archive || top.parent) { m.set(key, out); return out; }
  const dir = top.dir;
  const rels: string[] = [];
  for (const e of files.list(path.join(dir, 'ci')) ?? []) if (!e.dir && isCiValuesName(e.name)) rels.push(`ci/${e.name}`);
  const patterns = valueSets.filter((p) => !checkGlob(p));
  if (patterns.length) {
    const found: string[] = [];
    let listed = 0;
    const walk = (rel: string, depth: number) => {
      const entries = files.list(rel ? path.join(dir, ...rel.split('/')) : dir);
      if (!entries) return;
      for (const e of entries) {
        if (++listed > MAX_LISTED) return;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.dir) {
          if (depth < MAX_DEPTH && !(rel === '' && (e.name === 'templates' || e.name === 'charts')) && !e.name.startsWith('.') && !ALWAYS_SKIPPED_FOLDERS.includes(e.name)) walk(r, depth + 1);
        } else if (/\.ya?ml$/i.test(e.name) && !(rel === '' && /^values\.ya?ml$/.test(e.name))) found.push(r);
      }
    };
    walk('', 0);
    if (listed > MAX_LISTED) out.notes.push(`helm.valueSets: more than ${MAX_LISTED} entries in the chart's folder; the rest were not looked at for values files`);
    for (const p of patterns) {
      const match = globMatcher(p);
      for (const r of found) if (match(r) && !rels.includes(r)) rels.push(r);
    }
  }
  if (rels.length > MAX_SCENARIOS) out.notes.push(`${rels.length} values scenarios: only the first ${MAX_SCENARIOS} are rendered (${rels.slice(MAX_SCENARIOS).join(', ')} are not)`);
  for (const rel of rels.slice(0, MAX_SCENARIOS)) {
    const abs = path.join(dir, ...rel.split('/'));
    const text = files.read(abs);
    if (text === undefined) { out.problems.set(abs, `not used as a values scenario: not read (${files.unreadable?.(abs) ?? 'unreadable, or over the size limit'})`); continue; }
    const yaml = parseYaml(text);
    const docs = yaml.docs.filter((d) => !d.empty);
    if (yaml.errors.length || docs.some((d) => d.errors.length)) { out.problems.set(abs, 'not used as a values scenario: it does not parse as YAML, so the chart is not rendered with it'); continue; }
    const v = docs.length ? docs[0].value : {};
    if (v !== null && v !== undefined && !isObj(v)) { out.problems.set(abs, 'not used as a values scenario: its values are not a mapping, so the chart is not rendered with it'); continue; }
    out.scenarios.push({ id: rel, label: rel, values: isObj(v) ? v : {}, file: abs });
  }
  if (m.size > 8) m.clear();
  m.set(key, out);
  return out;
}

/**
 * Findings of the same rule at the same place with the same text, from several scenarios, as one finding naming them.
 * `scenarios` holds ids (DEFAULTS_ID for the defaults), in the order the runs were made.
 */
export function scenariosText(ids: readonly string[], labels: ReadonlyMap<string, string>): string {
  const names = ids.map((id) => (id === DEFAULTS_ID ? DEFAULTS_LABEL : labels.get(id) ?? id));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
