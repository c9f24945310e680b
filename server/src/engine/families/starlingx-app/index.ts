// StarlingX application bundles: a bundle's metadata.yaml (app_name, app_version, supported_k8s_version, k8s_upgrades …),
// recognised by its name and content, and the per-file context its rules read: the keys sysinv reads at each release of
// the StarlingX upgrade path (data/starlingx/app-metadata.json) and the Kubernetes window.
import * as path from 'node:path';
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';
import type { KubeWindow } from '../kubernetes/config';
import type { StxRelease } from '../starlingx/data';
import { formatList } from '../../versions';
import { appMetadata, type AppKey, type AppEnforcement } from './data';

export const isAppMetadataName = (file: string) => path.basename(file) === 'metadata.yaml';

/** Keys of an application's metadata.yaml: in a file named metadata.yaml one of them at the top level is enough. */
const TELLING = ['app_name', 'app_version', 'supported_k8s_version', 'k8s_upgrades', 'upgrades', 'supported_releases', 'dependent_apps', 'helm_repo'];

/**
 * metadata.yaml content: a mapping without apiVersion/kind with an application key at the top level (`named`: the file
 * is called metadata.yaml). Under another name (a modeline or `files:` aside) it takes app_name and app_version and
 * supported_k8s_version or k8s_upgrades, so that an unrelated YAML file with an `upgrades:` key is not taken for one.
 */
export function looksLikeAppMetadata(doc: YamlDoc | undefined, named = true): boolean {
  if (!doc) return false;
  const keys = doc.topLevelEntries().map((e) => e.key);
  if (keys.includes('apiVersion') && keys.includes('kind')) return false;
  if (named) return keys.some((k) => TELLING.includes(k));
  return keys.includes('app_name') && keys.includes('app_version') && (keys.includes('supported_k8s_version') || keys.includes('k8s_upgrades'));
}

export interface AppEntry {
  /** Path of keys, e.g. ['upgrades', 'auto_update']. */
  path: string[];
  /** "upgrades.auto_update" */
  name: string;
  value: unknown;
  keyRange: OffsetRange;
  valueRange: OffsetRange;
  /** The data row of this key; undefined for a key sysinv does not read. */
  spec?: AppKey;
}

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export class AppContext {
  private entriesMemo?: AppEntry[];
  constructor(
    readonly file: YamlFile,
    readonly doc: YamlDoc,
    /** The StarlingX releases of the path that the data covers ("10.0", …, "master"), in order. */
    readonly releases: string[],
    /** Releases of the path the data does not cover (before 8.0). */
    readonly uncovered: string[],
    /** The release whose Kubernetes path is the window. */
    readonly release: StxRelease,
    readonly window: KubeWindow,
    readonly pathText: string,
    /** On a platform upgrade path: the StarlingX release that runs each Kubernetes version of the window first. */
    readonly kubeReleases?: Map<string, string>,
  ) {}

  get value(): Record<string, unknown> { return isMap(this.doc.value) ? this.doc.value : {}; }

  spec(name: string): AppKey | undefined { return appMetadata().keys.find((k) => k.key === name); }

  /** Keys whose children are keys of their own (upgrades, behavior …), as opposed to free-form mappings. */
  private structured(name: string): boolean {
    return name === '' || appMetadata().keys.some((k) => k.path.length > 1 && k.path.slice(0, -1).join('.') === name);
  }

  /** Every key of the file at a level sysinv reads as keys: the top level and the structured mappings below it. */
  entries(): AppEntry[] {
    if (this.entriesMemo) return this.entriesMemo;
    const out: AppEntry[] = [];
    const walk = (v: Record<string, unknown>, at: string[]) => {
      for (const k of Object.keys(v)) {
        const p = [...at, k];
        const loc = this.doc.locate(p);
        const name = p.join('.');
        out.push({ path: p, name, value: v[k], keyRange: loc.key ?? loc.value, valueRange: loc.value, spec: this.spec(name) });
        if (isMap(v[k]) && this.spec(name) && this.structured(name)) walk(v[k] as Record<string, unknown>, p);
      }
    };
    walk(this.value, []);
    return (this.entriesMemo = out);
  }

  entry(name: string): AppEntry | undefined { return this.entries().find((e) => e.name === name); }

  /** Releases of the path that read the key. */
  readIn(spec: AppKey): string[] { return this.releases.filter((r) => spec.releases[r]); }

  /** Where a missing top-level key is reported: the first key of the file. */
  get topRange(): OffsetRange {
    const first = this.doc.topLevelEntries()[0];
    return first ? first.keyRange : { start: this.doc.rootRange().start, end: this.doc.rootRange().start };
  }

  /** What sysinv does (per the data) in the release of the Kubernetes window; master's rows for master. */
  enforcement(): { release: string; e: AppEnforcement } | undefined {
    const r = this.release.release;
    const e = appMetadata().enforcement[r];
    return e ? { release: r, e } : undefined;
  }

  /**
   * The StarlingX release that runs a Kubernetes version of the window (on a platform upgrade path, the first release
   * of the path that runs it) and what its sysinv does; the window's release otherwise, or when the data has no rows for it.
   */
  enforcementAt(version: string): { release: string; e: AppEnforcement } | undefined {
    const r = this.kubeReleases?.get(version);
    const e = r ? appMetadata().enforcement[r] : undefined;
    return r && e ? { release: r, e } : this.enforcement();
  }
}

