// The language server is spawned first thing, before lsp-lint loads the LSP library and the rest of itself, so
// that the server's own start-up (a second node process loading the engine) overlaps lsp-lint's. dist/lsp-lint.js
// (cli/entry.ts) imports this module and spawns the server before it even compiles dist/lsp-lint-main.js; the copy
// of this module in that bundle finds the same state (a global) instead of spawning a second server. When
// lsp-lint-main.js is run on its own, its copy spawns. ServerSession takes the process (once) instead of spawning
// its own. --help and --version need no server.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export function serverPath(): string {
  if (process.env.SKEWGUARD_SERVER) return process.env.SKEWGUARD_SERVER;
  return path.join(__dirname, 'server.js');
}

/**
 * The server's environment: lsp-lint's, without NODE_EXTRA_CA_CERTS. Node reads and parses that certificate file
 * eagerly at start-up (about 55 ms on the bench machine, where it is set for every process), and the server never
 * opens a network connection, so it has no use for it.
 */
function serverEnv(): NodeJS.ProcessEnv {
  if (process.env.NODE_EXTRA_CA_CERTS === undefined) return process.env;
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export function spawnServer(cwd: string): ChildProcess {
  return spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], cwd, env: serverEnv() });
}

interface Early { take(cwd: string): ChildProcess; drop(): void }

function startEarly(): Early {
  const args = process.argv.slice(2);
  const beforeDashes = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  const needsNoServer = args[0] === 'merge-reports' || beforeDashes.some((a) => a === '-h' || a === '--help' || a === '-v' || a === '--version');
  const startedIn = process.cwd();
  let early: ChildProcess | undefined = needsNoServer ? undefined : spawnServer(startedIn);
  // Until a session takes it: a failed spawn is reported by the session's own handler, and an unused one is killed.
  early?.on('error', () => { /* the session reports it */ });
  const drop = () => {
    if (!early) return;
    try { early.kill('SIGKILL'); } catch { /* gone */ }
    early = undefined;
  };
  process.on('exit', drop);
  return {
    take(cwd) {
      if (early && cwd === startedIn) { const c = early; early = undefined; return c; }
      return spawnServer(cwd);
    },
    drop,
  };
}

const HANDOFF = Symbol.for('skewguard.lsp-lint.early-server');
const early: Early = ((globalThis as { [HANDOFF]?: Early })[HANDOFF] ??= startEarly());

/** The server spawned at start-up when it is for the same folder, else a new one. */
export function takeServer(cwd: string): ChildProcess { return early.take(cwd); }

/** Kills the early server when no session took it (a usage error, --print-config failing first …). */
export function dropEarlyServer(): void { early.drop(); }
