import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import type { TomlTable } from '../../../parse/toml';
import { didYouMean } from '../../../text';
import { rel } from './common';

export const rule: Rule<KataContext> = {
  id: 'kata/unknown-section',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Table that no release of the runtime knows',
  what: 'Reports a `[table]` that no Kata release of the file\'s runtime flavour reads, with "did you mean". An unknown '
    + '`[hypervisor.<name>]` is an error where the runtime refuses it: the Go runtime from 3.2.0, runtime-rs in every '
    + 'release (any such table, selected or not). `[agent.<name>]` tables of any name are read by both runtimes.',
  why: 'The Go runtime silently ignores tables it does not know, so a misspelt table drops every setting in it; from 3.2.0 '
    + 'an unknown hypervisor table stops the runtime ("configuration file contains invalid hypervisor section"); runtime-rs '
    + 'fails to load any file with a hypervisor table no plugin is registered for ("Can not find plugin for hypervisor").',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu-lite]\npath = "/usr/bin/qemu-system-x86_64"\n', options: 'Kata 2.5' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\n', options: 'Kata 2.5' },
  fix: 'suggestion',
  sources: ['kata-containers src/runtime/pkg/katautils/config.go (updateRuntimeConfigHypervisor, 3.2.0+)', 'kata-containers src/libs/kata-types/src/config/hypervisor/mod.rs (Hypervisor::adjust_config, 3.0.0+)', 'data/kata/config.json'],
  check(ctx, report) {
    for (const t of ctx.tables) {
      // A table deeper than any row is never known: no name to build unless it is reported.
      const deep = t.depth > ctx.maxSectionDepth;
      if ((!deep && ctx.sectionEverKnown(t.path.join('.'))) || isSubTableOfKnown(ctx, t)) continue;
      const name = t.path.join('.');
      if (ctx.isContainerTable(name) && !ctx.sectionEverKnown(name)) continue;
      const isHv = t.path[0] === 'hypervisor' && t.path.length === 2;
      const fatalIn = isHv ? ctx.window.filter((r) => ctx.unknownHypervisorFatal(r)) : [];
      // Real table names only: `hypervisor.*` is the data's row for every hypervisor table, not a name to write.
      const names = ctx.data.sections.filter((s) => !s.name.includes('*') && (s.flavours[ctx.flavour] || s.templates?.[ctx.flavour])).map((s) => s.name);
      const hint = didYouMean(name, names);
      report({
        message: `unknown table [${name}]: no ${ctx.flavourName} release reads it`
          + (fatalIn.length ? `, and ${rel(ctx, fatalIn)} refuse${fatalIn.length === 1 ? 's' : ''} to start with it (${ctx.hypervisorRefusal})` : ', so every setting in it is ignored')
          + (hint ? `; did you mean [${hint}]?` : ''),
        range: t.headerRange,
        severity: fatalIn.length ? 'error' : undefined,
        fixes: hint ? [{ title: `Rename to [${hint}]`, edits: [{ range: t.headerRange, newText: hint }], destructive: true }] : [],
        data: { table: name, suggestion: hint, fatalIn },
      });
    }
  },
};

/** [hypervisor.qemu.factory]-style sub-tables are checked through their own rows; a table under an unknown one is not reported twice. */
function isSubTableOfKnown(ctx: KataContext, t: TomlTable): boolean {
  // Up the chain of enclosing tables the parser recorded: one step for a table nested in an unknown one, however
  // deep (inline tables nested 1000 deep used to cost a scan of every table per level).
  for (let up = t.parent; up; up = up.parent) {
    if (up.depth > ctx.maxSectionDepth || !ctx.sectionEverKnown(up.path.join('.'))) return true;
  }
  return false;
}
