// The skewguard language server: a thin LSP wrapper around the engine. lsp-lint starts this same
// server over stdio, so the editor and CI run one code path.
import {
  createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, DiagnosticSeverity, CodeActionKind,
  CompletionItemKind, MarkupKind, DidChangeConfigurationNotification, ResponseError, ErrorCodes, StreamMessageReader, StreamMessageWriter,
  type Diagnostic as LspDiagnostic, type CodeAction, type InitializeParams, type InitializeError, type Connection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { format } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze, type AnalyzeResult } from '../engine/analyze';
import { setParseCacheBudget } from '../engine/parse/yaml';
import { resolveConfig, describeResolved, checkCliOverrides, type ResolvedConfig, type LoadedConfig, type Overrides } from '../engine/config';
import { hover, complete } from '../engine/language';
import { familyById } from '../engine/families/registry';
import type { Diagnostic, Severity, TextEdit } from '../engine/types';
import { LineIndex } from '../engine/text';
import { docsUrl } from '../engine/rules';
import { invalidConfig, internalError, describeFailure } from '../engine/rules/general';
import { parseFaults, injectFault } from '../engine/faults';
import { FramingCheck } from './framing';
import { ParamsCheckedReader } from './params-check';
import { chooseNonOverlapping, type Span } from './fix-all';
import { defaultWindowReason, fixTouchesKey } from './fix-window';
import { moreActions, type ActionContext } from './code-actions';
import { actionContext, setClient, docHrefFor, docsHover } from './editor-support';
import { ignoredFile, describeIgnored, registerIgnoredFiles } from './ignore';
import { registerWindowCommands } from './window-command';
import { fileStatus, mark } from './window-status';
import { configCompletion } from './config-language';
import { registerWorkspaceCommands, readWorkspaceFile } from './workspace-check';
import { hoverContents } from './hover-text';
import { didYouMeanFixes } from './config-fixes';
import {
  ResolvedConfigRequest, ConfigChangedNotification, FileFactsNotification, FIX_ALL_KIND,
  type InitializationOptions, type Settings, type ResolvedConfigParams, type ResolvedConfigResult, type FileFactsParams,
  type CliInitializeResult,
} from '../shared/protocol';
import { ServerFiles } from './file-access';
import { CheckedRoots } from './checked-roots';
import { readOpenapiFile } from './openapi-docs';
import { registerWindowFeatures } from './code-lens';
import { WorkspaceState, readDisk } from './workspace';
import { coalesced } from '../shared/coalesce';
import { memoIn, weakMemoIn } from '../engine/memo';
import { normalizeSettings, debounceOf } from '../shared/settings';
import { ruleIds } from '../engine/rules';
import { SettingsReporter } from './settingsReport';
import { CONFIG_FILENAMES, isConfigFileName } from '../shared/names';
import { VERSION } from '../shared/version';
import { writePendingCodeCache } from '../shared/code-cache-handoff';
import { HelmService, chartRootOf, type HelmRead, type HelmConfig } from './helm-render';
import { WorkspaceTrustedNotification, HelmProgressNotification, type HelmProgressParams } from '../shared/protocol';
import type { ResolvedConfig as Resolved } from '../engine/config';
import { DiagnosticLimiter } from './publish';
import { Scheduler, viewAt } from './scheduler';
import { dataWithSteps as withSteps } from '../engine/steps';

/** Stages made to throw, for tests only (SKEWGUARD_FAULT=<stage>[,<stage>…]; see the README, Developing). Read once. */
const FAULTS = parseFaults(process.env.SKEWGUARD_FAULT);

/**
 * Over stdio the input's framing is checked: a broken header (no, a negative or a huge Content-Length) would leave
 * the JSON-RPC reader waiting forever, so the server says why on stderr and exits, and its client can restart it.
 */
function stdinChecked(): NodeJS.ReadableStream {
  const checked = new FramingCheck((reason) => {
    process.stderr.write(`skewguard-language-server: broken message on standard input: ${reason}; closing the connection\n`);
    process.exit(1);
  });
  return process.stdin.pipe(checked);
}

// Over stdio (lsp-lint, Neovim…) the output is coalesced per event-loop turn; other transports are detected as usual.
const connection: Connection = process.argv.includes('--stdio')
  ? stdioConnection()
  : createConnection(ProposedFeatures.all);

/** Over stdio: framing checked, then each request's params checked before the library reads them. */
function stdioConnection(): Connection {
  const writer = new StreamMessageWriter(coalesced(process.stdout));
  return createConnection(ProposedFeatures.all, new ParamsCheckedReader(new StreamMessageReader(stdinChecked()), writer), writer);
}
if (process.argv.includes('--stdio')) {
  // What createConnection does for --stdio when it opens the streams itself: stdout carries the protocol, so
  // console output (a library's warning) goes to the client's log instead.
  console.log = console.info = console.debug = (...a: unknown[]) => connection.console.log(format(...a));
  console.warn = (...a: unknown[]) => connection.console.warn(format(...a));
  console.error = (...a: unknown[]) => connection.console.error(format(...a));
}
const documents = new TextDocuments(TextDocument);
/** More findings than the editor shows (1,000 per file): the most useful are sent (publish.ts); lsp-lint gets all. */
const limiter = new DiagnosticLimiter(connection);
limiter.listen();
/** Big multi-document files are checked part by part, the edited part first, the rest in the background (scheduler.ts). */
const scheduler = new Scheduler((uri) => { const d = documents.get(uri); if (d) schedule(d, 0); }, (uri) => limiter.focusOf(uri));

let init: InitializationOptions = {};
let settings: Settings = {};
let canPullConfig = false;
let supportsFolders = false;
let ws = new WorkspaceState([]);
/** The files around a document (a Helm chart's), for the engine: the disk with the open buffers over it, cached. */
const files = new ServerFiles(() => ws.openTexts);
let checkedRoots = new CheckedRoots(() => ws.roots);
const results = new Map<string, { version: number; result: AnalyzeResult; config?: ResolvedConfig }>();
/** Failures in a document's handling outside the analysis (open, change, close), reported with its next analysis. */
const pendingFailures = new Map<string, Diagnostic[]>();
const timers = new Map<string, NodeJS.Timeout>();
const publishedConfigUris = new Set<string>();
const docSettings = new Map<string, Settings>();
/** The stale-data note is said once per server run (one lsp-lint run, one editor session). */
let staleDataReported = false;
let settingsReporter: SettingsReporter | undefined;
/** Settings arrived or changed: say which of them are invalid (they are left out, as in .skewguard.yaml). */
const settingsReceived = () => settingsReporter?.report([settings, ...docSettings.values()],
  [...(ws?.settingsOpenapiProblems ?? new Map<string, string>())].map(([minor, message]) => ({ setting: `skewguard.kubernetes.openapi.${minor}`, message })));
