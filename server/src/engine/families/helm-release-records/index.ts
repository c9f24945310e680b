// Helm release records, as `kubectl get secrets -A -l owner=helm -o yaml` (or `-o json`) prints them: a v1 List of
// Secrets of type helm.sh/release.v1 (Helm's default storage), ConfigMaps labelled owner=helm (HELM_DRIVER=configmap),
// or one such object. Each record is decoded (decode.ts) and the objects of its stored `manifest` are read with the
// Kubernetes family's lifecycle rows, at every step of the Kubernetes window: after an upgrade removes an API that a
// stored release uses, Helm cannot build the objects of that release's manifest any more, so `helm upgrade` and
// `helm rollback` of it fail (helm/helm#7219; what helm-mapkubeapis rewrites).
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';
import { parseYaml } from '../../parse/yaml';
import { matchesAfter } from '../../text';
import type { KubeWindow } from '../kubernetes/config';
import type { ApiRow } from '../kubernetes/data/apis';
import { KubernetesContext, manifestObjects, type ManifestObject } from '../kubernetes';
import { decodeRelease, MAX_FILE_UNPACKED, type Decoded } from './decode';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Helm's Secret type for a release (pkg/storage/driver/secrets.go). */
export const RELEASE_TYPE = 'helm.sh/release.v1';

/** Whether an object is a Helm release record: a Secret of Helm's type, or a Secret or ConfigMap labelled owner=helm with data.release. */
export function recordKind(v: unknown): 'Secret' | 'ConfigMap' | undefined {
  if (!isObj(v) || v.apiVersion !== 'v1') return undefined;
  const labelled = isObj(v.metadata) && isObj(v.metadata.labels) && v.metadata.labels.owner === 'helm' && isObj(v.data) && 'release' in v.data;
  if (v.kind === 'Secret' && (v.type === RELEASE_TYPE || labelled)) return 'Secret';
  if (v.kind === 'ConfigMap' && labelled) return 'ConfigMap';
  return undefined;
}

/** The objects of a parsed file (each document, or each item of a List) with their path in the document. */
export function objectsOf(yaml: YamlFile): Array<{ doc: YamlDoc; at: Array<string | number>; value: unknown }> {
  const out: Array<{ doc: YamlDoc; at: Array<string | number>; value: unknown }> = [];
  for (const doc of yaml.docs) {
    if (doc.empty || doc.errors.length) continue;
    const v = doc.value;
    if (isObj(v) && typeof v.kind === 'string' && /List$/.test(v.kind) && Array.isArray(v.items)) {
      v.items.forEach((item: unknown, i: number) => out.push({ doc, at: ['items', i], value: item }));
    } else if (v != null) out.push({ doc, at: [], value: v });
  }
  return out;
}

/** A cheap look at the text before anything is walked: every record names Helm (its type or its owner label). */
export const mayHoldRecords = (text: string): boolean => text.includes(RELEASE_TYPE) || ownedByHelm(text);

/**
 * Whether the text holds `owner: helm` (the key or the value quoted or not): looked for at each `owner` the native
 * search finds, not by one expression over the whole text (an optional quote before `owner` let it start at every
 * character: 6 ms of every check of a 12 MB bundle).
 */
const OWNER_HELM = /owner["']?\s*:\s*["']?helm\b/y;
export function ownedByHelm(text: string): boolean {
  // Each "owner" found by "wner" (text.ts indexOfBy: 4.4 ms of every check of an 11.7 MB bundle by "owner", 0.8 ms).
  return matchesAfter(text, 'owner', OWNER_HELM, 'wner');
}

export function holdsRecords(yaml: YamlFile | undefined, text: string): boolean {
  if (!yaml || !mayHoldRecords(text)) return false;
  return objectsOf(yaml).some((o) => recordKind(o.value));
}

/** An object of a stored manifest and the steps of the window at which it is not served. */
export interface StoredObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** Window steps that do not serve it (empty: served at every step). */
  notServedAt: string[];
  /** Why, in a phrase: "removed in 1.25", "not served before 1.21", "removed in cert-manager 1.6 (checked at …)". */
  why?: string;
  removedIn?: string | null;
}

