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
  bad: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v5\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: superseded\n    version: \"5\"\ndata:\n  release: SDRzSUFBQUFBQUFDQTAyUHZXb0RNUkNFWDBWc09uTS9Qa3dhdGVuU0dsS3BXVWxyVHZGcEpiU1NJWmg3ZHlNbkFUUE53RERETjNkZ2pBUWF2SVVCQWw4UzZEdEl4ZG9FTkVqTFZJUThlZGdIY0N1VzJ2TklGVDFXN1A2MWY2TWlJVEZvV0tiamRJSjlIeUFpaHd0SkJRM2pPQnArVStmVWlpT3R2SjByeGJ4aEpabGRTZnlkN1BTRGNUT01PWHo5Ym1sbHNicDF2aTJXS2k2R3I0RzlWaDhsOFdleWh2OVJ0R0dsT2t2ZkhTMjZhOHVHSlpON0p1Slc4bTBqclF3YzFVa2R1Z3dZZnFWK0g1NXZKS1A3dTdRL0FGUC90QUlnQVFBQQ==\n", options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v5\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: superseded\n    version: \"5\"\ndata:\n  release: SDRzSUFBQUFBQUFDQTAyUHZXb0RNUkNFWDBWc3VuQS9OaWJOdHVuU0dsS3BXVWxyVHZIZFNtZ2xRekQzN2tGT0FtYWFnV0dHYis0Z3RERWdCQWNEUkxra3dEdG9wZG9VRUxSbExzcUJBK3dEK0lWSzdmbkdsUUpWNnY2NWYrT2lNUWtnSEtmRGRJSjlIMkFqaVJmV0NnampPRnA1TWVmVWltYzB3YzJWdDd4U1paMTlTZktWM1BSTjIycUZjdno4M1VManFQcGx2aDJ0WEtNRU5POGx5VWR5VnY0cDBJb3hIYU5Qam83OHRXVXJtdGsvRXZVTGg3WXlHZ3NIY3pLdlhSYXNQQU8vRFk4am1zbi92ZGwvQURKTjg3TWJBUUFB\n", options: 'Kubernetes 1.24..1.25' },
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
