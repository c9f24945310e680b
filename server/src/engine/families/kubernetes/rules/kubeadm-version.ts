import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { minorOf, normalizeVersion } from '../../../versions';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/kubeadm-version-mismatch',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'kubeadm kubernetesVersion disagrees with localhost.yml or the window',
  what: 'Reports a kubeadm `ClusterConfiguration` whose `kubernetesVersion` differs from the `kubernetes_version` of the '
    + 'StarlingX localhost.yml in the same workspace, or lies outside the Kubernetes window.',
  why: 'Two files that each name the cluster\'s version drift apart: the cluster is bootstrapped with one and upgraded '
    + 'with the assumptions of the other.',
  bad: { filename: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\nkubernetesVersion: v1.23.1\n', options: 'StarlingX 6.0' },
  good: { filename: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\nkubernetesVersion: v1.21.3\n', options: 'StarlingX 6.0' },
  fix: 'suggestion',
  sources: ['kubeadm ClusterConfiguration API', 'StarlingX kubernetes_version (data/starlingx/releases.json)'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      if (o.kind !== 'ClusterConfiguration' || !/^kubeadm\.k8s\.io\//.test(o.apiVersion)) continue;
      const v = o.value.kubernetesVersion;
      if (typeof v !== 'string') continue;
      const loc = o.doc.locate([...o.at, 'kubernetesVersion']).value;
      const src = ctx.file.text.slice(loc.start, loc.end);
      const q = /^["']/.test(src) ? src[0] : '';
      const lh = ctx.neighbours.localhost;
      const lhv = lh?.kubernetesVersion;
      if (lhv && normalizeVersion(v) !== normalizeVersion(lhv)) {
        // In the file's own style: its "v"/"V" prefix, or none.
        const want = `${/^\s*([vV]?)/.exec(v)![1]}${normalizeVersion(lhv)}`;
        report({
          message: `kubernetesVersion ${v} differs from kubernetes_version ${lhv} in ${lh!.path}: bootstrap installs one and the upgrade plan assumes the other`,
          range: loc,
          fixes: [{ title: `Use ${want} (from ${lh!.path})`, edits: [{ range: loc, newText: `${q}${want}${q}` }], destructive: false }],
          data: { kubeadm: v, localhost: lhv },
        });
        continue;
      }
      const m = minorOf(v);
      if (m && !ctx.minors.includes(m)) {
        // Where the window is a StarlingX upgrade path, its first version is the one bootstrap installs.
        const start = ctx.window.patches?.[0];
        const want = start && `${/^\s*([vV]?)/.exec(v)![1]}${start}`;
        report({
          message: `kubernetesVersion ${v} is outside the Kubernetes window ${ctx.windowText}${want ? `, which starts at ${start}` : ''}`,
          range: loc,
          fixes: want ? [{ title: `Use ${want}, the start of the window`, edits: [{ range: loc, newText: `${q}${want}${q}` }], destructive: false }] : [],
          data: { kubeadm: v, window: ctx.minors },
        });
      }
    }
  },
};
