#!/usr/bin/env node
// `npm run fuzz`: the robustness properties of test/robustness.test.mjs at length, with fast-check.
//
//   node bench/fuzz.mjs [--seconds S] [--runs N] [--seed X] [--only engine,server,edits,fix,protocol,large]
//                       [--engine N] [--protocol M] [--large-mb 1,5,19.5] [--bound MS] [--large-bound MS] [--keep-going]
//                       [--workers W] [--max-seed-kb K]
//
//   engine   random and mutated YAML/TOML/JSON (and bytes) through analyze() in worker threads (--workers, default 1),
//            in batches of 25: no throw, no hang (each batch within --bound ms, the worker is terminated otherwise),
//            ranges inside. --max-seed-kb K mutates only the seeds of at most K KB (default 64; 8 for a fast long run)
//   server   the same documents through the language server: publishDiagnostics, hover, completion and
//            codeAction each answer within the bound, ranges inside, the server keeps running
//   edits    random incremental edits of the fixtures give the diagnostics of a fresh open
//   fix      lsp-lint --fix is idempotent, writes exactly the bytes its edits name, never a file that fails to parse
//   protocol random message sequences against a live server over stdio (raw framing): didOpen/didChange/didClose,
//            hover/completion/codeAction, didChangeConfiguration, shutdown, exit, unknown methods, malformed params,
//            random positions and versions, bodies that are not JSON, and now and then a broken header. Every request
//            is answered within the bound, the server never dies but on exit or a broken header, every document opened
//            (before a shutdown) gets a publishDiagnostics
//   large    a few large inputs of each family (sizes --large-mb, up to 20 MB, and one just over the limit) through
//            analyze() and the server, each within --large-bound ms (default 120000)
//
// By default the run takes --seconds (60), split between the properties by weight. --engine N and --protocol M ask
// for N engine cases and M protocol messages instead (only those properties run unless --only says otherwise, and
// --seconds, then 3300 by default, is only a cap). --runs caps the cases per property. --keep-going records a
// failure and goes on with a new seed until the count or the time is used up (a long run that stops at the first
// known bug measures nothing more). A failing case is written to the output folder (printed at the end) as JSON:
// { property, seed, name, text, error }. Exit code 1 when a property failed. The last line is the summary:
// "fuzz: <cases> cases, <n> failing properties".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LspClient, makeWorkspace, uriOf, withTimeout, applyTextEdits } from '../test/helpers/lsp-client.mjs';
import { seedDocuments, documentArbitrary, rangeProblems, signature, editArbitrary, toChange, checkLspLintFix } from '../test/helpers/robustness.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(ROOT, 'package.json'));

