// Kubernetes API lifecycle predicates over data/kubernetes/api-lifecycle.json rows.
// Pure functions (the only import is the version arithmetic of versions.ts): shared by the engine and (through
// dist/engine.js) the tests.
//
// Versions are minors "X.Y" (a leading "v" or "V" and a patch are accepted and ignored, so Pluto's
// "v1.25.0" works too). Rows of component "cert-manager" / "istio" carry THAT project's
// version numbers, so compare them with a target of the same component only.
//
// Semantics follow Pluto (pluto-rules.md §3), comparing minors:
//   deprecated           = row.deprecated != null && minor >= row.deprecated
//   removed              = row.removed != null && minor >= row.removed
//   replacementAvailable = row.replacementAvailable != null && minor >= row.replacementAvailable
// plus
//   served               = (row.introduced == null || minor >= row.introduced) && !removed
// (introduced == null means "unknown": treated as served since before any version asked about).
// `deprecated` stays true after removal, as in Pluto.

import { parseMinor as parseMinorOf, compareMinor } from '../../../versions';
export { compareMinor };

export interface LifecycleRow {
  apiVersion: string;
  /** "" = every kind of this apiVersion (one istio entry) */
  kind: string;
  introduced: string | null;
  deprecated: string | null;
  removed: string | null;
  replacement?: string | null;
  replacementAvailable: string | null;
  component?: string;
  servedBy?: string;
  /** Config-file rows (kubeadm, kubelet, kube-proxy, kube-scheduler, kube-apiserver files): the component that reads the file from disk. */
  readBy?: string;
  /** kube-apiserver rows registered but disabled by default (alpha, or beta added from 1.24): served only when enabled. */
  offByDefault?: { why: string; enable: string; source: string };
  /** Minors judged from the user's OpenAPI document (openapi.ts): served there or not, whatever the interval says. */
  servedAt?: Readonly<Record<string, boolean>>;
}

export interface LifecycleStatus {
  served: boolean;
  deprecated: boolean;
  removed: boolean;
  replacementAvailable: boolean;
}

/** "1.22", "v1.22", "v1.22.3", "0.11" -> [major, minor]; undefined when not a version (versions.ts parseMinor). */
export const parseMinor = (v: string): [number, number] | undefined => {
  const m = parseMinorOf(v);
  return m ? [m.major, m.minor] : undefined;
};

function atOrAfter(minor: string, since: string | null | undefined): boolean {
  return since != null && since !== '' && compareMinor(minor, since) >= 0;
}

/** Pluto-style status of one row at one target minor. */
export function statusAt(row: LifecycleRow, minor: string): LifecycleStatus {
  let removed = atOrAfter(minor, row.removed);
  const introducedOk = row.introduced == null || row.introduced === '' || atOrAfter(minor, row.introduced);
  let served = introducedOk && !removed;
  if (row.servedAt) {
    const p = parseMinorOf(minor);
    const doc = p ? row.servedAt[`${p.major}.${p.minor}`] : undefined;
    // A document's minor: served as the document says; not served once it existed is removed, else not yet there.
    if (doc !== undefined) { served = doc; removed = !doc && (introducedOk || removed); }
  }
  return {
    served,
    deprecated: atOrAfter(minor, row.deprecated),
    removed,
    replacementAvailable: atOrAfter(minor, row.replacementAvailable),
  };
}

/** Pluto's match rule: exact apiVersion, and exact kind unless the row's kind is "". */
export function matches(row: LifecycleRow, apiVersion: string, kind: string): boolean {
  return row.apiVersion === apiVersion && (row.kind === '' || row.kind === kind);
}

/** The row for apiVersion/kind (an exact-kind row wins over a kind "" row); undefined if none. */
export function findRow<R extends LifecycleRow>(rows: readonly R[], apiVersion: string, kind: string): R | undefined {
  return (
    rows.find((r) => r.apiVersion === apiVersion && r.kind === kind) ??
    rows.find((r) => r.apiVersion === apiVersion && r.kind === '')
  );
}

/**
 * apiVersions that serve `kind` in `minor` (sorted), among rows of `component` (default "k8s").
 * Only kinds present in the rows are known: an empty result for a kind with rows means "not
 * served in this minor"; for a kind without rows it means "unknown" (see knownKind).
 */
export function servedKinds(rows: readonly LifecycleRow[], kind: string, minor: string, component = 'k8s'): string[] {
  // Memoised per rows (a chart's templates ask the same (kind, step) thousands of times); callers copy the list.
  let memo = servedMemo.get(rows);
  if (!memo) servedMemo.set(rows, (memo = new Map()));
  const key = `${component}\u0000${kind}\u0000${minor}`;
  let hit = memo.get(key);
  if (!hit) {
    if (memo.size > 20_000) memo.clear();
    memo.set(key, (hit = Object.freeze(servedKindsOf(rows, kind, minor, component)) as string[]));
  }
  return hit;
}
const servedMemo = new WeakMap<readonly LifecycleRow[], Map<string, string[]>>();

function servedKindsOf(rows: readonly LifecycleRow[], kind: string, minor: string, component: string): string[] {
  const out = new Set<string>();
  for (const r of rows) {
    if ((r.component ?? 'k8s') !== component) continue;
    if (r.kind !== kind && r.kind !== '') continue;
    if (statusAt(r, minor).served) out.add(r.apiVersion);
  }
  return [...out].sort();
}

/** Whether the rows describe `kind` at all (for `component`, default "k8s"). */
export function knownKind(rows: readonly LifecycleRow[], kind: string, component = 'k8s'): boolean {
  return rows.some((r) => (r.component ?? 'k8s') === component && r.kind === kind);
}
