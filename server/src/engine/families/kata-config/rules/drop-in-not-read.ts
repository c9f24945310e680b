import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { isDropIn } from '../index';
import { rel } from './common';
import { compareVersions } from '../../../versions';

export const rule: Rule<KataContext> = {
  id: 'kata/drop-in-not-read',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Drop-in file that some release in the window does not read',
  what: 'Reports a `config.d/*.toml` drop-in when the window holds Go runtime releases older than 2.5.0, which do not '
    + 'read drop-in files at all.',
  why: 'Every setting in the drop-in is silently lost on a host rolled back to such a release.',
  bad: { filename: 'config.d/10-memory.toml', text: '[hypervisor.qemu]\ndefault_memory = 4096\n', options: 'Kata 2.4..2.5' },
  good: { filename: 'config.d/10-memory.toml', text: '[hypervisor.qemu]\ndefault_memory = 4096\n', options: 'Kata 2.5..3.32' },
  fix: 'none',
  sources: ['skew-facts.md #9 (kata-containers commit 0f9856c465, first in 2.5.0)'],
  check(ctx, report) {
    const from = ctx.data.dropIns[ctx.flavour as 'go']?.from;
    if (!isDropIn(ctx.file) || !from) return;
    const old = ctx.window.filter((r) => compareVersions(r, from) < 0);
    if (!old.length) return;
    const first = ctx.toml.tables[0]?.headerRange ?? ctx.keys[0]?.entry.keyRange ?? { start: 0, end: 0 };
    report({
      message: `drop-in files under config.d are read from ${from} on: ${rel(ctx, old)} ignore${old.length === 1 ? 's' : ''} this whole file`,
      range: first,
      data: { ignoredIn: old },
    });
  },
};
