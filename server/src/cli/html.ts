// lsp-lint --format html: one self-contained page (no network: no external script, style sheet, font or image, and
// a Content-Security-Policy that forbids loading any) with the files × steps matrix of each window, coloured, each
// cell linking to the findings of that file at that step with their source lines, and a per-step chart (inline SVG).
import { msg, printable, sevName, count, type FileReport } from './format';
import { buildMatrix, relPath, compareText, sourceLines, verdictOf, windowLabel, type CompareSummary, type Group, type Row, type Verdict } from './matrix';
import { stepBlockers } from './matrix';
import type { Diagnostic } from 'vscode-languageserver-protocol';

/** Findings shown with their source lines, per file and in all (the rest are counted, and the page says so). */
export const HTML_LIMITS = { perFile: 1000, total: 20000, perCell: 200 };

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML content and attribute values: markup characters escaped, control and bidi characters shown as escapes. */
export const esc = (s: string): string => printable(s).replace(/[&<>"']/g, (c) => ESC[c]);
/** A source line: as esc(), but tabs stay tabs. */
const escSource = (s: string): string => s.split('\t').map(esc).join('\t');

const VERDICT_TEXT: Record<Verdict, string> = { fail: '✗', warn: '!', note: 'i', pass: '✓' };
const VERDICT_TITLE: Record<Verdict, string> = { fail: 'failing', warn: 'with warnings', note: 'with notes', pass: 'passing' };

const CSS = `
:root{--fail:#cf222e;--warn:#bf8700;--note:#0969da;--pass:#1a7f37;--bg:#fff;--fg:#1f2328;--mute:#59636e;--line:#d1d9e0}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:24px;max-width:1400px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:20px 0 6px;word-break:break-all}h4{font-size:14px;margin:10px 0 4px}
.sum{color:var(--mute);margin:0 0 12px}
table.m{border-collapse:collapse;margin:8px 0}table.m th,table.m td{border:1px solid var(--line);padding:3px 8px;text-align:center}
table.m th.f,table.m td.f{text-align:left;font-family:ui-monospace,monospace;font-size:12.5px;word-break:break-all;max-width:520px}
td.c a{display:block;text-decoration:none;font-weight:600;color:#fff;border-radius:3px;padding:1px 4px;min-width:28px}
td.fail a{background:var(--fail)}td.warn a{background:var(--warn)}td.note a{background:var(--note)}td.pass span{color:var(--pass);font-weight:600}
.fd{border-left:4px solid var(--line);margin:8px 0;padding:4px 10px;background:#f6f8fa}
.fd.error{border-color:var(--fail)}.fd.warning{border-color:var(--warn)}.fd.info,.fd.hint{border-color:var(--note)}
.fd .h{font-family:ui-monospace,monospace;font-size:12.5px}.sev{font-weight:600}.error .sev{color:var(--fail)}.warning .sev{color:var(--warn)}
.info .sev,.hint .sev{color:var(--note)}.steps{color:var(--mute);font-size:12px}
pre{margin:4px 0;padding:4px 8px;background:#fff;border:1px solid var(--line);overflow-x:auto;font-size:12.5px;tab-size:4}
pre .n{color:var(--mute);user-select:none;display:inline-block;min-width:4ch;text-align:right;margin-right:1ch}
mark{background:#ffd8b5;color:inherit}
.cell{border:1px solid var(--line);border-radius:4px;padding:2px 10px 6px;margin:8px 0}
.cell:target,.fd:target{outline:3px solid #0969da}
ul.sf{margin:4px 0;padding-left:18px}ul.sf li{margin:2px 0}
.legend span{display:inline-block;width:12px;height:12px;border-radius:2px;margin:0 4px 0 12px;vertical-align:-1px}
.cmp li.breaks{color:var(--fail)}.cmp li.repairs{color:var(--pass)}
.more{color:var(--mute);font-style:italic}
td.clear span{color:var(--pass);font-weight:600}td.blocked{color:var(--fail)}td.blocked li{color:var(--fg)}
`;

/** The per-step chart of a window: one stacked bar per step (files failing, with warnings, with notes, passing). */
function chart(g: Group): string {
  const W = 44, H = 120, top = 18, left = 34;
  const n = g.rows.length || 1;
  const width = left + g.steps.length * W + 10;
  const parts: string[] = [];
  parts.push(`<line x1="${left - 4}" y1="${top + H}" x2="${width - 6}" y2="${top + H}" stroke="#d1d9e0"/>`);
  parts.push(`<text x="${left - 8}" y="${top + 4}" text-anchor="end" font-size="10" fill="#59636e">${n}</text><text x="${left - 8}" y="${top + H}" text-anchor="end" font-size="10" fill="#59636e">0</text>`);
  g.steps.forEach((step, j) => {
    const counts: Record<Verdict, number> = { fail: 0, warn: 0, note: 0, pass: 0 };
    for (const r of g.rows) counts[verdictOf(r.cells[j])]++;
    let y = top + H;
    const x = left + j * W + 6;
    for (const v of ['pass', 'note', 'warn', 'fail'] as Verdict[]) {
      if (!counts[v]) continue;
      const h = Math.max(1, Math.round((counts[v] / n) * H));
      y -= h;
      parts.push(`<rect class="bar ${v}" x="${x}" y="${y}" width="${W - 12}" height="${h}" fill="var(--${v})"><title>${esc(step)}: ${counts[v]} file${counts[v] === 1 ? '' : 's'} ${VERDICT_TITLE[v]}</title></rect>`);
    }
    parts.push(`<text x="${x + (W - 12) / 2}" y="${Math.max(12, y - 4)}" text-anchor="middle" font-size="10" fill="#1f2328">${counts.fail}</text>`);
    parts.push(`<text x="${x + (W - 12) / 2}" y="${top + H + 14}" text-anchor="middle" font-size="11" fill="#1f2328">${esc(step)}</text>`);
  });
  return `<svg class="chart" role="img" aria-label="files per verdict at each step" width="${width}" height="${top + H + 22}" viewBox="0 0 ${width} ${top + H + 22}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}

function sourceBlock(lines: string[] | undefined, d: Diagnostic, maxLines: number): string {
  if (!lines) return '';
  const s = d.range.start, e = d.range.end;
  if (s.line >= lines.length) return '';
  const last = Math.min(e.line, s.line + maxLines - 1, lines.length - 1);
  const out: string[] = [];
  for (let l = s.line; l <= last; l++) {
    const text = lines[l];
    const a = l === s.line ? Math.min(s.character, text.length) : 0;
    const b = l === e.line ? Math.min(Math.max(e.character, a), text.length) : text.length;
    const body = b > a ? `${escSource(text.slice(0, a))}<mark>${escSource(text.slice(a, b))}</mark>${escSource(text.slice(b))}` : escSource(text);
    out.push(`<span class="n">${l + 1}</span>${body}`);
  }
  if (e.line > last) out.push(`<span class="n">…</span>`);
  return `<pre>${out.join('\n')}</pre>`;
}

const pos = (d: Diagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;
const ruleLink = (d: Diagnostic) => {
  const id = esc(String(d.code ?? ''));
  const href = d.codeDescription?.href;
  // Only a web address of the rule's documentation is a link (it is not loaded by the page, only followed when clicked).
  return href && /^https:\/\//.test(href) ? `<a href="${esc(href)}" rel="noreferrer">${id}</a>` : id;
};

export interface HtmlOptions { title?: string; version: string; compare?: CompareSummary }

export function html(reports: FileReport[], cwd: string, o: HtmlOptions): string {
  const m = buildMatrix(reports, cwd);
  const n = count(reports);
  const out: string[] = [];
  const title = o.title ?? 'skewguard report';
  out.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title><style>${CSS}</style></head><body>`);
  out.push(`<h1>${esc(title)}</h1>`);
  const checked = reports.filter((r) => !r.notChecked && r.family).length;
  out.push(`<p class="sum">skewguard ${esc(o.version)} · ${checked} file${checked === 1 ? '' : 's'} checked · ${n.errors} error${n.errors === 1 ? '' : 's'}, ${n.warnings} warning${n.warnings === 1 ? '' : 's'}, ${n.infos} info${o.compare ? ` · findings on lines changed since ${esc(o.compare.base)}` : ''}</p>`);
  if (o.compare) out.push(compareHtml(o.compare));
  out.push('<p class="legend">Each cell is a file at a step of its window:<span style="background:var(--fail)"></span>fails (errors)<span style="background:var(--warn)"></span>warnings<span style="background:var(--note)"></span>notes<span style="background:var(--pass)"></span>passes. A cell links to the file\'s findings at that step.</p>');

  let shown = 0, left = 0;
  const fileSections: string[] = [];
  let fileIndex = 0;
  const rowIndex = new Map<Row, number>();
  for (const g of m.groups) {
    out.push(`<h2>${esc(g.family)} · ${esc(windowLabel(g.steps))}</h2>`);
    out.push(chart(g));
    out.push(`<table class="m"><thead><tr><th class="f">file</th>${g.steps.map((s) => `<th>${esc(s)}</th>`).join('\n')}</tr></thead><tbody>`);
    for (const row of g.rows) {
      const i = fileIndex++;
      out.push(`<tr><td class="f"><a href="#f${i}">${esc(row.rel)}</a></td>`);
      row.cells.forEach((c, j) => {
        const v = verdictOf(c);
        if (v === 'pass') out.push(`<td class="c pass" title="${esc(row.rel)} passes at ${esc(g.steps[j])}"><span>${VERDICT_TEXT.pass}</span></td>`);
        else out.push(`<td class="c ${v}"><a href="#f${i}-s${j}" title="${esc(row.rel)} at ${esc(g.steps[j])}: ${c.findings.length} finding${c.findings.length === 1 ? '' : 's'}">${VERDICT_TEXT[v]} ${c.findings.length}</a></td>`);
      });
      out.push('</tr>');
      rowIndex.set(row, i);
      const sec = fileSection(row, g, i, (k) => { if (shown >= HTML_LIMITS.total) { left += k; return 0; } const take = Math.min(k, HTML_LIMITS.total - shown); shown += take; left += k - take; return take; });
      fileSections.push(sec);
    }
    out.push('</tbody></table>');
  }
  if (!m.groups.length) out.push('<p>No file of a kind skewguard checks was found.</p>');
  for (const line of blockersHtml(m, rowIndex)) out.push(line);
  if (fileSections.length) { out.push('<h2>Findings</h2>'); for (const f of fileSections) out.push(f); }
  if (m.others.length) {
    out.push('<h2>Other files</h2>');
    for (const r of m.others) {
      out.push(`<h3>${esc(relPath(cwd, r.file))}</h3>`);
      for (const d of r.diagnostics) out.push(`<div class="fd ${sevName(d)}"><div class="h">${pos(d)} <span class="sev">${sevName(d)}</span> ${ruleLink(d)}</div><div>${esc(msg(d))}</div></div>`);
    }
  }
  if (left) out.push(`<p class="more">${left} finding${left === 1 ? '' : 's'} left out of this page (at most ${HTML_LIMITS.perFile} per file and ${HTML_LIMITS.total} in all are shown); lsp-lint --format json has them all.</p>`);
  out.push('</body></html>', '');
  return out.join('\n');
}


function fileSection(row: Row, g: Group, i: number, quota: (k: number) => number): string {
  const r = row.report;
  const lines = r.diagnostics.length ? sourceLines(r.file) : undefined;
  const out: string[] = [`<section id="f${i}"><h3>${esc(row.rel)}</h3>`];
  if (!r.diagnostics.length) { out.push(`<p class="sum">passes at every step (${esc(windowLabel(g.steps))}).</p></section>`); return out.join('\n'); }
  const take = quota(Math.min(r.diagnostics.length, HTML_LIMITS.perFile));
  const extra = r.diagnostics.length - take;
  // One view per failing step: what fails there, each with its first source line, linking to the full finding.
  row.cells.forEach((c, j) => {
    if (!c.findings.length) return;
    const v = verdictOf(c);
    out.push(`<div class="cell ${v}" id="f${i}-s${j}"><h4>at ${esc(g.steps[j])}: ${c.errors} error${c.errors === 1 ? '' : 's'}, ${c.warnings} warning${c.warnings === 1 ? '' : 's'}, ${c.notes} note${c.notes === 1 ? '' : 's'}</h4><ul class="sf">`);
    for (const k of c.findings.slice(0, HTML_LIMITS.perCell)) {
      const d = r.diagnostics[k];
      const target = k < take ? `<a href="#f${i}-d${k}">${pos(d)}</a>` : pos(d);
      out.push(`<li class="${sevName(d)}">${target} <span class="sev">${sevName(d)}</span> ${ruleLink(d)}: ${esc(msg(d))}${sourceBlock(lines, d, 1)}</li>`);
    }
    if (c.findings.length > HTML_LIMITS.perCell) out.push(`<li class="more">… ${c.findings.length - HTML_LIMITS.perCell} more at this step, listed below</li>`);
    out.push('</ul></div>');
  });
  const all = new Set(row.everyStep);
  r.diagnostics.slice(0, take).forEach((d, k) => {
    const at = all.has(k) ? 'every step' : g.steps.filter((_, j) => row.cells[j].findings.includes(k)).join(', ');
    out.push(`<div class="fd ${sevName(d)}" id="f${i}-d${k}"><div class="h">${pos(d)} <span class="sev">${sevName(d)}</span> ${ruleLink(d)} <span class="steps">at ${esc(at)}</span></div><div>${esc(msg(d))}</div>${sourceBlock(lines, d, 5)}</div>`);
  });
  if (extra > 0) out.push(`<p class="more">… ${extra} more finding${extra === 1 ? '' : 's'} in this file not shown here.</p>`);
  out.push('</section>');
  return out.join('\n');
}

function compareHtml(c: CompareSummary): string {
  const out: string[] = [`<h2>What the change since ${esc(c.base)} does to the window</h2>`];
  if (!c.entries.length) out.push(`<p>The change (${c.changedFiles} changed file${c.changedFiles === 1 ? '' : 's'}) breaks and repairs no step.</p>`);
  else {
    out.push('<ul class="cmp">');
    for (const e of c.entries) out.push(`<li class="${e.kind}">${compareText(e, (f) => `<code>${esc(f)}</code>`, esc)}</li>`);
    out.push('</ul>');
  }
  if (!c.compared) out.splice(0, out.length, `<p class="sum">Findings on the lines changed since ${esc(c.base)} (${c.changedFiles} changed file${c.changedFiles === 1 ? '' : 's'}; ${c.untouchedFindings} finding${c.untouchedFindings === 1 ? '' : 's'} on other lines left out).</p>`);
  for (const x of c.notCompared) out.push(`<p class="sum">not compared: <code>${esc(x.file)}</code>: ${esc(x.why)}</p>`);
  if (c.deleted.length) out.push(`<p class="sum">Deleted: ${c.deleted.map((d) => `<code>${esc(d)}</code>`).join(', ')}</p>`);
  return out.join('\n');
}

/** At most this many blockers are listed per step on the page; the rest are counted. */
export const HTML_BLOCKERS_PER_STEP = 100;

/**
 * What blocks each step (matrix.ts stepBlockers): per window, a table of its steps, each with the files, releases and
 * callers that have an error there, each linking to that file's findings at that step.
 */
function blockersHtml(m: ReturnType<typeof buildMatrix>, rowIndex: Map<Row, number>): string[] {
  const out: string[] = [];
  for (const w of stepBlockers(m)) {
    out.push(`<h2>What blocks each step · ${esc(w.families.join(', '))} · ${esc(windowLabel(w.steps))}</h2>`);
    out.push('<table class="m blk"><thead><tr><th>step</th><th class="f">blocked by</th></tr></thead><tbody>');
    w.steps.forEach((s, j) => {
      const list = w.perStep[j];
      if (!list.length) { out.push(`<tr><td>${esc(s)}</td><td class="f clear"><span>${VERDICT_TEXT.pass}</span> nothing</td></tr>`); return; }
      const items = list.slice(0, HTML_BLOCKERS_PER_STEP).map((b) => {
        const i = rowIndex.get(b.row);
        const file = i === undefined ? `<code>${esc(b.row.rel)}</code>` : `<a href="#f${i}-s${j}"><code>${esc(b.row.rel)}</code></a>`;
        return `<li>${b.subject ? `${esc(b.subject)} in ` : ''}${file}${b.errors > 1 ? ` (${b.errors} errors)` : ''}</li>`;
      });
      const more = list.length - items.length;
      out.push(`<tr><td>${esc(s)}</td><td class="f blocked"><ul class="sf">${items.join('')}${more ? `<li class="more">… and ${more} more</li>` : ''}</ul></td></tr>`);
    });
    out.push('</tbody></table>');
  }
  return out;
}
