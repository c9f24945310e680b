// Issue #18 problem 1: every finding is actionable in the editor — its fixes, "Disable <rule> for this line" / "for
// the entire file" (the existing `#` comment syntax), "Ignore <file> in .skewguard.yaml" for JSON, "Show documentation
// for <rule>", "Fix all skewguard problems in this file" — and the documentation is offline: findings link to the
// packaged page, and the hover on a rule id in a suppression comment shows the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LspClient, makeWorkspace, uriOf, applyTextEdits, repoRoot } from './helpers/lsp-client.mjs';
import { loadSource } from './helpers/source-module.mjs';

const STX6 = { '.skewguard.yaml': 'starlingx: { release: "6.0" }\n' };
const V = 'starlingx/kubernetes-version-v-prefix';
const BAD = 'system_mode: simplex\nkubernetes_version: v1.21.3\ndns_servers:\n  - 8.8.8.8\n';
const VSCODE_INIT = { clientCommands: ['skewguard.showRuleDocumentation'] };
const EDIT_CAPS = { workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } } };
/** server/src/server/code-actions.ts, bundled for its pure helpers. */
let bundled;
async function codeActions() {
  if (!bundled) {
    bundled = await loadSource('server/src/server/code-actions.ts');
  }
  return bundled;
}
const range = (l1, c1, l2, c2) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

async function start(t, files, opts = {}) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, opts);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

const actionsAt = (client, uri, r, diagnostics, only = ['quickfix']) =>
  client.request('textDocument/codeAction', { textDocument: { uri }, range: r, context: { diagnostics, only } });

test('YAML: the menu of a finding has its fix, disable for line/file, its documentation and fix-all, in that order', async (t) => {
  const { client, uri } = await start(t, STX6, { initializationOptions: VSCODE_INIT });
  const u = uri('localhost.yml');
  const p = await client.open(u, BAD);
  const d = p.diagnostics.find((x) => x.code === V);
  assert.ok(d, JSON.stringify(p.diagnostics));
  const titles = (await actionsAt(client, u, d.range, [d])).map((a) => a.title);
  const at = (re) => titles.findIndex((x) => re.test(x));
  for (const re of [/^Remove the "v"/, new RegExp(`^Disable ${V} for this line$`), new RegExp(`^Disable ${V} for the entire file$`), new RegExp(`^Show documentation for ${V}$`), /^Fix all skewguard problems in this file$/]) {
    assert.ok(at(re) >= 0, `${re} in ${JSON.stringify(titles)}`);
  }
  assert.ok(at(/^Remove the "v"/) < at(/for this line/) && at(/for this line/) < at(/entire file/) && at(/entire file/) < at(/^Show documentation/) && at(/^Show documentation/) < at(/^Fix all/), JSON.stringify(titles));
  const docs = (await actionsAt(client, u, d.range, [d])).find((a) => a.title.startsWith('Show documentation'));
  assert.deepEqual(docs.command, { title: docs.title, command: 'skewguard.showRuleDocumentation', arguments: [V] });
});

test('YAML: "Disable for this line" and "for the entire file" leave the file free of that finding and of unused suppressions', async (t) => {
  const { client, uri } = await start(t, STX6, { initializationOptions: VSCODE_INIT });
  for (const [i, which] of [[1, /for this line$/], [2, /for the entire file$/]]) {
    const u = uri(`site${i}/localhost.yml`);
    const text = `system_mode: simplex\r\n  # a comment\r\nkubernetes_version: v1.21.3\r\n`;
    const p = await client.open(u, text);
    const d = p.diagnostics.find((x) => x.code === V);
    const a = (await actionsAt(client, u, d.range, [d])).find((x) => which.test(x.title));
    assert.ok(a, `${which}`);
    const fixed = applyTextEdits(text, a.edit.changes[u]);
    assert.ok(!/\r(?!\n)|[^\r]\n/.test(fixed), `line endings kept (CRLF): ${JSON.stringify(fixed)}`);
    const after = await client.change(u, 2, [{ text: fixed }]);
    assert.deepEqual(after.diagnostics.map((x) => x.code), [], `${which}: ${JSON.stringify(fixed)} -> ${JSON.stringify(after.diagnostics)}`);
  }
});

