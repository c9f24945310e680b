// What the tests' LSP clients share (lsp-client.mjs: the Node server over stdio; web-worker.mjs: the web build in a
// worker-like vm): textDocument/publishDiagnostics collected per uri, waiting for one, didOpen/didChange, requests.
import { PublishDiagnosticsNotification } from 'vscode-languageserver-protocol/node';

export class LspSession {
  /** @param {number} waitTimeout waitFor's default timeout, ms */
  constructor(waitTimeout) {
    this.waitTimeout = waitTimeout;
    /** uri -> list of every publishDiagnostics params received, oldest first */
    this.published = new Map();
    this.listeners = new Set();
  }

  /** Collects `conn`'s publishDiagnostics and starts it (after the subclass's own handlers). */
  listen(conn) {
    this.conn = conn;
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = this.published.get(p.uri) ?? [];
      list.push(p);
      this.published.set(p.uri, list);
      for (const l of [...this.listeners]) l(p);
    });
    conn.listen();
  }

  /** What a waitFor that timed out says after the uri (a subclass may say more). */
  noMatch(uri) { return `got ${JSON.stringify(this.published.get(uri) ?? [])}`; }

  /** Resolves with the next publishDiagnostics for `uri` that satisfies `pred` (also one already received after `since`). */
  waitFor(uri, pred = () => true, { since = 0, timeout = this.waitTimeout } = {}) {
    const seen = (this.published.get(uri) ?? []).slice(since).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const l = (p) => {
        if (p.uri === uri && pred(p)) { clearTimeout(t); this.listeners.delete(l); resolve(p); }
      };
      const t = setTimeout(() => {
        this.listeners.delete(l);
        reject(new Error(`no matching publishDiagnostics for ${uri} within ${timeout} ms; ${this.noMatch(uri)}`));
      }, timeout);
      this.listeners.add(l);
    });
  }

  /** Number of publishDiagnostics received for a uri so far (a `since` marker for waitFor). */
  count(uri) { return (this.published.get(uri) ?? []).length; }

  /** didOpen; resolves with the diagnostics published for that version. */
  async open(uri, text, version = 1, languageId = 'yaml') {
    const since = this.count(uri);
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    return this.waitFor(uri, (p) => p.version === version, { since });
  }

  /** didChange with the given contentChanges; resolves with the diagnostics published for that version. */
  async change(uri, version, contentChanges) {
    const since = this.count(uri);
    await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
    return this.waitFor(uri, (p) => p.version === version, { since });
  }

  request(method, params) { return this.conn.sendRequest(method, params); }
  notify(method, params) { return this.conn.sendNotification(method, params); }
}
