// The server under failure (issue #13): every exception in the handling of a document becomes a
// skewguard/internal-error diagnostic naming its stage (fault injection with SKEWGUARD_FAULT, test-only), a real
// stack overflow while computing facts is reported the same way, and the protocol is handled as a server should
// (a broken header closes the connection and exits; requests after shutdown and a second initialize are refused;
// hostile but well-framed input leaves the server responsive). Every wait is bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { LspClient, makeWorkspace, uriOf, withTimeout, repoRoot, serverJs } from './helpers/lsp-client.mjs';
import { loadSource } from './helpers/source-module.mjs';

const require = createRequire(import.meta.url);
const engine = require('../dist/engine.js');
const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');
const INTERNAL = 'skewguard/internal-error';

const LOCALHOST = 'kubernetes_version: v1.24.4\nsystem_mod: simplex\n';
// A removed API (its fix is lazy: worked out when asked for) and an unused suppression (an eager, complete fix).
const MANIFEST = 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: x\n# skewguard-disable-next-line k8s/deprecated-api\n'
  + 'spec:\n  replicas: 1\n  selector:\n    matchLabels: {a: b}\n  template:\n    metadata:\n      labels: {a: b}\n    spec:\n      containers: []\n';
const K8S = { cli: { kubernetesWindow: '1.18..1.21' } };

/** A server started with SKEWGUARD_FAULT=faults (the variable is read at spawn). */
async function serverWith(faults, dir, initializationOptions, settings) {
  const saved = process.env.SKEWGUARD_FAULT;
  if (faults) process.env.SKEWGUARD_FAULT = faults; else delete process.env.SKEWGUARD_FAULT;
  try {
    const c = new LspClient(dir, { initializationOptions, settings });
    await withTimeout(c.initialize(), 10000, 'initialize did not answer');
    return c;
  } finally {
    if (saved === undefined) delete process.env.SKEWGUARD_FAULT; else process.env.SKEWGUARD_FAULT = saved;
  }
}

const internal = (p) => p.diagnostics.filter((d) => d.code === INTERNAL);
const codes = (p) => p.diagnostics.map((d) => d.code);

// Stages of a document's analysis and publication: [fault, expected stage in the message, the other rules' results still arrive].
const ANALYSIS_STAGES = [
  ['config', 'config', false],
  ['parse', 'parse', false],
  ['detect', 'detect', false],
  ['context', 'context', false],
  ['rule:starlingx/unknown-key', 'rule:starlingx/unknown-key', true],
  ['suppress', 'suppress', true],
  ['facts', 'facts', true],
  ['publish', 'publish', false],
];

test('internal error over LSP: each analysis stage that throws gives skewguard/internal-error naming the stage, never a clean file', { timeout: 30000 }, async (t) => {
  const dir = makeWorkspace({});
  const uri = uriOf(path.join(dir, 'localhost.yml'));
  await Promise.all(ANALYSIS_STAGES.map(([fault, stage, othersArrive]) => t.test(fault, async () => {
    const c = await serverWith(fault, dir, { reportFacts: true });
    try {
      const p = await c.open(uri, LOCALHOST);
      const ie = internal(p);
      assert.equal(ie.length, 1, `one internal error: ${JSON.stringify(p.diagnostics)}`);
      assert.equal(ie[0].severity, 1, 'an error');
      assert.match(ie[0].message, new RegExp(`internal error in stage ${stage.replace(/[/.]/g, '\\$&')}: fault injected`));
      assert.match(ie[0].message, /\(at [^)]*:\d+:\d+\)/, 'the first stack frame of our code');
      assert.equal(ie[0].range.start.line, 0);
      if (othersArrive) {
        // A throwing rule does not stop the others (the v prefix is another rule's finding).
        assert.ok(codes(p).includes('starlingx/kubernetes-version-v-prefix'), `other rules still report: ${codes(p)}`);
      } else if (fault !== 'publish') {
        assert.deepEqual(codes(p), [INTERNAL], 'a stage before the rules: the internal error alone');
      }
      if (fault === 'rule:starlingx/unknown-key') assert.ok(!codes(p).includes('starlingx/unknown-key'), 'the failed rule has no findings');
      if (fault === 'suppress') assert.ok(codes(p).includes('starlingx/unknown-key'));
    } finally { c.kill(); }
  })));
});

