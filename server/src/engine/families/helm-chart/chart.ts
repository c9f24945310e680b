// A Helm chart read through the engine's FileAccess: Chart.yaml, values.yaml, every file under templates/ (helpers
// included), and its dependencies (vendored charts/<dir>/ and packaged charts/*.tgz, read in memory), with their
// values scoped as Helm does (the parent's `values.<name or alias>` over the subchart's own, `global` passed down).
// Cached per top chart folder and FileAccess stamp: a chart's 2,000 templates read it once.
import * as path from 'node:path';
import type { FileAccess } from '../../files';
import { parseYaml, type YamlFile } from '../../parse/yaml';
import { readTgz, MAX_UNPACKED } from './tar';

export interface ChartText { abs: string; text: string; yaml: YamlFile; value: any }
export interface ChartTemplate {
  /** The template's name as Helm gives it, from the top chart's folder: `templates/x.yaml`, `charts/common/templates/_h.tpl`. */
  rel: string;
  /** On disk (undefined inside a .tgz). */
  abs?: string;
  text: string;
  /**
   * A template fragment outside any chart (read as Helm by its content or modeline): each of its documents is
   * rendered on its own (run.ts documentParts), so one that stops rendering does not stop the others (issue #26).
   */
  byDocument?: boolean;
}
export interface Chart {
  name: string;
  /** The chart's folder on disk, or `<archive>!<folder inside>` for a packaged one. */
  dir: string;
  /** The .tgz it was read from (itself or a parent's). */
  archive?: string;
  /** Its folder from the top chart's: '' for the top chart, `charts/common/` for a dependency. */
  prefix: string;
  chartYaml?: ChartText;
  values?: ChartText;
  templates: ChartTemplate[];
  subcharts: Chart[];
  parent?: Chart;
  /** A library chart's templates are never rendered; its defines are. */
  library: boolean;
  /**
   * What could not be read, at the file it concerns. `chart`: said on that chart's Chart.yaml (the dir of the chart),
   * for what no file of its own can carry (a dependency not loaded, a folder not listed).
   */
  problems: Array<{ file: string; message: string; chart?: string }>;
  /** A template read without its chart: `.Values` and `.Chart` are not known (Unknown when rendered, never empty). */
  alone?: boolean;
}

const MAX_TEMPLATES = 5000;
const MAX_DEPTH = 6;

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The top chart a file belongs to and the folder of the chart it is in; undefined when no Chart.yaml is found. */
export function chartRootOf(file: string, files: FileAccess): { top: string; own: string } | undefined {
  const norm = file.split(path.sep).join('/');
  const parts = norm.split('/');
  const base = parts[parts.length - 1];
  let own: string | undefined;
  const has = (dir: string) => files.read(`${dir}/Chart.yaml`) !== undefined;
  if (base === 'Chart.yaml') own = parts.slice(0, -1).join('/');
  else if (/\.tgz$/i.test(base) && parts[parts.length - 2] === 'charts') { const d = parts.slice(0, -2).join('/'); if (has(d)) own = d; }
  else {
    for (let i = parts.length - 2; i >= 0; i--) {
      if (parts[i] === 'templates' && i > 0) { const d = parts.slice(0, i).join('/'); if (has(d)) { own = d; break; } }
    }
    if (!own && /^values\.ya?ml$/.test(base)) { const d = parts.slice(0, -1).join('/'); if (has(d)) own = d; }
  }
  if (!own) return undefined;
  let top = own;
  for (let i = 0; i < MAX_DEPTH; i++) {
    const up = path.posix.dirname(top);
    if (path.posix.basename(up) !== 'charts') break;
    const parent = path.posix.dirname(up);
    if (!has(parent)) break;
    top = parent;
  }
  const back = (p: string) => p.split('/').join(path.sep);
  return { top: back(top), own: back(own) };
}

interface Source {
  read(rel: string): string | undefined;
  list(rel: string): Array<{ name: string; dir: boolean }> | undefined;
  abs(rel: string): string | undefined;
  bytes(rel: string): Uint8Array | undefined;
  id(rel: string): string;
  /** Why a path that is there was not read or listed (FileAccess.unreadable); undefined: missing, read, or not known. */
  unreadable(rel: string): string | undefined;
}

