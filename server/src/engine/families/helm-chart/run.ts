// A chart rendered at every step of the window (the embedded evaluator, no Helm binary), and what each template
// emits there: each document's apiVersion and kind, mapped back through the render's segments to the template's
// own text (a literal: its span; an expression or an include: the action's span in the template). Cached per chart
// (object, so per FileAccess stamp) and window.
import { parseYaml, splitDocuments } from '../../parse/yaml';
import { capabilitiesAt } from '../kubernetes/data/served';
import type { OpenapiDoc, OpenapiMinor } from '../kubernetes/data/openapi';
import { parseTemplate, renderTemplate, actionsOf, type ParsedTemplate, type Rendered, type TemplateNode as Node } from './template';

// The documents of a run, as part of its cache key: one id per document read (a re-read document is a new run).
const docIds = new WeakMap<OpenapiDoc, number>();
let nextDocId = 0;
const openapiKey = (openapi?: Readonly<Record<string, OpenapiMinor>>): string => {
  if (!openapi) return '';
  const ids = Object.keys(openapi).sort().map((m) => {
    const d = openapi[m].doc;
    let id = docIds.get(d);
    if (id === undefined) docIds.set(d, (id = ++nextDocId));
    return `${m}=${id}`;
  });
  return ids.length ? `|openapi ${ids.join(',')}` : '';
};
import { Unk } from './template/values';
import { loadChart, allCharts, valuesOf, chartObject, enabledOf, RELEASE, type Chart, type ChartTemplate } from './chart';

/** A real `helm template` of the chart at a step (the helm-render branch's ChartRender, server/src/engine/families/helm-chart/rendered.ts). */
export interface ChartRender {
  chartRoot: string; step: string; ok: boolean; error?: string; helmVersion: string;
  emissions: Array<{ template: string; index: number; apiVersion?: string; kind?: string }>;
}

export interface Span { start: number; end: number }

export interface Emission {
  step: string;
  apiVersion?: string;
  kind?: string;
  /** Where the apiVersion comes from in the rendered template (offsets in its own text). */
  at: Span;
  /** The apiVersion is literal text of this template (a fix may replace it). */
  literal: boolean;
  /** It came from a named template of another file: the define's name (when the include names it) and file. */
  via?: { define?: string; file: string };
  /** The kind's position (literal or action) in the template, when found. */
  kindAt?: Span;
  /** Decided by a real `helm template` render (the evaluator could not). */
  byHelm?: boolean;
}

export interface Undecided {
  step: string; at: Span; reason: string;
}

export interface TemplateStep {
  step: string;
  rendered?: Rendered;
  emissions: Emission[];
  undecided: Undecided[];
}

export interface TemplateRun {
  template: ChartTemplate;
  chart: Chart;
  parsed: ParsedTemplate;
  /** Not rendered: a helper (`_*`), NOTES.txt, a library chart's file, a disabled dependency's. */
  notRendered?: string;
  /** Its render at every step of the window (computed on first use: a keystroke re-renders only what it asks for). */
  readonly steps: TemplateStep[];
  /**
   * Another text of this template (a fix applied to it) rendered at a step as the run renders the template: the same
   * values, release, chart, capabilities and helpers. Undefined when that text does not parse.
   */
  renderText?(text: string, step: string): { parsed: ParsedTemplate; rendered: Rendered } | undefined;
}

export interface ChartRun {
  top: Chart;
  minors: string[];
  byRel: Map<string, TemplateRun>;
  parsed: Map<string, ParsedTemplate>;
  /**
   * Branches of every template and helper, per step, from every render (a helper's arms are taken in its includers).
   * Renders every template of the chart on first use.
   */
  readonly branches: Array<{ step: string; path: string; id: string; start: number; end: number; cond?: { start: number; end: number }; taken: boolean | 'unknown' }>;
}

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const runs = new WeakMap<Chart, Map<string, ChartRun>>();
/** Each list of real renders by identity (the server hands a new list when a render arrives). */
const renderIds = new WeakMap<ChartRender[], number>();
let nextRenderId = 0;

