// The skewguard language server: a thin LSP wrapper around the engine. lsp-lint starts this same
// server over stdio, so the editor and CI run one code path.
import {
  createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, DiagnosticSeverity, CodeActionKind,
  CompletionItemKind, MarkupKind, DidChangeConfigurationNotification, type Diagnostic as LspDiagnostic, type CodeAction, type InitializeParams, type Connection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { format } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze, type AnalyzeResult } from '../engine/analyze';
import { setParseCacheBudget } from '../engine/parse/yaml';
import { resolveConfig, describeResolved, type ResolvedConfig, type LoadedConfig } from '../engine/config';
import { hover, complete } from '../engine/language';
import type { Diagnostic, Severity } from '../engine/types';
import { LineIndex } from '../engine/text';
import { docsUrl } from '../engine/rules';
import { invalidConfig } from '../engine/rules/general';
import {
  ResolvedConfigRequest, ConfigChangedNotification, FileFactsNotification, FIX_ALL_KIND,
  type InitializationOptions, type Settings, type ResolvedConfigParams, type ResolvedConfigResult, type FileFactsParams,
} from '../shared/protocol';
import { WorkspaceState, readDisk } from './workspace';
import { coalesced } from '../shared/coalesce';
import { memoIn, weakMemoIn } from '../engine/memo';
import { normalizeSettings, debounceOf } from '../shared/settings';
import { ruleIds } from '../engine/rules';
import { SettingsReporter } from './settingsReport';

// Over stdio (lsp-lint, Neovim…) the output is coalesced per event-loop turn; other transports are detected as usual.
const connection: Connection = process.argv.includes('--stdio')
  ? createConnection(ProposedFeatures.all, process.stdin, coalesced(process.stdout))
  : createConnection(ProposedFeatures.all);
if (process.argv.includes('--stdio')) {
  // What createConnection does for --stdio when it opens the streams itself: stdout carries the protocol, so
  // console output (a library's warning) goes to the client's log instead.
  console.log = console.info = console.debug = (...a: unknown[]) => connection.console.log(format(...a));
  console.warn = (...a: unknown[]) => connection.console.warn(format(...a));
  console.error = (...a: unknown[]) => connection.console.error(format(...a));
}
const documents = new TextDocuments(TextDocument);

let init: InitializationOptions = {};
let settings: Settings = {};
let canPullConfig = false;
let supportsFolders = false;
let ws = new WorkspaceState([]);
const results = new Map<string, { version: number; result: AnalyzeResult; config: ResolvedConfig }>();
const timers = new Map<string, NodeJS.Timeout>();
const publishedConfigUris = new Set<string>();
const docSettings = new Map<string, Settings>();
/** The stale-data note is said once per server run (one lsp-lint run, one editor session). */
let staleDataReported = false;
let settingsReporter: SettingsReporter | undefined;
/** Settings arrived or changed: say which of them are invalid (they are left out, as in .skewguard.yaml). */
const settingsReceived = () => settingsReporter?.report([settings, ...docSettings.values()]);
const today = () => (process.env.SKEWGUARD_TODAY ? new Date(process.env.SKEWGUARD_TODAY) : new Date());

/** A document uri's path (memoised: URL parsing is slow, and each file's uri is converted several times). */
function uriToPath(uri: string): string {
  return memoIn(uriPaths, uri, () => {
    if (uri.startsWith('file:')) { try { return fileURLToPath(uri); } catch { /* keep the plain form */ } }
    return uri.replace(/^[a-z]+:/i, '');
  }, 4096);
}
const uriPaths = new Map<string, string>();

