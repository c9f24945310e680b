// Issue #18 problem 7: the window one click away. The status item's text is the active file's own window (nothing
// for a file skewguard does not check); "Change window…" writes .skewguard.yaml through the server (created when
// missing, checked by the validator first); .skewguard.yaml has a JSON Schema generated from its validator's schema,
// completion and hover from the server, and "did you mean" problems carry their fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { LspClient, makeWorkspace, uriOf, repoRoot, applyTextEdits } from './helpers/lsp-client.mjs';
import { loadSource } from './helpers/source-module.mjs';
import { engine as e } from './helpers/k8s.mjs';

const require = createRequire(import.meta.url);

const KATA = '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\nshared_fs = "virtio-fs"\n';
const INGRESS = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec: {}\n';

async function start(t, files) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, {});
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

test('the status item\'s text is the file\'s own window: Kata for a Kata file, Kubernetes for a manifest, nothing for README.md', async (t) => {
  const { client, uri } = await start(t, { '.skewguard.yaml': 'kata: { window: "3.2..3.32", flavour: go }\nkubernetes: { window: "1.29..1.31" }\nignore: ["old/**"]\n' });
  await client.open(uri('configuration.toml'), KATA, 1, 'toml');
  await client.open(uri('ing.yaml'), INGRESS);
  await client.open(uri('README.md'), '# notes\n', 1, 'markdown');
  await client.open(uri('old/ing.yaml'), INGRESS);
  const status = async (rel) => client.request('skewguard/resolvedConfig', { uri: uri(rel) });
  assert.equal((await status('configuration.toml')).fileWindow, 'Kata 3.2.0..3.32.0 (go)');
  assert.equal((await status('ing.yaml')).fileWindow, 'Kubernetes 1.29..1.31');
  const readme = await status('README.md');
  assert.equal(readme.fileWindow, undefined, 'no window on a file skewguard does not check');
  const old = await status('old/ing.yaml');
  assert.equal(old.fileWindow, undefined);
  assert.equal(old.ignored, 'ignored by the ignore: list of .skewguard.yaml');
});

test('"Change window…": the server writes the part into the nearest .skewguard.yaml (or a new one), keeping its comments, and refuses what the validator rejects', async (t) => {
  const { client, uri, root } = await start(t, { 'a/.skewguard.yaml': '# lab A\nstarlingx:\n  release: "6.0"   # the lab\n' });
  await client.open(uri('a/localhost.yml'), 'system_mode: simplex\n');
  const set = (rel, part, value) => client.request('skewguard/windowEdit', { uri: uri(rel), part, value });
  const r1 = await set('a/localhost.yml', 'starlingx.release', '8.0');
  assert.deepEqual(r1, { path: path.join(root, 'a/.skewguard.yaml'), exists: true, text: '# lab A\nstarlingx:\n  release: "8.0"   # the lab\n' });
  const r2 = await set('a/localhost.yml', 'kubernetes.window', '1.24..1.26');
  assert.equal(r2.text, '# lab A\nstarlingx:\n  release: "6.0"   # the lab\nkubernetes:\n  window: 1.24..1.26\n');
  // The text parses back to the value (the validator reads it as the window 1.24..1.26).
  assert.deepEqual(e.parseConfig('x', r2.text, new Set()).problems, []);
  const r3 = await set('b/ing.yaml', 'kata.window', '3.2..3.32');
  assert.deepEqual(r3, { path: path.join(root, '.skewguard.yaml'), exists: false, text: 'kata:\n  window: "3.2..3.32"\n' });
  const bad = await set('a/localhost.yml', 'starlingx.release', '6.5');
  assert.match(bad.problem, /6\.5/);
  assert.equal(bad.text, undefined, 'nothing to write');
  const choices = await client.request('skewguard/windowChoices', {});
  assert.ok(choices.releases.some((x) => x.release === '6.0' && x.kubernetes.includes('1.21.3')));
});

/**
 * The client's pure helpers (client/src/status.ts windowLine, client/src/window.ts choiceItems and typedProblem), bundled
 * with the real sources; `vscode` is an empty stand-in (the helpers do not touch it).
 */
async function clientHelpers() {
  return loadSource(
    { contents: "export { windowLine } from './client/src/status';\nexport { choiceItems, typedProblem } from './client/src/window';\n" },
    { external: ['vscode', 'vscode-languageclient/node'], require: (m) => (m === 'vscode' ? {} : require(m)) },
  );
}

