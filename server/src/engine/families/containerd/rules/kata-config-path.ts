import * as path from 'node:path';
import type { Rule } from '../../../rules/types';
import type { ContainerdContext } from '../index';
import { joinPath } from '../index';

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/kata-config-path',
  family: 'containerd',
  defaultSeverity: 'info',
  title: 'Kata runtime whose ConfigPath names no file of the workspace',
  what: 'For a Kata runtime entry\'s `options.ConfigPath`, finds the configuration file it names in the workspace (the same path '
    + 'below the root, else a file whose path ends with the ConfigPath\'s part after a known install folder such as '
    + '`/opt/kata/share/defaults/kata-containers/` or `/etc/kata-containers/`); that file is then checked with the flavour the '
    + 'runtime\'s shim implies (kata-deploy: `…/runtime-rs/bin/containerd-shim-kata-v2`, the `*-runtime-rs` shims, a `runtime-rs/` '
    + 'ConfigPath; else the Go runtime). A ConfigPath that names no workspace file is said here: that configuration is not checked.',
  why: 'The configuration the shim reads is the one named here, not one that merely sits in the repository: a Go-style file named by '
    + 'a runtime-rs runtime class is read by runtime-rs, and only checking it as runtime-rs finds what runtime-rs ignores or refuses.',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]\n  runtime_type = "io.containerd.kata-qemu.v2"\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu.options]\n  ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"\n', options: 'containerd 1.7, Kata workspace' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v2"\n', options: 'containerd 1.7, Kata workspace' },
  fix: 'none',
  sources: [
    'kata-containers tools/packaging/kata-deploy/binary/src/runtime/containerd.rs (runtime name, runtime_type, runtime_path, ConfigPath per shim), src/utils/system.rs (RUST_SHIMS); data/kata/flavour-switch.json kataDeploy',
  ],
  check(ctx, report) {
    const chain = ctx.kataChain;
    // Without the workspace (the engine on its own) there is nothing to resolve against.
    if (!chain) return;
    for (const rt of ctx.kataRuntimes()) {
      const e = rt.configPath;
      if (!e || typeof e.value !== 'string') continue;
      const fact = chain.runtimes.find((r) => r.file === ctx.file && r.runtime === rt.name);
      if (fact?.resolved.length) continue;
      report({
        message: `not checked: ${e.value}, the configuration runtime ${rt.name} (${joinPath(rt.segs)}) reads, is not in the workspace`
          + ` (no file below ${where(fact?.nodeRoot ?? chain.root, chain.root)}, the node's / in the workspace, has that path or ends with its part after the install folder)`
          + (chain.truncated ? `; ${chain.truncated}` : ''),
        range: e.valueRange,
        data: { runtime: rt.name, configPath: e.value },
      });
    }
  },
};

/** A folder as messages name it: relative to the workspace root ("the workspace root" for the root itself). */
function where(dir: string, root: string): string {
  const rel = path.relative(root, dir).split(path.sep).join('/');
  return rel ? `${rel}/` : 'the workspace root';
}
