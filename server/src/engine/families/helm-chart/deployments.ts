// GitOps deployments of a chart of this repository (issue #32 item 3), read from the workspace's parsed documents:
// a Flux HelmRelease whose chart is a path in a GitRepository (or OCIRepository, Bucket) that is this repository, an
// Argo CD Application (or an ApplicationSet's template without generator parameters) whose source path is here, a
// kustomization's helmCharts: entry whose chart is local. Each gives the values it renders the chart with (Flux:
// valuesFrom then spec.values; Argo: valueFiles, then values/valuesObject, then parameters; kustomize: valuesFile,
// additionalValuesFiles, then valuesInline) and the release it installs (.Release.Name, .Release.Namespace), as a
// values scenario of the chart. Pure: the files a deployment names are read through the World the caller gives (the
// language server: the disk as saved; a fixture: its folder). What cannot be read is said on the deployment, at its
// line, never passed over.
import * as path from 'node:path';
import { parseYaml, type YamlDoc } from '../../parse/yaml';
import { includesBy, matchesAfter } from '../../text';
import type { ValuesScenario } from './scenarios';

export interface Span { start: number; end: number }
export type DeploymentKind = 'HelmRelease' | 'Application' | 'ApplicationSet' | 'helmCharts';

/** One deployment of a chart found in a file: what it deploys and with what, before its sources are read. */
export interface Deployment {
  kind: DeploymentKind;
  /** The file it is written in (absolute). */
  file: string;
  /** Its name's value in the file (metadata.name, or the helmCharts entry's name): where its findings go. */
  at: Span;
  name: string;
  /** metadata.namespace (Flux, Argo), or the kustomization's. */
  namespace?: string;
  /** The chart as written (a path) and where it is looked for from. */
  chartPath: string;
  /** Where the chart path is relative to: the repository (Flux, Argo) or the kustomization's folder (helmCharts). */
  base: 'repository' | 'kustomization';
  release: { name: string; namespace: string };
  /** The values sources, in the order they are merged (the later wins). */
  sources: ValuesSource[];
  /** Why it is not checked at all (its chart is another repository's, generator parameters …): said on it. */
  notChecked?: string;
  /** Flux: the source the chart comes from. */
  sourceRef?: { kind: string; name: string; namespace?: string; at: Span };
  /** Argo: the repository URL. */
  repoURL?: { url: string; at: Span };
}

export type ValuesSource =
  | { kind: 'inline'; what: string; values: unknown; at: Span }
  | { kind: 'yaml-text'; what: string; text: string; at: Span }
  | { kind: 'file'; what: string; path: string; relTo: 'chart' | 'kustomization' | 'repository'; at: Span; optional?: boolean }
  | { kind: 'object'; what: string; objectKind: 'ConfigMap' | 'Secret'; name: string; namespace: string; key: string; targetPath?: string; optional: boolean; at: Span }
  | { kind: 'set'; what: string; name: string; value: string; forceString: boolean; at: Span };

/** A ConfigMap or Secret of the workspace (valuesFrom reads one by kind, namespace and name). */
export interface ValuesObject { kind: 'ConfigMap' | 'Secret'; name: string; namespace: string; file: string; data: Record<string, string>; undecoded?: string[] }
/** A Flux source of the workspace (a HelmRelease's sourceRef). */
export interface FluxSource { kind: string; name: string; namespace: string; url?: string; file: string }

/** What a file holds for deployments: the deployments, the ConfigMaps/Secrets and the Flux sources. */
export interface FileDeployments { deployments: Deployment[]; objects: ValuesObject[]; sources: FluxSource[] }

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Whether a text may hold a deployment, a values object or a Flux source (a cheap test before parsing). */
export function mayHoldDeployment(text: string): boolean {
  return /helm\.toolkit\.fluxcd\.io|argoproj\.io|helmCharts["']?\s*:|source\.toolkit\.fluxcd\.io|kind["']?\s*:\s*["']?(ConfigMap|Secret)\b/.test(text);
}

const FLUX_HR = /^helm\.toolkit\.fluxcd\.io\/v2(beta1|beta2)?$/;
const FLUX_SOURCE = /^source\.toolkit\.fluxcd\.io\/v1(beta1|beta2)?$/;
const ARGO = /^argoproj\.io\/v1alpha1$/;