// Issue #30: the status tooltip's window lines come from the config sections (their `tooltip`), in the words and
// order the client wrote out before: StarlingX, Kubernetes (with its versions), then the families' set windows.
test('the status tooltip\'s window lines are the sections\' (StarlingX, Kubernetes, then the families\'), as the client wrote them before', async (t) => {
  const { windowLine } = await clientHelpers();
  const { client, uri, root } = await start(t, {
    'stx/.skewguard.yaml': 'starlingx: { release: "6.0" }\nkata: { window: "3.2..3.32" }\n',
    'k8s/.skewguard.yaml': 'kubernetes: { window: "1.29..1.31" }\ncontainerd: { window: "1.7..2.0" }\n',
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  });
  // The lines as client/src/status.ts wrote them out from the resolved parts (before #30), and as it writes them now.
  const before = (r) => [
    `- StarlingX **${r.resolved.starlingx.release}** — ${r.resolved.starlingx.source.kind}: ${r.resolved.starlingx.source.detail}`,
    `- Kubernetes **${r.resolved.kubernetes.window}** (${r.resolved.kubernetes.versions.join(', ')}) — ${r.resolved.kubernetes.source.kind}: ${r.resolved.kubernetes.source.detail}`,
    ...(r.windows ?? []).map((w) => `- ${w.label} **${w.window}** — ${w.source.kind}: ${w.source.detail}`),
  ];
  const now = (r) => [...r.baseWindows, ...r.windows].map(windowLine);
  await client.open(uri('stx/localhost.yml'), 'system_mode: simplex\n');
  const stx = await client.request('skewguard/resolvedConfig', { uri: uri('stx/localhost.yml') });
  assert.deepEqual(now(stx), before(stx));
  assert.deepEqual(now(stx), [
    `- StarlingX **6.0** — config: ${path.join(root, 'stx/.skewguard.yaml')}`,
    '- Kubernetes **1.21** (1.21.3) — workspace: stx/localhost.yml: StarlingX 6.0 upgrade path from the default 1.21.3',
    `- Kata **3.2..3.32** — config: ${path.join(root, 'stx/.skewguard.yaml')}`,
  ]);
  await client.open(uri('k8s/ing.yaml'), INGRESS);
  const k8s = await client.request('skewguard/resolvedConfig', { uri: uri('k8s/ing.yaml') });
  assert.deepEqual(now(k8s), before(k8s));
  assert.deepEqual(k8s.baseWindows.map((w) => w.label), ['StarlingX', 'Kubernetes']);
  assert.equal(windowLine(k8s.baseWindows[1]), `- Kubernetes **1.29..1.31** (1.29, 1.30, 1.31) — config: ${path.join(root, 'k8s/.skewguard.yaml')}`);
  assert.equal(k8s.baseWindows[0].source.kind, 'default', 'the release nobody chose is said, with its source');
  // The workspace's answer (no file) has them too.
  const ws = await client.request('skewguard/resolvedConfig', {});
  assert.deepEqual(now(ws), before(ws));
  // A Helm chart's template: how it is read, as the client wrote it from resolved.helm.readBy before.
  await client.open(uri('charts/web/templates/cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n');
  const chart = await client.request('skewguard/resolvedConfig', { uri: uri('charts/web/templates/cm.yaml') });
  const h = chart.resolved.helm.readBy;
  assert.ok(h, JSON.stringify(chart.resolved.helm));
  assert.deepEqual(chart.readBy, { label: 'Helm chart read by', by: h.readBy === 'evaluator' ? "skewguard's evaluator" : `helm ${h.helmVersion ?? ''}`, why: h.why });
  assert.equal(k8s.readBy, undefined, 'no Helm line for a manifest outside a chart');
});

// Issue #30: the picker's parts carry their choices (the StarlingX releases, newest first) and the pattern of a typed
// value, from their sections; the client shows any part with choices as a quick pick, marking the current one.
test('"Change window…": each part\'s choices and typed-value pattern come from its section; the StarlingX releases read as before', async (t) => {
  const { choiceItems, typedProblem } = await clientHelpers();
  const { client } = await start(t, {});
  const choices = await client.request('skewguard/windowChoices', {});
  const part = (id) => choices.parts.find((p) => p.part === id);
  // The quick pick client/src/window.ts built from `releases` before #30 for release and upgradeFrom.
  const before = (current) => choices.releases.slice().reverse().map((x) => ({ label: x.release, description: x.release === current ? '(current)' : x.tag, detail: `Kubernetes ${x.kubernetes.join(', ')} — fresh install ${x.default}` }));
  for (const id of ['starlingx.release', 'starlingx.upgradeFrom']) {
    for (const current of ['6.0', e.newestStarlingxRelease().release, 'no platform upgrade']) assert.deepEqual(choiceItems(part(id), current), before(current), `${id} ${current}`);
  }
  assert.equal(choiceItems(part('starlingx.release'), '6.0').filter((x) => x.description === '(current)').length, 1);
  assert.deepEqual(choiceItems(part('kata.flavour'), 'go'), [{ label: 'go', description: '(current)', detail: 'The Go runtime (containerd-shim-kata-v2)' }, { label: 'runtime-rs', description: undefined, detail: 'The Rust runtime' }]);
  // Every part is either picked or typed with a pattern.
  for (const p of choices.parts) assert.ok(p.choices?.length || p.pattern, `${p.part}: choices or a pattern`);
  // The Kubernetes and containerd windows are checked as the input box did (one version-or-range pattern), each with its section's words.
  const OLD = /^v?\d+\.\d+(\.\d+)?(\s*\.\.\s*v?\d+\.\d+(\.\d+)?)?$/;
  for (const id of ['kubernetes.window', 'containerd.window']) {
    for (const v of ['1.29..1.32', ' v1.29.1 .. 1.32 ', '1.29', '1.29-1.32', '', 'latest', '1.29..', '1.2.3.4']) assert.equal(typedProblem(part(id), v) === undefined, OLD.test(v.trim()), `${id} "${v}"`);
  }
  assert.equal(typedProblem(part('kubernetes.window'), '1.29-1.32'), 'A version or a range, e.g. 1.29..1.32');
  assert.equal(typedProblem(part('containerd.window'), '2'), 'A containerd minor or range, e.g. "1.7..2.1".');
  // The Kata window as its setting takes it: each end may carry its flavour (the input box refused that before).
  assert.equal(typedProblem(part('kata.window'), '3.20 (go)..4.1 (runtime-rs)'), undefined);
  assert.equal(typedProblem(part('kata.window'), '3.2..3.32'), undefined);
  assert.match(typedProblem(part('kata.window'), '3.2 (rust)'), /^A Kata Containers release or range/);
  // A part's pattern is its package.json setting's (which also takes empty).
  const { configuration } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).contributes;
  const settings = Object.assign({}, ...[configuration].flat().map((c) => c.properties ?? {}));
  for (const id of ['kubernetes.window', 'containerd.window', 'kata.window']) {
    const s = settings[`skewguard.${id}`];
    assert.equal(s.pattern, `^$|${part(id).pattern}`, id);
  }
  // A part the sections do not have is refused by the server.
  assert.deepEqual(await client.request('skewguard/windowEdit', { part: 'nope.window', value: '1.0' }), { problem: 'no such part of the window' });
});

