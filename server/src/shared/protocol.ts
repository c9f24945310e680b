// Types and method names shared by the VS Code client, the language server and lsp-lint.
import type { Overrides } from '../engine/config';
import type { SettingsProblem } from './settings';
import type { Family, SeveritySetting, TextEdit } from '../engine/types';

// The other LSP extensions, defined beside the code that serves them and exported here too, so that a client imports
// every method name, its params and its result from this one module (test/client-protocol.test.mjs).
export * from './window';
export * from './visible';
export * from './user-level';

/** The `skewguard` section of the editor settings. */
export interface Settings {
  // Each config section adds its keys here (families/<id>/config.ts, engine/components/config.ts: module augmentation).
  rules?: Record<string, SeveritySetting>;
  files?: Record<string, Family>;
  ignore?: string[];
  /** Delay between the last keystroke and validation, per document. */
  debounceMs?: number;
}

/**
 * lsp-lint's flags (InitializationOptions.cli): the configuration's overrides and how the server works for lsp-lint.
 * Each config section adds its own keys here (families/<id>/config.ts: module augmentation, as for Settings).
 */
export interface CliOptions extends Overrides {
  configPath?: string;
  /** lsp-lint --no-ignore: the ignore: lists leave nothing out (the CRD index reads every file). */
  noIgnore?: boolean;
  /** Folders outside the working folder that lsp-lint was given (its path arguments): their neighbours may be read. */
  extraRoots?: string[];
}

export interface InitializationOptions {
  /** Flags from lsp-lint; they win over every other source. */
  cli?: CliOptions;
  /**
   * false: the workspace is not trusted (VS Code's Restricted Mode): a Helm binary is never run. Absent: trusted
   * (lsp-lint, editors without workspace trust). WorkspaceTrustedNotification says when it becomes trusted.
   */
  workspaceTrusted?: boolean;
  /** Settings for clients that do not answer workspace/configuration. */
  settings?: Settings;
  /** false: do not say a family's data is stale (lsp-lint runs several servers and lets one say it). */
  reportStaleData?: boolean;
  /** true: every finding is sent, however many (lsp-lint); else a file over the editor's 1,000 gets the most useful (server/publish.ts). */
  allDiagnostics?: boolean;
  /** true: send a FileFactsNotification before each publishDiagnostics (lsp-lint's reports need them for every file). */
  reportFacts?: boolean;
  /**
   * The budget of the parse cache, in characters of YAML document text (default 4 MiB: an editor re-parses only the
   * document an edit touches). lsp-lint sees each file once and asks for a small one, which keeps the server's heap small.
   */
  parseCacheChars?: number;
  /** false: no empty publishDiagnostics when a document closes (lsp-lint has its report and closes thousands). */
  clearDiagnosticsOnClose?: boolean;
  /**
   * false: the client shows invalid settings from SettingsProblemsNotification itself (the VS Code client does);
   * otherwise the server also says each distinct set of problems once with window/showMessage.
   */
  showSettingsProblems?: boolean;
  /** Commands the client runs itself, which the server may put in code actions (`skewguard.showRuleDocumentation`). */
  clientCommands?: string[];
  /**
   * lsp-lint: answer skewguard/resolvedConfig for these params in the initialize result as well (CliInitializeResult's
   * resolvedConfig), which spares lsp-lint a round trip before its first file. Left out when cliProblems are said.
   */
  resolvedConfig?: ResolvedConfigParams;
}

/**
 * The initialize result's own field, when initializationOptions.cli is given: the problems of lsp-lint's window and
 * version flags (unknown release, malformed window, …), as the messages lsp-lint prints as usage errors.
 */
export interface CliInitializeResult { cliProblems?: string[]; /** InitializationOptions.resolvedConfig's answer. */ resolvedConfig?: ResolvedConfigResult }

/**
 * Request (lsp-lint): which of these absolute paths the `ignore:` lists leave out (`dirs[i]`: paths[i] is a folder),
 * decided by the server as for the editor (engine/ignore.ts), each with why.
 */
export const IgnoredFilesRequest = 'skewguard/ignoredFiles';
export interface IgnoredFilesParams { paths: string[]; dirs?: boolean[] }
export interface IgnoredFilesResult { ignored: Array<{ path: string; reason: string }> }

/** Request: the resolved windows for a file (or the workspace), with where each part came from. */
export const ResolvedConfigRequest = 'skewguard/resolvedConfig';
export interface ResolvedConfigParams {
  uri?: string;
  /** Also say the operator versions the workspace pins (a walk of its files on first use): lsp-lint --print-config. */
  operatorPins?: boolean;
}
export interface ResolvedConfigResult {
  resolved: Record<string, any>;
  family: Family | null;
  /** The window the file (uri) is checked against, in a few words (the status item); absent: not a checked file. */
  fileWindow?: string;
  /** Why the file (uri) is not checked: an ignore: list. */
  ignored?: string;
  /** What the analysis found out about the file (e.g. a persist.json's layout eras, a Kata file's flavour). */
  facts?: Record<string, unknown>;
  configProblems: Array<{ file: string; line: number; character: number; message: string }>;
  /** One line for a status bar. */
  summary: string;
  /**
   * The windows every family's is read from (the config sections of negative order: the StarlingX release, the
   * Kubernetes window), one status tooltip line each, always said (their sections' `tooltip`), in order.
   */
  baseWindows?: WindowLine[];
  /** The families' own windows that are set, one tooltip line each after `baseWindows` (their config sections' `tooltip`). */
  windows?: WindowLine[];
  /** How the file is read beyond its family, one tooltip line (a Helm chart: by skewguard's evaluator or by helm). */
  readBy?: { label: string; by: string; why?: string };
  /** Invalid editor settings for this file (left out of the resolved configuration). */
  settingsProblems?: SettingsProblem[];
  /** An open .skewguard.yaml or bootstrap file (localhost.yml) that would apply to the file has unsaved changes, which are not applied until it is saved. */
  unsavedConfig?: string;
}

