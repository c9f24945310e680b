// The workspace's own CustomResourceDefinitions (apiextensions.k8s.io/v1 and v1beta1): each defines the versions of one
// group/kind (served, deprecated with its warning, storage) and each version's openAPIV3Schema. The language server
// finds them in the workspace (and the files .skewguard.yaml's kubernetes.crds names) and hands them to the
// Kubernetes rules as NeighbourFacts.crds; CRDs in the analysed file itself count too. Pure: text in, facts out.
import type { YamlFile, OffsetRange } from '../../parse/yaml';
import { parseYaml, parseYamlHeld, splitDocuments } from '../../parse/yaml';
import { manifestObjects, type ManifestObject } from './manifest-objects';
import { fieldTable } from './data/fields';
import { kubernetesApis } from './data/apis';
import { readTgz } from '../helm-chart/tar';
import { groupOf } from './data/api-version';

/** A JSON schema node as a CRD writes it (openAPIV3Schema and below), read as plain data. */
export type CrdSchema = Record<string, unknown>;

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  /** The CRD's own deprecationWarning text, when it gives one. */
  deprecationWarning?: string;
  /** This version's openAPIV3Schema (v1beta1: the CRD-wide spec.validation one when the version has none). */
  schema?: CrdSchema;
  /** Its index in spec.versions (undefined: v1beta1's single spec.version). */
  index?: number;
}

export interface CrdDef {
  /** "crontabs.stable.example.com" (metadata.name). */
  name: string;
  group: string;
  kind: string;
  /** The CRD's own apiVersion (apiextensions.k8s.io/v1 or v1beta1). */
  apiVersion: string;
  versions: CrdVersion[];
  /** v1beta1 with spec.preserveUnknownFields not false: the API server keeps unknown fields instead of pruning them. */
  preserveUnknown: boolean;
  /** Where it is written (workspace-relative, or the path as .skewguard.yaml names it); '' for the analysed file itself. */
  file: string;
}

/** What the workspace's CRDs say, keyed by "group/kind". */
export interface CrdFacts {
  defs: Map<string, CrdDef>;
  /** Files that hold CRDs (relative to the workspace root, or as .skewguard.yaml names them). */
  files: string[];
  /** Files that may hold CRDs but were not read (over the size limit, unreadable, unparsable), and why; a walk cut short. */
  notRead: string[];
}

export const CRD_API = /^apiextensions\.k8s\.io\/v1(beta1)?$/;
/** A cheap look at a file's text: might it hold a CustomResourceDefinition (YAML or JSON)? */
// Every match holds the name: the native search rules out most texts before the expression scans them.
export const mayHoldCrd = (text: string): boolean => text.includes('CustomResourceDefinition') && /["']?kind["']?\s*:\s*["']?CustomResourceDefinition\b/.test(text);

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

export function isCrdObject(o: { apiVersion: string; kind: string }): boolean {
  return o.kind === 'CustomResourceDefinition' && CRD_API.test(o.apiVersion);
}

