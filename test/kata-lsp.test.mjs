// Kata Containers configuration.toml through the real language server (dist/server.js over stdio, as an editor
// speaks to it) and through `lsp-lint` on a folder. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, applyTextEdits, repoRoot, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const KATA_31_332 = { '.skewguard.yaml': 'kata: { window: "3.1..3.32", flavour: go }\n' };
const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const range = (l1, c1, l2, c2) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const codes = (p) => p.diagnostics.map((d) => d.code);

// A host configuration carried from 3.1 to 3.32: the old VFIO key (renamed in 3.2.0), shared_fs = "none" (3.2.0+)
// and a fractional vCPU count (a float from 3.3.0).
const HOST = [
  '[hypervisor.qemu]',
  'path = "/usr/bin/qemu-system-x86_64"',
  'hotplug_vfio_on_root_bus = true',
  'shared_fs = "none"',
  'default_vcpus = 1.5',
  '',
  '[runtime]',
  'enable_debug = true',
  '',
].join('\n');

async function start(t, files = KATA_31_332, opts = {}) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, opts);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

test('didOpen of a Kata configuration-qemu.toml (kata-toml) publishes the window findings at their places', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('configuration-qemu.toml');
  const p = await client.open(u, HOST, 1, 'kata-toml');
  assert.deepEqual(codes(p), ['kata/renamed-option', 'kata/invalid-value', 'kata/invalid-type']);
  const [ren, val, typ] = p.diagnostics;
  assert.deepEqual(ren.range, range(2, 0, 2, 24));
  assert.equal(ren.severity, 2, 'warning');
  assert.match(ren.message, /renamed to hot_plug_vfio in 3\.2\.0: 3\.2\.0–3\.32\.0 ignore hotplug_vfio_on_root_bus/);
  assert.deepEqual(val.range, range(3, 12, 3, 18));
  assert.equal(val.severity, 1, 'error');
  assert.match(val.message, /shared_fs = "none" is rejected by 3\.1\.0–3\.1\.3/);
  assert.deepEqual(typ.range, range(4, 16, 4, 19));
  assert.equal(typ.severity, 1);
  assert.match(typ.message, /but 3\.1\.0–3\.2\.0 decode default_vcpus as an integer/);
  for (const d of p.diagnostics) {
    assert.equal(d.source, 'skewguard');
    assert.ok(d.codeDescription.href.endsWith(`/docs/rules/${d.code}.md`), d.codeDescription.href);
  }
  // A Cargo.toml in the same workspace is not a Kata file, whatever it holds: published empty, no hover.
  const cargo = uri('Cargo.toml');
  const pc = await client.open(cargo, '[package]\nname = "x"\n[hypervisor.qemu]\ndefault_vcpus = 1.5\n', 1, 'toml');
  assert.deepEqual(pc.diagnostics, []);
  assert.equal(await client.request('textDocument/hover', { textDocument: { uri: cargo }, position: { line: 2, character: 3 } }), null);
});

test('the editor settings give the window and flavour when there is no .skewguard.yaml', async (t) => {
  const settings = { skewguard: { kata: { window: '3.29..3.32', flavour: 'runtime-rs' } } };
  const { client, uri } = await start(t, {}, { settings });
  const u = uri('configuration.toml');
  await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'kata-toml', version: 1, text: '[agent.kata]\ndial_timeout = 45\n' } });
  // Without the settings (newest release, Go runtime) the file is clean; with them it is refused from 3.29.0.
  const p = await client.waitFor(u, (x) => x.diagnostics.length > 0);
  assert.deepEqual(codes(p), ['kata/renamed-option']);
  assert.equal(p.diagnostics[0].severity, 1, 'runtime-rs [agent.kata] refuses unknown fields from 3.29.0');
  assert.match(p.diagnostics[0].message, /3\.29\.0–3\.32\.0 refuse the file because of it/);
});

test('hover on a table header and on a key shows the window line', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('configuration-qemu.toml');
  await client.open(u, HOST, 1, 'kata-toml');
  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: 4 } });
  assert.equal(h.contents.kind, 'markdown');
  assert.match(h.contents.value, /\*\*\[hypervisor\.qemu\]\*\* — Kata Containers Go runtime/);
  assert.match(h.contents.value, /Window 3\.1\.0\.\.3\.32\.0 \(config: .*\.skewguard\.yaml\): ✓ read by 3\.1\.0–3\.32\.0\./);
  assert.deepEqual(h.range, range(0, 1, 0, 16));
  const k = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 2, character: 3 } });
  assert.match(k.contents.value, /^\*\*hotplug_vfio_on_root_bus\*\* in \[hypervisor\.qemu\]/);
  assert.match(k.contents.value, /Renamed to `hot_plug_vfio` in 3\.2\.0/);
  assert.match(k.contents.value, /✓ read by 3\.1\.0–3\.1\.3; ⚠ only in the templates of 3\.2\.0–3\.17\.0; ✗ ignored by 3\.18\.0–3\.32\.0\./);
  assert.deepEqual(k.range, range(2, 0, 2, 24));
  const none = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 5, character: 0 } });
  assert.equal(none, null);
});

