// Hover in a chart template: on an apiVersion, what it becomes at each step of the window.
import type { HoverResult } from '../../language';
import type { Position } from '../../types';
import { LineIndex } from '../../text';
import type { HelmContext } from './index';
import { judge } from './index';

export function helmHover(ctx: HelmContext, text: string, pos: Position): HoverResult | undefined {
  const tr = ctx.template;
  if (!tr) return undefined;
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const lineStart = text.lastIndexOf('\n', off - 1) + 1;
  let lineEnd = text.indexOf('\n', off);
  if (lineEnd < 0) lineEnd = text.length;
  const rowsOf = (run: typeof tr) => {
    const rows: string[] = [];
    for (const s of run.steps) {
      const here = s.emissions.filter((e) => e.at.start < lineEnd && e.at.end >= lineStart);
      const und = s.undecided.filter((u) => u.at.start < lineEnd && u.at.end >= lineStart);
      for (const e of here) {
        const j = e.apiVersion && e.kind ? judge(ctx.rows, e.apiVersion, e.kind, s.step) : undefined;
        const state = !j ? '' : !j.served ? (j.removed ? ' — removed there' : ' — not served yet') : j.deprecated ? ' — deprecated there' : ' — served';
        rows.push(`| ${s.step} | \`${e.apiVersion} ${e.kind}\`${state}${e.via ? ` (from ${e.via.define ? `"${e.via.define}" in ` : ''}${e.via.file})` : ''}${e.byHelm ? ' (helm template)' : ''} |`);
      }
      for (const u of und) rows.push(`| ${s.step} | not decided: ${u.reason} |`);
    }
    return rows;
  };
  const rows = rowsOf(tr);
  const parts: string[] = [];
  if (rows.length) parts.push(`**What this line emits at each step** (rendered with the chart's default values)\n\n| step | apiVersion kind |\n|---|---|\n${rows.join('\n')}`);
  // With the values of each workspace deployment of the chart (deployment-rules.ts runScenarioRules).
  for (const sc of ctx.scenarios ?? []) {
    const r = rowsOf(sc.template);
    if (r.length) parts.push(`**With the values of ${sc.label}**\n\n| step | apiVersion kind |\n|---|---|\n${r.join('\n')}`);
  }
  if (!parts.length) return undefined;
  return { markdown: parts.join('\n\n'), range: lines.range(lineStart, lineEnd) };
}
