// Hover and completion over an analysed file. Pure: positions in, markdown and items out. Each family gives its own
// (families/<family>/language.ts); this only finds the file's family in the registry.
import type { AnalyzeResult } from './analyze';
import type { Position, Range } from './types';
import { familyById } from './families/registry';

export interface HoverResult { markdown: string; range: Range }

export function hover(result: AnalyzeResult, text: string, pos: Position): HoverResult | undefined {
  return familyById(result.family)?.hover(result, text, pos);
}

export interface CompletionResult {
  label: string;
  kind: 'value' | 'property';
  detail?: string;
  documentation?: string;
  insertText: string;
  /** Offsets of the text to replace. */
  replace: { start: number; end: number };
  sortText: string;
  preselect?: boolean;
}

export function complete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  return familyById(result.family)?.complete(result, text, pos) ?? [];
}
