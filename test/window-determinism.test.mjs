// Issue #27 items 1, 3 and 4: one window whatever is open, nothing stale, defaults visible, no key deleted under a window
// nobody chose. The same workspace goes through the language server (over LSP) with different files open in different
// orders, and through lsp-lint: the findings must be the same. A window change after "Check whole workspace" re-checks
// every published list. Fix-all (lsp-lint --fix, the editor's, the workspace's) leaves a key alone under a default window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';

const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');

// Three bootstrap files in one folder, as a StarlingX site keeps them; manifests elsewhere take their window from it.
const LOCALHOST = (v) => `system_mode: simplex\nkubernetes_version: ${v}\n`;
const DEVICE_CLASS = 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == "gpu.example.com"\n';
const INGRESS = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const SITE = {
  'starlingx/localhost-oidc.yml': LOCALHOST('1.34.1'),
  'starlingx/localhost.yml': LOCALHOST('1.32.2'),
  'starlingx/localhost-sx.yml': LOCALHOST('1.33.0'),
  'apps/deviceclass.yaml': DEVICE_CLASS,
  'apps/ingress.yaml': INGRESS,
};
const MANIFESTS = ['apps/deviceclass.yaml', 'apps/ingress.yaml'];
const NOTE = /3 bootstrap files in starlingx\/: using localhost\.yml; set kubernetes\.window \(or starlingx\.release\) in \.skewguard\.yaml to choose/;

