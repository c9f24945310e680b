// Kata Containers configuration*.toml: the eight kata/* rules over the live-upgrade/rollback window, the upstream
// templates of nine releases (test/fixtures/kata/config-rendered, see its SOURCES.md) under their own and other
// windows, flavour detection, drop-ins, broken TOML, hover and completion. Every expected finding below was
// checked by hand against data/kata/config.json (the row and release range are named next to it).
// Uses the built dist/engine.js; run `node scripts/build.mjs` first. Reads only the repo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e, applyEdits } from './helpers/k8s.mjs';

const rendered = path.join(repoRoot, 'test', 'fixtures', 'kata', 'config-rendered');
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8'));
const fixture = (rel) => fs.readFileSync(path.join(rendered, rel), 'utf8');

/** Analyses `text` as `file` with a Kata window and flavour from the command line (either may be left out). */
function lint(text, { file = '/etc/kata-containers/configuration-qemu.toml', window, flavour, rules, files } = {}) {
  const cli = {};
  if (window) cli.kataWindow = window;
  if (flavour) cli.kataFlavour = flavour;
  if (rules) cli.rules = rules;
  if (files) cli.files = files;
  return e.analyze({ path: file, text, config: e.resolveConfig({ cli }) });
}
/** "kata/rule @ line:col severity", 1-based as lsp-lint prints them, in file order. */
const at = (d) => `${d.ruleId} @ ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity}`;
const findings = (r) => r.diagnostics.map(at);
const only = (r, ruleId) => {
  const ds = r.diagnostics.filter((d) => d.ruleId === ruleId);
  assert.equal(ds.length, 1, `one ${ruleId}: ${JSON.stringify(findings(r))}`);
  return ds[0];
};
const lineOf = (text, n) => text.split('\n')[n - 1];

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((x) => (x.isDirectory() ? walk(path.join(dir, x.name)) : [path.join(dir, x.name)]))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// 1. Every upstream template under its own release and flavour

/**
 * The only findings the 91 templates give under their own release: infos, each reviewed. A template may ship a key its
 * own release's parser does not read; that is worth knowing, but not a warning about the file the release ships.
 */