export interface ReleaseRecord {
  doc: YamlDoc;
  /** Path of the record in its document ([] or ['items', i]). */
  at: Array<string | number>;
  storage: 'Secret' | 'ConfigMap';
  /** The record's object name (sh.helm.release.v1.<release>.v<revision>). */
  objectName: string;
  /** Where its findings go: its metadata.name, else its data.release key, else its kind. */
  range: OffsetRange;
  /** How it was read (the release itself is not kept: only what the rules need, below). */
  decoded: { ok: true; gzipped: boolean; bytes: number } | { ok: false; why: string; web?: boolean };
  name: string;
  namespace?: string;
  revision?: number;
  status?: string;
  chart?: string;
  /** The objects of its stored manifest (only when decoded). */
  objects: StoredObject[];
  /** Documents of the stored manifest that were not read, and why. */
  unread: string[];
  /** Whether `helm upgrade`/`rollback` start from this record (the deployed revision of its release), else a rollback target. */
  current: boolean;
}

export class ReleaseRecordsContext {
  constructor(
    readonly file: YamlFile,
    readonly records: ReleaseRecord[],
    /** Objects of the file that are no release record (said, not checked). */
    readonly others: Array<{ range: OffsetRange; what: string }>,
    readonly window: KubeWindow,
  ) {}
  get minors(): string[] { return this.window.minors; }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Reads every record of the file: decodes it and judges each object of its manifest at each step of the window. */
export function readRecords(yaml: YamlFile, window: KubeWindow, rows: ApiRow[], k8s: (y: YamlFile, objects: ManifestObject[]) => KubernetesContext): ReleaseRecordsContext {
  const records: ReleaseRecord[] = [];
  const others: Array<{ range: OffsetRange; what: string }> = [];
  let budget = MAX_FILE_UNPACKED;
  for (const { doc, at, value } of objectsOf(yaml)) {
    const storage = recordKind(value);
    if (!storage) {
      const v = value as Record<string, unknown>;
      const what = isObj(v) && typeof v.kind === 'string' ? `${typeof v.apiVersion === 'string' ? `${v.apiVersion} ` : ''}${v.kind}${isObj(v.metadata) && str(v.metadata.name) ? ` ${v.metadata.name}` : ''}` : 'a value that is no Kubernetes object';
      others.push({ range: doc.locate(at.length ? [...at, 'kind'] : ['kind']).value, what });
      continue;
    }
    const v = value as Record<string, any>;
    const meta = isObj(v.metadata) ? v.metadata : {};
    const labels: Record<string, unknown> = isObj(meta.labels) ? meta.labels : {};
    const objectName = str(meta.name) ?? '';
    const range = meta.name !== undefined ? doc.locate([...at, 'metadata', 'name']).value
      : isObj(v.data) && 'release' in v.data ? doc.locate([...at, 'data', 'release']).key ?? doc.locate([...at, 'data', 'release']).value
        : doc.locate([...at, 'kind']).value;
    const raw = isObj(v.data) ? v.data.release : undefined;
    let decoded: Decoded;
    if (typeof raw !== 'string') decoded = { ok: false, why: raw === undefined ? 'it has no data.release' : 'its data.release is not a string' };
    else {
      decoded = decodeRelease(raw, storage === 'Secret', budget);
      budget -= decoded.bytes ?? 0;
    }
    // The release's own fields when decoded; Helm's labels (name, version, status) otherwise.
    const rel = decoded.ok ? decoded.release : {};
    const info = isObj(rel.info) ? rel.info : {};
    const chartMeta = isObj(rel.chart) && isObj((rel.chart as Record<string, unknown>).metadata) ? (rel.chart as Record<string, any>).metadata : {};
    const revNum = typeof rel.version === 'number' ? rel.version : Number(labels.version);
    const rec: ReleaseRecord = {
      doc, at, storage, objectName, range,
      decoded: decoded.ok ? { ok: true, gzipped: decoded.gzipped, bytes: decoded.bytes } : { ok: false, why: decoded.why, web: decoded.web },
      name: str(rel.name) ?? str(labels.name) ?? (/^sh\.helm\.release\.v1\.(.+)\.v\d+$/.exec(objectName)?.[1]) ?? objectName,
      namespace: str(rel.namespace) ?? str(meta.namespace),
      revision: Number.isInteger(revNum) && revNum > 0 ? revNum : undefined,
      status: str(info.status) ?? str(labels.status),
      chart: str(chartMeta.name) ? `${chartMeta.name}${str(chartMeta.version) ? `-${chartMeta.version}` : ''}` : undefined,
      objects: [], unread: [], current: false,
    };
    if (decoded.ok) {
      const manifest = rel.manifest;
      if (typeof manifest !== 'string') rec.decoded = { ok: false, why: manifest === undefined ? 'its release has no manifest' : 'its release\'s manifest is not text' };
      else judge(rec, manifest, k8s);
    }
    records.push(rec);
  }
  markCurrent(records);
  return new ReleaseRecordsContext(yaml, records, others, window);
}

function judge(rec: ReleaseRecord, manifest: string, k8s: (y: YamlFile, objects: ManifestObject[]) => KubernetesContext): void {
  if (!manifest.trim()) return;
  const y = parseYaml(manifest);
  for (const d of y.docs) {
    if (d.errors.length) rec.unread.push(`document ${d.index + 1}: ${d.errors[0].message}`);
  }
  const objects = manifestObjects(y);
  if (!objects.length) return;
  const ctx = k8s(y, objects);
  for (const o of objects) {
    const name = isObj(o.value.metadata) && str(o.value.metadata.name) ? String(o.value.metadata.name) : '(no name)';
    const s: StoredObject = { apiVersion: o.apiVersion, kind: o.kind, name, notServedAt: [] };
    const c = ctx.componentRow(o);
    if (c) {
      // A component's API (cert-manager …): checked at the component's version, as the manifests' rules do.
      if (c.status?.removed && c.setting) {
        s.notServedAt = [...ctx.minors];
        s.why = `removed in ${c.component} ${c.row.removed}, checked at ${c.component} ${c.setting.version}`;
        s.removedIn = c.row.removed;
      }
    } else {
      const row = ctx.row(o);
      if (row) {
        const steps = ctx.steps(row);
        s.notServedAt = steps.filter((x) => !x.served).map((x) => x.minor);
        if (s.notServedAt.length) {
          const removed = steps.find((x) => x.removed);
          s.removedIn = row.removed;
          s.why = removed ? `removed in Kubernetes ${row.removed}` : row.introduced ? `not served before Kubernetes ${row.introduced}` : 'not served';
        }
      }
    }
    rec.objects.push(s);
  }
}

/**
 * Which record `helm upgrade` and `helm rollback` start from, per release (namespace and name): its deployed revision
 * (the newest, if several say so); without one, its newest revision if that is failed or pending (a first install that
 * failed, an operation under way). Superseded and uninstalled revisions never are (a newer one was deployed, or the
 * release was uninstalled with --keep-history): they are kept as rollback targets (`helm rollback <release> <revision>`).
 */
function markCurrent(records: ReleaseRecord[]): void {
  const byRelease = new Map<string, ReleaseRecord[]>();
  for (const r of records) {
    const k = `${r.namespace ?? ''}\u0000${r.name}`;
    let list = byRelease.get(k);
    if (!list) byRelease.set(k, list = []);
    list.push(r);
  }
  const newest = (list: ReleaseRecord[]) => list.reduce((a, b) => ((b.revision ?? 0) > (a.revision ?? 0) ? b : a));
  for (const list of byRelease.values()) {
    const deployed = list.filter((r) => r.status === 'deployed');
    if (deployed.length) { newest(deployed).current = true; continue; }
    const last = newest(list);
    if (last.status === 'failed' || last.status?.startsWith('pending') || last.status === undefined) last.current = true;
  }
}

/** "release db (revision 7, chart db-1.2.0, namespace db)". */
export function releaseText(r: ReleaseRecord): string {
  const parts = [r.revision !== undefined ? `revision ${r.revision}` : undefined, r.chart ? `chart ${r.chart}` : undefined, r.namespace ? `namespace ${r.namespace}` : undefined].filter(Boolean);
  return `release ${r.name}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** The short subject the reports' per-step summary names (a finding's data.subject). */
export const subjectOf = (r: ReleaseRecord): string => `release ${r.name}${r.namespace ? ` (namespace ${r.namespace})` : ''}`;
