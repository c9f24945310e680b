import * as path from 'node:path';
import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
/** A remote base (URL, git reference): not a file of the workspace. */
const remote = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /^(git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/.test(s) || /\?ref=|\/\/.*\.git\b/.test(s);
/** At most this many entries are looked up per file (each is a read or a listing). */
const MAX_LOOKUPS = 500;

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/missing-resource',
  family: 'kustomize',
  defaultSeverity: 'warning',
  title: 'Listed resource, base, component or patch file that does not exist',
  what: 'Reports an entry of `resources`, `bases`, `components`, `crds`, `patchesStrategicMerge`, or a `path:` of `patches` / '
    + '`patchesJson6902`, that names a local file or folder which does not exist. Needs the editor\'s '
    + 'or lsp-lint\'s file access; without it nothing is looked up. A listed file that is there but not read (over the size limit, a folder '
    + 'that cannot be listed) is an info note saying so, not a missing file; so is an entry outside the workspace (never read nor looked '
    + 'at: "outside the workspace, not read"), and the remote bases (never fetched), said once at the first.',
  why: '`kubectl apply -k` stops at a missing file at every step; a typo in an overlay\'s list is usually found only when the deploy fails.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deploymnet.yaml\n', options: 'Kubernetes 1.26..1.28' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n', options: 'Kubernetes 1.26..1.28' },
  fix: 'none',
  sources: ['kubernetes-sigs/kustomize api/internal/target (resources, components and patch files are loaded relative to the kustomization root)'],
  check(ctx, report) {
    const files = ctx.files;
    if (!files) return;
    const dir = path.dirname(ctx.path);
    let lookups = 0;
    let capped = false;
    const remotes: Array<{ rel: string; at: Array<string | number> }> = [];
    const look = (rel: string, at: Array<string | number>, what: string) => {
      if (!rel) return;
      if (remote(rel)) { remotes.push({ rel, at }); return; }
      if (lookups >= MAX_LOOKUPS) {
        if (!capped) report({ message: `not looked up: this entry and the ones after it (at most ${MAX_LOOKUPS} entries are looked up per kustomization)`, range: ctx.locate(at).value, severity: 'info', data: { limit: MAX_LOOKUPS } });
        capped = true;
        return;
      }
      lookups++;
      const abs = path.resolve(dir, rel);
      // Outside the checked roots: never read nor looked at (whether it exists is not said either).
      if (files.outside?.(abs)) {
        report({ message: `${what} ${rel} is outside the workspace, not read: it is not checked (looked up as ${abs})`, range: ctx.locate(at).value, severity: 'info', data: { entry: rel, path: abs, outside: true, notChecked: true } });
        return;
      }
      if (files.read(abs) !== undefined || files.list(abs) !== undefined) return;
      // There but not read (over the size limit, a folder that cannot be listed): not missing, and not checked.
      const why = files.unreadable?.(abs);
      if (why) {
        report({ message: `${what} ${rel} is there but was not read (${why}): it is not checked (looked up as ${abs})`, range: ctx.locate(at).value, severity: 'info', data: { entry: rel, path: abs, unreadable: why, notChecked: true } });
        return;
      }
      report({ message: `${what} ${rel} does not exist (looked up as ${abs}): kustomize stops here at every step`, range: ctx.locate(at).value, data: { entry: rel, path: abs } });
    };
    for (const field of ['resources', 'bases', 'components', 'crds', 'patchesStrategicMerge']) {
      const list = ctx.value[field];
      if (!Array.isArray(list)) continue;
      list.forEach((x, i) => { if (typeof x === 'string' && !/[\r\n]/.test(x)) look(x, [field, i], `the ${field} entry`); });
    }
    for (const field of ['patches', 'patchesJson6902']) {
      const list = ctx.value[field];
      if (!Array.isArray(list)) continue;
      list.forEach((x, i) => { if (isObj(x) && typeof x.path === 'string') look(x.path, [field, i, 'path'], `the ${field} file`); });
    }
    // Remote bases are never fetched: said once, at the first, as not checked.
    if (remotes.length) {
      const more = remotes.length > 1 ? ` (and ${remotes.length - 1} more remote entr${remotes.length === 2 ? 'y' : 'ies'}: ${remotes.slice(1, 4).map((r) => r.rel).join(', ')}${remotes.length > 4 ? ', …' : ''})` : '';
      report({ message: `remote ${remotes[0].rel}${more} is not fetched: what it holds is not checked`, range: ctx.locate(remotes[0].at).value, severity: 'info', data: { remote: remotes.map((r) => r.rel), notChecked: true } });
    }
  },
};
