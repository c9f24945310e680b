import type { Rule, FindingFix, Finding } from '../../../rules/types';
import type { TomlEntry, TomlTable } from '../../../parse/toml';
import type { KataContext } from '../index';
import { KataCrossing, guidePath, inFileTerms, entryIndex, type SideRead } from '../crossing';
import { kataData, inRanged, type Flavour } from '../data';
import { compareVersions } from '../../../versions';
import { flavourName } from '../data/window';
import { quoteValue } from './common';

/** path.join('.') === name, without building the paths of tables too deep to be named so (n keys joined make at least
 * n - 1 characters): inline tables nested N deep would make N paths of up to N keys. */
const namedAs = (t: TomlTable, name: string): boolean => t.depth <= name.length + 1 && t.path.join('.') === name;

/** One line of the upstream migration guide (data/kata/config.json migration.mappings). */
export interface GuideMapping {
  category: string; change: string; go: string | null; runtimeRs: string | string[] | null; fact: string;
  guideErrors?: string[]; codeNote?: string; subKeys?: Record<string, string>; source: string;
  goValuesInCode?: { values: string[] };
}

interface GuideIndex { byGo: Map<string, GuideMapping>; byRs: Map<string, GuideMapping> }
let guideIndex: GuideIndex | undefined;
/** The guide's mappings by Go path and by runtime-rs path ("agent.kata.dial_timeout"), sub-keys of a moved table included. */
export function guide(): GuideIndex {
  if (guideIndex) return guideIndex;
  const byGo = new Map<string, GuideMapping>(), byRs = new Map<string, GuideMapping>();
  for (const m of (kataData() as unknown as { migration: { mappings: GuideMapping[] } }).migration.mappings) {
    if (m.go && !m.go.includes('*')) byGo.set(m.go.replace(/^annotation:/, 'annotation:'), m);
    for (const r of [m.runtimeRs ?? []].flat()) if (!byRs.has(r) || r !== m.go) byRs.set(r, m);
    for (const [g, r] of Object.entries(m.subKeys ?? {})) { byGo.set(g, m); byRs.set(r, m); }
  }
  return (guideIndex = { byGo, byRs });
}

/** Seconds to milliseconds, the unit change of dial_timeout → dial_timeout_ms and cdh_api_timeout → cdh_api_timeout_ms. */
const UNIT: Record<string, { factor: number; goUnit: string; rsUnit: string }> = {
  'rename+unit': { factor: 1000, goUnit: 'seconds', rsUnit: 'milliseconds' },
};

/** The guide's runtime-rs spelling of a Go path (and the Go one of a runtime-rs path), in the guide's terms. */
function counterpart(m: GuideMapping, guideKey: string, from: Flavour): string[] {
  // An added key (runtime-rs's log_level next to enable_debug) stands for nothing of the other side.
  if (['added-key', 'same', 'values', 'rejected-by-plugin', 'rs-only', 'rs-only-table', 'selection-model'].includes(m.change)) return [];
  if (m.subKeys) {
    for (const [g, r] of Object.entries(m.subKeys)) { if (from === 'go' && g === guideKey) return [r]; if (from === 'runtime-rs' && r === guideKey) return [g]; }
  }
  if (from === 'go') return [m.runtimeRs ?? []].flat().filter((r) => r !== guideKey);
  return m.go && !m.go.startsWith('annotation:') && m.go !== guideKey && !m.go.includes('*') ? [m.go] : [];
}

/** The file's own hypervisor and agent table names (the guide writes qemu and kata). */
function tableNames(ctx: KataContext): { hypervisor?: string; agent?: string } {
  const h = ctx.tables.find((t) => t.top[0] === 'hypervisor' && t.depth === 2)?.top[1];
  const a = ctx.tables.find((t) => t.top[0] === 'agent' && t.depth === 2)?.top[1];
  return { hypervisor: h, agent: a };
}

