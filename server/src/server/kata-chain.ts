// The node as one system, from the workspace: containerd configs' Kata runtime entries, the TOML files their
// options.ConfigPath can name, and kata-deploy's image tags. One bounded walk per workspace root (the same bounds as
// the RuntimeClass walk); the engine resolves nothing on disk (engine/families/kata-config/data/chain.ts does the matching).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { walkFolders, unreadableNote } from './walk';
import { workspaceFacts } from '../engine/families/registry';
import { flavourOfRuntime, resolveConfigPath, kataDeployTags, type KataChainFacts } from '../engine/families/kata-config/data/chain';

const MAX_FOLDERS = 2000;
const MAX_TOML = 5000;
const MAX_BYTES = 512 * 1024;

/** A YAML file that may hold kata-deploy's image: its path names kata-deploy (the DaemonSet, the chart's values). */
const isKataDeployName = (p: string) => /kata-deploy/i.test(p) && /\.ya?ml$/i.test(p);

export function walkKataChain(root: string, openPaths: string[], readText: (p: string) => string | undefined): KataChainFacts {
  const inRoot = (p: string) => p === root || p.startsWith(root + path.sep);
  const tomls = new Set<string>(openPaths.filter((p) => inRoot(p) && /\.toml$/i.test(p)));
  const yamls = new Set<string>(openPaths.filter((p) => inRoot(p) && isKataDeployName(p)));
  const w = walkFolders(root, {
    maxFolders: MAX_FOLDERS,
    onFile: (p, name) => {
      if (/\.toml$/i.test(name) && tomls.size < MAX_TOML) tomls.add(p);
      else if (isKataDeployName(p)) yamls.add(p);
    },
  });
  const partial: string[] = w.stopped ? [`the workspace walk stopped after ${w.folders} folders`] : [];
  for (const n of unreadableNote('the workspace walk', w.unreadable)) partial.push(n);
  if (tomls.size >= MAX_TOML) partial.push(`only the first ${MAX_TOML} .toml files were looked at`);
  const size = (p: string) => { try { return fs.statSync(p).size; } catch { return 0; } };
  const configs = [...tomls].filter((p) => workspaceFacts.isRuntimeConfigName(p)).sort();
  const kataConfigs = [...tomls].filter((p) => !workspaceFacts.isRuntimeConfigName(p)).sort();
  const runtimes: KataChainFacts['runtimes'] = [];
  for (const file of configs) {
    const text = size(file) > MAX_BYTES && !openPaths.includes(file) ? undefined : readText(file);
    const rts = text === undefined ? undefined : workspaceFacts.kataRuntimesOf(text);
    if (!rts) { partial.push(`${path.relative(root, file) || file} ${text === undefined ? 'was not read' : 'does not parse'}`); continue; }
    for (const rt of rts) {
      const f = flavourOfRuntime(rt);
      // A ConfigPath is a path on the node whose containerd config this is: looked up in that node's tree only.
      const node = workspaceFacts.nodeRootOf(file, root);
      const near = kataConfigs.filter((k) => k.startsWith(node + path.sep));
      runtimes.push({ file, ...rt, ...f, resolved: rt.configPath ? resolveConfigPath(rt.configPath, node, near) : [], nodeRoot: node });
    }
  }
  const kataDeploy: KataChainFacts['kataDeploy'] = [];
  for (const file of [...yamls].sort()) {
    const text = size(file) > MAX_BYTES && !openPaths.includes(file) ? undefined : readText(file);
    if (text === undefined) continue;
    for (const t of kataDeployTags(text)) kataDeploy.push({ file, ...t });
  }
  return { root, runtimes, kataConfigs, kataDeploy, ...(partial.length ? { truncated: partial.join('; ') } : {}) };
}

