import type { Rule, FindingFix } from '../../../rules/types';
import type { ContainerdContext, ContainerdItem } from '../index';
import { joinPath, minorsText, matchPath, splitPath } from '../index';
import { compareMinor } from '../../../versions';
import type { ContainerdDeprecation } from '../data';
import { releasesText } from './common';

const minorOf = (s: string | null) => (s ? /^(\d+\.\d+)/.exec(s)?.[1] : undefined);

/**
 * The minors of the window at which a deprecation holds: from deprecatedIn and before removedIn. A minor before
 * deprecatedIn that warns ahead of time (1.6/1.7 say Go plugins "will be deprecated in v2.0") is not one: the setting
 * is not deprecated there. Without a deprecatedIn, the minors that warn.
 */
function deprecatedAt(ctx: ContainerdContext, d: ContainerdDeprecation): string[] {
  const from = minorOf(d.deprecatedIn), to = minorOf(d.removedIn);
  return ctx.minors.filter((m) => (from ? compareMinor(m, from) >= 0 : d.warnedBy.some((w) => w.minor === m))
    && (!to || compareMinor(m, to) < 0));
}

/**
 * `cni.bin_dir = "x"` → `cni.bin_dirs = ["x"]`: what the 2.1+ migration itself does (plugins/cri/runtime/plugin.go), so
 * the meaning is kept; offered only when every minor of the window reads bin_dirs and the file does not set it already.
 */
function binDirFix(ctx: ContainerdContext, it: ContainerdItem): FindingFix | undefined {
  const e = it.entry;
  if (!e || typeof e.value !== 'string') return undefined;
  const dirs = [...it.segs.slice(0, -1), 'bin_dirs'];
  if (ctx.items.some((x) => x.segs.length === dirs.length && x.segs.every((s, i) => s === dirs[i]))) return undefined;
  const m = matchPath(dirs, ctx.version);
  if (m.kind !== 'known' || !ctx.releases.every((r) => ctx.readAt(m.node, r).read)) return undefined;
  const keyText = ctx.toml.text.slice(e.keyRange.start, e.keyRange.end);
  if (!/bin_dir$/.test(keyText)) return undefined;
  const valueText = ctx.toml.text.slice(e.valueRange.start, e.valueRange.end);
  return {
    title: 'Use cni.bin_dirs = [<the same directory>] (what containerd\'s own migration does)',
    edits: [
      { range: { start: e.keyRange.end, end: e.keyRange.end }, newText: 's' },
      { range: e.valueRange, newText: `[${valueText}]` },
    ],
    // A quick fix the user picks (the rule's other findings have none, so fix-all does not apply it).
    preferred: false,
    // bin_dir becomes bin_dirs: a key is rewritten (an insertion after the key, which the old text guess missed).
    destructive: true,
  };
}

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/deprecated',
  family: 'containerd',
  defaultSeverity: 'warning',
  title: 'Deprecated containerd setting',
  what: 'Reports a config.toml key or plugin table that a containerd minor of the window deprecates (registry `mirrors`/`configs`/`auths` → '
    + '`config_path` with hosts.toml files, CRI `systemd_cgroup` → the runc option `SystemdCgroup`, `default_runtime`, '
    + '`untrusted_workload_runtime`, `runtime_engine`/`runtime_root`, `cni.bin_dir` → `cni.bin_dirs`, `enable_cdi`, the tracing plugin tables, '
    + '`plugin_dir`, runc `CriuPath`/`TaskApiAddress`/`TaskApiVersion`), with its replacement and the release that removes it (or, where RELEASES.md only announces one — registry `mirrors`/`configs`/`auths`, `cni.bin_dir`, `enable_cdi`, the tracing tables: 2.4 — that announced target, said as such). '
    + '`cni.bin_dir` gets a fix where every minor of the window reads `bin_dirs`.',
  why: 'A deprecated setting is removed in a later minor (often the one after an LTS), and containerd then ignores it silently or refuses to start; '
    + 'containerd says so only in its log and `ctr deprecations list`. The other replacements are not mechanical: `config_path` needs hosts.toml '
    + 'files in another folder, and `systemd_cgroup` applied to the v1 linux shim only, so moving it into a runc v2 runtime changes that runtime.',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".cni]\n  bin_dir = "/opt/cni/bin"\n  conf_dir = "/etc/cni/net.d"\n', options: 'containerd 2.1..2.2, Kubernetes 1.35' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".cni]\n  bin_dirs = ["/opt/cni/bin"]\n  conf_dir = "/etc/cni/net.d"\n', options: 'containerd 2.1..2.2, Kubernetes 1.35' },
  fix: 'suggestion',
  sources: [
    'containerd/containerd pkg/deprecation/deprecation.go (deprecation IDs and messages) and the sites that emit them',
    'containerd/containerd RELEASES.md ("Deprecated config properties"; the removals it announces for a later release, e.g. 2.4, are said as announced targets)',
    'containerd/containerd plugins/cri/runtime/plugin.go (cni.bin_dir -> cni.bin_dirs in the 2.1+ migration)',
  ],
  check(ctx, report) {
    const seen = new Set<string>();
    for (const it of ctx.items) {
      // The item's path, and where the migration of each minor of the window puts it (a version 2 key read by 2.x).
      const paths = new Set<string>([joinPath(it.segs)]);
      if (it.match.kind === 'known') {
        const node = it.match.node;
        paths.add(node.path);
        for (const r of ctx.releases) { const x = ctx.readAt(node, r); if (x.via) paths.add(x.via); }
      }
      const hit = (k: string | null) => !!k && [...paths].some((p) => p === k || p.startsWith(`${k}.`));
      const d = ctx.data.deprecations.find((x) => hit(x.key) || hit(x.key2x));
      if (!d) continue;
      const at = deprecatedAt(ctx, d);
      if (!at.length) continue;
      // One finding per setting: a deprecated table's header (or its first key), not one per key or entry under it.
      const depth = splitPath((d.key && [...paths].some((p) => p === d.key || p.startsWith(`${d.key}.`)) ? d.key : d.key2x)!).length;
      const id = `${d.id}\u0000${it.segs.slice(0, depth).join('\u0000')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const path = [...paths][0];
      const removed = d.removedIn ? `; removed in ${d.removedIn}`
        : d.announcedRemoval ? `; removal announced for ${d.announcedRemoval.release} (RELEASES.md of ${d.announcedRemoval.source.tag}: a target, not done yet)`
          : '; no removal release is fixed upstream yet';
      const fix = /cni\.bin_dir$/.test(path) ? binDirFix(ctx, it) : undefined;
      report({
        message: `${it.kind === 'table' ? `[${joinPath(it.segs)}]` : joinPath(it.segs)}: deprecated in ${releasesText(ctx, ctx.releases.filter((r) => at.includes(r.minor)))} (${d.id}${d.deprecatedIn ? `, since ${d.deprecatedIn}` : ''}${removed}). ${d.meaning} Use instead: ${d.replacement}`,
        range: it.range,
        ...(fix ? { fixes: [fix] } : {}),
        data: { id: d.id, deprecatedAt: at, removedIn: d.removedIn, ...(d.announcedRemoval ? { announcedRemoval: d.announcedRemoval.release } : {}), window: minorsText(ctx.minors, ctx.minors) },
      });
    }
  },
};
