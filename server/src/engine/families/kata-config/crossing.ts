// A Kata window that crosses flavours ("3.20 (go)..4.1 (runtime-rs)"): one configuration file read by both dialects.
// Each side is checked with its own context (the usual kata/* rules), and kata/flavour-switch reports what the two
// dialects read differently. Findings of a side about a key it does not read, where the other side reads it, are
// the switch rule's: it says what each side needs instead of "unknown option".
import type { TomlFile, TomlEntry } from '../../parse/toml';
import type { Flavour, KataOption } from './data';
import { describeReleases } from './data';
import type { KataContext } from './index';
import { rowAliases } from './index';
import { flavourName } from './data/window';

export interface SideRead {
  row?: KataOption;
  /** Releases of the side whose parser reads the key (its table read too). */
  read: string[];
  /** Releases of the side that do not read it. */
  notRead: string[];
  /** Releases (of notRead) whose table refuses unknown keys: the file does not load there. */
  refused: string[];
  /**
   * Releases of the side that read the key's table without the data listing its keys (the Go runtime's
   * []guestExtensionImage): whether they read the key is not known, so nothing is said of it across the switch; the
   * side's kata/unknown-option says it is not checked.
   */
  unlisted: string[];
}

export class KataCrossing {
  readonly first: KataContext;
  readonly second: KataContext;
  constructor(readonly toml: TomlFile, readonly sides: [KataContext, KataContext], readonly sameNode = false) {
    [this.first, this.second] = sides;
  }
  side(f: Flavour): KataContext { return this.first.flavour === f ? this.first : this.second; }
  other(f: Flavour): KataContext { return this.first.flavour === f ? this.second : this.first; }
  get windowText(): string {
    const a = this.first, b = this.second;
    if (this.sameNode) return `${a.windowText} (${a.flavour} and ${b.flavour})`;
    return `${a.window[0]} (${a.flavour})..${b.window[b.window.length - 1]} (${b.flavour})`;
  }
  /** "the Go runtime (3.20.0–4.0.0)". */
  who(ctx: KataContext, releases: string[] = ctx.window): string {
    return `${flavourName(ctx.flavour)} ${describeReleases(releases, ctx.window)}`;
  }

  /** How one side treats a key of a table. */
  read(ctx: KataContext, section: string, key: string): SideRead {
    const row = ctx.optionRow(section, key);
    const table = tableRead(ctx, section);
    // A table the side reads without the data listing its keys (Go []guestExtensionImage): neither read nor ignored.
    const unlistedAt = row ? [] : ctx.keysNotListed(section);
    const read: string[] = [], notRead: string[] = [], refused: string[] = [], unlisted: string[] = [];
    ctx.window.forEach((r, i) => {
      if (table[i] && row && ctx.optionKnown(row, r) === 'parser') read.push(r);
      else if (unlistedAt.includes(r)) unlisted.push(r);
      else {
        notRead.push(r);
        if (table[i] && ctx.strictAt(section, r)) refused.push(r);
      }
    });
    return { row, read, notRead, refused, unlisted };
  }

  /** Whether a side reads a table at each of its releases (the top level always; a hypervisor table by its name). */
  tableKnown(ctx: KataContext, section: string): boolean[] { return tableRead(ctx, section); }
}

function tableRead(ctx: KataContext, section: string): boolean[] {
  if (section === '') return ctx.window.map(() => true);
  return ctx.sectionAcross(section).map((x) => x === 'parser');
}

/** The mapping index key of a table and key: hypervisor tables as the guide's qemu, agent tables as kata. */
export function guidePath(section: string, key?: string): string {
  const parts = section.split('.');
  if (parts[0] === 'hypervisor' && parts.length >= 2) parts[1] = 'qemu';
  if (parts[0] === 'agent' && parts.length >= 2) parts[1] = 'kata';
  return [...parts, ...(key ? [key] : [])].filter((x) => x !== '').join('.');
}

/** A guide path written for the file's own table names: hypervisor.qemu.x -> hypervisor.<its hypervisor>.x. */
export function inFileTerms(guide: string, hypervisor: string | undefined, agent: string | undefined): { section: string; key: string } {
  const parts = guide.split('.');
  if (parts[0] === 'hypervisor' && parts.length >= 3 && hypervisor) parts[1] = hypervisor;
  if (parts[0] === 'agent' && parts.length >= 3 && agent) parts[1] = agent;
  return { section: parts.slice(0, -1).join('.'), key: parts[parts.length - 1] };
}

/** Entries of the file by "section\0key". */
export function entryIndex(toml: TomlFile): Map<string, TomlEntry> {
  const m = new Map<string, TomlEntry>();
  for (const e of toml.entries) m.set(`${e.table.join('.')}\u0000${e.key.join('.')}`, e);
  return m;
}

export { rowAliases };

/** Rules whose finding means "this side does not read it": the switch rule says it instead, where the other side reads it. */
export const NOT_READ_RULES = new Set(['kata/unknown-option', 'kata/option-not-in-window', 'kata/renamed-option', 'kata/unknown-section', 'kata/section-not-in-window']);

/**
 * Per flavour, the ranges (key or table header) whose not-read findings of that side belong to kata/flavour-switch:
 * a key or table the other side reads and this one never does. `values`: block_device_driver and the like, whose
 * value findings the switch rule gives for both sides. Unknown [hypervisor.<name>] tables stay the usual rules'.
 */
export function claims(x: KataCrossing, valueKeys: Set<string>): { notRead: Map<Flavour, Array<{ start: number; end: number }>>; values: Array<{ start: number; end: number }> } {
  const notRead = new Map<Flavour, Array<{ start: number; end: number }>>(x.sides.map((c) => [c.flavour, []]));
  const values: Array<{ start: number; end: number }> = [];
  for (const e of x.toml.entries) {
    const section = e.table.join('.'), key = e.key.join('.');
    const [a, b] = x.sides.map((c) => x.read(c, section, key));
    if (valueKeys.has(key)) values.push(e.range);
    if (a.unlisted.length || b.unlisted.length) continue; // not known for one side: each side's own findings stand
    if (!!a.read.length === !!b.read.length) continue;
    notRead.get((a.read.length ? x.second : x.first).flavour)!.push(e.range);
  }
  // A table deeper than any row of either side is known by neither: its name is not built (inline tables nested N deep
  // would make N names of up to N keys).
  const deepest = Math.max(x.first.maxSectionDepth, x.second.maxSectionDepth);
  for (const t of x.toml.tables) {
    if (t.depth > deepest || (t.top[0] === 'hypervisor' && t.depth === 2)) continue;
    const name = t.path.join('.');
    const [a, b] = x.sides.map((c) => x.tableKnown(c, name).some(Boolean));
    if (a === b) continue;
    notRead.get((a ? x.second : x.first).flavour)!.push(t.headerRange);
  }
  return { notRead, values };
}

export const within = (r: { start: number; end: number }, rs: Array<{ start: number; end: number }>) => rs.some((c) => r.start >= c.start && r.end <= c.end);
