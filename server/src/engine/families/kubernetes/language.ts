// Hover and completion over Kubernetes manifests: API lifecycles across the window, component images.
import { chainLine } from '../kata-config/data/chain';
import { operatorHover } from './operator-hover';
import type { Position } from '../../types';
import type { AnalyzeResult } from '../../analyze';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex } from '../../text';
import type { KubernetesContext, ContainerImage } from './index';
import { versionRow, standingAt, kubeMinorOfTag, componentOf, type Standing } from './data/components';
import type { InlayHint } from '../types';
import { windowText } from '../../window-text';
import { findRow } from './data/lifecycle';
import { fieldHover, fieldComplete, crdTimeline } from './field-language';

export function k8sHover(ctx: KubernetesContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const within = (r: { start: number; end: number }) => off >= r.start && off <= r.end;
  const rc = runtimeClassHover(ctx, off, lines);
  if (rc) return rc;
  const img = ctx.images().find((i) => within(i.range));
  if (img?.component) return { markdown: imageHover(ctx, img), range: lines.range(img.range.start, img.range.end) };
  const o = ctx.objects.find((x) => within(x.apiVersionRange) || within(x.kindRange));
  if (!o) return fieldHover(ctx, lines, off);
  const range = within(o.apiVersionRange) ? o.apiVersionRange : o.kindRange;
  const op = operatorHover(ctx, o); // an operator's custom resource: its operator's releases (operator-hover.ts)
  if (op) return { markdown: op, range: lines.range(range.start, range.end) };
  return { markdown: apiTimeline(ctx, o.apiVersion, o.kind), range: lines.range(range.start, range.end) };
}

