// The Helm family's server side (server/family-service.ts): real Helm rendering (./helm-render.ts HelmService; in the
// web build its stub, ./helm-render.web.ts), opt-in and only in a trusted workspace. It gives a chart's files their
// renders (AnalyzeInput.helmRenders) and their `helm` fact (how the chart was read), says Helm in
// skewguard/resolvedConfig (the binary found, how a chart is read), sends each finished render as
// skewguard/progress (lsp-lint's stall timer sees a server that is working), and has a chart's other open files
// checked again when one of its files is edited (they render with it).
import type { ResolvedConfig } from '../../../config';
import { ProgressNotification, type ProgressParams, type ResolvedConfigResult } from '../../../../shared/protocol';
import type { FamilyServiceContext, FamilyServerService } from '../../../../server/family-service';
import { HelmService, chartRootOf, type HelmConfig } from './helm-render';

/** The resolved helm settings as HelmService takes them: a helm.path from the settings (no base of its own) is the root's. */
export function helmConfigOf(config: ResolvedConfig, root: string): HelmConfig {
  const h = config.helm;
  return {
    render: h.render,
    path: h.path ? { value: h.path.value, base: h.path.base ?? root, fromRepo: h.path.source.kind === 'config', named: h.path.source.kind === 'cli', ...(h.path.user ? { user: h.path.user.value } : {}) } : undefined,
    values: { files: h.values.files, base: h.values.base },
  };
}

/** The status tooltip's line on how a chart is read (the description's readBy): by skewguard's evaluator or by helm. */
function helmReadBy(helmPart: unknown): ResolvedConfigResult['readBy'] {
  const r = (helmPart as { readBy?: { readBy: string; why?: string; helmVersion?: string } } | undefined)?.readBy;
  if (!r) return undefined;
  return { label: 'Helm chart read by', by: r.readBy === 'evaluator' ? "skewguard's evaluator" : `helm ${r.helmVersion ?? ''}`, ...(r.why ? { why: r.why } : {}) };
}

export function start(ctx: FamilyServiceContext): FamilyServerService {
  const init = ctx.init;
  const helm = new HelmService({
    jobs: Math.max(1, Math.min(64, Number(init.cli?.helmJobs) || 2)),
    timeoutMs: Number(init.cli?.helmTimeoutMs) > 0 ? Number(init.cli?.helmTimeoutMs) : undefined,
    // Each render that finishes is said: lsp-lint's stall timer sees a server that is working, not a stalled one.
    progress: (chartRoot, step, ok) => ctx.notify(ProgressNotification, { family: 'helm-chart', subject: chartRoot, step, ok } satisfies ProgressParams),
  });
  // Helm runs only on a positive trust signal: the client's (VS Code's workspace trust, or an initializationOption the
  // user set in the client's own configuration) or lsp-lint's --helm-render. Nothing the repository holds counts.
  helm.trusted = init.workspaceTrusted === true || init.cli?.helmRender === true;
  helm.restricted = init.workspaceTrusted === false;
  helm.workspaceTrusted = init.workspaceTrusted === true;
  helm.workspaceRoots = () => ctx.roots();

  /** A file's renders when they are made, or the render under way. */
  const request = (file: string, config: ResolvedConfig, start: boolean) => {
    const root = ctx.rootFor(file) ?? process.cwd();
    return helm.request(file, helmConfigOf(config, root), config.kubernetes.minors, root, (f) => ctx.openText(f), start);
  };

  return {
    analysisInput(file, config, start) {
      const h = request(file, config, start);
      return { ...(h.renders ? { input: { helmRenders: h.renders } } : {}), ...(h.read ? { facts: { helm: h.read } } : {}), ...(h.pending ? { pending: h.pending } : {}) };
    },
    reset: () => helm.reset(),
    // VS Code: the user trusted the workspace; Helm may now be run (when the configuration asks for it).
    workspaceTrusted() {
      if (helm.trusted && helm.workspaceTrusted) return false;
      helm.trusted = helm.workspaceTrusted = true;
      helm.restricted = false;
      helm.reset();
      return true;
    },
    // The chart Helm renders (for a vendored subchart, its outermost parent): its files render with each other.
    groupOf: (file, exists) => chartRootOf(file, exists),
    // --print-config's and the status bar's Helm part: the settings, the binary found, how a chart would be read.
    describe(resolved, file, config, isFile) {
      const base = resolved.helm as Record<string, unknown>;
      const root = ctx.rootFor(file) ?? process.cwd();
      const found = helm.binary(helmConfigOf(config, root), root);
      const out: Record<string, unknown> = { ...base, trusted: helm.trusted, binary: found.path ?? null, looked: found.looked, ...(found.refused ? { refused: found.refused } : {}) };
      if (isFile) {
        const r = request(file, config, false);
        if (r.read) out.readBy = r.read;
      }
      resolved.helm = out;
      return { readBy: helmReadBy(out) };
    },
  };
}
