// The window at a glance: a file's verdict at each step of its window, and which findings concern each step.
// Which steps a finding concerns is engine/steps.ts's (read once in analyze.ts, `Diagnostic.steps`); a finding that
// names no step of the window concerns the whole window (a parse error fails every step). A file that was not
// checked has no verdicts: it is said as not checked, with why. Pure: no editor, no file system.
import type { AnalyzeResult } from './analyze';
import type { Diagnostic } from './types';
import { findingSteps } from './steps';
import { componentOf, versionRow, standingAt, type Standing } from './families/kubernetes/data/components';
import { starlingxPath } from './families/starlingx/data';
import { LineIndex } from './text';
import { familyById } from './families/registry';
import type { FamilyModule } from './families/types';
import { windowText } from './window-text';

export type StepVerdict = 'pass' | 'warn' | 'fail';
export interface StepAxis {
  /** What the steps are versions of (the family's FamilyModule.stepsName). */
  name: 'Kubernetes' | NonNullable<FamilyModule['stepsName']>;
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
  return { name: familyById(result.family)?.stepsName ?? 'Kubernetes', steps: [...steps] };
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

export interface InlayHint {
  /** Zero-based line and UTF-16 character the hint is shown at (after the value). */
  position: { line: number; character: number };
  label: string;
  tooltip: string;
}

// A plain X.Y.Z only: a `v` prefix is not a version StarlingX takes (starlingx/kubernetes-version-v-prefix says so).
const KUBERNETES_VERSION = /^kubernetes_version[ \t]*:[ \t]*(["']?)(\d+\.\d+\.\d+)\1[ \t]*(?:#.*)?$/m;
const STANDING_MARK: Record<Standing, string> = { validated: '✓', documented: '✓', incompatible: '✗', unlisted: '?' };

/**
 * The hints of an analysed file: after a localhost.yml's kubernetes_version, the upgrade path it implies
 * ("→ 1.21.3: 3 upgrades"; none for the newest version, which implies no path); after a container image whose component the data knows, the steps it is validated for.
 */
export function inlayHints(result: AnalyzeResult, text: string): InlayHint[] {
  const out: InlayHint[] = [];
  if (NOT_CHECKED.has(result.diagnostics[0]?.ruleId ?? '') || !result.config) return out;
  const lines = new LineIndex(text);
  const m = isStarlingxResult(result) ? KUBERNETES_VERSION.exec(text) : null;
  if (m) {
    const rel = result.config.starlingx.release;
    const version = m[2];
    // A version the release ships and upgrades from (the newest implies no path: no hint).
    const p = rel.kubernetes.some((k) => k.version === version) ? starlingxPath(rel, version) : [];
    const n = p.length - 1;
    if (n > 0) {
      const end = m.index + m[0].replace(/[ \t]*(#.*)?$/, '').length;
      out.push({
        position: lines.positionAt(end),
        label: `→ ${p[n]}: ${n} upgrade${n === 1 ? '' : 's'}`,
        tooltip: `StarlingX ${rel.release} upgrades Kubernetes one minor at a time: ${p.join(' → ')}.`,
      });
    }
  }
  const k8s = result.k8s;
  const minors = result.config.kubernetes.minors;
  if (k8s && minors.length) {
    for (const img of k8s.images()) {
      const c = img.component ?? componentOf(img.ref);
      const row = c && img.ref.tag ? versionRow(c, img.ref.tag) : undefined;
      if (!c || !row) continue;
      const at = minors.map((mn) => ({ minor: mn, s: standingAt(row, mn) }));
      const ok = at.filter((x) => x.s === 'validated' || x.s === 'documented');
      const label = ok.length === at.length
        ? `validated for ${rangeText(minors)}`
        : ok.length ? `validated for ${ok.map((x) => x.minor).join(', ')} only` : `validated for no step of ${rangeText(minors)}`;
      out.push({
        position: lines.positionAt(img.range.end),
        label,
        tooltip: `${c.name} ${row.version}: ${at.map((x) => `${x.minor} ${STANDING_MARK[x.s]} ${x.s}`).join(', ')}.`,
      });
    }
  }
  return out;
}

const rangeText = (m: string[]) => windowText(m, '–');

/** A localhost.yml's result (told by its family's facts, which say the StarlingX release). */
function isStarlingxResult(result: AnalyzeResult): boolean {
  try { return familyById(result.family)?.facts(result)?.starlingxRelease !== undefined; } catch { return false; }
}
