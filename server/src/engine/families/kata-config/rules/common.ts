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

/** Whether a TOML type satisfies a schema type (an integer is a number; the data's object is a TOML table). */
export function typeFits(actual: string, expected: string): boolean {
  if (expected === 'number') return actual === 'integer' || actual === 'float';
  if (expected === 'object') return actual === 'table';
  return actual === expected;
}

export const article = (t: string) => (/^[aeiou]/.test(t) ? 'an' : 'a');

/** A value's literal text as a message quotes it: trimmed, and at most 80 characters (an array of 100,000 items is
 * not repeated in the message). */
export function quoteValue(valueText: string): string {
  const t = valueText.trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

/** An integer type's bounds. */
export interface IntegerBounds { readonly name: string; readonly min: bigint; readonly max: bigint }

const bits = (signed: boolean, n: number): [bigint, bigint] =>
  (signed ? [-(1n << BigInt(n - 1)), (1n << BigInt(n - 1)) - 1n] : [0n, (1n << BigInt(n)) - 1n]);

/**
 * The bounds a runtime's decoder enforces for a field type, failing the load outside them; undefined when it enforces
 * none that a TOML integer (a signed 64-bit number) can break. The Go runtime decodes with BurntSushi/toml, whose
 * unifyInt rejects a value out of range for int8…int32 and uint8…uint32 ("value %d is out of range for uint32") but
 * lets a negative value wrap for uint64 and uint. runtime-rs decodes with serde, which rejects a value out of range for
 * every Rust integer type (a negative one for u64 and usize too). `array<u32>` (runtime-rs): the bounds of its items.
 */
export function integerBounds(flavour: 'go' | 'runtime-rs', type: string): (IntegerBounds & { readonly items: boolean }) | undefined {
  const arr = /^array<(.+)>$/.exec(type);
  const t = (arr ? arr[1] : type).replace(/^\*/, '');
  const m = flavour === 'go' ? /^(u?)int(8|16|32)$/.exec(t) : /^([ui])(8|16|32|64|size)$/.exec(t);
  if (!m) return undefined;
  const signed = flavour === 'go' ? m[1] === '' : m[1] === 'i';
  const n = m[2] === 'size' ? 64 : Number(m[2]);
  if (signed && n === 64) return undefined;
  const [min, max] = bits(signed, n);
  return { name: t, min, max, items: !!arr };
}

/** A TOML integer's exact value, from its literal text (1_000, 0xff, 0o17, 0b11, +5, -5); undefined if not one. */
export function tomlInteger(text: string): bigint | undefined {
  const m = /^([+-]?)(0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|\d+)$/.exec(text.trim().replace(/_/g, ''));
  if (!m) return undefined;
  const v = BigInt(m[2]);
  return m[1] === '-' ? -v : v;
}