/** Why `.Values` and `.Chart` are Unknown for a template read without its chart. */
const LONE = 'the template is read without its chart, so its values and Chart.yaml are not known';
const CHART_FIELDS = ['Name', 'Home', 'Sources', 'Version', 'Description', 'Keywords', 'Maintainers', 'Icon', 'APIVersion', 'Condition', 'Tags', 'AppVersion', 'Deprecated', 'Annotations', 'KubeVersion', 'Dependencies', 'Type'];

/**
 * `.Values` of a template read without its chart: every key is Unknown (the evaluator takes a map for `.Values`; a
 * field of this one is never nil, so a condition on it is undecided, not false). Used whole (`toYaml .Values`,
 * `range`) it is empty, which the evaluator cannot tell from a chart without values.
 */
class UnknownValues extends Map<string, unknown> {
  override get(): unknown { return new Unk(LONE, '', 0, 0); }
}

/** Whether Helm renders the file as output (helpers starting with `_` and NOTES.txt are not manifests). */
function notRenderedWhy(t: ChartTemplate, c: Chart, over?: Record<string, unknown>): string | undefined {
  const base = t.rel.slice(t.rel.lastIndexOf('/') + 1);
  if (base.startsWith('_')) return 'a helper file (its name starts with `_`): Helm loads its defines and renders no output from it';
  if (base === 'NOTES.txt') return 'NOTES.txt: printed after an install, never applied';
  if (c.library) return 'a file of a library chart: Helm renders no output from it';
  const en = enabledOf(c, over);
  if (en === false) return `a file of the dependency ${c.name}, which its parent's values disable`;
  return undefined;
}

/** Values given to a render over the chart's defaults (a values scenario, scenarios.ts), and the release it names. */
export interface RunValues {
  /** Its id (part of the run's cache key, with the identity of `values`). */
  id: string;
  values: Record<string, unknown>;
  release?: { name?: string; namespace?: string };
}
const valuesIds = new WeakMap<object, number>();
let nextValuesId = 0;
const runValuesKey = (v?: RunValues): string => (v ? `|values ${v.id}#${valuesIds.get(v.values) ?? (valuesIds.set(v.values, ++nextValuesId), nextValuesId)}#${v.release?.name ?? ''}#${v.release?.namespace ?? ''}` : '');

/** What an error or an output that is not YAML is said with: the chart's default values, or the scenario's. */
const DEFAULT_VALUES = "the chart's default values";

