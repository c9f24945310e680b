#!/usr/bin/env node
// `npm run fuzz`: the robustness properties of test/robustness.test.mjs at length, with fast-check.
//
//   node bench/fuzz.mjs [--seconds S] [--runs N] [--seed X] [--only engine,server,edits,fix]
//
//   engine  random and mutated YAML/TOML/JSON (and bytes) through analyze() in a worker thread: no throw, no
//           hang (each document within --bound ms, the worker is terminated otherwise), ranges inside
//   server  the same documents through the language server: publishDiagnostics, hover, completion and
//           codeAction each answer within the bound, ranges inside, the server keeps running
//   edits   random incremental edits of the fixtures give the diagnostics of a fresh open
//   fix     lsp-lint --fix is idempotent, writes exactly the bytes its edits name, never a file that fails to parse
//
// --runs caps the number of cases per property (default: unlimited), --seconds the time of the whole run
// (default 60, split between the properties by weight). A failing case is written to the output folder
// (printed at the end) as JSON: { property, seed, name, text, error }. Exit code 1 when a property failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LspClient, makeWorkspace, uriOf, withTimeout, applyTextEdits } from '../test/helpers/lsp-client.mjs';
import { seedDocuments, documentArbitrary, rangeProblems, signature, editArbitrary, toChange, checkLspLintFix } from '../test/helpers/robustness.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(ROOT, 'package.json'));

