// LSP protocol tests: start the built server (`node dist/server.js --stdio`) in a temporary workspace
// and speak LSP to it, as an editor does. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, applyTextEdits, repoRoot, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const releases = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/starlingx/releases.json'), 'utf8'));
const keys = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/starlingx/keys.json'), 'utf8'));
const rel6 = releases.releases.find((r) => r.release === '6.0');
const shipped6 = rel6.kubernetes.map((k) => k.version);
const rel11 = releases.releases.find((r) => r.release === '11.0');

const STX6 = { '.skewguard.yaml': 'starlingx: { release: "6.0" }\n' };
const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const range = (l1, c1, l2, c2) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const codes = (p) => p.diagnostics.map((d) => d.code);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(cond, what, ms = 5000) {
  for (const end = Date.now() + ms; !cond(); await sleep(20)) if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
}

/** Starts an initialized server in a new workspace holding `files`; cleaned up after the test. */
async function start(t, files = STX6, opts = {}) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, opts);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  const init = await client.initialize();
  return { root, client, init, uri: (rel) => uriOf(path.join(root, rel)) };
}

// system_mode is fine, kubernetes_version has a "v", dns_server is a misspelling of dns_servers.
const BAD = 'system_mode: simplex\nkubernetes_version: v1.21.3\ndns_server:\n  - 8.8.8.8\n';

test('initialize advertises incremental sync, hover, completion and code actions incl. source.fixAll.skewguard', async (t) => {
  const { init } = await start(t);
  const caps = init.capabilities;
  assert.equal(caps.textDocumentSync.change, 2, 'TextDocumentSyncKind.Incremental');
  assert.equal(caps.textDocumentSync.openClose, true);
  assert.equal(caps.hoverProvider, true);
  assert.ok(caps.completionProvider, 'completionProvider');
  assert.ok(caps.completionProvider.triggerCharacters.includes(' '), 'completion triggers after "key: "');
  assert.ok(caps.codeActionProvider.codeActionKinds.includes('quickfix'));
  assert.ok(caps.codeActionProvider.codeActionKinds.includes('source.fixAll.skewguard'));
  assert.equal(init.serverInfo.name, 'skewguard-language-server');
});

test('didOpen publishes exact diagnostics: v-prefix at the value, unknown key at the key with "did you mean"', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  const p = await client.open(u, BAD);
  assert.equal(p.version, 1);
  assert.deepEqual(codes(p), ['starlingx/kubernetes-version-v-prefix', 'starlingx/unknown-key']);
  const [v, k] = p.diagnostics;
  assert.deepEqual(v.range, range(1, 20, 1, 27), 'the value v1.21.3');
  assert.equal(v.severity, 1, 'error');
  assert.equal(v.source, 'skewguard');
  assert.match(v.message, /"v1\.21\.3" has a "v" prefix/);
  assert.match(v.message, /Write 1\.21\.3\./);
  assert.ok(v.codeDescription.href.endsWith('/starlingx/kubernetes-version-v-prefix.md'), v.codeDescription.href);
  assert.deepEqual(k.range, range(2, 0, 2, 10), 'the key dns_server');
  assert.equal(k.severity, 2, 'warning');
  assert.match(k.message, /unknown key "dns_server".*did you mean "dns_servers"\?/);
});

test('incremental didChange (range edits) re-validates: the fixed problem is gone, the message has the new version', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  await client.open(u, BAD);
  // Two range edits in one notification, applied in order: dns_server -> dns_servers, v1.21.3 -> v1.20.9.
  const p2 = await client.change(u, 2, [
    { range: range(2, 10, 2, 10), text: 's' },
    { range: range(1, 23, 1, 27), text: '20.9' },
  ]);
  assert.equal(p2.version, 2);
  assert.ok(!codes(p2).includes('starlingx/unknown-key'), `unknown-key should be gone: ${JSON.stringify(codes(p2))}`);
  const v = p2.diagnostics.find((d) => d.code === 'starlingx/kubernetes-version-v-prefix');
  assert.ok(v, 'the v-prefix problem remains');
  assert.match(v.message, /"v1\.20\.9"/);
  assert.match(v.message, /Write 1\.20\.9\./);
  assert.deepEqual(v.range, range(1, 20, 1, 27));
  // 1.20.9 is shipped by 6.0 but older than its default: the below-default warning names the path.
  const below = p2.diagnostics.find((d) => d.code === 'starlingx/kubernetes-version-below-default');
  assert.ok(below, JSON.stringify(codes(p2)));
  assert.match(below.message, /1\.20\.9 → 1\.21\.3/);

  // Delete the "v" with a one-character range edit: only the below-default warning is left.
  const p3 = await client.change(u, 3, [{ range: range(1, 20, 1, 21), text: '' }]);
  assert.deepEqual(codes(p3), ['starlingx/kubernetes-version-below-default']);
  assert.deepEqual(p3.diagnostics[0].range, range(1, 20, 1, 26), 'range of 1.20.9 after the edit');
});

