import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { releasesText } from '../index';
import { issuesOf, sourceIn } from './common';

export const rule: Rule<AppContext> = {
  id: 'stx-app/invalid-value',
  family: 'starlingx-app',
  defaultSeverity: 'error',
  title: 'metadata.yaml value sysinv rejects',
  what: 'Reports a metadata.yaml value that the sysinv validator of a StarlingX release on the path rejects: a boolean string other '
    + 'than true/false/yes/no/y/n/1/0, `k8s_upgrades.timing` other than pre or post, a `class` outside critical/storage/discovery/optional/reporting, '
    + 'a supported_k8s_version minimum/maximum that is not `vX.Y` or `vX.Y.Z` (10.0+), an empty app_name/app_version (9.0+), a dependent_apps action '
    + 'other than warn/ignore/error/apply. 9.0\'s validator does not enforce boolean strings and lists (a bug the data records), so 9.0 is not named for them.',
  why: '`system application-upload` refuses the tarball, on the release that enforces the check; the message names those releases.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\nk8s_upgrades:\n  auto_update: true\n  timing: before\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\nk8s_upgrades:\n  auto_update: true\n  timing: pre\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/utils.py (8.0) and sysinv/common/app_metadata.py (9.0+) at the release tags (data/starlingx/app-metadata.json)'],
  check(ctx, report) {
    for (const e of ctx.entries()) {
      for (const i of issuesOf(ctx, e)) {
        if (i.kind !== 'value') continue;
        report({
          message: `${i.message}: sysinv ${releasesText(i.releases)} reject${i.releases.length === 1 ? 's' : ''} the upload (${sourceIn(e.spec!, i.releases)})`,
          range: i.range,
          data: { key: e.name, releases: i.releases },
        });
      }
    }
  },
};