// Read once: each process.env read is a call into the C++ environment (once per checked file adds up in lsp-lint).
const TODAY_ENV = process.env.SKEWGUARD_TODAY;
const today = () => (TODAY_ENV ? new Date(TODAY_ENV) : new Date());

/** Real Helm rendering (opt-in, trusted workspaces only): made once per (chart, step), kept by chart content. */
let helm = new HelmService({ jobs: 2 });
/** How the chart of an analysed file was read, for its facts. */
const helmReads = new WeakMap<AnalyzeResult, HelmRead>();

/** A document uri's path (memoised: URL parsing is slow, and each file's uri is converted several times). */
function uriToPath(uri: string): string {
  return memoIn(uriPaths, uri, () => {
    if (uri.startsWith('file:')) { try { return fileURLToPath(uri); } catch { /* keep the plain form */ } }
    return uri.replace(/^[a-z]+:/i, '');
  }, 4096);
}
const uriPaths = new Map<string, string>();

/** A second initialize is refused, and so is every request after shutdown (LSP: InvalidRequest). */
let initialized = false;
let shutdownRequested = false;
/**
 * In the editor, a full garbage collection once the old generation has doubled since the last one (V8 lets it grow
 * to about 4 times the live heap). Each keystroke in a big file makes the document's new text (the LSP library
 * applies a change to a copy of the whole text: 3.5 MB for the 12,000-document bundle), and the minor collections
 * move the current one to the old generation, where it stays after the next keystroke until a full collection: on
 * the bundle the server grew to 320 MB with a 60 MB live heap. With a factor of 2 its peak RSS is about 220 MB and
 * a keystroke costs about 12% more CPU (bench/results.md, section 7). lsp-lint's server (init.cli) analyses each
 * file once: it keeps V8's default.
 */
function tuneHeapForEditor(): void {
  try { setFlagsFromString('--heap-growing-percent=100'); } catch { /* a runtime without V8 flags: its default */ }
}

const afterShutdown = () => new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down: only the exit notification is accepted after shutdown');

connection.onInitialize((params: InitializeParams) => {
  if (shutdownRequested) return new ResponseError<InitializeError>(ErrorCodes.InvalidRequest, afterShutdown().message, { retry: false });
  if (initialized) return new ResponseError<InitializeError>(ErrorCodes.InvalidRequest, 'the server is already initialized: initialize may be sent only once', { retry: false });
  initialized = true;
  init = (params.initializationOptions ?? {}) as InitializationOptions;
  setClient(params.capabilities, init, () => ws);
  settings = init.settings ?? {};
  if (init.reportStaleData === false) staleDataReported = true;
  limiter.enabled = init.allDiagnostics !== true;
  if (!init.cli) tuneHeapForEditor();
  if (typeof init.parseCacheChars === 'number' && Number.isFinite(init.parseCacheChars)) setParseCacheBudget(init.parseCacheChars);
  canPullConfig = !!params.capabilities.workspace?.configuration;
  supportsFolders = !!params.capabilities.workspace?.workspaceFolders;
  const roots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (!roots.length && params.rootUri) roots.push(uriToPath(params.rootUri));
  ws = new WorkspaceState(roots, init.cli?.configPath ? path.resolve(init.cli.configPath) : undefined);
  // Nothing outside the workspace folders (and the paths lsp-lint was given) is read for a file's neighbours.
  checkedRoots = new CheckedRoots(() => ws.roots, (init.cli?.extraRoots ?? []).filter((r) => typeof r === 'string'));
  files.inside = (p) => checkedRoots.inside(p);
  ws.crds.inside = (p) => checkedRoots.inside(p);
  ws.onSettingsProblem = () => settingsReceived();
  // The CRD index leaves out what the ignore: lists leave out (as the editor and lsp-lint do), unless lsp-lint --no-ignore.
  if (!init.cli?.noIgnore) ws.ignoredForCrds = (f) => !!ignoredFile(ws, f, configFor(f).config);
  helm = new HelmService({
    jobs: Math.max(1, Math.min(64, Number(init.cli?.helmJobs) || 2)),
    timeoutMs: Number(init.cli?.helmTimeoutMs) > 0 ? Number(init.cli?.helmTimeoutMs) : undefined,
    // Each render that finishes is said: lsp-lint's stall timer sees a server that is working, not a stalled one.
    progress: (chartRoot, step, ok) => { void connection.sendNotification(HelmProgressNotification, { chartRoot, step, ok } satisfies HelmProgressParams).catch(() => undefined); },
  });
  // Helm runs only on a positive trust signal: the client's (VS Code's workspace trust, or an initializationOption the
  // user set in the client's own configuration) or lsp-lint's --helm-render. Nothing the repository holds counts.
  helm.trusted = init.workspaceTrusted === true || init.cli?.helmRender === true;
  helm.restricted = init.workspaceTrusted === false;
  helm.workspaceTrusted = init.workspaceTrusted === true;
  helm.workspaceRoots = () => ws.roots;
  settingsReporter = new SettingsReporter(connection, init.showSettingsProblems !== false);
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
    // lsp-lint's flags, checked here against the data it does not bundle: it prints these as usage errors.
    ...(init.cli ? cliInitializeResult(init.cli, init.resolvedConfig) : {}),
  };
});

/** lsp-lint's part of the initialize result: its flags' problems, else (when asked) the resolved configuration. */
function cliInitializeResult(cli: NonNullable<InitializationOptions['cli']>, asked: ResolvedConfigParams | undefined): CliInitializeResult {
  const cliProblems = checkCliOverrides(cli);
  // --kubernetes-openapi: read now (anywhere the user named; bounded), before any file is checked with them.
  if (cli.kubernetesOpenapi && typeof cli.kubernetesOpenapi === 'object') {
    cli.kubernetesOpenapiDocs = {};
    for (const [minor, file] of Object.entries(cli.kubernetesOpenapi)) {
      if (typeof file !== 'string') continue;
      const got = readOpenapiFile(minor, file, process.cwd());
      if ('problem' in got) cliProblems.push(`--kubernetes-openapi ${got.problem}`);
      else cli.kubernetesOpenapiDocs[minor] = got;
    }
  }
  if (cliProblems.length || !asked || typeof asked !== 'object') return { cliProblems };
  // A failure here is not the initialize's: lsp-lint then sends skewguard/resolvedConfig, which reports it.
  try { return { cliProblems, resolvedConfig: resolvedConfigResult(asked) }; } catch { return { cliProblems }; }
}

