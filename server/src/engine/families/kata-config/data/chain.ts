// The node as one system: a containerd runtime entry for Kata → the configuration file its options.ConfigPath names →
// the runtime flavour its shim implies, and kata-deploy's image tag → the Kata window of a repository. Pure: the
// server walks the workspace and hands the facts in (NeighbourFacts.kataChain); the families read them.
import * as path from 'node:path';
import type { Flavour } from './index';
import { switchData } from './switch';

/** A Kata runtime entry of a workspace containerd config, and what its ConfigPath resolves to. */
export interface KataRuntimeFact {
  /** The containerd config (absolute path) and the runtime name (`[…containerd.runtimes.<runtime>]`). */
  file: string;
  runtime: string;
  runtimeType?: string;
  runtimePath?: string;
  configPath?: string;
  /** The flavour the shim implies, and why (runtime_path, runtime_type's shim name, ConfigPath's folder). */
  flavour: Flavour;
  why: string;
  /** The workspace Kata configurations the ConfigPath names (absolute paths; more than one when equally near). */
  resolved: string[];
  /** The folder that stands for the node's / (the one holding etc/containerd/): where the ConfigPath was looked up. */
  nodeRoot?: string;
}

/** What the server found in the workspace for the chain. */
export interface KataChainFacts {
  root: string;
  runtimes: KataRuntimeFact[];
  /** The workspace's Kata configuration files (configuration*.toml), absolute. */
  kataConfigs: string[];
  /** kata-deploy image tags found in the workspace (DaemonSet image or Helm values), with their files. */
  kataDeploy: Array<{ file: string; tag: string; line: number }>;
  /** The walk stopped early, or a file was not read: said where a ConfigPath is not found. */
  truncated?: string;
}

/**
 * The flavour a Kata runtime entry runs, from kata-deploy's naming (data/kata/flavour-switch.json kataDeploy): its
 * runtime_path under …/runtime-rs/bin/, else a ConfigPath under …/runtime-rs/, else its runtime_type's shim name
 * (io.containerd.kata-<shim>.v2) being one of kata-deploy's runtime-rs shims; else the Go runtime (the default
 * io.containerd.kata.v2 shim is containerd-shim-kata-v2 of the Go runtime).
 */
export function flavourOfRuntime(rt: { runtime: string; runtimeType?: string; runtimePath?: string; configPath?: string }): { flavour: Flavour; why: string } {
  const kd = switchData().kataDeploy;
  if (rt.runtimePath) {
    if (/\/runtime-rs\/bin\/containerd-shim-kata-v2$/.test(rt.runtimePath) || /runtime-rs/.test(path.posix.basename(rt.runtimePath))) return { flavour: 'runtime-rs', why: `runtime_path ${rt.runtimePath} is runtime-rs's shim (kata-deploy: ${kd.runtimePath['runtime-rs']})` };
    if (/containerd-shim-kata-v2$/.test(rt.runtimePath)) return { flavour: 'go', why: `runtime_path ${rt.runtimePath} is the Go runtime's shim (kata-deploy: ${kd.runtimePath.go})` };
  }
  if (rt.configPath && /\/runtime-rs\//.test(rt.configPath)) return { flavour: 'runtime-rs', why: `ConfigPath is under a runtime-rs/ folder (kata-deploy: ${kd.configPath['runtime-rs']})` };
  const shim = rt.runtimeType && /^io\.containerd\.kata-(.+)\.v2$/.exec(rt.runtimeType)?.[1];
  if (shim && kd.rustShims.includes(shim)) return { flavour: 'runtime-rs', why: `runtime_type ${rt.runtimeType}: kata-deploy installs shim ${shim} as runtime-rs` };
  return {
    flavour: 'go',
    why: rt.runtimeType ? `runtime_type ${rt.runtimeType} is the Go runtime's shim unless a runtime_path or ConfigPath says runtime-rs` : 'no runtime_type or runtime_path that names runtime-rs',
  };
}

/** Install folders a ConfigPath is written under on a node, longest first (data/kata/flavour-switch.json installPaths). */
const installPrefixes = () => [...switchData().installPaths].sort((a, b) => b.length - a.length);

/**
 * The workspace files a ConfigPath names: the same path below the workspace root, else the files whose path ends with
 * the ConfigPath's part after a known install folder (/opt/kata/share/defaults/kata-containers/configuration-qemu.toml
 * → …/configuration-qemu.toml; …/runtime-rs/configuration-x.toml keeps its runtime-rs/ folder), the longest match
 * winning. [] when none does.
 */
export function resolveConfigPath(configPath: string, root: string, candidates: string[]): string[] {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const want = configPath.replace(/\\/g, '/');
  const exact = candidates.filter((f) => rel(f) === want.replace(/^\/+/, ''));
  if (exact.length) return exact;
  let tail = want.replace(/^\/+/, '');
  for (const p of installPrefixes()) if (want.startsWith(p)) { tail = want.slice(p.length); break; }
  // The longest suffix of the ConfigPath, in whole path segments, that some workspace file's path ends with.
  const segs = want.replace(/^\/+/, '').split('/');
  for (let k = segs.length; k >= tail.split('/').length; k--) {
    const suffix = segs.slice(segs.length - k).join('/');
    const hits = candidates.filter((f) => rel(f) === suffix || rel(f).endsWith(`/${suffix}`));
    if (hits.length) return hits;
  }
  return [];
}

/** kata-deploy's image tag in a YAML text: `image: quay.io/kata-containers/kata-deploy:3.x.y`, or a Helm values
 * `reference: quay.io/kata-containers/kata-deploy` with `tag: 3.x.y` (the line of the tag, 1-based). */
export function kataDeployTags(text: string): Array<{ tag: string; line: number }> {
  const out: Array<{ tag: string; line: number }> = [];
  const lines = text.split('\n');
  const image = switchData().kataDeploy.image.replace(/[.]/g, '\\.');
  const inline = new RegExp(`${image}:v?(\\d+\\.\\d+\\.\\d+)\\b`);
  lines.forEach((l, i) => { const m = inline.exec(l); if (m) out.push({ tag: m[1], line: i + 1 }); });
  const ref = lines.findIndex((l) => new RegExp(`^\\s*(reference|repository)\\s*:\\s*["']?${image}["']?\\s*$`).test(l));
  if (ref >= 0) {
    for (let i = Math.max(0, ref - 3); i < Math.min(lines.length, ref + 4); i++) {
      const m = /^\s*tag\s*:\s*["']?v?(\d+\.\d+\.\d+)["']?\s*(#.*)?$/.exec(lines[i]);
      if (m) out.push({ tag: m[1], line: i + 1 });
    }
  }
  return out;
}

/** The runtime entries whose ConfigPath names this file. */
export const runtimesNaming = (chain: KataChainFacts | undefined, file: string) => chain?.runtimes.filter((r) => r.resolved.includes(file)) ?? [];

/** One line of the chain, as hovers show it: RuntimeClass handler → containerd runtime → configuration → flavour. */
export function chainLine(rt: KataRuntimeFact, root: string, window?: string): string {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/') || f;
  const conf = rt.resolved.length ? rt.resolved.map((f) => `\`${rel(f)}\``).join(', ') : `\`${rt.configPath ?? '(no ConfigPath)'}\` (not in the workspace: not checked)`;
  return `RuntimeClass handler \`${rt.runtime}\` → containerd runtime \`${rt.runtime}\` in \`${rel(rt.file)}\` (runtime_type \`${rt.runtimeType ?? '—'}\`) → configuration ${conf} → checked as **${rt.flavour}** (${rt.why})${window ? ` at Kata ${window}` : ''}`;
}
