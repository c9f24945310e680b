import type { KubernetesContext, ManifestObject } from '../index';
import type { FindingFix } from '../../../rules/types';
import { YamlEditor } from '../../../parse/yaml-edit';
import { convert } from '../data/convert';
import { findRow, statusAt } from '../data/lifecycle';
import { windowText } from '../../../window-text';

export const what = (o: ManifestObject) => `${o.apiVersion} ${o.kind}`;

/**
 * ", served across the whole window", said of a replacement; when a default cluster does not serve it (an alpha
 * apiVersion, a beta one from 1.24: its row's offByDefault) the words say so and how to enable it, so that advice never
 * points at an apiVersion the API server refuses by default.
 */
export function servedAcrossWindow(ctx: KubernetesContext, apiVersion: string, kind: string): string {
  const off = findRow(ctx.rows, apiVersion, kind)?.offByDefault;
  return off ? `served across the whole window only where it is enabled (${off.why}: ${off.enable})` : 'served across the whole window';
}

/** Whether a default cluster does not serve the apiVersion (its row's offByDefault). */
export const offByDefault = (ctx: KubernetesContext, apiVersion: string, kind: string): boolean => !!findRow(ctx.rows, apiVersion, kind)?.offByDefault;

/**
 * The fix that moves an object to `target`: the known conversion for this (from, to, kind) when there is one
 * (complete or partial), else a plain apiVersion change, always partial: whether only the apiVersion changes is a
 * fact of one source -> target pair, never of a lifecycle row (a row's migration note speaks of its replacement).
 */
export function moveTo(ctx: KubernetesContext, o: ManifestObject, target: string): FindingFix {
  const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
  const conv = convert(ed, o.at, o.value, target);
  if (conv) {
    const rewritten = ed.edits.length > 1;
    return {
      title: conv.complete
        ? `Convert to ${target}${rewritten ? ' (spec rewritten)' : ''}`
        : `Convert to ${target} — partial: ${conv.notes.join('; ')}`,
      edits: ed.edits,
      preferred: conv.complete,
      partial: !conv.complete,
      destructive: ed.destructive,
    };
  }
  ed.setScalar([...o.at, 'apiVersion'], target);
  const row = findRow(ctx.rows, o.apiVersion, o.kind);
  const note = row?.replacement === target && row.migration !== 'apiVersion-only' && row.migrationNote
    ? row.migrationNote
    : `no known conversion from ${o.apiVersion} to ${target}; check the spec against ${target}`;
  return {
    title: `Change apiVersion to ${target} — partial: ${note}`,
    edits: ed.edits,
    preferred: false,
    partial: true,
    destructive: ed.destructive,
  };
}

/**
 * The component that reads a configuration-file row from disk (kubeadm, kubelet, kube-proxy, kube-scheduler,
 * kube-apiserver), undefined for an API the apiserver serves: the messages then say "kubeadm 1.27 no longer reads …".
 */
export const readerOf = (row: { readBy?: string } | undefined): string | undefined => row?.readBy;

/** "served across the whole window" or, for a configuration file, "read by kubeadm at every step of the window". */
export const acrossWindow = (reader: string | undefined): string => (reader ? `read by ${reader} at every step of the window` : 'served across the whole window');

export function range(lo: string[]): string {
  return windowText(lo);
}

type ComponentCheck = NonNullable<ReturnType<KubernetesContext['componentRow']>>;

/** "(checked at cert-manager 1.5.3: Pluto's default target, …; set another with …)": the version and where it came from. */
export function checkedAt(c: ComponentCheck): string {
  const s = c.setting!;
  const from = s.source.kind === 'default'
    ? `${s.source.detail}; set another with --component-versions or kubernetes.components in .skewguard.yaml`
    : `from ${s.source.detail}`;
  return `(checked at ${c.component} ${s.version}: ${from})`;
}

/** The best other apiVersion of the kind served at the component version, with the advice sentence. */
export function componentAdvice(ctx: KubernetesContext, o: ManifestObject, c: ComponentCheck, notDeprecated: boolean): { best?: string; advice: string } {
  const v = c.setting!.version;
  const rows = ctx.rows;
  const served = ctx.componentServed(o.kind, c.component, v).filter((a) => a !== o.apiVersion)
    .filter((a) => !notDeprecated || !statusAt(findRow(rows, a, o.kind)!, v).deprecated);
  const best = served[0];
  if (best) return { best, advice: `use ${best}, served at ${c.component} ${v}` };
  if (c.row.replacement) {
    // Istio's replacements are other kinds (PeerAuthentication …): say so with the migration note.
    const same = findRow(rows, c.row.replacement, o.kind);
    return { advice: same ? `its replacement ${c.row.replacement} is not known to be served at ${c.component} ${v}` : `move to ${c.row.replacement}${c.row.migrationNote ? `: ${c.row.migrationNote}` : ''}` };
  }
  return { advice: 'there is no replacement API' };
}

export const componentData = (c: ComponentCheck) => ({ component: c.component, componentVersion: c.setting!.version, componentVersionSource: c.setting!.source });

/** "1.17, 1.23..1.27": sorted minors as runs. */
export function listOf(ms: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ms.length; i++) {
    let j = i;
    while (j + 1 < ms.length && ms[j + 1] === ms[j] + 1) j++;
    parts.push(i === j ? `1.${ms[i]}` : `1.${ms[i]}..1.${ms[j]}`);
    i = j;
  }
  return parts.join(', ');
}
