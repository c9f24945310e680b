import type { Rule } from '../../../rules/types';
import type { ReleaseRecordsContext } from '../index';
import { blocked, recordFinding, releaseText, stepsText, storesText } from './common';

export const rule: Rule<ReleaseRecordsContext> = {
  id: 'helm/release-record-rollback-api',
  family: 'helm-release-records',
  defaultSeverity: 'warning',
  title: 'An earlier Helm revision kept as a rollback target stores an API that a step of the window does not serve',
  what: 'As `helm/release-record-api`, for the records that are not the deployed revision of their release (superseded, failed, uninstalled with `--keep-history`): the revisions `helm rollback <release> <revision>` can return to. '
    + 'An object of their stored manifest whose apiVersion/kind a step does not serve is a warning at the record\'s `metadata.name`.',
  why: 'Rolling back to such a revision fails at those steps (Helm builds its stored objects to apply them), so the rollback plan of an upgrade must not count on it. The deployed revision is what every `helm upgrade` starts from (an error, `helm/release-record-api`); an earlier one matters only if it is rolled back to, hence a warning. helm-mapkubeapis rewrites the deployed revision only; `--history-max` prunes old ones.',
  bad: { filename: 'helm-releases.yaml', text: '# a superseded revision of a release whose manifest stores batch/v1beta1 CronJob\n', options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'helm-releases.yaml', text: '# the same release with only revisions whose manifests store batch/v1\n', options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['helm/helm pkg/action/rollback.go (the target revision\'s manifest is built)', 'helm/helm-mapkubeapis', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const r of ctx.records) {
      if (r.current) continue;
      const b = blocked(r, ctx.minors);
      if (!b) continue;
      const at = stepsText(b.steps, ctx.minors);
      report(recordFinding(r, b, `${releaseText(r)}${r.status ? `, ${r.status},` : ''} ${storesText(b.objects)}: at ${at} \`helm rollback ${r.name}${r.revision !== undefined ? ` ${r.revision}` : ''}\` to this revision fails`));
    }
  },
};
