// lsp-lint --format markdown: a pull-request summary (a PR comment, a job summary). First what the change does to
// the window (with --changed-since … --compare), then the files × steps matrix of the files with findings, then the
// findings grouped by step. It stays under GitHub's comment limit (65,536 characters) and says what it left out.
import { msg, printable, sevName, count, type FileReport } from './format';
import { buildMatrix, compareText, relPath, verdictOf, windowLabel, type CompareSummary, type Verdict } from './matrix';
import { stepBlockers, type Blocker } from './matrix';
import type { Diagnostic } from 'vscode-languageserver-protocol';

/** GitHub's limit on a comment's body (and a job summary is shown like one). */
export const GITHUB_COMMENT_LIMIT = 65536;

/**
 * Text that GitHub shows as written: control and bidi characters as escapes, and every character that markdown, HTML
 * or GitHub (mentions, references) would read as markup written as a numeric character reference.
 */
export const md = (s: string): string => printable(s).replace(/[\\`*_[\]()<>#!|~&@:]/g, (c) => `&#${c.charCodeAt(0)};`);
const code = (s: string) => `<code>${md(s)}</code>`;

const CELL: Record<Verdict, string> = { fail: '❌', warn: '⚠️', note: 'ℹ️', pass: '✅' };

export interface MarkdownOptions { version: string; compare?: CompareSummary; limit?: number }

export function markdown(reports: FileReport[], cwd: string, o: MarkdownOptions): string {
  const limit = o.limit ?? GITHUB_COMMENT_LIMIT;
  // Room kept for the closing line that says what was left out.
  const budget = limit - 400;
  const m = buildMatrix(reports, cwd);
  const n = count(reports);
  const lines: string[] = [];
  let size = 0;
  let full = false;
  const add = (line: string): boolean => {
    if (full || size + line.length + 1 > budget) { full = true; return false; }
    lines.push(line);
    size += line.length + 1;
    return true;
  };
  const checked = reports.filter((r) => !r.notChecked && r.family).length;
  const withFindings = reports.filter((r) => r.diagnostics.length).length;
  const icon = n.errors ? '❌' : n.warnings ? '⚠️' : '✅';
  const totals = `${n.errors} error${n.errors === 1 ? '' : 's'}, ${n.warnings} warning${n.warnings === 1 ? '' : 's'}, ${n.infos} info in ${withFindings} of ${checked} checked file${checked === 1 ? '' : 's'}`;
  const c = o.compare;
  if (c?.compared) {
    // What the change does to the window comes first: it is what a reviewer reads.
    const breaks = c.entries.filter((e) => e.kind === 'breaks'), repairs = c.entries.filter((e) => e.kind === 'repairs');
    const head = breaks.length ? `❌ skewguard: this change breaks ${breaks.length} file${breaks.length === 1 ? '' : 's'} at some step of the window` : repairs.length ? '✅ skewguard: this change breaks no step and repairs some' : '✅ skewguard: this change breaks no step of the window';
    add(`## ${head}`);
    add('');
    add(`Compared with ${code(c.base)}, step by step (a step fails when an error concerns it):`);
    add('');
    if (!c.entries.length) add(`- the change (${c.changedFiles} changed file${c.changedFiles === 1 ? '' : 's'}) makes no step fail or pass that did not before`);
    for (const e of c.entries) add(`- ${e.kind === 'breaks' ? '❌' : '✅'} ${compareText(e, code, md)}`);
    for (const x of c.notCompared) add(`- not compared: ${code(x.file)}: ${md(x.why)}`);
    if (c.deleted.length) add(`- deleted: ${c.deleted.map(code).join(', ')}`);
    add('');
    add(`### ${icon} On the changed lines: ${totals}`);
  } else add(`## ${icon} skewguard: ${totals}`);
  add('');
  if (c) { add(`Findings on the lines changed since ${code(c.base)}; ${c.untouchedFindings} finding${c.untouchedFindings === 1 ? '' : 's'} on lines the change did not touch ${c.untouchedFindings === 1 ? 'is' : 'are'} not shown.`); add(''); }

  let rowsLeft = 0, itemsLeft = 0;
  const shown = new Set<string>();
  let total = 0;
  for (const g of m.groups) {
    const rows = g.rows.filter((r) => r.report.diagnostics.length);
    total += rows.reduce((a, r) => a + r.report.diagnostics.length, 0);
    if (!rows.length) continue;
    const passing = g.rows.length - rows.length;
    add(`### ${md(g.family)} · ${md(windowLabel(g.steps))}`);
    add('');
    if (!add(`| file | ${g.steps.map(md).join(' | ')} |`) || !add(`|---|${g.steps.map(() => ':-:').join('|')}|`)) { rowsLeft += rows.length; continue; }
    for (const r of rows) {
      const cells = r.cells.map((c) => { const v = verdictOf(c); return v === 'pass' ? CELL.pass : `${CELL[v]} ${c.findings.length}`; });
      if (!add(`| ${code(r.rel)} | ${cells.join(' | ')} |`)) rowsLeft++;
    }
    add('');
    if (passing) { add(`${passing} other file${passing === 1 ? '' : 's'} of this window pass${passing === 1 ? 'es' : ''} at every step.`); add(''); }
  }

  // What blocks each step: the files, and the releases and callers their findings name, with an error there.
  for (const w of stepBlockers(m)) {
    if (full) break;
    add(`### What blocks each step · ${md(w.families.join(', '))} · ${md(windowLabel(w.steps))}`);
    add('');
    add('| step | blocked by |');
    add('|---|---|');
    w.steps.forEach((s, j) => { const list = w.perStep[j]; add(`| ${md(s)} | ${list.length ? `❌ ${blockersText(list)}` : '✅ nothing'} |`); });
    add('');
  }

  // The findings by step: those of every step once, then each step's own.
  const item = (r: FileReport, rel: string, d: Diagnostic) => {
    const href = d.codeDescription?.href;
    const id = md(String(d.code ?? ''));
    const rule = href && /^https:\/\//.test(href) ? `[${id}](${href.replace(/[()\s<>]/g, encodeURIComponent)})` : id;
    return `- ${code(`${rel}:${d.range.start.line + 1}:${d.range.start.character + 1}`)} **${sevName(d)}** ${rule}: ${md(msg(d).replace(/\s*\n\s*/g, ' '))}`;
  };
  for (const g of m.groups) {
    const rows = g.rows.filter((r) => r.report.diagnostics.length);
    if (!rows.length) continue;
    const every = rows.flatMap((r) => r.everyStep.map((k) => ({ r, k })));
    const heading = (t: string) => { if (!full) { add(`#### ${t}`); add(''); } };
    const list = (entries: Array<{ r: typeof rows[number]; k: number }>) => {
      for (const { r, k } of entries) {
        if (add(item(r.report, r.rel, r.report.diagnostics[k]))) shown.add(`${r.rel}\u0000${k}`); else itemsLeft++;
      }
      add('');
    };
    if (!full) { add(`### Findings by step · ${md(g.family)} ${md(windowLabel(g.steps))}`); add(''); }
    if (every.length) { heading(`At every step (${md(windowLabel(g.steps))})`); list(every); }
    // As sets: a bundle has thousands of findings of every step, and each step's cell is filtered by them.
    const everyOf = new Map(rows.map((r) => [r, new Set(r.everyStep)]));
    g.steps.forEach((s, j) => {
      const at = rows.flatMap((r) => r.cells[j].findings.filter((k) => !everyOf.get(r)!.has(k)).map((k) => ({ r, k })));
      if (!at.length) return;
      heading(`At ${md(s)}`);
      list(at);
    });
  }
  const others = m.others.filter((r) => r.diagnostics.length);
  if (others.length) {
    if (!full) { add('### Not checked, or of no window'); add(''); }
    for (const r of others) {
      total += r.diagnostics.length;
      const rel = relPath(cwd, r.file);
      r.diagnostics.forEach((d, k) => { if (add(item(r, rel, d))) shown.add(`${rel}\u0000${k}`); else itemsLeft++; });
    }
    add('');
  }
  if (!total && !o.compare) add(`✅ ${checked} file${checked === 1 ? '' : 's'} checked, no problems.`);
  // The closing line fits in the room kept for it whatever happened above.
  const notShown = total - shown.size;
  if (rowsLeft || itemsLeft) {
    lines.push(`> **Left out** to stay under GitHub's comment limit (${limit.toLocaleString('en-US')} characters): ${rowsLeft ? `${rowsLeft} matrix row${rowsLeft === 1 ? '' : 's'}, ` : ''}${notShown} of ${total} finding${total === 1 ? '' : 's'}. The full report: \`lsp-lint --format html\`, \`sarif\` or \`json\`.`);
  }
  lines.push('', `<sub>skewguard ${md(o.version)}</sub>`, '');
  return lines.join('\n');
}

/** At most this many blockers are named per step in the markdown summary; the rest are counted. */
export const BLOCKERS_PER_STEP = 10;

/** "release db (namespace db) in <code>records.yaml</code>, <code>deploy/app.yaml</code> (2 errors), and 3 more". */
function blockersText(list: Blocker[]): string {
  const named = list.slice(0, BLOCKERS_PER_STEP).map((b) => `${b.subject ? `${md(b.subject)} in ` : ''}${code(b.row.rel)}${b.errors > 1 ? ` (${b.errors} errors)` : ''}`);
  const more = list.length - named.length;
  return `${named.join(', ')}${more ? `, and ${more} more` : ''}`;
}
