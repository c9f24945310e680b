// Robustness, bounded (issue item 3; `npm run fuzz` runs the same properties at length): random and mutated
// YAML, TOML and JSON built from the fixtures, binary data, 10 MB files, 1 MB lines, nesting 10,000 deep,
// alias bombs, invalid UTF-8, BOMs, CRLF, tabs and astral characters. Properties: the engine never throws;
// the server never crashes or hangs (every request answers within a bound); every diagnostic range lies
// inside its document; random incremental edits give the diagnostics of a fresh open; `lsp-lint --fix` is
// idempotent and changes only the bytes its edits name; a file that fails to parse is never written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { LspClient, makeWorkspace, uriOf, withTimeout, applyTextEdits, repoRoot } from './helpers/lsp-client.mjs';
import { seedDocuments, documentArbitrary, rangeProblems, signature, specialInputs, editArbitrary, toChange, checkLspLintFix, KNOWN } from './helpers/robustness.mjs';

const require = createRequire(import.meta.url);
const engine = require('../dist/engine.js');
const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');
const CLI = { kubernetesWindow: '1.18..1.21', kataWindow: '3.1..3.32', starlingxRelease: '12.0' };
const CLI_FLAGS = ['--kubernetes-window', CLI.kubernetesWindow, '--kata-window', CLI.kataWindow, '--starlingx-release', CLI.starlingxRelease];
const config = engine.resolveConfig({ cli: CLI });
const seeds = seedDocuments();
const SEED = 20261129;

/** Milliseconds an analysis of a fuzzed document (at most a few hundred KB) may take. */
const ENGINE_BOUND_MS = 2000;

test('engine: 400 random and mutated YAML/TOML/JSON documents: no throw, bounded time, ranges inside the document', { timeout: 120000 }, () => {
  fc.assert(fc.property(documentArbitrary(seeds), (d) => {
    const t0 = performance.now();
    const r = engine.analyze({ path: path.join('/ws', d.name), text: d.text, config });
    const took = performance.now() - t0;
    assert.deepEqual(rangeProblems(d.text, r.diagnostics), [], d.how);
    assert.ok(took < ENGINE_BOUND_MS, `analyze took ${took.toFixed(0)} ms (${d.how})`);
  }), { numRuns: 400, seed: SEED });
});