export const rule: Rule<KataCrossing> = {
  id: 'kata/flavour-switch',
  family: 'kata-config',
  defaultSeverity: 'warning',
  title: 'Key the two runtime flavours of the window read differently',
  what: 'Under a window that switches the Kata runtime flavour (`kata: { window: "3.20 (go)..4.1 (runtime-rs)" }`), '
    + 'reports every key one flavour reads and the other ignores, renames, reads in another unit or type, reads from '
    + 'another table, or refuses, with what the other one needs (the upstream migration guide\'s list, checked '
    + 'against the key data of both flavours at every release of the window). A quick fix adds the other flavour\'s '
    + 'spelling where every release of that side reads it and no release of the window refuses the file with both '
    + 'keys in it: both keys present is clean.',
  why: 'During a live upgrade or a rollback, and while RuntimeClasses move one by one, the Go shim and runtime-rs read '
    + 'the same configuration file on one node. A key one of them does not read is silently dropped there: '
    + '`dial_timeout = 30` gives runtime-rs its default agent timeout, `[factory]` templating is off, a numeric '
    + '`hypervisor_loglevel` sets nothing; a key a strict table does not know (runtime-rs `[agent.<name>]` from 3.29.0) '
    + 'stops the file from loading at all.',
  bad: { filename: 'configuration-qemu.toml', text: '[agent.kata]\ndial_timeout = 30\n', options: 'Kata 3.20 (go)..3.28 (runtime-rs)' },
  good: { filename: 'configuration-qemu.toml', text: '[agent.kata]\ndial_timeout = 30\ndial_timeout_ms = 30000\n', options: 'Kata 3.20 (go)..3.28 (runtime-rs)' },
  fix: 'suggestion',
  sources: [
    'kata-containers docs/migrating-config-go-runtime-to-runtime-rs.md at 4.0.0 and 4.1.0 (go-to-runtime-rs.json, data/kata/config.json migration)',
    'runtime-rs-config-keys.json per tag 3.0.0 … 4.1.0 (kata-types serde structures)',
    'go-runtime-config-keys.json (src/runtime/pkg/katautils/config.go per tag)',
  ],
  check(x, report) {
    const g = guide();
    const entries = entryIndex(x.toml);
    const names = tableNames(x.first);
    const reportedTables = new Set<string>();
    for (const e of x.toml.entries) {
      const section = e.table.join('.');
      const key = e.key.join('.');
      const gp = guidePath(section, key);
      const reads = new Map<Flavour, SideRead>(x.sides.map((c) => [c.flavour, x.read(c, section, key)]));
      const go = reads.get('go')!, rs = reads.get('runtime-rs')!;
      // One side reads the table without the data listing its keys: what it does with this key is not known (its
      // kata/unknown-option says not checked), so no difference between the sides is claimed.
      if (go.unlisted.length || rs.unlisted.length) continue;
      const m = g.byGo.get(gp) ?? g.byRs.get(gp);
      const goCtx = x.side('go'), rsCtx = x.side('runtime-rs');
      // Values and plugin refusals: both read the key.
      if (m && m.change === 'values' && go.read.length && rs.read.length) { valueFinding(x, e, m, report); continue; }
      if (m && m.change === 'rejected-by-plugin' && rs.read.length) { pluginRefusal(x, e, m, report); continue; }
      if (!!go.read.length === !!rs.read.length) continue; // both read it, or neither (the usual rules say so)
      const reader: Flavour = go.read.length ? 'go' : 'runtime-rs';
      const readerCtx = reader === 'go' ? goCtx : rsCtx;
      const otherCtx = reader === 'go' ? rsCtx : goCtx;
      const other = reader === 'go' ? rs : go;
      // A table the other side does not know at all: said once at its header (its keys follow).
      const tableUnknown = x.tableKnown(otherCtx, section).every((k) => !k) && section !== '';
      if (tableUnknown && reader === 'runtime-rs') {
        if (reportedTables.has(section)) continue;
        reportedTables.add(section);
        const t = x.toml.tables.find((tt) => namedAs(tt, section));
        report({
          message: `${x.who(otherCtx)} ${'does not read'} the table [${section}] (only runtime-rs has it${m ? `: ${m.fact}` : ''}); its keys apply only after the switch`,
          range: t?.headerRange ?? e.keyRange, severity: 'info', data: { section, flavourReading: reader },
        });
        continue;
      }
      const cps = m ? counterpart(m, gp, reader) : [];
      const present = cps.map((c) => inFileTerms(c, names.hypervisor, names.agent)).filter((c) => entries.has(`${c.section}\u0000${c.key}`) || (c.section === section && entries.has(`${section}\u0000${c.key}`)));
      const refused = other.refused;
      const conv = m ? UNIT[m.change] : undefined;
      if (present.length && !refused.length) {
        // Both spellings are there: clean, unless they disagree after the unit change.
        if (conv) {
          const pe = entries.get(`${present[0].section}\u0000${present[0].key}`)!;
          const [goV, rsV] = reader === 'go' ? [e.value, pe.value] : [pe.value, e.value];
          if (typeof goV === 'number' && typeof rsV === 'number' && goV * conv.factor !== rsV && reader === 'go') {
            report({
              message: `${key} = ${quoteValue(String(goV))} (${conv.goUnit}, ${x.who(goCtx)}) and ${present[0].key} = ${rsV} (${conv.rsUnit}, ${x.who(rsCtx)}) disagree: the two runtimes of the window wait ${goV} s and ${rsV / 1000} s`,
              range: e.keyRange, data: { key, counterpart: present[0].key },
            });
          }
        }
        continue;
      }
      const parts: string[] = [];
      const readsWho = x.who(readerCtx, reader === 'go' ? go.read : rs.read);
      if (refused.length) parts.push(`${x.who(otherCtx, refused)} refuse${refused.length === 1 ? 's' : ''} the file because of ${key} in [${section}] (unknown keys are fatal there)`);
      const ignoredBy = other.notRead.filter((r) => !refused.includes(r));
      if (ignoredBy.length) parts.push(`${x.who(otherCtx, ignoredBy)} ignore${ignoredBy.length === 1 ? 's' : ''} ${key}${section ? ` in [${section}]` : ''}`);
      let advice = '';
      let fix: FindingFix | undefined;
      let severity: Finding['severity'] = refused.length ? 'error' : reader === 'go' ? undefined : 'info';
      if (cps.length && m) {
        const target = inFileTerms(cps[0], names.hypervisor, names.agent);
        if (target.section === guidePath(section) && section !== target.section) target.section = section;
        const targetRead = x.read(otherCtx, target.section, target.key);
        const all = targetRead.read.length === otherCtx.window.length;
        const value = convertValue(m, e, reader, otherCtx);
        advice = `; ${flavourName(otherCtx.flavour)} reads ${m.change === 'values' ? 'it' : `${target.key}${target.section !== section ? ` in [${target.section}]` : ''}`} instead`
          + (conv ? ` (in ${reader === 'go' ? conv.rsUnit : conv.goUnit}, ${reader === 'go' ? conv.goUnit : conv.rsUnit} here)` : '')
          + (value.text !== undefined ? `: ${target.key} = ${value.text}` : value.why ? ` (${value.why})` : '')
          + (all ? '' : `, but ${describe(otherCtx, targetRead.notRead)} do${targetRead.notRead.length === 1 ? 'es' : ''} not read ${target.key} either`);
        // The other side's spelling next to this one: only where the other side reads it at every release, and this key
        // does not make the other side refuse the file (then no one file serves both: keep one per flavour).
        if (value.text !== undefined && all && !refused.length && !reader.startsWith('runtime-rs-only')) {
          const ownRefused = x.read(readerCtx, target.section, target.key).refused;
          if (!ownRefused.length) fix = insertFix(x, e, target, value.text, otherCtx.flavour);
          else advice += `; adding it would make ${x.who(readerCtx, ownRefused)} refuse the file`;
        }
        if (reader === 'runtime-rs' && !fix) severity = refused.length ? 'error' : 'warning';
        else if (reader === 'runtime-rs') severity = 'warning';
      } else if (m) {
        advice = `; ${m.fact}${m.guideErrors?.length ? ` (the guide: ${m.guideErrors[0]})` : ''}`;
      } else {
        advice = `; the migration guide names no ${flavourName(otherCtx.flavour)} key for it`;
      }
      if (m?.change === 'different-model' && m.guideErrors?.length) advice += `; note: ${m.guideErrors[0]}`;
      if (refused.length) advice += '; no single file serves both: keep one configuration file per flavour (each containerd runtime entry names its own ConfigPath)';
      report({
        message: `${key}, which ${readsWho} read${(reader === 'go' ? go.read : rs.read).length === 1 ? 's' : ''}: ${parts.join('; ')}${advice}`,
        range: e.keyRange,
        severity,
        fixes: fix ? [fix] : [],
        data: { key, section, flavourReading: reader, guide: m ? `${m.category}/${m.change}` : null, counterpart: cps[0] ?? null, refusedIn: refused },
      });
    }
  },
};

