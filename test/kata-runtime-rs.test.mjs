// runtime-rs facts read from kata-types' source (shared/reference/kata/runtime-rs-config-keys.json, kata-containers
// tags 3.0.0 … 4.1.0), one test per fact of issue 17 "Why", and the Go-runtime corrections
// (shared/reference/kata/go-runtime-corrections.md). Each test fails on the data imported from template presence.
// Uses the built dist/engine.js; run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8'));
const row = (s, k) => data.options.find((o) => o.section === s && o.key === k);
const rs = (s, k) => row(s, k)?.flavours['runtime-rs'];
const namesAt = (r) => data.hypervisorNames.find((h) => h.flavour === 'runtime-rs' && data.releases.indexOf(r) >= data.releases.indexOf(h.from) && (h.to === null || data.releases.indexOf(r) <= data.releases.indexOf(h.to)));

function lint(text, { file = '/etc/kata-containers/configuration.toml', window, flavour = 'runtime-rs' } = {}) {
  const cli = { kataFlavour: flavour };
  if (window) cli.kataWindow = window;
  return e.analyze({ path: file, text, config: e.resolveConfig({ cli }) }).diagnostics;
}
const of = (ds, id) => ds.filter((d) => d.ruleId === id);

test('runtime-rs 3.0 reads only dial_timeout_ms (kata-types agent.rs:51 at 3.0.0), never dial_timeout', () => {
  assert.deepEqual(rs('agent.kata', 'dial_timeout_ms'), { first: '3.0.0', last: null });
  assert.equal(rs('agent.kata', 'dial_timeout'), undefined);
  const ds = lint('[agent.kata]\ndial_timeout = 10\n', { window: '3.0.0' });
  assert.ok(ds.some((d) => /dial_timeout/.test(d.message)), JSON.stringify(ds));
  assert.deepEqual(of(lint('[agent.kata]\ndial_timeout_ms = 10\n', { window: '3.0.0' }), 'kata/option-not-in-window'), []);
});

test('runtime-rs registers qemu from 3.1.0 (virt_container/src/lib.rs)', () => {
  assert.deepEqual(namesAt('3.0.2').names, ['dragonball']);
  assert.ok(namesAt('3.1.0').names.includes('qemu'));
});

test('cloud-hypervisor: optional build feature in 3.2.0, default build from 3.3.0, named clh from 3.30.0', () => {
  assert.ok(!namesAt('3.2.0').names.includes('cloud-hypervisor'));
  assert.match(namesAt('3.2.0').note, /cloud-hypervisor \(cloud-hypervisor\)/);
  assert.ok(namesAt('3.3.0').names.includes('cloud-hypervisor'));
  assert.ok(namesAt('3.29.0').names.includes('cloud-hypervisor') && !namesAt('3.29.0').names.includes('clh'));
  assert.ok(namesAt('3.30.0').names.includes('clh') && !namesAt('3.30.0').names.includes('cloud-hypervisor'));
});

test('an unknown [hypervisor.X] is fatal under runtime-rs ("Can not find plugin for hypervisor"), selected or not', () => {
  assert.equal(data.fatal.unknownHypervisorSection['runtime-rs'], '3.0.0');
  assert.ok(data.hypervisorNames.filter((h) => h.flavour === 'runtime-rs').every((h) => h.unknownIsFatal === true));
  const ds = of(lint('[runtime]\nhypervisor_name = "qemu"\n[hypervisor.qemu]\npath = "/q"\n[hypervisor.qemu-lite]\npath = "/x"\n', { window: '4.1.0' }), 'kata/unknown-section');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].severity, 'error');
  assert.match(ds[0].message, /Can not find plugin for hypervisor/);
});

test('[hypervisor.qemu] under runtime-rs 3.0 is fatal, not ignored', () => {
  const ds = of(lint('[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\n', { window: '3.0.0..3.1.0' }), 'kata/section-not-in-window');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].severity, 'error');
  assert.deepEqual(ds[0].data.fatalIn, ['3.0.0', '3.0.1', '3.0.2']);
  assert.deepEqual(ds[0].data.ignoredIn, []);
});

