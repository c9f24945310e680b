import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { kubeMinorOfTag, policyFor, skewOk } from '../data/components';
import * as path from 'node:path';

const CONTROL_PLANE = ['kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager', 'kube-apiserver'];

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/control-plane-skew',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Control-plane static pods outside the version-skew policy',
  what: 'Reports kube-controller-manager and kube-scheduler static-pod images that are newer than, or more than one minor '
    + 'older than, a kube-apiserver static pod in the same folder, and HA kube-apiservers more than one minor apart.',
  why: 'The skew policy says controller-manager and scheduler must not be newer than the apiservers they talk to and '
    + 'at most one minor older; a folder of static pods that breaks it describes a control plane Kubernetes does not '
    + 'support, typically left behind by a half-finished upgrade.',
  bad: { filename: 'manifests/kube-controller-manager.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-controller-manager\n  namespace: kube-system\nspec:\n  containers:\n    - name: kube-controller-manager\n      image: registry.k8s.io/kube-controller-manager:v1.22.4\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\n  namespace: kube-system\nspec:\n  containers:\n    - name: kube-apiserver\n      image: registry.k8s.io/kube-apiserver:v1.21.3\n' },
  good: { filename: 'manifests/kube-controller-manager.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-controller-manager\n  namespace: kube-system\nspec:\n  containers:\n    - name: kube-controller-manager\n      image: registry.k8s.io/kube-controller-manager:v1.20.9\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\n  namespace: kube-system\nspec:\n  containers:\n    - name: kube-apiserver\n      image: registry.k8s.io/kube-apiserver:v1.21.3\n' },
  fix: 'none',
  sources: ['Kubernetes version skew policy (data/kubernetes/skew-policy.json, from kubernetes/website version-skew-policy.md)'],
  check(ctx, report) {
    const own = ctx.images().filter((i) => i.component?.versionIsKubernetes && kubeMinorOfTag(i.ref.tag));
    if (!own.some((i) => CONTROL_PLANE.includes(i.component!.id))) return; // before reading the folder
    const apiservers = [
      ...own.filter((i) => i.component!.id === 'kube-apiserver').map((i) => ({ file: 'this file', minor: kubeMinorOfTag(i.ref.tag)!, tag: i.ref.tag! })),
      ...(ctx.neighbours.staticPods ?? []).filter((p) => p.component === 'kube-apiserver').map((p) => ({ file: path.basename(p.file), minor: p.minor, tag: p.image })),
    ];
    if (!apiservers.length) return;
    for (const img of own) {
      const comp = img.component!.id;
      const minor = kubeMinorOfTag(img.ref.tag)!;
      if (!CONTROL_PLANE.includes(comp)) continue;
      const problems: string[] = [];
      for (const a of apiservers) {
        if (comp === 'kube-apiserver' && a.file === 'this file') continue;
        // Against an apiserver: controller-manager/scheduler N..N-1; another apiserver (HA): within one minor.
        const rule = policyFor(comp, 'kube-apiserver', a.minor);
        if (!rule) continue;
        const r = skewOk(rule, minor, a.minor);
        if (r.ok) continue;
        problems.push(comp === 'kube-apiserver'
          ? `the kube-apiserver in ${a.file} runs ${a.minor}: HA apiservers must be within one minor of each other`
          : r.diff < 0 ? `it is newer than the kube-apiserver in ${a.file} (${a.minor}); it must never be newer`
            : `it is ${r.diff} minors older than the kube-apiserver in ${a.file} (${a.minor}); at most ${r.older} allowed`);
      }
      if (!problems.length) continue;
      report({
        message: `${comp} ${img.ref.tag} is outside the version-skew policy: ${problems.join('; ')}`,
        range: img.range,
        data: { component: comp, minor, apiservers: apiservers.map((a) => a.minor) },
      });
    }
  },
};
