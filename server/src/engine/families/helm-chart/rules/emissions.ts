// The Helm chart rules on what templates emit at each step of the window (rendered by the embedded evaluator).
import type { Rule, FindingFix, Finding } from '../../../rules/types';
import type { HelmContext } from '../index';
import { judge, commonApiVersions, stepsText, windowText } from '../index';
import type { Emission, Span, TemplateRun } from '../run';
import { parseYaml } from '../../../parse/yaml';
import { YamlEditor } from '../../../parse/yaml-edit';
import { convert, conversionPairs } from '../../kubernetes/data/convert';
import { maskActions, actionsOf, parseTemplate, type ParsedTemplate, type TemplateNode, type Rendered } from '../template';
import { backToSource } from '../run';
import { LineIndex } from '../../../text';

interface Group { at: Span; apiVersion: string; kind: string; steps: string[]; literal: boolean; via?: Emission['via']; byHelm: boolean }

/** Emissions of a template by source position and what is emitted there, in step order. */
export function groupsOf(tr: TemplateRun): Group[] {
  const m = new Map<string, Group>();
  for (const s of tr.steps) {
    for (const e of s.emissions) {
      if (!e.apiVersion || !e.kind) continue;
      const k = `${e.at.start}:${e.at.end}|${e.apiVersion}|${e.kind}`;
      let g = m.get(k);
      if (!g) m.set(k, (g = { at: e.at, apiVersion: e.apiVersion, kind: e.kind, steps: [], literal: e.literal, via: e.via, byHelm: false }));
      if (!g.steps.includes(s.step)) g.steps.push(s.step);
      g.literal &&= e.literal;
      g.byHelm ||= !!e.byHelm;
    }
  }
  return [...m.values()].sort((a, b) => a.at.start - b.at.start);
}

/** Runs with where their findings go: a template's own file, or (for a packaged dependency) the archive, prefixed. */
export function runsOf(ctx: HelmContext): Array<{ tr: TemplateRun; place: (at: Span) => { range: Span; prefix: string } }> {
  if (ctx.template) return [{ tr: ctx.template, place: (at) => ({ range: at, prefix: '' }) }];
  return (ctx.archived ?? []).map((tr) => {
    const lines = new LineIndex(tr.template.text);
    return { tr, place: (at: Span) => ({ range: { start: 0, end: 0 }, prefix: `${tr.template.rel}:${lines.positionAt(at.start).line + 1}: ` }) };
  });
}

const viaText = (g: Group) => (g.via ? ` (from ${g.via.define ? `the define "${g.via.define}" in ` : ''}${g.via.file})` : '');
const helmText = (g: Group) => (g.byHelm ? ' (as `helm template` rendered it: the embedded evaluator could not decide it)' : '');

