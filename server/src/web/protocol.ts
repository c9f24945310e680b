// The web extension's own LSP extension: the client (client/src/browser.ts) reads the workspace's files with
// vscode.workspace.fs and hands them to the server in the web worker, which has no file system
// (server/src/web/shims/fs.ts). Sent in initializationOptions.webFiles, then as a notification for each change
// (followed by workspace/didChangeWatchedFiles, so the server re-reads and re-checks as on the desktop).
export { WebFilesNotification, type WebFile, type WebFilesParams } from '../shared/protocol';

/** A document URI's path as the server sees it (the same conversion as the server's uriToPath). */
export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) { try { return decodeURIComponent(new URL(uri).pathname); } catch { /* keep the plain form */ } }
  // As the server does: a plain scheme is dropped (memfs: -> //host/…), one with other characters kept (vscode-vfs://…).
  return uri.replace(/^[a-z]+:/i, '');
}
