import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { what, moveTo, checkedAt, componentAdvice, componentData, readerOf, acrossWindow, offByDefault } from './common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/deprecated-api',
  family: 'kubernetes',
  plutoExitCode: 2,
  defaultSeverity: 'warning',
  title: 'API version deprecated in some Kubernetes version in the window',
  what: 'Reports a manifest whose apiVersion/kind is deprecated at some version of the window but still served by all of them. '
    + 'A fix to the replacement is offered only when the replacement is served by every version of the window.'
    + ' Component APIs (cert-manager, Istio) are checked at the component\'s own version instead: `--component-versions`, `kubernetes.components` in `.skewguard.yaml`, else Pluto\'s default target for the component; the message names that version and where it came from. A component row of your own with no version given is an info note that it is not checked.',
  why: 'Deprecated versions are removed a few minors later; moving while both versions are served is the cheap time to do it. '
    + 'Moving too early is as bad as too late: a replacement that the oldest version of the window does not serve fails there.',
  bad: { filename: 'cronjob.yaml', text: 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: backup\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: backup\n              image: busybox\n', options: 'Kubernetes 1.21..1.24' },
  good: { filename: 'cronjob.yaml', text: 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: backup\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: backup\n              image: busybox\n', options: 'Kubernetes 1.21..1.24' },
  fix: 'complete',
  sources: ['Kubernetes Deprecated API Migration Guide', 'Pluto versions.yaml (FairwindsOps/pluto v5.24.0)', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const c = ctx.componentRow(o);
      if (c && !c.setting) {
        // A user row of a component no version is given for: said, not passed over (an info note).
        report({
          message: `${what(o)} is an API of the component ${c.component}, and no version of ${c.component} is given, so its lifecycle is not checked: `
            + `set one with --component-versions ${c.component}=<version> or kubernetes.components in .skewguard.yaml`,
          range: o.apiVersionRange,
          severity: 'info',
          data: { component: c.component, componentVersion: null },
        });
        continue;
      }
      if (c) {
        if (!c.status?.served || !c.status.deprecated) continue;
        const { best, advice } = componentAdvice(ctx, o, c, true);
        report({
          message: `${what(o)} is deprecated from ${c.component} ${c.row.deprecated}${c.row.removed ? ` and removed in ${c.row.removed}` : ''} ${checkedAt(c)}; ${best ? advice.replace(/^use /, 'move to ') : advice}`,
          range: o.apiVersionRange,
          fixes: best ? () => [moveTo(ctx, o, best)] : [],
          data: { deprecatedIn: c.row.deprecated, removedIn: c.row.removed, replacement: best ?? c.row.replacement ?? null, ...componentData(c) },
        });
        continue;
      }
      const row = ctx.row(o);
      if (!row) continue;
      const steps = ctx.steps(row);
      if (steps.some((s) => !s.served)) continue; // removed / not yet served: other rules
      const first = steps.find((s) => s.deprecated);
      if (!first) continue;
      // Never from an apiVersion a default cluster serves to one it does not (alpha; beta from 1.24).
      const ownOff = offByDefault(ctx, o.apiVersion, o.kind);
      const common = ctx.common(o.kind).filter((a) => a !== o.apiVersion && !ctx.deprecatedInWindow(a, o.kind) && (ownOff || !offByDefault(ctx, a, o.kind)));
      const best = common[0];
      const replacement = row.replacement;
      const reader = readerOf(row);
      let advice: string;
      if (best) advice = `move to ${best}, ${acrossWindow(reader)}`;
      else if (replacement) {
        const span = ctx.servedSpan(replacement, o.kind);
        advice = span
          ? `${replacement} is served only from ${span.first} in this window, so it cannot replace it before the window starts at ${span.first} or later`
          : `${replacement} is not served anywhere in this window`;
      } else advice = 'there is no replacement API';
      report({
        message: reader
          ? `${what(o)} is deprecated for ${reader} from ${row.deprecated}${row.removed ? ` and ${reader} ${row.removed} no longer reads it` : ''} (window ${ctx.windowText}); ${advice}`
          : `${what(o)} is deprecated from Kubernetes ${row.deprecated}${row.removed ? ` and removed in ${row.removed}` : ''} (window ${ctx.windowText}); ${advice}`,
        range: o.apiVersionRange,
        fixes: best ? () => [moveTo(ctx, o, best)] : [],
        data: { deprecatedIn: row.deprecated, removedIn: row.removed, replacement: best ?? replacement ?? null, ...(reader ? { readBy: reader } : {}) },
      });
    }
  },
};
