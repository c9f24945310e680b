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
  const rows: string[] = [];
  for (const s of tr.steps) {
    const here = s.emissions.filter((e) => e.at.start < lineEnd && e.at.end >= lineStart);
    const und = s.undecided.filter((u) => u.at.start < lineEnd && u.at.end >= lineStart);
    for (const e of here) {
      const j = e.apiVersion && e.kind ? judge(ctx.rows, e.apiVersion, e.kind, s.step) : undefined;
      const state = !j ? '' : !j.served ? (j.removed ? ' — removed there' : ' — not served yet') : j.deprecated ? ' — deprecated there' : ' — served';
      rows.push(`| ${s.step} | \`${e.apiVersion} ${e.kind}\`${state}${e.via ? ` (from ${e.via.define ? `"${e.via.define}" in ` : ''}${e.via.file})` : ''}${e.byHelm ? ' (helm template)' : ''} |`);
    }
    for (const u of und) rows.push(`| ${s.step} | not decided: ${u.reason} |`);
  }
  // Each values scenario that renders something on this line: what it emits at each step (or could not decide).
  const more: string[] = [];
  for (const sc of ctx.scenarios ?? []) {
    const str = sc.template;
    if (!str) continue;
    const cells: string[] = [];
    for (const s of str.steps) {
      const here = s.emissions.filter((e) => e.at.start < lineEnd && e.at.end >= lineStart);
      const und = s.undecided.filter((u) => u.at.start < lineEnd && u.at.end >= lineStart);
      for (const e of here) {
        const j = e.apiVersion && e.kind ? judge(ctx.rows, e.apiVersion, e.kind, s.step) : undefined;
        const state = !j ? '' : !j.served ? (j.removed ? ' — removed there' : ' — not served yet') : j.deprecated ? ' — deprecated there' : ' — served';
        cells.push(`| ${s.step} | \`${e.apiVersion} ${e.kind}\`${state} |`);
      }
      for (const u of und) cells.push(`| ${s.step} | not decided: ${u.reason} |`);
    }
    if (cells.length) more.push(`**With ${sc.scenario.label}**\n\n| step | apiVersion kind |\n|---|---|\n${cells.join('\n')}`);
  }
  if (!rows.length && !more.length) return undefined;
  const defaults = rows.length ? `**What this line emits at each step** (rendered with the chart's default values)\n\n| step | apiVersion kind |\n|---|---|\n${rows.join('\n')}` : "**What this line emits at each step**: nothing with the chart's default values";
  const others = ctx.scenarios?.length ? `\n\nValues scenarios that render this line: ${more.length ? ctx.scenarios.filter((s) => more.some((m) => m.startsWith(`**With ${s.scenario.label}**`))).map((s) => s.scenario.label).join(', ') : 'none'}${more.length ? `\n\n${more.join('\n\n')}` : ''}` : '';
  return { markdown: defaults + others, range: lines.range(lineStart, lineEnd) };
}
