// The families, in detection order: a file is the family whose detect() is surest of it, a tie goes to the one
// listed first. Adding a family: its folder under families/ and one line here. The `Family` id union, the
// `files:` values of .skewguard.yaml and the settings, package.json's enum and the docs' sections all come from
// this list; a family adds its context to FamilyResults from its own folder (`declare module '../registry'`).
import type { Family } from '../types';
import type { FamilyModule } from './types';
import { starlingx, localhostKubernetesVersion, localhostIsPlaybook, localhostRank, LOCALHOST_CHOICE_HINT } from './starlingx/family';
import { isStarlingxName } from './starlingx';
import { kubernetes, staticPodImagesOf } from './kubernetes/family';
import { kataConfig } from './kata-config/family';
import { kataPersist } from './kata-persist/family';
import { helmChart } from './helm-chart/family';
import { kustomize } from './kustomize/family';
import { starlingxApp } from './starlingx-app/family';
import { containerd } from './containerd/family';
import { helmReleaseRecords } from './helm-release-records/family';
import { clusterMetrics } from './cluster-metrics/family';
import { auditLog } from './audit-log/family';
import { mayHoldCrd, mayBeCustomGroup, crdsOfText, crdFacts, customResourceUsesOfText, customResourceUsesByGroup, isChartArchive, crdsOfArchive } from './kubernetes/crds';

export const families = [starlingx, helmChart, kustomize, helmReleaseRecords, auditLog, kubernetes, containerd, kataConfig, kataPersist, starlingxApp, clusterMetrics] as const satisfies readonly FamilyModule[];

/** The family ids, in registry order (the `Family` union of engine/types.ts is this list's element type). */
export type FamilyId = (typeof families)[number]['id'];
// A module typed `FamilyModule` (not `FamilyModule<'its-id'>`) would widen FamilyId to string: refused here.
const idsAreLiterals: string extends FamilyId ? never : true = true;
void idsAreLiterals;
export const FAMILIES: readonly FamilyId[] = families.map((f) => f.id);

/**
 * What each family adds to an analysis result: its parsed file and context, for hovers, completion and facts.
 * Each family declares its own fields in its folder (module augmentation), e.g. families/kubernetes/family.ts.
 */
export interface FamilyResults {}

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
  /** Among one folder's anchors, lower first (then by name); and how a user chooses when several compete. */
  anchorRank: localhostRank,
  anchorChoiceHint: LOCALHOST_CHOICE_HINT,
  anchorKubernetesVersion: localhostKubernetesVersion,
  /** A file of an anchor's name that is something else (a playbook named localhost.yml): no anchor. */
  anchorIsNot: localhostIsPlaybook,
  folderFacts: staticPodImagesOf,
  /** The workspace's CustomResourceDefinitions (custom resources are checked against them) and the CRs that use them. */
  mayHoldCrd, mayBeCustomGroup, crdsOfText, crdFacts, customResourceUsesOfText, customResourceUsesByGroup,
  /** Packaged chart dependencies (charts/*.tgz): their CRDs define custom resources too. */
  isChartArchive, crdsOfArchive,
};
export type { NeighbourFacts } from './kubernetes';
/** The families' workspace facts (kata-deploy's tags …), which the server produces when a window first needs them. */
export const workspaceFactProducers = families.flatMap((f) => (f as FamilyModule).workspaceFactProducers ?? []);
/** The families' facts of a workspace root (the containerd configs' runtimes, the node's Kata chain …), which the server
 *  produces with its walk and reads (WorkspaceHost) when a rule first asks for one. */
export const rootFactProducers = families.flatMap((f) => (f as FamilyModule).rootFactProducers ?? []);

// What the engine library (dist/engine.js: the tests, benchmarks and data scripts) gives of the families, each family's
// own list (families/<id>/library.ts); engine/index.ts re-exports the registry and names no family.
export * from './starlingx/library';
export * from './kubernetes/library';
export * from './helm-chart/library';
export * from './kata-config/library';
