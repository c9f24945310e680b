// The Kubernetes API lifecycle data (data/kubernetes/api-lifecycle.json, from scripts/import-*.mjs): each API's
// introduced/deprecated/removed minors, the component it belongs to, and each component's default target.
import { loadJson } from '../../../data';
import type { LifecycleRow } from './lifecycle';

export interface ApiRow extends LifecycleRow {
  migration?: 'apiVersion-only' | 'spec-changes' | 'no-replacement' | 'unknown' | null;
  migrationNote?: string | null;
  sources?: string[];
  note?: string | null;
  /** Where a user row came from (.skewguard.yaml), for hovers. */
  origin?: string;
}
export interface ApiLifecycle {
  asOf: string;
  minors: string[];
  apis: ApiRow[];
  /** Per component other than k8s: the version its rows are checked at by default (Pluto's target-versions). */
  componentTargets?: Record<string, { version: string; plutoTarget?: string; source: string }>;
}

export function kubernetesApis(): ApiLifecycle { return loadJson<ApiLifecycle>('data/kubernetes/api-lifecycle.json'); }
