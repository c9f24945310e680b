// Limits shared by the engine, the language server and lsp-lint (a leaf module: lsp-lint uses it without the engine).

/** Files above this size are not analysed (skewguard/skipped-file); lsp-lint reads at most one byte more. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
