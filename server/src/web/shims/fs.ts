// node:fs for the web build (scripts/build.mjs aliases node:fs here): a read-only, in-memory file system.
// It holds (1) the package's data/ and schemas (inlined into the bundle by the build, under PACKAGE_ROOT) and (2) the
// workspace files the web client read with vscode.workspace.fs and handed over (server/src/web/files.ts): every
// file's path, and the text or bytes of the ones cross-file facts come from. A workspace file that is listed but
// whose content was not handed over (too large, too many) reads as EIO with that reason, never as missing.
import { dirname, basename, join } from './path';

export const PACKAGE_ROOT = '/__skewguard__';

type Entry = { kind: 'file'; data?: Uint8Array | string; size: number; why?: string } | { kind: 'dir' };
const entries = new Map<string, Entry>();
const children = new Map<string, Set<string>>();

const parentOf = dirname;

function addDir(p: string): void {
  if (entries.get(p)?.kind === 'dir') return;
  entries.set(p, { kind: 'dir' });
  const up = parentOf(p);
  if (up === p) return;
  addDir(up);
  let c = children.get(up);
  if (!c) children.set(up, (c = new Set()));
  c.add(basename(p));
}

/** Adds or replaces a file (data undefined: listed only, `why` says why its content is not there). */
export function putFile(p: string, data: Uint8Array | string | undefined, size: number, why?: string): void {
  const up = parentOf(p);
  addDir(up);
  let c = children.get(up);
  if (!c) children.set(up, (c = new Set()));
  c.add(basename(p));
  entries.set(p, { kind: 'file', data, size, why });
}

export function removeFile(p: string): void {
  if (entries.get(p)?.kind !== 'file') return;
  entries.delete(p);
  children.get(parentOf(p))?.delete(basename(p));
}

/** How many workspace files the file system holds (for tests and the log). */
export function fileCount(): number { let n = 0; for (const e of entries.values()) if (e.kind === 'file') n++; return n; }

function fsError(code: string, syscall: string, p: string, why?: string): Error {
  const e = new Error(`${code}: ${why ?? (code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'illegal operation on a directory' : 'not a directory')}, ${syscall} '${p}'`) as Error & { code: string; path: string; syscall: string };
  e.code = code; e.path = p; e.syscall = syscall;
  return e;
}

const clean = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

export class Stats {
  constructor(private readonly e: Entry) {}
  get size(): number { return this.e.kind === 'file' ? this.e.size : 0; }
  isFile(): boolean { return this.e.kind === 'file'; }
  isDirectory(): boolean { return this.e.kind === 'dir'; }
  isSymbolicLink(): boolean { return false; }
}

export class Dirent {
  constructor(readonly name: string, private readonly e: Entry) {}
  isFile(): boolean { return this.e.kind === 'file'; }
  isDirectory(): boolean { return this.e.kind === 'dir'; }
  isSymbolicLink(): boolean { return false; }
}

export function existsSync(p: string): boolean { return entries.has(clean(String(p))); }

export function statSync(p: string): Stats {
  const e = entries.get(clean(String(p)));
  if (!e) throw fsError('ENOENT', 'stat', p);
  return new Stats(e);
}
export const lstatSync = statSync;

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export function readFileSync(p: string, opts?: string | { encoding?: string | null }): string | Uint8Array {
  const e = entries.get(clean(String(p)));
  if (!e) throw fsError('ENOENT', 'open', p);
  if (e.kind === 'dir') throw fsError('EISDIR', 'read', p);
  if (e.data === undefined) throw fsError('EIO', 'read', p, e.why ?? 'the web extension was not given this file');
  const encoding = typeof opts === 'string' ? opts : opts?.encoding;
  if (encoding) return typeof e.data === 'string' ? e.data : utf8.decode(e.data);
  const bytes = typeof e.data === 'string' ? encoder.encode(e.data) : e.data;
  // Buffer (the web build's shim) when there is one, so callers can call .toString('utf8').
  const B = (globalThis as { Buffer?: { from(b: Uint8Array): Uint8Array } }).Buffer;
  return B ? B.from(bytes) : bytes;
}

export function readdirSync(p: string, opts?: { withFileTypes?: boolean }): Array<string | Dirent> {
  const d = clean(String(p));
  const e = entries.get(d);
  if (!e) throw fsError('ENOENT', 'scandir', p);
  if (e.kind !== 'dir') throw fsError('ENOTDIR', 'scandir', p);
  const names = [...(children.get(d) ?? [])].sort();
  if (!opts?.withFileTypes) return names;
  return names.map((n) => new Dirent(n, entries.get(join(d, n))!));
}

function readOnly(): never { throw fsError('EROFS', 'write', '', 'the web extension does not write files'); }
export const writeFileSync = readOnly;
export const mkdirSync = readOnly;
export const renameSync = readOnly;
export const unlinkSync = readOnly;
export const rmSync = readOnly;

// Descriptors for reading only (shared/bounded-read.ts reads every file in bounded chunks through them).
const open = new Map<number, { p: string; e: Entry; pos: number; bytes?: Uint8Array }>();
let nextFd = 3;
export function openSync(p: string, flags?: number | string): number {
  if (flags !== undefined && flags !== 'r' && typeof flags === 'number' && (flags & 3) !== 0) readOnly();
  const e = entries.get(clean(String(p)));
  if (!e) throw fsError('ENOENT', 'open', p);
  const fd = nextFd++;
  open.set(fd, { p: String(p), e, pos: 0 });
  return fd;
}
function described(fd: number) {
  const d = open.get(fd);
  if (!d) { const err = new Error('EBADF: bad file descriptor') as Error & { code: string }; err.code = 'EBADF'; throw err; }
  return d;
}
export function fstatSync(fd: number): Stats { return new Stats(described(fd).e); }
export function readSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number | null): number {
  const d = described(fd);
  if (d.e.kind === 'dir') throw fsError('EISDIR', 'read', d.p);
  if (d.e.data === undefined) throw fsError('EIO', 'read', d.p, d.e.why ?? 'the web extension was not given this file');
  const bytes = (d.bytes ??= typeof d.e.data === 'string' ? encoder.encode(d.e.data) : d.e.data);
  const at = position ?? d.pos;
  const n = Math.max(0, Math.min(length, bytes.length - at));
  buf.set(bytes.subarray(at, at + n), offset);
  if (position === null || position === undefined) d.pos += n;
  return n;
}
export function closeSync(fd: number): void { open.delete(fd); }
export const realpathSync = (p: string) => p;
export const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0 };
export const promises = {};

export default {
  existsSync, statSync, lstatSync, readFileSync, readdirSync, writeFileSync, mkdirSync, renameSync, unlinkSync, rmSync, openSync, fstatSync, readSync, closeSync, realpathSync,
  constants, promises, Stats, Dirent,
};
