// Core types of the analysis engine. No editor or LSP imports here: the engine is shared by the
// language server and (through it) by lsp-lint.
import type { FamilyId } from './families/registry';

/** Zero-based line and UTF-16 character, as LSP counts them. */
export interface Position { line: number; character: number }
export interface Range { start: Position; end: Position }

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = Severity | 'off';

/** A text edit expressed in offsets of the analysed text (converted to ranges at the edge). */
export interface TextEdit { range: Range; newText: string }

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix that fix-all / `lsp-lint --fix` applies. At most one per diagnostic. */
  preferred?: boolean;
  /** A partial fix leaves work for the user; fix-all never applies it. */
  partial?: boolean;
  /**
   * Whether the fix removes or rewrites a key (renames, deletes or replaces an entry, or replaces a value that holds
   * keys), declared by the rule that builds it (a YamlEditor's `destructive`). Under a window nobody chose, fix-all
   * does not apply such a fix (server/fix-window.ts); changing a value or adding a key is not destructive.
   */
  destructive: boolean;
}

export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  range: Range;
  docsUrl: string;
  fixes?: Fix[];
  /** Free-form data for hovers / JSON output (e.g. the versions a finding concerns). */
  data?: Record<string, unknown>;
  /** The steps of the file's window this finding concerns (engine/steps.ts); the server puts them in the data as `steps`. */
  steps?: readonly string[];
}

/** A family's id: one of the registry's (families/registry.ts), never written out here. */
export type Family = FamilyId;

export interface SourceInfo {
  /** Where a resolved setting came from: cli, config (.skewguard.yaml), settings, workspace, default. */
  kind: 'cli' | 'config' | 'settings' | 'workspace' | 'default';
  detail: string;
}