test('default_vcpus is an integer until 3.19.x and a float from 3.20.0: 0.5 under 3.10 fails to load', () => {
  const t = row('hypervisor.*', 'default_vcpus').types.filter((x) => x.flavour === 'runtime-rs').map((x) => [x.type, x.from, x.to]);
  assert.deepEqual(t, [['integer', '3.0.0', '3.19.1'], ['number', '3.20.0', null]]);
  const ds = of(lint('[hypervisor.dragonball]\ndefault_vcpus = 0.5\n', { window: '3.10.0' }), 'kata/invalid-type');
  assert.equal(ds.length, 1, JSON.stringify(ds));
  assert.equal(of(lint('[hypervisor.dragonball]\ndefault_vcpus = 0.5\n', { window: '3.20.0' }), 'kata/invalid-type').length, 0);
});

test('hot_plug_vfio is never a kata-types field; cold_plug_vfio is one from 3.31.0', () => {
  assert.equal(rs('hypervisor.*', 'hot_plug_vfio'), undefined);
  assert.equal(rs('hypervisor.qemu', 'hot_plug_vfio'), undefined);
  assert.deepEqual(rs('hypervisor.*', 'cold_plug_vfio'), { first: '3.31.0', last: null });
  assert.equal(rs('hypervisor.qemu', 'cold_plug_vfio'), undefined);
});

test('ctlpath, valid_ctlpaths, jailer_path, valid_jailer_paths are read by runtime-rs 3.0–4.1', () => {
  for (const k of ['ctlpath', 'valid_ctlpaths', 'jailer_path', 'valid_jailer_paths']) assert.deepEqual(rs('hypervisor.*', k), { first: '3.0.0', last: null }, k);
  assert.deepEqual(of(lint('[hypervisor.dragonball]\njailer_path = "/usr/bin/jailer"\n', { window: '3.0.0..4.1.0' }), 'kata/option-not-in-window'), []);
});

test('runtime-rs reads config.d drop-ins from 3.0.0 (kata-types drop_in.rs)', () => {
  assert.equal(data.dropIns['runtime-rs'].from, '3.0.0');
  assert.equal(data.dropIns['runtime-rs'].dir, 'config.d');
});

test('from 3.29.0 unknown keys are fatal in agent, mem_agent, factory, rootless_user, shared_mounts; not in hypervisor, runtime, top level', () => {
  const d = data.fatal.denyUnknownFields['runtime-rs'];
  assert.equal(d.from, '3.29.0');
  assert.deepEqual(d.schemaTables, ['agent.kata', 'agent.kata.mem_agent', 'hypervisor.*.factory', 'hypervisor.*.rootless_user', 'runtime.shared_mounts']);
  // a Go-style dial_timeout in [agent.<name>] is then a hard error
  const strict = lint('[agent.agent0]\ndial_timeout = 10\n', { window: '3.29.0' }).filter((d) => d.range.start.line === 1);
  assert.ok(strict.length >= 1 && strict.every((d) => d.severity === 'error'), JSON.stringify(strict));
  const factory = of(lint('[hypervisor.qemu.factory]\nenable_templatee = true\n', { window: '3.29.0' }), 'kata/unknown-option');
  assert.equal(factory.length, 1);
  assert.equal(factory[0].severity, 'error');
  const hv = of(lint('[hypervisor.qemu]\nenable_templatee = true\n', { window: '3.29.0' }), 'kata/unknown-option');
  assert.ok(hv.every((x) => x.severity !== 'error'));
});

test('container_pipe_size is required in runtime-rs 3.0.0–3.1.3 (no serde default)', () => {
  assert.deepEqual(row('agent.kata', 'container_pipe_size').required.map((x) => [x.from, x.to]), [['3.0.0', '3.1.3']]);
});

