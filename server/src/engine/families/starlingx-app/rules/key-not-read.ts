import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { releasesText } from '../index';

export const rule: Rule<AppContext> = {
  id: 'stx-app/key-not-read',
  family: 'starlingx-app',
  defaultSeverity: 'warning',
  title: 'metadata.yaml key that a StarlingX release on the path does not read',
  what: 'Reports a metadata.yaml key that some StarlingX releases read but one of the releases on the upgrade path does not: '
    + '`k8s_upgrades` before 9.0, `downgrades` before 10.0, `class`, `dependent_apps` and `dependent_parent_exceptions` before 11.0, '
    + '`behavior.evaluate_reapply.after` from 12.0 (replaced by dependent_apps).',
  why: 'On that release the setting has no effect (sysinv ignores the key): e.g. an 8.0 system does not auto-update the app during a '
    + 'Kubernetes upgrade whatever `k8s_upgrades` says.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\nclass: critical\n', options: 'StarlingX 10.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\n', options: 'StarlingX 10.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/app_metadata.py at the release tags (data/starlingx/app-metadata.json)'],
  check(ctx, report) {
    for (const e of ctx.entries()) {
      if (!e.spec) continue;
      const reads = Object.keys(e.spec.releases);
      const not = ctx.releases.filter((r) => !e.spec!.releases[r]);
      if (!not.length) continue;
      // Said once, at the mapping, when its parent is not read there either (k8s_upgrades on 8.0, not each of its keys).
      const parent = e.path.length > 1 ? ctx.entry(e.path.slice(0, -1).join('.'))?.spec : undefined;
      if (parent && not.every((r) => !parent.releases[r])) continue;
      report({
        message: `${e.name} is not read by sysinv ${releasesText(not)} (read in ${releasesText(reads)}): there the setting has no effect`,
        range: e.keyRange,
        data: { key: e.name, notReadIn: not, readIn: reads },
      });
    }
  },
};
