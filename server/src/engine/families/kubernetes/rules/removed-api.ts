import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { what, moveTo, checkedAt, componentAdvice, componentData, readerOf, acrossWindow, servedAcrossWindow, offByDefault } from './common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/removed-api',
  family: 'kubernetes',
  plutoExitCode: 3,
  defaultSeverity: 'error',
  title: 'API version not served by some Kubernetes version in the window',
  what: 'Reports a manifest whose apiVersion/kind is removed before the end of the Kubernetes window, naming the first '
    + 'version that no longer serves it, with a fix to the newest apiVersion served across the whole window.'
    + ' Component APIs (cert-manager, Istio) are checked at the component\'s own version instead: `--component-versions`, `kubernetes.components` in `.skewguard.yaml`, else Pluto\'s default target for the component; the message names that version and where it came from.'
    + ' Component configuration files (kubeadm `InitConfiguration`/`ClusterConfiguration`/`JoinConfiguration`, `KubeletConfiguration`, `KubeSchedulerConfiguration`, kube-apiserver files) are not served by the apiserver: the message names the component that no longer reads the file from that step on (e.g. "kubeadm 1.27 no longer reads kubeadm.k8s.io/v1beta2").',
  why: 'During a one-minor-at-a-time upgrade the cluster runs every version of the window for days or weeks. Once the '
    + 'control plane reaches the removing version, `kubectl apply` of this manifest fails and Helm upgrades break; '
    + 'objects stored under the old version are served only in the new one.',
  bad: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.21..1.22' },
  good: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n', options: 'Kubernetes 1.21..1.22' },
  fix: 'complete',
  sources: ['Kubernetes Deprecated API Migration Guide', 'Pluto versions.yaml (FairwindsOps/pluto v5.24.0)', 'kube-no-trouble rules', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      // A component's API (cert-manager, istio …): checked at the component's version, as Pluto does.
      const c = ctx.componentRow(o);
      if (c) {
        if (!c.status?.removed) continue;
        const { best, advice } = componentAdvice(ctx, o, c, false);
        report({
          message: `${what(o)} is removed in ${c.component} ${c.row.removed} ${checkedAt(c)}; ${advice}`,
          range: o.apiVersionRange,
          fixes: best ? () => [moveTo(ctx, o, best)] : [],
          data: { removedIn: c.row.removed, replacement: best ?? c.row.replacement ?? null, ...componentData(c) },
        });
        continue;
      }
      const row = ctx.row(o);
      if (!row) continue;
      const steps = ctx.steps(row);
      const firstRemoved = steps.find((s) => s.removed);
      if (!firstRemoved || steps.some((s) => !s.served && !s.removed)) continue;
      const common = ctx.common(o.kind);
      if (!common.length) continue; // k8s/no-common-api-version speaks instead
      const target = common[0];
      const before = firstRemoved.minor === ctx.minors[0] && row.removed !== firstRemoved.minor;
      // A configuration file (kubeadm, kubelet …) is not served: the component that reads it stops reading it.
      const reader = readerOf(row);
      report({
        message: reader
          ? (before
            ? `${reader} no longer reads ${what(o)} since ${reader} ${row.removed}: no ${reader} of the window ${ctx.windowText} reads this file; `
            : `${reader} ${firstRemoved.minor} no longer reads ${what(o)}, and ${firstRemoved.minor} is in the window ${ctx.windowText}: from that step on ${reader} refuses this file; `)
            + `use ${target}, ${acrossWindow(reader)}`
          : (before
          ? `${what(o)} was removed in Kubernetes ${row.removed}: no version of the window ${ctx.windowText} serves it; `
          : `${what(o)} is removed in Kubernetes ${firstRemoved.minor}, which is in the window ${ctx.windowText}: from that step on it is not served; `)
          + `use ${target}, ${servedAcrossWindow(ctx, target, o.kind)}`,
        range: o.apiVersionRange,
        // A replacement a default cluster does not serve is offered, never applied by fix-all.
        fixes: () => [offByDefault(ctx, target, o.kind) ? { ...moveTo(ctx, o, target), preferred: false } : moveTo(ctx, o, target)],
        data: { removedIn: row.removed, replacement: target, window: ctx.minors, ...(reader ? { readBy: reader } : {}) },
      });
    }
  },
};
