import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { rel } from './common';

export const rule: Rule<KataContext> = {
  id: 'kata/section-not-in-window',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Table that some release in the window does not read',
  what: 'Reports a `[table]` that some Kata releases of the window do not read: ignored there (warning) or, for a '
    + '`[hypervisor.<name>]` the release no longer accepts, fatal (error) — e.g. `[hypervisor.acrn]` from 3.10.0, '
    + '`[proxy.kata]` and `[shim.kata]` from 2.0.0.',
  why: 'During a live upgrade or a rollback each release in the window reads this file. A table one of them ignores '
    + 'silently drops its settings there; an unknown hypervisor table keeps the runtime from starting sandboxes at all.',
  bad: { filename: 'configuration.toml', text: '[proxy.kata]\npath = "/usr/libexec/kata-containers/kata-proxy"\n', options: 'Kata 1.13..2.0' },
  good: { filename: 'configuration.toml', text: '[runtime]\nenable_debug = true\n', options: 'Kata 1.13..2.0' },
  fix: 'none',
  sources: ['skew-facts.md #10, #15 (shared reference)', 'data/kata/config.json hypervisorNames and sections'],
  check(ctx, report) {
    for (const t of ctx.tables) {
      if (t.depth > ctx.maxSectionDepth) continue; // deeper than any row: never known (kata/unknown-section)
      const name = t.path.join('.');
      if (!ctx.sectionEverKnown(name) || ctx.isContainerTable(name) && !ctx.sectionRow(name)) continue;
      const missing = ctx.window.filter((r) => !ctx.sectionKnown(name, r));
      if (!missing.length) continue;
      const isHv = t.path[0] === 'hypervisor' && t.path.length === 2;
      const fatal = isHv ? missing.filter((r) => ctx.unknownHypervisorFatal(r)) : [];
      const ignored = missing.filter((r) => !fatal.includes(r));
      const parts = [];
      if (fatal.length) parts.push(`${rel(ctx, fatal)} refuse${fatal.length === 1 ? 's' : ''} to start with it (${ctx.hypervisorRefusal})`);
      if (ignored.length) parts.push(`${rel(ctx, ignored)} ignore${ignored.length === 1 ? 's' : ''} it and every setting in it`);
      report({
        message: `[${name}] is not read by every ${ctx.flavourName} release in the window ${ctx.windowText}: ${parts.join('; ')}`,
        range: t.headerRange,
        severity: fatal.length ? 'error' : undefined,
        data: { table: name, fatalIn: fatal, ignoredIn: ignored },
      });
    }
  },
};
