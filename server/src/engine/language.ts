// Hover and completion over an analysed file. Pure: positions in, markdown and items out.
import type { AnalyzeResult } from './analyze';
import type { Position, Range } from './types';
import { LineIndex, own } from './text';
import { versionStates, type StarlingxContext } from './families/starlingx';
import { starlingxKeys, starlingxReleases, schemaPath } from './data';
import { schemaFor } from './schema';
import { compareVersions } from './versions';
import type { KubernetesContext, ContainerImage } from './families/kubernetes';
import { versionRow, standingAt, kubeMinorOfTag } from './kubernetes/components';
import { KataContext, detectFlavour, resolveKataWindow } from './families/kata';
import { describeReleases } from './kata/data';
import type { PersistContext } from './families/kata-persist';
import { describeRanges as describeRangesP } from './kata/persist';
import { parseTomlText } from './parse/toml';
import { findRow } from './kubernetes/lifecycle';

export interface HoverResult { markdown: string; range: Range }

export function hover(result: AnalyzeResult, text: string, pos: Position): HoverResult | undefined {
  if (result.family === 'starlingx' && result.stx) return stxHover(result.stx, text, pos);
  if (result.family === 'kubernetes' && result.k8s) return k8sHover(result.k8s, text, pos);
  if (result.family === 'kata-config' && result.kata) return kataHover(result.kata, text, pos);
  if (result.family === 'kata-persist' && result.persist) return persistHover(result.persist, text, pos);
  return undefined;
}

function persistHover(ctx: PersistContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const first = ctx.json.topLevelKeys()[0];
  const entries = ctx.present.map((p) => ({ p, loc: ctx.json.locate(p.path) })).filter((x) => x.loc.key && off >= x.loc.key.start && off <= x.loc.key.end);
  const hit = entries[entries.length - 1];
  const out: string[] = [];
  if (first && off >= first.range.start && off <= first.range.end) {
    const eras = ctx.eras();
    out.push(`**Kata ${ctx.kind} persist.json** — layout era${eras.length === 1 ? '' : 's'}: ${eras.length ? eras.map((e) => `${e} (written by ${ctx.eraRange(e)})`).join(', ') : 'none matches (fields from different eras)'}`, '');
    out.push(`Window ${ctx.windowText} (${ctx.windowSource.kind}: ${ctx.windowSource.detail}).`, '');
  }
  if (hit) {
    const f = hit.p.field!;
    out.push(`**${f.path.join('.')}**${f.meaning ? ` — ${f.meaning}` : ''}`, '');
    out.push(`Written by ${describeRangesP(f.writtenBy)}; read by ${describeRangesP(f.readBy)}.`);
    const types = f.types.map((t) => `${t.type}${t.nullable ? ' or null' : ''} (${t.from}–${t.to ?? 'today'})`);
    if (types.length) out.push(`Type: ${types.join(', ')}.`);
    // A rename is listed on both of its fields: this one is either its old name or its new one.
    const self = f.path.join('.');
    const renames = new Set<string>();
    for (const r of f.renames) {
      if (r.to.join('.') === self) renames.add(`Renamed from \`${r.from.join('.')}\` in ${r.in}.`);
      if (r.from.join('.') === self) renames.add(`Renamed to \`${r.to.join('.')}\` in ${r.in}.`);
    }
    for (const r of renames) out.push(r);
    const notRead = ctx.window.filter((r) => !ctx.reads(f, r));
    out.push('', notRead.length ? `✗ dropped on read by ${describeReleases(notRead, ctx.window)}: ${f.lostOnRead ?? 'its value is lost'}` : `✓ read by every release of the window ${ctx.windowText}`);
    if (f.note) out.push('', `Note: ${f.note}`);
    if (f.source) out.push('', `Source: ${f.source}`);
    return { markdown: out.join('\n'), range: lines.range(hit.loc.key!.start, hit.loc.key!.end) };
  }
  return out.length && first ? { markdown: out.join('\n'), range: lines.range(first.range.start, first.range.end) } : undefined;
}