test('the JSON Schema of .skewguard.yaml is generated from the validator\'s schema: same keys, and it agrees with the validator on unknown keys', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas/config/skewguard.schema.json'), 'utf8'));
  const walk = (s, p = []) => Object.entries(s.properties ?? {}).flatMap(([k, v]) => [[...p, k].join('.'), ...walk(v, [...p, k])]);
  const want = walk(e.configSchema).filter((k) => !k.startsWith('rules.'));
  assert.deepEqual(walk(schema).filter((k) => !k.startsWith('rules.')), want);
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  // (`off` unquoted is YAML 1.1's false, which the validator reads as off; the YAML extension reads YAML 1.2: a string.)
  for (const text of ['starlingx:\n  release: "6.0"\n', 'starlingx:\n  relase: "6.0"\n', 'kata:\n  flavour: rust\n', 'rules:\n  starlingx/kubernetes-version-v-prefix: "off"\n', 'rules:\n  starlingx/kubernetes-version-v-prefix: bogus\n', 'ignore: ["a/**"]\nfilez: {}\n']) {
    const value = e.parseYaml(text).docs[0].value;
    const byValidator = e.parseConfig('x', text, e.ruleIds).problems.length === 0;
    assert.equal(validate(value), byValidator, `${JSON.stringify(text)}: ${JSON.stringify(validate.errors)}`);
  }
  // The suggestions the validator checks in code: every release, every rule id with its title.
  assert.deepEqual(schema.properties.starlingx.properties.release.anyOf[0].enum, e.starlingxReleases().releases.map((r) => r.release));
  assert.ok(schema.properties.rules.properties['starlingx/kubernetes-version-v-prefix'].description.length > 10);
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.contributes.yamlValidation, [{ fileMatch: ['.skewguard.yaml', '.skewguard.yml'], url: './schemas/config/skewguard.schema.json' }]);
});

