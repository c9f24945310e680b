// A minimal LSP client for benchmarks: spawns any stdio language server, initializes it and times
// notifications until the matching textDocument/publishDiagnostics. Server-agnostic, so other
// servers (yaml-language-server, Taplo) can be measured by adding an entry to SERVERS in run.mjs.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
} from 'vscode-languageserver-protocol/node';

export class LspSession {
  /**
   * @param {{ command: string, args: string[], cwd: string, env?: object, initializationOptions?: object, capabilities?: object }} o
   */
  static async start(o) {
    const s = new LspSession(o);
    const root = pathToFileURL(o.cwd).toString();
    await s.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: root, capabilities: o.capabilities ?? {},
      workspaceFolders: [{ uri: root, name: path.basename(o.cwd) }],
      initializationOptions: o.initializationOptions,
    });
    await s.conn.sendNotification(InitializedNotification.type, {});
    return s;
  }

  constructor(o) {
    this.stderr = '';
    this.child = spawn(o.command, o.args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    this.conn = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    /** uri -> { version, resolve } */
    this.waiters = new Map();
    /** Called with every publishDiagnostics (bench/bigfile.mjs waits for particular ones). */
    this.listeners = new Set();
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const at = performance.now();
      for (const l of [...this.listeners]) l(p, at);
      const w = this.waiters.get(p.uri);
      if (w && (p.version === undefined || p.version === w.version)) { this.waiters.delete(p.uri); w.resolve({ diagnostics: p.diagnostics, at }); }
    });
    this.conn.listen();
  }

  get pid() { return this.child.pid; }

  wait(uri, version, timeoutMs = 60000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version} after ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      this.waiters.set(uri, { version, resolve: (r) => { clearTimeout(timer); resolve(r); } });
    });
  }

  /** didOpen; resolves to { diagnostics, ms } where ms runs from sending to receiving the diagnostics. */
  async open(uri, text, { languageId = 'yaml', version = 1 } = {}) {
    const p = this.wait(uri, version);
    const t0 = performance.now();
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
    const r = await p;
    return { diagnostics: r.diagnostics, ms: r.at - t0 };
  }

  /** didChange (incremental or full); resolves to { diagnostics, ms }. */
  async change(uri, version, contentChanges) {
    const p = this.wait(uri, version);
    const t0 = performance.now();
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges });
    const r = await p;
    return { diagnostics: r.diagnostics, ms: r.at - t0 };
  }

  async close(uri) {
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async stop() {
    try {
      await this.conn.sendRequest(ShutdownRequest.type);
      await this.conn.sendNotification(ExitNotification.type);
    } catch { /* already gone */ }
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), 5000));
    if ((await Promise.race([this.exited, timeout])) === 'timeout') this.child.kill('SIGKILL');
    this.conn.dispose();
  }
}
