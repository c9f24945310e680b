// The fields of the Kubernetes objects a chart's templates render, checked by the rules that check plain manifests'
// fields (k8s/field-not-served, k8s/unknown-field, k8s/invalid-enum-value, k8s/field-type, k8s/field-feature-gated,
// k8s/fields-not-checked). Without this a chart was checked for its apiVersions and kinds only: `spec.replica:` or a
// field 1.22 drops passed in a template where the same text as a plain file is an error.
//
// Each distinct output of a template (the embedded evaluator, every step of the window) is read as a Kubernetes file
// whose window is the steps that render it so (a `.Capabilities` branch renders another object at other steps, judged
// at those), and each finding is put back in the template as custom-resources.ts puts the k8s/cr-* findings: a
// literal at its own span (with its fix, when every edit falls in literal text of the template), a value from an
// action at the action, a define's output at the include. What touches a value the evaluator could not compute is
// not judged (it is a placeholder): those are said by helm/not-evaluated where they bear on what is emitted.
import type { Emit } from '../types';
import { fieldTableWith } from '../kubernetes/data/fields';
import type { Faults } from '../../faults';
import type { AnalyzeInput } from '../../analyze';
import type { Finding, Rule, RuleMeta } from '../../rules/types';
import { parseYaml } from '../../parse/yaml';
import { runRule } from '../core';
import { KubernetesContext, manifestObjects } from '../kubernetes';
import { groupVersion, mayBeCustomGroup } from '../kubernetes/crds';
import { rule as fieldNotServed } from '../kubernetes/rules/field-not-served';
import { rule as unknownField } from '../kubernetes/rules/unknown-field';
import { rule as invalidEnumValue } from '../kubernetes/rules/invalid-enum-value';
import { rule as fieldType } from '../kubernetes/rules/field-type';
import { rule as fieldFeatureGated } from '../kubernetes/rules/field-feature-gated';
import { rule as fieldsNotChecked } from '../kubernetes/rules/fields-not-checked';
import { runsOf } from './rules/emissions';
import type { HelmContext } from './index';
import type { TemplateRun } from './run';
import { putBack } from './custom-resources';
import type { Rendered } from './template';

export const FIELD_RULES: Array<Rule<KubernetesContext>> = [fieldNotServed, unknownField, invalidEnumValue, fieldType, fieldFeatureGated, fieldsNotChecked];

const builtIn = (av: string | undefined): boolean => !!av && !(av.includes('.') && av.includes('/') && mayBeCustomGroup(groupVersion(av).group));
/** A step at which the template emits a Kubernetes object of a built-in group (decided by the evaluator, not Helm). */
const emitsBuiltIn = (s: TemplateRun['steps'][number]): boolean => s.emissions.some((e) => !e.byHelm && builtIn(e.apiVersion));

export function runFieldRules(ctx: HelmContext, input: AnalyzeInput, emit: Emit, faults?: Faults): void {
  if (!ctx.run) return;
  let defines: Map<string, string> | undefined;
  for (const { tr, place } of runsOf(ctx)) {
    if (!tr.steps.some(emitsBuiltIn)) continue;
    if (!defines) {
      defines = new Map();
      for (const t of ctx.run.parsed.values()) for (const d of t.defines ?? []) defines.set(d.name, t.path);
    }
    checkTemplate(ctx, input, tr, place, defines, emit, faults);
  }
}

interface Said { meta: RuleMeta; f: Finding }

function checkTemplate(ctx: HelmContext, input: AnalyzeInput, tr: TemplateRun, place: ReturnType<typeof runsOf>[number]['place'], defines: Map<string, string>, emit: Emit, faults?: Faults): void {
  const p = tr.parsed;
  // Steps that render the template to the same text are read once, as one file whose window is those steps.
  const outputs = new Map<string, { r: Rendered; steps: string[] }>();
  for (const s of tr.steps) {
    const r = s.rendered;
    if (!r || r.error || !emitsBuiltIn(s)) continue;
    const o = outputs.get(r.text);
    if (o) o.steps.push(s.step); else outputs.set(r.text, { r, steps: [s.step] });
  }
  const said = new Map<string, Said>();
  const table = fieldTableWith(input.config.kubernetesOpenapi);
  for (const { r, steps } of outputs.values()) {
    const yaml = parseYaml(r.text);
    const objects = manifestObjects(yaml).filter((o) => builtIn(o.apiVersion));
    if (!objects.length) continue;
    const window = { ...ctx.window, minors: steps, patches: undefined };
    const k8s = new KubernetesContext(yaml, objects, window, ctx.rows, false, input.neighbours, input.path, input.config.starlingx.release.release, input.config.components, undefined, table);
    const back = putBack(ctx, p, r, yaml, defines, place);
    for (const rule of FIELD_RULES) {
      runRule(rule, k8s, (meta, f) => {
        if (meta !== rule) { emit(meta, f); return; } // its internal error
        const b = back(f);
        if (!b) return;
        const message = `${b.prefix}${f.message}${b.via}`;
        const key = `${meta.id}|${b.range.start}:${b.range.end}|${message}`;
        if (!said.has(key)) said.set(key, { meta, f: { ...f, message, range: b.range, fixes: b.fixes, data: { ...(f.data ?? {}), template: tr.template.rel, ...(steps.length < ctx.window.minors.length ? { renderedAt: steps } : {}) } } });
      }, faults);
    }
  }
  for (const { meta, f } of [...said.values()].sort((a, b) => a.f.range.start - b.f.range.start)) emit(meta, f);
}