connection.onShutdown(() => {
  if (shutdownRequested) return afterShutdown() as never;
  shutdownRequested = true;
  // Before the answer: lsp-lint kills the server once shutdown is answered (cli/session.ts), so the code cache of a
  // first run is written now rather than at exit.
  writePendingCodeCache();
});
// Requests for methods the server does not know: InvalidRequest after shutdown, MethodNotFound before.
connection.onRequest((method) => (shutdownRequested ? afterShutdown() : new ResponseError(ErrorCodes.MethodNotFound, `unhandled method ${method}`)));

connection.onInitialized(async () => {
  if (canPullConfig) {
    await pullSettings();
    // Documents opened while the settings were being pulled were checked without them: checked again where the
    // settings change what they are checked with (a 10 MB file opened at start-up was analysed twice, the second
    // time blocking the first request for seconds).
    for (const d of documents.all()) if (!analysedWithCurrentConfig(d)) schedule(d, 0);
    connection.client.register(DidChangeConfigurationNotification.type, { section: 'skewguard' }).catch(() => undefined);
  }
  if (supportsFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const r of e.removed) ws.roots = ws.roots.filter((x) => x !== uriToPath(r.uri));
      for (const a of e.added) ws.roots.push(uriToPath(a.uri));
      revalidateAll();
    });
  }
  publishConfigProblems();
  settingsReceived();
});

async function pullSettings(): Promise<void> {
  try {
    const s = await connection.workspace.getConfiguration('skewguard');
    if (s && typeof s === 'object') settings = s as Settings;
  } catch { /* client without configuration support */ }
  docSettings.clear();
  await Promise.all(documents.all().map((d) => pullDocSettings(d.uri)));
}

/** Settings for one document (folder-scoped settings in a multi-root workspace). */
async function pullDocSettings(uri: string): Promise<void> {
  if (!canPullConfig) return;
  try {
    const s = await connection.workspace.getConfiguration({ scopeUri: uri, section: 'skewguard' });
    if (s && typeof s === 'object') docSettings.set(uri, s as Settings);
  } catch { /* keep the workspace-wide settings */ }
  settingsReceived();
}

connection.onDidChangeConfiguration(async (change) => {
  if (canPullConfig) await pullSettings();
  else if (change.settings?.skewguard) settings = change.settings.skewguard;
  settingsReceived();
  revalidateAll();
});

// Watched-file events are coalesced (issue #25 item 9): each notification only notes what changed (O(1)); the work is
// done WATCHED_COALESCE_MS after the last one (at most WATCHED_MAX_WAIT_MS after the first of a stream), and the
// re-checks it starts run one document per turn of the event loop (a hover is answered between two), a newer batch
// cancelling the re-checks the older one had not run yet. 20,000 notifications each re-checking every open file at
// once left hover unanswered for seconds.
const WATCHED_COALESCE_MS = 50;
const WATCHED_MAX_WAIT_MS = 1000;
let watchedPending: { all: boolean; manifests: Set<string>; since: number } | undefined;
let watchedTimer: NodeJS.Timeout | undefined;
connection.onDidChangeWatchedFiles((p) => {
  files.invalidate();
  const pending = (watchedPending ??= { all: false, manifests: new Set(), since: Date.now() });
  // Only manifests changed (no .skewguard.yaml, localhost.yml or chart file): only the workspace's CRD index may be stale.
  if (p?.changes?.length && p.changes.every((c) => onlyManifest(c.uri))) {
    if (!pending.all) for (const c of p.changes) { if (pending.manifests.size >= 20000) { pending.all = true; break; } pending.manifests.add(c.uri); }
  } else {
    // .skewguard.yaml, a localhost.yml or a chart's file changed on disk: reload facts and re-check open files.
    pending.all = true;
    pending.manifests.clear();
  }
  if (watchedTimer) clearTimeout(watchedTimer);
  watchedTimer = setTimeout(flushWatched, Math.max(0, Math.min(WATCHED_COALESCE_MS, pending.since + WATCHED_MAX_WAIT_MS - Date.now())));
});

function flushWatched(): void {
  watchedTimer = undefined;
  const pending = watchedPending;
  watchedPending = undefined;
  if (!pending) return;
  files.invalidate();
  if (pending.all) { checkedRoots.invalidate(); revalidateAll(true); return; }
  // The CRD index is told of every changed manifest; the files are re-checked once for the whole batch (each changed
  // CRD file re-scheduled every open file and restarted the whole closed re-check: N times the work for N files).
  let crds = false;
  for (const uri of pending.manifests) { const f = uriToPath(uri); if (!ws.openTexts.has(f) && ws.crdsChanged(f, undefined)) crds = true; }
  if (crds) { for (const d of documents.all()) schedule(d, debounce()); recheckClosed(); return; }
  // A file whose findings were published while it was not open changed on disk: its findings are checked again.
  recheckClosed([...pending.manifests]);
}

