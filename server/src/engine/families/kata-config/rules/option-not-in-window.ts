import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { keyAcrossWindow, rel, removeLine } from './common';
import { compareVersions as cmp } from '../../../versions';
import { describeReleases } from '../data';
import { oldKeysBeside, readBy } from './renamed-pair';

export const rule: Rule<KataContext> = {
  id: 'kata/option-not-in-window',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Option that some release in the window does not understand',
  what: 'Reports a key that some Kata releases of the window do not read: too new for the oldest ones, or already '
    + 'removed in the newest ones. Ignored there (warning) or refused (error, runtime-rs strict tables from 3.29.0). '
    + 'When no release of the window reads it, a fix removes it.',
  why: 'A live upgrade replaces the runtime under running sandboxes and a rollback brings the old one back. An option '
    + 'one of them does not understand is a silent no-op there: the setting the operator relies on is simply not applied.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nuse_vsock = true\nenable_iommu = true\n', options: 'Kata 2.0..3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nenable_iommu = true\n', options: 'Kata 2.0..3.32' },
  fix: 'complete',
  sources: ['data/kata/config.json options (exact first and last release over 127 releases)', 'skew-facts.md #8, #13 (shared reference)'],
  check(ctx, report) {
    for (const k of ctx.keys) {
      const row = ctx.optionRow(k.section, k.key);
      if (!row) continue;
      const w = keyAcrossWindow(ctx, row, k.section);
      // Read by the parser of every release that reads its table: nothing to say (most keys of most files).
      if (!w.ignored.length && !w.templateOnly.length) continue;
      // Renamed keys have their own rule with a better message and a fix to the new name.
      const renamed = row.renamedTo?.some((r) => r.flavour === ctx.flavour && [...w.ignored, ...w.templateOnly].some((x) => cmp(x, r.in) >= 0));
      if (renamed) continue;
      // A key only the templates show is no field of the struct: a table that denies unknown fields (runtime-rs
      // from 3.29.0) refuses it like any other unknown key.
      const strictTpl = w.templateOnly.filter((r) => ctx.strictAt(k.section, r));
      let ignoredAll = strictTpl.length ? ctx.window.filter((r) => w.ignored.includes(r) || strictTpl.includes(r)) : w.ignored;
      // The new name of a renamed option written beside the old one ("keep both"): the releases that read the old
      // name are served by it (renamed-option says whether the pair covers the window).
      let templateOnly = strictTpl.length ? w.templateOnly.filter((r) => !strictTpl.includes(r)) : w.templateOnly;
      const olds = oldKeysBeside(ctx, k);
      if (olds.length) {
        const covered = new Set(olds.flatMap((o) => [...readBy(ctx, o.row, o.k.section)]));
        ignoredAll = ignoredAll.filter((r) => !covered.has(r) || ctx.strictAt(k.section, r));
        templateOnly = templateOnly.filter((r) => !covered.has(r));
      }
      if (!ignoredAll.length) {
        if (templateOnly.length) {
          report({
            message: `${k.key} is not read by the ${ctx.flavourName} parser of ${rel(ctx, templateOnly)}, although the templates of ${templateOnly.length === 1 ? 'that release' : 'those releases'} ship it: it has no effect there`,
            range: k.entry.keyRange, severity: 'info', data: { key: k.key, table: k.section, templateOnly },
          });
        }
        continue;
      }
      // A release whose templates ship the key but whose parser does not read it ignores it like any other: every
      // release of the window that does not read the key is named (runtime-rs templates carry keys years before
      // kata-types reads them: disable_guest_empty_dir from 3.3.0, read from 3.23.0).
      const notRead = ctx.window.filter((r) => ignoredAll.includes(r) || templateOnly.includes(r));
      const fatal = notRead.filter((r) => ctx.strictAt(k.section, r));
      const ignored = notRead.filter((r) => !fatal.includes(r));
      const parts = [];
      if (ignored.length) parts.push(`${rel(ctx, ignored)} ignore${ignored.length === 1 ? 's' : ''} it`);
      if (fatal.length) parts.push(`${rel(ctx, fatal)} refuse${fatal.length === 1 ? 's' : ''} the file because of it`);
      const accepted = w.parser;
      const known = row.flavours[ctx.flavour];
      const gaps = known?.missingIn?.length ? `, except ${describeReleases(known.missingIn, ctx.data.releases)}` : '';
      const shipped = templateOnly.length ? `; the templates of ${rel(ctx, templateOnly)} ship it unread` : '';
      const life = (known ? `read by ${ctx.flavourName} ${known.first}–${known.last ?? 'today'}${gaps}` : `only in ${ctx.flavourName} templates`) + shipped;
      report({
        message: accepted.length
          ? `${k.key} is not understood by every release in the window ${ctx.windowText}: ${parts.join('; ')} (${life})`
          : `no release in the window ${ctx.windowText} reads ${k.key}${fatal.length ? `, and ${rel(ctx, fatal)} refuse${fatal.length === 1 ? 's' : ''} the file because of it` : ''} (${life})`,
        range: k.entry.keyRange,
        severity: fatal.length ? 'error' : undefined,
        fixes: accepted.length ? [] : [{ title: `Remove ${k.key} (no release in the window reads it)`, edits: [removeLine(ctx, k)], preferred: true, destructive: true }],
        data: { key: k.key, table: k.section, ignoredIn: ignored, fatalIn: fatal },
      });
    }
  },
};