test('completion: tables at "[", keys in a table, values after shared_fs = "', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('configuration-qemu.toml');
  await client.open(u, '[hypervisor.qemu]\nshared_fs = "\n\n[\n', 1, 'kata-toml');
  const list = async (line, character) => {
    const r = await client.request('textDocument/completion', { textDocument: { uri: u }, position: { line, character } });
    return Array.isArray(r) ? r : r.items;
  };
  const values = await list(1, 13);
  assert.deepEqual(values.map((i) => i.label), ['virtio-9p', 'virtio-fs', 'virtio-fs-nydus'], '"none" is rejected by 3.1.x');
  assert.deepEqual(values[1].textEdit, { range: range(1, 13, 1, 13), newText: 'virtio-fs' });
  assert.equal(values[0].kind, 12, 'CompletionItemKind.Value');
  const keys = await list(2, 0);
  const labels = keys.map((i) => i.label);
  assert.ok(labels.includes('default_memory'));
  assert.ok(!labels.includes('shared_fs'), 'already present');
  assert.ok(!labels.includes('hot_plug_vfio'), 'not read by 3.1.x');
  assert.deepEqual(keys.find((i) => i.label === 'default_memory').textEdit, { range: range(2, 0, 2, 0), newText: 'default_memory = ' });
  const tables = (await list(3, 1)).map((i) => i.label);
  assert.ok(tables.includes('runtime') && tables.includes('hypervisor.qemu') && tables.includes('agent.kata'), tables.join(' '));
  assert.ok(!tables.includes('hypervisor.acrn'), 'refused from 3.10.0');
});

test('a quickfix applied with didChange clears its diagnostic; fix-all removes a key no release of the window reads', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('configuration-qemu.toml');
  const p = await client.open(u, HOST, 1, 'kata-toml');
  const diag = p.diagnostics.find((d) => d.code === 'kata/invalid-value');
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: diag.range, context: { diagnostics: [diag] } });
  // The finding's own fixes (the disable actions after them are the same for every finding: test/editor-actions.test.mjs).
  const titles = actions.filter((a) => a.diagnostics?.[0]?.code === 'kata/invalid-value' && !/^Disable /.test(a.title)).map((a) => a.title);
  assert.deepEqual(titles, ['Change to virtio-9p', 'Change to virtio-fs', 'Change to virtio-fs-nydus']);
  const fix = actions.find((a) => a.title === 'Change to virtio-fs');
  assert.equal(fix.kind, 'quickfix');
  const edits = fix.edit.changes[u];
  assert.deepEqual(edits, [{ range: range(3, 12, 3, 18), newText: '"virtio-fs"' }]);
  const fixed = applyTextEdits(HOST, edits);
  assert.equal(fixed, HOST.replace('shared_fs = "none"', 'shared_fs = "virtio-fs"'));
  const p2 = await client.change(u, 2, edits.map((e) => ({ range: e.range, text: e.newText })));
  assert.deepEqual(codes(p2), ['kata/renamed-option', 'kata/invalid-type']);

  // The vCPU fix, then nothing but the rename (which has no fix in this window) is left.
  const typ = p2.diagnostics.find((d) => d.code === 'kata/invalid-type');
  const a2 = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: typ.range, context: { diagnostics: [typ] } });
  const vcpu = a2.find((a) => a.diagnostics?.[0]?.code === 'kata/invalid-type');
  assert.equal(vcpu.title, 'Use 2 (an integer every release reads)');
  const p3 = await client.change(u, 3, vcpu.edit.changes[u].map((e) => ({ range: e.range, text: e.newText })));
  assert.deepEqual(codes(p3), ['kata/renamed-option']);
  const a3 = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: p3.diagnostics[0].range, context: { diagnostics: p3.diagnostics } });
  assert.deepEqual(a3.filter((a) => a.kind === 'quickfix' && !/^Disable /.test(a.title)), [], 'no rename while 3.1.x does not read hot_plug_vfio');

  // Fix-all applies only preferred fixes: here the removal of use_vsock (read by no release of 3.1..3.32).
  const v = uri('config.d/20-vsock.toml');
  const old = '[hypervisor.qemu]\nuse_vsock = true\ndefault_memory = 4096\n';
  const pv = await client.open(v, old, 1, 'kata-toml');
  assert.deepEqual(codes(pv), ['kata/option-not-in-window']);
  const all = await client.request('textDocument/codeAction', { textDocument: { uri: v }, range: ZERO, context: { diagnostics: [], only: ['source.fixAll.skewguard'] } });
  assert.equal(all.length, 1, JSON.stringify(all));
  assert.deepEqual(all[0].edit.changes[v], [{ range: range(1, 0, 2, 0), newText: '' }]);
  const pv2 = await client.change(v, 2, all[0].edit.changes[v].map((e) => ({ range: e.range, text: e.newText })));
  assert.deepEqual(codes(pv2), []);
});