/** Re-checks queued by a watched-file batch: one per turn of the event loop (setTimeout: a web worker has no setImmediate); a newer batch replaces the queue. */
let recheckQueue: string[] = [];
let recheckRunning = false;
function recheckInTurns(uris: string[]): void {
  recheckQueue = uris;
  if (recheckRunning) return;
  recheckRunning = true;
  const next = () => {
    const uri = recheckQueue.shift();
    if (uri === undefined) { recheckRunning = false; return; }
    const d = documents.get(uri);
    // A document with its own debounced run pending (an edit) is left to it.
    if (d && !timers.has(uri)) validate(d);
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/** A watched-file change that is a plain manifest's (not a config, localhost.yml or a Helm chart's file). */
const onlyManifest = (uri: string) => /\.(ya?ml|json)$/i.test(uri) && !affectsWorkspace(uri) && !ws.openapiFiles.has(uriToPath(uri)) && !/\/(templates|charts)\/|\/(Chart|values)\.ya?ml$/.test(uri);

/**
 * A file's effective text changed for the workspace's CRD index (server/crd-index.ts: a CRD, or the custom groups a
 * file uses): when the index was built and this changes it, the other open files are checked again. undefined: the disk's.
 */
function crdIndexChanged(uri: string, text: string | undefined, before?: string): void {
  if (!ws.crdsChanged(uriToPath(uri), text, before)) return;
  for (const d of documents.all()) if (d.uri !== uri) schedule(d, debounce());
  recheckClosed();
}

// VS Code: the user trusted the workspace; Helm may now be run (when the configuration asks for it).
connection.onNotification(WorkspaceTrustedNotification, () => {
  if (helm.trusted && helm.workspaceTrusted) return;
  helm.trusted = helm.workspaceTrusted = true;
  helm.restricted = false;
  helm.reset();
  revalidateAll();
});

/** The Helm part of a file's analysis input: the chart's renders when they are made, or the render under way. */
function helmInput(file: string, config: Resolved, start = true): ReturnType<HelmService['request']> {
  const root = ws.rootFor(file) ?? process.cwd();
  return helm.request(file, helmConfigOf(config, root), config.kubernetes.minors, root, (f) => ws.openTexts.get(f), start);
}

/** The resolved helm settings as HelmService takes them: a helm.path from the settings (no base of its own) is the root's. */
function helmConfigOf(config: Resolved, root: string): HelmConfig {
  const h = config.helm;
  return {
    render: h.render,
    path: h.path ? { value: h.path.value, base: h.path.base ?? root, fromRepo: h.path.source.kind === 'config', named: h.path.source.kind === 'cli', ...(h.path.user ? { user: h.path.user.value } : {}) } : undefined,
    values: { files: h.values.files, base: h.values.base },
  };
}

function configFor(file: string, uri?: string): { config: ResolvedConfig; loaded?: LoadedConfig } {
  const loaded = ws.configFor(file);
  const s = (uri && docSettings.get(uri)) || settings;
  const facts = ws.factsFor(file);
  // Its inputs are cached objects (the config per file, the settings, the facts per folder): so is the result,
  // which spares resolving it again for each of thousands of files (and gives later caches one config to key on).
  const byConfig = weakMemoIn(resolvedCache, loaded ?? NO_CONFIG, () => new WeakMap<object, WeakMap<object, ResolvedConfig>>());
  const bySettings = weakMemoIn(byConfig, s, () => new WeakMap<object, ResolvedConfig>());
  const config = weakMemoIn(bySettings, facts, () => resolveConfig({ cli: init.cli, config: loaded, settings: withSettingsOpenapi(file, s, normalizeSettings(s, ruleIds).overrides), workspace: facts }));
  return { config, loaded };
}
const NO_CONFIG = {};

/** skewguard.kubernetes.openapi: the documents read (workspace.ts settingsOpenapi), for the settings' overrides. */
function withSettingsOpenapi(file: string, s: Settings, o: Overrides): Overrides {
  if (!o.kubernetesOpenapi || !Object.keys(o.kubernetesOpenapi).length) return o;
  // The VS Code client says which minors are set at the user level (userLevel, from inspect()); every other client's
  // value is taken as the workspace's (the safe reading: inside the workspace only).
  const lv = (s as { userLevel?: { 'kubernetes.openapi'?: unknown } }).userLevel?.['kubernetes.openapi'];
  const user = Array.isArray(lv) ? lv.filter((m): m is string => typeof m === 'string') : [];
  return { ...o, kubernetesOpenapiDocs: ws.settingsOpenapi(file, o.kubernetesOpenapi, user) };
}

/**
 * Whether the document's last analysis is of this version with a configuration equal to the one it would get now:
 * settings that arrive later but resolve to the same configuration (window, rules, ignore, Helm) change nothing.
 */
function analysedWithCurrentConfig(doc: TextDocument): boolean {
  const r = results.get(doc.uri);
  if (!r || r.version !== doc.version || !r.config) return false;
  try {
    const now = configFor(uriToPath(doc.uri), doc.uri).config;
    return now === r.config || JSON.stringify(now) === JSON.stringify(r.config);
  } catch { return false; }
}
const resolvedCache = new WeakMap<object, WeakMap<object, WeakMap<object, ResolvedConfig>>>();

/**
 * The one failure path: an exception anywhere in the handling of a document is logged (with its stack) and becomes
 * a skewguard/internal-error diagnostic of that document, naming the stage, so a file is never reported clean.
 */
function internalDiagnostic(stage: string, e: unknown, data?: Record<string, unknown>): Diagnostic {
  return {
    ruleId: internalError.id, severity: 'error', message: describeFailure(stage, e),
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, docsUrl: docsUrl(internalError.id),
    data: { stage, ...data },
  };
}

function logFailure(stage: string, uri: string, e: unknown): void {
  try {
    connection.console.error(`skewguard: internal error in stage ${stage} for ${uri}: ${(e as Error)?.stack ?? String(e)}`);
  } catch { /* the log itself failed: the diagnostic still says it */ }
}

/** A failure outside the analysis of the document's current version: added to its diagnostics and published again. */
function reportFailure(uri: string, stage: string, e: unknown, data?: Record<string, unknown>): void {
  logFailure(stage, uri, e);
  const r = results.get(uri);
  const d = internalDiagnostic(stage, e, data);
  // Not analysed yet: said with its analysis (a request on a document that is not open has no diagnostics to add to).
  if (!r) { if (documents.get(uri)) pendingFailures.set(uri, [...(pendingFailures.get(uri) ?? []), d]); return; }
  // Once per stage and message (a hover that fails on every move is said once).
  if (r.result.diagnostics.some((x) => x.ruleId === d.ruleId && x.message === d.message)) return;
  r.result.diagnostics.unshift(d);
  if (!isConfigFile(uri)) publish(uri, r.version, r.result.diagnostics);
}

function validate(doc: TextDocument): void {
  try {
    validateStages(doc);
  } catch (e) {
    // Outside every stage below (it should not happen): the document still gets the reason.
    logFailure('validate', doc.uri, e);
    results.set(doc.uri, { version: doc.version, result: { diagnostics: [internalDiagnostic('validate', e)] } });
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: [toLsp(internalDiagnostic('validate', e))] }).catch(() => undefined);
  }
}

function validateStages(doc: TextDocument): void {
  const file = uriToPath(doc.uri);
  let config: ResolvedConfig | undefined;
  let result: AnalyzeResult;
  try {
    injectFault(FAULTS, 'config');
    config = configFor(file, doc.uri).config;
  } catch (e) {
    logFailure('config', doc.uri, e);
    result = { diagnostics: [internalDiagnostic('config', e)] };
  }
  let helmRead: HelmRead | undefined;
  if (config) {
    try {
      const h = helmInput(file, config);
      helmRead = h.read;
      if (h.pending) {
        // Checked again once the chart is rendered (the render settles, bounded by its timeout). lsp-lint waits for
        // that; an editor gets the evaluator's reading now and the rendered one when it is there.
        void h.pending.then(() => { const d = documents.get(doc.uri); if (d && d.version === doc.version) schedule(d, 0); });
        if (init.cli) return;
      }
      // In the editor a file the ignore: lists leave out is not checked (lsp-lint asks before it opens walked files).
      if (!init.cli && !isConfigFile(doc.uri) && ignoredFile(ws, file, config)) { results.set(doc.uri, { version: doc.version, result: { diagnostics: [] }, config }); publish(doc.uri, doc.version, []); return; }
      const input = {
        path: file, text: doc.getText(), config, root: ws.rootFor(file), reportStaleData: !staleDataReported, today: today(),
        neighbours: ws.lazyNeighboursFor(file), faults: FAULTS, files, helmRenders: h.renders,
      };
      result = (!init.cli && scheduler.analyze(doc.uri, doc.version, input)) || analyze(input);
      if (helmRead) helmReads.set(result, helmRead);
      if (result.staleReported) staleDataReported = true;
    } catch (e) {
      logFailure('analyze', doc.uri, e);
      result = { diagnostics: [internalDiagnostic('analyze', e)] };
    }
  }
  for (const d of result!.diagnostics) if (d.ruleId === internalError.id) logFailure(String(d.data?.stage ?? 'analyze'), doc.uri, (d as { error?: unknown }).error ?? d.message);
  const pending = pendingFailures.get(doc.uri);
  if (pending) { pendingFailures.delete(doc.uri); result!.diagnostics = [...pending, ...result!.diagnostics]; }
  results.set(doc.uri, { version: doc.version, result: result!, config });
  // A .skewguard.yaml's diagnostics are its config problems, published by publishConfigProblems.
  if (isConfigFile(doc.uri)) return;
  if (init.reportFacts) {
    let facts: Record<string, unknown> | undefined;
    try {
      injectFault(FAULTS, 'facts');
      facts = factsOf(result!);
    } catch (e) {
      logFailure('facts', doc.uri, e);
      result!.diagnostics.unshift(internalDiagnostic('facts', e));
    }
    void connection.sendNotification(FileFactsNotification, { uri: doc.uri, version: doc.version, family: result!.family ?? null, facts, steps: result!.windowSteps } satisfies FileFactsParams)
      .catch((e) => logFailure('facts', doc.uri, e));
  }
  publish(doc.uri, doc.version, result!.diagnostics);
}

