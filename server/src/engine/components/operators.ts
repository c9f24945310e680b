// The 14 operators of data/operators/ (cert-manager, External Secrets, prometheus-operator, Argo CD, Kyverno, Istio,
// Traefik, KEDA, Velero, Cilium, Tekton Pipelines, Crossplane, Knative Serving, Argo Rollouts: issue #31) as component
// modules, one per operator id of the data. Each has a window of its own releases, from kubernetes.components.<id>
// (.skewguard.yaml, editor settings, --component-versions <id>=…): one release ("0.17", "v1.14.2") or a window
// "0.16..0.17" (its steps: the operator's minors in the data between the ends), else from the versions the workspace
// pins (OperatorPin, operator-pins-type.ts: several pins of one operator form the window from the oldest to the newest).
// No default: an operator nobody gives a version of has no window, and its custom resources are not judged against
// its releases (k8s/operator-api-not-served says so, as an information). The k8s/operator-* rules read a file's windows
// from its KubernetesContext (operatorWindowsWith: the configuration's, else the saved workspace's pins).
import type { ComponentModule } from './types';
import type { SourceInfo } from '../types';
import type { ResolvedConfig } from '../config';
import type { ComponentVersionSetting } from './types';
import type { OperatorPin } from './operator-pins-type';
import { operatorIds, operatorReleases } from './operator-data';
import { parseRange, minorOf, compareMinor } from '../versions';

export type { OperatorPin };

export interface OperatorWindow {
  operator: string;
  /** The operator's minors (release ids of the data), oldest first. */
  steps: string[];
  /** "0.16..0.17" or "0.17". */
  text: string;
  source: SourceInfo;
  /** The pins it was formed from, when it came from the workspace. */
  pins?: OperatorPin[];
}

const keyOf = (id: string) => `operator:${id}`;

/** The release ids of the operator that can be window steps (not pre-releases), oldest first. */
function stepIds(id: string): string[] {
  return operatorReleases(id).filter((r) => !r[2]).map((r) => r[0]);
}

/** Whether the name is an operator id of the data. */
export function isOperatorId(name: string): boolean { return operatorIds().includes(name); }

/**
 * Parses an operator version setting: one release or a window "A..B" (each end a minor or a patch, "v" allowed).
 * Returns the steps, or the problem in words (unknown release with the known range, reversed window).
 */
export function parseOperatorSetting(id: string, value: string): { steps: string[]; text: string } | { error: string } {
  const ids = stepIds(id);
  const known = `${id} releases in the data: ${ids[0]} .. ${ids[ids.length - 1]}`;
  const bad = `"${value}" is not a version such as 0.17, v1.14.2, or a window such as 0.16..0.17`;
  const range = parseRange(String(value).trim());
  if (!range) return { error: bad };
  const ends: string[] = [];
  for (const p of [range.from, range.to]) {
    const m = minorOf(p);
    if (!m) return { error: bad };
    if (!ids.includes(m)) {
      const inside = ids.length > 0 && compareMinor(m, ids[0]) > 0 && compareMinor(m, ids[ids.length - 1]) < 0;
      return { error: `unknown ${id} release "${p}" (${known}${inside ? `; ${m} is not among the minors read from its tags` : ''})` };
    }
    ends.push(m);
  }
  const [a, b = a] = ends;
  const i = ids.indexOf(a), j = ids.indexOf(b);
  if (j < i) return { error: `window "${value}" is reversed: give the older release first (${b}..${a})` };
  const steps = ids.slice(i, j + 1);
  return { steps, text: a === b ? a : `${a}..${b}` };
}

/**
 * The configuration hook (each operator module's checkVersion): the problem of an operator version setting, undefined
 * when it is fine, null when the name is not an operator id.
 */
export function checkOperatorSetting(name: string, v: unknown): string | undefined | null {
  if (!isOperatorId(name)) return null;
  if (typeof v !== 'string') return `"${String(v)}" is not a version such as 0.17, v1.14.2, or a window such as 0.16..0.17`;
  const r = parseOperatorSetting(name, v);
  return 'error' in r ? r.error : undefined;
}

