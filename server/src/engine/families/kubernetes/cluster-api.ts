// What the cluster's own record of an API call means across the window: a resource named by group, version and
// resource (the API server's apiserver_requested_deprecated_apis metric, an audit event's objectRef), mapped to its
// kind (data/resources.ts) and judged at every step with the lifecycle rows manifests are judged with (the user's
// rows and OpenAPI documents included). The families of cluster evidence (cluster-metrics, audit-log) read this.
import type { ApiRow } from './data/apis';
import type { ResolvedConfig } from '../../config';
import { compareMinor } from '../../versions';
import { lifecycleRows } from './index';
import { withOpenapi } from './data/openapi';
import { findRow, statusAt } from './data/lifecycle';
import { resourceKind, type ResourceRow } from './data/resources';

/** The lifecycle rows a configuration judges with (the shipped ones, the user's rows, the user's OpenAPI documents). */
export function clusterApiRows(config: ResolvedConfig): ApiRow[] {
  return withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
}

export interface ResourceVerdict {
  /** "batch/v1beta1" ("v1" for the core group). */
  apiVersion: string;
  resource: string;
  /** The data's kind of the resource, when it knows it. */
  mapping?: ResourceRow;
  /** The lifecycle row of that kind (Kubernetes' own APIs only). */
  row?: ApiRow;
  /** The steps of the window that do not serve it: removed there, or not yet introduced. */
  notServedAt: string[];
  removedAt: string[];
  notYetAt: string[];
  /** The steps that serve it and deprecate it. */
  deprecatedAt: string[];
  /** The row's replacement and the steps of the window that do not serve it (empty: a move there holds at every step). */
  replacement?: { apiVersion: string; notServedAt: string[] };
}

/** "batch" + "v1beta1" → "batch/v1beta1"; the core group ("" or absent) → "v1". */
export const apiVersionOf = (group: string | undefined, version: string): string => (group ? `${group}/${version}` : version);

/**
 * The verdict on a resource at each step of `minors`. Without a mapping or a row nothing is known (every list
 * empty); `removedRelease` (what the API server itself says: the metric's label, the audit annotation) then stands in
 * for the row's removal, and is said as such by the callers.
 */
export function judgeResource(rows: readonly ApiRow[], minors: readonly string[], apiVersion: string, resource: string): ResourceVerdict {
  const mapping = resourceKind(apiVersion, resource);
  const found = mapping ? findRow(rows, apiVersion, mapping.kind) : undefined;
  const row = found && (found.component ?? 'k8s') === 'k8s' ? found : undefined;
  const v: ResourceVerdict = { apiVersion, resource, mapping, row, notServedAt: [], removedAt: [], notYetAt: [], deprecatedAt: [] };
  if (!row) return v;
  for (const m of minors) {
    const s = statusAt(row, m);
    if (!s.served) {
      v.notServedAt.push(m);
      (s.removed ? v.removedAt : v.notYetAt).push(m);
    } else if (s.deprecated) v.deprecatedAt.push(m);
  }
  if (row.replacement && mapping) {
    const r = findRow(rows, row.replacement, mapping.kind);
    v.replacement = { apiVersion: row.replacement, notServedAt: minors.filter((m) => !r || !statusAt(r, m).served) };
  }
  return v;
}

/** The steps at or after a removal release the API server names ("1.25"); [] when it names none. */
export function stepsFrom(minors: readonly string[], release: string | undefined): string[] {
  if (!release || !/^\d+\.\d+/.test(release)) return [];
  return minors.filter((m) => compareMinor(m, release) >= 0);
}

/** What a verdict says about a call, in words and step data; undefined when the call is fine at every step. */
export interface CallJudgement {
  /** error: some step does not serve it; warning: served everywhere, deprecated (by the data, or by the API server). */
  level: 'error' | 'warning';
  /** The kind of the resource ("CronJob"), or '' when the data has no kind for it. */
  what: string;
  /** Why, naming the steps: "not served from Kubernetes 1.25 (at 1.25)". */
  why: string;
  /** The cross-check with what the API server itself says, or '' when it says nothing. */
  check: string;
  /** "move the callers to batch/v1" or ''. */
  advice: string;
  data: Record<string, unknown>;
}

