// The operator versions a workspace pins (issue #31 item 3), read from its files' parsed documents; pure (no I/O: the
// server hands the files in, server/operator-pins.ts). Where a version is pinned:
//   - a chart's dependencies (Chart.yaml, or requirements.yaml of apiVersion v1 charts) and a kustomization's helmCharts:
//     name + repository + version,
//   - a Flux HelmRelease (helm.toolkit.fluxcd.io v2beta1/v2beta2/v2): spec.chart.spec.chart/version with its sourceRef
//     resolved to a HelmRepository of the workspace (its spec.url), or spec.chartRef to an OCIRepository (url + ref.tag),
//   - an Argo CD Application (spec.source / spec.sources[]) or ApplicationSet template: chart + repoURL + targetRevision,
//   - a kustomization's remote resource URL with a tag (a release download URL, a remote base's ?ref=),
//   - an operator image's tag: kustomization.yaml images: (newTag), a Deployment/StatefulSet/DaemonSet container.
// A chart version becomes an operator version through data/operators/charts.json (scripts/import-operator-charts.mjs):
// a map read from the chart's own Chart.yaml at each tag, or the rule "chart version = operator version". A version
// range (`~1.14.0`, `1.x`) is read as Helm reads it (Masterminds semver, the Helm family's template/semver.ts) and gives
// the lowest and the highest operator version the range admits among the known rows: two pins, a window.
import type { OperatorPin } from './operator-pins-type';
import { loadJson } from '../data';
import { parseYaml, detached, type YamlDoc } from '../parse/yaml';
import { LineIndex, own } from '../text';
import { parseImage } from '../image-ref';
import { parseConstraints, checkConstraints, parseVersion, compareSemver } from '../families/helm-chart/template/semver';
import { leadingMinor, normalizeVersion, compareMinor } from '../versions';

export type { OperatorPin } from './operator-pins-type';

interface ChartRule { chart: string; repoUrls: string[]; oci?: string; alias: string; rule: 'map' | 'equals' | 'none'; vPrefix?: boolean; table?: string; why?: string; says: string; source: string }
type ImageRule = { repo?: string; path?: string; prefix?: string; skip?: string; from?: string; why?: string };
type ManifestRule = { pattern?: string; ref?: boolean; minor?: boolean; skip?: string; from?: string; why?: string };
interface OperatorEntry { repo: string; charts: ChartRule[]; images: ImageRule[]; manifests: ManifestRule[]; releases: Array<[string, string]>; source: string }
export interface OperatorChartData {
  operators: Record<string, OperatorEntry>;
  chartTables: Record<string, { repo: string; chartPath: string; snapshotHead: string; source: string; rows: Array<[string, string | null, string]> }>;
}

export const operatorChartData = (): OperatorChartData => loadJson<OperatorChartData>('data/operators/charts.json');

/** The operator ids the data knows (the 14 of issue #31). */
export const pinnedOperatorIds = (): string[] => Object.keys(operatorChartData().operators);

// ---- versions ----

