// Which files lsp-lint checks: explicit files always; directories walked for the file kinds skewguard
// serves, respecting .gitignore files and the config's `ignore` list; glob patterns matched under their base.
import * as fs from 'node:fs';
import { readTextUpTo } from '../shared/bounded-read';
import { MAX_FILE_BYTES } from '../shared/limits';
import * as path from 'node:path';
import { gitignoreMatcher } from '../engine/glob';
import picomatch from 'picomatch';
import { ALWAYS_SKIPPED_FOLDERS, CONFIG_FILENAMES } from '../shared/names';
import { isWithin } from '../shared/within';
import { isServedPath } from '../shared/served';

/**
 * Whether a folder walk opens the file: the extensions the families serve (their `serves`, composed by
 * engine/served.ts and put in by the build), e.g. a Helm chart's template helpers only under a `templates/` folder
 * and its packaged dependencies only in a `charts/` folder (the server reads the archive itself).
 */
export const isServedFile = (abs: string): boolean => isServedPath(abs);
const ALWAYS_SKIPPED = new Set(ALWAYS_SKIPPED_FOLDERS);
const CONFIG_NAMES = new Set(CONFIG_FILENAMES);

/** A path named on the command line, or a folder met in the walk, that gave no files, and why. */
export interface PathNote { path: string; reason: string }
export interface Collected {
  files: string[];
  missing: string[];
  /** Named folders and globs whose files are all ignored (.gitignore, `ignore:`): warned about, not silently skipped. */
  ignored: PathNote[];
  /** Folders that could not be listed (permissions, I/O errors). */
  unreadable: PathNote[];
  /** Arguments that cannot be used at all (a glob longer than picomatch accepts). */
  invalid: string[];
  /** Symbolic links met in a walk that were not followed (outside the workspace, a loop, a missing target), and why. */
  links: PathNote[];
}

/** An argument as it is shown in a message: long ones shortened. */
export const showArg = (a: string) => (a.length > 200 ? `${a.slice(0, 80)}… (${a.length} characters)` : a);

export function collectFiles(args: string[], cwd: string, ignorePatterns: string[], noIgnore = false): Collected {
  const files = new Set<string>();
  const missing: string[] = [];
  const ignored: PathNote[] = [];
  const unreadable: PathNote[] = [];
  const invalid: string[] = [];
  const links: PathNote[] = [];
  const deferred: Walk['deferred'] = [];
  // Real folders walked: a link to one already walked is not walked again (its files are checked there), and a link
  // to a folder above it (a loop) is reported, not followed.
  const visited = new Set<string>();
  // A matcher without backtracking: the `ignore` package's regexes blow up on chains of **/ (a/**/a/**/…/b).
  const userIgnore = gitignoreMatcher(noIgnore ? [] : ignorePatterns);
  const isIgnoredByUser = (abs: string) => {
    if (noIgnore || !ignorePatterns.length) return false;
    const rel = path.relative(cwd, abs).split(path.sep).join('/');
    return rel !== '' && !rel.startsWith('..') && userIgnore.ignores(rel);
  };
  const never = () => false;
  for (const arg of args) {
    const abs = path.resolve(cwd, arg);
    if (picomatch.scan(arg).isGlob) {
      const scan = picomatch.scan(arg);
      const base = path.resolve(cwd, scan.base || '.');
      let match: (s: string) => boolean;
      try { match = picomatch(path.resolve(cwd, arg).split(path.sep).join('/'), { dot: true }); } catch (e) {
        invalid.push(`${showArg(arg)}: ${(e as Error).message}`);
        continue;
      }
      const before = files.size;
      const w: Walk = { add: (f) => { if (match(f.split(path.sep).join('/'))) files.add(f); }, userIgnored: isIgnoredByUser, onlyServed: false, skipped: 0, unreadable, noIgnore, links, visited, roots: [cwd, base], deferred };
      w.skippedMatch = (f) => match(f.split(path.sep).join('/'));
      walk(base, [], w);
      if (files.size === before) {
        if (w.skipped) ignored.push({ path: arg, reason: `all ${w.skipped} files matching ${showArg(arg)} are ignored by .gitignore or the ignore: list of .skewguard.yaml; use --no-ignore to check them` });
        else missing.push(showArg(arg));
      }
      continue;
    }
    let st: fs.Stats;
    try { st = fs.statSync(abs); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      missing.push(code === 'ENOENT' || code === undefined ? showArg(arg) : `${showArg(arg)} (${code})`);
      continue;
    }
    if (st.isDirectory()) {
      const above = noIgnore ? [] : gitignoresAbove(abs);
      // A folder named on the command line is checked even when the rules above it ignore it (as a named file is).
      const itself = ignoredBy(above, abs, true) || isIgnoredByUser(abs);
      const before = files.size;
      const w: Walk = { add: (f) => files.add(f), userIgnored: itself ? never : isIgnoredByUser, onlyServed: true, skipped: 0, unreadable, noIgnore, links, visited, roots: [cwd, abs], deferred };
      walk(abs, itself ? [] : above, w);
      if (files.size === before && w.skipped) {
        ignored.push({ path: abs, reason: `all ${w.skipped} files and folders under ${showArg(arg)} are ignored by .gitignore or the ignore: list of .skewguard.yaml; use --no-ignore to check them` });
      }
    } else files.add(abs);
  }
  // A folder link whose target no walk went through (it lies in a folder .gitignore, the ignore: list or the folders
  // always skipped leave out): its files are not checked, through the link or under their own name.
  for (const d of deferred) {
    if (!visited.has(d.target)) links.push({ path: d.path, reason: `not checked: a symbolic link to ${d.target}, a folder the walk leaves out (ignored by .gitignore or the ignore: list, or always skipped; not followed)` });
  }
  return { files: [...files].sort(), missing, ignored, unreadable, invalid, links };
}

