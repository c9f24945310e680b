// The Helm family's fact of a workspace root: the GitOps deployments of its charts (NeighbourFacts.helmDeployments:
// Flux HelmReleases, Argo CD Applications, kustomizations' helmCharts:, and the ConfigMaps/Secrets and Flux sources
// they name), for the values scenarios (deployments.ts, deployment-rules.ts). Built when a rule first asks, by one
// bounded walk of the workspace root with the server's host (WorkspaceHost: hidden and always-skipped folders left out,
// files the ignore: lists leave out skipped), reading each YAML file as saved on disk, never an open buffer: a template
// is rendered with the same deployments in the editor and in lsp-lint, whatever is open. The repository's remote is read
// from <root>/.git/config (no git run).
import * as path from 'node:path';
import { isWithin } from '../../../shared/within';
import type { RootIndex, RootIndexProducer, WorkspaceHost } from '../types';
import { scanDeployments, deploymentFacts, remotesOfGitConfig, mayHoldDeployment, mayDeploy, type DeploymentFacts } from './deployments';

const YAML_EXT = /\.ya?ml$/i;
const MAX_FOLDERS = 10000;
const MAX_FILES = 20000;
/** Most bytes of .git/config read (a repository's config is a few lines). */
const GIT_CONFIG_MAX = 256 * 1024;
/** A YAML file is read up to the engine's file limit (the host's own bound). */
const ANY_SIZE = Number.MAX_SAFE_INTEGER;

/** The deployments of the root's charts, gathered with the host's walk and saved-file reads. */
export function deploymentsOf(root: string, host: WorkspaceHost): { facts: DeploymentFacts; deploys: boolean } {
  const readSaved = (p: string) => host.readSaved(p, ANY_SIZE);
  const found: string[] = [];
  let stoppedAt: string | undefined;
  const w = host.walk(root, {
    maxFolders: MAX_FOLDERS, sorted: true,
    onFile: (p, name) => {
      if (!YAML_EXT.test(name)) return;
      found.push(p);
      if (found.length >= MAX_FILES) { stoppedAt = `the workspace walk for deployments stopped after ${MAX_FILES} files`; return false; }
    },
  });
  const notRead = [...(stoppedAt ? [stoppedAt] : w.stopped ? [`the workspace walk for deployments stopped after ${MAX_FOLDERS} folders`] : []), ...host.unreadableNote('the workspace walk for deployments', w.unreadable)];
  const scans: Parameters<typeof deploymentFacts>[0] = [];
  // One read per file. Scanned only when some file holds a deployment (a Flux HelmRelease, an Argo CD Application, a
  // kustomization's helmCharts:): a workspace with none (most chart repositories) parses no file here, not even its
  // ConfigMaps and Flux sources, which only a deployment reads. A file not read is said where a lookup fails.
  const candidates: Array<{ file: string; text: string }> = [];
  const unread: string[] = [];
  let any = false;
  for (const p of found.sort()) {
    if (host.ignored(p)) continue;
    const raw = readSaved(p);
    if (raw === undefined) { unread.push(path.relative(root, p).split(path.sep).join('/')); continue; }
    const text = raw.replace(/^\uFEFF/, '');
    if (!any && mayDeploy(text)) any = true;
    if (mayHoldDeployment(text)) candidates.push({ file: p, text });
  }
  if (any) {
    for (const c of candidates) {
      const scan = scanDeployments(c.file, c.text);
      if (scan.deployments.length || scan.objects.length || scan.sources.length) scans.push({ ...c, scan });
    }
  }
  if (unread.length) notRead.push(`${unread.length} YAML file${unread.length === 1 ? '' : 's'} not read (over the size limit or unreadable: ${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', …' : ''})`);
  const git = host.readSaved(path.join(root, '.git', 'config'), GIT_CONFIG_MAX);
  const remotes = git === undefined ? [] : remotesOfGitConfig(git);
  // helm.repositories of the deployment's own .skewguard.yaml: the URLs that name this repository, over the git remotes.
  const repositoriesFor = (f: string) => {
    const c = host.configOf(f);
    const urls = c?.overrides.helmRepositories;
    return urls?.length ? { urls, said: `helm.repositories in ${path.relative(root, c!.path).split(path.sep).join('/') || c!.path}` } : undefined;
  };
  const inside = (p: string) => isWithin(p, root);
  const facts = deploymentFacts(scans, {
    root, remotes,
    ...(remotes.length ? {} : { remotesNote: git === undefined ? 'no .git/config in the workspace folder' : 'no remote in .git/config' }),
    repositoriesFor,
    read: (p) => (inside(p) ? readSaved(p) : undefined),
    unreadable: (p) => (inside(p) ? undefined : 'outside the workspace, not read'),
    ...(notRead.length ? { notRead: notRead.join('; ') } : {}),
  });
  return { facts, deploys: scans.some((x) => x.scan.deployments.length) };
}

/**
 * The root's deployments, built when first asked. A YAML file changed on disk (its values files, ConfigMaps and the
 * deployment itself may be any YAML file) forgets them, and says so when they held a deployment: the open files are
 * then checked again.
 */
function deploymentIndex(root: string, host: WorkspaceHost): RootIndex<DeploymentFacts> {
  let built: { facts: DeploymentFacts; deploys: boolean } | undefined;
  return {
    fact: () => (built ??= deploymentsOf(root, host)).facts,
    changed: () => { const had = !!built?.deploys; built = undefined; return had; },
  };
}

export const rootFactProducers: readonly RootIndexProducer[] = [
  { key: 'helmDeployments', index: deploymentIndex },
];
