// Hover over a Helm release record: what its release is and what its stored manifest holds, step by step.
import type { Position } from '../../types';
import type { HoverResult } from '../../language';
import { LineIndex } from '../../text';
import { releaseText, type ReleaseRecordsContext } from './index';
import { stepsText } from './rules/common';

export function recordsHover(ctx: ReleaseRecordsContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const r = ctx.records.find((x) => off >= x.range.start && off <= x.range.end);
  if (!r) return undefined;
  const out = [`**Helm ${releaseText(r)}**${r.status ? ` — ${r.status}` : ''}`, ''];
  out.push(`Stored in a ${r.storage} (${r.decoded.ok ? `${r.decoded.gzipped ? 'gzipped' : 'not gzipped'}, ${r.decoded.bytes} bytes of JSON` : `not read: ${r.decoded.why}`}); `
    + `${r.current ? '`helm upgrade` and `helm rollback` start from this revision' : 'a revision `helm rollback` can return to'}.`, '');
  if (r.decoded.ok) {
    out.push(`Its manifest holds ${r.objects.length} object${r.objects.length === 1 ? '' : 's'} (window ${stepsText(ctx.minors, ctx.minors)}):`, '');
    for (const o of r.objects.slice(0, 50)) out.push(`- ${o.notServedAt.length ? `✗ not served at ${stepsText(o.notServedAt, ctx.minors)}` : '✓'} \`${o.apiVersion} ${o.kind}\` ${o.name}`);
    if (r.objects.length > 50) out.push(`- … ${r.objects.length - 50} more`);
  }
  return { markdown: out.join('\n'), range: lines.range(r.range.start, r.range.end) };
}
