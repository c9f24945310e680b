// TEMPORARY STAND-IN for the helm-template branch's evaluator (same API), so that the helm-chart family builds and
// its literal-only paths are tested before that branch lands. It evaluates nothing: a template without actions
// renders as itself; any action makes the whole output Unknown. Replaced by `git merge helm-template`.
export interface TemplateFile { path: string; text: string }
export interface TemplateProblem { path: string; start: number; end: number; message: string }
export interface ParsedTemplate { path: string; text: string; errors: TemplateProblem[] }
export type ActionKind = 'output' | 'if' | 'else' | 'else-if' | 'with' | 'range' | 'define' | 'template' | 'block' | 'end' | 'comment' | 'assign';
export interface ActionInfo { start: number; end: number; kind: ActionKind; source: string }
export interface Capabilities { kubeVersion: string; has(apiVersion: string): boolean }
export interface RenderScope {
  values: unknown; chart: Record<string, unknown>; release?: Record<string, unknown>; capabilities: Capabilities;
  templates: Map<string, ParsedTemplate>; files?: Map<string, string>;
}
export interface Segment { outStart: number; outEnd: number; path: string; srcStart: number; srcEnd: number; literal: boolean }
export interface UnknownSpan { path: string; start: number; end: number; reason: string; outStart: number; outEnd: number }
export interface Branch { path: string; id: string; start: number; end: number; cond?: string; taken: boolean | 'unknown' }
export interface Rendered { text: string; segments: Segment[]; unknowns: UnknownSpan[]; branches: Branch[]; error?: TemplateProblem }

const ACTION = /\{\{-?[\s\S]*?-?\}\}/g;

export function parseTemplate(file: TemplateFile): ParsedTemplate { return { path: file.path, text: file.text, errors: [] }; }
export function maskActions(text: string): string { return text.replace(ACTION, (m) => m.replace(/[^\r\n]/g, ' ')); }
export function actionsOf(t: ParsedTemplate): ActionInfo[] {
  return [...t.text.matchAll(ACTION)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, kind: 'output' as const, source: m[0] }));
}
export function renderTemplate(t: ParsedTemplate, _scope: RenderScope): Rendered {
  const acts = actionsOf(t);
  if (!acts.length) return { text: t.text, segments: [{ outStart: 0, outEnd: t.text.length, path: t.path, srcStart: 0, srcEnd: t.text.length, literal: true }], unknowns: [], branches: [] };
  return { text: '', segments: [], unknowns: [{ path: t.path, start: acts[0].start, end: acts[0].end, reason: 'the template evaluator is not built in yet', outStart: 0, outEnd: 0 }], branches: [] };
}
/** Masterminds semver constraint check (stand-in: undefined = not decided). */
export function semverCompare(_constraint: string, _version: string): boolean | undefined { return undefined; }
