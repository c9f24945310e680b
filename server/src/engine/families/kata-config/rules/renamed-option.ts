import type { Rule } from '../../../rules/types';
import type { KataContext } from '../index';
import { keyAcrossWindow, rel } from './common';
import { compareVersions } from '../../../versions';
import { newKeyBeside, readBy, renameMapping, sameMeaning, sectionOfNew } from './renamed-pair';

export const rule: Rule<KataContext> = {
  id: 'kata/renamed-option',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Option renamed in a release of the window',
  what: 'Reports a key that a release of the window reads under a new name (e.g. `hotplug_vfio_on_root_bus` → '
    + '`hot_plug_vfio` at 3.2.0), with a fix to the new name when every release of the window reads it.',
  why: 'After the rename the old key is silently ignored: VFIO devices are hot-plugged on a bridge again and large PCI '
    + 'BARs stop working — only on the hosts already upgraded.',
  bad: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nhotplug_vfio_on_root_bus = true\n', options: 'Kata 3.32' },
  good: { filename: 'configuration.toml', text: '[hypervisor.qemu]\nhot_plug_vfio = "root-port"\n', options: 'Kata 3.32' },
  fix: 'complete',
  sources: ['config-options.json renames (shared reference)', 'kata-containers src/runtime/pkg/katautils/config.go at 3.1.3 and 3.2.0'],
  check(ctx, report) {
    for (const k of ctx.keys) {
      const row = ctx.optionRow(k.section, k.key);
      const ren = row?.renamedTo?.find((r) => r.flavour === ctx.flavour);
      if (!row || !ren) continue;
      const w = keyAcrossWindow(ctx, row, k.section);
      const after = [...w.ignored, ...w.templateOnly].filter((r) => compareVersions(r, ren.in) >= 0);
      if (!after.length) continue;
      const newSection = sectionOfNew(k, ren);
      const newRow = ctx.optionRow(newSection, ren.key);
      // Both names written ("keep both"): clean when every release reads one of them and they mean the same.
      const beside = newKeyBeside(ctx, k, ren);
      if (beside) {
        const reads = readBy(ctx, beside.row, newSection);
        const uncovered = after.filter((r) => !reads.has(r));
        const meaning = sameMeaning(k, beside.k, ren);
        if (!uncovered.length && meaning.same) continue;
        if (!uncovered.length) {
          report({
            message: `${k.key} and ${ren.key} are both written (for the releases before and after the rename in ${ren.in}) but do not mean the same: ${k.key} = ${k.valueText.trim()} means ${ren.key} = ${meaning.want}`,
            range: beside.k.entry.valueRange,
            data: { key: k.key, renamedTo: ren.key, in: ren.in, ignoredIn: [], fatalIn: [] },
          });
          continue;
        }
      }
      const newEverywhere = !!newRow && ctx.window.every((r) => ctx.optionKnown(newRow, r) === 'parser');
      const fix = newEverywhere && newSection === k.section ? renameFix(k, ren.key, ren.mapping) : undefined;
      // Every release of the window that does not read the old key, the rename's or not: runtime-rs never read
      // dial_timeout, although its templates shipped it before the rename (3.0.0–3.5.0) too.
      const notRead = ctx.window.filter((r) => w.ignored.includes(r) || w.templateOnly.includes(r));
      const onlyTemplates = notRead.every((r) => w.templateOnly.includes(r));
      // In a table that refuses unknown keys (runtime-rs [agent.kata] from 3.29.0) the old key is fatal, not ignored.
      const fatal = notRead.filter((r) => ctx.strictAt(k.section, r));
      const ignored = notRead.filter((r) => !fatal.includes(r));
      const parts = [];
      if (ignored.length) parts.push(`${rel(ctx, ignored)} ignore${ignored.length === 1 ? 's' : ''} ${k.key}`);
      if (fatal.length) parts.push(`${rel(ctx, fatal)} refuse${fatal.length === 1 ? 's' : ''} the file because of it`);
      report({
        message: `${k.key} was renamed to ${ren.key} in ${ren.in}: ${parts.join('; ')}`
          + (onlyTemplates ? ' (although its templates still ship it)' : '')
          + (ren.mapping ? `; ${ren.mapping.replace(/\s+~\s+/, ' means ')}` : '')
          + (newEverywhere ? '' : `; ${ren.key} is not read by every release of the window ${ctx.windowText}, so keep both or split the upgrade`),
        range: k.entry.keyRange,
        // The release's own templates still ship the old key: say it, but do not warn about the shipped file.
        severity: fatal.length ? 'error' : onlyTemplates ? 'info' : undefined,
        fixes: fix ? [fix] : [],
        data: { key: k.key, renamedTo: ren.key, in: ren.in, ignoredIn: ignored, fatalIn: fatal },
      });
    }
  },
};

/** `old = v1 ~ new = v2`: the value to write under the new name, when the old value is v1. */
function renameFix(k: KataContext['keys'][number], newKey: string, mapping?: string) {
  if (!mapping) {
    // dial_timeout (seconds) -> dial_timeout_ms: a unit in the new name that the old one lacks is not a plain rename.
    const unit = (s: string) => /_(ms|us|ns|secs?|seconds|kb|mb|gb|kib|mib|gib|bytes)$/i.exec(s)?.[1]?.toLowerCase();
    if (unit(newKey) !== unit(k.key)) {
      return { title: `Rename to ${newKey} — partial: check the unit (${newKey} is in ${unit(newKey) ?? 'another unit'})`, edits: [{ range: k.entry.keyRange, newText: newKey }], partial: true, destructive: true };
    }
    return { title: `Rename to ${newKey}`, edits: [{ range: k.entry.keyRange, newText: newKey }], preferred: true, destructive: true };
  }
  const m = renameMapping(mapping);
  if (!m || m.from !== k.valueText.trim()) return undefined;
  return {
    title: `Replace with ${newKey} = ${m.to}`,
    edits: [{ range: { start: k.entry.keyRange.start, end: k.entry.valueRange.end }, newText: `${newKey} = ${m.to}` }],
    preferred: true,
    destructive: true,
  };
}
