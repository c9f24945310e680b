// The containerd family's facts of a workspace root, gathered with the server's bounded walk and saved-file reads
// (WorkspaceHost; FamilyModule.rootFactProducers): the containerd configs and the runtime names they define (a
// RuntimeClass's handler is checked against them), and the node as one system (the Kata chain: each config's Kata
// runtime entries → the configuration file its options.ConfigPath names on that node → the flavour its shim implies;
// kata-deploy's image tags), which the Kata and Kubernetes families read too. Files on disk only, as saved (issue #27
// item 1): which configs count and what they define must not depend on what is open, nor on which files come first
// when a walk's cap is reached.
import * as path from 'node:path';
import type { RootFactProducer, WorkspaceHost } from '../types';
import type { NeighbourFacts } from '../kubernetes';
import { isContainerdName, containerdRuntimeNames, containerdKataRuntimes, containerdNodeRoot } from './index';
import { flavourOfRuntime, resolveConfigPath, kataDeployTags, type KataChainFacts } from '../kata-config/data/chain';

const MAX_FOLDERS = 2000;
const MAX_TOML = 5000;
/** A containerd config or kata-deploy file read for the chain at most (bytes). */
const MAX_CHAIN_BYTES = 512 * 1024;
/** A containerd config read for its runtime names at most: the engine's file limit (the host's own bound). */
const ANY_SIZE = Number.MAX_SAFE_INTEGER;

/** A YAML file that may hold kata-deploy's image: its path names kata-deploy (the DaemonSet, the chart's values). */
const isKataDeployName = (p: string) => /kata-deploy/i.test(p) && /\.ya?ml$/i.test(p);

type Runtimes = NonNullable<NeighbourFacts['containerdRuntimes']>;

/** The containerd configs of the root (found by name: containerd/config.toml, containerd/conf.d/*.toml) and the runtime names they define. */
export function containerdRuntimesOf(root: string, host: WorkspaceHost): Runtimes | undefined {
  const found = new Set<string>();
  const w = host.walk(root, { maxFolders: MAX_FOLDERS, onFile: (p) => { if (isContainerdName(p)) found.add(p); } });
  // The walk's cap reached: said, so that a RuntimeClass handler is not passed (or failed) on a partial look.
  const partial: string[] = w.stopped ? [`the workspace walk for containerd configs stopped after ${w.folders} folders`] : [];
  for (const n of host.unreadableNote('the workspace walk for containerd configs', w.unreadable)) partial.push(n);
  const files: string[] = [], names = new Set<string>();
  for (const p of [...found].sort()) {
    const text = host.readSaved(p, ANY_SIZE);
    const ns = text === undefined ? undefined : containerdRuntimeNames(text);
    // A config that cannot be read (over the limit, unreadable) or does not parse may define the handler: said too.
    if (!ns) { partial.push(`${path.relative(root, p) || p} ${text === undefined ? 'was not read' : 'does not parse'}`); continue; }
    files.push(path.relative(root, p) || p);
    for (const n of ns) names.add(n);
  }
  const truncated = partial.length ? partial.join('; ') : undefined;
  return files.length || truncated ? { files, names: [...names], ...(truncated ? { truncated } : {}) } : undefined;
}

/** The node's chain in the root: containerd Kata runtimes → configuration files; kata-deploy tags. */
export function kataChainOf(root: string, host: WorkspaceHost): KataChainFacts {
  const tomls = new Set<string>();
  const yamls = new Set<string>();
  const w = host.walk(root, {
    maxFolders: MAX_FOLDERS,
    onFile: (p, name) => {
      if (/\.toml$/i.test(name) && tomls.size < MAX_TOML) tomls.add(p);
      else if (isKataDeployName(p)) yamls.add(p);
    },
  });
  const partial: string[] = w.stopped ? [`the workspace walk stopped after ${w.folders} folders`] : [];
  for (const n of host.unreadableNote('the workspace walk', w.unreadable)) partial.push(n);
  if (tomls.size >= MAX_TOML) partial.push(`only the first ${MAX_TOML} .toml files were looked at`);
  const configs = [...tomls].filter((p) => isContainerdName(p)).sort();
  const kataConfigs = [...tomls].filter((p) => !isContainerdName(p)).sort();
  const runtimes: KataChainFacts['runtimes'] = [];
  for (const file of configs) {
    const text = host.readSaved(file, MAX_CHAIN_BYTES);
    const rts = text === undefined ? undefined : containerdKataRuntimes(text);
    if (!rts) { partial.push(`${path.relative(root, file) || file} ${text === undefined ? 'was not read' : 'does not parse'}`); continue; }
    for (const rt of rts) {
      const f = flavourOfRuntime(rt);
      // A ConfigPath is a path on the node whose containerd config this is: looked up in that node's tree only.
      const node = containerdNodeRoot(file, root);
      const near = kataConfigs.filter((k) => k.startsWith(node + path.sep));
      runtimes.push({ file, ...rt, ...f, resolved: rt.configPath ? resolveConfigPath(rt.configPath, node, near) : [], nodeRoot: node });
    }
  }
  const kataDeploy: KataChainFacts['kataDeploy'] = [];
  for (const file of [...yamls].sort()) {
    const text = host.readSaved(file, MAX_CHAIN_BYTES);
    // Not read (over the bound, unreadable): its tags are not known, which the chain says (its window is not silently absent).
    if (text === undefined) { partial.push(`${path.relative(root, file) || file} was not read`); continue; }
    for (const t of kataDeployTags(text)) kataDeploy.push({ file, ...t });
  }
  return { root, runtimes, kataConfigs, kataDeploy, ...(partial.length ? { truncated: partial.join('; ') } : {}) };
}

export const rootFactProducers: readonly RootFactProducer[] = [
  { key: 'containerdRuntimes', produce: containerdRuntimesOf },
  { key: 'kataChain', produce: kataChainOf },
];