function diskSource(dir: string, files: FileAccess): Source {
  const j = (rel: string) => (rel ? path.join(dir, rel) : dir);
  return { read: (r) => files.read(j(r)), list: (r) => files.list(j(r)), abs: j, bytes: (r) => files.readBytes(j(r)), id: j, unreadable: (r) => files.unreadable?.(j(r)) };
}

function archiveSource(archive: string, entries: Array<{ name: string; text: string }>, inner: string): Source {
  const byName = new Map(entries.map((e) => [e.name, e.text]));
  const j = (rel: string) => (rel ? `${inner}/${rel}` : inner);
  return {
    read: (r) => byName.get(j(r)),
    list: (r) => {
      const pre = `${j(r)}/`;
      const seen = new Map<string, boolean>();
      for (const n of byName.keys()) {
        if (!n.startsWith(pre)) continue;
        const rest = n.slice(pre.length);
        const i = rest.indexOf('/');
        if (i < 0) seen.set(rest, false); else if (!seen.has(rest.slice(0, i))) seen.set(rest.slice(0, i), true);
      }
      return seen.size ? [...seen].map(([name, dir]) => ({ name, dir })).sort((a, b) => (a.name < b.name ? -1 : 1)) : undefined;
    },
    abs: () => undefined,
    bytes: () => undefined,
    id: (r) => `${archive}!${j(r)}`,
    unreadable: () => undefined,
  };
}

function readText(src: Source, rel: string): ChartText | undefined {
  const text = src.read(rel);
  if (text === undefined) return undefined;
  const yaml = parseYaml(text);
  const doc = yaml.docs.find((d) => !d.empty);
  return { abs: src.id(rel), text, yaml, value: doc && !doc.errors.length ? doc.value : undefined };
}

