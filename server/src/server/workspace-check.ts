// "Check whole workspace" and "Fix all in workspace" (palette commands): the files lsp-lint would check in each
// workspace folder (the same walk, cli/files.ts: .gitignore, always-skipped folders; ignore: as everywhere, in the
// check itself), checked by this server with their diagnostics published (the Problems panel), or their fix-all edits
// returned as one workspace edit. Open buffers win over the disk. Bounded: at most MAX_FILES files, said when cut.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection, TextEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { collectFiles } from '../cli/files';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readFileUpTo } from '../shared/bounded-read';
import type { WorkspaceState } from './workspace';

export const CheckWorkspaceRequest = 'skewguard/checkWorkspace';
export const FixAllWorkspaceRequest = 'skewguard/fixAllWorkspace';
export const MAX_FILES = 5000;

export interface CheckedFile { diagnostics: number; edits: () => TextEdit[] }
export interface WorkspaceCheckResult { files: number; withFindings: number; notChecked: string[]; truncated?: string; changes?: Record<string, TextEdit[]> }

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
    if (fix) out.changes = {};
    for (const f of files) {
      const uri = pathToFileURL(f).toString();
      let text = open(uri)?.getText();
      if (text === undefined) {
        // Bounded whatever stat says (a file stat calls regular may read without end).
        const r = readFileUpTo(f, MAX_FILE_BYTES);
        if ('over' in r) { out.notChecked.push(`${path.relative(roots[0] ?? '', f)}: over ${MAX_FILE_BYTES} bytes`); continue; }
        if (!('bytes' in r)) { out.notChecked.push(`${path.relative(roots[0] ?? '', f)}: ${r.notFile ? `${r.notFile}, not a regular file` : r.message}`); continue; }
        const buf = r.bytes;
        if (buf.subarray(0, 8192).includes(0)) { out.notChecked.push(`${path.relative(roots[0] ?? '', f)}: binary`); continue; }
        text = buf.toString('utf8').replace(/^\uFEFF/, '');
      }
      const r = check(uri, text);
      if (!r) continue;
      out.files++;
      if (r.diagnostics) out.withFindings++;
      if (fix) { const edits = r.edits(); if (edits.length) out.changes![uri] = edits; }
    }
    return out;
  };
  connection.onRequest(CheckWorkspaceRequest, () => run(false));
  connection.onRequest(FixAllWorkspaceRequest, () => run(true));
}
