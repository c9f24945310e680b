// Hover and completion over an analysed file. Pure: positions in, markdown and items out. Each family gives its own
// (families/<family>/language.ts); this only finds the file's family in the registry.
import type { AnalyzeResult } from './analyze';
import type { Position, Range } from './types';
import { familyById } from './families/registry';

export interface HoverResult { markdown: string; range: Range }

/** The first line's hover says which family read the file and why (issue #26), after what the family says there. */
export function hover(result: AnalyzeResult, text: string, pos: Position): HoverResult | undefined {
  const own = familyById(result.family)?.hover(result, text, pos);
  const read = result.readAs;
  if (pos.line !== 0 || !read?.family) return own;
  const note = `skewguard reads this file as **${familyById(read.family)?.title ?? read.family}**, by ${read.by === 'files' ? 'a `files:` association' : read.by === 'modeline' ? 'a modeline' : read.by === 'path' ? 'its name or place' : 'its content'}: ${read.why}`;
  if (own) return { ...own, markdown: `${own.markdown}\n\n---\n\n${note}` };
  // Alone, only over a word of the line (a key, a value; not a brace or blank).
  const end = text.search(/\r?\n|\r|$/);
  if (!/[\p{L}\p{N}_]/u.test(text.charAt(pos.character)) || pos.character >= end) return undefined;
  return { markdown: note, range: { start: { line: 0, character: 0 }, end: { line: 0, character: end } } };
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