test('internal error: not suppressible by a comment, not turned off by rules:', { timeout: 20000 }, async () => {
  const dir = makeWorkspace({ '.skewguard.yaml': 'rules:\n  skewguard/internal-error: "off"\n' });
  const c = await serverWith('rule:starlingx/unknown-key', dir, undefined, { rules: { [INTERNAL]: 'off' } });
  try {
    const uri = uriOf(path.join(dir, 'localhost.yml'));
    const p = await c.open(uri, `# skewguard-disable-file -- everything\n# skewguard-disable-file ${INTERNAL}\n${LOCALHOST}`);
    assert.equal(internal(p).length, 1, JSON.stringify(p.diagnostics));
    assert.equal(internal(p)[0].severity, 1);
  } finally { c.kill(); }
  // The engine alike (and `rules:` from the command line).
  const config = engine.resolveConfig({ cli: { rules: { [INTERNAL]: 'off' } } });
  const r = engine.analyze({ path: '/x/localhost.yml', text: `# skewguard-disable-file\n${LOCALHOST}`, config, faults: new Set(['rule']) });
  assert.ok(r.diagnostics.some((d) => d.ruleId === INTERNAL && d.severity === 'error'));
});

test('engine: a rule that really throws is its own internal error, not syntax/parse-error, and the other rules still run', () => {
  const config = engine.resolveConfig({});
  const rule = engine.allRules.find((r) => r.id === 'starlingx/unknown-key');
  const check = rule.check;
  rule.check = () => { throw new TypeError('boom'); };
  try {
    const r = engine.analyze({ path: '/x/localhost.yml', text: LOCALHOST, config });
    const ids = r.diagnostics.map((d) => d.ruleId);
    assert.ok(!ids.includes('syntax/parse-error'), `not a parse error: ${ids}`);
    const ie = r.diagnostics.find((d) => d.ruleId === INTERNAL);
    assert.match(ie.message, /stage rule:starlingx\/unknown-key: TypeError: boom \(at /);
    assert.ok(ids.includes('starlingx/kubernetes-version-v-prefix'));
  } finally { rule.check = check; }
});

test('internal error: a lazy fix that throws, and hover, completion and code actions that throw, answer empty, report the stage and the server goes on', { timeout: 30000 }, async (t) => {
  const dir = makeWorkspace({});
  const settings = { kubernetes: { window: '1.18..1.21' } };
  await t.test('fix (lazy fix): the code action request answers, fix-all still applies the other complete fixes', async () => {
    const c = await serverWith('fix', dir, undefined, settings);
    try {
      const uri = uriOf(path.join(dir, 'deploy.yaml'));
      const p = await c.open(uri, MANIFEST);
      assert.ok(codes(p).includes('k8s/removed-api'), codes(p));
      const since = c.count(uri);
      const actions = await withTimeout(c.request('textDocument/codeAction', {
        textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } }, context: { diagnostics: [] },
      }), 5000, 'codeAction did not answer');
      const fixAll = actions.find((a) => a.kind === 'source.fixAll.skewguard');
      assert.ok(fixAll, `fix-all still offered: ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.deepEqual(fixAll.edit.changes[uri].map((e) => e.range.start.line), [4], 'the suppression removal, not the failed conversion');
      const again = await c.waitFor(uri, (x) => internal(x).length > 0, { since, timeout: 5000 });
      assert.match(internal(again)[0].message, /stage fix \(the fix of k8s\/removed-api\): fault injected/);
      assert.ok(codes(again).includes('k8s/removed-api'), 'the finding stays');
    } finally { c.kill(); }
  });
  await t.test('suppress: fix-all applies nothing (a suppressed finding\'s fix would be applied)', async () => {
    const c = await serverWith('suppress', dir, undefined, settings);
    try {
      const uri = uriOf(path.join(dir, 'deploy-suppress.yaml'));
      const p = await c.open(uri, MANIFEST);
      assert.match(internal(p)[0]?.message ?? '', /stage suppress/);
      const actions = await withTimeout(c.request('textDocument/codeAction', {
        textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll.skewguard'] },
      }), 5000, 'codeAction did not answer');
      assert.deepEqual(actions, []);
    } finally { c.kill(); }
  });
  for (const [stage, method, empty] of [['hover', 'textDocument/hover', null], ['completion', 'textDocument/completion', []], ['codeAction', 'textDocument/codeAction', []],
    ['codeLens', 'textDocument/codeLens', []], ['inlayHint', 'textDocument/inlayHint', []]]) {
    await t.test(stage, async () => {
      const c = await serverWith(stage, dir);
      try {
        const uri = uriOf(path.join(dir, 'localhost.yml'));
        await c.open(uri, LOCALHOST);
        const since = c.count(uri);
        const params = { textDocument: { uri }, position: { line: 1, character: 2 }, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, context: { diagnostics: [] } };
        assert.deepEqual(await withTimeout(c.request(method, params), 5000, `${method} did not answer`), empty);
        const p = await c.waitFor(uri, (x) => internal(x).length > 0, { since, timeout: 5000 });
        assert.match(internal(p)[0].message, new RegExp(`stage ${stage}: fault injected`));
        assert.ok(codes(p).includes('starlingx/unknown-key'), 'the analysis results stay');
        // Still alive and answering.
        const other = uriOf(path.join(dir, 'other', 'localhost.yml'));
        assert.ok(codes(await c.open(other, 'system_mod: simplex\n')).includes('starlingx/unknown-key'));
      } finally { c.kill(); }
    });
  }
});

/** Runs `node bin/lsp-lint.js args` with env; resolves { code, stdout, stderr } or rejects after ms. */
function runLspLint(args, env, cwd, ms = 25000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [lspLint, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const t = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`lsp-lint ${args.join(' ')} did not finish within ${ms} ms (SKEWGUARD_FAULT=${env.SKEWGUARD_FAULT})`)); }, ms);
    child.on('exit', (code) => { clearTimeout(t); resolve({ code, stdout, stderr }); });
  });
}

test('lsp-lint: an internal error in any stage it runs fails the run and names the rule (exit 2 is the CLI\'s mapping)', { timeout: 35000 }, async () => {
  const dir = makeWorkspace({ 'localhost.yml': 'system_mode: simplex\n' });
  const clean = await runLspLint(['--format', 'json', 'localhost.yml'], { SKEWGUARD_FAULT: '' }, dir);
  assert.equal(clean.code, 0, `the file is clean without a fault: ${clean.stdout}${clean.stderr}`);
  const stages = ['config', 'parse', 'detect', 'context', 'rule:starlingx/unknown-key', 'suppress', 'facts', 'publish'];
  const runs = [];
  // Two at a time: the machine is small.
  for (let i = 0; i < stages.length; i += 2) {
    runs.push(...await Promise.all(stages.slice(i, i + 2).map((s) => runLspLint(['--format', 'json', 'localhost.yml'], { SKEWGUARD_FAULT: s }, dir).then((r) => ({ s, ...r })))));
  }
  for (const { s, code, stdout, stderr } of runs) {
    assert.notEqual(code, 0, `SKEWGUARD_FAULT=${s}: lsp-lint reported the file clean: ${stdout}${stderr}`);
    const messages = JSON.parse(stdout).flatMap((f) => f.messages);
    const ie = messages.find((m) => m.ruleId === INTERNAL);
    assert.ok(ie, `SKEWGUARD_FAULT=${s}: no ${INTERNAL} in ${stdout}`);
    assert.match(ie.message, new RegExp(`stage ${s.replace(/[/.]/g, '\\$&')}`));
  }
});

test('lsp-lint --fix: a lazy fix that throws is an internal error in the report, exit 2, and the file is left alone', { timeout: 35000 }, async () => {
  const text = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
  const dir = makeWorkspace({ 'ingress.yaml': text });
  const ok = await runLspLint(['--format', 'json', '--fix', '--kubernetes-window', '1.22', 'ingress.yaml'], { SKEWGUARD_FAULT: '' }, dir);
  assert.notEqual(fs.readFileSync(path.join(dir, 'ingress.yaml'), 'utf8'), text, `without a fault the Ingress is converted: ${ok.stdout}${ok.stderr}`);
  fs.writeFileSync(path.join(dir, 'ingress.yaml'), text);
  const r = await runLspLint(['--format', 'json', '--fix', '--kubernetes-window', '1.22', 'ingress.yaml'], { SKEWGUARD_FAULT: 'fix' }, dir);
  assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
  const messages = JSON.parse(r.stdout).flatMap((f) => f.messages);
  const ie = messages.find((m) => m.ruleId === INTERNAL);
  assert.ok(ie, `no ${INTERNAL} in ${r.stdout}`);
  assert.match(ie.message, /stage fix/);
  assert.equal(fs.readFileSync(path.join(dir, 'ingress.yaml'), 'utf8'), text);
});

test('a 140,000-device single-line persist.json (it overflowed the stack while computing facts, and nothing was published) is checked, with its facts', { timeout: 35000 }, async () => {
  const base = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/kata/persist-examples/v2-kata-3.32-sandbox.persist.json'), 'utf8'));
  base.Devices = Array.from({ length: 140000 }, (_, i) => ({ ID: `d${i}`, Type: 'block', RefCount: 1, AttachCount: 1 }));
  const dir = makeWorkspace({ 'persist.json': JSON.stringify(base) });
  const r = await runLspLint(['--format', 'json', 'persist.json'], {}, dir, 30000);
  const [file] = JSON.parse(r.stdout);
  assert.deepEqual(file.messages.filter((m) => m.ruleId === INTERNAL), [], r.stdout);
  assert.ok(!/Maximum call stack/.test(r.stdout + r.stderr), r.stdout);
  assert.ok(file.facts?.persistKind, `the file's facts were computed: ${r.stdout}`);
});

// --- The protocol, over a raw stdio pipe ---

function rawServer() {
  const child = spawn(process.execPath, [serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = Buffer.alloc(0), stderr = '';
  const waiters = [];
  child.stdout.on('data', (d) => { stdout = Buffer.concat([stdout, d]); for (const w of [...waiters]) w(); });
  child.stderr.on('data', (d) => { stderr += d; });
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const frame = (obj) => { const body = Buffer.from(JSON.stringify(obj)); return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]); };
  /** Messages received so far. */
  const messages = () => {
    const out = [];
    let pos = 0;
    for (;;) {
      const end = stdout.indexOf('\r\n\r\n', pos);
      if (end < 0) break;
      const len = Number(/Content-Length: (\d+)/i.exec(stdout.toString('latin1', pos, end))?.[1]);
      if (stdout.length < end + 4 + len) break;
      out.push(JSON.parse(stdout.toString('utf8', end + 4, end + 4 + len)));
      pos = end + 4 + len;
    }
    return out;
  };
  const response = (id, ms = 5000) => withTimeout(new Promise((resolve) => {
    const check = () => { const m = messages().find((x) => x.id === id && !x.method); if (m) { waiters.splice(waiters.indexOf(check), 1); resolve(m); } };
    waiters.push(check);
    check();
  }), ms, `no response to request ${id}; stderr: ${stderr}`);
  const send = (obj) => child.stdin.write(frame(obj));
  const request = (id, method, params) => { send({ jsonrpc: '2.0', id, method, params }); return response(id); };
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  return { child, exit, send, request, response, messages, kill, get stderr() { return stderr; } };
}

const INIT = { processId: null, rootUri: null, capabilities: {} };

test('protocol: a broken header (no, a negative, a huge, a non-numeric Content-Length) closes the connection with a logged error and a non-zero exit', { timeout: 30000 }, async (t) => {
  const cases = {
    'no Content-Length': 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}',
    'a negative Content-Length': 'Content-Length: -5\r\n\r\n{}',
    'a huge Content-Length': 'Content-Length: 99999999999999\r\n\r\n{}',
    'a non-numeric Content-Length': 'Content-Length: ten\r\n\r\n{}',
    'a header line without a colon': 'Content-Length 12\r\n\r\n{}',
  };
  await Promise.all(Object.entries(cases).map(([name, bytes]) => t.test(name, async () => {
    const s = rawServer();
    try {
      assert.equal((await s.request(1, 'initialize', INIT)).result.serverInfo.name, 'skewguard-language-server');
      s.child.stdin.write(bytes);
      const { code } = await withTimeout(s.exit, 5000, `the server is still running after ${name}`);
      assert.notEqual(code, 0, 'a non-zero exit, so the client restarts it');
      assert.match(s.stderr, /broken message on standard input: .*closing the connection/);
    } finally { s.kill(); }
  })));
});

test('protocol: requests after shutdown get InvalidRequest (-32600), so does a second initialize; exit then ends the process', { timeout: 15000 }, async () => {
  const s = rawServer();
  try {
    await s.request(1, 'initialize', INIT);
    s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    const again = await s.request(2, 'initialize', INIT);
    assert.equal(again.error?.code, -32600, JSON.stringify(again));
    s.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///tmp/x/localhost.yml', languageId: 'yaml', version: 1, text: 'system_mod: x\n' } } });
    assert.equal((await s.request(3, 'textDocument/hover', { textDocument: { uri: 'file:///tmp/x/localhost.yml' }, position: { line: 0, character: 1 } })).error, undefined, 'hover works before shutdown');
    assert.equal((await s.request(4, 'shutdown', null)).error, undefined);
    for (const [id, method, params] of [
      [5, 'textDocument/hover', { textDocument: { uri: 'file:///tmp/x/localhost.yml' }, position: { line: 0, character: 1 } }],
      [6, 'textDocument/completion', { textDocument: { uri: 'file:///tmp/x/localhost.yml' }, position: { line: 0, character: 1 } }],
      [7, 'textDocument/codeAction', { textDocument: { uri: 'file:///tmp/x/localhost.yml' }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } }],
      [8, 'skewguard/resolvedConfig', {}],
      [9, 'no/such-method', {}],
      [10, 'shutdown', null],
      [11, 'initialize', INIT],
    ]) {
      const r = await s.request(id, method, params);
      assert.equal(r.error?.code, -32600, `${method} after shutdown: ${JSON.stringify(r)}`);
    }
    s.send({ jsonrpc: '2.0', method: 'exit' });
    assert.equal((await withTimeout(s.exit, 5000, 'no exit')).code, 0);
  } finally { s.kill(); }
});

test('protocol: requests with null or missing params get InvalidParams (-32602), not an internal error, and the server goes on', { timeout: 15000 }, async () => {
  // The protocol fuzzer's finding: the LSP library read params.workDoneToken / .textDocument.uri / .processId before
  // any handler ran, and answered -32603 "Request … failed" thousands of times.
  const s = rawServer();
  try {
    for (const [id, params] of [[1, null], [2, { processId: null }]]) {
      const r = await s.request(id, 'initialize', params);
      assert.equal(r.error?.code, -32602, `initialize with ${JSON.stringify(params)}: ${JSON.stringify(r)}`);
    }
    assert.equal((await s.request(3, 'initialize', INIT)).error, undefined, 'a proper initialize still works');
    s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    const uri = 'file:///tmp/x/localhost.yml';
    let id = 10;
    for (const [method, params] of [
      ['textDocument/hover', null], ['textDocument/hover', {}], ['textDocument/hover', { textDocument: { uri } }],
      ['textDocument/completion', null], ['textDocument/completion', { position: { line: 0, character: 0 } }],
      ['textDocument/codeAction', null], ['textDocument/codeAction', { textDocument: { uri } }],
      ['textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: 'x' } }],
      ['skewguard/resolvedConfig', null],
    ]) {
      const r = await s.request(++id, method, params);
      assert.equal(r.error?.code, -32602, `${method} with ${JSON.stringify(params)}: ${JSON.stringify(r)}`);
    }
    const ok = await s.request(++id, 'textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal(ok.error, undefined, `a proper hover still works: ${JSON.stringify(ok)}`);
    assert.equal((await s.request(++id, 'no/such-method', null)).error?.code, -32601, 'an unknown method is still MethodNotFound');
  } finally { s.kill(); }
});

test('protocol: malformed JSON, unopened uris, out-of-range edits, backwards versions, positions past the end and non-file uris leave the server responsive', { timeout: 20000 }, async () => {
  const dir = makeWorkspace({});
  const c = await serverWith('', dir);
  const s = { ping: async (what) => assert.ok(Array.isArray(await withTimeout(c.request('textDocument/completion', { textDocument: { uri: 'file:///nowhere.yml' }, position: { line: 0, character: 0 } }), 5000, `no answer after ${what}`)), what) };
  try {
    // A well-framed body that is not JSON.
    const body = Buffer.from('{"jsonrpc": "2.0", "method": ');
    c.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    await s.ping('malformed JSON');
    await c.notify('textDocument/didChange', { textDocument: { uri: 'file:///unopened.yml', version: 2 }, contentChanges: [{ text: 'x: 1\n' }] });
    await c.notify('textDocument/didClose', { textDocument: { uri: 'file:///unopened.yml' } });
    await s.ping('notifications for an unopened uri');
    const uri = uriOf(path.join(dir, 'localhost.yml'));
    await c.open(uri, LOCALHOST);
    await c.change(uri, 2, [{ range: { start: { line: 50, character: 3 }, end: { line: 90, character: 0 } }, text: 'system_mode: duplex\n' }]);
    await s.ping('an out-of-range edit');
    await c.notify('textDocument/didChange', { textDocument: { uri, version: 1 }, contentChanges: [{ text: 'system_mod: x\n' }] });
    await s.ping('a backwards version');
    for (const method of ['textDocument/hover', 'textDocument/completion']) {
      await withTimeout(c.request(method, { textDocument: { uri }, position: { line: 999, character: 999 } }), 5000, `${method} past the end`);
    }
    await withTimeout(c.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 999, character: 0 }, end: { line: 9999, character: 5 } }, context: { diagnostics: [] } }), 5000, 'codeAction past the end');
    await s.ping('positions past the end');
    for (const u of ['untitled:Untitled-1', 'vscode-notebook-cell:/x/nb.ipynb#W0sZmlsZQ%3D%3D']) {
      const p = await c.open(u, 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: x\n');
      assert.ok(Array.isArray(p.diagnostics), u);
      await withTimeout(c.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: 2 } }), 5000, `hover on ${u}`);
    }
    await s.ping('non-file uris');
    assert.equal(c.child.exitCode, null, 'still running');
  } finally { c.kill(); }
});

