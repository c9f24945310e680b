// Open, edited and closed documents (textDocument/didOpen, didChange, didClose), and what a change means for the other
// files: a .skewguard.yaml or localhost.yml sets windows (everything is checked again), a manifest may be a CRD or a
// folder's static pod, a chart's file renders with the others.
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { ConfigChangedNotification } from '../shared/protocol';
import { chartRootOf } from './helm-render';
import { readDisk } from './workspace';
import { internalDiagnostic, logFailure } from './failures';
import { analysedWithCurrentConfig, debounce, pullDocSettings } from './config-for';
import { limiter, publishConfigProblems } from './publishing';
import { scheduler, schedule } from './diagnostics';
import { publishedClosed, recheckClosed, recheckInTurns, cancelOpenRechecks } from './recheck';
import {
  connection, documents, init, canPullConfig, ws, files, results, pendingFailures, timers, docSettings, helm, uriToPath,
  isConfigFile, affectsWorkspace,
} from './session';

/**
 * A file's effective text changed for the workspace's CRD index (server/crd-index.ts: a CRD, or the custom groups a
 * file uses): when the index was built and this changes it, the other open files are checked again. undefined: the disk's.
 */
function crdIndexChanged(uri: string, text: string | undefined, before?: string): void {
  if (!ws.crdsChanged(uriToPath(uri), text, before)) return;
  for (const d of documents.all()) if (d.uri !== uri) schedule(d, debounce());
  recheckClosed();
}

/** A config file or localhost.yml's effective text changed: forget the workspace facts, re-check the other open files. */
function workspaceChanged(uri: string, delay: number): void {
  ws.invalidate();
  for (const d of documents.all()) if (d.uri !== uri) schedule(d, delay);
  recheckClosed();
  if (isConfigFile(uri)) publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

export function revalidateAll(inTurns = false): void {
  ws.invalidateAll();
  helm.reset();
  if (inTurns) recheckInTurns(documents.all().map((d) => d.uri));
  else { cancelOpenRechecks(); for (const d of documents.all()) schedule(d, 0); }
  recheckClosed();
  publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

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

/**
 * A .skewguard.yaml buffer opened, edited or closed (undefined): only its own problems change. The windows, rules and
 * ignore: lists of other files come from the saved file (issue #27 item 1), re-read when the watcher says it changed.
 */
function configBufferChanged(file: string, text: string | undefined): void {
  if (text === undefined) ws.openTexts.delete(file); else ws.openTexts.set(file, text);
  publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

export function registerDocumentSync(): void {
  documents.onDidOpen((e) => {
    const file = uriToPath(e.document.uri);
    publishedClosed.delete(e.document.uri);
    try {
      if (isConfigFile(e.document.uri)) configBufferChanged(file, e.document.getText());
      else if (affectsWorkspace(e.document.uri)) {
        // Open documents win over the disk. A buffer equal to the file on disk changes no other file's window (lsp-lint
        // opens thousands of localhost.yml files this way); a different one is an edit and re-checks everything.
        if (ws.setOpenText(file, e.document.getText())) workspaceChanged(e.document.uri, 0);
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
      // A localhost.yml edit changes the windows of other files: re-check everything. A .skewguard.yaml edit changes only
      // its own problems (it applies once saved).
      if (affectsWorkspace(e.document.uri) && before !== e.document.getText()) workspaceChanged(e.document.uri, debounce());
      else if (isConfigFile(e.document.uri) && before !== e.document.getText()) configBufferChanged(uriToPath(e.document.uri), e.document.getText());
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
      if (isConfigFile(e.document.uri)) configBufferChanged(file, undefined);
      else if (affectsWorkspace(e.document.uri)) {
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
}
