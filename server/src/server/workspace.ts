// File-system facts the server needs around a document: the nearest .skewguard.yaml and a StarlingX
// localhost.yml in the workspace (whose Kubernetes path sets the window for manifests). Reads files; runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONFIG_FILENAMES, parseConfig, type LoadedConfig, type WorkspaceFacts } from '../engine/config';
import { isStarlingxName } from '../engine/families/starlingx';
import { parseYaml } from '../engine/parse/yaml';
import { ruleIds } from '../engine/rules';
import type { NeighbourFacts } from '../engine/families/kubernetes';
import { parseImage, componentOf, kubeMinorOfTag } from '../engine/kubernetes/components';

export class WorkspaceState {
  private configCache = new Map<string, LoadedConfig | null>();
  private facts = new Map<string, WorkspaceFacts>();
  /** Texts of open documents, which win over the disk. */
  readonly openTexts = new Map<string, string>();

  constructor(public roots: string[], public explicitConfig?: string) {}

  private folders = new Map<string, NonNullable<NeighbourFacts['staticPods']>>();

  invalidate(): void { this.configCache.clear(); this.facts.clear(); this.folders.clear(); }

  invalidateFolder(dir: string): void { this.folders.delete(dir); }

  /** kube-* static pods in the file's folder (other files), and the workspace's localhost.yml. */
  neighboursFor(file: string): NeighbourFacts {
    const dir = path.dirname(file);
    let pods = this.folders.get(dir);
    if (!pods) {
      pods = [];
      let names: string[] = [];
      try { names = fs.readdirSync(dir).filter((n) => /\.(ya?ml|json)$/i.test(n)).sort().slice(0, 200); } catch { /* unreadable */ }
      for (const n of names) {
        const p = path.join(dir, n);
        let text = this.openTexts.get(p);
        if (text === undefined) {
          try { if (fs.statSync(p).size > 512 * 1024) continue; text = fs.readFileSync(p, 'utf8'); } catch { continue; }
        }
        for (const m of text.matchAll(/^\s*-?\s*image:\s*["']?([^\s"'#]+)/gm)) {
          const ref = parseImage(m[1]);
          const c = componentOf(ref);
          const minor = kubeMinorOfTag(ref.tag);
          if (c?.versionIsKubernetes && minor && c.id !== 'kube-proxy') pods.push({ file: p, component: c.id, minor, image: ref.tag! });
        }
      }
      this.folders.set(dir, pods);
    }
    return { staticPods: pods.filter((p) => p.file !== file), localhost: this.factsFor(file).localhost };
  }

  rootFor(file: string): string | undefined {
    return this.roots.filter((r) => file === r || file.startsWith(r.endsWith(path.sep) ? r : r + path.sep)).sort((a, b) => b.length - a.length)[0];
  }

  private readText(p: string): string | undefined {
    const open = this.openTexts.get(p);
    if (open !== undefined) return open;
    try { return fs.readFileSync(p, 'utf8'); } catch { return undefined; }
  }

  loadConfigFile(p: string): LoadedConfig | null {
    if (this.configCache.has(p)) return this.configCache.get(p)!;
    const text = this.readText(p);
    const c = text === undefined ? null : parseConfig(p, text, ruleIds);
    this.configCache.set(p, c);
    return c;
  }

  /** The config for a file: --config if given, else the nearest .skewguard.yaml up to the workspace root. */
  configFor(file: string): LoadedConfig | undefined {
    if (this.explicitConfig) return this.loadConfigFile(this.explicitConfig) ?? undefined;
    const root = this.rootFor(file);
    let dir = path.dirname(file);
    for (;;) {
      for (const n of CONFIG_FILENAMES) {
        const p = path.join(dir, n);
        if (this.openTexts.has(p) || fs.existsSync(p)) {
          const c = this.loadConfigFile(p);
          if (c) return c;
        }
      }
      if ((root && dir === root) || path.dirname(dir) === dir) return undefined;
      dir = path.dirname(dir);
    }
  }

  /**
   * Workspace facts for a file: the localhost.yml nearest to it — in its folder or a parent folder up to the
   * workspace root, else the first one found below the root (open documents count as files on disk).
   */
  factsFor(file: string): WorkspaceFacts {
    const root = this.rootFor(file) ?? path.dirname(file);
    const dir = path.dirname(file);
    let f = this.facts.get(dir);
    if (!f) {
      f = {};
      const found = this.nearestLocalhost(dir, root) ?? findLocalhost(root, [...this.openTexts.keys()]);
      if (found) {
        const text = this.readText(found);
        const doc = text ? parseYaml(text).docs.find((d) => !d.empty) : undefined;
        const v = doc && doc.errors.length === 0 ? (doc.value as any)?.kubernetes_version : undefined;
        f.localhost = { path: path.relative(root, found) || found, kubernetesVersion: typeof v === 'string' ? v.replace(/^v/, '') : undefined };
      }
      this.facts.set(dir, f);
    }
    return f;
  }

  private nearestLocalhost(dir: string, root: string): string | undefined {
    for (let d = dir; ; d = path.dirname(d)) {
      const open = [...this.openTexts.keys()].filter((p) => path.dirname(p) === d && isStarlingxName(p)).sort()[0];
      if (open) return open;
      let names: string[] = [];
      try { names = fs.readdirSync(d).filter(isStarlingxName).sort(); } catch { /* unreadable folder */ }
      if (names.length) return path.join(d, names[0]);
      if (d === root || path.dirname(d) === d || !d.startsWith(root)) return undefined;
    }
  }
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test', 'vendor']);

/** Breadth-first search for a localhost.yml, a few levels deep (first found wins, sorted by name per level). */
function findLocalhost(root: string, open: string[], maxDepth = 3): string | undefined {
  const openHit = open.filter((p) => p.startsWith(root + path.sep) && isStarlingxName(p)).sort()[0];
  if (openHit) return openHit;
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: fs.Dirent[];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { continue; }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (e.isFile() && isStarlingxName(e.name)) return path.join(dir, e.name);
      }
      for (const e of entries) if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) next.push(path.join(dir, e.name));
    }
    level = next.slice(0, 500);
  }
  return undefined;
}
