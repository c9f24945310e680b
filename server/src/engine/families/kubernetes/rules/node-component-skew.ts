import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { kubeMinorOfTag, policyFor, skewOk } from '../data/components';
import { range } from './common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/node-component-skew',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'kube-proxy image outside the skew policy at some step of the window',
  what: 'Reports a kube-proxy image that is newer than the kube-apiserver, or older than the policy allows, at some '
    + 'version of the window (or against the kube-apiserver static pods in the same folder), using the policy of the '
    + 'release in question: kube-proxy may be two minors older until 1.27 and three from 1.28 (when it is 1.25 or newer).',
  why: 'A kube-proxy pinned in a DaemonSet stays behind while the control plane walks the upgrade: at some step it '
    + 'drops out of the supported skew, and Service routing is then outside what Kubernetes tests.',
  bad: { filename: 'kube-proxy.yaml', text: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kube-proxy\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: kube-proxy\n  template:\n    metadata:\n      labels:\n        k8s-app: kube-proxy\n    spec:\n      containers:\n        - name: kube-proxy\n          image: registry.k8s.io/kube-proxy:v1.18.1\n', options: 'Kubernetes 1.19..1.21' },
  good: { filename: 'kube-proxy.yaml', text: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kube-proxy\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: kube-proxy\n  template:\n    metadata:\n      labels:\n        k8s-app: kube-proxy\n    spec:\n      containers:\n        - name: kube-proxy\n          image: registry.k8s.io/kube-proxy:v1.19.13\n', options: 'Kubernetes 1.19..1.21' },
  fix: 'none',
  sources: ['Kubernetes version skew policy (data/kubernetes/skew-policy.json; kube-proxy N-2 until 1.27, N-3 from 1.28)'],
  check(ctx, report) {
    if (!ctx.images().some((i) => i.component?.id === 'kube-proxy')) return; // before reading the folder
    const folderApiservers = (ctx.neighbours.staticPods ?? []).filter((p) => p.component === 'kube-apiserver').map((p) => p.minor);
    const own = ctx.images().filter((i) => i.component?.id === 'kube-apiserver').map((i) => kubeMinorOfTag(i.ref.tag)).filter((m): m is string => !!m);
    const refs = [...new Set([...own, ...folderApiservers])];
    const against = refs.length ? refs : ctx.minors;
    for (const img of ctx.images()) {
      if (img.component?.id !== 'kube-proxy') continue;
      const minor = kubeMinorOfTag(img.ref.tag);
      if (!minor) continue;
      const bad: string[] = [];
      let newer = false;
      let allowed = 0;
      for (const a of against) {
        const rule = policyFor('kube-proxy', 'kube-apiserver', a);
        if (!rule) continue;
        const r = skewOk(rule, minor, a);
        if (!r.ok) { bad.push(a); newer ||= r.diff < 0; allowed = r.older; }
      }
      if (!bad.length) continue;
      report({
        message: `kube-proxy ${img.ref.tag} is outside the version-skew policy when the kube-apiserver runs ${range(bad)}`
          + (newer ? ' (kube-proxy must never be newer than the apiserver)' : ` (kube-proxy may be at most ${allowed} minor${allowed === 1 ? '' : 's'} older there)`)
          + (refs.length ? '' : `; window ${ctx.windowText}`) + ': upgrade kube-proxy with the control plane',
        range: img.range,
        data: { minor, outsideAt: bad },
      });
    }
  },
};