/** A window's line in the status item's tooltip: "<label> **<window>** (<details>) — <source kind>: <source detail>". */
export interface WindowLine { label: string; window: string; /** Said in parentheses after the window (the Kubernetes versions). */ details?: string; source: { kind: string; detail: string } }

/**
 * Notification from the server, when the client asked for it (reportFacts): the family and facts of the analysis
 * whose diagnostics follow. It saves lsp-lint a resolvedConfig round trip for each of thousands of files.
 */
export const FileFactsNotification = 'skewguard/fileFacts';
export interface FileFactsParams {
  uri: string; version: number; family: Family | null; facts?: Record<string, unknown>;
  /** The steps of the file's window (AnalyzeResult.windowSteps): the columns of lsp-lint's html/markdown matrix. */
  steps?: readonly string[];
}

/** Notification from the server: the configuration changed, status bars should refresh. */
export const ConfigChangedNotification = 'skewguard/configChanged';

/**
 * Notification from the server: the editor settings hold invalid values, which are left out (validated like
 * .skewguard.yaml). Sent whenever the set of problems changes, an empty list once they are fixed.
 */
export const SettingsProblemsNotification = 'skewguard/settingsProblems';
export interface SettingsProblemsParams { problems: SettingsProblem[] }
export type { SettingsProblem };

/** Notification from the client: the user trusted the workspace (VS Code onDidGrantWorkspaceTrust). */
export const WorkspaceTrustedNotification = 'skewguard/workspaceTrusted';

/**
 * Notification from the server while a family's server side does long work, one per piece done (a chart rendered at
 * one step of the window): lsp-lint's stall timer sees the server is working; editors may ignore it. `family`: the
 * family's id; `subject`: what the work is on (a chart's folder); `step`: the window's step; `ok`: whether it worked.
 */
export const ProgressNotification = 'skewguard/progress';
export interface ProgressParams { family: string; subject: string; step: string; ok: boolean }

export const FIX_ALL_KIND = 'source.fixAll.skewguard';

/** One part of the window the picker ("Change window…") offers: `part` is section.key of .skewguard.yaml. */
export interface WindowPartSpec {
  part: string;
  label: string;
  detail: string;
  /** The quick pick's description when nothing is set. */
  unset: string;
  /** Where its current value is in the resolved configuration (keys joined by "."); absent: `part`. */
  current?: string;
  /**
   * A fixed set of values to pick from, in the picker's order (else the value is typed); the one equal to the current
   * value is marked "(current)" by the client, in place of its description.
   */
  choices?: Array<{ label: string; description?: string; detail: string }>;
  /** A typed value must match this (a JavaScript regular expression, on the trimmed value), else `patternMessage` is said. */
  pattern?: string;
  patternMessage?: string;
}

/**
 * Request (the window picker, client/src/window.ts): the parts of the window (each family's config section,
 * server/window-command.ts), each with its choices or the pattern of a typed value; and what the sections offer
 * beyond their parts (their `choices()`, for other clients), which each section adds here by module augmentation.
 */
export const WindowChoicesRequest = 'skewguard/windowChoices';
export interface WindowChoicesResult { parts: WindowPartSpec[] }

/**
 * Request (the window picker): the new text of the .skewguard.yaml that applies to a file with one part of the window
 * set (server/window-command.ts), checked by the validator first; the client applies it as one edit and saves it.
 */
export const WindowEditRequest = 'skewguard/windowEdit';
/** A part of the window, as section.key of .skewguard.yaml (the parts are the registry's: WindowChoicesResult.parts). */
export type WindowPart = string;
export interface WindowEditParams { uri?: string; part: WindowPart; value: string }
export interface WindowEditResult { path?: string; exists?: boolean; text?: string; problem?: string }

/** Requests (palette commands, server/workspace-check.ts): Check Whole Workspace, and Fix All in Workspace (its edits in `changes`). */
export const CheckWorkspaceRequest = 'skewguard/checkWorkspace';
export const FixAllWorkspaceRequest = 'skewguard/fixAllWorkspace';
export interface WorkspaceCheckResult {
  files: number; withFindings: number; notChecked: string[]; truncated?: string; changes?: Record<string, TextEdit[]>;
  /** Fix all in workspace: the findings whose fix was not applied, with why ("a.toml:3: kata/option-not-in-window: not fixed: …"; the first MAX_NOT_FIXED). */
  notFixed?: string[];
  /** How many findings' fixes were not applied (notFixed may list fewer). */
  notFixedCount?: number;
}

/**
 * Notification (the web extension's client → its server in a web worker, which has no file system): workspace files
 * read with vscode.workspace.fs (server/src/web/). Also sent in initializationOptions.webFiles; each change is followed
 * by workspace/didChangeWatchedFiles, so the server re-reads and re-checks as on the desktop.
 */
export const WebFilesNotification = 'skewguard/webFiles';
export interface WebFile {
  uri: string;
  /** The file's size in bytes. */
  size: number;
  /** Its text (UTF-8 files) … */
  text?: string;
  /** … or its bytes, base64 (archives: charts/*.tgz). Neither: listed only, `why` says why. */
  base64?: string;
  why?: string;
}
export interface WebFilesParams { files: WebFile[]; removed?: string[] }
