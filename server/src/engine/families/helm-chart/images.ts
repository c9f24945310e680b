// Container images a chart renders, fed to the Kubernetes family's component rules (component-not-validated,
// node-component-skew): a finding is reported where the image comes from — the `.Values` key in values.yaml (the tag,
// else the repository) when the template takes it from values, the template's own text when it is literal there.
// Rendered once, at the window's first step (images do not depend on the step's capabilities in the charts read).
import type { Emit } from '../types';
import { fieldTableWith } from '../kubernetes/data/fields';
import type { Faults } from '../../faults';
import type { AnalyzeInput } from '../../analyze';
import type { Finding, FindingFix, Rule } from '../../rules/types';
import { parseYaml } from '../../parse/yaml';
import { YamlEditor } from '../../parse/yaml-edit';
import { runRule } from '../core';
import { KubernetesContext, manifestObjects } from '../kubernetes';
import { rule as componentNotValidated } from '../kubernetes/rules/component-not-validated';
import { rule as nodeComponentSkew } from '../kubernetes/rules/node-component-skew';
import type { HelmContext } from './index';
import type { TemplateRun, Span } from './run';

const IMAGE_RULES: Array<Rule<KubernetesContext>> = [componentNotValidated, nodeComponentSkew];
const VALUES_REF = /\.Values((?:\.[A-Za-z_][\w-]*)+)/g;

export function runImageRules(ctx: HelmContext, input: AnalyzeInput, emit: Emit, faults?: Faults): void {
  const valuesDoc = ctx.kind === 'values' ? ctx.own?.values?.yaml.docs.find((d) => !d.empty) : undefined;
  let runs: TemplateRun[] = [];
  if (ctx.kind === 'template' && ctx.template && !ctx.alone) runs = [ctx.template];
  else if (ctx.kind === 'values' && ctx.own && ctx.run && valuesDoc) runs = [...ctx.run.byRel.values()].filter((t) => t.chart === ctx.own && !t.notRendered);
  const said = new Set<string>();
  for (const tr of runs) {
    const step = tr.steps[0];
    const r = step?.rendered;
    if (!r || r.error || !r.text.includes('image')) continue;
    const yaml = parseYaml(r.text);
    const objects = manifestObjects(yaml);
    if (!objects.length) continue;
    const k8s = new KubernetesContext(yaml, objects, ctx.window, ctx.rows, false, input.neighbours, input.path, input.config.starlingx.release.release, input.config.components, undefined, fieldTableWith(input.config.kubernetesOpenapi));
    const place = (f: Finding): Finding | undefined => {
      const segs = r.segments.filter((s) => s.outStart < f.range.end && f.range.start < s.outEnd);
      if (!segs.length) return undefined;
      const mine = segs.every((s) => s.path === tr.template.rel);
      if (!mine) return undefined;
      if (ctx.kind === 'template') {
        if (!segs.every((s) => s.literal)) return undefined; // from values: values.yaml says it
        const map = (o: number) => { const s = segs.find((x) => x.outStart <= o && o <= x.outEnd)!; return s.srcStart + (o - s.outStart); };
        const fixes = Array.isArray(f.fixes) ? f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ range: { start: map(e.range.start), end: map(e.range.end) }, newText: e.newText })) })) : undefined;
        return { ...f, range: { start: map(f.range.start), end: map(f.range.end) }, fixes };
      }
      // values.yaml: the `.Values` keys the image's actions read, the tag's first.
      const refs: Array<{ keys: string[]; seg: typeof segs[number] }> = [];
      for (const s of segs) {
        if (s.literal) continue;
        for (const m of tr.template.text.slice(s.srcStart, s.srcEnd).matchAll(VALUES_REF)) refs.push({ keys: m[1].slice(1).split('.'), seg: s });
      }
      const has = (keys: string[]) => { let v: unknown = valuesDoc!.value; for (const k of keys) { if (!v || typeof v !== 'object' || Array.isArray(v) || !(k in (v as object))) return false; v = (v as Record<string, unknown>)[k]; } return typeof v === 'string' || typeof v === 'number'; };
      const located = refs.filter((x) => has(x.keys)).map((x) => ({ ...x, loc: valuesDoc!.locate(x.keys) }));
      if (!located.length) return undefined;
      const best = located.find((x) => /tag|version/i.test(x.keys[x.keys.length - 1])) ?? located[0];
      const range: Span = best.loc.value;
      let fixes: FindingFix[] | undefined;
      if (Array.isArray(f.fixes)) {
        fixes = [];
        for (const x of f.fixes) {
          // The fix replaces exactly what this key printed: the same change in values.yaml.
          if (x.edits.length !== 1 || x.edits[0].range.start !== best.seg.outStart || x.edits[0].range.end !== best.seg.outEnd) continue;
          const ed = new YamlEditor(ctx.own!.values!.text, valuesDoc!, false);
          if (ed.setScalar(best.keys, x.edits[0].newText)) fixes.push({ ...x, edits: ed.edits });
        }
      }
      return { ...f, message: `${tr.template.rel} renders this image: ${f.message}`, range, fixes, data: { ...(f.data ?? {}), template: tr.template.rel, values: best.keys.join('.') } };
    };
    for (const rule of IMAGE_RULES) {
      runRule(rule, k8s, (meta, f) => {
        if (meta !== rule) { emit(meta, f); return; } // its internal error
        const g = place(f);
        if (!g) return;
        const key = `${meta.id}|${g.range.start}|${g.message}`;
        if (said.has(key)) return;
        said.add(key);
        emit(meta, g);
      }, faults);
    }
  }
}
