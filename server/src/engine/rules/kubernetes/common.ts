import type { KubernetesContext, ManifestObject } from '../../families/kubernetes';
import type { FindingFix } from '../types';
import { YamlEditor } from '../../parse/yaml-edit';
import { convert } from '../../kubernetes/convert';
import { findRow } from '../../kubernetes/lifecycle';

export const what = (o: ManifestObject) => `${o.apiVersion} ${o.kind}`;

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
  };
}

export function range(lo: string[]): string {
  return lo.length > 1 ? `${lo[0]}..${lo[lo.length - 1]}` : lo[0];
}
