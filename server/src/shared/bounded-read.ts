// Reads that stop at a byte limit whatever `stat` says. A file that stat calls regular may read without end
// (/proc/self/pagemap: size 0, 256 GB of data): every reader of workspace or configured files reads through here, in
// a loop of bounded chunks, and never with readFileSync of a whole file. A leaf module (lsp-lint uses it too).
import * as fs from 'node:fs';

/** How often a read that is not ready (EAGAIN) is tried again, 10 ms apart. */
const MAX_EAGAIN_WAITS = 500;

/**
 * Reads from `fd` until its end or until more than `limit` bytes are read (at most `limit` + 1 are kept: the one more
 * says "over"). `sizeHint` (what fstat said, when it is a regular file of that size) makes the first read ask for
 * exactly that plus one byte; a size of 0 is no hint (procfs). Memory stays within `limit` + 1 plus one chunk.
 */
export function readBounded(fd: number, limit: number, sizeHint?: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const hint = sizeHint !== undefined && sizeHint > 0 ? sizeHint : undefined;
  // The first read asks for what fstat said plus one byte (to see a file that grew); a 1 MB buffer per file made
  // a 10,000-file run allocate 10 GB and spend a second in the garbage collector. Later reads grow to 1 MB.
  let next = hint !== undefined ? hint + 1 : 64 * 1024;
  let waits = 0;
  while (total <= limit) {
    // Whole chunks (procfs files such as pagemap refuse reads that are not a multiple of their entry size).
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(next, 1 << 20)));
    next = Math.min(1 << 20, Math.max(64 * 1024, next * 2));
    let n: number;
    try { n = fs.readSync(fd, buf, 0, buf.length, null); } catch (e) {
      // Not ready yet (a non-blocking descriptor): wait 10 ms and try again, 500 times at most (5 s): this loop is
      // synchronous, so no watchdog could end it; past that the read fails as unreadable (EAGAIN).
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN' && ++waits <= MAX_EAGAIN_WAITS) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); continue; }
      throw e;
    }
    if (n === 0) break;
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    total += n;
    // A regular file of a known size that gave less than was asked is at its end; a pipe's short read says nothing.
    if (hint !== undefined && n < buf.length) break;
  }
  const all = Buffer.concat(chunks, total);
  return all.length > limit + 1 ? all.subarray(0, limit + 1) : all;
}

export type FileRead =
  | { bytes: Buffer }
  /** More than the limit: `size` is what stat said, or undefined when stat said less (a file that reads without end). */
  | { over: true; size?: number }
  /** Not read: missing (ENOENT, ENOTDIR), a folder (EISDIR), not a regular file (`notFile`), or another error. */
  | { code?: string; message: string; notFile?: string };

/**
 * A file's bytes, at most `limit`: regular files only (a FIFO or a device is refused without blocking: O_NONBLOCK);
 * "over" when stat or the read says there is more. Never throws.
 */
export function readFileUpTo(file: string, limit: number): FileRead {
  let fd: number;
  try { fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)); } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Windows refuses to open a folder (EISDIR, EPERM, EACCES): a folder all the same, not an unreadable file.
    if (code === 'EISDIR' || code === 'EPERM' || code === 'EACCES') {
      try { if (fs.statSync(file).isDirectory()) return { code: 'EISDIR', message: `EISDIR: illegal operation on a directory, read '${file}'`, notFile: 'a folder' }; } catch { /* as it was */ }
    }
    return { code, message: (e as Error).message };
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return { code: 'EISDIR', message: `EISDIR: illegal operation on a directory, read '${file}'`, notFile: 'a folder' };
    if (!st.isFile()) return { message: 'not a regular file', notFile: st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a regular file' };
    if (st.size > limit) return { over: true, size: st.size };
    const bytes = readBounded(fd, limit, st.size);
    if (bytes.length > limit) return { over: true, ...(st.size > limit ? { size: st.size } : {}) };
    return { bytes };
  } catch (e) {
    return { code: (e as NodeJS.ErrnoException).code, message: (e as Error).message };
  } finally {
    fs.closeSync(fd);
  }
}

/** readFileUpTo as UTF-8 text (a BOM kept: the callers strip it where they did), or undefined when not read. */
export function readTextUpTo(file: string, limit: number): string | undefined {
  const r = readFileUpTo(file, limit);
  return 'bytes' in r ? r.bytes.toString('utf8') : undefined;
}

/** What a FileRead that was not read says, in a few words (for "not read (…)" notes). */
export function whyNotRead(r: Exclude<FileRead, { bytes: Buffer }>, limit: number): string {
  if ('over' in r) return r.size !== undefined ? `over the size limit (${r.size} bytes; at most ${limit} are read)` : `over the size limit (it reads more than ${limit} bytes, whatever its size says)`;
  if (r.notFile) return r.notFile === 'a folder' ? 'a folder' : r.notFile === 'not a regular file' ? r.notFile : `${r.notFile}, not a regular file`;
  return `unreadable: ${r.code ?? r.message}`;
}
