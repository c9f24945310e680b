// The StarlingX data (data/starlingx/, from scripts/import-starlingx*.mjs): its releases with the Kubernetes versions
// each ships and its upgrade paths, and the bootstrap keys each release reads. Loaded lazily and once: a run that never
// sees a StarlingX file nor a StarlingX window never reads it. The core reads it only through the StarlingX config
// section (families/starlingx/config.ts) and the Kubernetes window it sets (windowFromStarlingx).
import { loadJson } from '../../../data';
import type { SourceInfo } from '../../../types';
import type { KubeWindow } from '../../kubernetes/config';
import { minorOf, compareVersions, normalizeVersion } from '../../../versions';

export interface StxKubeVersion { version: string; upgradeFrom: string[] }
export interface StxRelease {
  release: string;
  tag: string;
  kubernetes: StxKubeVersion[];
  default: string;
  upgradeBootstrapVersion: string | null;
  override: 'supported' | 'not-supported';
  overrideNote?: string;
  availableRule: 'upgrade-from' | 'upgrade-from+higher-if-simplex' | 'upgrade-from+higher' | 'none';
  kubeletSkewTolerance: number | null;
  hasSchema: boolean;
  /** Versions with a load-images-information/vars/k8s-v<X.Y.Z> directory at that tag; null = not examined. */
  playbookImageVars?: Array<{ version: string; symlinkTo: string | null }> | null;
  /** Keys the release reads but replaces before they take effect. */
  keysReplaced?: Array<{ key: string; why: string; source: string }>;
  source: Record<string, unknown>;
  notes?: string[];
}
export interface StxReleases { asOf: string; releases: StxRelease[] }

/** A validated-values.json rule of a key (keys.json validation / nested): what the release's playbook checks. */
export interface StxKeyRule {
  kind: string;
  allowed: unknown[];
  releases: string[];
  message?: string;
  /** Pair rules of top-level keys: every key of the pair (the rule is attached to each). */
  members?: string[];
  /** Nested rules: where below the key ("<registry>.username/password"). */
  path?: string;
  source?: { repo?: string; tag?: string; path?: string; line?: number; commit?: string };
}
export interface StxKey {
  key: string;
  type: string;
  category: string;
  description: string;
  releases: string[];
  defaults?: Record<string, unknown>;
  source?: Record<string, unknown>;
  validation?: StxKeyRule[];
  nested?: StxKeyRule[];
}
export interface StxKeys { asOf: string; releases: string[]; keys: StxKey[] }

export function starlingxReleases(): StxReleases { return loadJson<StxReleases>('data/starlingx/releases.json'); }
export function starlingxKeys(): StxKeys { return loadJson<StxKeys>('data/starlingx/keys.json'); }

export function findStarlingxRelease(name: string): StxRelease | undefined {
  const n = normaliseStxRelease(name);
  return starlingxReleases().releases.find((r) => r.release === n);
}

/** "6", "6.0", "6.0.0", "stx-6.0", "r/stx.6.0" -> "6.0"; "master" stays. */
export function normaliseStxRelease(name: string): string {
  const s = String(name).trim().toLowerCase();
  if (s === 'master') return 'master';
  const m = /(\d+)(?:\.(\d+))?/.exec(s);
  return m ? `${Number(m[1])}.${Number(m[2] ?? 0)}` : s;
}

/** The newest tagged release (master is a moving branch, not a release). */
export function newestStarlingxRelease(): StxRelease {
  const rs = starlingxReleases().releases.filter((r) => r.release !== 'master');
  return rs[rs.length - 1];
}

let allStxKeyNames: Set<string> | undefined;
export function starlingxKeyNames(): Set<string> {
  return (allStxKeyNames ??= new Set(starlingxKeys().keys.map((k) => k.key)));
}

// ---- upgrade paths: the platform's (starlingx.upgradeFrom..release) and the Kubernetes path a release ships ----

/** A release's place in the data (master last). */
export const releaseIndex = (r: StxRelease) => starlingxReleases().releases.indexOf(r);

