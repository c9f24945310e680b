// The Helm part of a file's analysis input (helm-render.ts HelmService): the chart's real renders, when the
// configuration asks for them and the workspace is trusted, or the render under way.
import type { ResolvedConfig as Resolved } from '../engine/config';
import type { HelmService, HelmConfig } from './helm-render';
import { ws, helm } from './session';

/** The Helm part of a file's analysis input: the chart's renders when they are made, or the render under way. */
export function helmInput(file: string, config: Resolved, start = true): ReturnType<HelmService['request']> {
  const root = ws.rootFor(file) ?? process.cwd();
  return helm.request(file, helmConfigOf(config, root), config.kubernetes.minors, root, (f) => ws.openTexts.get(f), start);
}

/** The resolved helm settings as HelmService takes them: a helm.path from the settings (no base of its own) is the root's. */
export function helmConfigOf(config: Resolved, root: string): HelmConfig {
  const h = config.helm;
  return {
    render: h.render,
    path: h.path ? { value: h.path.value, base: h.path.base ?? root, fromRepo: h.path.source.kind === 'config', named: h.path.source.kind === 'cli', ...(h.path.user ? { user: h.path.user.value } : {}) } : undefined,
    values: { files: h.values.files, base: h.values.base },
  };
}
