import type { Rule, Report } from '../../../rules/types';
import type { KataContext } from '../index';
import { didYouMean } from '../../../text';
import { rel, quoteValue } from './common';
import { inRanged } from '../data';

export const rule: Rule<KataContext> = {
  id: 'kata/invalid-value',
  family: 'kata-config',
  defaultSeverity: 'error',
  title: 'Value some release in the window rejects',
  what: 'Reports a value outside what a release of the window accepts for an enumerated option (`shared_fs`, '
    + '`block_device_driver`, `block_device_aio`, `extra_monitor_socket`, `emptydir_mode`, `hot_plug_vfio`…), naming the '
    + 'releases that reject it, with fixes to values every release of the window accepts. Where the check depends on the '
    + 'hypervisor table and its machine type (Go: `shared_fs` only for qemu/clh/stratovirt, port values only for QEMU/CLH '
    + 'on q35/virt) it applies only there; `hot_plug_vfio` and `cold_plug_vfio` both set is an error for QEMU/CLH and a '
    + 'warning for other hypervisors (the Go runtime\'s checkPCIeConfig).',
  why: 'The Go runtime validates these values and refuses to start a sandbox with one it does not know: '
    + '`shared_fs = "none"` works from 3.2.0 and breaks every older release in a rollback.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nshared_fs = "none"\n', options: 'Kata 3.0..3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nshared_fs = "virtio-fs"\n', options: 'Kata 3.0..3.32' },
  fix: 'suggestion',
  sources: ['skew-facts.md #11, go-runtime-corrections.md (shared reference)', 'kata-containers src/runtime/pkg/katautils/config.go (sharedFS(), checkPCIeConfig)', 'kata-containers src/libs/kata-types/src/config (allow-lists, runtime-rs-config-keys.json)'],
  check(ctx, report) {
    for (const k of ctx.keys) {
      const row = ctx.optionRow(k.section, k.key);
      if (!row || !row.values.length) continue;
      const v = k.entry.value;
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      // The verdict depends on the row, the value and the window: shared across files.
      const hv = k.section.startsWith('hypervisor.') ? k.section.split('.')[1] : undefined;
      const machine = hv !== undefined ? machineTypeOf(ctx, k.section) : undefined;
      const verdict = () => {
        const out = { rejecting: [] as string[], common: undefined as Set<string> | undefined };
        const values = ctx.decodedAcross(row, 'values');
        ctx.window.forEach((r, i) => {
          const vals = values[i];
          if (!vals) return;
          // The Go runtime validates some values only in some hypervisors' builders (shared_fs: qemu, clh, stratovirt).
          if (vals.onlyInHypervisors && hv !== undefined && !vals.onlyInHypervisors.includes(hv)) return;
          // ... and some only for some machine types (hot_plug_vfio/cold_plug_vfio: q35 and virt, the default q35).
          if (vals.onlyWithMachineTypes && machine !== undefined && !vals.onlyWithMachineTypes.includes(machine ?? vals.machineTypeDefault ?? '')) return;
          const allowed = (hv !== undefined && vals.narrowerIn?.[hv] ? vals.narrowerIn[hv] : vals.enum).map(String);
          out.common = out.common ? new Set([...out.common].filter((x) => allowed.includes(x))) : new Set(allowed);
          if (!allowed.includes(String(v))) out.rejecting.push(r);
        });
        return out;
      };
      const { rejecting, common } = String(v).length <= 256 ? ctx.perWindow(row, 'invalid-value', verdict, `${hv ?? ''}\u0000${machine ?? ''}\u0000${typeof v}\u0000${v}`) : verdict();
      if (!rejecting.length) continue;
      const everywhere = [...(common ?? [])];
      const arch = hv !== undefined ? archOf(hv, machine) : undefined;
      const choices = byFitness(String(v), everywhere, arch);
      const flavourHint = ctx.flavourHint(k.section, k.key, v);
      const q = /^\s*'/.test(k.valueText) ? "'" : '"';
      report({
        message: `${k.key} = ${quoteValue(k.valueText)} is rejected by ${rel(ctx, rejecting)}`
          // Every enumerated value the data knows is checked fatally upstream (config.go's validators return an error,
          // the load fails; test/kata-invalid-value-fatal.test.mjs keeps the data so), so there is no warning branch.
          + ' (the runtime refuses to start sandboxes)'
          + (everywhere.length ? `; every release in the window accepts: ${everywhere.map(shown).join(', ')}` : '; no value is accepted by every release in the window')
          + (flavourHint ? `; ${flavourHint}` : ''),
        range: k.entry.valueRange,
        fixes: choices.slice(0, 4).map((c) => ({ title: `Change to ${shown(c)}${onlyOn(c) && onlyOn(c) !== arch ? ` (${onlyOn(c)} only)` : ''}`, destructive: false, edits: [{ range: k.entry.valueRange, newText: typeof v === 'number' ? c : `${q}${c}${q}` }] })),
        data: { key: k.key, rejectedBy: [...rejecting], acceptedEverywhere: everywhere, ...(flavourHint ? { flavourHint: 'runtime-rs' } : {}) },
      });
    }
    checkConditional(ctx, report);
  },
};