function lintRun(cwd, args) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.error, undefined, String(r.error));
  return r;
}
const rel = (root, f) => path.relative(root, f).split(path.sep).join('/');
const fromCli = (m) => `${m.ruleId} ${m.line - 1}:${m.column - 1}-${m.endLine - 1}:${m.endColumn - 1} ${m.message}`;
const fromLsp = (d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;

async function server(t, root, opts = {}) {
  const client = new LspClient(root, opts);
  t.after(() => client.kill());
  await client.initialize();
  return client;
}

test('#27 item 1: a manifest\'s window is the same whatever bootstrap file is open, in whatever order, after a restart, and in lsp-lint', async (t) => {
  const root = makeWorkspace(SITE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const r = lintRun(root, ['-f', 'json', '--max-warnings', '-1', '.']);
  const cli = Object.fromEntries(JSON.parse(r.stdout).map((x) => [rel(root, x.filePath), x.messages.map(fromCli).sort()]));
  // The window is localhost.yml's (the name StarlingX reads), 1.32..1.34: resource.k8s.io/v1 is not served before 1.34.
  assert.ok(cli['apps/deviceclass.yaml'].some((m) => /1\.32/.test(m)), JSON.stringify(cli['apps/deviceclass.yaml']));

  const orders = [
    ['starlingx/localhost.yml', ...MANIFESTS],
    ['starlingx/localhost-oidc.yml', ...MANIFESTS],
    ['starlingx/localhost-sx.yml', 'starlingx/localhost-oidc.yml', ...MANIFESTS],
    [...MANIFESTS],
    [MANIFESTS[1], 'starlingx/localhost-oidc.yml', MANIFESTS[0], 'starlingx/localhost.yml'],
  ];
  for (const order of orders) {
    const client = await server(t, root);
    for (const f of order) await client.open(uri(f), SITE[f]);
    for (const f of MANIFESTS) {
      const got = client.published.get(uri(f)).at(-1).diagnostics.map(fromLsp).sort();
      assert.deepEqual(got, cli[f], `${f} with ${order.join(', ')} opened`);
    }
    // A bootstrap file is checked against its own kubernetes_version, as lsp-lint checks it.
    for (const f of order.filter((x) => x.startsWith('starlingx/'))) {
      assert.deepEqual(client.published.get(uri(f)).at(-1).diagnostics.map(fromLsp).sort(), cli[f], f);
    }
    // Closing the bootstrap files changes nothing either: the manifests are checked again with the same result.
    for (const f of order.filter((x) => x.startsWith('starlingx/'))) await client.conn.sendNotification('textDocument/didClose', { textDocument: { uri: uri(f) } });
    const since = client.count(uri(MANIFESTS[0]));
    await client.change(uri(MANIFESTS[0]), 2, [{ text: DEVICE_CLASS }]);
    assert.deepEqual(client.published.get(uri(MANIFESTS[0])).slice(since).at(-1).diagnostics.map(fromLsp).sort(), cli[MANIFESTS[0]]);
    client.kill();
  }

  // The choice is said: in the resolved window (the status item's tooltip, Show Resolved Window), in the hover and in --print-config.
  const client = await server(t, root);
  await client.open(uri('starlingx/localhost-oidc.yml'), SITE['starlingx/localhost-oidc.yml']);
  await client.open(uri(MANIFESTS[0]), DEVICE_CLASS);
  const rc = await client.request('skewguard/resolvedConfig', { uri: uri(MANIFESTS[0]) });
  assert.equal(rc.resolved.kubernetes.window, '1.32..1.34');
  assert.match(rc.resolved.kubernetes.source.detail, /^starlingx\/localhost\.yml: StarlingX 12\.0 upgrade path from 1\.32\.2 \(/);
  assert.match(rc.resolved.kubernetes.source.detail, NOTE);
  const hover = await client.request('textDocument/hover', { textDocument: { uri: uri(MANIFESTS[0]) }, position: { line: 1, character: 8 } });
  assert.match(JSON.stringify(hover?.contents ?? null), NOTE);
  // …in the hover's own note on the bootstrap file chosen (the Kubernetes family's server side, hoverNote), not only in
  // the window's source the family's hover text repeats.
  assert.match(JSON.stringify(hover?.contents ?? null), /Kubernetes window from starlingx\/localhost\.yml: /);
  const pc = lintRun(root, ['--print-config', MANIFESTS[0]]);
  assert.equal(pc.status, 0, pc.stderr);
  assert.match(JSON.parse(pc.stdout).kubernetes.source.detail, NOTE);
  // The bootstrap file's own window is its own kubernetes_version (no other file competes for it).
  const own = await client.request('skewguard/resolvedConfig', { uri: uri('starlingx/localhost-oidc.yml') });
  assert.equal(own.resolved.kubernetes.window, '1.34');
  assert.doesNotMatch(own.resolved.kubernetes.source.detail, /bootstrap files/);
});

// Issue #27 item 1 for bootstrap files: an open localhost.yml whose buffer differs from the disk sets no other file's
// window (the editor reads the disk, as lsp-lint does); its own diagnostics and window come from its buffer; the hover
// and the status item of the files it would apply to say so; saved (the watcher's change), it applies.
test('#27 item 1: an unsaved localhost.yml sets no other file\'s window (same findings as lsp-lint on the disk); its own analysis reads the buffer; saved, it applies', async (t) => {
  const root = makeWorkspace(SITE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const lintOf = (dir) => Object.fromEntries(JSON.parse(lintRun(dir, ['-f', 'json', '--max-warnings', '-1', '.']).stdout).map((x) => [rel(dir, x.filePath), x.messages.map(fromCli).sort()]));
  const cli = lintOf(root);
  // What lsp-lint says once the buffer is saved (another workspace holding it), for the bootstrap file's own findings.
  // 1.34.1: the window 1.34 serves the DeviceClass's group (1.32..1.34 does not), and the bootstrap file is not below the default.
  const BUFFER = `${LOCALHOST('1.34.1')}# typed, not saved\n`;
  const savedRoot = makeWorkspace({ ...SITE, 'starlingx/localhost.yml': BUFFER });
  t.after(() => fs.rmSync(savedRoot, { recursive: true, force: true }));
  const cliSaved = lintOf(savedRoot);
  for (const f of MANIFESTS) assert.notDeepEqual(cliSaved[f], cli[f], `${f}: the buffer's window gives other findings`);
  assert.notDeepEqual(cliSaved['starlingx/localhost.yml'], cli['starlingx/localhost.yml'], 'the buffer gives the bootstrap file other findings');

  const lh = uri('starlingx/localhost.yml');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (const first of ['bootstrap', 'manifests']) {
    const client = await server(t, root);
    const openLh = async () => {
      const own = await client.open(lh, BUFFER);
      // Its own diagnostics come from its buffer, as lsp-lint checks the saved text.
      assert.deepEqual(own.diagnostics.map(fromLsp).sort(), cliSaved['starlingx/localhost.yml'], `${first} first: the buffer's own findings`);
    };
    if (first === 'bootstrap') await openLh();
    for (const f of MANIFESTS) await client.open(uri(f), SITE[f]);
    const counts = Object.fromEntries(MANIFESTS.map((f) => [f, client.count(uri(f))]));
    if (first === 'manifests') await openLh();
    await sleep(300);
    for (const f of MANIFESTS) {
      for (const p of client.published.get(uri(f))) assert.deepEqual(p.diagnostics.map(fromLsp).sort(), cli[f], `${f} (${first} first): the disk's window, as lsp-lint`);
    }
    // Its own window is its buffer's; the manifests' is the disk's, and their hover and status item say why.
    const ownRc = await client.request('skewguard/resolvedConfig', { uri: lh });
    assert.equal(ownRc.resolved.kubernetes.window, '1.34');
    assert.match(ownRc.resolved.kubernetes.source.detail, /^starlingx\/localhost\.yml: StarlingX 12\.0 upgrade path from 1\.34\.1/);
    const rc = await client.request('skewguard/resolvedConfig', { uri: uri(MANIFESTS[0]) });
    assert.equal(rc.resolved.kubernetes.window, '1.32..1.34');
    const UNSAVED = /Unsaved changes to starlingx\/localhost\.yml are not applied until it is saved: this file is checked with the saved bootstrap file, as lsp-lint checks it\./;
    assert.match(rc.unsavedConfig, UNSAVED);
    const hover = await client.request('textDocument/hover', { textDocument: { uri: uri(MANIFESTS[0]) }, position: { line: 1, character: 8 } });
    assert.match(JSON.stringify(hover?.contents ?? null), UNSAVED);
    // The bootstrap file's own status item says nothing of the kind (its buffer is what it is checked with).
    assert.equal((await client.request('skewguard/resolvedConfig', { uri: lh })).unsavedConfig, undefined);
    // Typing on re-checks nothing else.
    await client.change(lh, 2, [{ text: `${LOCALHOST('1.30.1')}` }]);
    await sleep(300);
    for (const f of MANIFESTS) assert.equal(client.count(uri(f)), counts[f], `${f} is not checked again for an unsaved edit`);
    // Back to the disk's text: no unsaved change to say.
    await client.change(lh, 3, [{ text: SITE['starlingx/localhost.yml'] }]);
    assert.equal((await client.request('skewguard/resolvedConfig', { uri: uri(MANIFESTS[0]) })).unsavedConfig, undefined);
    client.kill();
  }

  // Saved (the file written, the watcher's change): the buffer's window applies, in the editor as in lsp-lint.
  const client = await server(t, root);
  await client.open(lh, BUFFER);
  for (const f of MANIFESTS) await client.open(uri(f), SITE[f]);
  const counts = Object.fromEntries(MANIFESTS.map((f) => [f, client.count(uri(f))]));
  fs.writeFileSync(path.join(root, 'starlingx/localhost.yml'), BUFFER);
  assert.deepEqual(lintOf(root), cliSaved);
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: lh, type: 2 }] });
  for (const f of MANIFESTS) {
    const p = await client.waitFor(uri(f), (x) => JSON.stringify(x.diagnostics.map(fromLsp).sort()) === JSON.stringify(cliSaved[f]), { since: counts[f] });
    assert.ok(p, f);
  }
  assert.equal((await client.request('skewguard/resolvedConfig', { uri: uri(MANIFESTS[0]) })).unsavedConfig, undefined);
});