function load(src: Source, prefix: string, dirId: string, archive: string | undefined, depth: number, budget: { templates: number; unpacked: number }): Chart {
  const chartYaml = readText(src, 'Chart.yaml');
  const values = readText(src, 'values.yaml') ?? readText(src, 'values.yml');
  const meta = isObj(chartYaml?.value) ? chartYaml!.value : {};
  const chart: Chart = {
    name: typeof meta.name === 'string' ? meta.name : path.basename(dirId), dir: dirId, archive, prefix,
    chartYaml, values, templates: [], subcharts: [], library: meta.type === 'library', problems: [],
  };
  // A values file that is there but not read (unreadable, over the size limit) is not the same as none: said, at it.
  if (!values) {
    const listed = (src.list('') ?? []).find((e) => !e.dir && /^values\.ya?ml$/.test(e.name));
    // A link is not listed, but it is read: why it gave nothing (a file that reads past the size limit) is said too.
    const why = src.unreadable('values.yaml') ?? src.unreadable('values.yml');
    if (listed || why) chart.problems.push({ file: src.id(listed?.name ?? 'values.yaml'), message: `not read (${why ?? 'unreadable, or over the size limit'}): the chart's templates are rendered without its default values` });
  }
  // A folder that is there but cannot be listed is not an empty one: said on the chart's Chart.yaml.
  const listed = (rel: string, what: string) => {
    const entries = src.list(rel);
    if (entries) return entries;
    const why = src.unreadable(rel);
    if (why) chart.problems.push({ file: src.id(rel), message: `not read (${why}): ${what} not checked`, chart: dirId });
    return [];
  };
  // Every file under templates/, in Helm's order (by name), helpers and NOTES.txt included.
  const walk = (rel: string) => {
    for (const e of listed(rel, rel === 'templates' ? "the chart's templates are" : 'the templates in it are')) {
      const r = `${rel}/${e.name}`;
      if (e.dir) { walk(r); continue; }
      if (budget.templates-- <= 0) { chart.problems.push({ file: src.id(r), message: `more than ${MAX_TEMPLATES} templates in the chart: the rest are not read` }); return; }
      const text = src.read(r);
      if (text === undefined) { chart.problems.push({ file: src.id(r), message: 'not read (unreadable, or over the size limit)' }); continue; }
      chart.templates.push({ rel: `${prefix}${r}`, abs: src.abs(r), text });
    }
  };
  walk('templates');
  if (depth >= MAX_DEPTH) return chart;
  for (const e of listed('charts', "the chart's dependencies are")) {
    const r = `charts/${e.name}`;
    if (e.dir) {
      if (src.read(`${r}/Chart.yaml`) === undefined) {
        // Helm loads every folder of charts/ that holds files as a dependency, and refuses one without a Chart.yaml.
        const inside = src.list(r);
        const hasChartYaml = inside?.some((x) => !x.dir && x.name === 'Chart.yaml');
        const why = src.unreadable(`${r}/Chart.yaml`) ?? (hasChartYaml ? 'unreadable, or over the size limit' : undefined) ?? src.unreadable(r);
        if (why) chart.problems.push({ file: src.id(`${r}/Chart.yaml`), message: `not read (${why}): the dependency in ${r}/ is not checked`, chart: dirId });
        else if (inside?.length) chart.problems.push({ file: src.id(r), message: `no Chart.yaml in ${r}/: Helm refuses to load the chart (Chart.yaml file is missing), so the dependency is not checked`, chart: dirId });
        continue;
      }
      const sub = load(subSource(src, r), `${prefix}${r}/`, src.id(r), archive, depth + 1, budget);
      sub.parent = chart;
      chart.subcharts.push(sub);
      const cy = sub.chartYaml;
      const bad = cy && (cy.yaml.docs.some((d) => d.errors.length) || !isObj(cy.value));
      if (bad) {
        const err = cy!.yaml.docs.flatMap((d) => d.errors)[0] as { message?: string } | undefined;
        chart.problems.push({ file: cy!.abs, message: `${err?.message ? `does not parse (${err.message.split('\n')[0]})` : 'is not a mapping'}: Helm cannot load the chart; the dependency in ${r}/ is checked with no Chart.yaml fields (its name taken from its folder)`, chart: dirId });
      }
    } else if (/\.tgz$/i.test(e.name)) {
      const abs = src.id(r);
      const bytes = src.bytes(r);
      if (!bytes) { chart.problems.push({ file: abs, message: archive ? 'a packaged chart inside a packaged chart is not read' : 'not read (unreadable, or over the size limit)' }); continue; }
      // The chart's packaged dependencies share one unpacked budget (24 archives of 150 MB each are not read 24 times).
      const tar = readTgz(bytes, budget.unpacked);
      if ('error' in tar) { chart.problems.push({ file: abs, message: `not read: ${tar.error}` }); continue; }
      budget.unpacked -= tar.unpacked ?? 0;
      // Helm packages a chart as <name>/Chart.yaml …: the first folder holding a Chart.yaml.
      const inner = tar.entries.map((x) => x.name).filter((n) => /^[^/]+\/Chart\.yaml$/.test(n)).map((n) => n.slice(0, -'/Chart.yaml'.length))[0];
      if (inner === undefined) { chart.problems.push({ file: abs, message: 'not read: the archive holds no <chart>/Chart.yaml' }); continue; }
      for (const k of tar.skipped) chart.problems.push({ file: `${abs}!${k.name}`, message: k.why });
      const sub = load(archiveSource(abs, tar.entries, inner), `${prefix}charts/${inner}/`, `${abs}!${inner}`, abs, depth + 1, budget);
      sub.parent = chart;
      chart.subcharts.push(sub);
    }
  }
  return chart;
}

function subSource(src: Source, rel: string): Source {
  const j = (r: string) => (r ? `${rel}/${r}` : rel);
  return { read: (r) => src.read(j(r)), list: (r) => src.list(j(r)), abs: (r) => src.abs(j(r)), bytes: (r) => src.bytes(j(r)), id: (r) => src.id(j(r)), unreadable: (r) => src.unreadable(j(r)) };
}

const cache = new WeakMap<FileAccess, Map<string, { stamp: number | undefined; chart: Chart }>>();

/** The top chart at `top` (a folder), read once per FileAccess stamp. */
export function loadChart(top: string, files: FileAccess): Chart {
  let m = cache.get(files);
  if (!m) cache.set(files, (m = new Map()));
  const stamp = files.stamp?.();
  const hit = m.get(top);
  if (hit && hit.stamp === stamp && stamp !== undefined) return hit.chart;
  const chart = load(diskSource(top, files), '', top, undefined, 0, { templates: MAX_TEMPLATES, unpacked: MAX_UNPACKED });
  if (m.size > 512) m.clear();
  m.set(top, { stamp, chart });
  return chart;
}