connection.onInitialize((params: InitializeParams) => {
  init = (params.initializationOptions ?? {}) as InitializationOptions;
  settings = init.settings ?? {};
  if (init.reportStaleData === false) staleDataReported = true;
  if (typeof init.parseCacheChars === 'number' && Number.isFinite(init.parseCacheChars)) setParseCacheBudget(init.parseCacheChars);
  canPullConfig = !!params.capabilities.workspace?.configuration;
  supportsFolders = !!params.capabilities.workspace?.workspaceFolders;
  const roots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (!roots.length && params.rootUri) roots.push(uriToPath(params.rootUri));
  ws = new WorkspaceState(roots, init.cli?.configPath ? path.resolve(init.cli.configPath) : undefined);
  settingsReporter = new SettingsReporter(connection, init.showSettingsProblems !== false);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [' ', ':', '"', "'", '[', '='] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, CodeActionKind.SourceFixAll] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'skewguard-language-server', version: '0.1.0' },
  };
});

connection.onInitialized(async () => {
  if (canPullConfig) {
    await pullSettings();
    // Documents opened while the settings were being pulled were checked without them.
    for (const d of documents.all()) schedule(d, 0);
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

connection.onDidChangeWatchedFiles(() => {
  // .skewguard.yaml or a localhost.yml changed on disk: reload facts and re-check open files.
  revalidateAll();
});

function configFor(file: string, uri?: string): { config: ResolvedConfig; loaded?: LoadedConfig } {
  const loaded = ws.configFor(file);
  const s = (uri && docSettings.get(uri)) || settings;
  const facts = ws.factsFor(file);
  // Its inputs are cached objects (the config per file, the settings, the facts per folder): so is the result,
  // which spares resolving it again for each of thousands of files (and gives later caches one config to key on).
  const byConfig = weakMemoIn(resolvedCache, loaded ?? NO_CONFIG, () => new WeakMap<object, WeakMap<object, ResolvedConfig>>());
  const bySettings = weakMemoIn(byConfig, s, () => new WeakMap<object, ResolvedConfig>());
  const config = weakMemoIn(bySettings, facts, () => resolveConfig({ cli: init.cli, config: loaded, settings: normalizeSettings(s, ruleIds).overrides, workspace: facts }));
  return { config, loaded };
}
const NO_CONFIG = {};
const resolvedCache = new WeakMap<object, WeakMap<object, WeakMap<object, ResolvedConfig>>>();

function validate(doc: TextDocument): void {
  const file = uriToPath(doc.uri);
  const { config } = configFor(file, doc.uri);
  let result: AnalyzeResult;
  try {
    result = analyze({
      path: file, text: doc.getText(), config, root: ws.rootFor(file), reportStaleData: !staleDataReported, today: today(),
      neighbours: ws.lazyNeighboursFor(file),
    });
    if (result.staleReported) staleDataReported = true;
  } catch (e) {
    connection.console.error(`skewguard: analysing ${doc.uri} failed: ${(e as Error).stack}`);
    result = { diagnostics: [] };
  }
  results.set(doc.uri, { version: doc.version, result, config });
  // A .skewguard.yaml's diagnostics are its config problems, published by publishConfigProblems.
  if (isConfigFile(doc.uri)) return;
  if (init.reportFacts) {
    void connection.sendNotification(FileFactsNotification, { uri: doc.uri, version: doc.version, family: result.family ?? null, facts: factsOf(result) } satisfies FileFactsParams);
  }
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: result.diagnostics.map(toLsp) });
}

function publishConfigProblems(): void {
  const seen = new Set<string>();
  const configs = new Set<LoadedConfig>();
  for (const d of documents.all()) { const c = ws.configFor(uriToPath(d.uri)); if (c) configs.add(c); }
  if (ws.explicitConfig) { const c = ws.loadConfigFile(ws.explicitConfig); if (c) configs.add(c); }
  for (const root of ws.roots) { const c = ws.configFor(path.join(root, '.skewguard.yaml')); if (c) configs.add(c); }
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
  if (isConfigFile(uri)) publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

function revalidateAll(): void {
  ws.invalidate();
  for (const d of documents.all()) schedule(d, 0);
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

const isConfigFile = (uri: string) => /\/\.skewguard\.ya?ml$/.test(uri);
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

documents.onDidOpen((e) => {
  const file = uriToPath(e.document.uri);
  if (affectsWorkspace(e.document.uri)) {
    // Open documents win over the disk. A buffer equal to the file on disk changes no other file's window (lsp-lint
    // opens thousands of localhost.yml files this way); a different one is an edit and re-checks everything.
    if (ws.setOpenText(file, e.document.getText())) workspaceChanged(e.document.uri, 0);
    else if (isConfigFile(e.document.uri)) publishConfigProblems(); // its problems show while it is open
  } else ws.openTexts.set(file, e.document.getText());
  // The folder's facts were read from the disk; the open text may differ.
  folderChanged(e.document.uri, () => readDisk(file), () => e.document.getText());
  schedule(e.document, 0);
  // Folder-scoped settings arrive asynchronously; re-check when they differ from the workspace-wide ones.
  if (canPullConfig) {
    void pullDocSettings(e.document.uri).then(() => {
      const s = docSettings.get(e.document.uri);
      const d = documents.get(e.document.uri);
      if (d && s && JSON.stringify(s) !== JSON.stringify(settings)) schedule(d, 0);
    });
  }
});
documents.onDidChangeContent((e) => {
  const before = ws.openTexts.get(uriToPath(e.document.uri));
  ws.openTexts.set(uriToPath(e.document.uri), e.document.getText());
  if (before !== e.document.getText()) ws.bufferChanged(uriToPath(e.document.uri));
  // A config or localhost.yml edit changes the windows of other files: re-check everything.
  if (affectsWorkspace(e.document.uri) && before !== e.document.getText()) workspaceChanged(e.document.uri, debounce());
  folderChanged(e.document.uri, () => before, () => e.document.getText());
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
  const file = uriToPath(e.document.uri);
  const closedText = ws.openTexts.get(file);
  if (affectsWorkspace(e.document.uri)) {
    // The disk takes over again: only a buffer that differed from it changes anything.
    if (ws.setOpenText(file, undefined)) workspaceChanged(e.document.uri, 0);
  } else {
    ws.openTexts.delete(file);
    // The others saw the closed buffer's text; now they see the disk's.
    folderChanged(e.document.uri, () => closedText, () => readDisk(file));
  }
  if (!isConfigFile(e.document.uri) && init.clearDiagnosticsOnClose !== false) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

function debounce(): number {
  return debounceOf(normalizeSettings(settings, ruleIds).settings);
}

/** The analysis of the document's current version (re-analysed if a debounced run is pending). */
function current(uri: string): { doc: TextDocument; result: AnalyzeResult; config: ResolvedConfig } | undefined {
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
  return {
    range: d.range, severity: SEVERITY[d.severity], code: d.ruleId, codeDescription: { href: d.docsUrl },
    source: 'skewguard', message: d.message, data: d.data,
  };
}

connection.onHover((p) => {
  const c = current(p.textDocument.uri);
  if (!c) return null;
  const h = hover(c.result, c.doc.getText(), p.position);
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: h.range } : null;
});

connection.onCompletion((p) => {
  const c = current(p.textDocument.uri);
  if (!c) return [];
  const text = c.doc.getText();
  const lines = new LineIndex(text);
  return complete(c.result, text, p.position).map((i) => ({
    label: i.label,
    kind: i.kind === 'value' ? CompletionItemKind.Value : CompletionItemKind.Property,
    detail: i.detail,
    documentation: i.documentation ? { kind: MarkupKind.Markdown, value: i.documentation } : undefined,
    sortText: i.sortText,
    preselect: i.preselect,
    textEdit: { range: lines.range(i.replace.start, i.replace.end), newText: i.insertText },
  }));
});

const sameRange = (a: LspDiagnostic['range'], b: LspDiagnostic['range']) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

connection.onCodeAction((p) => {
  const c = current(p.textDocument.uri);
  if (!c) return [];
  const uri = p.textDocument.uri;
  const only = p.context.only;
  const wantsFixAll = !only || only.some((k) => FIX_ALL_KIND.startsWith(k) || k === CodeActionKind.SourceFixAll || k === CodeActionKind.Source);
  const wantsQuick = !only || only.some((k) => CodeActionKind.QuickFix.startsWith(k) || k === CodeActionKind.QuickFix);
  const actions: CodeAction[] = [];
  if (wantsQuick) {
    for (const d of c.result.diagnostics) {
      if (!d.fixes?.length) continue;
      const ctxDiag = p.context.diagnostics.find((x) => x.code === d.ruleId && sameRange(x.range, d.range));
      const overlaps = d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line;
      if (!ctxDiag && !overlaps) continue;
      for (const f of d.fixes) {
        actions.push({
          title: f.partial ? `${f.title} (partial)` : f.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [ctxDiag ?? toLsp(d)],
          isPreferred: !!f.preferred,
          edit: { changes: { [uri]: f.edits } },
        });
      }
    }
  }
  if (wantsFixAll) {
    const edits = fixAllEdits(c.result.diagnostics, c.doc);
    if (edits.length) {
      const kind = only?.includes(CodeActionKind.SourceFixAll) && !only.includes(FIX_ALL_KIND) ? CodeActionKind.SourceFixAll : FIX_ALL_KIND;
      actions.push({ title: 'Fix all auto-fixable skewguard problems', kind, edit: { changes: { [uri]: edits } } });
    }
  }
  return actions;
});

/** Preferred, complete fixes whose edits do not overlap. Nothing for a file that does not parse. */
function fixAllEdits(diags: Diagnostic[], doc: TextDocument) {
  if (diags.some((d) => d.ruleId === 'syntax/parse-error')) return [];
  const chosen: Array<{ start: number; end: number; edit: { range: LspDiagnostic['range']; newText: string } }> = [];
  for (const d of diags) {
    const f = d.fixes?.find((x) => x.preferred && !x.partial);
    if (!f) continue;
    const spans = f.edits.map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), edit: e }));
    if (spans.some((s) => chosen.some((c) => s.start < c.end && c.start < s.end || (s.start === c.start && s.end === c.end)))) continue;
    chosen.push(...spans);
  }
  return chosen.sort((a, b) => a.start - b.start).map((c) => c.edit);
}

