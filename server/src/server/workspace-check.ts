// "Check whole workspace" and "Fix all in workspace" (palette commands): the files lsp-lint would check in each
// workspace folder (the same walk, cli/files.ts: .gitignore, always-skipped folders; ignore: as everywhere, in the
// check itself), checked by this server with their diagnostics published (the Problems panel), or their fix-all edits
// returned as one workspace edit. Open buffers win over the disk. Bounded: at most MAX_FILES files, said when cut.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection, TextEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { collectFiles } from '../cli/files';
import { MAX_FILE_BYTES, skippedFileText } from '../shared/limits';
import { readFileUpTo } from '../shared/bounded-read';
import type { WorkspaceState } from './workspace';
import type { Diagnostic } from '../engine/types';
import { CheckWorkspaceRequest, FixAllWorkspaceRequest, type WorkspaceCheckResult } from '../shared/protocol';

export const MAX_FILES = 5000;

/** A checked file: its number of findings, and fix-all's edits with the findings it left alone under a default window (fix-window.ts). */
export interface CheckedFile { diagnostics: number; fixAll: () => { edits: TextEdit[]; held: Array<{ d: Diagnostic; reason: string }> } }
/** How many not-fixed lines the answer holds at most. */
export const MAX_NOT_FIXED = 200;

/**
 * A workspace file's text as the workspace check reads it (size limit, binary files), or why it is not read. A binary
 * or over-size file also has `skipped`: the text lsp-lint hands the server for it (shared/limits.ts skippedFileText),
 * whose analysis is the "not checked" note lsp-lint reports; the editor publishes the same.
 */
export function readWorkspaceFile(f: string): { text: string } | { reason: string; skipped?: string } {
  try {
    // Bounded whatever stat says (a file stat calls regular may read without end).
    const r = readFileUpTo(f, MAX_FILE_BYTES);
    if ('over' in r) return { reason: `over ${MAX_FILE_BYTES} bytes`, skipped: skippedFileText(undefined, true) };
    if (!('bytes' in r)) return { reason: r.notFile ? `${r.notFile}, not a regular file` : r.message };
    const buf = r.bytes;
    if (buf.subarray(0, 8192).includes(0)) return { reason: 'binary', skipped: skippedFileText(buf, false) };
    return { text: buf.toString('utf8').replace(/^\uFEFF/, '') };
  } catch (e) { return { reason: (e as Error).message }; }
}

export function registerWorkspaceCommands(
  connection: Connection, ws: () => WorkspaceState, check: (uri: string, text: string) => CheckedFile | undefined, open: (uri: string) => TextDocument | undefined,
): void {
  const run = (fix: boolean): WorkspaceCheckResult => {
    const roots = ws().roots;
    const walked = roots.map((r) => collectFiles([r], r, [], false));
    const found = walked.flatMap((c) => c.files);
    const files = found.slice(0, MAX_FILES);
    const out: WorkspaceCheckResult = { files: 0, withFindings: 0, notChecked: [], ...(found.length > MAX_FILES ? { truncated: `only the first ${MAX_FILES} of ${found.length} files were checked; use lsp-lint for the rest` } : {}) };
    // A folder the walk could not list holds files that are not checked: said, as lsp-lint says it.
    for (const u of walked.flatMap((c) => c.unreadable)) out.notChecked.push(`${path.relative(roots[0] ?? '', u.path) || '.'}/: folder not read (${u.reason})`);
    // Symbolic links the walk did not follow (a loop, one leading outside the folder, a missing target): said in
    // lsp-lint's words, never passed over.
    for (const l of walked.flatMap((c) => c.links)) out.notChecked.push(`${path.relative(roots[0] ?? '', l.path) || '.'}: ${l.reason}`);
    if (fix) out.changes = {};
    for (const f of files) {
      const uri = pathToFileURL(f).toString();
      let text = open(uri)?.getText();
      if (text === undefined) {
        const read = readWorkspaceFile(f);
        if ('reason' in read) {
          out.notChecked.push(`${path.relative(roots[0] ?? '', f)}: ${read.reason}`);
          // A binary or over-size file: its "not checked" note is published too, as lsp-lint reports it.
          if (read.skipped !== undefined) check(uri, read.skipped);
          continue;
        }
        text = read.text;
      }
      const r = check(uri, text);
      if (!r) continue;
      out.files++;
      if (r.diagnostics) out.withFindings++;
      if (fix) {
        const { edits, held } = r.fixAll();
        if (edits.length) out.changes![uri] = edits;
        for (const h of held) {
          out.notFixedCount = (out.notFixedCount ?? 0) + 1;
          if ((out.notFixed ??= []).length < MAX_NOT_FIXED) out.notFixed.push(`${path.relative(roots[0] ?? '', f)}:${h.d.range.start.line + 1}: ${h.d.ruleId}: not fixed: ${h.reason}`);
        }
      }
    }
    return out;
  };
  connection.onRequest(CheckWorkspaceRequest, () => run(false));
  connection.onRequest(FixAllWorkspaceRequest, () => run(true));
}