/** "v1.14.2" -> "1.14.2"; "3.0" -> "3.0"; a tag with a suffix ("v1.19.0-distroless") keeps its numbers; else undefined. */
export function versionOfTag(tag: string): string | undefined {
  const t = tag.trim();
  const minor = leadingMinor(t);
  if (!minor) return undefined;
  // X.Y or X.Y.Z, then at most a pre-release or build suffix.
  const parts = normalizeVersion(t).split(/[-+]/)[0].split('.');
  if (parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return undefined;
  return parts.length === 3 ? `${minor}.${Number(parts[2])}` : minor;
}

const plain = (v: string): boolean => /^v?\d+\.\d+\.\d+$/.test(v.trim());

function semverSort(vs: string[]): string[] {
  const parsed = [...new Set(vs)].map((v) => ({ v, s: parseVersion(v) }));
  return parsed.sort((a, b) => (typeof a.s === 'string' || typeof b.s === 'string' ? (a.v < b.v ? -1 : 1) : compareSemver(a.s, b.s))).map((x) => x.v);
}

/** What one chart version (or range) of an operator's chart means: the operator versions (lowest, highest), and how. */
export interface ChartVersionMeaning { versions: string[]; how: string; range: boolean }

/**
 * The operator versions a chart version pins: exact (one) or a range (the lowest and highest it admits among the known
 * chart rows, or for charts whose version is the operator's, among the operator releases the data read: their latest
 * patches). A string: why it pins nothing (not in the map, a range that admits no known row, a chart that pins none).
 */
export function operatorVersionsOfChart(operator: string, chart: ChartRule, version: string): ChartVersionMeaning | string {
  const data = operatorChartData();
  const v = version.trim();
  if (chart.rule === 'none') return `chart ${chart.chart} pins no ${operator} version (${chart.why ?? 'no appVersion'})`;
  const exact = plain(v);
  if (chart.rule === 'equals') {
    if (exact) return { versions: [versionOfTag(v)!], how: `chart ${v} (chart version = ${operator} version)`, range: false };
    const cs = parseConstraints(v);
    if (typeof cs === 'string') return `chart version "${v}" is no version or range (${cs})`;
    const known = data.operators[operator].releases.map(([, tag]) => versionOfTag(tag.replace(/^[a-z-]+(?=v?\d)/, ''))).filter((x): x is string => !!x && plain(x));
    const ok = known.filter((k) => { const s = parseVersion(k); return typeof s !== 'string' && checkConstraints(cs, s); });
    if (!ok.length) return `chart version range "${v}" admits none of the ${operator} releases the data knows (${known[0]} .. ${known.at(-1)})`;
    const sorted = semverSort(ok);
    return { versions: sorted.length > 1 ? [sorted[0], sorted.at(-1)!] : sorted, how: `chart range ${v} admits ${operator} ${sorted[0]}${sorted.length > 1 ? ` .. ${sorted.at(-1)}` : ''} (latest patches the data knows)`, range: true };
  }
  const table = data.chartTables[chart.table!];
  if (exact) {
    const row = table.rows.find((r) => normalizeVersion(r[0]) === normalizeVersion(v));
    if (!row) return `chart ${chart.chart} ${v} is not in the chart map (${table.repo} ${table.chartPath}: ${table.rows[0][0]} .. ${table.rows.at(-1)![0]})`;
    if (!row[1]) return `chart ${chart.chart} ${v} has a pre-release appVersion (${row[2]})`;
    return { versions: [row[1]], how: `chart ${v} → ${operator} ${row[1]} (${table.repo} ${chart.table} ${row[2].split(' ')[0]})`, range: false };
  }
  const cs = parseConstraints(v);
  if (typeof cs === 'string') return `chart version "${v}" is no version or range (${cs})`;
  const rows = table.rows.filter((r) => { const s = parseVersion(r[0]); return r[1] && typeof s !== 'string' && checkConstraints(cs, s); });
  if (!rows.length) return `chart version range "${v}" admits no chart ${chart.chart} release of the map (${table.rows[0][0]} .. ${table.rows.at(-1)![0]})`;
  const apps = semverSort(rows.map((r) => r[1]!));
  return { versions: apps.length > 1 ? [apps[0], apps.at(-1)!] : apps, how: `chart range ${v} admits chart ${rows[0][0]} .. ${rows.at(-1)![0]} → ${operator} ${apps[0]}${apps.length > 1 ? ` .. ${apps.at(-1)}` : ''}`, range: true };
}

// ---- charts by repository ----

/** A repository URL as compared: no scheme (https://, oci://), no trailing slash, lower case. */
const normUrl = (u: string): string => u.trim().replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '').toLowerCase();

/** Chart names that other projects use too: matched only with a known repository. */
const GENERIC_CHART_NAMES = new Set(['base', 'gateway', 'cni']);

/**
 * The operator chart a (name, repository) names. `repository`: a Helm repository URL, an OCI registry path (oci://… or,
 * as Argo CD writes it, without the scheme), a `helm repo add` alias (`@jetstack`, `alias:jetstack`), or undefined (not
 * known: a HelmRelease whose HelmRepository is not in the workspace). Then only a chart name no other project uses matches.
 */