function parseArgs(argv) {
  const o = { seconds: 60, runs: Infinity, seed: Date.now() % 2147483647, only: ['engine', 'server', 'edits', 'fix'], bound: 5000 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=');
    const v = () => inline ?? argv[++i];
    if (k === '--seconds') o.seconds = Number(v());
    else if (k === '--runs') o.runs = Number(v());
    else if (k === '--seed') o.seed = Number(v());
    else if (k === '--only') o.only = v().split(',');
    else if (k === '--bound') o.bound = Number(v());
    else if (k === '-h' || k === '--help') { console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')); process.exit(0); }
    else { console.error(`fuzz: unknown option ${argv[i]}`); process.exit(2); }
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const CLI = { kubernetesWindow: '1.18..1.21', kataWindow: '3.1..3.32', starlingxRelease: '12.0' };
const CLI_FLAGS = ['--kubernetes-window', CLI.kubernetesWindow, '--kata-window', CLI.kataWindow, '--starlingx-release', CLI.starlingxRelease];
const WEIGHTS = { engine: 4, server: 3, edits: 2, fix: 1 };
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-fuzz-'));
const seeds = seedDocuments();
const results = [];

function save(property, d, error) {
  const file = path.join(outDir, `${property}-${results.filter((r) => r.property === property).length}.json`);
  fs.writeFileSync(file, JSON.stringify({ property, seed: opts.seed, name: d?.name, how: d?.how, text: d?.text, error: String(error?.stack ?? error) }, null, 2));
  return file;
}

// ------------------------------------------------------------------------------------------------ engine

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const engine = require(workerData.engine);
const config = engine.resolveConfig({ cli: workerData.cli });
engine.analyze({ path: '/ws/warm-up.yaml', text: 'apiVersion: v1\\nkind: ConfigMap\\n', config });
parentPort.postMessage({ ready: true });
parentPort.on('message', ({ name, text }) => {
  const t0 = performance.now();
  try {
    const r = engine.analyze({ path: '/ws/' + name, text, config });
    parentPort.postMessage({ ms: performance.now() - t0, diagnostics: r.diagnostics.map((d) => ({ ruleId: d.ruleId, range: d.range })) });
  } catch (e) { parentPort.postMessage({ ms: performance.now() - t0, error: e.stack }); }
});`;

class EngineWorker {
  constructor() { this.start(); }
  start() {
    this.w = new Worker(WORKER, { eval: true, workerData: { engine: path.join(ROOT, 'dist', 'engine.js'), cli: CLI } });
    this.ready = new Promise((resolve) => this.w.once('message', resolve)); // loading the engine is not the document's time
  }
  async run(d, bound) {
    await this.ready;
    this.w.postMessage({ name: d.name, text: d.text });
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.w.terminate(); this.start(); resolve({ hang: true }); }, bound);
      this.w.once('message', (m) => { clearTimeout(t); resolve(m); });
    });
  }
  stop() { return this.w.terminate(); }
}

async function engineProperty(ms) {
  const worker = new EngineWorker();
  const prop = fc.asyncProperty(documentArbitrary(seeds, { maxMutations: 20 }), async (d) => {
    const r = await worker.run(d, opts.bound);
    if (r.hang) throw new Error(`analyze() did not finish within ${opts.bound} ms (${d.text.length} characters; ${d.how})`);
    if (r.error) throw new Error(`analyze() threw: ${r.error}`);
    const bad = rangeProblems(d.text, r.diagnostics);
    if (bad.length) throw new Error(`ranges outside the document: ${bad.join('; ')}`);
  });
  try { return await check('engine', prop, ms); } finally { await worker.stop(); }
}

// ------------------------------------------------------------------------------------------------ server

async function serverProperty(ms) {
  const root = makeWorkspace({});
  let client, n = 0, stopped = false;
  const restart = async () => {
    client?.kill();
    if (stopped) return; // the time limit ended the run while this case was still in flight
    client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
    await client.initialize();
  };
  await restart();
  const prop = fc.asyncProperty(documentArbitrary(seeds, { maxMutations: 12 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), async (d, spots) => {
    const uri = uriOf(path.join(root, `c${n++}`, d.name));
    try {
      const p = await withTimeout(client.open(uri, d.text), opts.bound, `no publishDiagnostics within ${opts.bound} ms`);
      const bad = rangeProblems(d.text, p.diagnostics);
      if (bad.length) throw new Error(`ranges outside the document: ${bad.join('; ')}`);
      const lines = d.text.split(/\r\n|\r|\n/);
      for (const [a, b] of spots) {
        const line = a % lines.length;
        const position = { line, character: b % (lines[line].length + 1) };
        await withTimeout(client.request('textDocument/hover', { textDocument: { uri }, position }), opts.bound, `hover at ${JSON.stringify(position)} hung`);
        await withTimeout(client.request('textDocument/completion', { textDocument: { uri }, position }), opts.bound, `completion at ${JSON.stringify(position)} hung`);
        await withTimeout(client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: p.diagnostics } }), opts.bound, 'codeAction hung');
      }
      await client.notify('textDocument/didClose', { textDocument: { uri } });
      if (client.child.exitCode !== null || client.child.signalCode) throw new Error(`the server exited: ${client.stderr.slice(-2000)}`);
      if (/analysing .* failed/.test(client.stderr)) throw new Error(`an analysis threw: ${client.stderr.slice(-2000)}`);
    } catch (e) {
      await restart(); // a hung or dead server is replaced, so that the next cases (and shrinking) can run
      throw e;
    }
  });
  try { return await check('server', prop, ms); } finally { stopped = true; client.kill(); fs.rmSync(root, { recursive: true, force: true }); }
}

// ------------------------------------------------------------------------------------------------ edits

async function editsProperty(ms) {
  const root = makeWorkspace({});
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
  await client.initialize();
  let n = 0;
  const prop = fc.asyncProperty(fc.constantFrom(...seeds), fc.array(editArbitrary, { minLength: 1, maxLength: 25 }), async (seed, edits) => {
    const uri = uriOf(path.join(root, `e${n++}`, seed.name));
    let text = seed.text;
    await withTimeout(client.open(uri, text), opts.bound, 'open hung');
    let version = 1, last;
    for (const e of edits) {
      const change = toChange(text, e);
      text = applyTextEdits(text, [{ range: change.range, newText: change.text }]);
      last = await withTimeout(client.change(uri, ++version, [change]), opts.bound, 'didChange hung');
    }
    await client.notify('textDocument/didClose', { textDocument: { uri } });
    const fresh = await withTimeout(client.open(uri, text, 1), opts.bound, 'fresh open hung');
    await client.notify('textDocument/didClose', { textDocument: { uri } });
    const a = signature(last.diagnostics), b = signature(fresh.diagnostics);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`incremental ≠ fresh for ${seed.rel}:\n  incremental ${JSON.stringify(a)}\n  fresh       ${JSON.stringify(b)}`);
    const bad = rangeProblems(text, last.diagnostics);
    if (bad.length) throw new Error(`ranges outside the document: ${bad.join('; ')}`);
  });
  try { return await check('edits', prop, ms); } finally { client.kill(); fs.rmSync(root, { recursive: true, force: true }); }
}

// ------------------------------------------------------------------------------------------------ fix

async function fixProperty(ms) {
  const engine = require('./dist/engine.js');
  const config = engine.resolveConfig({ cli: CLI });
  const t0 = performance.now();
  let rounds = 0, files = 0, changed = 0;
  try {
    while (performance.now() - t0 < ms && rounds < opts.runs) {
      const r = await checkLspLintFix({ seeds, engine, config, cli: CLI, flags: CLI_FLAGS, variants: 60, seed: opts.seed + rounds });
      rounds++; files += r.files; changed += r.changed;
    }
    results.push({ property: 'fix', runs: rounds, ms: performance.now() - t0, ok: true, note: `${files} files (${changed} fixed) in ${rounds} lsp-lint --fix round(s)` });
  } catch (e) {
    results.push({ property: 'fix', runs: rounds + 1, ms: performance.now() - t0, ok: false, error: e.message, file: save('fix', undefined, e) });
  }
}

// ------------------------------------------------------------------------------------------------ runner

/** Runs a property for `ms` (or opts.runs cases); on failure, replays the failing path with shrinking. */
async function check(name, prop, ms) {
  const t0 = performance.now();
  const base = { seed: opts.seed, numRuns: Number.isFinite(opts.runs) ? opts.runs : 1e9, interruptAfterTimeLimit: ms, markInterruptAsFailure: false };
  let r = await fc.check(prop, { ...base, endOnFailure: true });
  if (r.failed && !/within|hung/.test(String(r.errorInstance?.message ?? r.error))) {
    // Shrink (not for hangs: every shrinking step could take the whole bound).
    const shrunk = await fc.check(prop, { ...base, path: r.counterexamplePath, interruptAfterTimeLimit: Math.max(30000, ms) });
    if (shrunk.failed) r = shrunk;
  }
  const res = { property: name, runs: r.numRuns, ms: performance.now() - t0, ok: !r.failed };
  if (r.failed) {
    const d = Array.isArray(r.counterexample) ? r.counterexample[0] : undefined;
    res.error = String(r.errorInstance?.message ?? r.error).slice(0, 2000);
    res.file = save(name, d && typeof d === 'object' && 'text' in d ? d : { name: d?.name, text: d?.text, how: JSON.stringify(r.counterexample).slice(0, 4000) }, r.errorInstance ?? r.error);
  }
  results.push(res);
  return res;
}

const PROPS = { engine: engineProperty, server: serverProperty, edits: editsProperty, fix: fixProperty };
const chosen = opts.only.filter((p) => PROPS[p]);
const totalWeight = chosen.reduce((s, p) => s + WEIGHTS[p], 0);
console.log(`fuzz: seed ${opts.seed}, ${opts.seconds} s, properties ${chosen.join(', ')}${Number.isFinite(opts.runs) ? `, at most ${opts.runs} cases each` : ''}; ${seeds.length} seed documents; bound ${opts.bound} ms`);
for (const p of chosen) {
  await PROPS[p]((opts.seconds * 1000 * WEIGHTS[p]) / totalWeight);
  const r = results[results.length - 1];
  console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${p}: ${r.runs} cases in ${(r.ms / 1000).toFixed(1)} s${r.note ? ` (${r.note})` : ''}${r.ok ? '' : `\n       ${r.error.split('\n').join('\n       ')}\n       case: ${r.file}`}`);
}
const failed = results.filter((r) => !r.ok);
console.log(`fuzz: ${results.reduce((s, r) => s + r.runs, 0)} cases, ${failed.length} failing properties${failed.length ? `; cases in ${outDir}` : ''}`);
if (!failed.length) fs.rmSync(outDir, { recursive: true, force: true });
process.exit(failed.length ? 1 : 0);
