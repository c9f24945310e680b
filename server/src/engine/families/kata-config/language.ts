// Hover and completion over a Kata Containers configuration.toml.
import type { Position } from '../../types';
import type { AnalyzeResult } from '../../analyze';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex } from '../../text';
import { compareVersions } from '../../versions';
import { KataContext, detectFlavour, resolveKataWindow } from './index';
import { describeReleases } from './data';
import { parseTomlText } from '../../parse/toml';

export function kataHover(ctx: KataContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const within = (r: { start: number; end: number }) => off >= r.start && off <= r.end;
  const table = ctx.tables.find((t) => within(t.headerRange));
  if (table) {
    const name = table.path.join('.');
    const row = ctx.sectionRow(name);
    const out = [`**[${name}]** — Kata Containers ${ctx.flavourName}`, ''];
    if (row?.doc) out.push(row.doc, '');
    out.push(windowLine(ctx, (r) => ctx.sectionKnown(name, r)));
    if (row?.note) out.push('', `Note: ${row.note}`);
    return { markdown: out.join('\n'), range: lines.range(table.headerRange.start, table.headerRange.end) };
  }
  const k = ctx.keys.find((x) => within(x.entry.keyRange) || within(x.entry.valueRange));
  if (!k) return undefined;
  const row = ctx.optionRow(k.section, k.key);
  const out = [`**${k.key}** in [${k.section}] — Kata Containers ${ctx.flavourName}`, ''];
  const unlisted = row ? undefined : ctx.sectionRow(k.section)?.keysNotListed?.[ctx.flavour];
  if (unlisted) {
    out.push(`${ctx.flavourName} ${unlisted.first}–${unlisted.last ?? 'today'} reads this table${unlisted.goType ? ` into a ${unlisted.goType}` : ''}, but the key data does not list its keys: this key is not checked.`);
  } else if (!row) {
    out.push(`No ${ctx.flavourName} release reads this key here.`);
  } else {
    if (row.doc) out.push(row.doc.replace(/\n/g, '  \n'), '');
    const types = row.types.filter((t) => t.flavour === ctx.flavour).map((t) => `${t.type}${t.items ? ` of ${t.items}` : ''} (${t.from}–${t.to ?? 'today'})`);
    if (types.length) out.push(`Type: ${types.join(', ')}.`);
    const vals = row.values.filter((v) => v.flavour === ctx.flavour).map((v) => `${v.enum.map((x) => `\`${x}\``).join(', ')} (${v.from}–${v.to ?? 'today'}${v.fatal ? ', others fatal' : ''})`);
    if (vals.length) out.push(`Values: ${vals.join('; ')}.`);
    if (row.default !== undefined && row.default !== null) out.push(`Default: \`${JSON.stringify(row.default)}\`.`);
    const fl = row.flavours[ctx.flavour];
    out.push(fl ? `Read by ${ctx.flavourName} ${fl.first}–${fl.last ?? 'today'}${fl.missingIn?.length ? ` (not in ${describeReleases(fl.missingIn, ctx.data.releases)})` : ''}.` : `Only in ${ctx.flavourName} templates, not read by its parser.`);
    for (const r of row.renamedTo ?? []) if (r.flavour === ctx.flavour) out.push(`Renamed to \`${r.key}\` in ${r.in}${r.mapping ? ` (${r.mapping})` : ''}.`);
    out.push('', windowLine(ctx, (r) => ctx.optionKnown(row, r)));
    if (row.sources?.length) out.push('', `Sources: ${row.sources.join('; ')}`);
  }
  const r = within(k.entry.keyRange) ? k.entry.keyRange : k.entry.valueRange;
  return { markdown: out.join('\n'), range: lines.range(r.start, r.end) };
}

/** "Window 3.2.0..3.32.0 (source): read by 3.2.0–3.9.0; ignored by 3.10.0–3.32.0". */
function windowLine(ctx: KataContext, known: (release: string) => 'parser' | 'template' | false): string {
  const by = { parser: [] as string[], template: [] as string[], no: [] as string[] };
  for (const r of ctx.window) { const k = known(r); (k === 'parser' ? by.parser : k === 'template' ? by.template : by.no).push(r); }
  const parts = [];
  if (by.parser.length) parts.push(`✓ read by ${describeReleases(by.parser, ctx.window)}`);
  if (by.template.length) parts.push(`⚠ only in the templates of ${describeReleases(by.template, ctx.window)}`);
  if (by.no.length) parts.push(`✗ ignored by ${describeReleases(by.no, ctx.window)}`);
  return `Window ${ctx.windowText} (${ctx.windowSource.kind}: ${ctx.windowSource.detail}): ${parts.join('; ')}.`;
}