const OWN_RELEASE_INFOS = {
  // data: runtime|disable_selinux has templates.go 2.3.3–2.4.3 and no parser range: the 2.4.x templates put it under
  // [runtime], the Go parser reads it only in [hypervisor.*] (from 2.3.3).
  '2.4.3/configuration-acrn.toml': ['kata/option-not-in-window @ 32:1 info'],
  '2.4.3/configuration-clh.toml': ['kata/option-not-in-window @ 39:1 info'],
  '2.4.3/configuration-fc.toml': ['kata/option-not-in-window @ 39:1 info'],
  '2.4.3/configuration-qemu.toml': ['kata/option-not-in-window @ 70:1 info'],
  '3.2.0/configuration-qemu-nvidia-gpu.toml': [
    // hotplug_vfio_on_root_bus: Go parser 1.3.0–3.1.3, renamed to hot_plug_vfio in 3.2.0; the 3.2.0 template still sets it.
    'kata/renamed-option @ 67:1 info',
    // hypervisor.*|pcie_root_port: Go parser missingIn 3.2.0–3.5.0 while the templates carry it (data note "Contradiction").
    'kata/option-not-in-window @ 69:1 info',
  ],
  // runtime-rs templates shipping keys kata-types does not read at that tag (runtime-rs-config-keys.json):
  // dial_timeout: agent.<name>.dial_timeout is no kata-types field (3.2.0 reads dial_timeout_ms only, agent.rs).
  '3.2.0/runtime-rs/configuration-dragonball.toml': ['kata/option-not-in-window @ 40:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '3.32.0/runtime-rs/configuration-qemu-nvidia-gpu-runtime-rs.toml': ['kata/option-not-in-window @ 23:1 info', 'kata/option-not-in-window @ 96:1 info', 'kata/option-not-in-window @ 134:1 info', 'kata/option-not-in-window @ 231:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '3.32.0/runtime-rs/configuration-qemu-nvidia-gpu-snp-runtime-rs.toml': ['kata/option-not-in-window @ 32:1 info', 'kata/option-not-in-window @ 105:1 info', 'kata/option-not-in-window @ 141:1 info', 'kata/option-not-in-window @ 205:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '3.32.0/runtime-rs/configuration-qemu-nvidia-gpu-tdx-runtime-rs.toml': ['kata/option-not-in-window @ 26:1 info', 'kata/option-not-in-window @ 99:1 info', 'kata/option-not-in-window @ 135:1 info', 'kata/option-not-in-window @ 199:1 info'],
  // remote_hypervisor_socket, remote_hypervisor_timeout: kata-types reads the remote socket as hypervisor_socket (hypervisor/mod.rs, flattened RemoteInfo), not remote_hypervisor_socket; kata-types reads hypervisor_timeout (hypervisor/mod.rs), not remote_hypervisor_timeout.
  '3.32.0/runtime-rs/configuration-remote.toml': ['kata/option-not-in-window @ 2:1 info', 'kata/option-not-in-window @ 3:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '4.1.0/runtime-rs/configuration-qemu-nvidia-cpu-runtime-rs.toml': ['kata/option-not-in-window @ 23:1 info', 'kata/option-not-in-window @ 100:1 info', 'kata/option-not-in-window @ 136:1 info', 'kata/option-not-in-window @ 231:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '4.1.0/runtime-rs/configuration-qemu-nvidia-gpu-runtime-rs.toml': ['kata/option-not-in-window @ 23:1 info', 'kata/option-not-in-window @ 100:1 info', 'kata/option-not-in-window @ 136:1 info', 'kata/option-not-in-window @ 233:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '4.1.0/runtime-rs/configuration-qemu-nvidia-gpu-snp-runtime-rs.toml': ['kata/option-not-in-window @ 32:1 info', 'kata/option-not-in-window @ 109:1 info', 'kata/option-not-in-window @ 143:1 info', 'kata/option-not-in-window @ 207:1 info'],
  // firmware_volume, kubelet_root_dir, use_legacy_serial, vhost_user_reconnect_timeout_sec: hypervisor.<name>.firmware_volume: no kata-types field at 3.32.0/4.1.0; [runtime] kubelet_root_dir: no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0; no kata-types field at 3.32.0/4.1.0.
  '4.1.0/runtime-rs/configuration-qemu-nvidia-gpu-tdx-runtime-rs.toml': ['kata/option-not-in-window @ 26:1 info', 'kata/option-not-in-window @ 103:1 info', 'kata/option-not-in-window @ 137:1 info', 'kata/option-not-in-window @ 201:1 info'],
  // remote_hypervisor_socket, remote_hypervisor_timeout: kata-types reads the remote socket as hypervisor_socket (hypervisor/mod.rs, flattened RemoteInfo), not remote_hypervisor_socket; kata-types reads hypervisor_timeout (hypervisor/mod.rs), not remote_hypervisor_timeout.
  '4.1.0/runtime-rs/configuration-remote.toml': ['kata/option-not-in-window @ 2:1 info', 'kata/option-not-in-window @ 3:1 info'],
};

test('all 91 upstream templates validate under their own release and flavour: no error, no warning, only the reviewed infos', () => {
  const files = walk(rendered);
  assert.equal(files.length, 91);
  const infos = {};
  let runtimeRs = 0;
  for (const f of files) {
    const rel = path.relative(rendered, f).split(path.sep).join('/');
    const release = rel.split('/')[0];
    const flavour = rel.includes('/runtime-rs/') ? 'runtime-rs' : 'go';
    if (flavour === 'runtime-rs') runtimeRs++;
    const r = lint(fs.readFileSync(f, 'utf8'), { file: f, window: release, flavour });
    assert.equal(r.family, 'kata-config', rel);
    assert.equal(r.kata.flavour, flavour, rel);
    assert.deepEqual(r.kata.window, [release], rel);
    const bad = r.diagnostics.filter((d) => d.severity !== 'info');
    assert.deepEqual(bad.map((d) => `${at(d)} ${d.message}`), [], rel);
    if (r.diagnostics.length) infos[rel] = findings(r);
  }
  assert.equal(runtimeRs, 30, 'runtime-rs templates of 3.0.0, 3.2.0, 3.32.0 and 4.1.0');
  assert.deepEqual(infos, OWN_RELEASE_INFOS);
});

test('the flavour of every template is detected without --kata-flavour (its name, its runtime-rs/ folder or its tables)', () => {
  for (const f of walk(rendered)) {
    const rel = path.relative(rendered, f).split(path.sep).join('/');
    const r = lint(fs.readFileSync(f, 'utf8'), { file: f, window: rel.split('/')[0] });
    assert.equal(r.kata.flavour, rel.includes('/runtime-rs/') ? 'runtime-rs' : 'go', rel);
    assert.ok(r.diagnostics.every((d) => d.severity === 'info'), rel);
  }
});

// ---------------------------------------------------------------------------------------------
// 2. The same templates under other windows

test('1.13.0 qemu template under 2.0.0: [proxy.kata], [shim.kata] and pflashes are ignored there', () => {
  const text = fixture('1.13.0/configuration-qemu.toml');
  const r = lint(text, { window: '2.0.0', flavour: 'go' });
  assert.deepEqual(findings(r), [
    'kata/option-not-in-window @ 54:1 warning', // hypervisor.*|pflashes: Go 1.13.0–today, missingIn 2.0.0–2.0.3
    'kata/section-not-in-window @ 58:2 warning', // proxy.kata: Go 1.0.0–1.13.0
    'kata/section-not-in-window @ 61:2 warning', // shim.kata: Go 1.0.0–1.13.0
  ]);
  assert.equal(lineOf(text, 54), 'pflashes = []');
  assert.equal(lineOf(text, 58), '[proxy.kata]');
  assert.equal(lineOf(text, 61), '[shim.kata]');
  const [pflashes, proxy, shim] = r.diagnostics;
  assert.match(pflashes.message, /no release in the window 2\.0\.0 reads pflashes \(read by Go runtime 1\.13\.0–today, except 2\.0\.0–2\.0\.3\)/);
  assert.match(proxy.message, /\[proxy\.kata\] is not read by every Go runtime release in the window 2\.0\.0: 2\.0\.0 ignores it and every setting in it/);
  assert.match(shim.message, /\[shim\.kata\]/);
  assert.deepEqual(proxy.fixes ?? [], [], 'no fix for a table');
  // The one fix: pflashes is read by no release of the window, so it can go: exactly its line.
  const fixed = applyEdits(text, pflashes.fixes[0].edits);
  assert.equal(fixed, text.replace('\npflashes = []\n', '\n'));
  assert.deepEqual(findings(lint(fixed, { window: '2.0.0', flavour: 'go' })), ['kata/section-not-in-window @ 57:2 warning', 'kata/section-not-in-window @ 60:2 warning']);
  // Rolling back to 1.13.0 as well: pflashes is read there, so it stays (no fix) and the tables are ignored by 2.0.x only.
  const back = lint(text, { window: '1.13.0..2.0', flavour: 'go' });
  assert.deepEqual(findings(back), findings(r));
  assert.match(back.diagnostics[0].message, /not understood by every release in the window 1\.13\.0\.\.2\.0\.4: 2\.0\.0–2\.0\.3 ignore it/);
  assert.deepEqual(back.diagnostics[0].fixes, []);
  assert.match(back.diagnostics[1].message, /2\.0\.0–2\.0\.4 ignore it/);
});

test('3.0.0 qemu template under 3.32.0: valid_file_mem_backends (last read 3.31.0) and [image] are ignored', () => {
  const text = fixture('3.0.0/configuration-qemu.toml');
  const r = lint(text, { window: '3.32.0', flavour: 'go' });
  assert.deepEqual(findings(r), [
    'kata/option-not-in-window @ 57:1 warning', // valid_file_mem_backends: Go 1.11.5–3.31.0
    'kata/section-not-in-window @ 88:2 warning', // image: not read by Go 3.32.0
  ]);
  assert.match(lineOf(text, 57), /^valid_file_mem_backends = /);
  assert.equal(lineOf(text, 88), '[image]');
  assert.match(r.diagnostics[0].message, /read by Go runtime 1\.11\.5–3\.31\.0/);
  // Across 3.0..3.32 the key is still read by most releases: the same warning, no removal.
  const wide = lint(text, { window: '3.0..3.32', flavour: 'go' });
  const v = wide.diagnostics.find((d) => d.range.start.line === 56);
  assert.equal(v.ruleId, 'kata/option-not-in-window');
  assert.match(v.message, /3\.32\.0 ignores it/);
  assert.deepEqual(v.fixes, []);
});

test('rollback 2.0 -> 1.13.0: the 2.0.0 templates use only what 1.13.0 reads; the 2.2.3 qemu template does not', () => {
  for (const hv of ['acrn', 'clh', 'fc', 'qemu']) {
    const r = lint(fixture(`2.0.0/configuration-${hv}.toml`), { window: '1.13.0..2.0', flavour: 'go' });
    assert.deepEqual(r.kata.window, ['1.13.0', '2.0.0', '2.0.1', '2.0.2', '2.0.3', '2.0.4']);
    assert.deepEqual(findings(r), [], hv);
  }
  const text = fixture('2.2.3/configuration-qemu.toml');
  const r = lint(text, { window: '1.13.0..2.2', flavour: 'go' });
  assert.deepEqual(findings(r), [
    'kata/option-not-in-window @ 53:1 warning', // pflashes: missingIn 2.0.0–2.0.3
    'kata/option-not-in-window @ 55:1 warning', // valid_entropy_sources: Go from 2.1.0
    'kata/option-not-in-window @ 74:1 warning', // sandbox_bind_mounts: Go from 2.0.4
    'kata/section-not-in-window @ 78:2 warning', // image: Go from 2.2.0
  ]);
  assert.match(r.diagnostics[1].message, /1\.13\.0–2\.0\.4 ignore it \(read by Go runtime 2\.1\.0–today\)/);
  assert.match(r.diagnostics[2].message, /1\.13\.0–2\.0\.3 ignore it/);
  assert.match(r.diagnostics[3].message, /1\.13\.0–2\.1\.1 ignore it and every setting in it/);
});

test('3.2.0 acrn template under 3.2..3.32: one error, the Go runtime refuses [hypervisor.acrn] from 3.10.0', () => {
  const text = fixture('3.2.0/configuration-acrn.toml');
  const r = lint(text, { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/section-not-in-window @ 1:2 error']);
  assert.equal(lineOf(text, 1), '[hypervisor.acrn]');
  assert.match(r.diagnostics[0].message, /3\.10\.0–3\.32\.0 refuse to start with it \(invalid hypervisor section\)/);
  assert.deepEqual(r.diagnostics[0].data.fatalIn.slice(0, 2), ['3.10.0', '3.10.1']);
  // The keys inside are not reported once per key: the table speaks for them.
  assert.equal(r.diagnostics.length, 1);
  // Up to 3.9 acrn is still a valid hypervisor: nothing.
  assert.deepEqual(findings(lint(text, { window: '3.2..3.9', flavour: 'go' })), []);
});

test('3.2.0 runtime-rs dragonball template under 3.29..3.32: dial_timeout in the strict [agent.kata] is fatal', () => {
  const text = fixture('3.2.0/runtime-rs/configuration-dragonball.toml');
  const r = lint(text, { file: '/x/configuration-dragonball.toml', window: '3.29..3.32' });
  assert.equal(r.kata.flavour, 'runtime-rs');
  // agent.kata|dial_timeout: never a kata-types field (runtime-rs-config-keys.json: agent.<name>.dial_timeout_ms only,
  // 3.0.0–4.1.0), only the runtime-rs templates ship it until 3.28.0 (renamed to dial_timeout_ms there in 3.6.0);
  // [agent.<name>] denies unknown fields from runtime-rs 3.29.0 (data fatal.denyUnknownFields).
  assert.deepEqual(findings(r), ['kata/renamed-option @ 40:1 error']);
  assert.equal(lineOf(text, 40), 'dial_timeout = 45');
  const d = r.diagnostics[0];
  assert.match(d.message, /dial_timeout was renamed to dial_timeout_ms in 3\.6\.0: 3\.29\.0–3\.32\.0 refuse the file because of it/);
  assert.deepEqual(d.data.fatalIn, ['3.29.0', '3.30.0', '3.31.0', '3.32.0']);
  assert.deepEqual(d.fixes.map((f) => f.edits[0].newText), ['dial_timeout_ms']);
  // One release earlier the table is not strict yet: 3.28.0 ignores dial_timeout (kata-types never reads it), 3.29.0 refuses it.
  const r2 = lint(text, { file: '/x/configuration-dragonball.toml', window: '3.28..3.29' });
  assert.deepEqual(findings(r2), ['kata/renamed-option @ 40:1 error']);
  assert.match(r2.diagnostics[0].message, /: 3\.28\.0 ignores dial_timeout; 3\.29\.0 refuses the file because of it/);
});

test('4.1.0 qemu template under 3.2..4.1: every key newer than 3.2.0, with the release that first reads it', () => {
  const text = fixture('4.1.0/configuration-qemu.toml');
  const r = lint(text, { window: '3.2..4.1', flavour: 'go' });
  const expected = [
    [68, 'block_device_logical_sector_size', 'warning', '3.2.0–3.28.0'],
    [70, 'block_device_physical_sector_size', 'warning', '3.2.0–3.28.0'],
    [74, 'indep_iothreads', 'warning', '3.2.0–3.23.0'],
    [78, 'reclaim_guest_freed_memory', 'warning', '3.2.0–3.16.0'],
    [90, 'enable_numa', 'warning', '3.2.0–3.26.0'],
    [92, 'numa_mapping', 'warning', '3.2.0–3.26.0'],
    [114, 'pcie_root_port', 'info', '3.2.0–3.5.0'], // templates of 3.2.0–3.5.0 ship it, their parser does not read it
    [158, 'cdh_api_timeout', 'warning', '3.2.0–3.8.0'],
    [190, 'emptydir_mode', 'warning', '3.2.0–3.27.0'],
    [196, 'create_container_timeout', 'warning', '3.2.0–3.3.0'],
    [198, 'dan_conf', 'warning', '3.2.0–3.6.0'],
    [200, 'kubelet_root_dir', 'warning', '3.2.0–3.27.0'],
    [202, 'pod_resource_api_sock', 'warning', '3.2.0–3.23.0'],
  ];
  assert.deepEqual(findings(r), expected.map(([l, , sev]) => `kata/option-not-in-window @ ${l}:1 ${sev}`));
  expected.forEach(([l, key, , releases], i) => {
    assert.ok(lineOf(text, l).startsWith(key), `${l}: ${lineOf(text, l)}`);
    assert.ok(r.diagnostics[i].message.includes(releases), r.diagnostics[i].message);
    assert.deepEqual(r.diagnostics[i].fixes ?? [], [], 'read by part of the window: no removal');
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Each rule: position, severity (fatal -> error), fixes

test('kata/unknown-section: a misspelt table at its name, "did you mean", an error where the Go runtime refuses unknown hypervisors (3.2.0+)', () => {
  const text = '[runtime]\nenable_debug = true\n\n[hypervisor.qemu-lite]\npath = "/usr/bin/qemu-system-x86_64"\n';
  const old = lint(text, { window: '2.5', flavour: 'go' });
  assert.deepEqual(findings(old), ['kata/unknown-section @ 4:2 warning']);
  const d = old.diagnostics[0];
  assert.deepEqual(d.range, { start: { line: 3, character: 1 }, end: { line: 3, character: 21 } });
  assert.match(d.message, /unknown table \[hypervisor\.qemu-lite\]: no Go runtime release reads it, so every setting in it is ignored; did you mean \[hypervisor\.qemu\]\?/);
  assert.equal(applyEdits(text, d.fixes[0].edits), text.replace('qemu-lite', 'qemu'));
  assert.notEqual(d.fixes[0].preferred, true, 'a guess, not applied by --fix');
  // Across 3.1..3.2 the same table stops 3.2.0 from starting.
  const fatal = lint(text, { window: '3.1..3.2', flavour: 'go' });
  assert.deepEqual(findings(fatal), ['kata/unknown-section @ 4:2 error']);
  assert.match(fatal.diagnostics[0].message, /and 3\.2\.0 refuses to start with it \(invalid hypervisor section\)/);
  assert.deepEqual(fatal.diagnostics[0].data.fatalIn, ['3.2.0']);
  // Not a hypervisor table: ignored, never fatal. Keys of an unknown table are not reported one by one.
  const rt = lint('[runtme]\nenable_debug = true\n', { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(rt), ['kata/unknown-section @ 1:2 warning']);
  assert.match(rt.diagnostics[0].message, /did you mean \[runtime\]\?/);
  // The suggestion is a table one can write, never the data's `hypervisor.*` pattern.
  // [hypervisor] itself only holds the hypervisor tables (`qemu = {…}` or `qemu.path = …` below it): not unknown.
  assert.deepEqual(findings(lint('[hypervisor]\nqemu.path = "/usr/bin/qemu-system-x86_64"\n', { window: '3.32', flavour: 'go' })), []);
  assert.deepEqual(findings(lint('[hypervisor]\nbogus = 1\n', { window: '3.32', flavour: 'go' })), ['kata/unknown-option @ 2:1 warning']);
  for (const name of ['hypervisr', 'hypervisor.x']) {
    const r = lint(`[${name}]\n`, { window: '3.32', flavour: 'go' });
    const u = only(r, 'kata/unknown-section');
    assert.doesNotMatch(u.message, /\*/, u.message);
    for (const f of u.fixes ?? []) assert.doesNotMatch(f.edits[0].newText, /\*/);
  }
  // Known tables and [hypervisor.qemu.factory]-style sub-tables of a runtime-rs hypervisor are not reported.
  assert.deepEqual(findings(lint('[hypervisor.qemu]\n[hypervisor.qemu.factory]\n[agent.kata]\n[runtime]\n', { window: '3.32', flavour: 'runtime-rs' })), []);
});

test('kata/section-not-in-window: ignored tables are warnings, a hypervisor the window refuses is an error; no fix', () => {
  const proxy = lint('[runtime]\nenable_debug = true\n[proxy.kata]\npath = "/usr/libexec/kata-containers/kata-proxy"\n', { window: '1.13..2.0', flavour: 'go' });
  assert.deepEqual(findings(proxy), ['kata/section-not-in-window @ 3:2 warning']);
  assert.match(proxy.diagnostics[0].message, /2\.0\.0–2\.0\.4 ignore it and every setting in it/);
  assert.deepEqual(proxy.diagnostics[0].fixes ?? [], []);
  const acrn = '[hypervisor.acrn]\npath = "/usr/bin/acrn-dm"\n';
  assert.deepEqual(findings(lint(acrn, { window: '3.9', flavour: 'go' })), []);
  const fatal = lint(acrn, { window: '3.9..3.10', flavour: 'go' });
  assert.deepEqual(findings(fatal), ['kata/section-not-in-window @ 1:2 error']);
  assert.match(fatal.diagnostics[0].message, /3\.10\.0–3\.10\.1 refuse to start with it/);
  // Before 3.2.0 an unknown hypervisor table was skipped, not fatal: [hypervisor.stratovirt] (Go from 3.3.0) under 3.1..3.3.
  const strato = lint('[hypervisor.stratovirt]\npath = "/usr/bin/stratovirt"\n', { window: '3.1..3.3', flavour: 'go' });
  assert.deepEqual(findings(strato), ['kata/section-not-in-window @ 1:2 error']);
  assert.match(strato.diagnostics[0].message, /3\.2\.0 refuses to start with it \(invalid hypervisor section\); 3\.1\.0–3\.1\.3 ignore it/);
  // The user's severity wins over the escalation, and "off" silences the rule.
  assert.deepEqual(findings(lint(acrn, { window: '3.9..3.10', flavour: 'go', rules: { 'kata/section-not-in-window': 'warning' } })), ['kata/section-not-in-window @ 1:2 warning']);
  assert.deepEqual(findings(lint(acrn, { window: '3.9..3.10', flavour: 'go', rules: { 'kata/section-not-in-window': 'off' } })), []);
});

test('kata/unknown-option: a misspelt key at the key with a rename suggestion; an error in runtime-rs [agent.kata] from 3.29.0', () => {
  const text = '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\ndefualt_memory = 4096\n';
  const r = lint(text, { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/unknown-option @ 3:1 warning']);
  const d = r.diagnostics[0];
  assert.deepEqual(d.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 14 } });
  assert.match(d.message, /unknown option defualt_memory in \[hypervisor\.qemu\]: no Go runtime release reads it, so it is ignored; did you mean default_memory\?/);
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.equal(fixed, text.replace('defualt_memory', 'default_memory'));
  assert.deepEqual(findings(lint(fixed, { window: '3.32', flavour: 'go' })), []);
  // runtime-rs [agent.kata] refuses unknown fields from 3.29.0.
  const agent = '[agent.kata]\nenable_debug = false\nbogus_timeout = 5\n';
  assert.deepEqual(findings(lint(agent, { window: '3.28', flavour: 'runtime-rs' })), ['kata/unknown-option @ 3:1 warning']);
  const strict = lint(agent, { window: '3.28..3.30', flavour: 'runtime-rs' });
  assert.deepEqual(findings(strict), ['kata/unknown-option @ 3:1 error']);
  assert.match(strict.diagnostics[0].message, /and 3\.29\.0–3\.30\.0 refuse the file because of it/);
  // The Go runtime's [agent.kata] is not strict.
  assert.deepEqual(findings(lint(agent, { window: '3.28..3.30', flavour: 'go' })), ['kata/unknown-option @ 3:1 warning']);
  // A key whose flavour is the other runtime's: dial_timeout_ms is runtime-rs only.
  const ms = '[agent.kata]\ndial_timeout_ms = 10\n';
  assert.deepEqual(findings(lint(ms, { window: '3.32', flavour: 'runtime-rs' })), []);
  assert.deepEqual(findings(lint(ms, { window: '3.32', flavour: 'go' })), ['kata/unknown-option @ 2:1 warning']);
});

test('kata/option-not-in-window: too new or already gone is a warning; removal deletes exactly the line when no release reads it', () => {
  const text = '[hypervisor.qemu]\n# vsock was the only transport in 1.x\nuse_vsock = true # kept from 1.x\nenable_iommu = true\n';
  const r = lint(text, { window: '2.0..3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/option-not-in-window @ 3:1 warning']); // use_vsock: Go 1.2.0–1.13.0
  const d = r.diagnostics[0];
  assert.match(d.message, /no release in the window 2\.0\.0\.\.3\.32\.0 reads use_vsock \(read by Go runtime 1\.2\.0–1\.13\.0\)/);
  assert.equal(d.fixes.length, 1);
  assert.equal(d.fixes[0].preferred, true);
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.equal(fixed, '[hypervisor.qemu]\n# vsock was the only transport in 1.x\nenable_iommu = true\n');
  assert.deepEqual(findings(lint(fixed, { window: '2.0..3.32', flavour: 'go' })), []);
  // The last line of a file without a final newline goes too.
  const last = lint('[runtime]\nenable_debug = true\nuse_vsock = true', { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(last), ['kata/unknown-option @ 3:1 warning'], 'use_vsock is a [hypervisor.*] key, unknown in [runtime]');
  const hv = '[hypervisor.qemu]\nenable_iommu = true\nuse_vsock = true';
  const hr = lint(hv, { window: '3.32', flavour: 'go' });
  assert.equal(applyEdits(hv, only(hr, 'kata/option-not-in-window').fixes[0].edits), '[hypervisor.qemu]\nenable_iommu = true\n');
  // Read by part of the window: no fix, the releases that ignore it are named.
  const part = lint('[runtime]\nemptydir_mode = "shared-fs"\n', { window: '3.27..3.28', flavour: 'go' });
  assert.deepEqual(findings(part), ['kata/option-not-in-window @ 2:1 warning']);
  assert.match(part.diagnostics[0].message, /3\.27\.0 ignores it \(read by Go runtime 3\.28\.0–today\)/);
  assert.deepEqual(part.diagnostics[0].fixes, []);
  // runtime-rs strict [agent.kata]: cdh_api_timeout is only in the runtime-rs templates (3.9.0–3.30.0), kata-types reads
  // cdh_api_timeout_ms (3.31.0+) and never cdh_api_timeout, so every strict release (3.29.0+) refuses it.
  const strict = lint('[agent.kata]\ncdh_api_timeout = 50\n', { window: '3.29..3.32', flavour: 'runtime-rs' });
  assert.deepEqual(findings(strict), ['kata/option-not-in-window @ 2:1 error']);
  assert.match(strict.diagnostics[0].message, /no release in the window 3\.29\.0\.\.3\.32\.0 reads cdh_api_timeout, and 3\.29\.0–3\.32\.0 refuse the file because of it \(only in runtime-rs templates\)/);
  // Only the templates of the release ship it (2.4.x put disable_selinux under [runtime]): info.
  assert.deepEqual(findings(lint('[runtime]\ndisable_selinux = false\n', { window: '2.4', flavour: 'go' })), ['kata/option-not-in-window @ 2:1 info']);
});

test('kata/renamed-option: hotplug_vfio_on_root_bus = true becomes hot_plug_vfio = "root-port" only when the whole window reads it', () => {
  const text = '[hypervisor.qemu]\nmachine_type = "q35"\nhotplug_vfio_on_root_bus = true\n';
  const r = lint(text, { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/renamed-option @ 3:1 warning']);
  const d = r.diagnostics[0];
  assert.match(d.message, /hotplug_vfio_on_root_bus was renamed to hot_plug_vfio in 3\.2\.0: 3\.2\.0–3\.32\.0 ignore hotplug_vfio_on_root_bus; hotplug_vfio_on_root_bus = true means hot_plug_vfio = "root-port"$/);
  assert.equal(d.fixes.length, 1);
  assert.equal(d.fixes[0].preferred, true);
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.equal(fixed, '[hypervisor.qemu]\nmachine_type = "q35"\nhot_plug_vfio = "root-port"\n');
  assert.deepEqual(findings(lint(fixed, { window: '3.2..3.32', flavour: 'go' })), []);
  // 3.1.x still reads the old key and not the new one: no fix, say why.
  const split = lint(text, { window: '3.1..3.32', flavour: 'go' });
  assert.deepEqual(findings(split), ['kata/renamed-option @ 3:1 warning']);
  assert.deepEqual(split.diagnostics[0].fixes, []);
  assert.match(split.diagnostics[0].message, /hot_plug_vfio is not read by every release of the window 3\.1\.0\.\.3\.32\.0, so keep both or split the upgrade/);
  // The mapping only says what `true` means: `false` is reported without a fix.
  const f = lint(text.replace('= true', '= false'), { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(f), ['kata/renamed-option @ 3:1 warning']);
  assert.deepEqual(f.diagnostics[0].fixes, []);
  // Entirely before the rename: nothing.
  assert.deepEqual(findings(lint(text, { window: '3.0..3.1', flavour: 'go' })), []);
});

test('kata/invalid-type: default_vcpus = 1.5 (and 1.0) is a float 3.2.0 cannot decode; fix to the integer above', () => {
  const text = '[hypervisor.qemu]\ndefault_vcpus = 1.5\ndefault_memory = 2048\n';
  const r = lint(text, { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/invalid-type @ 2:17 error']);
  const d = r.diagnostics[0];
  assert.deepEqual(d.range, { start: { line: 1, character: 16 }, end: { line: 1, character: 19 } });
  assert.match(d.message, /default_vcpus = 1\.5 is a float, but 3\.2\.0 decodes default_vcpus as an integer: the runtime fails to load this file there/);
  assert.deepEqual(d.data.failsIn, ['3.2.0']);
  assert.deepEqual(d.fixes.map((x) => x.title), ['Use 2 (an integer every release reads)']);
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.equal(fixed, text.replace('1.5', '2'));
  assert.deepEqual(findings(lint(fixed, { window: '3.2..3.32', flavour: 'go' })), []);
  // 1.0 is a TOML float too.
  const one = lint('[hypervisor.qemu]\ndefault_vcpus = 1.0\n', { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(one), ['kata/invalid-type @ 2:17 error']);
  assert.match(one.diagnostics[0].message, /default_vcpus = 1\.0 is a float/);
  assert.equal(one.diagnostics[0].fixes[0].edits[0].newText, '1');
  // From 3.3.0 the Go runtime reads a float.
  assert.deepEqual(findings(lint(text, { window: '3.3..3.32', flavour: 'go' })), []);
  // A string where a boolean is decoded; an array of the wrong items.
  const s = lint('[runtime]\nenable_debug = "true"\n', { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(s), ['kata/invalid-type @ 2:16 error']);
  assert.match(s.diagnostics[0].message, /enable_debug = "true" is a string, but 3\.32\.0 decodes enable_debug as a boolean/);
  assert.deepEqual(s.diagnostics[0].fixes, []);
  const a = lint('[hypervisor.qemu]\nenable_annotations = [1, 2]\n', { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(a), ['kata/invalid-type @ 2:22 error']);
  assert.match(a.diagnostics[0].message, /as an array of string/);
});

test('kata/invalid-value: shared_fs = "none" is fatal on 3.0.0–3.1.3; fixes to values every release of the window accepts', () => {
  const text = '[hypervisor.qemu]\nshared_fs = "none"\n';
  const r = lint(text, { window: '3.0..3.32', flavour: 'go' });
  assert.deepEqual(findings(r), ['kata/invalid-value @ 2:13 error']);
  const d = r.diagnostics[0];
  assert.deepEqual(d.range, { start: { line: 1, character: 12 }, end: { line: 1, character: 18 } });
  assert.match(d.message, /shared_fs = "none" is rejected by 3\.0\.0–3\.1\.3 \(the runtime refuses to start sandboxes\); every release in the window accepts: virtio-9p, virtio-fs, virtio-fs-nydus$/);
  assert.deepEqual(d.fixes.map((x) => x.title), ['Change to virtio-9p', 'Change to virtio-fs', 'Change to virtio-fs-nydus']);
  const fixed = applyEdits(text, d.fixes[1].edits);
  assert.equal(fixed, '[hypervisor.qemu]\nshared_fs = "virtio-fs"\n');
  assert.deepEqual(findings(lint(fixed, { window: '3.0..3.32', flavour: 'go' })), []);
  // From 3.2.0 "none" is accepted.
  assert.deepEqual(findings(lint(text, { window: '3.2..3.32', flavour: 'go' })), []);
  // A typo: the closest accepted value first; the quote style is kept.
  const typo = lint("[hypervisor.clh]\nshared_fs = 'virtio-fss'\n", { window: '3.2..3.32', flavour: 'go' });
  assert.deepEqual(findings(typo), ['kata/invalid-value @ 2:13 error']);
  assert.equal(typo.diagnostics[0].fixes[0].title, 'Change to virtio-fs');
  assert.equal(typo.diagnostics[0].fixes[0].edits[0].newText, "'virtio-fs'");
  // emptydir_mode = "block-plain" is new in 4.0.0 (go-runtime-corrections.md #1: config.go 4.0.0 :223).
  const ed = lint('[runtime]\nemptydir_mode = "block-plain"\n', { window: '3.32..4.0', flavour: 'go' });
  assert.deepEqual(findings(ed), ['kata/invalid-value @ 2:17 error']);
  assert.match(ed.diagnostics[0].message, /rejected by 3\.32\.0 /);
  assert.deepEqual(ed.diagnostics[0].fixes.map((x) => x.edits[0].newText), ['"shared-fs"', '"block-encrypted"']);
});

test('kata/drop-in-not-read: a config.d drop-in when the window holds Go releases older than 2.5.0', () => {
  const text = '[hypervisor.qemu]\ndefault_memory = 4096\n';
  const file = '/etc/kata-containers/config.d/10-memory.toml';
  const r = lint(text, { file, window: '2.4..2.5', flavour: 'go' });
  assert.equal(r.family, 'kata-config');
  assert.deepEqual(findings(r), ['kata/drop-in-not-read @ 1:2 warning']);
  assert.match(r.diagnostics[0].message, /drop-in files under config\.d are read from 2\.5\.0 on: 2\.4\.0–2\.4\.3 ignore this whole file/);
  assert.deepEqual(r.diagnostics[0].fixes ?? [], []);
  assert.deepEqual(findings(lint(text, { file, window: '2.5..3.32', flavour: 'go' })), []);
  // The same file as the main configuration is read by every release.
  assert.deepEqual(findings(lint(text, { file: '/etc/kata-containers/configuration.toml', window: '2.4..2.5', flavour: 'go' })), []);
  // A drop-in without a table header: at its first key.
  const keys = lint('# a drop-in\nfoo = 1\n', { file, window: '2.4', flavour: 'go' });
  assert.deepEqual(findings(keys).filter((x) => x.startsWith('kata/drop-in')), ['kata/drop-in-not-read @ 2:1 warning']);
});

// ---------------------------------------------------------------------------------------------
// 4. Recognition and flavour

test('flavour: --kata-flavour wins, then the file name, then runtime-rs-only tables; otherwise the Go runtime', () => {
  const qemu = '[hypervisor.qemu]\ndefault_memory = 2048\n';
  const flavourOf = (file, text = qemu, flavour) => {
    const r = lint(text, { file, window: '3.32', flavour });
    return `${r.kata.flavour} (${r.kata.flavourSource.kind})`;
  };
  assert.equal(flavourOf('/x/configuration-qemu.toml', qemu, 'runtime-rs'), 'runtime-rs (cli)');
  assert.equal(flavourOf('/x/configuration-dragonball.toml', qemu, 'go'), 'go (cli)');
  assert.equal(flavourOf('/x/configuration-dragonball.toml'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration-qemu-runtime-rs.toml'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration-clh-azure-runtime-rs.toml'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration-rs-fc.toml'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/opt/kata/share/defaults/kata-containers/runtime-rs/configuration.toml'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration.toml', '[hypervisor.cloud-hypervisor]\npath = "/usr/bin/cloud-hypervisor"\n'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration.toml', '[hypervisor.dragonball]\npath = "/usr/bin/dragonball"\n'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration.toml', '[hypervisor.openvmm]\npath = "/usr/bin/openvmm"\n'), 'runtime-rs (workspace)');
  assert.equal(flavourOf('/x/configuration-qemu.toml'), 'go (default)');
  assert.equal(flavourOf('/x/configuration.toml', '[hypervisor.clh]\npath = "/usr/bin/cloud-hypervisor"\n'), 'go (default)');
  // The flavour changes the verdict: [hypervisor.cloud-hypervisor] is runtime-rs only.
  const ch = '[hypervisor.cloud-hypervisor]\npath = "/usr/bin/cloud-hypervisor"\n';
  assert.deepEqual(findings(lint(ch, { file: '/x/configuration.toml', window: '3.29' })), []);
  assert.deepEqual(findings(lint(ch, { file: '/x/configuration.toml', window: '3.29', flavour: 'go' })), ['kata/unknown-section @ 1:2 error']);
});

test('recognition: configuration*.toml, config.d drop-ins, the "# skewguard: kata" modeline, files: globs; never Cargo.toml or pyproject.toml', () => {
  const bad = '[hypervisor.qemu]\ndefault_vcpus = 1.5\n';
  const familyOf = (file, text = bad, files) => lint(text, { file, window: '3.2', flavour: 'go', files }).family ?? null;
  assert.equal(familyOf('/etc/kata-containers/configuration.toml'), 'kata-config');
  assert.equal(familyOf('/etc/kata-containers/configuration-qemu-snp.toml'), 'kata-config');
  assert.equal(familyOf('/etc/kata-containers/config.d/50-site.toml'), 'kata-config');
  // Kata's tables make a Kata configuration whatever the name (#12 item 4; this was null when only names counted).
  assert.equal(familyOf('/srv/kata/host-a.toml'), 'kata-config');
  assert.equal(familyOf('/srv/kata/host-a.toml', '[server]\nport = 8080\n'), null);
  assert.equal(familyOf('/srv/kata/host-a.toml', `# skewguard: kata\n${bad}`), 'kata-config');
  assert.equal(familyOf('/srv/rust/Cargo.toml', `# skewguard: kata\n${bad}`), 'kata-config', 'the modeline wins on any .toml name');
  assert.equal(familyOf('/srv/kata/host-a.toml', bad, { 'host-*.toml': 'kata-config' }), 'kata-config');
  const modeline = lint(`# skewguard: kata\n${bad}`, { file: '/srv/kata/host-a.toml', window: '3.2', flavour: 'go' });
  assert.deepEqual(findings(modeline), ['kata/invalid-type @ 3:17 error']);
  for (const file of ['/srv/rust/Cargo.toml', '/srv/py/pyproject.toml', '/srv/x/netlify.toml']) {
    const text = file.endsWith('Cargo.toml')
      ? '[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }\n'
      : '[project]\nname = "demo"\n\n[tool.ruff]\nline-length = 100\n[hypervisor.qemu]\ndefault_vcpus = 1.5\n';
    const r = lint(text, { file, window: '3.2', flavour: 'go' });
    assert.equal(r.family, undefined, file);
    assert.deepEqual(r.diagnostics, [], file);
    assert.equal(r.kata, undefined, file);
  }
});

// ---------------------------------------------------------------------------------------------
// 5. Broken TOML: one parse error at the right place, never a crash

test('broken TOML gives exactly one syntax/parse-error where the problem is, and hover/completion still answer', () => {
  const cases = [
    // [name, text, 1-based line:col of the error, message]
    ['duplicate key', '[hypervisor.qemu]\ndefault_memory = 2048\ndefault_memory = 4096\n', '3:1', /Defining a key multiple times is invalid/],
    ['duplicate table', '[runtime]\nenable_debug = true\n[runtime]\n', '3:2', /Defining a key multiple times is invalid/],
    ['unterminated string', '[hypervisor.qemu]\npath = "/usr/bin/qemu\nkernel = "/k"\n', '2:22', /Unterminated string/],
    ['unterminated table header', '[runtime]\nenable_debug = true\n\n[hypervisor.qemu\npath = "/usr/bin/qemu"\n', '4:1', /unterminated table header \[hypervisor\.qemu: missing "\]"/],
    ['unterminated header at the end', '[runtime]\nenable_debug = true\n[agent.kata', '3:1', /unterminated table header \[agent\.kata/],
    ['unterminated array-of-tables header', '[[runtime\n', '1:1', /missing "\]\]"/],
    ['bad escape', '[hypervisor.qemu]\nkernel_params = "console=hvc0 \\q"\n', '2:32', /Invalid character in escape sequence/],
    ['bad value', '[runtime]\nenable_debug = yes\n', '2:16', /Unexpected character/],
    ['binary garbage', '\x7fELF\x02\x01\x01\xff\xfe\x03\x04garbage', '1:1', /Unexpected character/],
  ];
  for (const [name, text, pos, message] of cases) {
    const r = lint(text, { window: '3.2..3.32', flavour: 'go' });
    assert.equal(r.family, 'kata-config', name);
    assert.deepEqual(findings(r), [`syntax/parse-error @ ${pos} error`], name);
    assert.match(r.diagnostics[0].message, /^TOML syntax error: /, name);
    assert.match(r.diagnostics[0].message, message, name);
    assert.equal(r.kata, undefined, `${name}: no rule runs on a file that does not parse`);
    for (let line = 0; line < text.split('\n').length; line++) {
      assert.doesNotThrow(() => e.hover(r, text, { line, character: 1 }), name);
      assert.doesNotThrow(() => e.complete(r, text, { line, character: 1 }), name);
    }
  }
  // The unterminated header is reported on the header line, not on the key after it.
  const h = lint('[hypervisor.qemu\npath = "/usr/bin/qemu"\n', { window: '3.32', flavour: 'go' });
  assert.deepEqual(h.diagnostics[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 16 } });
  // A NUL byte: binary data is skipped as a whole (an info), not parsed.
  const nul = lint('\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', { window: '3.32', flavour: 'go' });
  assert.deepEqual(findings(nul), ['skewguard/skipped-file @ 1:1 info']);
  assert.match(nul.diagnostics[0].message, /binary data/);
});

// ---------------------------------------------------------------------------------------------
// 6. Hover and completion

const HOVER_DOC = '[hypervisor.qemu]\nhotplug_vfio_on_root_bus = true\nshared_fs = "virtio-fs"\ndefualt_memory = 1\n\n[proxy.kata]\npath = "/usr/libexec/kata-containers/kata-proxy"\n';

test('hover on a table header: the window line with ✓ and ✗ and the data note', () => {
  const r = lint(HOVER_DOC, { window: '3.1..3.32', flavour: 'go' });
  const qemu = e.hover(r, HOVER_DOC, { line: 0, character: 5 });
  assert.deepEqual(qemu.range, { start: { line: 0, character: 1 }, end: { line: 0, character: 16 } });
  assert.match(qemu.markdown, /^\*\*\[hypervisor\.qemu\]\*\* — Kata Containers Go runtime/);
  assert.match(qemu.markdown, /Window 3\.1\.0\.\.3\.32\.0 \(cli: command line\): ✓ read by 3\.1\.0–3\.32\.0\./);
  assert.doesNotMatch(qemu.markdown, /✗/);
  const proxy = e.hover(r, HOVER_DOC, { line: 5, character: 3 });
  assert.match(proxy.markdown, /\*\*\[proxy\.kata\]\*\*/);
  assert.match(proxy.markdown, /✗ ignored by 3\.1\.0–3\.32\.0\./);
  assert.doesNotMatch(proxy.markdown, /✓/);
  assert.match(proxy.markdown, /Note: Removed in 2\.0\.0/);
  // Between lines: nothing.
  assert.equal(e.hover(r, HOVER_DOC, { line: 4, character: 0 }), undefined);
});

test('hover on a key: documentation, type, values, default, releases, rename and the window line', () => {
  const r = lint(HOVER_DOC, { window: '3.1..3.32', flavour: 'go' });
  const h = e.hover(r, HOVER_DOC, { line: 1, character: 4 });
  assert.deepEqual(h.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 24 } });
  const md = h.markdown;
  assert.match(md, /^\*\*hotplug_vfio_on_root_bus\*\* in \[hypervisor\.qemu\] — Kata Containers Go runtime/);
  assert.match(md, /Enable hotplugging on root bus/, 'the documentation from the template');
  assert.match(md, /Type: boolean \(1\.3\.0–3\.1\.3\)\./);
  assert.match(md, /Default: `false`\./);
  assert.match(md, /Read by Go runtime 1\.3\.0–3\.1\.3\./);
  assert.match(md, /Renamed to `hot_plug_vfio` in 3\.2\.0/);
  assert.match(md, /Window 3\.1\.0\.\.3\.32\.0 \(cli: command line\): ✓ read by 3\.1\.0–3\.1\.3; ⚠ only in the templates of 3\.2\.0–3\.17\.0; ✗ ignored by 3\.18\.0–3\.32\.0\./);
  // On the value: the same key, the value's range.
  const v = e.hover(r, HOVER_DOC, { line: 2, character: 15 });
  assert.deepEqual(v.range, { start: { line: 2, character: 12 }, end: { line: 2, character: 23 } });
  assert.match(v.markdown, /^\*\*shared_fs\*\*/);
  assert.match(v.markdown, /Type: string \(1\.7\.0–today\)\./);
  assert.match(v.markdown, /`virtio-9p`, `virtio-fs`, `virtio-fs-nydus`, `none` \(3\.2\.0–today, others fatal\)/);
  assert.match(v.markdown, /✓ read by 3\.1\.0–3\.32\.0\./);
  // An unknown key says so.
  const u = e.hover(r, HOVER_DOC, { line: 3, character: 2 });
  assert.match(u.markdown, /No Go runtime release reads this key here\./);
});

/** Completion items for `text` with the cursor at the `|` (removed). */
function completeAt(textWithCursor, window = '3.2..3.32', flavour = 'go') {
  const i = textWithCursor.indexOf('|');
  const text = textWithCursor.slice(0, i) + textWithCursor.slice(i + 1);
  const before = text.slice(0, i).split('\n');
  const pos = { line: before.length - 1, character: before[before.length - 1].length };
  const r = lint(text, { window, flavour });
  return { items: e.complete(r, text, pos), text, offset: i };
}

test('completion at "[": the tables every release of the window reads', () => {
  const { items, offset } = completeAt('[runtime]\nenable_debug = true\n[|\n', '3.2..3.32');
  const labels = items.map((x) => x.label);
  assert.deepEqual(labels, ['agent.kata', 'factory', 'hypervisor.clh', 'hypervisor.dragonball', 'hypervisor.firecracker', 'hypervisor.qemu', 'runtime']);
  assert.ok(!labels.includes('hypervisor.acrn'), 'refused from 3.10.0');
  assert.ok(!labels.includes('image'), 'not read by every release');
  assert.ok(!labels.some((l) => l.includes('*')));
  assert.deepEqual(items[0].replace, { start: offset, end: offset });
  assert.equal(items[0].detail, 'read by every Go runtime release of 3.2.0..3.32.0');
  // Up to 3.9 acrn is valid; a partial name is replaced.
  const old = completeAt('[hyp|', '3.2..3.9');
  assert.ok(old.items.some((x) => x.label === 'hypervisor.acrn'));
  assert.deepEqual(old.items[0].replace, { start: 1, end: 4 });
  // runtime-rs 3.29..3.32: its own hypervisor names.
  const rs = completeAt('[|', '3.29..3.32', 'runtime-rs').items.map((x) => x.label);
  assert.ok(rs.includes('hypervisor.dragonball') && rs.includes('agent.kata.mem_agent'), rs.join(' '));
});

test('completion of keys: inside the table, read by the whole window, not already present (also while the file does not parse)', () => {
  const { items } = completeAt('[hypervisor.qemu]\nshared_fs = "virtio-fs"\n|\n[runtime]\n');
  const labels = items.map((x) => x.label);
  assert.ok(labels.includes('default_memory'));
  assert.ok(labels.includes('hot_plug_vfio'), 'read from 3.2.0');
  assert.ok(!labels.includes('shared_fs'), 'already present');
  assert.ok(!labels.includes('hotplug_vfio_on_root_bus'), 'not read from 3.2.0');
  assert.ok(!labels.includes('sandbox_cgroup_only'), 'a [runtime] key');
  assert.ok(!labels.includes('indep_iothreads'), 'read only from 3.24.0');
  const mem = items.find((x) => x.label === 'default_memory');
  assert.equal(mem.insertText, 'default_memory = ');
  assert.equal(mem.detail, 'integer');
  assert.ok(mem.documentation.length > 0);
  // The window decides: from 3.24 on, indep_iothreads is read everywhere.
  assert.ok(completeAt('[hypervisor.qemu]\n|\n', '3.24..3.32').items.some((x) => x.label === 'indep_iothreads'));
  // A half-typed key makes the file unparsable; keys already in the table are still left out.
  const typing = completeAt('[runtime]\nenable_debug = true\nena|\n[agent.kata]\nenable_tracing = true\n');
  const t = typing.items.map((x) => x.label);
  assert.ok(t.includes('enable_tracing'), 'present in another table only');
  assert.ok(t.includes('enable_pprof'));
  assert.ok(!t.includes('enable_debug'), 'already present in [runtime]');
  const item = typing.items.find((x) => x.label === 'enable_pprof');
  const lineStart = typing.text.lastIndexOf('\n', typing.offset - 1) + 1;
  assert.deepEqual(item.replace, { start: lineStart, end: typing.offset });
});

test('completion of values after shared_fs = ": the values every release of the window accepts', () => {
  const labels = (t, w) => completeAt(t, w).items.map((x) => x.label);
  assert.deepEqual(labels('[hypervisor.qemu]\nshared_fs = "|\n', '3.2..3.32'), ['virtio-9p', 'virtio-fs', 'virtio-fs-nydus', 'none']);
  assert.deepEqual(labels('[hypervisor.qemu]\nshared_fs = "|\n', '3.0..3.32'), ['virtio-9p', 'virtio-fs', 'virtio-fs-nydus'], '"none" is fatal on 3.0.0–3.1.3');
  assert.deepEqual(labels('[hypervisor.qemu]\nshared_fs = "|\n', '2.3..2.4'), ['virtio-9p', 'virtio-fs'], 'virtio-fs-nydus from 2.4.0');
  // Inside quotes the bare value is inserted; without a quote, a quoted one.
  const q = completeAt('[hypervisor.qemu]\nshared_fs = "virt|"\n');
  assert.equal(q.items[0].insertText, 'virtio-9p');
  assert.deepEqual(q.items[0].replace, { start: q.offset - 4, end: q.offset });
  const bare = completeAt('[hypervisor.qemu]\nshared_fs = |\n');
  assert.equal(bare.items[0].insertText, '"virtio-9p"');
  // A key without enumerated values offers nothing.
  assert.deepEqual(labels('[hypervisor.qemu]\npath = "|\n', '3.2..3.32'), []);
});

const fixesOf = (d) => (typeof d.fixes === 'function' ? d.fixes() : d.fixes ?? []).map((f) => f.title);

test('#27 kata/invalid-value: the first fix fits the table\'s architecture (virtio-blk-pci on x86 QEMU → virtio-blk, never the s390x-only virtio-blk-ccw first)', () => {
  const x86 = lint('[hypervisor.qemu]\nblock_device_driver = "virtio-blk-pci"\n', { window: '3.2..3.32' }).diagnostics.find((d) => d.ruleId === 'kata/invalid-value');
  const t = fixesOf(x86);
  assert.equal(t[0], 'Change to virtio-blk');
  for (const [i, x] of t.entries()) if (/ccw/.test(x)) assert.ok(i === t.length - 1 || t.slice(i).every((y) => /ccw/.test(y)), `ccw after every value that fits: ${t}`);
  for (const x of t.filter((y) => /ccw/.test(y))) assert.match(x, /\(s390x only\)$/);
  // A misspelling nearest to the CCW value still gets a value x86 can use first.
  const near = lint('[hypervisor.qemu]\nmachine_type = "q35"\nblock_device_driver = "virtio-blk-cc"\n', { window: '3.2..3.32' }).diagnostics.find((d) => d.ruleId === 'kata/invalid-value');
  assert.doesNotMatch(fixesOf(near)[0], /ccw/);
  // On s390x the CCW transport fits and comes right after the value without the transport.
  const s390 = lint('[hypervisor.qemu]\nmachine_type = "s390-ccw-virtio"\nblock_device_driver = "virtio-blk-pci"\n', { window: '3.2..3.32' }).diagnostics.find((d) => d.ruleId === 'kata/invalid-value');
  assert.deepEqual(fixesOf(s390).slice(0, 2), ['Change to virtio-blk', 'Change to virtio-blk-ccw']);
});

test('#27 a runtime-rs configuration checked as Go by default says so: the hint to set kata.flavour, not only confident errors', () => {
  const HINT = /the file names no flavour and is checked as the Go runtime's, but runtime-rs (accepts|reads) .*set kata\.flavour: runtime-rs/;
  const text = '[hypervisor.qemu]\nblock_device_driver = "virtio-blk-pci"\ndefault_gpus = 1\n';
  const byDefault = lint(text, { window: '3.2..3.32' }).diagnostics;
  const v = byDefault.find((d) => d.ruleId === 'kata/invalid-value'), k = byDefault.find((d) => d.ruleId === 'kata/unknown-option');
  assert.match(v.message, HINT);
  assert.match(k.message, HINT);
  assert.equal(v.data.flavourHint, 'runtime-rs');
  // Said Go: no hint (the user chose); said runtime-rs: no error at all for these.
  for (const d of lint(text, { window: '3.2..3.32', flavour: 'go' }).diagnostics) assert.doesNotMatch(d.message, HINT);
  const rs = lint(text, { window: '3.2..3.32', flavour: 'runtime-rs' }).diagnostics.filter((d) => d.ruleId === 'kata/invalid-value' || d.ruleId === 'kata/unknown-option');
  assert.deepEqual(rs.map((d) => d.message), []);
  // A value some Go release accepts is a matter of the window, not of the flavour: no hint.
  const none = lint('[hypervisor.qemu]\nshared_fs = "none"\n', { window: '3.0..3.32' }).diagnostics.find((d) => d.ruleId === 'kata/invalid-value');
  assert.doesNotMatch(none.message, HINT);
});

test('[[hypervisor.<name>.guest_extension_images]] under the Go runtime: read from 4.0.0 ([]guestExtensionImage), its keys not checked, never unknown', () => {
  const text = '[hypervisor.qemu]\npath = "/usr/bin/qemu"\n\n[[hypervisor.qemu.guest_extension_images]]\nname = "a"\npath = "/img"\nnmae = "typo?"\n';
  const go = lint(text, { window: '4.0..4.1', flavour: 'go' }).diagnostics;
  assert.deepEqual(go.filter((d) => d.severity !== 'info').map(at), []);
  const infos = go.filter((d) => d.ruleId === 'kata/unknown-option');
  assert.deepEqual(infos.map((d) => d.data.key), ['name', 'path', 'nmae']);
  for (const d of infos) {
    assert.equal(d.severity, 'info');
    assert.match(d.message, /^not checked: \w+ in \[hypervisor\.qemu\.guest_extension_images\]: Go runtime 4\.0\.0–4\.1\.0 read this table into a \[\]guestExtensionImage/);
    assert.doesNotMatch(d.message, /unknown|ignored/);
  }
  // 3.x does not read the table at all: said once, at the header, naming only those releases.
  const wide = lint(text, { window: '3.2..4.1', flavour: 'go' }).diagnostics;
  assert.deepEqual(wide.filter((d) => d.severity !== 'info').map(at), ['kata/section-not-in-window @ 4:3 warning']);
  assert.match(wide[0].message, /: 3\.2\.0–3\.32\.0 ignore it and every setting in it$/);
  // runtime-rs lists the struct's fields: nmae is unknown there, name and path are not.
  const rs = lint(text, { window: '4.0..4.1', flavour: 'runtime-rs' }).diagnostics.filter((d) => d.ruleId === 'kata/unknown-option');
  assert.deepEqual(rs.map((d) => [d.data.key, d.severity]), [['nmae', 'warning']]);
  // Hover on a key says the same, not "no release reads this key".
  const h = e.hover(lint(text, { window: '4.0..4.1', flavour: 'go' }), text, { line: 4, character: 1 });
  assert.match(h.markdown, /Go runtime 4\.0\.0–today reads this table into a \[\]guestExtensionImage, but the key data does not list its keys: this key is not checked\./);
  assert.doesNotMatch(h.markdown, /No Go runtime release reads this key/);
  // A window switching Go 4.0.0 → runtime-rs 4.1.x: the Go side is not claimed to ignore name or path.
  const sw = lint(text, { window: '4.0 (go)..4.1 (runtime-rs)' }).diagnostics.filter((d) => d.ruleId === 'kata/flavour-switch');
  assert.deepEqual(sw.map((d) => d.message).filter((m) => /\b(name|path)\b/.test(m) || /guest_extension_images/.test(m)), []);
});
