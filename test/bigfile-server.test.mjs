// Big files whole (issue #18 item 5), through the real server: a file with more findings than VS Code shows (1,000 per
// file) gets the most useful ones (on screen and near the cursor first, then errors), repeats grouped with their
// places, and one diagnostic saying what was left out; lsp-lint still reports every finding. A big multi-document
// file is checked part by part in the editor (server/scheduler.ts): its findings are exactly the whole file's, after
// edits too, with positions, fixes and hovers at the file's lines. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot, serverJs } from './helpers/lsp-client.mjs';
import { bundleFile } from '../bench/bundle.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const CONFIG = 'kubernetes:\n  window: "1.18..1.21"\n';
const CHECKING = 'skewguard/checking', LIMIT = 'skewguard/findings-limit';
// 3,000 documents (0.9 MB, about 1,900 findings): over the limit, and big enough to be checked part by part.
const BUNDLE = bundleFile(3000);

async function start(t, files, opts = {}) {
  const root = makeWorkspace({ '.skewguard.yaml': CONFIG, ...files });
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, ...opts });
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

/** The first publication of `version` that is complete (no "still checking" note). */
const complete = (client, uri, version, since = 0) =>
  client.waitFor(uri, (p) => p.version === version && !p.diagnostics.some((d) => d.code === CHECKING), { since, timeout: 60000 });