test('YAML: a second rule is added to the suppression comment already above the line, before its reason', async (t) => {
  const { client, uri } = await start(t, STX6, { initializationOptions: VSCODE_INIT });
  const u = uri('localhost.yml');
  // dns_server (unknown key) and a v-prefixed version on one line is not possible; use a file-level comment instead.
  const text = '# skewguard-disable-file starlingx/kubernetes-version-v-prefix -- lab\nkubernetes_version: v1.21.3\ndns_server:\n  - 8.8.8.8\n';
  const p = await client.open(u, text);
  const d = p.diagnostics.find((x) => x.code === 'starlingx/unknown-key');
  assert.ok(d, JSON.stringify(p.diagnostics));
  const a = (await actionsAt(client, u, d.range, [d])).find((x) => /for the entire file$/.test(x.title));
  const fixed = applyTextEdits(text, a.edit.changes[u]);
  assert.match(fixed.split('\n')[0], /^# skewguard-disable-file starlingx\/kubernetes-version-v-prefix, starlingx\/unknown-key -- lab$/);
  const after = await client.change(u, 2, [{ text: fixed }]);
  assert.deepEqual(after.diagnostics.map((x) => x.code), []);
});

test('TOML (Kata): "Disable for this line" keeps the indentation and silences exactly that finding', async (t) => {
  const kata = '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\n  shared_fs = "none"\n';
  const { client, uri } = await start(t, { '.skewguard.yaml': 'kata: { window: "3.1..3.32", flavour: go }\n' }, { initializationOptions: VSCODE_INIT });
  const u = uri('configuration.toml');
  const p = await client.open(u, kata, 1, 'toml');
  const d = p.diagnostics.find((x) => x.range.start.line === 2);
  assert.ok(d, JSON.stringify(p.diagnostics));
  const a = (await actionsAt(client, u, d.range, [d])).find((x) => /for this line$/.test(x.title));
  const fixed = applyTextEdits(kata, a.edit.changes[u]);
  assert.equal(fixed.split('\n')[2], `  # skewguard-disable-next-line ${d.code}`);
  const after = await client.change(u, 2, [{ text: fixed }]);
  assert.ok(!after.diagnostics.some((x) => x.range.start.line === 3 && x.code === d.code), JSON.stringify(after.diagnostics));
  assert.ok(!after.diagnostics.some((x) => x.code === 'skewguard/unused-suppression'), JSON.stringify(after.diagnostics));
});

test('no "Disable for this line" where a comment line would become text: inside a YAML block scalar or a TOML multi-line string', async () => {
  const { insideText } = await codeActions();
  const yaml = 'data:\n  a: |\n    line one\n    line two\n  b: plain\n'.split('\n');
  assert.equal(insideText(yaml, 3, false), true, 'line two of the literal block');
  assert.equal(insideText(yaml, 4, false), false, 'b: after the block');
  assert.equal(insideText(yaml, 1, false), false, 'the key that opens the block');
  const toml = '[agent.kata]\nkernel_modules = """\nsome\n"""\ndebug = true\n'.split('\n');
  assert.equal(insideText(toml, 2, true), true);
  assert.equal(insideText(toml, 4, true), false);
});

test('ignore: entries are added to the list as it is written (block, flow, missing), never breaking it', async () => {
  const { addIgnoreEntry, exactPattern } = await codeActions();
  const apply = (text, e) => text.slice(0, e.offset) + e.insert + text.slice(e.offset);
  assert.equal(exactPattern('a/b*.json'), '/a/b\\*.json');
  assert.equal(apply('ignore:\n  - "x/**"\nfiles: {}\n', addIgnoreEntry('ignore:\n  - "x/**"\nfiles: {}\n', '/a.json')), 'ignore:\n  - "x/**"\n  - "/a.json"\nfiles: {}\n');
  assert.equal(apply('ignore: []\n', addIgnoreEntry('ignore: []\n', '/a.json')), 'ignore: ["/a.json"]\n');
  assert.equal(apply('ignore: ["x"]\n', addIgnoreEntry('ignore: ["x"]\n', '/a.json')), 'ignore: ["x", "/a.json"]\n');
  assert.equal(apply('kata: {}', addIgnoreEntry('kata: {}', '/a.json')), 'kata: {}\nignore:\n  - "/a.json"\n');
  assert.equal(addIgnoreEntry('ignore: x\n', '/a.json'), undefined, 'not a list: no edit offered');
});

test('JSON: no comment syntax, so the menu offers the file\'s own ignore: entry in .skewguard.yaml (created when missing)', async (t) => {
  const json = JSON.stringify({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'x' }, spec: {} }, null, 2) + '\n';
  const { client, uri, root } = await start(t, { 'site [1]/ing.json': json }, { initializationOptions: VSCODE_INIT, capabilities: EDIT_CAPS, settings: { kubernetes: { window: '1.21..1.23' } } });
  const u = uri('site [1]/ing.json');
  const p = await client.open(u, json, 1, 'json');
  const d = p.diagnostics[0];
  assert.ok(d, 'the JSON manifest has findings');
  const actions = await actionsAt(client, u, d.range, [d]);
  assert.ok(!actions.some((a) => /Disable .* for this line/.test(a.title)), 'no comment in JSON');
  const ig = actions.find((a) => /^Ignore site \[1\]\/ing\.json in \.skewguard\.yaml/.test(a.title));
  assert.ok(ig, JSON.stringify(actions.map((a) => a.title)));
  const [create, edit] = ig.edit.documentChanges;
  assert.equal(create.kind, 'create');
  assert.equal(fileURLToPath(create.uri), path.join(root, '.skewguard.yaml'));
  // The pattern is the file's exact path, its glob characters escaped (a literal `[1]`, not a character class).
  assert.equal(edit.edits[0].newText, 'ignore:\n  - "/site \\\\[1\\\\]/ing.json"\n');
});