export function chartOf(name: string, repository: string | undefined): { operator: string; chart: ChartRule; by: string } | undefined {
  const data = operatorChartData();
  const repo = repository?.trim();
  for (const [operator, e] of Object.entries(data.operators)) {
    for (const c of e.charts) {
      if (c.chart !== name) continue;
      if (repo === undefined || repo === '') {
        if (!GENERIC_CHART_NAMES.has(name)) return { operator, chart: c, by: 'chart name (repository not known)' };
        continue;
      }
      const alias = /^(?:@|alias:)(.+)$/.exec(repo);
      if (alias) { if (c.alias.split('/')[0] === alias[1]) return { operator, chart: c, by: `repository alias ${repo}` }; continue; }
      const n = normUrl(repo);
      if (c.repoUrls.some((u) => normUrl(u) === n)) return { operator, chart: c, by: `repository ${repo}` };
      // OCI: the repository is the registry path the chart is under (oci://quay.io/jetstack/charts + cert-manager), or
      // the chart's whole reference.
      if (c.oci && (normUrl(c.oci) === `${n}/${name}` || normUrl(c.oci) === n)) return { operator, chart: c, by: `OCI repository ${repo}` };
    }
  }
  return undefined;
}

// ---- images ----

/** registry/path of an image repository (Docker Hub as docker.io, its official images under library/). */
export function normalizeRepository(repository: string): string {
  const r = repository.trim().toLowerCase();
  const first = r.split('/')[0];
  const hasRegistry = r.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasRegistry) return r.replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\/([^/]+)$/, 'docker.io/library/$2').replace(/^index\.docker\.io\//, 'docker.io/');
  return r.includes('/') ? `docker.io/${r}` : `docker.io/library/${r}`;
}

/** Each operator's image rules, their repositories normalised once (not once per image looked up). */
interface PreparedImageRule { operator: string; repo?: string; repoNorm?: string; path?: string; prefix?: string }
let imageRules: { data: object; rules: PreparedImageRule[] } | undefined;
function imageRulesOf(): PreparedImageRule[] {
  const data = operatorChartData();
  if (imageRules?.data === data) return imageRules.rules;
  const rules: PreparedImageRule[] = [];
  for (const [operator, e] of Object.entries(data.operators)) {
    for (const i of e.images) rules.push({ operator, repo: i.repo || undefined, repoNorm: i.repo ? normalizeRepository(i.repo) : undefined, path: i.path || undefined, prefix: i.prefix || undefined });
  }
  imageRules = { data, rules };
  return rules;
}

/** The operator an image repository belongs to (exactly, behind a mirror prefix, under any registry for a path rule). */
export function operatorOfImage(repository: string): string | undefined {
  const raw = repository.trim().toLowerCase();
  const n = normalizeRepository(repository);
  for (const i of imageRulesOf()) {
    if (i.repo && (n === i.repoNorm || raw.endsWith(`/${i.repo}`) || raw.endsWith(`/${i.repoNorm}`))) return i.operator;
    if (i.path && n.endsWith(`/${i.path}`)) return i.operator;
    if (i.prefix && (n.startsWith(i.prefix) || raw.includes(`/${i.prefix}`))) return i.operator;
  }
  return undefined;
}

// ---- manifest URLs ----

