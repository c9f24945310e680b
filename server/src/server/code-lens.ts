// The window at a glance, server side: a code lens at the top of every checked file with its verdict per step of its
// window (engine/steps.ts windowVerdict), each step's lens opening that step's findings (the client's
// skewguard.showStepFindings); and the Upgrade Window view's request, the verdicts of a list of files (open ones from
// their current analysis, others analysed from the text the client read, nothing published for them).
import type { CodeLens, Connection } from 'vscode-languageserver/node';
import type { AnalyzeResult } from '../engine/analyze';
import type { Diagnostic } from '../engine/types';
import { windowVerdict, verdictLine, verdictMark, type WindowVerdict, type StepVerdict } from '../engine/window-verdict';
import {
  SHOW_STEP_FINDINGS, WindowStatusRequest, type StepFinding, type StepFindingsArgs, type WindowStatusParams, type WindowStatusResult, type FileWindowStatus,
} from '../shared/window';
import { registerInlayHints } from './inlay';
import { windowText } from '../engine/window-text';

export interface WindowFeatureDeps {
  /** The current analysis of an open document. */
  current(uri: string): { result: AnalyzeResult; text: string } | undefined;
  /** Analyses a file that is not open (its text as the client read it), without publishing anything. */
  analyzeText(uri: string, text: string): AnalyzeResult;
  /** Why the file is left out by an ignore list ("ignored by the ignore: list of .skewguard.yaml"), or undefined. */
  ignored(uri: string): string | undefined;
  /** The server's guard for request handlers: refused after shutdown, an exception becomes the file's internal error. */
  guarded<P extends { textDocument: { uri: string } }, R>(stage: string, empty: R, handler: (p: P) => R): (p: P) => R | unknown;
}

const finding = (d: Diagnostic): StepFinding => ({ ruleId: d.ruleId, severity: d.severity, message: d.message, range: d.range });

/** The code lenses of a file: one per step (or per run of steps of one verdict, for long windows). */
export function codeLenses(uri: string, result: AnalyzeResult, ignored?: string): CodeLens[] {
  const v = windowVerdict(result);
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lens = (title: string, args: StepFindingsArgs): CodeLens => ({ range, command: { title, command: SHOW_STEP_FINDINGS, arguments: [args] } });
  if (ignored) return [lens(`skewguard: not checked — ${ignored}`, { uri, step: 'not checked', findings: [] })];
  if (v.notChecked) {
    if (!result.family && !result.diagnostics.length) return [];
    return [lens(`skewguard: not checked — ${notCheckedWhy(v.notChecked)}`, { uri, step: 'not checked', findings: result.diagnostics.map(finding) })];
  }
  if (!v.axis || !v.steps.length) return [];
  const all = result.diagnostics.map(finding);
  // A window nobody chose is said so: "Kata Containers 3.32.0 (default):".
  const dflt = result.windowSource?.kind === 'default' ? ' (default)' : '';
  const out = [lens(`${v.axis.name} ${verdictWindow(v)}${dflt}:`, { uri, step: `the whole window (${verdictWindow(v)}${dflt})`, findings: all })];
  for (const r of runsOf(v)) {
    const idx = [...new Set(r.steps.flatMap((s) => s.findings))].sort((a, b) => a - b);
    out.push(lens(`${r.label} ${verdictMark(r.verdict)}`, { uri, step: `${v.axis.name} ${r.label}`, findings: idx.map((i) => all[i]) }));
  }
  return out;
}

/** The reason without the "not checked: " the skipped-file message starts with (the lens says it once). */
const notCheckedWhy = (why: string) => why.replace(/^not checked:\s*/, '');

const verdictWindow = (v: WindowVerdict) => windowText(v.steps.map((s) => s.step));

/** The steps one by one, or for a window of more than 8 steps, the runs of one verdict (as verdictLine shows them). */
function runsOf(v: WindowVerdict): Array<{ label: string; verdict: StepVerdict; steps: WindowVerdict['steps'] }> {
  if (v.steps.length <= 8) return v.steps.map((s) => ({ label: s.step, verdict: s.verdict, steps: [s] }));
  const runs: Array<{ label: string; verdict: StepVerdict; steps: WindowVerdict['steps'] }> = [];
  for (const s of v.steps) {
    const last = runs[runs.length - 1];
    if (last && last.verdict === s.verdict) last.steps.push(s); else runs.push({ label: '', verdict: s.verdict, steps: [s] });
  }
  for (const r of runs) r.label = windowText(r.steps.map((s) => s.step), '–');
  return runs;
}

/** One file's line of the Upgrade Window view. */
export function fileStatus(uri: string, result: AnalyzeResult): FileWindowStatus {
  const v = windowVerdict(result);
  const all = result.diagnostics.map(finding);
  return {
    uri,
    ...(v.notChecked ? { notChecked: v.notChecked, skewguardFile: !!result.family || result.diagnostics.length > 0 } : {}),
    axis: v.axis?.name,
    summary: verdictLine(v),
    steps: v.steps.map((s) => ({ step: s.step, verdict: s.verdict, findings: s.findings.map((i) => all[i]) })),
    findings: all,
  };
}

export function registerWindowFeatures(connection: Connection, deps: WindowFeatureDeps): void {
  connection.onCodeLens(deps.guarded('codeLens', [], (p) => {
    const c = deps.current(p.textDocument.uri);
    return c ? codeLenses(p.textDocument.uri, c.result, deps.ignored(p.textDocument.uri)) : [];
  }) as Parameters<Connection['onCodeLens']>[0]);
  registerInlayHints(connection, deps);
  connection.onRequest(WindowStatusRequest, (p: WindowStatusParams): WindowStatusResult => {
    const files: FileWindowStatus[] = [];
    for (const f of (p?.files ?? []).slice(0, 500)) {
      if (typeof f?.uri !== 'string') continue;
      try {
        const ignored = deps.ignored(f.uri);
        if (ignored) { files.push({ uri: f.uri, notChecked: ignored, skewguardFile: true, summary: `not checked: ${ignored}`, steps: [], findings: [] }); continue; }
        const open = deps.current(f.uri);
        const result = open?.result ?? (typeof f.text === 'string' ? deps.analyzeText(f.uri, f.text) : undefined);
        if (!result) {
          const why = typeof f.unread === 'string' && f.unread ? `not read: ${f.unread.slice(0, 300)}` : 'not read: the view sent no text';
          files.push({ uri: f.uri, notChecked: why, skewguardFile: true, summary: `not checked: ${why}`, steps: [], findings: [] });
          continue;
        }
        files.push(fileStatus(f.uri, result));
      } catch (e) {
        // Never a silent pass: the file is listed as not checked, with why.
        files.push({ uri: f.uri, notChecked: `internal error: ${(e as Error)?.message ?? String(e)}`, skewguardFile: true, summary: 'not checked: internal error', steps: [], findings: [] });
      }
    }
    return { files };
  });
}
