// What lsp-lint knows about the rules (for --rule, SARIF and --help) without bundling the engine: a table that
// scripts/build.mjs takes from the rule registry (server/src/engine/rules/) and puts in at build time.
import type { RuleMeta } from '../engine/rules/types';

/** The registry's metadata lsp-lint needs (a type-only import: nothing of the engine is bundled). */
export type CliRuleMeta = Pick<RuleMeta, 'id' | 'family' | 'defaultSeverity' | 'title' | 'what' | 'why' | 'oncePerRun' | 'plutoExitCode'> & { docsUrl: string };

declare const __SKEWGUARD_RULES__: CliRuleMeta[];

export const allRules: readonly CliRuleMeta[] = __SKEWGUARD_RULES__;
export const ruleIds: ReadonlySet<string> = new Set(allRules.map((r) => r.id));
