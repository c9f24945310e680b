import { formatList } from '../../../versions';
import type { Rule } from '../../../rules/types';
import type { TomlEntry, TomlTable } from '../../../parse/toml';
import type { OffsetRange } from '../../../parse/yaml';
import type { KataContext } from '../index';
import { isDropIn, rowAliases } from '../index';
import { inRanged, type KataOption } from '../data';
import { rel } from './common';

/**
 * A field a release's decoder requires: runtime-rs (serde) fails to deserialize a table that omits a field with no
 * serde default that is not an Option (runtime-rs-config-keys.json `required`, data/kata/config.json `required`).
 * The Go runtime's decoder (BurntSushi/toml) requires none, so the Go flavour has no such rows.
 */
export const rule: Rule<KataContext> = {
  id: 'kata/missing-field',
  family: 'kata-config',
  defaultSeverity: 'error',
  title: 'Table without a field some runtime-rs release in the window requires',
  what: 'Reports a table, or an entry of an array of tables, that omits a field runtime-rs decodes without a default at '
    + 'some release of the window: every `[[hypervisor.<name>.guest_extension_images]]` entry needs `name` from 4.0.0, '
    + 'and every `[agent.<name>]` table needs `container_pipe_size` in 3.0.0–3.1.3. In a `config.d` drop-in a plain '
    + 'table is merged into the main file\'s, so there it is reported as not checked (info).',
  why: 'runtime-rs decodes the configuration with serde: a table without a required field fails with "missing field", '
    + 'the whole file does not load, and no sandbox starts on a host running that release. The Go runtime requires no '
    + 'field, so a file written for it can break when the same node moves to runtime-rs.',
  bad: {
    filename: 'configuration-qemu-runtime-rs.toml',
    text: '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n\n[[hypervisor.qemu.guest_extension_images]]\npath = "/opt/kata/share/kata-containers/kata-coco.img"\n',
    options: 'Kata 4.0..4.1, runtime-rs',
  },
  good: {
    filename: 'configuration-qemu-runtime-rs.toml',
    text: '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n\n[[hypervisor.qemu.guest_extension_images]]\nname = "coco"\npath = "/opt/kata/share/kata-containers/kata-coco.img"\n',
    options: 'Kata 4.0..4.1, runtime-rs',
  },
  fix: 'none',
  sources: [
    'runtime-rs-config-keys.json `required` per tag (shared reference): kata-types hypervisor/mod.rs GuestExtensionImage name (4.0.0, 4.1.0), agent.rs Agent container_pipe_size (3.0.0–3.1.3)',
    'kata-types config/drop_in.rs: drop-in tables are merged into the main file\'s, arrays replace the main file\'s',
  ],
  check(ctx, report) {
    const rows = requiredRows(ctx);
    if (!rows.length) return;
    const dropIn = isDropIn(ctx.file);
    for (const { row, releases, kind } of rows) {
      const rs = rel(ctx, releases);
      const req = releases.length === 1 ? 'requires' : 'require';
      const data = (table: string, extra: Record<string, unknown> = {}) => ({ table, field: row.key, requiredIn: releases.slice(), ...extra });
      if (kind === 'arrayOfTables') {
        // A drop-in's array replaces the main file's (drop_in.rs): an entry without the field fails wherever it is.
        for (const t of arrayEntriesWithout(ctx, row.section, row.key)) {
          const name = t.path.join('.');
          report({
            message: `this [[${name}]] entry has no ${row.key}, which runtime-rs ${rs} ${req} in every entry (it has no default): `
              + `runtime-rs fails to load this file there (missing field \`${row.key}\`)`,
            range: t.headerRange,
            data: data(name),
          });
        }
        for (const { entry, items } of inlineItemsWithout(ctx, row.section, row.key)) {
          const name = [...entry.table, ...entry.key].join('.');
          report({
            message: `${items.length === 1 ? 'item' : 'items'} ${listItems(items)} of ${entry.key.join('.')} ${items.length === 1 ? 'has' : 'have'} no ${row.key}, `
              + `which runtime-rs ${rs} ${req} in every entry of ${name} (it has no default): runtime-rs fails to load this file there (missing field \`${row.key}\`)`,
            range: entry.keyRange,
            data: data(name, { items }),
          });
        }
      } else {
        for (const { name, range } of tablesWithout(ctx, row.section, row.key)) {
          if (dropIn) {
            report({
              message: `not checked: [${name}] has no ${row.key}, which runtime-rs ${rs} ${req} (it has no default); a config.d drop-in's `
                + `table is merged into the main configuration's, so the load fails there (missing field \`${row.key}\`) unless the main file or another drop-in sets it`,
              range,
              severity: 'info',
              data: data(name, { dropIn: true }),
            });
            continue;
          }
          report({
            message: `[${name}] has no ${row.key}, which runtime-rs ${rs} ${req} (it has no default): runtime-rs fails to load this file there `
              + `(missing field \`${row.key}\`) unless a config.d drop-in sets it`,
            range,
            data: data(name),
          });
        }
      }
    }
  },
};

interface RequiredRow { row: KataOption; releases: string[]; kind: 'table' | 'arrayOfTables' }