/** Sends a document's diagnostics; one that cannot be converted or sent is replaced by the internal error saying so. */
function publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void {
  const out: LspDiagnostic[] = [];
  let failure: unknown;
  try { injectFault(FAULTS, 'publish'); } catch (e) { failure = e; }
  if (failure === undefined) {
    for (const d of diagnostics) {
      try { out.push(toLsp(d)); } catch (e) { failure ??= e; }
    }
  }
  const fallback = (e: unknown) => {
    logFailure('publish', uri, e);
    const d = toLsp(internalDiagnostic('publish', e));
    // data may be what failed to serialise: leave it out of the fallback.
    return connection.sendDiagnostics({ uri, version, diagnostics: [...out.map((x) => ({ ...x, data: undefined })), d] });
  };
  if (failure !== undefined) { void fallback(failure).catch((e) => logFailure('publish', uri, e)); return; }
  void connection.sendDiagnostics({ uri, version, diagnostics: limiter.cap(uri, version, out) })
    .catch((e) => fallback(e).catch((e2) => logFailure('publish', uri, e2)));
}

function publishConfigProblems(): void {
  const seen = new Set<string>();
  const configs = new Set<LoadedConfig>();
  for (const d of documents.all()) { const c = ws.configFor(uriToPath(d.uri)); if (c) configs.add(c); }
  if (ws.explicitConfig) { const c = ws.loadConfigFile(ws.explicitConfig); if (c) configs.add(c); }
  for (const root of ws.roots) { const c = ws.configFor(path.join(root, CONFIG_FILENAMES[0])); if (c) configs.add(c); }
  for (const c of configs) {
    const uri = pathToFileURL(c.path).toString();
    seen.add(uri);
    const lines = new LineIndex(c.text);
    void connection.sendDiagnostics({
      uri,
      diagnostics: c.problems.map((p) => toLsp({
        ruleId: invalidConfig.id, severity: 'error', message: p.message, range: lines.range(p.range.start, p.range.end), docsUrl: docsUrl(invalidConfig.id),
      })),
    });
  }
  for (const u of publishedConfigUris) if (!seen.has(u)) void connection.sendDiagnostics({ uri: u, diagnostics: [] });
  publishedConfigUris.clear();
  for (const u of seen) publishedConfigUris.add(u);
}

