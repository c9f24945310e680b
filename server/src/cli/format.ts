// Output formats of lsp-lint: stylish (people), json (scripts), sarif (code scanning), github (workflow annotations),
// gitlab (GitLab Code Quality reports).
import * as path from 'node:path';
import type * as Sarif from 'sarif';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { allRules } from './rule-meta';
import { nodeCrypto } from '../shared/lazy-node';

export interface FileReport {
  file: string; family: string | null; diagnostics: Diagnostic[]; fixed?: boolean; facts?: Record<string, unknown>;
  /** The steps of the file's window, as the server said them with its facts (FileFactsParams.steps): the matrix's columns. */
  steps?: readonly string[];
  /** Set when the file (or folder) was not checked at all: its diagnostics say why. */
  notChecked?: boolean;
  /** A named folder or glob whose files the user's ignore lists all leave out: a warning, not a "not checked" failure. */
  ignoredByUser?: boolean;
}

/**
 * A file name or message as it may be printed to a terminal: control characters (ESC, newline, DEL, C1) and the
 * Unicode bidirectional overrides are shown as escapes, so a hostile file name cannot move the cursor, recolour the
 * output or forge report lines.
 */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) => {
    const c = ch.charCodeAt(0);
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return c < 0x100 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A line that a CI runner would take as a command: GitHub Actions' workflow commands (`::error …`, `::add-mask::`,
 * `::stop-commands::`, also after leading blanks or colour codes), their older `##[…]` form, and Azure Pipelines' `##vso[…]`.
 */