connection.onRequest(ResolvedConfigRequest, (p: ResolvedConfigParams): ResolvedConfigResult => {
  const file = p.uri ? uriToPath(p.uri) : path.join(ws.roots[0] ?? process.cwd(), '.');
  const target = p.uri ? file : path.join(file, '__workspace__');
  const { config, loaded } = configFor(target, p.uri);
  const r = p.uri ? results.get(p.uri) : undefined;
  const lines = loaded ? new LineIndex(loaded.text) : undefined;
  const resolved = describeResolved(config);
  const k = resolved.kubernetes as { window: string; source: { kind: string } };
  const summary = `StarlingX ${config.starlingx.release.release} · Kubernetes ${k.window}${config.kata.window ? ` · Kata ${config.kata.window.from}..${config.kata.window.to}` : ''}`;
  return {
    resolved,
    family: r?.result.family ?? null,
    facts: r ? factsOf(r.result) : undefined,
    configProblems: (loaded?.problems ?? []).map((pr) => ({ file: loaded!.path, ...lines!.positionAt(pr.range.start), message: pr.message })),
    summary,
    settingsProblems: normalizeSettings((p.uri && docSettings.get(p.uri)) || settings, ruleIds).problems,
  };
});

/** Per-file facts for --print-config, the JSON report and the status bar. */
function factsOf(r: AnalyzeResult): Record<string, unknown> | undefined {
  if (r.persist) return { persistKind: r.persist.kind, eras: r.persist.eras().map((id) => ({ id, writtenBy: r.persist!.eraRange(id) })), kataWindow: r.persist.windowText };
  if (r.kata) return { kataFlavour: r.kata.flavour, kataFlavourSource: r.kata.flavourSource, kataWindow: r.kata.windowText };
  if (r.k8s) return { kubernetesWindow: r.k8s.windowText, objects: r.k8s.objects.length };
  if (r.stx) return { starlingxRelease: r.stx.release.release };
  return undefined;
}

documents.listen(connection);
connection.listen();