const describe = (ctx: KataContext, rs: string[]) => `${flavourName(ctx.flavour)} ${rs.join(', ')}`;

/** The value to write under the other spelling, or why there is none. */
function convertValue(m: GuideMapping, e: TomlEntry, reader: Flavour, otherCtx: KataContext): { text?: string; why?: string } {
  const v = e.value;
  if (m.change === 'rename' || m.change === 'rename+move' || m.change === 'move-table') return { text: literal(v) };
  if (m.change === 'rename+unit') {
    if (typeof v !== 'number' || !Number.isInteger(v)) return { why: 'its value is not a whole number' };
    if (reader === 'go') return { text: String(v * 1000) };
    return v % 1000 === 0 ? { text: String(v / 1000) } : { why: `${v} ms is not a whole number of seconds` };
  }
  if (m.change === 'move') {
    // create_container_timeout: seconds in both from runtime-rs 3.21.0; 3.19.0–3.20.0 keep the number as milliseconds.
    const early = otherCtx.flavour === 'runtime-rs' ? otherCtx.window.filter((r) => compareVersions(r, '3.21.0') < 0) : [];
    if (early.length) return { why: `runtime-rs ${early.join(', ')} read the number as milliseconds (the seconds conversion starts at 3.21.0)` };
    return { text: literal(v) };
  }
  if (m.change === 'rename+type') return { why: `${reader === 'go' ? 'a number there, a string here' : 'a string there, a number here'}: the guide gives no mapping between the two` };
  if (m.change === 'bool-to-list-entry') {
    return { why: reader === 'go' && v === true ? 'add "force_guest_pull" to runtime.experimental; whether every Go release accepts that entry in its own experimental list is not in the data, so no fix is offered' : 'the list entry and the boolean are different models' };
  }
  if (m.change === 'different-model') return { why: 'a different model, not a rename' };
  return {};
}