test('.skewguard.yaml: completion of keys and release values, hover on a key, and the "did you mean" fix', async (t) => {
  const { client, uri } = await start(t, {});
  const u = uri('.skewguard.yaml');
  const text = 'starlingx:\n  relase: "6.0"\n  release: \nrules:\n  starlingx/kubernetes-version-v-prefix: off\n';
  // A .skewguard.yaml's diagnostics are its problems, published without a version.
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text } });
  const complete = (line, character) => client.request('textDocument/completion', { textDocument: { uri: u }, position: { line, character } });
  const keys = (await complete(1, 2)).map((i) => i.label);
  assert.deepEqual(keys, ['release', 'upgradeFrom']);
  const top = (await complete(3, 0)).map((i) => i.label);
  assert.ok(['starlingx', 'kubernetes', 'kata', 'rules', 'ignore', 'files'].every((k) => top.includes(k)), JSON.stringify(top));
  const values = await complete(2, 11);
  assert.ok(values.some((i) => i.label === '6.0' && /Kubernetes .*1\.21\.3/.test(i.detail)), JSON.stringify(values.slice(0, 3)));
  assert.equal(values.find((i) => i.label === '6.0').textEdit.newText, '"6.0"', 'a release is written as a string');
  const hover = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 4, character: 5 } });
  assert.match(hover.contents.value, /^\*\*starlingx\/kubernetes-version-v-prefix\*\*: .*\n\nDefault severity: error\./);
  const h2 = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: 3 } });
  assert.equal(h2, null, 'a section without a description has no hover');
  const h3 = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 2, character: 4 } });
  assert.match(h3.contents.value, /^\*\*starlingx\.release\*\*: StarlingX release/);
  // The problem as published for the file, and its fix.
  const pub = await client.waitFor(u, (p) => p.diagnostics.some((d) => /did you mean "release"/.test(d.message)));
  const d = pub.diagnostics.find((x) => /did you mean "release"/.test(x.message));
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
  const fix = actions.find((a) => a.title === 'Change to release');
  assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
  assert.equal(applyTextEdits(text, fix.edit.changes[u]).split('\n')[1], '  release: "6.0"');
});

