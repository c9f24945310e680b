// Open, edited and closed documents (textDocument/didOpen, didChange, didClose), and what a change means for the other
// files: a .skewguard.yaml or localhost.yml buffer sets no other file's window (issue #27 item 1: they apply as saved,
// the watcher's change re-checks), a manifest may be a CRD, a file of a group (a chart's) is checked with the others. A folder's static
// pods are read from the disk too (watched-files.ts re-checks the folder when one is saved).
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { ConfigChangedNotification } from '../shared/protocol';
import { internalDiagnostic, logFailure } from './failures';
import { analysedWithCurrentConfig, debounce, pullDocSettings } from './config-for';
import { limiter, publishConfigProblems } from './publishing';
import { scheduler, schedule } from './diagnostics';
import { forgetParsed, forgetHeld } from '../engine/parse/yaml';
import { documentOpened, documentEdited, documentClosed } from './memory';
import { publishedClosed, recheckClosed, recheckInTurns, cancelOpenRechecks } from './recheck';
import {
  connection, documents, init, canPullConfig, ws, files, results, pendingFailures, timers, docSettings, services, uriToPath,
  isConfigFile, affectsWorkspace,
} from './session';

/**
 * A file's effective text changed for the root indexes that follow open buffers (RootIndex.edited: the CRD index, a CRD
 * or the custom groups a file uses): when one was built and this changes it, the other open files are checked again.
 * undefined: the disk's.
 */
function rootIndexesEdited(uri: string, text: string | undefined, before?: string): void {
  if (!ws.around.edited(uriToPath(uri), text, before)) return;
  for (const d of documents.all()) if (d.uri !== uri) schedule(d, debounce());
  recheckClosed();
}

