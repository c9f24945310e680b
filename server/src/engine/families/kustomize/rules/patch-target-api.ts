import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';
import { findRow } from '../../kubernetes/data/lifecycle';
import { stepsText } from './common';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/patch-target-api',
  family: 'kustomize',
  defaultSeverity: 'error',
  title: 'Patch target names an API version not served at some step of the window',
  what: 'Reports a `patches` or `patchesJson6902` target whose group/version/kind is removed, or not yet served, at some Kubernetes '
    + 'version of the window (the lifecycle data of `k8s/removed-api`), naming the first such step and the apiVersion served across the whole window.',
  why: 'A target selects resources by their group, version and kind. Once the resources move to the served apiVersion (as they must '
    + 'before the removing step), a target that still names the old version matches nothing: kustomize applies no patch, or fails '
    + 'because the target is not found, and the overlay silently stops doing its job.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cronjob.yaml\npatches:\n  - path: schedule.yaml\n    target:\n      group: batch\n      version: v1beta1\n      kind: CronJob\n', options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cronjob.yaml\npatches:\n  - path: schedule.yaml\n    target:\n      group: batch\n      version: v1\n      kind: CronJob\n', options: 'Kubernetes 1.24..1.25' },
  fix: 'suggestion',
  sources: ['data/kubernetes/api-lifecycle.json (as k8s/removed-api)', 'kubernetes-sigs/kustomize api/types/selector.go (target: group, version, kind, name, namespace)'],
  check(ctx, report) {
    const k8s = ctx.k8s;
    for (const field of ['patches', 'patchesJson6902']) {
      const list = ctx.value[field];
      if (!Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        const t = isObj(entry) ? entry.target : undefined;
        if (!isObj(t) || typeof t.version !== 'string' || typeof t.kind !== 'string' || !t.version || !t.kind) return; // no version: any version matches
        const group = typeof t.group === 'string' ? t.group : '';
        const apiVersion = group ? `${group}/${t.version}` : t.version;
        const row = findRow(k8s.rows, apiVersion, t.kind);
        if (!row || (row.component ?? 'k8s') !== 'k8s') return;
        const steps = k8s.steps(row);
        const removed = steps.filter((s) => s.removed).map((s) => s.minor);
        const notYet = steps.filter((s) => !s.served && !s.removed).map((s) => s.minor);
        if (!removed.length && !notYet.length) return;
        const common = k8s.common(t.kind);
        const target = common.find((a) => a !== apiVersion);
        const loc = ctx.locate([field, i, 'target', 'version']).value;
        const src = ctx.file.text.slice(loc.start, loc.end);
        const q = /^["']/.test(src) ? src[0] : '';
        const tv = target ? (target.includes('/') ? target.slice(target.indexOf('/') + 1) : target) : undefined;
        const tg = target ? (target.includes('/') ? target.slice(0, target.indexOf('/')) : '') : undefined;
        const what = `${apiVersion} ${t.kind}`;
        const when = removed.length
          ? `is removed in Kubernetes ${row.removed}${removed[0] === ctx.minors[0] && row.removed !== removed[0] ? `: no version of the window ${ctx.windowText} serves it` : `, which is in the window ${ctx.windowText}: from that step on it is not served`}`
          : `is not served yet at ${stepsText(notYet)} (introduced ${row.introduced})`;
        const advice = target ? `target ${target}, served across the whole window` : `no apiVersion of ${t.kind} is served across the whole window ${ctx.windowText}`;
        // Only the version changes when the group stays: that is a plain, complete edit of the target.
        const fixes = target && tg === group ? [{ title: `Target ${target}`, edits: [{ range: loc, newText: `${q}${tv}${q}` }], preferred: false, destructive: false }] : [];
        report({
          message: `this ${field} target names ${what}, which ${when}; ${removed.length ? 'resources moved to a served apiVersion no longer match it' : 'there the resources are at another apiVersion and do not match it'}: ${advice}`,
          range: loc,
          fixes,
          data: { apiVersion, kind: t.kind, removedIn: row.removed, notServedAt: notYet, replacement: target ?? null },
        });
      });
    }
  },
};