/** A value as a list in a message shows it: the empty string (runtime-rs accepts shared_fs = "" for its default) as "". */
const shown = (x: string) => (x === '' ? '""' : x);

/**
 * The architecture a hypervisor table is for, from its machine_type (the QEMU machine each architecture's Makefile of
 * the Go runtime sets: src/runtime/arch/{amd64,arm64,s390x,ppc64le}-options.mk, MACHINETYPE q35, virt,
 * s390-ccw-virtio, pseries); an unset machine_type is QEMU's x86 default (q35, as configuration-qemu.toml ships);
 * undefined when it cannot be told.
 */
export function archOf(hv: string, machine: string | null | undefined): string | undefined {
  if (machine == null) return hv === 'qemu' ? 'x86_64' : undefined;
  if (/s390|ccw/.test(machine)) return 's390x';
  if (/^pseries/.test(machine)) return 'ppc64le';
  if (/^virt\b/.test(machine)) return 'arm64';
  if (/^(q35|pc|microvm)\b/.test(machine)) return 'x86_64';
  return undefined;
}

/** The one architecture a value is for: a CCW transport (`virtio-blk-ccw`) exists only on s390x (channel I/O). */
export const onlyOn = (value: string): string | undefined => (/-ccw$/.test(value) ? 's390x' : undefined);

/**
 * The values to offer, best first: the rejected value without its transport suffix when that is a value
 * (`virtio-blk-pci` → `virtio-blk`), then the nearest spelling, then the rest; a value for another architecture than
 * the table's (`virtio-blk-ccw` on x86 QEMU) goes after every value that fits.
 */
export function byFitness(value: string, values: string[], arch: string | undefined): string[] {
  const base = value.replace(/-(pci|ccw|mmio|device)$/, '');
  const first = base !== value && values.includes(base) ? base : undefined;
  const fits = (x: string) => !onlyOn(x) || onlyOn(x) === arch;
  const near = didYouMean(value, values.filter((x) => x !== first && fits(x)));
  const order = [first, near, ...values].filter((x): x is string => !!x);
  const uniq = [...new Set(order)];
  return [...uniq.filter(fits), ...uniq.filter((x) => !fits(x))];
}

/** The table's machine_type (a string), null when unset, undefined outside hypervisor tables. */
function machineTypeOf(ctx: KataContext, section: string): string | null {
  const m = ctx.keys.find((x) => x.section === section && x.key === 'machine_type')?.entry.value;
  return typeof m === 'string' ? m : null;
}

/**
 * Combinations whose outcome depends on the hypervisor table and its machine type (data fatal.conditional), e.g. the
 * Go runtime's checkPCIeConfig: hot_plug_vfio and cold_plug_vfio both set is an error for QEMU/CLH on any machine
 * type, and only a logged warning for the other hypervisors.
 */
function checkConditional(ctx: KataContext, report: Report): void {
  for (const c of ctx.data.fatal.conditional ?? []) {
    if (c.flavour !== ctx.flavour) continue;
    const releases = ctx.window.filter((r) => inRanged(c, r));
    if (!releases.length) continue;
    const bySection = new Map<string, typeof ctx.keys>();
    for (const k of ctx.keys) {
      if (!k.section.startsWith('hypervisor.') || k.entry.table.length !== 2 || !c.when.allSet.includes(k.key)) continue;
      if (typeof k.entry.value !== 'string' || k.entry.value === '' || k.entry.value === c.when.notEqual) continue;
      bySection.set(k.section, [...(bySection.get(k.section) ?? []), k]);
    }
    for (const [section, keys] of bySection) {
      if (!c.when.allSet.every((n) => keys.some((k) => k.key === n))) continue;
      const hv = section.split('.')[1];
      const machine = machineTypeOf(ctx, section) ?? 'q35';
      const o = c.outcomes.find((x) => (!x.hypervisors || x.hypervisors.includes(hv)) && (!x.machineTypes || x.machineTypes.includes(machine)));
      if (!o) continue;
      const last = keys[keys.length - 1];
      report({
        message: `${c.when.allSet.join(' and ')} are both set in [${section}]: for ${rel(ctx, releases)} ${o.says}`,
        range: last.entry.keyRange,
        severity: o.severity,
        data: { check: c.id, table: section, hypervisor: hv, machineType: machine, releases },
      });
    }
  }
}
