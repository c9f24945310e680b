import type { Rule } from '../../../rules/types';
import type { ContainerdContext } from '../index';
import { kubernetesOf, minorsText } from '../index';
import { formatList, compareMinor } from '../../../versions';
import { fileAnchor } from './common';

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/kubernetes-support',
  family: 'containerd',
  defaultSeverity: 'warning',
  title: 'Kubernetes minor of the window that a containerd of the window does not support',
  what: 'Reports, once per file, each containerd minor of the window with the Kubernetes minors of the Kubernetes window that containerd\'s '
    + 'RELEASES.md does not list for it (Kubernetes 1.35 is the last release that supports containerd 1.x), and a containerd minor for which the '
    + 'data has no support row at all.',
  why: 'kubelet speaks CRI to containerd on every node: a node upgraded to a Kubernetes minor its containerd is not tested with (or that dropped '
    + 'its CRI version, v1alpha2 before 1.26) fails at the kubelet, and the Kubernetes upgrade has to wait for the containerd upgrade.',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd]\n  default_runtime_name = "runc"\n', options: 'containerd 1.7, Kubernetes 1.35..1.36' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd]\n  default_runtime_name = "runc"\n', options: 'containerd 1.7, Kubernetes 1.33..1.35' },
  fix: 'none',
  sources: ['containerd/containerd RELEASES.md ("Kubernetes Support" and the deprecated-versions table), via data/kubernetes/components.json'],
  check(ctx, report) {
    const ks = ctx.kubernetesMinors;
    const parts: string[] = [];
    const data: Record<string, string[] | null> = {};
    for (const m of ctx.minors) {
      const sup = kubernetesOf(m);
      if (!sup) { parts.push(`containerd ${m}: the data has no Kubernetes support row (RELEASES.md of the newest tags lists none)`); data[m] = null; continue; }
      const not = ks.filter((k) => !sup.includes(k));
      if (!not.length) continue;
      data[m] = not;
      const last1x = m.startsWith('1.') && not.some((k) => compareMinor(k, '1.35') > 0) ? '; Kubernetes 1.35 is the last release that supports containerd 1.x' : '';
      parts.push(`containerd ${m} does not support Kubernetes ${formatList(not)} (it supports ${minorsText(sup, sup)})${last1x}`);
    }
    if (!parts.length) return;
    report({ message: `Kubernetes window ${ks[0]}..${ks[ks.length - 1]}: ${parts.join('; ')}`, range: fileAnchor(ctx), data: { unsupported: data } });
  },
};
