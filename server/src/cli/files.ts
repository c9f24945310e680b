// Which files lsp-lint checks: explicit files always; directories walked for the file kinds skewguard
// serves, respecting .gitignore files and the config's `ignore` list; glob patterns matched under their base.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

export const SERVED_EXTENSIONS = new Set(['.yml', '.yaml', '.json', '.toml']);
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);
const CONFIG_NAMES = new Set(['.skewguard.yaml', '.skewguard.yml']);

export interface Collected { files: string[]; missing: string[] }

export function collectFiles(args: string[], cwd: string, ignorePatterns: string[]): Collected {
  const files = new Set<string>();
  const missing: string[] = [];
  const userIgnore = ignore().add(ignorePatterns);
  const isIgnoredByUser = (abs: string) => {
    if (!ignorePatterns.length) return false;
    const rel = path.relative(cwd, abs).split(path.sep).join('/');
    return rel !== '' && !rel.startsWith('..') && userIgnore.ignores(rel);
  };
  for (const arg of args) {
    const abs = path.resolve(cwd, arg);
    if (picomatch.scan(arg).isGlob) {
      const scan = picomatch.scan(arg);
      const base = path.resolve(cwd, scan.base || '.');
      const match = picomatch(path.resolve(cwd, arg).split(path.sep).join('/'), { dot: true });
      const before = files.size;
      walk(base, [], (f) => { if (match(f.split(path.sep).join('/')) && !isIgnoredByUser(f)) files.add(f); }, isIgnoredByUser, false);
      if (files.size === before) missing.push(arg);
      continue;
    }
    let st: fs.Stats;
    try { st = fs.statSync(abs); } catch { missing.push(arg); continue; }
    if (st.isDirectory()) walk(abs, gitignoresAbove(abs), (f) => files.add(f), isIgnoredByUser, true);
    else files.add(abs);
  }
  return { files: [...files].sort(), missing };
}

interface Layer { dir: string; ig: Ignore }

function readGitignore(dir: string): Layer | undefined {
  try {
    const text = fs.readFileSync(path.join(dir, '.gitignore'), 'utf8');
    return { dir, ig: ignore().add(text) };
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

function walk(dir: string, parents: Layer[], add: (f: string) => void, userIgnored: (f: string) => boolean, onlyServed: boolean): void {
  let entries: fs.Dirent[];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  // Read a .gitignore only where the listing shows one (a failed read per folder costs more than the walk).
  const own = entries.some((e) => e.name === '.gitignore') ? readGitignore(dir) : undefined;
  const layers = own ? [...parents, own] : parents;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (ALWAYS_SKIPPED.has(e.name) || ignoredBy(layers, abs, true) || userIgnored(abs)) continue;
      walk(abs, layers, add, userIgnored, onlyServed);
    } else if (e.isFile()) {
      if (onlyServed && !SERVED_EXTENSIONS.has(path.extname(e.name).toLowerCase())) continue;
      if (onlyServed && CONFIG_NAMES.has(e.name)) continue; // the config is read, and reported on, as configuration
      if (ignoredBy(layers, abs, false) || userIgnored(abs)) continue;
      add(abs);
    }
  }
}
