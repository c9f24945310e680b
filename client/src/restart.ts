// When the language server dies: restart it a bounded number of times and say so, naming the reason (the error
// it wrote on its standard error before it ended). Kept free of `vscode` so that node tests can drive it with a
// fake clock and a fake notifier (test/hostile-server.test.mjs).
import type { ErrorHandler, ErrorHandlerResult, CloseHandlerResult, ErrorAction, CloseAction } from 'vscode-languageclient/node';

// The values of vscode-languageclient's enums (importing them would load `vscode`).
const CONTINUE = 1 as ErrorAction.Continue;
const SHUTDOWN = 2 as ErrorAction.Shutdown;
const DO_NOT_RESTART = 1 as CloseAction.DoNotRestart;
const RESTART = 2 as CloseAction.Restart;

export interface RestartPolicyOptions {
  /** Restarts allowed within windowMs; one more stop within it and the server stays stopped. */
  maxRestarts?: number;
  windowMs?: number;
  now?: () => number;
  /** Shows the user a message: final = the server is not restarted again. */
  notify: (message: string, final: boolean) => void;
}

/** The line of a dead server's standard error that says why: its error, else its last words. */
export function reasonFrom(lines: string[]): string | undefined {
  const meaningful = lines.map((l) => l.trim()).filter((l) => l && !/^Node\.js v\d/.test(l) && !/^at\s/.test(l) && !/^\^+$/.test(l));
  const error = [...meaningful].reverse().find((l) => /^skewguard-language-server:|^(Uncaught\s+)?([A-Z]\w*)?(Error|Exception)\b/.test(l));
  const line = error ?? meaningful[meaningful.length - 1];
  return line && (line.length > 300 ? `${line.slice(0, 300)}…` : line);
}

export class RestartPolicy implements ErrorHandler {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private restarts: number[] = [];
  private stderrTail: string[] = [];
  private connectionError: string | undefined;

  constructor(private readonly opts: RestartPolicyOptions) {
    this.maxRestarts = opts.maxRestarts ?? 4;
    this.windowMs = opts.windowMs ?? 3 * 60 * 1000;
    this.now = opts.now ?? Date.now;
  }

  /** The user restarted the server: the count starts again. */
  reset(): void { this.restarts = []; }

  /** A line the server wrote on its standard error (kept: the last 20). */
  stderrLine(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > 20) this.stderrTail.shift();
  }

  /** Why the server stopped, as far as is known. */
  reason(): string {
    return reasonFrom(this.stderrTail) ?? this.connectionError ?? 'it gave no reason on its standard error; see the skewguard output';
  }

  error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
    this.connectionError = `connection error: ${error?.message ?? String(error)}`;
    // As vscode-languageclient's default: a few errors in a row are tolerated, then the connection is shut down.
    return count && count <= 3 ? { action: CONTINUE } : { action: SHUTDOWN };
  }

  closed(): CloseHandlerResult {
    const now = this.now();
    this.restarts = this.restarts.filter((t) => now - t <= this.windowMs);
    const reason = this.reason();
    this.stderrTail = [];
    this.connectionError = undefined;
    const minutes = Math.round(this.windowMs / 60000);
    if (this.restarts.length >= this.maxRestarts) {
      this.opts.notify(`skewguard: the language server stopped again (${reason}). It stopped ${this.restarts.length + 1} times in ${minutes} minutes and is not restarted: `
        + 'files are not checked until you run "skewguard: Restart Server". The skewguard output has the details.', true);
      return { action: DO_NOT_RESTART, handled: true };
    }
    this.restarts.push(now);
    this.opts.notify(`skewguard: the language server stopped (${reason}); it was restarted (${this.restarts.length} of ${this.maxRestarts} restarts in ${minutes} minutes).`, false);
    return { action: RESTART, handled: true };
  }
}
