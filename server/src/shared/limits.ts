// Limits shared by the engine, the language server and lsp-lint (a leaf module: lsp-lint uses it without the engine).

/** Files above this size are not analysed (skewguard/skipped-file); lsp-lint reads at most one byte more. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The text a binary or over-size file is handed to the server as (lsp-lint and the editor's re-checks of closed files
 * alike): only what the analysis needs to see that, the first NUL byte or a text over the limit. The server then says
 * "not checked" (skewguard/skipped-file, at the severity the configuration gives it), never a clean file.
 */
export function skippedFileText(head: Uint8Array | undefined, over: boolean): string {
  if (over || !head) return ' '.repeat(MAX_FILE_BYTES + 1);
  // Latin-1, one character per byte (no Buffer: this module is in the web build too).
  let text = '';
  for (let i = 0, n = Math.min(head.length, 8192); i < n; i++) text += String.fromCharCode(head[i]);
  return text;
}