/** The StarlingX releases from `from` to `to`, in order (master only when it is `to`). */
export function starlingxUpgradePath(from: StxRelease | undefined, to: StxRelease): StxRelease[] {
  if (!from || releaseIndex(from) >= releaseIndex(to)) return [to];
  return starlingxReleases().releases.slice(releaseIndex(from), releaseIndex(to) + 1).filter((r) => r === to || r.release !== 'master');
}

export function unknownReleaseMessage(rel: string): string {
  return `unknown StarlingX release "${rel}"; known: ${starlingxReleases().releases.map((r) => r.release).join(', ')}`;
}

/** The upgrade path of a StarlingX release from `start` to its newest version, one minor at a time, newest patch of each minor. */
export function starlingxPath(rel: StxRelease, start: string): string[] {
  const versions = rel.kubernetes.map((k) => k.version);
  const startMinor = minorOf(start);
  const bestPerMinor = new Map<string, string>();
  for (const v of versions) {
    const m = minorOf(v)!;
    if (!bestPerMinor.has(m) || compareVersions(v, bestPerMinor.get(m)!) > 0) bestPerMinor.set(m, v);
  }
  const path = [start];
  for (const [m, v] of [...bestPerMinor].sort((a, b) => compareVersions(a[0], b[0]))) {
    if (startMinor && compareVersions(m, startMinor) > 0) path.push(v);
  }
  return path;
}

export function windowFromStarlingx(rel: StxRelease, kubernetesVersion: string | undefined, source: SourceInfo): KubeWindow {
  const shipped = rel.kubernetes.map((k) => k.version);
  const v = kubernetesVersion === undefined ? undefined : normalizeVersion(kubernetesVersion);
  const start = v && shipped.includes(v) ? v : rel.default;
  const patches = starlingxPath(rel, start);
  return { minors: patches.map((p) => minorOf(p)!), patches, source };
}

/** A Kubernetes version a cluster runs on a platform upgrade path, and the StarlingX release it runs it on first. */
export interface StxPathKube { version: string; release: string }

/**
 * The Kubernetes versions a cluster runs along a platform upgrade path (starlingx.upgradeFrom..release), ascending, from
 * data/starlingx/releases.json (shared reference kube-versions.json): on the first release its default Kubernetes up to
 * its newest, as the release alone is read (starlingxPath); the platform upgrade keeps the cluster's version, which the
 * next release ships for that case (12.0 ships 11.0's 1.32.2 and 1.33.0), and from it that release's path goes on up to
 * its newest. A version the next release does not ship (6.0's 1.21.3 in 7.0) continues at the version that release
 * bootstraps a platform upgrade with (upgrade_k8s_version, 6.0–8.0), else at its lowest version not below it. `last`
 * (the window of the path's last release, e.g. from a localhost.yml's kubernetes_version) is added on the last release.
 */
export function kubernetesAlongPath(path: StxRelease[], last: readonly string[] = []): StxPathKube[] {
  const out: StxPathKube[] = [];
  const add = (version: string, release: string) => { if (!out.some((o) => o.version === version)) out.push({ version, release }); };
  let carried: string | undefined;
  path.forEach((rel, i) => {
    const shipped = rel.kubernetes.map((k) => k.version);
    let start = rel.default;
    if (carried !== undefined) {
      const c = carried;
      if (shipped.includes(c)) start = c;
      else if (rel.upgradeBootstrapVersion && shipped.includes(rel.upgradeBootstrapVersion)) start = rel.upgradeBootstrapVersion;
      else start = shipped.filter((v) => compareVersions(v, c) >= 0).sort(compareVersions)[0] ?? rel.default;
    }
    const steps = starlingxPath(rel, start);
    for (const v of steps) add(v, rel.release);
    if (i === path.length - 1) for (const v of last) add(normalizeVersion(v), rel.release);
    carried = steps[steps.length - 1];
  });
  return out.sort((a, b) => compareVersions(a.version, b.version));
}
