// Which program a name runs (helm, git): an absolute path found on PATH, never in a folder of the workspace. A
// relative PATH entry ("tools", ".", an empty entry) names a folder of whatever the current folder is, which in an
// editor or a CI job is the repository: such entries are skipped, and so is every entry inside a workspace root. On
// Windows the current folder is never searched (CreateProcess would look there first): the name is always resolved
// here, to an absolute path, before anything is run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from './within';

/** A regular file this process may execute. */
export function isExecutable(p: string): boolean {
  try { return fs.statSync(p).isFile() && (fs.accessSync(p, fs.constants.X_OK), true); } catch { return false; }
}

/** The real path of p (p itself when it cannot be resolved). */
function real(p: string): string {
  try { return fs.realpathSync(p); } catch { return path.resolve(p); }
}

/** Whether `p` (a file or folder, resolved through its links) lies inside one of `roots` (or is one). */
export function insideAny(p: string, roots: readonly string[]): boolean {
  const rp = real(p);
  for (const root of roots) {
    if (!root) continue;
    for (const r of new Set([path.resolve(root), real(root)])) {
      if (isWithin(rp, r)) return true;
    }
  }
  return false;
}

export interface Resolved { path?: string; looked: string[]; skipped: string[] }

/**
 * `name` on PATH: the first absolute entry outside `roots` that holds it as an executable file (Windows: with the
 * PATHEXT extensions). `skipped` says which entries were left out and why (for the messages that say where Helm or
 * git was looked for).
 */
export function resolveExecutable(name: string, roots: readonly string[], envPath = process.env.PATH ?? '', platform = process.platform): Resolved {
  const looked: string[] = [];
  const skipped: string[] = [];
  const exts = platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((e) => e.toLowerCase())] : [''];
  const names = exts.map((e) => (e && name.toLowerCase().endsWith(e) ? name : name + e));
  for (const dir of [...new Set(envPath.split(platform === 'win32' ? ';' : path.delimiter))]) {
    if (!dir) continue;
    if (!path.isAbsolute(dir)) { skipped.push(`${dir} (a relative PATH entry)`); continue; }
    if (insideAny(dir, roots)) { skipped.push(`${dir} (inside the workspace)`); continue; }
    for (const n of names) {
      const p = path.join(dir, n);
      looked.push(p);
      if (isExecutable(p) && !insideAny(p, roots)) return { path: p, looked, skipped };
    }
  }
  return { looked, skipped };
}
