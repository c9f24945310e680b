// The Helm chart family's per-file context: which chart file this is, its chart (read through FileAccess), the
// chart rendered at every step of the Kubernetes window, and the lifecycle facts its rules judge emissions by.
import * as path from 'node:path';
import type { KubeWindow } from '../kubernetes/config';
import type { ApiRow } from '../kubernetes/data/apis';
import { findRow, statusAt, servedKinds } from '../kubernetes/data/lifecycle';
import { rankApiVersions } from '../kubernetes';
import type { Chart, ChartTemplate } from './chart';
import type { ChartRun, TemplateRun } from './run';
import type { ScenarioRun, ValuesScenario } from './scenarios';

/** 'scenario': a values file of the chart besides values.yaml (ci/*-values.yaml, values-*.yaml); 'schema': values.schema.json. */
export type HelmFileKind = 'template' | 'chart-yaml' | 'values' | 'archive' | 'scenario' | 'schema';

export interface HelmContext {
  file: string;
  text: string;
  kind: HelmFileKind;
  window: KubeWindow;
  rows: ApiRow[];
  /** The chart the file is in (undefined: no Chart.yaml above it, or no file access). */
  chart?: Chart;
  /** The file's own chart (a dependency's, for a file of charts/<dir>/). */
  own?: Chart;
  run?: ChartRun;
  /** This template's run (kind 'template'). */
  template?: TemplateRun;
  /** Templates of a packaged dependency (kind 'archive'): reported on the archive. */
  archived?: TemplateRun[];
  /** Why the file is not checked as part of a chart (no Chart.yaml, no file access). */
  alone?: string;
  /** What of the chart could not be read, said on this file (the archive that failed, the template over the limit). */
  problems?: Array<{ message: string; range?: { start: number; end: number } }>;
  /** The chart rendered under each of its values scenarios (scenarios.ts), with this file's runs there. */
  scenarios?: Array<ScenarioRun & { template?: TemplateRun; archived?: TemplateRun[] }>;
  /** A values file of kind 'scenario': its scenario, or why it is none (undefined both: not one of the chart's). */
  scenario?: ValuesScenario;
  scenarioProblem?: string;
  /** The values.schema.json of the file's chart (kinds 'values', 'scenario', 'schema'), as read. */
  valuesSchema?: { abs: string; text?: string; why?: string };
}

export { windowText } from '../../window-text';

/** Steps as text: "1.25", "1.25, 1.26", "1.25..1.28" when consecutive in the window. */
export function stepsText(steps: string[], minors: string[]): string {
  if (steps.length <= 2) return steps.join(', ');
  const idx = steps.map((s) => minors.indexOf(s));
  const consecutive = idx.every((x, i) => i === 0 || x === idx[i - 1] + 1);
  return consecutive ? `${steps[0]}..${steps[steps.length - 1]}` : steps.join(', ');
}

export interface StepJudgement { step: string; served: boolean; deprecated: boolean; removed: boolean; row?: ApiRow }

export function judge(rows: ApiRow[], apiVersion: string, kind: string, step: string): StepJudgement | undefined {
  const row = findRow(rows, apiVersion, kind);
  if (!row || (row.component ?? 'k8s') !== 'k8s') return undefined;
  return { step, row, ...statusAt(row, step) };
}

/** apiVersions of a kind served at every step given, best first. */
export function commonApiVersions(rows: ApiRow[], kind: string, steps: string[]): string[] {
  let acc: Set<string> | undefined;
  for (const m of steps) {
    const s = new Set(servedKinds(rows, kind, m));
    acc = acc ? new Set([...acc].filter((x) => s.has(x))) : s;
  }
  return rankApiVersions([...(acc ?? [])], kind, rows, steps);
}

export function relOf(t: ChartTemplate | undefined, file: string): string {
  return t?.rel ?? path.basename(file);
}