/** The operator version a remote resource URL pins (a release download URL, a kustomize remote base with ?ref=). */
export function operatorOfUrl(url: string): { operator: string; version: string; tag: string } | undefined {
  const u = url.trim().replace(/^git::/, '').replace(/^[a-z]+:\/\//i, '');
  for (const [operator, e] of Object.entries(operatorChartData().operators)) {
    for (const m of e.manifests) {
      if (!m.pattern) continue;
      if (m.ref) {
        if (!u.startsWith(m.pattern)) continue;
        const ref = /[?&]ref=([^&#]+)/.exec(u);
        const v = ref && versionOfTag(ref[1]);
        if (v) return { operator, version: v, tag: ref![1] };
        continue;
      }
      const [before, after] = m.pattern.split('{v}');
      if (!u.startsWith(before)) continue;
      const rest = u.slice(before.length);
      const mm = (m.minor ? /^(\d+\.\d+)(?:\.\d+)?/ : /^(\d+\.\d+\.\d+)/).exec(rest);
      if (!mm || !rest.slice(mm[0].length).startsWith(after)) continue;
      return { operator, version: mm[1], tag: `${before.endsWith('v') ? 'v' : ''}${mm[0]}` };
    }
  }
  return undefined;
}

// ---- reading the files ----

/** A Flux HelmRepository / OCIRepository of the workspace (a HelmRelease's source). */
interface FluxSource { kind: 'HelmRepository' | 'OCIRepository'; name: string; namespace?: string; url: string; tag?: string; semver?: string; file: string; line: number }
/** A HelmRelease whose chart comes from a source named by reference: resolved against the workspace's sources. */
interface PendingRelease { chart?: string; version?: string; ref: { kind: string; name: string; namespace?: string }; file: string; line: number; what: string }

/** What one file says (kept per file by the server; combined across the workspace by pinsOf). */
export interface FilePinScan {
  file: string;
  pins: OperatorPin[];
  sources: FluxSource[];
  pending: PendingRelease[];
  /** Pins that could not be read (a chart version not in the map, a range that admits nothing), with where. */
  unresolved: Array<{ operator: string; file: string; line: number; why: string }>;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const base = (f: string): string => f.split(/[\\/]/).pop() ?? f;

/** Groups whose objects may pin an operator, each without its `.io` (namesPinGroup looks for them before a `.io`). */
const PIN_GROUPS = ['toolkit.fluxcd', 'argoproj', 'kustomize.config.k8s'];
/** Whether the text holds toolkit.fluxcd.io, argoproj.io or kustomize.config.k8s.io anywhere. */
export function namesPinGroup(text: string): boolean {
  // `.io` cannot overlap itself, so each search may start past the last hit.
  for (let at = text.indexOf('.io'); at >= 0; at = text.indexOf('.io', at + 3)) {
    // Indexed: a for-of made an iterator per `.io` until the function was optimised (4 MB per 5,000-document open).
    for (let k = 0; k < PIN_GROUPS.length; k++) if (at >= PIN_GROUPS[k].length && text.startsWith(PIN_GROUPS[k], at - PIN_GROUPS[k].length)) return true;
  }
  return false;
}

/** Text that may hold a pin: a cheap look before a parse (most manifests name no operator). */
function mayHoldPin(file: string, text: string): boolean {
  const b = base(file).toLowerCase();
  if (b === 'chart.yaml' || b === 'requirements.yaml' || /^kustomization(\.ya?ml)?$/.test(b)) return true;
  // Flux HelmRelease/HelmRepository/OCIRepository, Argo CD Application/ApplicationSet, a kustomization by content.
  // One pass over `.io` (the three groups' common end) instead of a search per group: 1.3 ms against 4.9 on 5 MB.
  if (namesPinGroup(text)) return true;
  // An image of an operator (each image value looked up once: most manifests name a few images many times).
  // `image` found by indexOf and the rest read with a sticky expression at it: /\bimage…/g tried every position of the
  // text (7 ms against 5 on the 12 MB bundle with CRDs, 6 against 3 on the 5 MB one without).
  for (let at = text.indexOf('image'); at >= 0; at = text.indexOf('image', at + 5)) {
    if (at > 0 && WORD[text.charCodeAt(at - 1)]) continue;
    IMAGE_VALUE.lastIndex = at;
    const m = IMAGE_VALUE.exec(text);
    if (!m) continue;
    at = IMAGE_VALUE.lastIndex - 5; // the next search from the match's end, as the global expression went on
    // By the value as written: a bundle names a few images thousands of times, and reading each again was most of this.
    let hit = imageMemo.get(m[1]);
    if (hit === undefined) {
      if (imageMemo.size > 4096) imageMemo.clear();
      // (a copy: a slice of the text would keep the whole text alive with the memo)
      imageMemo.set(detached(m[1]), (hit = operatorOfImage(parseImage(m[1]).repository) !== undefined));
    }
    if (hit) return true;
  }
  return false;
}
/** An `image:` value (a container's, a values file's): what may name an operator's image. */
const IMAGE_VALUE = /image[ \t]*:[ \t]*["']?([^\s"'#{}]+)/y;
/** The characters of a \b word (A-Z, a-z, 0-9, _): an `image` after one is not the key. */
const WORD = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_') WORD[c.charCodeAt(0)] = 1;
const imageMemo = new Map<string, boolean>();

/** Reads one file's pins and Flux sources. `text`: its content; YAML only (other files say nothing). */
export function scanFilePins(file: string, text: string, looked = false): FilePinScan {
  const out: FilePinScan = { file, pins: [], sources: [], pending: [], unresolved: [] };
  // `looked`: the caller knows the cheap look says yes (it scanned the same text under a name of the same base).
  if (!/\.ya?ml$/i.test(file) || (!looked && !mayHoldPin(file, text))) return out;
  let docs: YamlDoc[];
  try { docs = parseYaml(text.replace(/^\uFEFF/, '')).docs; } catch { return out; }
  const lines = new LineIndex(text.replace(/^\uFEFF/, ''));
  const b = base(file).toLowerCase();
  for (const doc of docs) {
    if (doc.empty || doc.errors.length || !isObj(doc.value)) continue;
    const v = doc.value;
    const lineOf = (p: Array<string | number>): number => { try { return lines.positionAt(doc.locate(p).value.start).line; } catch { return lines.positionAt(doc.offset).line; } };
    const chartPin = (name: string | undefined, repository: string | undefined, version: string | undefined, at: Array<string | number>, what: string) => {
      if (!name || version === undefined) return;
      const c = chartOf(name, repository);
      if (!c) return;
      const m = operatorVersionsOfChart(c.operator, c.chart, version);
      const line = lineOf(at);
      if (typeof m === 'string') { out.unresolved.push({ operator: c.operator, file, line, why: `${what}: ${m}` }); return; }
      for (const ver of m.versions) out.pins.push(ranged(m, { operator: c.operator, version: ver, file, line, detail: `${c.operator} ${ver} from ${file} ${what}: ${m.how}${m.range ? ` (a range: ${m.versions.length > 1 ? `its ${ver === m.versions[0] ? 'lowest' : 'highest'} version, the window's ${ver === m.versions[0] ? 'start' : 'end'}` : 'one version'})` : ''}${c.by.startsWith('chart name') ? ` (matched by ${c.by})` : ''}` }));
    };
    const imagePin = (image: string | undefined, at: Array<string | number>, what: string) => {
      if (!image) return;
      const { repository, tag } = parseImage(image);
      const op = operatorOfImage(repository);
      if (!op || !tag) return;
      const ver = versionOfTag(tag);
      if (!ver) { out.unresolved.push({ operator: op, file, line: lineOf(at), why: `${what} ${image}: tag "${tag}" names no version` }); return; }
      out.pins.push({ operator: op, version: ver, file, line: lineOf(at), detail: `${op} ${ver} from ${file} ${what} ${repository}:${tag}` });
    };
    const apiVersion = str(v.apiVersion) ?? '';
    const kind = str(v.kind) ?? '';
    // A chart's dependencies (Chart.yaml v2; requirements.yaml of v1 charts).
    if ((b === 'chart.yaml' || b === 'requirements.yaml') && Array.isArray(v.dependencies)) {
      v.dependencies.forEach((d, i) => {
        if (!isObj(d)) return;
        chartPin(str(d.name), str(d.repository), str(d.version), ['dependencies', i, d.version !== undefined ? 'version' : 'name'], 'dependencies');
      });
      continue;
    }
    // Flux sources.
    if (/^source\.toolkit\.fluxcd\.io\//.test(apiVersion) && (kind === 'HelmRepository' || kind === 'OCIRepository')) {
      const md = isObj(v.metadata) ? v.metadata : {};
      const spec = isObj(v.spec) ? v.spec : {};
      const ref = isObj(spec.ref) ? spec.ref : {};
      const name = str(md.name), url = str(spec.url);
      if (name && url) out.sources.push({ kind, name, namespace: str(md.namespace), url, tag: str(ref.tag), semver: str(ref.semver), file, line: lineOf(['spec', 'url']) });
      continue;
    }
    // Flux HelmRelease.
    if (/^helm\.toolkit\.fluxcd\.io\/v2(beta1|beta2)?$/.test(apiVersion) && kind === 'HelmRelease') {
      const md = isObj(v.metadata) ? v.metadata : {};
      const spec = isObj(v.spec) ? v.spec : {};
      const ns = str(md.namespace);
      const chartRef = isObj(spec.chartRef) ? spec.chartRef : undefined;
      if (chartRef && str(chartRef.name)) {
        out.pending.push({ ref: { kind: str(chartRef.kind) ?? 'OCIRepository', name: str(chartRef.name)!, namespace: str(chartRef.namespace) ?? ns }, file, line: lineOf(['spec', 'chartRef', 'name']), what: `HelmRelease ${str(md.name) ?? ''} chartRef`.replace('  ', ' ') });
        continue;
      }
      const cs = isObj(spec.chart) && isObj(spec.chart.spec) ? spec.chart.spec : undefined;
      if (!cs) continue;
      const sr = isObj(cs.sourceRef) ? cs.sourceRef : {};
      const version = str(cs.version);
      const at = ['spec', 'chart', 'spec', cs.version !== undefined ? 'version' : 'chart'];
      out.pending.push({ chart: str(cs.chart), version, ref: { kind: str(sr.kind) ?? 'HelmRepository', name: str(sr.name) ?? '', namespace: str(sr.namespace) ?? ns }, file, line: lineOf(at), what: `HelmRelease ${str(md.name) ?? ''}`.trim() });
      continue;
    }
    // Argo CD Application / ApplicationSet (its template).
    if (/^argoproj\.io\//.test(apiVersion) && (kind === 'Application' || kind === 'ApplicationSet')) {
      const root: Array<string | number> = kind === 'Application' ? ['spec'] : ['spec', 'template', 'spec'];
      let spec: unknown = v;
      for (const k of root) spec = own(spec, k as string);
      if (!isObj(spec)) continue;
      const name = str(own(v.metadata, 'name')) ?? '';
      const one = (s: unknown, at: Array<string | number>) => {
        if (!isObj(s) || !str(s.chart)) return;
        chartPin(str(s.chart), str(s.repoURL), str(s.targetRevision), [...at, s.targetRevision !== undefined ? 'targetRevision' : 'chart'], `${kind} ${name}`.trim());
      };
      one(spec.source, [...root, 'source']);
      if (Array.isArray(spec.sources)) spec.sources.forEach((s, i) => one(s, [...root, 'sources', i]));
      continue;
    }
    // A kustomization: remote resources, images:, helmCharts:.
    if (/^kustomization(\.ya?ml)?$/.test(b) || /^kustomize\.config\.k8s\.io\//.test(apiVersion)) {
      for (const key of ['resources', 'bases'] as const) {
        const list = v[key];
        if (!Array.isArray(list)) continue;
        list.forEach((r, i) => {
          const u = str(r);
          if (!u) return;
          const hit = operatorOfUrl(u);
          if (hit) out.pins.push({ operator: hit.operator, version: hit.version, file, line: lineOf([key, i]), detail: `${hit.operator} ${hit.version} from ${file} ${key} ${u}` });
        });
      }
      if (Array.isArray(v.images)) {
        v.images.forEach((e, i) => {
          if (!isObj(e) || str(e.newTag) === undefined) return;
          const repo = str(e.newName) ?? str(e.name);
          if (!repo) return;
          const op = operatorOfImage(repo);
          if (!op) return;
          const tag = str(e.newTag)!;
          const ver = versionOfTag(tag);
          const line = lineOf(['images', i, 'newTag']);
          if (!ver) { out.unresolved.push({ operator: op, file, line, why: `kustomization images ${repo}: newTag "${tag}" names no version` }); return; }
          out.pins.push({ operator: op, version: ver, file, line, detail: `${op} ${ver} from ${file} images: ${repo} newTag ${tag}` });
        });
      }
      if (Array.isArray(v.helmCharts)) {
        v.helmCharts.forEach((h, i) => {
          if (!isObj(h)) return;
          chartPin(str(h.name), str(h.repo), str(h.version), ['helmCharts', i, h.version !== undefined ? 'version' : 'name'], 'kustomization helmCharts');
        });
      }
      continue;
    }
    // Workloads: container images.
    if ((kind === 'Deployment' || kind === 'StatefulSet' || kind === 'DaemonSet') && /^(apps|extensions)\//.test(apiVersion)) {
      const pod = own(own(own(v, 'spec'), 'template'), 'spec');
      if (!isObj(pod)) continue;
      for (const list of ['initContainers', 'containers'] as const) {
        const cs = pod[list];
        if (!Array.isArray(cs)) continue;
        cs.forEach((c, i) => { if (isObj(c)) imagePin(str(c.image), ['spec', 'template', 'spec', list, i, 'image'], `${kind} ${str(own(v.metadata, 'name')) ?? ''} image`.replace('  ', ' ')); });
      }
    }
  }
  return out;
}

/**
 * The workspace's pins from its files' scans: each HelmRelease's source resolved against the workspace's Flux
 * HelmRepository / OCIRepository objects (by name, and by namespace where both say one). Sorted by operator, file, line.
 */
export function pinsOf(scans: readonly FilePinScan[]): { pins: OperatorPin[]; unresolved: FilePinScan['unresolved'] } {
  const pins: OperatorPin[] = scans.flatMap((s) => s.pins);
  const unresolved = scans.flatMap((s) => s.unresolved);
  const sources = scans.flatMap((s) => s.sources);
  for (const p of scans.flatMap((s) => s.pending)) {
    const candidates = sources.filter((s) => s.kind === p.ref.kind && s.name === p.ref.name && (!p.ref.namespace || !s.namespace || s.namespace === p.ref.namespace));
    const src = candidates[0];
    const push = (m: ReturnType<typeof chartOf>, version: string | undefined, how: string) => {
      if (!m || version === undefined) return;
      const r = operatorVersionsOfChart(m.operator, m.chart, version);
      if (typeof r === 'string') { unresolved.push({ operator: m.operator, file: p.file, line: p.line, why: `${p.what}: ${r}` }); return; }
      for (const ver of r.versions) pins.push(ranged(r, { operator: m.operator, version: ver, file: p.file, line: p.line, detail: `${m.operator} ${ver} from ${p.file} ${p.what}: ${r.how}${how}${r.range ? ` (a range: its ${ver === r.versions[0] ? 'lowest' : 'highest'} version)` : ''}` }));
    };
    if (p.chart === undefined) {
      // spec.chartRef: an OCIRepository's URL is the chart's whole reference, its ref.tag (or ref.semver) the version.
      if (!src || src.kind !== 'OCIRepository') continue;
      const name = src.url.replace(/\/+$/, '').split('/').pop() ?? '';
      push(chartOf(name, src.url), src.tag ?? src.semver, ` (OCIRepository ${src.name} in ${src.file})`);
      continue;
    }
    if (src) push(chartOf(p.chart, src.url), p.version, ` (HelmRepository ${src.name} ${src.url} in ${src.file})`);
    else push(chartOf(p.chart, undefined), p.version, ` (${p.ref.kind} ${p.ref.name} not found in the workspace: matched by chart name)`);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  pins.sort((a, b) => cmp(a.operator, b.operator) || cmp(a.file, b.file) || a.line - b.line || cmp(a.version, b.version));
  return { pins, unresolved };
}

/** Convenience: the pins of a set of files (path relative to the workspace root, text). */
export function operatorPins(files: ReadonlyArray<{ file: string; text: string }>): OperatorPin[] {
  return pinsOf(files.map((f) => scanFilePins(f.file, f.text))).pins;
}

/** The pins read from a version range: the range's lowest and highest admitted versions (the window it allows). */
const rangeOf = new WeakMap<OperatorPin, { lo: string; hi: string }>();
function ranged(m: ChartVersionMeaning, pin: OperatorPin): OperatorPin {
  if (m.range) rangeOf.set(pin, { lo: m.versions[0], hi: m.versions.at(-1)! });
  return pin;
}

/**
 * Whether two pins' versions agree: equal; one names a minor ("1.14": an image tag) that the other is a patch of; or one
 * comes from a version range (a chart dependency `~1.14.0`) that admits the other's minor (the data knows only the
 * latest patch of each minor, so a range is judged by minors).
 */
export function pinsAgree(a: OperatorPin, b: OperatorPin): boolean {
  const x = a.version, y = b.version;
  if (x === y) return true;
  const [short, long] = x.split('.').length < y.split('.').length ? [x, y] : [y, x];
  if (short.split('.').length === 2 && long.startsWith(`${short}.`)) return true;
  for (const [p, q] of [[a, b], [b, a]] as const) {
    const r = rangeOf.get(p);
    if (r && compareMinor(r.lo, q.version) <= 0 && compareMinor(q.version, r.hi) <= 0) return true;
  }
  return false;
}

/**
 * The pins of each operator that disagree: for each place that pins an operator (a file and line: the two ends of one
 * range are one place), the pins of that operator elsewhere whose version agrees with none of this place's.
 */
export function disagreeingPins(pins: readonly OperatorPin[]): Array<{ pin: OperatorPin; others: OperatorPin[] }> {
  const out: Array<{ pin: OperatorPin; others: OperatorPin[] }> = [];
  const samePlace = (a: OperatorPin, b: OperatorPin) => a.operator === b.operator && a.file === b.file && a.line === b.line;
  for (const p of pins) {
    if (out.some((o) => samePlace(o.pin, p))) continue;
    const mine = pins.filter((q) => samePlace(q, p));
    const others = pins.filter((q) => q.operator === p.operator && !samePlace(q, p) && !mine.some((m) => pinsAgree(m, q)));
    if (others.length) out.push({ pin: p, others });
  }
  return out;
}