/**
 * An operator's window: the version the user gives (kubernetes.components.<id>, settings, --component-versions) wins;
 * else the workspace's pins of it (several: from the oldest to the newest; a pin of a release the data does not have
 * is left out); else undefined (no default).
 */
export function resolveOperatorWindow(id: string, setting?: ComponentVersionSetting, pins?: readonly OperatorPin[]): OperatorWindow | undefined {
  if (setting && setting.source.kind !== 'default') {
    const r = parseOperatorSetting(id, setting.version);
    if ('error' in r) return undefined; // reported by the configuration's validation
    return { operator: id, steps: r.steps, text: r.text, source: { kind: setting.source.kind, detail: `${setting.source.detail}: ${id} ${r.text}` } };
  }
  const mine = (pins ?? []).filter((p) => p.operator === id).map((p) => ({ p, m: minorOf(p.version) })).filter((x) => x.m && stepIds(id).includes(x.m));
  if (!mine.length) return undefined;
  const ms = mine.map((x) => x.m!).sort(compareMinor);
  const r = parseOperatorSetting(id, ms[0] === ms[ms.length - 1] ? ms[0] : `${ms[0]}..${ms[ms.length - 1]}`);
  if ('error' in r) return undefined;
  const used = mine.map((x) => x.p);
  return {
    operator: id, steps: r.steps, text: r.text, pins: used,
    source: { kind: 'workspace', detail: used.map((p) => `${id} ${p.version} from ${p.file}:${p.line} (${p.detail})`).join('; ') },
  };
}

/** The operator's window in the resolved configuration, with where it came from; undefined when it has none. */
export function operatorWindow(config: ResolvedConfig, id: string): { steps: string[]; source: SourceInfo } | undefined {
  const w = (config as unknown as Record<string, OperatorWindow | undefined>)[keyOf(id)];
  return w ? { steps: w.steps, source: w.source } : undefined;
}

/** Every operator window of the configuration, by operator id (for the Kubernetes family's context; reads no data). */
export function operatorWindows(config: ResolvedConfig): Record<string, OperatorWindow> {
  let out = windowsMemo.get(config);
  if (!out) {
    out = {};
    for (const [k, w] of Object.entries(config as unknown as Record<string, unknown>)) {
      if (k.startsWith('operator:') && w) out[k.slice('operator:'.length)] = w as OperatorWindow;
    }
    windowsMemo.set(config, out);
  }
  return out;
}
const windowsMemo = new WeakMap<ResolvedConfig, Record<string, OperatorWindow>>();

/**
 * Every operator window of a file: the configuration's (a version the user gives) and, for an operator without one, the
 * window the workspace's pins form (`pins`: read only here, i.e. when the file holds a custom resource of an operator,
 * from the saved files as lsp-lint reads them: NeighbourFacts.operatorPins).
 */
export function operatorWindowsWith(config: ResolvedConfig, pins: (() => readonly OperatorPin[] | undefined) | undefined): Record<string, OperatorWindow> {
  const mine = operatorWindows(config);
  const read = pins?.();
  if (!read?.length) return mine;
  const out = { ...mine };
  for (const id of new Set(read.map((p) => p.operator))) {
    if (out[id] || !isOperatorId(id)) continue;
    const w = resolveOperatorWindow(id, undefined, read);
    if (w) out[id] = w;
  }
  return out;
}

/** One component module per operator of the data. */
export const operatorComponents: ComponentModule<OperatorWindow>[] = operatorIds().map((id) => ({
  id,
  key: keyOf(id),
  window: ({ version }) => resolveOperatorWindow(id, version),
  describe: (w) => ({
    window: w.text,
    versions: w.steps.map((s) => ({ release: s, tag: operatorReleases(id).find((r) => r[0] === s)?.[1] })),
    source: w.source,
  }),
  checkVersion: (v) => checkOperatorSetting(id, v) ?? undefined,
}));
