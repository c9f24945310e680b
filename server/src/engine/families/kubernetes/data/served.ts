// What a Kubernetes minor serves: its group/versions and, per group/version, its kinds. Built from the lifecycle rows
// of data/kubernetes/api-lifecycle.json that kube-apiserver serves (introduced/removed; config-file kinds such as
// audit.k8s.io and CRD-provided ones such as snapshot.storage.k8s.io are not part of a cluster's discovery by
// default) plus data/kubernetes/served-stable.json (stable kinds that never had a lifecycle row). Pure; cached per minor.
//
// Helm's .Capabilities.APIVersions is a VersionSet filled from discovery: every "group/version" and every
// "group/version/Kind"; VersionSet.Has matches the string exactly. capabilitiesAt() answers that way.
import { loadJson } from '../../../data';
import { kubernetesApis } from './apis';
import { parseMinor } from './lifecycle';
import type { OpenapiDoc } from './openapi';

export interface ServedSet {
  groupVersions: Set<string>;
  kinds: Map<string, Set<string>>;
}

interface StableRow { apiVersion: string; kind: string; introduced: string | null; deprecated: string | null; removed: string | null; sources: string[] }

const cache = new Map<string, ServedSet>();

type ServedRow = { apiVersion: string; kind: string; introduced: string | null; deprecated: string | null; removed: string | null; replacementAvailable: string | null };
let rowsMemo: ServedRow[] | undefined;
/** The rows, once (each step of a window asks; the data files are read once too). */
const servedRowsOnce = (): ServedRow[] => (rowsMemo ??= servedRows());

/** A minor as one number (major * 1000 + minor), ordered as compareMinor orders them; throws as it does. */
function ordinal(v: string): number {
  const p = parseMinor(v);
  if (!p) throw new Error(`k8sLifecycle: not a version: ${v}`);
  return p[0] * 1000 + p[1];
}
/** A row's served minors, [from, to): statusAt(row, m).served is from <= m < to. */
type Bounds = { row: ServedRow; from: number; to: number };
let boundsMemo: Bounds[] | undefined;
/**
 * Each row's bounds, computed once: the served set of a minor is built at every step of the first file's window,
 * and four version comparisons per row per step (statusAt) were about 2 ms of lsp-lint's start on one file.
 */
const boundsOnce = (): Bounds[] => (boundsMemo ??= servedRowsOnce().map((row) => ({
  row,
  from: row.introduced == null || row.introduced === '' ? -Infinity : ordinal(row.introduced),
  to: row.removed == null || row.removed === '' ? Infinity : ordinal(row.removed),
})));

function servedRows(): ServedRow[] {
  // An apiVersion disabled by default (offByDefault: alpha, beta from 1.24) is not in a default cluster's discovery.
  const rows = kubernetesApis().apis.filter((r) => (r.component ?? 'k8s') === 'k8s' && (r.servedBy ?? 'kube-apiserver') === 'kube-apiserver' && r.kind !== '' && !/List$/.test(r.kind) && !r.offByDefault);
  const stable = loadJson<{ rows: StableRow[] }>('data/kubernetes/served-stable.json').rows;
  return [...rows, ...stable.map((r) => ({ ...r, replacementAvailable: null }))];
}

/** "1.25", "v1.25", "1.25.3" → "1.25"; undefined when not a version. */
export function minorKey(v: string): string | undefined {
  const p = parseMinor(v);
  return p ? `${p[0]}.${p[1]}` : undefined;
}

/** What kube-apiserver of a minor serves by default, as discovery lists it (APIs disabled by default left out). */
export function servedAt(minor: string): ServedSet {
  const key = minorKey(minor);
  if (!key) throw new Error(`servedAt: not a Kubernetes minor: ${minor}`);
  let s = cache.get(key);
  if (s) return s;
  s = { groupVersions: new Set(), kinds: new Map() };
  const at = ordinal(key);
  for (const { row: r, from, to } of boundsOnce()) {
    if (at < from || at >= to) continue;
    s.groupVersions.add(r.apiVersion);
    let k = s.kinds.get(r.apiVersion);
    if (!k) s.kinds.set(r.apiVersion, (k = new Set()));
    k.add(r.kind);
  }
  if (cache.size < 256) cache.set(key, s);
  return s;
}

/** Whether discovery at the minor lists `gv` or `gv/Kind` (Helm's VersionSet.Has: the exact string). */
export function servesAt(minor: string, apiVersionOrKind: string): boolean {
  const s = servedAt(minor);
  if (s.groupVersions.has(apiVersionOrKind)) return true;
  const i = apiVersionOrKind.lastIndexOf('/');
  if (i < 0) return false;
  return s.kinds.get(apiVersionOrKind.slice(0, i))?.has(apiVersionOrKind.slice(i + 1)) ?? false;
}

/** Every string of Helm's .Capabilities.APIVersions at the minor ("gv" and "gv/Kind"), sorted. */
export function apiVersionsAt(minor: string): string[] {
  const s = servedAt(minor);
  const out: string[] = [];
  for (const gv of s.groupVersions) {
    out.push(gv);
    for (const k of s.kinds.get(gv) ?? []) out.push(`${gv}/${k}`);
  }
  return out.sort();
}

/**
 * Helm's .Capabilities at a step: KubeVersion "v1.25.0" and APIVersions.Has answered from what the minor serves; at a
 * minor with the user's OpenAPI document (kubernetes.openapi), from the document for the group-versions it speaks for
 * (every one for a whole cluster's /openapi/v2; those of its paths for a v3 document set), from the data for the rest.
 */
export function capabilitiesAt(minor: string, doc?: OpenapiDoc): { kubeVersion: string; has(apiVersion: string): boolean } {
  const key = minorKey(minor);
  if (!key) throw new Error(`capabilitiesAt: not a Kubernetes minor: ${minor}`);
  if (doc) {
    let c = docCapabilities.get(doc)?.get(key);
    if (!c) {
      const gvs = new Set<string>(), kinds = new Set<string>();
      for (const id of doc.gvks) { const [gv, kind] = id.split(' '); gvs.add(gv); kinds.add(`${gv}/${kind}`); }
      const covers = doc.covers && new Set(doc.covers);
      const has = (a: string): boolean => {
        if (gvs.has(a) || kinds.has(a)) return true;
        // "apps/v1", "v1" (group-versions) or "apps/v1/Deployment", "v1/Pod" (kinds): the document's word where it speaks.
        const i = a.lastIndexOf('/');
        const speaks = !covers || covers.has(a) || (i > 0 && covers.has(a.slice(0, i)));
        return speaks ? false : servesAt(key, a);
      };
      let byMinor = docCapabilities.get(doc);
      if (!byMinor) docCapabilities.set(doc, (byMinor = new Map()));
      byMinor.set(key, (c = Object.freeze({ kubeVersion: `v${key}.0`, has })));
    }
    return c;
  }
  // One object per minor: the evaluator keys what it builds from a step's capabilities on it.
  let c = capabilitiesMemo.get(key);
  if (!c) capabilitiesMemo.set(key, (c = Object.freeze({ kubeVersion: `v${key}.0`, has: (a: string) => servesAt(key, a) })));
  return c;
}
const capabilitiesMemo = new Map<string, { kubeVersion: string; has(apiVersion: string): boolean }>();
const docCapabilities = new WeakMap<OpenapiDoc, Map<string, { kubeVersion: string; has(apiVersion: string): boolean }>>();
