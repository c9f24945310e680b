// Custom resources whose CRD the workspace does not have, read against the bundled data of the operator that defines
// them (data/operators/, families/kubernetes/data/operators.ts), at each release of the operator's window: fields a
// release does not accept (from the field paths by release), and, where a release has a schema snapshot, values of the
// wrong type or outside an enum (crd-schema.ts, as for a workspace CRD). A CRD in the workspace for the group wins:
// nothing here runs for its resources. With no version known, only fields no bundled release ever accepted are said.
// Shared by k8s/cr-unknown-field and k8s/cr-invalid-value (and k8s/cr-validation-rule reads the snapshots); computed
// once per analysis.
import type { KubernetesContext, ManifestObject } from './index';
import { groupVersion, mayBeCustomGroup, type CrdSchema } from './crds';
import { schemaIssues } from './crd-schema';
import { didYouMean } from '../../text';
import {
  operatorIndex, operatorOf, operatorFields, operatorSnapshot, operatorReleasesFor, operatorVersionSource, inRanges, rangeSpan,
  type OperatorFieldsVersion, type OperatorRow,
} from './data/operators';
import { linkOf, pathSegments, type PathLink } from '../../path-link';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

export interface BundledTarget {
  o: ManifestObject;
  op: string;
  /** "Certificate.cert-manager.io" */
  key: string;
  version: string;
  /** Releases judged (the window's releases that serve the version with a schema), or every such release when no version is known. */
  judged: string[];
  /** Whether a version of the operator is known (else only never-accepted fields are said). */
  versionKnown: boolean;
  /** Where the version came from ("cert-manager 1.14.4 from --component-versions"), when known. */
  versionSource?: string;
  /** Read as if no version were known: the version given is not among the releases bundled (outside), or no release of
   *  the window serves this apiVersion with a schema (unserved). */
  fallback?: 'outside' | 'unserved';
}

export type BundledIssue =
  | { kind: 'unknown'; t: BundledTarget; path: Array<string | number>; key: string; suggestion?: string; releases: string[] }
  | { kind: 'not-at'; t: BundledTarget; path: Array<string | number>; key: string; releases: string[]; accepted: string[] }
  | { kind: 'type'; t: BundledTarget; path: Array<string | number>; expected: string; got: string; releases: string[]; snapshot: string }
  | { kind: 'enum'; t: BundledTarget; path: Array<string | number>; values: unknown[]; got: unknown; suggestion?: string; releases: string[]; snapshot: string }
  /** Not judged against the bundled data, and why (data not available here, version outside the releases bundled, walk cut). */
  | { kind: 'not-checked'; t: BundledTarget; path: Array<string | number>; why: string };

/** "cert-manager 1.14", "cert-manager 1.12, 1.14": releases said. */
export const releasesText = (op: string, rs: readonly string[]): string => `${op} ${rs.join(', ')}`;

