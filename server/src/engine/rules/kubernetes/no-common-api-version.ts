import type { Rule } from '../types';
import type { KubernetesContext } from '../../families/kubernetes';
import { range } from './common';
import { compareMinor } from '../../kubernetes/lifecycle';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/no-common-api-version',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'No apiVersion of the kind is served across the whole window',
  what: 'Reports a manifest whose kind has no apiVersion served by every Kubernetes version of the window, and says where '
    + 'the upgrade must be split and what to apply at that step.',
  why: 'No single file can be right for the whole upgrade: the manifest has to change while the cluster is on a version '
    + 'that serves both the old and the new apiVersion. Planning that step is part of the upgrade, not an afterthought.',
  bad: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.18..1.22' },
  good: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.18..1.21' },
  fix: 'none',
  sources: ['Kubernetes Deprecated API Migration Guide', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const row = ctx.row(o);
      if (!row) continue;
      const steps = ctx.steps(row);
      if (steps.every((s) => s.served) || ctx.common(o.kind).length) continue;
      const mine = ctx.servedSpan(o.apiVersion, o.kind);
      const newer = ctx.servedSomewhere(o.kind).filter((a) => a !== o.apiVersion);
      const start = ctx.minors[0];
      const end = ctx.minors[ctx.minors.length - 1];
      let plan: string;
      // The best apiVersion at the end of the window, and where it overlaps with this one.
      const target = newer.find((a) => ctx.servedSpan(a, o.kind)?.last === end) ?? newer[0];
      const tspan = target ? ctx.servedSpan(target, o.kind) : undefined;
      // This apiVersion is the new one (served at the end, not at the start): the window needs an older one first.
      const older = mine && mine.last === end ? newer.find((a) => ctx.servedSpan(a, o.kind)?.first === start) : undefined;
      const ospan = older ? ctx.servedSpan(older, o.kind) : undefined;
      if (mine && older && ospan && compareMinor(mine.first, ospan.last) <= 0) {
        const both = ctx.minors.filter((m) => compareMinor(m, mine.first) >= 0 && compareMinor(m, ospan.last) <= 0);
        plan = `${o.apiVersion} is served only from ${mine.first}: split the upgrade: apply ${older} up to ${ospan.last}, switch to ${o.apiVersion} while the cluster is on ${range(both)} (both are served there), then keep it to ${end}`;
      } else if (mine && older && ospan) {
        plan = `${older} is served until ${ospan.last} and ${o.apiVersion} only from ${mine.first}: there is no step where both work, so the object must be re-created with ${o.apiVersion} during the upgrade from ${ospan.last} to ${mine.first}`;
      } else if (mine && tspan && compareMinor(tspan.first, mine.last) <= 0) {
        const both = ctx.minors.filter((m) => compareMinor(m, tspan.first) >= 0 && compareMinor(m, mine.last) <= 0);
        plan = `split the upgrade: keep ${o.apiVersion} up to ${mine.last}, switch to ${target} while the cluster is on ${range(both)} (both are served there), then continue to ${end}`;
      } else if (mine && tspan) {
        plan = `${o.apiVersion} is served until ${mine.last} and ${target} only from ${tspan.first}: there is no step where both work, so the object must be re-created with ${target} during the upgrade from ${mine.last} to ${tspan.first}`;
      } else if (!mine && tspan) {
        plan = `${o.apiVersion} is served nowhere in the window; apply ${target} from ${tspan.first}`;
      } else if (mine) {
        plan = `${o.apiVersion} is served only at ${range([mine.first, mine.last])} and nothing replaces it later in the window${row.replacement ? '' : ' (no replacement API)'}`;
      } else {
        plan = `${row.removed ? `${o.apiVersion} was removed in Kubernetes ${row.removed}` : `${o.apiVersion} is not served`} and nothing serves ${o.kind} in this window${row.replacement ? '' : ' (no replacement API)'}`;
      }
      report({
        message: `no apiVersion of ${o.kind} is served by every Kubernetes version in ${ctx.windowText}: ${plan}`,
        range: o.apiVersionRange,
        data: { servedSpan: mine ?? null, target: (older && ospan ? older : target) ?? null, targetSpan: (older && ospan ? ospan : tspan) ?? null },
      });
    }
  },
};
