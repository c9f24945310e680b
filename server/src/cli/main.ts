// lsp-lint: checks files in CI by starting the skewguard language server over stdio and speaking LSP
// to it — the same server the editor uses, so the two can never disagree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification, CodeActionRequest, ShutdownRequest, ExitNotification,
  type Diagnostic, type ProtocolConnection, type TextEdit, type CodeAction,
} from 'vscode-languageserver-protocol/node';
import { collectFiles } from './files';
import { coalesced } from '../shared/coalesce';
import { stylish, json, sarif, github, gitlab, count, type FileReport } from './format';
import {
  ResolvedConfigRequest, FileFactsNotification, FIX_ALL_KIND, type InitializationOptions, type ResolvedConfigResult, type FileFactsParams,
} from '../shared/protocol';
import { checkKubernetesWindow, checkKataWindow, SEVERITIES, checkComponentVersion } from '../engine/config';
import { normalizeKubernetesVersion } from '../engine/versions';
import { findStarlingxRelease } from '../engine/data';
import { ruleIds } from '../engine/rules';
import { MAX_FILE_BYTES } from '../engine/analyze';
import type { SeveritySetting } from '../engine/types';

const VERSION = '0.1.0';
const FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab'] as const;

const HELP = `Usage: lsp-lint [options] [paths|globs...]

Checks StarlingX localhost.yml files (and the other file kinds skewguard serves) against
every version in the upgrade window, using the skewguard language server.

Options:
  -f, --format <fmt>              output format (default: stylish): stylish (for people), json, sarif (SARIF 2.1.0,
                                  code scanning), github (workflow annotations), gitlab (Code Quality report)
  -o, --output-file <file>        write the report to a file instead of stdout
  -c, --config <file>             use this config instead of the nearest .skewguard.yaml
      --starlingx-release <rel>   StarlingX release, e.g. 6.0
      --kubernetes-window <w>     Kubernetes window, e.g. 1.18..1.21 or 1.21
      --kubernetes-version <v>    one target version (Pluto's --target-versions k8s=v1.25.0): the window v..v
      --kata-window <w>           Kata window, e.g. 3.2..3.32
      --kata-flavour <go|runtime-rs>  Kata runtime flavour (also --kata-flavor)
      --rule <id>=<severity>      set a rule's severity (error|warning|info|hint|off); repeatable
      --component-versions <c=v,…>  versions of CRD-providing components whose API rows are checked at them,
                                  e.g. cert-manager=1.5,istio=1.11 (default: Pluto's default target per component)
      --exit-codes <default|pluto>  pluto: exit 3 when an API is removed, 2 when one is deprecated (as Pluto does)
      --max-warnings <n>          exit 1 when there are more than n warnings (default: -1, no limit)
      --fix                       apply the preferred fixes (atomic writes; files that do not parse are left alone)
      --stdin, -                  read the file from standard input
      --stdin-filename <name>     the name used for standard input (implies --stdin)
      --print-config [path]       print the resolved windows and where each part came from, then exit
  -j, --jobs <n>                  language server processes to run in parallel (default: 1, or 2 for 400+ files)
      --shard <i>/<n>             check only the i-th of n equal shares of the files (for fan-out across CI jobs)
      --color, --no-color         colours in stylish output (default: when stdout is a terminal and NO_COLOR is unset)
  -h, --help                      this help
  -v, --version                   the version

Options that take a value also accept --option=value. Directories are walked for .yml, .yaml, .json and .toml
files (.gitignore and the ignore: list of .skewguard.yaml are respected).

Exit codes: 0 no errors; 1 errors (or more warnings than --max-warnings); 2 usage error, invalid .skewguard.yaml,
missing path or internal failure. With --exit-codes pluto: 3 an API is removed in the window, 2 one is deprecated
(k8s/window-past-data is neither: it follows the default codes).
`;

