// The operators' CRD lifecycles (data/operators/, from scripts/import-operators.mjs): which release of an operator
// lists, serves, stores and deprecates each group/version/kind of its CRDs, and the curated facts the CRD flags do not
// carry. index.json (releases, Kind.group keys) is read when a configuration names an operator or a custom resource of a
// known kind appears; lifecycle.json (the ranges) only when such a resource is judged.
import { loadJson } from '../data';

export type ReleaseRow = [id: string, tag: string, prerelease?: 'prerelease'];
interface OperatorIndex { operators: Record<string, { releases: ReleaseRow[]; kinds: string[] }> }

export interface OperatorVersionRow {
  present: string[]; served: string[]; storage: string[]; deprecated: string[];
  altOnly?: string[];
  deprecationWarning?: Array<{ text: string; releases: string[] }>;
  replacement?: string;
  beforeCoverage?: boolean;
}
export interface OperatorCrd { group: string; kind: string; crdName: string; releases: string[]; versions: Record<string, OperatorVersionRow>; source: string }
export interface CuratedRow {
  apiVersions: string[]; kinds: string[] | 'all';
  introduced?: string; deprecated?: string; stoppedServing?: string; removedFromCRD?: string; replacement?: string;
  fieldsRemoved?: unknown; apiVersionOnly?: boolean; basis: string; source: string; note?: string;
}
export interface OperatorRelease { id: string; tag: string; commit: string; date: string; prerelease?: boolean; firstPatch?: { tag: string; commit: string; differences: string[] } }
export interface OperatorData { repo: string; snapshotHead: string | null; part: string; sourceNote?: string; releases: OperatorRelease[]; crds: Record<string, OperatorCrd>; curated: CuratedRow[] }

const index = (): OperatorIndex => loadJson<OperatorIndex>('data/operators/index.json');

/** The operator ids of the data, in its order. */
export function operatorIds(): string[] { return Object.keys(index().operators); }

/** An operator's releases (minors read, latest patch each): [id, tag, "prerelease"?]. */
export function operatorReleases(id: string): ReleaseRow[] { return index().operators[id]?.releases ?? []; }

let kindOwner: Map<string, string> | undefined;
/** The operator whose CRDs define this group/kind ("Kind.group"), or undefined. Reads only index.json. */
export function operatorOfKind(group: string, kind: string): string | undefined {
  if (!kindOwner) {
    kindOwner = new Map();
    for (const [id, o] of Object.entries(index().operators)) for (const k of o.kinds) kindOwner.set(k, id);
  }
  return kindOwner.get(`${kind}.${group}`);
}

/** The operator's whole lifecycle table (lifecycle.json, loaded on first use). */
export function operatorData(id: string): OperatorData | undefined {
  return loadJson<{ operators: Record<string, OperatorData> }>('data/operators/lifecycle.json').operators[id];
}

const rangeSets = new WeakMap<string[], Set<string>>();
/** The release ids a range list covers ("A..B" inclusive over the operator's releases). */
export function inRanges(d: OperatorData, ranges: string[] | undefined, release: string): boolean {
  if (!ranges?.length) return false;
  let s = rangeSets.get(ranges);
  if (!s) {
    s = new Set();
    const ids = d.releases.map((r) => r.id);
    for (const r of ranges) {
      const [a, b = a] = r.split('..');
      const i = ids.indexOf(a), j = ids.indexOf(b);
      for (let k = i; k >= 0 && k <= j; k++) s.add(ids[k]);
    }
    rangeSets.set(ranges, s);
  }
  return s.has(release);
}

/** The curated rows about this group/version/kind ("group/*" matches every version of the group). */
export function curatedFor(d: OperatorData, group: string, version: string, kind: string): CuratedRow[] {
  return d.curated.filter((c) => (c.apiVersions.includes(`${group}/${version}`) || c.apiVersions.includes(`${group}/*`))
    && (c.kinds === 'all' || c.kinds.includes(kind)));
}

const idx = (d: OperatorData, r: string) => d.releases.findIndex((x) => x.id === r);

/** What one release of the operator does with a group/version/kind. */
export interface ReleaseStatus {
  release: string;
  /** The release ships the CRD of this group/kind. */
  crd: boolean;
  /** The CRD lists the version (served or not). */
  present: boolean;
  served: boolean;
  /** Served only by the optional CRD set (the default CRDs do not serve it). */
  altOnly: boolean;
  storage: boolean;
  /** versions[].deprecated in the CRD, or a curated deprecation (webhook warning, documented) from this release on. */
  deprecated: boolean;
  /** The CRD's deprecationWarning text at this release. */
  warning?: string;
  /** The curated row that says it is deprecated here, when the CRD flag does not. */
  curated?: CuratedRow;
}

export function releaseStatus(d: OperatorData, crdKey: string, version: string, release: string): ReleaseStatus {
  const c = d.crds[crdKey];
  const v = c?.versions[version];
  const crd = !!c && inRanges(d, c.releases, release);
  const present = crd && !!v && inRanges(d, v.present, release);
  const served = present && inRanges(d, v!.served, release);
  const flag = present && inRanges(d, v!.deprecated, release);
  const warning = present ? v!.deprecationWarning?.find((w) => inRanges(d, w.releases, release))?.text : undefined;
  let curated: CuratedRow | undefined;
  if (served && !flag && c) {
    const i = idx(d, release);
    curated = curatedFor(d, c.group, version, c.kind).find((r) => r.deprecated && idx(d, r.deprecated) >= 0 && idx(d, r.deprecated) <= i
      && !(r.stoppedServing && idx(d, r.stoppedServing) >= 0 && idx(d, r.stoppedServing) <= i));
  }
  return {
    release, crd, present, served, altOnly: served && inRanges(d, v!.altOnly, release), storage: present && inRanges(d, v!.storage, release),
    deprecated: flag || !!curated, ...(warning ? { warning } : {}), ...(curated ? { curated } : {}),
  };
}

/** The storage version of the CRD at a release (the version to move to when only the version went). */
export function storageVersionAt(d: OperatorData, crdKey: string, release: string): string | undefined {
  const c = d.crds[crdKey];
  if (!c) return undefined;
  return Object.keys(c.versions).find((v) => inRanges(d, c.versions[v].storage, release));
}

/** The releases (ids) serving a version, first and last, across the data. */
export function servedSpan(d: OperatorData, crdKey: string, version: string): { first?: string; last?: string } {
  const ids = d.releases.map((r) => r.id).filter((r) => releaseStatus(d, crdKey, version, r).served);
  return { first: ids[0], last: ids[ids.length - 1] };
}