const brief = (ds) => ds.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code} ${d.message}`);

/** Every finding of `text`, from the server as lsp-lint drives it (the whole file at once, nothing left out). */
async function wholeFile(t, text, name = 'bundle.yaml') {
  const { client, uri } = await start(t, {}, { initializationOptions: { cli: {}, allDiagnostics: true } });
  const u = uri(name);
  await client.open(u, text);
  return (await complete(client, u, 1)).diagnostics;
}

test('#18.5 over the editor\'s limit: at most 1,000 sent, repeats grouped with their places, one diagnostic says what was left out', async (t) => {
  const all = await wholeFile(t, BUNDLE);
  assert.ok(all.length > 1500, `${all.length} findings`);
  const { client, uri } = await start(t, {});
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const got = (await complete(client, u, 1)).diagnostics;
  assert.ok(got.length <= 1000, `${got.length} sent`);
  const summary = got.filter((d) => d.code === LIMIT);
  assert.equal(summary.length, 1);
  assert.equal(summary[0].severity, 3, 'information');
  assert.match(summary[0].message, /has 1,\d{3} findings and the editor shows at most 1,000 per file.*lsp-lint/);
  const { total, shown, grouped, left } = summary[0].data;
  assert.equal(total, all.length);
  assert.equal(shown + grouped + left, total);
  const groups = got.filter((d) => d.code !== LIMIT && d.data?.grouped);
  assert.ok(groups.length > 0);
  for (const g of groups) {
    assert.match(g.message, /\(and [\d,]+ more like it in this file, grouped here: lines? [\d, …]+\)$/);
    assert.ok(g.relatedInformation.length > 0 && g.relatedInformation.length <= 20);
    // Each place is a real finding of the same rule and message.
    const base = g.message.replace(/ \(and [\d,]+ more like it.*$/, '');
    for (const r of g.relatedInformation) {
      assert.ok(all.some((d) => d.code === g.code && d.message === base && d.range.start.line === r.location.range.start.line), JSON.stringify(r));
    }
  }
  // Every finding sent one by one is one of the file's, unchanged; errors come before warnings far from the focus.
  const set = new Set(brief(all));
  for (const d of got.filter((x) => x.code !== LIMIT && !x.data?.grouped)) assert.ok(set.has(brief([d])[0]), brief([d])[0]);
  const errorsAll = all.filter((d) => d.severity === 1).length;
  const errorsSent = got.filter((d) => d.severity === 1 && !d.data?.grouped).length;
  assert.ok(errorsSent >= Math.min(errorsAll, 900), `${errorsSent} of ${errorsAll} errors sent one by one`);
});

test('#18.5 the visible range near the end of the file: the findings there are sent (squiggles past the first 1,000)', async (t) => {
  const all = await wholeFile(t, BUNDLE);
  const lastLine = BUNDLE.split('\n').length - 2;
  const nearEnd = all.filter((d) => d.range.start.line > lastLine - 300);
  assert.ok(nearEnd.length > 3, `${nearEnd.length} findings near the end`);
  const { client, uri } = await start(t, {});
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const before = (await complete(client, u, 1)).diagnostics;
  // With the focus at the top, warnings at the end are not all there one by one.
  const shownAt = (ds) => nearEnd.filter((d) => ds.some((x) => !x.data?.grouped && x.code === d.code && x.message === d.message && x.range.start.line === d.range.start.line));
  assert.ok(shownAt(before).length < nearEnd.length, `${shownAt(before).length} of ${nearEnd.length} near the end before scrolling`);
  const since = client.count(u);
  await client.notify('skewguard/visibleRanges', { uri: u, ranges: [{ start: { line: lastLine - 300, character: 0 }, end: { line: lastLine, character: 0 } }], cursor: { line: lastLine - 150, character: 0 } });
  // Among the first 500 sent: VS Code draws squiggles for the first 500 markers of a file only, in the order sent.
  const after = (await client.waitFor(u, (p) => shownAt(p.diagnostics.slice(0, 500)).length === nearEnd.length, { since, timeout: 20000 })).diagnostics;
  assert.ok(after.length <= 1000);
});

test('#18.5 lsp-lint reports every finding of the big file (the limit is the editor\'s only)', async (t) => {
  const all = await wholeFile(t, BUNDLE);
  const root = makeWorkspace({ '.skewguard.yaml': CONFIG, 'bundle.yaml': BUNDLE });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--format', 'json', 'bundle.yaml'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report[0].messages.length, all.length);
  assert.ok(!report[0].messages.some((m) => /findings-limit|checking/.test(m.ruleId ?? '')));
});

// A syntax error in document 1,500 (numbered as in the file), CRLF line breaks in another copy.
const BROKEN = BUNDLE.replace('name: cm-1500\n', 'name: "cm-1500\n');

for (const [name, text] of [['LF, a syntax error in document 1,500', BROKEN], ['CRLF', BROKEN.replace(/\n/g, '\r\n')]]) {
  test(`#18.5 part by part, the findings are exactly the whole file's (${name}), and after edits too`, async (t) => {
    assert.notEqual(BROKEN, BUNDLE);
    const want = brief(await wholeFile(t, text));
    assert.ok(want.some((d) => /syntax\/parse-error YAML syntax error \(document \d{4}\)/.test(d)), 'the broken document is numbered as in the file');
    const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
    const u = uri('bundle.yaml');
    await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text } });
    const first = await client.waitFor(u, (p) => p.version === 1, { timeout: 60000 });
    assert.ok(first.diagnostics.some((d) => d.code === CHECKING), 'the first publication comes before the whole file is checked');
    assert.deepEqual(brief((await complete(client, u, 1)).diagnostics), want);
    // Edits near the end: a DaemonSet moved to apps/v1 (a finding goes), a document inserted (the lines after move).
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const lines = text.split(eol);
    const ds = lines.lastIndexOf('apiVersion: extensions/v1beta1');
    let edited = [...lines];
    edited[ds] = 'apiVersion: apps/v1';
    await client.change(u, 2, [{ range: { start: { line: ds, character: 0 }, end: { line: ds, character: 30 } }, text: 'apiVersion: apps/v1' }]);
    const ins = Math.floor(lines.length / 3);
    const at = edited.indexOf('---', ins); // a document start a third into the file
    const doc = ['---', 'apiVersion: policy/v1beta1', 'kind: PodDisruptionBudget', 'metadata:', '  name: inserted'];
    edited = [...edited.slice(0, at), ...doc, ...edited.slice(at)];
    await client.change(u, 3, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: doc.join(eol) + eol }]);
    const got = brief((await complete(client, u, 3)).diagnostics);
    assert.deepEqual(got, brief(await wholeFile(t, edited.join(eol), 'edited.yaml')));
  });
}

// Line breaks of every kind in one file: LF, CRLF and a lone CR (a line break of its own to LSP), each part's first
// line counted as the whole file's LineIndex counts it (a CRLF part's breaks are its LFs; a part with a lone CR is
// counted character by character).
test('#18.5 part by part, the findings are exactly the whole file\'s with LF, CRLF and lone CR line breaks mixed', async (t) => {
  const lines = BROKEN.split('\n');
  let mixed = '';
  for (let i = 0; i < lines.length; i++) mixed += lines[i] + (i === lines.length - 1 ? '' : i % 7 === 3 ? '\r' : i % 3 === 0 ? '\r\n' : '\n');
  assert.ok(/\r(?!\n)/.test(mixed) && mixed.includes('\r\n'));
  const want = brief(await wholeFile(t, mixed));
  assert.ok(want.length > 100, `${want.length} findings`);
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: mixed } });
  assert.deepEqual(brief((await complete(client, u, 1)).diagnostics), want);
});

