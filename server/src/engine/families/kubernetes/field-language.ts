// Hover and completion on manifest field keys (issue #16 item 7): a built-in kind's field from the field table
// (engine/families/kubernetes/data/fields.ts: its type and the steps of the window that serve it), a custom resource's from its
// workspace CRD's schema (crd-schema.ts). The verdict first, details below.
import type { Position } from '../../types';
import type { CompletionResult, HoverResult } from '../../language';
import type { LineIndex } from '../../text';
import type { KubernetesContext, ManifestObject } from './index';
import type { YamlDoc } from '../../parse/yaml';
import { rootNode, maskOf, minorNumber, describeType, sourceOf, pathText, isComponentKind, componentFieldTable, type FieldNode, covers, type FieldTable } from './data/fields';
import { annotationRow } from './rules/deprecated-annotation';
import { listOf } from './rules/common';
import { schemaAt, schemaChild, schemaType, schemaDescription, isOpen, ANY } from './crd-schema';
import { crdName, type CrdSchema } from './crds';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const within = (r: { start: number; end: number }, off: number) => off >= r.start && off <= r.end;

/** The key under `off` in an object: its path (inside the document) and range; undefined when off is not on a key. */
export function keyAt(o: ManifestObject, off: number): { path: Array<string | number>; range: { start: number; end: number } } | undefined {
  const path: Array<string | number> = [...o.at];
  let v: unknown = o.value;
  for (let depth = 0; depth < 64; depth++) {
    let next = false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const loc = o.doc.locate([...path, i]);
        if (within(loc.value, off)) { path.push(i); v = v[i]; next = true; break; }
      }
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        const loc = o.doc.locate([...path, k]);
        if (loc.key && within(loc.key, off)) return { path: [...path, k], range: loc.key };
        if (isObj(v[k]) || Array.isArray(v[k])) {
          if (within(loc.value, off)) { path.push(k); v = v[k]; next = true; break; }
        }
      }
    }
    if (!next) return undefined;
  }
  return undefined;
}


/** The window's minors in the table, their mask, and the table's size. */
function windowOf(ctx: KubernetesContext) {
  const t = ctx.fields;
  const minors = ctx.minors.map(minorNumber).filter((m) => covers(t, m));
  return { t, minors, mask: maskOf(minors, t), n: t.last - t.first + 1 };
}

const runs = listOf;
const minorsOf = (mask: number, first: number, n: number): number[] => { const out: number[] = []; for (let i = 0; i < n; i++) if (mask & (1 << i)) out.push(first + i); return out; };

/** The node of a path below an object's root (list indices are transparent in the table). */
function nodeOf(o: ManifestObject, rel: ReadonlyArray<string | number>, t: FieldTable): FieldNode | undefined {
  let node = rootNode(o.apiVersion, o.kind, t);
  if (!node) return undefined;
  for (const seg of rel) if (typeof seg === 'string') node = node.child(seg);
  return node;
}

/** A node's type at the newest window step that serves it (else the newest minor of the table that does). */
function typeOf(node: FieldNode, prefer: number[], first: number): string | undefined {
  for (const m of [...prefer].reverse()) { const x = node.types[m - first]; if (x !== undefined) return x; }
  for (let i = node.types.length - 1; i >= 0; i--) if (node.types[i] !== undefined) return node.types[i];
  return undefined;
}

/** Hover on a field key of a manifest (built-in kind or custom resource); undefined when off is on no key. */
export function fieldHover(ctx: KubernetesContext, lines: LineIndex, off: number): HoverResult | undefined {
  // The object whose key is under the cursor, and that key: found once (keyAt locates every key it passes).
  let o: ManifestObject | undefined;
  let at: ReturnType<typeof keyAt>;
  for (const x of ctx.objects) {
    if (off >= x.doc.offset && off <= x.doc.end && (at = keyAt(x, off))) { o = x; break; }
  }
  if (!o || !at) return undefined;
  const path = at.path;
  // A key inside a KubeSchedulerConfiguration's plugin args: said of the args' kind, as the field rules check it.
  const args = ctx.pluginArgs().find((p) => p.object && p.config === o && path.length > p.at.length && p.at.every((seg, i) => path[i] === seg))?.object;
  const shown = pathText(path.slice(o.at.length));
  if (args) o = args;
  const rel = path.slice(o.at.length);
  if (rel.length === 1 && (rel[0] === 'apiVersion' || rel[0] === 'kind')) return undefined;
  const range = lines.range(at.range.start, at.range.end);
  const c = ctx.crdFor(o);
  if (c) return { markdown: crHover(ctx, o, rel, shown, c), range };
  const node = nodeOf(o, rel, ctx.fields);
  if (!node) return { markdown: `**${shown}** of ${o.apiVersion} ${o.kind}\n\nNot checked: the field table has no ${o.apiVersion} ${o.kind}, and no CustomResourceDefinition of the workspace defines it.`, range };
  return { markdown: builtinHover(ctx, o, rel, shown, node), range };
}

