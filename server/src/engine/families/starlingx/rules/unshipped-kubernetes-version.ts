import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { setKubeVersion, defaultFix } from './fixes';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/unshipped-kubernetes-version',
  family: 'starlingx',
  defaultSeverity: 'error',
  title: '`kubernetes_version` is not shipped by the StarlingX release',
  what: 'Reports a `kubernetes_version` that the selected StarlingX release does not ship, and lists the versions it does ship; '
    + 'also one sysinv lists but the playbooks have no image list for (7.0: 1.18.1, 1.19.13, 1.20.9).',
  why: 'A release can only install the Kubernetes versions it packages: bootstrap needs the staged binaries '
    + '`/usr/local/kubernetes/<X.Y.Z>` and the per-version image lists and manifests `k8s-v<X.Y.Z>` in the playbooks. '
    + 'Any other value fails during bootstrap, after the operator has already started the install.',
  bad: { filename: 'localhost.yml', text: 'system_mode: duplex\nkubernetes_version: 1.21.1\n', options: 'StarlingX 6.0' },
  good: { filename: 'localhost.yml', text: 'system_mode: duplex\nkubernetes_version: 1.21.3\n', options: 'StarlingX 6.0' },
  fix: 'complete',
  sources: [
    'starlingx/config sysinv/common/kubernetes.py get_kube_versions() per release tag',
    'starlingx/integ debian_pkg_dirs / centos_pkg_dirs (kubernetes-X.Y.Z packages)',
    'shared reference: starlingx/kube-versions.json, starlingx/kubernetes-version-override.md',
  ],
  check(ctx, report) {
    const kv = ctx.kubernetesVersion();
    if (!kv?.text || ctx.release.override === 'not-supported') return;
    const v = kv.normalised!;
    if (ctx.shipped.includes(v)) {
      // sysinv lists it, but bootstrap also needs the playbooks' image list for it: without
      // roles/common/load-images-information/vars/k8s-v<X.Y.Z> the role fails (7.0: 1.18.1, 1.19.13, 1.20.9).
      const dirs = ctx.release.playbookImageVars;
      if (!dirs || dirs.some((d) => d.version === v)) return;
      const usable = ctx.shipped.filter((x) => dirs.some((d) => d.version === x));
      report({
        message: `StarlingX ${ctx.release.release} lists Kubernetes ${v}, but its playbooks have no roles/common/load-images-information/vars/k8s-v${v} directory, so bootstrap fails with it; `
          + `versions bootstrap can install: ${usable.join(', ')} (default ${ctx.release.default}).`,
        range: kv.range,
        fixes: [defaultFix(ctx, kv)],
        data: { shipped: ctx.shipped, imageVars: usable, default: ctx.release.default, release: ctx.release.release, missingImageVars: v },
      });
      return;
    }
    const same = /^\d+\.\d+/.test(v) ? ctx.sameMinorPatch(v) : undefined;
    const fixes = [];
    if (same) fixes.push(setKubeVersion(kv, same, `Use ${same}, the shipped patch of ${same.split('.').slice(0, 2).join('.')}`, true));
    fixes.push(defaultFix(ctx, kv));
    report({
      message: `StarlingX ${ctx.release.release} does not ship Kubernetes ${kv.text.trim()}; it ships ${ctx.shipped.join(', ')} (default ${ctx.release.default})`
        + (same ? `. The shipped patch of this minor is ${same}.` : '.'),
      range: kv.range,
      fixes,
      data: { shipped: ctx.shipped, default: ctx.release.default, release: ctx.release.release },
    });
  },
};
