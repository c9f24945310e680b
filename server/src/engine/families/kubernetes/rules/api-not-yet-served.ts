import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { what, moveTo, checkedAt, componentAdvice, componentData, readerOf, acrossWindow, servedAcrossWindow } from './common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/api-not-yet-served',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'API version not served yet at the start of the window',
  what: 'Reports a manifest whose apiVersion/kind is introduced after the oldest Kubernetes version of the window, with a fix '
    + 'to an apiVersion served across the whole window when there is one; when no apiVersion of the kind exists yet at '
    + 'those steps, it says so (such a step is never called a removal). A component API (cert-manager, Istio) newer than '
    + 'the component version it is checked at is reported too.',
  why: 'The manifest fails on the cluster as it is before the upgrade finishes — and again after a rollback. Moving to the '
    + 'new apiVersion too early is the mirror image of moving too late.',
  bad: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n', options: 'Kubernetes 1.18..1.21' },
  good: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.18..1.21' },
  fix: 'partial',
  sources: ['Kubernetes changelogs (the release each API version became available)', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const c = ctx.componentRow(o);
      if (c) {
        if (!c.status || c.status.served || c.status.removed) continue;
        const { best, advice } = componentAdvice(ctx, o, c, false);
        report({
          message: `${what(o)} is not served before ${c.component} ${c.row.introduced} ${checkedAt(c)}; ${advice}`,
          range: o.apiVersionRange,
          fixes: best ? () => { const fix = moveTo(ctx, o, best); return [{ ...fix, preferred: false, partial: true }]; } : [],
          data: { introducedIn: c.row.introduced, replacement: best ?? null, ...componentData(c) },
        });
        continue;
      }
      const row = ctx.row(o);
      if (!row) continue;
      const steps = ctx.steps(row);
      const early = steps.filter((s) => !s.served && !s.removed);
      if (!early.length || steps.some((s) => s.removed)) continue;
      const common = ctx.common(o.kind);
      if (!common.length) {
        // Nothing at all serves the kind at those steps (it is newer than the window's start): said here, as not served
        // yet (never as "removed"). When an older apiVersion serves them, k8s/no-common-api-version plans the switch.
        const missing = ctx.missingAt(o.kind);
        if (!early.every((s) => missing.includes(s.minor))) continue;
        const end = ctx.minors[ctx.minors.length - 1];
        const after = early.length === steps.length;
        report({
          message: after
            ? `${what(o)} is not served yet: Kubernetes ${row.introduced} introduces it, after the window ${ctx.windowText}, and no apiVersion of ${o.kind} is served before that; `
              + 'applying it fails on every version of the window'
            : `${what(o)} is not served before Kubernetes ${row.introduced}, and no apiVersion of ${o.kind} is served before that, but the window starts at ${ctx.minors[0]}: `
              + `applying it fails until the upgrade reaches ${row.introduced}; apply it only once the cluster is on ${row.introduced}..${end}`,
          range: o.apiVersionRange,
          data: { introducedIn: row.introduced, replacement: null },
        });
        continue;
      }
      const target = common[0];
      // Going back to an older version is never a known complete conversion: offer it for a person to finish.
      const reader = readerOf(row);
      report({
        message: reader
          ? `${reader} reads ${what(o)} only from ${row.introduced}, but the window starts at ${ctx.minors[0]}: `
            + `${reader} refuses this file until the upgrade reaches ${row.introduced}; use ${target}, ${acrossWindow(reader)}`
          : (early.length === steps.length
            ? `${what(o)} is not served yet: Kubernetes ${row.introduced} introduces it, after the window ${ctx.windowText}: applying it fails on every version of the window`
            : `${what(o)} is not served before Kubernetes ${row.introduced}, but the window starts at ${ctx.minors[0]}: applying it fails until the upgrade reaches ${row.introduced}`)
          + `; use ${target}, ${servedAcrossWindow(ctx, target, o.kind)}`,
        range: o.apiVersionRange,
        fixes: () => {
          const fix = moveTo(ctx, o, target);
          return [{ ...fix, preferred: false, partial: true, title: fix.title.includes('partial') ? fix.title : `${fix.title} — partial: check the spec against ${target}` }];
        },
        data: { introducedIn: row.introduced, replacement: target },
      });
    }
  },
};