/** "a, b and c" */
export const listText = (xs: string[]) => formatList(xs);
/** "10.0..12.0" for three or more consecutive releases of the data, else "8.0, 10.0 and 11.0". */
export function releasesText(xs: string[]): string {
  const all = appMetadata().releases;
  const at = xs.map((x) => all.indexOf(x));
  const consecutive = at.every((i, k) => i >= 0 && (k === 0 || i === at[k - 1] + 1));
  return xs.length > 2 && consecutive ? `${xs[0]}..${xs[xs.length - 1]}` : listText(xs);
}

/** A minimum/maximum as sysinv's format check reads it: `.strip().lstrip('v')`. */
export const stripV = (v: string) => v.trim().replace(/^v+/, '');

/** A bound as sysinv compares it: major.minor is major.minor.0 ("v1.27 is equal to v1.27.0", app_metadata.py). */
export const boundVersion = (v: string) => { const s = stripV(v); return /^\d+\.\d+$/.test(s) ? `${s}.0` : s; };

/**
 * distutils LooseVersion's components of a version (after a leading "v" is removed): runs of digits (numbers), runs of
 * lower-case letters and whatever text lies between them ("-", "RC"), the dots dropped. "1.29.2-rc1" is
 * [1, 29, 2, "-", "rc", 1].
 */
export function looseVersionParts(v: string): Array<number | string> {
  return stripV(v).split(/(\d+|[a-z]+|\.)/).filter((x) => x !== '' && x !== '.').map((x) => (/^\d+$/.test(x) ? Number(x) : x));
}

/**
 * LooseVersion order of two versions as Python 3 compares their component lists: numbers numerically, strings by code
 * point, a list that is a prefix of a longer one is smaller ("1.29.2" < "1.29.2-rc1"). Undefined where Python cannot
 * order them: a number against a string at the first difference raises TypeError.
 */
export function looseVersionCompare(a: string, b: string): number | undefined {
  const pa = looseVersionParts(a), pb = looseVersionParts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i], y = pb[i];
    if (x === y) continue;
    if (typeof x !== typeof y) return undefined;
    return typeof x === 'number' ? x - (y as number) : (x < y ? -1 : 1);
  }
  return pa.length - pb.length;
}

/** sysinv's format check of minimum/maximum (10.0+): after a leading "v", ([0-9][.])([0-9]+[.])?([0-9]+). */
export const K8S_VERSION_FORMAT = /^([0-9][.])([0-9]+[.])?([0-9]+)$/;