function kataHover(ctx: KataContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const within = (r: { start: number; end: number }) => off >= r.start && off <= r.end;
  const table = ctx.tables.find((t) => within(t.headerRange));
  if (table) {
    const name = table.path.join('.');
    const row = ctx.sectionRow(name);
    const out = [`**[${name}]** — Kata Containers ${ctx.flavourName}`, ''];
    if (row?.doc) out.push(row.doc, '');
    out.push(windowLine(ctx, (r) => ctx.sectionKnown(name, r)));
    if (row?.note) out.push('', `Note: ${row.note}`);
    return { markdown: out.join('\n'), range: lines.range(table.headerRange.start, table.headerRange.end) };
  }
  const k = ctx.keys.find((x) => within(x.entry.keyRange) || within(x.entry.valueRange));
  if (!k) return undefined;
  const row = ctx.optionRow(k.section, k.key);
  const out = [`**${k.key}** in [${k.section}] — Kata Containers ${ctx.flavourName}`, ''];
  if (!row) {
    out.push(`No ${ctx.flavourName} release reads this key here.`);
  } else {
    if (row.doc) out.push(row.doc.replace(/\n/g, '  \n'), '');
    const types = row.types.filter((t) => t.flavour === ctx.flavour).map((t) => `${t.type}${t.items ? ` of ${t.items}` : ''} (${t.from}–${t.to ?? 'today'})`);
    if (types.length) out.push(`Type: ${types.join(', ')}.`);
    const vals = row.values.filter((v) => v.flavour === ctx.flavour).map((v) => `${v.enum.map((x) => `\`${x}\``).join(', ')} (${v.from}–${v.to ?? 'today'}${v.fatal ? ', others fatal' : ''})`);
    if (vals.length) out.push(`Values: ${vals.join('; ')}.`);
    if (row.default !== undefined && row.default !== null) out.push(`Default: \`${JSON.stringify(row.default)}\`.`);
    const fl = row.flavours[ctx.flavour];
    out.push(fl ? `Read by ${ctx.flavourName} ${fl.first}–${fl.last ?? 'today'}${fl.missingIn?.length ? ` (not in ${describeReleases(fl.missingIn, ctx.data.releases)})` : ''}.` : `Only in ${ctx.flavourName} templates, not read by its parser.`);
    for (const r of row.renamedTo ?? []) if (r.flavour === ctx.flavour) out.push(`Renamed to \`${r.key}\` in ${r.in}${r.mapping ? ` (${r.mapping})` : ''}.`);
    out.push('', windowLine(ctx, (r) => ctx.optionKnown(row, r)));
    if (row.sources?.length) out.push('', `Sources: ${row.sources.join('; ')}`);
  }
  const r = within(k.entry.keyRange) ? k.entry.keyRange : k.entry.valueRange;
  return { markdown: out.join('\n'), range: lines.range(r.start, r.end) };
}

/** "Window 3.2.0..3.32.0 (source): read by 3.2.0–3.9.0; ignored by 3.10.0–3.32.0". */
function windowLine(ctx: KataContext, known: (release: string) => 'parser' | 'template' | false): string {
  const by = { parser: [] as string[], template: [] as string[], no: [] as string[] };
  for (const r of ctx.window) { const k = known(r); (k === 'parser' ? by.parser : k === 'template' ? by.template : by.no).push(r); }
  const parts = [];
  if (by.parser.length) parts.push(`✓ read by ${describeReleases(by.parser, ctx.window)}`);
  if (by.template.length) parts.push(`⚠ only in the templates of ${describeReleases(by.template, ctx.window)}`);
  if (by.no.length) parts.push(`✗ ignored by ${describeReleases(by.no, ctx.window)}`);
  return `Window ${ctx.windowText} (${ctx.windowSource.kind}: ${ctx.windowSource.detail}): ${parts.join('; ')}.`;
}

function k8sHover(ctx: KubernetesContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const within = (r: { start: number; end: number }) => off >= r.start && off <= r.end;
  const img = ctx.images().find((i) => within(i.range));
  if (img?.component) return { markdown: imageHover(ctx, img), range: lines.range(img.range.start, img.range.end) };
  const o = ctx.objects.find((x) => within(x.apiVersionRange) || within(x.kindRange));
  if (!o) return undefined;
  const range = within(o.apiVersionRange) ? o.apiVersionRange : o.kindRange;
  return { markdown: apiTimeline(ctx, o.apiVersion, o.kind), range: lines.range(range.start, range.end) };
}