const literal = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(literal).join(', ')}]` : String(v));

/** Inserts `key = value` after the entry (same table), after the target table's header, or as a new table at the end. */
function insertFix(x: KataCrossing, e: TomlEntry, target: { section: string; key: string }, value: string, forFlavour: Flavour): FindingFix {
  const text = x.toml.text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lineEnd = (at: number) => { let i = at; while (i < text.length && text[i] !== '\n') i++; return i < text.length ? i + 1 : i; };
  const title = `Add ${target.key} = ${value}${target.section !== e.table.join('.') ? ` in [${target.section}]` : ''} for ${flavourName(forFlavour)} (keeps ${e.key.join('.')})`;
  if (target.section === e.table.join('.')) {
    const at = lineEnd(e.range.end);
    const pre = at === text.length && !text.endsWith('\n') ? eol : '';
    return { title, edits: [{ range: { start: at, end: at }, newText: `${pre}${target.key} = ${value}${eol}` }], destructive: false };
  }
  const t = x.toml.tables.find((tt) => namedAs(tt, target.section) && tt.kind === 'standard');
  if (t) {
    const at = lineEnd(t.headerRange.end);
    return { title, edits: [{ range: { start: at, end: at }, newText: `${target.key} = ${value}${eol}` }], destructive: false };
  }
  const pre = text.length && !text.endsWith('\n') ? eol : '';
  return { title, edits: [{ range: { start: text.length, end: text.length }, newText: `${pre}${eol}[${target.section}]${eol}${target.key} = ${value}${eol}` }], destructive: false };
}

/** block_device_driver: both read it, with different value sets (the guide leaves out two Go values). */
function valueFinding(x: KataCrossing, e: TomlEntry, m: GuideMapping, report: (f: Finding) => void) {
  const v = e.value;
  if (typeof v !== 'string') return;
  const accepted = (ctx: KataContext) => {
    const row = ctx.optionRow(e.table.join('.'), e.key.join('.'));
    const bad: string[] = [];
    let list: unknown[] = [];
    for (const r of ctx.window) {
      const vs = row?.values.find((y) => y.flavour === ctx.flavour && inRanged(y, r));
      if (vs) { list = vs.enum; if (!vs.enum.includes(v)) bad.push(r); }
    }
    return { bad, list };
  };
  const go = accepted(x.side('go')), rs = accepted(x.side('runtime-rs'));
  if (!go.bad.length && !rs.bad.length) return;
  const spell = GO_TO_RS_DRIVER[v] ?? Object.entries(GO_TO_RS_DRIVER).find(([, r]) => r === v)?.[0];
  const both = go.list.filter((y) => rs.list.includes(y));
  const parts = [];
  if (go.bad.length) parts.push(`${x.who(x.side('go'), go.bad)} refuse${go.bad.length === 1 ? 's' : ''} it (accepts ${go.list.join(', ')})`);
  if (rs.bad.length) parts.push(`${x.who(x.side('runtime-rs'), rs.bad)} refuse${rs.bad.length === 1 ? 's' : ''} it (accepts ${rs.list.join(', ')})`);
  report({
    message: `${e.key.join('.')} = "${v}": ${parts.join('; ')}`
      + (spell ? `; the other flavour spells this driver "${spell}"` : '')
      + `; ${both.length ? `only ${both.join(' and ')} ${both.length === 1 ? 'is' : 'are'} read by both, a different driver` : 'no value is read by both'}, so no fix is offered: keep one configuration file per flavour`
      + (m.guideErrors?.length ? ` (the migration guide's Go list leaves out virtio-mmio and virtio-blk-ccw, which the Go runtime accepts)` : ''),
    range: e.valueRange, severity: 'error', data: { key: 'block_device_driver', value: v, goRefuses: go.bad, rsRefuses: rs.bad },
  });
}

