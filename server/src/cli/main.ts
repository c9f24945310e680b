// lsp-lint: checks files in CI by starting the skewguard language server over stdio and speaking LSP
// to it — the same server the editor uses, so the two can never disagree.
import { dropEarlyServer } from './early'; // first: it spawns the language server while the rest loads
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import { isUtf8 } from 'node:buffer';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-protocol/node';
import { dropIgnored } from './ignored';
import { collectFiles, showArg } from './files';
import { stylish, json, sarif, github, gitlab, count, printable, withoutCommandLines, isUncheckedNote, type FileReport } from './format';
import { ServerSession, ServerFailure, type NotFixed } from './session';
import { FileQueue } from './affinity';
import { writeFileSafely, readBounded, removeStaleTemporaries, type ReadState } from './write';
import type { InitializationOptions } from '../shared/protocol';
// Not the engine (YAML, TOML, schemas, data): the server has it. The flags that need the data (releases, windows,
// component versions) are checked by the server, which answers in its initialize result (cliProblems).
import { normalizeVersion } from '../engine/versions';
import type { SeveritySetting } from '../engine/types';
import { ruleIds, allRules } from './rule-meta';
import { familyFlag, familyFlagsHelp } from './family-flags';
import { SEVERITIES } from '../shared/names';
import { MAX_FILE_BYTES, skippedFileText } from '../shared/limits';
import { VERSION } from '../shared/version';
import { html } from './html';
import { markdown } from './markdown';
import { junit, tap } from './junit-tap';
import { readChange, changedOnly, applyChange, decorate, summaryLines } from './changed';
import type { CompareSummary } from './matrix';
import { mergeReportsMain } from './merge';
const FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab', 'html', 'markdown', 'junit', 'tap'] as const;
/** Formats whose text is markup: an escape there is a character reference. */
const MARKUP_FORMATS = new Set<string>(['html', 'markdown', 'junit']);

const HELP = `Usage: lsp-lint [options] [paths|globs...]
       lsp-lint merge-reports [-o <file>] <reports...>   join the SARIF or JSON reports of --shard runs into one

Checks StarlingX localhost.yml files (and the other file kinds skewguard serves) against
every version in the upgrade window, using the skewguard language server.

Options:
  -f, --format <fmt>              output format (default: stylish): stylish (for people), json, sarif (SARIF 2.1.0,
                                  code scanning), github (workflow annotations), gitlab (Code Quality report),
                                  html (one self-contained page: files × steps matrix), markdown (a pull-request summary),
                                  junit (JUnit XML: one test case per file and step), tap (TAP 14, the same test points)
  -o, --output-file <file>        write the report to a file instead of stdout
  -c, --config <file>             use this config instead of the nearest .skewguard.yaml
${familyFlagsHelp()}      --rule <id>=<severity>      set a rule's severity (error|warning|info|hint|off); repeatable
${familyFlagsHelp('rules')}      --exit-codes <default|pluto>  pluto: exit 3 when an API is removed, 2 when one is deprecated (as Pluto does)
      --max-warnings <n>          exit 1 when there are more than n warnings (default: -1, no limit)
      --fix                       apply the preferred fixes (atomic writes; files that do not parse are left alone;
                                  read-only files, files with several hard links and files changed meanwhile are
                                  left alone with a warning)
      --stdin, -                  read the file from standard input
      --stdin-filename <name>     the name used for standard input (implies --stdin)
      --print-config [path]       print the resolved windows and where each part came from, then exit
  -j, --jobs <n>                  language server processes to run in parallel (default: 1, or 2 for 400+ files)
      --shard <i>/<n>             check only the i-th of n equal shares of the files (for fan-out across CI jobs)
      --changed-since <git-ref>   check only the files changed since the ref (git diff, untracked files too) and
                                  report only the findings on the lines the change touched
      --compare                   with --changed-since: which steps the change breaks or repairs (the base version
                                  of each changed file is checked too, read with git, never written)
      --no-ignore                 check what .gitignore files and the ignore: list of .skewguard.yaml exclude
${familyFlagsHelp('run')}      --allow-unchecked           a file or part of one that was not checked (skipped, not read, outside the
                                  workspace, a remote base, a symbolic link not followed) is reported but does
                                  not fail the run (by default it exits 2, as an invalid configuration does)
      --timeout <seconds>         how long the language server may give no answer for a file (default: 60); a server
                                  that dies or stalls is restarted once, and the files it did not answer for are
                                  reported as not checked (skewguard/internal-error); also the bound on each git
                                  command of --changed-since
      --color, --no-color         colours in stylish output (default: when stdout is a terminal and NO_COLOR is unset)
  -h, --help                      this help
  -v, --version                   the version
  --                              the arguments after it are paths, even when they start with "-"

Options that take a value also accept --option=value. Directories are walked for .yml, .yaml, .json and .toml
files (.gitignore and the ignore: list of .skewguard.yaml are respected). Paths named on the command line are
checked even when ignored; a named folder or glob whose files are all ignored gets a warning (use --no-ignore).
Only regular files are read (FIFOs, devices and sockets are reported as not checked).

Exit codes: 0 no errors; 1 errors (or more warnings than --max-warnings); 2 usage error, invalid .skewguard.yaml,
missing path, no file checked at all, a file or folder that could not be read or written, a file or part of one
not checked (unless --allow-unchecked), a language server that died, or internal failure.
With --exit-codes pluto: 3 an API is removed in the window, 2 one is deprecated (k8s/window-past-data is neither:
it follows the default codes).
`;