export const removedApi: Rule<HelmContext> = {
  id: 'helm/removed-api',
  family: 'helm-chart',
  defaultSeverity: 'error',
  title: 'Chart template emits an API that a step of the window does not serve',
  what: 'Renders each template of a chart at every step of the Kubernetes window (with that step\'s `.Capabilities` and the chart\'s '
    + 'default values, no Helm binary) and reports, at the template\'s own line, an apiVersion/kind that a step does not serve: '
    + 'removed there, or not served yet. One finding per source position, naming its steps; one that comes from a named template '
    + '(`include`) is reported at the include. A literal apiVersion gets a fix to one served across the whole window (with the known '
    + 'conversions, when they touch no template action); where no apiVersion serves the whole window, a partial fix that branches on '
    + '`.Capabilities.APIVersions.Has`.',
  why: 'Helm installs and upgrades what the templates render against the cluster\'s version: from the step that stops serving the '
    + 'apiVersion on, `helm upgrade` of this chart fails. Charts pick apiVersions by `.Capabilities`, so the only right answer is per step.',
  bad: { filename: 'templates/cronjob.yaml', text: 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: cleanup\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: cleanup\n              image: busybox:1.36\n', options: 'Kubernetes 1.21..1.25' },
  good: { filename: 'templates/cronjob.yaml', text: 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cleanup\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: cleanup\n              image: busybox:1.36\n', options: 'Kubernetes 1.21..1.25' },
  fix: 'complete',
  sources: ['Helm pkg/chartutil/capabilities.go (VersionSet.Has), pkg/engine', 'Kubernetes Deprecated API Migration Guide', 'data/kubernetes/api-lifecycle.json', 'data/kubernetes/served-stable.json'],
  check(ctx, report) {
    const minors = ctx.window.minors;
    for (const { tr, place } of runsOf(ctx)) {
      for (const g of groupsOf(tr)) {
        const js = g.steps.map((s) => judge(ctx.rows, g.apiVersion, g.kind, s)).filter((j) => j && !j.served);
        if (!js.length) continue;
        const bad = js.map((j) => j!.step);
        const row = js[0]!.row!;
        const removed = js.filter((j) => j!.removed).map((j) => j!.step);
        const early = bad.filter((s) => !removed.includes(s));
        const target = commonApiVersions(ctx.rows, g.kind, minors)[0];
        const there = commonApiVersions(ctx.rows, g.kind, bad)[0];
        const parts: string[] = [];
        if (removed.length) parts.push(`${removed.length > 1 ? 'these steps' : removed[0]} no longer serve${removed.length > 1 ? '' : 's'} (removed in ${row.removed})`);
        if (early.length) parts.push(`${early.length > 1 ? `${stepsText(early, minors)} do` : `${early[0]} does`} not serve yet${row.introduced ? ` (served from ${row.introduced})` : ''}`);
        const advice = target ? `; use ${target}, served across the window ${windowText(minors)}`
          : there ? `; use ${there} there (no apiVersion of ${g.kind} serves the whole window ${windowText(minors)}: branch on .Capabilities.APIVersions.Has)`
            : `; no apiVersion of ${g.kind} is served there`;
        const p = place(g.at);
        const f: Finding = {
          message: `${p.prefix}at ${stepsText(bad, minors)} this template emits ${g.apiVersion} ${g.kind}${viaText(g)}, which ${parts.join(' and ')}${advice}${helmText(g)}`,
          range: p.range,
          data: { steps: bad, apiVersion: g.apiVersion, kind: g.kind, replacement: target ?? there ?? null, template: tr.template.rel, ...(g.via ? { via: g.via } : {}) },
        };
        if (ctx.template && g.literal && !g.byHelm) {
          const other = !target && there ? servedElsewhere(ctx, g, bad) : undefined;
          f.fixes = () => { const fx = target ? literalFix(ctx.text, g, target, tr.parsed, proverOf(tr, g, ctx.text, target)) : other ? capabilityBranch(ctx.text, g, there!, other) : undefined; return fx ? [fx] : []; };
        }
        report(f);
      }
    }
  },
};

/** An apiVersion of the kind served where the emitted one still is (for the other arm of a capability branch). */
function servedElsewhere(ctx: HelmContext, g: Group, bad: string[]): string | undefined {
  const good = ctx.window.minors.filter((m) => !bad.includes(m));
  if (!good.length) return undefined;
  const j = good.map((s) => judge(ctx.rows, g.apiVersion, g.kind, s));
  return j.every((x) => x?.served) ? g.apiVersion : undefined;
}

/**
 * The template's text as YAML for a conversion, offsets kept. An action on a line of its own (or with only other
 * actions) is blanked: it is structure (an `if`, an `include … | nindent`). An action inside a line's YAML (a value,
 * part of a quoted string, a key) becomes a placeholder of its length, a plain scalar the template does not hold, so
 * its value is read as a string, not as null, and what a conversion copies from it (a selector from the pod
 * template's labels) is the action's own text once `restore` has put it back. An action too short for a placeholder
 * or written over several lines is blanked.
 */
export function maskForConversion(text: string, acts: ReadonlyArray<{ start: number; end: number; kind: string }>): { masked: string; blanked: Array<{ start: number; end: number; kind: string }>; restore(s: string): string } {
  const blankAll = maskActions(text);
  const chars = text.split('');
  const blanked: Array<{ start: number; end: number; kind: string }> = [];
  const back: Array<[string, string]> = [];
  for (const a of acts) {
    const ls = text.lastIndexOf('\n', a.start - 1) + 1;
    let le = text.indexOf('\n', a.end);
    if (le < 0) le = text.length;
    const src = text.slice(a.start, a.end);
    const alone = blankAll.slice(ls, le).trim() === '';
    const ph = `Zsgt${back.length}Z`;
    if (!alone && !/[\r\n]/.test(src) && ph.length <= src.length) {
      const full = ph + 'z'.repeat(src.length - ph.length);
      if (!text.includes(full)) {
        for (let i = 0; i < full.length; i++) chars[a.start + i] = full[i];
        back.push([full, src]);
        continue;
      }
    }
    for (let i = a.start; i < a.end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
    blanked.push(a);
  }
  // Longest first: no placeholder is a prefix of another (its number ends at the Z), but a padded one may hold a shorter.
  back.sort((x, y) => y[0].length - x[0].length);
  return { masked: chars.join(''), blanked, restore: (s) => (back.length && s.includes('Zsgt') ? back.reduce((out, [ph, src]) => out.split(ph).join(src), s) : s) };
}

/**
 * Replace the literal apiVersion; with the known conversion when its edits touch only the template's YAML (never an
 * action) and keep their meaning at every render. No fix is offered where the target would reject the result: an
 * apps/v1 workload whose selector cannot be derived from its pod template's labels as they are written. `parsed` is the
 * template as the rule's run parsed it (TemplateRun.parsed): its actions are where the fix must not write, and the
 * template is not parsed again (a template of another text, which should not happen, is).
 */
export function literalFix(text: string, g: Group, target: string, parsed: ParsedTemplate, prove?: Prove): FindingFix | undefined {
  const plain: FindingFix = { title: `Change apiVersion to ${target}`, edits: [{ range: g.at, newText: target }], destructive: false };
  const pair = conversionPairs().find((p) => p.from === g.apiVersion && p.to === target && p.kind === g.kind);
  if (pair?.apiVersionOnly) return { ...plain, preferred: true };
  if (!pair) return { ...plain, title: `Change apiVersion to ${target} — partial: no known conversion of ${g.kind} from ${g.apiVersion}; check the spec against ${target}`, partial: true };
  const acts = actionsOf(parsed.text === text ? parsed : parseTemplate({ path: parsed.path, text }));
  const { masked, blanked, restore } = maskForConversion(text, acts);
  const yaml = parseYaml(masked);
  const doc = yaml.docs.find((d) => d.offset <= g.at.start && g.at.start < d.end);
  const v = doc && !doc.errors.length ? doc.value : undefined;
  if (!doc || !v || typeof v !== 'object' || (v as any).apiVersion !== g.apiVersion) {
    // The conversion is known but the YAML around the template's actions could not be read: the spec is not checked.
    return NEEDS_SELECTOR.has(g.kind) ? undefined : { ...plain, title: `Change apiVersion to ${target} — partial: the ${g.kind} conversion from ${g.apiVersion} could not be made here (the YAML between the template's actions does not read as one object); check the spec against ${target}`, partial: true };
  }
  const ed = new YamlEditor(masked, doc, false);
  const conv = convert(ed, [], v as Record<string, unknown>, target, { labelsUnsure: labelsUnsure(doc, v, blanked) });
  if (!conv) return undefined;
  const touches = ed.edits.some((e) => acts.some((a) => e.range.start < a.end && a.start < e.range.end));
  if (touches) return NEEDS_SELECTOR.has(g.kind) ? undefined : { ...plain, title: `Change apiVersion to ${target} — partial: the conversion of the spec would cross template actions; convert it by hand`, partial: true };
  // apps/v1 requires a selector: a conversion that could not write one leaves an object the API server rejects.
  if (conv.leftover.includes('spec.selector')) return undefined;
  const edits: FindingFix['edits'] = [];
  for (const e of ed.edits) {
    const t = SELECTOR_INSERT.test(e.newText) ? selectorAsWritten(e.newText, text, doc, v as Record<string, any>) : restore(e.newText);
    if (t === undefined) return undefined;
    edits.push({ range: e.range, newText: t });
  }
  // A key the conversion adds must render wherever its mapping renders: not inside a block (`if`, `with`, `range`)
  // that its mapping is outside, nor before a line that continues the entry before it. Moved to the mapping's first
  // line when it cannot stay; then the fixed template, rendered at each step, must be the conversion of its render.
  const placed = placeInsertions(text, masked, acts, parsed, edits);
  const unproven = NEEDS_SELECTOR.has(g.kind) ? undefined : { ...plain, title: `Change apiVersion to ${target} — partial: the keys the conversion of the spec adds could not be placed where they render at every step; convert it by hand`, partial: true };
  if (!placed) return unproven;
  if (prove && placed.some((e) => e.range.start === e.range.end)) {
    const at = g.at.start + placed.filter((e) => e.range.end <= g.at.start && e.range.start !== g.at.start).reduce((n, e) => n + e.newText.length - (e.range.end - e.range.start), 0);
    if (!prove(applyOffsetEdits(text, placed), at)) return unproven;
  }
  edits.length = 0;
  for (const e of placed) edits.push(e);
  return {
    title: conv.complete ? `Convert to ${target}${ed.edits.length > 1 ? ` (${convertedWhat(v as Record<string, any>, g.kind)})` : ''}` : `Convert to ${target} — partial: ${conv.notes.join('; ')}`,
    edits, preferred: conv.complete, partial: !conv.complete, destructive: ed.destructive,
  };
}

const SELECTOR_INSERT = /^[ \t]*selector:\r?\n[ \t]*matchLabels:\r?\n/;

/** Whether the fixed text of a template renders, at every step the emission is made, to the conversion of its render (`at`: the new apiVersion's offset). */
export type Prove = (fixed: string, at: number) => boolean;

/**
 * The proof of a conversion fix by rendering: at every step where the template emits the old apiVersion (with the
 * run's values), each document it emits there, converted, equals the document the fixed template emits from the same
 * place. A document that is not YAML, in either render, or a render that stops, is no proof.
 */
export function proverOf(tr: TemplateRun, g: Group, text: string, target: string): Prove | undefined {
  const render = tr.renderText;
  if (!render) return undefined;
  const docsFrom = (out: ReturnType<NonNullable<TemplateRun['renderText']>>, at: number, apiVersion: string) => {
    if (!out || out.rendered.error) return undefined;
    const r: Rendered = out.rendered;
    const yaml = parseYaml(r.text);
    if (yaml.docs.some((d) => !d.empty && d.errors.length)) return undefined;
    return yaml.docs.filter((d) => {
      const v = d.value as Record<string, unknown> | undefined;
      if (d.empty || !v || typeof v !== 'object' || v.apiVersion !== apiVersion || v.kind !== g.kind) return false;
      const loc = d.locate(['apiVersion']).value;
      const back = backToSource(out.parsed, r, loc.start, loc.end);
      return back.literal && back.at.start === at;
    }).map((d) => ({ text: r.text.slice(d.offset, d.end), value: d.value }));
  };
  return (fixed, at) => g.steps.every((step) => {
    const before = docsFrom(render(text, step), g.at.start, g.apiVersion);
    const after = docsFrom(render(fixed, step), at, target);
    if (!before?.length || !after || after.length !== before.length) return false;
    return before.every((b, i) => {
      const d = parseYaml(b.text).docs.find((x) => !x.empty);
      if (!d || d.errors.length || !d.value || typeof d.value !== 'object') return false;
      const ed = new YamlEditor(b.text, d, false);
      if (!convert(ed, [], d.value as Record<string, unknown>, target)) return false;
      const want = parseYaml(ed.apply()).docs.find((x) => !x.empty);
      return !!want && !want.errors.length && sameValue(want.value, after[i].value);
    });
  });
}

/** Equal as YAML values (the order of a mapping's keys aside). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return typeof a === 'number' && typeof b === 'number' ? Number.isNaN(a) && Number.isNaN(b) : false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The edits applied to the text (the later of two at one offset after the earlier, as an editor applies them). */
function applyOffsetEdits(text: string, edits: ReadonlyArray<{ range: Span; newText: string }>): string {
  let out = text;
  for (const e of edits.map((x, i) => ({ ...x, i })).sort((a, b) => b.range.start - a.range.start || b.i - a.i)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
  return out;
}

/** The actions of a line that output nothing: the structure around YAML, which a new key may stand before. */
const SILENT = new Set(['if', 'else', 'else-if', 'with', 'else-with', 'range', 'end', 'comment', 'assign', 'break', 'continue', 'define']);

/** The control blocks whose body holds an offset (an arm of `if`/`with`, a `range` or its `else`, a `define`), outermost first. */
function blocksAt(p: ParsedTemplate, at: number): string[] {
  const out: string[] = [];
  const walk = (list: ReadonlyArray<TemplateNode>): void => {
    for (const n of list) {
      if (n.k === 'if' || n.k === 'with') {
        n.arms.forEach((a, i) => {
          const until = i + 1 < n.arms.length ? n.arms[i + 1].action.start : n.endAction.start;
          if (a.action.end <= at && at <= until) { out.push(`${n.start}#${i}`); walk(a.list); }
        });
      } else if (n.k === 'range') {
        const until = n.elseAction ? n.elseAction.start : n.endAction.start;
        if (n.action.end <= at && at <= until) { out.push(`${n.start}#0`); walk(n.list); }
        if (n.elseAction && n.elseList && n.elseAction.end <= at && at <= n.endAction.start) { out.push(`${n.start}#1`); walk(n.elseList); }
      }
    }
  };
  for (const d of p.defines ?? []) if (d.action.end <= at && at <= d.end) { out.push(`define@${d.start}`); walk(d.list); }
  walk(p.root);
  return out;
}

/**
 * Whether a block key at column `indent`, inserted at the line start `from`, ends where the YAML after it belongs to
 * its mapping or one around it: the next line with content (past blank and comment lines and lines of actions that
 * output nothing) is the end of the document, or YAML text at that column (not a sequence item) or less. A line that
 * starts with an action printing something (`{{ toYaml … | indent 6 }}`) is text of unknown indentation: no.
 */
function fitsBefore(text: string, blank: string, acts: ReadonlyArray<{ start: number; end: number; kind: string }>, from: number, indent: number): boolean {
  for (let ls = from; ls < text.length;) {
    let le = text.indexOf('\n', ls);
    if (le < 0) le = text.length;
    const line = text.slice(ls, le).replace(/\r$/, '');
    const next = le + 1;
    if (!line.trim()) { ls = next; continue; }
    if (!blank.slice(ls, le).trim()) {
      if (acts.filter((a) => a.start < le && ls < a.end).every((a) => SILENT.has(a.kind))) { ls = next; continue; }
      return false;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    const rest = line.slice(lead.length);
    if (lead.includes('\t') || rest.startsWith('{{')) return false;
    if (rest.startsWith('#')) { ls = next; continue; }
    if (!lead && /^(---|\.\.\.)(\s|$)/.test(rest)) return true;
    return lead.length < indent || (lead.length === indent && !/^-(\s|$)/.test(rest));
  }
  return true;
}

/**
 * The conversion's edits with each block key it inserts where it renders with its mapping (see fitsBefore and
 * blocksAt): where the editor put it (after the mapping's last entry) when it fits there, else at the start of the
 * mapping (the line after its `key:` line). Undefined when neither fits: no fix is offered.
 */
function placeInsertions(text: string, masked: string, acts: ReadonlyArray<{ start: number; end: number; kind: string }>, parsed: ParsedTemplate, edits: FindingFix['edits']): FindingFix['edits'] | undefined {
  const out: FindingFix['edits'] = [];
  const moved = new Map<number, FindingFix['edits'][number]>();
  const trimmedBefore = (at: number) => /-\}\}$/.test(text.slice(0, at).replace(/\s+$/, ''));
  for (const e of edits) {
    const m = /^(\r?\n)?( *)[^\s#-]/.exec(e.newText);
    if (e.range.start !== e.range.end || !m) { out.push(e); continue; }
    // A flow mapping's insertion (`, key: v` before its brace) is not a block key: the proof by rendering judges it.
    const lineStart = e.range.start === 0 || text[e.range.start - 1] === '\n';
    if (!lineStart && !m[1]) { out.push(e); continue; }
    const indent = m[2].length;
    const from = lineStart ? e.range.start : (text.indexOf('\n', e.range.start) + 1 || text.length);
    // The mapping's key: the nearest line before with YAML at a smaller column.
    let parent: { start: number; end: number; key: number } | undefined;
    for (let le = text.lastIndexOf('\n', from - 1); le > 0;) {
      const ls = text.lastIndexOf('\n', le - 1) + 1;
      const line = masked.slice(ls, le).replace(/\r$/, '');
      const lead = /^ */.exec(line)![0].length;
      if (line.trim() && !line.trim().startsWith('#') && lead < indent) { parent = { start: ls, end: le, key: ls + lead }; break; }
      le = ls - 1;
    }
    if (!parent) return undefined;
    const home = blocksAt(parsed, parent.key).join('/');
    const fits = (at: number) => blocksAt(parsed, at).join('/') === home && fitsBefore(text, masked, acts, at, indent) && !trimmedBefore(at);
    if (fits(from) && (lineStart || !trimmedBefore(e.range.start))) { out.push(e); continue; }
    // At the top of the mapping: its key's line holds the key and nothing else (no action, no value on the line).
    const keyLine = text.slice(parent.start, parent.end).replace(/\r$/, '');
    const first = parent.end + 1;
    if (keyLine !== masked.slice(parent.start, parent.end).replace(/\r$/, '') || !/^[ \t]*[^\s#][^#]*:[ \t]*(#.*)?$/.test(keyLine) || first > text.length || !fits(first)) return undefined;
    const newText = m[1] ? e.newText.slice(m[1].length) : e.newText;
    // Keys moved to one place are one edit, in the conversion's order (two insertions at one offset may be applied either way round).
    const prev = moved.get(first);
    if (prev) prev.newText += newText;
    else { const x = { range: { start: first, end: first }, newText }; moved.set(first, x); out.push(x); }
  }
  return out;
}

/**
 * The selector a conversion inserted, its matchLabels written as the pod template's labels are written: each key and
 * value copied from the template's text (the expressions, such as `{{ template "web.name" . }}`, and their quoting),
 * so the selector renders to the labels at every step. Undefined (no fix) when a label is not on one line.
 */
function selectorAsWritten(newText: string, text: string, doc: { locate(p: Array<string | number>): { key?: { start: number; end: number }; value: { start: number; end: number } } }, v: Record<string, any>): string | undefined {
  const m = /^([ \t]*selector:(\r?\n))([ \t]*)matchLabels:\r?\n/.exec(newText);
  const labels = v.spec?.template?.metadata?.labels;
  if (!m || !labels || typeof labels !== 'object') return undefined;
  const nl = m[2], pad = `${m[3]}  `;
  let out = `${m[0]}`;
  for (const k of Object.keys(labels)) {
    const at = doc.locate(['spec', 'template', 'metadata', 'labels', k]);
    if (!at.key) return undefined;
    const key = text.slice(at.key.start, at.key.end), value = text.slice(at.value.start, at.value.end);
    if (/[\r\n]/.test(key + value) || at.value.start === at.key.start) return undefined;
    out += `${pad}${key}: ${value}${nl}`;
  }
  // What the editor wrote after the selector (nothing, or the line break that starts it at the end of a file).
  const rest = newText.slice(m[0].length).split(/\r?\n/).filter((l) => l && !l.startsWith(pad)).join(nl);
  return rest ? undefined : out;
}

/** The kinds whose apps/v1 form requires spec.selector, which a conversion derives from the pod template's labels. */
const NEEDS_SELECTOR = new Set(['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet']);

/** What the conversion wrote besides the apiVersion, for the fix's title. */
function convertedWhat(v: Record<string, any>, kind: string): string {
  if (NEEDS_SELECTOR.has(kind)) return v.spec?.selector ? 'spec rewritten: the old defaults kept' : 'spec.selector from the pod template\'s labels, the old defaults kept';
  return 'spec rewritten';
}

/**
 * Why the pod template's labels, as the masked YAML reads them, may not be the labels of every render: a blanked
 * action (not a comment) between `template:` and the end of its metadata (an `if`, `range` or `with` around labels,
 * an `include` of labels on a line of its own).
 */
function labelsUnsure(doc: { locate(p: Array<string | number>): { key?: { start: number; end: number }; value: { start: number; end: number } } }, v: any, blanked: ReadonlyArray<{ start: number; end: number; kind: string }>): string | undefined {
  if (!v?.spec?.template || typeof v.spec.template !== 'object') return undefined;
  const tpl = doc.locate(['spec', 'template']);
  const meta = v.spec.template.metadata ? doc.locate(['spec', 'template', 'metadata']) : undefined;
  const from = tpl.key?.start ?? tpl.value.start, to = meta ? meta.value.end : tpl.value.start;
  const inside = blanked.filter((a) => a.kind !== 'comment' && a.start < to && from < a.end);
  if (!inside.length) return undefined;
  const kinds = [...new Set(inside.map((a) => a.kind))];
  return `the pod template's metadata holds template actions on lines of their own (${kinds.join(', ')}), so its labels may differ from one render to another`;
}

/** Where no apiVersion serves the whole window: emit the new one where the cluster serves it, the old one elsewhere. */
export function capabilityBranch(text: string, g: Group, newer: string, older: string): FindingFix {
  const lineStart = text.lastIndexOf('\n', g.at.start - 1) + 1;
  let lineEnd = text.indexOf('\n', g.at.end);
  if (lineEnd < 0) lineEnd = text.length;
  const eol = text[lineEnd - 1] === '\r' ? '\r\n' : '\n';
  const end = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
  const line = text.slice(lineStart, end);
  const pre = text.slice(lineStart, g.at.start), post = text.slice(g.at.end, end);
  const body = `{{- if .Capabilities.APIVersions.Has "${newer}/${g.kind}" }}${eol}${pre}${newer}${post}${eol}{{- else }}${eol}${line}${eol}{{- end }}`;
  return {
    title: `Emit ${newer} where the cluster serves ${newer}/${g.kind}, else ${older} — partial: check the spec against both`,
    edits: [{ range: { start: lineStart, end }, newText: body }],
    partial: true,
    // The apiVersion line is kept (in both arms, the new one with another value): no key is removed.
    destructive: false,
  };
}

export const deprecatedApi: Rule<HelmContext> = {
  id: 'helm/deprecated-api',
  family: 'helm-chart',
  defaultSeverity: 'warning',
  title: 'Chart template emits an API that a step of the window deprecates',
  what: 'Reports, at the template\'s line, an apiVersion/kind that the template emits at a step deprecating it (and every step '
    + 'still serves), with the replacement served across the window.',
  why: 'A deprecated apiVersion is removed a few minors later: the chart breaks at the first upgrade past the window.',
  bad: { filename: 'templates/hpa.yaml', text: 'apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 1\n  maxReplicas: 3\n', options: 'Kubernetes 1.23..1.25' },
  good: { filename: 'templates/hpa.yaml', text: 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 1\n  maxReplicas: 3\n', options: 'Kubernetes 1.23..1.25' },
  fix: 'complete',
  sources: ['Kubernetes Deprecated API Migration Guide', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    const minors = ctx.window.minors;
    for (const { tr, place } of runsOf(ctx)) {
      for (const g of groupsOf(tr)) {
        const js = g.steps.map((s) => judge(ctx.rows, g.apiVersion, g.kind, s));
        if (js.some((j) => j && !j.served)) continue; // helm/removed-api speaks
        const dep = js.filter((j) => j?.deprecated).map((j) => j!.step);
        if (!dep.length) continue;
        const row = js.find((j) => j)!.row!;
        const target = commonApiVersions(ctx.rows, g.kind, minors).find((a) => a !== g.apiVersion && !judge(ctx.rows, a, g.kind, minors[minors.length - 1])?.deprecated);
        const p = place(g.at);
        report({
          message: `${p.prefix}at ${stepsText(dep, minors)} this template emits ${g.apiVersion} ${g.kind}${viaText(g)}, deprecated there (deprecated in ${row.deprecated}${row.removed ? `, removed in ${row.removed}` : ''})`
            + (target ? `; use ${target}, served across the window ${windowText(minors)}` : '') + helmText(g),
          range: p.range,
          data: { steps: dep, apiVersion: g.apiVersion, kind: g.kind, replacement: target ?? null, template: tr.template.rel },
          fixes: ctx.template && g.literal && target && !g.byHelm ? () => { const fx = literalFix(ctx.text, g, target, tr.parsed, proverOf(tr, g, ctx.text, target)); return fx ? [fx] : []; } : undefined,
        });
      }
    }
  },
};

/**
 * A condition that tests the cluster: `.Capabilities.KubeVersion` (in a semverCompare or not), `.Capabilities.APIVersions`,
 * or a helper named for them (`include "common.capabilities.kubeVersion" .`); and nothing else: a condition that also
 * reads values, the release, the chart or a variable is not decided by the window (a `semverCompare` on an image tag,
 * `and .Values.x (…Capabilities…)`), so no step taking its arm says nothing about the window.
 */
const CLUSTER = /\.Capabilities\.(KubeVersion|APIVersions)\b|\binclude\s+"[^"]*(capabilit|kubeversion)[^"]*"/i;
const NOT_CLUSTER = /\.(Values|Release|Chart|Files|Template)\b|\$[A-Za-z_]/;

export const deadBranch: Rule<HelmContext> = {
  id: 'helm/dead-branch',
  family: 'helm-chart',
  defaultSeverity: 'hint',
  title: 'Compatibility branch that no step of the window takes',
  what: 'Reports an arm of an `if`/`else if`/`else` on `.Capabilities` (`.Capabilities.KubeVersion`, in a semverCompare or not, '
    + '`.Capabilities.APIVersions.Has`, or a helper named for them) that no step of the Kubernetes window takes, in a template or in a '
    + 'helper (taken where it is included). Only arms whose conditions, and those of the arms before them, test the cluster and nothing '
    + 'else: an arm gated by values, the release or a variable (a `semverCompare` on an image tag) is not the window\'s to decide.',
  why: 'It is compatibility code for Kubernetes versions outside the window: it can go once the window has moved past them, '
    + 'which makes the chart easier to read and to check.',
  bad: { filename: 'templates/pdb.yaml', text: '{{- if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n', options: 'Kubernetes 1.25..1.27' },
  good: { filename: 'templates/pdb.yaml', text: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n', options: 'Kubernetes 1.25..1.27' },
  fix: 'none',
  sources: ['Helm pkg/chartutil/capabilities.go', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    const run = ctx.run;
    const rel = ctx.template?.template.rel;
    if (!run || !rel) return;
    const arms = new Map<string, { start: number; end: number; cond?: { start: number; end: number }; taken: Set<string>; unknown: boolean; steps: Set<string> }>();
    // A file with defines has arms that are taken where it is included (every template of the chart is rendered);
    // a template without defines has only its own renders' arms.
    const tr = ctx.template!;
    const own = tr.parsed.defines?.length ? run.branches : tr.steps.flatMap((s) => (s.rendered?.branches ?? []).map((b) => ({ step: s.step, ...b })));
    for (const b of own) {
      if (b.path !== rel) continue;
      let a = arms.get(b.id);
      if (!a) arms.set(b.id, (a = { start: b.start, end: b.end, cond: b.cond, taken: new Set(), unknown: false, steps: new Set() }));
      a.steps.add(b.step);
      if (b.taken === true) a.taken.add(b.step);
      if (b.taken === 'unknown') a.unknown = true;
    }
    // The arms of one if/else-if/else chain follow each other without a gap: an arm is a compatibility arm when a
    // condition of its chain tests the cluster (an `else` has no condition of its own).
    const sorted = [...arms.values()].sort((x, y) => x.start - y.start);
    const chainOf = new Map<typeof sorted[number], number>();
    let chain = 0;
    sorted.forEach((a, i) => { if (i === 0 || sorted[i - 1].end !== a.start) chain++; chainOf.set(a, chain); });
    // An arm is compatibility code when every condition of its chain up to it (its own, and those of the arms before
    // it, which take the render first) tests the cluster and nothing else: then only the window decides it.
    const byCluster = new Set<typeof sorted[number]>();
    let pure = true, any = false;
    sorted.forEach((a, i) => {
      if (i === 0 || chainOf.get(sorted[i - 1]) !== chainOf.get(a)) { pure = true; any = false; }
      if (a.cond) {
        const c = ctx.text.slice(a.cond.start, a.cond.end);
        pure &&= CLUSTER.test(c) && !NOT_CLUSTER.test(c);
        any = true;
      }
      if (pure && any) byCluster.add(a);
    });
    for (const a of sorted) {
      if (a.taken.size || a.unknown || a.steps.size < ctx.window.minors.length) continue;
      if (!byCluster.has(a)) continue;
      report({
        message: `no step of the window ${windowText(ctx.window.minors)} takes this branch: compatibility code for Kubernetes versions outside the window, which can go once the window has moved past them`,
        range: { start: a.start, end: a.end },
        data: { window: ctx.window.minors },
      });
    }
  },
};

export const notEvaluated: Rule<HelmContext> = {
  id: 'helm/not-evaluated',
  family: 'helm-chart',
  defaultSeverity: 'info',
  title: 'What a chart template emits could not be decided',
  what: 'Says, at the position in the template, where the embedded evaluator could not decide what a template emits at some steps '
    + '(a value it cannot compute, a function it does not have, a render that stops with `required`/`fail` with the chart\'s default '
    + 'values), and what of a chart could not be read (a packaged dependency, a template over the size limit; on the parent\'s `Chart.yaml`, a '
    + 'vendored dependency whose `Chart.yaml` cannot be read or parsed or is missing, and a `templates/` or `charts/` folder that cannot be '
    + 'listed; on the archive, links inside a packaged dependency), and a value of a rendered custom resource that it could not compute '
    + '(not checked against its CustomResourceDefinition there). A template fragment outside any chart (read as Helm by its content) is '
    + 'rendered document by document: a document whose render stops (`fail`) is said not checked at that action, and the fragment\'s '
    + 'other documents are still checked; so is a chart\'s template whose whole render stops (its documents rendered again one by one).',
  why: 'Never a silent pass: those steps are not checked for this template, and the note says so instead of guessing; '
    + 'lsp-lint exits 2 on it unless `--allow-unchecked` (a step that was not checked is not a green).',
  bad: { filename: 'templates/job.yaml', text: 'apiVersion: {{ .Values.job.apiVersion }}\nkind: Job\nmetadata:\n  name: migrate\n', options: 'Kubernetes 1.21..1.22' },
  good: { filename: 'templates/job.yaml', text: 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n', options: 'Kubernetes 1.21..1.22' },
  fix: 'none',
  sources: ['Helm pkg/engine (template functions)'],
  check(ctx, report) {
    const minors = ctx.window.minors;
    for (const { tr, place } of runsOf(ctx)) {
      const m = new Map<string, { at: Span; reason: string; steps: string[] }>();
      for (const s of tr.steps) {
        for (const u of s.undecided) {
          const k = `${u.at.start}:${u.at.end}|${u.reason}`;
          let g = m.get(k);
          if (!g) m.set(k, (g = { at: u.at, reason: u.reason, steps: [] }));
          if (!g.steps.includes(s.step)) g.steps.push(s.step);
        }
      }
      for (const g of [...m.values()].sort((a, b) => a.at.start - b.at.start)) {
        const p = place(g.at);
        // Those steps were not checked for this template: a "not checked" note (exit 2 unless --allow-unchecked).
        report({ message: `${p.prefix}not checked at ${stepsText(g.steps, minors)}: ${g.reason}`, range: p.range, data: { steps: g.steps, template: tr.template.rel, notChecked: true } });
      }
    }
    // What of the chart was not read at all: a "not checked" note (lsp-lint fails the run on it unless --allow-unchecked).
    for (const pr of ctx.problems ?? []) report({ message: pr.message, range: pr.range ?? { start: 0, end: 0 }, data: { notChecked: true } });
  },
};
