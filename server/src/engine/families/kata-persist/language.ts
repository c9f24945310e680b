// Hover over a Kata persist.json: its layout era and, per field, which releases write and read it.
import type { Position } from '../../types';
import type { HoverResult } from '../../language';
import { LineIndex } from '../../text';
import type { PersistContext } from './index';
import { describeRanges as describeRangesP } from './data';
import { describeReleases } from '../kata-config/data';

export function persistHover(ctx: PersistContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const first = ctx.json.topLevelKeys()[0];
  const entries = ctx.present.map((p) => ({ p, loc: ctx.json.locate(p.path) })).filter((x) => x.loc.key && off >= x.loc.key.start && off <= x.loc.key.end);
  const hit = entries[entries.length - 1];
  const out: string[] = [];
  if (first && off >= first.range.start && off <= first.range.end) {
    const eras = ctx.eras();
    out.push(`**Kata ${ctx.kind} persist.json** — layout era${eras.length === 1 ? '' : 's'}: ${eras.length ? eras.map((e) => `${e} (written by ${ctx.eraRange(e)})`).join(', ') : 'none matches (fields from different eras)'}`, '');
    out.push(`Window ${ctx.windowText} (${ctx.windowSource.kind}: ${ctx.windowSource.detail}).`, '');
  }
  if (hit) {
    const f = hit.p.field!;
    out.push(`**${f.path.join('.')}**${f.meaning ? ` — ${f.meaning}` : ''}`, '');
    out.push(`Written by ${describeRangesP(f.writtenBy)}; read by ${describeRangesP(f.readBy)}.`);
    const types = f.types.map((t) => `${t.type}${t.nullable ? ' or null' : ''} (${t.from}–${t.to ?? 'today'})`);
    if (types.length) out.push(`Type: ${types.join(', ')}.`);
    // A rename is listed on both of its fields: this one is either its old name or its new one.
    const self = f.path.join('.');
    const renames = new Set<string>();
    for (const r of f.renames) {
      if (r.to.join('.') === self) renames.add(`Renamed from \`${r.from.join('.')}\` in ${r.in}.`);
      if (r.from.join('.') === self) renames.add(`Renamed to \`${r.to.join('.')}\` in ${r.in}.`);
    }
    for (const r of renames) out.push(r);
    const notRead = ctx.window.filter((r) => !ctx.reads(f, r));
    out.push('', notRead.length ? `✗ dropped on read by ${describeReleases(notRead, ctx.window)}: ${f.lostOnRead ?? 'its value is lost'}` : `✓ read by every release of the window ${ctx.windowText}`);
    if (f.note) out.push('', `Note: ${f.note}`);
    if (f.source) out.push('', `Source: ${f.source}`);
    return { markdown: out.join('\n'), range: lines.range(hit.loc.key!.start, hit.loc.key!.end) };
  }
  return out.length && first ? { markdown: out.join('\n'), range: lines.range(first.range.start, first.range.end) } : undefined;
}