export function chartRun(top: Chart, minors: string[], helmRenders?: ChartRender[], openapi?: Readonly<Record<string, OpenapiMinor>>, given?: RunValues): ChartRun {
  const key = minors.join(',') + openapiKey(openapi) + (helmRenders ? `|helm${renderIds.get(helmRenders) ?? (renderIds.set(helmRenders, ++nextRenderId), nextRenderId)}` : '') + runValuesKey(given);
  const over = given?.values;
  const release = given?.release ? { ...RELEASE, ...(given.release.name ? { Name: given.release.name } : {}), ...(given.release.namespace ? { Namespace: given.release.namespace } : {}) } : RELEASE;
  const withValues = given ? 'these values' : DEFAULT_VALUES;
  let m = runs.get(top);
  if (!m) runs.set(top, (m = new Map()));
  const hit = m.get(key);
  if (hit) return hit;
  // Only this chart's renders (the server renders each top chart of the workspace).
  if (helmRenders) helmRenders = helmRenders.filter((r) => r.chartRoot === top.dir || r.chartRoot.replace(/[\\/]+$/, '') === top.dir);
  const charts = allCharts(top);
  const parsed = new Map<string, ParsedTemplate>();
  for (const c of charts) {
    if (enabledOf(c, over) === false) continue;
    for (const t of c.templates) parsed.set(t.rel, parseCached(t.rel, t.text));
  }
  const defines = new Map<string, string>();
  for (const t of parsed.values()) for (const d of t.defines ?? []) defines.set(d.name, t.path);
  const allBranches: ChartRun['branches'] = [];
  const byRel = new Map<string, TemplateRun>();
  for (const c of charts) {
    const values = c.alone ? new UnknownValues() : valuesOf(c, over);
    const chart = c.alone ? Object.fromEntries(CHART_FIELDS.map((f) => [f, new Unk(LONE, '', 0, 0)])) : chartObject(c);
    for (const t of c.templates) {
      const p = parsed.get(t.rel) ?? parseCached(t.rel, t.text);
      const notRendered = notRenderedWhy(t, c, over);
      let steps: TemplateStep[] | undefined;
      byRel.set(t.rel, {
        template: t, chart: c, parsed: p, notRendered,
        renderText(text: string, step: string) {
          const q = parseTemplate({ path: t.rel, text });
          if (q.errors.length) return undefined;
          const templates = new Map(parsed);
          templates.set(t.rel, q);
          return { parsed: q, rendered: renderTemplate(q, { values, chart, release, capabilities: capabilitiesAt(step, openapi?.[step]?.doc), templates, topChartName: top.name }) };
        },
        get steps() {
          if (steps) return steps;
          steps = [];
          if (notRendered || p.errors.length) return steps;
          // Most steps render a template to the same text: its YAML is parsed once per distinct output.
          const yamls = new Map<string, ReturnType<typeof parseYaml>>();
          const yamlOf = (text: string) => { let y = yamls.get(text); if (!y) yamls.set(text, (y = parseYaml(text))); return y; };
          // A fragment outside a chart: each document on its own (one that stops does not stop the others).
          const parts = t.byDocument ? documentParts(p) : [p];
          let docParts: ParsedTemplate[] | undefined;
          for (const step of minors) {
            const scope = { values, chart, release, capabilities: capabilitiesAt(step, openapi?.[step]?.doc), templates: parsed, topChartName: top.name };
            let cut = parts;
            if (parts.length === 1) {
              const rendered = renderTemplate(p, scope);
              // A chart's template whose render stops: its documents are rendered one by one, so the one that stops
              // does not leave the others unchecked (a template that renders is read whole, as Helm reads it).
              cut = rendered.error && !t.byDocument ? (docParts ??= documentParts(p)) : parts;
              if (cut.length === 1) {
                for (const b of rendered.branches) allBranches.push({ step, ...b });
                steps.push(emissionsOf(p, step, rendered, helmRenders, defines, !!c.alone, yamlOf, t.byDocument ? {} : undefined, withValues));
                continue;
              }
            }
            const each = cut.map((part, n) => {
              const rendered = renderTemplate(part, scope);
              if (!rendered.error) for (const b of rendered.branches) allBranches.push({ step, ...b });
              return emissionsOf(part, step, rendered, helmRenders, defines, !!c.alone, yamlOf, { part: n + 1, parts: cut.length, template: !t.byDocument }, withValues);
            });
            steps.push({
              step,
              // What the documents that rendered output, one after the other (custom resources and branches read it).
              rendered: joinRendered(each.map((x) => x.rendered!).filter((r) => !r.error)),
              emissions: each.flatMap((x) => x.emissions),
              undecided: each.flatMap((x) => x.undecided),
            });
          }
          return steps;
        },
      });
    }
  }
  let all = false;
  const run: ChartRun = {
    top, minors, byRel, parsed,
    get branches() {
      if (!all) { all = true; for (const tr of byRel.values()) void tr.steps; }
      return allBranches;
    },
  };
  // The defaults' runs and each values scenario's (scenarios.ts MAX_SCENARIOS) are kept together.
  if (m.size > 40) m.clear();
  m.set(key, run);
  return run;
}

