// What the server does differently for scale (issue: speed, scale, robustness), tested through the real server
// and the engine bundle: a localhost.yml opened or closed with the disk's text changes nothing, a different buffer
// re-checks no other file (issue #27 item 1: it applies once saved) and only tells the status items; facts are pushed before diagnostics when asked; the JSON-RPC output is whole messages even
// when the server exits right after writing; the cross-file caches of the engine give the answers a fresh
// computation gives, whatever the order of windows and row sets. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);
const require = createRequire(import.meta.url);
const engine = require(path.join(repoRoot, 'dist', 'engine.js'));

const STX6 = 'starlingx: { release: "6.0" }\n';
const LOCALHOST = (v) => `system_mode: simplex\nkubernetes_version: ${v}\n`;
const INGRESS = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';

async function start(t, files, opts = {}) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } }, ...opts });
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

const windowOf = async (client, uri) => (await client.request('skewguard/resolvedConfig', { uri })).resolved.kubernetes.window;
const configChanged = (client) => client.notifications.filter((n) => n.method === 'skewguard/configChanged').length;

// Issue #27 item 1: a different buffer used to move the other files' window until closed; it now applies once saved.
test('localhost.yml: opened and closed with the disk\'s text it changes nothing; a different buffer re-checks no other file, only tells the status items', async (t) => {
  const { client, uri } = await start(t, { '.skewguard.yaml': STX6, 'localhost.yml': LOCALHOST('1.21.3'), 'manifests/ingress.yaml': INGRESS });
  const lh = uri('localhost.yml'), ing = uri('manifests/ingress.yaml');
  await client.open(ing, INGRESS);
  // The settings pulled after initialized (workspace-wide, then the file's) re-check it once more; then it is quiet.
  for (const end = Date.now() + 5000; client.configurationRequests < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
  assert.equal(await windowOf(client, ing), '1.21', 'from localhost.yml on disk: 6.0 from 1.21.3');

  // The same text as the disk: no workspace change, no re-check of the manifest.
  const before = configChanged(client);
  const ingCount = client.count(ing);
  await client.open(lh, LOCALHOST('1.21.3'));
  await client.notify('textDocument/didClose', { textDocument: { uri: lh } });
  await client.open(lh, LOCALHOST('1.21.3'), 2); // a round trip after the close: its effects have been sent
  assert.equal(configChanged(client), before, 'no skewguard/configChanged for a buffer equal to the disk');
  assert.equal(client.count(ing), ingCount, 'the manifest was not re-checked');
  await client.notify('textDocument/didClose', { textDocument: { uri: lh } });

  // A buffer that differs from the disk moves no other file's window (lsp-lint reads the disk): the manifest is not
  // re-checked; the status items are told (theirs says the buffer is not applied until saved).
  await client.open(lh, LOCALHOST('1.18.1'), 3);
  assert.equal(await windowOf(client, ing), '1.21');
  assert.equal(await windowOf(client, lh), '1.18..1.21', 'its own window is its buffer\'s');
  assert.ok(configChanged(client) > before, 'status bars are told');
  await client.notify('textDocument/didClose', { textDocument: { uri: lh } });
  await client.open(lh, LOCALHOST('1.21.3'), 4); // a round trip after the close
  assert.equal(client.count(ing), ingCount, 'the manifest was not re-checked');
  assert.equal(await windowOf(client, ing), '1.21');
});

test('a byte order mark on disk does not make an identical localhost.yml buffer a change', async (t) => {
  const { client, uri } = await start(t, { '.skewguard.yaml': STX6, 'localhost.yml': `\uFEFF${LOCALHOST('1.21.3')}`, 'a.yaml': INGRESS });
  await client.open(uri('a.yaml'), INGRESS);
  const before = configChanged(client);
  await client.open(uri('localhost.yml'), LOCALHOST('1.21.3'));
  assert.equal(configChanged(client), before);
});

test('reportFacts: skewguard/fileFacts (family and facts) comes before each publishDiagnostics; not without it', async (t) => {
  const files = { '.skewguard.yaml': 'kata: { window: "3.2..3.32", flavour: go }\n', 'configuration-qemu.toml': '[hypervisor.qemu]\ndefault_vcpus = 1.5\n' };
  const { client, uri } = await start(t, files, { initializationOptions: { reportFacts: true } });
  const u = uri('configuration-qemu.toml');
  const order = [];
  client.conn.onNotification('skewguard/fileFacts', (p) => order.push(['facts', p]));
  client.listeners.add((p) => { if (p.uri === u) order.push(['diagnostics', p]); });
  await client.open(u, files['configuration-qemu.toml'], 1, 'kata-toml');
  assert.deepEqual(order.map(([k, p]) => `${k} v${p.version}`), ['facts v1', 'diagnostics v1']);
  // The window's steps (the Kata releases of 3.2..3.32) come with the facts, for lsp-lint's matrix.
  const { steps, ...facts } = order[0][1];
  assert.deepEqual([steps[0], steps.at(-1), steps.length > 20], ['3.2.0', '3.32.0', true]);
  assert.deepEqual(facts, {
    uri: u, version: 1, family: 'kata-config',
    facts: { kataFlavour: 'go', kataFlavourSource: { kind: 'config', detail: path.join(path.dirname(new URL(u).pathname), '.skewguard.yaml') }, kataWindow: '3.2.0..3.32.0' },
  });

  const plain = await start(t, files);
  await plain.client.open(plain.uri('configuration-qemu.toml'), files['configuration-qemu.toml'], 1, 'kata-toml');
  assert.equal(plain.client.notifications.filter((n) => n.method === 'skewguard/fileFacts').length, 0);
});

test('the server\'s output is whole messages, also when it exits right after writing (shutdown + exit, 6 times)', async (t) => {
  for (let i = 0; i < 6; i++) {
    const root = makeWorkspace({ '.skewguard.yaml': STX6 });
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } } });
    let raw = Buffer.alloc(0);
    client.child.stdout.on('data', (d) => { raw = Buffer.concat([raw, d]); });
    await client.initialize();
    // Pulled settings arrive after initialized and re-check the open file: a publish races with the exit.
    await client.open(uriOf(path.join(root, 'localhost.yml')), LOCALHOST('v1.21.3'));
    assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
    await new Promise((r) => client.child.stdout.once('close', r).readableEnded && r());
    let pos = 0, n = 0;
    while (pos < raw.length) {
      const head = raw.subarray(pos, pos + 100).toString('latin1');
      const m = /^Content-Length: (\d+)\r\n\r\n/.exec(head);
      assert.ok(m, `run ${i}: a header at byte ${pos}: ${JSON.stringify(head.slice(0, 40))}`);
      const end = pos + m[0].length + Number(m[1]);
      assert.ok(end <= raw.length, `run ${i}: message ${n + 1} is cut off (${raw.length - pos - m[0].length} of ${m[1]} bytes)`);
      JSON.parse(raw.subarray(pos + m[0].length, end).toString('utf8'));
      pos = end; n++;
    }
    assert.ok(n >= 3, `run ${i}: ${n} messages`);
  }
});

