import type { Rule } from '../../../rules/types';
import type { ContainerdContext, ContainerdItem } from '../index';
import { joinPath, minorsText, type ReadAt } from '../index';
import { didYouMean } from '../../../text';
import { releasesText } from './common';

/** The options structs as messages name them (data/containerd/config.json releases[].runtimeOptions). */
const STRUCT_NAMES: Record<string, string> = {
  'runc-options': 'the runc options',
  'runctypes-options': 'the legacy runc (runctypes) options',
  'runtime-options-generic': 'the generic runtime options message',
};

const isUnder = (a: string[], b: string[]) => b.length < a.length && b.every((s, i) => a[i] === s);

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/not-read',
  family: 'containerd',
  defaultSeverity: 'warning',
  title: 'Table or key that a containerd of the window does not read',
  what: 'Reports a table or key of config.toml that some containerd minor of the window does not decode (its config structs have no such field, '
    + 'or its migration of an older config version moves it where that minor does not read it), naming those minors; and a key no containerd '
    + 'release of the data reads at all, with the nearest known key. A version 3 file that still puts the CRI runtime under '
    + '`io.containerd.grpc.v1.cri` is told where containerd 2.x reads it (`io.containerd.cri.v1.runtime` / `io.containerd.cri.v1.images`). '
    + 'A key under a runtime\'s `options` is read only when it is a field of the options struct its `runtime_type` selects: '
    + '`SystemdCgroup` under a Kata runtime (`io.containerd.kata.v2`, the generic TypeUrl/ConfigPath/ConfigBody message) is not.',
  why: 'containerd ignores what it does not decode: 1.x silently, 2.x with an "Ignoring unknown key in TOML" log line. A setting that one side '
    + 'of an upgrade ignores changes the node without an error (a registry mirror, a cgroup driver, a runtime class).',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 3\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v2"\n', options: 'containerd 2.0..2.1' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v2"\n', options: 'containerd 2.0..2.1' },
  fix: 'none',
  sources: [
    'containerd/containerd internal/cri/config/config.go, pkg/cri/config/config.go, vendor/github.com/containerd/cri/pkg/config/config.go (the CRI config structs per tag)',
    'containerd/containerd cmd/containerd/server/config/config.go, services/server/config/config.go (the daemon Config struct; unknown keys ignored)',
    'containerd/containerd plugins/cri/runtime/plugin.go, plugins/cri/images/plugin.go (ConfigMigration from version 2)',
    'containerd/containerd getRuntimeOptionsType (pkg/cri/server/helpers.go 1.x, internal/cri/config/config.go 2.x): the options struct per runtime_type (config-keys.json runtimeOptionsBySelector)',
  ],
  check(ctx, report) {
    const reported: string[][] = [];
    const items = [...ctx.items].sort((a, b) => a.segs.length - b.segs.length || a.range.start - b.range.start);
    const covered = (it: ContainerdItem) => reported.some((r) => isUnder(it.segs, r) || (r.length === it.segs.length && r.every((s, i) => s === it.segs[i])));
    const notRead = new Map(ctx.notReadItems().map((x) => [x.item, x]));
    const allMinors = ctx.data.releases.map((r) => r.minor);
    for (const it of items) {
      if (covered(it)) continue;
      const name = joinPath(it.segs);
      if (it.match.kind === 'unknown') {
        const { node, at } = it.match;
        const cand = [...node.children.keys()];
        const hint = didYouMean(it.segs[at], cand);
        report({
          message: `${it.kind === 'table' ? `[${name}]` : name}: no containerd release ${allMinors[0]}..${allMinors[allMinors.length - 1]} reads \`${it.segs[at]}\` ${node.path ? `in ${node.path}` : 'at the top level'}${hint ? `; did you mean \`${hint}\`?` : ''} (containerd ignores it)`,
          range: it.range,
          data: { path: name, unknown: it.segs[at] },
        });
        reported.push(it.segs.slice(0, at + 1));
        continue;
      }
      const nr = notRead.get(it);
      if (!nr) continue;
      const reads = ctx.releases.map((r, i) => ({ r, read: nr.reads[i] }));
      const readers = reads.filter((x) => x.read.read).map((x) => x.r.minor);
      const moved = reads.filter((x) => !x.read.read && (x.read as { why: string }).why === 'migrated-away');
      let hint = '';
      const v3 = nr.minors.filter((r) => r.currentConfigVersion >= 3);
      const wrongStruct = reads.filter((x) => !x.read.read && x.read.why === 'options-struct');
      if (wrongStruct.length) {
        // Grouped by what the runtime_type selects (2.x sends io.containerd.runc.v1 to the generic message, 1.x to runc's).
        const groups = new Map<string, { minors: string[]; text: string }>();
        for (const x of wrongStruct) {
          const o = x.read as Extract<ReadAt, { why: 'options-struct' }>;
          const st = x.r.runtimeOptions.structs[o.struct];
          const text = `runtime_type "${o.runtimeType}" has its options decoded into ${STRUCT_NAMES[o.struct] ?? o.struct} (${st.root} in ${st.file}${o.fields.length <= 4 ? `: ${o.fields.join(', ')}` : ''}), which has no ${it.segs[it.segs.length - 1]} field`;
          const g = groups.get(text);
          if (g) g.minors.push(x.r.minor); else groups.set(text, { minors: [x.r.minor], text });
        }
        hint = `; ${[...groups.values()].map((g) => (groups.size > 1 ? `in ${minorsText(g.minors, ctx.minors)} ` : '') + g.text).join('; ')}: containerd ignores it there`;
      } else if (nr.node.path.startsWith('plugins."io.containerd.grpc.v1.cri"') && ctx.version >= 3 && v3.length) {
        hint = `; in a version ${ctx.version} file containerd ${minorsText(v3.map((r) => r.minor), ctx.minors)} ${v3.length > 1 ? 'read' : 'reads'} the CRI runtime settings under plugins."io.containerd.cri.v1.runtime" and the image settings under plugins."io.containerd.cri.v1.images" (io.containerd.grpc.v1.cri keeps only the streaming server)`;
      } else if (moved.length) {
        const via = moved.map((x) => x.read.via).find(Boolean);
        hint = `; the migration from version ${ctx.version} moves it${via ? ` to ${via}` : ''}, which ${minorsText(moved.map((x) => x.r.minor), ctx.minors)} ${moved.length > 1 ? 'do' : 'does'} not read`;
      } else if (nr.node.path.includes('"io.containerd.cri.v1.') && nr.minors.some((r) => r.currentConfigVersion < 3)) {
        hint = '; containerd 1.x reads the CRI plugin as io.containerd.grpc.v1.cri (version 2)';
      }
      report({
        message: `${it.kind === 'table' ? `[${name}]` : name}: not read by ${releasesText(ctx, nr.minors)}${readers.length ? ` (read by ${minorsText(readers, ctx.minors)})` : ''}${hint}`,
        range: it.range,
        data: { path: name, notReadBy: nr.minors.map((r) => r.minor), readBy: readers },
      });
      reported.push(it.segs);
    }
  },
};
