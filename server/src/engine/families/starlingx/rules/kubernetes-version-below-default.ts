import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { compareVersions } from '../../../versions';
import { defaultFix } from './fixes';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/kubernetes-version-below-default',
  family: 'starlingx',
  defaultSeverity: 'warning',
  title: '`kubernetes_version` is older than the release default',
  what: 'Reports a shipped `kubernetes_version` that is older than the release\'s fresh-install default, '
    + 'with the number of one-minor Kubernetes upgrades the system will need afterwards.',
  why: 'StarlingX upgrades Kubernetes one minor version at a time (`system kube-upgrade-start` walks the newest patch of every '
    + 'intermediate minor), and each step is a full control-plane and kubelet upgrade of every host. Installing an older '
    + 'version commits the operator to that whole chain before the system is on the version the release was validated on.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\nkubernetes_version: 1.18.1\n', options: 'StarlingX 6.0' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\nkubernetes_version: 1.21.3\n', options: 'StarlingX 6.0' },
  fix: 'suggestion',
  sources: [
    'starlingx/ansible-playbooks roles/bootstrap/validate-config/vars/main.yml fresh_install_k8s_version',
    'starlingx/config api/controllers/v1/kube_upgrade.py (kube_get_higher_patch_version)',
    'shared reference: starlingx/kube-upgrade-facts.md §3',
  ],
  check(ctx, report) {
    const kv = ctx.kubernetesVersion();
    if (!kv?.text || ctx.release.override === 'not-supported') return;
    const v = kv.normalised!;
    if (!ctx.shipped.includes(v) || compareVersions(v, ctx.release.default) >= 0) return;
    const toDefault = ctx.upgradesAfter(v).filter((p) => compareVersions(p, ctx.release.default) <= 0);
    const n = toDefault.length;
    report({
      message: `Kubernetes ${v} is older than StarlingX ${ctx.release.release}'s default ${ctx.release.default}: after bootstrap the system needs `
        + `${n} one-minor upgrade${n === 1 ? '' : 's'} (${[v, ...toDefault].join(' → ')}) to reach it.`,
      range: kv.range,
      fixes: [defaultFix(ctx, kv)],
      data: { path: [v, ...toDefault], upgrades: n },
    });
  },
};
