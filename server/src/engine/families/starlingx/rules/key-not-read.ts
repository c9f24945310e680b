import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { own } from '../../../text';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/key-not-read',
  family: 'starlingx',
  defaultSeverity: 'warning',
  title: 'Key that the selected StarlingX release does not read',
  what: 'Reports a key that other StarlingX releases read but the selected one does not: it was dropped '
    + '(e.g. `k8s_root_ca_cert` from 12.0) or is not read yet (e.g. a `calico_*` key before master), and a key the release '
    + 'reads but replaces before use (`kubernetes_version` in 3.0–5.0, `cluster_host_floating_address` in 6.0–8.0).',
  why: 'The override is silently ignored by this release: the setting the operator relies on (a custom root CA, a '
    + 'Calico option) is not applied, and the file must change when it moves between releases.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\nk8s_root_ca_cert: /home/sysadmin/k8s-ca.crt\nk8s_root_ca_key: /home/sysadmin/k8s-ca.key\n', options: 'StarlingX 12.0' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/ansible-playbooks per release tag (shared reference: starlingx/optional-keys.json keys_per_release)', 'data/starlingx/releases.json keysReplaced (3.0–5.0 kubernetes_version, 6.0–8.0 cluster_host_floating_address)'],
  check(ctx, report) {
    const notRead: Record<string, { releases: string[]; lastRead: string | null; firstRead: string | null }> = ctx.schema?.['x-skewguard']?.notRead ?? {};
    for (const p of ctx.schemaProblems()) {
      if (p.keyword !== 'additionalProperties' || p.path.length !== 0 || !p.property) continue;
      const info = own<(typeof notRead)[string]>(notRead, p.property);
      if (!info) continue;
      const rel = ctx.release.release;
      let when: string;
      if (info.lastRead && !info.firstRead) when = `no longer read from StarlingX ${rel} (last read by ${info.lastRead})`;
      else if (info.firstRead && !info.lastRead) when = `not read yet by StarlingX ${rel} (first read by ${info.firstRead})`;
      else when = `not read by StarlingX ${rel} (read by ${info.releases.join(', ')})`;
      report({
        message: `"${p.property}" is ${when}: the bootstrap playbook ignores it`,
        range: p.range,
        data: { key: p.property, ...info },
      });
    }
    // Read, but replaced before it takes effect (StarlingX 3.0–5.0 kubernetes_version, 6.0–8.0 cluster_host_floating_address).
    for (const r of ctx.release.keysReplaced ?? []) {
      if (!Object.prototype.hasOwnProperty.call(ctx.value, r.key)) continue;
      report({
        message: `"${r.key}" is ignored by StarlingX ${ctx.release.release}: ${r.why}`,
        range: ctx.doc.locate([r.key]).key ?? ctx.doc.locate([r.key]).value,
        data: { key: r.key, replaced: true, source: r.source },
      });
    }
  },
};