/**
 * The documents of a template, each as a template of its own that renders only that document: the template's
 * top-level nodes cut where splitDocuments (the one splitter of YAML documents) starts a document. A node goes whole
 * to the part it starts in, so a block or action that spans a cut is never split (a `---` inside `{{ if }} …
 * {{ end }}` leaves those documents one part); only top-level text is cut. The
 * variables the template declares at its top level before a part are declared in it too (`{{ $name := … }}` at the
 * top of the file is read by every document). Offsets stay the template's own. One part when nothing cuts.
 */
export function documentParts(p: ParsedTemplate): ParsedTemplate[] {
  if (p.errors.length) return [p];
  const cuts = splitDocuments(p.text).slice(1).map((c) => c.start);
  if (!cuts.length) return [p];
  const lists: Node[][] = cuts.map(() => []);
  lists.push([]);
  for (const n of p.root) {
    let i = 0;
    while (i < cuts.length && cuts[i] <= n.start) i++;
    if (n.k === 'text') {
      // Text crossing cuts: a piece of it in each part.
      let from = n.start;
      for (let j = i; j < cuts.length && cuts[j] < n.end; j++) {
        if (cuts[j] > from) lists[j].push({ k: 'text', start: from, end: cuts[j] });
        from = cuts[j];
      }
      if (n.end > from) lists[cuts.filter((c) => c <= from).length].push({ k: 'text', start: from, end: n.end });
      continue;
    }
    lists[i].push(n);
  }
  const declared: Node[] = [];
  const out: ParsedTemplate[] = [];
  for (const list of lists) {
    if (!list.length) continue;
    out.push({ ...p, root: [...declared, ...list] });
    for (const n of list) if (n.k === 'action' && n.pipe.decl.length) declared.push(n);
  }
  return out.length ? out : [p];
}

/** The outputs of several renders one after the other, as one render (offsets in the output shifted). */
function joinRendered(all: Rendered[]): Rendered {
  if (all.length === 1) return all[0];
  const out: Rendered = { text: '', segments: [], unknowns: [], branches: [] };
  for (const r of all) {
    const shift = out.text.length;
    out.text += r.text;
    for (const s of r.segments) out.segments.push({ ...s, outStart: s.outStart + shift, outEnd: s.outEnd + shift });
    for (const u of r.unknowns) out.unknowns.push({ ...u, outStart: u.outStart + shift, outEnd: u.outEnd + shift });
    for (const b of r.branches) out.branches.push(b);
  }
  return out;
}

/** Parsed templates by path and text, across chart reloads (a keystroke re-reads the chart, not every template's parse). */
const parseCache = new Map<string, ParsedTemplate>();
let parseCacheChars = 0;
function parseCached(path: string, text: string): ParsedTemplate {
  const key = `${path}\u0000${text}`;
  let p = parseCache.get(key);
  if (p) return p;
  p = parseTemplate({ path, text });
  if (parseCacheChars + text.length > 32 * 1048576) { parseCache.clear(); parseCacheChars = 0; }
  parseCache.set(key, p);
  parseCacheChars += text.length;
  return p;
}

const INCLUDE_NAME = /\b(?:include|template)\s+"((?:[^"\\]|\\.)*)"/;