// eslint-disable-next-line no-control-regex
const COMMAND_LINE = /^((?:[ \t]|\u001b\[[\d;]*m)*)(::|##\[|##vso\[)/i;

/**
 * A report as it may be printed where a CI runner reads it: no line starts a workflow command. Such a line (a file
 * named `::error file=…::…`, a manifest line shown in a source excerpt) has its first character written as an
 * escape: `\x3a` / `\x23` in text, `&#58;` / `&#35;` in markup (`markup`: html, markdown, XML), which shows the same.
 * The github format's own annotations are the one place such lines belong: it is not passed through this.
 */
export function withoutCommandLines(text: string, markup = false): string {
  // A substring search first: almost no report holds either marker, and the expression tried at every position of a
  // 10,000-file JSON report (18 MB) took 50 ms of the run's serial end, the two searches about 35.
  if (!text.includes('::') && !text.includes('##')) return text;
  // eslint-disable-next-line no-control-regex
  if (!/(^|\n)(?:[ \t]|\u001b\[[\d;]*m)*(::|##)/.test(text)) return text;
  return text.split('\n').map((line) => line.replace(COMMAND_LINE, (_, lead: string, cmd: string) => {
    const c = cmd[0];
    const esc = markup ? `&#${c.charCodeAt(0)};` : `\\x${c.charCodeAt(0).toString(16)}`;
    return lead + esc + cmd.slice(1);
  })).join('\n');
}

/**
 * A finding that says something was not checked (lsp-lint and merge-reports exit 2 on it unless --allow-unchecked):
 * an internal error, a skipped file (binary, over the size limit, unreadable; not --fix's "not fixed" notes), or a
 * note whose data says notChecked (a chart's template or dependency not read, a Kustomize entry outside the
 * workspace or remote).
 */
export const isUnchecked = (ruleId: string, message: string, data: unknown): boolean => {
  const d = (data && typeof data === 'object' ? data : {}) as { notChecked?: unknown; ignored?: unknown };
  if (d.notChecked === true || ruleId === 'skewguard/internal-error') return true;
  // A named folder whose files the user's own ignore lists leave out is the user's choice, not a file not checked.
  return ruleId === 'skewguard/skipped-file' && d.ignored !== true && !/^not fixed:/.test(message);
};
export const isUncheckedNote = (d: Diagnostic): boolean => isUnchecked(String(d.code ?? ''), msg(d), d.data);

const SEV_NAME = ['', 'error', 'warning', 'info', 'hint'] as const;
export const sevName = (d: Diagnostic) => SEV_NAME[d.severity ?? 1] || 'error';
export const msg = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);

/** `infos`: the findings below a warning (info and hint); `hints`: the hints among them. */
export interface Counts { errors: number; warnings: number; infos: number; hints: number; fixed: number }
export function count(reports: FileReport[]): Counts {
  const c = { errors: 0, warnings: 0, infos: 0, hints: 0, fixed: 0 };
  for (const r of reports) {
    if (r.fixed) c.fixed++;
    for (const d of r.diagnostics) {
      const s = sevName(d);
      if (s === 'error') c.errors++; else if (s === 'warning') c.warnings++; else { c.infos++; if (s === 'hint') c.hints++; }
    }
  }
  return c;
}

export function stylish(reports: FileReport[], cwd: string, color: boolean): string {
  const c = (code: string, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const out: string[] = [];
  for (const r of reports) {
    if (!r.diagnostics.length) continue;
    out.push(c('4', printable(path.relative(cwd, r.file) || r.file)));
    const rows = r.diagnostics.map((d) => [
      `${d.range.start.line + 1}:${d.range.start.character + 1}`, sevName(d), printable(msg(d).replace(/\s*\n\s*/g, ' ')), printable(String(d.code ?? '')),
    ]);
    // A loop, not Math.max(...): a file can have a million findings, more arguments than a call takes.
    let w0 = 0, w1 = 0;
    for (const x of rows) { if (x[0].length > w0) w0 = x[0].length; if (x[1].length > w1) w1 = x[1].length; }
    for (const [pos, sev, msg, id] of rows) {
      const sc = sev === 'error' ? '31' : sev === 'warning' ? '33' : '36';
      out.push(`  ${c('2', pos.padEnd(w0))}  ${c(sc, sev.padEnd(w1))}  ${msg}  ${c('2', id)}`);
    }
    out.push('');
  }
  const n = count(reports);
  const total = n.errors + n.warnings + n.infos;
  if (total) {
    const line = `✖ ${total} problem${total === 1 ? '' : 's'} (${n.errors} error${n.errors === 1 ? '' : 's'}, ${n.warnings} warning${n.warnings === 1 ? '' : 's'}, ${n.infos - n.hints} info${n.hints ? `, ${n.hints} hint${n.hints === 1 ? '' : 's'}` : ''})`;
    out.push(c(n.errors ? '1;31' : '1;33', line));
  } else {
    // A file of no family skewguard knows was read but not checked: say so instead of counting it as checked.
    const read = reports.filter((r) => !r.notChecked);
    const checked = read.filter((r) => r.family).length, other = read.length - checked;
    const others = other ? ` (${other} other file${other === 1 ? '' : 's'} read: not of a kind skewguard checks)` : '';
    out.push(c('32', `✔ ${checked} file${checked === 1 ? '' : 's'} checked, no problems${others}`));
  }
  if (n.fixed) out.push(`${n.fixed} file${n.fixed === 1 ? '' : 's'} fixed`);
  const h = helmLine(reports, cwd);
  if (h) out.push(c('2', h));
  return out.join('\n') + '\n';
}

interface HelmReadFact { chart: string; readBy: string; why?: string; helmVersion?: string; rendered?: string[] }

/** One line on how the Helm charts of the run were read (by a real Helm per step, or by skewguard's evaluator). */
export function helmLine(reports: FileReport[], cwd: string): string | undefined {
  const charts = new Map<string, HelmReadFact>();
  const rank = (r: string) => (r === 'evaluator' ? 2 : r === 'helm+evaluator' ? 1 : 0);
  for (const r of reports) {
    const f = r.facts?.helm as HelmReadFact | undefined;
    if (!f || typeof f.chart !== 'string') continue;
    const had = charts.get(f.chart);
    if (!had || rank(f.readBy) > rank(had.readBy)) charts.set(f.chart, f);
  }
  if (!charts.size) return undefined;
  const parts = [...charts.values()].sort((a, b) => (a.chart < b.chart ? -1 : 1)).map((f) => {
    const name = printable(path.relative(cwd, f.chart) || f.chart);
    if (f.readBy === 'helm') return `${name} by helm ${printable(f.helmVersion ?? '')} at ${f.rendered?.length ?? 0} step${f.rendered?.length === 1 ? '' : 's'}`;
    if (f.readBy === 'helm+evaluator') return `${name} by helm ${printable(f.helmVersion ?? '')} at ${f.rendered?.join(', ')}, by the evaluator elsewhere (${printable(f.why ?? '')})`;
    return `${name} by skewguard's evaluator (${printable(f.why ?? '')})`;
  });
  const shown = parts.slice(0, 5).join('; ') + (parts.length > 5 ? `; … ${parts.length - 5} more (see --format json, facts.helm)` : '');
  return `Helm chart${charts.size === 1 ? '' : 's'} read: ${shown}`;
}

export function json(reports: FileReport[], version?: string): string {
  return JSON.stringify(reports.map((r) => ({
    filePath: r.file,
    // Which lsp-lint wrote it: merge-reports joins only reports of its own version.
    ...(version ? { skewguardVersion: version } : {}),
    family: r.family,
    ...(r.facts ? { facts: r.facts } : {}),
    fixed: !!r.fixed,
    errorCount: r.diagnostics.filter((d) => sevName(d) === 'error').length,
    warningCount: r.diagnostics.filter((d) => sevName(d) === 'warning').length,
    messages: r.diagnostics.map((d) => ({
      ruleId: d.code, severity: sevName(d), message: msg(d),
      line: d.range.start.line + 1, column: d.range.start.character + 1,
      endLine: d.range.end.line + 1, endColumn: d.range.end.character + 1,
      docsUrl: d.codeDescription?.href, data: d.data,
    })),
  })), null, 2) + '\n';
}

const SARIF_LEVEL: Record<string, Sarif.Result.level> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

export function sarif(reports: FileReport[], cwd: string, version: string): string {
  const rules = allRules.map((r) => ({
    id: r.id, name: r.id.replace(/[/-](\w)/g, (_, ch: string) => ch.toUpperCase()),
    shortDescription: { text: r.title.replace(/`/g, '') },
    fullDescription: { text: `${r.what} ${r.why}`.replace(/`/g, '') },
    helpUri: r.docsUrl,
    help: { text: r.why.replace(/`/g, ''), markdown: r.why },
    defaultConfiguration: { level: SARIF_LEVEL[r.defaultSeverity] },
    properties: { tags: [r.family] },
  }));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'skewguard', informationUri: 'https://github.com/skewguard/skewguard', semanticVersion: version, version, rules } },
      originalUriBaseIds: { SRCROOT: { uri: pathToUri(cwd) + '/' } },
      columnKind: 'utf16CodeUnits',
      results: reports.flatMap((r) => r.diagnostics.map((d): Sarif.Result => {
        const rel = path.relative(cwd, r.file);
        const inside = rel && !rel.startsWith('..') && !path.isAbsolute(rel);
        return {
          ruleId: String(d.code),
          ...(index.has(String(d.code)) ? { ruleIndex: index.get(String(d.code)) } : {}),
          level: SARIF_LEVEL[sevName(d)],
          // A "not checked" note stays one through merge-reports.
          ...(isUncheckedNote(d) ? { properties: { notChecked: true } } : {}),
          message: { text: msg(d) },
          locations: [{
            physicalLocation: {
              artifactLocation: inside ? { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' } : { uri: pathToUri(r.file) },
              region: { startLine: d.range.start.line + 1, startColumn: d.range.start.character + 1, endLine: d.range.end.line + 1, endColumn: d.range.end.character + 1 },
            },
          }],
        };
      })),
    }],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function pathToUri(p: string): string {
  return 'file://' + p.split(path.sep).map(encodeURIComponent).join('/').replace(/^([^/])/, '/$1');
}

// The runner decodes only %25, %0D, %0A (and %3A, %2C in properties); other control characters are shown as escapes.
export const escData = (s: string) => printable(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
export const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function github(reports: FileReport[], cwd: string): string {
  const out: string[] = [];
  for (const r of reports) {
    const file = path.relative(cwd, r.file) || r.file;
    for (const d of r.diagnostics) {
      const cmd = sevName(d) === 'error' ? 'error' : sevName(d) === 'warning' ? 'warning' : 'notice';
      out.push(`::${cmd} file=${escProp(file)},line=${d.range.start.line + 1},col=${d.range.start.character + 1},endLine=${d.range.end.line + 1},endColumn=${d.range.end.character + 1},title=${escProp(String(d.code))}::${escData(msg(d))}`);
    }
  }
  return out.length ? out.join('\n') + '\n' : '';
}

const GITLAB_SEVERITY: Record<string, string> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };

/**
 * GitLab Code Quality (the Code Climate issue subset GitLab reads from `artifacts: reports: codequality`): one issue
 * per finding, paths relative to the working directory (the project root in a GitLab job). The fingerprint ignores
 * the line, so a finding keeps its identity when lines above it change; repeats of the same finding in a file are
 * told apart by their order.
 */
export function gitlab(reports: FileReport[], cwd: string): string {
  const seen = new Map<string, number>();
  const issues = reports.flatMap((r) => {
    const rel = path.relative(cwd, r.file);
    const file = (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : r.file).split(path.sep).join('/');
    return r.diagnostics.map((d) => {
      const base = `${String(d.code)}\u0000${file}\u0000${msg(d)}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      return {
        type: 'issue',
        check_name: String(d.code),
        description: msg(d),
        categories: ['Bug Risk'],
        severity: GITLAB_SEVERITY[sevName(d)],
        fingerprint: nodeCrypto().createHash('sha256').update(`${base}\u0000${n}`).digest('hex'),
        location: { path: file, lines: { begin: d.range.start.line + 1, end: d.range.end.line + 1 } },
      };
    });
  });
  return JSON.stringify(issues, null, 2) + '\n';
}