interface Options {
  format: typeof FORMATS[number];
  outputFile?: string;
  config?: string;
  starlingxRelease?: string;
  kubernetesWindow?: string;
  componentVersions?: Record<string, string>;
  kataWindow?: string;
  kataFlavour?: string;
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
  paths: string[];
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options | 'help' | 'version' {
  const o: Options = { format: 'stylish', rules: {}, maxWarnings: -1, exitCodes: 'default', fix: false, stdin: false, printConfig: false, color: !!process.stdout.isTTY && !process.env.NO_COLOR, paths: [] };
  for (let i = 0; i < argv.length; i++) {
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
      case '--starlingx-release': {
        const r = val();
        if (!findStarlingxRelease(r)) throw new UsageError(`unknown StarlingX release "${r}"`);
        o.starlingxRelease = r; break;
      }
      case '--kubernetes-window': {
        const w = val(); const e = checkKubernetesWindow(w);
        if (e) throw new UsageError(e);
        o.kubernetesWindow = w; break;
      }
      case '--kubernetes-version': {
        const v = normalizeKubernetesVersion(val());
        if (!/^\d+\.\d+(\.\d+)?$/.test(v)) throw new UsageError(`--kubernetes-version takes a version such as 1.25 or v1.25.0`);
        o.kubernetesWindow = v; break;
      }
      case '--component-versions': {
        o.componentVersions ??= {};
        for (const part of val().split(',')) {
          const m = /^\s*([^=\s]+)\s*=\s*(\S+)\s*$/.exec(part);
          if (!m) throw new UsageError('--component-versions takes <component>=<version>[,…], e.g. cert-manager=1.5,istio=1.11');
          const err = checkComponentVersion(m[1], m[2]);
          if (err) throw new UsageError(`--component-versions ${m[1]}: ${err}`);
          o.componentVersions[m[1]] = normalizeKubernetesVersion(m[2]);
        }
        break;
      }
      case '--exit-codes': {
        const v = val();
        if (v !== 'default' && v !== 'pluto') throw new UsageError('--exit-codes takes default or pluto');
        o.exitCodes = v; break;
      }
      case '--kata-window': {
        const w = val(); const e = checkKataWindow(w);
        if (e) throw new UsageError(e);
        o.kataWindow = w; break;
      }
      case '--kata-flavour': case '--kata-flavor': {
        const f = val();
        if (f !== 'go' && f !== 'runtime-rs') throw new UsageError(`--kata-flavour must be go or runtime-rs`);
        o.kataFlavour = f; break;
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
      case '--no-color': o.color = false; break;
      case '--color': o.color = true; break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
        if (a === '-') o.stdin = true; else o.paths.push(a);
    }
  }
  if (o.stdin && o.fix) throw new UsageError('--fix cannot be used with standard input');
  return o;
}

function isDirectory(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}

function serverPath(): string {
  if (process.env.SKEWGUARD_SERVER) return process.env.SKEWGUARD_SERVER;
  return path.join(__dirname, 'server.js');
}

class ServerSession {
  private conn: ProtocolConnection;
  private waiters = new Map<string, { version: number; resolve: (d: Diagnostic[]) => void }>();
  /** The latest FileFactsNotification for each open file (sent before its diagnostics). */
  private facts = new Map<string, FileFactsParams>();
  private exited = false;
  private shuttingDown = false;
  readonly child;
  constructor(cwd: string, init: InitializationOptions) {
    this.child = spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], cwd });
    this.child.on('exit', (code) => {
      this.exited = true;
      if (!this.shuttingDown) {
        process.stderr.write(`lsp-lint: the language server exited unexpectedly (code ${code})\n`);
        process.exit(2);
      }
    });
    this.conn = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(coalesced(this.child.stdin!)));
    this.conn.onNotification(FileFactsNotification, (p: FileFactsParams) => { this.facts.set(p.uri, p); });
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const w = this.waiters.get(p.uri);
      if (w && (p.version === undefined || p.version === w.version)) { this.waiters.delete(p.uri); w.resolve(p.diagnostics); }
    });
    this.conn.listen();
    this.initPromise = this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: pathToFileURL(cwd).toString(), capabilities: {},
      workspaceFolders: [{ uri: pathToFileURL(cwd).toString(), name: path.basename(cwd) }],
      initializationOptions: init,
    }).then(() => this.conn.sendNotification(InitializedNotification.type, {}));
  }
  readonly initPromise: Promise<void>;

  private wait(uri: string, version: number): Promise<Diagnostic[]> {
    return new Promise((resolve) => this.waiters.set(uri, { version, resolve }));
  }
  async open(uri: string, text: string): Promise<Diagnostic[]> {
    const p = this.wait(uri, 1);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: languageIdFor(uri), version: 1, text } });
    return p;
  }
  async change(uri: string, version: number, text: string): Promise<Diagnostic[]> {
    const p = this.wait(uri, version);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return p;
  }
  /** The family and facts of the file's latest analysis. */
  factsOf(uri: string): { family: FileFactsParams['family']; facts?: FileFactsParams['facts'] } {
    const f = this.facts.get(uri);
    return { family: f?.family ?? null, facts: f?.facts };
  }
  async close(uri: string): Promise<void> {
    this.facts.delete(uri);
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }
  async fixAll(uri: string): Promise<TextEdit[]> {
    const actions = (await this.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: [FIX_ALL_KIND] },
    })) as CodeAction[] | null;
    const a = (actions ?? []).find((x) => x.kind === FIX_ALL_KIND);
    return (a?.edit?.changes?.[uri] ?? []) as TextEdit[];
  }
  resolvedConfig(uri?: string): Promise<ResolvedConfigResult> {
    return this.conn.sendRequest(ResolvedConfigRequest, { uri }) as Promise<ResolvedConfigResult>;
  }
  async shutdown(): Promise<void> {
    if (this.exited) return;
    this.shuttingDown = true;
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    this.conn.dispose();
  }
}

