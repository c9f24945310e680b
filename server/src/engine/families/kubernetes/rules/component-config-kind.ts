import type { Rule, FindingFix } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { componentFieldTable, componentReader } from '../data/fields';
import { findRow } from '../data/lifecycle';
import { minorNumber } from '../data/fields';
import { YamlEditor } from '../../../parse/yaml-edit';
import { formatList } from '../../../versions';
import { groupOf } from '../data/api-version';
import { pathText } from '../data/fields';
import { shownSegments } from '../manifest-objects';
import { knownArgsKind, argsKindMissing, runsText } from '../scheduler-args';
import { listOf } from './common';

interface KindIndex { groups: Set<string>; byKind: Map<string, Array<{ apiVersion: string; runs: [number, number][] }>> }
let index: KindIndex | undefined;

/** The component configuration groups, and per kind name the apiVersions the component table has it under. */
export function kindIndex(): KindIndex {
  if (index) return index;
  const groups = new Set<string>();
  const byKind = new Map<string, Array<{ apiVersion: string; runs: [number, number][] }>>();
  for (const [key, iv] of Object.entries(componentFieldTable().kinds)) {
    const sp = key.indexOf(' ');
    const apiVersion = key.slice(0, sp);
    const kind = key.slice(sp + 1);
    groups.add(groupOf(apiVersion));
    const list = byKind.get(kind) ?? [];
    list.push({ apiVersion, runs: iv.map(([, a, b]) => [a, b]) });
    byKind.set(kind, list);
  }
  return (index = { groups, byKind });
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/component-config-kind',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Component configuration kind written under another component\'s group',
  what: 'Reports, at its apiVersion, a component configuration kind (KubeletConfiguration, KubeProxyConfiguration, '
    + 'ClusterConfiguration …) written under the group of another component or of none — `KubeletConfiguration` under '
    + '`kubeadm.k8s.io/v1beta3` in a kubeadm file — and names the apiVersion(s) that component reads it as, with the steps of '
    + 'the window each covers; a fix changes the apiVersion when exactly one of them covers the whole window. Kinds the '
    + 'lifecycle data knows under that apiVersion (a removed version of the same group) are left to the apiVersion rules. '
    + 'In a KubeSchedulerConfiguration it reports, at the plugin\'s name, `pluginConfig[].args` of a plugin whose Args kind '
    + 'the table has only in an older apiVersion (`NodeResourcesMostAllocated` in v1beta2: the plugin is not in that '
    + 'apiVersion, kube-scheduler refuses the file), and, at their kind, args whose own apiVersion/kind is not the '
    + 'plugin\'s `<name>Args` of the scheduler\'s group (kube-scheduler refuses them); a plugin the table has no Args kind '
    + 'for is left to the plugin (k8s/fields-not-checked says its args are not checked).',
  why: 'No component reads the document: kubeadm registers only its own kinds under kubeadm.k8s.io and does not hand a '
    + 'document of another kind under its group to the kubelet or kube-proxy, so the settings in it never reach the node — '
    + 'the kubelet runs with its defaults (cgroup driver, eviction thresholds) without a word from the file.',
  bad: { filename: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: KubeletConfiguration\ncgroupDriver: systemd\n', options: 'Kubernetes 1.29..1.30' },
  good: { filename: 'kubeadm.yaml', text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n', options: 'Kubernetes 1.29..1.30' },
  fix: 'suggestion',
  sources: [
    'data/kubernetes/fields/component-config.json: the apiVersion/kinds of the component configuration files per minor (scripts/import-k8s-component-fields.mjs)',
    'data/kubernetes/api-lifecycle.json componentConfig rows (the versions the apiVersion rules judge)',
    'kube-scheduler: PluginConfig args are decoded as <name>Args of the configuration\'s group ("args for plugin … were not of type …"); a plugin removed from an apiVersion is refused there (kubernetes/kubernetes#103478)',
  ],
  check(ctx, report) {
    const { groups, byKind } = kindIndex();
    const steps = ctx.minors.map(minorNumber).filter((m) => Number.isFinite(m));
    for (const o of ctx.objects) {
      const homes = byKind.get(o.kind);
      if (!homes) continue;
      const group = groupOf(o.apiVersion);
      if (homes.some((h) => groupOf(h.apiVersion) === group)) continue;
      if (!groups.has(group) && group.endsWith('.k8s.io') === false) continue;
      if (findRow(ctx.rows, o.apiVersion, o.kind)) continue;
      const covers = (h: { runs: [number, number][] }) => steps.filter((m) => h.runs.some(([a, b]) => m >= a && m <= b));
      const reader = componentReader(homes[0].apiVersion, o.kind) ?? 'its component';
      const said = homes.map((h) => { const c = covers(h); return `${h.apiVersion}${c.length === steps.length ? '' : c.length ? ` (read at ${c.map((m) => `1.${m}`).join(', ')} of the window)` : ' (not read in the window)'}`; });
      const whole = homes.filter((h) => covers(h).length === steps.length && steps.length > 0);
      const fixes: FindingFix[] = [];
      if (whole.length === 1) {
        const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
        if (ed.setScalar([...o.at, 'apiVersion'], whole[0].apiVersion)) fixes.push({ title: `Change apiVersion to ${whole[0].apiVersion}`, edits: ed.edits, preferred: false, destructive: ed.destructive });
      }
      report({
        message: `${o.kind} is not a kind of ${o.apiVersion}: no component reads this document, so its settings never take effect; `
          + `${reader} reads ${o.kind} as ${formatList(said, 'or')}`,
        range: o.apiVersionRange,
        fixes,
        data: { apiVersion: o.apiVersion, kind: o.kind, readAs: homes.map((h) => h.apiVersion) },
      });
    }
    // The plugin args of a KubeSchedulerConfiguration kube-scheduler refuses (scheduler-args.ts).
    for (const p of ctx.pluginArgs()) {
      const doc = p.config.doc;
      const shown = pathText(shownSegments(p.config, p.at));
      const known = knownArgsKind(p.name);
      // A plugin whose args kind kube-scheduler does not register is left to the plugin (k8s/fields-not-checked says so).
      if (!known.length) continue;
      if (p.mismatch) {
        const loc = doc.locate([...p.at, p.mismatch]);
        report({
          message: `${shown} says ${p.apiVersion} ${p.kind}, but kube-scheduler decodes the args of plugin ${p.name} as ${p.name}Args of ${groupOf(p.config.apiVersion)} `
            + `and refuses the file (args for plugin ${p.name} were not of type ${p.name}Args)`,
          range: loc.value ?? loc.key,
          data: { path: shown, plugin: p.name, apiVersion: p.apiVersion, kind: p.kind, expected: `${p.name}Args` },
        });
        continue;
      }
      const miss = argsKindMissing(p, ctx.minors, ctx.fields);
      if (!miss || miss.verdict !== 'refused') continue;
      const loc = doc.locate([...p.entryAt, 'name']);
      report({
        message: `plugin ${p.name} has no args kind in ${p.apiVersion}: kube-scheduler ${listOf(miss.steps)} refuses ${shown}; `
          + `the component configuration table has ${p.name}Args only in ${formatList(miss.elsewhere.map((k) => `${k.apiVersion} (${runsText(k.runs)})`), 'and')}, `
          + `an older apiVersion: the plugin is not in ${p.apiVersion}`,
        range: loc.value ?? loc.key,
        data: { path: shown, plugin: p.name, apiVersion: p.apiVersion, kind: p.kind, refusedAt: miss.steps.map((m) => `1.${m}`), argsKindIn: miss.elsewhere.map((k) => k.apiVersion) },
      });
    }
  },
};
