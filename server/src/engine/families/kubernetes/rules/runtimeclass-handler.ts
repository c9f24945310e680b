import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { didYouMean } from '../../../text';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/runtimeclass-handler',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'RuntimeClass handler that no containerd config of the workspace defines',
  what: 'Reports a `RuntimeClass` whose `handler` is not the name of a runtime (`[plugins.…containerd.runtimes.<name>]`) in any '
    + 'containerd config.toml of the workspace (containerd/config.toml, containerd/conf.d/*.toml). Only checked when the workspace '
    + 'holds a containerd config.',
  why: 'kubelet passes the handler to the CRI as the runtime handler; containerd looks it up in its runtimes table and fails the pod sandbox '
    + '("no runtime for … is configured") when it is not there. A Kata runtime class renamed on one side only leaves its pods pending.',
  bad: { filename: 'runtimeclass.yaml', text: 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: kata-qemu\nhandler: kata_qemu\n', options: 'Kubernetes 1.32, containerd runtimes runc+kata-qemu' },
  good: { filename: 'runtimeclass.yaml', text: 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: kata-qemu\nhandler: kata-qemu\n', options: 'Kubernetes 1.32, containerd runtimes runc+kata-qemu' },
  fix: 'suggestion',
  sources: [
    'kubernetes/kubernetes pkg/apis/node (RuntimeClass.handler: the CRI runtime handler)',
    'containerd/containerd internal/cri (runtime handler lookup in the CRI config\'s containerd.runtimes)',
  ],
  check(ctx, report) {
    // The workspace's containerd configs are looked up only for a file that holds a RuntimeClass.
    const classes = ctx.objects.filter((o) => o.kind === 'RuntimeClass' && /^node\.k8s\.io\//.test(o.apiVersion));
    if (!classes.length) return;
    const rt = ctx.neighbours.containerdRuntimes;
    if (!rt) return;
    for (const o of classes) {
      const h = o.value.handler;
      if (typeof h !== 'string' || rt.names.includes(h)) continue;
      const loc = o.doc.locate([...o.at, 'handler']).value;
      const src = ctx.file.text.slice(loc.start, loc.end);
      const q = /^["']/.test(src) ? src[0] : '';
      if (rt.truncated) {
        // Not every folder was looked at: the runtime may be defined in one that was not, so this is not an error.
        report({ message: `RuntimeClass handler "${h}" not checked: ${rt.truncated}${rt.files.length ? ` (${rt.files.join(', ')} ${rt.files.length > 1 ? 'define' : 'defines'} ${rt.names.map((n) => `"${n}"`).join(', ') || 'no runtime'})` : ': no containerd config of the workspace was read'}`, range: loc, severity: 'info', data: { handler: h, runtimes: rt.names, files: rt.files, truncated: true } });
        continue;
      }
      const hint = didYouMean(h, rt.names);
      report({
        message: `RuntimeClass handler "${h}": no containerd config of the workspace defines runtime "${h}" (${rt.files.join(', ')} ${rt.files.length > 1 ? 'define' : 'defines'} ${rt.names.length ? rt.names.map((n) => `"${n}"`).join(', ') : 'no runtime'}); its pods fail to start`,
        range: loc,
        fixes: hint ? [{ title: `Use handler ${hint} (defined in ${rt.files.join(', ')})`, edits: [{ range: loc, newText: `${q}${hint}${q}` }], destructive: false }] : [],
        data: { handler: h, runtimes: rt.names, files: rt.files },
      });
    }
  },
};
