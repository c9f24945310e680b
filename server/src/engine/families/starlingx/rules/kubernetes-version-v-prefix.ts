import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { setKubeVersion } from './fixes';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/kubernetes-version-v-prefix',
  family: 'starlingx',
  defaultSeverity: 'error',
  title: '`kubernetes_version` must be a plain X.Y.Z, without a `v` or spaces',
  what: 'Reports a `kubernetes_version` written with a leading `v` (`v1.21.3`) or with spaces around it inside its quotes (`" 1.21.3"`).',
  why: 'The bootstrap playbook uses the raw value as the directory name of the staged Kubernetes binaries, '
    + '`/usr/local/kubernetes/<value>/stage1|stage2`, and writes it as `KUBERNETES_VERSION=<value>` for sysinv. '
    + 'Those directories are named without the `v` (`/usr/local/kubernetes/1.21.3`), so `v1.21.3` points at a directory '
    + 'that does not exist and bootstrap fails; so does `" 1.21.3"`, whose space is part of the name. (Only the derived "long" form '
    + 'gets a `v` prefix, and the playbook adds it itself.)',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\nkubernetes_version: v1.21.3\n', options: 'StarlingX 6.0' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\nkubernetes_version: 1.21.3\n', options: 'StarlingX 6.0' },
  fix: 'complete',
  sources: [
    'starlingx/ansible-playbooks roles/common/k8s-symlinks/tasks/main.yml, roles/bootstrap/persist-config/templates/bootstrap_config.j2 (tags 6.0.0 … master)',
    'shared reference: starlingx/kubernetes-version-override.md',
  ],
  check(ctx, report) {
    const kv = ctx.kubernetesVersion();
    if (!kv?.text) return;
    const v = /^\s*[vV]/.test(kv.text);
    const spaced = kv.text !== kv.text.trim();
    if (!v && !spaced) return;
    // A release that replaces the value before use never sees it (starlingx/key-not-read says it is ignored).
    if (ctx.release.keysReplaced?.some((r) => r.key === 'kubernetes_version')) return;
    const plain = kv.normalised!;
    const what = [spaced ? 'spaces around it' : '', v ? 'a "v" prefix' : ''].filter(Boolean).join(' and ');
    const fix = [spaced ? 'trim the spaces' : '', v ? 'remove the "v"' : ''].filter(Boolean).join(', ');
    report({
      message: `kubernetes_version ${JSON.stringify(kv.text)} has ${what}: the playbooks use the value as the directory `
        + `${spaced ? `${JSON.stringify(`/usr/local/kubernetes/${kv.text}`)} (spaces included)` : `/usr/local/kubernetes/${kv.text}`}, which does not exist (the binaries are in /usr/local/kubernetes/${plain}). Write ${plain}.`,
      range: kv.range,
      fixes: [setKubeVersion(kv, plain, `${fix[0].toUpperCase()}${fix.slice(1)}: ${plain}`, true)],
      data: { value: kv.text, plain },
    });
  },
};