/** The rows with a field the flavour requires at some release of the window, with those releases. */
function requiredRows(ctx: KataContext): RequiredRow[] {
  return ctx.perWindow(ctx.data, 'missing-field', () => {
    const out: RequiredRow[] = [];
    for (const row of ctx.data.options) {
      const req = row.required?.filter((q) => q.flavour === ctx.flavour);
      if (!req?.length) continue;
      const releases = ctx.window.filter((r) => req.some((q) => inRanged(q, r)));
      if (!releases.length) continue;
      const kind = ctx.data.sections.find((s) => s.name === row.section)?.kind === 'arrayOfTables' ? 'arrayOfTables' : 'table';
      out.push({ row, releases, kind });
    }
    return out;
  });
}

/** Whether a table path of the file stands for the data's table (`[agent.foo]` for agent.kata, `[hypervisor.qemu.x]` for hypervisor.*.x). */
const standsFor = (name: string, section: string) => rowAliases(name, true).includes(section);

/** The first index of a list sorted by `start` whose start is at or after `at`. */
function firstAtOrAfter<T>(list: T[], start: (x: T) => number, at: number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start(list[mid]) < at) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** The `[[section]]` entries (headers of an array of tables) that set no `key`. */
function arrayEntriesWithout(ctx: KataContext, section: string, key: string): TomlTable[] {
  const depth = section.split('.').length;
  const first = section.split('.')[0];
  const heads = ctx.tables.filter((t) => t.kind === 'array' && t.depth === depth && t.top[0] === first && standsFor(t.path.join('.'), section));
  if (!heads.length) return [];
  // The key is set by `key = …`, a dotted `key.x = …` or an inline table `key = {…}` (the last two are the wrong type,
  // which is not this rule's to say). Entries and tables are in source order, each [[entry]]'s keys inside its range.
  const entries = ctx.toml.entries;
  const sub = ctx.tables.filter((t) => t.kind === 'implicit' && t.depth === depth + 1 && t.tail(1)[0] === key);
  return heads.filter((t) => {
    const { start, end } = t.range;
    for (let i = firstAtOrAfter(entries, (e) => e.range.start, start); i < entries.length && entries[i].range.start <= end; i++) {
      const e = entries[i];
      if (e.table.length === depth ? e.key[0] === key : e.table.length > depth && e.table[depth] === key) return false;
    }
    const j = firstAtOrAfter(sub, (s) => s.range.start, start);
    return !(j < sub.length && sub[j].range.start <= end);
  });
}

/** `section = [{…}, …]` written inline: the items (1-based) that are tables without `key`. */
function inlineItemsWithout(ctx: KataContext, section: string, key: string): Array<{ entry: TomlEntry; items: number[] }> {
  const depth = section.split('.').length;
  const out: Array<{ entry: TomlEntry; items: number[] }> = [];
  for (const k of ctx.keys) {
    const e = k.entry;
    if (!Array.isArray(e.value) || e.table.length + e.key.length !== depth || !standsFor(`${k.section}.${k.key}`, section)) continue;
    const items: number[] = [];
    e.value.forEach((v, i) => {
      if (isPlainTable(v) && !Object.prototype.hasOwnProperty.call(v, key)) items.push(i + 1);
    });
    if (items.length) out.push({ entry: e, items });
  }
  return out;
}

const isPlainTable = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

/**
 * The tables of the file that stand for `section` and set no `key`, each at its header: a table is defined by its
 * [header], a dotted key or an inline table, or by a deeper [header] alone ([agent.kata.mem_agent] defines
 * [agent.kata]). A table under an array of tables, or written as one, is not judged here (another shape).
 */
function tablesWithout(ctx: KataContext, section: string, key: string): Array<{ name: string; range: OffsetRange }> {
  const depth = section.split('.').length;
  const first = section.split('.')[0];
  const found = new Map<string, { path: string[]; range: OffsetRange; own: boolean; array: boolean }>();
  const arrays = new Set<string>();
  for (const t of ctx.tables) {
    if (t.kind === 'array' && t.top[0] === first) arrays.add(t.path.join('.'));
    if (t.depth < depth || t.top[0] !== first) continue;
    const path = t.depth === depth ? t.path : t.path.slice(0, depth);
    const name = path.join('.');
    if (!standsFor(name, section)) continue;
    const own = t.depth === depth;
    const f = found.get(name);
    if (!f) found.set(name, { path, range: t.headerRange, own, array: own && t.kind === 'array' });
    else {
      if (own && !f.own) { f.range = t.headerRange; f.own = true; }
      if (own && t.kind === 'array') f.array = true;
    }
  }
  const out: Array<{ name: string; range: OffsetRange }> = [];
  for (const [name, f] of found) {
    if (f.array || f.path.some((_, i) => arrays.has(f.path.slice(0, i + 1).join('.')))) continue;
    let v: unknown = ctx.toml.value;
    for (const seg of f.path) v = isPlainTable(v) && Object.prototype.hasOwnProperty.call(v, seg) ? v[seg] : undefined;
    if (!isPlainTable(v) || Object.prototype.hasOwnProperty.call(v, key)) continue;
    out.push({ name, range: f.range });
  }
  return out;
}

/** "1", "1 and 3", "1, 2 and 4". */
function listItems(items: number[]): string {
  return formatList(items.map(String));
}
