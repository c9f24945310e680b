// lsp-lint merge-reports [-o file] <reports…>: joins the reports of `lsp-lint --shard i/n` jobs (all SARIF, or all
// JSON) into the one report an unsharded run writes: results in file order, each file's findings from the shard that
// checked it (the notes every shard writes for the same path, such as ignored folders, once), and the once-per-run
// notes (stale data, a window past the data) once, the first in file order, as lsp-lint itself keeps them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printable, isUnchecked } from './format';
import { allRules } from './rule-meta';
import { MAX_FILE_BYTES } from '../shared/limits';
import { VERSION } from '../shared/version';

const HELP = `Usage: lsp-lint merge-reports [-o <file>] <report> <report> …

Joins the reports of sharded runs (lsp-lint --shard i/n --format sarif|json -o shard-i.…) into one: the same report
one unsharded run writes. The inputs are all SARIF or all JSON, from the same skewguard version.

  -o, --output-file <file>   write the merged report to a file instead of stdout
      --allow-unchecked      what a shard did not check is reported but does not fail the merge
  -h, --help                 this help

Exit codes: 0 no errors in the merged report; 1 errors; 2 usage error, a report that cannot be read or is not
lsp-lint's (every finding with a rule id, a severity as lsp-lint writes it and a place; counts that agree), reports
of different kinds or of another version than this lsp-lint's, a file or part of one not checked (unless
--allow-unchecked).
`;

const ONCE_PER_RUN = new Set(allRules.filter((r) => r.oncePerRun).map((r) => r.id));

class MergeError extends Error {}

interface JsonMessage { ruleId?: unknown; severity?: string; [k: string]: unknown }
interface JsonReport { filePath: string; messages: JsonMessage[]; errorCount: number; warningCount: number; [k: string]: unknown }
interface SarifResult { ruleId?: string; level?: string; locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string; uriBaseId?: string } } }>; [k: string]: unknown }
interface SarifLog { version?: string; runs?: Array<{ tool?: { driver?: { name?: string; version?: string } }; originalUriBaseIds?: Record<string, { uri?: string }>; results?: SarifResult[]; [k: string]: unknown }>; [k: string]: unknown }