function parseArgs(argv) {
  const o = { seconds: undefined, runs: Infinity, seed: Date.now() % 2147483647, only: undefined, bound: 5000, largeBound: 120000, engine: undefined, protocol: undefined, largeMb: undefined, keepGoing: false, workers: 1, maxSeedKb: 64 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=');
    const v = () => inline ?? argv[++i];
    if (k === '--seconds') o.seconds = Number(v());
    else if (k === '--runs') o.runs = Number(v());
    else if (k === '--seed') o.seed = Number(v());
    else if (k === '--only') o.only = v().split(',');
    else if (k === '--bound') o.bound = Number(v());
    else if (k === '--large-bound') o.largeBound = Number(v());
    else if (k === '--engine') o.engine = Number(v());
    else if (k === '--protocol') o.protocol = Number(v());
    else if (k === '--large-mb') o.largeMb = v().split(',').map(Number);
    else if (k === '--keep-going') o.keepGoing = true;
    else if (k === '--workers') o.workers = Number(v());
    else if (k === '--max-seed-kb') o.maxSeedKb = Number(v());
    else if (k === '-h' || k === '--help') { console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 30).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')); process.exit(0); }
    else { console.error(`fuzz: unknown option ${argv[i]}`); process.exit(2); }
  }
  const counted = o.engine !== undefined || o.protocol !== undefined;
  o.only ??= counted ? [...(o.engine !== undefined ? ['engine'] : []), ...(o.protocol !== undefined ? ['protocol'] : []), ...(o.largeMb ? ['large'] : [])] : ['engine', 'server', 'edits', 'fix', 'protocol', 'large'];
  o.seconds ??= counted ? 3300 : 60;
  o.largeMb ??= [counted ? 1 : 0.02];
  for (const [k, x] of Object.entries({ '--engine': o.engine, '--protocol': o.protocol, '--seconds': o.seconds, '--bound': o.bound })) {
    if (x !== undefined && !(x > 0)) { console.error(`fuzz: ${k} needs a positive number`); process.exit(2); }
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const CLI = { kubernetesWindow: '1.18..1.21', kataWindow: '3.1..3.32', starlingxRelease: '12.0' };
const CLI_FLAGS = ['--kubernetes-window', CLI.kubernetesWindow, '--kata-window', CLI.kataWindow, '--starlingx-release', CLI.starlingxRelease];
const WEIGHTS = { engine: 4, server: 3, edits: 2, fix: 1, protocol: 3, large: 1 };
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-fuzz-'));
const seeds = seedDocuments();
const results = [];
const saved = {};
/** Cases so far per property, for the progress line of counted runs. */
const progress = {};

function save(property, d, error) {
  saved[property] = (saved[property] ?? 0) + 1;
  const file = path.join(outDir, `${property}-${saved[property]}.json`);
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
const one = ({ name, text }) => {
  const t0 = performance.now();
  try {
    const r = engine.analyze({ path: '/ws/' + name, text, config });
    return { ms: performance.now() - t0, diagnostics: r.diagnostics.map((d) => ({ ruleId: d.ruleId, range: d.range })) };
  } catch (e) { return { ms: performance.now() - t0, error: e.stack }; }
};
parentPort.on('message', (m) => parentPort.postMessage(m.batch ? m.batch.map(one) : one(m)));`;

class EngineWorker {
  constructor() { this.start(); }
  start() {
    this.w = new Worker(WORKER, { eval: true, workerData: { engine: path.join(ROOT, 'dist', 'engine.js'), cli: CLI } });
    this.ready = new Promise((resolve) => this.w.once('message', resolve)); // loading the engine is not the document's time
  }
  /** One document ({ name, text }), or a batch ({ batch: [...] }: the answer is an array). */
  async run(d, bound) {
    await this.ready;
    this.w.postMessage(d.batch ? { batch: d.batch.map((x) => ({ name: x.name, text: x.text })) } : { name: d.name, text: d.text });
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.w.terminate(); this.start(); resolve({ hang: true }); }, bound);
      this.w.once('message', (m) => { clearTimeout(t); resolve(m); });
    });
  }
  stop() { return this.w.terminate(); }
}

/** Documents per worker message: the round trip, not analyze(), was the cost of a case. */
const BATCH = 25;

async function engineProperty(ms) {
  const workers = Array.from({ length: opts.workers }, () => new EngineWorker());
  const worker = workers[0];
  const engineSeeds = seeds.filter((d) => d.text.length <= opts.maxSeedKb * 1024);
  const checkOne = (d, r) => {
    if (r.error) throw new Error(`analyze() threw: ${r.error}`);
    const bad = rangeProblems(d.text, r.diagnostics);
    if (bad.length) throw new Error(`ranges outside the document: ${bad.join('; ')}`);
  };
  let docs = 0; // cases are documents (fast-check's runs count batches)
  const prop = fc.asyncProperty(fc.array(documentArbitrary(engineSeeds, { maxMutations: 20 }), { minLength: 1, maxLength: BATCH, size: 'max' }), async (batch) => {
    docs += batch.length;
    progress.engine = docs;
    // The batch split between the workers (--workers), run at the same time.
    const per = Math.ceil(batch.length / workers.length);
    const parts = await Promise.all(workers.map((w, i) => (batch.length > i * per ? w.run({ batch: batch.slice(i * per, (i + 1) * per) }, opts.bound) : [])));
    const rs = parts.some((x) => x.hang) ? { hang: true } : parts.flat();
    if (rs.hang) {
      // Which one: each alone, with the same bound.
      for (const d of batch) {
        const r = await worker.run(d, opts.bound);
        if (r.hang) throw new Error(`analyze() did not finish within ${opts.bound} ms (${d.text.length} characters; ${d.how})`);
      }
      throw new Error(`a batch of ${batch.length} documents did not finish within ${opts.bound} ms (each alone did)`);
    }
    batch.forEach((d, i) => checkOne(d, rs[i]));
  });
  try {
    return await check('engine', prop, ms, { count: () => docs, want: opts.engine ?? opts.runs, perRun: BATCH });
  } finally { await Promise.all(workers.map((w) => w.stop())); }
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

// ------------------------------------------------------------------------------------------------ protocol

/** The server over raw stdio framing, so that the fuzzer can send what no client library would (bodies that are not
 * JSON, broken headers, any id). Answers the server's own requests (configuration, registration) like a client. */
class RawServer {
  constructor(root, serverJs) {
    this.root = root;
    this.settings = { skewguard: { debounceMs: 0 } };
    this.pending = new Map(); // id -> { method, sent, done }
    this.published = new Map(); // uri -> count
    this.internalErrors = [];
    this.stderr = '';
    this.buf = Buffer.alloc(0);
    this.child = spawn(process.execPath, [serverJs, '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = undefined;
    this.exit = new Promise((resolve) => this.child.on('exit', (code, signal) => { this.exited = { code, signal }; resolve(this.exited); }));
    this.child.stdin.on('error', () => undefined); // writing to a server that has gone: seen as its exit
    this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-20000); });
    this.child.stdout.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.drain(); });
  }
  drain() {
    for (;;) {
      const h = this.buf.indexOf('\r\n\r\n');
      if (h < 0) return;
      const m = /Content-Length: *(\d+)/i.exec(this.buf.subarray(0, h).toString('latin1'));
      if (!m) throw new Error(`the server wrote a header without Content-Length: ${this.buf.subarray(0, h)}`);
      const len = Number(m[1]);
      if (this.buf.length < h + 4 + len) return;
      const body = this.buf.subarray(h + 4, h + 4 + len).toString('utf8');
      this.buf = this.buf.subarray(h + 4 + len);
      this.onMessage(JSON.parse(body));
    }
  }
  onMessage(msg) {
    if (msg.method && msg.id !== undefined) {
      // A request from the server.
      const result = msg.method === 'workspace/configuration'
        ? (msg.params?.items ?? []).map((it) => (it.section ? it.section.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), this.settings) ?? null : this.settings))
        : null;
      this.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    } else if (msg.method === 'textDocument/publishDiagnostics') {
      const uri = msg.params?.uri;
      this.published.set(uri, (this.published.get(uri) ?? 0) + 1);
    } else if (msg.method === undefined && msg.id !== undefined && msg.id !== null) {
      const p = this.pending.get(msg.id);
      if (p) { p.done = true; this.pending.delete(msg.id); }
      if (msg.error?.code === -32603) this.internalErrors.push(`${p?.method}: ${msg.error.message}`);
    }
  }
  write(body) {
    if (this.exited) return;
    const b = Buffer.from(body, 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'ascii'), b]));
  }
  writeRaw(bytes) { if (!this.exited) this.child.stdin.write(bytes); }
  request(id, method, params) {
    this.pending.set(id, { method, sent: performance.now() });
    this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }
  notify(method, params) { this.write(JSON.stringify({ jsonrpc: '2.0', method, params })); }
  async initialize() {
    this.request(0, 'initialize', {
      processId: process.pid, rootUri: uriOf(this.root), workspaceFolders: [{ uri: uriOf(this.root), name: 'fuzz' }],
      capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      initializationOptions: { cli: CLI },
    });
    const t0 = performance.now();
    while (this.pending.has(0)) {
      if (this.exited) throw new Error(`the server exited during initialize: ${this.stderr.slice(-2000)}`);
      if (performance.now() - t0 > 30000) throw new Error('no answer to initialize within 30 s');
      await sleep(5);
    }
    this.notify('initialized', {});
  }
  kill() { if (!this.exited) this.child.kill('SIGKILL'); }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A random message (or a pause, or a broken header) for the protocol property; `docs` is the pool of open-able uris. */
function protocolMessageArbitrary(seeds) {
  const int = fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer(), fc.constantFrom(-1, 2 ** 31, 2 ** 53, 1.5, NaN));
  const position = fc.oneof({ arbitrary: fc.record({ line: fc.nat(400), character: fc.nat(200) }), weight: 4 }, { arbitrary: fc.record({ line: int, character: int }), weight: 1 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const range = fc.oneof({ arbitrary: fc.record({ start: position, end: position }), weight: 5 }, { arbitrary: fc.jsonValue(), weight: 1 });
  const slot = fc.nat(5); // which of the pool's documents
  const text = fc.oneof({ arbitrary: documentArbitrary(seeds, { maxMutations: 6 }).map((d) => d.text), weight: 5 }, { arbitrary: fc.string({ maxLength: 50 }), weight: 1 });
  const junk = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.constant(null));
  const settings = fc.record({
    skewguard: fc.oneof({ arbitrary: fc.record({
      debounceMs: fc.oneof(fc.nat(30), fc.constantFrom('x', -1, null, 1e100)),
      kubernetes: fc.oneof(fc.record({ window: fc.constantFrom('1.18..1.21', '1.29', 'x', '', null, 3) }), junk),
      kata: fc.oneof(fc.record({ window: fc.constantFrom('3.1..3.32', '2.0', 'nope', null) }), junk),
      rules: fc.oneof(fc.dictionary(fc.constantFrom('kata/unknown-option', 'kubernetes/removed-api', 'x'), fc.constantFrom('off', 'error', 'bogus', 1)), junk),
    }, { requiredKeys: [] }), weight: 4 }, { arbitrary: junk, weight: 1 }),
  });
  return fc.oneof(
    { arbitrary: fc.record({ t: fc.constant('open'), slot, text, version: int, languageId: fc.constantFrom('yaml', 'toml', 'json', 'plaintext', '') }), weight: 6 },
    { arbitrary: fc.record({ t: fc.constant('change'), slot, version: int, full: fc.boolean(), range, text: fc.oneof(fc.string({ maxLength: 30 }), text) }), weight: 6 },
    { arbitrary: fc.record({ t: fc.constant('close'), slot }), weight: 3 },
    { arbitrary: fc.record({ t: fc.constantFrom('textDocument/hover', 'textDocument/completion', 'textDocument/codeAction'), slot, position, range, junk: fc.boolean() }), weight: 8 },
    { arbitrary: fc.record({ t: fc.constant('config'), settings }), weight: 2 },
    { arbitrary: fc.record({ t: fc.constant('malformed'), method: fc.constantFrom('textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/hover', 'textDocument/completion', 'textDocument/codeAction', 'workspace/didChangeConfiguration', '$/cancelRequest', '$/setTrace', 'workspace/executeCommand', 'no/such/method', 'initialize'), request: fc.boolean(), params: junk }), weight: 4 },
    { arbitrary: fc.record({ t: fc.constant('notJson'), body: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{', '{"jsonrpc":"2.0","id":', '[]', '[1,2]', 'null', '"x"', '{"jsonrpc":"2.0"}')) }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('pause'), ms: fc.nat(30) }), weight: 2 },
    { arbitrary: fc.constant({ t: 'shutdown' }), weight: 1 },
  );
}

async function protocolProperty(ms) {
  const root = makeWorkspace({});
  const serverJs = path.join(ROOT, 'dist', 'server.js');
  let server, messages = 0, session = 0, stopped = false;
  const restart = async () => {
    server?.kill();
    if (stopped) return;
    server = new RawServer(root, serverJs);
    session++;
    await server.initialize();
  };
  await restart();
  const names = ['localhost.yml', 'deploy.yaml', 'configuration.toml', 'persist.json', 'config.d/10-x.toml', 'list.json'];
  // The end of a sequence: nothing, shutdown + exit, exit alone, or a broken header.
  const ending = fc.oneof({ arbitrary: fc.constant('none'), weight: 40 }, { arbitrary: fc.constantFrom('shutdown-exit', 'exit', 'broken-header', 'broken-header-length'), weight: 1 });
  const prop = fc.asyncProperty(fc.array(protocolMessageArbitrary(seeds), { minLength: 1, maxLength: 200 }), ending, async (seq, end) => {
    const s = server;
    const uriOfSlot = (slot) => uriOf(path.join(root, `s${session}`, `d${slot % names.length}`, names[slot % names.length]));
    let id = 1, shutdown = false;
    const opened = []; // { uri, before }
    const openNow = new Set();
    try {
      for (const m of seq) {
        messages++;
        progress.protocol = messages;
        const uri = m.slot === undefined ? undefined : uriOfSlot(m.slot);
        switch (m.t) {
          case 'open':
            if (!shutdown && !openNow.has(uri)) opened.push({ uri, before: s.published.get(uri) ?? 0 });
            openNow.add(uri);
            s.notify('textDocument/didOpen', { textDocument: { uri, languageId: m.languageId, version: m.version, text: m.text } });
            break;
          case 'change':
            s.notify('textDocument/didChange', { textDocument: { uri, version: m.version }, contentChanges: [m.full ? { text: m.text } : { range: m.range, text: m.text }] });
            break;
          case 'close':
            openNow.delete(uri);
            s.notify('textDocument/didClose', { textDocument: { uri } });
            break;
          case 'config':
            s.settings = m.settings;
            s.notify('workspace/didChangeConfiguration', { settings: m.settings });
            break;
          case 'malformed':
            if (m.request) s.request(`m${id++}`, m.method, m.params);
            else s.notify(m.method, m.params);
            break;
          case 'notJson': s.write(m.body); break;
          case 'pause': await sleep(m.ms); break;
          case 'shutdown': shutdown = true; s.request(id++, 'shutdown', null); break;
          default: // hover, completion, codeAction
            s.request(id++, m.t, m.junk ? { textDocument: { uri }, position: m.position, range: m.range, context: { diagnostics: m.position } } : m.t === 'textDocument/codeAction'
              ? { textDocument: { uri }, range: m.range, context: { diagnostics: [] } }
              : { textDocument: { uri }, position: m.position });
        }
      }
      // Every request answered within the bound (counted from when it was sent), the server still running.
      const deadline = performance.now() + opts.bound;
      while (s.pending.size && performance.now() < deadline && !s.exited) await sleep(5);
      if (s.exited) throw new Error(`the server exited (${JSON.stringify(s.exited)}) without exit or a broken header: ${s.stderr.slice(-2000)}`);
      if (s.pending.size) throw new Error(`no answer within ${opts.bound} ms to ${[...s.pending.entries()].slice(0, 5).map(([k, v]) => `${k} ${v.method}`).join(', ')}`);
      // Every document opened before a shutdown got a publishDiagnostics (an analysis, or the clearing on close).
      const late = () => opened.filter((o) => (s.published.get(o.uri) ?? 0) <= o.before);
      while (late().length && performance.now() < deadline + opts.bound && !s.exited) await sleep(5);
      if (late().length) throw new Error(`no publishDiagnostics within ${opts.bound} ms for ${late().map((o) => o.uri).slice(0, 3).join(', ')}`);
      if (s.internalErrors.length) {
        const e = s.internalErrors.splice(0);
        throw new Error(`internal error: ${e[0]}${e.length > 1 ? `\n(and ${e.length - 1} more: ${e.slice(1, 4).join(' | ')})` : ''}`);
      }
      if (end === 'shutdown-exit' || end === 'exit') {
        if (end === 'shutdown-exit' && !shutdown) { s.request(id++, 'shutdown', null); messages++; }
        s.notify('exit', null); messages++;
        const t = await Promise.race([s.exit, sleep(opts.bound).then(() => undefined)]);
        if (!t) throw new Error(`the server did not exit within ${opts.bound} ms of the exit notification`);
        await restart();
      } else if (end.startsWith('broken-header')) {
        s.writeRaw(end === 'broken-header' ? 'Content-Type: nothing\r\nX: y\r\n\r\n{}' : 'Content-Length: -5\r\n\r\n');
        messages++;
        await Promise.race([s.exit, sleep(200)]);
        await restart(); // a broken stream may end the server: either way the next sequence starts afresh
      } else if (shutdown) {
        s.notify('exit', null); messages++;
        await Promise.race([s.exit, sleep(opts.bound)]);
        await restart();
      }
    } catch (e) {
      // A dead or hung server is replaced; one that answered with an error goes on (a restart costs seconds).
      if (s.exited || s.pending.size || server !== s) await restart();
      s.internalErrors.length = 0;
      throw e;
    }
  });
  try {
    return await check('protocol', prop, ms, { count: () => messages, want: opts.protocol ?? opts.runs, perRun: 100 });
  } finally { stopped = true; server?.kill(); fs.rmSync(root, { recursive: true, force: true }); }
}

// ------------------------------------------------------------------------------------------------ large

/** A few large documents of each family, of about `mb` MB each (deterministic: seeds repeated). */
function largeDocuments(mb) {
  const size = Math.floor(mb * 1024 * 1024);
  const fill = (head, unit, tail = '') => {
    const n = Math.max(0, Math.floor((size - head.length - tail.length) / unit(0).length));
    const parts = [head];
    for (let i = 0; i < n; i++) parts.push(unit(i));
    parts.push(tail);
    return parts.join('');
  };
  const seed = (re) => seeds.find((d) => re.test(d.rel))?.text ?? '';
  const sandbox = JSON.parse(seed(/v2-kata-3\.32-sandbox\.persist\.json$/) || '{}');
  const persistJson = JSON.stringify({ ...sandbox, Devices: [] });
  const device = (i) => `{"ID":"d${String(i).padStart(9, '0')}","Type":"block","RefCount":1,"AttachCount":1,"ColdPlug":false},`;
  return [
    { name: 'localhost.yml', how: `localhost.yml of ${mb} MB`, text: fill('system_mode: simplex\nkubernetes_version: v1.29.2\n', (i) => `unknown_key_${String(i).padStart(9, '0')}: value\n`) },
    { name: 'manifests.yaml', how: `${mb} MB of Deployments`, text: fill('', (i) => `---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: d${String(i).padStart(9, '0')}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: i\n`) },
    { name: 'list.json', how: `${mb} MB JSON List`, text: fill('{"apiVersion":"v1","kind":"List","items":[', (i) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${String(i).padStart(9, '0')}"}},`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"last"}}]}') },
    { name: 'configuration.toml', how: `configuration.toml of ${mb} MB`, text: fill('[hypervisor.qemu]\npath = "/usr/bin/qemu"\n', (i) => `[hypervisor.qemu.x${String(i).padStart(9, '0')}]\nk = "v"\n`) },
    { name: 'persist.json', how: `persist.json of ${mb} MB`, text: fill(persistJson.slice(0, persistJson.indexOf('"Devices":[') + 11), device, `{"ID":"last"}]${persistJson.slice(persistJson.indexOf('"Devices":[') + 12)}`) },
  ];
}

