// lsp-lint --changed-since <git-ref> [--compare]: findings only on the lines the change touched (the working tree
// against <ref>, from `git diff --unified=0` run with the system's git; untracked files count as changed whole), and
// with --compare, per changed file and step, whether the change makes the file fail there (breaks) or pass again
// (repairs): the base version of each file (`git cat-file blob <ref>:<path>`, never written anywhere) is checked by
// the same language server at the file's path and the per-step verdicts compared. git runs locally only: no fetch,
// no network, no pager, no external diff or text conversion, no prompt; nothing of the repository's configuration
// that git would run (fsmonitor, filters, hooks: NEUTRAL); git itself is found outside the repository.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { FileReport } from './format';
import { sevName, printable, escData as ghEsc, escProp as ghProp } from './format';
import type { ServerSession } from './session';
import { findingSteps } from '../engine/steps';
import { relPath, compareText, type CompareSummary } from './matrix';
import { MAX_FILE_BYTES } from '../shared/limits';
import { resolveExecutable } from '../shared/executable';

/** Lines (1-based) the change touched in a file of the working tree; 'all' for a new or untracked file. */
export type Touched = Set<number> | 'all';

export interface Change {
  ref: string;
  root: string;
  /** Absolute path in the working tree → the lines touched. */
  files: Map<string, Touched>;
  /** Absolute path in the working tree → its path at <ref> (relative to the root, `/`), when it existed there. */
  basePath: Map<string, string>;
  /** Files the change deleted (relative to the root). */
  deleted: string[];
}

const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_EXTERNAL_DIFF: '', LC_ALL: 'C' };

/**
 * What git may run of the repository's own configuration, switched off on every command: the file system monitor
 * hook, hooks, the pager, external diff, textconv (also --no-ext-diff/--no-textconv), askpass, ssh, credential
 * helpers, and submodules' work trees (which have configurations of their own). Filters (filter.<name>.clean /
 * .process, named by .gitattributes) cannot be switched off by a wildcard: each filter the configuration defines is
 * given an empty command (filterOverrides), which git skips.
 */
const NEUTRAL = [
  'core.fsmonitor=false', 'core.hooksPath=/dev/null', 'core.pager=cat', 'core.askPass=', 'core.sshCommand=', 'core.editor=:',
  'credential.helper=', 'diff.external=', 'core.untrackedCache=false', 'diff.ignoreSubmodules=dirty', 'status.submoduleSummary=false',
  'core.quotePath=false', 'diff.noprefix=false', 'diff.mnemonicPrefix=false', 'protocol.allow=never',
];

/**
 * The repository's top for `cwd`: the nearest folder at or above it (its real path) that holds `.git` (a folder, or
 * the file of a linked work tree or submodule), found without running git, at most MAX_UP folders up. Run from
 * repo/charts, the repository is repo, not charts: a git anywhere in repo must not be the one that runs.
 */
