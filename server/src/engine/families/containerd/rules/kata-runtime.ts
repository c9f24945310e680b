import type { Rule } from '../../../rules/types';
import type { ContainerdContext } from '../index';
import { joinPath } from '../index';

/** A Kata shim: io.containerd.kata.v2, or kata-deploy's per-hypervisor aliases (io.containerd.kata-qemu.v2, …). */
export const KATA_RUNTIME_TYPE = /^io\.containerd\.kata(-[a-z0-9-]+)?\.v2$/;

export const rule: Rule<ContainerdContext> = {
  id: 'containerd/kata-runtime',
  family: 'containerd',
  defaultSeverity: 'warning',
  title: 'Kata runtime entry without the Kata shim or its configuration path',
  what: 'Reports a `…containerd.runtimes.<name>` entry for Kata Containers (its name or runtime_type says kata) whose `runtime_type` is missing '
    + 'or is not a Kata v2 shim (`io.containerd.kata.v2`, or kata-deploy\'s `io.containerd.kata-<hypervisor>.v2`), and one without '
    + '`options.ConfigPath`, the Kata configuration the shim is to read.',
  why: 'containerd turns runtime_type io.containerd.<name>.v2 into the binary containerd-shim-<name>-v2; without it the CRI plugin runs the pod with '
    + 'the default runtime (runc), outside a VM. Without ConfigPath the shim reads its built-in default configuration, not the one written for '
    + 'this runtime class (from 1.7 containerd passes the options table as ConfigBody instead).',
  bad: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]\n  runtime_type = "io.containerd.runc.v2"\n', options: 'containerd 1.7' },
  good: { filename: '/etc/containerd/config.toml', text: 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]\n  runtime_type = "io.containerd.kata-qemu.v2"\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu.options]\n  ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"\n', options: 'containerd 1.7' },
  fix: 'none',
  sources: [
    'containerd/containerd runtime v2 shim binary naming (io.containerd.<name>.<version> -> containerd-shim-<name>-<version>)',
    'containerd/containerd pkg/cri/server/helpers.go / internal/cri/config/config.go (getRuntimeOptionsType: generic options TypeUrl, ConfigPath, ConfigBody)',
    'kata-containers/kata-containers docs/how-to/containerd-kata.md',
  ],
  check(ctx, report) {
    for (const rt of ctx.kataRuntimes()) {
      const name = `[${joinPath(rt.segs)}]`;
      const t = rt.runtimeType?.value;
      if (typeof t !== 'string' || !KATA_RUNTIME_TYPE.test(t)) {
        report({
          message: typeof t === 'string'
            ? `${name}: runtime_type "${t}" is not a Kata shim; a Kata runtime needs runtime_type = "io.containerd.kata.v2" (or kata-deploy's io.containerd.kata-<hypervisor>.v2), else its pods run with ${t}`
            : `${name}: no runtime_type; a Kata runtime needs runtime_type = "io.containerd.kata.v2", else its pods run with the default runtime (runc) outside a VM`,
          range: rt.runtimeType ? rt.runtimeType.valueRange : rt.range,
          data: { runtime: rt.name, runtimeType: t ?? null },
        });
      }
      if (!rt.configPath) {
        report({
          message: `${name}: no options.ConfigPath; the Kata shim then reads its default configuration.toml, not one chosen for runtime ${rt.name} (e.g. ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration${/^kata-([a-z0-9-]+)$/.exec(rt.name) ? `-${/^kata-([a-z0-9-]+)$/.exec(rt.name)![1]}` : ''}.toml")`,
          range: rt.range,
          data: { runtime: rt.name },
        });
      }
    }
  },
};
