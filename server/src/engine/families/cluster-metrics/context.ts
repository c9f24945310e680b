// What the cluster-metrics rules read: the file's scan, the window and the lifecycle rows, each series judged once.
import type { ApiRow } from '../kubernetes/data/apis';
import type { Report } from '../../rules/types';
import { windowText } from '../../window-text';
import { judgeResource, judgeCall, apiVersionOf, type CallJudgement } from '../kubernetes/cluster-api';
import { DEPRECATED_METRIC, type MetricsScan, type DeprecatedSeries } from './index';

export class MetricsContext {
  private memo = new Map<string, CallJudgement | undefined>();
  constructor(
    readonly path: string,
    readonly scan: MetricsScan,
    readonly minors: string[],
    readonly rows: readonly ApiRow[],
  ) {}

  get windowText(): string { return windowText(this.minors); }

  /** "policy/v1beta1 podsecuritypolicies" (with "/status" for a subresource). */
  static resourceText(s: DeprecatedSeries): string {
    const l = s.labels;
    return `${apiVersionOf(l.group, l.version ?? '')} ${l.resource ?? ''}${l.subresource ? `/${l.subresource}` : ''}`;
  }

  /** The judgement of a series (once per group/version/resource/removed_release). */
  judge(s: DeprecatedSeries): CallJudgement | undefined {
    const l = s.labels;
    const key = `${l.group}\u0000${l.version}\u0000${l.resource}\u0000${l.removed_release}`;
    if (!this.memo.has(key)) {
      const v = judgeResource(this.rows, this.minors, apiVersionOf(l.group, l.version ?? ''), l.resource ?? '');
      this.memo.set(key, judgeCall(v, this.minors, { removedRelease: l.removed_release || undefined, deprecated: true, says: `the series' removed_release` }));
    }
    return this.memo.get(key);
  }

  /**
   * Each complete series judged at `level`, reported at its line with what the judgement says (`said` words the
   * verdict): what k8s/cluster-api-not-served (error) and k8s/cluster-api-deprecated (warning) both do.
   */
  reportAt(level: CallJudgement['level'], report: Report, said: (j: CallJudgement) => string): void {
    for (const s of this.scan.series) {
      if (MetricsContext.incomplete(s).length) continue;
      const j = this.judge(s);
      if (j?.level !== level) continue;
      report({
        message: `${MetricsContext.resourceText(s)}${j.what ? ` (${j.what})` : ''} was requested from this cluster (${DEPRECATED_METRIC}): ${said(j)}`
          + `${j.check ? ` (${j.check})` : ''}${j.advice ? `; ${j.advice}` : ''}`,
        range: s.range,
        data: { ...j.data, ...(s.labels.subresource ? { subresource: s.labels.subresource } : {}) },
      });
    }
  }

  /** A series without the labels the metric always has: not judged (said by the not-read rule). */
  static incomplete(s: DeprecatedSeries): string[] {
    return ['version', 'resource'].filter((k) => !s.labels[k]).concat('group' in s.labels ? [] : ['group']);
  }
}

export { DEPRECATED_METRIC };