const MAX_UP = 256;
export function repositoryTop(cwd: string): string | undefined {
  let dir: string;
  try { dir = fs.realpathSync(cwd); } catch { dir = path.resolve(cwd); }
  for (let i = 0; i < MAX_UP; i++) {
    try { fs.lstatSync(path.join(dir, '.git')); return dir; } catch { /* not here: one folder up */ }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** git on PATH, as an absolute path outside the repository (never a relative PATH entry nor the current folder). */
const gitBinary = new Map<string, { path?: string; looked: string[] }>();
function gitFor(cwd: string): { path?: string; looked: string[] } {
  let g = gitBinary.get(cwd);
  if (!g) {
    const top = repositoryTop(cwd);
    const r = resolveExecutable('git', top ? [cwd, top] : [cwd]);
    gitBinary.set(cwd, (g = { path: r.path, looked: [...r.looked, ...r.skipped.map((x) => `not ${x}`)] }));
  }
  return g;
}
const gitPath = (cwd: string): string | undefined => gitFor(cwd).path;

/** Per cwd: `-c filter.<name>.<key>=` for every filter the repository's configuration defines (read, never run). */
const filterEnv = new Map<string, Record<string, string>>();
function filterOverrides(bin: string, cwd: string): Record<string, string> {
  let env = filterEnv.get(cwd);
  if (env) return env;
  env = {};
  // Reading the configuration runs nothing (config has no hooks; fsmonitor is not read by `git config`).
  const r = spawnSync(bin, ['-c', 'core.fsmonitor=false', 'config', '-z', '--get-regexp', '^filter\\.'], { cwd, env: GIT_ENV, maxBuffer: 4 << 20, stdio: ['ignore', 'pipe', 'ignore'], timeout: gitTimeoutMs, killSignal: 'SIGKILL' });
  const names = new Set<string>();
  if (r.status === 0 && r.stdout) {
    for (const entry of r.stdout.toString('utf8').split('\0')) {
      const key = entry.split('\n')[0];
      const last = key.lastIndexOf('.');
      if (key.startsWith('filter.') && last > 7) names.add(key.slice(7, last));
    }
  }
  // GIT_CONFIG_COUNT/KEY/VALUE (git 2.31+): keys taken as they are, whatever a filter's name holds ('=', spaces).
  let n = 0;
  for (const name of names) for (const k of ['clean', 'smudge', 'process']) { env[`GIT_CONFIG_KEY_${n}`] = `filter.${name}.${k}`; env[`GIT_CONFIG_VALUE_${n}`] = ''; n++; }
  if (n) env.GIT_CONFIG_COUNT = String(n);
  filterEnv.set(cwd, env);
  return env;
}

/**
 * How long one git command may take (lsp-lint's --timeout, set by readChange): git runs synchronously, so neither the
 * server's timeout nor lsp-lint's watchdog could stop a git that hangs (a lock, a slow file system, a hook of its own).
 */
let gitTimeoutMs = 60_000;

function git(cwd: string, args: string[], maxBuffer = 512 * 1024 * 1024): { ok: boolean; out: Buffer; err: string; missing?: boolean; timedOut?: boolean } {
  const bin = gitPath(cwd);
  if (!bin) return { ok: false, out: Buffer.alloc(0), err: `git not found (looked at ${gitFor(cwd).looked.slice(0, 6).join(', ')})`, missing: true };
  const r = spawnSync(bin, [...NEUTRAL.flatMap((c) => ['-c', c]), ...args], { cwd, env: { ...GIT_ENV, ...filterOverrides(bin, cwd) }, maxBuffer, stdio: ['ignore', 'pipe', 'pipe'], timeout: gitTimeoutMs, killSignal: 'SIGKILL' });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    const err = code === 'ETIMEDOUT' ? `git ${args[0]} gave no answer within ${gitTimeoutMs / 1000} s (--timeout)` : (r.error as Error).message;
    return { ok: false, out: Buffer.alloc(0), err, missing: code === 'ENOENT', timedOut: code === 'ETIMEDOUT' };
  }
  return { ok: r.status === 0, out: r.stdout, err: r.stderr.toString('utf8').trim() };
}

/** A path as git's diff header writes it: "a/x" or a C-quoted "\"a/x\\ty\"" (octal escapes are bytes of UTF-8). */
export function unquoteGitPath(s: string): string {
  if (!s.startsWith('"')) return s;
  const bytes: number[] = [];
  const body = s.slice(1, s.lastIndexOf('"'));
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') { for (const b of Buffer.from(c, 'utf8')) bytes.push(b); continue; }
    const n = body[i + 1];
    if (/[0-7]/.test(n)) { bytes.push(parseInt(body.slice(i + 1, i + 4), 8)); i += 3; } else { bytes.push(simple[n] ?? n.charCodeAt(0)); i++; }
  }
  return Buffer.from(bytes).toString('utf8');
}

const strip = (p: string, prefix: string) => (p.startsWith(prefix) ? p.slice(prefix.length) : p);