test('hover on kubernetes_version lists the 6.0 versions with their states and the upgrade path', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  await client.open(u, 'system_mode: simplex\nkubernetes_version: 1.18.1\n');
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 1, character: 5 } });
  assert.equal(h.contents.kind, 'markdown');
  const md = h.contents.value;
  assert.deepEqual(h.range, range(1, 0, 1, 18), 'the key kubernetes_version');
  const states = Object.fromEntries([...md.matchAll(/^\| (\d+\.\d+\.\d+) \| (\w+) \|/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(states), shipped6);
  assert.deepEqual(states, { '1.18.1': 'active', '1.19.13': 'available', '1.20.9': 'unavailable', '1.21.3': 'unavailable' });
  assert.ok(md.includes('1.18.1 → 1.19.13 → 1.20.9 → 1.21.3'), md);
  assert.match(md, /StarlingX 6\.0 \(config: /, 'names the release and where it came from');

  // The same hover on the value, after installing the default: only 1.21.3 is active, no path.
  await client.change(u, 2, [{ range: range(1, 20, 1, 26), text: '1.21.3' }]);
  const h2 = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 1, character: 22 } });
  const states2 = Object.fromEntries([...h2.contents.value.matchAll(/^\| (\d+\.\d+\.\d+) \| (\w+) \|/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual(states2, { '1.18.1': 'unavailable', '1.19.13': 'unavailable', '1.20.9': 'unavailable', '1.21.3': 'active' });
  assert.ok(!h2.contents.value.includes('→'), 'no upgrade path from the newest version');
});

test('hover on system_mode shows its description, default and allowed values; nothing on a blank line', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  await client.open(u, 'system_mode: duplex\n\nkubernetes_version: 1.21.3\n');
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: 3 } });
  const md = h.contents.value;
  const row = keys.keys.find((k) => k.key === 'system_mode');
  assert.ok(row.description.length > 10);
  assert.ok(md.startsWith('**system_mode**'), md);
  assert.ok(md.includes(row.description), md);
  assert.match(md, /Read by StarlingX 6\.0; default: `"simplex"`/);
  assert.match(md, /Allowed: `simplex`, `duplex`, `duplex-direct`/);
  assert.deepEqual(h.range, range(0, 0, 0, 11));
  const none = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 1, character: 0 } });
  assert.equal(none, null);
});

test('quickfix for the v-prefix replaces the value with 1.21.3; applying it clears the diagnostic', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  const p = await client.open(u, BAD);
  const diag = p.diagnostics.find((d) => d.code === 'starlingx/kubernetes-version-v-prefix');
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: diag.range, context: { diagnostics: [diag] } });
  const fix = actions.find((a) => a.kind === 'quickfix' && a.diagnostics?.[0]?.code === diag.code);
  assert.ok(fix, JSON.stringify(actions));
  assert.equal(fix.isPreferred, true);
  const edits = fix.edit.changes[u];
  assert.deepEqual(edits, [{ range: range(1, 20, 1, 27), newText: '1.21.3' }]);
  const fixed = applyTextEdits(BAD, edits);
  assert.equal(fixed, BAD.replace('v1.21.3', '1.21.3'));
  // Send the edit the way an editor does: as a range change.
  const p2 = await client.change(u, 2, edits.map((e) => ({ range: e.range, text: e.newText })));
  assert.deepEqual(codes(p2), ['starlingx/unknown-key']);

  // The unknown-key quickfix renames the key to the suggestion (a suggestion, not preferred).
  const k = p2.diagnostics[0];
  const actions2 = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: k.range, context: { diagnostics: [k] } });
  const rename = actions2.find((a) => a.kind === 'quickfix');
  assert.deepEqual(rename.edit.changes[u], [{ range: range(2, 0, 2, 10), newText: 'dns_servers' }]);
  assert.equal(rename.isPreferred, false);
});

