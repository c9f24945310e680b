// The language server's state, shared by its feature modules (main.ts wires them): the connection, the open
// documents, what initialize and the settings said, the workspace, and each document's last analysis. An ES module's
// binding is read-only where it is imported, so the few values that are replaced (at initialize, when settings
// arrive, at shutdown) are set through `set`; every other module only reads them.
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { fileURLToPath } from 'node:url';
import type { AnalyzeResult } from '../engine/analyze';
import type { ResolvedConfig } from '../engine/config';
import type { Diagnostic } from '../engine/types';
import { parseFaults } from '../engine/faults';
import { memoIn } from '../engine/memo';
import { isConfigFileName } from '../shared/names';
import { workspaceFacts } from '../engine/families/registry';
import type { InitializationOptions, Settings } from '../shared/protocol';
import { serverConnection } from './connection';
import { ServerFiles } from './file-access';
import { CheckedRoots } from './checked-roots';
import { WorkspaceState } from './workspace';
import type { FamilyServerService } from './family-service';
import type { SettingsReporter } from './settingsReport';

/** Stages made to throw, for tests only (SKEWGUARD_FAULT=<stage>[,<stage>…]; see the README, Developing). Read once. */
export const FAULTS = parseFaults(process.env.SKEWGUARD_FAULT);

export const connection = serverConnection();
export const documents = new TextDocuments(TextDocument);

export let init: InitializationOptions = {};
export let settings: Settings = {};
export let canPullConfig = false;
export let supportsFolders = false;
export let ws = new WorkspaceState([]);
/** The files around a document (a Helm chart's), for the engine: the disk with the open buffers over it, cached. */
export const files = new ServerFiles(() => ws.openTexts);
export let checkedRoots = new CheckedRoots(() => ws.roots);
export const results = new Map<string, { version: number; result: AnalyzeResult; config?: ResolvedConfig }>();
/** Failures in a document's handling outside the analysis (open, change, close), reported with its next analysis. */
export const pendingFailures = new Map<string, Diagnostic[]>();
export const timers = new Map<string, NodeJS.Timeout>();
export const docSettings = new Map<string, Settings>();
/** The stale-data note is said once per server run (one lsp-lint run, one editor session). */
export let staleDataReported = false;
export let settingsReporter: SettingsReporter | undefined;
// Read once: each process.env read is a call into the C++ environment (once per checked file adds up in lsp-lint).
const TODAY_ENV = process.env.SKEWGUARD_TODAY;
export const today = () => (TODAY_ENV ? new Date(TODAY_ENV) : new Date());

/** The families' server sides (family-service.ts), started at initialize. */
export let services: readonly FamilyServerService[] = [];

/** A document uri's path (memoised: URL parsing is slow, and each file's uri is converted several times). */
export function uriToPath(uri: string): string {
  return memoIn(uriPaths, uri, () => {
    if (uri.startsWith('file:')) { try { return fileURLToPath(uri); } catch { /* keep the plain form */ } }
    return uri.replace(/^[a-z]+:/i, '');
  }, 4096);
}
const uriPaths = new Map<string, string>();

/** A second initialize is refused, and so is every request after shutdown (LSP: InvalidRequest). */
export let initialized = false;
export let shutdownRequested = false;

export const afterShutdown = () => new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down: only the exit notification is accepted after shutdown');

export const isConfigFile = (uri: string) => isConfigFileName(uri);
/**
 * A bootstrap file (the anchor's family names it: workspaceFacts.isAnchorName): its saved text sets other files' windows;
 * its open buffer counts only for its own analysis (issue #27 item 1).
 */
export const affectsWorkspace = (uri: string) => workspaceFacts.isAnchorName(uriToPath(uri));

/** The values replaced after start (initialize, settings, shutdown), each by its one writer. */
export const set = {
  init: (v: InitializationOptions) => { init = v; },
  settings: (v: Settings) => { settings = v; },
  canPullConfig: (v: boolean) => { canPullConfig = v; },
  supportsFolders: (v: boolean) => { supportsFolders = v; },
  ws: (v: WorkspaceState) => { ws = v; },
  checkedRoots: (v: CheckedRoots) => { checkedRoots = v; },
  staleDataReported: (v: boolean) => { staleDataReported = v; },
  settingsReporter: (v: SettingsReporter) => { settingsReporter = v; },
  services: (v: readonly FamilyServerService[]) => { services = v; },
  initialized: (v: boolean) => { initialized = v; },
  shutdownRequested: (v: boolean) => { shutdownRequested = v; },
};