/** The CRs of the file that the bundled data judges (custom group, no workspace CRD for the group, a bundled operator kind). */
export function bundledTargets(ctx: KubernetesContext): BundledTarget[] {
  let m = targetsMemo.get(ctx);
  if (m) return m;
  m = [];
  let workspaceGroups: Set<string> | undefined;
  for (const o of ctx.objects) {
    const av = o.apiVersion;
    if (av.indexOf('.') < 0 || av.indexOf('/') < 0) continue;
    let custom = customGroups.get(av);
    if (custom === undefined) { custom = mayBeCustomGroup(groupVersion(av).group); if (customGroups.size < 4096) customGroups.set(av, custom); }
    if (!custom) continue;
    const { group, version } = groupVersion(av);
    // A CRD in the workspace for the group wins (its own k8s/cr-* findings), even for a kind it does not define.
    workspaceGroups ??= new Set([...(ctx.crdFacts()?.defs.values() ?? [])].map((d) => d.group));
    if (workspaceGroups.has(group)) continue;
    const op = operatorOf(group, o.kind);
    if (!op) continue;
    const row = operatorIndex().operators[op];
    const key = `${o.kind}.${group}`;
    if (!row.crds[key]?.versions[version]) continue; // a version the operator never had: k8s/cr-version-* say so
    const releases = operatorReleasesFor(ctx, op);
    const fields = operatorFields(op).value?.crds[key]?.[version];
    const withSchema = (r: string) => !!fields && inRanges(fields.servedWithSchema, r, row.releaseIds);
    // A version outside the releases bundled, or a window none of whose releases serves this version with a schema (the
    // apiVersion rules say it is not served), is read as no version (fields no release ever accepted), and said so.
    const inWindow = releases?.filter(withSchema) ?? [];
    const known = inWindow.length > 0;
    const judged = known ? inWindow : row.releaseIds.filter(withSchema);
    const why = releases && !known ? (releases.length ? 'unserved' as const : 'outside' as const) : undefined;
    m.push({ o, op, key, version, judged, versionKnown: known, versionSource: operatorVersionSource(ctx, op), ...(why ? { fallback: why } : {}) });
  }
  targetsMemo.set(ctx, m);
  return m;
}
const targetsMemo = new WeakMap<KubernetesContext, BundledTarget[]>();
/** apiVersion -> whether its group may be a custom resource's (Kubernetes' own groups never load the operator index). */
const customGroups = new Map<string, boolean>();

/** The issues of every bundled target of the file (memoised per analysis). */
export function bundledIssues(ctx: KubernetesContext): BundledIssue[] {
  let m = issuesMemo.get(ctx);
  if (m) return m;
  m = [];
  for (const t of bundledTargets(ctx)) for (const x of targetIssues(ctx, t)) m.push(x);
  issuesMemo.set(ctx, m);
  return m;
}
const issuesMemo = new WeakMap<KubernetesContext, BundledIssue[]>();

/** Field paths of one CRD version at one release (or every release: '*'), as a tree of children by parent path. */
interface FieldTree { children: Map<string, Set<string>>; preserve: Set<string> }
const treeMemo = new Map<string, FieldTree>();

function segments(p: string): string[] {
  const out: string[] = [];
  for (const part of p.split('.')) {
    const m = /^(.*?)((?:\[\]|\{\})*)$/.exec(part)!;
    if (m[1]) out.push(m[1]);
    for (let i = 0; i < m[2].length; i += 2) out.push(m[2].slice(i, i + 2));
  }
  return out;
}
const join = (parent: string, seg: string): string => (seg === '[]' || seg === '{}' ? `${parent}${seg}` : parent ? `${parent}.${seg}` : seg);

function fieldTree(op: string, key: string, version: string, fv: OperatorFieldsVersion, ids: readonly string[], release: string): FieldTree {
  const k = `${op}\u0000${key}\u0000${version}\u0000${release}`;
  let t = treeMemo.get(k);
  if (t) return t;
  const children = new Map<string, Set<string>>();
  const preserve = new Set<string>();
  const at = (ranges: string) => release === '*' || inRanges([ranges], release, ids);
  for (const [r, paths] of Object.entries(fv.fieldsByReleases)) {
    if (!at(r)) continue;
    for (const p of paths) {
      let parent = '';
      for (const s of segments(p)) {
        let c = children.get(parent);
        if (!c) children.set(parent, (c = new Set()));
        c.add(s);
        parent = join(parent, s);
      }
    }
  }
  for (const [r, paths] of Object.entries(fv.preserveUnknownFieldsAt)) if (at(r)) for (const p of paths) preserve.add(p === '.' ? '' : p);
  t = { children, preserve };
  if (treeMemo.size > 256) treeMemo.clear();
  treeMemo.set(k, t);
  return t;
}

