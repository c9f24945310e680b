// A part's findings at the file's lines (server/scheduler.ts): moved by the part's first line, their fixes moved the
// same way when asked for, and a kept part's lazy fixes worked out again from its analysis (not held with it).
import type { AnalyzeResult } from '../engine/analyze';
import type { Diagnostic } from '../engine/types';

function shiftRange(r: Diagnostic['range'], by: number): Diagnostic['range'] {
  return { start: { line: r.start.line + by, character: r.start.character }, end: { line: r.end.line + by, character: r.end.character } };
}

/** A part's diagnostic at the file's lines; its fixes (lazy ones too, computed on first use) moved the same way. */
export function shifted(d: Diagnostic, by: number): Diagnostic {
  if (!by) return d;
  const s: Diagnostic = { ruleId: d.ruleId, severity: d.severity, message: d.message, range: shiftRange(d.range, by), docsUrl: d.docsUrl, data: d.data };
  // The finding's steps of the window (the LSP data's `steps`, for the per-step views), as in the whole file's.
  if (d.steps !== undefined) s.steps = d.steps;
  const error = (d as { error?: unknown }).error;
  if (error !== undefined) Object.defineProperty(s, 'error', { value: error, enumerable: false });
  let memo: Diagnostic['fixes'];
  let set = false;
  Object.defineProperty(s, 'fixes', {
    enumerable: true, configurable: true,
    get: () => {
      if (!set) { memo = d.fixes?.map((f) => ({ ...f, edits: f.edits.map((e) => ({ range: shiftRange(e.range, by), newText: e.newText })) })); set = true; }
      return memo;
    },
    set: (v: Diagnostic['fixes']) => { memo = v; set = true; },
  });
  return s;
}

/**
 * A part's findings without the rest of its analysis: a lazy fix (which holds the parsed document it edits) is worked
 * out from the part's whole analysis, made again when asked for; the same finding there (rule, message, range) or none.
 */
export function compact(r: AnalyzeResult, full: () => AnalyzeResult): AnalyzeResult {
  const diagnostics = r.diagnostics.map((d, i) => {
    const descs = Object.getOwnPropertyDescriptors(d);
    if (!descs.fixes?.get) return d;
    descs.fixes = refixed(i, d.ruleId, d.message, d.range, full);
    return Object.defineProperties({}, descs) as Diagnostic;
  });
  return compactOf(r, diagnostics);
}

/** A part's result: these findings, and what the rest of its analysis says of the file (not its parsed documents). */
export function compactOf(r: AnalyzeResult, diagnostics: Diagnostic[]): AnalyzeResult {
  return { family: r.family, diagnostics, config: r.config, path: r.path, staleReported: r.staleReported, windowSteps: r.windowSteps, windowSource: r.windowSource };
}

/**
 * A finding of a batch (batch()) as finding i of its part alone: moved `by` lines to the part's, and its fixes (their
 * edits at the batch's lines) worked out from the part's own analysis when asked for, as a compact part's are.
 */
export function rebased(d: Diagnostic, by: number, i: number, full: () => AnalyzeResult): Diagnostic {
  const s: Diagnostic = { ruleId: d.ruleId, severity: d.severity, message: d.message, range: by ? shiftRange(d.range, by) : d.range, docsUrl: d.docsUrl, data: d.data };
  if (d.steps !== undefined) s.steps = d.steps;
  const error = (d as { error?: unknown }).error;
  if (error !== undefined) Object.defineProperty(s, 'error', { value: error, enumerable: false });
  if ('fixes' in d) Object.defineProperty(s, 'fixes', refixed(i, d.ruleId, d.message, s.range, full));
  return s;
}

/** The `fixes` of finding i of a compact part (made apart: it must not hold the finding it replaces). */
function refixed(i: number, ruleId: string, message: string, range: Diagnostic['range'], full: () => AnalyzeResult): PropertyDescriptor {
  let memo: Diagnostic['fixes'];
  let set = false;
  return {
    enumerable: true, configurable: true,
    get: () => {
      if (!set) {
        const f = full().diagnostics[i];
        memo = f && f.ruleId === ruleId && f.message === message && sameRange(f.range, range) ? f.fixes : [];
        set = true;
      }
      return memo;
    },
    set: (v: Diagnostic['fixes']) => { memo = v; set = true; },
  };
}

const sameRange = (a: Diagnostic['range'], b: Diagnostic['range']) => a.start.line === b.start.line && a.start.character === b.start.character
  && a.end.line === b.end.line && a.end.character === b.end.character;
