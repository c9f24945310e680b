import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { releasesText } from '../index';
import { appMetadata } from '../data';

export const rule: Rule<AppContext> = {
  id: 'stx-app/release-not-covered',
  family: 'starlingx-app',
  defaultSeverity: 'info',
  title: 'StarlingX release whose metadata.yaml checks the data does not have',
  what: 'Says, at the first key, which StarlingX releases of the upgrade path this metadata.yaml is not checked for: the data of '
    + 'sysinv\'s metadata validator starts at 8.0 (7.0 and earlier applications used Armada manifests; their metadata handling is not in the data).',
  why: 'Never a silent pass: a release the checks do not cover is said, not assumed to accept the file.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\n', options: 'StarlingX 7.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.24.4\n', options: 'StarlingX 8.0' },
  fix: 'none',
  sources: ['data/starlingx/app-metadata.json (releases)'],
  check(ctx, report) {
    if (!ctx.uncovered.length) return;
    report({
      message: `not checked for StarlingX ${releasesText(ctx.uncovered)}: the metadata.yaml data starts at ${appMetadata().releases[0]} (${ctx.releases.length ? `checked for ${releasesText(ctx.releases)}` : 'no release of the path is checked'})`,
      range: ctx.topRange,
      data: { uncovered: ctx.uncovered, checked: ctx.releases },
    });
  },
};