// A new bootstrap file, open and never saved, that would be chosen for a folder: no file's window, said in its status.
test('#27 item 1: a new localhost.yml that is open but not saved applies to no file; the files it would apply to say so', async (t) => {
  const root = makeWorkspace(SITE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const client = await server(t, root);
  const fresh = uri('apps/localhost.yml');
  await client.open(fresh, LOCALHOST('1.34.1'));
  const p = await client.open(uri(MANIFESTS[0]), SITE[MANIFESTS[0]]);
  const cli = Object.fromEntries(JSON.parse(lintRun(root, ['-f', 'json', '--max-warnings', '-1', '.']).stdout).map((x) => [rel(root, x.filePath), x.messages.map(fromCli).sort()]));
  assert.deepEqual(p.diagnostics.map(fromLsp).sort(), cli[MANIFESTS[0]]);
  const rc = await client.request('skewguard/resolvedConfig', { uri: uri(MANIFESTS[0]) });
  assert.equal(rc.resolved.kubernetes.window, '1.32..1.34');
  assert.match(rc.unsavedConfig, /^Unsaved changes to apps\/localhost\.yml are not applied until it is saved/);
  // Its own window is its buffer's.
  const own = await client.request('skewguard/resolvedConfig', { uri: fresh });
  assert.equal(own.resolved.kubernetes.window, '1.34');
  assert.match(own.resolved.kubernetes.source.detail, /^apps\/localhost\.yml: StarlingX 12\.0 upgrade path from 1\.34\.1/);
});

// The other facts read for other files are the disk's too: a containerd config's unsaved runtimes define no handler.
test('#27 item 1: an unsaved containerd config defines no RuntimeClass handler for other files (same findings as lsp-lint); saved, it does', async (t) => {
  const CTR = (names) => `version = 2\n${names.map((n) => `[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${n}]\n  runtime_type = "io.containerd.${n}.v2"\n`).join('')}`;
  const RC = 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: fc\nhandler: kata-fc\n';
  const files = { '.skewguard.yaml': 'kubernetes:\n  window: "1.32"\n', 'node/containerd/config.toml': CTR(['kata-qemu']), 'rc.yaml': RC };
  const root = makeWorkspace(files);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const lintRc = () => JSON.parse(lintRun(root, ['-f', 'json', '--max-warnings', '-1', 'rc.yaml']).stdout)[0].messages.map(fromCli).sort();
  const cli = lintRc();
  assert.deepEqual(cli.map((m) => m.split(' ')[0]), ['k8s/runtimeclass-handler']);
  const client = await server(t, root);
  await client.open(uri('node/containerd/config.toml'), CTR(['kata-qemu', 'kata-fc']), 1, 'toml');
  const p = await client.open(uri('rc.yaml'), RC);
  assert.deepEqual(p.diagnostics.map(fromLsp).sort(), cli, 'the saved config, as lsp-lint reads it');
  // Saved: the handler is defined, in the editor as in lsp-lint.
  fs.writeFileSync(path.join(root, 'node/containerd/config.toml'), CTR(['kata-qemu', 'kata-fc']));
  assert.deepEqual(lintRc(), []);
  const since = client.count(uri('rc.yaml'));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('node/containerd/config.toml'), type: 2 }] });
  await client.waitFor(uri('rc.yaml'), (x) => x.diagnostics.length === 0, { since });
});