/** A component image: what upstream validates it for, with the window's versions marked, and the source. */
function imageHover(ctx: KubernetesContext, img: ContainerImage): string {
  const c = img.component!;
  const out = [`**${c.name}** \`${img.ref.tag ?? '(no tag)'}\``, ''];
  if (c.versionIsKubernetes) {
    const m = kubeMinorOfTag(img.ref.tag);
    out.push(`A Kubernetes component: its version is the Kubernetes version${m ? ` ${m}` : ''}; checked against the version-skew policy.`);
    return out.join('\n');
  }
  if (!img.ref.tag) {
    out.push(`No tag${img.ref.digest ? ' (pinned by digest only)' : ''}: the version cannot be read from the image, so it is not checked.`);
    return out.join('\n');
  }
  const row = versionRow(c, img.ref.tag);
  if (!row) {
    out.push(c.versions.length ? `Version not in the data (${c.versions.map((v) => v.version).join(', ')} are).` : `Upstream publishes no Kubernetes matrix for ${c.name}.`);
    return out.join('\n');
  }
  const k = row.kubernetes;
  const silent = c.upstreamMatrix === 'none' || row.upstreamMatrix === 'none';
  // Upstream silent (Multus, SR-IOV): nothing to mark per step, and the rule does not report it.
  if (silent) out.push(`Upstream publishes no Kubernetes matrix for ${c.name}: not checked against the window ${ctx.windowText}.`);
  else out.push(`Upstream (${row.upstreamMatrix}): validated for ${k.validated.length ? k.validated.join(', ') : 'no version'}${k.documented.length ? `; documented for ${k.documented.join(', ')}` : ''}${k.mayWork?.length ? `; may work (not tested) on ${k.mayWork.join(', ')}` : ''}${k.incompatible.length ? `; incompatible with ${k.incompatible.join(', ')}` : ''}.`, '');
  if (!silent) {
    out.push(`Window ${ctx.windowText} (${ctx.window.source.kind}: ${ctx.window.source.detail}):`, '');
    out.push(`| ${ctx.minors.join(' | ')} |`, `|${ctx.minors.map(() => '---').join('|')}|`);
    const mark = { validated: '✓ validated', documented: '✓ documented', incompatible: '✗ incompatible', unlisted: '⚠ not listed' } as const;
    const markAt = (m: string) => (standingAt(row, m) === 'unlisted' && k.mayWork?.includes(m) ? '⚠ may work (not tested)' : mark[standingAt(row, m)]);
    out.push(`| ${ctx.minors.map(markAt).join(' | ')} |`);
  }
  if (k.starlingx?.length) out.push('', `StarlingX ships it on Kubernetes ${k.starlingx.join(', ')}.`);
  if (row.note) out.push('', `Note: ${row.note}`);
  const src = row.evidence.map((e) => e.source && `${e.source.repo} ${e.source.path}${e.source.tag ? ` @ ${e.source.tag}` : ''}`).filter(Boolean);
  if (src.length) out.push('', `Sources: ${[...new Set(src)].join('; ')}`);
  return out.join('\n');
}

