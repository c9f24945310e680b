// One language server process of lsp-lint, with every wait bounded: a server that exits, or that sends nothing for
// `timeoutMs` while an answer is due (stalled, stopped with SIGSTOP, in an endless loop), fails every pending wait
// with a ServerFailure and is killed. Shutting down never waits more than a few seconds: then the process is killed.
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { takeServer } from './early';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification, CodeActionRequest, ShutdownRequest, ExitNotification,
  type Diagnostic, type ProtocolConnection, type TextEdit, type CodeAction,
} from 'vscode-languageserver-protocol/node';
import { coalesced } from '../shared/coalesce';
import {
  ResolvedConfigRequest, IgnoredFilesRequest, type IgnoredFilesResult, FileFactsNotification, FIX_ALL_KIND, type InitializationOptions, type CliInitializeResult, type ResolvedConfigResult, type FileFactsParams,
} from '../shared/protocol';

/** The language server died or gave no answer in time; the files it was working on were not checked. */
export class ServerFailure extends Error {}

/** How long shutdown may take before the server is killed. */
const SHUTDOWN_MS = 3000;

/** Every server process started, so that an exit on any path can still kill them. */
const live = new Set<ChildProcess>();
process.on('exit', () => { for (const c of live) { try { c.kill('SIGKILL'); } catch { /* gone */ } } });

export function languageIdFor(uri: string): string {
  if (/\.json$/i.test(uri)) return 'json';
  if (/\.toml$/i.test(uri)) return 'toml';
  return 'yaml';
}

/** A finding whose fix --fix did not apply, and why ("not fixed: the Kata window is the default 4.1; set kata.window"). */
export interface NotFixed { code: string; range: Diagnostic['range']; message: string; reason: string }

export class ServerSession {
  private conn: ProtocolConnection;
  private waiters = new Map<string, { version: number; resolve: (d: Diagnostic[]) => void; reject: (e: Error) => void }>();
  /** Requests sent and not yet answered (their reject functions). */
  private pending = new Set<(e: Error) => void>();
  /** The latest publishDiagnostics for each open file. */
  private published = new Map<string, { version?: number; diagnostics: Diagnostic[] }>();
  /** The latest FileFactsNotification for each open file (sent before its diagnostics). */
  private facts = new Map<string, FileFactsParams>();
  private exited = false;
  /** lsp-lint itself killed the process (after its shutdown was answered, or when it failed). */
  private killedByUs = false;
  /**
   * Set when the server died while its shutdown request was pending (it was not killed by lsp-lint, and exited with
   * a signal or a non-zero code before answering): why. Whatever it had answered stands, but the run is not clean.
   */
  diedInShutdown: string | undefined;
  private exitPromise: Promise<void>;
  private shuttingDown = false;
  private timer: NodeJS.Timeout | undefined;
  /** Set when the server failed: why. */
  failure: ServerFailure | undefined;
  readonly child: ChildProcess;
  readonly initPromise: Promise<void>;
  /** The server's verdict on lsp-lint's window and version flags (set once initPromise resolves). */
  cliProblems: string[] = [];
  /** The answer to initializationOptions.resolvedConfig, when the server gave it with its initialize result. */
  private initialConfig: ResolvedConfigResult | undefined;

  private readonly initialConfigUri: string | undefined;