/** A chart given as a path (`./charts/x`, `charts/x`), not a chart name of a Helm repository. */
const isPath = (s: string) => s.startsWith('.') || s.includes('/');

/**
 * Whether a text may hold a deployment itself (a file without one needs no world to be read for it): it names
 * helm.toolkit.fluxcd.io or argoproj.io, or has a helmCharts key, plain or quoted (YAML allows `"helmCharts":`; a
 * kustomization written so was passed over). Substring searches by a short piece of each name (text.ts indexOfBy), not
 * a regex alternation: 12.5 ms of every check of an 11.7 MB bundle by the whole names, 1.3 ms by the pieces
 * (test/gitops-deployments compares with the expression). The workspace walk (root-facts.ts) asks the same.
 */
export function mayDeploy(text: string): boolean {
  return includesBy(text, 'helm.toolkit.fluxcd.io', 'xcd.io') || includesBy(text, 'argoproj.io', 'j.io')
    || matchesAfter(text, 'helmCharts', HELM_CHARTS_KEY, 'Charts');
}
const HELM_CHARTS_KEY = /helmCharts["']?\s*:/y;

/** The deployments, values objects and Flux sources of one file's text. */
export function scanDeployments(file: string, text: string): FileDeployments {
  const out: FileDeployments = { deployments: [], objects: [], sources: [] };
  if (!mayHoldDeployment(text)) return out;
  const yaml = parseYaml(text);
  for (const doc of yaml.docs) {
    if (doc.empty || doc.errors.length || !isObj(doc.value)) continue;
    const v = doc.value;
    const loc = (p: Array<string | number>): Span => { const l = doc.locate(p); return { start: l.value.start, end: l.value.end }; };
    const apiVersion = str(v.apiVersion) ?? '', kind = str(v.kind) ?? '';
    if (!apiVersion && !kind && Array.isArray(v.helmCharts)) { kustomizeCharts(file, doc, v, out); continue; }
    if (/kustomize\.config\.k8s\.io/.test(apiVersion) && kind === 'Kustomization' && Array.isArray(v.helmCharts)) { kustomizeCharts(file, doc, v, out); continue; }
    const meta = isObj(v.metadata) ? v.metadata : {};
    const name = str(meta.name), namespace = str(meta.namespace);
    if (apiVersion === 'v1' && (kind === 'ConfigMap' || kind === 'Secret') && name) {
      const data: Record<string, string> = {};
      const undecoded: string[] = [];
      if (kind === 'Secret' && isObj(v.data)) {
        for (const [k, x] of Object.entries(v.data)) {
          const d = typeof x === 'string' ? decodeBase64(x) : undefined;
          if (d === undefined) undecoded.push(k); else data[k] = d;
        }
      } else if (isObj(v.data)) for (const [k, x] of Object.entries(v.data)) if (typeof x === 'string') data[k] = x;
      if (kind === 'Secret' && isObj(v.stringData)) for (const [k, x] of Object.entries(v.stringData)) if (typeof x === 'string') data[k] = x;
      out.objects.push({ kind, name, namespace: namespace ?? 'default', file, data, ...(undecoded.length ? { undecoded } : {}) });
      continue;
    }
    if (FLUX_SOURCE.test(apiVersion) && /^(GitRepository|OCIRepository|Bucket)$/.test(kind) && name) {
      out.sources.push({ kind, name, namespace: namespace ?? 'default', url: str(v.spec?.url) ?? str(v.spec?.endpoint), file });
      continue;
    }
    if (FLUX_HR.test(apiVersion) && kind === 'HelmRelease' && name) {
      const spec = isObj(v.spec) ? v.spec : {};
      const cs = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec : undefined;
      const chart = str(cs?.chart);
      // A chart of a Helm repository (a name) or a chartRef: not a chart of this repository (ops-pins reads its version).
      if (!cs || !chart || !isPath(chart)) continue;
      const ref = isObj(cs.sourceRef) ? cs.sourceRef : {};
      const ns = namespace ?? 'default';
      const targetNs = str(spec.targetNamespace);
      const sources: ValuesSource[] = [];
      // chart.spec.valuesFiles: files of the source (paths from its root) that replace the chart's defaults, in order.
      if (Array.isArray(cs.valuesFiles)) cs.valuesFiles.forEach((f: unknown, i: number) => {
        if (typeof f === 'string') sources.push({ kind: 'file', what: `chart.spec.valuesFiles ${f}`, path: f, relTo: 'repository', at: loc(['spec', 'chart', 'spec', 'valuesFiles', i]), optional: cs.ignoreMissingValuesFiles === true });
      });
      if (Array.isArray(spec.valuesFrom)) {
        spec.valuesFrom.forEach((f: unknown, i: number) => {
          if (!isObj(f)) return;
          const k = f.kind === 'Secret' ? 'Secret' : 'ConfigMap';
          const n = str(f.name) ?? '';
          const key = str(f.valuesKey) ?? 'values.yaml';
          sources.push({ kind: 'object', what: `valuesFrom ${k} ${ns}/${n}${f.valuesKey ? ` (key ${key})` : ''}${f.targetPath ? ` at ${f.targetPath}` : ''}`, objectKind: k, name: n, namespace: ns, key, targetPath: str(f.targetPath), optional: f.optional === true, at: loc(['spec', 'valuesFrom', i, ...('name' in f ? ['name'] : [])]) });
        });
      }
      if (isObj(spec.values)) sources.push({ kind: 'inline', what: 'spec.values', values: spec.values, at: loc(['spec', 'values']) });
      const rk = str(ref.kind) ?? 'GitRepository';
      out.deployments.push({
        kind: 'HelmRelease', file, at: loc(['metadata', 'name']), name, namespace: ns, chartPath: chart, base: 'repository',
        // Flux's default release name: <targetNamespace>-<name> when a target namespace is set, else the name.
        release: { name: str(spec.releaseName) ?? (targetNs ? `${targetNs}-${name}` : name), namespace: targetNs ?? ns },
        sources,
        ...(rk === 'HelmRepository' ? { notChecked: `its chart ${chart} comes from a HelmRepository, not from this repository` } : {}),
        sourceRef: { kind: rk, name: str(ref.name) ?? '', namespace: str(ref.namespace), at: loc(['spec', 'chart', 'spec', 'sourceRef']) },
      });
      continue;
    }
    if (ARGO.test(apiVersion) && (kind === 'Application' || kind === 'ApplicationSet') && name) {
      const appSet = kind === 'ApplicationSet';
      const tmpl = appSet ? (isObj(v.spec?.template) ? v.spec.template : undefined) : v;
      if (!tmpl) continue;
      const base = appSet ? ['spec', 'template'] : [];
      const spec = isObj(tmpl.spec) ? tmpl.spec : {};
      const appName = appSet ? str(tmpl.metadata?.name) ?? name : name;
      const list: Array<{ s: Record<string, any>; p: Array<string | number> }> = [];
      if (isObj(spec.source)) list.push({ s: spec.source, p: [...base, 'spec', 'source'] });
      if (Array.isArray(spec.sources)) spec.sources.forEach((s: unknown, i: number) => { if (isObj(s)) list.push({ s, p: [...base, 'spec', 'sources', i] }); });
      const destNs = str(spec.destination?.namespace) ?? 'default';
      for (const { s, p } of list) {
        const srcPath = str(s.path);
        // A Helm repository's chart (`chart:`) or a source that only holds `$ref` values files: not a path of a repository.
        if (!srcPath || str(s.chart)) continue;
        const helm = isObj(s.helm) ? s.helm : {};
        // A directory of manifests or a kustomization (no helm: section) is Helm's only if a Chart.yaml is there; the
        // resolver decides (a path with no Chart.yaml and no helm: is not a chart deployment).
        const sources: ValuesSource[] = [];
        if (Array.isArray(helm.valueFiles)) helm.valueFiles.forEach((f: unknown, i: number) => {
          if (typeof f === 'string') sources.push({ kind: 'file', what: `valueFiles ${f}`, path: f, relTo: 'chart', at: loc([...p, 'helm', 'valueFiles', i]), optional: helm.ignoreMissingValueFiles === true });
        });
        // valuesObject takes precedence over values (Argo CD merges values, then valuesObject over it).
        if (typeof helm.values === 'string') sources.push({ kind: 'yaml-text', what: 'helm.values', text: helm.values, at: loc([...p, 'helm', 'values']) });
        else if (isObj(helm.values)) sources.push({ kind: 'inline', what: 'helm.values', values: helm.values, at: loc([...p, 'helm', 'values']) });
        if (isObj(helm.valuesObject)) sources.push({ kind: 'inline', what: 'helm.valuesObject', values: helm.valuesObject, at: loc([...p, 'helm', 'valuesObject']) });
        if (Array.isArray(helm.parameters)) helm.parameters.forEach((x: unknown, i: number) => {
          if (isObj(x) && str(x.name)) sources.push({ kind: 'set', what: `parameters ${x.name}=${x.value ?? ''}`, name: x.name, value: x.value === undefined || x.value === null ? '' : String(x.value), forceString: x.forceString === true, at: loc([...p, 'helm', 'parameters', i]) });
        });
        const templated = appSet && /\{\{|\$\{/.test(JSON.stringify({ srcPath, repo: s.repoURL, helm, destNs, appName }));
        out.deployments.push({
          kind: kind as 'Application' | 'ApplicationSet', file, at: loc(['metadata', 'name']), name: appName, namespace, chartPath: srcPath, base: 'repository',
          release: { name: str(helm.releaseName) ?? appName, namespace: destNs }, sources,
          ...(templated ? { notChecked: 'its template takes generator parameters (`{{ }}`), which are not evaluated: the applications it generates are not checked with the chart' } : {}),
          ...(str(s.repoURL) ? { repoURL: { url: s.repoURL, at: loc([...p, 'repoURL']) } } : {}),
        });
      }
    }
  }
  return out;
}

function kustomizeCharts(file: string, doc: YamlDoc, v: Record<string, any>, out: FileDeployments): void {
  const home = str(v.helmGlobals?.chartHome) ?? 'charts';
  const loc = (p: Array<string | number>): Span => { const l = doc.locate(p); return { start: l.value.start, end: l.value.end }; };
  v.helmCharts.forEach((c: unknown, i: number) => {
    if (!isObj(c) || !str(c.name)) return;
    // A chart of a Helm repository (`repo:`) is pulled by kustomize, not this repository's (ops-pins reads its version).
    if (str(c.repo) && !/^file:/.test(c.repo)) return;
    const sources: ValuesSource[] = [];
    if (str(c.valuesFile)) sources.push({ kind: 'file', what: `valuesFile ${c.valuesFile}`, path: c.valuesFile, relTo: 'kustomization', at: loc(['helmCharts', i, 'valuesFile']) });
    if (Array.isArray(c.additionalValuesFiles)) c.additionalValuesFiles.forEach((f: unknown, j: number) => {
      if (typeof f === 'string') sources.push({ kind: 'file', what: `additionalValuesFiles ${f}`, path: f, relTo: 'kustomization', at: loc(['helmCharts', i, 'additionalValuesFiles', j]) });
    });
    if (isObj(c.valuesInline)) sources.push({ kind: 'inline', what: 'valuesInline', values: c.valuesInline, at: loc(['helmCharts', i, 'valuesInline']) });
    const ns = str(c.namespace) ?? str(v.namespace) ?? 'default';
    out.deployments.push({
      kind: 'helmCharts', file, at: loc(['helmCharts', i, 'name']), name: c.name, namespace: ns,
      chartPath: `${home.replace(/\/+$/, '')}/${c.name}`, base: 'kustomization',
      // kustomize's default release name (api/types/helmchartargs.go): "release-name".
      release: { name: str(c.releaseName) ?? 'release-name', namespace: ns }, sources,
    });
  });
}

function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length % 4) return undefined;
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bytes: number[] = [];
  let buf = 0, bits = 0;
  for (const ch of t) {
    if (ch === '=') break;
    buf = (buf << 6) | abc.indexOf(ch);
    bits += 6;
    if (bits >= 8) { bits -= 8; bytes.push((buf >> bits) & 0xff); }
  }
  try { return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes)); } catch { return undefined; }
}