// Issue #27 item 1: a file's window is a function of the disk and the configuration, never of editor state. An open,
// unsaved .skewguard.yaml is validated on its own (its problems, hover, completion) but sets no other file's window
// until it is saved; the hover and the status item say so. lsp-lint reads the disk: the findings are the same.
test('#27 item 1: an unsaved .skewguard.yaml sets no other file\'s window (same findings as lsp-lint); its own problems show; saved, it applies', async (t) => {
  const OLD = 'kubernetes:\n  window: "1.18..1.21"\n';
  const NEW = 'kubernetes:\n  window: "1.22..1.24"\n  windw: x\n';
  const ING = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
  const { client, uri, root } = await start(t, { '.skewguard.yaml': OLD, 'apps/ing.yaml': ING });
  const lint = () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '-f', 'json', '--max-warnings', '-1', 'apps/ing.yaml'], { cwd: root, encoding: 'utf8', timeout: 120000 });
    return JSON.parse(r.stdout)[0].messages.map((m) => `${m.ruleId} ${m.line - 1}:${m.column - 1} ${m.message}`).sort();
  };
  const fromLsp = (ds) => ds.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`).sort();
  const cli = lint();
  assert.ok(cli.some((m) => /1\.18\.\.1\.21/.test(m)), JSON.stringify(cli));
  const cfg = uri('.skewguard.yaml'), ing = uri('apps/ing.yaml');
  // Opened first, with unsaved changes (a new window and a typo), then the manifest; then the manifest first and the config edited.
  await client.notify('textDocument/didOpen', { textDocument: { uri: cfg, languageId: 'yaml', version: 1, text: NEW } });
  const first = await client.open(ing, ING);
  assert.deepEqual(fromLsp(first.diagnostics), cli, 'the saved window (1.18..1.21), as lsp-lint reads it');
  // The buffer's own problem is published on it (the saved file has none).
  const own = await client.waitFor(cfg, (p) => p.diagnostics.some((d) => /kubernetes\.windw/.test(d.message)));
  assert.equal(own.diagnostics[0].code, 'config/invalid');
  const rc = await client.request('skewguard/resolvedConfig', { uri: ing });
  assert.equal(rc.resolved.kubernetes.window, '1.18..1.21');
  assert.match(rc.unsavedConfig, /^Unsaved changes to \.skewguard\.yaml are not applied until it is saved/);
  const hover = await client.request('textDocument/hover', { textDocument: { uri: ing }, position: { line: 0, character: 3 } });
  assert.match(hover.contents.value, /Unsaved changes to \.skewguard\.yaml are not applied until it is saved/);
  // Typing on in the config re-checks nothing else: the manifest's list is not published again with another window.
  const since = client.count(ing);
  const edit = (version, text) => client.notify('textDocument/didChange', { textDocument: { uri: cfg, version }, contentChanges: [{ text }] });
  await edit(2, 'kubernetes:\n  window: "1.30"\n');
  await client.waitFor(cfg, (p) => p.diagnostics.length === 0);
  await sleep(400);
  for (const p of client.published.get(ing).slice(since)) assert.deepEqual(fromLsp(p.diagnostics), cli);
  // A buffer equal to the disk is no unsaved change.
  await edit(3, OLD);
  await sleep(200);
  assert.equal((await client.request('skewguard/resolvedConfig', { uri: ing })).unsavedConfig, undefined);
  // Saved (the watcher says so): the new window applies, in the editor as in lsp-lint.
  await edit(4, 'kubernetes:\n  window: "1.22..1.24"\n');
  fs.writeFileSync(path.join(root, '.skewguard.yaml'), 'kubernetes:\n  window: "1.22..1.24"\n');
  const cli2 = lint();
  assert.notDeepEqual(cli2, cli);
  const since2 = client.count(ing);
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: cfg, type: 2 }] });
  const after = await client.waitFor(ing, (p) => JSON.stringify(fromLsp(p.diagnostics)) === JSON.stringify(cli2), { since: since2 });
  assert.ok(after);
  assert.equal((await client.request('skewguard/resolvedConfig', { uri: ing })).unsavedConfig, undefined);
  assert.equal((await client.request('skewguard/resolvedConfig', { uri: ing })).resolved.kubernetes.window, '1.22..1.24');
});

test('#27 item 1: a new .skewguard.yaml that is open but not saved applies to no file; "Change window…" edits its buffer, not the older saved text', async (t) => {
  const { client, uri, root } = await start(t, { 'a/.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.21"\n' });
  const ing = uri('a/b/ing.yaml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: uri('a/b/.skewguard.yaml'), languageId: 'yaml', version: 1, text: 'kubernetes:\n  window: "1.30"\n' } });
  await client.open(ing, INGRESS);
  const rc = await client.request('skewguard/resolvedConfig', { uri: ing });
  assert.equal(rc.resolved.config, path.join(root, 'a/.skewguard.yaml'), 'the saved one');
  assert.match(rc.unsavedConfig, /^Unsaved changes to a\/b\/\.skewguard\.yaml/);
  // An unsaved edit of the configuration that applies: "Change window…" starts from the buffer, so nothing typed is lost.
  await client.notify('textDocument/didOpen', { textDocument: { uri: uri('a/.skewguard.yaml'), languageId: 'yaml', version: 1, text: '# typed\nkubernetes:\n  window: "1.18..1.21"\n' } });
  const r = await client.request('skewguard/windowEdit', { uri: uri('a/c/x.yaml'), part: 'kubernetes.window', value: '1.20..1.22' });
  assert.equal(r.text, '# typed\nkubernetes:\n  window: "1.20..1.22"\n');
});
