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
  InitializeRequest, InitializedNotification, ConfigurationRequest, RegistrationRequest,
} from 'vscode-languageserver-protocol/node';
import { LspSession } from './lsp-session.mjs';

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
export class WebWorkerServer extends LspSession {
  constructor(rootUri, { files = {}, settings = {} } = {}) {
    super(20000);
    this.rootUri = rootUri;
    this.files = files;
    this.settings = settings;
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
    const conn = createProtocolConnection(reader, new PortWriter(toWorker));
    conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'skewguard' ? this.settings : null)));
    conn.onRequest(RegistrationRequest.type, () => null);
    this.listen(conn);
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

  noMatch() { return `log:\n${this.logs.join('\n')}`; }

  dispose() { this.conn.dispose(); }
}
