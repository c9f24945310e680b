// Small node: modules for the web build (scripts/build.mjs aliases them here). Only what the server's path in the
// browser reaches; whatever else is called says that it is not available in the web extension.
import { NotEvaluated } from '../../engine/not-evaluated';

const unavailable = (what: string) => (): never => { throw new Error(`${what} is not available in the web extension`); };

// ---- node:url ----
export function fileURLToPath(u: string | URL): string {
  const url = typeof u === 'string' ? new URL(u) : u;
  if (url.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
  return decodeURIComponent(url.pathname);
}
export function pathToFileURL(p: string): URL {
  // A path the server made from a URI whose scheme it kept (vscode-vfs://…, vscode-remote://…) is that URI again.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) return new URL(p);
  return new URL(p.startsWith('//') ? `file:${encodeURI(p)}` : `file://${encodeURI(p)}`);
}

// ---- node:util ----
export function format(...a: unknown[]): string {
  return a.map((x) => (typeof x === 'string' ? x : x instanceof Error ? (x.stack ?? x.message) : (() => { try { return JSON.stringify(x); } catch { return String(x); } })())).join(' ');
}
export function inspect(x: unknown): string { return format(x); }
export const types = { isNativeError: (e: unknown) => e instanceof Error };

// ---- node:zlib ----
/** Packaged chart dependencies (charts/*.tgz) are not unpacked in the browser: their reader says so. */
export function gunzipSync(): never {
  throw Object.assign(new Error('packaged charts (.tgz) are not unpacked by the web extension; the desktop extension and lsp-lint read them'), { code: 'ERR_WEB_EXTENSION' });
}

// ---- node:crypto ----
/** Template functions that hash (sha256sum, sha1sum) are not evaluated in the browser: said like any other such call. */
export function createHash(alg: string): never {
  throw new NotEvaluated(`${alg === 'sha1' ? 'sha1sum' : 'sha256sum'} is not evaluated in the web extension`);
}
export const randomBytes = unavailable('crypto.randomBytes');

// ---- node:stream (only the stdio transport uses it, which the web worker never opens) ----
export class Writable { constructor() { unavailable('a stream')(); } }
export class Transform { constructor() { unavailable('a stream')(); } }

// ---- node:os ----
export const tmpdir = () => '/tmp';
export const homedir = () => '/';
export const platform = () => 'browser';
export const EOL = '\n';

// ---- node:child_process / node:net / node:http (Helm rendering's, which the web build replaces) ----
export const spawn = unavailable('running a process');
export const execFile = unavailable('running a process');
export const spawnSync = unavailable('running a process');
export const createServer = unavailable('a network server');

// ---- node:v8 ----
/** A web worker's heap is the browser's: the Node server's heap tuning (main.ts) does nothing here. */
export const setFlagsFromString = (): void => undefined;

// ---- node:vm ----
/** No `gc` to take from a new context in the browser: the server's collection after a big file (memory.ts) does nothing. */
export const runInNewContext = (): undefined => undefined;

export default {
  fileURLToPath, pathToFileURL, format, inspect, types, gunzipSync, createHash, randomBytes, Writable, Transform,
  tmpdir, homedir, platform, EOL, spawn, execFile, spawnSync, createServer, setFlagsFromString, runInNewContext,
};