/** Tables, keys and enum values that every release of the window reads. */
export function kataComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  const cfg = result.config;
  if (!cfg) return [];
  const lines = new LineIndex(text);
  const before = lines.lineText(pos.line).slice(0, pos.character);
  const lineStart = lines.lineStart(pos.line);
  // A context even for a file that does not parse while it is being typed.
  const toml = result.toml && !result.toml.errors.length ? result.toml : parseTomlText('');
  const { flavour, source } = detectFlavour(result.path ?? 'configuration.toml', result.toml, cfg);
  const w = resolveKataWindow(cfg);
  const ctx = result.kata ?? new KataContext(result.path ?? 'configuration.toml', toml, flavour, source, w.window, w.source);
  const everywhere = (known: (r: string) => unknown) => ctx.window.every((r) => known(r) === 'parser');
  const sec = /^\s*\[([A-Za-z0-9_.-]*)$/.exec(before);
  if (sec) {
    const names = new Set<string>(ctx.data.sections.map((s) => s.name).filter((n) => !n.includes('*')));
    for (const r of ctx.window) for (const h of ctx.hypervisorNames(r)) names.add(`hypervisor.${h}`);
    return [...names].filter((n) => everywhere((r) => ctx.sectionKnown(n, r))).sort().map((n) => ({
      label: n, kind: 'property' as const, detail: `read by every ${ctx.flavourName} release of ${ctx.windowText}`,
      documentation: ctx.sectionRow(n)?.doc ?? undefined, insertText: n,
      replace: { start: lineStart + before.length - sec[1].length, end: lineStart + before.length }, sortText: n,
    }));
  }
  // The table the cursor is in: the last header above it.
  const headers = [...text.slice(0, lineStart).matchAll(/^\s*\[\[?\s*([^\]]+?)\s*\]\]?/gm)];
  const section = headers.length ? headers[headers.length - 1][1].replace(/["'\s]/g, '') : '';
  const val = /^\s*([A-Za-z0-9_-]+)\s*=\s*(["']?)([^"'#]*)$/.exec(before);
  if (val) {
    const row = ctx.optionRow(section, val[1]);
    if (!row?.values.length) return [];
    let common: string[] | undefined;
    for (const r of ctx.window) {
      const v = row.values.find((x) => x.flavour === ctx.flavour && compareVersions(r, x.from) >= 0 && (x.to === null || compareVersions(r, x.to) <= 0));
      if (!v) continue;
      const allowed = v.enum.map(String);
      common = common ? common.filter((x) => allowed.includes(x)) : allowed;
    }
    const q = val[2] || '"';
    return (common ?? []).map((c, i) => ({
      label: c, kind: 'value' as const, detail: `accepted by every release of ${ctx.windowText}`,
      insertText: val[2] ? c : `${q}${c}${q}`,
      replace: { start: lineStart + before.length - val[3].length, end: lineStart + before.length }, sortText: String(i).padStart(3, '0'),
    }));
  }
  const key = /^\s*([A-Za-z0-9_-]*)$/.exec(before);
  if (key) {
    // Keys already in the table, read from the text: the file does not parse while a key is being typed.
    const present = new Set<string>();
    let at = '';
    text.split(/\r?\n/).forEach((l, i) => {
      const h = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?/.exec(l);
      if (h) at = h[1].replace(/["'\s]/g, '');
      const kv = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(l);
      if (kv && at === section && i !== pos.line) present.add(kv[1]);
    });
    const seen = new Set<string>();
    return ctx.optionsOf(section).filter((o) => !present.has(o.key) && everywhere((r) => ctx.optionKnown(o, r)) && !seen.has(o.key) && seen.add(o.key)).map((o) => ({
      label: o.key, kind: 'property' as const,
      detail: o.types.find((t) => t.flavour === ctx.flavour)?.type, documentation: o.doc ?? undefined,
      insertText: `${o.key} = `, replace: { start: lineStart + before.length - key[1].length, end: lineStart + before.length }, sortText: o.key,
    }));
  }
  return [];
}