/** The definition an object (a CRD manifest) gives, or undefined when it lacks group, kind or versions. */
export function crdOf(o: { apiVersion: string; value: Record<string, any> }, file: string): CrdDef | undefined {
  const spec = o.value.spec;
  if (!isObj(spec) || typeof spec.group !== 'string' || !isObj(spec.names) || typeof spec.names.kind !== 'string') return undefined;
  const beta = o.apiVersion.endsWith('v1beta1');
  const shared = beta && isObj(spec.validation) && isObj(spec.validation.openAPIV3Schema) ? spec.validation.openAPIV3Schema as CrdSchema : undefined;
  const versions: CrdVersion[] = [];
  if (Array.isArray(spec.versions)) {
    for (let index = 0; index < spec.versions.length; index++) {
      const v = spec.versions[index];
      if (!isObj(v) || typeof v.name !== 'string') continue;
      const own = isObj(v.schema) && isObj(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema as CrdSchema : undefined;
      versions.push({
        name: v.name, served: v.served === true, storage: v.storage === true, deprecated: v.deprecated === true,
        ...(typeof v.deprecationWarning === 'string' ? { deprecationWarning: v.deprecationWarning } : {}),
        ...(own ?? shared ? { schema: own ?? shared } : {}),
        index,
      });
    }
  } else if (beta && typeof spec.version === 'string') {
    // v1beta1's single spec.version: served and stored.
    versions.push({ name: spec.version, served: true, storage: true, deprecated: false, ...(shared ? { schema: shared } : {}) });
  }
  if (!versions.length) return undefined;
  const name = isObj(o.value.metadata) && typeof o.value.metadata.name === 'string' ? o.value.metadata.name : `${spec.names.plural ?? spec.names.kind.toLowerCase()}.${spec.group}`;
  return { name, group: spec.group, kind: spec.names.kind, apiVersion: o.apiVersion, versions, preserveUnknown: beta && spec.preserveUnknownFields !== false, file };
}

/**
 * The CRDs of one file's text (every document, Lists too). Only the documents that may hold one are parsed, each alone
 * as parseYaml cuts and reads it: in a bundle of CRDs and thousands of other objects the others are not parsed again
 * (the analysed file's own parse is the engine's), and no parse of the whole file is held at once. `holdFor`: the text
 * is an open file's, whose own analysis follows: the documents parsed here are held for it (parseYamlHeld).
 */
export function crdsOfText(text: string, file: string, holdFor?: string): CrdDef[] {
  if (!mayHoldCrd(text)) return [];
  let t = text.replace(/^\uFEFF/, '');
  if (t.includes('\r')) t = t.replace(/\r(?!\n)/g, '\n');
  const out: CrdDef[] = [];
  for (const c of splitDocuments(t)) {
    const chunk = t.slice(c.start, c.end);
    if (mayHoldCrd(chunk)) for (const d of crdsOfYaml(holdFor === undefined ? parseYaml(chunk) : parseYamlHeld(chunk, holdFor), file)) out.push(d);
  }
  return out;
}

export function crdsOfYaml(yaml: YamlFile, file: string): CrdDef[] {
  const out: CrdDef[] = [];
  for (const o of manifestObjects(yaml)) {
    if (!isCrdObject(o)) continue;
    const d = crdOf(o, file);
    if (d) out.push(d);
  }
  return out;
}

/** A chart's packaged dependency (`charts/*.tgz`), whose CRDs (its `crds/` folder, its templates) the cluster installs too. */
export const isChartArchive = (file: string): boolean => /(^|[\\/])charts[\\/][^\\/]+\.tgz$/i.test(file);

/**
 * The CRDs of a packaged chart dependency (`charts/*.tgz`), read in memory by the Helm family's reader (bounded
 * unpacked size and entry count, regular files only): every YAML/JSON file in it — its `crds/` folder, its templates,
 * its vendored dependencies — named `<file>!<entry>` as the Helm findings name them. What is there but not read is
 * said, never passed over: the archive itself (not gzip/tar, too big), a link, a packaged chart inside it, an entry
 * that does not parse.
 */
export function crdsOfArchive(bytes: Uint8Array, file: string): { found: Array<{ file: string; defs: CrdDef[] }>; notRead: string[] } {
  const tar = readTgz(bytes);
  if ('error' in tar) return { found: [], notRead: [`${file} was not read (${tar.error})`] };
  const found: Array<{ file: string; defs: CrdDef[] }> = [];
  const notRead: string[] = [];
  for (const e of tar.entries) {
    const name = `${file}!${e.name}`;
    if (/\.tgz$/i.test(e.name)) { notRead.push(`${name}: a packaged chart inside a packaged chart is not read`); continue; }
    if (!/\.(ya?ml|json)$/i.test(e.name) || !mayHoldCrd(e.text)) continue;
    try {
      const defs = crdsOfText(e.text, name);
      if (defs.length) found.push({ file: name, defs });
    } catch (err) { notRead.push(`${name} does not parse (${(err as Error).message})`); }
  }
  for (const k of tar.skipped) if (/\.(ya?ml|json|tgz)$/i.test(k.name)) notRead.push(`${file}!${k.name}: ${k.why}`);
  return { found, notRead };
}

/** Facts from the CRDs of several files (sorted by the caller): the first definition of a group/kind wins. */
export function crdFacts(found: Array<{ file: string; defs: CrdDef[] }>, notRead: string[]): CrdFacts {
  const defs = new Map<string, CrdDef>();
  const files: string[] = [];
  for (const f of found) {
    if (!f.defs.length) continue;
    files.push(f.file);
    for (const d of f.defs) if (!defs.has(`${d.group}/${d.kind}`)) defs.set(`${d.group}/${d.kind}`, d);
  }
  return { defs, files, notRead };
}

export function groupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

let builtinGroups: Set<string> | undefined;
/**
 * Whether an apiVersion's group can be a custom resource's: it has a dot and is none of the groups the Kubernetes
 * API server itself serves (those of the field table's kinds) nor a component's configuration file (kubeadm.k8s.io …).
 * CRD-provided *.k8s.io groups (gateway.networking.k8s.io, snapshot.storage.k8s.io) can be: their CRDs win.
 */
export function mayBeCustomGroup(group: string): boolean {
  if (!group.includes('.')) return false;
  if (!builtinGroups) {
    builtinGroups = new Set<string>();
    for (const k of Object.keys(fieldTable().kinds)) builtinGroups.add(groupOf(k.split(' ')[0]));
    for (const r of kubernetesApis().apis) if ((r as { readBy?: string }).readBy) builtinGroups.add(groupOf(r.apiVersion));
  }
  return !builtinGroups.has(group);
}

/** A CR in a file: its group, version and the places its apiVersion is written (for the CRD-side rule). */
export interface CustomResourceUse { file: string; version: string; kind: string; line: number }

/**
 * The custom resources of a file's text, by group, for the groups in `groups` (the custom groups its apiVersions name):
 * file-relative uses, read in one pass however many groups ask. Only the documents that name one of the groups
 * (`<group>/`) are parsed, each alone as parseYaml cuts and reads it; the line of a use is its line in the file (LF
 * counted, found in a line table: the scan from the start per use was quadratic in a bundle of thousands of them).
 */
export function customResourceUsesByGroup(text: string, file: string, groups: readonly string[]): Map<string, CustomResourceUse[]> {
  const out = new Map<string, CustomResourceUse[]>();
  const wanted = groups.filter((g) => text.includes(`${g}/`));
  if (!wanted.length) return out;
  const t = text.replace(/^\uFEFF/, '');
  // As parseYaml: a lone CR is a line break (same length, same offsets), then its cuts.
  const cut = t.includes('\r') ? t.replace(/\r(?!\n)/g, '\n') : t;
  let lines: number[] | undefined;
  const lineOf = (off: number): number => {
    if (!lines) { lines = []; for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) lines.push(i); }
    // 1 + the number of LFs before `off`.
    let lo = 0, hi = lines.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (lines[mid] < off) lo = mid + 1; else hi = mid; }
    return lo + 1;
  };
  for (const c of splitDocuments(cut)) {
    const chunk = cut.slice(c.start, c.end);
    if (!wanted.some((g) => chunk.includes(`${g}/`))) continue;
    for (const o of manifestObjects(parseYaml(chunk))) {
      const gv = groupVersion(o.apiVersion);
      if (!wanted.includes(gv.group)) continue;
      const list = out.get(gv.group) ?? [];
      list.push({ file, version: gv.version, kind: o.kind, line: lineOf(c.start + o.apiVersionRange.start) });
      out.set(gv.group, list);
    }
  }
  return out;
}

