// Custom resources a chart's templates render, checked against the workspace's CustomResourceDefinitions by the rules
// that check plain manifests (k8s/cr-*): each distinct output of a template (the embedded evaluator, every step of the
// window) is read as a Kubernetes file, and each finding is put back in the template as the chart's apiVersion rules put
// theirs (run.ts backToSource: a literal at its own span, a value from an action at the action, a define's output at the
// include; a packaged dependency's template on its archive, prefixed). What of a custom resource the evaluator could not
// compute is said (helm/not-evaluated) instead of judged: a value that is not known is never "the wrong type".
import type { Emit } from '../types';
import { fieldTableWith } from '../kubernetes/data/fields';
import type { Faults } from '../../faults';
import type { AnalyzeInput } from '../../analyze';
import type { Finding, FindingFix, Rule, RuleMeta } from '../../rules/types';
import { parseYaml } from '../../parse/yaml';
import { runRule } from '../core';
import { KubernetesContext, manifestObjects } from '../kubernetes';
import { groupVersion, mayBeCustomGroup, crdName } from '../kubernetes/crds';
import { rule as crVersionNotServed } from '../kubernetes/rules/cr-version-not-served';
import { rule as crVersionDeprecated } from '../kubernetes/rules/cr-version-deprecated';
import { rule as crUnknownField } from '../kubernetes/rules/cr-unknown-field';
import { rule as crInvalidValue } from '../kubernetes/rules/cr-invalid-value';
import { rule as operatorNotServed } from '../kubernetes/rules/operator-api-not-served';
import { rule as operatorDeprecated } from '../kubernetes/rules/operator-api-deprecated';
import { rule as operatorStorageDropped } from '../kubernetes/rules/operator-storage-version-dropped';
import { fileOperatorWindows } from '../kubernetes/operators';
import { notEvaluated, runsOf } from './rules/emissions';
import { stepsText, type HelmContext } from './index';
import { backToSource, unknownAt, overlaps, type Span, type TemplateRun } from './run';
import type { Rendered } from './template';

// The operators' resources (k8s/operator-*, at each operator's window: components/operators.ts) too.
const CR_RULES: Array<Rule<KubernetesContext>> = [crVersionNotServed, crVersionDeprecated, crUnknownField, crInvalidValue, operatorNotServed, operatorDeprecated, operatorStorageDropped];

const customApiVersion = (av: string | undefined): boolean => !!av && av.includes('.') && av.includes('/') && mayBeCustomGroup(groupVersion(av).group);

/** A finding put in the template; `text(steps)` its message (a note names its steps, a finding those it is limited to). */
interface Said { meta: RuleMeta; f: Finding; text: (shown: string, some: boolean) => string; steps: string[] }

export function runCustomResourceRules(ctx: HelmContext, input: AnalyzeInput, emit: Emit, faults?: Faults): void {
  const run = ctx.run;
  if (!run) return;
  let defines: Map<string, string> | undefined;
  for (const { tr, place } of runsOf(ctx)) {
    // Only a template that emits an object of a custom group is read again (most emit Kubernetes' own kinds only).
    if (!tr.steps.some((s) => s.emissions.some((e) => !e.byHelm && customApiVersion(e.apiVersion)))) continue;
    if (!defines) {
      defines = new Map();
      for (const t of run.parsed.values()) for (const d of t.defines ?? []) defines.set(d.name, t.path);
    }
    checkTemplate(ctx, input, tr, place, defines, emit, faults);
  }
}