test("only: ['source.fixAll.skewguard'] returns one fix-all action and no quickfixes", async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  await client.open(u, BAD);
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: ZERO, context: { diagnostics: [], only: ['source.fixAll.skewguard'] } });
  assert.equal(actions.length, 1, JSON.stringify(actions));
  assert.equal(actions[0].kind, 'source.fixAll.skewguard');
  // Only preferred, complete fixes: the v-prefix, not the dns_server rename.
  assert.deepEqual(actions[0].edit.changes[u], [{ range: range(1, 20, 1, 27), newText: '1.21.3' }]);
  const quick = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: ZERO, context: { diagnostics: [], only: ['quickfix'] } });
  assert.ok(quick.every((a) => a.kind === 'quickfix'), JSON.stringify(quick));
});

test('fix-all returns nothing for a file with a YAML syntax error (even where a fix exists)', async (t) => {
  const { client, uri } = await start(t);
  const good = 'kubernetes_version: v1.21.3\n';
  const broken = 'kubernetes_version: v1.21.3\n---\nfoo: [\n';
  const fixAll = (u) => client.request('textDocument/codeAction', { textDocument: { uri: u }, range: ZERO, context: { diagnostics: [], only: ['source.fixAll.skewguard'] } });

  const ug = uri('good/localhost.yml');
  await client.open(ug, good);
  assert.equal((await fixAll(ug)).length, 1, 'control: the same v-prefix is fixable without the syntax error');

  const ub = uri('bad/localhost.yml');
  const p = await client.open(ub, broken);
  assert.ok(codes(p).includes('syntax/parse-error'), JSON.stringify(codes(p)));
  assert.ok(codes(p).includes('starlingx/kubernetes-version-v-prefix'), 'the first document is still checked');
  assert.deepEqual(await fixAll(ub), []);
  // A file that does not parse at all.
  const uc = uri('worse/localhost.yml');
  const pc = await client.open(uc, 'docker_registries:\n  docker.elastic.co\n    url: x\n');
  assert.deepEqual(codes(pc), ['syntax/parse-error']);
  assert.deepEqual(await fixAll(uc), []);
});

test('completion after "kubernetes_version: " offers the 6.0 versions with the default 1.21.3 preselected', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('localhost.yml');
  await client.open(u, 'system_mode: simplex\nkubernetes_version: \n');
  const items = await client.request('textDocument/completion', { textDocument: { uri: u }, position: { line: 1, character: 20 } });
  const list = Array.isArray(items) ? items : items.items;
  assert.deepEqual(list.map((i) => i.label).sort(), [...shipped6].sort());
  const pre = list.filter((i) => i.preselect);
  assert.deepEqual(pre.map((i) => i.label), [rel6.default]);
  assert.equal(rel6.default, '1.21.3');
  // The default sorts first.
  assert.equal([...list].sort((a, b) => a.sortText.localeCompare(b.sortText))[0].label, '1.21.3');
  for (const i of list) {
    assert.equal(i.kind, 12, 'CompletionItemKind.Value');
    assert.deepEqual(i.textEdit.range, range(1, 20, 1, 20));
    assert.equal(i.textEdit.newText, i.label);
  }
});

