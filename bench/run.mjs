#!/usr/bin/env node
// skewguard benchmark: `npm run bench` (builds dist/ first). Not part of `npm test`.
//
//   node bench/run.mjs            all suites; writes bench/results.md and prints the same table
//   node bench/run.mjs edit big   only these suites; prints, does not overwrite bench/results.md
//   node bench/run.mjs real       the synthetic and real-shaped 5,000-document files (issue 29; see bench/real.mjs)
//
// Every figure is the median of several runs after a warm-up. Every measured path must have done
// real work: the diagnostic counts are checked (non-zero, and the same in-process and over LSP),
// and the benchmark fails instead of reporting a figure that measured nothing.
//
// To extend: add a parser to PARSERS (floors on the big file), a server to SERVERS (LSP
// comparisons, e.g. yaml-language-server or Taplo), a corpus to corpus.mjs and a suite to SUITES.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { manifestFile, manifestFileOfLines, manifestFiles, stableEditableLines, rng } from './corpus.mjs';
import { LspSession } from './lsp.mjs';
import { peerSuites, peerMethod } from './peers.mjs';
import { chartSuites, chartMethod } from './charts.mjs';
import { scenarioSuites, scenarioMethod } from './scenarios.mjs';
import { helmSuites } from './helm.mjs';
import { bigfileSuites, bigfileMethod } from './bigfile.mjs';
import { realSuites, realMethod } from './real.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(ROOT, 'package.json'));
const engine = require('./dist/engine.js');

const WINDOW = '1.18..1.21';
/** Pin "today" to the data's date, so the once-per-run stale-data note never changes the counts. */
const TODAY = engine.kubernetesApis().asOf;
const CONFIG = engine.resolveConfig({ cli: { kubernetesWindow: WINDOW } });
const RUNS = { big: 9, lint: 3, startup: 20, edits: 200, editWarmup: 20 };
const SIZES = { bigDocs: 5000, lintFiles: 2000, editLines: 1000 };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// ---------------------------------------------------------------------------------------------- helpers

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => { const s = sorted(xs); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
/** Nearest-rank percentile. */
const pct = (xs, p) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]; };
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : x >= 10 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const ratio = (a, b) => `${(a / b).toFixed(1)}×`;

function stats(samples) {
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), n: samples.length, samples };
}