test('#27 item 3: after "Check whole workspace", a change of the configuration, then of the settings, re-checks every published list, open or not', async (t) => {
  const files = {
    '.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.21"\n',
    'a/ingress.yaml': INGRESS,
    'b/ingress.yaml': INGRESS,
    'c/ingress.yaml': INGRESS,
    'd/deviceclass.yaml': DEVICE_CLASS,
  };
  const root = makeWorkspace(files);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const client = await server(t, root, { settings: { skewguard: {} } });
  await client.open(uri('a/ingress.yaml'), INGRESS);
  const r = await client.request('skewguard/checkWorkspace', {});
  assert.equal(r.files, 4);
  const closed = ['b/ingress.yaml', 'c/ingress.yaml', 'd/deviceclass.yaml'];
  const latest = (f) => client.published.get(uri(f)).at(-1).diagnostics;
  // 1.18..1.21: the old Ingress is served at first; the DeviceClass's group is not served at all.
  for (const f of closed) assert.ok(latest(f).length > 0, f);
  const before = Object.fromEntries(Object.keys(files).filter((f) => f !== '.skewguard.yaml').map((f) => [f, latest(f).map(fromLsp)]));
  assert.ok(before['b/ingress.yaml'].some((m) => /1\.18\.\.1\.21|1\.22/.test(m)), JSON.stringify(before['b/ingress.yaml']));

  // The window changes on disk (as "Change window…" or a save does): every list, open or not, is checked again.
  const lintOf = () => Object.fromEntries(JSON.parse(lintRun(root, ['-f', 'json', '--max-warnings', '-1', '.']).stdout).map((x) => [rel(root, x.filePath), x.messages.map(fromCli).sort()]));
  fs.writeFileSync(path.join(root, '.skewguard.yaml'), 'kubernetes:\n  window: "1.34"\n');
  const want = lintOf();
  const counts = Object.fromEntries(Object.keys(before).map((f) => [f, client.count(uri(f))]));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('.skewguard.yaml'), type: 2 }] });
  for (const f of Object.keys(before)) {
    const p = await client.waitFor(uri(f), (x) => JSON.stringify(x.diagnostics.map(fromLsp).sort()) === JSON.stringify(want[f]), { since: counts[f] });
    assert.notDeepEqual(p.diagnostics.map(fromLsp), before[f], `${f} changed with the window`);
  }
  // The DeviceClass is clean at 1.34 and its list is empty now, not the 1.18..1.21 one.
  assert.deepEqual(latest('d/deviceclass.yaml').map(fromLsp), want['d/deviceclass.yaml']);

  // A settings change re-checks them too (here: the rule that found the Ingress is turned off).
  const ruleId = latest('b/ingress.yaml')[0]?.code ?? client.published.get(uri('b/ingress.yaml')).find((x) => x.diagnostics.length).diagnostics[0].code;
  client.settings = { skewguard: { rules: { [ruleId]: 'off' } } };
  const counts2 = Object.fromEntries(closed.map((f) => [f, client.count(uri(f))]));
  await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  for (const f of closed) {
    const p = await client.waitFor(uri(f), () => true, { since: counts2[f] });
    assert.ok(!p.diagnostics.some((d) => d.code === ruleId), `${f}: ${ruleId} is off`);
  }

  // A file that was published while closed and is then deleted is cleared at the next change.
  fs.rmSync(path.join(root, 'c/ingress.yaml'));
  const c3 = client.count(uri('c/ingress.yaml'));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('c/ingress.yaml'), type: 3 }] });
  const cleared = await client.waitFor(uri('c/ingress.yaml'), () => true, { since: c3 });
  assert.deepEqual(cleared.diagnostics, []);
});

