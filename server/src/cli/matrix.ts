// The files × steps matrix of a run, for the html and markdown reports: files grouped by their window (family and
// steps, as the server said them), each cell the findings that concern that step (engine/steps.ts reads them from
// the finding's data, as the editor's per-step code lens does).
import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { sevName, type FileReport } from './format';
import { findingSteps } from '../engine/steps';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readFileUpTo } from '../shared/bounded-read';

export type Verdict = 'fail' | 'warn' | 'note' | 'pass';

export interface Cell { errors: number; warnings: number; notes: number; findings: number[] }

export interface Row {
  report: FileReport;
  /** The file's path relative to the working directory, with `/` (absolute outside it). */
  rel: string;
  cells: Cell[];
  /** The findings (indexes into report.diagnostics) that concern every step of the window. */
  everyStep: number[];
}

export interface Group { family: string; steps: readonly string[]; rows: Row[] }

export interface Matrix {
  groups: Group[];
  /** Reports without a window: files of no family, files and folders not checked (their diagnostics say why). */
  others: FileReport[];
}

/** What a change does to the window (lsp-lint --changed-since … --compare), printed before the matrix. */
export interface CompareSummary {
  base: string;
  /** --compare was given: entries and notCompared are filled in. */
  compared: boolean;
  /** Per changed file and kind: the steps at which the change makes the file fail (breaks) or pass again (repairs). */
  entries: Array<{ file: string; family: string; kind: 'breaks' | 'repairs'; steps: string[]; added?: boolean }>;
  /** Changed files checked, and how many findings were left out because they are on lines the change did not touch. */
  changedFiles: number;
  /** The changed files that were checked (relative paths). */
  changed: string[];
  /** Changed files whose base version could not be checked, and why. */
  notCompared: Array<{ file: string; why: string }>;
  untouchedFindings: number;
  /** Files the change deleted (nothing to check). */
  deleted: string[];
}

export const relPath = (cwd: string, file: string): string => {
  const rel = path.relative(cwd, file);
  return (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file).split(path.sep).join('/');
};

export function verdictOf(c: Pick<Cell, 'errors' | 'warnings' | 'notes'>): Verdict {
  return c.errors ? 'fail' : c.warnings ? 'warn' : c.notes ? 'note' : 'pass';
}

const bump = (c: Cell, d: Diagnostic, i: number) => {
  const s = sevName(d);
  if (s === 'error') c.errors++; else if (s === 'warning') c.warnings++; else c.notes++;
  c.findings.push(i);
};

export function buildMatrix(reports: FileReport[], cwd: string): Matrix {
  const groups = new Map<string, Group>();
  const others: FileReport[] = [];
  for (const r of reports) {
    const steps = r.notChecked || !r.family ? undefined : r.steps;
    if (!steps?.length) { if (r.diagnostics.length || r.notChecked) others.push(r); continue; }
    const key = `${r.family}\u0000${steps.join(',')}`;
    let g = groups.get(key);
    if (!g) groups.set(key, g = { family: r.family!, steps, rows: [] });
    const row: Row = { report: r, rel: relPath(cwd, r.file), cells: steps.map(() => ({ errors: 0, warnings: 0, notes: 0, findings: [] })), everyStep: [] };
    r.diagnostics.forEach((d, i) => {
      const at = findingSteps(d.data as Record<string, unknown> | undefined, steps);
      if (at.length === steps.length) row.everyStep.push(i);
      for (const s of at) bump(row.cells[steps.indexOf(s)], d, i);
    });
    g.rows.push(row);
  }
  const list = [...groups.values()].sort((a, b) => (a.family < b.family ? -1 : a.family > b.family ? 1 : a.steps.join() < b.steps.join() ? -1 : 1));
  for (const g of list) g.rows.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { groups: list, others };
}

/** "1.18..1.21" for a window of more than two steps, else the steps. */
export const windowLabel = (steps: readonly string[]): string => (steps.length > 2 ? `${steps[0]}..${steps[steps.length - 1]}` : steps.join(', '));

/**
 * The lines of a checked file, as the server saw them (byte order mark dropped; lines end at \r\n, \n or \r), read
 * again for the report: at most the size limit, only regular files; undefined when it cannot be read.
 */
export function sourceLines(file: string): string[] | undefined {
  try {
    const r = readFileUpTo(file, MAX_FILE_BYTES);
    if (!('bytes' in r)) return undefined;
    const buf = r.bytes;
    if (buf.subarray(0, 8192).includes(0)) return undefined;
    return buf.toString('utf8').replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  } catch { return undefined; }
}

/** "this change makes deploy/app.yaml fail at 1.25" / "… pass again at 1.25"; `file` and `text` quote for the format. */
export function compareText(e: CompareSummary['entries'][number], file: (f: string) => string, text: (s: string) => string): string {
  const at = text(e.steps.join(', '));
  return e.kind === 'breaks'
    ? `this change makes ${file(e.file)} fail at ${at}${e.added ? text(' (a file the change adds)') : ''}`
    : `this change makes ${file(e.file)} pass again at ${at}`;
}

/** Something that blocks a step: a file, or what a finding's `data.subject` names in it (a release, a caller). */
export interface Blocker {
  /** `data.subject` of the findings ("release db (namespace db)", "caller backup-operator/2.3.1"), absent: the file itself. */
  subject?: string;
  row: Row;
  /** Its error findings at that step. */
  errors: number;
}

/** For one window (the groups of every family with these steps): what blocks each step. */
export interface StepBlockers { steps: readonly string[]; families: string[]; perStep: Blocker[][] }

/** A finding's short subject, if its data names one (at most 200 characters, one line). */
export function subjectOf(d: Diagnostic): string | undefined {
  const s = (d.data as Record<string, unknown> | undefined)?.subject;
  if (typeof s !== 'string' || !s.trim()) return undefined;
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

/**
 * What blocks each step of each window: the files, and the subjects their findings name (Helm releases, API callers),
 * with an error that concerns that step (the cell's findings: engine/steps.ts reads them from `data.steps` and the
 * rules' own step keys). Groups of different families with the same steps are one window here: a step of the
 * upgrade is blocked by whatever file of whatever kind fails there. Windows with no error at any step are left out.
 */
export function stepBlockers(m: Matrix): StepBlockers[] {
  const byWindow = new Map<string, StepBlockers>();
  for (const g of m.groups) {
    const key = g.steps.join('\u0000');
    let w = byWindow.get(key);
    if (!w) byWindow.set(key, w = { steps: g.steps, families: [], perStep: g.steps.map(() => []) });
    if (!w.families.includes(g.family)) w.families.push(g.family);
    for (const row of g.rows) {
      row.cells.forEach((c, j) => {
        if (!c.errors) return;
        const at = new Map<string, Blocker>();
        for (const k of c.findings) {
          const d = row.report.diagnostics[k];
          if (sevName(d) !== 'error') continue;
          const subject = subjectOf(d);
          const id = subject ?? '';
          let b = at.get(id);
          if (!b) at.set(id, b = { subject, row, errors: 0 });
          b.errors++;
        }
        for (const b of at.values()) w!.perStep[j].push(b);
      });
    }
  }
  const out = [...byWindow.values()].filter((w) => w.perStep.some((b) => b.length));
  for (const w of out) {
    w.families.sort();
    for (const list of w.perStep) list.sort((a, b) => (a.row.rel < b.row.rel ? -1 : a.row.rel > b.row.rel ? 1 : (a.subject ?? '') < (b.subject ?? '') ? -1 : (a.subject ?? '') > (b.subject ?? '') ? 1 : 0));
  }
  return out;
}
