import type { Rule } from '../../../rules/types';
import { AuditContext } from '../context';
import { EVENT } from './api-not-served';

export const rule: Rule<AuditContext> = {
  id: 'k8s/audit-api-deprecated',
  family: 'audit-log',
  defaultSeverity: 'warning',
  title: 'A caller in the audit log uses a deprecated API that every step of the window still serves',
  what: 'Reports the calls of an audit log to a group/version/resource that every Kubernetes version of the window serves but that is deprecated (by the lifecycle data at some step, or by the API server\'s `k8s.io/deprecated` annotation), grouped by caller and API with a count, at the line of the first call.',
  why: 'These callers keep working through this window, but not through the one that reaches the removal; moving them while both versions are served is the cheap time to do it.',
  bad: { filename: 'audit.log', text: `${EVENT('backup-operator/2.3.1 (linux/amd64) kubernetes/0f1e2d3', 'system:serviceaccount:backup:backup-operator', 'v1beta1', 'cronjobs', 'batch', '1.25')}\n`, options: 'Kubernetes 1.22..1.24' },
  good: { filename: 'audit.log', text: `${EVENT('backup-operator/2.4.0 (linux/amd64) kubernetes/0f1e2d3', 'system:serviceaccount:backup:backup-operator', 'v1', 'cronjobs', 'batch', '')}\n`, options: 'Kubernetes 1.22..1.24' },
  fix: 'none',
  sources: ['Kubernetes auditing (audit.k8s.io/v1 Event, the k8s.io/deprecated and k8s.io/removed-release annotations)', 'data/kubernetes/api-lifecycle.json', 'data/kubernetes/resources.json'],
  check(ctx, report) {
    for (const g of ctx.groups) {
      const j = g.judgement;
      if (j.level !== 'warning') continue;
      report({
        message: `${AuditContext.caller(g)} calls ${AuditContext.what(g)}. It is ${j.why}; every step of the window ${ctx.windowText} serves it`
          + `${j.check ? ` (${j.check})` : ''}${j.advice ? `; ${j.advice}` : ''}`,
        range: g.range,
        data: AuditContext.data(g),
      });
    }
  },
};