/** The release ranges that accept a field path (for "accepted from 1.14"). */
function acceptedRanges(fv: OperatorFieldsVersion, fieldPath: string): string[] {
  return Object.entries(fv.fieldsByReleases).filter(([, ps]) => ps.includes(fieldPath)).map(([r]) => r);
}

const META = new Set(['apiVersion', 'kind', 'metadata', 'status']);
const NODES = 200000;
const LIMIT = 500;

/** Unknown keys of a CR against one field tree: [docPath, fieldPath, key, known siblings]. */
function unknownKeys(o: ManifestObject, tree: FieldTree): { found: Array<{ path: Array<string | number>; fieldPath: string; key: string; known: string[] }>; cut?: Array<string | number> } {
  const found: Array<{ path: Array<string | number>; fieldPath: string; key: string; known: string[] }> = [];
  // Each value's path is a link to its parent's (path-link.ts): an array is made only for what is found.
  const stack: Array<{ v: unknown; f: string; p: PathLink }> = [{ v: o.value, f: '', p: linkOf(o.at) }];
  let budget = NODES;
  while (stack.length && budget-- > 0 && found.length < LIMIT) {
    const { v, f, p } = stack.pop()!;
    if (tree.preserve.has(f)) continue;
    const kids = tree.children.get(f);
    // A declared leaf (a scalar, a map of scalars, an object whose fields the data does not list): not judged below.
    if (!kids) continue;
    if (Array.isArray(v)) {
      if (!kids.has('[]')) continue;
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], f: `${f}[]`, p: { up: p, seg: i } });
      continue;
    }
    if (!isObj(v)) continue;
    const embedded = kids.has('apiVersion') || kids.has('kind') || kids.has('metadata');
    const pending: typeof stack = [];
    for (const k of Object.keys(v)) {
      if (f === '' && META.has(k)) continue;
      if (kids.has(k)) { pending.push({ v: v[k], f: join(f, k), p: { up: p, seg: k } }); continue; }
      if (kids.has('{}')) { pending.push({ v: v[k], f: `${f}{}`, p: { up: p, seg: k } }); continue; }
      if (embedded && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
      found.push({ path: pathSegments({ up: p, seg: k }), fieldPath: join(f, k), key: k, known: [...kids].filter((x) => x !== '[]' && x !== '{}' && !(x in v)) });
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
  }
  return { found, cut: stack.length ? pathSegments(stack[stack.length - 1].p) : undefined };
}

/** The snapshot release whose schema holds for (key, version) at `release`, if any. */
export function snapshotFor(row: OperatorRow, key: string, version: string, release: string): string | undefined {
  const held = row.crds[key]?.versions[version]?.schemas ?? {};
  for (const [s, range] of Object.entries(held)) if (inRanges([range], release, row.releaseIds)) return s;
  return undefined;
}

/** The target's judged releases grouped by the snapshot whose schema holds for them (snapshot release -> releases). */
export function releasesBySnapshot(t: BundledTarget): Map<string, string[]> {
  const row = operatorIndex().operators[t.op];
  const bySnap = new Map<string, string[]>();
  for (const r of t.judged) {
    const s = snapshotFor(row, t.key, t.version, r);
    if (s) { const l = bySnap.get(s) ?? []; l.push(r); bySnap.set(s, l); }
  }
  return bySnap;
}

/** The bundled schema of (key, version) in snapshot `s`, or { error }. */
export function snapshotSchema(op: string, s: string, key: string, version: string): { schema?: CrdSchema; error?: string } {
  const snap = operatorSnapshot(op, s);
  if (!snap.value) return { error: snap.error };
  const schema = snap.value.crds[key]?.versions[version]?.openAPIV3Schema;
  return schema ? { schema } : { error: `no schema of ${version} ${key} in ${op} ${s}` };
}

