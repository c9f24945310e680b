import type { Rule } from '../../../rules/types';
import type { KataContext, KataKey } from '../index';
import type { KataOption } from '../data';
import { rel, tomlType, typeFits, article, quoteValue, integerBounds, tomlInteger, type IntegerBounds } from './common';
import { inRanged } from '../data';

export const rule: Rule<KataContext> = {
  id: 'kata/invalid-type',
  family: 'kata-config',
  defaultSeverity: 'error',
  title: 'Value of a type some release in the window cannot decode',
  what: 'Reports a value whose TOML type is not the one a release of the window decodes, including type changes across '
    + 'the window: `default_vcpus = 1.5` is read from 3.3.0 (float) but cannot be decoded by 3.2.x and older (integer). '
    + 'An integer is also checked against the width of the field\'s type at each release: `memory_offset = 8589934592` '
    + 'does not fit the uint32 of 2.1.x and older (uint64 from 2.2.0), `compact_order = -1` not the u8 of runtime-rs.',
  why: 'The Go runtime fails to load a configuration it cannot decode; during a rollback to an older release that '
    + 'means no new sandbox starts on that host.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefault_vcpus = 1.5\n', options: 'Kata 3.2..3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefault_vcpus = 2\n', options: 'Kata 3.2..3.32' },
  fix: 'suggestion',
  sources: [
    'go-runtime-config-keys.json Go types per release (shared reference)', 'skew-facts.md #12',
    'runtime-rs-config-keys.json Rust types per release (shared reference)',
    'BurntSushi/toml decode.go unifyInt (out of range for int8…int32, uint8…uint32); serde integer visitors',
  ],
  check(ctx, report) {
    for (const k of ctx.keys) {
      const row = ctx.optionRow(k.section, k.key);
      if (!row) continue;
      const actual = tomlType(k.valueText, k.entry.value);
      const items = Array.isArray(k.entry.value) ? [...new Set(k.entry.value.map((v) => tomlType(JSON.stringify(v), v)))].sort() : [];
      // The verdict depends on the row, the value's type (and its items' types) and the window: shared across files.
      const { bad, wanted } = ctx.perWindow(row, 'invalid-type', () => {
        const types = ctx.decodedAcross(row, 'types');
        const out = { bad: [] as string[], wanted: new Set<string>() };
        const fits = new Map<object, boolean>(); // per type row: most releases share one
        ctx.window.forEach((r, i) => {
          const t = types[i];
          if (!t) return;
          let ok = fits.get(t);
          if (ok === undefined) {
            ok = typeFits(actual, t.type) && !(t.type === 'array' && t.items && items.some((it) => !typeFits(it, t.items!)));
            fits.set(t, ok);
          }
          if (!ok) { out.bad.push(r); out.wanted.add(t.type === 'array' && t.items ? `array of ${t.items === 'object' ? 'table' : t.items}` : t.type); }
        });
        return out;
      }, `${actual}\u0000${items.join(',')}`);
      if (actual === 'integer' || (actual === 'array' && items.includes('integer'))) outOfRange(ctx, k, row, report);
      if (!bad.length) continue;
      const w = [...wanted].map((t) => (t === 'number' ? 'number' : t)).join(' or ');
      const fixes = [];
      if (actual === 'float' && wanted.has('integer') && typeof k.entry.value === 'number') {
        const n = Math.ceil(k.entry.value);
        fixes.push({ title: `Use ${n} (an integer every release reads)`, edits: [{ range: k.entry.valueRange, newText: String(n) }], destructive: false });
      }
      report({
        message: `${k.key} = ${quoteValue(k.valueText)} is ${article(actual)} ${actual}, but ${rel(ctx, bad)} decode${bad.length === 1 ? 's' : ''} ${k.key} as ${article(w)} ${w}: the runtime fails to load this file there`,
        range: k.entry.valueRange,
        fixes,
        data: { key: k.key, actual, expected: [...wanted], failsIn: [...bad] },
      });
    }
  },
};

/**
 * The integer bounds of a row's field type at each release of the window where the parser reads the key, grouped by
 * type: [{ bounds, releases }]. Types whose decoder checks no bound (Go int64, uint64) are left out.
 */
function boundsAcross(ctx: KataContext, row: KataOption): Array<{ bounds: IntegerBounds & { items: boolean }; releases: string[] }> {
  return ctx.perWindow(row, 'integer-bounds', () => {
    const out = new Map<string, { bounds: IntegerBounds & { items: boolean }; releases: string[] }>();
    ctx.window.forEach((r) => {
      if (ctx.optionKnown(row, r) !== 'parser') return;
      const t = ctx.flavour === 'go'
        ? row.goTypes?.find((g) => inRanged(g, r) && !g.missingIn?.includes(r))?.goType
        : row.rustTypes?.find((g) => inRanged(g, r))?.rustType;
      const b = t && integerBounds(ctx.flavour, t);
      if (!b) return;
      const g = out.get(t!);
      if (g) g.releases.push(r); else out.set(t!, { bounds: b, releases: [r] });
    });
    return [...out.values()];
  });
}

/** An integer (or an array's integer item) outside the range of the field's type at some release: one finding per type. */
function outOfRange(ctx: KataContext, k: KataKey, row: KataOption, report: Parameters<Rule<KataContext>['check']>[1]): void {
  const groups = boundsAcross(ctx, row);
  if (!groups.length) return;
  const scalar = tomlInteger(k.valueText);
  const itemValues = Array.isArray(k.entry.value)
    ? k.entry.value.flatMap((v) => (typeof v === 'bigint' ? [v] : typeof v === 'number' && Number.isInteger(v) ? [BigInt(v)] : []))
    : [];
  for (const { bounds: b, releases } of groups) {
    const values = b.items ? itemValues : scalar === undefined ? [] : [scalar];
    const off = values.find((v) => v < b.min || v > b.max);
    if (off === undefined) continue;
    const runtime = ctx.flavour === 'go' ? 'the Go runtime' : 'runtime-rs';
    const what = b.items ? `${k.key} holds ${off}, which` : `${k.key} = ${quoteValue(k.valueText)}`;
    report({
      message: `${what} is out of range for ${b.name} (${b.min} to ${b.max}), the type ${rel(ctx, releases)} decode${releases.length === 1 ? 's' : ''} ${k.key}${b.items ? '\'s items' : ''} as: ${runtime} fails to load this file there`,
      range: k.entry.valueRange,
      data: { key: k.key, actual: 'integer', expected: [b.name], value: String(off), failsIn: [...releases] },
    });
  }
}
