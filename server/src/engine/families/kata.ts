// Kata Containers configuration*.toml: recognition, flavour, window and the per-file context its rules read.
import * as path from 'node:path';
import type { TomlFile, TomlEntry, TomlTable } from '../parse/toml';
import type { SourceInfo } from '../types';
import type { ResolvedConfig } from '../config';
import { compareVersions } from '../versions';
import {
  kataData, kataWindow, newestKataRelease, inRange, type Flavour, type KataOption, type KataSection,
} from '../kata/data';

export function isKataName(file: string): boolean {
  const base = path.basename(file);
  if (!/\.toml$/i.test(base)) return false;
  if (/^configuration.*\.toml$/i.test(base)) return true;
  return path.basename(path.dirname(file)) === 'config.d';
}

export const isDropIn = (file: string) => path.basename(path.dirname(file)) === 'config.d';

/** The runtime flavour a file is for, from the configuration, its name, or its sections. */
export function detectFlavour(file: string, toml: TomlFile | undefined, config: ResolvedConfig): { flavour: Flavour; source: SourceInfo } {
  if (config.kata.flavour === 'go' || config.kata.flavour === 'runtime-rs') {
    return { flavour: config.kata.flavour, source: config.kata.flavourSource ?? { kind: 'config', detail: 'kata.flavour' } };
  }
  const base = path.basename(file);
  if (/runtime-rs|dragonball|(^|-)rs-/.test(base) || /[\\/]runtime-rs[\\/]/.test(file)) {
    return { flavour: 'runtime-rs', source: { kind: 'workspace', detail: `file name ${base}` } };
  }
  const rsOnly = toml?.tables.find((t) => t.path[0] === 'hypervisor' && ['dragonball', 'cloud-hypervisor', 'openvmm'].includes(t.path[1]));
  if (rsOnly) return { flavour: 'runtime-rs', source: { kind: 'workspace', detail: `its [${rsOnly.path.join('.')}] table` } };
  return { flavour: 'go', source: { kind: 'default', detail: 'the Go runtime (no flavour in the configuration, the file name or its tables)' } };
}

export interface KataKey {
  entry: TomlEntry;
  section: string;
  key: string;
  /** The literal text of the value, to tell 1 from 1.0. */
  valueText: string;
}

export class KataContext {
  readonly keys: KataKey[];
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

  get data() { return kataData(); }
  get windowText(): string {
    const w = this.window;
    return w.length > 1 ? `${w[0]}..${w[w.length - 1]}` : w[0];
  }
  get flavourName(): string { return this.flavour === 'go' ? 'Go runtime' : 'runtime-rs'; }
  get tables(): TomlTable[] { return this.toml.tables; }

  /** Hypervisor table names a release accepts. */
  hypervisorNames(release: string): string[] {
    const r = this.data.hypervisorNames.find((h) => h.flavour === this.flavour && compareIn(h.from, h.to, release));
    return r?.names ?? [];
  }

  sectionRow(name: string): KataSection | undefined {
    return this.data.sections.find((s) => s.name === name);
  }

  /** Whether a release reads a table: 'parser', 'template' (only its shipped templates have it), or false. */
  sectionKnown(name: string, release: string): 'parser' | 'template' | false {
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
    const parts = name.split('.');
    if (parts[0] === 'hypervisor' && parts.length === 2 && this.data.hypervisorNames.some((h) => h.flavour === this.flavour && h.names.includes(parts[1]))) return true;
    const row = this.sectionRow(name);
    return !!row && !!(row.flavours[this.flavour] || row.templates?.[this.flavour]);
  }

  /** A table that only holds other tables (`[hypervisor]` around `qemu = {…}` or `qemu.path = …`). */
  isContainerTable(name: string): boolean {
    return name === 'hypervisor' || this.data.sections.some((s) => s.name.startsWith(`${name}.`) && !s.name.includes('*'));
  }

  /** The data rows for a key in a table: the table's own row, else the row common to every hypervisor table. */
  optionRow(section: string, key: string): KataOption | undefined {
    const rows = this.data.options;
    const own = rows.find((o) => o.section === section && o.key === key && (o.flavours[this.flavour] || o.templates?.[this.flavour]));
    if (own) return own;
    const parts = section.split('.');
    if (parts[0] === 'hypervisor' && parts.length === 2) {
      return rows.find((o) => o.section === 'hypervisor.*' && o.key === key && (o.flavours[this.flavour] || o.templates?.[this.flavour]));
    }
    return undefined;
  }

  /** Whether a release reads a key: 'parser', 'template' (only its shipped templates have it), or false. */
  optionKnown(row: KataOption, release: string): 'parser' | 'template' | false {
    if (inRange(row.flavours[this.flavour], release)) return 'parser';
    if (inRange(row.templates?.[this.flavour], release)) return 'template';
    return false;
  }

  /** Options a table accepts somewhere (for "did you mean" and completion). */
  optionsOf(section: string): KataOption[] {
    const parts = section.split('.');
    const generic = parts[0] === 'hypervisor' && parts.length === 2;
    return this.data.options.filter((o) => (o.section === section || (generic && o.section === 'hypervisor.*')) && (o.flavours[this.flavour] || o.templates?.[this.flavour]));
  }

  /** Tables where this flavour rejects unknown keys at a release (runtime-rs from 3.29.0). */
  strictAt(section: string, release: string): boolean {
    const d = this.data.fatal.denyUnknownFields[this.flavour as 'runtime-rs'];
    return !!d && compareIn(d.from, null, release) && d.schemaTables.includes(section);
  }

  /** Whether an unknown [hypervisor.<name>] is fatal at a release (Go from 3.2.0). */
  unknownHypervisorFatal(release: string): boolean {
    const from = this.data.fatal.unknownHypervisorSection[this.flavour];
    return !!from && compareIn(from, null, release);
  }
}

function compareIn(from: string, to: string | null, release: string): boolean {
  return compareVersions(release, from) >= 0 && (to === null || compareVersions(release, to) <= 0);
}

export function resolveKataWindow(config: ResolvedConfig): { window: string[]; source: SourceInfo } {
  if (config.kata.window) {
    const w = kataWindow(config.kata.window.from, config.kata.window.to);
    if (w.length) return { window: w, source: config.kata.source };
  }
  const newest = newestKataRelease();
  return { window: [newest], source: { kind: 'default', detail: `the newest Kata release in the data (${newest})` } };
}
