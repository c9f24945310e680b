// The parts of a big file checked in parts (server/scheduler.ts): what a part keeps, whether the parts may stand for
// the whole file (document-wise, no key met twice), the file's result merged from them, and a part's view of it for
// hovers and completion.
import type { AnalyzeInput, AnalyzeResult } from '../engine/analyze';
import type { Segment } from './segments';
import { familyById } from '../engine/families/registry';
import type { Diagnostic } from '../engine/types';
import type { FamilyModule } from '../engine/families/types';
import { someLineStartsWith } from '../engine/text';
import { parseError } from '../engine/rules/general';

export const CHECKING_CODE = 'skewguard/checking';

/** The parse error's rule id: a part that has one is analysed again when its documents are numbered otherwise. */
export const PARSE_ERROR = parseError.id;

export interface Part {
  /** The findings (the whole analysis for the first part only: FamilyModule.documentWise looks at it). */
  result: AnalyzeResult;
  line: number; firstDocument: number; shifted: Diagnostic[]; wise: boolean;
  /** What the part holds that a rule compares across the file (FamilyModule.partKeys). */
  keys: readonly string[];
  /** The part's whole analysis: kept for the hot parts, else made again from its text. */
  full(): AnalyzeResult;
}

/** A `...` document end or a `%` directive at a line's start (/^(\.\.\.|%)/m). */
const markerLine = (text: string) => someLineStartsWith(text, '...') || someLineStartsWith(text, '%');

/** Whether the parts analysed so far hold a key twice, or `*` with another key (FamilyModule.partKeys). */
export function keysMeet(parts: Array<Part | undefined>): boolean {
  const seen = new Set<string>();
  for (const p of parts) {
    if (!p) continue;
    for (const k of p.keys) {
      if (seen.has(k) || (k === '*' && seen.size) || seen.has('*')) return true;
      seen.add(k);
    }
  }
  return false;
}

/**
 * Whether the family looks at one document at a time in text (a part's, or the whole file's): a file-wide suppression
 * applies to every part; `...` document ends and `%` directives make where a document starts depend on what comes
 * before it. `first`: the first part's analysis (FamilyModule.documentWise).
 */
export function wise(text: string, fam: FamilyModule | undefined, first: AnalyzeResult): boolean {
  return !text.includes('skewguard-disable-file') && !markerLine(text) && !!fam?.documentWise?.(text, first);
}

/** What part() and batch() learn of a part's text besides its findings: whether it is document-wise, and its keys. */
export function traits(text: string, result: AnalyzeResult, first: AnalyzeResult | undefined, file: string): Pick<Part, 'wise' | 'keys'> {
  const fam = familyById(result.family);
  return { wise: wise(text, fam, first ?? result), keys: fam?.partKeys?.(text, file) ?? [] };
}

const SEGMENTED = Symbol('segmented');
type Segmented = AnalyzeResult & { [SEGMENTED]?: { segments: Segment[]; parts: Array<Part | undefined> } };

/** The file's result from its parts (in file order), with a note for the parts not analysed yet. */
export function mergedResult(segments: Segment[], parts: Array<Part | undefined>, first: AnalyzeResult, input: AnalyzeInput): AnalyzeResult {
  const diagnostics: Diagnostic[] = [];
  let missingDocs = 0;
  for (let i = 0; i < segments.length; i++) {
    const p = parts[i];
    if (!p) { missingDocs += segments[i].docs; continue; }
    for (const d of p.shifted) diagnostics.push(d);
  }
  if (missingDocs) {
    diagnostics.unshift({
      ruleId: CHECKING_CODE, severity: 'info', docsUrl: '',
      message: `skewguard is still checking this file: ${String(missingDocs).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} of its documents are not checked yet; their findings follow in a moment`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      data: { pendingDocuments: missingDocs },
    });
  }
  const out: Segmented = {
    family: first.family, diagnostics, config: input.config, path: input.path, staleReported: first.staleReported, windowSource: first.windowSource,
  };
  out[SEGMENTED] = { segments, parts };
  return out;
}

/**
 * For hovers and completion: the part of a segmented result that holds `pos`, its text and the position in it, and
 * how to move a range back to the file's lines. Any other result is its own view.
 */
export function viewAt<P extends { line: number; character: number }>(result: AnalyzeResult, text: string, pos: P): {
  result: AnalyzeResult; text: string; position: P; back<R extends { start: { line: number }; end: { line: number } }>(r: R): R;
} {
  const s = (result as Segmented)[SEGMENTED];
  const same = { result, text, position: pos, back: <R>(r: R) => r };
  if (!s) return same;
  let i = s.segments.length - 1;
  while (i > 0 && s.segments[i].line > pos.line) i--;
  const seg = s.segments[i], part = s.parts[i];
  if (!part) return { ...same, result: { diagnostics: [] } };
  const by = seg.line;
  return {
    result: part.full(), text: seg.text, position: { ...pos, line: pos.line - by },
    back: (r) => ({ ...r, start: { ...r.start, line: r.start.line + by }, end: { ...r.end, line: r.end.line + by } }),
  };
}