/** Parses `git diff --unified=0` output into the touched lines of each new-side file, with renames and deletions. */
export function parseDiff(patch: string): { files: Map<string, Touched>; renames: Map<string, string>; deleted: string[]; added: Set<string> } {
  const files = new Map<string, Touched>();
  const renames = new Map<string, string>();
  const deleted: string[] = [];
  const added = new Set<string>();
  let oldPath: string | undefined, newPath: string | undefined, cur: Set<number> | undefined;
  let isNew = false, isDeleted = false, renameFrom: string | undefined, renameTo: string | undefined;
  const flush = () => {
    if (isDeleted && oldPath) deleted.push(oldPath);
    const target = renameTo ?? newPath;
    if (!isDeleted && target) {
      if (isNew) { files.set(target, 'all'); added.add(target); } else files.set(target, cur ?? new Set());
      const from = renameFrom ?? oldPath;
      if (from && from !== target && !isNew) renames.set(target, from);
    }
    oldPath = newPath = renameFrom = renameTo = undefined; cur = undefined; isNew = isDeleted = false;
  };
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) { flush(); continue; }
    if (line.startsWith('new file mode')) { isNew = true; continue; }
    if (line.startsWith('deleted file mode')) { isDeleted = true; continue; }
    if (line.startsWith('rename from ')) { renameFrom = unquoteGitPath(line.slice(12)); continue; }
    if (line.startsWith('rename to ')) { renameTo = unquoteGitPath(line.slice(10)); continue; }
    if (line.startsWith('--- ')) { const p = line.slice(4); if (p !== '/dev/null') oldPath = strip(unquoteGitPath(p), 'a/'); continue; }
    if (line.startsWith('+++ ')) { const p = line.slice(4); if (p !== '/dev/null') newPath = strip(unquoteGitPath(p), 'b/'); continue; }
    if (line.startsWith('Binary files ')) {
      // A binary change: no lines to say, so the whole file.
      const m = / and (?:b\/)?(.*) differ$/.exec(line);
      if (m && m[1] !== '/dev/null') { newPath = strip(unquoteGitPath(m[1]), 'b/'); isNew = true; }
      continue;
    }
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (h) {
      cur ??= new Set();
      const start = Number(h[1]), n = h[2] === undefined ? 1 : Number(h[2]);
      // Lines added or changed; a pure deletion touches the lines on either side of where it was.
      if (n === 0) { if (start > 0) cur.add(start); cur.add(start + 1); } else for (let l = start; l < start + n; l++) cur.add(l);
    }
  }
  flush();
  return { files, renames, deleted, added };
}