/**
 * Judges a call to a resource at the steps of the window. `server` is what the API server itself says of it (the
 * metric's removed_release, the audit annotations) and where it says so: the data decides when it knows the kind,
 * the server's word otherwise; both are said when they disagree. `deprecatedByServer`: the server calls it deprecated.
 */
export function judgeCall(v: ResourceVerdict, minors: readonly string[], server: { removedRelease?: string; deprecated: boolean; says: string }): CallJudgement | undefined {
  const what = v.mapping ? v.mapping.kind : '';
  const rr = server.removedRelease && /^\d+\.\d+$/.test(server.removedRelease) ? server.removedRelease : undefined;
  const row = v.row;
  let check = '';
  if (row) {
    if (rr && row.removed && compareMinor(rr, row.removed) !== 0) check = `${server.says} says removed in ${rr}, the lifecycle data says ${row.removed}: judged by the data`;
    else if (rr && !row.removed) check = `${server.says} says removed in ${rr}, the lifecycle data has no removal for it: judged by the data`;
    else if (rr) check = `${server.says} says ${rr} too`;
  } else {
    const unknown = v.mapping ? `the lifecycle data has no row for ${what}` : `the data knows no kind for the resource ${v.resource} of ${v.apiVersion}`;
    check = rr ? `${unknown}: judged by ${server.says}, ${rr}` : `${unknown}, and ${server.says} names no removal`;
  }
  const rep = v.replacement;
  const advice = !rep ? '' : !rep.notServedAt.length ? `move the callers to ${rep.apiVersion}, served at every step`
    : rep.notServedAt.length < minors.length ? `its replacement ${rep.apiVersion} is not served at ${rep.notServedAt.join(', ')}: move the callers once the cluster serves it`
      : `its replacement ${rep.apiVersion} is served at no step of the window`;
  const base = { apiVersion: v.apiVersion, resource: v.resource, kind: v.mapping?.kind ?? null, ...(rr ? { removedRelease: rr } : {}) };
  if (row && v.notServedAt.length) {
    const parts: string[] = [];
    if (v.notYetAt.length) parts.push(`not served before Kubernetes ${row.introduced} (at ${v.notYetAt.join(', ')})`);
    if (v.removedAt.length) {
      parts.push(v.removedAt[0] === minors[0] && row.removed !== minors[0]
        ? `removed in Kubernetes ${row.removed}, so no step from ${minors[0]} on serves it`
        : `not served from Kubernetes ${v.removedAt[0]} on (at ${v.removedAt.join(', ')})`);
    }
    return { level: 'error', what, why: parts.join(' and '), check, advice, data: { ...base, notServedAt: v.notServedAt, removedIn: row.removed ?? null } };
  }
  if (!row && rr) {
    const at = stepsFrom(minors, rr);
    if (at.length) return { level: 'error', what, why: `not served from Kubernetes ${rr} on (at ${at.join(', ')})`, check, advice, data: { ...base, notServedAt: at, removedIn: rr } };
  }
  if (row && v.deprecatedAt.length) {
    return { level: 'warning', what, why: `deprecated from Kubernetes ${row.deprecated} (at ${v.deprecatedAt.join(', ')})${row.removed ? ` and removed in ${row.removed}, after the window` : ''}`, check, advice, data: { ...base, deprecatedAt: v.deprecatedAt, deprecatedIn: row.deprecated ?? null } };
  }
  if (server.deprecated) {
    const data = row ? (row.deprecated ? ` (the lifecycle data deprecates it from ${row.deprecated}, after this window)` : ' (the lifecycle data has no deprecation of it)') : '';
    const removal = row ? row.removed : rr;
    return { level: 'warning', what, why: `deprecated by the API server itself${data}${removal ? `, removed in ${removal}, after the window` : ''}`, check, advice, data: base };
  }
  return undefined;
}