test('server: special inputs each answer within their bound with ranges inside the document, and the server survives', { timeout: 120000 }, async (t) => {
  const root = makeWorkspace({});
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
  try {
    await client.initialize();
    for (const input of specialInputs()) {
      if (input.name === KNOWN.longTomlString) continue; // its own test below
      await t.test(input.name, async () => {
        const file = path.join(root, input.name.replace(/[^\w]+/g, '-'), input.file);
        const uri = uriOf(file);
        const t0 = performance.now();
        const p = await withTimeout(client.open(uri, input.text), input.bound, `no diagnostics for "${input.name}" within ${input.bound} ms`);
        const took = performance.now() - t0;
        assert.deepEqual(rangeProblems(input.text, p.diagnostics), []);
        // Requests on the document answer within the bound too.
        const lines = input.text.split(/\r\n|\r|\n/);
        const last = { line: lines.length - 1, character: lines[lines.length - 1].length };
        for (const position of [{ line: 0, character: 0 }, { line: Math.floor(last.line / 2), character: 1 }, last]) {
          await withTimeout(client.request('textDocument/hover', { textDocument: { uri }, position }), 3000, `hover at ${JSON.stringify(position)} hung`);
          await withTimeout(client.request('textDocument/completion', { textDocument: { uri }, position }), 3000, `completion at ${JSON.stringify(position)} hung`);
        }
        await withTimeout(client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: last }, context: { diagnostics: p.diagnostics } }), 3000, 'codeAction hung');
        await client.notify('textDocument/didClose', { textDocument: { uri } });
        t.diagnostic(`${input.name}: ${(input.text.length / 1024).toFixed(0)} KB, ${p.diagnostics.length} diagnostics [${[...new Set(p.diagnostics.map((d) => d.code))].join(', ')}] in ${took.toFixed(0)} ms`);
      });
    }
    assert.equal(client.child.exitCode, null, `the server exited: ${client.stderr}`);
    const exit = await client.shutdown();
    assert.equal(exit.code, 0, client.stderr);
    assert.doesNotMatch(client.stderr, /analysing .* failed/, 'an analysis threw (the server caught it)');
  } finally {
    client.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// yaml's Document.toJS stringifies collection keys at every level (super-polynomial: "{[" x 400 took over 100 s);
// parse/yaml.ts now reports a collection used as a key instead of converting it.
test('server: nested flow collections as mapping keys answer within 3 s', { timeout: 20000 }, async () => {
  const root = makeWorkspace({});
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
  try {
    await client.initialize();
    const k = KNOWN.flowKeyBlowup;
    await withTimeout(client.open(uriOf(path.join(root, k.file)), k.text), 3000, `"${k.text.slice(0, 8)}…" (${k.text.length} characters) did not answer within 3 s`);
  } finally {
    client.kill(); // it may still be busy: do not wait for it
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// toml-eslint-parser 1.0.3 overflows its stack on strings of ~120k+ characters: the file is said to be not checked
// (an info), not called a syntax error it does not have.
test('engine: a valid TOML file with a 1 MB string is reported as not checked, not as a syntax error', () => {
  const input = specialInputs().find((s) => s.name === KNOWN.longTomlString);
  const r = engine.analyze({ path: `/ws/${input.file}`, text: input.text, config });
  assert.deepEqual(r.diagnostics.filter((d) => d.ruleId === 'syntax/parse-error').map((d) => d.message), []);
  assert.deepEqual(r.diagnostics.map((d) => [d.ruleId, d.severity]), [['skewguard/skipped-file', 'info']]);
  assert.match(r.diagnostics[0].message, /TOML parser r[au]ns? out of stack/);
});

test('server: random incremental edits give the diagnostics of a fresh open', { timeout: 120000 }, async () => {
  const root = makeWorkspace({});
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, initializationOptions: { cli: CLI } });
  try {
    await client.initialize();
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...seeds.filter((s) => s.text.length < 20000)), fc.array(editArbitrary, { minLength: 1, maxLength: 8 }), async (seed, edits) => {
      const file = path.join(root, `case-${n++}`, seed.name);
      const uri = uriOf(file);
      let text = seed.text;
      await client.open(uri, text);
      let version = 1;
      let last;
      for (const e of edits) {
        const change = toChange(text, e);
        text = applyTextEdits(text, [{ range: change.range, newText: change.text }]);
        last = await client.change(uri, ++version, [change]);
      }
      assert.deepEqual(rangeProblems(text, last.diagnostics), []);
      await client.notify('textDocument/didClose', { textDocument: { uri } });
      const fresh = await client.open(uri, text, 1);
      await client.notify('textDocument/didClose', { textDocument: { uri } });
      assert.deepEqual(signature(last.diagnostics), signature(fresh.diagnostics), `${seed.rel} after ${JSON.stringify(edits)}`);
    }), { numRuns: 80, seed: SEED });
    assert.equal((await client.shutdown()).code, 0);
  } finally {
    client.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('lsp-lint --fix: idempotent, changes only the bytes its edits name, never writes a file that fails to parse', { timeout: 120000 }, async () => {
  const r = await checkLspLintFix({ seeds, engine, config, cli: CLI, flags: CLI_FLAGS, variants: 30, seed: SEED });
  assert.ok(r.changed >= 10, `only ${r.changed} files were fixed`);
});

test('lsp-lint: binary data, invalid UTF-8, BOM + CRLF, a 1 MB line and a file over the size limit', { timeout: 60000 }, () => {
  const random = Buffer.from(fc.sample(fc.uint8Array({ minLength: 4096, maxLength: 4096 }), { numRuns: 1, seed: SEED })[0]);
  const root = makeWorkspace({});
  const write = (rel, data) => { const p = path.join(root, rel); fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, data); };
  write('bin/manifest.yaml', Buffer.concat([random, Buffer.from([0])]));
  write('bin/configuration-qemu.toml', random.map((b) => b || 1)); // binary but no NUL: decoded as UTF-8
  write('utf8/localhost.yml', Buffer.from([...Buffer.from('system_mode: '), 0xc3, 0x28, 0xff, 0x0a, 0xed, 0xa0, 0x80, 0x3a, 0x20, 0x31, 0x0a]));
  write('bom/manifest.yaml', '\uFEFFapiVersion: extensions/v1beta1\r\nkind: Deployment\r\nmetadata:\r\n  name: 😀\r\n');
  write('line/persist.json', `{"PersistVersion": 2, "x": "${'y'.repeat(1 << 20)}"}`);
  write('huge/manifest.yaml', Buffer.alloc(21 * 1024 * 1024, 0x61));
  // --allow-unchecked: the binary and the over-large file are reported as not checked (else exit 2, issue #25).
  const r = spawnSync(process.execPath, [lspLint, ...CLI_FLAGS, '--allow-unchecked', '--format', 'json', '.'], { cwd: root, encoding: 'utf8', timeout: 60000, maxBuffer: 64 << 20 });
  try {
    assert.ok(r.status === 0 || r.status === 1, `lsp-lint exited ${r.status}: ${r.stderr}`);
    const report = JSON.parse(r.stdout);
    assert.equal(report.length, 6);
    for (const f of report) {
      let text = fs.readFileSync(f.filePath).toString('utf8');
      if (text.startsWith('\uFEFF')) text = text.slice(1);
      if (f.filePath.includes('/bin/manifest') || f.filePath.includes('/huge/')) text = ''; // skipped: reported at 0:0
      assert.deepEqual(rangeProblems(text, f.messages.map((m) => ({ code: m.ruleId, range: { start: { line: m.line - 1, character: m.column - 1 }, end: { line: (m.endLine ?? m.line) - 1, character: (m.endColumn ?? m.column) - 1 } } }))), [], f.filePath);
    }
    const skipped = report.filter((f) => f.messages.some((m) => m.ruleId === 'skewguard/skipped-file')).map((f) => path.relative(root, f.filePath)).sort();
    assert.deepEqual(skipped, ['bin/manifest.yaml', 'huge/manifest.yaml']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// ------------------------------------------------------------------------ what the reader's limits say

const analyzeK8s = (file, text) => engine.analyze({ path: file, text, config: engine.resolveConfig({ cli: CLI }) });

test('a manifest holding an alias bomb is recognised and says why it is not checked, at its first alias', () => {
  const lol = ['data:', '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) { const p = String.fromCharCode(96 + i), n = String.fromCharCode(97 + i); lol.push(`  ${n}: &${n} [${Array(9).fill(`*${p}`).join(',')}]`); }
  const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n${lol.join('\n')}\n`;
  const r = analyzeK8s('/w/lol.yaml', text);
  assert.equal(r.family, 'kubernetes');
  assert.deepEqual(r.diagnostics.map((d) => [d.ruleId, d.range.start.line, d.range.start.character, d.range.end.character]), [['syntax/parse-error', 6, 9, 11]]);
  assert.equal(r.diagnostics[0].message, 'YAML not read: its aliases expand to more than 1,000 nodes (a "billion laughs" alias bomb?): this document is not checked');
  // Plain YAML that is no manifest stays unclaimed (no family, nothing said).
  assert.deepEqual(analyzeK8s('/w/other.yaml', `${lol.join('\n')}\n`).diagnostics, []);
});

test('valid YAML nested 10,000 deep gets "nested too deeply", not a stack overflow message', () => {
  const r = analyzeK8s('/w/deep.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: ${'['.repeat(10000)}${']'.repeat(10000)}\n`);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].ruleId, 'syntax/parse-error');
  assert.match(r.diagnostics[0].message, /^YAML not read: nested too deeply to read .*: this document is not checked$/);
  assert.doesNotMatch(r.diagnostics[0].message, /call stack/);
});

test('a user lifecycle row out of order (removed before introduced) is a config problem at its value, and not used', () => {
  const cfg = 'kubernetes:\n  additionalVersions:\n    - version: example.com/v1beta1\n      kind: Widget\n      introduced-in: v1.22.0\n      removed-in: v1.20.0\n'
    + '    - version: example.com/v1\n      kind: Widget\n      deprecated-in: v1.25.0\n      removed-in: v1.24.0\n    - version: example.com/v2\n      kind: Widget\n      introduced-in: v1.19.0\n';
  const c = engine.parseConfig('/w/.skewguard.yaml', cfg, engine.ruleIds);
  assert.deepEqual(c.problems.map((p) => [p.message, cfg.slice(p.range.start, p.range.end)]), [
    ['kubernetes.additionalVersions[0] (example.com/v1beta1 Widget): removed-in v1.20.0 is before introduced-in v1.22.0; a row must be introduced, then deprecated, then removed. The row is not used', 'v1.20.0'],
    ['kubernetes.additionalVersions[1] (example.com/v1 Widget): removed-in v1.24.0 is before deprecated-in v1.25.0; a row must be introduced, then deprecated, then removed. The row is not used', 'v1.24.0'],
  ]);
  assert.deepEqual(c.overrides.kubernetesRows.map((r) => r.version), ['example.com/v2']);
  // lsp-lint refuses the config with the file and line.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-rows-'));
  try {
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), cfg);
    fs.writeFileSync(path.join(dir, 'w.yaml'), 'apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: w\n');
    const r = spawnSync(process.execPath, [lspLint, '.'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^lsp-lint: \.skewguard\.yaml:6:19: kubernetes\.additionalVersions\[0\] \(example\.com\/v1beta1 Widget\): removed-in v1\.20\.0 is before introduced-in v1\.22\.0/m);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