async function largeProperty(ms) {
  const t0 = performance.now();
  const sizes = opts.largeMb.filter((x) => x > 0 && x <= 20);
  const docs = [...sizes.flatMap(largeDocuments), { name: 'persist.json', how: 'just over the 20 MB limit', text: `{"PersistVersion":2,"x":"${'y'.repeat(20 * 1024 * 1024)}"}` }];
  const worker = new EngineWorker();
  const root = makeWorkspace({});
  let client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
  let runs = 0;
  const failures = [];
  const fail = (d, e) => failures.push({ error: `${d.how}: ${e}`, file: save('large', d, e) });
  try {
    await client.initialize();
    for (const d of docs) { // every one, whatever the time share (they are few, each within --large-bound), up to --seconds
      if (performance.now() - t0 > Math.max(ms, 60000)) break;
      runs++;
      const r = await worker.run(d, opts.largeBound);
      console.log(`       large: ${d.how} (${(d.text.length / 1048576).toFixed(2)} MB): analyze ${r.hang ? 'hung' : `${(r.ms / 1000).toFixed(1)} s, ${r.diagnostics?.length} diagnostics`}`);
      if (r.hang) { fail(d, `analyze() did not finish within ${opts.largeBound} ms`); continue; }
      if (r.error) { fail(d, `analyze() threw: ${r.error}`); continue; }
      const bad = rangeProblems(d.text, r.diagnostics);
      if (bad.length) { fail(d, `ranges outside the document: ${bad.slice(0, 3).join('; ')}`); continue; }
      const uri = uriOf(path.join(root, `l${runs}`, d.name));
      try {
        const since = client.count(uri);
        await client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text: d.text } });
        const p = await client.waitFor(uri, (x) => x.version === 1, { since, timeout: opts.largeBound });
        const lines = d.text.split('\n');
        const line = Math.floor(lines.length / 2);
        const position = { line, character: Math.min(3, lines[line].length) };
        await withTimeout(client.request('textDocument/hover', { textDocument: { uri }, position }), opts.largeBound, 'hover hung');
        await withTimeout(client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: p.diagnostics.slice(0, 50) } }), opts.largeBound, 'codeAction hung');
        await client.notify('textDocument/didClose', { textDocument: { uri } });
        if (client.child.exitCode !== null || client.child.signalCode) throw new Error(`the server exited: ${client.stderr.slice(-2000)}`);
        console.log(`       large: ${d.how}: the server answered`);
      } catch (e) {
        fail(d, e.message);
        // A server that hung or died is replaced, so that the other families are still tried.
        client.kill();
        client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
        await client.initialize();
      }
    }
  } finally { client.kill(); await worker.stop(); fs.rmSync(root, { recursive: true, force: true }); }
  const res = { property: 'large', runs, ms: performance.now() - t0, ok: !failures.length, note: `sizes ${sizes.join(', ')} MB${runs < docs.length ? `; stopped at the time cap after ${runs} of ${docs.length}` : ''}` };
  if (failures.length) Object.assign(res, failures[0], { failures: failures.length });
  results.push(res);
  return res;
}

