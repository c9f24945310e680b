import type { Rule } from '../../../rules/types';
import { MetricsContext, DEPRECATED_METRIC } from '../context';
import { SERIES_LIMIT } from '../index';

export const rule: Rule<MetricsContext> = {
  id: 'k8s/metrics-not-read',
  family: 'cluster-metrics',
  defaultSeverity: 'warning',
  title: 'Metrics file (or part of it) not read',
  what: 'Says, once per file and at its place, what of a metrics file was not read: lines that are not the Prometheus text format (the first one, and how many), '
    + `a file with no sample at all, a file that holds no API server metric (not \`kubectl get --raw /metrics\` of kube-apiserver), a \`${DEPRECATED_METRIC}\` series without its labels, or series beyond ${SERIES_LIMIT}.`,
  why: 'A file that is not read is not checked: a deprecated API that a broken or wrong file hides would pass silently.',
  bad: { filename: 'cluster-metrics.txt', text: '# HELP apiserver_request_total [STABLE] Counter of apiserver requests.\n# TYPE apiserver_request_total counter\napiserver_request_total{code="200",verb="GET" 3\n' },
  good: { filename: 'cluster-metrics.txt', text: '# HELP apiserver_request_total [STABLE] Counter of apiserver requests.\n# TYPE apiserver_request_total counter\napiserver_request_total{code="200",verb="GET"} 3\n' },
  fix: 'none',
  sources: ['Prometheus text exposition format 0.0.4'],
  check(ctx, report) {
    const { scan } = ctx;
    const b = scan.bad.first;
    if (!scan.samples) {
      report({
        message: b ? `not checked: this is not the Prometheus text format (\`kubectl get --raw /metrics\`): line ${b.line + 1}: ${b.why}${scan.bad.count > 1 ? `; ${scan.bad.count} lines are not the format` : ''}`
          : 'not checked: this metrics file holds no sample',
        range: b ? { start: b.start, end: b.end } : { start: 0, end: 0 },
        data: { notChecked: true, badLines: scan.bad.count },
      });
      return;
    }
    if (b) {
      report({
        message: `${scan.bad.count} line${scan.bad.count === 1 ? ' is' : 's are'} not the Prometheus text format and not read (the first: ${b.why})${scan.bad.count > 1 ? '' : ''}; the rest of the file is checked`,
        range: { start: b.start, end: b.end },
        data: { notChecked: true, badLines: scan.bad.count },
      });
    }
    if (!scan.apiserverSamples && !scan.deprecatedDeclared) {
      report({
        message: `not checked: no API server metric (apiserver_*) in this file, so it is not kube-apiserver's /metrics (\`kubectl get --raw /metrics\`) and says nothing of the APIs the cluster calls`,
        range: { start: 0, end: 0 },
        data: { notChecked: true },
      });
    }
    for (const s of scan.series) {
      const missing = MetricsContext.incomplete(s);
      if (missing.length) report({ message: `this ${DEPRECATED_METRIC} series has no ${missing.join(', ')} label, so the API it counts is not known and not checked`, range: s.range, data: { notChecked: true } });
    }
    if (scan.seriesDropped) {
      const last = scan.series[scan.series.length - 1];
      report({ message: `${scan.seriesDropped} more ${DEPRECATED_METRIC} series after the first ${SERIES_LIMIT} are not checked (a real API server has a few dozen)`, range: last.range, data: { notChecked: true, dropped: scan.seriesDropped } });
    }
  },
};