test('#27 item 3: a closed file that a workspace check published and that then turns binary or grows past the size limit is said "not checked", as lsp-lint says it (not cleared)', async (t) => {
  const root = makeWorkspace({ '.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.21"\n', 'a/ingress.yaml': INGRESS, 'b/ingress.yaml': INGRESS, 'c/ingress.yaml': INGRESS });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const client = await server(t, root);
  const r = await client.request('skewguard/checkWorkspace', {});
  assert.equal(r.files, 3);
  for (const f of ['a/ingress.yaml', 'b/ingress.yaml']) assert.ok(client.published.get(uri(f)).at(-1).diagnostics.length > 0, f);
  // a/ turns binary, b/ grows past the limit (20 MiB), c/ is deleted; the watcher says so.
  fs.writeFileSync(path.join(root, 'a/ingress.yaml'), Buffer.concat([Buffer.from(INGRESS), Buffer.from([0, 1, 2])]));
  fs.writeFileSync(path.join(root, 'b/ingress.yaml'), `${INGRESS}# ${'x'.repeat(20 * 1024 * 1024)}\n`);
  fs.rmSync(path.join(root, 'c/ingress.yaml'));
  const lint = JSON.parse(lintRun(root, ['-f', 'json', '--max-warnings', '-1', 'a/ingress.yaml', 'b/ingress.yaml']).stdout);
  const want = Object.fromEntries(lint.map((x) => [rel(root, x.filePath), x.messages.map(fromCli).sort()]));
  assert.match(want['a/ingress.yaml'].join('\n'), /^skewguard\/skipped-file 0:0-0:0 not checked: binary data/);
  assert.match(want['b/ingress.yaml'].join('\n'), /^skewguard\/skipped-file 0:0-0:0 not checked: larger than the 20 MB limit/);
  const counts = Object.fromEntries(['a/ingress.yaml', 'b/ingress.yaml', 'c/ingress.yaml'].map((f) => [f, client.count(uri(f))]));
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: ['a/ingress.yaml', 'b/ingress.yaml', 'c/ingress.yaml'].map((f) => ({ uri: uri(f), type: f.startsWith('c') ? 3 : 2 })) });
  for (const f of ['a/ingress.yaml', 'b/ingress.yaml']) {
    const p = await client.waitFor(uri(f), () => true, { since: counts[f] });
    assert.deepEqual(p.diagnostics.map(fromLsp).sort(), want[f], f);
  }
  assert.deepEqual((await client.waitFor(uri('c/ingress.yaml'), () => true, { since: counts['c/ingress.yaml'] })).diagnostics, [], 'a deleted file is cleared');
  // "Check whole workspace" itself publishes the same note for them (and names them in notChecked).
  const counts2 = client.count(uri('a/ingress.yaml'));
  const r2 = await client.request('skewguard/checkWorkspace', {});
  assert.deepEqual(r2.notChecked.sort(), ['a/ingress.yaml: binary', `b/ingress.yaml: over ${20 * 1024 * 1024} bytes`]);
  assert.deepEqual(client.published.get(uri('a/ingress.yaml')).slice(counts2).at(-1).diagnostics.map(fromLsp), want['a/ingress.yaml']);
});

