import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { range } from './common';
import { compareMinor } from '../data/lifecycle';

const span = (s: { first: string; last: string }) => (s.first === s.last ? s.first : `${s.first}..${s.last}`);

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/no-common-api-version',
  family: 'kubernetes',
  plutoExitCode: 3,
  defaultSeverity: 'error',
  title: 'No apiVersion of the kind is served across the whole window',
  what: 'Reports a manifest whose kind has no apiVersion served by every Kubernetes version of the window, and says where '
    + 'the upgrade must be split and what to apply at that step. Every apiVersion of the kind is considered, also one that '
    + 'is neither the manifest\'s nor the newest but bridges the two (FlowSchema v1beta2 -> v1beta3 -> v1).',
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
      const missing = ctx.missingAt(o.kind);
      // Only steps before the kind exists at all (and no removal): k8s/api-not-yet-served speaks.
      if (!steps.some((s) => s.removed) && steps.every((s) => s.served || missing.includes(s.minor))) continue;
      const mine = ctx.servedSpan(o.apiVersion, o.kind);
      const start = ctx.minors[0];
      const end = ctx.minors[ctx.minors.length - 1];
      let plan: string;
      let target: string | undefined;
      let tspan: { first: string; last: string } | undefined;
      // Every apiVersion of the kind counts, also a bridge that is neither this one nor the newest.
      const path = ctx.bridge(o.kind, o.apiVersion) ?? ctx.bridge(o.kind);
      const newer = ctx.servedSomewhere(o.kind).filter((a) => a !== o.apiVersion);
      // Why this apiVersion is not served where it is not: a step before it exists is not a removal.
      const absent = steps.every((s) => !s.removed)
        ? `${o.apiVersion} is not served before Kubernetes ${row.introduced}`
        : `${o.apiVersion} was removed in Kubernetes ${row.removed}`;
      if (path && path.length > 1) {
        const i = path.findIndex((p) => p.apiVersion === o.apiVersion);
        const switches = path.slice(1).map((p, k) => {
          const both = ctx.minors.filter((m) => compareMinor(m, p.first) >= 0 && compareMinor(m, path[k].last) <= 0);
          return `switch to ${p.apiVersion} while the cluster is on ${range(both)} (both are served there)`;
        }).join(', ');
        const lead = compareMinor(path[0].first, start) > 0 ? `nothing serves ${o.kind} before ${path[0].first}; ` : '';
        const tail = compareMinor(path[path.length - 1].last, end) < 0 ? ` (nothing serves ${o.kind} after ${path[path.length - 1].last})` : '';
        const pEnd = path[path.length - 1].last;
        if (i === 0) plan = `split the upgrade: keep ${o.apiVersion} up to ${path[0].last}, ${switches}, then continue to ${pEnd}`;
        else if (i === path.length - 1) plan = `${o.apiVersion} is served only from ${mine!.first}: split the upgrade: apply ${path[0].apiVersion} up to ${path[0].last}, ${switches}, then keep it to ${pEnd}`;
        else plan = `${mine ? `${o.apiVersion} is served only at ${span(mine)}` : `${absent}, so no version of this window serves it`}: split the upgrade: apply ${path[0].apiVersion} up to ${path[0].last}, ${switches}, then continue to ${pEnd}`;
        plan = lead + plan + tail;
        const t = i === 0 ? path[1] : path[path.length - 1];
        target = i === path.length - 1 ? path[0].apiVersion : t.apiVersion;
        tspan = i === path.length - 1 ? { first: path[0].first, last: path[0].last } : { first: t.first, last: t.last };
      } else {
        // No sequence of apiVersions carries the object through the window: a gap, or nothing before/after.
        target = newer.find((a) => ctx.servedSpan(a, o.kind)?.last === end) ?? newer[0];
        tspan = target ? ctx.servedSpan(target, o.kind) : undefined;
        const older = mine && mine.last === end ? newer.find((a) => ctx.servedSpan(a, o.kind)?.first === start) : undefined;
        const ospan = older ? ctx.servedSpan(older, o.kind) : undefined;
        if (mine && older && ospan) {
          plan = `${older} is served until ${ospan.last} and ${o.apiVersion} only from ${mine.first}: there is no step where both work, so the object must be re-created with ${o.apiVersion} during the upgrade from ${ospan.last} to ${mine.first}`;
          target = older; tspan = ospan;
        } else if (mine && tspan && target && compareMinor(tspan.first, mine.last) > 0) {
          plan = `${o.apiVersion} is served until ${mine.last} and ${target} only from ${tspan.first}: there is no step where both work, so the object must be re-created with ${target} during the upgrade from ${mine.last} to ${tspan.first}`;
        } else if (!mine && tspan) {
          plan = `${absent}, so no version of this window serves it; apply ${target} from ${tspan.first}`;
        } else if (mine) {
          const firstPresent = ctx.minors.find((m) => !missing.includes(m))!;
          const after = steps.some((s) => s.removed);
          plan = `${o.apiVersion} is served only at ${span(mine)}`
            + (compareMinor(firstPresent, start) > 0 ? ` (nothing serves ${o.kind} before ${firstPresent})` : '')
            + (after ? ` and nothing replaces it later in the window${row.replacement ? '' : ' (no replacement API)'}` : '');
        } else {
          plan = `${absent} and nothing serves ${o.kind} in this window${row.replacement ? '' : ' (no replacement API)'}`;
        }
      }
      report({
        message: row.readBy
          ? `no apiVersion of ${o.kind} is read by every ${row.readBy} version in ${ctx.windowText} (a ${row.readBy} configuration file, not served by the apiserver: "served" below means "read by ${row.readBy}"): ${plan}`
          : `no apiVersion of ${o.kind} is served by every Kubernetes version in ${ctx.windowText}: ${plan}`,
        range: o.apiVersionRange,
        data: { servedSpan: mine ?? null, target: target ?? null, targetSpan: tspan ?? null, plan: path && path.length > 1 ? path : null },
      });
    }
  },
};
