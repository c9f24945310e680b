// The families, in detection order: a file is the family whose detect() is surest of it, a tie goes to the one
// listed first. Adding a family: its folder under families/ and one line here (and its context in FamilyResults).
import type { Family } from '../types';
import type { FamilyModule } from './types';
import type { StarlingxContext } from './starlingx';
import type { KubernetesContext } from './kubernetes';
import type { KataContext } from './kata';
import type { TomlFile } from '../parse/toml';
import type { PersistContext } from './kata-persist';
import { starlingx, localhostKubernetesVersion } from './starlingx/family';
import { isStarlingxName } from './starlingx';
import { kubernetes, staticPodImagesOf } from './kubernetes/family';
import { kataConfig } from './kata/family';
import { kataPersist } from './kata-persist/family';
import { helmChart } from './helm/family';
import type { HelmContext } from './helm';

export const families: readonly FamilyModule[] = [starlingx, helmChart, kubernetes, kataConfig, kataPersist];

/** What each family adds to an analysis result: its parsed file and context, for hovers, completion and facts. */
export interface FamilyResults {
  stx?: StarlingxContext;
  k8s?: KubernetesContext;
  kata?: KataContext;
  toml?: TomlFile;
  persist?: PersistContext;
  helm?: HelmContext;
}

const byId = new Map<string, FamilyModule>(families.map((f) => [f.id, f]));

export function familyById(id: Family | string | undefined): FamilyModule | undefined {
  return id === undefined ? undefined : byId.get(id);
}

/** `# skewguard: <name>` in a file's first 2000 characters: longest names first, so `kata` does not take `kata-config`. */
const modelines = new Map<string, Family>(families.flatMap((f) => f.modelineNames.map((n) => [n, f.id] as [string, Family])));
export const MODELINE = new RegExp(`#\\s*skewguard:\\s*(${[...modelines.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[-]/g, '\\-')).join('|')})\\b`);
export function modelineFamily(name: string): Family | undefined { return modelines.get(name); }

/**
 * The cross-file facts the server gathers from the workspace for the families' rules: the file that sets the
 * workspace's defaults (a StarlingX localhost.yml, found by name; its kubernetes_version sets the window of the
 * manifests around it) and the facts a file gives the other files of its folder (static pods' component images).
 */
export const workspaceFacts = {
  isAnchorName: isStarlingxName,
  anchorKubernetesVersion: localhostKubernetesVersion,
  folderFacts: staticPodImagesOf,
};
export type { NeighbourFacts } from './kubernetes';
/** What each template of a Helm chart emits at each minor (the helm-render agreement test compares it with `helm template`). */
export { helmEmissions } from './helm/run';