/** The change of the working tree since `ref`, or why it cannot be had (not a git repository, unknown ref, no git). */
export function readChange(cwd: string, ref: string, timeoutMs = gitTimeoutMs): Change | { error: string } {
  gitTimeoutMs = timeoutMs;
  if (!ref || ref.startsWith('-')) return { error: `--changed-since takes a git ref (a branch, tag or commit), not ${JSON.stringify(ref)}` };
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.missing) return { error: '--changed-since needs git, which was not found on PATH' };
  if (!top.ok) return { error: top.timedOut ? `--changed-since: ${top.err}` : `--changed-since: ${cwd} is not in a git repository (${top.err.split('\n')[0]})` };
  const root = top.out.toString('utf8').trim();
  const v = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (v.timedOut) return { error: `--changed-since: ${v.err}` };
  if (!v.ok) return { error: `--changed-since: unknown git ref ${JSON.stringify(ref)} (not a branch, tag or commit of ${root}; a remote branch needs a fetch first)` };
  const commit = v.out.toString('utf8').trim();
  const d = git(root, ['diff', '--unified=0', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/', commit, '--']);
  if (!d.ok) return { error: `--changed-since: git diff against ${ref} failed: ${d.err.split('\n')[0]}` };
  const parsed = parseDiff(d.out.toString('utf8'));
  const u = git(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (!u.ok) return { error: `--changed-since: git ls-files failed: ${u.err.split('\n')[0]}` };
  const files = new Map<string, Touched>();
  const basePath = new Map<string, string>();
  const abs = (rel: string) => path.join(root, ...rel.split('/'));
  for (const [rel, t] of parsed.files) {
    files.set(abs(rel), t);
    if (!parsed.added.has(rel)) basePath.set(abs(rel), parsed.renames.get(rel) ?? rel);
  }
  for (const rel of u.out.toString('utf8').split('\0')) if (rel) files.set(abs(rel), 'all');
  return { ref, root, files, basePath, deleted: parsed.deleted };
}

/** The change's entry for a file as lsp-lint names it (git names it by its real path: a symlinked folder is resolved). */
function keyOf(change: Change, file: string): string | undefined {
  if (change.files.has(file)) return file;
  try { const real = fs.realpathSync(file); return change.files.has(real) ? real : undefined; } catch { return undefined; }
}

/** The files to check: those of the list the change touched. */
export function changedOnly(change: Change | undefined, files: string[]): string[] {
  return change ? files.filter((f) => keyOf(change, f) !== undefined) : files;
}

/** Kept whatever lines the change touched: a file that was not (or not fully) checked is never dropped. */
const ALWAYS = new Set(['skewguard/internal-error', 'skewguard/skipped-file']);

/** Whether a finding is on a line the change touched (any line of its range). */
export function touches(t: Touched | undefined, d: Diagnostic): boolean {
  if (!t) return false;
  if (t === 'all' || ALWAYS.has(String(d.code))) return true;
  for (let l = d.range.start.line + 1; l <= d.range.end.line + 1; l++) if (t.has(l)) return true;
  // An empty range at the start of a line, or a range ending at column 0 of the next line, names its start line only.
  return false;
}

const failingSteps = (diags: Diagnostic[], steps: readonly string[]) => {
  const out = new Set<string>();
  for (const d of diags) if (sevName(d) === 'error') for (const s of findingSteps(d.data as Record<string, unknown> | undefined, steps)) out.add(s);
  return out;
};

/**
 * Keeps the findings on touched lines (reports of files not checked stay whole), and with `compare` checks each
 * changed file's base version to say which steps the change breaks or repairs. Returns the summary and the reports.
 */
export async function applyChange(change: Change, reports: FileReport[], cwd: string, compare: boolean, session: () => ServerSession): Promise<{ reports: FileReport[]; summary: CompareSummary }> {
  const summary: CompareSummary = { base: change.ref, compared: compare, entries: [], notCompared: [], changed: [], changedFiles: 0, untouchedFindings: 0, deleted: change.deleted.map((d) => relPath(cwd, path.join(change.root, ...d.split('/')))) };
  const kept: FileReport[] = [];
  const whole = new Map<string, Diagnostic[]>();
  for (const r of reports) {
    if (r.notChecked) { kept.push(r); continue; }
    const key = keyOf(change, r.file);
    const t = key === undefined ? undefined : change.files.get(key);
    if (!t) continue;
    if (key !== r.file) { const b = change.basePath.get(key!); if (b !== undefined) change.basePath.set(r.file, b); }
    summary.changedFiles++;
    summary.changed.push(relPath(cwd, r.file));
    whole.set(r.file, r.diagnostics);
    const diagnostics = r.diagnostics.filter((d) => touches(t, d));
    summary.untouchedFindings += r.diagnostics.length - diagnostics.length;
    kept.push({ ...r, diagnostics });
  }
  if (compare) {
    let s: ServerSession | undefined;
    try {
      for (const r of kept) {
        const now = whole.get(r.file);
        const steps = r.steps;
        if (!now || !steps?.length) continue;
        const base = change.basePath.get(r.file);
        let before: Diagnostic[] = [];
        if (base !== undefined) {
          const blob = git(change.root, ['cat-file', 'blob', `${change.ref}^{commit}:${base}`], MAX_FILE_BYTES + 1);
          const why = !blob.ok ? `git cat-file failed: ${blob.err.split('\n')[0] || 'no such blob'}` : blob.out.length > MAX_FILE_BYTES ? `its version at ${change.ref} is over the size limit` : blob.out.subarray(0, 8192).includes(0) ? `its version at ${change.ref} is binary` : undefined;
          if (why) { summary.notCompared.push({ file: relPath(cwd, r.file), why }); continue; }
          try {
            s ??= session();
            await s.initPromise;
            const uri = pathToFileURL(r.file).toString();
            before = await s.open(uri, blob.out.toString('utf8').replace(/^\uFEFF/, ''));
            s.close(uri);
          } catch (e) {
            summary.notCompared.push({ file: relPath(cwd, r.file), why: `its version at ${change.ref} was not checked: ${(e as Error).message}` });
            s = undefined;
            continue;
          }
        }
        const was = failingSteps(before, steps), is = failingSteps(now, steps);
        const rel = relPath(cwd, r.file);
        const breaks = steps.filter((x) => is.has(x) && !was.has(x)), repairs = steps.filter((x) => was.has(x) && !is.has(x));
        if (breaks.length) summary.entries.push({ file: rel, family: r.family ?? '', kind: 'breaks', steps: breaks, ...(base === undefined ? { added: true } : {}) });
        if (repairs.length) summary.entries.push({ file: rel, family: r.family ?? '', kind: 'repairs', steps: repairs });
      }
    } finally { await s?.shutdown(); }
  }
  return { reports: kept, summary };
}


/** The summary as plain lines (stylish output, and standard error for the machine formats). */
export function summaryLines(c: CompareSummary): string[] {
  const out = [`Changed since ${printable(c.base)}: ${c.changedFiles} checked file${c.changedFiles === 1 ? '' : 's'}; ${c.untouchedFindings} finding${c.untouchedFindings === 1 ? '' : 's'} on lines the change did not touch left out`];
  if (c.compared) {
    if (!c.entries.length) out.push('  the change makes no step fail or pass that did not before');
    for (const e of c.entries) out.push(`  ${compareText(e, printable, printable)}`);
    for (const n of c.notCompared) out.push(`  not compared: ${printable(n.file)}: ${printable(n.why)}`);
  }
  if (c.deleted.length) out.push(`  deleted: ${c.deleted.map(printable).join(', ')}`);
  return out;
}

/**
 * What the change did, in the formats that have a place for it: stylish (first), json (a "change" object on each
 * changed file's report: the steps it breaks and repairs), sarif (the run's properties), github (an annotation per
 * broken or repaired file). html and markdown are given it directly; gitlab's report has no place for it.
 */
export function decorate(format: string, out: string, c: CompareSummary, cwd: string): string {
  switch (format) {
    case 'stylish': return summaryLines(c).join('\n') + '\n\n' + out;
    case 'json': {
      const reports = JSON.parse(out) as Array<{ filePath: string; change?: unknown }>;
      for (const r of reports) {
        const rel = relPath(cwd, r.filePath);
        const mine = c.entries.filter((e) => e.file === rel);
        if (c.changed.includes(rel)) r.change = { since: c.base, breaks: mine.find((e) => e.kind === 'breaks')?.steps ?? [], repairs: mine.find((e) => e.kind === 'repairs')?.steps ?? [], ...(c.compared ? {} : { compared: false }) };
      }
      return JSON.stringify(reports, null, 2) + '\n';
    }
    case 'sarif': {
      const log = JSON.parse(out) as { runs: Array<{ properties?: Record<string, unknown> }> };
      log.runs[0].properties = { ...log.runs[0].properties, skewguardChange: { since: c.base, compared: c.compared, changedFiles: c.changedFiles, untouchedFindings: c.untouchedFindings, entries: c.entries, notCompared: c.notCompared, deleted: c.deleted } };
      return JSON.stringify(log, null, 2) + '\n';
    }
    case 'github': {
      const lines = c.entries.map((e) => `::${e.kind === 'breaks' ? 'error' : 'notice'} file=${ghProp(e.file)},title=${ghProp(e.kind === 'breaks' ? 'skewguard: the change breaks steps' : 'skewguard: the change repairs steps')}::${ghEsc(compareText(e, (f) => f, (x) => x))}`);
      return lines.length ? lines.join('\n') + '\n' + out : out;
    }
    default: return out;
  }
}