test('#18.5 edits sent before the file is checked: stale work is dropped, the last version\'s findings are the whole file\'s', async (t) => {
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const lines = BUNDLE.split('\n');
  const targets = [];
  for (let i = lines.length - 1; i > 0 && targets.length < 3; i--) if (lines[i] === 'apiVersion: extensions/v1beta1') targets.push(i);
  let v = 1;
  for (const line of targets) {
    lines[line] = 'apiVersion: apps/v1';
    await client.notify('textDocument/didChange', { textDocument: { uri: u, version: ++v }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 30 } }, text: 'apiVersion: apps/v1' }] });
  }
  const final = await complete(client, u, v);
  assert.deepEqual(brief(final.diagnostics), brief(await wholeFile(t, lines.join('\n'))));
  // Nothing for an older version after it.
  await new Promise((r) => setTimeout(r, 300));
  const list = client.published.get(u);
  assert.ok(list.slice(list.indexOf(final) + 1).every((p) => p.version === v), JSON.stringify(list.map((p) => p.version)));
});

test('#18.5 part by part, a hover and a quick fix near the end are at the file\'s lines', async (t) => {
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const ds = (await complete(client, u, 1)).diagnostics;
  const lines = BUNDLE.split('\n');
  const d = ds.filter((x) => x.code === 'k8s/removed-api').at(-1);
  assert.ok(d.range.start.line > lines.length * 0.9, `${d.range.start.line}`);
  assert.equal(lines[d.range.start.line], 'apiVersion: extensions/v1beta1');
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: d.range.start.line, character: 15 } });
  assert.ok(h && /DaemonSet|extensions\/v1beta1/.test(JSON.stringify(h.contents)), JSON.stringify(h));
  assert.equal(h.range.start.line, d.range.start.line);
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
  const fix = actions.find((a) => a.edit);
  assert.ok(fix, JSON.stringify(actions));
  const edits = fix.edit.changes[u];
  assert.ok(edits.every((e) => e.range.start.line >= d.range.start.line - 2 && e.range.start.line < d.range.start.line + 30), JSON.stringify(edits));
  assert.ok(edits.some((e) => e.range.start.line === d.range.start.line && /apps\/v1/.test(e.newText)), JSON.stringify(edits));
});

test('#18.5 a part that fails in the background pass: the file is checked whole (the server lives, no note "still checking" left)', async (t) => {
  const want = brief(await wholeFile(t, BUNDLE));
  // SKEWGUARD_FAULT=segment makes each background part throw (read when the server is spawned).
  const saved = process.env.SKEWGUARD_FAULT;
  process.env.SKEWGUARD_FAULT = 'segment';
  let s;
  try { s = await start(t, {}, { initializationOptions: { allDiagnostics: true } }); } finally {
    if (saved === undefined) delete process.env.SKEWGUARD_FAULT; else process.env.SKEWGUARD_FAULT = saved;
  }
  const { client, uri } = s;
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const first = await client.waitFor(u, (p) => p.version === 1, { timeout: 60000 });
  assert.ok(first.diagnostics.some((d) => d.code === CHECKING), 'the first publication is a partial one (the background pass is taken)');
  const died = client.exit.then((e) => { throw new Error(`the server exited: ${JSON.stringify(e)}`); });
  assert.deepEqual(brief((await Promise.race([complete(client, u, 1), died])).diagnostics), want);
});

test('#18.5 part by part, only a few parts keep their whole analysis: the quick fixes and hovers of every part are the whole file\'s', async (t) => {
  // The parts the user has not worked in keep only their findings (scheduler.ts HOT_PARTS); their lazy fixes and
  // hovers are worked out again from their text when asked for.
  const w = await start(t, {}, { initializationOptions: { cli: {}, allDiagnostics: true } });
  const wu = w.uri('bundle.yaml');
  await w.client.open(wu, BUNDLE);
  await complete(w.client, wu, 1);
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  const ds = (await complete(client, u, 1)).diagnostics;
  const removed = ds.filter((d) => d.code === 'k8s/removed-api');
  assert.ok(removed.length > 300, `${removed.length} removed APIs`);
  const fixes = async (c, x, d) => (await c.request('textDocument/codeAction', { textDocument: { uri: x }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } }))
    .filter((a) => a.edit).map((a) => [a.title, a.edit.changes[x]]);
  // Every removed API's fix, in file order: each part's analysis is made again once and let go a few parts later.
  for (const d of removed) {
    const got = await fixes(client, u, d);
    assert.ok(got.length, `line ${d.range.start.line}: a quick fix`);
    assert.deepEqual(got, await fixes(w.client, wu, d), `line ${d.range.start.line}`);
  }
  // Hovers in ten parts spread over the file, twice (the second time those parts have been let go again).
  const picks = Array.from({ length: 10 }, (_, k) => removed[Math.floor((k * (removed.length - 1)) / 9)]);
  for (const round of [1, 2]) {
    for (const d of picks) {
      const at = { position: { line: d.range.start.line, character: 15 } };
      const h = await client.request('textDocument/hover', { textDocument: { uri: u }, ...at });
      assert.ok(h, `round ${round}, line ${d.range.start.line}: a hover`);
      assert.deepEqual(h, await w.client.request('textDocument/hover', { textDocument: { uri: wu }, ...at }), `round ${round}, line ${d.range.start.line}`);
    }
  }
});

