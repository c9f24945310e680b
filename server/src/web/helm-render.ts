// The web build's server/helm-render (scripts/build.mjs aliases it here): in the browser Helm is never run (there is
// no process to run), so a chart is always read by skewguard's evaluator, and its files' `helm` fact says why.
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { ChartRender } from '../engine/families/helm/rendered';

export interface HelmRead {
  chart: string;
  readBy: 'helm' | 'helm+evaluator' | 'evaluator';
  why?: string;
  helm?: string;
  helmVersion?: string;
  rendered?: string[];
  notRendered?: Array<{ step: string; error: string }>;
}
export interface HelmFound { path?: string; looked: string[] }
export interface HelmServiceOptions { jobs: number; progress?: (chartRoot: string, step: string, ok: boolean) => void; timeoutMs?: number; node?: string }
export interface HelmConfig { render: boolean; path?: { value: string; base?: string }; values: { files: string[]; base?: string } }

export const WEB_WHY = 'in the web extension Helm is never run (no process can be started in the browser)';

const looksLikeChartFile = (file: string) => /(^|[\\/])templates[\\/]/.test(file) || /(^|[\\/])(Chart\.ya?ml|values[^\\/]*\.ya?ml)$/i.test(file);

/** The chart a file belongs to, as the desktop server finds it (nearest Chart.yaml; a vendored subchart's parent). */
export function chartRootOf(file: string, exists: (p: string) => boolean = fs.existsSync): string | undefined {
  if (!looksLikeChartFile(file)) return undefined;
  let dir = path.dirname(file);
  let found: string | undefined;
  for (let i = 0; i < 24; i++) {
    if (exists(path.join(dir, 'Chart.yaml'))) { found = dir; break; }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  while (found && path.basename(path.dirname(found)) === 'charts' && exists(path.join(path.dirname(path.dirname(found)), 'Chart.yaml'))) {
    found = path.dirname(path.dirname(found));
  }
  return found;
}

export class HelmService {
  trusted = false;
  constructor(_opts: HelmServiceOptions) { /* nothing is ever rendered */ }
  reset(): void { /* nothing cached */ }
  binary(_helm: HelmConfig, _root: string): HelmFound { return { looked: [] }; }
  request(file: string, helm: HelmConfig): { renders?: ChartRender[]; read?: HelmRead; pending?: Promise<void> } {
    const chart = chartRootOf(file);
    if (!chart) return {};
    return { read: { chart, readBy: 'evaluator', why: helm.render ? WEB_WHY : 'Helm rendering is off (helm.render: true in .skewguard.yaml)' } };
  }
}