test('kata/missing-field: the shipped 3.0.0 [agent.kata] sets container_pipe_size; without it 3.0.0–3.1.3 fail to load', () => {
  const shipped = fs.readFileSync(path.join(repoRoot, 'test/fixtures/kata/config-rendered/3.0.0/runtime-rs/configuration-dragonball.toml'), 'utf8');
  assert.match(shipped, /^\[agent\.kata\]\ncontainer_pipe_size=/m);
  const file = '/etc/kata-containers/runtime-rs/configuration-dragonball.toml';
  assert.deepEqual(of(lint(shipped, { file, window: '3.0..3.2' }), 'kata/missing-field'), []);
  const without = shipped.replace(/^container_pipe_size=.*\n/m, '');
  const ds = of(lint(without, { file, window: '3.0..3.2' }), 'kata/missing-field');
  assert.equal(ds.length, 1, JSON.stringify(ds));
  assert.equal(ds[0].severity, 'error');
  assert.deepEqual(ds[0].data.requiredIn, ['3.0.0', '3.0.1', '3.0.2', '3.1.0', '3.1.1', '3.1.2', '3.1.3']);
  assert.match(ds[0].message, /missing field `container_pipe_size`/);
  assert.equal(without.split('\n')[ds[0].range.start.line], '[agent.kata]');
  // From 3.2.0 the field has a serde default; the Go runtime's decoder requires no field at all.
  assert.deepEqual(of(lint(without, { file, window: '3.2..3.32' }), 'kata/missing-field'), []);
  assert.deepEqual(of(lint('[agent.kata]\nenable_debug = true\n', { window: '3.0..3.1', flavour: 'go' }), 'kata/missing-field'), []);
});

test('kata/missing-field: every [[guest_extension_images]] entry needs name from runtime-rs 4.0.0; the shipped 4.1.0 templates set it', () => {
  assert.deepEqual(row('hypervisor.*.guest_extension_images', 'name').required.map((x) => [x.from, x.to]), [['4.0.0', null]]);
  const dir = path.join(repoRoot, 'test/fixtures/kata/config-rendered/4.1.0/runtime-rs');
  const withImages = fs.readdirSync(dir).filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('[[hypervisor.qemu.guest_extension_images]]'));
  assert.ok(withImages.length >= 5, withImages.join());
  for (const f of withImages) {
    assert.deepEqual(of(lint(fs.readFileSync(path.join(dir, f), 'utf8'), { file: `/opt/kata/share/defaults/kata-containers/runtime-rs/${f}`, window: '4.0..4.1' }), 'kata/missing-field'), [], f);
  }
  const text = '[hypervisor.qemu]\npath = "/x"\n[[hypervisor.qemu.guest_extension_images]]\npath = "/img"\n';
  const ds = of(lint(text, { window: '4.0..4.1' }), 'kata/missing-field');
  assert.equal(ds.length, 1, JSON.stringify(ds));
  assert.deepEqual([ds[0].range.start.line, ds[0].data.field, ds[0].data.requiredIn], [2, 'name', ['4.0.0', '4.1.0']]);
  assert.deepEqual(of(lint(text.replace('path = "/img"', 'name = "coco"\npath = "/img"'), { window: '4.0..4.1' }), 'kata/missing-field'), []);
});

test('runtime-rs 3.0.x never runs validate() at load: validate()-phase allow-lists start at 3.1.0', () => {
  assert.equal(data.fatal.validateAtLoad['runtime-rs'], '3.1.0');
  const v = row('hypervisor.*', 'block_device_driver').values.filter((x) => x.flavour === 'runtime-rs');
  assert.equal(v[0].from, '3.1.0');
  assert.equal(of(lint('[hypervisor.dragonball]\nblock_device_driver = "virtio-blk-x"\n', { window: '3.0.0' }), 'kata/invalid-value').length, 0);
  assert.equal(of(lint('[hypervisor.dragonball]\nblock_device_driver = "virtio-blk-x"\n', { window: '3.1.0' }), 'kata/invalid-value').length, 1);
});

test('[agent.<name>] tables are valid for both runtimes: no "unknown table [agent.agent0]"', () => {
  for (const flavour of ['go', 'runtime-rs']) {
    const ds = lint('[agent.agent0]\nenable_debug = true\n', { window: '3.20.0', flavour });
    assert.deepEqual(of(ds, 'kata/unknown-section'), [], flavour);
    assert.deepEqual(of(ds, 'kata/unknown-option'), [], flavour);
  }
});

