import type { Family, Fix, Severity } from '../types';
import type { OffsetRange } from '../parse/yaml';

/** What a rule knows about itself; docs/rules/<id>.md is generated from this. */
export interface RuleMeta {
  id: string;
  family: Family | 'general';
  defaultSeverity: Severity;
  title: string;
  /** What it finds, in a sentence or two. */
  what: string;
  /** Why it matters during an upgrade or rollback. */
  why: string;
  /** A file that triggers it, and the same file fixed. */
  bad: { filename: string; text: string; options?: string };
  good: { filename: string; text: string; options?: string };
  /** complete: a fix that fix-all applies; suggestion: a quick fix the user picks; partial: leaves work to do. */
  fix?: 'complete' | 'suggestion' | 'partial' | 'none';
  /**
   * false: no `# skewguard-disable-…` comment silences it (not even one without rule ids); the engine reads this.
   * Default true. A rule that is not suppressible says why in `docs.suppressing`.
   */
  suppressible?: boolean;
  /**
   * true: its severity is always `defaultSeverity`, whatever `rules:`, `--rule` or `skewguard.rules` say; the engine
   * reads this, and the `skewguard.rules` setting does not offer it. A fixed-severity rule says why in `docs.severity`.
   */
  fixedSeverity?: boolean;
  /** true: said once per run (per server, with its first file of the family); lsp-lint's report keeps the first. */
  oncePerRun?: boolean;
  /** With `lsp-lint --exit-codes pluto`, a finding of this rule makes the run exit with this code (Pluto's: 3 an API is removed, 2 deprecated; 3 wins). */
  plutoExitCode?: 2 | 3;
  /** Text of its page's "Changing its severity" / "Suppressing it" sections where the generic text is not true. */
  docs?: { severity?: string; suppressing?: string };
  sources: string[];
}

export type FindingFix = Omit<Fix, 'edits'> & { edits: Array<{ range: OffsetRange; newText: string }> };

export interface Finding {
  message: string;
  range: OffsetRange;
  /**
   * The fixes, or a function that computes them: a conversion (e.g. a whole Ingress spec) is worked out only when
   * an editor or lsp-lint --fix asks for it, not for each of a bundle's thousand findings.
   */
  fixes?: FindingFix[] | (() => FindingFix[]);
  data?: Record<string, unknown>;
  /** Severity for this finding when the rule's own default is not the one that applies (e.g. fatal there). */
  severity?: Severity;
}

export type Report = (f: Finding) => void;

export interface Rule<Ctx> extends RuleMeta {
  check(ctx: Ctx, report: Report): void;
}
