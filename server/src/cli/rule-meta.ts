// What lsp-lint knows about the rules (for --rule, SARIF and --help) without bundling the engine: a table that
// scripts/build.mjs takes from the rule registry (server/src/engine/rules/) and puts in at build time.
import type { Family, Severity } from '../engine/types';

export interface CliRuleMeta {
  id: string;
  family: Family | 'general';
  defaultSeverity: Severity;
  title: string;
  what: string;
  why: string;
  docsUrl: string;
}

declare const __SKEWGUARD_RULES__: CliRuleMeta[];

export const allRules: readonly CliRuleMeta[] = __SKEWGUARD_RULES__;
export const ruleIds: ReadonlySet<string> = new Set(allRules.map((r) => r.id));