/** The render's output offsets [a, b) in the template's own text. */
export function backToSource(p: ParsedTemplate, r: Rendered, a: number, b: number, defines?: Map<string, string>): { at: Span; literal: boolean; via?: { define?: string; file: string } } {
  const seg = r.segments.find((s) => s.outStart <= a && a < s.outEnd) ?? r.segments.find((s) => s.outStart <= a && a <= s.outEnd && s.outEnd > s.outStart);
  // Output no piece covers (none is known to exist): said at the nearest piece before it, or the template's start,
  // never dropped (a finding there would pass in silence); not a literal, so no fix is offered there.
  if (!seg) {
    let near: (typeof r.segments)[number] | undefined;
    for (const s of r.segments) if (s.path === p.path && s.outEnd <= a && (!near || s.outEnd >= near.outEnd)) near = s;
    return { at: near ? { start: near.srcEnd, end: near.srcEnd } : { start: 0, end: 0 }, literal: false };
  }
  if (seg.path === p.path && seg.origin && seg.origin.path !== p.path) {
    // Text a define of another file produced, through this template's include.
    const act = actionsOf(p).find((x) => x.start <= seg.srcStart && seg.srcEnd <= x.end) ?? actionsOf(p).find((x) => x.start >= seg.srcStart);
    const name = INCLUDE_NAME.exec(act?.source ?? p.text.slice(seg.srcStart, seg.srcEnd))?.[1];
    return { at: { start: seg.srcStart, end: seg.srcEnd }, literal: false, via: { define: name, file: seg.origin.path } };
  }
  if (seg.path === p.path) {
    if (seg.literal) {
      const start = seg.srcStart + (a - seg.outStart);
      const end = Math.min(seg.srcEnd, seg.srcStart + (b - seg.outStart));
      return { at: { start, end: Math.max(end, start) }, literal: true };
    }
    // An include/template action: the define it names, and its file (the last definition wins, as in Helm).
    const act = actionsOf(p).find((x) => x.start <= seg.srcStart && seg.srcEnd <= x.end);
    const name = act ? INCLUDE_NAME.exec(act.source)?.[1] : undefined;
    if (name && defines) {
      const file = defines.get(name);
      if (file !== undefined && file !== p.path) return { at: { start: seg.srcStart, end: seg.srcEnd }, literal: false, via: { define: name, file } };
    }
    return { at: { start: seg.srcStart, end: seg.srcEnd }, literal: false };
  }
  // From another file (a define): the include of this template that output it. The last piece of this template
  // output before it, then this template's next action.
  let last: typeof seg | undefined;
  for (const s of r.segments) if (s.path === p.path && s.outEnd <= a && (!last || s.outEnd >= last.outEnd)) last = s;
  const from = last ? last.srcEnd : 0;
  const act = actionsOf(p).find((x) => x.start >= from && (x.kind === 'output' || x.kind === 'template' || x.kind === 'block'));
  const name = act ? INCLUDE_NAME.exec(act.source)?.[1] : undefined;
  if (!act) return { at: { start: 0, end: 0 }, literal: false, via: { file: seg.path } };
  return { at: { start: act.start, end: act.end }, literal: false, via: { define: name, file: seg.path } };
}

/** Where in the template's own text an Unknown of its render is said (a block's condition: at its action). */
export function unknownAt(p: ParsedTemplate, r: Rendered, u: { path: string; start: number; end: number; outStart: number; outEnd: number }, defines?: Map<string, string>): Span {
  if (u.path === p.path) {
    // A block's condition: at its action (`{{ if … }}`), not over the whole block.
    const act = actionsOf(p).find((a) => a.start <= u.start && u.start < a.end);
    return act && act.end < u.end ? { start: u.start, end: act.end } : { start: u.start, end: u.end };
  }
  return backToSource(p, r, u.outStart, u.outEnd, defines).at;
}

export function overlaps(a: Span, b: Span): boolean { return a.start < b.end && b.start < a.end || (a.start === a.end && b.start <= a.start && a.start <= b.end); }

/**
 * What a template (or one document of a fragment outside a chart, or of a chart's template whose whole render stops:
 * `fragment`, its part among how many) emits at a step.
 * A fragment's render that stops leaves that document (or the fragment) not checked, said so.
 */