interface Layer { dir: string; ig: { ignores(path: string): boolean } }

function readGitignore(dir: string): Layer | undefined {
  try {
    // Bounded whatever stat says (a .gitignore may be a link to a file that reads without end).
    const text = readTextUpTo(path.join(dir, '.gitignore'), MAX_FILE_BYTES);
    if (text === undefined) return undefined;
    return { dir, ig: gitignoreMatcher([text]) };
  } catch { return undefined; }
}

/** .gitignore files in the directories above `dir`, up to the repository root (the folder holding .git). */
function gitignoresAbove(dir: string): Layer[] {
  const layers: Layer[] = [];
  let d = path.dirname(dir);
  let cur = dir;
  while (d !== cur) {
    if (fs.existsSync(path.join(cur, '.git'))) break;
    const l = readGitignore(d);
    if (l) layers.unshift(l);
    if (fs.existsSync(path.join(d, '.git'))) break;
    cur = d; d = path.dirname(d);
  }
  return layers;
}

function ignoredBy(layers: Layer[], abs: string, isDir: boolean): boolean {
  for (const l of layers) {
    const rel = path.relative(l.dir, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    if (l.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

interface Walk {
  add: (f: string) => void;
  userIgnored: (f: string) => boolean;
  onlyServed: boolean;
  noIgnore: boolean;
  /** Files and folders left out by an ignore rule (for a glob: only files the glob matches). */
  skipped: number;
  skippedMatch?: (f: string) => boolean;
  unreadable: PathNote[];
  links: PathNote[];
  visited: Set<string>;
  /** Where a symbolic link may lead to be followed: the working folder and the walked argument. */
  roots: string[];
  /** Folder links not walked through because their target is under a walked folder (walked there under its own name). */
  deferred: Array<{ path: string; target: string }>;
}

const realOf = (p: string): string | undefined => { try { return fs.realpathSync(p); } catch { return undefined; } };
const within = isWithin;

function walk(dir: string, parents: Layer[], w: Walk, ancestors: string[] = [], viaLink = false): void {
  const real = realOf(dir) ?? dir;
  // A folder reached through a link that is walked already (or will be, under its own name) is not walked again.
  if (viaLink && w.visited.has(real)) return;
  w.visited.add(real);
  const above = [...ancestors, real];
  let entries: fs.Dirent[];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) {
    const err = e as NodeJS.ErrnoException;
    w.unreadable.push({ path: dir, reason: err.code ? `${err.code}: ${err.message.replace(/^\w+: /, '').replace(/, scandir .*$/, '')}` : err.message });
    return;
  }
  // Read a .gitignore only where the listing shows one (a failed read per folder costs more than the walk).
  const own = !w.noIgnore && entries.some((e) => e.name === '.gitignore') ? readGitignore(dir) : undefined;
  const layers = own ? [...parents, own] : parents;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (ALWAYS_SKIPPED.has(e.name)) continue;
      if (ignoredBy(layers, abs, true) || w.userIgnored(abs)) { if (!w.skippedMatch) w.skipped++; continue; }
      walk(abs, layers, w, above);
    } else if (e.isSymbolicLink()) {
      // Followed within the workspace (and the walked folder), with loop protection; anything else is reported.
      if (ignoredBy(layers, abs, false) || ignoredBy(layers, abs, true) || w.userIgnored(abs)) { if (!w.skippedMatch || w.skippedMatch(abs)) w.skipped++; continue; }
      const target = realOf(abs);
      let st: fs.Stats | undefined;
      try { st = target ? fs.statSync(target) : undefined; } catch { st = undefined; }
      if (!target || !st) { if (!w.onlyServed || isServedFile(abs)) w.links.push({ path: abs, reason: 'not checked: a symbolic link whose target is missing or cannot be read' }); continue; }
      if (!w.roots.some((r) => within(target, realOf(r) ?? r))) {
        if (st.isDirectory() || !w.onlyServed || isServedFile(abs)) w.links.push({ path: abs, reason: `not checked: a symbolic link to ${target}, outside the workspace (not followed)` });
        continue;
      }
      if (st.isDirectory()) {
        if (ALWAYS_SKIPPED.has(e.name)) continue;
        if (above.includes(target) || within(real, target)) { w.links.push({ path: abs, reason: `not checked: a symbolic link to ${target}, a folder above it (a loop, not followed)` }); continue; }
        // Walked under its own name when it is under the walked folder (not through the link: its files are checked
        // once); elsewhere in the workspace, through the link.
        // Whether it was is known once every argument is walked (collectFiles): a target the walk left out (an ignored
        // folder) is reported then, not passed over.
        if (w.roots.slice(1).some((r) => within(target, realOf(r) ?? r))) { w.deferred.push({ path: abs, target }); continue; }
        walk(abs, layers, w, above, true);
      } else if (st.isFile()) {
        if (w.onlyServed && !isServedFile(abs)) continue;
        if (w.onlyServed && CONFIG_NAMES.has(e.name)) continue;
        w.add(abs);
      }
    } else if (e.isFile()) {
      if (w.onlyServed && !isServedFile(abs)) continue;
      if (w.onlyServed && CONFIG_NAMES.has(e.name)) continue; // the config is read, and reported on, as configuration
      if (ignoredBy(layers, abs, false) || w.userIgnored(abs)) { if (!w.skippedMatch || w.skippedMatch(abs)) w.skipped++; continue; }
      w.add(abs);
    }
  }
}
