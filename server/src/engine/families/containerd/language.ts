// Hover and completion over containerd's config.toml: what a table or key is, and which minors of the window read it.
import { chainLine } from '../kata-config/data/chain';
import type { Position } from '../../types';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex } from '../../text';
import { parseTomlText } from '../../parse/toml';
import { type ContainerdContext, type KeyNode, joinPath, matchPath, minorsText } from './index';

/**
 * Text from the data or the file as markdown shows it: CommonMark's backslash escape before each character that
 * markdown or HTML would read as markup, so `<runtime_name>` is shown, not taken for a tag and dropped.
 */
export const mdText = (s: string): string => s.replace(/[\\`*_{}[\]()<>#+!|~&]/g, '\\$&');

function readLine(ctx: ContainerdContext, node: KeyNode): string {
  const yes: string[] = [], no: string[] = [], version: string[] = [];
  const via = new Set<string>();
  for (const r of ctx.releases) {
    const x = ctx.readAt(node, r);
    if (x.read) { yes.push(r.minor); if (x.via && x.via !== node.path) via.add(`${r.minor} → ${mdText(x.via)}`); } else if (x.why === 'version') version.push(r.minor); else no.push(r.minor);
  }
  const parts = [];
  if (yes.length) parts.push(`✓ read by ${minorsText(yes, ctx.minors)}${via.size ? ` (migrated: ${[...via].join(', ')})` : ''}`);
  if (no.length) parts.push(`✗ not read by ${minorsText(no, ctx.minors)}`);
  if (version.length) parts.push(`✗ ${minorsText(version, ctx.minors)} cannot read config version ${ctx.version}`);
  return `Window containerd ${ctx.windowText} (${ctx.window.source.kind}: ${ctx.window.source.detail}), config version ${ctx.version}: ${parts.join('; ')}.`;
}

function describe(ctx: ContainerdContext, node: KeyNode): string[] {
  const out: string[] = [];
  const row = node.row;
  if (row) {
    out.push(`Type: ${mdText(row.type)}. In containerd ${minorsText(row.minors, ctx.data.releases.map((r) => r.minor))} (the last patch of each minor${row.notInFirstPatch?.length ? `; not yet in the first patch of ${row.notInFirstPatch.join(', ')}` : ''}).`);
    if (row.appliesWhenRuntimeType?.length) out.push(`Applies to runtime_type ${mdText(row.appliesWhenRuntimeType.join(', '))}.`);
  } else {
    out.push(`In containerd ${minorsText([...node.minors].sort((a, b) => ctx.data.releases.findIndex((r) => r.minor === a) - ctx.data.releases.findIndex((r) => r.minor === b)), ctx.data.releases.map((r) => r.minor))} (a table of its keys).`);
  }
  const dep = ctx.data.deprecations.find((d) => d.key === node.path || d.key2x === node.path);
  if (dep) out.push(`Deprecated (${mdText(dep.id)}, since ${dep.deprecatedIn ?? '?'}${dep.removedIn ? `, removed in ${dep.removedIn}` : ''}): use ${mdText(dep.replacement)}`);
  out.push('', readLine(ctx, node));
  if (row) out.push('', `Source: ${ctx.data.source.repo} ${row.source.at} @ ${row.source.tag} (${row.source.commit.slice(0, 12)})`);
  return out;
}

export function containerdHover(ctx: ContainerdContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const within = (r: { start: number; end: number }) => off >= r.start && off <= r.end;
  // ConfigPath of a Kata runtime: the chain runtime → shim → configuration file.
  for (const rt of ctx.kataRuntimes()) {
    const e = rt.configPath;
    if (e && (within(e.valueRange) || within(e.keyRange))) {
      const shim = typeof rt.runtimeType?.value === 'string' ? String(rt.runtimeType.value) : undefined;
      const bin = shim && /^io\.containerd\.(.+)\.(v\d+)$/.exec(shim);
      const out = [`**options.ConfigPath** of runtime \`${rt.name}\``, '',
        `RuntimeClass handler \`${rt.name}\` → runtime_type \`${shim ?? '(none: the default runtime)'}\`${bin ? ` → shim binary \`containerd-shim-${bin[1]}-${bin[2]}\`` : ''} → Kata configuration \`${String(e.value)}\`.`,
        '', 'The shim reads this file as its configuration.toml (kata-containers docs/how-to/containerd-kata.md).'];
      const fact = ctx.kataChain?.runtimes.find((f) => f.file === ctx.file && f.runtime === rt.name);
      if (fact) out.push('', chainLine(fact, ctx.kataChain!.root, ctx.kataWindowText ?? 'window (newest release)'));
      else if (!ctx.kataChain) out.push('', 'The workspace was not looked at (no server): the file it names is not resolved here.');
      const r = within(e.valueRange) ? e.valueRange : e.keyRange;
      return { markdown: out.join('\n'), range: lines.range(r.start, r.end) };
    }
  }
  const items = ctx.items.filter((i) => within(i.kind === 'key' && i.entry ? { start: i.entry.keyRange.start, end: i.entry.valueRange.end } : i.range));
  const it = items.sort((a, b) => (a.range.end - a.range.start) - (b.range.end - b.range.start))[0];
  if (!it) return undefined;
  const name = joinPath(it.segs);
  const out = [`**${mdText(it.kind === 'table' ? `[${name}]` : name)}** — containerd config.toml`, ''];
  if (it.match.kind === 'known') for (const l of describe(ctx, it.match.node)) out.push(l);
  else if (it.match.kind === 'opaque') out.push(it.match.plugin ? `Plugin \`${it.match.plugin}\`: its configuration is not in the data (only the daemon, the CRI plugins, the runtime options and 2.3's server plugins are); not checked.` : 'An entry of a map of values; not checked.');
  else out.push(`No containerd release of the data reads this (${ctx.data.releases[0].minor}..${ctx.data.releases[ctx.data.releases.length - 1].minor}).`);
  return { markdown: out.join('\n'), range: lines.range(it.range.start, it.range.end) };
}

