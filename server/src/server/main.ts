// The skewguard language server: a thin LSP wrapper around the engine. lsp-lint starts this same server over stdio, so
// the editor and CI run one code path. This file is its composition root: the lifecycle (initialize, initialized,
// shutdown) and the wiring of the feature modules, each of which registers its own handlers on the one connection
// (session.ts holds the state they share):
//   document-sync.ts  didOpen/didChange/didClose, and what a change means for the other files
//   diagnostics.ts    a document checked and its findings published (publishing.ts), debounced, big files by part
//   recheck.ts        background re-checks: open documents after a watched-file batch, files published while closed
//   watched-files.ts  didChangeWatchedFiles, coalesced
//   configuration.ts  didChangeConfiguration, workspace folders, workspace trust
//   hover.ts, completion.ts, code-action-handler.ts, code-lens.ts (with inlay.ts and the Upgrade Window view)
//   resolved-config.ts skewguard/resolvedConfig and lsp-lint's part of the initialize result
//   window-command.ts, workspace-check.ts, ignore.ts   the window picker, Check/Fix Whole Workspace, ignoredFiles
//   family-service.ts the families' server sides (engine/families/<id>/server/), started at initialize
import {
  TextDocumentSyncKind, CodeActionKind, ResponseError, ErrorCodes, type InitializeParams, type InitializeError,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { analyze } from '../engine/analyze';
import { setParseCacheBudget } from '../engine/parse/yaml';
import { FIX_ALL_KIND, type InitializationOptions } from '../shared/protocol';
import { VERSION } from '../shared/version';
import { writePendingCodeCache } from '../shared/code-cache-handoff';
import { setClient } from './editor-support';
import { ignoredFile, describeIgnored, registerIgnoredFiles } from './ignore';
import { registerWindowCommands } from './window-command';
import { registerWorkspaceCommands } from './workspace-check';
import { registerWindowFeatures } from './code-lens';
import { SettingsReporter } from './settingsReport';
import { userLevelSettings } from '../shared/settings';
import { CheckedRoots } from './checked-roots';
import { WorkspaceState } from './workspace';
import { startFamilyServices } from './family-service';
import { configFor, ignoreLayersFor, settingsReceived } from './config-for';
import { limiter, guarded } from './publishing';
import { validateStages, current } from './diagnostics';
import { publishedClosed } from './recheck';
import { registerDocumentSync } from './document-sync';
import { registerWatchedFiles } from './watched-files';
import { registerConfiguration, afterInitialized } from './configuration';
import { registerHover } from './hover';
import { registerCompletion } from './completion';
import { registerCodeActions, fixAllPlan } from './code-action-handler';
import { registerResolvedConfig, cliInitializeResult } from './resolved-config';
import { enableEditorMemoryPolicy } from './memory';
import {
  FAULTS, connection, documents, init, ws, files, checkedRoots, results, today, initialized, shutdownRequested, afterShutdown,
  uriToPath, isConfigFile, set,
} from './session';

connection.onInitialize((params: InitializeParams) => {
  if (shutdownRequested) return new ResponseError<InitializeError>(ErrorCodes.InvalidRequest, afterShutdown().message, { retry: false });
  if (initialized) return new ResponseError<InitializeError>(ErrorCodes.InvalidRequest, 'the server is already initialized: initialize may be sent only once', { retry: false });
  set.initialized(true);
  set.init((params.initializationOptions ?? {}) as InitializationOptions);
  setClient(params.capabilities, init, () => ws);
  set.settings(init.settings ?? {});
  if (init.reportStaleData === false) set.staleDataReported(true);
  limiter.enabled = init.allDiagnostics !== true;
  // The editor's memory policy for big files (memory.ts); lsp-lint's server analyses each file once: V8's defaults.
  if (!init.cli) enableEditorMemoryPolicy();
  if (typeof init.parseCacheChars === 'number' && Number.isFinite(init.parseCacheChars)) setParseCacheBudget(init.parseCacheChars);
  set.canPullConfig(!!params.capabilities.workspace?.configuration);
  set.supportsFolders(!!params.capabilities.workspace?.workspaceFolders);
  const roots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (!roots.length && params.rootUri) roots.push(uriToPath(params.rootUri));
  set.ws(new WorkspaceState(roots, init.cli?.configPath ? path.resolve(init.cli.configPath) : undefined));
  // Nothing outside the workspace folders (and the paths lsp-lint was given) is read for a file's neighbours.
  set.checkedRoots(new CheckedRoots(() => ws.roots, (init.cli?.extraRoots ?? []).filter((r) => typeof r === 'string')));
  files.inside = (p) => checkedRoots.inside(p);
  ws.inside = (p) => checkedRoots.inside(p);
  // The root indexes (CRDs, pins, deployments) leave out what the ignore: lists leave out (as the editor and lsp-lint do), unless lsp-lint --no-ignore.
  if (!init.cli?.noIgnore) ws.ignored = (f) => !!ignoredFile(ws, f, ignoreLayersFor(f));
  // The families' server sides (family-service.ts: a family's renders, documents read from the disk, trust).
  startFamilyServices(() => settingsReceived());
  set.settingsReporter(new SettingsReporter(connection, init.showSettingsProblems !== false));
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [' ', ':', '"', "'", '[', '='] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, CodeActionKind.SourceFixAll] },
      codeLensProvider: {}, inlayHintProvider: true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'skewguard-language-server', version: VERSION },
    // The settings whose user-level entries the VS Code client says in its workspace/configuration answers (the sections').
    userLevelSettings: userLevelSettings(),
    // lsp-lint's flags, checked here against the data it does not bundle: it prints these as usage errors.
    ...(init.cli ? cliInitializeResult(init.cli, init.resolvedConfig) : {}),
  };
});

