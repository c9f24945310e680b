// The workspace's GitOps deployments of its charts (NeighbourFacts.helmDeployments: Flux HelmReleases, Argo CD
// Applications, kustomizations' helmCharts:, and the ConfigMaps/Secrets and Flux sources they name), for the Helm
// family's values scenarios (engine/families/helm-chart/deployments.ts). Built when a rule first asks, by one bounded
// walk of the workspace root (hidden and always-skipped folders left out, files the ignore: lists leave out skipped),
// reading each YAML file as saved on disk, never an open buffer: a template is rendered with the same deployments in
// the editor and in lsp-lint, whatever is open. The repository's remote is read from <root>/.git/config (no git run).
import * as path from 'node:path';
import { walkFolders, unreadableNote } from './walk';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readTextUpTo } from '../shared/bounded-read';
import { scanDeployments, deploymentFacts, remotesOfGitConfig, mayHoldDeployment, type DeploymentFacts } from '../engine/families/helm-chart/deployments';

const YAML_EXT = /\.ya?ml$/i;
/** What a file that holds a deployment must contain (a superset: scanDeployments decides). */
const mayNameDeployment = (text: string): boolean => /helm\.toolkit\.fluxcd\.io|argoproj\.io|helmCharts["']?\s*:/.test(text);
const MAX_FOLDERS = 10000;
const MAX_FILES = 20000;
/** Most bytes of .git/config read (a repository's config is a few lines). */
const GIT_CONFIG_MAX = 256 * 1024;

export class DeploymentIndex {
  private roots = new Map<string, DeploymentFacts>();

  /**
   * `readSaved(p)`: a file's text on disk (bounded); `ignored(p)`: whether the ignore: lists leave it out;
   * `repositories(p, root)`: the URLs the configuration of a deployment's file says name this repository (helm.repositories).
   */
  constructor(
    private readSaved: (p: string) => string | undefined,
    private ignored: (p: string) => boolean = () => false,
    private repositories?: (p: string, root: string) => { urls: string[]; said: string } | undefined,
  ) {}

  /** Roots whose index holds a deployment: a saved change to any YAML file there may change what they render with. */
  private withDeployments = new Set<string>();

  clear(): void { this.roots.clear(); this.withDeployments.clear(); }

  /**
   * A YAML file changed on disk: the index of its root is forgotten, and true when that index held a deployment (its
   * values files, ConfigMaps and the deployment itself may be any YAML file): the open files are then checked again.
   */
  changed(file: string): boolean {
    let any = false;
    for (const root of [...this.roots.keys()]) {
      if (file !== root && !file.startsWith(root + path.sep)) continue;
      if (this.withDeployments.has(root)) any = true;
      this.roots.delete(root);
      this.withDeployments.delete(root);
    }
    return any;
  }

  factsFor(root: string): DeploymentFacts {
    const hit = this.roots.get(root);
    if (hit) return hit;
    const found: string[] = [];
    let stoppedAt: string | undefined;
    const w = walkFolders(root, {
      maxFolders: MAX_FOLDERS, sorted: true,
      onFile: (p, name) => {
        if (!YAML_EXT.test(name)) return;
        found.push(p);
        if (found.length >= MAX_FILES) { stoppedAt = `the workspace walk for deployments stopped after ${MAX_FILES} files`; return false; }
      },
    });
    const notRead = [...(stoppedAt ? [stoppedAt] : w.stopped ? [`the workspace walk for deployments stopped after ${MAX_FOLDERS} folders`] : []), ...unreadableNote('the workspace walk for deployments', w.unreadable)];
    const scans: Parameters<typeof deploymentFacts>[0] = [];
    // One read per file. Scanned only when some file holds a deployment (a Flux HelmRelease, an Argo CD Application, a
    // kustomization's helmCharts:): a workspace with none (most chart repositories) parses no file here, not even its
    // ConfigMaps and Flux sources, which only a deployment reads. A file not read is said where a lookup fails.
    const candidates: Array<{ file: string; text: string }> = [];
    const unread: string[] = [];
    let any = false;
    for (const p of found.sort()) {
      if (this.ignored(p)) continue;
      const raw = this.readSaved(p);
      if (raw === undefined) { unread.push(path.relative(root, p).split(path.sep).join('/')); continue; }
      const text = raw.replace(/^\uFEFF/, '');
      if (!any && mayNameDeployment(text)) any = true;
      if (mayHoldDeployment(text)) candidates.push({ file: p, text });
    }
    if (any) {
      for (const c of candidates) {
        const scan = scanDeployments(c.file, c.text);
        if (scan.deployments.length || scan.objects.length || scan.sources.length) scans.push({ ...c, scan });
      }
    }
    if (unread.length) notRead.push(`${unread.length} YAML file${unread.length === 1 ? '' : 's'} not read (over the size limit or unreadable: ${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', …' : ''})`);
    const git = readTextUpTo(path.join(root, '.git', 'config'), GIT_CONFIG_MAX);
    const remotes = git === undefined ? [] : remotesOfGitConfig(git);
    const facts = deploymentFacts(scans, {
      root, remotes,
      ...(remotes.length ? {} : { remotesNote: git === undefined ? 'no .git/config in the workspace folder' : 'no remote in .git/config' }),
      ...(this.repositories ? { repositoriesFor: (f: string) => this.repositories!(f, root) } : {}),
      read: (p) => (p === root || p.startsWith(root + path.sep) ? this.readSaved(p) : undefined),
      unreadable: (p) => (p === root || p.startsWith(root + path.sep) ? undefined : 'outside the workspace, not read'),
      ...(notRead.length ? { notRead: notRead.join('; ') } : {}),
    });
    if (this.roots.size > 16) this.clear();
    this.roots.set(root, facts);
    if (scans.some((x) => x.scan.deployments.length)) this.withDeployments.add(root);
    return facts;
  }
}

export const readSavedBounded = (p: string): string | undefined => readTextUpTo(p, MAX_FILE_BYTES);
