// The steps of each checked file's window, as the server said them with the file's facts (FileFactsParams.steps),
// for the html and markdown reports' files × steps matrix; and the steps each finding concerns (its data's `steps`).
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';

const byFile = new Map<string, readonly string[]>();

export function recordWindowSteps(uri: string, steps: readonly string[] | undefined): void {
  if (!steps?.length) return;
  try { byFile.set(fileURLToPath(uri), steps); } catch { /* not a file URI: no matrix row */ }
}

/** The window's steps of a file checked in this run (undefined: the server gave none, e.g. a file of no family). */
export function windowStepsOf(file: string): readonly string[] | undefined { return byFile.get(file); }

/** Sets a file's steps (reports read back from JSON, tests). */
export function setWindowSteps(file: string, steps: readonly string[]): void { byFile.set(file, steps); }

/**
 * The steps of `window` a finding concerns: its data's `steps` when that is a non-empty list of version strings of
 * the window; else every step (a finding that names no step of this window is about the file whatever the step).
 */
export function stepsOfFinding(d: Diagnostic, window: readonly string[]): readonly string[] {
  const s = (d.data as { steps?: unknown } | undefined)?.steps;
  if (Array.isArray(s) && s.length && s.every((x) => typeof x === 'string')) {
    const inWindow = window.filter((w) => (s as string[]).includes(w));
    if (inWindow.length) return inWindow;
  }
  return window;
}
