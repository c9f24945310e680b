import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { kubernetesApis } from '../data/apis';
import { compareMinor } from '../data/lifecycle';

interface Setting {
  apiVersion: string; kind: string; path: string[]; value: string | null; readBy: string; change: string; minor: string;
  planned?: { offByDefault?: string; removal?: string }; replacement?: string | null; what: string; sources: string[];
}

// Value-level facts of component configuration files (data/kubernetes/api-lifecycle.json componentConfig.settings)
// that the file's content decides: kube-proxy `mode: ipvs`, deprecated from 1.35.
const settings = (): Setting[] => ((kubernetesApis() as any).componentConfig?.settings ?? []).filter((s: Setting) => s.value !== null && s.change === 'deprecated');

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/component-setting-deprecated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Component configuration setting deprecated at some step of the window',
  what: 'Reports a setting of a component configuration file that the component deprecates at a Kubernetes version in '
    + 'the window: kube-proxy `KubeProxyConfiguration` `mode: ipvs` (deprecated from 1.35, KEP-5495).',
  why: 'The file keeps working at the deprecating step, with a start-up warning, but the mode is planned to be off by '
    + 'default and then removed; a cluster that upgrades through the window has to plan the switch.',
  bad: { filename: 'kube-proxy.yaml', text: 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n', options: 'Kubernetes 1.34..1.35' },
  good: { filename: 'kube-proxy.yaml', text: 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n', options: 'Kubernetes 1.34..1.35' },
  fix: 'none',
  sources: ['data/kubernetes/api-lifecycle.json componentConfig.settings', 'Kubernetes 1.35 release blog (Deprecations)', 'kubernetes/kubernetes#134539'],
  check(ctx, report) {
    const end = ctx.minors[ctx.minors.length - 1];
    for (const o of ctx.objects) {
      for (const s of settings()) {
        if (o.apiVersion !== s.apiVersion || o.kind !== s.kind) continue;
        let v: unknown = o.value;
        for (const k of s.path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
        if (typeof v !== 'string' || v.trim().toLowerCase() !== s.value) continue;
        if (compareMinor(end, s.minor) < 0) continue;
        const plan = [s.planned?.offByDefault && `off by default planned for ${s.planned.offByDefault}`, s.planned?.removal && `removal planned for ${s.planned.removal}`].filter(Boolean).join(', ');
        report({
          message: `${s.readBy} deprecates ${s.path.join('.')}: ${v} from ${s.minor}, which is in the window ${ctx.windowText}`
            + `${plan ? ` (${plan})` : ''}${s.replacement ? `; move to ${s.replacement}` : ''}`,
          range: o.doc.locate([...o.at, ...s.path]).value,
          data: { readBy: s.readBy, deprecatedIn: s.minor, path: s.path, value: v, replacement: s.replacement ?? null },
        });
      }
    }
  },
};
