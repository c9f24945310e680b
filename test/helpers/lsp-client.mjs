// A minimal LSP client for tests: starts the built server (`node dist/server.js --stdio`) in a
// temporary workspace folder, initializes it, answers workspace/configuration with settings the
// test controls, and collects textDocument/publishDiagnostics per uri.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, ConfigurationRequest, RegistrationRequest, ShutdownRequest, ExitNotification,
} from 'vscode-languageserver-protocol/node';
import { LspSession } from './lsp-session.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The server under test: dist/server.js, or $SKEWGUARD_SERVER (as for lsp-lint). */
export const serverJs = process.env.SKEWGUARD_SERVER || path.join(repoRoot, 'dist', 'server.js');

/** Makes a temporary folder holding `files` ({ relativePath: text }). */
export function makeWorkspace(files = {}) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-lsp-')));
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return dir;
}

export const uriOf = (file) => pathToFileURL(file).toString();

export class LspClient extends LspSession {
  /**
   * @param {string} root workspace folder
   * @param {{ settings?: object, configuration?: boolean, initializationOptions?: object, env?: object }} [opts]
   */
  constructor(root, opts = {}) {
    super(10000);
    this.root = root;
    this.settings = opts.settings ?? {};
    this.configurationCapability = opts.configuration ?? true;
    this.initializationOptions = opts.initializationOptions;
    /** Client capabilities added to the defaults (workspace / textDocument entries). */
    this.extraCapabilities = opts.capabilities ?? {};
    this.configurationRequests = 0;
    this.registrations = [];
    this.notifications = [];
    this.stderr = '';
    this.child = spawn(process.execPath, [serverJs, '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.exit = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    const conn = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    conn.onRequest(ConfigurationRequest.type, (params) => {
      this.configurationRequests++;
      return params.items.map((item) => (item.section ? pick(this.settings, item.section) : this.settings) ?? null);
    });
    conn.onRequest(RegistrationRequest.type, (params) => { this.registrations.push(...params.registrations); return null; });
    conn.onNotification((method, params) => { this.notifications.push({ method, params }); });
    this.listen(conn);
  }

  /** Sends initialize + initialized; resolves with the InitializeResult. */
  async initialize() {
    const rootUri = uriOf(this.root);
    this.initResult = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
      capabilities: {
        workspace: { configuration: this.configurationCapability, didChangeConfiguration: { dynamicRegistration: true }, ...this.extraCapabilities.workspace },
        textDocument: { publishDiagnostics: { versionSupport: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: [] } } }, ...this.extraCapabilities.textDocument },
      },
      initializationOptions: this.initializationOptions,
    });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return this.initResult;
  }

  /** shutdown + exit; resolves with the process's { code, signal }. */
  async shutdown() {
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    const r = await withTimeout(this.exit, 5000, 'server did not exit after shutdown + exit');
    this.conn.dispose();
    return r;
  }

  /** Ends the server however it is (for test cleanup). */
  kill() {
    try { this.conn.dispose(); } catch { /* already disposed */ }
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    // A server killed in the middle of a write leaves half a message in the pipe, and the JSON-RPC reader re-arms a
    // partial-message timer for it forever: stop reading, so the test process can end.
    this.child.stdout.destroy();
    this.child.stdin.destroy();
  }
}

/** A workspace of `files`, a server on it (initialized) for `fn(client, dir)`; both gone afterwards, however fn ends. */
export async function withLspClient(files, fn, opts) {
  const dir = makeWorkspace(files);
  const client = new LspClient(dir, opts);
  try {
    await client.initialize();
    return await fn(client, dir);
  } finally { client.kill(); fs.rmSync(dir, { recursive: true, force: true }); }
}

function pick(obj, section) {
  let v = obj;
  for (const k of section.split('.')) { if (v == null || typeof v !== 'object') return undefined; v = v[k]; }
  return v;
}

export function withTimeout(promise, ms, message) {
  let t;
  return Promise.race([promise, new Promise((_, reject) => { t = setTimeout(() => reject(new Error(message)), ms); })]).finally(() => clearTimeout(t));
}

/** Applies LSP TextEdits (non-overlapping) to a text; positions are UTF-16 code units per line. */
export function applyTextEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') starts.push(i + 1);
    else if (text[i] === '\r') { if (text[i + 1] === '\n') i++; starts.push(i + 1); }
  }
  const off = (p) => (p.line >= starts.length ? text.length : Math.min(starts[p.line] + p.character, text.length));
  const sorted = edits.map((e, i) => ({ s: off(e.range.start), e: off(e.range.end), t: e.newText, i })).sort((a, b) => b.s - a.s || b.i - a.i);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.s) + e.t + out.slice(e.e);
  return out;
}