/** Every chart of the tree, the top one first. */
export function allCharts(top: Chart): Chart[] {
  const out: Chart[] = [];
  const walk = (c: Chart) => { out.push(c); c.subcharts.forEach(walk); };
  walk(top);
  return out;
}

/** The chart whose folder (on disk or in an archive) holds `file`. */
export function chartOfFile(top: Chart, file: string): Chart | undefined {
  let best: Chart | undefined;
  for (const c of allCharts(top)) {
    const d = c.dir.endsWith(path.sep) ? c.dir : c.dir + (c.dir.includes('!') ? '/' : path.sep);
    if ((file.startsWith(d) || file === c.archive) && (!best || c.dir.length > best.dir.length)) best = c;
  }
  return best;
}

/** The name the parent's values and conditions use for a dependency: its alias in the parent's Chart.yaml, else its name. */
function dependencyEntry(c: Chart): Record<string, any> | undefined {
  const deps = c.parent?.chartYaml?.value?.dependencies;
  if (!Array.isArray(deps)) return undefined;
  return deps.find((d: any) => isObj(d) && d.name === c.name);
}
export function valuesKey(c: Chart): string {
  const d = dependencyEntry(c);
  return typeof d?.alias === 'string' && d.alias ? d.alias : c.name;
}

/** Helm's coalescing of values over defaults: maps merged key by key, null deletes the default. */
export function mergeValues(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const m = merge(base, over);
  return isObj(m) ? m : {};
}

function merge(base: unknown, over: unknown): unknown {
  if (!isObj(base) || !isObj(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) { delete out[k]; continue; } // Helm: null in the parent's values deletes the default
    out[k] = merge(base[k], v);
  }
  return out;
}

/**
 * The values a chart's templates see (Helm's coalescing of the parent's values over the chart's defaults). `over`:
 * values given to the release (a values scenario, `helm install -f`), coalesced over the top chart's defaults as Helm
 * does (maps merged key by key, null deletes a default).
 */
export function valuesOf(c: Chart, over?: Record<string, unknown>): Record<string, unknown> {
  const own = isObj(c.values?.value) ? c.values!.value : {};
  if (!c.parent) return over ? mergeValues(own, over) : own;
  const parent = valuesOf(c.parent, over);
  const scoped = merge(own, parent[valuesKey(c)]) as Record<string, unknown>;
  const global = merge(isObj(own.global) ? own.global : {}, parent.global);
  return isObj(scoped) ? { ...scoped, global } : { global };
}

/**
 * Whether Helm renders the dependency: its `condition` (the first path of the parent's values that is a boolean)
 * and `tags`; undefined when its condition names values that are not booleans (not decided here).
 */
export function enabledOf(c: Chart, over?: Record<string, unknown>): boolean | undefined {
  if (!c.parent) return true;
  const up = enabledOf(c.parent, over);
  if (up === false) return false;
  const d = dependencyEntry(c);
  if (!d) return up;
  const vals = valuesOf(c.parent, over);
  if (typeof d.condition === 'string' && d.condition) {
    for (const p of d.condition.split(',').map((s: string) => s.trim()).filter(Boolean)) {
      let v: unknown = vals;
      for (const k of p.split('.')) v = isObj(v) ? v[k] : undefined;
      if (typeof v === 'boolean') return v && up;
    }
  }
  if (Array.isArray(d.tags) && d.tags.length && isObj(vals.tags)) {
    const t = d.tags.map((x: unknown) => (vals.tags as any)[String(x)]).filter((x: unknown) => typeof x === 'boolean');
    if (t.length) return t.some(Boolean) && up;
  }
  return up;
}

/** Helm's .Chart: Chart.yaml's keys with Go's field names (APIVersion, AppVersion, KubeVersion, Name …). */
export function chartObject(c: Chart): Record<string, unknown> {
  const v = isObj(c.chartYaml?.value) ? c.chartYaml!.value : {};
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const go = k === 'apiVersion' ? 'APIVersion' : k.charAt(0).toUpperCase() + k.slice(1);
    out[go] = x;
  }
  out.Name ??= c.name;
  return out;
}

/** Helm template's default release (`helm template` without a name). */
export const RELEASE = { Name: 'release-name', Namespace: 'default', Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 };
