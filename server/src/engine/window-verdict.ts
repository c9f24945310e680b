// The window at a glance: a file's verdict at each step of its window, and which findings concern each step.
// Which steps a finding concerns is engine/steps.ts's (read once in analyze.ts, `Diagnostic.steps`); a finding that
// names no step of the window concerns the whole window (a parse error fails every step). A file that was not
// checked has no verdicts: it is said as not checked, with why. Pure: no editor, no file system.
import type { AnalyzeResult } from './analyze';
import type { Diagnostic } from './types';
import { findingSteps } from './steps';
import { familyById } from './families/registry';
import type { FamilyModule, InlayHint } from './families/types';

export type StepVerdict = 'pass' | 'warn' | 'fail';
export interface StepAxis {
  /** What the steps are versions of (the family's FamilyModule.stepsName). */
  name: NonNullable<FamilyModule['stepsName']>;
  steps: string[];
}
export interface StepResult {
  step: string;
  verdict: StepVerdict;
  /** Indexes into the result's diagnostics: the findings that concern this step (the whole window's included). */
  findings: number[];
}
export interface WindowVerdict {
  axis?: StepAxis;
  steps: StepResult[];
  /** Findings that name no step: they concern every step. */
  wholeWindow: number[];
  /** Findings whose steps are all outside the window (advice: no step's verdict changes). */
  noStep: number[];
  /** Set when the file was not checked (skipped, internal error): why. It then has no verdicts. */
  notChecked?: string;
}

const NOT_CHECKED = new Set(['skewguard/skipped-file', 'skewguard/internal-error']);

/** The steps of the file's window (the family's, AnalyzeResult.windowSteps) and what they are versions of. */
export function stepAxisOf(result: AnalyzeResult): StepAxis | undefined {
  const steps = result.windowSteps;
  if (!steps?.length) return undefined;
  // A family with steps names them (test/families-registry.test.mjs); its title is only a guard.
  const family = familyById(result.family);
  return { name: family?.stepsName ?? family?.title ?? '', steps: [...steps] };
}

export { sameStep } from './steps';

/**
 * The steps of `axis` a finding concerns: the engine's (analyze.ts attaches them from engine/steps.ts, the one home of
 * how a finding's data names its steps; lsp-lint's matrices read the same), or 'window' when it concerns them all.
 */
export function stepsOfFinding(d: Diagnostic, axis: StepAxis): readonly string[] | 'window' {
  if (d.steps) return d.steps.length === axis.steps.length ? 'window' : d.steps;
  const s = findingSteps(d.data, axis.steps);
  return s === axis.steps ? 'window' : s;
}

const RANK: Record<StepVerdict, number> = { pass: 0, warn: 1, fail: 2 };

/** The file's verdict at each step of its window. */
export function windowVerdict(result: AnalyzeResult): WindowVerdict {
  const diags = result.diagnostics;
  const stop = diags.find((d) => NOT_CHECKED.has(d.ruleId) && d.severity !== 'hint');
  const axis = stepAxisOf(result);
  if (stop || !result.family) {
    return { axis, steps: [], wholeWindow: [], noStep: [], notChecked: stop ? stop.message : 'not a file skewguard checks' };
  }
  if (!axis) return { steps: [], wholeWindow: diags.map((_, i) => i), noStep: [] };
  const steps: StepResult[] = axis.steps.map((step) => ({ step, verdict: 'pass', findings: [] }));
  const wholeWindow: number[] = [];
  const noStep: number[] = [];
  diags.forEach((d, i) => {
    const of = stepsOfFinding(d, axis);
    const hit = of === 'window' ? steps : steps.filter((s) => of.includes(s.step));
    if (of === 'window') wholeWindow.push(i); else if (!of.length) noStep.push(i);
    const v: StepVerdict = d.severity === 'error' ? 'fail' : d.severity === 'warning' ? 'warn' : 'pass';
    for (const s of hit) {
      s.findings.push(i);
      if (RANK[v] > RANK[s.verdict]) s.verdict = v;
    }
  });
  return { axis, steps, wholeWindow, noStep };
}

const MARK: Record<StepVerdict, string> = { pass: '✓', warn: '⚠', fail: '✗' };

/**
 * The verdicts in one line: "1.21 ✓ · 1.22 ✓ · 1.23 ✗ · 1.24 ✗". Over `max` steps, runs of one verdict are joined
 * ("3.1.0–3.1.3 ✗ · 3.2.0–3.32.0 ✓").
 */
export function verdictLine(v: WindowVerdict, max = 8): string {
  if (v.notChecked) return `not checked: ${v.notChecked}`;
  if (!v.steps.length) return 'no window';
  if (v.steps.length <= max) return v.steps.map((s) => `${s.step} ${MARK[s.verdict]}`).join(' · ');
  const runs: Array<{ from: string; to: string; verdict: StepVerdict }> = [];
  for (const s of v.steps) {
    const last = runs[runs.length - 1];
    if (last && last.verdict === s.verdict) last.to = s.step; else runs.push({ from: s.step, to: s.step, verdict: s.verdict });
  }
  return runs.map((r) => `${r.from === r.to ? r.from : `${r.from}–${r.to}`} ${MARK[r.verdict]}`).join(' · ');
}

export const verdictMark = (v: StepVerdict): string => MARK[v];

// ---- inlay hints: where a version value implies a path ----

export type { InlayHint } from './families/types';

/**
 * The hints of an analysed file, its family's (FamilyModule.inlayHints): e.g. after a version value, the upgrade path
 * it implies; after a container image whose component the data knows, the steps it is validated for. None for a file
 * that was not checked or has no configuration.
 */
export function inlayHints(result: AnalyzeResult, text: string): InlayHint[] {
  if (NOT_CHECKED.has(result.diagnostics[0]?.ruleId ?? '') || !result.config) return [];
  return familyById(result.family)?.inlayHints?.(result, text) ?? [];
}
