import type { Rule } from '../../../rules/types';
import { MetricsContext, DEPRECATED_METRIC } from '../context';

const HEAD = `# HELP ${DEPRECATED_METRIC} [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE ${DEPRECATED_METRIC} gauge\n`;

export const rule: Rule<MetricsContext> = {
  id: 'k8s/cluster-api-not-served',
  family: 'cluster-metrics',
  defaultSeverity: 'error',
  title: 'The cluster calls an API that a step of the window does not serve (API server metrics)',
  what: `Reports each series of the API server's \`${DEPRECATED_METRIC}\` metric (\`kubectl get --raw /metrics\`) whose group/version/resource some Kubernetes version of the window no longer serves (or does not serve yet), at its line, naming the steps. `
    + 'The resource is mapped to its kind with data/kubernetes/resources.json and judged with the same lifecycle data as manifests (your `kubernetes.additionalVersions` rows and OpenAPI documents included); '
    + 'the series\' own `removed_release` is cross-checked and said when it disagrees, and decides alone when the data does not know the resource.',
  why: 'The metric lists what was actually requested since the API server started: controllers, operators, CI jobs and scripts that call an API, whatever the manifests in the repository say. '
    + 'Once the control plane reaches a step that does not serve it, those callers get 404s.',
  bad: { filename: 'cluster-metrics.txt', text: `${HEAD}${DEPRECATED_METRIC}{group="policy",removed_release="1.25",resource="podsecuritypolicies",subresource="",version="v1beta1"} 1\n`, options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'cluster-metrics.txt', text: `${HEAD}${DEPRECATED_METRIC}{group="policy",removed_release="1.25",resource="podsecuritypolicies",subresource="",version="v1beta1"} 1\n`, options: 'Kubernetes 1.23..1.24' },
  fix: 'none',
  sources: ['Kubernetes metrics reference (apiserver_requested_deprecated_apis)', 'data/kubernetes/api-lifecycle.json', 'data/kubernetes/resources.json'],
  check(ctx, report) {
    ctx.reportAt('error', report, (j) => `${j.why}, in the window ${ctx.windowText}; whatever calls it fails there`);
  },
};
