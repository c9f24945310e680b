import type { KataContext, KataKey } from '../index';
import type { KataOption } from '../data';
import { describeReleases } from '../data';
import type { FindingFix } from '../../../rules/types';

/**
 * The window's releases, split by how each one treats a key. Releases that do not read the key's table at all are
 * left out: kata/section-not-in-window reports the table once instead of every key in it.
 */
export function keyAcrossWindow(ctx: KataContext, row: KataOption, section?: string): { readonly parser: string[]; readonly templateOnly: string[]; readonly ignored: string[] } {
  // The same for every file with this window: computed once per row and table.
  return ctx.perWindow(row, 'keyAcrossWindow', () => splitWindow(ctx, row, section), section ?? '');
}

function splitWindow(ctx: KataContext, row: KataOption, section?: string) {
  const parser: string[] = [], templateOnly: string[] = [], ignored: string[] = [];
  const tableRead = section && ctx.sectionEverKnown(section) ? ctx.sectionAcross(section) : undefined;
  const known = ctx.optionAcross(row);
  ctx.window.forEach((r, i) => {
    if (tableRead && !tableRead[i]) return;
    const k = known[i];
    (k === 'parser' ? parser : k === 'template' ? templateOnly : ignored).push(r);
  });
  return { parser, templateOnly, ignored };
}

export const rel = (ctx: KataContext, subset: string[]) => describeReleases(subset, ctx.window);

/** Deletes a whole `key = value` line (with its line break). */
export function removeLine(ctx: KataContext, k: KataKey): FindingFix['edits'][number] {
  const text = ctx.toml.text;
  let start = k.entry.range.start;
  while (start > 0 && text[start - 1] !== '\n') start--;
  let end = k.entry.range.end;
  while (end < text.length && text[end] !== '\n') end++;
  if (end < text.length) end++;
  return { range: { start, end }, newText: '' };
}

/** TOML type of a value, from its literal text (1 and 1.0 are different types in TOML). */
export function tomlType(valueText: string, value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return /^[+-]?(?:0x|0o|0b)|^[+-]?[\d_]+$/.test(valueText.trim()) ? 'integer' : 'float';
  if (value instanceof Date) return 'datetime';
  if (value && typeof value === 'object') return 'table';
  return 'unknown';
}

/** Whether a TOML type satisfies a schema type (an integer is a number). */
export function typeFits(actual: string, expected: string): boolean {
  if (expected === 'number') return actual === 'integer' || actual === 'float';
  return actual === expected;
}

export const article = (t: string) => (/^[aeiou]/.test(t) ? 'an' : 'a');

/** A value's literal text as a message quotes it: trimmed, and at most 80 characters (an array of 100,000 items is
 * not repeated in the message). */
export function quoteValue(valueText: string): string {
  const t = valueText.trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}