function targetIssues(ctx: KubernetesContext, t: BundledTarget): BundledIssue[] {
  const out: BundledIssue[] = [];
  const row = operatorIndex().operators[t.op];
  const where: Array<string | number> = [...t.o.at, 'apiVersion'];
  const fieldsData = operatorFields(t.op);
  if (!fieldsData.value) { out.push({ kind: 'not-checked', t, path: where, why: fieldsData.error ?? 'no bundled field data' }); return out; }
  const fv = fieldsData.value.crds[t.key]?.[t.version];
  if (!fv) return out;
  if (t.versionKnown) {
    const asked = operatorReleasesFor(ctx, t.op) ?? [];
    // Releases that serve the version without a schema the data holds: said. Releases that do not serve it at all are
    // the apiVersion rules' (k8s/removed-api, k8s/cr-version-*): its fields do not matter there.
    const served = row.crds[t.key].versions[t.version].served;
    const noSchema = asked.filter((r) => inRanges(served, r, row.releaseIds) && !t.judged.includes(r));
    if (noSchema.length) out.push({ kind: 'not-checked', t, path: where, why: `the bundled data has no schema of ${t.o.apiVersion} ${t.o.kind} at ${t.op} ${noSchema.join(', ')}` });
    if (!t.judged.length) return out;
  }
  // Fields: per release judged (or every release at once when no version is known).
  const perPath = new Map<string, { path: Array<string | number>; fieldPath: string; key: string; known: string[]; releases: string[] }>();
  const runs = t.versionKnown ? t.judged : ['*'];
  for (const r of runs) {
    const { found, cut } = unknownKeys(t.o, fieldTree(t.op, t.key, t.version, fv, row.releaseIds, r));
    if (cut) out.push({ kind: 'not-checked', t, path: cut, why: `the check against the bundled ${t.op} fields stops after ${LIMIT} issues or ${NODES.toLocaleString('en')} values` });
    for (const x of found) {
      const k = JSON.stringify(x.path);
      const e = perPath.get(k);
      if (e) e.releases.push(r); else perPath.set(k, { ...x, releases: [r] });
    }
  }
  for (const e of perPath.values()) {
    const accepted = acceptedRanges(fv, e.fieldPath);
    if (!t.versionKnown) {
      // No version known: only what no bundled release ever accepted (a misspelling is wrong in every release).
      if (!accepted.length) out.push({ kind: 'unknown', t, path: e.path, key: e.key, suggestion: didYouMean(e.key, e.known), releases: t.judged });
      continue;
    }
    if (!accepted.length) out.push({ kind: 'unknown', t, path: e.path, key: e.key, suggestion: didYouMean(e.key, e.known), releases: e.releases });
    else out.push({ kind: 'not-at', t, path: e.path, key: e.key, releases: e.releases, accepted });
  }
  if (!t.versionKnown) return out;
  // Types and enums: at the releases whose schema a snapshot holds.
  for (const [s, rs] of releasesBySnapshot(t)) {
    const { schema } = snapshotSchema(t.op, s, t.key, t.version);
    if (!schema) continue;
    for (const x of schemaIssues(t.o.value, schema, t.o.at)) {
      if (x.kind === 'type') out.push({ kind: 'type', t, path: x.path, expected: x.expected, got: x.got, releases: rs, snapshot: s });
      else if (x.kind === 'enum') out.push({ kind: 'enum', t, path: x.path, values: x.values, got: x.got, suggestion: x.suggestion, releases: rs, snapshot: s });
    }
  }
  return out;
}

/** "1.0..1.21" over the releases judged, or the list, for messages. */
export function judgedText(t: BundledTarget): string {
  const row = operatorIndex().operators[t.op];
  const rs = t.judged;
  if (rs.length > 3) {
    const a = rangeSpan(`${rs[0]}..${rs[rs.length - 1]}`, row.releaseIds);
    if (a && a[1] - a[0] + 1 === rs.length) return `${rs[0]}..${rs[rs.length - 1]}`;
  }
  return rs.join(', ');
}