function languageIdFor(uri: string): string {
  if (/\.json$/i.test(uri)) return 'json';
  if (/\.toml$/i.test(uri)) return 'toml';
  return 'yaml';
}

/** Applies LSP text edits (non-overlapping) to a text. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) { if (text.charCodeAt(i + 1) === 10) i++; starts.push(i + 1); }
  }
  const off = (p: { line: number; character: number }) => (p.line >= starts.length ? text.length : Math.min(starts[p.line] + p.character, text.length));
  // From the end backwards; edits at the same position keep their array order in the result, as LSP specifies.
  const sorted = edits.map((e, i) => ({ s: off(e.range.start), e: off(e.range.end), t: e.newText, i })).sort((a, b) => b.s - a.s || b.i - a.i);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.s) + e.t + out.slice(e.e);
  return out;
}

/** Writes a file atomically: a temporary file in the same directory, then a rename; the mode is kept. */
function writeAtomic(file: string, text: string): void {
  const st = fs.statSync(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.skewguard-${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode: st.mode });
    fs.renameSync(tmp, file);
  } catch (e) {
    try { fs.unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
}

const BOM = '\uFEFF';
const isBinary = (buf: Buffer) => buf.subarray(0, 8192).includes(0);

async function main(argv: string[]): Promise<number> {
  let opts: Options | 'help' | 'version';
  try { opts = parseArgs(argv); } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`lsp-lint: ${e.message}\n\n${HELP}`); return 2; }
    throw e;
  }
  if (opts === 'help') { process.stdout.write(HELP); return 0; }
  if (opts === 'version') { process.stdout.write(`${VERSION}\n`); return 0; }
  const cwd = process.cwd();
  if (opts.config && !fs.existsSync(opts.config)) { process.stderr.write(`lsp-lint: config file ${opts.config} not found\n`); return 2; }

  const initOptions: InitializationOptions = {
    reportFacts: true,
    // Each file is analysed once (a few times with --fix): a cache for one file's documents is enough.
    parseCacheChars: 256 * 1024,
    clearDiagnosticsOnClose: false,
    cli: {
      configPath: opts.config, starlingxRelease: opts.starlingxRelease, kubernetesWindow: opts.kubernetesWindow, componentVersions: opts.componentVersions,
      kataWindow: opts.kataWindow, kataFlavour: opts.kataFlavour, rules: opts.rules,
    },
  };
  const session = new ServerSession(cwd, initOptions);
  const sessions = [session];
  // A folder to walk will likely need more than one server: start the others now, so that they boot while the
  // first one resolves the configuration and the files are collected (about half a second at 10,000 files).
  // Those not needed are shut down again.
  const early = opts.jobs ?? (!opts.stdin && !opts.printConfig && os.cpus().length > 1 && (!opts.paths.length || opts.paths.some(isDirectory)) ? Math.min(2, os.cpus().length) : 1);
  for (let j = 1; j < early; j++) sessions.push(new ServerSession(cwd, { ...initOptions, reportStaleData: false }));
  await session.initPromise;

  const done = async (code: number) => { await Promise.all(sessions.map((s) => s.shutdown())); return code; };

  if (opts.printConfig) {
    const target = opts.paths[0] ? pathToFileURL(path.resolve(cwd, opts.paths[0])).toString() : undefined;
    const r = await session.resolvedConfig(target);
    process.stdout.write(JSON.stringify({ ...r.resolved, configProblems: r.configProblems }, null, 2) + '\n');
    return done(r.configProblems.length ? 2 : 0);
  }

  const cfg = await session.resolvedConfig(opts.config ? pathToFileURL(path.resolve(cwd, opts.config)).toString() : undefined);
  if (cfg.configProblems.length) {
    for (const p of cfg.configProblems) process.stderr.write(`lsp-lint: ${path.relative(cwd, p.file)}:${p.line + 1}:${p.character + 1}: ${p.message}\n`);
    return done(2);
  }

  const reports: FileReport[] = [];
  if (opts.stdin) {
    const text = fs.readFileSync(0, 'utf8').replace(/^\uFEFF/, '');
    const name = path.resolve(cwd, opts.stdinFilename ?? 'stdin.yaml');
    const uri = pathToFileURL(name).toString();
    const diags = await session.open(uri, text);
    reports.push({ file: name, diagnostics: diags, ...session.factsOf(uri) });
  } else {
    if (!opts.paths.length) opts.paths.push('.');
    const ignoreList = (cfg.resolved.ignore as string[]) ?? [];
    const collected = collectFiles(opts.paths, cwd, ignoreList);
    if (collected.missing.length) {
      process.stderr.write(`lsp-lint: no such file or no match: ${collected.missing.join(', ')}\n`);
      return done(2);
    }
    // A shard is every n-th file of the sorted list, so shards are disjoint, cover everything and stay balanced.
    const files = opts.shard ? collected.files.filter((_, i) => i % opts.shard!.count === opts.shard!.index - 1) : collected.files;
    const jobs = Math.min(opts.jobs ?? (files.length >= 400 ? Math.min(2, os.cpus().length) : 1), Math.max(1, files.length));
    while (sessions.length < jobs) sessions.push(new ServerSession(cwd, { ...initOptions, reportStaleData: false }));
    const extra = sessions.splice(jobs);
    await Promise.all([...sessions.map((s) => s.initPromise), ...extra.map(async (s) => { await s.initPromise; await s.shutdown(); })]);
    const progress = process.stderr.isTTY && files.length > 50;
    let finished = 0;
    const queue = [...files];
    const worker = async (server: ServerSession) => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        reports.push(await checkFile(server, f, opts as Options));
        finished++;
        if (progress && finished % 25 === 0) process.stderr.write(`\rlsp-lint: ${finished}/${files.length} files`);
      }
    };
    const perServer = Math.min(16, Math.ceil((files.length || 1) / sessions.length));
    await Promise.all(sessions.flatMap((s) => Array.from({ length: perServer }, () => worker(s))));
    if (progress) process.stderr.write(`\rlsp-lint: ${files.length}/${files.length} files\n`);
    reports.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  let out: string;
  switch (opts.format) {
    case 'json': out = json(reports); break;
    case 'sarif': out = sarif(reports, cwd, VERSION); break;
    case 'github': out = github(reports, cwd); break;
    case 'gitlab': out = gitlab(reports, cwd); break;
    default: out = stylish(reports, cwd, opts.color && !opts.outputFile);
  }
  if (opts.outputFile) fs.writeFileSync(opts.outputFile, out);
  else process.stdout.write(out);
  const n = count(reports);
  const tooManyWarnings = opts.maxWarnings >= 0 && n.warnings > opts.maxWarnings;
  if (tooManyWarnings && opts.format === 'stylish') process.stderr.write(`lsp-lint: ${n.warnings} warnings, more than --max-warnings ${opts.maxWarnings}\n`);
  if (opts.exitCodes === 'pluto') {
    // Pluto's codes: 3 removed, 2 deprecated (removed wins); otherwise our own.
    const codes = new Set(reports.flatMap((r) => r.diagnostics.map((d) => String(d.code))));
    if (['k8s/removed-api', 'k8s/no-common-api-version'].some((c) => codes.has(c))) return done(3);
    if (codes.has('k8s/deprecated-api')) return done(2);
  }
  return done(n.errors > 0 || tooManyWarnings ? 1 : 0);
}