function emissionsOf(p: ParsedTemplate, step: string, r: Rendered, helmRenders: ChartRender[] | undefined, defines: Map<string, string>, alone = false, yamlOf: (text: string) => ReturnType<typeof parseYaml> = parseYaml, fragment?: { part?: number; parts?: number; template?: boolean }, withValues = DEFAULT_VALUES): TemplateStep {
  const out: TemplateStep = { step, rendered: r, emissions: [], undecided: [] };
  const ownUnknown = (u: { path: string; start: number; end: number; outStart: number; outEnd: number }): Span => unknownAt(p, r, u, defines);
  if (r.error) {
    const at = r.error.path === p.path ? { start: r.error.start, end: r.error.end } : ownUnknown({ ...r.error, outStart: r.text.length, outEnd: r.text.length });
    if (fragment?.template) {
      out.undecided.push({ step, at, reason: `this document of the template stops with an error${alone ? ' (read without its chart)' : ` with ${withValues}`}: ${r.error.message}; it is not checked, the template's other documents are` });
      return out;
    }
    if (fragment) {
      const what = fragment.parts ? 'this document of the fragment' : 'the fragment';
      out.undecided.push({ step, at, reason: `${what} stops rendering with an error (read without its chart): ${r.error.message}; it is not checked${fragment.parts ? ', the fragment\'s other documents are' : ''}` });
      return out;
    }
    out.undecided.push({ step, at, reason: `the template stops with an error${alone ? ' (read without its chart)' : ` with ${withValues}`}: ${r.error.message}` });
    return out;
  }
  const yaml = yamlOf(r.text);
  const helm = helmFor(helmRenders, p.path, step);
  // An unknown outside every document that has content (its output is empty or not known): what it stands for may
  // be a whole object, so it bears on what the template emits.
  // A document's content: from its start to its last non-blank character (a trailing `---` and what an unknown block
  // did not print after it are not part of it).
  const filled = yaml.docs.filter((d) => !d.empty).map((d) => {
    let end = d.end;
    while (end > d.offset && /\s/.test(r.text[end - 1])) end--;
    const marker = /\n---[ \t]*\r?\n?\s*$/.exec(r.text.slice(d.offset, end));
    return { doc: d, start: d.offset, end: marker ? d.offset + marker.index : end };
  });
  const within = (u: { outStart: number; outEnd: number }) => filled.some((f) => (u.outStart === u.outEnd ? f.start < u.outStart && u.outStart < f.end : f.start <= u.outStart && u.outEnd <= f.end));
  for (const u of r.unknowns) {
    if (within(u)) continue;
    out.undecided.push({ step, at: ownUnknown(u), reason: u.reason });
  }
  let index = 0;
  for (const doc of yaml.docs) {
    if (doc.empty) continue;
    const docSpan = { start: doc.offset, end: doc.end };
    const unknownsHere = r.unknowns.filter((u) => overlaps({ start: u.outStart, end: u.outEnd }, docSpan));
    const v = doc.errors.length ? undefined : doc.value;
    const i = index++;
    if (!isObj(v)) {
      if (doc.errors.length) {
        const e = doc.errors[0];
        out.undecided.push({ step, at: backToSource(p, r, e.start, e.end, defines).at, reason: `its output is not YAML with ${withValues} (${e.message})` });
      } else {
        // A document that is (or holds) what an action printed but the evaluator could not compute (`{{ .Files.Get
        // "x.yaml" }}`, `(.Files.Glob …).AsConfig`): what it stands for may be a whole object, never "nothing".
        // (One outside every filled document is said above already.)
        for (const u of unknownsHere.filter(within)) out.undecided.push({ step, at: ownUnknown(u), reason: `${u.reason}; this document is not an object as far as it is computed (what is not computed is all or part of it), so what it emits (its apiVersion and kind) is not checked` });
      }
      continue;
    }
    const api = typeof v.apiVersion === 'string' ? v.apiVersion : undefined;
    const kind = typeof v.kind === 'string' ? v.kind : undefined;
    const apiRange = 'apiVersion' in v ? doc.locate(['apiVersion']).value : undefined;
    const kindRange = 'kind' in v ? doc.locate(['kind']).value : undefined;
    const bearing = unknownsHere.filter((u) => (apiRange && overlaps({ start: u.outStart, end: u.outEnd }, apiRange)) || (kindRange && overlaps({ start: u.outStart, end: u.outEnd }, kindRange)) || (!apiRange || !kindRange));
    if (bearing.length || !api || !kind) {
      const h = helm?.emissions.find((e) => e.index === i);
      if (h && h.apiVersion && h.kind && apiRange) {
        out.emissions.push({ step, apiVersion: h.apiVersion, kind: h.kind, ...backToSource(p, r, apiRange.start, apiRange.end, defines), byHelm: true });
        continue;
      }
      if (bearing.length) {
        for (const u of bearing) out.undecided.push({ step, at: ownUnknown(u), reason: u.reason });
        continue;
      }
      if (!api && !kind) continue; // not a Kubernetes object (a values-only document, a comment block)
    }
    if (!apiRange || !api || !kind) continue;
    const push = (a: string, k: string, ar: Span, kr?: Span) => {
      const back = backToSource(p, r, ar.start, ar.end, defines);
      out.emissions.push({ step, apiVersion: a, kind: k, ...back, kindAt: kr && backToSource(p, r, kr.start, kr.end, defines).at });
    };
    // A List's items are the objects applied (as the Kubernetes family reads them).
    if (/List$/.test(kind) && !Array.isArray(v.items) && 'items' in v) {
      // A List whose items the evaluator could not compute: the objects it applies are not known.
      const itemsAt = doc.locate(['items']).value;
      const inItems = unknownsHere.filter((u) => within(u) && overlaps({ start: u.outStart, end: u.outEnd }, itemsAt));
      for (const u of inItems) out.undecided.push({ step, at: ownUnknown(u), reason: `${u.reason}, and what it prints is the items of a ${kind}: the objects it holds (their apiVersions and kinds) are not checked` });
      if (inItems.length) continue;
    }
    if (/List$/.test(kind) && Array.isArray(v.items)) {
      v.items.forEach((item: unknown, n: number) => {
        if (!isObj(item) || typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') return;
        push(item.apiVersion, item.kind, doc.locate(['items', n, 'apiVersion']).value, doc.locate(['items', n, 'kind']).value);
      });
      continue;
    }
    push(api, kind, apiRange, kindRange);
  }
  return out;
}

function helmFor(list: ChartRender[] | undefined, rel: string, step: string): { emissions: Array<{ index: number; apiVersion?: string; kind?: string }> } | undefined {
  if (!list) return undefined;
  for (const c of list) {
    if (!c.ok || c.step !== step) continue;
    const ems = c.emissions.filter((e) => e.template === rel || e.template.endsWith(`/${rel}`));
    if (ems.length) return { emissions: ems };
  }
  return undefined;
}

/**
 * What every rendered template of a chart emits at each step, as the embedded evaluator decides it (no Helm binary):
 * one row per document with an apiVersion and a kind; `template` is chart-relative (`templates/x.yaml`,
 * `charts/common/templates/y.yaml`), `line` 1-based in the template's own text (the include, for a define's output).
 * Documents the evaluator could not decide are left out (the rules say them as helm/not-evaluated).
 */
export function emissionsOfChart(top: Chart, minors: string[]): Array<{ template: string; step: string; apiVersion: string; kind: string; line: number }> {
  const run = chartRun(top, minors);
  const out: Array<{ template: string; step: string; apiVersion: string; kind: string; line: number }> = [];
  for (const tr of run.byRel.values()) {
    if (tr.notRendered) continue;
    const starts = [0];
    for (let i = 0; i < tr.template.text.length; i++) if (tr.template.text.charCodeAt(i) === 10) starts.push(i + 1);
    const lineOf = (o: number) => { let lo = 0, hi = starts.length - 1; while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= o) lo = mid; else hi = mid - 1; } return lo + 1; };
    for (const s of tr.steps) for (const e of s.emissions) if (e.apiVersion && e.kind && !e.byHelm) out.push({ template: tr.template.rel, step: s.step, apiVersion: e.apiVersion, kind: e.kind, line: lineOf(e.at.start) });
  }
  return out;
}

/** helmEmissions(chartRoot, files, minors): emissionsOfChart of the chart read from `chartRoot` through `files`. */
export function helmEmissions(chartRoot: string, files: import('../../files').FileAccess, minors: string[]): ReturnType<typeof emissionsOfChart> {
  return emissionsOfChart(loadChart(chartRoot, files), minors);
}