function checkTemplate(ctx: HelmContext, input: AnalyzeInput, tr: TemplateRun, place: ReturnType<typeof runsOf>[number]['place'], defines: Map<string, string>, emit: Emit, faults?: Faults): void {
  const p = tr.parsed;
  // Steps that render the template to the same text are read once.
  const outputs = new Map<string, { r: Rendered; steps: string[] }>();
  for (const s of tr.steps) {
    const r = s.rendered;
    if (!r || r.error) continue;
    const o = outputs.get(r.text);
    if (o) o.steps.push(s.step); else outputs.set(r.text, { r, steps: [s.step] });
  }
  const rendered = [...outputs.values()].flatMap((o) => o.steps);
  const said = new Map<string, Said>();
  const say = (meta: RuleMeta, f: Finding, key: string, text: Said['text'], steps: string[]) => {
    const k = `${meta.id}|${f.range.start}:${f.range.end}|${key}`;
    const hit = said.get(k);
    if (hit) { for (const s of steps) if (!hit.steps.includes(s)) hit.steps.push(s); return; }
    said.set(k, { meta, f, text, steps: [...steps] });
  };
  for (const { r, steps } of outputs.values()) {
    const yaml = parseYaml(r.text);
    const objects = manifestObjects(yaml);
    if (!objects.some((o) => customApiVersion(o.apiVersion))) continue;
    const k8s = new KubernetesContext(yaml, objects, ctx.window, ctx.rows, false, input.neighbours, input.path, input.config.starlingx.release.release, input.config.components, undefined, fieldTableWith(input.config.kubernetesOpenapi));
    k8s.operatorWindowsOf = fileOperatorWindows(input.config, input.neighbours);
    const back = putBack(ctx, p, r, yaml, defines, place);
    for (const rule of CR_RULES) {
      runRule(rule, k8s, (meta, f) => {
        if (meta !== rule) { emit(meta, f); return; } // its internal error
        const b = back(f);
        if (!b) return;
        const message = `${f.message}${b.via}`;
        say(meta, { ...f, range: b.range, fixes: b.fixes, data: { ...(f.data ?? {}), template: tr.template.rel } }, message,
          (shown, some) => `${b.prefix}${some ? `at ${shown}: ` : ''}${message}`, steps);
      }, faults);
    }
    // What of a custom resource the evaluator could not compute: said at its action, not checked against the CRD.
    for (const { o, c } of k8s.customResources()) {
      const span = { start: o.doc.offset, end: o.doc.end };
      for (const u of r.unknowns) {
        if (!overlaps({ start: u.outStart, end: u.outEnd }, span) && !overlaps(span, { start: u.outStart, end: u.outEnd })) continue;
        const at = place(unknownAt(p, r, u, defines));
        const why = `${crdName(c.crd)}: ${u.reason}`;
        say(notEvaluated, { message: '', range: at.range, data: { template: tr.template.rel, crd: c.crd.name, notChecked: true } }, why,
          (shown) => `${at.prefix}not checked at ${shown} against ${why}`, steps);
      }
    }
  }
  for (const { meta, f, text, steps } of [...said.values()].sort((a, b) => a.f.range.start - b.f.range.start)) {
    // Said at some of the steps only (the template renders another object elsewhere): which.
    const some = steps.length < rendered.length;
    emit(meta, { ...f, message: text(stepsText(steps, ctx.window.minors), some), data: { ...f.data, ...(meta === notEvaluated || some ? { steps } : {}) } });
  }
}

/**
 * A finding on a template's rendered text put back in the template (the k8s/cr-* and field rules' findings,
 * field-rules.ts): undefined when it touches a value the evaluator could not compute (a placeholder: what is said at
 * or around it is not known); else its place (run.ts backToSource: a literal at its own span, a value at its action, a
 * define's output at the include), the "(from the define …)" words, and its fixes where every edit is literal text.
 */
export function putBack(ctx: HelmContext, p: TemplateRun['parsed'], r: Rendered, yaml: ReturnType<typeof parseYaml>, defines: Map<string, string>, place: ReturnType<typeof runsOf>[number]['place'])
  : (f: Finding) => { range: Span; prefix: string; via: string; fixes: Finding['fixes'] } | undefined {
  const unknownSpans = r.unknowns.map((u) => ({ start: u.outStart, end: u.outEnd }));
  const touchesUnknown = (a: Span) => unknownSpans.some((u) => overlaps(a, u) || overlaps(u, a));
  const docOf = (off: number) => yaml.docs.find((d) => d.offset <= off && off <= d.end);
  return (f) => {
    if (touchesUnknown(f.range)) return undefined;
    const doc = docOf(f.range.start);
    if ((f.data?.got === 'null' || f.data?.got === null) && doc && unknownSpans.some((u) => doc.offset <= u.start && u.end <= doc.end)) return undefined;
    const back = backToSource(p, r, f.range.start, f.range.end, defines);
    const at = place(back.at);
    const via = back.via ? ` (from ${back.via.define ? `the define "${back.via.define}" in ` : ''}${back.via.file})` : '';
    return { range: at.range, prefix: at.prefix, via, fixes: ctx.template && back.literal && !back.via ? mapFixes(f.fixes, r, p.path) : undefined };
  };
}

/** A fix's edits in the rendered text, put in the template when each falls in one literal piece of its own text. */
function mapFixes(fixes: Finding['fixes'], r: Rendered, own: string): Finding['fixes'] {
  if (!fixes) return undefined;
  const map = (list: FindingFix[]): FindingFix[] => {
    const out: FindingFix[] = [];
    for (const x of list) {
      const edits = x.edits.map((e) => {
        const seg = r.segments.find((s) => s.literal && !s.origin && s.path === own && s.outStart <= e.range.start && e.range.end <= s.outEnd);
        return seg ? { range: { start: seg.srcStart + (e.range.start - seg.outStart), end: seg.srcStart + (e.range.end - seg.outStart) }, newText: e.newText } : undefined;
      });
      if (edits.every((e) => e)) out.push({ ...x, edits: edits as FindingFix['edits'] });
    }
    return out;
  };
  return typeof fixes === 'function' ? () => map(fixes()) : map(fixes);
}