async function checkFile(session: ServerSession, file: string, opts: Options): Promise<FileReport> {
  const uri = pathToFileURL(file).toString();
  let buf: Buffer;
  try {
    const st = fs.statSync(file);
    // Never read more than the size limit (plus one byte, to know it is over).
    if (st.size > MAX_FILE_BYTES) {
      const fd = fs.openSync(file, 'r');
      try { buf = Buffer.alloc(MAX_FILE_BYTES + 1); fs.readSync(fd, buf, 0, buf.length, 0); } finally { fs.closeSync(fd); }
    } else buf = fs.readFileSync(file);
  } catch (e) {
    return { file, family: null, diagnostics: [{ range: zero(), severity: 1, code: 'skewguard/skipped-file', source: 'skewguard', message: `not checked: ${(e as Error).message}` }] };
  }
  if (isBinary(buf) || buf.length > MAX_FILE_BYTES) {
    // The server reports the skipped file (with the severity the config gives that rule); send it only what it needs to see that.
    const head = buf.subarray(0, isBinary(buf) ? 8192 : MAX_FILE_BYTES + 1).toString('latin1');
    const diags = await session.open(uri, head);
    await session.close(uri);
    return { file, family: null, diagnostics: diags };
  }
  const raw = buf.toString('utf8');
  const hasBom = raw.startsWith(BOM);
  let text = hasBom ? raw.slice(1) : raw;
  let diags = await session.open(uri, text);
  let fixed = false;
  if (opts.fix) {
    for (let pass = 2; pass < 12; pass++) {
      const edits = await session.fixAll(uri);
      if (!edits.length) break;
      const next = applyEdits(text, edits);
      if (next === text) break;
      text = next;
      fixed = true;
      diags = await session.change(uri, pass, text);
    }
    if (fixed) writeAtomic(file, (hasBom ? BOM : '') + text);
  }
  const { family, facts } = session.factsOf(uri);
  await session.close(uri);
  return { file, family, diagnostics: diags, fixed, facts };
}

const zero = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  process.stderr.write(`lsp-lint: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 2;
});
