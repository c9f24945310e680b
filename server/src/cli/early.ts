// The language server is spawned first thing, before lsp-lint loads the LSP library and the rest of itself, so
// that the server's own start-up (a second node process loading the engine) overlaps lsp-lint's. Imported first
// by main.ts; ServerSession takes the process (once) instead of spawning its own. --help and --version need no server.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export function serverPath(): string {
  if (process.env.SKEWGUARD_SERVER) return process.env.SKEWGUARD_SERVER;
  return path.join(__dirname, 'server.js');
}

export function spawnServer(cwd: string): ChildProcess {
  return spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], cwd });
}

const args = process.argv.slice(2);
const beforeDashes = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
const needsNoServer = beforeDashes.some((a) => a === '-h' || a === '--help' || a === '-v' || a === '--version');
const startedIn = process.cwd();
let early: ChildProcess | undefined = needsNoServer ? undefined : spawnServer(startedIn);
// Until a session takes it: a failed spawn is reported by the session's own handler, and an unused one is killed.
early?.on('error', () => { /* the session reports it */ });
process.on('exit', dropEarlyServer);

/** The server spawned at start-up when it is for the same folder, else a new one. */
export function takeServer(cwd: string): ChildProcess {
  if (early && cwd === startedIn) { const c = early; early = undefined; return c; }
  return spawnServer(cwd);
}

/** Kills the early server when no session took it (a usage error, --print-config failing first …). */
export function dropEarlyServer(): void {
  if (!early) return;
  try { early.kill('SIGKILL'); } catch { /* gone */ }
  early = undefined;
}
