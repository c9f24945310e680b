// The custom resources of the 14 operators of data/operators/ (components/operators.ts) in a manifest, each with its
// operator's window and what each release of the window does with its group/version/kind: what the k8s/operator-* rules
// and the apiVersion hover read. An object whose group/kind a workspace CRD defines is left to the k8s/cr-* rules (the
// CRD is what the cluster installs); an object of another group never loads the operator data.
import type { KubernetesContext, ManifestObject, NeighbourFacts } from './index';
import { groupVersion, mayBeCustomGroup } from './crds';
import { operatorOfKind, operatorData, releaseStatus, servedSpan, storageVersionAt, curatedFor, type OperatorData, type ReleaseStatus, type CuratedRow } from '../../components/operator-data';
import { operatorWindowsWith, type OperatorWindow } from '../../components/operators';
import { pinsOf } from '../../components/operator-pins';
import type { ResolvedConfig } from '../../config';

/** A file's operator windows (KubernetesContext.operatorWindowsOf): the configuration's, else the pins of the saved workspace. */
export const fileOperatorWindows = (config: ResolvedConfig, neighbours: NeighbourFacts | undefined) => (): Record<string, OperatorWindow> =>
  operatorWindowsWith(config, neighbours?.operatorPins && (() => { const r = neighbours.operatorPins!(); return r.pins ?? pinsOf(r.scans).pins; }));

export interface OperatorObject {
  o: ManifestObject;
  operator: string;
  /** "Kind.group", the key of the data. */
  crdKey: string;
  group: string;
  version: string;
  data: OperatorData;
  /** Its operator's window; undefined when no version of the operator is known. */
  window?: OperatorWindow;
  /** Each step of the window, oldest first ([] without a window). */
  steps: ReleaseStatus[];
}

const memo = new WeakMap<KubernetesContext, OperatorObject[]>();

/** The operators' custom resources of the file (one pass, shared by the rules; usually none). */
export function operatorObjects(ctx: KubernetesContext): OperatorObject[] {
  let out = memo.get(ctx);
  if (out) return out;
  out = [];
  for (const o of ctx.objects) {
    const av = o.apiVersion;
    if (typeof av !== 'string' || av.indexOf('.') < 0 || av.indexOf('/') < 0 || typeof o.kind !== 'string') continue;
    const { group, version } = groupVersion(av);
    if (!mayBeCustomGroup(group)) continue;
    const operator = operatorOfKind(group, o.kind);
    if (!operator || ctx.crdFor(o)) continue; // a workspace CRD of the group/kind wins
    const data = operatorData(operator);
    if (!data) continue;
    const crdKey = `${o.kind}.${group}`;
    const window = ctx.operatorWindows[operator];
    const steps = window ? window.steps.map((r) => releaseStatus(data, crdKey, version, r)) : [];
    out.push({ o, operator, crdKey, group, version, data, window, steps });
  }
  memo.set(ctx, out);
  return out;
}

/** "external-secrets 0.16..0.17 (from --component-versions: …)": the window and where it came from, for messages. */
export function windowSaid(x: OperatorObject): string {
  return x.window ? `${x.operator} window ${x.window.text}, from ${x.window.source.detail}` : `${x.operator}: no window`;
}

/** The version to move to: the data's replacement, else the storage version where it stops, else the curated text. */
export function replacementOf(x: OperatorObject, at?: string): { apiVersion?: string; text: string } | undefined {
  const v = x.data.crds[x.crdKey]?.versions[x.version];
  if (v?.replacement) return { apiVersion: v.replacement, text: v.replacement };
  const rel = at ?? x.data.releases[x.data.releases.length - 1].id;
  const st = storageVersionAt(x.data, x.crdKey, rel);
  if (st && st !== x.version) return { apiVersion: `${x.group}/${st}`, text: `${x.group}/${st}` };
  const c = curatedFor(x.data, x.group, x.version, x.o.kind).find((r) => r.replacement);
  if (c?.replacement) {
    const m = /^([a-z0-9.-]+\/v[0-9a-z]+)\b/.exec(c.replacement);
    return { apiVersion: m?.[1], text: c.replacement };
  }
  return undefined;
}

/** Whether a group/version of the same kind is served (by the default CRDs) at every step of the window. */
export function servedThroughout(x: OperatorObject, apiVersion: string): boolean {
  if (!x.window) return false;
  const { group, version } = groupVersion(apiVersion);
  const key = `${x.o.kind}.${group}`;
  return x.window.steps.every((r) => { const s = releaseStatus(x.data, key, version, r); return s.served && !s.altOnly; });
}

/** The releases of the data that serve the version, first and last. */
export function span(x: OperatorObject): { first?: string; last?: string } { return servedSpan(x.data, x.crdKey, x.version); }

/** The curated rows about this object's group/version/kind. */
export function curatedOf(x: OperatorObject): CuratedRow[] { return curatedFor(x.data, x.group, x.version, x.o.kind); }

export const releaseIndex = (x: OperatorObject, r: string): number => x.data.releases.findIndex((y) => y.id === r);
