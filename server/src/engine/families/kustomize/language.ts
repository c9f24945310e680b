// Hover and completion over a kustomization: what a field does and its lifecycle at each step of the window.
import type { Position } from '../../types';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex } from '../../text';
import { kustomizeData, fieldKnownAt, fieldDeprecatedAt, kustomizeName, type FieldRow, type KustomizeContext } from './index';

/** The lifecycle of a field with the window's steps marked. */
export function fieldTimeline(ctx: KustomizeContext, f: FieldRow): string {
  const out = [`**${f.name}** (kustomization field)`, '', f.what, ''];
  const parts = [f.introduced === '1.0' ? 'read by every kustomize kubectl embeds' : f.introduced ? `since kustomize ${f.introduced}` : `added after kustomize ${f.notReadBy ?? '2.0.x'}${f.readBy ? `, read by kustomize ${f.readBy}` : ''} (exact release not in the data)`];
  if (f.deprecated) parts.push(`deprecated ${f.deprecated === '5.x' ? 'in a kustomize v5 release (not pinned)' : `since kustomize ${f.deprecated}`}`);
  if (f.replacement) parts.push(`replacement ${f.replacement}`);
  out.push(parts.join(' · '), '');
  out.push(`Window ${ctx.windowText} (${ctx.window.source.kind}: ${ctx.window.source.detail}):`, '');
  out.push(`| ${ctx.steps.map((s) => s.minor).join(' | ')} |`, `|${ctx.steps.map(() => '---').join('|')}|`);
  out.push(`| ${ctx.steps.map((s) => kustomizeName(s).replace(/^kustomize /, '')).join(' | ')} |`);
  const mark = (s: (typeof ctx.steps)[number]) => {
    const k = fieldKnownAt(f, s);
    if (k === false) return '✗ not read';
    const d = fieldDeprecatedAt(f, s);
    if (d === true) return '⚠ deprecated';
    if (k === undefined || d === undefined) return '? not vouched for';
    return '✓ read';
  };
  out.push(`| ${ctx.steps.map(mark).join(' | ')} |`);
  if (f.note) out.push('', `Note: ${f.note}`);
  const src = f.sources.map((s) => `${s.repo} ${s.path}${s.commit ? ` @ ${s.commit.slice(0, 12)}` : ''}`);
  if (src.length) out.push('', `Sources: ${[...new Set(src)].join('; ')}`);
  return out.join('\n');
}

export function kustomizeHover(ctx: KustomizeContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const tf = ctx.fields.find((f) => off >= f.key.start && off <= f.key.end);
  if (!tf?.row) return undefined;
  return { markdown: fieldTimeline(ctx, tf.row), range: lines.range(tf.key.start, tf.key.end) };
}

/** Top-level field names read, and not deprecated, at every step of the window. */
export function kustomizeComplete(ctx: KustomizeContext, text: string, pos: Position): CompletionResult[] {
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^([A-Za-z]*)$/.exec(before);
  if (!m) return [];
  const start = lines.lineStart(pos.line);
  const rest = /^[A-Za-z]*/.exec(line.slice(before.length))?.[0] ?? '';
  const present = new Set(ctx.fields.map((f) => f.name));
  return kustomizeData().fields
    .filter((f) => !present.has(f.name) && ctx.steps.every((s) => fieldKnownAt(f, s) === true && fieldDeprecatedAt(f, s) === false))
    .map((f, i) => ({
      label: f.name, kind: 'property' as const,
      detail: `read by every step of ${ctx.windowText}`,
      documentation: fieldTimeline(ctx, f),
      insertText: `${f.name}: `, replace: { start, end: start + m[1].length + rest.length },
      sortText: String(i).padStart(3, '0'),
    }));
}
