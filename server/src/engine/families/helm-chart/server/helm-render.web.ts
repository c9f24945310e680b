// The web build's ./helm-render (scripts/build.mjs takes a family server module's `.web.ts` sibling in the web build):
// in the browser Helm is never run (there is
// no process to run), so a chart is always read by skewguard's evaluator, and its files' `helm` fact says why.
import type { ChartRender } from '../rendered';
import { chartRootOf } from './chart-root';

// The types are the desktop module's own (type-only: erased, so the web build still bundles none of its Node code).
import type { HelmRead, HelmFound, HelmServiceOptions, HelmConfig } from './helm-render';
export type { HelmRead, HelmFound, HelmServiceOptions, HelmConfig };

export const WEB_WHY = 'in the web extension Helm is never run (no process can be started in the browser)';

export { chartRootOf } from './chart-root';

export class HelmService {
  trusted = false;
  restricted = false;
  workspaceTrusted = false;
  workspaceRoots: () => readonly string[] = () => [];
  constructor(_opts: HelmServiceOptions) { /* nothing is ever rendered */ }
  reset(): void { /* nothing cached */ }
  binary(_helm: HelmConfig, _root: string): HelmFound { return { looked: [] }; }
  request(file: string, helm: HelmConfig): { renders?: ChartRender[]; read?: HelmRead; pending?: Promise<void> } {
    const chart = chartRootOf(file);
    if (!chart) return {};
    return { read: { chart, readBy: 'evaluator', why: helm.render ? WEB_WHY : 'Helm rendering is off (helm.render: true in .skewguard.yaml)' } };
  }
}
