import type { Rule } from '../../../rules/types';
import { AuditContext } from '../context';

const EVENT = (agent: string, user: string, version: string, resource: string, group: string, ann: string) => JSON.stringify({
  kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: '5c3d1d52-0b2f-4a7e-9d4c-2f1f8a9d1e01', stage: 'ResponseComplete',
  requestURI: `/apis/${group}/${version}/namespaces/backup/${resource}?limit=500`, verb: 'list',
  user: { username: user, groups: ['system:serviceaccounts', 'system:authenticated'] }, sourceIPs: ['10.0.3.17'], userAgent: agent,
  objectRef: { resource, namespace: 'backup', apiGroup: group, apiVersion: version }, responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-11-30T02:00:00.123456Z', stageTimestamp: '2026-11-30T02:00:00.131002Z',
  annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '', ...(ann ? { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': ann } : {}) },
});

export const rule: Rule<AuditContext> = {
  id: 'k8s/audit-api-not-served',
  family: 'audit-log',
  defaultSeverity: 'error',
  title: 'A caller in the audit log uses an API that a step of the window does not serve',
  what: 'Reports the calls of an audit log (audit.k8s.io Events as JSON lines, a JSON array or an EventList) to a group/version/resource that some Kubernetes version of the window no longer serves (or does not serve yet), '
    + 'grouped by caller (user agent and user name) and API, with a count, at the line of the first call: who calls, what (verbs, resource, the first requestURI), and at which steps it breaks. '
    + 'The resource is judged with the same lifecycle data as manifests (data/kubernetes/resources.json maps it to its kind); the API server\'s own `k8s.io/deprecated` and `k8s.io/removed-release` annotations are cross-checked, and decide alone for a resource the data does not know.',
  why: 'The audit log says who really calls an API: an operator, a backup tool, a CI job. Their manifests may be fine while their code still lists an old version; once the control plane reaches a step that does not serve it, those calls get 404s.',
  bad: { filename: 'audit.log', text: `${EVENT('backup-operator/2.3.1 (linux/amd64) kubernetes/0f1e2d3', 'system:serviceaccount:backup:backup-operator', 'v1beta1', 'cronjobs', 'batch', '1.25')}\n`, options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'audit.log', text: `${EVENT('backup-operator/2.4.0 (linux/amd64) kubernetes/0f1e2d3', 'system:serviceaccount:backup:backup-operator', 'v1', 'cronjobs', 'batch', '')}\n`, options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['Kubernetes auditing (audit.k8s.io/v1 Event, the k8s.io/deprecated and k8s.io/removed-release annotations)', 'data/kubernetes/api-lifecycle.json', 'data/kubernetes/resources.json'],
  check(ctx, report) {
    for (const g of ctx.groups) {
      const j = g.judgement;
      if (j.level !== 'error') continue;
      report({
        message: `${AuditContext.caller(g)} calls ${AuditContext.what(g)}. It is ${j.why}, in the window ${ctx.windowText}: these calls fail there`
          + `${j.check ? ` (${j.check})` : ''}${j.advice ? `; ${j.advice}` : ''}`,
        range: g.range,
        data: AuditContext.data(g),
      });
    }
  },
};
export { EVENT };