export function revalidateAll(inTurns = false): void {
  ws.invalidateAll();
  for (const s of services) s.reset?.();
  if (inTurns) recheckInTurns(documents.all().map((d) => d.uri));
  else { cancelOpenRechecks(); for (const d of documents.all()) schedule(d, 0); }
  recheckClosed();
  publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

/**
 * A file of a group changed (a family's server side says which files are checked together: a Helm chart's, whose
 * template defines, values.yaml and Chart.yaml the others render with): the group's other open files are checked
 * again. Open documents count as files.
 */
function groupChanged(uri: string): void {
  for (const s of services) {
    const dir = s.groupOf?.(uriToPath(uri), (p) => ws.openTexts.has(p) || existsSync(p));
    if (!dir) continue;
    const prefix = dir + path.sep;
    for (const d of documents.all()) if (d.uri !== uri && uriToPath(d.uri).startsWith(prefix)) schedule(d, debounce());
  }
}

/** A failure in the workspace bookkeeping around a document: reported with the document's next analysis. */
function workspaceFailure(uri: string, e: unknown): void {
  logFailure('workspace', uri, e);
  pendingFailures.set(uri, [...(pendingFailures.get(uri) ?? []), internalDiagnostic('workspace', e)]);
}

/**
 * A .skewguard.yaml or bootstrap (localhost.yml) buffer opened, edited or closed (undefined): only its own analysis
 * changes (a configuration's problems; a bootstrap file's diagnostics, scheduled as any document's). The windows, rules
 * and ignore: lists of other files come from the saved file (issue #27 item 1), re-read when the watcher says it
 * changed; the client asks the status again (it says an unsaved buffer that would apply).
 */
function bufferOnlyChanged(uri: string, file: string, text: string | undefined): void {
  if (affectsWorkspace(uri)) {
    // Whether it differs from the disk only matters to the unsaved note (the status items are told): a buffer equal to
    // the disk says nothing (lsp-lint opens thousands of localhost.yml files).
    const changed = ws.setOpenText(file, text);
    if (changed) void connection.sendNotification(ConfigChangedNotification, {});
    return;
  }
  if (text === undefined) ws.openTexts.delete(file); else ws.openTexts.set(file, text);
  publishConfigProblems();
  void connection.sendNotification(ConfigChangedNotification, {});
}

export function registerDocumentSync(): void {
  documents.onDidOpen((e) => {
    const file = uriToPath(e.document.uri);
    publishedClosed.delete(e.document.uri);
    documentOpened(e.document.getText().length);
    try {
      // A configuration or bootstrap buffer counts only for its own analysis (lsp-lint opens thousands of localhost.yml files).
      if (isConfigFile(e.document.uri) || affectsWorkspace(e.document.uri)) bufferOnlyChanged(e.document.uri, file, e.document.getText());
      else { ws.openTexts.set(file, e.document.getText()); rootIndexesEdited(e.document.uri, e.document.getText()); }
      files.opened(file, e.document.getText());
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
      // (didOpen fires this too, with the text it just set)
      if (before !== undefined && before !== e.document.getText()) documentEdited(e.document.getText().length);
      ws.openTexts.set(uriToPath(e.document.uri), e.document.getText());
      if (before !== e.document.getText()) ws.bufferChanged(uriToPath(e.document.uri));
      files.edited(before, e.document.getText());
      if (before !== e.document.getText()) { groupChanged(e.document.uri); rootIndexesEdited(e.document.uri, e.document.getText()); }
      // A localhost.yml or .skewguard.yaml edit changes only its own analysis: it applies to other files once saved.
      if ((affectsWorkspace(e.document.uri) || isConfigFile(e.document.uri)) && before !== e.document.getText()) bufferOnlyChanged(e.document.uri, uriToPath(e.document.uri), e.document.getText());
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
    // Its parsed documents leave the parse cache (kept for the keystrokes of open files): the cache's budget counts
    // their text, and a bundle's CRDs parsed are ten times their text, kept after the file was closed (a server that had
    // opened and closed a few 12 MB bundles held 200 MB more than one that had not).
    const closedBuffer = e.document.getText();
    forgetClosedParse(e.document.uri, e.document.version, closedBuffer);
    results.delete(e.document.uri);
    docSettings.delete(e.document.uri);
    pendingFailures.delete(e.document.uri);
    limiter.forget(e.document.uri);
    scheduler.forget(e.document.uri);
    forgetHeld(uriToPath(e.document.uri));
    // A big file's analysis is garbage now: collected before the next one grows the heap further (memory.ts).
    documentClosed(closedBuffer.length);
    const file = uriToPath(e.document.uri);
    const closedText = ws.openTexts.get(file);
    try {
      if (isConfigFile(e.document.uri) || affectsWorkspace(e.document.uri)) bufferOnlyChanged(e.document.uri, file, undefined);
      else {
        ws.openTexts.delete(file);
        files.closed(file, closedText);
        // lsp-lint opens each file with the text it read from the disk: one it never changed (no --fix) leaves the disk's
        // text behind, which the root indexes already hold (reading it again cost 3% of a 10,000-file run's servers).
        if (!(init.cli && e.document.version === 1)) rootIndexesEdited(e.document.uri, undefined, closedText);
      }
    } catch (err) { logFailure('workspace', e.document.uri, err); } // the document is gone: the log says it
    if (!isConfigFile(e.document.uri) && init.clearDiagnosticsOnClose !== false) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
}

/**
 * A closed document's parsed documents leave the parse cache. Its last analysis's parse names them when it read this
 * text whole (lsp-lint's every file): they are not cut from the text again. A function of its own, so that nothing of
 * that analysis is still on the stack when the full collection after a big file's close runs (memory.ts): a local
 * holding it kept a 12 MB bundle's parse alive through that collection (the next open peaked 125 MB higher).
 */
function forgetClosedParse(uri: string, version: number, text: string): void {
  const last = results.get(uri);
  const parsed = last?.version === version ? last.result.yaml : undefined;
  forgetParsed(text, [], parsed?.text === text ? parsed : undefined);
}