/** A config file or localhost.yml's effective text changed: forget the workspace facts, re-check the other open files. */
function workspaceChanged(uri: string, delay: number): void {
  ws.invalidate();
  for (const d of documents.all()) if (d.uri !== uri) schedule(d, delay);
  recheckClosed();
  if (isConfigFile(uri)) publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

function revalidateAll(inTurns = false): void {
  ws.invalidateAll();
  helm.reset();
  if (inTurns) recheckInTurns(documents.all().map((d) => d.uri));
  else { recheckQueue = []; for (const d of documents.all()) schedule(d, 0); }
  recheckClosed();
  publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

function schedule(doc: TextDocument, delay: number): void {
  const t = timers.get(doc.uri);
  if (t) clearTimeout(t);
  if (delay <= 0) { timers.delete(doc.uri); validate(doc); return; }
  timers.set(doc.uri, setTimeout(() => {
    timers.delete(doc.uri);
    const current = documents.get(doc.uri);
    if (current) validate(current);
  }, delay));
}

const isConfigFile = (uri: string) => isConfigFileName(uri);
const affectsWorkspace = (uri: string) => isConfigFile(uri) || /localhost[^/]*\.ya?ml$/i.test(uri);

/** Only control-plane static pods are facts for their folder; other files never invalidate it (lsp-lint opens thousands). */
const STATIC_POD = /kube-(apiserver|controller-manager|scheduler)/;
const holdsFolderFacts = (...texts: Array<string | undefined>) => texts.some((t) => t !== undefined && STATIC_POD.test(t));

/**
 * The text a folder's other files see for `uri` went from before() to after() (an open, an edit or a close):
 * a manifest's images are facts for its folder's other manifests (control-plane skew), so forget them and
 * re-check the others. Only a folder whose static pods were read can go stale (a static-pod or kube-proxy
 * manifest asked for them); the texts, which may mean a disk read, are looked at only then.
 */
function folderChanged(uri: string, before: () => string | undefined, after: () => string | undefined): void {
  if (!/\.(ya?ml|json)$/i.test(uri)) return;
  const dir = path.dirname(uriToPath(uri));
  if (!ws.hasFolderFacts(dir)) return;
  const a = before(), b = after();
  if (a === b || !holdsFolderFacts(a, b)) return;
  // Before scheduling: with debounceMs 0 the re-checks run at once.
  ws.invalidateFolder(dir);
  for (const d of documents.all()) if (d.uri !== uri && path.dirname(uriToPath(d.uri)) === dir) schedule(d, debounce());
}

/**
 * A file of a Helm chart changed (a template's defines, values.yaml, Chart.yaml): the chart's other open files are
 * checked again, since they render with it. The chart is the one Helm renders (helm-render.ts chartRootOf: for a
 * vendored subchart, its outermost parent), with open documents counted as files.
 */
function chartChanged(uri: string): void {
  const chartDir = chartRootOf(uriToPath(uri), (p) => ws.openTexts.has(p) || existsSync(p));
  if (!chartDir) return;
  const prefix = chartDir + path.sep;
  for (const d of documents.all()) if (d.uri !== uri && uriToPath(d.uri).startsWith(prefix)) schedule(d, debounce());
}

/** A failure in the workspace bookkeeping around a document: reported with the document's next analysis. */
function workspaceFailure(uri: string, e: unknown): void {
  logFailure('workspace', uri, e);
  pendingFailures.set(uri, [...(pendingFailures.get(uri) ?? []), internalDiagnostic('workspace', e)]);
}

documents.onDidOpen((e) => {
  const file = uriToPath(e.document.uri);
  publishedClosed.delete(e.document.uri);
  try {
    if (affectsWorkspace(e.document.uri)) {
      // Open documents win over the disk. A buffer equal to the file on disk changes no other file's window (lsp-lint
      // opens thousands of localhost.yml files this way); a different one is an edit and re-checks everything.
      if (ws.setOpenText(file, e.document.getText())) workspaceChanged(e.document.uri, 0);
      else if (isConfigFile(e.document.uri)) publishConfigProblems(); // its problems show while it is open
    } else { ws.openTexts.set(file, e.document.getText()); crdIndexChanged(e.document.uri, e.document.getText()); }
    files.opened(file, e.document.getText());
    // The folder's facts were read from the disk; the open text may differ.
    folderChanged(e.document.uri, () => readDisk(file), () => e.document.getText());
  } catch (err) { workspaceFailure(e.document.uri, err); }
  schedule(e.document, 0);
  // Folder-scoped settings arrive asynchronously; re-check when they differ from the workspace-wide ones.
  if (canPullConfig) {
    void pullDocSettings(e.document.uri).then(() => {
      const d = documents.get(e.document.uri);
      if (d && docSettings.has(d.uri) && !analysedWithCurrentConfig(d)) schedule(d, 0);
    });
  }
});
documents.onDidChangeContent((e) => {
  try {
    const before = ws.openTexts.get(uriToPath(e.document.uri));
    ws.openTexts.set(uriToPath(e.document.uri), e.document.getText());
    if (before !== e.document.getText()) ws.bufferChanged(uriToPath(e.document.uri));
    files.edited(before, e.document.getText());
    if (before !== e.document.getText()) { chartChanged(e.document.uri); crdIndexChanged(e.document.uri, e.document.getText()); }
    // A config or localhost.yml edit changes the windows of other files: re-check everything.
    if (affectsWorkspace(e.document.uri) && before !== e.document.getText()) workspaceChanged(e.document.uri, debounce());
    folderChanged(e.document.uri, () => before, () => e.document.getText());
  } catch (err) { workspaceFailure(e.document.uri, err); }
  // didOpen also fires onDidChangeContent; the open handler already validated that version.
  const last = results.get(e.document.uri);
  if (last && last.version === e.document.version) return;
  schedule(e.document, debounce());
});
documents.onDidClose((e) => {
  const t = timers.get(e.document.uri);
  if (t) clearTimeout(t);
  timers.delete(e.document.uri);
  results.delete(e.document.uri);
  docSettings.delete(e.document.uri);
  pendingFailures.delete(e.document.uri);
  limiter.forget(e.document.uri);
  scheduler.forget(e.document.uri);
  const file = uriToPath(e.document.uri);
  const closedText = ws.openTexts.get(file);
  try {
    if (affectsWorkspace(e.document.uri)) {
      // The disk takes over again: only a buffer that differed from it changes anything.
      if (ws.setOpenText(file, undefined)) workspaceChanged(e.document.uri, 0);
    } else {
      ws.openTexts.delete(file);
      files.closed(file, closedText);
      crdIndexChanged(e.document.uri, undefined, closedText);
      // The others saw the closed buffer's text; now they see the disk's.
      folderChanged(e.document.uri, () => closedText, () => readDisk(file));
    }
  } catch (err) { logFailure('workspace', e.document.uri, err); } // the document is gone: the log says it
  if (!isConfigFile(e.document.uri) && init.clearDiagnosticsOnClose !== false) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

function debounce(): number {
  return debounceOf(normalizeSettings(settings, ruleIds).settings);
}

/** The analysis of the document's current version (re-analysed if a debounced run is pending). */
function current(uri: string): { doc: TextDocument; result: AnalyzeResult; config?: ResolvedConfig } | undefined {
  const doc = documents.get(uri);
  if (!doc) return undefined;
  let r = results.get(uri);
  if (!r || r.version !== doc.version) { schedule(doc, 0); r = results.get(uri); }
  return r && { doc, result: r.result, config: r.config };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

function toLsp(d: Diagnostic): LspDiagnostic {
  // Kept per diagnostic: a big file's unchanged findings are published again after every edit (scheduler.ts). Looked
  // up before anything is made: a closure per finding was 0.9 MB of garbage per keystroke in the 12,000-document bundle.
  const hit = lspOf.get(d);
  if (hit) return hit;
  const lsp: LspDiagnostic = {
    range: d.range, severity: SEVERITY[d.severity], code: d.ruleId, codeDescription: { href: docHrefFor(d) },
    source: 'skewguard', message: d.message, data: withSteps(d),
  };
  lspOf.set(d, lsp);
  return lsp;
}
const lspOf = new WeakMap<Diagnostic, LspDiagnostic>();

/**
 * A request's handler, guarded: after shutdown it is refused (InvalidRequest); an exception is logged, becomes the
 * document's internal-error diagnostic and the request gets the empty answer, so the editor and the server go on.
 */
function guarded<P extends { textDocument: { uri: string } }, R>(stage: string, empty: R, handler: (p: P) => R): (p: P) => R | ResponseError {
  return (p: P) => {
    if (shutdownRequested) return afterShutdown();
    try {
      injectFault(FAULTS, stage);
      return handler(p);
    } catch (e) {
      reportFailure(p.textDocument.uri, stage, e);
      return empty;
    }
  };
}

connection.onHover(guarded('hover', null, (p) => {
  const c = current(p.textDocument.uri);
  if (!c) return null;
  const dh = docsHover(c.doc, p.position);
  if (dh) return dh;
  const v = viewAt(c.result, c.doc.getText(), p.position);
  const h = hover(v.result, v.text, v.position);
  return h ? { contents: hoverContents(h.markdown + windowChoiceNote(c.result, uriToPath(p.textDocument.uri)), ws.rootFor(uriToPath(p.textDocument.uri))), range: h.range && v.back(h.range) } : null;
}));

/** Several bootstrap files competed for the file's Kubernetes window: which one was used, and how to choose (workspace.ts). */
function windowChoiceNote(r: AnalyzeResult, file: string): string {
  const k = r.config?.kubernetes.source;
  if (!k || k.kind !== 'workspace' || r.windowSource !== k) return '';
  const l = ws.factsFor(file).localhost;
  return l?.note ? `\n\nKubernetes window from ${l.path}: ${l.note}.` : '';
}

connection.onCompletion(guarded('completion', [], (p) => {
  const c = current(p.textDocument.uri);
  if (!c) return [];
  const cc = configCompletion(p.textDocument.uri, c.doc, p.position);
  if (cc) return cc;
  const v = viewAt(c.result, c.doc.getText(), p.position);
  const lines = new LineIndex(v.text);
  return complete(v.result, v.text, v.position).map((i) => ({
    label: i.label,
    kind: i.kind === 'value' ? CompletionItemKind.Value : CompletionItemKind.Property,
    detail: i.detail,
    documentation: i.documentation ? { kind: MarkupKind.Markdown, value: i.documentation } : undefined,
    sortText: i.sortText,
    preselect: i.preselect,
    textEdit: { range: v.back(lines.range(i.replace.start, i.replace.end)), newText: i.insertText },
  }));
}));

const sameRange = (a: LspDiagnostic['range'], b: LspDiagnostic['range']) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

/**
 * A diagnostic's fixes; a lazy fix (worked out on first use) that throws is that document's internal error, and
 * the finding is left without fixes: the other findings' fixes are still offered.
 */
function fixesOf(d: Diagnostic, uri: string): NonNullable<Diagnostic['fixes']> {
  try {
    return d.fixes ?? [];
  } catch (e) {
    d.fixes = [];
    reportFailure(uri, `fix (the fix of ${d.ruleId})`, e, { stage: 'fix', rule: d.ruleId });
    return [];
  }
}

connection.onCodeAction(guarded('codeAction', [], (p) => {
  const c = current(p.textDocument.uri);
  if (!c) return [];
  const uri = p.textDocument.uri;
  const only = p.context.only;
  const wantsFixAll = !only || only.some((k) => FIX_ALL_KIND.startsWith(k) || k === CodeActionKind.SourceFixAll || k === CodeActionKind.Source);
  const wantsQuick = !only || only.some((k) => CodeActionKind.QuickFix.startsWith(k) || k === CodeActionKind.QuickFix);
  const actions: CodeAction[] = [];
  const here: ActionContext['here'] = [];
  // Fix-all's edits, worked out once per request (the quick-fix menu asks for both kinds).
  let fixAll: FixAllPlan | undefined;
  const plan = () => (fixAll ??= fixAllPlan(c.result, c.doc, uri));
  const allEdits = () => plan().edits;
  // Under a window nobody chose, a fix that removes or rewrites a key is not fix-all's (fix-window.ts); as a quick fix
  // the user may still pick it, but it is not the preferred one (an editor's auto-fix applies that) and says why.
  const heldReason = defaultWindowReason(c.result);
  if (wantsQuick) {
    for (const d of [...c.result.diagnostics]) {
      const ctxDiag = p.context.diagnostics.find((x) => x.code === d.ruleId && sameRange(x.range, d.range));
      const overlaps = d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line;
      if (!ctxDiag && !overlaps) continue;
      here.push({ d, lsp: ctxDiag ?? toLsp(d) });
      if (!fixesOf(d, uri).length) continue;
      for (const f of fixesOf(d, uri)) {
        const held = !!heldReason && fixTouchesKey(c.doc.getText(), f.edits, (pos) => c.doc.offsetAt(pos));
        const title = f.partial ? `${f.title} (partial)` : f.title;
        actions.push({
          title: held ? `${title} (${heldReason!.replace(/;.*/, '')})` : title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [ctxDiag ?? toLsp(d)],
          isPreferred: !!f.preferred && !held,
          edit: { changes: { [uri]: f.edits } },
        });
      }
    }
    for (const a of moreActions(actionContext(c, uri, here, true, allEdits))) actions.push(a);
    for (const a of didYouMeanFixes(uri, c.doc, p.context.diagnostics)) actions.push(a);
  }
  if (wantsFixAll) {
    const { edits, held } = plan();
    const kind = only?.includes(CodeActionKind.SourceFixAll) && !only.includes(FIX_ALL_KIND) ? CodeActionKind.SourceFixAll : FIX_ALL_KIND;
    // What fix-all leaves under a default window is said: in the title, and to lsp-lint in the data (its report says it at each finding).
    const notFixed = held.map((h) => ({ code: h.d.ruleId, range: h.d.range, message: h.d.message, reason: `not fixed: ${h.reason}` }));
    const why = held.length ? `${held.length} not fixed: ${held[0].reason}` : '';
    if (edits.length) {
      actions.push({ title: `Fix all auto-fixable skewguard problems${why ? ` (${why})` : ''}`, kind, edit: { changes: { [uri]: edits } }, ...(held.length ? { data: { notFixed } } : {}) });
    } else if (held.length) {
      actions.push({ title: 'Fix all auto-fixable skewguard problems', kind, disabled: { reason: why }, data: { notFixed } });
    }
  }
  return actions;
}));

/**
 * Internal errors that make fix-all unsafe: a failure before the rules or in suppression (a suppressed finding's fix
 * would be applied). A failing rule or lazy fix does not: the other rules' findings and fixes are complete.
 */
const blocksFixAll = (d: Diagnostic) => d.ruleId === internalError.id && !/^(rule:|fix|facts|publish|hover|completion|codeAction|codeLens|inlayHint)/.test(String(d.data?.stage ?? ''));

interface FixAllPlan { edits: TextEdit[]; held: Array<{ d: Diagnostic; reason: string }> }

/**
 * Preferred, complete fixes whose edits do not overlap (an earlier diagnostic's fix wins). Nothing for a file
 * that does not parse, or whose analysis failed outside a rule. A fix that removes or rewrites a key is left out
 * (`held`, with why) when the window it was judged against is a default (fix-window.ts).
 */
function fixAllPlan(result: AnalyzeResult, doc: TextDocument, uri: string): FixAllPlan {
  const diags = result.diagnostics;
  if (diags.some((d) => d.ruleId === 'syntax/parse-error' || blocksFixAll(d))) return { edits: [], held: [] };
  const candidates: Array<Array<Span<LspDiagnostic['range']>>> = [];
  const held: FixAllPlan['held'] = [];
  const reason = defaultWindowReason(result);
  const offset = (p: TextEdit['range']['start']) => doc.offsetAt(p);
  for (const d of [...diags]) {
    const f = fixesOf(d, uri).find((x) => x.preferred && !x.partial);
    if (!f) continue;
    if (reason && fixTouchesKey(doc.getText(), f.edits, offset)) { held.push({ d, reason }); continue; }
    candidates.push(f.edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), edit: e })));
  }
  return { edits: chooseNonOverlapping(candidates).map((c) => c.edit), held };
}

connection.onRequest(ResolvedConfigRequest, (p: ResolvedConfigParams): ResolvedConfigResult | ResponseError => {
  if (shutdownRequested) return afterShutdown();
  return resolvedConfigResult(p);
});

function resolvedConfigResult(p: ResolvedConfigParams): ResolvedConfigResult {
  const file = p.uri ? uriToPath(p.uri) : path.join(ws.roots[0] ?? process.cwd(), '.');
  const target = p.uri ? file : path.join(file, '__workspace__');
  const { config, loaded } = configFor(target, p.uri);
  const r = p.uri ? results.get(p.uri) : undefined;
  const lines = loaded ? new LineIndex(loaded.text) : undefined;
  const resolved = describeResolved(config);
  resolved.helm = helmDescription(resolved.helm as Record<string, unknown>, file, config, !!p.uri);
  // Which family reads the file and why (path, content, files:, modeline): the open document's, else the file's on disk.
  if (p.uri) resolved.readAs = r?.result.readAs ?? readAsOnDisk(file, config) ?? null;
  const k = resolved.kubernetes as { window: string; source: { kind: string } };
  // Each part nobody chose is marked "(default)" (the status item, --print-config, Show Resolved Window).
  const summary = `StarlingX ${config.starlingx.release.release}${mark(config.starlingx.source)} · Kubernetes ${k.window}${mark(config.kubernetes.source)}${config.kata.window ? ` · Kata ${(resolved.kata as { window: string }).window}${mark(config.kata.source)}` : ''}`;
  return {
    resolved,
    family: r?.result.family ?? null,
    facts: r ? factsSafe(p.uri!, r.result) : undefined,
    configProblems: (loaded?.problems ?? []).map((pr) => ({ file: loaded!.path, ...lines!.positionAt(pr.range.start), message: pr.message })),
    summary,
    settingsProblems: normalizeSettings((p.uri && docSettings.get(p.uri)) || settings, ruleIds).problems,
    ...(p.uri ? fileStatus(r?.result.family, r ? factsSafe(p.uri, r.result) : undefined, config, ignoredFile(ws, file, config), ws.rootFor(file)) : {}),
  };
}

/** How a file not open would be read (--print-config <file>): analysed as lsp-lint would, its ReadAs kept. */
function readAsOnDisk(file: string, config: Resolved): AnalyzeResult['readAs'] | { family: null; by: 'none'; why: string } {
  const text = files.read(file);
  if (text === undefined) return { family: null, by: 'none', why: `not read: ${files.unreadable(file) ?? 'no such file'}` };
  return analyze({ path: file, text, config, root: ws.rootFor(file), today: today(), neighbours: ws.lazyNeighboursFor(file), faults: FAULTS, files }).readAs;
}

/** --print-config's and the status bar's Helm part: the settings, the binary found, how a chart would be read. */
function helmDescription(base: Record<string, unknown>, file: string, config: Resolved, isFile: boolean): Record<string, unknown> {
  const root = ws.rootFor(file) ?? process.cwd();
  const found = helm.binary(helmConfigOf(config, root), root);
  const out: Record<string, unknown> = { ...base, trusted: helm.trusted, binary: found.path ?? null, looked: found.looked, ...(found.refused ? { refused: found.refused } : {}) };
  if (isFile) {
    const r = helmInput(file, config, false);
    if (r.read) out.readBy = r.read;
  }
  return out;
}

function factsSafe(uri: string, r: AnalyzeResult): Record<string, unknown> | undefined {
  try {
    injectFault(FAULTS, 'facts');
    return factsOf(r);
  } catch (e) {
    reportFailure(uri, 'facts', e);
    return undefined;
  }
}

/** Per-file facts for --print-config, the JSON report and the status bar. */
function factsOf(r: AnalyzeResult): Record<string, unknown> | undefined {
  const facts = familyById(r.family)?.facts(r);
  const read = helmReads.get(r);
  return read ? { ...facts, helm: read } : facts;
}

registerIgnoredFiles(connection, () => ws, (file) => configFor(file).config);
registerWindowCommands(connection, () => ws);
registerWorkspaceCommands(connection, () => ws, (uri, text) => {
  const doc = documents.get(uri) ?? TextDocument.create(uri, 'plaintext', 0, text);
  validateStages(doc);
  const r = results.get(uri);
  if (!documents.get(uri)) { results.delete(uri); publishedClosed.add(uri); }
  return r && { diagnostics: r.result.diagnostics.length, fixAll: () => fixAllPlan(r.result, doc, uri) };
}, (uri) => documents.get(uri));

/**
 * Files that are not open whose diagnostics this server published (Check whole workspace, Fix all in workspace). When
 * the configuration, the settings, a workspace fact or the data change, they are checked again from the disk (as ESLint
 * does), in slices so that the editor's requests are answered meanwhile; one that cannot be read any more is cleared.
 * Nothing in the Problems panel keeps an old window.
 */
const publishedClosed = new Set<string>();
let recheckRun = 0;
const RECHECK_SLICE = 25;

function recheckClosed(only?: string[]): void {
  const queue = only ? only.filter((u) => publishedClosed.has(u)) : [...publishedClosed];
  if (!queue.length) return;
  // A newer change restarts the whole list (only a single file's re-check runs beside a whole one).
  const run = only ? recheckRun : ++recheckRun;
  const slice = () => {
    if (run !== recheckRun || shutdownRequested) return;
    for (const uri of queue.splice(0, RECHECK_SLICE)) checkClosedAgain(uri);
    if (queue.length) setTimeout(slice, 0);
  };
  setTimeout(slice, 0);
}

function checkClosedAgain(uri: string): void {
  // Opened meanwhile: the open document is checked as such.
  if (documents.get(uri) || !publishedClosed.has(uri)) { publishedClosed.delete(uri); return; }
  const read = readWorkspaceFile(uriToPath(uri));
  if ('reason' in read) { publishedClosed.delete(uri); void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined); return; }
  try {
    validateStages(TextDocument.create(uri, 'plaintext', 0, read.text));
  } catch (e) { logFailure('workspace', uri, e); }
  results.delete(uri);
}
// The window at a glance: code lens per step, inlay hints, the Upgrade Window view's request (code-lens.ts).
registerWindowFeatures(connection, {
  current: (uri) => { const c = current(uri); return c && { result: c.result, text: c.doc.getText() }; },
  analyzeText: (uri, text) => { const file = uriToPath(uri); return analyze({ path: file, text, config: configFor(file, uri).config, root: ws.rootFor(file), today: today(), neighbours: ws.lazyNeighboursFor(file), faults: FAULTS, files }); },
  ignored: (uri) => {
    if (init.cli || isConfigFile(uri)) return undefined;
    const file = uriToPath(uri);
    const v = ignoredFile(ws, file, configFor(file, uri).config);
    return v && describeIgnored(v, ws.rootFor(file));
  },
  guarded,
});

documents.listen(connection);
connection.listen();
