// The web build's 'vscode-languageserver/node' (scripts/build.mjs aliases it here): the browser entry of
// vscode-languageserver, with createConnection() over the worker's message port. The reader takes the web client's
// workspace files (initializationOptions.webFiles, skewguard/webFiles) into the in-memory file system before the
// server sees the message, so the server's code runs unchanged.
import {
  createConnection as createBrowserConnection, BrowserMessageReader, BrowserMessageWriter, type Connection, type DataCallback, type Disposable,
} from 'vscode-languageserver/browser';
import { WebFilesNotification, uriToPath, type WebFilesParams } from './protocol';
import { putFile, removeFile } from './shims/fs';

export * from 'vscode-languageserver/browser';

/** Applies the client's files to the in-memory file system. */
export function applyWebFiles(p: WebFilesParams | undefined): void {
  if (!p) return;
  for (const u of p.removed ?? []) removeFile(uriToPath(u));
  for (const f of p.files ?? []) {
    const data = f.text ?? (f.base64 !== undefined ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : undefined);
    putFile(uriToPath(f.uri), data, f.size, f.why);
  }
}

class FilesReader extends BrowserMessageReader {
  override listen(callback: DataCallback): Disposable {
    return super.listen((m) => {
      const msg = m as { method?: string; params?: unknown; id?: unknown };
      if (msg.method === WebFilesNotification && msg.id === undefined) { applyWebFiles(msg.params as WebFilesParams); return; }
      if (msg.method === 'initialize') applyWebFiles((msg.params as { initializationOptions?: { webFiles?: WebFilesParams } })?.initializationOptions?.webFiles);
      callback(m);
    });
  }
}

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

export function createConnection(..._args: unknown[]): Connection {
  return createBrowserConnection(new FilesReader(self), new BrowserMessageWriter(self));
}

/** The stdio transport is never used in the browser. */
export class StreamMessageReader { constructor() { throw new Error('stdio is not available in the web extension'); } }
export class StreamMessageWriter { constructor() { throw new Error('stdio is not available in the web extension'); } }
