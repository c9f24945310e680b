// The families, in detection order: a file is the family whose detect() is surest of it, a tie goes to the one
// listed first. Adding a family: its folder under families/ and one line here (and its context in FamilyResults).
import type { Family } from '../types';
import type { FamilyModule } from './types';
import type { StarlingxContext } from './starlingx';
import type { KubernetesContext } from './kubernetes';
import type { KataContext } from './kata';
import type { TomlFile } from '../parse/toml';
import type { PersistContext } from './kata-persist';
import { starlingx } from './starlingx/family';
import { kubernetes } from './kubernetes/family';
import { kataConfig } from './kata/family';
import { kataPersist } from './kata-persist/family';

export const families: readonly FamilyModule[] = [starlingx, kubernetes, kataConfig, kataPersist];

/** What each family adds to an analysis result: its parsed file and context, for hovers, completion and facts. */
export interface FamilyResults {
  stx?: StarlingxContext;
  k8s?: KubernetesContext;
  kata?: KataContext;
  toml?: TomlFile;
  persist?: PersistContext;
}

const byId = new Map<string, FamilyModule>(families.map((f) => [f.id, f]));

export function familyById(id: Family | string | undefined): FamilyModule | undefined {
  return id === undefined ? undefined : byId.get(id);
}

/** `# skewguard: <name>` in a file's first 2000 characters: longest names first, so `kata` does not take `kata-config`. */
const modelines = new Map<string, Family>(families.flatMap((f) => f.modelineNames.map((n) => [n, f.id] as [string, Family])));
export const MODELINE = new RegExp(`#\\s*skewguard:\\s*(${[...modelines.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[-]/g, '\\-')).join('|')})\\b`);
export function modelineFamily(name: string): Family | undefined { return modelines.get(name); }
