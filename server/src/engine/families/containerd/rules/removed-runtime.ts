import type { Rule } from '../../../rules/types';
import type { ContainerdContext } from '../index';
import { joinPath, minorsText } from '../index';
import { compareMinor } from '../../../versions';
import { releasesText } from './common';

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/removed-runtime',
  family: 'containerd',
  defaultSeverity: 'error',
  title: 'Runtime that containerd 2.0 removed',
  what: 'Reports, at the value, a `runtime_type` of `io.containerd.runc.v1` (the runc v1 shim) or `io.containerd.runtime.v1.linux` '
    + '(the legacy v1 runtime, shim v1), and the v1 runtime\'s own plugin table (`[plugins."io.containerd.runtime.v1.linux"]`, '
    + '`[plugins.linux]` in a version 1 file), when the containerd window reaches 2.0: both were deprecated in 1.4 and removed in '
    + '2.0. In a window that stays below 2.0 the same is said as a warning (deprecated there, removed at the next major).',
  why: 'containerd 2.0 no longer has the v1 runtime plugin and no longer ships containerd-shim-runc-v1: a pod whose runtime class '
    + 'names such a runtime cannot be started after the upgrade (the node looks healthy until a pod lands on it), and the '
    + 'settings in the v1 runtime\'s table are read by nothing.',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v1"\n', options: 'containerd 1.7..2.0' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v2"\n', options: 'containerd 1.7..2.0' },
  fix: 'none',
  sources: [
    'data/containerd/config.json removedRuntimes: containerd/containerd RELEASES.md "Deprecated features" at v2.0.0 (both "containerd v2.0 (done)"), deprecation IDs io.containerd.deprecation/runtime-v1 and runtime-runc-v1 (pkg/deprecation)',
    'containerd/containerd PR 8262 (Remove io.containerd.runtime.v1.linux and io.containerd.runc.v1)',
  ],
  check(ctx, report) {
    const rows = ctx.data.removedRuntimes ?? [];
    if (!rows.length || !ctx.releases.length) return;
    for (const row of rows) {
      const gone = ctx.releases.filter((r) => compareMinor(r.minor, row.removedIn) >= 0);
      const deprecated = ctx.releases.filter((r) => compareMinor(r.minor, row.deprecatedIn) >= 0 && compareMinor(r.minor, row.removedIn) < 0);
      if (!gone.length && !deprecated.length) continue;
      const verdict = gone.length
        ? `removed in ${row.removedIn}: ${releasesText(ctx, gone)} ${gone.length > 1 ? 'have' : 'has'} no such runtime (deprecated since ${row.deprecatedIn})`
        : `deprecated since ${row.deprecatedIn} in ${releasesText(ctx, deprecated)} and removed in ${row.removedIn}`;
      const data = { id: row.id, runtime: row.value, removedIn: row.removedIn, removedAt: gone.map((r) => r.minor), deprecatedAt: deprecated.map((r) => r.minor), window: minorsText(ctx.minors, ctx.minors) };
      const severity = gone.length ? undefined : 'warning' as const;
      for (const it of ctx.items) {
        if (it.kind === 'key' && it.segs[it.segs.length - 1] === 'runtime_type' && typeof it.entry?.value === 'string' && it.entry.value.trim() === row.value) {
          report({
            message: `runtime_type "${row.value}" (${joinPath(it.segs.slice(0, -1))}): ${verdict}. Use instead: ${row.replacement}`,
            range: it.entry.valueRange,
            ...(severity ? { severity } : {}),
            data,
          });
        }
        if (it.kind === 'table' && row.pluginTables?.includes(joinPath(it.segs))) {
          report({
            message: `[${joinPath(it.segs)}]: the ${row.value} runtime's own settings; ${verdict}, so nothing reads this table there. Use instead: ${row.replacement}`,
            range: it.range,
            ...(severity ? { severity } : {}),
            data,
          });
        }
      }
    }
  },
};
