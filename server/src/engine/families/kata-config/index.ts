// Kata Containers configuration*.toml: recognition, flavour, window and the per-file context its rules read.
import * as path from 'node:path';
import type { TomlFile, TomlEntry, TomlTable } from '../../parse/toml';
import type { SourceInfo } from '../../types';
import type { ResolvedConfig } from '../../config';
import {
  kataData, kataIndex, kataWindow, newestKataRelease, inRange, inRanged, type Flavour, type KataOption, type KataSection,
} from './data';
import { memoIn, weakMemoIn } from '../../memo';
import { didYouMean } from '../../text';
import { crossesFlavours, splitCrossing } from './data/window';
import type { KataRuntimeFact } from './data/chain';
import { windowText } from '../../window-text';

export function isKataName(file: string): boolean {
  const base = path.basename(file);
  if (!/\.toml$/i.test(base)) return false;
  if (/^configuration.*\.toml$/i.test(base)) return true;
  return path.basename(path.dirname(file)) === 'config.d';
}

/** A path inside a Kata folder: a `kata-containers` or `kata` segment (/etc/kata-containers, /opt/kata/…). */
export const isKataFolder = (file: string) => path.dirname(file).split(/[\\/]/).some((seg) => /^kata(-containers)?$/i.test(seg));

export const isDropIn = (file: string) => path.basename(path.dirname(file)) === 'config.d';

/** Top-level table names of Kata's configuration (the first segment of every section in data/kata/config.json). */
let kataTops: Set<string> | undefined;
const kataTopTables = () => (kataTops ??= new Set(kataData().sections.map((s) => s.name.split('.')[0])));

