import type { Rule } from '../../../rules/types';
import type { ContainerdContext } from '../index';
import { fileAnchor, releasesText } from './common';

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/config-version',
  family: 'containerd',
  defaultSeverity: 'error',
  title: 'Config `version` that a containerd of the window cannot read',
  what: 'Reports a `version` that some containerd minor of the window does not read (1.x reads versions 1 and 2, 2.0–2.2 up to 3, 2.3 up to 4), '
    + 'naming those minors, and which version every minor of the window reads (older versions are migrated in memory at each start).',
  why: 'containerd refuses to start on a newer config version ("expected containerd config version equal to or less than `N`"; in 1.x from 1.6.32 '
    + 'and 1.7.17, earlier 1.x patches ignore the unknown plugin sections instead). A node rolled back from 2.x with a version 3 file, or a 2.2 '
    + 'node given a version 4 file written by 2.3 (kata-deploy broke this way, kata-containers #12936), loses its container runtime.',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".containerd]\n  default_runtime_name = "runc"\n', options: 'containerd 1.7..2.1' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd]\n  default_runtime_name = "runc"\n', options: 'containerd 1.7..2.1' },
  fix: 'none',
  sources: [
    'containerd/containerd cmd/containerd/server/config/config.go (ValidateVersion, MigrateConfigTo, LoadConfigWithPlugins)',
    'containerd/containerd services/server/config/config.go (1.x: version > 2 rejected from 1.6.32 and 1.7.17)',
    'containerd/containerd RELEASES.md (configuration versions: 2 from 1.3.0, 3 from 2.0.0, 4 from 2.3.0)',
  ],
  check(ctx, report) {
    const refuse = ctx.releases.filter((r) => !ctx.readsVersion(r));
    if (!refuse.length) return;
    const common = [1, 2, 3, 4].filter((v) => ctx.releases.every((r) => r.configVersions.includes(v)));
    const best = common[common.length - 1];
    const readable = refuse.map((r) => `${r.minor} reads ${r.configVersions.join(', ')}`).join('; ');
    const migrate = best === undefined
      ? 'no config version is read by every containerd of the window: keep one config per containerd release'
      : best < ctx.version
        ? `version ${best} is read by every containerd of the window (newer ones migrate it in memory at each start, with a warning); `
          + `write it with the plugin tables of version ${best}${best === 2 ? ' (the CRI plugin as io.containerd.grpc.v1.cri)' : ''} until the window is past ${refuse[refuse.length - 1].minor}, then run \`containerd config migrate\``
        : `version ${best} is read by every containerd of the window`;
    const old1x = refuse.filter((r) => r.minor.startsWith('1.'));
    const how = old1x.length ? ` (${old1x.map((r) => r.minor).join(', ')}: a startup error from 1.6.32/1.7.17, earlier patches ignore the plugin tables they do not know)` : ' (a startup error)';
    report({
      message: `config version ${ctx.version}${ctx.versionEntry ? '' : ' (no `version`: read as 1)'}: ${releasesText(ctx, refuse)} cannot read it${how}; ${readable}. Migration: ${migrate}`,
      range: fileAnchor(ctx),
      data: { version: ctx.version, refusedBy: refuse.map((r) => r.minor), commonVersion: best ?? null },
    });
  },
};
