// The editor's server's memory policy for big files (lsp-lint's server analyses each file once and keeps V8's
// defaults; so does the web build, where there are no V8 flags).
//
// - Keystrokes in a big file: the heap grows slowly (--heap-growing-percent=100: a full collection once the old
//   generation has doubled since the last one; V8's own factor lets it grow to about 4 times the live heap). Each
//   keystroke makes the document's new text (the LSP library applies a change to a copy of the whole text: 3.5 MB for
//   the 12,000-document bundle of #18) and the minor collections move it to the old generation, where it stays until a
//   full collection: on that bundle the server grew to 330 MB with a 60 MB live heap, 240 MB with this.
// - A big file opened: V8's own factor again. Its first check makes a lot of short-lived garbage (the parse, the
//   findings), and the slow growth made it collect the old generation again and again: 30-40% of the first check of
//   a 4 MB manifest on a running server (#29).
// - A big file closed: a full collection. V8 otherwise grows its heap for the next big file instead of first
//   collecting what the closed one left: a server that opened one 12 MB bundle after another peaked 150 MB higher on
//   the second than on the first.
// - A big file's first check (up to HUGE_DOCUMENT_CHARS) runs without incremental marking, until the next edit or
//   close. The check made V8 start marking the old generation incrementally near its end, and the collection at close
//   then made two full collections instead of one: V8 first finishes the marking it started (while the file's
//   analysis was still alive, so it frees little), then makes the one asked for. Without it a full collection during
//   the check is one atomic pause, and the close makes one collection. On a running server, the median didOpen →
//   checked whole of 5,000-document manifests fell 7-14% (synthetic 380 → 330 ms, real-shaped 408 → 379 ms, CRLF
//   492 → 425 ms), with the same peak RSS. A huge file (a CRD bundle) keeps it: without it, no faster and 17 MB
//   more at peak. Edits get it back at once: it keeps keystrokes' pauses short.
// The flags are set at run time (Node does not freeze V8's flags after start-up; the growing factor is read at each
// full collection). `gc` is taken from a new context made after --expose-gc is set, on first use.
import * as vm from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** A document this big (characters) is a big file for the policy. */
export const BIG_DOCUMENT_CHARS = 1024 * 1024;
/**
 * A document this big is checked whole with the heap growing slowly too: its analysis holds several times its text
 * (a CRD bundle's schemas parsed are ten times it), and V8's factor took a running server that opened one 11.7 MB
 * bundle after another to 350 MB (#29's goal is 300), against 300 MB with the slow one.
 */
export const HUGE_DOCUMENT_CHARS = 8 * 1024 * 1024;

let enabled = false;
let slowGrowth = false;
/** Incremental marking is off (a big file's first check). */
let atomicMarking = false;
let collect: (() => void) | null | undefined;

function flag(f: string): boolean {
  try { setFlagsFromString(f); return true; } catch { return false; } // a runtime without V8 flags: its default
}

/** The editor's server: the policy applies (called at initialize; lsp-lint's server does not). */
export function enableEditorMemoryPolicy(): void {
  enabled = true;
  flag('--expose-gc');
}

/** A document of this size was edited. */
export function documentEdited(chars: number): void {
  if (!enabled) return;
  incrementalMarking();
  if (chars > BIG_DOCUMENT_CHARS) setSlowGrowth();
}

/** A document of this size was opened. */
export function documentOpened(chars: number): void {
  if (!enabled || chars <= BIG_DOCUMENT_CHARS) return;
  if (chars > HUGE_DOCUMENT_CHARS) { incrementalMarking(); setSlowGrowth(); return; }
  if (slowGrowth && flag('--heap-growing-percent=0')) slowGrowth = false;
  if (!atomicMarking) atomicMarking = flag('--no-incremental-marking');
}

/** Incremental marking back on (V8's default). */
function incrementalMarking(): void {
  if (atomicMarking && flag('--incremental-marking')) atomicMarking = false;
}

function setSlowGrowth(): void {
  if (slowGrowth) return;
  slowGrowth = flag('--heap-growing-percent=100');
  // The heap's limit was set by the last full collection, with V8's factor (the first check's): one now sets it by
  // the slow one, else the keystrokes grow the heap to the old limit first (the #18 bundle: 300 MB instead of 220).
  if (slowGrowth) collectGarbage();
}

/** A document of this size was closed. */
export function documentClosed(chars: number): void {
  if (!enabled || chars <= BIG_DOCUMENT_CHARS) return;
  collectGarbage();
  incrementalMarking();
}

/** Whether keystrokes' slow growth is on (tests). */
export function slowHeapGrowth(): boolean { return slowGrowth; }

/** Whether incremental marking is off (tests). */
export function atomicHeapMarking(): boolean { return atomicMarking; }

function collectGarbage(): void {
  if (collect === undefined) {
    try {
      const g: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null');
      collect = typeof g === 'function' ? (g as () => void) : null;
    } catch { collect = null; }
  }
  collect?.();
}