/** Where the resolver reads what deployments name (the language server: the disk as saved, bounded). */
export interface World {
  /** The workspace folder: a chart path is looked for from the deployment's folder up to it. */
  root?: string;
  /** This repository's remote URLs (.git/config), normalised (normaliseRepoUrl). */
  remotes: string[];
  /** Why no remote is known (no .git/config, unreadable …): said where a URL had to be taken as this repository. */
  remotesNote?: string;
  /**
   * The URLs the configuration of a deployment's file says name this repository (helm.repositories), with where that
   * is said: they win over the remotes (a clone's remotes need not be the URLs the deployments name).
   */
  repositoriesFor?(file: string): { urls: string[]; said: string } | undefined;
  objects: ValuesObject[];
  sources: FluxSource[];
  /** A file's text (undefined: missing or not read; `unreadable` says why when it is there). */
  read(abs: string): string | undefined;
  unreadable?(abs: string): string | undefined;
  /** What the walk that found the objects and sources did not see (said where a lookup failed). */
  notRead?: string;
}

/** A deployment with its chart found and its values read. */
export interface ResolvedDeployment {
  deployment: Deployment;
  /** The chart's folder (absolute), when it is in the workspace. */
  chartDir?: string;
  values: Record<string, unknown>;
  /** Each source as read ("spec.values", "valuesFrom ConfigMap db/x (flux/values.yaml)"). */
  read: Array<{ what: string; from?: string }>;
  /**
   * What could not be read or decided, at its place in the deployment's file. `notChecked`: the workspace's chart is
   * not checked with the values it is deployed with (a values source not read); a chart that is not in the workspace
   * is said without it (no file of the workspace goes unchecked, and it may be another repository's).
   */
  problems: Array<{ message: string; at: Span; notChecked?: boolean }>;
  /** Not a deployment of this repository's chart: nothing to check (another repository's, a Helm repository's). */
  foreign?: string;
  scenario: ValuesScenario;
}