// Go runtime corrections (go-runtime-corrections.md)

test('Go: emptydir_mode = "block-plain" is accepted from 4.0.0 (config.go 4.0.0 :223)', () => {
  assert.equal(of(lint('[runtime]\nemptydir_mode = "block-plain"\n', { window: '4.0.0', flavour: 'go' }), 'kata/invalid-value').length, 0);
  assert.equal(of(lint('[runtime]\nemptydir_mode = "block-plain"\n', { window: '3.32.0', flavour: 'go' }), 'kata/invalid-value').length, 1);
});

test('Go: shared_fs is validated only for qemu, clh and stratovirt (firecracker and dragonball ignore it)', () => {
  assert.equal(of(lint('[hypervisor.firecracker]\nshared_fs = "virtio-foo"\n', { window: '3.32.0', flavour: 'go' }), 'kata/invalid-value').length, 0);
  assert.equal(of(lint('[hypervisor.qemu]\nshared_fs = "virtio-foo"\n', { window: '3.32.0', flavour: 'go' }), 'kata/invalid-value').length, 1);
});

test('Go: checkPCIeConfig — both hot_plug_vfio and cold_plug_vfio set is an error for QEMU/CLH on any machine type, a warning elsewhere', () => {
  const c = data.fatal.conditional.find((x) => x.id === 'go-pcie-hot-and-cold-plug');
  assert.deepEqual(c.outcomes.map((o) => [o.hypervisors, o.machineTypes, o.severity]), [[['qemu', 'clh'], null, 'error'], [null, null, 'warning']]);
  const both = (table, extra = '') => `[${table}]\n${extra}hot_plug_vfio = "root-port"\ncold_plug_vfio = "root-port"\n`;
  const sev = (text) => lint(text, { window: '3.32.0', flavour: 'go' }).filter((d) => d.data?.check === 'go-pcie-hot-and-cold-plug').map((d) => d.severity);
  assert.deepEqual(sev(both('hypervisor.qemu')), ['error']);
  assert.deepEqual(sev(both('hypervisor.qemu', 'machine_type = "s390-ccw-virtio"\n')), ['error'], 'before the machine-type check');
  assert.deepEqual(sev(both('hypervisor.clh')), ['error']);
  assert.deepEqual(sev(both('hypervisor.firecracker')), ['warning']);
  // no-port does not count as set
  assert.deepEqual(sev('[hypervisor.qemu]\nhot_plug_vfio = "no-port"\ncold_plug_vfio = "root-port"\n'), []);
});

test('Go: a port value is checked only for QEMU/CLH with machine_type q35/virt (CLH: no-port or root-port only)', () => {
  const iv = (text) => of(lint(text, { window: '3.32.0', flavour: 'go' }), 'kata/invalid-value').filter((d) => d.data?.key === 'cold_plug_vfio');
  assert.equal(iv('[hypervisor.qemu]\ncold_plug_vfio = "pcie-port"\n').length, 1, 'q35 by default');
  assert.equal(iv('[hypervisor.qemu]\nmachine_type = "pseries"\ncold_plug_vfio = "pcie-port"\n').length, 0, 'other machine types accept any port');
  assert.equal(iv('[hypervisor.firecracker]\ncold_plug_vfio = "pcie-port"\n').length, 0, 'other hypervisors: no check');
  assert.equal(iv('[hypervisor.clh]\ncold_plug_vfio = "switch-port"\n').length, 1, 'CLH q35: root-port or no-port');
  assert.equal(iv('[hypervisor.qemu]\ncold_plug_vfio = "switch-port"\n').length, 0);
});