// --- The VS Code client's restart policy (client/src/restart.ts), driven in node with a fake clock and notifier ---

test('client: a dead server is restarted a bounded number of times, each time with a message naming the reason', async () => {
  const { RestartPolicy } = await loadSource('client/src/restart.ts');
  let now = 0;
  const shown = [];
  const policy = new RestartPolicy({ maxRestarts: 3, windowMs: 180000, now: () => now, notify: (message, final) => shown.push({ message, final }) });
  const RESTART = 2, DO_NOT_RESTART = 1;
  // A crash: node prints the exception, its stack and its version on stderr.
  const crash = (msg) => {
    for (const l of [`/x/dist/server.js:123`, '        throw e;', '        ^', '', msg, '    at parentsOf (/x/dist/server.js:1:2)', '', 'Node.js v20.20.2']) policy.stderrLine(l);
  };
  crash('RangeError: Maximum call stack size exceeded');
  assert.equal(policy.closed().action, RESTART);
  assert.match(shown[0].message, /stopped \(RangeError: Maximum call stack size exceeded\); it was restarted \(1 of 3/);
  assert.equal(shown[0].final, false);
  now += 1000;
  policy.stderrLine('skewguard-language-server: broken message on standard input: Content-Length -5 is not a length in bytes; closing the connection');
  assert.equal(policy.closed().action, RESTART);
  assert.match(shown[1].message, /broken message on standard input: Content-Length -5/);
  now += 1000;
  policy.error(new Error('write EPIPE'), undefined, 1);
  assert.equal(policy.closed().action, RESTART);
  assert.match(shown[2].message, /connection error: write EPIPE/);
  now += 1000;
  assert.equal(policy.closed().action, DO_NOT_RESTART, 'the fourth stop within the window: not restarted');
  assert.equal(shown[3].final, true);
  assert.match(shown[3].message, /stopped 4 times in 3 minutes and is not restarted.*Restart Server/);
  // Once the window has passed, a new crash is restarted again.
  now += 10 * 60 * 1000;
  crash('TypeError: x is not a function');
  assert.equal(policy.closed().action, RESTART);
  assert.match(shown[4].message, /TypeError: x is not a function/);
  // Connection errors: a few in a row are tolerated, then the connection is shut down (as the library's default).
  assert.equal(policy.error(new Error('e'), undefined, 3).action, 1);
  assert.equal(policy.error(new Error('e'), undefined, 4).action, 2);
});

// --- fix-all's choice of non-overlapping fixes (server/src/server/fix-all.ts), against the quadratic original ---

test('fix-all: the sorted-spans overlap check chooses exactly what the quadratic check chose (random fixes, empty and nested spans)', async () => {
  const { chooseNonOverlapping } = await loadSource('server/src/server/fix-all.ts');
  // The check as it was (every new span against every chosen one), then a stable sort by start.
  const quadratic = (groups) => {
    const chosen = [];
    for (const spans of groups) {
      if (spans.some((s) => chosen.some((c) => (s.start < c.end && c.start < s.end) || (s.start === c.start && s.end === c.end)))) continue;
      chosen.push(...spans);
    }
    return chosen.sort((a, b) => a.start - b.start);
  };
  let seed = 13;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 400; round++) {
    const size = 1 + rand(60), len = 5 + rand(200);
    const groups = Array.from({ length: size }, (_, g) => Array.from({ length: 1 + rand(3) }, (_, k) => {
      const start = rand(len), end = rand(4) === 0 ? start : Math.min(len, start + 1 + rand(12));
      return { start, end, edit: { range: `${g}.${k}`, newText: '' } };
    }));
    assert.deepEqual(chooseNonOverlapping(groups).map((s) => s.edit.range), quadratic(groups).map((s) => s.edit.range), `round ${round}: ${JSON.stringify(groups)}`);
  }
  // Many small fixes, as a JSON List of thousands of objects has: the result is every fix, in order.
  const many = Array.from({ length: 20000 }, (_, i) => [{ start: i * 10, end: i * 10 + 5, edit: { range: i, newText: '' } }, { start: i * 10 + 7, end: i * 10 + 7, edit: { range: -i, newText: '' } }]);
  assert.equal(chooseNonOverlapping(many.reverse()).length, 40000);
});