/** The lifecycle of an apiVersion/kind with the window's versions marked. */
export function apiTimeline(ctx: KubernetesContext, apiVersion: string, kind: string): string {
  const row = findRow(ctx.rows, apiVersion, kind);
  const out = [`**${apiVersion} ${kind}**`, ''];
  if (!row || (row.component ?? 'k8s') !== 'k8s') {
    out.push(row ? `Versioned by ${row.component}, not by Kubernetes minors: not checked against the Kubernetes window.` : 'Not in the lifecycle data (a CRD or an unknown API): not checked. Add a row under `kubernetes.additionalVersions` in `.skewguard.yaml` to check it.');
    return out.join('\n');
  }
  const parts = [
    `introduced ${row.introduced ?? 'before 1.16 (exact release not in the data)'}`,
    row.deprecated ? `deprecated ${row.deprecated}` : 'not deprecated',
    row.removed ? `removed ${row.removed}` : 'not removed',
  ];
  if (row.replacement) parts.push(`replacement ${row.replacement}${row.replacementAvailable ? ` (available ${row.replacementAvailable})` : ''}`);
  out.push(parts.join(' · '), '');
  out.push(`Window ${ctx.windowText} (${ctx.window.source.kind}: ${ctx.window.source.detail}):`, '');
  const steps = ctx.steps(row);
  out.push(`| ${steps.map((s) => s.minor).join(' | ')} |`, `|${steps.map(() => '---').join('|')}|`);
  out.push(`| ${steps.map((s) => (s.removed ? '✗ removed' : !s.served ? '✗ not yet' : s.deprecated ? '⚠ deprecated' : '✓ served')).join(' | ')} |`, '');
  const common = ctx.common(kind);
  out.push(common.length ? `Served by every version of the window: ${common.map((a) => `\`${a}\``).join(', ')}.` : `**No apiVersion of ${kind} is served by every version of the window.**`);
  if (row.migrationNote) out.push('', `Migration: ${row.migrationNote}`);
  if (row.note) out.push('', `Note: ${row.note}`);
  if (row.sources?.length) out.push('', `Sources: ${row.sources.join('; ')}`);
  return out.join('\n');
}

function stxHover(ctx: StarlingxContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const entry = ctx.doc.topLevelEntries().find((e) => (off >= e.keyRange.start && off <= e.keyRange.end) || (off >= e.valueRange.start && off <= e.valueRange.end));
  if (!entry) return undefined;
  const range = lines.range(entry.keyRange.start, entry.keyRange.end);
  if (entry.key === 'kubernetes_version') return { markdown: kubeVersionHover(ctx), range };
  const rel = ctx.release.release;
  const schemaProp = own<any>(ctx.schema?.properties, entry.key);
  const row = starlingxKeys().keys.find((k) => k.key === entry.key);
  if (!row) return undefined;
  const parts = [`**${entry.key}** — StarlingX bootstrap override`, ''];
  parts.push(row.description || '');
  parts.push('');
  if (schemaProp) {
    const d = schemaProp.default ?? row.defaults?.[rel];
    parts.push(`Read by StarlingX ${rel}${d !== undefined ? `; default: \`${JSON.stringify(d)}\`` : ''}.`);
    if (Array.isArray(schemaProp.enum)) parts.push(`Allowed: ${schemaProp.enum.map((x: unknown) => `\`${x}\``).join(', ')}.`);
  } else {
    parts.push(`**Not read by StarlingX ${rel}.**`);
  }
  parts.push(`Releases that read it: ${row.releases.join(', ')}.`);
  return { markdown: parts.join('\n'), range };
}

export function kubeVersionHover(ctx: StarlingxContext): string {
  const rel = ctx.release;
  const kv = ctx.kubernetesVersion();
  const chosen = kv?.normalised && ctx.shipped.includes(kv.normalised) ? kv.normalised : undefined;
  const installed = chosen ?? rel.default;
  const out = [`**kubernetes_version** — StarlingX ${rel.release} (${ctx.releaseSource.kind}: ${ctx.releaseSource.detail})`, ''];
  if (rel.override === 'not-supported') out.push(`StarlingX ${rel.release} does not honour this override: ${rel.overrideNote ?? ''}`, '');
  if (!chosen && kv?.text) out.push(`\`${kv.text}\` is not shipped by this release; states below assume the default ${rel.default}.`, '');
  out.push(`States in \`system kube-version-list\` right after installing **${installed}**:`, '', '| version | state | |', '|---|---|---|');
  for (const s of versionStates(rel, installed)) {
    const marks = [s.version === rel.default ? 'default' : '', s.note ?? ''].filter(Boolean).join('; ');
    out.push(`| ${s.version} | ${s.state} | ${marks} |`);
  }
  const path = ctx.upgradesAfter(installed);
  out.push('');
  out.push(path.length ? `Upgrade path to the newest, one minor at a time: ${[installed, ...path].join(' → ')} (${path.length} upgrade${path.length === 1 ? '' : 's'}).` : `${installed} is the newest version this release ships.`);
  out.push('', 'Write it as plain `X.Y.Z` (no `v`): it names the directory `/usr/local/kubernetes/X.Y.Z`.');
  return out.join('\n');
}