interface Options {
  format: typeof FORMATS[number];
  outputFile?: string;
  config?: string;
  /**
   * The config sections' flags (cli/family-flags.ts: the StarlingX release, the Kubernetes window, …, --component-versions,
   * --helm-render), by their Overrides key.
   */
  family: Record<string, string | boolean | Record<string, string>>;
  rules: Record<string, SeveritySetting>;
  maxWarnings: number;
  exitCodes: 'default' | 'pluto';
  fix: boolean;
  stdin: boolean;
  stdinFilename?: string;
  printConfig: boolean;
  jobs?: number;
  shard?: { index: number; count: number };
  color: boolean;
  noIgnore: boolean;
  /** --helm-render (the Helm family's flag): one server, and no Helm to render with is a usage error. */
  renderWithHelm: boolean;
  /** --allow-unchecked: what was not checked is reported, but does not fail the run. */
  allowUnchecked: boolean;
  /** Seconds the language server may stay silent while an answer is due. */
  timeout: number;
  paths: string[];
  changedSince?: string;
  compare: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options | 'help' | 'version' {
  const o: Options = { format: 'stylish', family: {}, rules: {}, maxWarnings: -1, exitCodes: 'default', fix: false, stdin: false, printConfig: false, color: !!process.stdout.isTTY && !process.env.NO_COLOR, noIgnore: false, renderWithHelm: false, allowUnchecked: false, timeout: 60, paths: [], compare: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') { for (const a of argv.slice(i + 1)) o.paths.push(a); break; }
    let a = argv[i];
    let inline: string | undefined;
    if (a.startsWith('--') && a.includes('=')) { inline = a.slice(a.indexOf('=') + 1); a = a.slice(0, a.indexOf('=')); }
    const val = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '-h': case '--help': return 'help';
      case '-v': case '--version': return 'version';
      case '-f': case '--format': {
        const f = val();
        if (!(FORMATS as readonly string[]).includes(f)) throw new UsageError(`unknown format "${f}"; use one of ${FORMATS.join(', ')}`);
        o.format = f as Options['format']; break;
      }
      case '-o': case '--output-file': o.outputFile = val(); break;
      case '-c': case '--config': o.config = val(); break;
      case '--exit-codes': {
        const v = val();
        if (v !== 'default' && v !== 'pluto') throw new UsageError('--exit-codes takes default or pluto');
        o.exitCodes = v; break;
      }
      case '--rule': {
        const m = /^([^=]+)=(\w+)$/.exec(val());
        if (!m) throw new UsageError('--rule takes <rule-id>=<severity>');
        if (!ruleIds.has(m[1])) throw new UsageError(`unknown rule id "${m[1]}"`);
        if (!SEVERITIES.includes(m[2] as SeveritySetting)) throw new UsageError(`severity must be one of ${SEVERITIES.join(', ')}`);
        o.rules[m[1]] = m[2] as SeveritySetting; break;
      }
      case '--max-warnings': {
        const n = Number(val());
        if (!Number.isInteger(n)) throw new UsageError('--max-warnings takes a whole number');
        o.maxWarnings = n; break;
      }
      case '--fix': o.fix = true; break;
      case '--stdin': o.stdin = true; break;
      case '--stdin-filename': o.stdinFilename = val(); o.stdin = true; break;
      case '--print-config': o.printConfig = true; break;
      case '-j': case '--jobs': {
        const n = Number(val());
        if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError('--jobs takes a whole number from 1 to 64');
        o.jobs = n; break;
      }
      case '--shard': {
        const m = /^(\d+)\/(\d+)$/.exec(val());
        if (!m || Number(m[2]) < 1 || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError('--shard takes i/n with 1 <= i <= n, e.g. 2/4');
        o.shard = { index: Number(m[1]), count: Number(m[2]) }; break;
      }
      case '--no-ignore': o.noIgnore = true; break;
      case '--changed-since': o.changedSince = val(); break;
      case '--compare': o.compare = true; break;
      case '--allow-unchecked': o.allowUnchecked = true; break;
      case '--timeout': {
        const n = Number(val());
        if (!Number.isFinite(n) || n <= 0 || n > 86400) throw new UsageError('--timeout takes a number of seconds above 0');
        o.timeout = n; break;
      }
      case '--no-color': o.color = false; break;
      case '--color': o.color = true; break;
      default: {
        // A family's flag (its config section): a window is checked against the data by the server (cliProblems).
        const ff = familyFlag(a);
        if (ff) {
          // A switch takes no value (an inline one is ignored, as --fix's is).
          if (ff.form === 'switch') { o.family[ff.key] = true; break; }
          const v = val();
          if (ff.values && !ff.values.includes(v)) throw new UsageError(ff.invalid ?? `${ff.name} takes ${ff.values.join(' or ')}`);
          if (ff.form === 'version') {
            // One version (Pluto's --target-versions k8s=v1.25.0): normalised ("1.25"), the window v..v.
            const n = normalizeVersion(v);
            if (!/^\d+\.\d+(\.\d+)?$/.test(n)) throw new UsageError(ff.invalid ?? `${ff.name} takes a version such as 1.25 or v1.25.0`);
            o.family[ff.key] = n; break;
          }
          if (ff.form === 'minor=path') {
            const m = /^\s*v?(\d+\.\d+)\s*=(.+)$/.exec(v);
            if (!m || !m[2].trim()) throw new UsageError(ff.invalid ?? `${ff.name} takes <minor>=<file>`);
            // Resolved here (the working folder is lsp-lint's); read by the server, which says a document it cannot use.
            const map = (typeof o.family[ff.key] === 'object' ? o.family[ff.key] : (o.family[ff.key] = {})) as Record<string, string>;
            map[m[1]] = path.resolve(m[2].trim());
            break;
          }
          if (ff.form === 'map') {
            // Repeatable <name>=<value>[,…] (--component-versions cert-manager=1.5,istio=1.11), each value as given: the
            // server checks it (and says so in the flag's terms) and normalises it.
            const map = (typeof o.family[ff.key] === 'object' ? o.family[ff.key] : (o.family[ff.key] = {})) as Record<string, string>;
            for (const part of v.split(',')) {
              const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
              if (!m) throw new UsageError(ff.invalid ?? `${ff.name} takes <name>=<value>[,…]`);
              map[m[1]] = m[2];
            }
            break;
          }
          if (ff.form === 'path') { o.family[ff.key] = path.resolve(v); break; }
          o.family[ff.key] = v; break;
        }
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${printable(showArg(a))}`);
        if (a === '-') o.stdin = true; else o.paths.push(a);
      }
    }
  }
  o.renderWithHelm = o.family.helmRender === true;
  if (o.stdin && o.fix) throw new UsageError('--fix cannot be used with standard input');
  if (o.compare && o.changedSince === undefined) throw new UsageError('--compare needs --changed-since <git-ref>');
  if (o.stdin && o.changedSince !== undefined) throw new UsageError('--changed-since cannot be used with standard input');
  return o;
}

/**
 * The folders of the paths named on the command line that lie outside the working folder: the server may read their
 * neighbours (a kustomization's resources, a chart's files) as it reads the working folder's. Nothing else outside
 * the working folder is read (server/checked-roots.ts).
 */
function extraRoots(paths: string[], cwd: string): { extraRoots?: string[] } {
  const out = new Set<string>();
  for (const a of paths) {
    const abs = path.resolve(cwd, a.replace(/[*?[{].*$/s, '') || '.');
    const rel = path.relative(cwd, abs);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) continue;
    out.add(isDirectory(abs) ? abs : path.dirname(abs));
  }
  return out.size ? { extraRoots: [...out] } : {};
}

function isDirectory(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}

/** Applies LSP text edits (non-overlapping) to a text, in one pass over it. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) { if (text.charCodeAt(i + 1) === 10) i++; starts.push(i + 1); }
  }
  const off = (p: { line: number; character: number }) => (p.line >= starts.length ? text.length : Math.min(starts[p.line] + p.character, text.length));
  // In text order; edits at the same position keep their array order in the result, as LSP specifies.
  const sorted = edits.map((e, i) => ({ s: off(e.range.start), e: off(e.range.end), t: e.newText, i })).sort((a, b) => a.s - b.s || a.i - b.i);
  const parts: string[] = [];
  let pos = 0;
  for (const e of sorted) {
    if (e.s > pos) parts.push(text.slice(pos, e.s));
    parts.push(e.t);
    pos = Math.max(pos, e.e);
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

const BOM = '\uFEFF';
const isBinary = (buf: Buffer) => buf.subarray(0, 8192).includes(0);
const zero = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const INTERNAL_ERROR = 'skewguard/internal-error';
const SKIPPED_FILE = 'skewguard/skipped-file';

/** Every server started in this run: all are shut down (or killed) on every way out. */
const allSessions: ServerSession[] = [];

/** A run's own bound: a bug in lsp-lint that waits for nothing stops it instead of hanging the CI job. */
let watchdog: NodeJS.Timeout | undefined;
let watchdogMs = 130_000;
function progress(): void {
  if (watchdog) clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    process.stderr.write(`lsp-lint: internal error: no progress for ${watchdogMs / 1000} s; stopping\n`);
    for (const s of allSessions) s.fail('stopped by the watchdog');
    process.exit(2);
  }, watchdogMs);
  watchdog.unref();
}

/** A report for a file or folder that was not checked at all. */
const notChecked = (file: string, code: string, message: string, severity: 1 | 2 = 1): FileReport =>
  ({ file, family: null, notChecked: true, diagnostics: [{ range: zero(), severity, code, source: 'skewguard', message }] });

/** One server slot of the pool: its server is replaced once when it fails; after a second failure the slot stops. */
class Slot {
  private restarted = false;
  private replacing: Promise<void> | undefined;
  dead = false;
  constructor(public session: ServerSession, private readonly make: () => ServerSession) {}
  replace(failed: ServerSession): Promise<void> {
    if (this.session !== failed) return this.replacing ?? Promise.resolve();
    if (this.restarted) { this.dead = true; return Promise.resolve(); }
    this.restarted = true;
    process.stderr.write(`lsp-lint: ${failed.failure?.message ?? 'the language server failed'}; starting a new one for the remaining files\n`);
    this.session = this.make();
    this.replacing = this.session.initPromise.catch(() => { this.dead = true; });
    return this.replacing;
  }
}

const usageError = (message: string) => { process.stderr.write(`lsp-lint: ${message}\n\n${HELP}`); return 2; };

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'merge-reports') return mergeReportsMain(argv.slice(1));
  let opts: Options | 'help' | 'version';
  try { opts = parseArgs(argv); } catch (e) {
    if (e instanceof UsageError) return usageError(e.message);
    throw e;
  }
  if (opts === 'help') { process.stdout.write(HELP); return 0; }
  if (opts === 'version') { process.stdout.write(`${VERSION}\n`); return 0; }
  watchdogMs = (2 * opts.timeout + 10) * 1000;
  progress();
  const cwd = process.cwd();
  const change = opts.changedSince !== undefined ? readChange(cwd, opts.changedSince, opts.timeout * 1000) : undefined;
  if (change && 'error' in change) { process.stderr.write(`lsp-lint: ${printable(change.error)}\n`); return 2; }

  const initOptions: InitializationOptions = {
    reportFacts: true,
    allDiagnostics: true,
    // Each file is analysed once (a few times with --fix): a cache for one file's documents is enough.
    parseCacheChars: 256 * 1024,
    clearDiagnosticsOnClose: false,
    cli: {
      configPath: opts.config,
      ...opts.family, rules: opts.rules,
      ...extraRoots(opts.paths, cwd), helmJobs: opts.jobs, ...(opts.noIgnore ? { noIgnore: true } : {}),
      // A render must end (and be said) before lsp-lint's stall timer would give up on the server.
      helmTimeoutMs: Math.min(30_000, Math.round(opts.timeout * 800)),
    },
  };
  const start = (init: InitializationOptions) => { const s = new ServerSession(cwd, init, opts.timeout * 1000); allSessions.push(s); return s; };
  // Every server says the once-per-run notes (stale data, a window past the data) with its first manifest, and the
  // report keeps the first of each: a run whose manifests all went to one server must not lose them.
  const startWorker = () => start(initOptions);
  // The configuration lsp-lint asks for first (the workspace's, or --config's, or --print-config's file's): the
  // first server answers it with its initialize result, a round trip less before the first file.
  const configTarget = opts.printConfig ? (opts.paths[0] ? pathToFileURL(path.resolve(cwd, opts.paths[0])).toString() : undefined)
    : opts.config ? pathToFileURL(path.resolve(cwd, opts.config)).toString() : undefined;
  const session = start({ ...initOptions, resolvedConfig: { uri: configTarget, ...(opts.printConfig ? { operatorPins: true } : {}) } });
  const sessions = [session];
  // A folder to walk will likely need more than one server: start the others now, so that they boot while the
  // first one resolves the configuration and the files are collected (about half a second at 10,000 files).
  // Those not needed are shut down again.
  // --helm-render: one server, which runs up to --jobs Helm processes (each chart is then rendered once, not once
  // per server that checks one of its files).
  const early = opts.renderWithHelm ? 1 : opts.jobs ?? (!opts.stdin && !opts.printConfig && os.cpus().length > 1 && (!opts.paths.length || opts.paths.some(isDirectory)) ? Math.min(2, os.cpus().length) : 1);
  for (let j = 1; j < early; j++) sessions.push(startWorker());
  // The files are collected while the server starts (.gitignore here; ignore: by the server, below).
  if (!opts.stdin && !opts.printConfig && !opts.paths.length) opts.paths.push('.');
  const collected = opts.stdin || opts.printConfig ? undefined : collectFiles(opts.paths, cwd, [], opts.noIgnore);
  try { await session.initPromise; } catch (e) {
    process.stderr.write(`lsp-lint: the language server did not start: ${(e as Error).message}\n`);
    return 2;
  }
  // The flags the server checked are usage errors too, reported before anything else is looked at.
  if (session.cliProblems.length) return usageError(session.cliProblems[0]);
  if (opts.config && !fs.existsSync(opts.config)) { process.stderr.write(`lsp-lint: config file ${printable(opts.config)} not found\n`); return 2; }
  if (opts.outputFile) {
    // Found out now, not after checking every file.
    const dir = path.dirname(path.resolve(cwd, opts.outputFile));
    try { fs.accessSync(dir, fs.constants.W_OK); } catch (e) {
      process.stderr.write(`lsp-lint: cannot write the report to ${printable(opts.outputFile)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (folder ${printable(dir)})\n`);
      return 2;
    }
  }
  progress();

  if (opts.printConfig) {
    const r = await session.resolvedConfig(configTarget);
    // summary: the window in a few words, each part nobody chose marked "(default)" (as the editor's status item says it).
    process.stdout.write(JSON.stringify({ summary: r.fileWindow ?? r.summary, ...r.resolved, configProblems: r.configProblems }, null, 2) + '\n');
    return r.configProblems.length ? 2 : 0;
  }

  const cfg = await session.resolvedConfig(configTarget);
  if (cfg.configProblems.length) {
    for (const p of cfg.configProblems) process.stderr.write(`lsp-lint: ${printable(path.relative(cwd, p.file))}:${p.line + 1}:${p.character + 1}: ${p.message}\n`);
    return 2;
  }
  // --helm-render without a Helm to render with is a usage error (helm.render in .skewguard.yaml alone is not: the
  // report then says, per chart, that it was read by the evaluator and why).
  const helmInfo = cfg.resolved.helm as { binary?: string | null; looked?: string[]; refused?: string } | undefined;
  if (opts.renderWithHelm && helmInfo?.refused) return usageError(`--helm-render: ${printable(helmInfo.refused)}`);
  if (opts.renderWithHelm && !helmInfo?.binary) {
    const looked = helmInfo?.looked ?? [];
    return usageError(`--helm-render: no Helm binary found (looked at ${looked.slice(0, 8).map(printable).join(', ')}${looked.length > 8 ? `, … ${looked.length - 8} more` : ''}); install Helm 3 or name it with --helm-path`);
  }
  progress();

  let reports: FileReport[] = [];
  let emptyShard = false;
  if (opts.stdin) {
    const name = path.resolve(cwd, opts.stdinFilename ?? 'stdin.yaml');
    const uri = pathToFileURL(name).toString();
    // Never more than the size limit plus one byte (to know it is over), whatever standard input is.
    const buf = readBounded(0, MAX_FILE_BYTES + 1);
    try {
      if (isBinary(buf) || buf.length > MAX_FILE_BYTES) reports.push({ file: name, family: null, diagnostics: await openSkipped(session, uri, buf) });
      else {
        const text = buf.toString('utf8').replace(/^\uFEFF/, '');
        const diags = await session.open(uri, text);
        reports.push({ file: name, diagnostics: diags, ...session.factsOf(uri) });
      }
    } catch (e) {
      reports.push(notChecked(name, INTERNAL_ERROR, `not checked: ${(e as Error).message}`));
    }
  } else if (collected) {
    // .gitignore was applied by collectFiles; ignore: by the server, from the configuration of each file (cli/ignored.ts).
    if (!opts.noIgnore && !collected.invalid.length && !collected.missing.length) await dropIgnored(session, collected, opts.paths, cwd);
    progress();
    if (collected.invalid.length) {
      process.stderr.write(`lsp-lint: cannot use ${collected.invalid.map(printable).join('; ')}\n`);
      return 2;
    }
    if (collected.missing.length) {
      process.stderr.write(`lsp-lint: no such file or no match: ${collected.missing.map(printable).join(', ')}\n`);
      return 2;
    }
    for (const n of collected.unreadable) reports.push(notChecked(n.path, SKIPPED_FILE, `folder not read: ${n.reason}`));
    // Symbolic links a walk did not follow (outside the workspace, a loop, a missing target): said, never skipped silently.
    for (const n of collected.links) reports.push(notChecked(n.path, SKIPPED_FILE, n.reason, 2));
    // Ignored by the user's own lists: a warning, the user's choice (not a "not checked" failure).
    for (const n of collected.ignored) {
      const r = notChecked(path.resolve(cwd, n.path), SKIPPED_FILE, n.reason, 2);
      r.diagnostics[0].data = { ignored: true };
      reports.push({ ...r, ignoredByUser: true });
    }
    // A shard is every n-th file of the sorted list, so shards are disjoint, cover everything and stay balanced.
    const files = changedOnly(change, opts.shard ? collected.files.filter((_, i) => i % opts.shard!.count === opts.shard!.index - 1) : collected.files);
    emptyShard = !!opts.shard && !files.length && collected.files.length > 0;
    if (change && !files.length) { emptyShard = true; process.stderr.write(`lsp-lint: no file to check changed since ${printable(change.ref)}\n`); }
    const jobs = opts.renderWithHelm ? 1 : Math.min(opts.jobs ?? (files.length >= 400 ? Math.min(2, os.cpus().length) : 1), Math.max(1, files.length));
    while (sessions.length < jobs) sessions.push(startWorker());
    for (const extra of sessions.splice(jobs)) void extra.initPromise.then(() => extra.shutdown(), () => undefined);
    const progressLine = process.stderr.isTTY && files.length > 50;
    let finished = 0;
    // The files of one chart, and of one folder, go to one server (cli/affinity.ts): each server renders only the charts
    // it checks and works out only its folders' windows.
    const queue = new FileQueue(files);
    const worker = async (slot: Slot) => {
      for (;;) {
        if (slot.dead) { queue.release(slot); return; }
        const s = slot.session;
        try { await s.initPromise; } catch { await slot.replace(s); continue; }
        const f = queue.next(slot);
        if (f === undefined) return;
        try { reports.push(await checkFile(s, f, opts)); } catch (e) {
          reports.push(notChecked(f, INTERNAL_ERROR, `not checked: ${(e as Error).message}`));
          if (e instanceof ServerFailure) await slot.replace(s);
        }
        finished++;
        progress();
        if (progressLine && finished % 25 === 0) process.stderr.write(`\rlsp-lint: ${finished}/${files.length} files`);
      }
    };
    const slots = sessions.map((s) => new Slot(s, () => { const n = startWorker(); return n; }));
    const perServer = Math.min(16, Math.ceil((files.length || 1) / sessions.length));
    await Promise.all(slots.flatMap((s) => Array.from({ length: perServer }, () => worker(s))));
    // Every server failed twice: what is left is reported, not dropped.
    for (const f of queue.rest()) reports.push(notChecked(f, INTERNAL_ERROR, 'not checked: the language server failed twice; no server was left to check it'));
    if (progressLine) process.stderr.write(`\rlsp-lint: ${files.length}/${files.length} files\n`);
    reports.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    oncePerRun(reports);
  }

  // Every file is checked: the servers are shut down now, while the report is made and written, not after it.
  // (--changed --compare starts servers of its own for the base.)
  for (const s of allSessions) void s.shutdown();

  let summary: CompareSummary | undefined;
  if (change) ({ reports, summary } = await applyChange(change, reports, cwd, opts.compare, startWorker));

  let out: string;
  switch (opts.format) {
    case 'json': out = json(reports, VERSION); break;
    case 'sarif': out = sarif(reports, cwd, VERSION); break;
    case 'github': out = github(reports, cwd); break;
    case 'gitlab': out = gitlab(reports, cwd); break;
    case 'html': out = html(reports, cwd, { version: VERSION, compare: summary }); break;
    case 'markdown': out = markdown(reports, cwd, { version: VERSION, compare: summary }); break;
    case 'junit': out = junit(reports, cwd, VERSION); break;
    case 'tap': out = tap(reports, cwd); break;
    default: out = stylish(reports, cwd, opts.color && !opts.outputFile);
  }
  if (summary) {
    out = decorate(opts.format, out, summary, cwd);
    if (opts.format !== 'stylish') process.stderr.write(summaryLines(summary).map((l) => `lsp-lint: ${l.trim()}`).join('\n') + '\n');
  }
  // Whatever a file is named or holds, no line of the report starts a CI workflow command (github's own annotations,
  // whose every value is escaped, excepted).
  if (opts.format !== 'github') out = withoutCommandLines(out, MARKUP_FORMATS.has(opts.format));
  if (opts.outputFile) {
    try { fs.writeFileSync(opts.outputFile, out); } catch (e) {
      process.stderr.write(`lsp-lint: cannot write the report to ${printable(opts.outputFile)}: ${(e as Error).message}\n`);
      return 2;
    }
  } else process.stdout.write(out);
  for (const [reason, n] of notFixedReasons) process.stderr.write(`lsp-lint: ${n} finding${n === 1 ? '' : 's'} ${reason}\n`);

  const failed = reports.filter((r) => (r.notChecked && r.diagnostics.some((d) => d.severity === 1)) || r.diagnostics.some((d) => d.code === INTERNAL_ERROR));
  if (failed.length) {
    const names = failed.map((r) => printable(path.relative(cwd, r.file) || r.file));
    process.stderr.write(`lsp-lint: ${failed.length} file${failed.length === 1 ? '' : 's'} or folder${failed.length === 1 ? '' : 's'} not checked or not written: ${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length - 20} more)` : ''}\n`);
    return 2;
  }
  // "Not checked" notes, whatever their severity: never a clean run unless the user allows it.
  const unchecked = reports.filter((r) => !r.ignoredByUser && (r.notChecked || r.diagnostics.some(isUncheckedNote)));
  if (unchecked.length && !opts.allowUnchecked) {
    const names = unchecked.map((r) => printable(path.relative(cwd, r.file) || r.file));
    process.stderr.write(`lsp-lint: ${unchecked.length} file${unchecked.length === 1 ? '' : 's'} not (fully) checked: ${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length - 20} more)` : ''}; see the report (--allow-unchecked: report them, exit as if checked)\n`);
    return 2;
  }
  if (!reports.some((r) => !r.notChecked) && !emptyShard) {
    process.stderr.write('lsp-lint: no file was checked\n');
    return 2;
  }
  const n = count(reports);
  const tooManyWarnings = opts.maxWarnings >= 0 && n.warnings > opts.maxWarnings;
  if (tooManyWarnings && opts.format === 'stylish') process.stderr.write(`lsp-lint: ${n.warnings} warnings, more than --max-warnings ${opts.maxWarnings}\n`);
  if (opts.exitCodes === 'pluto') {
    // Pluto's codes: 3 removed, 2 deprecated (removed wins), as each rule's metadata says; otherwise our own.
    const codes = new Set(reports.flatMap((r) => r.diagnostics.map((d) => String(d.code))));
    const pluto = allRules.reduce((code, r) => (r.plutoExitCode && codes.has(r.id) ? Math.max(code, r.plutoExitCode) : code), 0);
    if (pluto) return pluto;
  }
  return n.errors > 0 || tooManyWarnings ? 1 : 0;
}

/** The server reports a binary or over-large file as skipped (with the severity the config gives that rule). */
async function openSkipped(session: ServerSession, uri: string, buf: Buffer): Promise<Diagnostic[]> {
  // Send it only what it needs to see that: the first NUL byte, or a text over the limit.
  const head = skippedFileText(buf, buf.length > MAX_FILE_BYTES);
  const diags = await session.open(uri, head);
  session.close(uri);
  return diags;
}

const KINDS: [keyof fs.Stats, string][] = [['isFIFO', 'a FIFO'], ['isCharacterDevice', 'a character device'], ['isBlockDevice', 'a block device'], ['isSocket', 'a socket'], ['isDirectory', 'a folder']];
const kindOf = (st: fs.Stats) => KINDS.find(([k]) => (st[k] as () => boolean).call(st))?.[1] ?? 'not a regular file';

/** Reads a regular file, at most the size limit plus one byte; anything else is refused without blocking. */
function readFileBounded(file: string): { buf: Buffer; state: ReadState } | { reason: string } {
  const why = (e: unknown) => ({ reason: (e as NodeJS.ErrnoException).code ? `${(e as NodeJS.ErrnoException).code}: ${(e as Error).message.replace(/^\w+: /, '').replace(/, \w+ '.*$/s, '')}` : (e as Error).message });
  let fd: number;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return { reason: `${kindOf(st)}, not a regular file` };
    // O_NONBLOCK: should the file have been replaced by a FIFO since, opening it does not wait for a writer.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) { return why(e); }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { reason: `${kindOf(st)}, not a regular file` };
    const buf = readBounded(fd, MAX_FILE_BYTES + 1, st.size);
    return { buf, state: { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev, content: buf } };
  } catch (e) { return why(e); } finally { fs.closeSync(fd); }
}

/** The notes a run says once (each server says them once; the rules' oncePerRun): the first in file order is kept. */
const ONCE_PER_RUN = new Set(allRules.filter((r) => r.oncePerRun).map((r) => r.id));
function oncePerRun(reports: FileReport[]): void {
  const said = new Set<string>();
  for (const r of reports) {
    r.diagnostics = r.diagnostics.filter((d) => {
      const id = String(d.code ?? '');
      // A subfolder's invalid .skewguard.yaml (server/diagnostics.ts configProblemNote): once per configuration.
      const config = (d.data as { config?: unknown } | undefined)?.config;
      const key = id === 'config/invalid' && typeof config === 'string' ? `${id}\u0000${config}` : ONCE_PER_RUN.has(id) ? id : undefined;
      if (key === undefined) return true;
      if (said.has(key)) return false;
      said.add(key);
      return true;
    });
  }
}

/** From this size a file being checked is named on a terminal (lsp-lint's progress is otherwise per file). */
const BIG_FILE_BYTES = 4 * 1024 * 1024;

/** A `.tgz` in a `charts/` folder (a Helm chart's packaged dependency), within the size limit. */
const isChartArchive = (file: string) => /\.tgz$/i.test(file) && path.basename(path.dirname(file)) === 'charts';
const buf0 = (b: Buffer) => b.length <= MAX_FILE_BYTES;

async function checkFile(session: ServerSession, file: string, opts: Options): Promise<FileReport> {
  const uri = pathToFileURL(file).toString();
  if (opts.fix) removeStaleTemporaries(path.dirname(file));
  const read = readFileBounded(file);
  if ('reason' in read) return notChecked(file, SKIPPED_FILE, `not checked: ${read.reason}`);
  // A chart's packaged dependency: the server reads the archive's bytes itself (through its file access).
  const buf = isChartArchive(file) && buf0(read.buf) ? Buffer.alloc(0) : read.buf;
  if (isBinary(buf) || buf.length > MAX_FILE_BYTES) return { file, family: null, diagnostics: await openSkipped(session, uri, buf) };
  const raw = buf.toString('utf8');
  const hasBom = raw.startsWith(BOM);
  let text = hasBom ? raw.slice(1) : raw;
  // A big file (an audit log, a metrics dump) is named on a terminal while the server checks it.
  const big = !!process.stderr.isTTY && buf.length >= BIG_FILE_BYTES;
  if (big) process.stderr.write(`\rlsp-lint: checking ${path.relative(process.cwd(), file) || file} (${(buf.length / 1048576).toFixed(1)} MB)…\x1b[K`);
  let first: Diagnostic[];
  try { first = await session.open(uri, text); } finally { if (big) process.stderr.write('\r\x1b[K'); }
  let diags = first;
  let fixed = false;
  let notFixed: NotFixed[] = [];
  if (opts.fix) {
    let version = 1;
    for (let pass = 2; pass < 12; pass++) {
      const all = await session.fixAll(uri);
      const edits = all.edits;
      notFixed = all.notFixed;
      if (!edits.length) break;
      const next = applyEdits(text, edits);
      if (next === text) break;
      text = next;
      fixed = true;
      diags = await session.change(uri, version = pass, text);
    }
    // A fix that failed inside the server is published again for the same version, as an internal error.
    diags = session.latest(uri, version) ?? diags;
  }
  const { family, facts, steps } = session.factsOf(uri);
  session.close(uri);
  if (fixed) {
    // Bytes that are not UTF-8 were read as U+FFFD: writing the text back would replace them on lines no fix touched.
    const w = !isUtf8(buf)
      ? { written: false as const, reason: 'the file is not valid UTF-8, and writing it back would replace its other bytes (each read as U+FFFD)' }
      : writeFileSafely(file, Buffer.from((hasBom ? BOM : '') + text, 'utf8'), read.state);
    if (!w.written) {
      // The file on disk is unchanged: report what it holds, and why it was not fixed.
      const note: Diagnostic = w.failed
        ? { range: zero(), severity: 1, code: INTERNAL_ERROR, source: 'skewguard', message: `not fixed: writing the file failed: ${w.reason}` }
        : { range: zero(), severity: 2, code: SKIPPED_FILE, source: 'skewguard', message: `not fixed: ${w.reason}; --fix left the file alone` };
      return { file, family, diagnostics: [note, ...first], fixed: false, facts, steps };
    }
  }
  return { file, family, diagnostics: notFixed.length ? saidNotFixed(diags, notFixed) : diags, fixed, facts, steps };
}

/**
 * The findings whose fix --fix left alone (a key under a window nobody chose: server/fix-window.ts) say so in their
 * message, at their position ("… (not fixed: the Kata window is the default 4.1; set kata.window)"); counted for the
 * run's closing note.
 */
function saidNotFixed(diags: Diagnostic[], notFixed: NotFixed[]): Diagnostic[] {
  const same = (d: Diagnostic, n: NotFixed) => d.code === n.code && d.message === n.message && d.range.start.line === n.range.start.line
    && d.range.start.character === n.range.start.character && d.range.end.line === n.range.end.line && d.range.end.character === n.range.end.character;
  return diags.map((d) => {
    const n = notFixed.find((x) => same(d, x));
    if (!n) return d;
    notFixedReasons.set(n.reason, (notFixedReasons.get(n.reason) ?? 0) + 1);
    return { ...d, message: `${d.message} (${n.reason})` };
  });
}
/** --fix: each reason a fix was not applied, and how many findings it held. */
const notFixedReasons = new Map<string, number>();

/**
 * A write to standard output that failed (EPIPE: the reader went away, as `| head` does; ENOSPC: a full disk): the
 * report was not all delivered, which is said and exits 2, never a crash and never the run's own exit code.
 */
let stdoutFailure: string | undefined;
process.stdout.on('error', (e: NodeJS.ErrnoException) => { stdoutFailure ??= e.code ?? e.message; });
process.stderr.on('error', () => { /* nowhere left to say anything */ });

let exiting = false;
async function finish(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  // Until the servers are shut down and the code is known: should the event loop run dry meanwhile, never exit 0.
  process.exitCode = 2;
  dropEarlyServer();
  progress();
  await Promise.all(allSessions.map((s) => s.shutdown()));
  // A server that died while its shutdown was pending: a crash is never a clean run (exit 2), even when every file
  // it was sent had been answered (the files it had not are already reported as not checked).
  const died = allSessions.filter((s) => s.diedInShutdown);
  if (died.length && code < 2) {
    process.stderr.write(`lsp-lint: ${died[0].diedInShutdown}${died.length > 1 ? ` (and ${died.length - 1} more)` : ''}; every file it was sent had been answered, but the run is not taken as clean\n`);
    code = 2;
  }
  if (watchdog) clearTimeout(watchdog);
  process.exitCode = code;
  // Should anything still hold the event loop (it should not), or standard output not drain, leave anyway.
  setTimeout(() => process.exit(stdoutFailure ? 2 : code), 2000).unref();
  // Every server has exited: once the report and the messages are written out, leave at once rather than wait for
  // the event loop to empty and node to tear its heap down (a few milliseconds of every run).
  await written(process.stdout);
  if (stdoutFailure) {
    process.stderr.write(`lsp-lint: the report could not be written to standard output (${stdoutFailure}): not all of it was delivered\n`);
    code = 2;
  }
  await written(process.stderr);
  process.exit(code);
}

/** Resolves once what was written to the stream has been handed to the system (a pipe's writes are asynchronous). */
function written(s: NodeJS.WriteStream): Promise<void> {
  if (!s.writableLength || s.destroyed || s.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    s.once('error', () => resolve());
    s.write('', () => resolve());
  });
}

// The event loop ran dry while main() still waited for something: a bug, never a silent exit 0.
process.on('beforeExit', () => {
  if (exiting) return;
  process.stderr.write('lsp-lint: internal error: stopped waiting with nothing left to wait for\n');
  void finish(2);
});

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => { for (const s of allSessions) s.fail(`stopped by ${sig}`); process.exit(128 + os.constants.signals[sig]); });
}

main(process.argv.slice(2)).then((code) => finish(code), (e) => {
  process.stderr.write(`lsp-lint: internal error: ${(e as Error).stack ?? e}\n`);
  return finish(2);
});