connection.onShutdown(() => {
  if (shutdownRequested) return afterShutdown() as never;
  set.shutdownRequested(true);
  // Before the answer: lsp-lint kills the server once shutdown is answered (cli/session.ts), so the code cache of a
  // first run is written now rather than at exit.
  writePendingCodeCache();
});
// Requests for methods the server does not know: InvalidRequest after shutdown, MethodNotFound before.
connection.onRequest((method) => (shutdownRequested ? afterShutdown() : new ResponseError(ErrorCodes.MethodNotFound, `unhandled method ${method}`)));

connection.onInitialized(afterInitialized);

registerConfiguration();
registerWatchedFiles();
registerHover();
registerCompletion();
registerCodeActions();
registerResolvedConfig();
registerIgnoredFiles(connection, () => ws, (file) => ignoreLayersFor(file));
registerWindowCommands(connection, () => ws);
registerWorkspaceCommands(connection, () => ws, (uri, text) => {
  const doc = documents.get(uri) ?? TextDocument.create(uri, 'plaintext', 0, text);
  validateStages(doc);
  const r = results.get(uri);
  if (!documents.get(uri)) { results.delete(uri); publishedClosed.add(uri); }
  return r && { diagnostics: r.result.diagnostics.length, fixAll: () => fixAllPlan(r.result, doc, uri) };
}, (uri) => documents.get(uri));
// The window at a glance: code lens per step, inlay hints, the Upgrade Window view's request (code-lens.ts).
registerWindowFeatures(connection, {
  current: (uri) => { const c = current(uri); return c && { result: c.result, text: c.doc.getText() }; },
  analyzeText: (uri, text) => { const file = uriToPath(uri); return analyze({ path: file, text, config: configFor(file, uri).config, root: ws.rootFor(file), today: today(), neighbours: ws.around.lazyFor(file), faults: FAULTS, files }); },
  ignored: (uri) => {
    if (init.cli || isConfigFile(uri)) return undefined;
    const file = uriToPath(uri);
    const v = ignoredFile(ws, file, configFor(file, uri).config);
    return v && describeIgnored(v, ws.rootFor(file));
  },
  guarded,
});
registerDocumentSync();

documents.listen(connection);
connection.listen();
