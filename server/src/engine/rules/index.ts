// The rule registry: every rule, its metadata and its check. docs/rules/<id>.md is generated from this list.
import type { RuleMeta } from './types';
import { generalRules } from './general';
import { families } from '../families/registry';

// Each family's rules come from its module (families/<family>/family.ts), in the registry's order.
export const allRules: RuleMeta[] = [...generalRules, ...families.flatMap((f): RuleMeta[] => f.rules)];

export const ruleIds = new Set(allRules.map((r) => r.id));

export function ruleById(id: string): RuleMeta | undefined {
  return allRules.find((r) => r.id === id);
}

export const DOCS_BASE = 'https://github.com/skewguard/skewguard/blob/main/docs/rules/';
export function docsUrl(id: string): string { return `${DOCS_BASE}${id}.md`; }