/** A repository URL compared as git compares remotes: host and path, without scheme, user, `.git` or a trailing slash. */
export function normaliseRepoUrl(url: string): string {
  let u = url.trim().toLowerCase();
  u = u.replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '');
  // scp-like git@host:path
  u = u.replace(/^([^/:]+):(?!\d+\/)/, '$1/');
  u = u.replace(/:\d+\//, '/');
  return u.replace(/\.git$/, '').replace(/\/+$/, '');
}

/** The remote URLs of a `.git/config`'s text. */
export function remotesOfGitConfig(text: string): string[] {
  const out: string[] = [];
  let inRemote = false;
  for (const line of text.split(/\r?\n/)) {
    const sec = /^\s*\[\s*([^\]\s]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (sec) { inRemote = sec[1].toLowerCase() === 'remote'; continue; }
    const m = inRemote ? /^\s*url\s*=\s*(.+?)\s*$/i.exec(line) : null;
    if (m) out.push(normaliseRepoUrl(m[1]));
  }
  return out;
}

const rel = (root: string | undefined, p: string) => (root ? path.relative(root, p).split(path.sep).join('/') : '') || p;

/** The 1-based line of an offset. */
export function lineAt(text: string, at: number): number {
  let n = 1;
  for (let i = 0; i < at && i < text.length; i++) { const c = text.charCodeAt(i); if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++; }
  return n;
}

/** "HelmRelease db/backup", "Application argocd/web", "helmCharts backup". */
export function deploymentName(d: Deployment): string {
  return d.kind === 'helmCharts' ? `kustomize helmCharts ${d.name}` : `${d.kind} ${d.namespace ? `${d.namespace}/` : ''}${d.name}`;
}

/**
 * The chart folder of a path: from the deployment's folder up to the workspace folder, the first where `<dir>/<path>`
 * holds a Chart.yaml (a repository's paths are its root's; the workspace may be the repository or a folder in it).
 */
function findChart(d: Deployment, world: World): string | undefined {
  const chartYaml = (dir: string) => world.read(path.join(dir, 'Chart.yaml')) !== undefined;
  const clean = d.chartPath.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (d.base === 'kustomization') {
    const dir = path.resolve(path.dirname(d.file), clean);
    return chartYaml(dir) ? dir : undefined;
  }
  let dir = path.dirname(d.file);
  for (let i = 0; i < 32; i++) {
    const cand = path.resolve(dir, clean);
    if (chartYaml(cand)) return cand;
    if (world.root && (dir === world.root || !dir.startsWith(world.root))) break;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The URLs that name this repository for a deployment's file: the configuration's (helm.repositories), else the git remotes. */
function thisRepository(file: string, world: World): { urls: string[]; said: string; note?: string } {
  const declared = world.repositoriesFor?.(file);
  if (declared) return { urls: declared.urls.map(normaliseRepoUrl), said: declared.said };
  return { urls: world.remotes, said: `its remotes: ${world.remotes.join(', ')}`, note: world.remotesNote };
}

/** Whether the deployment's chart is this repository's: its source or repoURL (undefined) or why not (a string). */
function foreignWhy(d: Deployment, world: World): string | undefined {
  const mine = thisRepository(d.file, world);
  if (d.kind === 'HelmRelease' && d.sourceRef) {
    const ref = d.sourceRef;
    const ns = ref.namespace ?? d.namespace ?? 'default';
    if (ref.kind !== 'GitRepository') return undefined; // an OCIRepository or Bucket built from this repository's files
    const src = nearest(d.file, world.sources.filter((s) => s.kind === 'GitRepository' && s.name === ref.name && s.namespace === ns))[0];
    const gits = world.sources.filter((s) => s.kind === 'GitRepository');
    if (!src) return undefined; // not in the workspace: taken as this repository (said in the sources)
    if (gits.length === 1 && !world.repositoriesFor?.(d.file)) return undefined;
    if (src.url && mine.urls.length && mine.urls.includes(normaliseRepoUrl(src.url))) return undefined;
    if (!mine.urls.length) return undefined;
    return `its GitRepository ${ns}/${ref.name} (${src.url ?? 'no url'}) is not this repository (${mine.said})`;
  }
  if ((d.kind === 'Application' || d.kind === 'ApplicationSet') && d.repoURL && mine.urls.length && !mine.urls.includes(normaliseRepoUrl(d.repoURL.url))) {
    return `its repoURL ${d.repoURL.url} is not this repository (${mine.said})`;
  }
  return undefined;
}

/**
 * Of the objects of one name, those nearest to a deployment: in its own file, else in the folder sharing the longest
 * path with it (a repository of per-cluster folders holds one ConfigMap of a name per cluster; Flux applies a folder's
 * tree). Several at the same nearness stay several (which one the cluster has is not known).
 */
function nearest<T extends { file: string }>(from: string, list: T[]): T[] {
  if (list.length < 2) return list;
  const own = list.filter((x) => x.file === from);
  if (own.length) return own;
  const segs = (p: string) => path.dirname(p).split(/[\\/]+/);
  const mine = segs(from);
  const depth = (x: T) => { const o = segs(x.file); let i = 0; while (i < o.length && i < mine.length && o[i] === mine[i]) i++; return i; };
  const best = list.reduce((m, x) => Math.max(m, depth(x)), 0);
  return list.filter((x) => depth(x) === best);
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (!isObj(base) || !isObj(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(base[k]) ? deepMerge(base[k], v) : v;
  return out;
}

/** `a.b[0].c` as Helm's --set reads a name (a `\.` is a dot of the key). */
function setPath(name: string): Array<string | number> {
  const out: Array<string | number> = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '\\' && i + 1 < name.length) { cur += name[++i]; continue; }
    if (c === '.') { out.push(cur); cur = ''; continue; }
    if (c === '[') {
      const j = name.indexOf(']', i);
      const n = j > i ? Number(name.slice(i + 1, j)) : NaN;
      if (Number.isInteger(n) && n >= 0) { if (cur) out.push(cur); cur = ''; out.push(n); i = j; if (name[i + 1] === '.') i++; continue; }
    }
    cur += c;
  }
  if (cur || !out.length) out.push(cur);
  return out;
}

/** A --set value as Helm types it (strvals): true/false, null, an integer, else a string. */
function setValue(v: string, forceString: boolean): unknown {
  if (forceString) return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?(0|[1-9]\d{0,17})$/.test(v)) return Number(v);
  return v;
}

function setAt(obj: Record<string, unknown>, p: Array<string | number>, value: unknown): void {
  let cur: any = obj;
  for (let i = 0; i < p.length - 1; i++) {
    const k = p[i];
    const nextIsIndex = typeof p[i + 1] === 'number';
    if (cur[k] === undefined || cur[k] === null || typeof cur[k] !== 'object') cur[k] = nextIsIndex ? [] : {};
    cur = cur[k];
  }
  cur[p[p.length - 1]] = value;
}

const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** Reads a deployment's chart and values through the world. */
export function resolveDeployment(d: Deployment, world: World): ResolvedDeployment {
  const problems: ResolvedDeployment['problems'] = [];
  const read: ResolvedDeployment['read'] = [];
  let values: Record<string, unknown> = {};
  const foreign = d.notChecked ? undefined : foreignWhy(d, world);
  const chartDir = d.notChecked || foreign ? undefined : findChart(d, world);
  const scenarioOf = (): ValuesScenario => ({
    id: `${d.kind}:${d.file}:${d.at.start}`, label: '', values, file: d.file,
    release: { name: d.release.name, namespace: d.release.namespace },
  });
  if (d.notChecked) problems.push({ notChecked: true, message: `${deploymentName(d)} is not checked with its chart: ${d.notChecked}`, at: d.at });
  if (d.notChecked || foreign) return { deployment: d, values, read, problems, scenario: scenarioOf(), ...(foreign ? { foreign } : {}) };
  if (!chartDir) {
    problems.push({ message: `${deploymentName(d)} deploys the chart ${d.chartPath}, which is not in the workspace (no ${d.chartPath.replace(/\/+$/, '')}/Chart.yaml ${d.base === 'kustomization' ? 'beside the kustomization' : `from ${rel(world.root, path.dirname(d.file)) || '.'} up to the workspace folder`}), so its values are not checked with the chart`, at: d.at });
    return { deployment: d, values, read, problems, scenario: scenarioOf() };
  }
  if (d.kind === 'HelmRelease' && d.sourceRef) {
    const ref = d.sourceRef, ns = ref.namespace ?? d.namespace ?? 'default';
    const src = nearest(d.file, world.sources.filter((s) => s.kind === ref.kind && s.name === ref.name && s.namespace === ns))[0];
    const note = thisRepository(d.file, world).note;
    read.push({ what: `chart ${d.chartPath} from ${ref.kind} ${ns}/${ref.name}`, from: src ? `${rel(world.root, src.file)}${src.url ? `, ${src.url}` : ''}${ref.kind === 'GitRepository' ? '' : ': taken as built from this repository'}` : `not in the workspace: taken as this repository${note ? ` (${note})` : ''}` });
  } else if (d.repoURL) {
    const mine = thisRepository(d.file, world);
    read.push({ what: `chart ${d.chartPath} of ${d.repoURL.url}`, from: mine.urls.length ? `this repository (${world.repositoriesFor?.(d.file) ? mine.said : 'its git remote'})` : `taken as this repository${mine.note ? ` (${mine.note})` : ''}` });
  } else read.push({ what: `chart ${d.chartPath}` });
  for (const s of d.sources) {
    if (s.kind === 'inline') { values = deepMerge(values, clone(s.values)) as Record<string, unknown>; read.push({ what: s.what }); continue; }
    if (s.kind === 'set') { setAt(values, setPath(s.name), setValue(s.value, s.forceString)); read.push({ what: s.what }); continue; }
    if (s.kind === 'yaml-text') {
      const got = yamlValues(s.text);
      if ('problem' in got) { problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${got.problem}`, at: s.at }); continue; }
      values = deepMerge(values, got.values) as Record<string, unknown>;
      read.push({ what: s.what });
      continue;
    }
    if (s.kind === 'file') {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s.path) || s.path.startsWith('$')) {
        problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${s.path.startsWith('$') ? 'a value file of another source (`$ref`)' : 'a URL'} is not read (offline)`, at: s.at });
        continue;
      }
      // The repository's root as the chart was found from it: the chart folder less the chart's path.
      const repoBase = path.resolve(chartDir, ...d.chartPath.replace(/^\.\/+/, '').replace(/\/+$/, '').split('/').filter(Boolean).map(() => '..'));
      const abs = path.resolve(s.relTo === 'chart' ? chartDir : s.relTo === 'repository' ? repoBase : path.dirname(d.file), s.path);
      const text = world.read(abs);
      if (text === undefined) {
        if (s.optional) { read.push({ what: s.what, from: `${rel(world.root, abs)}: missing, ignored (ignoreMissingValueFiles)` }); continue; }
        const why = world.unreadable?.(abs);
        problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${rel(world.root, abs)} ${why ? `cannot be read (${why})` : 'is not in the workspace'}, so the chart is not rendered with the values it deploys`, at: s.at });
        continue;
      }
      const got = yamlValues(text);
      if ('problem' in got) { problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${rel(world.root, abs)} ${got.problem}`, at: s.at }); continue; }
      values = deepMerge(values, got.values) as Record<string, unknown>;
      read.push({ what: s.what, from: rel(world.root, abs) });
      continue;
    }
    // valuesFrom: a ConfigMap or Secret of the workspace, the nearest to the deployment (per-cluster folders repeat one).
    const found = nearest(d.file, world.objects.filter((o) => o.kind === s.objectKind && o.name === s.name && o.namespace === s.namespace));
    if (!found.length) {
      if (s.optional) { read.push({ what: s.what, from: 'not in the workspace: optional, ignored' }); continue; }
      problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: no ${s.objectKind} ${s.namespace}/${s.name} in the workspace${world.notRead ? ` (${world.notRead})` : ''}, so the chart is not rendered with the values it deploys`, at: s.at });
      continue;
    }
    if (found.length > 1) {
      problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${found.length} ${s.objectKind}s ${s.namespace}/${s.name} in the workspace (${found.map((o) => rel(world.root, o.file)).join(', ')}); which one the cluster has is not known`, at: s.at });
      continue;
    }
    const o = found[0];
    const raw = o.data[s.key];
    if (raw === undefined) {
      if (s.optional) { read.push({ what: s.what, from: `${rel(world.root, o.file)}: no key ${s.key}, optional, ignored` }); continue; }
      problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: ${o.kind} ${o.namespace}/${o.name} (${rel(world.root, o.file)}) has no ${o.undecoded?.includes(s.key) ? 'decodable ' : ''}key ${s.key}`, at: s.at });
      continue;
    }
    if (s.targetPath) {
      // Flux sets the value at the path as a string (strvals, as --set-string … but typed as --set does).
      setAt(values, setPath(s.targetPath), setValue(raw.trim(), false));
      read.push({ what: s.what, from: rel(world.root, o.file) });
      continue;
    }
    const got = yamlValues(raw);
    if ('problem' in got) { problems.push({ notChecked: true, message: `not checked with ${deploymentName(d)}'s ${s.what}: key ${s.key} of ${rel(world.root, o.file)} ${got.problem}`, at: s.at }); continue; }
    values = deepMerge(values, got.values) as Record<string, unknown>;
    read.push({ what: s.what, from: rel(world.root, o.file) });
  }
  return { deployment: d, chartDir, values, read, problems, scenario: scenarioOf() };
}