// A Kata configuration a user wrote for the Go runtime: ctlpath and valid_ctlpaths are read by the Go runtime up to 3.9.
const KATA = '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\nctlpath = "/usr/bin/qemu-ctl"\nvalid_ctlpaths = []\n\n[runtime]\nenable_debug = false\n';

test('#27 item 4: lsp-lint --fix deletes no key under the default Kata window, says why at each finding, and does under a chosen one', () => {
  const root = makeWorkspace({ 'node/configuration.toml': KATA });
  try {
    const file = path.join(root, 'node/configuration.toml');
    const r = lintRun(root, ['--fix', '-f', 'json', '.']);
    assert.equal(fs.readFileSync(file, 'utf8'), KATA, 'the file is left as it was');
    const msgs = JSON.parse(r.stdout)[0].messages;
    const held = msgs.filter((m) => m.ruleId === 'kata/option-not-in-window');
    assert.ok(held.length >= 2, JSON.stringify(msgs));
    for (const m of held) assert.match(m.message, /\(not fixed: the Kata window is the default \d+\.\d+\.\d+; set kata\.window\)$/);
    assert.match(r.stderr, /lsp-lint: \d+ findings not fixed: the Kata window is the default \d+\.\d+\.\d+; set kata\.window/);
    // --print-config marks the default: the summary and the source.
    const pc = JSON.parse(lintRun(root, ['--print-config', 'node/configuration.toml']).stdout);
    assert.equal(pc.kata.source.kind, 'default');
    assert.match(pc.summary, /\(default\)/);

    // A window the user chose (here the newest releases, which read neither key): the same fixes are applied.
    fs.writeFileSync(path.join(root, '.skewguard.yaml'), 'kata:\n  window: "3.10..3.32"\n  flavour: go\n');
    const r2 = lintRun(root, ['--fix', '-f', 'json', '.']);
    const after = fs.readFileSync(file, 'utf8');
    assert.doesNotMatch(after, /ctlpath/, after);
    assert.match(after, /^path = /m, 'the other keys stay');
    assert.doesNotMatch(r2.stdout, /not fixed/);
    assert.doesNotMatch(r2.stderr, /not fixed/);
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('#27 item 4: in the editor, Fix all and Fix all in workspace leave the key under the default window and say so; the quick fix is not preferred; status and code lens say "(default)"', async (t) => {
  const root = makeWorkspace({ 'node/configuration.toml': KATA, 'other/configuration.toml': KATA });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const u = uriOf(path.join(root, 'node/configuration.toml'));
  const client = await server(t, root);
  const pub = await client.open(u, KATA, 1, 'toml');
  const d = pub.diagnostics.find((x) => x.code === 'kata/option-not-in-window');
  assert.ok(d, JSON.stringify(pub.diagnostics));
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d] } });
  const quick = actions.find((a) => /^Remove ctlpath/.test(a.title));
  assert.ok(quick, JSON.stringify(actions.map((a) => a.title)));
  assert.equal(!!quick.isPreferred, false);
  assert.match(quick.title, /\(the Kata window is the default \d+\.\d+\.\d+\)$/);
  const fixAll = actions.find((a) => a.kind === 'source.fixAll.skewguard');
  assert.ok(fixAll, 'a fix-all action says why it does nothing');
  assert.equal(fixAll.edit, undefined);
  assert.match(fixAll.disabled.reason, /not fixed: the Kata window is the default \d+\.\d+\.\d+; set kata\.window/);
  const ws = await client.request('skewguard/fixAllWorkspace', {});
  assert.deepEqual(ws.changes, {});
  assert.ok(ws.notFixedCount >= 4, JSON.stringify(ws));
  assert.match(ws.notFixed[0], /configuration\.toml:\d+: kata\/option-not-in-window: not fixed: the Kata window is the default/);
  const rc = await client.request('skewguard/resolvedConfig', { uri: u });
  assert.match(rc.fileWindow, /^Kata \d+\.\d+\.\d+ \(default\)/);
  const lenses = await client.request('textDocument/codeLens', { textDocument: { uri: u } });
  assert.match(lenses[0].command.title, /^Kata Containers \d+\.\d+\.\d+ \(default\):$/);

  // Chosen in the settings: no "(default)", and fix-all removes the keys.
  client.settings = { skewguard: { kata: { window: '3.10..3.32', flavour: 'go' } } };
  const since = client.count(u);
  await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await client.waitFor(u, () => true, { since });
  const rc2 = await client.request('skewguard/resolvedConfig', { uri: u });
  assert.doesNotMatch(rc2.fileWindow, /default/);
  const all = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll.skewguard'] } });
  assert.equal(all.length, 1);
  assert.equal(all[0].disabled, undefined);
  assert.ok(all[0].edit.changes[u].length >= 2);
  const lenses2 = await client.request('textDocument/codeLens', { textDocument: { uri: u } });
  assert.doesNotMatch(lenses2[0].command.title, /default/);
});

