// Kata Containers configuration facts (data/kata/config.json) and small pure predicates over them.
import { loadJson } from '../../../data';
import { compareVersions } from '../../../versions';
import { memoIn, weakMemoIn } from '../../../memo';

export type Flavour = 'go' | 'runtime-rs';

export interface ReleaseRange { first: string; last: string | null; missingIn?: string[] }
export interface Ranged { from: string; to: string | null; flavour: Flavour; source?: string; note?: string }

export interface KataOption {
  section: string;
  key: string;
  commonToAllHypervisors?: boolean;
  concreteSections?: string[];
  flavours: Partial<Record<Flavour, ReleaseRange>>;
  templates?: Partial<Record<Flavour, ReleaseRange>>;
  types: Array<Ranged & { type: string; items?: string }>;
  /** The Go field types behind `types` (go flavour): uint32, int64, *uint64, … */
  goTypes?: Array<{ goType: string; from: string; to: string | null; missingIn?: string[] }>;
  /** The kata-types field types behind `types` (runtime-rs flavour): u8, u32, i64, usize, array<u32>, … */
  rustTypes?: Array<{ rustType: string; from: string; to: string | null }>;
  values: Array<Ranged & { enum: unknown[]; fatal: boolean; onlyInHypervisors?: string[]; onlyWithMachineTypes?: string[]; machineTypeDefault?: string; narrowerIn?: Record<string, string[]> }>;
  /** runtime-rs: releases where the field has no serde default (a table without it fails to load). */
  required?: Array<{ from: string; to: string | null; flavour: Flavour; source?: string }>;
  default?: unknown;
  doc?: string | null;
  docRelease?: string | null;
  renamedTo?: Array<{ section: string; key: string; in: string; flavour: Flavour; mapping?: string; note?: string; source?: string }>;
  sources?: string[];
  note?: string | null;
}

export interface KataSection {
  name: string;
  /** table, arrayOfTables ([[…]]), or group. */
  kind?: 'table' | 'arrayOfTables' | 'group';
  flavours: Partial<Record<Flavour, ReleaseRange>>;
  templates?: Partial<Record<Flavour, ReleaseRange>>;
  doc?: string | null;
  sources?: string[];
  note?: string | null;
  renamedTo?: unknown;
  /**
   * Per flavour, the releases in which the parser reads the table but the material does not list its keys (the Go
   * runtime's [[hypervisor.<name>.guest_extension_images]]: go-runtime-config-keys.json gives []guestExtensionImage,
   * not the struct's fields). A key without a row there is not checked, never unknown.
   */
  keysNotListed?: Partial<Record<Flavour, ReleaseRange & { goType?: string; source?: string }>>;
}

export interface KataData {
  asOf: string;
  releases: string[];
  hypervisorNames: Array<{ flavour: Flavour; from: string; to: string | null; names: string[]; unknownIsFatal: boolean; source?: string; note?: string }>;
  fatal: {
    unknownHypervisorSection: Partial<Record<Flavour, string | null>>;
    denyUnknownFields: { 'runtime-rs'?: { from: string; schemaTables: string[] } };
    validateAtLoad?: { 'runtime-rs'?: string };
    /** Fatality conditional on the hypervisor table and its machine type (outcomes tried in order, null = any). */
    conditional?: Array<{
      id: string; flavour: Flavour; from: string; to: string | null;
      when: { allSet: string[]; notEqual: string };
      outcomes: Array<{ hypervisors: string[] | null; machineTypes: string[] | null; severity: 'error' | 'warning'; says: string }>;
      source: string; note?: string;
    }>;
  };
  dropIns: { go?: { from: string; dir: string } | null; 'runtime-rs'?: unknown; note?: string };
  sections: KataSection[];
  options: KataOption[];
  renames: Array<Record<string, any>>;
}

export const kataData = (): KataData => loadJson<KataData>('data/kata/config.json');

export function newestKataRelease(): string {
  const r = kataData().releases;
  return r[r.length - 1];
}

/** "3.2" -> every 3.2.x; "3.2.0" -> that release. Both ends inclusive. */
export function kataWindow(from: string, to: string): string[] {
  return memoIn(windows, `${from}..${to}`, () => computeKataWindow(from, to), 256).slice();
}
const windows = new Map<string, string[]>();

/** The first release a window end stands for: "3.2" is 3.2.0, a patch release itself. */
export const releaseFloor = (v: string) => (v.split('.').length === 2 ? `${v}.0` : v);

function computeKataWindow(from: string, to: string): string[] {
  const rs = kataData().releases;
  const lo = releaseFloor;
  const hiOk = (r: string) => (to.split('.').length === 2 ? compareVersions(r.split('.').slice(0, 2).join('.'), to) <= 0 : compareVersions(r, to) <= 0);
  return rs.filter((r) => compareVersions(r, lo(from)) >= 0 && hiOk(r));
}

/** Row lookups by table and key, built once per data load (the rules ask for every key at every release of the window). */
export interface KataIndex {
  options: Map<string, KataOption[]>;
  sections: Map<string, KataSection>;
  /** Release -> its position in `releases`, so that range checks compare integers. */
  ordinal: Map<string, number>;
}
const indexes = new WeakMap<KataData, KataIndex>();
export function kataIndex(d: KataData = kataData()): KataIndex {
  return weakMemoIn(indexes, d, () => {
    const options = new Map<string, KataOption[]>();
    for (const o of d.options) memoIn(options, `${o.section}\u0000${o.key}`, () => [] as KataOption[]).push(o);
    return { options, sections: new Map(d.sections.map((s) => [s.name, s])), ordinal: new Map(d.releases.map((r, i) => [r, i])) };
  });
}

/** compareVersions for the data's releases, by position when both are known releases. */
function cmp(a: string, b: string): number {
  const o = kataIndex().ordinal;
  const x = o.get(a), y = o.get(b);
  return x !== undefined && y !== undefined ? x - y : compareVersions(a, b);
}

export function inRange(r: ReleaseRange | undefined, release: string): boolean {
  if (!r) return false;
  if (cmp(release, r.first) < 0) return false;
  if (r.last && cmp(release, r.last) > 0) return false;
  return !r.missingIn?.includes(release);
}

export function inRanged(x: { from: string; to: string | null }, release: string): boolean {
  return cmp(release, x.from) >= 0 && (x.to === null || cmp(release, x.to) <= 0);
}

/** Consecutive runs of a sub-list of `all`, written as ranges: "3.2.0–3.9.0, 3.11.0". */
export function describeReleases(subset: string[], all: string[]): string {
  const set = new Set(subset);
  const runs: string[][] = [];
  let cur: string[] = [];
  for (const r of all) {
    if (set.has(r)) cur.push(r);
    else if (cur.length) { runs.push(cur); cur = []; }
  }
  if (cur.length) runs.push(cur);
  return runs.map((x) => (x.length === 1 ? x[0] : `${x[0]}–${x[x.length - 1]}`)).join(', ');
}