function builtinHover(ctx: KubernetesContext, o: ManifestObject, rel: ReadonlyArray<string | number>, shown: string, node: FieldNode): string {
  const { t, minors, mask, n } = windowOf(ctx);
  const head = `**${shown}** of ${o.apiVersion} ${o.kind}`;
  const annotation = annotationOf(rel, o.kind);
  if (!node.served) {
    const parentFree = (() => { const p = nodeOf(o, rel.slice(0, -1), ctx.fields); return p ? (p.freeForm & p.served) === p.served && p.served !== 0 : false; })();
    return [head, '', parentFree ? 'A key of a free-form map: any key is served.' : `Not a field of ${o.apiVersion} ${o.kind} in any Kubernetes version of the field table (1.${t.first}..1.${t.last}): the API server drops it.`].concat(annotation).join('\n');
  }
  const type = typeOf(node, minors, t.first);
  const inWindow = mask & node.kindServed;
  const missing = inWindow & ~node.served & ~node.unknown;
  const unsure = inWindow & ~node.served & node.unknown;
  const verdict = !minors.length
    ? `the window ${ctx.windowText} is outside the field table (1.${t.first}..1.${t.last})`
    : missing
      ? `✗ not served at ${runs(minorsOf(missing, t.first, n))} of the window ${ctx.windowText}`
      : unsure
        ? `? not known at ${runs(minorsOf(unsure, t.first, n))} (no field source), served at the other steps of ${ctx.windowText}`
        : inWindow === mask ? `✓ served at every step of the window ${ctx.windowText}` : `✓ served wherever the window ${ctx.windowText} serves ${o.apiVersion} ${o.kind}`;
  const kindGone = mask & ~node.kindServed;
  const all = minorsOf(node.served, t.first, n);
  const kindAll = minorsOf(node.kindServed, t.first, n);
  const life: string[] = [];
  if (all[0] > kindAll[0]) life.push(`added in 1.${all[0]}`);
  if (all[all.length - 1] < kindAll[kindAll.length - 1]) life.push(`removed in 1.${all[all.length - 1] + 1} (last served 1.${all[all.length - 1]})`);
  const out = [`${head} — \`${type ? describeType(type) : 'unknown type'}\` — ${verdict}.`, ''];
  if (kindGone) out.push(`${o.apiVersion} ${o.kind} itself is not served at ${runs(minorsOf(kindGone, t.first, n))} (the apiVersion rules say so).`, '');
  out.push(`Served in ${runs(all)} (the field table: 1.${t.first}..1.${t.last}; ${o.apiVersion} ${o.kind} itself in ${runs(kindAll)})${life.length ? `; ${life.join(', ')}` : ''}.`);
  if ((node.freeForm & node.served) === node.served) out.push('', 'A free-form map or free-form JSON, or a key inside one (labels, annotations, data): any key is served there.');
  for (const a of annotation) out.push(a);
  if (minors.length) {
    out.push('', `| ${minors.map((m) => `1.${m}`).join(' | ')} |`, `|${minors.map(() => '---').join('|')}|`);
    out.push(`| ${minors.map((m) => { const b = 1 << (m - t.first); return !(node.kindServed & b) ? '— kind not served' : node.served & b ? (node.inferred & b ? '✓ inferred' : '✓') : node.unknown & b ? '? not known' : '✗'; }).join(' | ')} |`);
    const id = `${o.apiVersion} ${o.kind}`;
    const own = isComponentKind(o.apiVersion, o.kind) ? componentFieldTable() : undefined;
    const src = own ? own.files[id] ?? [] : [...new Set(minors.map((m) => sourceOf(m, t)).filter(Boolean))];
    if (own) out.push('', `Read by ${own.readBy[id]} (a component configuration file, not an API the apiserver serves).`);
    if (src.length) out.push('', `Sources: ${src.join('; ')}`);
  }
  return out.join('\n');
}

