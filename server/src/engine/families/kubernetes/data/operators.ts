// The bundled custom-resource data of popular operators (data/operators/, scripts/import-operator-schemas.mjs): which
// operator defines a group/kind, the field paths each release accepts (fields/<op>.json.gz) and the schema snapshots
// (schemas/<op>/<release>.json.gz). Read lazily: the index when a custom resource whose CRD the workspace lacks is
// analysed, an operator's fields and snapshots when a resource of that operator is. The .gz files are unpacked with
// node:zlib (loaded on first use); where that or the file is missing (the web extension), the loaders say why.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot, loadJson } from '../../../data';
import { nodeZlib } from '../../../../shared/lazy-node';
import { leadingMinor } from '../../../versions';
import type { CrdSchema } from '../crds';

export interface OperatorVersionInfo {
  /** Release ranges ("1.0..1.21", inclusive over releaseIds) that serve it. */
  served: string[];
  /** Snapshot release -> the releases (a range) whose structural schema equals the snapshot's. */
  schemas?: Record<string, string>;
}
export interface OperatorRow {
  repo: string;
  source: string;
  releaseIds: string[];
  releases: Record<string, { tag: string; commit: string }>;
  snapshots: string[];
  crds: Record<string, { group: string; kind: string; versions: Record<string, OperatorVersionInfo> }>;
}
export interface OperatorIndex {
  description: string;
  operators: Record<string, OperatorRow>;
  /** "group/Kind" -> operator id. */
  kinds: Record<string, string>;
}

export interface OperatorFieldsVersion {
  servedWithSchema: string[];
  fieldsByReleases: Record<string, string[]>;
  preserveUnknownFieldsAt: Record<string, string[]>;
}
export interface OperatorFields {
  operator: string;
  repo: string;
  releaseIds: string[];
  crds: Record<string, Record<string, OperatorFieldsVersion>>;
}
export interface OperatorSnapshot {
  operator: string;
  release: string;
  tag: string;
  commit: string;
  repo: string;
  crds: Record<string, { group: string; kind: string; versions: Record<string, { openAPIV3Schema: CrdSchema }> }>;
}

export const OPERATOR_INDEX = 'data/operators/schema-index.json';

export function operatorIndex(): OperatorIndex { return loadJson<OperatorIndex>(OPERATOR_INDEX); }

/** The operator whose bundled data defines group/kind, or undefined. */
export function operatorOf(group: string, kind: string): string | undefined {
  const k = operatorIndex().kinds[`${group}/${kind}`];
  return typeof k === 'string' ? k : undefined;
}

const gzCache = new Map<string, { value?: unknown; error?: string }>();
/** A bundled .json.gz, unpacked once; { error } when it cannot be read here (the web extension unpacks nothing). */
function loadGz<T>(rel: string): { value?: T; error?: string } {
  let e = gzCache.get(rel);
  if (!e) {
    try {
      const bytes = fs.readFileSync(path.join(packageRoot, rel));
      e = { value: JSON.parse(nodeZlib().gunzipSync(bytes).toString('utf8')) };
    } catch (err) {
      const x = err as NodeJS.ErrnoException;
      e = { error: x.code === 'ERR_WEB_EXTENSION' || x.code === 'ENOENT' ? `${rel} is not available here (the web extension does not ship or unpack the bundled operator data)` : `${rel} could not be read (${x.message})` };
    }
    gzCache.set(rel, e);
  }
  return e as { value?: T; error?: string };
}

export const operatorFields = (op: string): { value?: OperatorFields; error?: string } => loadGz<OperatorFields>(`data/operators/fields/${op}.json.gz`);
export const operatorSnapshot = (op: string, release: string): { value?: OperatorSnapshot; error?: string } => loadGz<OperatorSnapshot>(`data/operators/schemas/${op}/${release}.json.gz`);

/** Indices [first, last] of a range "A..B" (or "A") over ids; undefined when not over them. */
export function rangeSpan(range: string, ids: readonly string[]): [number, number] | undefined {
  const [a, b = a] = range.split('..');
  const i = ids.indexOf(a), j = ids.indexOf(b);
  return i < 0 || j < 0 ? undefined : [i, j];
}
export const inRanges = (ranges: readonly string[], release: string, ids: readonly string[]): boolean => {
  const at = ids.indexOf(release);
  return at >= 0 && ranges.some((r) => { const s = rangeSpan(r, ids); return !!s && s[0] <= at && at <= s[1]; });
};

/** "1.14.4", "v1.14" -> the release id "1.14" when the operator's data has it. */
export function releaseIdOf(op: string, version: string): string | undefined {
  const ids = operatorIndex().operators[op]?.releaseIds ?? [];
  const id = leadingMinor(version.trim());
  return id && ids.includes(id) ? id : undefined;
}

/**
 * The releases of operator `id` that a custom resource must work on, oldest first: the operator's window
 * (engine/components/operators.ts, `operatorWindows` of the context: the version or window the user gives in
 * kubernetes.components / --component-versions / settings, else the versions the workspace pins); undefined when it has
 * none. A built-in default such as Pluto's cert-manager target is no window. A version outside the releases bundled
 * makes no window (the configuration reports it).
 */
export function operatorReleasesFor(ctx: { operatorWindows: Readonly<Record<string, { steps: string[] }>> }, id: string): string[] | undefined {
  return ctx.operatorWindows[id]?.steps;
}

/** Where the window of operator `id` came from, for messages: "--component-versions: cert-manager 1.14". */
export function operatorVersionSource(ctx: { operatorWindows: Readonly<Record<string, { source: { kind: string; detail?: string } }>> }, id: string): string | undefined {
  const w = ctx.operatorWindows[id];
  return w ? (w.source.detail ?? w.source.kind) : undefined;
}