function read(file: string): unknown {
  let st: fs.Stats;
  try { st = fs.statSync(file); } catch (e) { throw new MergeError(`cannot read ${printable(file)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
  if (!st.isFile()) throw new MergeError(`${printable(file)} is not a regular file`);
  // A report can be large (a finding is a few hundred bytes): up to 50 times the size limit of a checked file.
  if (st.size > 50 * MAX_FILE_BYTES) throw new MergeError(`${printable(file)} is larger than ${50 * MAX_FILE_BYTES / 1048576} MB`);
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { throw new MergeError(`${printable(file)} is not JSON: ${(e as Error).message}`); }
}

/** The absolute path a SARIF result is about (its artifact, resolved against the run's SRCROOT). */
function resultFile(r: SarifResult, base: string | undefined): string {
  const a = r.locations?.[0]?.physicalLocation?.artifactLocation;
  if (!a?.uri) return '';
  try {
    if (a.uriBaseId && base) return fileURLToPath(new URL(a.uri, base));
    return a.uri.startsWith('file:') ? fileURLToPath(a.uri) : decodeURIComponent(a.uri);
  } catch { return a.uri; }
}

/** Per file, the first input that has it; in file order (as lsp-lint sorts its reports), stable within a file. */
function joinByFile<T>(inputs: T[][], fileOf: (x: T) => string): T[] {
  const owner = new Map<string, number>();
  const all: Array<{ x: T; file: string; n: number }> = [];
  inputs.forEach((items, i) => {
    for (const x of items) {
      const file = fileOf(x);
      const o = owner.get(file);
      if (o === undefined) owner.set(file, i); else if (o !== i) continue;
      all.push({ x, file, n: all.length });
    }
  });
  all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.n - b.n));
  return all.map((a) => a.x);
}

/** The items without the once-per-run notes already `said` (the first in file order is kept, as lsp-lint keeps it). */
function onceFilter<T>(items: T[], idOf: (x: T) => string, said = new Set<string>()): T[] {
  return items.filter((x) => {
    const id = idOf(x);
    if (!ONCE_PER_RUN.has(id)) return true;
    if (said.has(id)) return false;
    said.add(id);
    return true;
  });
}

const SEVERITIES = new Set(['error', 'warning', 'info', 'hint']);
const isPos = (n: unknown) => Number.isInteger(n) && (n as number) >= 1;

/**
 * A JSON report as lsp-lint writes it, or why not: every file report carries lsp-lint's version (this one's), its
 * messages a rule id, one of the four severities as written, and a position; its counts agree with its messages. A
 * report that does not is refused (a shard whose findings say "Error", 2 or nothing must not merge to a clean run).
 */
function jsonProblem(x: unknown): string | undefined {
  if (!Array.isArray(x)) return 'not a list of file reports';
  for (const [i, r] of x.entries()) {
    const at = `file report ${i + 1}`;
    if (!r || typeof r !== 'object' || typeof r.filePath !== 'string' || !Array.isArray(r.messages)) return `${at}: no filePath and messages`;
    if (r.skewguardVersion !== VERSION) return `${at}: written by skewguard ${printable(String(r.skewguardVersion ?? '(no version)'))}, this is ${VERSION}: merge reports of this version`;
    for (const [j, m] of (r.messages as unknown[]).entries()) {
      const mm = m as JsonMessage;
      if (!mm || typeof mm !== 'object' || typeof mm.ruleId !== 'string' || !mm.ruleId) return `${at}, message ${j + 1}: no rule id`;
      if (typeof mm.severity !== 'string' || !SEVERITIES.has(mm.severity)) return `${at}, message ${j + 1}: severity ${printable(JSON.stringify(mm.severity) ?? 'missing')} is not error, warning, info or hint`;
      if (!isPos(mm.line) || !isPos(mm.column)) return `${at}, message ${j + 1}: no line and column`;
    }
    const errors = (r.messages as JsonMessage[]).filter((m) => m.severity === 'error').length;
    const warnings = (r.messages as JsonMessage[]).filter((m) => m.severity === 'warning').length;
    if (r.errorCount !== errors || r.warningCount !== warnings) return `${at}: errorCount ${printable(String(r.errorCount))} and warningCount ${printable(String(r.warningCount))} do not count its messages (${errors}, ${warnings})`;
  }
  return undefined;
}

export function mergeJson(inputs: unknown[], names: string[]): { text: string; errors: number; unchecked: number } {
  const lists = inputs.map((x, i) => {
    const why = jsonProblem(x);
    if (why) throw new MergeError(`${printable(names[i])} is not an lsp-lint --format json report of this version: ${why}`);
    return x as JsonReport[];
  });
  const reports = joinByFile(lists, (r) => r.filePath);
  // The once-per-run notes: the first in file order is kept (lsp-lint's oncePerRun).
  const said = new Set<string>();
  let errors = 0;
  for (const r of reports) {
    r.messages = onceFilter(r.messages, (m) => String(m.ruleId ?? ''), said);
    r.errorCount = r.messages.filter((m) => m.severity === 'error').length;
    r.warningCount = r.messages.filter((m) => m.severity === 'warning').length;
    errors += r.errorCount;
  }
  const unchecked = reports.filter((r) => r.messages.some((m) => isUnchecked(String(m.ruleId), String(m.message ?? ''), m.data))).length;
  return { text: JSON.stringify(reports, null, 2) + '\n', errors, unchecked };
}

const SARIF_LEVELS = new Set(['error', 'warning', 'note']);

export function mergeSarif(inputs: unknown[], names: string[]): { text: string; errors: number; unchecked: number } {
  const logs = inputs.map((x, i) => {
    const l = x as SarifLog;
    if (!l || typeof l !== 'object' || l.version !== '2.1.0' || !Array.isArray(l.runs) || l.runs.length !== 1 || l.runs[0].tool?.driver?.name !== 'skewguard' || !Array.isArray(l.runs[0].results)) {
      throw new MergeError(`${printable(names[i])} is not an lsp-lint --format sarif report (SARIF 2.1.0, one skewguard run)`);
    }
    return l;
  });
  const first = logs[0].runs![0];
  for (const [i, l] of logs.entries()) {
    const run = l.runs![0];
    if (run.tool?.driver?.version !== VERSION) throw new MergeError(`${printable(names[i])} is from skewguard ${printable(String(run.tool?.driver?.version))}, this is ${VERSION}: merge reports of this version`);
    for (const [j, r] of run.results!.entries()) {
      if (!r || typeof r !== 'object' || typeof r.ruleId !== 'string' || !r.ruleId) throw new MergeError(`${printable(names[i])}, result ${j + 1}: no rule id`);
      if (typeof r.level !== 'string' || !SARIF_LEVELS.has(r.level)) throw new MergeError(`${printable(names[i])}, result ${j + 1}: level ${printable(JSON.stringify(r.level) ?? 'missing')} is not error, warning or note (lsp-lint writes one on every result)`);
      if (!r.locations?.[0]?.physicalLocation?.artifactLocation?.uri) throw new MergeError(`${printable(names[i])}, result ${j + 1}: no location`);
    }
    if (run.originalUriBaseIds?.SRCROOT?.uri !== first.originalUriBaseIds?.SRCROOT?.uri) throw new MergeError(`${printable(names[i])} was written in another folder (SRCROOT ${printable(String(run.originalUriBaseIds?.SRCROOT?.uri))}, not ${printable(String(first.originalUriBaseIds?.SRCROOT?.uri))}): run the shards from the same folder`);
  }
  const base = first.originalUriBaseIds?.SRCROOT?.uri;
  const results = onceFilter(joinByFile(logs.map((l) => l.runs![0].results!), (r) => resultFile(r, base)), (r) => String(r.ruleId ?? ''));
  const merged: SarifLog = { ...logs[0], runs: [{ ...first, results }] };
  return { text: JSON.stringify(merged, null, 2) + '\n', errors: results.filter((r) => r.level === 'error').length, unchecked: results.filter((r) => r.ruleId === 'skewguard/internal-error' || (r.properties as { notChecked?: unknown } | undefined)?.notChecked === true).length };
}

export function mergeReportsMain(argv: string[]): number {
  let out: string | undefined;
  let allowUnchecked = false;
  const files: string[] = [];
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-h' || a === '--help') { process.stdout.write(HELP); return 0; }
      if (a === '-o' || a === '--output-file') { out = argv[++i]; if (out === undefined) throw new MergeError(`${a} needs a value`); continue; }
      if (a.startsWith('--output-file=')) { out = a.slice(14); continue; }
      if (a === '--allow-unchecked') { allowUnchecked = true; continue; }
      if (a === '--') { for (const f of argv.slice(i + 1)) files.push(f); break; }
      if (a.startsWith('-') && a !== '-') throw new MergeError(`unknown option ${printable(a)}`);
      files.push(a);
    }
    if (!files.length) throw new MergeError('no report to merge');
    const inputs = files.map(read);
    const sarifs = inputs.filter((x) => !Array.isArray(x)).length;
    if (sarifs && sarifs !== inputs.length) throw new MergeError('the reports are of different kinds: merge SARIF with SARIF, JSON with JSON');
    const { text, errors, unchecked } = sarifs ? mergeSarif(inputs, files) : mergeJson(inputs, files);
    if (out) {
      try { fs.writeFileSync(path.resolve(out), text); } catch (e) { throw new MergeError(`cannot write ${printable(out)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
    } else process.stdout.write(text);
    // As lsp-lint itself: what a shard did not check fails the merged run too (exit 2) unless --allow-unchecked.
    if (unchecked && !allowUnchecked) { process.stderr.write(`lsp-lint merge-reports: ${unchecked} file${unchecked === 1 ? '' : 's'} or finding${unchecked === 1 ? '' : 's'} not (fully) checked in the shards (--allow-unchecked: exit as if checked)\n`); return 2; }
    return errors ? 1 : 0;
  } catch (e) {
    if (!(e instanceof MergeError)) throw e;
    process.stderr.write(`lsp-lint merge-reports: ${e.message}\n\n${HELP}`);
    return 2;
  }
}
