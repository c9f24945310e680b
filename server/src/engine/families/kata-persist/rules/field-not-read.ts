import type { Rule } from '../../../rules/types';
import type { PersistContext } from '../index';
import { describeRanges } from '../data';
import { dotted, rel, located, jsonType, typeOk, PERSIST_NO_COMMENTS } from './common';
import { fieldTrie, type FieldTrie, type PersistField } from '../data';

/** Every release of the window decodes `value` whole at trie node `node`: known, read, and of a type it accepts, all the
 * way down. Iterative (a stack of the members still to check). */
function readWhole(ctx: PersistContext, node0: FieldTrie, value0: unknown): boolean {
  const todo: Array<{ node: FieldTrie; value: unknown }> = [{ node: node0, value: value0 }];
  while (todo.length) {
    const { node, value } = todo.pop()!;
    const f = node.field;
    if (f) {
      if (ctx.notReadBy(f).length) return false;
      const actual = jsonType(value);
      if (ctx.typeClash(f, actual, typeOk).bad.length) return false; // every release reads f (above)
      if (f.types.length && f.types.every((t) => t.opaque)) continue;
    }
    if (!value || typeof value !== 'object') continue;
    const star = node.children.get('*');
    if (Array.isArray(value)) {
      if (!value.length) continue;
      if (!star) return false;
      for (const v of value) todo.push({ node: star, value: v });
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      const c = node.children.get(k) ?? star;
      // As PersistContext's walk: members of an object no field list describes (or of an opaque value) are kept whole.
      if (!c) {
        if (!(!node.children.size || [...node.children.values()].some((x) => x.field?.types.some((t) => t.opaque)))) return false;
        continue;
      }
      todo.push({ node: c, value: v });
    }
  }
  return true;
}

/** The other name of a renamed field (same parent), when every release of the window reads that one and the file lacks it. */
function renamedCounterpart(ctx: PersistContext, f: PersistField, at: Array<string | number>): string | undefined {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const candidates: string[][] = [];
  for (const g of ctx.data.fields) {
    if (g.file !== f.file) continue;
    for (const r of g.renames) {
      if (same(r.to, g.path) && same(r.from, f.path)) candidates.push(g.path); // f is the old name
      if (same(r.to, f.path) && same(r.from, g.path)) candidates.push(g.path); // f is the new name
    }
  }
  for (const c of candidates) {
    if (!same(c.slice(0, -1), f.path.slice(0, -1))) continue;
    const g = ctx.data.fields.find((x) => x.file === f.file && same(x.path, c));
    if (!g || !ctx.window.every((r) => ctx.reads(g, r))) continue;
    const parent = at.slice(0, -1);
    const sibling = parent.reduce<any>((v, k) => v?.[k], ctx.json.value);
    const name = c[c.length - 1];
    if (sibling && typeof sibling === 'object' && Object.prototype.hasOwnProperty.call(sibling, name)) continue;
    // The value must keep its meaning under the new name: a rename that changes the type (BlockIndex int → BlockIndexMap
    // map, HotplugVFIOOnRootBus bool → HotPlugVFIO string) or whose members the new struct lacks is no fix.
    const node = c.reduce<FieldTrie | undefined>((n, seg) => n?.children.get(seg), fieldTrie(f.file));
    if (!node || !readWhole(ctx, node, sibling?.[at[at.length - 1]])) continue;
    return name;
  }
  return undefined;
}

function isZero(v: unknown): boolean {
  if (v === null || v === 0 || v === '' || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

export const rule: Rule<PersistContext> = {
  id: 'kata-persist/field-not-read',
  family: 'kata-persist',
  defaultSeverity: 'warning',
  title: 'State field some runtime in the window drops on read',
  what: 'Reports a persist.json field that some Kata release of the window does not know: Go\'s encoding/json drops it '
    + 'silently on read, so that release loses what the field holds (named in the message), e.g. the virtiofsd pid. '
    + 'A zero value (0, "", false, null, [], {}) is not reported: a reader without the field sees the same. '
    + 'When a renamed field holds the same value under the name every release of the window reads, a fix renames it.',
  why: 'After a rollback the old runtime reads the state the new one wrote; a dropped field is a leaked process, a lost '
    + 'cgroup path or a device it no longer knows to detach — found only when the sandbox is stopped.',
  bad: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "SandboxCgroupPath": "/kata_0123"\n}\n', options: 'Kata 2.0..2.2' },
  good: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "CgroupPath": "/kata_0123"\n}\n', options: 'Kata 2.0..2.2' },
  fix: 'complete',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: ['persist-fields-by-release.json, persist-format.md (shared reference)', 'data/kata/persist.json fields[].readBy and lostOnRead'],
  check(ctx, report) {
    // Two fields of one object renamed to the same name (HotPlugVFIO and ColdPlugVFIO ← HotplugVFIOOnRootBus) would
    // make a duplicate key: neither gets the fix.
    const targets = new Map<string, string | undefined>();
    const counts = new Map<string, number>();
    for (const p of ctx.present) {
      if (!ctx.notReadBy(p.field!).length) continue;
      const other = renamedCounterpart(ctx, p.field!, p.path);
      targets.set(JSON.stringify(p.path), other);
      if (other) { const k = JSON.stringify([...p.path.slice(0, -1), other]); counts.set(k, (counts.get(k) ?? 0) + 1); }
    }
    for (const p of ctx.present) {
      const f = p.field!;
      // A zero value (0, "", false, null, [], {}) is what a reader without the field sees anyway: nothing is lost.
      if (isZero(p.value)) continue;
      const notRead = ctx.notReadBy(f).slice();
      if (!notRead.length) continue;
      const at = located(ctx, p);
      let other = targets.get(JSON.stringify(p.path));
      if (other && (counts.get(JSON.stringify([...p.path.slice(0, -1), other])) ?? 0) > 1) other = undefined;
      report({
        message: `${dotted(p.path)} is dropped on read by ${rel(ctx, notRead)} (read by ${describeRanges(f.readBy)}): ${f.lostOnRead ?? 'its value is lost'}`
          + (other ? `; every release of the window reads it as ${other}` : ''),
        range: at.key,
        // Renaming keeps the value for every reader; no fix invents state.
        fixes: other ? [{ title: `Rename to ${other}`, edits: [{ range: at.key, newText: JSON.stringify(other) }], preferred: true, destructive: true }] : [],
        data: { field: f.path.join('.'), droppedBy: notRead, lost: f.lostOnRead ?? null, renameTo: other ?? null },
      });
    }
    for (const p of ctx.unknown) {
      const at = located(ctx, p);
      report({
        message: `${dotted(p.path)} is not a field any Kata release writes or reads: every release drops it on read`,
        range: at.key,
        data: { field: dotted(p.path), droppedBy: ctx.window },
      });
    }
  },
};