// Start of issue 17 item 2: the migration guide's mappings as data, each key checked against the rows at 4.1.0.
test('migration guide: all 60 mappings imported, each key checked against both parsers at 4.1.0, the guide\'s errors kept', () => {
  const m = data.migration;
  assert.equal(m.source.tag, '4.1.0');
  assert.equal(m.mappings.length, 60);
  const by = (go) => m.mappings.find((x) => x.go === go);
  // renames, units, types: the Go spelling is read only by Go, the runtime-rs spelling only by runtime-rs
  for (const [go, rs] of [['hypervisor.qemu.seccompsandbox', 'hypervisor.qemu.seccomp_sandbox'], ['agent.kata.dial_timeout', 'agent.kata.dial_timeout_ms'], ['hypervisor.qemu.hypervisor_loglevel', 'hypervisor.qemu.log_level'], ['runtime.guest_selinux_label', 'hypervisor.qemu.selinux_label']]) {
    assert.deepEqual(by(go).readAt4_1_0[go], { go: true, runtimeRs: false }, go);
    assert.deepEqual(by(go).readAt4_1_0[rs], { go: false, runtimeRs: true }, rs);
  }
  // moved table: [factory] (Go) → [hypervisor.<name>.factory] (runtime-rs)
  const f = by('factory').readAt4_1_0;
  assert.deepEqual(f.factory, { table: true, go: true, runtimeRs: false });
  assert.deepEqual(f['hypervisor.qemu.factory'], { table: true, go: false, runtimeRs: true });
  // the guide maps hot_plug_vfio to a key runtime-rs 4.x no longer reads, and omits two Go block_device_driver values
  const hv = by('hypervisor.qemu.hot_plug_vfio');
  assert.deepEqual(hv.readAt4_1_0['hypervisor.qemu.hotplug_vfio_on_root_bus'], { go: false, runtimeRs: false });
  assert.match(hv.guideErrors[0], /removed/);
  assert.deepEqual(by('hypervisor.qemu.block_device_driver').goValuesInCode.values, ['virtio-scsi', 'virtio-blk', 'virtio-mmio', 'nvdimm', 'virtio-blk-ccw']);
  // keys runtime-rs ignores (dropped or not yet implemented) are read by Go only
  for (const x of m.mappings.filter((y) => y.change === 'ignored')) assert.deepEqual(x.readAt4_1_0[x.go], { go: true, runtimeRs: false }, x.go);
});

test('rustTypes carry the kata-types integer widths (u8 mem_agent knobs, u32 default_memory) and invalid-type checks them', () => {
  assert.deepEqual(row('agent.kata.mem_agent', 'memcg_swappiness_max').rustTypes, [{ rustType: 'u8', from: '3.13.0', to: null }]);
  assert.deepEqual(row('agent.kata.mem_agent', 'compact_order').rustTypes, [{ rustType: 'u8', from: '3.13.0', to: null }]);
  assert.deepEqual(row('hypervisor.*', 'default_memory').rustTypes.map((t) => t.rustType), ['u32']);
  const it = (text, window) => of(lint(text, { window }), 'kata/invalid-type');
  const ds = it('[agent.kata.mem_agent]\nmemcg_swappiness_max = 300\ncompact_order = -1\n', '3.13..3.32');
  assert.deepEqual(ds.map((d) => [d.data.key, d.data.expected[0], d.severity]), [['memcg_swappiness_max', 'u8', 'error'], ['compact_order', 'u8', 'error']]);
  assert.deepEqual(ds[0].data.failsIn.at(-1), '3.32.0');
  assert.deepEqual(it('[agent.kata.mem_agent]\nmemcg_swappiness_max = 255\ncompact_order = 0\n', '3.13..3.32'), []);
  // u64 rejects a negative value under serde; the Go runtime's uint64 would wrap it instead (BurntSushi/toml)
  assert.equal(it('[hypervisor.qemu]\nmemory_offset = -1\n', '4.1').length, 1);
  assert.deepEqual(of(lint('[hypervisor.qemu]\nmemory_offset = -1\n', { window: '4.1', flavour: 'go' }), 'kata/invalid-type'), []);
  // hex, octal, binary and underscores are read exactly
  assert.equal(it('[agent.kata.mem_agent]\ncompact_order = 0x1_00\n', '3.32').length, 1);
  assert.deepEqual(it('[agent.kata.mem_agent]\ncompact_order = 0b1111_1111\n', '3.32'), []);
});
