import type { Rule } from '../../../rules/types';
import { MetricsContext, DEPRECATED_METRIC } from '../context';

const HEAD = `# HELP ${DEPRECATED_METRIC} [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE ${DEPRECATED_METRIC} gauge\n`;

export const rule: Rule<MetricsContext> = {
  id: 'k8s/cluster-api-deprecated',
  family: 'cluster-metrics',
  defaultSeverity: 'warning',
  title: 'The cluster calls a deprecated API that every step of the window still serves (API server metrics)',
  what: `Reports each series of the API server's \`${DEPRECATED_METRIC}\` metric whose group/version/resource every Kubernetes version of the window serves: the API is deprecated (by the lifecycle data, or by the API server itself, which counts only deprecated APIs in this metric), and will be removed later.`,
  why: 'Its callers keep working through this window, but not through the next one that reaches the removal; moving them while both versions are served is the cheap time to do it.',
  bad: { filename: 'cluster-metrics.txt', text: `${HEAD}${DEPRECATED_METRIC}{group="batch",removed_release="1.25",resource="cronjobs",subresource="",version="v1beta1"} 1\n`, options: 'Kubernetes 1.22..1.24' },
  good: { filename: 'cluster-metrics.txt', text: `${HEAD}# no deprecated API was requested since the API server started\napiserver_request_total{code="200",component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="namespace",subresource="",verb="LIST",version="v1"} 12\n`, options: 'Kubernetes 1.22..1.24' },
  fix: 'none',
  sources: ['Kubernetes metrics reference (apiserver_requested_deprecated_apis)', 'data/kubernetes/api-lifecycle.json', 'data/kubernetes/resources.json'],
  check(ctx, report) {
    ctx.reportAt('warning', report, (j) => `it is ${j.why}; every step of the window ${ctx.windowText} serves it`);
  },
};
