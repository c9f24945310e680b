import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { didYouMean } from '../../../text';
import { appMetadata } from '../data';

export const rule: Rule<AppContext> = {
  id: 'stx-app/unknown-key',
  family: 'starlingx-app',
  defaultSeverity: 'warning',
  title: 'metadata.yaml key that no StarlingX release reads',
  what: 'Reports a key of an application\'s metadata.yaml (at the top level or inside upgrades, downgrades, supported_k8s_version, '
    + 'k8s_upgrades, behavior) that sysinv reads in no release, with a "did you mean" when a known key is close. `repo:` (the name the '
    + 'sysinv docstring uses) is pointed at `helm_repo`, the key the code reads.',
  why: 'sysinv ignores keys it does not know, so a misspelt `supported_k8s_versions` or `k8s_upgrade` uploads fine and the setting '
    + 'silently has no effect: the app is then treated as supporting every Kubernetes version, or is auto-updated with the defaults.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\nk8s_upgrade:\n  auto_update: true\n  timing: post\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\nk8s_upgrades:\n  auto_update: true\n  timing: post\n', options: 'StarlingX 12.0' },
  fix: 'suggestion',
  sources: ['starlingx/config sysinv/common/app_metadata.py validate_metadata_file (data/starlingx/app-metadata.json: unknown keys are ignored)'],
  check(ctx, report) {
    const all = appMetadata().keys;
    for (const e of ctx.entries()) {
      if (e.spec) continue;
      const parent = e.path.slice(0, -1).join('.');
      const siblings = all.filter((k) => k.path.slice(0, -1).join('.') === parent).map((k) => k.path[k.path.length - 1]);
      const last = e.path[e.path.length - 1];
      const hint = e.path.length === 1 && last === 'repo' ? 'helm_repo' : didYouMean(last, siblings);
      const src = ctx.file.text.slice(e.keyRange.start, e.keyRange.end);
      const q = /^["']/.test(src) ? src[0] : '';
      report({
        message: `unknown key "${e.name}": sysinv reads no such key in any release and ignores it, so it has no effect`
          + (hint === 'helm_repo' && last === 'repo' ? '; sysinv\'s docstring calls the Helm repository key "repo", but the code reads "helm_repo"' : hint ? `; did you mean "${hint}"?` : ''),
        range: e.keyRange,
        fixes: hint ? [{ title: `Rename to ${hint}`, edits: [{ range: e.keyRange, newText: `${q}${hint}${q}` }], destructive: true }] : [],
        data: { key: e.name, suggestion: hint ?? null },
      });
    }
  },
};