test('#18.5 part by part, each finding\'s data (its steps of the window) is the whole file\'s', async (t) => {
  const withData = (ds) => ds.map((d) => `${brief([d])[0]} ${JSON.stringify(d.data)}`);
  const want = withData(await wholeFile(t, BUNDLE));
  assert.ok(want.every((d) => d.includes('"steps":[')), 'every finding of the whole file says its steps');
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: BUNDLE } });
  assert.deepEqual(withData((await complete(client, u, 1)).diagnostics), want);
});

test('#18.5 forgetParsed drops the parsed documents of a text from the parse cache, but those of the texts kept', async () => {
  const { createRequire } = await import('node:module');
  const e = createRequire(import.meta.url)('../dist/engine.js');
  const a = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n', b = '---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n';
  const c = '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: c\r\n';
  const part = a + b + c;
  // A cached document gives the same value object again; a forgotten one is parsed again.
  const values = (text) => e.parseYaml(text).docs.map((d) => d.value);
  const [va, vb, vc] = values(part);
  assert.deepEqual(values(part), [va, vb, vc]);
  e.forgetParsed(part, [b + '---\nkind: Other\n']);
  const [wa, wb, wc] = values(part);
  assert.notEqual(wa, va, 'the first document was forgotten');
  assert.equal(wb, vb, 'a document of a kept text stays');
  assert.notEqual(wc, vc, 'the last document (CRLF) was forgotten');
  assert.deepEqual([wa, wb, wc], [va, vb, vc], 'parsed again to the same values');
  // Given the text's parse (as the editor's background pass does), the same documents go, found by their cache keys.
  const parsed = e.parseYaml(part);
  const [xa, xb, xc] = parsed.docs.map((d) => d.value);
  e.forgetParsed(part, [b + '---\nkind: Other\n'], parsed);
  const [ya, yb, yc] = values(part);
  assert.notEqual(ya, xa, 'the first document was forgotten (by its parse)');
  assert.equal(yb, xb, 'a document of a kept text stays (by its parse)');
  assert.notEqual(yc, xc, 'the last document (CRLF) was forgotten (by its parse)');
});

// Issue 29: a big bundle whose CRD stops serving a version that custom resources far below it in the same file use: the
// CRD-side finding (k8s/crd-version-in-use) needs those of every part, so such a file is not checked part by part.
test('#29 a big bundle with a CRD and, parts away, custom resources at a version it does not serve: the editor\'s findings are the whole file\'s', async (t) => {
  const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n'
    + '  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: false\n    storage: false\n'
    + '  - name: v1\n    served: true\n    storage: true\n';
  const text = `${crd}---\n${BUNDLE}---\napiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: nightly\n`;
  const want = brief(await wholeFile(t, text));
  assert.ok(want.some((d) => d.includes('k8s/crd-version-in-use')), 'the whole file has the CRD-side finding');
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text } });
  assert.deepEqual(brief((await complete(client, u, 1)).diagnostics), want);
});

test('#29 a big bundle that pins one operator at two versions, parts apart: the editor\'s findings are the whole file\'s (k8s/operator-pins-disagree at both pins)', async (t) => {
  const deploy = (name, tag) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: cert-manager\nspec:\n  selector:\n    matchLabels: {app: ${name}}\n`
    + `  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n      containers:\n      - name: c\n        image: quay.io/jetstack/cert-manager-controller:${tag}\n`;
  const text = `${deploy('cm-a', 'v1.13.1')}---\n${BUNDLE}---\n${deploy('cm-b', 'v1.14.2')}`;
  const want = brief(await wholeFile(t, text));
  assert.equal(want.filter((d) => d.includes('k8s/operator-pins-disagree')).length, 2, 'the whole file reports the disagreement at both pins');
  const { client, uri } = await start(t, {}, { initializationOptions: { allDiagnostics: true } });
  const u = uri('bundle.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text } });
  assert.deepEqual(brief((await complete(client, u, 1)).diagnostics), want);
});