/** The first segment of every table header ([a.b], [[a]], ["a".b]) of a TOML text, by a line scan (no parse). */
export function tomlTopTables(text: string, limit = 1 << 20): string[] {
  const out: string[] = [];
  let inString: string | undefined;
  const end = Math.min(text.length, limit);
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < end;) {
    let j = text.indexOf('\n', i);
    if (j < 0 || j > end) j = end;
    const line = text.slice(i, j);
    i = j + 1;
    if (inString) {
      if (line.includes(inString)) inString = undefined;
      continue;
    }
    const m = /^[ \t]*\[\[?[ \t]*("[^"\r\n]*"|'[^'\r\n]*'|[A-Za-z0-9_-]+)[ \t]*(?:\.[^\]\r\n]*)?\]\]?[ \t]*(?:#.*)?\r?$/.exec(line);
    if (m) { out.push(m[1].replace(/^["']|["']$/g, '')); continue; }
    // A multi-line string that opens on this line and does not close on it: skip to its end.
    for (const q of ['"""', "'''"]) {
      const at = line.indexOf(q);
      if (at >= 0 && line.indexOf(q, at + 3) < 0) { inString = q; break; }
    }
  }
  return out;
}

/**
 * Whether a .toml file is a Kata Containers configuration, by its content: more of its table headers are Kata's
 * top-level tables ([hypervisor.*], [agent.*], [runtime], [factory], [image], [netmon], [proxy.*], [shim.*]) than
 * not, whatever its name. The name (configuration*.toml, a config.d drop-in) only decides the rest: such a file is
 * Kata's when it has no tables (empty, or keys only), some Kata table, a single table of its own, or a near miss of a
 * Kata table ([runtme]); it is not when its tables are another program's, two or more ([server], [database]).
 */
export function isKataConfig(file: string, text: string): boolean {
  const tops = kataTopTables();
  let kata = 0;
  const foreign: string[] = [];
  for (const t of tomlTopTables(text)) if (tops.has(t)) kata++; else foreign.push(t);
  if (kata > foreign.length) return true;
  if (!isKataName(file)) return false;
  // The name alone does not make a file Kata's (a web application's configuration.toml with [server] is not): its
  // content has to say so, a Kata table or a near miss of one ([runtme]), which kata/unknown-section then reports.
  // Only in a Kata folder (/etc/kata-containers, /opt/kata/share/defaults/kata-containers, …) does the name decide for
  // a file without such tables (empty, keys only, one unknown table), so that it is reported there, not passed over.
  if (kata > 0 || foreign.some((t) => didYouMean(t, tops) !== undefined)) return true;
  // A header that does not parse ([hypervisor.qemu without its bracket) still says Kata: the parse error is reported.
  for (const m of text.slice(0, 1 << 20).matchAll(/^[ \t\uFEFF]*\[\[?[ \t]*["']?([A-Za-z0-9_-]+)/gm)) if (tops.has(m[1])) return true;
  return isKataFolder(file) && new Set(foreign).size < 2;
}

/** The runtime flavour a file is for, from the configuration, its name, or its sections. */
export function detectFlavour(file: string, toml: TomlFile | undefined, config: ResolvedConfig): { flavour: Flavour; source: SourceInfo } {
  if (config.kata.flavour === 'go' || config.kata.flavour === 'runtime-rs') {
    return { flavour: config.kata.flavour, source: config.kata.flavourSource ?? { kind: 'config', detail: 'kata.flavour' } };
  }
  const base = path.basename(file);
  if (/runtime-rs|dragonball|(^|-)rs-/.test(base) || /[\\/]runtime-rs[\\/]/.test(file)) {
    return { flavour: 'runtime-rs', source: { kind: 'workspace', detail: `file name ${base}` } };
  }
  // By the first two keys (top): reading every table's path was quadratic in inline tables nested N deep.
  const rsOnly = toml?.tables.find((t) => t.top[0] === 'hypervisor' && ['dragonball', 'cloud-hypervisor', 'openvmm'].includes(t.top[1]!));
  if (rsOnly) return { flavour: 'runtime-rs', source: { kind: 'workspace', detail: `its [${rsOnly.path.join('.')}] table` } };
  return { flavour: 'go', source: { kind: 'default', detail: 'the Go runtime (no flavour in the configuration, the file name or its tables)' } };
}

const acrossCache = new WeakMap<object, Map<number, Map<string, Map<string, unknown>>>>();
const sharedRows = new WeakMap<object, Map<Flavour, Map<string, Map<string, KataOption | undefined>>>>();
const windowIds = new Map<string, number>();
let nextWindowId = 0;

export interface KataKey {
  entry: TomlEntry;
  section: string;
  key: string;
  /** The literal text of the value, to tell 1 from 1.0. */
  valueText: string;
}

/** The options of the Kata data by key (KataContext.flavourHint). */
const optionsByKey = new WeakMap<object, Map<string, KataOption[]>>();

export class KataContext {
  readonly keys: KataKey[];
  /** The containerd runtime entries of the workspace whose ConfigPath names this file (the node's chain). */
  runtimes: KataRuntimeFact[] = [];
  constructor(
    readonly file: string,
    readonly toml: TomlFile,
    readonly flavour: Flavour,
    readonly flavourSource: SourceInfo,
    readonly window: string[],
    readonly windowSource: SourceInfo,
  ) {
    this.keys = toml.entries.map((entry) => ({
      entry, section: entry.table.join('.'), key: entry.key.join('.'),
      valueText: toml.text.slice(entry.valueRange.start, entry.valueRange.end),
    }));
  }

  readonly data = kataData();
  get windowText(): string {
    const w = this.window;
    return windowText(w);
  }
  get flavourName(): string { return this.flavour === 'go' ? 'Go runtime' : 'runtime-rs'; }

  /**
   * When nothing said the file's flavour (it is checked as the Go runtime's by default) and runtime-rs reads this key,
   * or accepts this value, where the Go runtime does not: the hint to say the flavour, for the finding's message.
   */
  flavourHint(section: string, key: string, value?: string | number): string | undefined {
    if (this.flavour !== 'go' || this.flavourSource.kind !== 'default') return undefined;
    // The data's options by key, once per data: a table of 100,000 unknown keys asks once per key, not per option.
    let byKey = optionsByKey.get(this.data);
    if (!byKey) {
      optionsByKey.set(this.data, byKey = new Map());
      for (const o of this.data.options) { const l = byKey.get(o.key); if (l) l.push(o); else byKey.set(o.key, [o]); }
    }
    const rows = (byKey.get(key) ?? []).filter((o) => o.section === section || (o.section.endsWith('.*') && section.startsWith(o.section.slice(0, -1)) && section.split('.').length === o.section.split('.').length));
    const rs = rows.filter((o) => o.flavours['runtime-rs'] || o.templates?.['runtime-rs']);
    if (!rs.length) return undefined;
    const accepts = (f: Flavour) => rows.some((o) => o.values.some((v) => v.flavour === f && v.enum.map(String).includes(String(value))));
    // A value some Go release accepts is a window question, not a flavour one.
    if (value !== undefined && (!accepts('runtime-rs') || accepts('go'))) return undefined;
    const what = value !== undefined ? `runtime-rs accepts ${key} = ${JSON.stringify(value)}` : `runtime-rs reads ${key} in [${section}]`;
    return `the file names no flavour and is checked as the Go runtime's, but ${what}: if it is a runtime-rs configuration, set kata.flavour: runtime-rs in .skewguard.yaml (or --kata-flavour runtime-rs)`;
  }
  get tables(): TomlTable[] { return this.toml.tables; }

  /** Flavour and window as a small number: files checked with the same pair share the per-row answers below. */
  private get windowId(): number {
    // Ids are never reused, so an id emptied out of this map cannot alias another window's cached answers.
    return (this.windowIdMemo ??= memoIn(windowIds, `${this.flavour}\u0000${this.window.join(',')}`, () => nextWindowId++, 256));
  }
  private windowIdMemo?: number;

  /**
   * f(release) for every release of the window (same order), cached per data row and window across files:
   * the rules ask the same question of each key at each release, and most files share one window.
   */
  across<T>(row: object, tag: string, f: (release: string) => T): T[] {
    return this.perWindow(row, tag, () => this.window.map(f));
  }

  /**
   * f(), cached per data row, tag and window (flavour and releases) across files. The result is shared: callers
   * must not change it.
   */
  perWindow<T>(row: object, tag: string, f: () => T, sub = ''): T {
    // row -> window -> tag -> sub: nested maps, no key strings to build for each of thousands of keys. Bounded:
    // windows come from user configuration, values and table names from user files.
    // Written out, not with memoIn: asked for every key of every file, and a hit allocates nothing this way.
    let byWindow = acrossCache.get(row);
    if (!byWindow) acrossCache.set(row, byWindow = new Map());
    const id = this.windowId;
    let byTag = byWindow.get(id);
    if (!byTag) { if (byWindow.size >= 16) byWindow.clear(); byWindow.set(id, byTag = new Map()); }
    let bySub = byTag.get(tag);
    if (!bySub) byTag.set(tag, bySub = new Map());
    const hit = bySub.get(sub);
    if (hit !== undefined || bySub.has(sub)) return hit as T;
    const v = f();
    if (bySub.size >= 256) bySub.clear();
    bySub.set(sub, v);
    return v;
  }

  /**
   * For each release of the window: the row's type (or allowed values) that release's parser decodes the key
   * with, or undefined where the parser does not read the key.
   */
  decodedAcross<K extends 'types' | 'values'>(row: KataOption, which: K): Array<KataOption[K][number] | undefined> {
    return this.across(row, which, (r) => (this.optionKnown(row, r) === 'parser'
      ? (row[which] as KataOption[K]).find((x: KataOption[K][number]) => x.flavour === this.flavour && inRanged(x, r)) as KataOption[K][number] | undefined
      : undefined));
  }

  /** optionKnown at every release of the window. */
  optionAcross(row: KataOption): Array<'parser' | 'template' | false> {
    return this.across(row, 'known', (r) => this.optionKnown(row, r));
  }

  /** Hypervisor table names a release accepts. */
  hypervisorNames(release: string): string[] {
    return memoIn(this.hypervisorNamesAt, release, () =>
      this.data.hypervisorNames.find((h) => h.flavour === this.flavour && inRanged(h, release))?.names ?? []);
  }
  private hypervisorNamesAt = new Map<string, string[]>();

  sectionRow(name: string): KataSection | undefined {
    const rows = kataIndex(this.data).sections;
    const found = rowAliases(name, true).map((n) => rows.get(n)).filter((x): x is KataSection => !!x);
    return found.find((x) => x.flavours[this.flavour]) ?? found.find((x) => x.templates?.[this.flavour]) ?? found[0];
  }

  /** How the flavour refuses an unknown [hypervisor.<name>] table, in its own words. */
  get hypervisorRefusal(): string {
    return this.flavour === 'go' ? 'invalid hypervisor section' : 'Can not find plugin for hypervisor';
  }

  /** Whether a release reads a table: 'parser', 'template' (only its shipped templates have it), or false. */
  sectionKnown(name: string, release: string): 'parser' | 'template' | false {
    const i = (this.windowIndex ??= new Map(this.window.map((r, j) => [r, j]))).get(release);
    return i === undefined ? this.sectionKnownAt(name, release) : this.sectionAcross(name)[i];
  }
  private windowIndex?: Map<string, number>;

  /** sectionKnown at every release of the window (same order); shared by the files checked with the same window. */
  sectionAcross(name: string): Array<'parser' | 'template' | false> {
    return this.perWindow(this.data, 'sectionAcross', () => this.window.map((r) => this.sectionKnownAt(name, r)), name);
  }

  private sectionKnownAt(name: string, release: string): 'parser' | 'template' | false {
    const parts = name.split('.');
    if (parts[0] === 'hypervisor' && parts.length === 2) {
      if (this.hypervisorNames(release).includes(parts[1])) return 'parser';
    }
    const row = this.sectionRow(name);
    if (!row) return false;
    if (inRange(row.flavours[this.flavour], release)) return 'parser';
    if (inRange(row.templates?.[this.flavour], release)) return 'template';
    return false;
  }

  /** Whether any release of the flavour knows the table at all. */
  sectionEverKnown(name: string): boolean {
    return this.perWindow(this.data, 'sectionEverKnown', () => this.sectionEverKnownAt(name), name);
  }

  private sectionEverKnownAt(name: string): boolean {
    const parts = name.split('.');
    if (parts[0] === 'hypervisor' && parts.length === 2 && this.data.hypervisorNames.some((h) => h.flavour === this.flavour && h.names.includes(parts[1]))) return true;
    const row = this.sectionRow(name);
    return !!row && !!(row.flavours[this.flavour] || row.templates?.[this.flavour]);
  }

  /**
   * The releases of the window at which the parser reads this table but the data does not list its keys (a Go
   * []struct key whose fields the material does not give): a key without a row is not known to be ignored there.
   */
  keysNotListed(section: string): string[] {
    return this.perWindow(this.data, 'keysNotListed', () => {
      const range = this.sectionRow(section)?.keysNotListed?.[this.flavour];
      return range ? this.window.filter((r, i) => inRange(range, r) && this.sectionAcross(section)[i] === 'parser') : [];
    }, section);
  }

  /** Whether the data lists no keys of this table for the flavour at some release (see keysNotListed). */
  keysEverNotListed(section: string): boolean {
    return this.perWindow(this.data, 'keysEverNotListed', () => !!this.sectionRow(section)?.keysNotListed?.[this.flavour], section);
  }

  /** Segments of the longest table name any row (or a hypervisor table) has: a deeper name is never known. */
  get maxSectionDepth(): number {
    return (this.maxSectionDepthMemo ??= this.data.sections.reduce((m, s) => Math.max(m, s.name.split('.').length), 2));
  }
  private maxSectionDepthMemo?: number;

  /** A table that only holds other tables (`[hypervisor]` around `qemu = {…}` or `qemu.path = …`). */
  isContainerTable(name: string): boolean {
    return name === 'hypervisor' || this.data.sections.some((s) => s.name.startsWith(`${name}.`) && !s.name.includes('*'));
  }

  /** The data rows for a key in a table: the table's own row, else the row common to every hypervisor table. */
  optionRow(section: string, key: string): KataOption | undefined {
    // Written out, not with memoIn: asked by several rules for every key of the file; a hit allocates nothing.
    let bySection = this.rowMemo.get(section);
    if (!bySection) this.rowMemo.set(section, bySection = new Map());
    const hit = bySection.get(key);
    if (hit !== undefined || bySection.has(key)) return hit;
    const row = this.sharedRow(section, key);
    bySection.set(key, row);
    return row;
  }
  private rowMemo = new Map<string, Map<string, KataOption | undefined>>();

  /** findRow across files (a row depends on the data, the flavour, the table and the key only): most files of a run
   *  name the same few hundred keys. Bounded: tables and keys come from user files. */
  private sharedRow(section: string, key: string): KataOption | undefined {
    const byFlavour = weakMemoIn(sharedRows, this.data, () => new Map<Flavour, Map<string, Map<string, KataOption | undefined>>>());
    const bySection = memoIn(byFlavour, this.flavour, () => new Map<string, Map<string, KataOption | undefined>>());
    return memoIn(memoIn(bySection, section, () => new Map<string, KataOption | undefined>(), 256), key, () => this.findRow(section, key), 1024);
  }

  private findRow(section: string, key: string): KataOption | undefined {
    const rows = kataIndex(this.data).options;
    // What the parser reads wins over what only a template shows, in the table itself or the table it stands for
    // (every [agent.<name>] reads agent.kata's rows, every hypervisor table the "hypervisor.*" ones).
    const candidates = rowAliases(section).flatMap((s) => rows.get(`${s}\u0000${key}`) ?? []);
    return candidates.find((o) => o.flavours[this.flavour]) ?? candidates.find((o) => o.templates?.[this.flavour]);
  }

  /** Whether a release reads a key: 'parser', 'template' (only its shipped templates have it), or false. */
  optionKnown(row: KataOption, release: string): 'parser' | 'template' | false {
    if (inRange(row.flavours[this.flavour], release)) return 'parser';
    if (inRange(row.templates?.[this.flavour], release)) return 'template';
    return false;
  }

  /** Options a table accepts somewhere (for "did you mean" and completion). */
  optionsOf(section: string): KataOption[] {
    return this.perWindow(this.data, 'optionsOf', () => this.findOptionsOf(section), section).slice();
  }

  private findOptionsOf(section: string): KataOption[] {
    const names = new Set(rowAliases(section));
    return this.data.options.filter((o) => names.has(o.section) && (o.flavours[this.flavour] || o.templates?.[this.flavour]));
  }

  /** Tables where this flavour rejects unknown keys at a release (runtime-rs from 3.29.0). */
  strictAt(section: string, release: string): boolean {
    const d = this.data.fatal.denyUnknownFields[this.flavour as 'runtime-rs'];
    return !!d && inRanged({ from: d.from, to: null }, release) && rowAliases(section).some((s) => d.schemaTables.includes(s));
  }

  /** Whether an unknown [hypervisor.<name>] is fatal at a release (Go from 3.2.0). */
  unknownHypervisorFatal(release: string): boolean {
    const from = this.data.fatal.unknownHypervisorSection[this.flavour];
    return !!from && inRanged({ from, to: null }, release);
  }
}

/**
 * The data rows a table's keys are found under: the table itself, then agent.kata for any [agent.<name>] (both
 * runtimes read every agent table with one struct: runtime-rs keeps a map chosen by runtime.agent_name, the Go
 * runtime loops over all of them), then "hypervisor.*" (and "hypervisor.*.<sub>") for any hypervisor table.
 */
export function rowAliases(section: string, table = false): string[] {
  const parts = section.split('.');
  const out = [section];
  if (parts[0] === 'agent' && parts.length >= 2 && parts[1] !== 'kata') out.push(['agent', 'kata', ...parts.slice(2)].join('.'));
  // A [hypervisor.<name>] table itself is known by its name (hypervisorNames), never through the "hypervisor.*" group.
  if (parts[0] === 'hypervisor' && parts.length >= (table ? 3 : 2) && parts[1] !== '*') out.push(['hypervisor', '*', ...parts.slice(2)].join('.'));
  return out;
}

export function resolveKataWindow(config: ResolvedConfig): { window: string[]; source: SourceInfo; crossing?: KataCrossingWindow } {
  const cw = config.kata.window;
  if (cw) {
    const w = kataWindow(cw.from, cw.to);
    if (w.length && crossesFlavours(cw)) {
      const { before, after } = splitCrossing(cw);
      return { window: [...before, ...after.filter((r) => !before.includes(r))], source: config.kata.source, crossing: { first: cw.fromFlavour, second: cw.toFlavour, before, after } };
    }
    if (w.length) return { window: w, source: config.kata.source };
  }
  const newest = newestKataRelease();
  return { window: [newest], source: { kind: 'default', detail: `the newest Kata release in the data (${newest})` } };
}

/** A window that switches flavour: the first flavour at `before`, the second at `after` (engine/families/kata-config/data/window.ts). */
export interface KataCrossingWindow {
  first: Flavour; second: Flavour; before: string[]; after: string[];
  /** Both flavours read the file at the same releases (two containerd runtimes of one node name it): no switch. */
  sameNode?: boolean;
}
