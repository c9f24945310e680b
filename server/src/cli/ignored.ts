// The `ignore:` lists in lsp-lint: the folder walk (files.ts) leaves out what .gitignore files say, and the server
// decides which of the other walked files the ignore: lists leave out (skewguard/ignoredFiles), with the same function
// and the same configuration (the nearest .skewguard.yaml) as in the editor. Paths named on the command line are
// checked even when ignored, and so is everything under a named folder that is itself ignored.
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { Collected } from './files';
import { showArg } from './files';

export interface IgnoreAsker { ignoredFiles(paths: string[], dirs: boolean[]): Promise<{ ignored: Array<{ path: string; reason: string }> }> }

export async function dropIgnored(asker: IgnoreAsker, collected: Collected, args: string[], cwd: string): Promise<void> {
  if (!collected.files.length) return;
  const named = new Set<string>();
  const folders: string[] = [];
  const globs: Array<{ arg: string; match: (f: string) => boolean }> = [];
  for (const arg of args) {
    const abs = path.resolve(cwd, arg);
    if (picomatch.scan(arg).isGlob) {
      try { const m = picomatch(abs.split(path.sep).join('/'), { dot: true }); globs.push({ arg, match: (f) => m(f.split(path.sep).join('/')) }); } catch { /* reported by collectFiles */ }
      continue;
    }
    let st: fs.Stats | undefined;
    try { st = fs.statSync(abs); } catch { continue; }
    if (st.isDirectory()) folders.push(abs); else named.add(abs);
  }
  const asked = collected.files.filter((f) => !named.has(f));
  // Only named files (a pre-commit hook's): nothing the ignore: lists could leave out, no round trip.
  if (!folders.length && !asked.length) return;
  const { ignored } = await asker.ignoredFiles([...folders, ...asked], [...folders.map(() => true), ...asked.map(() => false)]);
  const reasons = new Map(ignored.map((x) => [x.path, x.reason]));
  // A named folder that is itself ignored is checked whole (as a named file is).
  const wholeFolders = folders.filter((f) => reasons.has(f));
  const inside = (f: string, dir: string) => f.startsWith(dir + path.sep);
  const drop = (f: string) => !named.has(f) && reasons.has(f) && !wholeFolders.some((d) => inside(f, d));
  const before = collected.files;
  collected.files = before.filter((f) => !drop(f));
  if (collected.files.length === before.length) return;
  // A named folder or glob whose files are all left out is said, never skipped silently.
  for (const dir of folders) {
    const mine = before.filter((f) => inside(f, dir));
    if (mine.length && mine.every(drop)) collected.ignored.push({ path: dir, reason: `all ${mine.length} files under ${showArg(path.relative(cwd, dir) || '.')} are ignored: ${reasons.get(mine[0])}; use --no-ignore to check them` });
  }
  for (const g of globs) {
    const mine = before.filter((f) => g.match(f));
    if (mine.length && mine.every(drop)) collected.ignored.push({ path: g.arg, reason: `all ${mine.length} files matching ${showArg(g.arg)} are ignored: ${reasons.get(mine[0])}; use --no-ignore to check them` });
  }
}
