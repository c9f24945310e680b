// "Keep both": an option renamed inside the window may be written under both names, the old one for the releases
// before the rename and the new one for those after it. The pair is read by every release when each release reads one
// of the two; then neither kata/renamed-option (on the old name) nor kata/option-not-in-window (on the new one) has
// anything to say, as long as the two mean the same (the rename's value mapping, when it has one).
import type { KataContext, KataKey } from '../index';
import type { KataOption } from '../data';
import { keyAcrossWindow } from './common';

type Rename = NonNullable<KataOption['renamedTo']>[number];

/** The table the new name lives in: a `hypervisor.*` rename stays in the old key's hypervisor table. */
export const sectionOfNew = (old: KataKey, ren: Rename) => (ren.section === 'hypervisor.*' ? old.section : ren.section);

/** The new-name key written beside an old one, with its row. */
export function newKeyBeside(ctx: KataContext, old: KataKey, ren: Rename): { k: KataKey; row: KataOption } | undefined {
  const section = sectionOfNew(old, ren);
  const k = ctx.keys.find((x) => x.section === section && x.key === ren.key);
  const row = k && ctx.optionRow(section, ren.key);
  return k && row ? { k, row } : undefined;
}

/** The old-name keys written beside `k` that were renamed to it. */
export function oldKeysBeside(ctx: KataContext, k: KataKey): Array<{ k: KataKey; row: KataOption; ren: Rename }> {
  const out: Array<{ k: KataKey; row: KataOption; ren: Rename }> = [];
  for (const { x, row } of renamedKeys(ctx)) {
    if (x === k) continue;
    const ren = row.renamedTo!.find((r) => r.flavour === ctx.flavour && r.key === k.key && sectionOfNew(x, r) === k.section);
    if (ren) out.push({ k: x, row, ren });
  }
  return out;
}

/** The file's keys whose row has renames, in file order: asked once per file, not once per key and key (most rows have none). */
function renamedKeys(ctx: KataContext): ReadonlyArray<{ x: KataKey; row: KataOption }> {
  let hit = renamedMemo.get(ctx);
  if (!hit) {
    hit = [];
    for (const x of ctx.keys) {
      const row = ctx.optionRow(x.section, x.key);
      if (row?.renamedTo) hit.push({ x, row });
    }
    renamedMemo.set(ctx, hit);
  }
  return hit;
}
const renamedMemo = new WeakMap<KataContext, Array<{ x: KataKey; row: KataOption }>>();

/** Releases of the window whose parser reads the key. */
export const readBy = (ctx: KataContext, row: KataOption, section: string) => new Set(keyAcrossWindow(ctx, row, section).parser);

/**
 * Whether the two values mean the same: always without a mapping; with one (`old = v1 ~ new = v2`), the new value is
 * v2 when the old one is v1.
 */
export function sameMeaning(old: KataKey, neu: KataKey, ren: Rename): { same: boolean; want?: string } {
  const m = renameMapping(ren.mapping);
  if (!m || m.from !== old.valueText.trim()) return { same: true };
  return { same: m.to === neu.valueText.trim(), want: m.to };
}

/** A rename's value mapping `old = v1 ~ new = v2` (data/kata/config.json renamedTo): v1 and v2. */
export function renameMapping(mapping: string | undefined): { from: string; to: string } | undefined {
  const m = mapping && /^\s*\S+\s*=\s*(.+?)\s+~\s+\S+\s*=\s*(.+?)\s*$/.exec(mapping);
  return m ? { from: m[1].trim(), to: m[2].trim() } : undefined;
}
