// How lsp-lint --fix writes a file, as a careful editor does: a temporary file with a random name, created
// exclusively (O_EXCL|O_NOFOLLOW, so a planted file or symlink of that name is never followed or reused) in the
// folder of the real file, with the original's mode (set explicitly, not through the umask) and owner, flushed,
// then renamed over the file. A symlink stays a link: its target is written. A file with several hard links, a
// read-only file, and a file that changed since it was read are left alone, with the reason. Temporary files of
// earlier runs that were killed are removed (only names of exactly this pattern whose process is gone).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeCrypto } from '../shared/lazy-node';

/** `.<name>.skewguard-<pid>-<12 hex>.tmp`; also `.<name>.skewguard-<pid>.tmp`, the name older versions used. */
export const TEMP_PATTERN = /^\..+\.skewguard-([1-9]\d{0,9})(?:-[0-9a-f]{12})?\.tmp$/;

/** A random temporary name next to `file`; a long name is shortened so that the temporary name fits in 255 bytes. */
export function tempName(file: string): string {
  let base = path.basename(file);
  while (Buffer.byteLength(base) > 200) base = base.slice(0, Math.max(1, base.length - Math.max(1, Buffer.byteLength(base) - 200)));
  return path.join(path.dirname(file), `.${base}.skewguard-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
}

/** What the file looked like when it was read. */
export interface ReadState { size: number; mtimeMs: number; ino: number; dev: number; content: Buffer }

/** Not written: `refused` when --fix chose to leave the file alone (a warning), `failed` when writing failed. */
export type WriteResult = { written: true } | { written: false; failed?: boolean; reason: string };

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

const cleaned = new Set<string>();

/** Removes, once per folder, temporary files left by a run of lsp-lint --fix that was killed. */
export function removeStaleTemporaries(dir: string): void {
  if (cleaned.has(dir)) return;
  cleaned.add(dir);
  let names: string[];
  try { names = fs.readdirSync(dir); } catch { return; }
  for (const name of names) {
    const m = TEMP_PATTERN.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    const p = path.join(dir, name);
    try { if (fs.lstatSync(p).isFile()) fs.unlinkSync(p); } catch { /* gone, or not ours to remove */ }
  }
}

/** Reads at most `limit` bytes of an open file. */
export { readBounded } from '../shared/bounded-read';

const same = (a: fs.Stats, s: ReadState) => a.size === s.size && a.mtimeMs === s.mtimeMs && a.ino === s.ino && a.dev === s.dev;

/**
 * Replaces `file` (or, for a symlink, its target) with `data`, when it is still what was read (`read`).
 * Never throws: a failure is returned as the reason, and no temporary file is left behind.
 */
export function writeFileSafely(file: string, data: Buffer, read: ReadState): WriteResult {
  let target: string;
  try { target = fs.realpathSync(file); } catch (e) { return { written: false, failed: true, reason: (e as Error).message }; }
  let st: fs.Stats;
  try { st = fs.statSync(target); } catch (e) { return { written: false, failed: true, reason: (e as Error).message }; }
  if (!st.isFile()) return { written: false, reason: 'not a regular file' };
  if (!same(st, read)) return { written: false, reason: 'the file changed since it was read' };
  if ((st.mode & 0o222) === 0) return { written: false, reason: `the file is read-only (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})` };
  try { fs.accessSync(target, fs.constants.W_OK); } catch { return { written: false, reason: 'the file is not writable' }; }
  // Replacing a file with several names would split them: the other names would keep the old text.
  if (st.nlink > 1) return { written: false, reason: `the file has ${st.nlink} hard links; --fix does not split them` };
  const dir = path.dirname(target);
  removeStaleTemporaries(dir);
  const tmp = tempName(target);
  let fd: number | undefined;
  let created = false;
  try {
    // 0o600 first: nobody else can open it while it is being written; the real mode is set below.
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    created = true;
    for (let off = 0; off < data.length;) off += fs.writeSync(fd, data, off, data.length - off);
    if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || st.gid !== process.getgid!())) {
      try { fs.fchownSync(fd, st.uid, st.gid); } catch {
        throw new Error(`the owner (${st.uid}:${st.gid}) cannot be kept`);
      }
    }
    fs.fchmodSync(fd, st.mode & 0o7777);
    fs.fsyncSync(fd);
    fs.closeSync(fd); fd = undefined;
    // The last look before the rename: still the file that was read?
    const now = fs.statSync(target);
    const content = now.size === read.size ? fs.readFileSync(target) : undefined;
    if (!same(now, read) || !content || !content.equals(read.content)) throw new Error('the file changed since it was read');
    fs.renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined) { try { fs.closeSync(fd); } catch { /* closed */ } }
    if (created) { try { fs.unlinkSync(tmp); } catch { /* gone */ } }
    const reason = (e as Error).message;
    return { written: false, reason, failed: reason !== 'the file changed since it was read' && !reason.startsWith('the owner') };
  }
  try { const d = fs.openSync(dir, 'r'); try { fs.fsyncSync(d); } finally { fs.closeSync(d); } } catch { /* best effort */ }
  return { written: true };
}