function yamlValues(text: string): { values: Record<string, unknown> } | { problem: string } {
  const y = parseYaml(text);
  const err = y.errors[0];
  if (err) return { problem: `does not parse as YAML (${err.message.split('\n')[0]})` };
  const doc = y.docs.find((x) => !x.empty);
  if (!doc || doc.value === null || doc.value === undefined) return { values: {} };
  if (!isObj(doc.value)) return { problem: 'is not a mapping of values' };
  return { values: clone(doc.value) as Record<string, unknown> };
}

/** The label a finding names a deployment by: "HelmRelease db/backup (flux/backup.yaml:12)". */
export function labelOf(d: Deployment, line: number, root?: string): string {
  return `${deploymentName(d)} (${rel(root, d.file)}:${line})`;
}

/**
 * The facts of the workspace's deployments for a family's rules (NeighbourFacts.helmDeployments): the world they are
 * read in, and those that deploy a chart folder, resolved (as saved: the same whatever is open).
 */
export interface DeploymentFacts {
  world: World;
  /** The deployments whose chart is the folder `chartDir` (absolute), resolved, in file and position order. */
  forChart(chartDir: string): ResolvedDeployment[];
}

/** Deployment facts from every file's scan (the language server's index builds them from the disk). */
export function deploymentFacts(scans: Array<{ file: string; text: string; scan: FileDeployments }>, world: Omit<World, 'objects' | 'sources'>): DeploymentFacts {
  const full: World = { ...world, objects: scans.flatMap((s) => s.scan.objects), sources: scans.flatMap((s) => s.scan.sources) };
  let byChart: Map<string, ResolvedDeployment[]> | undefined;
  return {
    world: full,
    forChart(chartDir) {
      if (!byChart) {
        byChart = new Map();
        for (const s of scans) {
          for (const d of s.scan.deployments) {
            const r = resolveDeployment(d, full);
            if (!r.chartDir) continue;
            r.scenario.label = r.scenario.id = labelOf(d, lineAt(s.text, d.at.start), world.root);
            r.scenario.line = lineAt(s.text, d.at.start);
            const k = path.resolve(r.chartDir);
            let l = byChart.get(k);
            if (!l) byChart.set(k, (l = []));
            l.push(r);
          }
        }
      }
      return byChart.get(path.resolve(chartDir)) ?? [];
    },
  };
}