export interface CompletionResult {
  label: string;
  kind: 'value' | 'property';
  detail?: string;
  documentation?: string;
  insertText: string;
  /** Offsets of the text to replace. */
  replace: { start: number; end: number };
  sortText: string;
  preselect?: boolean;
}

export function complete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  if (result.family === 'kubernetes') return k8sComplete(result, text, pos);
  if (result.family === 'kata-config') return kataComplete(result, text, pos);
  if (result.family !== 'starlingx') return [];
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const lineStart = lines.lineStart(pos.line);
  const rel = result.stx?.release ?? result.config?.starlingx.release ?? starlingxReleases().releases[starlingxReleases().releases.length - 1];
  const m = /^(\s*)kubernetes_version\s*:\s*(["']?)([^"'#]*)$/.exec(before);
  if (m) {
    const valueStart = lineStart + before.length - m[3].length;
    let valueEnd = valueStart;
    const restMatch = /^[^"'#\s]*/.exec(line.slice(before.length - m[3].length));
    valueEnd = valueStart + (restMatch ? restMatch[0].length : 0);
    const versions = rel.kubernetes.map((k) => k.version).sort((a, b) => compareVersions(b, a));
    return versions.map((v, i) => ({
      label: v, kind: 'value' as const,
      detail: v === rel.default ? `StarlingX ${rel.release} default` : `shipped by StarlingX ${rel.release}`,
      insertText: v, replace: { start: valueStart, end: valueEnd },
      sortText: v === rel.default ? '0' : `1${String(i).padStart(3, '0')}`, preselect: v === rel.default,
    }));
  }
  const k = /^([A-Za-z0-9_]*)$/.exec(before);
  const schema = result.stx?.schema ?? (rel.hasSchema ? schemaFor(schemaPath('starlingx', rel.release, 'localhost')) : undefined);
  if (k && schema) {
    // Keys already in the file (read from the text: the file may not parse while a key is being typed).
    const present = new Set([...text.matchAll(/^([A-Za-z0-9_]+)[ \t]*:/gm)].map((x) => x[1]));
    const props = schema.properties as Record<string, any>;
    return Object.keys(props).filter((p) => !present.has(p)).sort().map((p) => ({
      label: p, kind: 'property' as const, detail: props[p].type ? String(props[p].type) : undefined,
      documentation: props[p].description, insertText: `${p}: `,
      replace: { start: lineStart, end: lineStart + before.length }, sortText: p,
    }));
  }
  return [];
}

/** apiVersion values for the document's kind: those served across the whole window first. */
function k8sComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  const ctx = result.k8s;
  if (!ctx) return [];
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^(\s*(?:-\s+)?)apiVersion\s*:\s*(["']?)([^"'#\s]*)$/.exec(before);
  if (!m) return [];
  const off = lines.offsetAt(pos);
  // The kind of the object this line belongs to: the object whose document (or List item) holds the line.
  const doc = ctx.file.docs.find((d) => off >= d.offset && off <= d.end);
  const kindMatch = doc ? /^\s*(?:-\s+)?kind\s*:\s*["']?([A-Za-z0-9]+)/m.exec(text.slice(doc.offset, doc.end)) : undefined;
  const kind = ctx.objects.find((o) => o.doc === doc && off >= o.apiVersionRange.start - 200 && off <= o.apiVersionRange.end)?.kind ?? kindMatch?.[1];
  if (!kind) return [];
  const common = new Set(ctx.common(kind));
  const all = [...new Set([...ctx.common(kind), ...ctx.servedSomewhere(kind)])];
  const valueStart = lines.lineStart(pos.line) + before.length - m[3].length;
  const rest = /^[^"'#\s]*/.exec(line.slice(before.length))?.[0] ?? '';
  return all.map((a, i) => ({
    label: a, kind: 'value' as const,
    detail: common.has(a) ? `served by every version of ${ctx.windowText}` : `served by part of ${ctx.windowText} only`,
    documentation: apiTimeline(ctx, a, kind),
    insertText: a, replace: { start: valueStart, end: valueStart + m[3].length + rest.length },
    sortText: `${common.has(a) ? 0 : 1}${String(i).padStart(3, '0')}`, preselect: i === 0 && common.has(a),
  }));
}

/** Tables, keys and enum values that every release of the window reads. */
function kataComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  const cfg = result.config;
  if (!cfg) return [];
  const lines = new LineIndex(text);
  const before = lines.lineText(pos.line).slice(0, pos.character);
  const lineStart = lines.lineStart(pos.line);
  // A context even for a file that does not parse while it is being typed.
  const toml = result.toml && !result.toml.errors.length ? result.toml : parseTomlText('');
  const { flavour, source } = detectFlavour(result.path ?? 'configuration.toml', result.toml, cfg);
  const w = resolveKataWindow(cfg);
  const ctx = result.kata ?? new KataContext(result.path ?? 'configuration.toml', toml, flavour, source, w.window, w.source);
  const everywhere = (known: (r: string) => unknown) => ctx.window.every((r) => known(r) === 'parser');
  const sec = /^\s*\[([A-Za-z0-9_.-]*)$/.exec(before);
  if (sec) {
    const names = new Set<string>(ctx.data.sections.map((s) => s.name).filter((n) => !n.includes('*')));
    for (const r of ctx.window) for (const h of ctx.hypervisorNames(r)) names.add(`hypervisor.${h}`);
    return [...names].filter((n) => everywhere((r) => ctx.sectionKnown(n, r))).sort().map((n) => ({
      label: n, kind: 'property' as const, detail: `read by every ${ctx.flavourName} release of ${ctx.windowText}`,
      documentation: ctx.sectionRow(n)?.doc ?? undefined, insertText: n,
      replace: { start: lineStart + before.length - sec[1].length, end: lineStart + before.length }, sortText: n,
    }));
  }
  // The table the cursor is in: the last header above it.
  const headers = [...text.slice(0, lineStart).matchAll(/^\s*\[\[?\s*([^\]]+?)\s*\]\]?/gm)];
  const section = headers.length ? headers[headers.length - 1][1].replace(/["'\s]/g, '') : '';
  const val = /^\s*([A-Za-z0-9_-]+)\s*=\s*(["']?)([^"'#]*)$/.exec(before);
  if (val) {
    const row = ctx.optionRow(section, val[1]);
    if (!row?.values.length) return [];
    let common: string[] | undefined;
    for (const r of ctx.window) {
      const v = row.values.find((x) => x.flavour === ctx.flavour && compareVersions(r, x.from) >= 0 && (x.to === null || compareVersions(r, x.to) <= 0));
      if (!v) continue;
      const allowed = v.enum.map(String);
      common = common ? common.filter((x) => allowed.includes(x)) : allowed;
    }
    const q = val[2] || '"';
    return (common ?? []).map((c, i) => ({
      label: c, kind: 'value' as const, detail: `accepted by every release of ${ctx.windowText}`,
      insertText: val[2] ? c : `${q}${c}${q}`,
      replace: { start: lineStart + before.length - val[3].length, end: lineStart + before.length }, sortText: String(i).padStart(3, '0'),
    }));
  }
  const key = /^\s*([A-Za-z0-9_-]*)$/.exec(before);
  if (key) {
    // Keys already in the table, read from the text: the file does not parse while a key is being typed.
    const present = new Set<string>();
    let at = '';
    text.split(/\r?\n/).forEach((l, i) => {
      const h = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?/.exec(l);
      if (h) at = h[1].replace(/["'\s]/g, '');
      const kv = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(l);
      if (kv && at === section && i !== pos.line) present.add(kv[1]);
    });
    const seen = new Set<string>();
    return ctx.optionsOf(section).filter((o) => !present.has(o.key) && everywhere((r) => ctx.optionKnown(o, r)) && !seen.has(o.key) && seen.add(o.key)).map((o) => ({
      label: o.key, kind: 'property' as const,
      detail: o.types.find((t) => t.flavour === ctx.flavour)?.type, documentation: o.doc ?? undefined,
      insertText: `${o.key} = `, replace: { start: lineStart + before.length - key[1].length, end: lineStart + before.length }, sortText: o.key,
    }));
  }
  return [];
}
