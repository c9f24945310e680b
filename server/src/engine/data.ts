// Loads the versioned facts (data/) and the generated schemas (schemas/) from the package on disk.
// Loaded lazily and once: a run that never sees a StarlingX file never reads StarlingX data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LifecycleRow } from './families/kubernetes/data/lifecycle';
import { memoIn } from './memo';

function findRoot(): string {
  if (process.env.SKEWGUARD_ROOT) return process.env.SKEWGUARD_ROOT;
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    if (fs.existsSync(path.join(dir, 'data')) && fs.existsSync(path.join(dir, 'schemas'))) return dir;
    dir = path.dirname(dir);
  }
  return path.resolve(__dirname, '..');
}

export const packageRoot = findRoot();

const jsonCache = new Map<string, unknown>();
export function loadJson<T>(rel: string): T {
  return memoIn(jsonCache, rel, () => JSON.parse(fs.readFileSync(path.join(packageRoot, rel), 'utf8'))) as T;
}

export function jsonExists(rel: string): boolean {
  return fs.existsSync(path.join(packageRoot, rel));
}

// ---- StarlingX ----

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

export interface StxKey {
  key: string;
  type: string;
  category: string;
  description: string;
  releases: string[];
  defaults?: Record<string, unknown>;
  source?: Record<string, unknown>;
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

export function schemaPath(family: string, version: string, name: string): string {
  return `schemas/${family}/${version}/${name}.schema.json`;
}

// ---- Kubernetes ----

export interface ApiRow extends LifecycleRow {
  migration?: 'apiVersion-only' | 'spec-changes' | 'no-replacement' | 'unknown' | null;
  migrationNote?: string | null;
  sources?: string[];
  note?: string | null;
  /** Where a user row came from (.skewguard.yaml), for hovers. */
  origin?: string;
}
export interface ApiLifecycle {
  asOf: string;
  minors: string[];
  apis: ApiRow[];
  /** Per component other than k8s: the version its rows are checked at by default (Pluto's target-versions). */
  componentTargets?: Record<string, { version: string; plutoTarget?: string; source: string }>;
}

export function kubernetesApis(): ApiLifecycle { return loadJson<ApiLifecycle>('data/kubernetes/api-lifecycle.json'); }
