// Re-checks that run in the background, in one queue: open documents after a watched-file batch (one per turn of the
// event loop: a hover is answered between two), and the files this server published while they were not open (Check
// whole workspace, Fix all in workspace), RECHECK_SLICE per turn. setTimeout, not setImmediate: a web worker has none.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readWorkspaceFile } from './workspace-check';
import { logFailure } from './failures';
import { validate, validateStages } from './diagnostics';
import { connection, documents, results, timers, shutdownRequested, uriToPath } from './session';

/**
 * Files that are not open whose diagnostics this server published (Check whole workspace, Fix all in workspace). When
 * the configuration, the settings, a workspace fact or the data change, they are checked again from the disk (as ESLint
 * does), in slices so that the editor's requests are answered meanwhile; one that cannot be read any more is cleared.
 * Nothing in the Problems panel keeps an old window.
 */
export const publishedClosed = new Set<string>();
const RECHECK_SLICE = 25;

/** What waits to be checked again, in order: an open document (`open`) or a file published while closed. */
let queue: Array<{ uri: string; open: boolean }> = [];
let running = false;

/** Open documents checked again one per turn (a watched-file batch); a newer batch replaces the open ones still queued. */
export function recheckInTurns(uris: string[]): void {
  queue = queue.filter((e) => !e.open).concat(uris.map((uri) => ({ uri, open: true })));
  drain();
}

/** The open documents still queued are left out: they are checked now, by the caller. */
export function cancelOpenRechecks(): void {
  queue = queue.filter((e) => !e.open);
}

/**
 * The files published while closed checked again: all of them (a newer change restarts the whole list), or only
 * those of `only` (beside a whole run).
 */
export function recheckClosed(only?: string[]): void {
  const uris = only ? only.filter((u) => publishedClosed.has(u)) : [...publishedClosed];
  if (!uris.length) return;
  if (!only) queue = queue.filter((e) => e.open);
  for (const uri of uris) queue.push({ uri, open: false });
  drain();
}

function drain(): void {
  if (running || !queue.length) return;
  running = true;
  setTimeout(turn, 0);
}

/** One turn: one open document, or up to RECHECK_SLICE closed files. */
function turn(): void {
  if (shutdownRequested) { queue = []; running = false; return; }
  let closed = 0;
  while (queue.length && closed < RECHECK_SLICE) {
    const { uri, open } = queue.shift()!;
    if (!open) { checkClosedAgain(uri); closed++; continue; }
    const d = documents.get(uri);
    // A document with its own debounced run pending (an edit) is left to it.
    if (d && !timers.has(uri)) { validate(d); break; }
  }
  if (queue.length) setTimeout(turn, 0);
  else running = false;
}

function checkClosedAgain(uri: string): void {
  // Opened meanwhile: the open document is checked as such.
  if (documents.get(uri) || !publishedClosed.has(uri)) { publishedClosed.delete(uri); return; }
  const read = readWorkspaceFile(uriToPath(uri));
  // Grown past the size limit or turned binary: said "not checked", as lsp-lint says it; gone or unreadable: cleared.
  const text = 'text' in read ? read.text : read.skipped;
  if (text === undefined) { publishedClosed.delete(uri); void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined); return; }
  try {
    validateStages(TextDocument.create(uri, 'plaintext', 0, text));
  } catch (e) { logFailure('workspace', uri, e); }
  results.delete(uri);
}