test('docs offline: in an editor a finding links to the packaged rule page (a file that exists); lsp-lint keeps the web page', async (t) => {
  const { client, uri } = await start(t, STX6, { initializationOptions: VSCODE_INIT });
  const u = uri('localhost.yml');
  const d = (await client.open(u, BAD)).diagnostics.find((x) => x.code === V);
  const href = d.codeDescription.href;
  assert.match(href, /^file:/, href);
  assert.equal(fileURLToPath(href), path.join(repoRoot, 'docs', 'rules', 'starlingx', 'kubernetes-version-v-prefix.md'));
  assert.ok(fs.existsSync(fileURLToPath(href)));
  const cli = await start(t, STX6, { initializationOptions: { cli: {}, clientCommands: [] } });
  const dc = (await cli.client.open(cli.uri('localhost.yml'), BAD)).diagnostics.find((x) => x.code === V);
  assert.match(dc.codeDescription.href, /^https:\/\/.*\/docs\/rules\/starlingx\/kubernetes-version-v-prefix\.md$/);
});

test('docs offline: the hover on a rule id in a suppression comment is the rule\'s page (Markdown, or plain text for clients without it)', async (t) => {
  const text = `# skewguard-disable-next-line starlingx/unknown-key, ${V} -- lab\nkubernetes_version: v1.21.3\n`;
  const page = fs.readFileSync(path.join(repoRoot, 'docs/rules/starlingx/kubernetes-version-v-prefix.md'), 'utf8');
  const title = /^# (.*)$/m.exec(page)[1];
  const { client, uri } = await start(t, STX6, { initializationOptions: VSCODE_INIT });
  const u = uri('localhost.yml');
  await client.open(u, text);
  const col = text.indexOf(V) + 5;
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: col } });
  assert.equal(h.contents.kind, 'markdown');
  assert.ok(h.contents.value.startsWith(`# ${title}`), h.contents.value.slice(0, 200));
  assert.deepEqual(h.range, range(0, text.indexOf(V), 0, text.indexOf(V) + V.length));
  const other = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: text.indexOf('unknown-key') } });
  assert.match(other.contents.value, /^# starlingx\/unknown-key/);
  const plain = await start(t, STX6, { capabilities: { textDocument: { hover: { contentFormat: ['plaintext'] } } } });
  const up = plain.uri('localhost.yml');
  await plain.client.open(up, text);
  const hp = await plain.client.request('textDocument/hover', { textDocument: { uri: up }, position: { line: 0, character: col } });
  assert.equal(hp.contents.kind, 'plaintext');
  assert.ok(!/\*\*|`|^#/m.test(hp.contents.value), hp.contents.value.slice(0, 300));
  assert.ok(hp.contents.value.startsWith(title.replace(/`/g, '')), hp.contents.value.slice(0, 200));
});
