// A family's server side (issue #30): what a family does in the language server that the pure engine may not (run a
// process, read the disk), in its own folder (engine/families/<id>/server/index.ts, which exports `start`). The
// engine's registry never imports it (the engine and the web build stay free of it): the build collects the server
// modules of the registry's families into one module, `skewguard:family-services` (scripts/family-services.mjs), which
// is the only place that lists them. The server core calls them through the hooks below and names none of them.
import type { AnalyzeInput, AnalyzeResult } from '../engine/analyze';
import type { Overrides, ResolvedConfig, WorkspaceFacts } from '../engine/config';
import type { InitializationOptions, ResolvedConfigResult, Settings } from '../shared/protocol';
import type { SettingsProblem } from '../shared/settings';
import { familyServices } from 'skewguard:family-services';
import { connection, init, ws, set, services } from './session';

/** What the server lends a family's server side: read when called (the workspace is replaced at initialize). */
export interface FamilyServiceContext {
  /** What initialize said (lsp-lint's options among them: a family reads its own `CliOptions` keys). */
  readonly init: InitializationOptions;
  /** Sends a notification of its own (its method a constant of shared/protocol.ts); a failure to send is ignored. */
  notify(method: string, params: unknown): void;
  /** The workspace roots now. */
  roots(): readonly string[];
  /** The workspace root of a file. */
  rootFor(file: string): string | undefined;
  /** Whether a path lies in the checked roots (one outside is not read on a repository's word). */
  inside(p: string): boolean;
  /** An open document's text (it wins over the disk for its own file only). */
  openText(file: string): string | undefined;
  /** The workspace's facts for a file's window (WorkspaceState.factsFor). */
  workspaceFacts(file: string): WorkspaceFacts;
  /** What `settingsProblems()` says changed: the server reports the settings' problems again. */
  settingsProblemsChanged(): void;
}

/** A family's part of a file's analysis (FamilyServerService.analysisInput). */
export interface FamilyServiceInput {
  /** Keys of AnalyzeInput the family adds to it (by module augmentation, in its folder). Given, the file is analysed whole. */
  input?: Partial<AnalyzeInput>;
  /** Its part of the file's facts (lsp-lint's report, --print-config, the status item). */
  facts?: Record<string, unknown>;
  /** The input is being made: the file is checked again once it settles (it never rejects); lsp-lint waits for that. */
  pending?: Promise<void>;
}

/** A family's server side: each hook is optional, and each is there because a family needs it (see ARCHITECTURE.md). */
export interface FamilyServerService {
  /** Its part of a file's analysis input; `start` false: only what is there, no work started (skewguard/resolvedConfig). */
  analysisInput?(file: string, config: ResolvedConfig, start: boolean): FamilyServiceInput;
  /** Everything is checked again (configuration, settings, folders, files on disk, trust): forget what was looked up. */
  reset?(): void;
  /** The client says the workspace is now trusted: whether that changes anything (then everything is checked again). */
  workspaceTrusted?(): boolean;
  /** The files checked together with `file` (a folder: a Helm chart): an edit to it checks the folder's other open files again. */
  groupOf?(file: string, exists: (p: string) => boolean): string | undefined;
  /** lsp-lint's options: what the family reads on disk for them (added to `cli`), and its usage errors. */
  cliOptions?(cli: Overrides): string[];
  /** A .skewguard.yaml loaded: what the family reads on disk for its entries (added to `overrides`), and the entries it cannot use. */
  configLoaded?(file: string, overrides: Overrides, inside: ((p: string) => boolean) | undefined): Array<{ path: Array<string | number>; message: string }>;
  /** The editor settings' overrides for a file, with what the family reads on disk for them. */
  settingsOverrides?(file: string, settings: Settings, overrides: Overrides): Overrides;
  /** The editor settings it could not use (said with the settings' own problems). */
  settingsProblems?(): SettingsProblem[];
  /** Whether a file on disk is one it read for a configuration: a change to it reloads the configurations. */
  readsForConfig?(file: string): boolean;
  /** skewguard/resolvedConfig: its part of `resolved` (set in place), and the status tooltip's line on how the file is read. */
  describe?(resolved: Record<string, unknown>, file: string, config: ResolvedConfig, isFile: boolean): Pick<ResolvedConfigResult, 'readBy'>;
  /** What the hover adds after the family's hover text (from what the workspace said of the file's window). */
  hoverNote?(result: AnalyzeResult, file: string): string;
}

/** A family's server module (engine/families/<id>/server/index.ts). */
export interface FamilyServerModule {
  start(ctx: FamilyServiceContext): FamilyServerService;
}

/** At initialize: each family's server side started, in the registry's order. */
export function startFamilyServices(settingsProblemsChanged: () => void): void {
  const ctx: FamilyServiceContext = {
    get init() { return init; },
    notify: (method, params) => { void connection.sendNotification(method, params).catch(() => undefined); },
    roots: () => ws.roots,
    rootFor: (file) => ws.rootFor(file),
    inside: (p) => ws.inside(p),
    openText: (file) => ws.openTexts.get(file),
    workspaceFacts: (file) => ws.factsFor(file),
    settingsProblemsChanged,
  };
  set.services(familyServices.map((m) => m.start(ctx)));
  ws.services = services;
}

/** The families' parts of a file's analysis input, merged (see FamilyServiceInput). */
export function servicesInput(file: string, config: ResolvedConfig, start = true): FamilyServiceInput {
  let input: Partial<AnalyzeInput> | undefined, facts: Record<string, unknown> | undefined;
  const pending: Promise<void>[] = [];
  for (const s of services) {
    const r = s.analysisInput?.(file, config, start);
    if (!r) continue;
    if (r.input) input = { ...input, ...r.input };
    if (r.facts) facts = { ...facts, ...r.facts };
    if (r.pending) pending.push(r.pending);
  }
  return { ...(input ? { input } : {}), ...(facts ? { facts } : {}), ...(pending.length ? { pending: pending.length === 1 ? pending[0] : Promise.all(pending).then(() => undefined) } : {}) };
}

/** The families' parts of a file's facts, kept with its analysis (factsOf adds them). */
export const serviceFacts = new WeakMap<AnalyzeResult, Record<string, unknown>>();