// ------------------------------------------------------------------------------------------------ runner

/**
 * Runs a property for `ms`, or until `want` cases (count(): cases so far; fast-check's runs by default). On failure,
 * replays the failing path with shrinking; with --keep-going, records it and goes on with the next seed.
 */
async function check(name, prop, ms, { count, want = opts.runs, perRun = 1 } = {}) {
  const t0 = performance.now();
  let runs = 0, round = 0;
  const cases = count ?? (() => runs);
  const failures = [];
  while (cases() < want) {
    const left = ms - (performance.now() - t0);
    if (left <= 0) break;
    // Rounds of 400 runs, each with its own seed (the same seed would repeat the same cases), so that a count of
    // documents or messages can be met however many each run holds.
    const base = { seed: opts.seed + round++, numRuns: Number.isFinite(want) ? Math.max(1, Math.min(400, Math.ceil((want - cases()) / perRun))) : 1e9, interruptAfterTimeLimit: left, markInterruptAsFailure: false };
    let r = await fc.check(prop, { ...base, endOnFailure: true });
    runs += r.numRuns;
    if (r.failed) {
      // The same failure again (digits aside) is counted, not shrunk or saved again.
      const kind = String(r.errorInstance?.message ?? r.error).split('\n')[0].replace(/\d+/g, '#').slice(0, 200);
      const same = failures.find((f) => f.kind === kind);
      if (same) { same.times++; continue; }
      // Not for hangs (every shrinking step could take the whole bound), nor, when going on, for protocol
      // sequences (each step replays up to 200 messages against a live server; the case file has them all).
      if (r.counterexamplePath && !/within|hung/.test(kind) && !(opts.keepGoing && name === 'protocol')) {
        // Shrink (not for hangs: every shrinking step could take the whole bound).
        const shrunk = await fc.check(prop, { ...base, path: r.counterexamplePath, interruptAfterTimeLimit: Math.max(30000, Math.min(left, 120000)) });
        if (shrunk.failed) r = shrunk;
      }
      const c = Array.isArray(r.counterexample) ? r.counterexample[0] : undefined;
      const d = Array.isArray(c) && c.length === 1 && c[0]?.text !== undefined ? c[0] : c;
      const error = String(r.errorInstance?.message ?? r.error).slice(0, 2000);
      failures.push({ kind, times: 1, error, file: save(name, d && typeof d === 'object' && 'text' in d ? d : { name: d?.name, text: d?.text, how: JSON.stringify(r.counterexample).slice(0, 4000) }, r.errorInstance ?? r.error) });
      if (!opts.keepGoing || failures.length >= 50) break;
    } else if (r.interrupted) break;
  }
  const res = { property: name, runs: cases(), ms: performance.now() - t0, ok: !failures.length };
  if (failures.length) {
    Object.assign(res, failures[0], { failures: failures.length });
    res.error = failures.map((f) => `[${f.times}×] ${f.error.split('\n')[0].slice(0, 300)}\n  case: ${f.file}`).join('\n');
  }
  if (Number.isFinite(want) && res.runs < want) res.note = `stopped at the time cap before ${want} cases`;
  results.push(res);
  return res;
}