test('a settings change (workspace/didChangeConfiguration) re-validates with the new release', async (t) => {
  // No .skewguard.yaml here: it would win over the editor settings.
  const settings = { skewguard: { starlingx: { release: '6.0' } } };
  const { client, uri } = await start(t, {}, { settings });
  const u = uri('localhost.yml');
  await client.open(u, 'system_mode: simplex\nkubernetes_version: 1.21.3\n');
  // 1.21.3 is the 6.0 default: no problems once the settings apply.
  await client.waitFor(u, (p) => p.diagnostics.length === 0);
  assert.ok(client.configurationRequests >= 1, 'the server pulled workspace/configuration');
  await until(() => client.registrations.some((r) => r.method === 'workspace/didChangeConfiguration'), 'registered for configuration changes');

  client.settings = { skewguard: { starlingx: { release: '11.0' } } };
  const pulls = client.configurationRequests;
  const since = client.count(u);
  await client.notify('workspace/didChangeConfiguration', { settings: null });
  const p = await client.waitFor(u, (x) => x.diagnostics.length > 0, { since });
  assert.ok(client.configurationRequests > pulls, 'settings pulled again');
  assert.deepEqual(codes(p), ['starlingx/unshipped-kubernetes-version']);
  assert.match(p.diagnostics[0].message, /StarlingX 11\.0 does not ship Kubernetes 1\.21\.3/);
  assert.deepEqual(p.diagnostics[0].data.shipped, rel11.kubernetes.map((k) => k.version));

  const rc = await client.request('skewguard/resolvedConfig', { uri: u });
  assert.deepEqual(rc.resolved.starlingx, { release: '11.0', source: { kind: 'settings', detail: 'editor settings' } });
});