test('#27 item 4: under the default Kubernetes window --fix still changes a value and adds keys (apiVersion conversion), but rewrites no key (the Ingress backend)', () => {
  const DEPLOYMENT = 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: a\n        image: nginx\n';
  const root = makeWorkspace({ 'dep.yaml': DEPLOYMENT, 'ing.yaml': INGRESS });
  try {
    const r = lintRun(root, ['--fix', '-f', 'json', '.']);
    const dep = fs.readFileSync(path.join(root, 'dep.yaml'), 'utf8');
    assert.match(dep, /^apiVersion: apps\/v1$/m, dep);
    assert.match(dep, /^  template:\n    metadata:\n      labels: \{app: web\}$/m, 'the existing keys are kept');
    assert.equal(fs.readFileSync(path.join(root, 'ing.yaml'), 'utf8'), INGRESS);
    const ing = JSON.parse(r.stdout).find((x) => x.filePath.endsWith('ing.yaml'));
    assert.match(ing.messages[0].message, /\(not fixed: the Kubernetes window is the default [\d.]+; set kubernetes\.window or starlingx\.release\)$/);
    // Chosen on the command line: the Ingress is converted too.
    lintRun(root, ['--fix', '--kubernetes-window', '1.34', '.']);
    assert.match(fs.readFileSync(path.join(root, 'ing.yaml'), 'utf8'), /^apiVersion: networking\.k8s\.io\/v1$/m);
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('#27 item 4: which fixes remove or rewrite a key is declared by the rule (Fix.destructive), not guessed from the edit text: a key deleted from a one-line JSON object is held under the default window', () => {
  // The conversion deletes spec.templateGeneration (apps/v1 has none). On one line no edit starts a line with a key,
  // so the old guess from the text let --fix delete it under a window nobody chose.
  const DEP = '{"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"templateGeneration": 2, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "a", "image": "nginx"}]}}}}\n';
  const PLAIN = DEP.replace('"templateGeneration": 2, ', '');
  const root = makeWorkspace({ 'dep.json': DEP, 'plain.json': PLAIN });
  try {
    const r = lintRun(root, ['--fix', '-f', 'json', '.']);
    assert.equal(fs.readFileSync(path.join(root, 'dep.json'), 'utf8'), DEP, 'templateGeneration is not deleted under the default window');
    const dep = JSON.parse(r.stdout).find((x) => x.filePath.endsWith('dep.json'));
    assert.match(dep.messages[0].message, /\(not fixed: the Kubernetes window is the default [\d.]+; set kubernetes\.window or starlingx\.release\)$/);
    // The conversion that only changes a value and adds keys still applies.
    assert.match(fs.readFileSync(path.join(root, 'plain.json'), 'utf8'), /^\{"apiVersion": "apps\/v1"/);
    // Chosen: converted, templateGeneration gone.
    lintRun(root, ['--fix', '--kubernetes-window', '1.34', '.']);
    const after = fs.readFileSync(path.join(root, 'dep.json'), 'utf8');
    assert.match(after, /"apiVersion": "apps\/v1"/);
    assert.doesNotMatch(after, /templateGeneration/);
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('#27 item 4: the YAML editor records whether its edits remove or rewrite a key (the fixes built from it declare that)', async () => {
  const { engine: e } = await import('./helpers/k8s.mjs');
  const text = 'a: 1\nb: {c: 2, d: 3}\ne:\n  - x\nf: [{g: 1}]\n';
  const doc = e.parseYaml(text).docs[0];
  const made = (op) => { const ed = new e.YamlEditor(text, doc); assert.ok(op(ed)); return ed.destructive; };
  assert.equal(made((ed) => ed.setScalar(['a'], 'z')), false);
  assert.equal(made((ed) => ed.insertKey([], 'h', 1)), false);
  assert.equal(made((ed) => ed.replaceValue(['e'], ['y'])), false, 'a list of scalars holds no key');
  assert.equal(made((ed) => ed.replaceValue(['a'], { k: 1 })), false, 'a scalar holds no key');
  assert.equal(made((ed) => ed.renameKey(['a'], 'z')), true);
  assert.equal(made((ed) => ed.deleteKey(['b', 'd'])), true, 'in a flow mapping too');
  assert.equal(made((ed) => ed.replaceValue(['b'], { z: 1 })), true);
  assert.equal(made((ed) => ed.replaceValue(['f'], [])), true, 'a list of mappings holds keys');
  assert.equal(made((ed) => ed.replaceEntry(['a'], 'z', 2)), true);
});
