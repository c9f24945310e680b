// The API server's metrics family: `kubectl get --raw /metrics > cluster-metrics.txt` (Prometheus text format). Every
// series of apiserver_requested_deprecated_apis is an API the cluster was asked for: judged at each step of the
// Kubernetes window with the Kubernetes family's lifecycle data (kubernetes/cluster-api.ts). Nothing is fetched: the
// file is what an operator exported once.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { runRule } from '../core';
import { clusterApiRows } from '../kubernetes/cluster-api';
import { resourcesData } from '../kubernetes/data/resources';
import { scanMetrics, isMetricsName, isMetricsContent, DEPRECATED_METRIC } from './index';
import { MetricsContext } from './context';
import { rule as notServed } from './rules/api-not-served';
import { rule as deprecated } from './rules/api-deprecated';
import { rule as notRead } from './rules/not-read';

declare module '../registry' {
  interface FamilyResults {
    clusterMetrics?: MetricsContext;
  }
}

const rules: Rule<MetricsContext>[] = [notServed, deprecated, notRead];

export const clusterMetrics: FamilyModule<'cluster-metrics'> = {
  id: 'cluster-metrics',
  title: 'Kubernetes API server metrics (`kubectl get --raw /metrics`)',
  modelineNames: ['cluster-metrics'],
  serves: { files: [{ ext: '.prom' }, { ext: '.txt', name: '*metrics*' }], languages: ['prometheus'], patterns: ['**/*.prom', '**/*metrics*.txt'] },
  // Never YAML: a metrics file is a few MB of lines the core need not parse.
  look({ file, ext, text }) {
    const mine = isMetricsName(file) || isMetricsContent(ext, text);
    return { notYaml: mine, memo: mine };
  },
  detect({ file, ext, text, memo }) {
    if (isMetricsName(file)) return DETECT.name;
    return (memo as boolean | undefined ?? isMetricsContent(ext, text)) ? DETECT.content : DETECT.no;
  },
  explain: (_d, level) => (level === DETECT.name ? 'its name: *.prom, or a .txt named like metrics (cluster-metrics.txt)' : 'its content: the Prometheus text format'),
  rules,
  analyze({ input, emit, stage }) {
    const scan = stage('parse', () => scanMetrics(input.text));
    const ctx = stage('context', () => new MetricsContext(input.path, scan, input.config.kubernetes.minors, clusterApiRows(input.config)));
    for (const r of rules) runRule(r, ctx, emit, input.faults);
    return { clusterMetrics: ctx };
  },
  hover: () => undefined,
  complete: () => [],
  facts: (r) => (r.clusterMetrics ? {
    clusterMetrics: {
      lines: r.clusterMetrics.scan.lines, samples: r.clusterMetrics.scan.samples,
      [DEPRECATED_METRIC]: r.clusterMetrics.scan.series.length + r.clusterMetrics.scan.seriesDropped,
      linesNotRead: r.clusterMetrics.scan.bad.count, kubernetesWindow: r.clusterMetrics.windowText,
    },
  } : undefined),
  steps: (r) => r.clusterMetrics?.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  data: resourcesData,
};
