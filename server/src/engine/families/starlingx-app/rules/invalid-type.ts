import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { releasesText } from '../index';
import { issuesOf, sourceIn } from './common';

export const rule: Rule<AppContext> = {
  id: 'stx-app/invalid-type',
  family: 'starlingx-app',
  defaultSeverity: 'error',
  title: 'metadata.yaml value of a type sysinv rejects',
  what: 'Reports a metadata.yaml value whose type the sysinv validator of a StarlingX release on the path rejects: a mapping '
    + '(upgrades, behavior, supported_k8s_version, k8s_upgrades …) that is not a mapping, a list that is not a list, a version that is not '
    + 'a string (`minimum: 1.29` is a number in YAML), a dependent_apps entry without its name or version. The message names the releases '
    + 'that reject it and the validator line.',
  why: '`system application-upload` runs this validator and refuses the whole tarball, so a bundle that uploads on one release can be '
    + 'refused by the next one after a platform upgrade.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: 1.29\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.29.2\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/utils.py (8.0) and sysinv/common/app_metadata.py (9.0+) at the release tags (data/starlingx/app-metadata.json)'],
  check(ctx, report) {
    for (const e of ctx.entries()) {
      for (const i of issuesOf(ctx, e)) {
        if (i.kind !== 'type') continue;
        report({
          message: `${i.message}: sysinv ${releasesText(i.releases)} reject${i.releases.length === 1 ? 's' : ''} the upload (${sourceIn(e.spec!, i.releases)})`,
          range: i.range,
          data: { key: e.name, releases: i.releases },
        });
      }
    }
  },
};
