import type { KubernetesContext, ManifestObject } from '../../families/kubernetes';
import type { FindingFix } from '../types';
import { YamlEditor } from '../../parse/yaml-edit';
import { convert } from '../../kubernetes/convert';
import { findRow } from '../../kubernetes/lifecycle';

export const what = (o: ManifestObject) => `${o.apiVersion} ${o.kind}`;

/**
 * The fix that moves an object to `target`: the known conversion when there is one (complete or partial),
 * else a plain apiVersion change — complete when the data says that is all it takes, partial otherwise.
 */
export function moveTo(ctx: KubernetesContext, o: ManifestObject, target: string): FindingFix {
  const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
  const conv = convert(ed, o.at, o.value, target);
  const row = findRow(ctx.rows, o.apiVersion, o.kind);
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
  const onlyApiVersion = row?.migration === 'apiVersion-only';
  return {
    title: onlyApiVersion ? `Change apiVersion to ${target}` : `Change apiVersion to ${target} — partial: ${row?.migrationNote ?? 'check the spec against the new version'}`,
    edits: ed.edits,
    preferred: onlyApiVersion,
    partial: !onlyApiVersion,
  };
}

export function range(lo: string[]): string {
  return lo.length > 1 ? `${lo[0]}..${lo[lo.length - 1]}` : lo[0];
}
