// The rules on what a template emits, run once for the chart's defaults and once for each values scenario
// (scenarios.ts): a finding is put where the template says it, and the same finding (rule, place, text) from several
// scenarios is one finding naming them ("… (with ci/legacy-values.yaml)"). A finding only the defaults give keeps its
// text as it was before scenarios existed, so a chart's reports change only where a scenario renders something else.
import type { Emit } from '../types';
import type { Faults } from '../../faults';
import type { Finding, RuleMeta, Rule } from '../../rules/types';
import { runRule } from '../core';
import type { HelmContext } from './index';
import { removedApi, deprecatedApi, notEvaluated } from './rules/emissions';
import { DEFAULTS_ID, DEFAULTS_LABEL, scenariosText } from './scenarios';

/** The rules whose findings depend on the values a chart is rendered with. */
export const SCENARIO_RULES: ReadonlyArray<Rule<HelmContext>> = [removedApi, deprecatedApi, notEvaluated];

export function runScenarioRules(ctx: HelmContext, emit: Emit, faults?: Faults): void {
  const scenarios = ctx.scenarios ?? [];
  const labels = new Map(scenarios.map((s) => [s.scenario.id, s.scenario.label]));
  // Each scenario's view of this file: its run, this template's run there (or an archive's templates).
  const views: Array<{ id: string; ctx: HelmContext }> = [{ id: DEFAULTS_ID, ctx }];
  for (const s of scenarios) {
    if (ctx.template && !s.template) continue; // not a template of the chart under these values (should not happen)
    // What of the chart could not be read is said once, with the defaults.
    views.push({ id: s.scenario.id, ctx: { ...ctx, run: s.run, template: s.template, archived: s.archived, problems: undefined } });
  }
  for (const rule of SCENARIO_RULES) {
    const merged = new Map<string, { meta: RuleMeta; f: Finding; ids: string[] }>();
    const internal = new Set<string>();
    for (const v of views) {
      runRule(rule, v.ctx, (meta, f) => {
        if (meta !== rule) {
          // Its internal error: once, whatever scenario threw it.
          if (!internal.has(f.message)) { internal.add(f.message); emit(meta, f); }
          return;
        }
        const k = `${f.range.start}:${f.range.end}|${f.message}`;
        const hit = merged.get(k);
        if (hit) { if (!hit.ids.includes(v.id)) hit.ids.push(v.id); return; }
        merged.set(k, { meta, f, ids: [v.id] });
      }, faults);
    }
    for (const { meta, f, ids } of merged.values()) {
      if (ids.length === 1 && ids[0] === DEFAULTS_ID) { emit(meta, f); continue; }
      const every = ids.length === views.length && views.length > 2 ? `${DEFAULTS_LABEL} and all ${views.length - 1} values scenarios` : scenariosText(ids, labels);
      emit(meta, { ...f, message: `${f.message} (with ${every})`, data: { ...(f.data ?? {}), scenarios: ids } });
    }
  }
}
