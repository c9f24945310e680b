// StarlingX application bundles: the metadata.yaml keys sysinv reads per release and the FluxCD each release ships
// (data/starlingx/app-metadata.json, written by scripts/import-starlingx-apps.mjs). Also the Flux window: the Flux
// of every StarlingX release on the configured upgrade path, which the Flux manifests of a bundle are checked at.
import { loadJson } from '../../../data';
import type { StxRelease } from '../../starlingx/data';
import type { SourceInfo } from '../../../types';
import { windowText } from '../../../window-text';

export interface AppKeyRelease { rule: string; source: string | null; validated: boolean; required?: boolean }
export interface AppKeyCheck {
  type: 'string' | 'mapping' | 'list' | 'boolstr' | 'integer' | 'enum' | 'any';
  values?: string[] | string;
  items?: string;
  minimum?: number;
  nonEmpty?: string[];
  format?: string[];
  pattern?: string;
  regexItems?: string[];
  pairedWith?: string;
  typeChecked?: string[];
}
export interface AppKey {
  key: string;
  path: string[];
  type: string;
  meaning: string;
  check: AppKeyCheck;
  releases: Record<string, AppKeyRelease>;
  notes: string[];
  confidence: string;
}
export interface AppEnforcement {
  compatibility: { rule: string; source: string };
  apply: { behaviour: string; source: string };
  update: { behaviour: string; source: string };
  kubeUpgradeStart: { blocksAtApi: boolean; autoUpdates: boolean; behaviour: string; source: string };
  bundleSelection?: { behaviour: string; source: string };
}
export interface FluxServed { version: string; storage?: boolean; deprecated?: boolean }
export interface StxFlux {
  starlingx: string;
  flux: string | null;
  fluxMinor?: string;
  deployedControllers?: string[];
  crdSource?: string;
  served?: Record<string, FluxServed[]>;
  sysinvUses?: Record<string, { value: string; source: string }>;
  notes: string[];
  source?: string;
  /** A release of the path the Flux data has no row for (before 6.0): treated as serving no Flux API, and said so. */
  notInData?: boolean;
}
export interface FieldCompat { kind: string; from: string; to: string; sameFields: boolean; source: string }
export interface AppMetadataData {
  asOf: string;
  releases: string[];
  keys: AppKey[];
  enforcement: Record<string, AppEnforcement>;
  flux: StxFlux[];
  fieldCompat: FieldCompat[];
}

export function appMetadata(): AppMetadataData { return loadJson<AppMetadataData>('data/starlingx/app-metadata.json'); }

/** The Flux of each StarlingX release on the upgrade path, in path order. */
export interface FluxWindow {
  steps: StxFlux[];
  /** "StarlingX 10.0..12.0" */
  text: string;
  source: SourceInfo;
}

/**
 * The Flux window of a StarlingX upgrade path. A release the Flux data has no row for (before 6.0; 6.0 ships no FluxCD)
 * is a step without Flux marked notInData, so that a Flux manifest is reported there, never passed.
 */
export function fluxWindowOf(path: StxRelease[], source: SourceInfo): FluxWindow {
  const rows = appMetadata().flux;
  const steps = path.map((r): StxFlux => rows.find((f) => f.starlingx === r.release)
    ?? { starlingx: r.release, flux: null, notes: [`the Flux data starts at ${rows[0].starlingx}, which ships no FluxCD`], notInData: true });
  const names = path.map((r) => r.release);
  return { steps, text: `StarlingX ${windowText(names)}`, source };
}

/** "StarlingX 12.0 (Flux 2.7.5)" */
export function fluxStepName(s: StxFlux): string {
  return `StarlingX ${s.starlingx} (${s.flux ? `Flux ${s.flux}` : 'no FluxCD'})`;
}
