import type { Rule } from '../types';
import type { KataContext } from '../../families/kata';
import { didYouMean } from '../../text';
import { rel, quoteValue } from './common';

export const rule: Rule<KataContext> = {
  id: 'kata/invalid-value',
  family: 'kata-config',
  defaultSeverity: 'error',
  title: 'Value some release in the window rejects',
  what: 'Reports a value outside what a release of the window accepts for an enumerated option (`shared_fs`, '
    + '`block_device_driver`, `block_device_aio`, `extra_monitor_socket`, `emptydir_mode`, `hot_plug_vfio`…), naming the '
    + 'releases that reject it, with fixes to values every release of the window accepts.',
  why: 'The Go runtime validates these values and refuses to start a sandbox with one it does not know: '
    + '`shared_fs = "none"` works from 3.2.0 and breaks every older release in a rollback.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nshared_fs = "none"\n', options: 'Kata 3.0..3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nshared_fs = "virtio-fs"\n', options: 'Kata 3.0..3.32' },
  fix: 'suggestion',
  sources: ['skew-facts.md #11 (shared reference)', 'kata-containers src/runtime/pkg/katautils/config.go (sharedFS() and friends)'],
  check(ctx, report) {
    for (const k of ctx.keys) {
      const row = ctx.optionRow(k.section, k.key);
      if (!row || !row.values.length) continue;
      const v = k.entry.value;
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      // The verdict depends on the row, the value and the window: shared across files.
      const hv = k.section.startsWith('hypervisor.') ? k.section.split('.')[1] : undefined;
      const verdict = () => {
        const out = { rejecting: [] as string[], common: undefined as Set<string> | undefined };
        const values = ctx.decodedAcross(row, 'values');
        ctx.window.forEach((r, i) => {
          const vals = values[i];
          if (!vals) return;
          // The Go runtime validates some values only in some hypervisors' builders (shared_fs: qemu, clh, stratovirt).
          if (vals.onlyInHypervisors && hv !== undefined && !vals.onlyInHypervisors.includes(hv)) return;
          const allowed = vals.enum.map(String);
          out.common = out.common ? new Set([...out.common].filter((x) => allowed.includes(x))) : new Set(allowed);
          if (!allowed.includes(String(v))) out.rejecting.push(r);
        });
        return out;
      };
      const { rejecting, common } = String(v).length <= 256 ? ctx.perWindow(row, 'invalid-value', verdict, `${hv ?? ''}\u0000${typeof v}\u0000${v}`) : verdict();
      if (!rejecting.length) continue;
      const everywhere = [...(common ?? [])];
      const hint = didYouMean(String(v), everywhere);
      const choices = hint ? [hint, ...everywhere.filter((x) => x !== hint)] : everywhere;
      const q = /^\s*'/.test(k.valueText) ? "'" : '"';
      report({
        message: `${k.key} = ${quoteValue(k.valueText)} is rejected by ${rel(ctx, rejecting)}`
          // Every enumerated value the data knows is checked fatally upstream (config.go's validators return an error,
          // the load fails; test/kata-invalid-value-fatal.test.mjs keeps the data so), so there is no warning branch.
          + ' (the runtime refuses to start sandboxes)'
          + (everywhere.length ? `; every release in the window accepts: ${everywhere.join(', ')}` : '; no value is accepted by every release in the window'),
        range: k.entry.valueRange,
        fixes: choices.slice(0, 4).map((c) => ({ title: `Change to ${c}`, edits: [{ range: k.entry.valueRange, newText: typeof v === 'number' ? c : `${q}${c}${q}` }] })),
        data: { key: k.key, rejectedBy: [...rejecting], acceptedEverywhere: everywhere },
      });
    }
  },
};
