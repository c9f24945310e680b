// The web extension's client (package.json "browser"; github.dev, vscode.dev, a browser's web worker extension host):
// runs the same language server, built for a web worker (dist/web/server.js, server/src/server/browser.ts). The
// worker has no file system, so this client reads the workspace's files with vscode.workspace.fs and hands them over
// (server/src/shared/protocol.ts WebFilesNotification): every file's path, and the contents of the files cross-file facts come from
// (.skewguard.yaml, localhost.yml, a manifest's folder, a chart's files, containerd configs). Changes are handed over
// as they happen, then said with workspace/didChangeWatchedFiles, as the desktop client's watchers do.
import * as vscode from 'vscode';
import { LanguageClient, BrowserMessageReader, BrowserMessageWriter, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageclient';
import {
  ConfigChangedNotification, WebFilesNotification, type InitializationOptions, type WebFile, type WebFilesParams,
} from '../../server/src/shared/protocol';
import { ALWAYS_SKIPPED_FOLDERS, CONFIG_FILENAMES } from '../../server/src/shared/names';
import { registerWindowView } from './window-view';
import { documentSelector } from './selector';
import { registerWindow } from './window';
import { registerStatus } from './status';
import { registerWebDocs, WEB_SHOW_DOCS } from './web-docs';
import { anyServedExtension } from '../../server/src/shared/served';

let client: LanguageClient | undefined;
let serverWorkerNow: ServerWorker | undefined;
/** A web worker (this file is type-checked with Node's types, not the DOM's). */
type ServerWorker = ConstructorParameters<typeof BrowserMessageReader>[0] & { terminate(): void };
declare const Worker: new (url: string) => ServerWorker;

/** Files whose contents the server may read (cross-file facts); others are listed by path only. */
// The extensions the families serve (engine/served.ts, put in by the build), wherever they are: read for facts.
const READ_EXT = new Set(anyServedExtension());
const isRead = (p: string) => { const n = p.slice(p.lastIndexOf('/') + 1); const d = n.lastIndexOf('.'); return d >= 0 && READ_EXT.has(n.slice(d).toLowerCase()); };
/** Bounds of what is handed over: per file (the desktop server reads workspace files up to 512 KiB for facts) and in all. */
const FILE_MAX = 512 * 1024;
const TOTAL_MAX = 32 * 1024 * 1024;
const COUNT_MAX = 20000;
const EXCLUDE = `**/{${ALWAYS_SKIPPED_FOLDERS.join(',')}}/**`;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const out = vscode.window.createOutputChannel('skewguard', { log: true });
  context.subscriptions.push(out);
  const t0 = Date.now();
  const budget = { bytes: 0 };
  const uris = await vscode.workspace.findFiles('**/*', EXCLUDE, COUNT_MAX);
  const files = await Promise.all(uris.map((u) => readForServer(u, budget)));
  out.info(`skewguard (web): ${files.length} workspace files listed, ${files.filter((f) => f.text !== undefined || f.base64 !== undefined).length} read (${budget.bytes} bytes) in ${Date.now() - t0} ms${uris.length >= COUNT_MAX ? `; the listing stopped at ${COUNT_MAX} files` : ''}`);

  const clientOptions: LanguageClientOptions = {
    // Any scheme: vscode-vfs (github.dev), vscode-remote, file, untitled.
    documentSelector: documentSelector(),
    synchronize: { configurationSection: 'skewguard' },
    diagnosticCollectionName: 'skewguard',
    outputChannel: out,
    initializationOptions: {
      showSettingsProblems: true,
      // Helm is never run in the browser (the server's web build has no Helm), trusted or not.
      workspaceTrusted: false,
      // The "Show documentation for <rule>" code action runs this client's command (client/src/web-docs.ts).
      clientCommands: [WEB_SHOW_DOCS],
      webFiles: { files } satisfies WebFilesParams,
    } satisfies InitializationOptions & { webFiles: WebFilesParams },
  };
  // A new worker for each start (a restart ends the old one); the transports made here, not by the library, whose
  // `instanceof Worker` test fails for the extension host's Worker wrapper.
  client = new LanguageClient('skewguard', 'skewguard', async () => {
    serverWorkerNow?.terminate();
    const worker = (serverWorkerNow = await serverWorker(context));
    return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker), detached: false };
  }, clientOptions);

  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const changed = async (uri: vscode.Uri, type: FileChangeType) => {
    if (!client?.isRunning() || /[\\/](\.git|node_modules)[\\/]/.test(uri.path)) return;
    const params: WebFilesParams = type === FileChangeType.Deleted ? { files: [], removed: [uri.toString()] } : { files: [await readForServer(uri, { bytes: 0 })] };
    await client.sendNotification(WebFilesNotification, params);
    await client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri.toString(), type }] });
  };
  // A change not handed over (the server stopping meanwhile) is said in the output, not left as an unhandled rejection.
  const lost = (uri: vscode.Uri) => (e: unknown) => out.warn(`skewguard (web): the change of ${uri.toString()} was not handed to the server: ${(e as Error)?.message ?? String(e)}`);
  context.subscriptions.push(
    watcher,
    watcher.onDidCreate((u) => void changed(u, FileChangeType.Created).catch(lost(u))),
    watcher.onDidChange((u) => void changed(u, FileChangeType.Changed).catch(lost(u))),
    watcher.onDidDelete((u) => void changed(u, FileChangeType.Deleted).catch(lost(u))),
    vscode.commands.registerCommand('skewguard.restartServer', async () => { await client?.stop(); await client?.start(); void refreshStatus(); }),
  );
  // As the desktop client: the status item with the active file's window and its menu, the resolved window as a
  // read-only document titled for its file (client/src/window.ts), the rule pages.
  registerWebDocs(context);
  let refreshStatus: () => Promise<void> = async () => undefined;
  const windowUi = registerWindow(context, () => client as never, () => void refreshStatus(), { anyScheme: true });
  refreshStatus = registerStatus(context, (uri) => windowUi.resolvedFor(uri), () => []);
  context.subscriptions.push(
    vscode.commands.registerCommand('skewguard.showResolvedWindow', windowUi.showResolved),
    vscode.window.onDidChangeActiveTextEditor(() => void refreshStatus()),
  );
  await client.start();
  registerWindowView(context, client);
  context.subscriptions.push(client.onNotification(ConfigChangedNotification, () => void refreshStatus()));
  void refreshStatus();
}