/** A RuntimeClass handler: the chain handler → containerd runtime → Kata configuration → flavour (engine/families/kata-config/data/chain.ts). */
function runtimeClassHover(ctx: KubernetesContext, off: number, lines: LineIndex): HoverResult | undefined {
  for (const o of ctx.objects) {
    if (o.kind !== 'RuntimeClass' || !/^node\.k8s\.io\//.test(o.apiVersion) || typeof o.value.handler !== 'string') continue;
    const loc = o.doc.locate([...o.at, 'handler']).value;
    if (off < loc.start || off > loc.end) continue;
    const h = o.value.handler;
    const chain = ctx.neighbours.kataChain;
    const rts = chain?.runtimes.filter((r) => r.runtime === h) ?? [];
    const defined = ctx.neighbours.containerdRuntimes;
    const out = [`**RuntimeClass handler** \`${h}\``, ''];
    if (rts.length) for (const r of rts) out.push(`- ${chainLine(r, chain!.root)}`);
    else if (defined?.names.includes(h)) out.push(`containerd runtime \`${h}\` (${defined.files.join(', ')}): not a Kata runtime.`);
    else out.push(defined ? `No containerd config of the workspace defines runtime \`${h}\` (${defined.files.join(', ') || 'none read'}).` : 'No containerd config in the workspace: the handler is not followed.');
    return { markdown: out.join('\n'), range: lines.range(loc.start, loc.end) };
  }
  return undefined;
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
  const crd = crdTimeline(ctx, apiVersion, kind);
  if (crd) return crd;
  const row = findRow(ctx.rows, apiVersion, kind);
  const out = [`**${apiVersion} ${kind}**`, ''];
  const flux = fluxTimeline(ctx, apiVersion, kind);
  if (flux) return [...out, ...flux].join('\n');
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

/** apiVersion values for the document's kind: those served across the whole window first. */
export function k8sComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  const ctx = result.k8s;
  if (!ctx) return [];
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^(\s*(?:-\s+)?)apiVersion\s*:\s*(["']?)([^"'#\s]*)$/.exec(before);
  if (!m) return fieldComplete(ctx, lines, pos) ?? [];
  const off = lines.offsetAt(pos);
  // The kind of the object this line belongs to: the object whose document (or List item) holds the line.
  const doc = ctx.file.docs.find((d) => off >= d.offset && off <= d.end);
  const kindMatch = doc ? /^\s*(?:-\s+)?kind\s*:\s*["']?([A-Za-z0-9]+)/m.exec(text.slice(doc.offset, doc.end)) : undefined;
  const kind = ctx.objects.find((o) => o.doc === doc && off >= o.apiVersionRange.start - 200 && off <= o.apiVersionRange.end)?.kind ?? kindMatch?.[1];
  if (!kind) return [];
  const flux = fluxApiVersions(ctx, kind);
  const valueStart0 = lines.lineStart(pos.line) + before.length - m[3].length;
  const rest0 = /^[^"'#\s]*/.exec(line.slice(before.length))?.[0] ?? '';
  if (flux) {
    return flux.map((x, i) => ({
      label: x.apiVersion, kind: 'value' as const, detail: x.detail, documentation: apiTimeline(ctx, x.apiVersion, kind),
      insertText: x.apiVersion, replace: { start: valueStart0, end: valueStart0 + m[3].length + rest0.length },
      sortText: `${x.everywhere ? 0 : 1}${String(i).padStart(3, '0')}`, preselect: i === 0 && x.everywhere,
    }));
  }
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

/** A Flux apiVersion on a StarlingX upgrade path: what the Flux CRDs of each release serve (undefined: not Flux, or no path). */
function fluxTimeline(ctx: KubernetesContext, apiVersion: string, kind: string): string[] | undefined {
  const i = apiVersion.lastIndexOf('/');
  const group = apiVersion.slice(0, i), version = apiVersion.slice(i + 1);
  if (!ctx.flux || i < 0 || !/(^|\.)fluxcd\.io$/.test(group)) return undefined;
  const out = [`Flux window ${ctx.flux.text} (${ctx.flux.source.kind}: ${ctx.flux.source.detail}): the CRDs each StarlingX release installs.`, ''];
  out.push('| StarlingX | Flux | this apiVersion | served |', '|---|---|---|---|');
  for (const s of ctx.flux.steps) {
    const list = s.served?.[`${group}/${kind}`];
    const v = list?.find((x) => x.version === version);
    const here = !s.flux ? '✗ no FluxCD' : !list ? `✗ no ${kind} CRD` : !v ? '✗ not served' : v.deprecated ? '⚠ deprecated' : '✓ served';
    out.push(`| ${s.starlingx} | ${s.flux ?? '—'} | ${here} | ${(list ?? []).map((x) => x.version).join(', ')} |`);
  }
  return out;
}

/** On a StarlingX upgrade path, the Flux apiVersions of a Flux kind the releases serve: served (and not deprecated) by every release first. */
function fluxApiVersions(ctx: KubernetesContext, kind: string): Array<{ apiVersion: string; everywhere: boolean; detail: string }> | undefined {
  if (!ctx.flux) return undefined;
  const keys = [...new Set(ctx.flux.steps.flatMap((s) => Object.keys(s.served ?? {})))].filter((k) => k.endsWith(`/${kind}`));
  if (!keys.length) return undefined;
  const out: Array<{ apiVersion: string; everywhere: boolean; deprecated: boolean; detail: string }> = [];
  for (const gk of keys) {
    const group = gk.slice(0, gk.lastIndexOf('/'));
    const versions = [...new Set(ctx.flux.steps.flatMap((s) => (s.served?.[gk] ?? []).map((x) => x.version)))];
    for (const v of versions) {
      const at = ctx.flux.steps.map((s) => s.served?.[gk]?.find((x) => x.version === v));
      const everywhere = at.every(Boolean);
      const deprecated = at.some((x) => x?.deprecated);
      out.push({ apiVersion: `${group}/${v}`, everywhere, deprecated, detail: `${everywhere ? `served by every release of ${ctx.flux.text}` : `served by part of ${ctx.flux.text} only`}${deprecated ? ' (deprecated in some)' : ''}` });
    }
  }
  return out.sort((a, b) => Number(b.everywhere) - Number(a.everywhere) || Number(a.deprecated) - Number(b.deprecated) || (a.apiVersion < b.apiVersion ? 1 : -1));
}

const STANDING_MARK: Record<Standing, string> = { validated: '✓', documented: '✓', incompatible: '✗', unlisted: '?' };
const rangeText = (m: string[]) => windowText(m, '–');

/**
 * The inlay hints of a manifest (FamilyModule.inlayHints): after a container image whose component the data knows, the
 * steps of the Kubernetes window it is validated for.
 */
export function k8sInlayHints(result: AnalyzeResult, text: string): InlayHint[] {
  const out: InlayHint[] = [];
  const k8s = result.k8s;
  const minors = result.config?.kubernetes.minors ?? [];
  if (!k8s || !minors.length) return out;
  let lines: LineIndex | undefined;
  for (const img of k8s.images()) {
    const c = img.component ?? componentOf(img.ref);
    const row = c && img.ref.tag ? versionRow(c, img.ref.tag) : undefined;
    if (!c || !row) continue;
    const at = minors.map((mn) => ({ minor: mn, s: standingAt(row, mn) }));
    const ok = at.filter((x) => x.s === 'validated' || x.s === 'documented');
    const label = ok.length === at.length
      ? `validated for ${rangeText(minors)}`
      : ok.length ? `validated for ${ok.map((x) => x.minor).join(', ')} only` : `validated for no step of ${rangeText(minors)}`;
    lines ??= new LineIndex(text);
    out.push({
      position: lines.positionAt(img.range.end),
      label,
      tooltip: `${c.name} ${row.version}: ${at.map((x) => `${x.minor} ${STANDING_MARK[x.s]} ${x.s}`).join(', ')}.`,
    });
  }
  return out;
}
