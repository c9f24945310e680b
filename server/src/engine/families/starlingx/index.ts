// StarlingX bootstrap overrides (localhost.yml): recognition and the per-file context its rules read.
import * as path from 'node:path';
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';
import { schemaPath } from '../../data';
import { starlingxKeyNames, type StxRelease } from './data';
import { validateDoc, schemaFor, type SchemaProblem } from '../../schema';
import type { SourceInfo } from '../../types';
import type { KubeWindow } from '../kubernetes/config';
import { starlingxPath, windowFromStarlingx } from './data';
import { compareVersions, minorOf, normalizeVersion } from '../../versions';

export function isStarlingxName(file: string): boolean {
  return /localhost[^/\\]*\.ya?ml$/i.test(path.basename(file));
}

// What makes a mapping of a top-level sequence an Ansible play (or a playbook import): `hosts`, or an import of
// another playbook (`import_playbook`, its FQCN, and `include`, its form before Ansible 2.4).
const PLAY_KEYS = ['hosts', 'import_playbook', 'ansible.builtin.import_playbook', 'include'];

/**
 * An Ansible playbook (`- hosts: localhost …`): a top-level sequence whose every item is a play or a playbook import.
 * A playbook may be named localhost.yml; it is not a bootstrap overrides file (which Ansible reads as a mapping of variables).
 */
export function isAnsiblePlaybook(doc: YamlDoc | undefined): boolean {
  if (!doc || doc.errors.length) return false;
  const v = doc.value;
  return Array.isArray(v) && v.length > 0
    && v.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item) && PLAY_KEYS.some((k) => Object.prototype.hasOwnProperty.call(item, k)));
}

/** Content test: a top-level mapping, no apiVersion/kind, and most of its keys are bootstrap keys. */
export function looksLikeStarlingx(doc: YamlDoc | undefined): boolean {
  if (!doc) return false;
  const entries = doc.topLevelEntries();
  if (entries.length === 0) return false;
  const keys = entries.map((e) => e.key);
  if (keys.includes('apiVersion') && keys.includes('kind')) return false;
  const known = starlingxKeyNames();
  const hits = keys.filter((k) => known.has(k)).length;
  return hits >= 1 && hits * 2 >= keys.length;
}

export interface KubeVersionValue {
  raw: unknown;
  text: string | undefined;
  range: OffsetRange;
  keyRange?: OffsetRange;
  /** The value without quotes and without a `v`. */
  normalised?: string;
  /** Quote character around the value in the source, if any. */
  quote: string;
}

export class StarlingxContext {
  private problemsMemo?: SchemaProblem[];
  constructor(
    readonly file: YamlFile,
    readonly doc: YamlDoc,
    readonly release: StxRelease,
    readonly releaseSource: SourceInfo,
  ) {}

  get value(): Record<string, unknown> {
    const v = this.doc.value;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
  get schemaRel(): string | undefined {
    return this.release.hasSchema ? schemaPath('starlingx', this.release.release, 'localhost') : undefined;
  }
  get schema(): Record<string, any> | undefined {
    return this.schemaRel ? schemaFor(this.schemaRel) : undefined;
  }
  schemaProblems(): SchemaProblem[] {
    if (!this.schemaRel) return [];
    return (this.problemsMemo ??= validateDoc(this.schemaRel, this.doc, this.value));
  }
  get shipped(): string[] { return this.release.kubernetes.map((k) => k.version); }

  kubernetesVersion(): KubeVersionValue | undefined {
    if (!('kubernetes_version' in this.value)) return undefined;
    const raw = this.value.kubernetes_version;
    const loc = this.doc.locate(['kubernetes_version']);
    const src = this.file.text.slice(loc.value.start, loc.value.end);
    const quote = /^["']/.test(src) ? src[0] : '';
    const text = typeof raw === 'string' ? raw : undefined;
    return { raw, text, range: loc.value, keyRange: loc.key, quote, normalised: text === undefined ? undefined : normalizeVersion(text) };
  }

  /** The Kubernetes window this file implies: its release's path from its kubernetes_version (or the default). */
  kubeWindow(): KubeWindow {
    const kv = this.kubernetesVersion();
    return windowFromStarlingx(this.release, kv?.normalised, { kind: 'workspace', detail: 'this file' });
  }

  /** Upgrade path from a version to the newest, excluding the start. */
  upgradesAfter(version: string): string[] { return starlingxPath(this.release, version).slice(1); }

  /** Shipped patch of the same minor (the newest one), if any. */
  sameMinorPatch(version: string): string | undefined {
    const m = minorOf(version);
    return this.shipped.filter((v) => minorOf(v) === m).sort(compareVersions).pop();
  }
}

/** State each shipped version would have in `system kube-version-list` right after installing `installed`. */
export function versionStates(rel: StxRelease, installed: string): Array<{ version: string; state: 'active' | 'available' | 'unavailable'; note?: string }> {
  return rel.kubernetes.map((k) => {
    if (k.version === installed) return { version: k.version, state: 'active' as const };
    const higher = compareVersions(k.version, installed) > 0;
    if (rel.availableRule !== 'none' && k.upgradeFrom.includes(installed)) return { version: k.version, state: 'available' as const };
    if (higher && rel.availableRule === 'upgrade-from+higher') return { version: k.version, state: 'available' as const };
    if (higher && rel.availableRule === 'upgrade-from+higher-if-simplex') return { version: k.version, state: 'available' as const, note: 'on AIO-SX only; unavailable otherwise' };
    return { version: k.version, state: 'unavailable' as const };
  });
}
