import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { didYouMean } from '../../../text';
import { rel } from './common';

export const rule: Rule<KataContext> = {
  id: 'kata/unknown-option',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Option that no release of the runtime knows',
  what: 'Reports a key that no Kata release of the file\'s runtime flavour reads in its table, with "did you mean". It is '
    + 'an error where the release refuses unknown keys (runtime-rs `[agent.kata]` from 3.29.0). In a table the runtime '
    + 'reads but whose keys the data does not list (the Go runtime\'s `[[hypervisor.<name>.guest_extension_images]]`, '
    + 'a `[]guestExtensionImage` whose fields the reference does not give) a key is not checked (info), never unknown.',
  why: 'The Go runtime silently ignores keys it does not know: a misspelt `defualt_memory` runs every sandbox with the '
    + 'default memory, and nobody notices until the workload is starved. runtime-rs 3.29.0 and later refuse the file instead.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefualt_memory = 4096\n', options: 'Kata 3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\ndefault_memory = 4096\n', options: 'Kata 3.32' },
  fix: 'suggestion',
  sources: ['skew-facts.md #8, #13 (shared reference)', 'data/kata/config.json options'],
  check(ctx, report) {
    const perSection = new Map<string, { candidates: string[]; fatal: string[] }>();
    for (const k of ctx.keys) {
      if (k.entry.table.length && !ctx.sectionEverKnown(k.section) && !ctx.isContainerTable(k.section)) continue; // kata/unknown-section speaks
      if (ctx.optionRow(k.section, k.key)) continue;
      if (ctx.keysEverNotListed(k.section)) {
        // The runtime reads the table, but which keys it reads is not in the data: not checked, never "unknown".
        // Releases that do not read the table at all: kata/section-not-in-window says so once for the table.
        const at = ctx.keysNotListed(k.section);
        if (!at.length) continue;
        const goType = ctx.sectionRow(k.section)?.keysNotListed?.[ctx.flavour]?.goType;
        report({
          message: `not checked: ${k.key} in [${k.section}]: ${ctx.flavourName} ${rel(ctx, at)} read${at.length === 1 ? 's' : ''} this table`
            + `${goType ? ` into a ${goType}, whose fields the key data does not list` : ', but the key data does not list its keys'}, so whether ${k.key} is read there is not known`,
          range: k.entry.keyRange,
          severity: 'info',
          data: { key: k.key, table: k.section, keysNotListedIn: at.slice() },
        });
        continue;
      }
      // Per table, not per key: a table of 100,000 unknown keys asks once.
      let s = perSection.get(k.section);
      if (!s) perSection.set(k.section, (s = { candidates: ctx.optionsOf(k.section).map((o) => o.key), fatal: ctx.window.filter((r) => ctx.strictAt(k.section, r)) }));
      const { candidates, fatal } = s;
      const hint = didYouMean(k.key, candidates);
      const flavourHint = ctx.flavourHint(k.section, k.key);
      report({
        message: `unknown option ${k.key} in [${k.section || '(top level)'}]: no ${ctx.flavourName} release reads it`
          + (fatal.length ? `, and ${rel(ctx, fatal)} refuse${fatal.length === 1 ? 's' : ''} the file because of it` : ', so it is ignored')
          + (hint ? `; did you mean ${hint}?` : '')
          + (flavourHint ? `; ${flavourHint}` : ''),
        range: k.entry.keyRange,
        severity: fatal.length ? 'error' : undefined,
        fixes: hint ? [{ title: `Rename to ${hint}`, edits: [{ range: k.entry.keyRange, newText: hint }], destructive: true }] : [],
        data: { key: k.key, table: k.section, suggestion: hint ?? null, fatalIn: fatal.slice(), ...(flavourHint ? { flavourHint: 'runtime-rs' } : {}) },
      });
    }
  },
};