const PROPS = { engine: engineProperty, server: serverProperty, edits: editsProperty, fix: fixProperty, protocol: protocolProperty, large: largeProperty };
const chosen = opts.only.filter((p) => PROPS[p]);
const totalWeight = chosen.reduce((s, p) => s + WEIGHTS[p], 0);
console.log(`fuzz: seed ${opts.seed}, ${opts.seconds} s, properties ${chosen.join(', ')}${Number.isFinite(opts.runs) ? `, at most ${opts.runs} cases each` : ''}; ${seeds.length} seed documents; bound ${opts.bound} ms`);
const deadline = performance.now() + opts.seconds * 1000;
const report = (p, r) => {
  const unit = p === 'protocol' ? 'messages' : p === 'engine' ? 'documents' : 'cases';
  console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${p}: ${r.runs} ${unit} in ${(r.ms / 1000).toFixed(1)} s${r.note ? ` (${r.note})` : ''}${r.ok ? '' : `\n       ${r.failures ? `${r.failures} distinct failure(s), [n×] = times seen:\n       ` : ''}${r.error.split('\n').join('\n       ')}${r.failures ? '' : `\n       case: ${r.file}`}`}`);
};
if (opts.engine !== undefined || opts.protocol !== undefined) {
  // Counted: the properties run at the same time (the engine in worker threads, the protocol against a server
  // process), each until its count or the --seconds cap.
  const t0 = performance.now();
  const tick = setInterval(() => console.log(`  progress after ${Math.round((performance.now() - t0) / 1000)} s: ${Object.entries(progress).map(([k, v]) => `${k} ${v}`).join(', ')}`), 60000);
  await Promise.all(chosen.map(async (p) => { await PROPS[p](deadline - performance.now()); report(p, results.find((r) => r.property === p)); }));
  clearInterval(tick);
} else {
  let weightLeft = totalWeight;
  for (const p of chosen) {
    // Each property's share of the time left: what one leaves unused goes to the next.
    await PROPS[p](((deadline - performance.now()) * WEIGHTS[p]) / weightLeft);
    weightLeft -= WEIGHTS[p];
    report(p, results[results.length - 1]);
  }
}
const failed = results.filter((r) => !r.ok);
console.log(`fuzz: ${results.reduce((s, r) => s + r.runs, 0)} cases, ${failed.length} failing properties${failed.length ? `; cases in ${outDir}` : ''}`);
if (!failed.length) fs.rmSync(outDir, { recursive: true, force: true });
process.exit(failed.length ? 1 : 0);