/** An annotation key that a field replaces (data/kubernetes/annotations.json): its lifecycle, as hover lines. */
function annotationOf(rel: ReadonlyArray<string | number>, kind: string): string[] {
  const i = rel.indexOf('annotations');
  if (i < 1 || rel[i - 1] !== 'metadata' || i !== rel.length - 2) return [];
  const key = String(rel[rel.length - 1]);
  // The rule's own reading (k8s/deprecated-annotation): an Ingress's own annotations, else a pod template's.
  const row = annotationRow(key, kind === 'Ingress' && i === 1);
  if (!row) return [];
  const later = [row.ignoredByKubelet && `ignored by the kubelet from 1.${row.ignoredByKubelet}`, row.nonFunctional && `non-functional from 1.${row.nonFunctional}`].filter(Boolean);
  return ['', `**Deprecated annotation** (1.${row.deprecated})${later.length ? `, ${later.join(', ')}` : ''}: replaced by the field \`${row.field.join('.')}\` (${row.scope}).`];
}

function crHover(ctx: KubernetesContext, o: ManifestObject, rel: ReadonlyArray<string | number>, shown: string, c: NonNullable<ReturnType<KubernetesContext['crdFor']>>): string {
  const head = `**${shown}** of ${o.apiVersion} ${o.kind}`;
  const where = crdName(c.crd);
  if (!c.version?.served) return `${head}\n\n✗ ${where} does not serve ${c.versionName}: the object is refused, its fields are not read.`;
  if (!c.version.schema) return `${head}\n\n${where} gives ${c.versionName} no schema: any field is kept.`;
  const s = schemaAt(c.version.schema, rel);
  if (!s) return `${head}\n\n✗ Not in the schema of ${c.versionName} in ${where}: the API server drops it${c.crd.preserveUnknown ? ' (kept: spec.preserveUnknownFields)' : ' (pruning)'}.`;
  const served = c.crd.versions.filter((v) => v.served && v.schema && schemaAt(v.schema, rel)).map((v) => v.name);
  const other = c.crd.versions.filter((v) => v.served && v.name !== c.versionName && !served.includes(v.name)).map((v) => v.name);
  const out = [`${head} — \`${s === ANY ? 'any' : schemaType(s)}\` — ✓ in the schema of ${c.versionName}${c.version.deprecated ? ' (a deprecated version)' : ''}.`, ''];
  out.push(`Defined by ${where}; served versions with this field: ${served.join(', ') || 'none'}${other.length ? `; not in ${other.join(', ')}` : ''}. A custom resource is served by its CRD at every step of the Kubernetes window ${ctx.windowText} alike.`);
  if (Array.isArray(s.enum)) out.push('', `One of: ${s.enum.map((x) => `\`${String(x)}\``).join(', ')}.`);
  if (isOpen(s) && s !== ANY) out.push('', 'x-kubernetes-preserve-unknown-fields: any key below it is kept.');
  const d = schemaDescription(s);
  if (d) out.push('', d);
  return out.join('\n');
}

/**
 * The mapping the cursor's line is a key of, from the text's indentation (the file may not parse while a key is typed):
 * its path of keys below the document root (0 for a list item) and the keys it already has.
 */
export function mappingAt(lines: LineIndex, line: number, col: number, dashCol: number | undefined): { path: Array<string | number>; siblings: Set<string> } | undefined {
  const path: Array<string | number> = [];
  const siblings = new Set<string>();
  let mode: 'map' | 'list' = dashCol === undefined ? 'map' : 'list';
  let c = dashCol ?? col;
  if (dashCol !== undefined) path.unshift(0);
  let collect = dashCol === undefined;
  const parse = (l: number) => {
    const text = lines.lineText(l);
    const m = /^([ ]*)((?:-[ ]+)*)(.*)$/.exec(text)!;
    const rest = m[3];
    const key = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{[\]}:,-][^:#]*?|-[^\s:#][^:#]*?)[ \t]*:(?:[ \t]|$)/.exec(rest);
    const name = key ? key[1].replace(/^["']|["']$/g, '') : undefined;
    const valueAfter = key ? rest.slice(key[0].length).replace(/#.*$/, '').trim() : '';
    return { indent: m[1].length, dashes: m[2], keyCol: m[1].length + m[2].length, rest, name, valueAfter, dashCol: m[2] ? m[1].length + m[2].lastIndexOf('-') : -1, marker: /^(---|\.\.\.)(\s|$)/.test(text) };
  };
  // Siblings below the cursor line (same column, until the mapping ends).
  if (collect) {
    for (let l = line + 1; l < lines.lineCount; l++) {
      const p = parse(l);
      if (p.marker) break;
      if (!p.rest || p.rest.startsWith('#')) continue;
      if (p.keyCol < col || (p.keyCol === col && p.dashes)) break;
      if (p.keyCol === col && p.name !== undefined) siblings.add(p.name);
    }
  }
  for (let l = line - 1; l >= 0; l--) {
    const p = parse(l);
    if (p.marker) break;
    if (!p.rest || p.rest.startsWith('#')) continue;
    if (mode === 'map') {
      if (p.keyCol === c) {
        if (collect && p.name !== undefined) siblings.add(p.name);
        if (p.dashes) { mode = 'list'; c = p.dashCol; collect = false; path.unshift(0); }
        continue;
      }
      if (p.keyCol > c) continue;
    } else {
      if (p.dashes && p.dashCol === c) continue;
      if (p.keyCol > c) continue;
    }
    // The parent key: a `key:` with its value below.
    if (p.name === undefined || p.valueAfter !== '' && !/^[|>]/.test(p.valueAfter)) return undefined;
    path.unshift(p.name);
    collect = false;
    mode = 'map';
    c = p.keyCol;
    if (p.dashes) { mode = 'list'; c = p.dashCol; path.unshift(0); }
  }
  return mode === 'map' && c === 0 ? { path, siblings } : undefined;
}

/** Completion of a key in a manifest mapping: the fields the table (or the CRD's schema) knows for that path. */
export function fieldComplete(ctx: KubernetesContext, lines: LineIndex, pos: Position): CompletionResult[] | undefined {
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^([ ]*)((?:-[ ]+)*)([A-Za-z0-9_.\/-]*)$/.exec(before);
  if (!m) return undefined;
  const col = m[1].length + m[2].length;
  const dashCol = m[2] ? m[1].length + m[2].lastIndexOf('-') : undefined;
  const at = mappingAt(lines, pos.line, col, dashCol);
  if (!at) return undefined;
  const off = lines.offsetAt(pos);
  const doc: YamlDoc | undefined = ctx.file.docs.find((d) => off >= d.offset && off <= d.end);
  if (!doc) return undefined;
  const docText = ctx.file.text.slice(doc.offset, doc.end);
  const apiVersion = /^apiVersion[ \t]*:[ \t]*["']?([^"'\s#]+)/m.exec(docText)?.[1];
  const kind = /^kind[ \t]*:[ \t]*["']?([^"'\s#]+)/m.exec(docText)?.[1];
  if (!apiVersion || !kind) return undefined;
  const start = lines.lineStart(pos.line) + before.length - m[3].length;
  const rest = /^[A-Za-z0-9_.\/-]*/.exec(line.slice(before.length))?.[0] ?? '';
  const replace = { start, end: start + m[3].length + rest.length };
  // Already written (the key being typed excepted).
  at.siblings.delete(m[3] + rest);
  const c = ctx.crdFor({ apiVersion, kind });
  if (c) return crComplete(c, at.path, at.siblings, replace);
  // Inside a KubeSchedulerConfiguration's plugin args (as parsed): the fields of the args' kind.
  const args = ctx.pluginArgs().find((p) => p.object && p.config.doc === doc && at.path.length >= p.at.length && p.at.every((seg, i) => at.path[i] === seg))?.object;
  const fake = args ?? { apiVersion, kind } as ManifestObject;
  const rel = args ? at.path.slice(args.at.length) : at.path;
  const node = nodeOf(fake, rel, ctx.fields);
  if (!node || !node.served) return undefined;
  const { t, minors, mask, n } = windowOf(ctx);
  const names = new Set<string>();
  for (let i = 0; i < node.types.length; i++) {
    let base = node.types[i];
    if (base === undefined) continue;
    while (base.startsWith('[]')) base = base.slice(2);
    const model = t.models[base];
    if (model) for (const k of Object.keys(model.fields)) names.add(k);
  }
  const out: CompletionResult[] = [];
  const alive = mask & node.served;
  for (const name of [...names].sort()) {
    if (at.siblings.has(name)) continue;
    if (!rel.length && (name === 'status' || name === 'apiVersion' || name === 'kind')) continue;
    const ch = node.child(name);
    if (!ch.served) continue;
    const missing = alive & ~ch.served;
    const type = typeOf(ch, minors, t.first);
    const everywhere = !!alive && !missing;
    const servedNowhere = !(alive & ch.served);
    out.push({
      label: name, kind: 'property',
      detail: `${type ? describeType(type) : ''}${everywhere ? ` · served at every step of ${ctx.windowText}` : servedNowhere ? ` · not served in ${ctx.windowText} (served in ${runs(minorsOf(ch.served, t.first, n))})` : ` · not served at ${runs(minorsOf(missing, t.first, n))}`}`,
      insertText: `${name}: `, replace,
      sortText: `${everywhere ? 0 : servedNowhere ? 2 : 1}${name}`,
    });
  }
  return out;
}

function crComplete(c: NonNullable<ReturnType<KubernetesContext['crdFor']>>, path: Array<string | number>, siblings: Set<string>, replace: { start: number; end: number }): CompletionResult[] | undefined {
  if (!c.version?.served || !c.version.schema) return undefined;
  const s = path.length ? schemaAt(c.version.schema, path) : c.version.schema;
  if (!s || !isObj(s.properties)) return path.length ? undefined : [];
  const out: CompletionResult[] = [];
  for (const name of Object.keys(s.properties).sort()) {
    if (siblings.has(name) || (!path.length && (name === 'apiVersion' || name === 'kind' || name === 'status'))) continue;
    const p = schemaChild(s, name)!;
    const inAll = c.crd.versions.filter((v) => v.served).every((v) => v.schema && schemaAt(v.schema, [...path, name]));
    out.push({
      label: name, kind: 'property',
      detail: `${schemaType(p)} · ${crdName(c.crd)}, ${c.versionName}${inAll ? '' : ' (not in every served version)'}`,
      ...(schemaDescription(p) ? { documentation: schemaDescription(p) } : {}),
      insertText: `${name}: `, replace, sortText: `${inAll ? 0 : 1}${name}`,
    });
  }
  return out;
}

/** The apiVersion hover of a custom resource whose group/kind a workspace CRD defines: its versions as the CRD says. */
export function crdTimeline(ctx: KubernetesContext, apiVersion: string, kind: string): string | undefined {
  const c = ctx.crdFor({ apiVersion, kind });
  if (!c) return undefined;
  const v = c.version;
  const verdict = !v ? `✗ not listed by ${crdName(c.crd)}` : !v.served ? `✗ served: false in ${crdName(c.crd)}` : v.deprecated ? `⚠ deprecated by ${crdName(c.crd)}` : `✓ served by ${crdName(c.crd)}`;
  const out = [`**${apiVersion} ${kind}** — ${verdict}.`, ''];
  out.push('| version | served | storage | deprecated |', '|---|---|---|---|');
  for (const x of c.crd.versions) out.push(`| ${x.name === c.versionName ? `**${x.name}**` : x.name} | ${x.served ? '✓' : '✗'} | ${x.storage ? '✓' : ''} | ${x.deprecated ? `⚠ ${x.deprecationWarning ?? ''}`.trim() : ''} |`);
  out.push('', `The workspace's CRD is what the cluster installs: it wins over the built-in lifecycle rows of ${c.crd.group}. Its versions do not depend on the Kubernetes window ${ctx.windowText}.`);
  return out.join('\n');
}

export type { CrdSchema };