test('"Check whole workspace": a folder the walk cannot list (here: its path is longer than PATH_MAX) is said in notChecked, not passed over', async (t) => {
  const dir = makeWorkspace({ '.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.21"\n', 'ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
  // Made step by step (each mkdir relative to the last folder): 24 levels of 200 characters, past Linux's 4096.
  const seg = 'd'.repeat(200);
  const made = spawnSync(process.execPath, ['-e', `const fs = require('fs'); process.chdir(process.argv[1]); for (let i = 0; i < 24; i++) { fs.mkdirSync('${seg}'); process.chdir('${seg}'); }`, dir]);
  assert.equal(made.status, 0, String(made.stderr));
  t.after(() => spawnSync('rm', ['-rf', dir])); // rm walks by file descriptor: the long path is no problem for it
  const client = new LspClient(dir, {});
  t.after(() => client.kill());
  await withTimeout(client.initialize(), 10000, 'initialize did not answer');
  const r = await withTimeout(client.request('skewguard/checkWorkspace', {}), 30000, 'checkWorkspace did not answer');
  assert.equal(r.files, 1);
  assert.ok(r.notChecked.some((n) => /^d{200}(\/d{200})*\/: folder not read \(ENAMETOOLONG/.test(n)), JSON.stringify(r.notChecked).slice(0, 500));
});
