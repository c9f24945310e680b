// Kustomize: kustomization.yaml (Kustomization, Component) checked against the kustomize that each step's kubectl
// embeds (`kubectl apply -k`), from data/kubernetes/kustomize.json.
import * as path from 'node:path';
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';
import type { KubeWindow } from '../kubernetes/config';
import { loadJson } from '../../data';
import { compareVersions } from '../../versions';
import { compareMinor } from '../kubernetes/data/lifecycle';
import type { KubernetesContext } from '../kubernetes';
import type { FileAccess } from '../../files';
import { windowText } from '../../window-text';

export interface KustomizeSource { repo: string; path: string; commit: string | null; what: string }
export interface KubectlRow { from: string; to: string | null; version: string | null; major: number | null; atLeast?: string; note?: string; sources: KustomizeSource[] }
export interface FieldRow {
  name: string; introduced: string | null; deprecated: string | null; replacement: string | null; replacementSince?: string; fix: string | null;
  /** introduced null: a release a source shows rejecting the field (it and every earlier one do not read it). */
  notReadBy?: string;
  /** introduced null: a release a source shows reading the field (it and every later one read it). */
  readBy?: string;
  kind: string | null; what: string; note?: string; sources: KustomizeSource[];
}
export interface KustomizeData { asOf: string; kubectl: KubectlRow[]; fields: FieldRow[]; apiVersions: Array<{ apiVersion: string; kind: string; note?: string }> }

export const kustomizeData = (): KustomizeData => loadJson<KustomizeData>('data/kubernetes/kustomize.json');

export const KUSTOMIZATION_NAMES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);
export const isKustomizationName = (file: string): boolean => KUSTOMIZATION_NAMES.has(path.basename(file));
const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
/** A document that says it is a Kustomization or a Component. */
export const isKustomizationValue = (v: unknown): boolean => isObj(v) && typeof v.apiVersion === 'string'
  && /^kustomize\.config\.k8s\.io\//.test(v.apiVersion) && (v.kind === 'Kustomization' || v.kind === 'Component');

/** What one step of the window runs: its kubectl minor and that kubectl's kustomize. */
export interface KustomizeStep {
  minor: string;
  /** The exact kustomize release, when the data knows it. */
  version: string | null;
  /** The kustomize major (null: kubectl has no kustomize at this minor). */
  major: number | null;
  /** A lower bound when the exact release is not known. */
  atLeast?: string;
  row: KubectlRow;
}

/** The step's kubectl and kustomize; undefined when the data has no kubectl row for the minor (said, never guessed). */
export function stepOf(minor: string): KustomizeStep | undefined {
  const row = kustomizeData().kubectl.find((r) => compareMinor(minor, r.from) >= 0 && (r.to === null || compareMinor(minor, r.to) <= 0));
  return row && { minor, version: row.version, major: row.major, atLeast: row.atLeast, row };
}

/** "kustomize 4.0.5", "kustomize v5 (release not in the data)". */
export const kustomizeName = (s: KustomizeStep): string => (s.version ? `kustomize ${s.version}` : s.major ? `kustomize v${s.major} (exact release not in the data)` : 'no kustomize');

/**
 * Whether a step's kustomize is at least `v`: true, false, or undefined when the data cannot say (an exact release
 * not known and `v` above its lower bound).
 */
export function atLeast(s: KustomizeStep, v: string): boolean | undefined {
  if (s.major === null) return false;
  if (v === '1.0') return true;
  if (s.version) return compareVersions(s.version, v) >= 0;
  if (s.atLeast && compareVersions(s.atLeast, v) >= 0) return true;
  const vMajor = Number(v.split('.')[0]);
  if (Number.isFinite(vMajor) && vMajor > s.major) return false;
  return undefined;
}

/** Whether a field is read at a step: true, false, or undefined when the data cannot say. */
export function fieldKnownAt(f: FieldRow, s: KustomizeStep): boolean | undefined {
  if (s.major === null) return false;
  if (f.introduced === null) { // after v2.0.x, exact release not read: the bounds the sources show, else not known
    if (s.major <= 2) return false;
    if (f.notReadBy && s.version && compareVersions(s.version, f.notReadBy) <= 0) return false;
    if (f.readBy && atLeast(s, f.readBy) === true) return true;
    return undefined;
  }
  return atLeast(s, f.introduced);
}

/** Whether a field is deprecated at a step (`5.x`: from some v5 release, not pinned: undefined at v5 steps). */
export function fieldDeprecatedAt(f: FieldRow, s: KustomizeStep): boolean | undefined {
  if (!f.deprecated || s.major === null) return false;
  if (f.deprecated === '5.x') return s.major >= 5 ? undefined : false;
  return atLeast(s, f.deprecated);
}

export interface TopField { name: string; key: OffsetRange; value: OffsetRange; row?: FieldRow }

export class KustomizeContext {
  /** The window's steps the data knows the kubectl of (the rules judge these). */
  readonly steps: KustomizeStep[];
  /** Steps of the window with no kubectl row in the data: not checked, and said so (kustomize/field-not-read). */
  readonly unmapped: string[];
  readonly fields: TopField[] = [];
  constructor(
    readonly file: YamlFile,
    /** The kustomization's document (the first that is a mapping). */
    readonly doc: YamlDoc | undefined,
    readonly window: KubeWindow,
    readonly path: string,
    /** The lifecycle rows and the window as the Kubernetes family reads them (patch targets, `images:` entries). */
    readonly k8s: KubernetesContext = undefined as never,
    /** Read access to the files around the kustomization (AnalyzeInput.files), when the caller gives it. */
    readonly files?: FileAccess,
  ) {
    const steps = window.minors.map((m) => ({ m, s: stepOf(m) }));
    this.steps = steps.flatMap((x) => (x.s ? [x.s] : []));
    this.unmapped = steps.filter((x) => !x.s).map((x) => x.m);
    const rows = new Map(kustomizeData().fields.map((f) => [f.name, f]));
    if (doc && isObj(doc.value)) {
      for (const name of Object.keys(doc.value)) {
        const loc = doc.locate([name]);
        this.fields.push({ name, key: loc.key ?? loc.value, value: loc.value, row: rows.get(name) });
      }
    }
  }
  get value(): Record<string, any> { return (isObj(this.doc?.value) ? this.doc!.value : {}) as Record<string, any>; }
  get minors(): string[] { return this.window.minors; }
  get windowText(): string { return windowText(this.minors); }
  field(name: string): TopField | undefined { return this.fields.find((f) => f.name === name); }
  locate(p: Array<string | number>) { return this.doc!.locate(p); }
}

/** "1.21, 1.22" → "1.21..1.22" when consecutive in the window. */
export function stepsText(minors: string[]): string {
  return minors.length > 2 ? `${minors[0]}..${minors[minors.length - 1]}` : minors.join(', ');
}