/** Keys of the table around the cursor that every minor of the window reads. */
export function containerdComplete(ctx: ContainerdContext, text: string, pos: Position): CompletionResult[] {
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^[ \t]*([A-Za-z0-9_]*)$/.exec(before);
  if (!m) return [];
  const start = lines.lineStart(pos.line) + before.length - m[1].length;
  const rest = /^[A-Za-z0-9_]*/.exec(line.slice(before.length))?.[0] ?? '';
  // The table the cursor is in: the last header above it (read from the text, which may not parse while typing).
  const above = text.slice(0, lines.lineStart(pos.line));
  const headers = [...above.matchAll(/^[ \t]*\[\[?([^\]\r\n]+)\]\]?[ \t]*(?:#.*)?\r?$/gm)];
  const last = headers[headers.length - 1]?.[1];
  let segs: string[] = [];
  if (last) {
    const t = parseTomlText(`[${last}]\n`);
    segs = t.tables[0]?.path ?? [];
  }
  const match = segs.length ? matchPath(segs, ctx.version) : undefined;
  if (match && match.kind !== 'known') return [];
  const node = match?.kind === 'known' ? match.node : undefined;
  const children = node ? [...node.children.values()] : keyRoots(ctx);
  const present = new Set(ctx.items.filter((i) => i.segs.length === segs.length + 1 && segs.every((s, j) => i.segs[j] === s)).map((i) => i.segs[segs.length]));
  return children
    .filter((c) => c.row && !/^table/.test(c.row.type) && !present.has(c.seg) && ctx.releases.every((r) => ctx.readAt(c, r).read)
      && !ctx.data.deprecations.some((d) => d.key === c.path || d.key2x === c.path))
    .map((c, i) => ({
      label: c.seg, kind: 'property' as const,
      detail: `${c.row!.type}; read by containerd ${ctx.windowText}`,
      documentation: [`**${c.path}**`, ''].concat(describe(ctx, c)).join('\n'),
      insertText: `${c.seg} = `, replace: { start, end: start + m[1].length + rest.length },
      sortText: String(i).padStart(3, '0'),
    }));
}

function keyRoots(ctx: ContainerdContext): KeyNode[] {
  const root = matchPath([], ctx.version);
  return root.kind === 'known' ? [...root.node.children.values()] : [];
}
