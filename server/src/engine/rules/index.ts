// The rule registry: every rule, its metadata and its check. docs/rules/<id>.md is generated from this list.
import type { RuleMeta } from './types';
import { generalRules } from './general';
import { families } from '../families/registry';

// Each family's rules come from its module (families/<family>/family.ts), in the registry's order.
export const allRules: RuleMeta[] = [...generalRules, ...families.flatMap((f): RuleMeta[] => f.rules)];

export const ruleIds = new Set(allRules.map((r) => r.id));

/** Rules whose metadata says no suppression comment silences them. */
export const notSuppressible = new Set(allRules.filter((r) => r.suppressible === false).map((r) => r.id));
/** Rules whose metadata fixes their severity: `rules:` / `--rule` / `skewguard.rules` do not change it. */
export const fixedSeverity = new Set(allRules.filter((r) => r.fixedSeverity).map((r) => r.id));

export function ruleById(id: string): RuleMeta | undefined {
  return allRules.find((r) => r.id === id);
}

export const DOCS_BASE = 'https://github.com/skewguard/skewguard/blob/main/docs/rules/';
export function docsUrl(id: string): string { return `${DOCS_BASE}${id}.md`; }