test('lsp-lint: a localhost.yml per folder and a manifest in each give each manifest its own folder\'s window', () => {
  const files = { '.skewguard.yaml': STX6 };
  for (let i = 0; i < 30; i++) {
    files[`site${i}/localhost.yml`] = LOCALHOST(i % 2 ? '1.18.1' : '1.21.3');
    files[`site${i}/ingress.yaml`] = INGRESS;
  }
  const root = makeWorkspace(files);
  try {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'lsp-lint.js'), '--format', 'json', '--jobs', '2', '.'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.length, 60);
    for (const f of report.filter((x) => x.filePath.endsWith('ingress.yaml'))) {
      const i = Number(/site(\d+)/.exec(f.filePath)[1]);
      assert.deepEqual(f.facts, { kubernetesWindow: i % 2 ? '1.18..1.21' : '1.21', objects: 1 }, f.filePath);
    }
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

// ---------------------------------------------------------------------------------------------- engine caches

const KATA = [
  '[hypervisor.qemu]', 'hotplug_vfio_on_root_bus = true', 'shared_fs = "none"', 'default_vcpus = 1.5', 'enable_iommu = true',
  '[hypervisor.clh]', 'default_vcpus = 1.5', 'shared_fs = "virtio-fs"',
  '[runtime]', 'sandbox_cgroup_only = true', '',
].join('\n');
const kataRun = (window, flavour = 'go') => engine.analyze({
  path: '/w/configuration.toml', text: KATA, config: engine.resolveConfig({ cli: { kataWindow: window, kataFlavour: flavour } }),
}).diagnostics.map((d) => `${d.ruleId} ${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.message}`);

test('Kata verdicts cached across files are the ones a fresh computation gives, in any order of windows and flavours', () => {
  // The first run of each window computes; the later ones read the caches.
  const first = new Map();
  const windows = [['3.1..3.32', 'go'], ['2.0..2.5', 'go'], ['3.2', 'go'], ['3.1..3.32', 'runtime-rs'], ['1.13..3.32', 'go']];
  for (const [w, f] of windows) first.set(`${w} ${f}`, kataRun(w, f));
  for (const [w, f] of [...windows].reverse()) assert.deepEqual(kataRun(w, f), first.get(`${w} ${f}`), `${w} ${f}`);
  // And they are not all the same: the caches are keyed by window and flavour.
  assert.equal(new Set([...first.values()].map((d) => JSON.stringify(d))).size, windows.length);
  // A fresh process (empty caches) agrees with the cached answers.
  const fresh = spawnSync(process.execPath, ['-e', `
    const e = require(${JSON.stringify(path.join(repoRoot, 'dist', 'engine.js'))});
    const d = e.analyze({ path: '/w/configuration.toml', text: ${JSON.stringify(KATA)}, config: e.resolveConfig({ cli: { kataWindow: '2.0..2.5', kataFlavour: 'go' } }) }).diagnostics;
    process.stdout.write(JSON.stringify(d.map((x) => x.ruleId + ' ' + x.range.start.line + ':' + x.range.start.character + ' ' + x.severity + ' ' + x.message)));
  `], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(fresh.stdout), first.get('2.0..2.5 go'));
});

test('lifecycle answers cached across files follow the window and the user\'s rows', () => {
  const widget = 'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w\n';
  const rows = (removed) => engine.parseConfig('/w/.skewguard.yaml', `kubernetes:\n  additionalVersions:\n    - version: example.com/v1beta1\n      kind: Widget\n      deprecated-in: v1.20.0\n      removed-in: ${removed}\n      replacement-api: example.com/v1\n      replacement-available-in: v1.19.0\n`, engine.ruleIds);
  const run = (window, loaded) => engine.analyze({ path: '/w/w.yaml', text: widget, config: engine.resolveConfig({ cli: { kubernetesWindow: window }, config: loaded }) })
    .diagnostics.map((d) => `${d.ruleId}: ${d.message}`);
  const a = rows('v1.22.0'), b = rows('v1.25.0');
  assert.deepEqual(a.problems, []);
  const seen = [run('1.21..1.22', a), run('1.21..1.22', b), run('1.18..1.19', a)];
  assert.match(seen[0].join('\n'), /k8s\/removed-api/);
  assert.doesNotMatch(seen[1].join('\n'), /k8s\/removed-api/, 'row set b removes it only in 1.25');
  assert.deepEqual([run('1.18..1.19', a), run('1.21..1.22', b), run('1.21..1.22', a)], [seen[2], seen[1], seen[0]]);
});

test('the parse cache keeps documents within its budget; a budget of 0 keeps none', () => {
  const text = 'a: 1\n---\nb: [1, 2]\n';
  const v1 = engine.parseYaml(text).docs[1].value;
  assert.equal(engine.parseYaml(text).docs[1].value, v1, 'the second parse reuses the cached document');
  engine.setParseCacheBudget(0);
  try {
    const t2 = 'c: 3\n---\nd: [4]\n';
    assert.notEqual(engine.parseYaml(t2).docs[1].value, engine.parseYaml(t2).docs[1].value);
    assert.notEqual(engine.parseYaml(text).docs[1].value, v1, 'shrinking the budget evicted what was cached');
  } finally { engine.setParseCacheBudget(4 * 1024 * 1024); }
});

test('closing a document clears its diagnostics, unless the client says it does not need that (clearDiagnosticsOnClose: false)', async (t) => {
  for (const [opts, expected] of [[{}, [1, 0]], [{ initializationOptions: { clearDiagnosticsOnClose: false } }, [1]]]) {
    const { client, uri } = await start(t, { '.skewguard.yaml': STX6 }, opts);
    const u = uri('localhost.yml');
    await client.open(u, LOCALHOST('v1.21.3'));
    await client.notify('textDocument/didClose', { textDocument: { uri: u } });
    await client.open(uri('other.yml'), 'a: 1\n'); // a round trip after the close
    assert.deepEqual(client.published.get(u).map((p) => p.diagnostics.length), expected, JSON.stringify(opts));
  }
});

// Issue #27 item 1: the edit used to move the manifest's window until the buffer was closed; now only a save does.
test('localhost.yml opened with the disk\'s text, then edited, then closed: the disk\'s window holds throughout; saved, the edit applies', async (t) => {
  const { client, uri, root } = await start(t, { '.skewguard.yaml': STX6, 'localhost.yml': LOCALHOST('1.21.3'), 'manifests/ingress.yaml': INGRESS });
  const lh = uri('localhost.yml'), ing = uri('manifests/ingress.yaml');
  await client.open(ing, INGRESS);
  await client.open(lh, LOCALHOST('1.21.3'));
  await client.change(lh, 2, [{ text: LOCALHOST('1.18.1') }]);
  assert.equal(await windowOf(client, ing), '1.21');
  await client.notify('textDocument/didClose', { textDocument: { uri: lh } });
  assert.equal(await windowOf(client, ing), '1.21');
  // Saved (written, the watcher's change): the manifest is re-checked with the new window.
  const since = client.count(ing);
  fs.writeFileSync(path.join(root, 'localhost.yml'), LOCALHOST('1.18.1'));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: lh, type: 2 }] });
  await client.waitFor(ing, (x) => /window 1\.18\.\.1\.21/.test(x.diagnostics[0]?.message ?? ''), { since });
  assert.equal(await windowOf(client, ing), '1.18..1.21');
});