/** The objects of a file's text whose group is `group` (found by the caller in some text): file-relative uses. */
export function customResourceUsesOfText(text: string, file: string, group: string): CustomResourceUse[] {
  return customResourceUsesByGroup(text, file, [group]).get(group) ?? [];
}

/** The CRD facts for a file: the workspace's, with the CRDs of the file itself first (its own definition wins). */
export function crdsForFile(objects: ManifestObject[], neighbours: CrdFacts | undefined): CrdFacts | undefined {
  let own: CrdDef[] | undefined;
  for (const o of objects) {
    if (!isCrdObject(o)) continue;
    const d = crdOf(o, '');
    if (d) (own ??= []).push(d);
  }
  if (!own) return neighbours;
  const defs = new Map<string, CrdDef>();
  for (const d of own) if (!defs.has(`${d.group}/${d.kind}`)) defs.set(`${d.group}/${d.kind}`, d);
  for (const [k, d] of neighbours?.defs ?? []) if (!defs.has(k)) defs.set(k, d);
  return { defs, files: neighbours?.files ?? [], notRead: neighbours?.notRead ?? [] };
}

/** Where a CRD is written, for messages: "the CustomResourceDefinition crontabs.stable.example.com (crds/crontab.yaml)". */
export function crdName(d: CrdDef): string {
  return `the CustomResourceDefinition ${d.name}${d.file ? ` (${d.file})` : ' (in this file)'}`;
}

/**
 * The API server's warning for a deprecated version whose CRD gives no deprecationWarning
 * (kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
 * defaultDeprecationWarning): "<group>/<version> <Kind> is
 * deprecated; use <group>/<version> <Kind>" naming the best served, not deprecated version, or without the advice.
 */
export function deprecationWarningOf(d: CrdDef, v: CrdVersion): string {
  if (v.deprecationWarning !== undefined) return v.deprecationWarning;
  // Only a version Kubernetes ranks above the deprecated one is named (CompareKubeAwareVersionStrings).
  const next = d.versions.filter((x) => x.served && !x.deprecated && versionPriority(x.name, v.name) < 0).map((x) => x.name).sort(versionPriority)[0];
  return `${d.group}/${v.name} ${d.kind} is deprecated${next ? `; use ${d.group}/${next} ${d.kind}` : ''}`;
}

/** Kubernetes' version priority (GA > beta > alpha, higher numbers first; others last, by name). */
export function versionPriority(a: string, b: string): number {
  const p = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    return m ? [m[2] ? (m[2] === 'beta' ? 2 : 1) : 3, Number(m[1]), Number(m[3] ?? 0)] : [0, 0, 0];
  };
  const x = p(a), y = p(b);
  return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || (a < b ? -1 : a > b ? 1 : 0);
}

/** The best served, not deprecated version other than `except` (Kubernetes' version priority), or undefined. */
export function bestServed(d: CrdDef, except?: string): string | undefined {
  return d.versions.filter((v) => v.served && !v.deprecated && v.name !== except).map((v) => v.name).sort(versionPriority)[0];
}

export type { OffsetRange };