test('a broken TOML file gets one parse error, and fixing it brings the findings back', async (t) => {
  const { client, uri } = await start(t);
  const u = uri('configuration-qemu.toml');
  const p = await client.open(u, '[hypervisor.qemu\nshared_fs = "none"\n', 1, 'kata-toml');
  assert.deepEqual(codes(p), ['syntax/parse-error']);
  assert.deepEqual(p.diagnostics[0].range, range(0, 0, 0, 16));
  const p2 = await client.change(u, 2, [{ range: range(0, 16, 0, 16), text: ']' }]);
  assert.deepEqual(codes(p2), ['kata/invalid-value']);
});

// ---------------------------------------------------------------------------------------------
// lsp-lint on a folder of Kata files

function lspLint(args, cwd) {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), ...args], { cwd, encoding: 'utf8', timeout: 60000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('lsp-lint on a folder of Kata files: JSON findings per file, exit 1 on errors, 0 when only warnings remain', (t) => {
  const root = makeWorkspace({
    '.skewguard.yaml': 'kata: { window: "3.1..3.32", flavour: go }\n',
    'configuration-qemu.toml': HOST,
    'acrn/configuration-acrn.toml': '[hypervisor.acrn]\npath = "/usr/bin/acrn-dm"\n',
    'config.d/10-memory.toml': '[hypervisor.qemu]\ndefault_memory = 4096\n',
    'tools/Cargo.toml': '[package]\nname = "x"\n[hypervisor.qemu]\ndefault_vcpus = 1.5\n',
  });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const r = lspLint(['-f', 'json', '.'], root);
  assert.equal(r.code, 1, r.stderr);
  const reports = JSON.parse(r.stdout).filter((x) => !x.filePath.endsWith('.skewguard.yaml'));
  const byFile = Object.fromEntries(reports.map((x) => [
    path.relative(root, x.filePath).split(path.sep).join('/'),
    { family: x.family, messages: x.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId}`) },
  ]));
  assert.deepEqual(byFile, {
    'acrn/configuration-acrn.toml': { family: 'kata-config', messages: ['1:2 error kata/section-not-in-window'] },
    'config.d/10-memory.toml': { family: 'kata-config', messages: [] },
    'configuration-qemu.toml': { family: 'kata-config', messages: ['3:1 warning kata/renamed-option', '4:13 error kata/invalid-value', '5:17 error kata/invalid-type'] },
    'tools/Cargo.toml': { family: null, messages: [] },
  });
  const qemu = reports.find((x) => x.filePath.endsWith('configuration-qemu.toml'));
  assert.equal(qemu.errorCount, 2);
  assert.equal(qemu.warningCount, 1);
  // The window from the command line wins: up to 3.9 acrn is valid, and 3.2.0 reads "none".
  const narrow = lspLint(['-f', 'json', '--kata-window', '3.2..3.9', 'acrn', 'configuration-qemu.toml'], root);
  const n = JSON.parse(narrow.stdout);
  assert.deepEqual(n.map((x) => [path.basename(x.filePath), x.messages.map((m) => `${m.severity} ${m.ruleId}`)]), [
    ['configuration-acrn.toml', []],
    ['configuration-qemu.toml', ['info kata/renamed-option', 'error kata/invalid-type']],
  ]);
  assert.equal(narrow.code, 1);
  // Only warnings: exit 0.
  const warn = lspLint(['--kata-window', '3.3..3.32', 'configuration-qemu.toml'], root);
  assert.equal(warn.code, 0, warn.stdout + warn.stderr);
  assert.match(warn.stdout, /3:1\s+warning\s+.*kata\/renamed-option/);
  assert.match(warn.stdout, /1 problem \(0 errors, 1 warning, 0 info\)/);
});

test('lsp-lint --fix on a Kata file applies the preferred fixes only and rewrites the file', (t) => {
  const root = makeWorkspace({
    'configuration-qemu.toml': '[hypervisor.qemu]\nhotplug_vfio_on_root_bus = true\nuse_vsock = true\nshared_fs = "none"\n',
  });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const file = path.join(root, 'configuration-qemu.toml');
  const r = lspLint(['--kata-window', '3.0..3.32', '--kata-flavour', 'go', '--fix', '-f', 'json', file], root);
  // shared_fs has no preferred fix (the choice is the operator's); the rename needs 3.2.0 in the whole window.
  assert.equal(fs.readFileSync(file, 'utf8'), '[hypervisor.qemu]\nhotplug_vfio_on_root_bus = true\nshared_fs = "none"\n');
  assert.equal(r.code, 1);
  const [rep] = JSON.parse(r.stdout);
  assert.equal(rep.fixed, true);
  assert.deepEqual(rep.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['2:1 kata/renamed-option', '3:13 kata/invalid-value']);
  // With 3.2..3.32 the rename is complete and preferred too.
  const r2 = lspLint(['--kata-window', '3.2..3.32', '--kata-flavour', 'go', '--fix', file], root);
  assert.equal(r2.code, 0, r2.stdout + r2.stderr);
  assert.equal(fs.readFileSync(file, 'utf8'), '[hypervisor.qemu]\nhot_plug_vfio = "root-port"\nshared_fs = "none"\n');
});