/**
 * The web worker running the server. An extension installed on a remote (code-server, a remote's web client) has a
 * vscode-remote: location, from which VS Code's extension host does not start workers: the script is read through
 * the file system API and started from a blob: URL instead.
 */
async function serverWorker(context: vscode.ExtensionContext): Promise<ServerWorker> {
  const uri = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  if (uri.scheme !== 'vscode-remote') return new Worker(uri.toString(true));
  const bytes = await vscode.workspace.fs.readFile(uri);
  return new Worker(URL.createObjectURL(new Blob([bytes], { type: 'application/javascript' })));
}

/** A workspace file for the server: its text (or bytes, for archives) when it may hold facts and fits the budget. */
async function readForServer(uri: vscode.Uri, budget: { bytes: number }): Promise<WebFile> {
  const id = uri.toString();
  if (!isRead(uri.path) && !CONFIG_FILENAMES.some((n) => uri.path.endsWith(`/${n}`))) return { uri: id, size: 0, why: 'the web extension reads only YAML, JSON, TOML, template and .tgz files of the workspace' };
  try {
    // The size first: a file over the bounds is not read at all (not read whole to be dropped).
    const size = (await vscode.workspace.fs.stat(uri)).size;
    if (size > FILE_MAX) return { uri: id, size, why: `over ${FILE_MAX / 1024} KiB: the web extension does not read it for facts` };
    if (budget.bytes + size > TOTAL_MAX) return { uri: id, size, why: `the web extension reads at most ${TOTAL_MAX / 1048576} MiB of workspace files` };
    budget.bytes += size;
    const bytes = await vscode.workspace.fs.readFile(uri);
    // Changed since the stat: the bounds hold for what was read.
    budget.bytes += bytes.byteLength - size;
    if (bytes.byteLength > FILE_MAX) return { uri: id, size: bytes.byteLength, why: `over ${FILE_MAX / 1024} KiB: the web extension does not read it for facts` };
    if (/\.tgz$/i.test(uri.path)) {
      let bin = '';
      for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
      return { uri: id, size: bytes.byteLength, base64: btoa(bin) };
    }
    // ignoreBOM: the byte order mark stays, as Node's readFileSync keeps it (the server strips it where it should).
    return { uri: id, size: bytes.byteLength, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  } catch (e) {
    return { uri: id, size: 0, why: `cannot read it: ${(e as Error)?.message ?? String(e)}` };
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  serverWorkerNow?.terminate();
}
