// containerd's config.toml facts (data/containerd/config.json, written by scripts/import-containerd.mjs): per
// containerd minor its config versions, the keys its config structs decode, the version-2 → 3 key moves of its
// migration code and the deprecations it warns about. Loaded lazily, once.
import { loadJson } from '../../../data';
import { compareMinor } from '../../../versions';

export interface ContainerdSource { tag: string; commit: string; at: string }
export interface ContainerdRelease {
  minor: string;
  firstTag: string;
  lastTag: string;
  commit: string;
  firstCommit: string;
  /** Config versions the minor's last patch reads (a higher one is a startup error there, or ignored before). */
  configVersions: number[];
  /** The version it writes (`containerd config default`) and migrates older files to, in memory. */
  currentConfigVersion: number;
  firstConfigVersions: number[];
  criPlugins: string[];
  versionNotes: Array<{ fact: string; source: string }>;
  migrations: Array<{ from: number; to: number; scope: string; plugin: string | null; what: string; source: string }>;
  /** Which options struct a runtime's `options` table is decoded into by its runtime_type, and each struct's fields. */
  runtimeOptions: ContainerdRuntimeOptions;
}
export interface ContainerdRuntimeOptions {
  /** runtime_type → options struct (runc-options, runctypes-options). */
  byRuntimeType: Record<string, string>;
  /** The struct of every other runtime_type (the generic TypeUrl/ConfigPath/ConfigBody message). */
  other: string;
  /** Runtime types whose options struct the data does not enumerate (runhcs): not judged. */
  notExtracted: string[];
  structs: Record<string, { file: string; root: string; fields: string[] }>;
  source: string;
}
export interface ContainerdKey {
  /** Dotted path; quoted segments for plugin IDs; `<name>` for user-chosen map keys. */
  path: string;
  type: string;
  minors: string[];
  notInFirstPatch?: string[];
  appliesWhenRuntimeType?: string[];
  source: ContainerdSource;
}
export interface ContainerdDeprecation {
  id: string;
  key: string | null;
  key2x: string | null;
  kind: 'config-key' | 'config-section';
  meaning: string;
  replacement: string;
  deprecatedIn: string | null;
  removedIn: string | null;
  warnedBy: Array<{ minor: string; tag: string; definedAt: string; emittedAt: string[]; removalPerMessage: string | null }>;
  /** A removal RELEASES.md announces for a release after the newest covered one (not done yet). */
  announcedRemoval?: { release: string; source: { file: string; at: string; tag: string; commit: string; row: string } };
}
/** A runtime containerd removed (runtime_type value, and its plugin tables): io.containerd.runc.v1, io.containerd.runtime.v1.linux in 2.0. */
export interface ContainerdRemovedRuntime {
  id: string; value: string; valueOf: string[]; meaning: string; replacement: string; deprecatedIn: string; removedIn: string;
  pluginTables?: string[]; sources: Array<Record<string, string>>;
}
export interface ContainerdData {
  source: { repo: string; tags: Record<string, string> };
  releases: ContainerdRelease[];
  keys: ContainerdKey[];
  /** minor → version-2 CRI key (placeholder path) → where that minor's migration moves it, and whether it reads it there. */
  v2map: Record<string, Record<string, Array<{ to: string; how: string; known: boolean }>>>;
  deprecations: ContainerdDeprecation[];
  removedRuntimes: ContainerdRemovedRuntime[];
  kubernetes: {
    source: { repo: string; file: string; tag: string; commit: string; note: string };
    containerdMinorToKubernetes: Record<string, string[]>;
    lastKubernetesMinorForContainerd1x: string;
  };
}

export const containerdData = (): ContainerdData => loadJson<ContainerdData>('data/containerd/config.json');

export const containerdMinors = (): string[] => containerdData().releases.map((r) => r.minor);

/** The containerd minors of the data from `from` to `to` (a patch such as 1.7.28 counts as its minor). */
export function containerdWindow(from: string, to: string): string[] {
  const m = (v: string) => /^v?(\d+\.\d+)/.exec(v)?.[1];
  const a = m(from), b = m(to);
  if (!a || !b) return [];
  return containerdMinors().filter((x) => compareMinor(x, a) >= 0 && compareMinor(x, b) <= 0);
}

export function containerdRelease(minor: string): ContainerdRelease | undefined {
  return containerdData().releases.find((r) => r.minor === minor);
}

/** "1.7", "1.7 and 2.0", "2.0..2.2": minors of a window, runs written as ranges. */
export function minorsText(ms: string[], window: string[]): string {
  const runs: string[][] = [];
  for (const m of ms) {
    const last = runs[runs.length - 1];
    if (last && window.indexOf(last[last.length - 1]) + 1 === window.indexOf(m)) last.push(m); else runs.push([m]);
  }
  const parts = runs.map((r) => (r.length > 2 ? `${r[0]}..${r[r.length - 1]}` : r.join(', ')));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0] ?? '';
}