test('a document opened right after initialized is re-checked once the pulled settings arrive', async (t) => {
  const settings = { skewguard: { starlingx: { release: '6.0' } } };
  const { client, uri } = await start(t, {}, { settings });
  const u = uri('localhost.yml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: 'kubernetes_version: 1.21.3\n' } });
  await client.waitFor(u, (p) => p.diagnostics.length === 0);
  await sleep(300);
  const last = client.published.get(u).at(-1);
  assert.deepEqual(last.diagnostics, [], 'the last diagnostics are those for 6.0 (1.21.3 is its default)');
});

test('.skewguard.yaml wins over the editor settings', async (t) => {
  const { client, uri } = await start(t, STX6, { settings: { skewguard: { starlingx: { release: '11.0' } } } });
  const u = uri('localhost.yml');
  await client.open(u, 'kubernetes_version: 1.21.3\n');
  await sleep(200);
  assert.deepEqual(client.published.get(u).at(-1).diagnostics, []);
  const rc = await client.request('skewguard/resolvedConfig', { uri: u });
  assert.equal(rc.resolved.starlingx.release, '6.0');
  assert.equal(rc.resolved.starlingx.source.kind, 'config');
});

test('an invalid .skewguard.yaml gets config/invalid diagnostics on its own uri, kept while it is edited', async (t) => {
  const cfg = 'kubernetes:\n  windw: "1.18..1.21"\n';
  const { client, uri } = await start(t, { '.skewguard.yaml': cfg });
  const cu = uri('.skewguard.yaml');
  const p = await client.waitFor(cu, (x) => x.diagnostics.length > 0);
  assert.equal(p.diagnostics.length, 1);
  const d = p.diagnostics[0];
  assert.equal(d.code, 'config/invalid');
  assert.equal(d.severity, 1);
  assert.deepEqual(d.range, range(1, 2, 1, 7), 'the key windw');
  assert.match(d.message, /unknown setting "kubernetes\.windw"; did you mean "window"\?/);

  // Open it in the editor and fix it: the problem goes away.
  await client.notify('textDocument/didOpen', { textDocument: { uri: cu, languageId: 'yaml', version: 1, text: cfg } });
  await sleep(300);
  assert.deepEqual(codes(client.published.get(cu).at(-1)), ['config/invalid'], 'opening it keeps the problem');
  let since = client.count(cu);
  await client.notify('textDocument/didChange', { textDocument: { uri: cu, version: 2 }, contentChanges: [{ range: range(1, 2, 1, 7), text: 'window' }] });
  await client.waitFor(cu, (x) => x.diagnostics.length === 0, { since });
  await sleep(400); // longer than the 150 ms debounce
  assert.deepEqual(client.published.get(cu).at(-1).diagnostics, []);
  // Break it again while typing: the problem must still be there after the debounced re-check.
  since = client.count(cu);
  await client.notify('textDocument/didChange', { textDocument: { uri: cu, version: 3 }, contentChanges: [{ range: range(1, 2, 1, 8), text: 'widow' }] });
  await client.waitFor(cu, (x) => x.diagnostics.length > 0, { since });
  await sleep(400);
  const last = client.published.get(cu).at(-1);
  assert.deepEqual(codes(last), ['config/invalid']);
  assert.match(last.diagnostics[0].message, /"kubernetes\.widow"; did you mean "window"\?/);
});

test('skewguard/resolvedConfig returns the windows and where each came from', async (t) => {
  const { client, uri, root } = await start(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\nkubernetes: { window: "1.18..1.21" }\n' });
  const u = uri('localhost.yml');
  await client.open(u, 'kubernetes_version: 1.18.1\n');
  const rc = await client.request('skewguard/resolvedConfig', { uri: u });
  const cfgPath = path.join(root, '.skewguard.yaml');
  assert.deepEqual(rc.resolved.starlingx, { release: '6.0', source: { kind: 'config', detail: cfgPath } });
  assert.equal(rc.resolved.kubernetes.window, '1.18..1.21');
  assert.deepEqual(rc.resolved.kubernetes.versions, ['1.18', '1.19', '1.20', '1.21']);
  assert.deepEqual(rc.resolved.kubernetes.source, { kind: 'config', detail: cfgPath });
  assert.equal(rc.resolved.config, cfgPath);
  assert.equal(rc.family, 'starlingx');
  assert.deepEqual(rc.configProblems, []);
  assert.equal(rc.summary, 'StarlingX 6.0 · Kubernetes 1.18..1.21');

  // Without a window in the config, the window is the 6.0 upgrade path from the workspace localhost.yml.
  const { client: c2, uri: uri2 } = await start(t);
  const u2 = uri2('localhost.yml');
  await c2.open(u2, 'kubernetes_version: 1.19.13\n');
  const rc2 = await c2.request('skewguard/resolvedConfig', { uri: u2 });
  assert.equal(rc2.resolved.kubernetes.window, '1.19..1.21');
  assert.deepEqual(rc2.resolved.kubernetes.versions, ['1.19.13', '1.20.9', '1.21.3']);
  assert.equal(rc2.resolved.kubernetes.source.kind, 'workspace');
  assert.match(rc2.resolved.kubernetes.source.detail, /^localhost\.yml: StarlingX 6\.0 upgrade path from 1\.19\.13$/);
});

test('initializationOptions.resolvedConfig: lsp-lint gets skewguard/resolvedConfig\'s answer with the initialize result', async (t) => {
  const files = { '.skewguard.yaml': 'starlingx: { release: "6.0" }\nkubernetes: { window: "1.18..1.21" }\n', 'bad.skewguard.yaml': 'kubernetes: { window: 7 }\n' };
  // The workspace's configuration (no uri), as the request answers it.
  const { client, init } = await start(t, files, { initializationOptions: { cli: {}, resolvedConfig: {} } });
  assert.deepEqual(init.cliProblems, []);
  assert.ok(init.resolvedConfig, 'answered with the initialize result');
  assert.deepEqual(init.resolvedConfig, await client.request('skewguard/resolvedConfig', {}));
  assert.equal(init.resolvedConfig.resolved.kubernetes.window, '1.18..1.21');
  // A --config file with problems: they come with it, as the request gives them.
  const root = makeWorkspace(files);
  const bad = path.join(root, 'bad.skewguard.yaml');
  const c2 = new LspClient(root, { initializationOptions: { cli: { configPath: bad }, resolvedConfig: { uri: uriOf(bad) } } });
  t.after(() => { c2.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  const i2 = await c2.initialize();
  assert.ok(i2.resolvedConfig.configProblems.length > 0, 'the config file\'s problems');
  assert.deepEqual(i2.resolvedConfig, await c2.request('skewguard/resolvedConfig', { uri: uriOf(bad) }));
  // Flags with problems: only the problems, no configuration (lsp-lint stops at them).
  const { init: i3 } = await start(t, files, { initializationOptions: { cli: { kubernetesWindow: 'nonsense' }, resolvedConfig: {} } });
  assert.ok(i3.cliProblems.length > 0);
  assert.equal(i3.resolvedConfig, undefined);
  // Not asked (the editor, lsp-lint's other servers): not computed.
  const { init: i4 } = await start(t, files, { initializationOptions: { cli: {} } });
  assert.equal(i4.resolvedConfig, undefined);
});

test('shutdown + exit ends the server with exit code 0', async (t) => {
  const { client, uri } = await start(t);
  await client.open(uri('localhost.yml'), BAD);
  const r = await client.shutdown();
  assert.deepEqual(r, { code: 0, signal: null });
  assert.equal(client.stderr, '', 'nothing on stderr');
});
