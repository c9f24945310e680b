// Runs the web extension's language server (dist/web/server.js) the way a browser's web worker does, in Node: in a
// vm context holding only what a dedicated worker has (self with postMessage/onmessage, timers, TextEncoder/Decoder,
// URL, atob/btoa, console, performance), no require, no process, no Buffer. A Node API on the server's path fails
// there (ReferenceError), as it would in the browser. The client side speaks LSP to it over the fake message port.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import {
  createProtocolConnection, AbstractMessageReader, AbstractMessageWriter,
  InitializeRequest, InitializedNotification, ConfigurationRequest, RegistrationRequest, PublishDiagnosticsNotification,
} from 'vscode-languageserver-protocol/node';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const webServerJs = path.join(repoRoot, 'dist', 'web', 'server.js');

class PortReader extends AbstractMessageReader {
  constructor() { super(); this.callback = undefined; this.queue = []; }
  deliver(m) { if (this.callback) this.callback(m); else this.queue.push(m); }
  listen(cb) { this.callback = cb; for (const m of this.queue.splice(0)) cb(m); return { dispose: () => { this.callback = undefined; } }; }
}
class PortWriter extends AbstractMessageWriter {
  constructor(send) { super(); this.send = send; }
  async write(m) { this.send(m); }
  end() {}
}

/** A web worker running dist/web/server.js, and an LSP connection to it. `files`: { uri: text } handed over at initialize. */
export class WebWorkerServer {
  constructor(rootUri, { files = {}, settings = {} } = {}) {
    this.rootUri = rootUri;
    this.files = files;
    this.settings = settings;
    this.published = new Map();
    this.listeners = new Set();
    this.logs = [];
    const reader = new PortReader();
    const sandbox = {
      console: { log: (...a) => this.logs.push(a.join(' ')), info: (...a) => this.logs.push(a.join(' ')), warn: (...a) => this.logs.push(a.join(' ')), error: (...a) => this.logs.push(a.join(' ')), debug: () => {} },
      setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask, TextEncoder, TextDecoder, URL, atob, btoa, performance, structuredClone,
      postMessage: (m) => reader.deliver(structuredClone(m)),
      addEventListener: () => {},
      onmessage: null,
    };
    sandbox.self = sandbox;
    sandbox.globalThis = sandbox;
    this.context = vm.createContext(sandbox);
    vm.runInContext(fs.readFileSync(webServerJs, 'utf8'), this.context, { filename: webServerJs });
    const toWorker = (m) => { const h = sandbox.onmessage; if (h) h({ data: structuredClone(m) }); };
    this.conn = createProtocolConnection(reader, new PortWriter(toWorker));
    this.conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'skewguard' ? this.settings : null)));
    this.conn.onRequest(RegistrationRequest.type, () => null);
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = this.published.get(p.uri) ?? [];
      list.push(p);
      this.published.set(p.uri, list);
      for (const l of [...this.listeners]) l(p);
    });
    this.conn.listen();
  }

  /** What the sandbox has as globals that a browser worker would not (must stay empty). */
  nodeGlobals() { return ['require', 'process', 'Buffer', 'module', '__dirname'].filter((g) => vm.runInContext(`typeof ${g}`, this.context) !== 'undefined'); }

  async initialize() {
    const files = Object.entries(this.files).map(([uri, text]) => (typeof text === 'string'
      ? { uri, size: Buffer.byteLength(text), text } : { uri, size: 0, ...text }));
    return this.conn.sendRequest(InitializeRequest.type, {
      processId: null, rootUri: this.rootUri, workspaceFolders: [{ uri: this.rootUri, name: 'ws' }],
      capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      initializationOptions: { workspaceTrusted: false, webFiles: { files } },
    }).then(async (r) => { await this.conn.sendNotification(InitializedNotification.type, {}); return r; });
  }

  waitFor(uri, pred = () => true, { since = 0, timeout = 20000 } = {}) {
    const seen = (this.published.get(uri) ?? []).slice(since).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const l = (p) => { if (p.uri === uri && pred(p)) { clearTimeout(t); this.listeners.delete(l); resolve(p); } };
      const t = setTimeout(() => { this.listeners.delete(l); reject(new Error(`no publishDiagnostics for ${uri}; log:\n${this.logs.join('\n')}`)); }, timeout);
      this.listeners.add(l);
    });
  }

  count(uri) { return (this.published.get(uri) ?? []).length; }

  async open(uri, text, version = 1, languageId = 'yaml') {
    const since = this.count(uri);
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    return this.waitFor(uri, (p) => p.version === version, { since });
  }

  request(method, params) { return this.conn.sendRequest(method, params); }
  notify(method, params) { return this.conn.sendNotification(method, params); }
  dispose() { this.conn.dispose(); }
}
