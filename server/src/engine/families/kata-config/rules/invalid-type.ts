import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { rel, tomlType, typeFits, article, quoteValue } from './common';

export const rule: Rule<KataContext> = {
  id: 'kata/invalid-type',
  family: 'kata-config',
  defaultSeverity: 'error',
  title: 'Value of a type some release in the window cannot decode',
  what: 'Reports a value whose TOML type is not the one a release of the window decodes, including type changes across '
    + 'the window: `default_vcpus = 1.5` is read from 3.3.0 (float) but cannot be decoded by 3.2.x and older (integer).',
  why: 'The Go runtime fails to load a configuration it cannot decode; during a rollback to an older release that '
    + 'means no new sandbox starts on that host.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefault_vcpus = 1.5\n', options: 'Kata 3.2..3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefault_vcpus = 2\n', options: 'Kata 3.2..3.32' },
  fix: 'suggestion',
  sources: ['go-runtime-config-keys.json Go types per release (shared reference)', 'skew-facts.md #12'],
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
          if (!ok) { out.bad.push(r); out.wanted.add(t.type === 'array' && t.items ? `array of ${t.items}` : t.type); }
        });
        return out;
      }, `${actual}\u0000${items.join(',')}`);
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