/** Times fn() `runs` times after `warmup` untimed calls; fn gets the run index (warm-ups get negative ones). */
async function timeRuns(runs, fn, warmup = 1) {
  for (let i = -warmup; i < 0; i++) await fn(i);
  const out = [];
  for (let i = 0; i < runs; i++) {
    gc();
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return stats(out);
}

class Failure extends Error {}
const checks = [];
function check(label, ok, detail) {
  checks.push({ label, ok, detail });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}: ${detail}`);
  if (!ok) throw new Failure(`${label}: ${detail}`);
}

const rows = [];
function row(section, name, s, { unit = 'ms', note = '' } = {}) {
  const fmt = unit === 'ms' ? ms : unit === 'kb' ? mb : (x) => `${x.toFixed(0)} ${unit}`;
  const range = s.n > 1 ? `${fmt(s.min)} – ${fmt(s.max)}` : '';
  rows.push({ section, name, value: fmt(s.median), range, n: String(s.n), note });
  console.log(`  ${name}: ${fmt(s.median)}${range ? ` (${range}, n=${s.n})` : ''}${note ? `  ${note}` : ''}`);
}

const analyze = (file, text) => engine.analyze({ path: file, text, config: CONFIG, reportStaleData: true, today: new Date(TODAY) });
const countDocs = (text) => text.split(/^---$/m).length;

const tmpDirs = [];
function tmpDir(tag) {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `skewguard-bench-${tag}-`)));
  tmpDirs.push(d);
  return d;
}
process.on('exit', () => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

function run(command, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}

function kbFromStatus(pid, key) {
  try { return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]); } catch { return NaN; }
}

const LSP_LINT = path.join(ROOT, 'bin', 'lsp-lint.js');
const SERVER_ENV = { SKEWGUARD_TODAY: TODAY };

/**
 * Language servers measured over LSP. `diagnostics: true` means its diagnostic count must equal the
 * in-process engine's. Later: yaml-language-server (with the Kubernetes schema) and Taplo for TOML.
 */
const SERVERS = [
  {
    name: 'skewguard server',
    command: process.execPath,
    args: [path.join(ROOT, 'dist', 'server.js'), '--stdio'],
    env: SERVER_ENV,
    initializationOptions: (settings = {}) => ({ cli: { kubernetesWindow: WINDOW }, settings, allDiagnostics: true }),
    diagnostics: true,
  },
];

/** Parsers timed on the big file as floors; each returns the number of documents it read. */
const PARSERS = [
  { name: 'js-yaml loadAll', id: 'js-yaml', load: () => { const y = require('js-yaml'); return (t) => y.loadAll(t).length; } },
  { name: 'yaml parseAllDocuments', id: 'yaml', load: () => { const y = require('yaml'); return (t) => y.parseAllDocuments(t).length; } },
];

// ---------------------------------------------------------------------------------------------- suites

/** 1. One 5,000-document manifest file: engine in-process (cold, warm), over LSP, and parser floors. */
async function bigFile() {
  const S = '1. 5,000-document manifest';
  const base = manifestFile(SIZES.bigDocs, { salt: 0 });
  const lines = base.split('\n').length - 1;
  console.log(`\n${S} (${(base.length / 1048576).toFixed(1)} MB, ${lines} lines, ${countDocs(base)} documents)`);
  const file = path.join(os.tmpdir(), 'skewguard-bench', 'big.yaml');

  // Each cold run gets a fresh salt: text the engine's parse cache has never seen, same diagnostics.
  const salted = (i) => manifestFile(SIZES.bigDocs, { salt: 1000 + i });
  let expected;
  const counts = new Set();
  let text;
  const coldSamples = [], warmSamples = [];
  for (let i = -1; i < RUNS.big; i++) {
    text = salted(i);
    gc();
    let t0 = performance.now();
    const a = analyze(file, text);
    const cold = performance.now() - t0;
    t0 = performance.now();
    const b = analyze(file, text);
    const warm = performance.now() - t0;
    counts.add(a.diagnostics.length).add(b.diagnostics.length);
    expected = a.diagnostics.length;
    if (i >= 0) { coldSamples.push(cold); warmSamples.push(warm); }
  }
  const byRule = {};
  for (const d of analyze(file, text).diagnostics) byRule[d.ruleId] = (byRule[d.ruleId] ?? 0) + 1;
  check('engine diagnostics (big file)', expected > 0 && counts.size === 1,
    `${expected} every run (${Object.entries(byRule).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  const cold = stats(coldSamples), warm = stats(warmSamples);

  const floors = {};
  for (const p of PARSERS) {
    const parse = p.load();
    let docs = 0;
    floors[p.id] = await timeRuns(RUNS.big, () => { docs = parse(base); });
    check(`${p.name} documents`, docs === SIZES.bigDocs, `${docs}`);
  }

  const lsp = {};
  for (const srv of SERVERS) {
    const cwd = tmpDir('lsp');
    const session = await LspSession.start({ command: srv.command, args: srv.args, cwd, env: srv.env, initializationOptions: srv.initializationOptions() });
    const samples = [];
    const seen = new Set();
    for (let i = -1; i < RUNS.big; i++) {
      const uri = pathToFileURL(path.join(cwd, `big-${i + 1}.yaml`)).toString();
      const t = salted(100 + i);
      gc();
      const r = await session.open(uri, t);
      seen.add(r.diagnostics.length);
      if (i >= 0) samples.push(r.ms);
      await session.close(uri);
    }
    const hwm = kbFromStatus(session.pid, 'VmHWM');
    const rssNow = kbFromStatus(session.pid, 'VmRSS');
    await session.stop();
    if (srv.diagnostics) {
      check(`${srv.name} diagnostics (big file)`, seen.size === 1 && seen.has(expected), `${[...seen].join('/')} (in-process ${expected})`);
    }
    lsp[srv.name] = { s: stats(samples), hwm, rssNow };
  }

  const js = floors['js-yaml'].median, yl = floors.yaml.median;
  const rel = (x) => `${ratio(x, js)} js-yaml, ${ratio(x, yl)} yaml`;
  row(S, 'engine analyze(), cold (fresh text)', cold, { note: rel(cold.median) });
  row(S, 'engine analyze(), warm (same text again)', warm, { note: rel(warm.median) });
  for (const [name, r] of Object.entries(lsp)) {
    row(S, `${name}: didOpen → publishDiagnostics`, r.s, { note: `${rel(r.s.median)}; server peak RSS ${mb(r.hwm)} (RSS ${mb(r.rssNow)} after ${RUNS.big + 1} opened+closed)` });
  }
  for (const p of PARSERS) row(S, `${p.name} (floor)`, floors[p.id], { note: p.id === 'js-yaml' ? 'keeps no positions' : `${ratio(floors[p.id].median, js)} js-yaml` });
}

/** 2. lsp-lint over 2,000 manifest files: wall time, files/s, peak RSS of lsp-lint and of its server. */
async function lintThroughput() {
  const S = '2. lsp-lint, 2,000 files';
  const dir = tmpDir('lint');
  const files = manifestFiles(SIZES.lintFiles);
  let expected = 0, docs = 0;
  for (const f of files) {
    const p = path.join(dir, f.name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
    expected += analyze(p, f.text).diagnostics.length;
    docs += countDocs(f.text);
  }
  console.log(`\n${S} (${files.length} files, ${docs} documents)`);
  const out = tmpDir('lint-out');
  const useTime = fs.existsSync('/usr/bin/time');
  const samples = [], lintHwm = [], serverHwm = [], treeMax = [];
  for (let i = -1; i < RUNS.lint; i++) {
    const rssFile = path.join(out, `rss-${i + 1}.jsonl`);
    const report = path.join(out, `report-${i + 1}.json`);
    const args = [LSP_LINT, '--kubernetes-window', WINDOW, '--format', 'json', '--output-file', report, '.'];
    const env = { ...SERVER_ENV, BENCH_RSS_OUT: rssFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(ROOT, 'bench', 'rss-probe.cjs')}`.trim() };
    gc();
    const r = useTime ? await run('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: dir, env }) : await run(process.execPath, args, { cwd: dir, env });
    if (r.code !== 1) throw new Failure(`lsp-lint exited ${r.code} (expected 1: the corpus has errors)\n${r.stderr}`);
    const got = JSON.parse(fs.readFileSync(report, 'utf8'));
    const n = got.reduce((s, f) => s + f.messages.length, 0);
    check(`lsp-lint diagnostics, run ${i + 2}`, n === expected && expected > 0 && got.length === files.length,
      `${n} in ${got.length} files (in-process ${expected})`);
    // The server writes its line when it exits, which may be just after lsp-lint.
    let procs = [];
    for (let w = 0; w < 50 && procs.length < 2; w++) {
      procs = fs.existsSync(rssFile) ? fs.readFileSync(rssFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
      if (procs.length < 2) await new Promise((res) => setTimeout(res, 50));
    }
    const cli = procs.find((p) => p.script === 'lsp-lint.js'), srv = procs.find((p) => p.script === 'server.js');
    if (!cli || !srv) throw new Failure(`peak RSS probe: expected lsp-lint.js and server.js, got ${JSON.stringify(procs)}`);
    if (i >= 0) {
      samples.push(r.ms); lintHwm.push(cli.hwmKb); serverHwm.push(srv.hwmKb);
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
      if (m) treeMax.push(Number(m[1]));
    }
  }
  const s = stats(samples);
  row(S, 'wall time', s, { note: `${(files.length / (s.median / 1000)).toFixed(0)} files/s, ${(docs / (s.median / 1000)).toFixed(0)} documents/s` });
  row(S, 'peak RSS, lsp-lint process', stats(lintHwm), { unit: 'kb', note: 'VmHWM at exit' });
  row(S, 'peak RSS, server child', stats(serverHwm), { unit: 'kb', note: 'VmHWM when shutdown is asked (lsp-lint then kills it)' });
  if (treeMax.length) row(S, 'peak RSS, /usr/bin/time -v', stats(treeMax), { unit: 'kb', note: 'max over the processes it waited for' });
}

/** 3. lsp-lint start-up on one small file (wall time of the whole command). */
async function startup() {
  const S = '3. lsp-lint start-up';
  const dir = tmpDir('startup');
  let file;
  // A small file with at least one diagnostic, so the run is checked to have done the work.
  for (const f of manifestFiles(50, { seed: 5, maxDocs: 2 })) {
    if (analyze(f.name, f.text).diagnostics.length > 0) { file = f; break; }
  }
  const p = path.join(dir, 'small.yaml');
  fs.writeFileSync(p, file.text);
  const expected = analyze(p, file.text).diagnostics.length;
  console.log(`\n${S} (one ${file.text.split('\n').length - 1}-line file)`);
  let lastCount = -1;
  // The V8 code cache (shared/code-cache.ts) in a folder of the bench's own: the warm-up run writes it.
  const cacheEnv = { ...SERVER_ENV, SKEWGUARD_CACHE_DIR: path.join(dir, 'code-cache') };
  // The window from the flag, or (flags []) from the folder's .skewguard.yaml.
  const lintRun = (env, cwd = dir, flags = ['--kubernetes-window', WINDOW]) => async () => {
    const res = await run(process.execPath, [LSP_LINT, ...flags, '--format', 'json', 'small.yaml'], { cwd, env });
    if (res.code !== 0 && res.code !== 1) throw new Failure(`lsp-lint exited ${res.code}\n${res.stderr}`);
    lastCount = JSON.parse(res.stdout)[0].messages.length;
  };
  const lint = await timeRuns(RUNS.startup, lintRun(cacheEnv));
  check('lsp-lint diagnostics (small file)', lastCount === expected && expected > 0, `${lastCount} (in-process ${expected})`);
  const cold = await timeRuns(RUNS.startup, lintRun({ ...SERVER_ENV, SKEWGUARD_CODE_CACHE: 'off' }));
  check('lsp-lint diagnostics (small file, no code cache)', lastCount === expected, `${lastCount} (in-process ${expected})`);
  const bare = await timeRuns(RUNS.startup, () => run(process.execPath, ['-e', '0']));
  const bareNoCa = await timeRuns(RUNS.startup, () => run(process.execPath, ['-e', '0'], { env: { NODE_EXTRA_CA_CERTS: '' } }));
  const kib = (f) => `${(fs.statSync(path.join(ROOT, 'dist', f)).size / 1024).toFixed(0)} KiB`;
  const ca = process.env.NODE_EXTRA_CA_CERTS ? `, ${ms(bareNoCa.median)} without NODE_EXTRA_CA_CERTS (set here; the server is started without it)` : '';
  row(S, `lsp-lint start-up on one small file, median of ${RUNS.startup}`, lint, { note: `node -e 0 alone: ${ms(bare.median)}${ca}; dist/lsp-lint-main.js ${kib('lsp-lint-main.js')}, dist/server-main.js ${kib('server-main.js')}` });
  row(S, 'the same without the V8 code cache (SKEWGUARD_CODE_CACHE=off)', cold, { note: 'what a first run pays, before the cache is written' });
  // The same file in a folder with a .skewguard.yaml (a project that sets its window there): its validation is part of every run.
  const withConfig = path.join(dir, 'with-config');
  fs.mkdirSync(withConfig, { recursive: true });
  fs.writeFileSync(path.join(withConfig, '.skewguard.yaml'), `kubernetes:\n  window: "${WINDOW}"\nrules:\n  k8s/deprecated-api: warning\n`);
  fs.writeFileSync(path.join(withConfig, 'small.yaml'), file.text);
  const configured = await timeRuns(RUNS.startup, lintRun(cacheEnv, withConfig, []));
  check('lsp-lint diagnostics (small file, .skewguard.yaml)', lastCount === expected, `${lastCount} (in-process ${expected})`);
  row(S, 'the same in a folder with a .skewguard.yaml', configured, { note: `${ratio(configured.median, bare.median)} node -e 0; its schema's validator is compiled at build time (dist/validators/)` });
}

/** 4. Edit → diagnostics over LSP: 1,000-line file, 200 one-value incremental edits, debounce 0. */
async function editLatency() {
  const S = '4. edit → diagnostics (LSP)';
  const base = manifestFileOfLines(SIZES.editLines);
  const candidates = stableEditableLines(base, (t) => analyze('/bench/edit.yaml', t));
  console.log(`\n${S} (${base.split('\n').length - 1}-line file, ${countDocs(base)} documents, ${candidates.length} editable lines)`);
  const expected = analyze('/bench/edit.yaml', base).diagnostics.length;
  const srv = SERVERS[0];
  const cwd = tmpDir('edit');
  const file = path.join(cwd, 'edit.yaml');
  const uri = pathToFileURL(file).toString();
  const session = await LspSession.start({ command: srv.command, args: srv.args, cwd, env: srv.env, initializationOptions: srv.initializationOptions({ debounceMs: 0 }) });
  const opened = await session.open(uri, base);
  check('server diagnostics (1,000-line file)', opened.diagnostics.length === expected && expected > 0, `${opened.diagnostics.length} (in-process ${expected})`);

  const r = rng(4242);
  const lines = base.split('\n');
  const texts = [];
  const samples = [];
  const counts = new Set();
  let version = 1;
  for (let i = -RUNS.editWarmup; i < RUNS.edits; i++) {
    const c = r.pick(candidates);
    const newValue = c.kind === 'int' ? String(r.int(1, 9999)) : `v${r.int(0, 1e6).toString(36)}`;
    const range = { start: { line: c.line, character: c.valueStart }, end: { line: c.line, character: c.valueEnd } };
    lines[c.line] = lines[c.line].slice(0, c.valueStart) + newValue + lines[c.line].slice(c.valueEnd);
    c.valueEnd = c.valueStart + newValue.length;
    const res = await session.change(uri, ++version, [{ range, text: newValue }]);
    counts.add(res.diagnostics.length);
    if (i >= 0) { samples.push(res.ms); texts.push(lines.join('\n')); }
  }
  const hwm = kbFromStatus(session.pid, 'VmHWM');
  await session.stop();
  const finalExpected = analyze(file, lines.join('\n')).diagnostics.length;
  check('diagnostics after every edit', counts.size === 1 && counts.has(finalExpected), `${[...counts].join('/')} (in-process on the final text ${finalExpected})`);

  // The same edited texts through the engine in-process: how much of the latency is the engine.
  const engineSamples = texts.map((t) => { const t0 = performance.now(); analyze(file, t); return performance.now() - t0; });
  const s = stats(samples);
  const p95 = pct(samples, 95);
  rows.push({ section: S, name: 'didChange → publishDiagnostics, p50 / p95', value: `${ms(median(samples))} / ${ms(p95)}`, range: `${ms(s.min)} – ${ms(s.max)}`, n: String(s.n),
    note: `debounceMs 0; in the editor the default 150 ms debounce comes on top; server peak RSS ${mb(hwm)}` });
  console.log(`  p50 ${ms(median(samples))}, p95 ${ms(p95)}, max ${ms(s.max)}`);
  const e = stats(engineSamples);
  rows.push({ section: S, name: 'engine analyze() of the same edited texts, p50 / p95', value: `${ms(e.median)} / ${ms(pct(engineSamples, 95))}`, range: `${ms(e.min)} – ${ms(e.max)}`, n: String(e.n), note: 'in-process, parse cache warm' });
  console.log(`  engine in-process p50 ${ms(e.median)}, p95 ${ms(pct(engineSamples, 95))}`);
}

const SUITES = {
  big: bigFile, lint: lintThroughput, startup, edit: editLatency,
  // Issue items 1b–1e: yls (b), taplo (c), scale (d), edits (e); see bench/peers.mjs.
  ...peerSuites({ ROOT, WINDOW, TODAY, SERVER_ENV, LSP_LINT, engine, check, row, rows, stats, timeRuns, median, pct, ms, mb, ratio, tmpDir, run, kbFromStatus, gc, Failure }),
  ...chartSuites({ SERVER_ENV, LSP_LINT, check, row, rows, stats, median, pct, ms, ratio, tmpDir, run, gc, Failure }),
  // Issue 32: the chart repository with values scenarios (ci/*-values.yaml) against itself without; see bench/scenarios.mjs.
  ...scenarioSuites({ SERVER_ENV, LSP_LINT, check, row, stats, ratio, tmpDir, run, gc, Failure }),
  // Issue 15: real Helm rendering, on its own line (Helm's cost); see bench/helm.mjs.
  ...helmSuites({ LSP_LINT, SERVER_ENV, check, row, stats, run, tmpDir, Failure, engine }),
  // Issue 18 item 5: the 12,000-document bundle in the editor; see bench/bigfile.mjs.
  ...bigfileSuites({ ROOT, WINDOW, SERVER_ENV, engine, check, row, rows, stats, median, pct, ms, mb, ratio, tmpDir, kbFromStatus, gc }),
  // Issue 29: the synthetic and the real-shaped 5,000-document files, each against a fresh js-yaml process; see bench/real.mjs.
  ...realSuites({ ROOT, WINDOW, SERVER_ENV, check, row, stats, ms, mb, ratio, tmpDir, run, gc, Failure }),
};

// ---------------------------------------------------------------------------------------------- report

function machine() {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const memKb = Number(/^MemTotal:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1]);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain', '--', 'server', 'scripts'], { cwd: ROOT, encoding: 'utf8' }).trim()) commit += ' (with uncommitted changes in server/ or scripts/)';
  } catch { /* not a git checkout */ }
  return [
    `- CPU: ${model}, ${os.cpus().length} cores`,
    `- Memory: ${(memKb / 1048576).toFixed(1)} GiB`,
    `- Node ${process.version} on ${os.type()} ${os.release()} (${os.arch()})`,
    `- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- skewguard commit ${commit}; Kubernetes window ${WINDOW}; js-yaml ${require('js-yaml/package.json').version}, yaml ${require('yaml/package.json').version}`,
    `- Peers (dev dependencies): yaml-language-server ${require('yaml-language-server/package.json').version}, @taplo/cli ${require('@taplo/cli/package.json').version}`,
  ];
}

function table() {
  const head = ['Measurement', 'Median', 'Min – max', 'n', 'Ratio / notes'];
  const out = [];
  let section;
  for (const r of rows) {
    if (r.section !== section) { section = r.section; out.push(`| **${section}** | | | | |`); }
    out.push(`| ${r.name} | ${r.value} | ${r.range} | ${r.n} | ${r.note} |`);
  }
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...out].join('\n');
}

async function main() {
  const wanted = process.argv.slice(2);
  for (const w of wanted) if (!SUITES[w]) { console.error(`unknown suite ${w}; suites: ${Object.keys(SUITES).join(', ')}`); process.exit(2); }
  const t0 = performance.now();
  const env = machine();
  console.log(env.join('\n'));
  for (const [name, suite] of Object.entries(SUITES)) if (!wanted.length || wanted.includes(name)) await suite();
  const total = (performance.now() - t0) / 1000;
  const md = [
    '# skewguard benchmark',
    '',
    'Generated by `npm run bench` (bench/run.mjs); corpora from bench/corpus.mjs (fixed seeds). Medians after a warm-up;',
    'ratios are against the median of the parser floors on the same text. Every path is checked to have done real work:',
    'its diagnostic count is non-zero and equal to the in-process engine\'s (see Checks).',
    '',
    ...env,
    '',
    table(),
    '',
    '## Checks',
    '',
    ...checks.map((c) => `- ${c.ok ? 'ok' : 'FAIL'}: ${c.label}: ${c.detail}`),
    '',
    '## Method',
    '',
    `- Cold: analyze() on text the engine's parse cache has not seen (each run's documents differ in one comment line); warm: the same text again.`,
    '- LSP: `node dist/server.js --stdio`, initializationOptions `{cli: {kubernetesWindow}}`; the time runs from sending didOpen/didChange to receiving',
    '  publishDiagnostics for that version, so it includes JSON-RPC encoding and the pipe both ways.',
    `- lsp-lint: \`--format json --output-file\`; peak RSS per process from /proc/self/status VmHWM, written at exit (a server: when it reads the shutdown request) by bench/rss-probe.cjs`,
    '  (preloaded with NODE_OPTIONS, which the server child inherits). /usr/bin/time -v only reports the larger of the two.',
    `- Edits: ${RUNS.edits} incremental didChange edits (after ${RUNS.editWarmup} warm-up edits), each replacing one scalar value on a random line,`,
    '  sent one at a time with `settings.debounceMs: 0`. In the editor the server waits debounceMs (default 150 ms) after the last keystroke first.',
    ...peerMethod,
    ...chartMethod,
    ...scenarioMethod,
    ...bigfileMethod,
    ...realMethod,
    `- Total benchmark time: ${total.toFixed(0)} s.`,
    '',
  ].join('\n');
  console.log(`\n${table()}\n\n(total ${total.toFixed(0)} s)`);
  if (!wanted.length) {
    fs.writeFileSync(path.join(ROOT, 'bench', 'results.md'), md);
    console.log('wrote bench/results.md');
  }
}

main().catch((e) => {
  console.error(e instanceof Failure ? `bench: FAILED: ${e.message}` : e);
  process.exit(1);
});
