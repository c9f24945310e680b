import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { starlingxReleases } from '../data';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/release-not-covered',
  family: 'starlingx',
  defaultSeverity: 'info',
  title: 'StarlingX release whose bootstrap keys the data does not have',
  what: 'Says, at the first key, that the file is not checked against the selected StarlingX release because the data has no '
    + 'key list for it (3.0 and 4.0: no `host_vars/bootstrap/default.yml` in the reference): its keys, their types and values '
    + 'are not checked there. What is known of the release is still said (`kubernetes_version` is not read by 3.0 – 5.0: '
    + '`starlingx/key-not-read`).',
  why: 'Never a silent pass: a file that was not checked must not look like one that passed.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\n', options: 'StarlingX 3.0' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\n', options: 'StarlingX 5.0' },
  fix: 'none',
  sources: ['data/starlingx/releases.json (hasSchema: a host_vars/bootstrap/default.yml snapshot in the shared reference starlingx/bootstrap-defaults)'],
  check(ctx, report) {
    if (ctx.release.hasSchema) return;
    const covered = starlingxReleases().releases.filter((r) => r.hasSchema).map((r) => r.release);
    const first = ctx.doc.topLevelEntries()[0];
    const at = first ? first.keyRange.start : ctx.doc.rootRange().start;
    report({
      message: `not checked against StarlingX ${ctx.release.release}: the data has no key list for that release (no bootstrap defaults of it), `
        + `so its keys, their types and values are not checked; key lists start at ${covered[0]}`,
      range: first ? first.keyRange : { start: at, end: at },
      data: { release: ctx.release.release, covered },
    });
  },
};