/** The Go driver names and runtime-rs's names for the same drivers (runtime-rs 3.0.0–3.1.3 used the Go names; the
 * -pci/-mmio/-pmem names start at 3.2.0: data/kata/config.json migration, block_device_driver). */
const GO_TO_RS_DRIVER: Record<string, string> = { 'virtio-blk': 'virtio-blk-pci', 'virtio-mmio': 'virtio-blk-mmio', nvdimm: 'virtio-pmem' };

/** enable_guest_swap = true: runtime-rs's QEMU plugin refuses it from 3.15.0 (the guide; codeNote). */
function pluginRefusal(x: KataCrossing, e: TomlEntry, m: GuideMapping, report: (f: Finding) => void) {
  if (e.value !== true || e.table[1] !== 'qemu') return;
  const rsCtx = x.side('runtime-rs');
  const late = rsCtx.window.filter((r) => compareVersions(r, '3.15.0') >= 0);
  if (!late.length) return;
  report({
    message: `${e.key.join('.')} = true: ${x.who(rsCtx, late)} refuse${late.length === 1 ? 's' : ''} it for QEMU (its QEMU plugin's validation; ${m.codeNote ?? ''}), while ${x.who(x.side('go'))} use${x.side('go').window.length === 1 ? 's' : ''} guest swap; no single file serves both: keep one configuration file per flavour`,
    range: e.valueRange, severity: 'error', data: { key: e.key.join('.'), refusedIn: late },
  });
}