  constructor(cwd: string, init: InitializationOptions, private readonly timeoutMs: number) {
    this.initialConfigUri = init.resolvedConfig?.uri;
    this.child = takeServer(cwd);
    live.add(this.child);
    this.exitPromise = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exited = true;
        live.delete(this.child);
        if (!this.shuttingDown) this.fail(`the language server exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`);
        else if (!this.killedByUs && !this.shutdownAnswered && (signal || code !== 0)) this.diedInShutdown = `the language server died while shutting down (${signal ? `signal ${signal}` : `code ${code}`})`;
        resolve();
      });
    });
    this.child.on('error', (e) => this.fail(`the language server could not be started: ${e.message}`));
    // A write to a server that is gone must not throw from a stream: the failure is reported through fail().
    this.child.stdin!.on('error', () => { /* reported by exit */ });
    this.child.stdout!.on('data', () => this.activity());
    this.conn = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(coalesced(this.child.stdin!)));
    this.conn.onError(() => { /* a broken pipe: reported by exit */ });
    this.conn.onNotification(FileFactsNotification, (p: FileFactsParams) => { this.facts.set(p.uri, p); });
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      // Kept: the server publishes again for the same version when a later stage (a lazy fix) fails.
      this.published.set(p.uri, { version: p.version, diagnostics: p.diagnostics });
      const w = this.waiters.get(p.uri);
      if (w && (p.version === undefined || p.version === w.version)) { this.waiters.delete(p.uri); w.resolve(p.diagnostics); this.activity(); }
    });
    this.conn.listen();
    this.initPromise = this.request(() => this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: pathToFileURL(cwd).toString(), capabilities: {},
      workspaceFolders: [{ uri: pathToFileURL(cwd).toString(), name: path.basename(cwd) }],
      initializationOptions: init,
    })).then((r) => {
      this.cliProblems = ((r as CliInitializeResult | null)?.cliProblems ?? []).map(String);
      this.initialConfig = (r as CliInitializeResult | null)?.resolvedConfig ?? undefined;
      this.notify(() => this.conn.sendNotification(InitializedNotification.type, {}));
    });
    this.initPromise.catch(() => { /* seen by whoever awaits it */ });
  }

  private busy(): boolean { return this.waiters.size > 0 || this.pending.size > 0; }

  /** Something arrived from the server, or an answer became due: the stall timer starts again. */
  private activity(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure || this.shuttingDown || !this.busy()) return;
    this.timer = setTimeout(() => this.fail(`the language server gave no answer within ${this.timeoutMs / 1000} s`), this.timeoutMs);
  }

  /** Marks the server as failed: every pending wait is rejected and the process is killed. */
  fail(reason: string): void {
    if (this.failure) return;
    this.failure = new ServerFailure(reason);
    if (this.timer) clearTimeout(this.timer);
    const waiters = [...this.waiters.values()], pending = [...this.pending];
    this.waiters.clear(); this.pending.clear();
    for (const w of waiters) w.reject(this.failure);
    for (const r of pending) r(this.failure);
    this.kill();
  }

  private kill(): void {
    if (!this.exited) { this.killedByUs = true; try { this.child.kill('SIGKILL'); } catch { /* gone */ } }
    try { this.conn.dispose(); } catch { /* disposed */ }
  }

  /** A request whose answer is bounded by the stall timer and by the server's life. */
  private request<T>(send: () => Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      this.activity();
      send().then((v) => { this.pending.delete(reject); this.activity(); resolve(v); },
        (e) => { this.pending.delete(reject); this.activity(); reject(this.failure ?? e); });
    });
  }

  /** A notification: never awaited (a stopped server stops reading its pipe); a failure shows in the waits. */
  private notify(send: () => Promise<void>): void {
    if (this.failure) return;
    send().catch(() => { /* the exit or the stall timer reports it */ });
  }

  private wait(uri: string, version: number): Promise<Diagnostic[]> {
    if (this.failure) return Promise.reject(this.failure);
    const p = new Promise<Diagnostic[]>((resolve, reject) => this.waiters.set(uri, { version, resolve, reject }));
    this.activity();
    return p;
  }
  open(uri: string, text: string): Promise<Diagnostic[]> {
    const p = this.wait(uri, 1);
    this.notify(() => this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: languageIdFor(uri), version: 1, text } }));
    return p;
  }
  change(uri: string, version: number, text: string): Promise<Diagnostic[]> {
    const p = this.wait(uri, version);
    this.notify(() => this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] }));
    return p;
  }
  /** The diagnostics the server last published for this version of the file (a republish included). */
  latest(uri: string, version: number): Diagnostic[] | undefined {
    const p = this.published.get(uri);
    return p && (p.version === undefined || p.version === version) ? p.diagnostics : undefined;
  }
  /** The family and facts of the file's latest analysis. */
  factsOf(uri: string): { family: FileFactsParams['family']; facts?: FileFactsParams['facts']; steps?: FileFactsParams['steps'] } {
    const f = this.facts.get(uri);
    return { family: f?.family ?? null, facts: f?.facts, steps: f?.steps };
  }
  close(uri: string): void {
    this.facts.delete(uri);
    this.published.delete(uri);
    this.notify(() => this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } }));
  }
  /** Fix-all's edits, and the findings whose fix it left alone with why (a key under a default window: server/fix-window.ts). */
  async fixAll(uri: string): Promise<{ edits: TextEdit[]; notFixed: NotFixed[] }> {
    const actions = (await this.request(() => this.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: [FIX_ALL_KIND] },
    }))) as CodeAction[] | null;
    const a = (actions ?? []).find((x) => x.kind === FIX_ALL_KIND);
    const held = (a?.data as { notFixed?: unknown } | undefined)?.notFixed;
    return { edits: (a?.edit?.changes?.[uri] ?? []) as TextEdit[], notFixed: Array.isArray(held) ? held as NotFixed[] : [] };
  }
  /** Which of the walked paths the ignore: lists leave out, decided by the server as in the editor. */
  ignoredFiles(paths: string[], dirs: boolean[]): Promise<IgnoredFilesResult> {
    return this.request(() => this.conn.sendRequest(IgnoredFilesRequest, { paths, dirs }) as Promise<IgnoredFilesResult>);
  }

  /** skewguard/resolvedConfig; answered from the initialize result when it was asked there for the same uri. */
  resolvedConfig(uri?: string): Promise<ResolvedConfigResult> {
    const first = this.initialConfig;
    this.initialConfig = undefined;
    if (first && uri === this.initialConfigUri) return Promise.resolve(first);
    return this.request(() => this.conn.sendRequest(ResolvedConfigRequest, { uri }) as Promise<ResolvedConfigResult>);
  }
  /** Asks the server to shut down and exit; kills it when that takes more than a few seconds. Never throws. */
  shutdown(): Promise<void> {
    return (this.stopping ??= this.stop());
  }
  private stopping: Promise<void> | undefined;
  private shutdownAnswered = false;
  private async stop(): Promise<void> {
    if (this.exited) return;
    if (this.failure) { this.kill(); await this.exitPromise; return; }
    this.shuttingDown = true;
    if (this.timer) clearTimeout(this.timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_MS).unref());
    await Promise.race([(async () => {
      try {
        // A server that dies with the request pending never answers it, and the connection does not say so: the
        // exit ends the wait (else nothing would be left to wait for, and node would leave with exit code 0).
        const answered = this.conn.sendRequest(ShutdownRequest.type).then(() => true, () => false);
        if (!(await Promise.race([answered, this.exitPromise.then(() => false)]))) {
          // Refused, or the connection broke: a server on its way out is seen exiting by itself, not killed by us.
          await Promise.race([this.exitPromise, new Promise<void>((resolve) => setTimeout(resolve, 500).unref())]);
          return;
        }
        this.shutdownAnswered = true;
        await this.conn.sendNotification(ExitNotification.type);
        // Shutdown answered: the server has nothing left to do (it wrote its code cache before answering), so it
        // is killed rather than waited for. Node's orderly exit of a process holding the engine (joining its
        // threads, the C runtime's exit handlers) took about 4 ms of every run, and a killed process cannot linger.
        this.kill();
      } catch { /* killed below if it does not exit */ }
      await this.exitPromise;
    })(), deadline]);
    this.kill();
    await Promise.race([this.exitPromise, new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_MS).unref())]);
  }
}