test('over stdio, console output in the server goes to the client\'s log, never into the protocol stream', async (t) => {
  const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-console-')), 'chatty.cjs');
  // Like a library that prints: once at load (before the connection exists) would break any server; after it, ours must cope.
  fs.writeFileSync(preload, "setTimeout(() => { console.log('chatty library says %s', 'hello'); console.warn('and warns'); }, 300);\n");
  const before = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${before ?? ''} --require ${preload}`.trim();
  let started;
  try { started = await start(t, { '.skewguard.yaml': STX6 }); } finally {
    if (before === undefined) delete process.env.NODE_OPTIONS; else process.env.NODE_OPTIONS = before;
  }
  const { client, uri } = started;
  t.after(() => fs.rmSync(path.dirname(preload), { recursive: true, force: true }));
  await new Promise((r) => setTimeout(r, 500));
  const p = await client.open(uri('localhost.yml'), LOCALHOST('v1.21.3'));
  assert.equal(p.diagnostics[0].code, 'starlingx/kubernetes-version-v-prefix', 'the protocol still works');
  const logs = client.notifications.filter((n) => n.method === 'window/logMessage').map((n) => n.params.message);
  assert.ok(logs.includes('chatty library says hello'), JSON.stringify(logs));
  assert.ok(logs.includes('and warns'), JSON.stringify(logs));
});
