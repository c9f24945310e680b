// #17 items 2, 3, 5: a Kata window whose releases carry their flavour ("3.20 (go)..4.1 (runtime-rs)"), the file checked
// against both dialects (kata/flavour-switch), every line of the upstream migration guide as a case, persist.json across
// the switch, and the containerd runtime entry → configuration file chain. Expected findings are justified next to each
// case by the upstream fact (the guide line, or runtime-rs-config-keys.json at the tag). Uses dist/engine.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, applyEdits } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8'));
const mappings = data.migration.mappings;
// The runtime-rs key table read from kata-types at each tag (shared reference, independent of data/kata/config.json).
const rsKeys = JSON.parse(fs.readFileSync('/work/shared/reference/kata/runtime-rs-config-keys.json', 'utf8'));
const rsReads = (tag, guidePath) => {
  const p = guidePath.replace(/^hypervisor\.qemu\./, 'hypervisor.<name>.').replace(/^agent\.kata\./, 'agent.<name>.');
  return rsKeys.tags[tag].keys.some((k) => k.path === p || (k.aliases ?? []).some((a) => p === k.path.replace(/[^.]+$/, a)));
};

const WIDE = '3.20 (go)..4.1 (runtime-rs)';
const NARROW = '3.20 (go)..3.28 (runtime-rs)';
function lint(text, window = WIDE, file = '/etc/kata-containers/configuration-qemu.toml') {
  return e.analyze({ path: file, text, config: e.resolveConfig({ cli: { kataWindow: window } }) });
}
// Every file under a crossing window gets kata/sandbox-takeover's info once (item 3, tested below); the rest is what a
// case says.
const rest = (r) => r.diagnostics.filter((d) => d.ruleId !== 'kata/sandbox-takeover');
const sw = (r) => r.diagnostics.filter((d) => d.ruleId === 'kata/flavour-switch');
const lineOf = (d) => d.range.start.line + 1;
const qemu = (...lines) => ['[hypervisor.qemu]', 'path = "/usr/bin/qemu-system-x86_64"', ...lines].join('\n') + '\n';
const table = (name, ...lines) => qemu('', `[${name}]`, ...lines);

// ---------------------------------------------------------------------------------------------
// Item 2: the window's shape

test('kata.window accepts releases with their flavour, and says clearly what is wrong', () => {
  const ok = ['3.20 (go)..4.1 (runtime-rs)', '3.20(go)..4.1(runtime-rs)', ' 4.1 (runtime-rs) ', '3.2..3.32', '4.0.0 (runtime-rs)..4.1 (go)'];
  for (const w of ok) assert.equal(e.checkCliOverrides({ kataWindow: w }).length, 0, w);
  const bad = {
    '3.20 (rust)..4.1 (runtime-rs)': /unknown flavour "rust" after 3\.20; a release's flavour is go \(the Go runtime\) or runtime-rs/,
    '3.20..4.1 (runtime-rs)': /give a flavour to both ends or to neither \(e\.g\. "3\.20 \(runtime-rs\)\.\.4\.1 \(runtime-rs\)"\)/,
    '2.5 (runtime-rs)..4.1 (runtime-rs)': /runtime-rs has no release 2\.5 \(it exists from 3\.0\.0\)/,
    '4.1 (go)..3.20 (runtime-rs)': /the start 4\.1 is newer than the end 3\.20/,
    '3.20 (go)..4.1 (runtime-rs)..4.2': /more than one "\.\."/,
    '3.20 go..4.1': /is not a release or range/,
  };
  for (const [w, re] of Object.entries(bad)) {
    const p = e.checkCliOverrides({ kataWindow: w });
    assert.equal(p.length, 1, w);
    assert.match(p[0], re, w);
  }
  // .skewguard.yaml: the problem at the value, and the rest of the file applies.
  const text = 'kata:\n  window: "3.20 (golang)..4.1 (runtime-rs)"\n';
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  assert.equal(loaded.problems.length, 1);
  assert.match(loaded.problems[0].message, /unknown flavour "golang"/);
  assert.equal(text.slice(loaded.problems[0].range.start, loaded.problems[0].range.end), '"3.20 (golang)..4.1 (runtime-rs)"');
  const good = e.parseConfig('/w/.skewguard.yaml', `kata:\n  window: "${WIDE}"\n`, e.ruleIds);
  assert.deepEqual(good.problems, []);
  const resolved = e.resolveConfig({ config: good });
  assert.deepEqual(resolved.kata.window, { from: '3.20', to: '4.1', fromFlavour: 'go', toFlavour: 'runtime-rs' });
  assert.equal(e.describeResolved(resolved).kata.window, WIDE);
  // One flavour at both ends sets the flavour (over kata.flavour).
  const one = e.resolveConfig({ cli: { kataWindow: '4.1 (runtime-rs)', kataFlavour: 'go' } });
  assert.equal(one.kata.flavour, 'runtime-rs');
});

test('a crossing window checks the Go side at 3.20.0…4.0.0 and runtime-rs at 4.1.x; facts say both', () => {
  const r = lint(qemu());
  assert.equal(r.kataCrossing.first.flavour, 'go');
  assert.deepEqual(r.kataCrossing.second.window, ['4.1.0']);
  const goSide = r.kataCrossing.first.window;
  assert.ok(goSide.includes('3.20.0') && goSide.includes('4.0.0') && !goSide.includes('4.1.0'), goSide.join(','));
  const facts = e.familyById('kata-config').facts(r);
  assert.equal(facts.kataFlavour, 'go → runtime-rs');
  assert.equal(facts.kataWindow, '3.20.0 (go)..4.1.0 (runtime-rs)');
  // Without flavours the window is what it was: one flavour, every release.
  const plain = e.analyze({ path: '/etc/kata-containers/configuration-qemu.toml', text: qemu(), config: e.resolveConfig({ cli: { kataWindow: '3.20..4.1' } }) });
  assert.equal(plain.kataCrossing, undefined);
  assert.ok(plain.kata.window.includes('4.1.0'));
});

// ---------------------------------------------------------------------------------------------
// Item 2: every line of the migration guide (data/kata/config.json migration.mappings, from
// docs/migrating-config-go-runtime-to-runtime-rs.md at 4.1.0) is a case.
//   text: the file; w: the window; sev: the kata/flavour-switch finding's severity at `line` (null: none);
//   re: what it must say; fix: the key line the fix adds (then: applied, no warning or error remains, and the added key
//   is read by runtime-rs at the window's last tag per runtime-rs-config-keys.json, or by the Go runtime where it is the
//   Go spelling that is added).
const GO_KEY = 'the Go runtime 3.20.0–4.0.0';
const notYet = (k) => ({ text: qemu(`${k} = 2`), sev: 'warning', line: 3, re: new RegExp(`runtime-rs 4\\.1\\.0 ignores ${k} in \\[hypervisor\\.qemu\\]; .*pending work`) });
const dropped = (k, v = '"x"') => ({ text: qemu(`${k} = ${v}`), sev: 'warning', line: 3, re: new RegExp(`runtime-rs 4\\.1\\.0 ignores ${k} .*drops it with no replacement`) });
const rsOnly = (tableName, k, v) => ({
  text: tableName === 'hypervisor.qemu' ? qemu(`${k} = ${v}`) : table(tableName, `${k} = ${v}`),
  sev: 'info', line: tableName === 'hypervisor.qemu' ? 3 : 5,
  re: new RegExp(`${k}, which runtime-rs 4\\.1\\.0 reads: ${GO_KEY} ignore ${k}`), rsKey: `${tableName}.${k}`,
});
const CASES = {
  // notYetImplemented: Go reads them, runtime-rs has no key yet (enable_numa and numa_mapping from Go 3.27.0).
  // (Go reads enable_numa and numa_mapping from 3.27.0, measurement_algo from 3.22.0: the Go side's own
  // kata/option-not-in-window says so for its older releases.)
  0: { ...notYet('enable_numa'), also: ['kata/option-not-in-window@3'], text: qemu('enable_numa = true'), re: /which the Go runtime 3\.27\.0–4\.0\.0 read: runtime-rs 4\.1\.0 ignores enable_numa/ },
  1: { ...notYet('numa_mapping'), also: ['kata/option-not-in-window@3'], text: qemu('numa_mapping = ["0"]'), re: /runtime-rs 4\.1\.0 ignores numa_mapping .*pending work/ },
  2: notYet('net_rate_limiter_bw_max_rate'), 3: notYet('net_rate_limiter_bw_one_time_burst'),
  4: notYet('net_rate_limiter_ops_max_rate'), 5: notYet('net_rate_limiter_ops_one_time_burst'),
  // supportedInBoth: the four disk_rate_limiter_* keys are read by both: nothing to say.
  6: { text: qemu('disk_rate_limiter_bw_max_rate = 1', 'disk_rate_limiter_bw_one_time_burst = 1', 'disk_rate_limiter_ops_max_rate = 1', 'disk_rate_limiter_ops_one_time_burst = 1'), sev: null },
  7: dropped('firmware_volume'), 8: { ...dropped('measurement_algo'), also: ['kata/option-not-in-window@3'], re: /which the Go runtime 3\.22\.0–4\.0\.0 read: runtime-rs 4\.1\.0 ignores measurement_algo/ },
  9: dropped('vhost_user_reconnect_timeout_sec', '10'), 10: dropped('use_legacy_serial', 'true'),
  11: { text: table('factory', 'vm_cache_number = 2'), sev: 'warning', line: 5, re: /runtime-rs 4\.1\.0 ignores vm_cache_number in \[factory\]; VMCache is deprecated/ },
  12: { text: table('factory', 'vm_cache_endpoint = "/run/vc/cache.sock"'), sev: 'warning', line: 5, re: /ignores vm_cache_endpoint in \[factory\]; VMCache/ },
  // renamed: seccompsandbox -> seccomp_sandbox (runtime-rs from 3.20.0), same value.
  13: { text: qemu('seccompsandbox = "on"'), sev: 'warning', line: 3, re: /runtime-rs reads seccomp_sandbox instead: seccomp_sandbox = "on"/, fix: 'seccomp_sandbox = "on"', rsKey: 'hypervisor.qemu.seccomp_sandbox' },
  // rename+type: a number for Go, a string for runtime-rs, no mapping between them in the guide: no fix.
  14: { text: qemu('hypervisor_loglevel = 1'), sev: 'warning', line: 3, re: /runtime-rs reads log_level instead \(a number there, a string here: the guide gives no mapping/ },
  // The guide's error: hotplug_vfio_on_root_bus was removed from kata-types in 4.0.0, so at 4.1 there is no fix and
  // the message says so; at 3.28 the key still exists (3.0.0–3.32.0) but it is a different model (no value mapping).
  15: { text: qemu('hot_plug_vfio = "root-port"'), sev: 'warning', line: 3, re: /runtime-rs 4\.1\.0 does not read hotplug_vfio_on_root_bus either; note: kata-types has no hotplug_vfio_on_root_bus field at 4\.0\.0/ },
  // values: block_device_driver, the guide's Go list leaves out virtio-mmio and virtio-blk-ccw.
  16: { text: qemu('block_device_driver = "virtio-blk"'), sev: 'error', line: 3, re: /runtime-rs 4\.1\.0 refuses it .*spells this driver "virtio-blk-pci".*no fix is offered: keep one configuration file per flavour/ },
  17: { text: table('runtime', 'guest_selinux_label = "system_u:system_r:container_t"'), sev: 'warning', line: 5, re: /runtime-rs reads selinux_label in \[hypervisor\.qemu\] instead/, fix: 'selinux_label = "system_u:system_r:container_t"', rsKey: 'hypervisor.qemu.selinux_label' },
  // move: seconds in both at runtime-rs 4.1 (conversion from 3.21.0).
  18: { text: table('runtime', 'create_container_timeout = 60', '', '[agent.kata]'), sev: 'warning', line: 5, re: /runtime-rs reads create_container_timeout in \[agent\.kata\] instead: create_container_timeout = 60/, fix: 'create_container_timeout = 60', rsKey: 'agent.kata.create_container_timeout' },
  // rename+unit: under 4.1 [agent.kata] denies unknown fields (3.29.0+): Go's dial_timeout makes runtime-rs refuse the file.
  19: { text: table('agent.kata', 'dial_timeout = 30'), sev: 'error', line: 5, re: /runtime-rs 4\.1\.0 refuses the file because of dial_timeout in \[agent\.kata\] .*dial_timeout_ms = 30000; no single file serves both/ },
  20: { text: table('agent.kata', 'cdh_api_timeout = 50'), sev: 'error', line: 5, re: /refuses the file because of cdh_api_timeout .*cdh_api_timeout_ms = 50000/ },
  // move-table: [factory] -> [hypervisor.qemu.factory] (runtime-rs from 3.23.0).
  21: { text: table('factory', 'enable_template = true'), sev: 'warning', line: 5, re: /runtime-rs reads enable_template in \[hypervisor\.qemu\.factory\] instead/, fix: 'enable_template = true', rsKey: 'hypervisor.qemu.factory.enable_template' },
  22: { text: table('runtime', 'experimental_force_guest_pull = true'), sev: 'warning', line: 5, re: /add "force_guest_pull" to runtime\.experimental; .*no fix is offered/ },
  // new-config-key: runtime-rs reads the key, the Go runtime takes it from an annotation only.
  23: { text: table('agent.kata', 'policy = "cGFja2FnZQ=="'), sev: 'info', line: 5, re: /policy, which runtime-rs 4\.1\.0 reads: the Go runtime 3\.20\.0–4\.0\.0 ignore policy .*annotation/ },
  24: { text: qemu('initdata = "x"'), sev: 'info', line: 3, re: /initdata, which runtime-rs 4\.1\.0 reads: .*annotation/ },
  // added-key: enable_debug is read by both (nothing to say); runtime-rs's log_level is ignored by Go.
  25: { text: table('runtime', 'enable_debug = true', 'log_level = "debug"'), sev: 'info', line: 6, re: /log_level, which runtime-rs 4\.1\.0 reads: the Go runtime 3\.20\.0–4\.0\.0 ignore log_level/, notAt: 5 },
  26: { text: table('agent.kata', 'enable_debug = true', 'log_level = "debug"'), sev: 'info', line: 6, re: /log_level, which runtime-rs 4\.1\.0 reads/, notAt: 5 },
  27: rsOnly('hypervisor.qemu', 'vm_rootfs_driver', '"virtio-blk-pci"'), 28: rsOnly('hypervisor.qemu', 'queue_size', '128'),
  29: rsOnly('hypervisor.qemu', 'num_queues', '1'), 30: rsOnly('hypervisor.qemu', 'network_queues', '1'),
  31: rsOnly('hypervisor.qemu', 'ctlpath', '"/usr/bin/ctl"'), 32: rsOnly('hypervisor.qemu', 'valid_ctlpaths', '["/usr/bin/ctl"]'),
  33: rsOnly('hypervisor.qemu', 'prefetch_list_path', '"/x"'), 34: rsOnly('hypervisor.qemu', 'hugepage_type', '"hugetlbfs"'),
  35: rsOnly('hypervisor.qemu', 'virtio_fs_is_dax', 'false'), 36: rsOnly('hypervisor.qemu', 'guest_swap_path', '"/run/kata-containers/swap"'),
  37: rsOnly('hypervisor.qemu', 'guest_swap_size_percent', '100'), 38: rsOnly('hypervisor.qemu', 'guest_swap_create_threshold_secs', '60'),
  // rootless_user is a table in runtime-rs ([hypervisor.<name>.rootless_user]): the Go runtime does not know the table.
  39: { text: qemu('', '[hypervisor.qemu.rootless_user]', 'user_name = "kata"'), sev: 'info', line: 4, re: /the Go runtime 3\.20\.0–4\.0\.0 does not read the table \[hypervisor\.qemu\.rootless_user\]/, rsKey: 'hypervisor.qemu.rootless_user.user_name' },
  40: rsOnly('hypervisor.qemu', 'boot_to_be_template', 'false'), 41: rsOnly('hypervisor.qemu', 'boot_from_template', 'false'),
  42: rsOnly('hypervisor.qemu', 'memory_path', '"/x"'), 43: rsOnly('hypervisor.qemu', 'device_state_path', '"/x"'),
  // rejected-by-plugin: runtime-rs's QEMU plugin refuses enable_guest_swap = true from 3.15.0.
  44: { text: qemu('enable_guest_swap = true'), sev: 'error', line: 3, re: /enable_guest_swap = true: runtime-rs 4\.1\.0 refuses it for QEMU/ },
  45: rsOnly('runtime', 'name', '"virt_container"'), 46: rsOnly('runtime', 'hypervisor_name', '"qemu"'), 47: rsOnly('runtime', 'agent_name', '"kata"'),
  48: rsOnly('runtime', 'keep_abnormal', 'false'),
  // shared_mounts is an array of tables in runtime-rs.
  49: { text: qemu('', '[[runtime.shared_mounts]]', 'name = "m"', 'src_ctr = "a"', 'src_path = "/a"', 'dst_ctr = "b"', 'dst_path = "/b"'), sev: 'info', line: 4, re: /the Go runtime 3\.20\.0–4\.0\.0 does not read the table \[runtime\.shared_mounts\]/, rsKey: 'runtime.shared_mounts' },
  50: rsOnly('runtime', 'use_passfd_io', 'true'), 51: rsOnly('runtime', 'passfd_listener_port', '1050'),
  // selection-model: runtime.name / hypervisor_name / agent_name select runtime-rs's components; the Go runtime ignores them.
  52: { text: table('runtime', 'name = "virt_container"', 'hypervisor_name = "qemu"', 'agent_name = "kata"'), sev: 'info', line: 6, re: /hypervisor_name, which runtime-rs 4\.1\.0 reads: the Go runtime .* ignore hypervisor_name/, rsKey: 'runtime.hypervisor_name' },
  53: rsOnly('agent.kata', 'server_port', '1024'), 54: rsOnly('agent.kata', 'log_port', '1025'), 55: rsOnly('agent.kata', 'passfd_listener_port', '1027'),
  56: rsOnly('agent.kata', 'reconnect_timeout_ms', '3000'), 57: rsOnly('agent.kata', 'health_check_request_timeout_ms', '90000'),
  58: rsOnly('agent.kata', 'container_pipe_size', '0'),
  // rs-only-table: [agent.<name>.mem_agent], said once at its header; the guide's "mem_agent_enable (alias enable)" is
  // the other way round in kata-types (enable, alias mem_agent_enable): both spellings are read, neither is unknown.
  59: { text: table('agent.kata.mem_agent', 'mem_agent_enable = true', 'memcg_disable = false'), sev: 'info', line: 4, re: /does not read the table \[agent\.kata\.mem_agent\]/, rsKey: 'agent.kata.mem_agent.mem_agent_enable', only: 1 },
};

test('the guide has 60 lines and each one is a case below', () => {
  assert.equal(mappings.length, 60);
  assert.deepEqual(Object.keys(CASES).map(Number), mappings.map((_, i) => i));
});

for (const [i, c] of Object.entries(CASES)) {
  const m = mappings[i];
  test(`guide line ${i} (${m.category}/${m.change}: ${m.go ?? '—'} → ${[m.runtimeRs ?? '—'].flat()[0]})`, () => {
    const r = lint(c.text, c.w ?? WIDE);
    const found = sw(r);
    const problems = r.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
    if (c.sev === null) {
      assert.deepEqual(problems.map((d) => `${d.ruleId}@${lineOf(d)} ${d.message}`), []);
      assert.deepEqual(found, []);
      return;
    }
    const d = found.find((x) => lineOf(x) === c.line);
    assert.ok(d, `no kata/flavour-switch at line ${c.line}: ${JSON.stringify(r.diagnostics.map((x) => `${x.ruleId}@${lineOf(x)} ${x.message}`))}`);
    assert.equal(d.severity, c.sev);
    assert.match(d.message, c.re);
    if (c.notAt) assert.ok(!r.diagnostics.some((x) => lineOf(x) === c.notAt), `a finding at line ${c.notAt} (read by both)`);
    if (c.only) assert.equal(found.length, c.only);
    // Nothing but infos besides the switch finding: the other rules do not call a key one side reads "unknown".
    assert.deepEqual(problems.filter((x) => x !== d).map((x) => `${x.ruleId}@${lineOf(x)}`), c.also ?? []);
    if (c.rsKey) assert.ok(rsReads('4.1.0', c.rsKey), `runtime-rs 4.1.0 does not read ${c.rsKey} (runtime-rs-config-keys.json)`);
    if (c.fix) {
      assert.equal(d.fixes.length, 1, 'one fix');
      assert.ok(rsReads('4.1.0', c.rsKey), `the fix writes ${c.rsKey}, which runtime-rs 4.1.0 reads`);
      const fixed = applyEdits(c.text, d.fixes[0].edits);
      assert.ok(fixed.includes(`${c.fix}\n`), fixed);
      assert.ok(fixed.includes(c.text.split('\n')[c.line - 1]), 'the Go key stays');
      const again = lint(fixed, c.w ?? WIDE);
      assert.deepEqual(again.diagnostics.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => `${x.ruleId}@${lineOf(x)} ${x.message}`), []);
    } else {
      assert.deepEqual(d.fixes ?? [], [], 'no fix where no spelling is read by every release of the window');
    }
  });
}

test('both spellings present is clean; spellings that disagree after the unit change are a warning', () => {
  // runtime-rs 3.28 does not deny unknown agent keys yet (from 3.29.0), so Go's dial_timeout may stay next to dial_timeout_ms.
  assert.deepEqual(rest(lint('[agent.kata]\ndial_timeout = 30\ndial_timeout_ms = 30000\n', NARROW)), []);
  const [d] = sw(lint('[agent.kata]\ndial_timeout = 30\ndial_timeout_ms = 10000\n', NARROW));
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /disagree: the two runtimes of the window wait 30 s and 10 s/);
  // Under 4.1 both cannot be: runtime-rs 3.29.0+ refuses dial_timeout in [agent.kata] (deny_unknown_fields).
  const [x] = sw(lint('[agent.kata]\ndial_timeout = 30\ndial_timeout_ms = 30000\n', WIDE));
  assert.equal(x.severity, 'error');
  assert.match(x.message, /runtime-rs 4\.1\.0 refuses the file because of dial_timeout/);
});

test('the dial_timeout fix: seconds to milliseconds, CRLF kept, clean afterwards', () => {
  const text = '[agent.kata]\r\ndial_timeout = 30\r\n';
  const [d] = sw(lint(text, NARROW));
  assert.match(d.message, /runtime-rs reads dial_timeout_ms instead \(in milliseconds, seconds here\): dial_timeout_ms = 30000/);
  const fixed = applyEdits(text, d.fixes[0].edits);
  assert.equal(fixed, '[agent.kata]\r\ndial_timeout = 30\r\ndial_timeout_ms = 30000\r\n');
  assert.ok(rsReads('3.28.0', 'agent.kata.dial_timeout_ms'));
  assert.deepEqual(rest(lint(fixed, NARROW)), []);
});

test('a rollback window (runtime-rs → Go) asks for the Go spelling, unless runtime-rs would refuse it', () => {
  const [back] = sw(lint('[agent.kata]\ndial_timeout_ms = 30000\n', '3.20 (runtime-rs)..3.28 (go)'));
  assert.match(back.message, /the Go runtime reads dial_timeout instead \(in seconds, milliseconds here\): dial_timeout = 30/);
  assert.equal(applyEdits('[agent.kata]\ndial_timeout_ms = 30000\n', back.fixes[0].edits), '[agent.kata]\ndial_timeout_ms = 30000\ndial_timeout = 30\n');
  const [strict] = sw(lint('[agent.kata]\ndial_timeout_ms = 30000\n', '4.1 (runtime-rs)..4.1 (go)'));
  assert.match(strict.message, /adding it would make runtime-rs 4\.1\.0 refuse the file/);
  assert.deepEqual(strict.fixes, []);
});

test('the guide\'s errors: block_device_driver values it omits, hot_plug_vfio, the mem_agent alias', () => {
  // virtio-mmio is in the Go allow-list (config.go:590 at 4.1.0) but not in the guide; runtime-rs spells it virtio-blk-mmio.
  const [mmio] = sw(lint(qemu('block_device_driver = "virtio-mmio"')));
  assert.equal(mmio.severity, 'error');
  assert.match(mmio.message, /runtime-rs 4\.1\.0 refuses it .* spells this driver "virtio-blk-mmio"/);
  // virtio-blk-ccw (also left out by the guide) is accepted by both: nothing to say.
  assert.deepEqual(rest(lint(qemu('block_device_driver = "virtio-blk-ccw"'))), []);
  // hot_plug_vfio at 3.28: the guide's hotplug_vfio_on_root_bus still exists there (3.0.0–3.32.0), still a different model.
  const [v] = sw(lint(qemu('hot_plug_vfio = "root-port"'), NARROW));
  assert.doesNotMatch(v.message, /does not read hotplug_vfio_on_root_bus either/);
  assert.deepEqual(v.fixes, []);
  // mem_agent_enable is the serde alias of enable (kata-types agent.rs:25 at 4.1.0): runtime-rs alone reads it.
  assert.ok(rsReads('4.1.0', 'agent.kata.mem_agent.mem_agent_enable'));
  assert.deepEqual(lint('[agent.kata.mem_agent]\nmem_agent_enable = true\n', '4.1 (runtime-rs)').diagnostics, []);
});

test('create_container_timeout: no fix while runtime-rs 3.19–3.20 read the number as milliseconds', () => {
  const [d] = sw(lint('[runtime]\ncreate_container_timeout = 60\n', '3.18 (go)..3.20 (runtime-rs)'));
  assert.match(d.message, /runtime-rs 3\.20\.0 read the number as milliseconds \(the seconds conversion starts at 3\.21\.0\)/);
  assert.deepEqual(d.fixes, []);
});

test('the guide\'s qemu lines apply to the file\'s own hypervisor table', () => {
  const [d] = sw(lint('[hypervisor.clh]\nseccompsandbox = "on"\n'));
  assert.match(d.message, /ignores seccompsandbox in \[hypervisor\.clh\]; runtime-rs reads seccomp_sandbox instead/);
  assert.equal(applyEdits('[hypervisor.clh]\nseccompsandbox = "on"\n', d.fixes[0].edits), '[hypervisor.clh]\nseccompsandbox = "on"\nseccomp_sandbox = "on"\n');
});

// ---------------------------------------------------------------------------------------------
// Item 3: persist.json across the flavour switch (data/kata/flavour-switch.json, read from runtime-rs's persist crate:
// state.json under /run/kata/<sandbox-id>, SandboxState; cleanup restores only from it).

const sbs = '/run/vc/sbs/4f1c6a2d9e8b7f60a5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2';
const persistText = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'kata', 'persist-examples', 'v2-kata-3.32-sandbox.persist.json'), 'utf8');
const lintPersist = (window, text = persistText) => e.analyze({ path: `${sbs}/persist.json`, text, config: e.resolveConfig({ cli: { kataWindow: window } }) });

test('a Go persist.json under a window that switches to runtime-rs: drain the node before switching', () => {
  const r = lintPersist(WIDE);
  const ds = r.diagnostics.filter((d) => d.ruleId === 'kata-persist/sandbox-takeover');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].severity, 'warning');
  assert.match(ds[0].message, /^a running Go sandbox cannot be taken over by runtime-rs: drain the node before switching: this is the Go runtime's state of a sandbox \(3\.20\.0–4\.0\.0\), and runtime-rs 4\.1\.0 restores only \/run\/kata\/<sandbox-id>\/state\.json \(SandboxState: sandbox_type, resource, hypervisor\), never this file$/);
  // At the file's first key, exactly.
  const first = persistText.indexOf('"');
  const before = persistText.slice(0, first).split('\n');
  assert.deepEqual(ds[0].range.start, { line: before.length - 1, character: before[before.length - 1].length });
  // The persist rules check the file at the Go side's releases only (runtime-rs never reads it).
  assert.deepEqual(r.persist.window, r.persist.window.filter((x) => x !== '4.1.0'));
  assert.ok(r.persist.window.includes('4.0.0'));
  // No switch, no finding; a switch back to Go (runtime-rs → Go) does not make the Go state unreadable to Go.
  assert.equal(lintPersist('3.20..4.1').diagnostics.filter((d) => d.ruleId === 'kata-persist/sandbox-takeover').length, 0);
  assert.equal(lintPersist('3.20 (runtime-rs)..4.1 (go)').diagnostics.filter((d) => d.ruleId === 'kata-persist/sandbox-takeover').length, 0);
});

test('the Kata configuration under a crossing window says once that running sandboxes are not taken over', () => {
  const r = lint(qemu('default_vcpus = 1'));
  const ds = r.diagnostics.filter((d) => d.ruleId === 'kata/sandbox-takeover');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].severity, 'info');
  assert.match(ds[0].message, /^a running Go sandbox cannot be taken over by runtime-rs: drain the node before switching \(3\.20\.0–4\.0\.0 go → 4\.1\.0 runtime-rs\): a sandbox's state is \/run\/vc\/sbs\/<sandbox-id>\/persist\.json, and the other flavour restores only \/run\/kata\/<sandbox-id>\/state\.json$/);
  assert.deepEqual([ds[0].range.start, ds[0].range.end], [{ line: 0, character: 1 }, { line: 0, character: 16 }]);
  const back = lint(qemu(), '3.20 (runtime-rs)..4.1 (go)').diagnostics.find((d) => d.ruleId === 'kata/sandbox-takeover');
  assert.match(back.message, /^a running runtime-rs sandbox cannot be taken over by the Go runtime: drain the node before switching back/);
  assert.equal(lint(qemu(), '3.20..4.1').diagnostics.filter((d) => d.ruleId === 'kata/sandbox-takeover').length, 0);
});

test('the flavour-switch data cites a source for each fact', () => {
  const d = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'flavour-switch.json'), 'utf8'));
  assert.equal(d.persist.runtimeRs.sandboxState, '/run/kata/<sandbox-id>/state.json');
  assert.ok(d.persist.runtimeRs.sources.length >= 4 && d.persist.runtimeRs.sources.every((s) => /kata-containers\/kata-containers src\/\S+/.test(s)));
  assert.ok(d.kataDeploy.sources.every((s) => /tools\/packaging\/kata-deploy\/binary\/src\//.test(s)));
  assert.deepEqual(d.persist.takeOver.map((t) => [t.from, t.to, t.possible]), [['go', 'runtime-rs', false], ['runtime-rs', 'go', false]]);
});

// ---------------------------------------------------------------------------------------------
// Item 5: the node as one system. containerd runtime entry → the configuration its ConfigPath names → the flavour its
// shim implies (kata-deploy tools/packaging/kata-deploy/binary/src: runtime_path …/runtime-rs/bin/containerd-shim-kata-v2
// and the RUST_SHIMS names for runtime-rs, else the Go shim), kata-deploy's image tag → the Kata window.

test('the flavour of a containerd Kata runtime entry, after kata-deploy\'s naming', () => {
  assert.ok(e.kataChain, 'engine exports kataChain');
  const f = (rt) => e.kataChain.flavourOfRuntime({ runtime: 'x', ...rt }).flavour;
  assert.equal(f({ runtimeType: 'io.containerd.kata.v2' }), 'go');
  assert.equal(f({ runtimeType: 'io.containerd.kata-qemu.v2' }), 'go');
  assert.equal(f({ runtimeType: 'io.containerd.kata-clh.v2' }), 'go'); // clh is the Go shim; cloud-hypervisor is runtime-rs
  assert.equal(f({ runtimeType: 'io.containerd.kata-cloud-hypervisor.v2' }), 'runtime-rs');
  assert.equal(f({ runtimeType: 'io.containerd.kata-qemu-runtime-rs.v2' }), 'runtime-rs');
  assert.equal(f({ runtimeType: 'io.containerd.kata-dragonball.v2' }), 'runtime-rs');
  // runtime_path wins over the name: kata-deploy's install paths per flavour.
  assert.equal(f({ runtimeType: 'io.containerd.kata-qemu-runtime-rs.v2', runtimePath: '/opt/kata/bin/containerd-shim-kata-v2' }), 'go');
  assert.equal(f({ runtimeType: 'io.containerd.kata.v2', runtimePath: '/opt/kata/runtime-rs/bin/containerd-shim-kata-v2' }), 'runtime-rs');
  assert.equal(f({ runtimeType: 'io.containerd.kata.v2', configPath: '/opt/kata/share/defaults/kata-containers/runtime-rs/configuration-dragonball.toml' }), 'runtime-rs');
  const root = '/w';
  const files = ['/w/opt/kata/share/defaults/kata-containers/configuration-qemu.toml', '/w/nodes/a/configuration-qemu.toml', '/w/etc/kata-containers/configuration.toml', '/w/kata/runtime-rs/configuration-qemu-runtime-rs.toml'];
  const r = (p) => e.kataChain.resolveConfigPath(p, root, files);
  assert.deepEqual(r('/opt/kata/share/defaults/kata-containers/configuration-qemu.toml'), ['/w/opt/kata/share/defaults/kata-containers/configuration-qemu.toml']);
  // The longest common tail wins (share/defaults/kata-containers/… over a bare file name elsewhere).
  assert.deepEqual(r('/usr/share/defaults/kata-containers/configuration-qemu.toml'), ['/w/opt/kata/share/defaults/kata-containers/configuration-qemu.toml']);
  // Two files as near as each other: both (each is then checked with the runtime's flavour).
  assert.deepEqual(e.kataChain.resolveConfigPath('/etc/kata-containers/configuration-qemu.toml', root, ['/w/nodes/a/configuration-qemu.toml', '/w/nodes/b/configuration-qemu.toml']), ['/w/nodes/a/configuration-qemu.toml', '/w/nodes/b/configuration-qemu.toml']);
  assert.deepEqual(r('/opt/kata/share/defaults/kata-containers/runtime-rs/configuration-qemu-runtime-rs.toml'), ['/w/kata/runtime-rs/configuration-qemu-runtime-rs.toml']);
  assert.deepEqual(r('/etc/kata-containers/configuration.toml'), ['/w/etc/kata-containers/configuration.toml']);
  assert.deepEqual(r('/srv/other/config.toml'), []);
  // kata-deploy's image tag: the DaemonSet's image, or the chart's values reference + tag.
  assert.deepEqual(e.kataChain.kataDeployTags('      containers:\n        - image: quay.io/kata-containers/kata-deploy:3.29.0\n'), [{ tag: '3.29.0', line: 2 }]);
  assert.deepEqual(e.kataChain.kataDeployTags('image:\n  reference: quay.io/kata-containers/kata-deploy\n  tag: "4.1.0"\n'), [{ tag: '4.1.0', line: 3 }]);
  assert.deepEqual(e.kataChain.kataDeployTags('image: quay.io/kata-containers/kata-monitor:3.29.0\n'), []);
});

const NODE = {
  'etc/containerd/config.toml': [
    'version = 2', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]',
    '  runtime_type = "io.containerd.kata-qemu.v2"',
    '  runtime_path = "/opt/kata/bin/containerd-shim-kata-v2"', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu.options]',
    '  ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-rs]',
    '  runtime_type = "io.containerd.kata-rs.v2"',
    '  runtime_path = "/opt/kata/runtime-rs/bin/containerd-shim-kata-v2"', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-rs.options]',
    '  ConfigPath = "/etc/kata-containers/configuration.toml"', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-fc]',
    '  runtime_type = "io.containerd.kata-fc.v2"', '',
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-fc.options]',
    '  ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-fc.toml"', '',
  ].join('\n'),
  // The same Go-style text twice: named by the Go runtime (kata-qemu) and by runtime-rs (kata-rs).
  'opt/kata/share/defaults/kata-containers/configuration-qemu.toml': '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n\n[agent.kata]\ndial_timeout = 45\n',
  'etc/kata-containers/configuration.toml': '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n\n[agent.kata]\ndial_timeout = 45\n',
  'deploy/kata-deploy.yaml': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kata-deploy\nspec:\n  template:\n    spec:\n      containers:\n        - name: kube-kata\n          image: quay.io/kata-containers/kata-deploy:3.29.0\n',
  'manifests/runtimeclass.yaml': 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: kata-rs\nhandler: kata-rs\n',
};

test('lsp-lint: the file a runtime-rs runtime names is checked as runtime-rs, at the kata-deploy window; a missing ConfigPath is said', async () => {
  const { makeWorkspace } = await import('./helpers/lsp-client.mjs');
  const root = makeWorkspace(NODE);
  try {
    const run = (...args) => spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), ...args], { cwd: root, encoding: 'utf8' });
    const out = run('.', '--format', 'json');
    const reports = Object.fromEntries(JSON.parse(out.stdout).map((x) => [path.relative(root, x.filePath).split(path.sep).join('/'), x.messages]));
    // runtime-rs 3.29.0 (kata-deploy's tag) denies unknown keys in [agent.kata]: Go's dial_timeout is fatal there.
    const rs = reports['etc/kata-containers/configuration.toml'];
    assert.deepEqual(rs.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['5:1 kata/renamed-option']);
    assert.equal(rs[0].severity, 'error');
    assert.match(rs[0].message, /3\.29\.0 refuses the file because of it/);
    // The Go runtime reads dial_timeout: the same text named by the Go runtime's entry is clean.
    assert.deepEqual(reports['opt/kata/share/defaults/kata-containers/configuration-qemu.toml'] ?? [], []);
    const ctr = reports['etc/containerd/config.toml'];
    assert.deepEqual(ctr.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['21:16 containerd/kata-config-path']);
    assert.match(ctr[0].message, /^not checked: \/opt\/kata\/share\/defaults\/kata-containers\/configuration-fc\.toml, the configuration runtime kata-fc .* is not in the workspace/);
    const cfg = JSON.parse(run('--print-config', 'etc/kata-containers/configuration.toml').stdout);
    assert.equal(cfg.kata.window, '3.29.0');
    assert.deepEqual(cfg.kata.source, { kind: 'workspace', detail: 'deploy/kata-deploy.yaml: kata-deploy image 3.29.0' });
    // A .skewguard.yaml window wins over kata-deploy's tag.
    fs.writeFileSync(path.join(root, '.skewguard.yaml'), 'kata:\n  window: "3.28"\n');
    const again = JSON.parse(run('.', '--format', 'json').stdout);
    const rs28 = again.find((x) => x.filePath.endsWith(path.join('etc', 'kata-containers', 'configuration.toml')));
    assert.match(rs28.messages[0].message, /3\.28\.0 ignores dial_timeout/);
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('editor: the Kata file gets its flavour from the runtime naming it; ConfigPath and handler hovers show the chain', async (t) => {
  const { LspClient, makeWorkspace, uriOf } = await import('./helpers/lsp-client.mjs');
  const root = makeWorkspace(NODE);
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const u = (rel) => uriOf(path.join(root, rel));
  const p = await client.open(u('etc/kata-containers/configuration.toml'), NODE['etc/kata-containers/configuration.toml'], 1, 'kata-toml');
  assert.deepEqual(p.diagnostics.map((d) => d.code), ['kata/renamed-option']);
  assert.equal(p.diagnostics[0].severity, 1);
  const ctrText = NODE['etc/containerd/config.toml'];
  await client.open(u('etc/containerd/config.toml'), ctrText, 1, 'toml');
  const line = ctrText.split('\n').findIndex((l) => l.includes('ConfigPath = "/etc/kata-containers/configuration.toml"'));
  const h = await client.request('textDocument/hover', { textDocument: { uri: u('etc/containerd/config.toml') }, position: { line, character: 20 } });
  assert.match(h.contents.value ?? h.contents, /RuntimeClass handler `kata-rs` → containerd runtime `kata-rs` in `etc\/containerd\/config\.toml` \(runtime_type `io\.containerd\.kata-rs\.v2`\) → configuration `etc\/kata-containers\/configuration\.toml` → checked as \*\*runtime-rs\*\* \(runtime_path \/opt\/kata\/runtime-rs\/bin\/containerd-shim-kata-v2 is runtime-rs's shim/);
  assert.match(h.contents.value ?? h.contents, /at Kata 3\.29\.0/);
  const rc = NODE['manifests/runtimeclass.yaml'];
  await client.open(u('manifests/runtimeclass.yaml'), rc, 1, 'yaml');
  const hh = await client.request('textDocument/hover', { textDocument: { uri: u('manifests/runtimeclass.yaml') }, position: { line: 4, character: 11 } });
  assert.match(hh.contents.value ?? hh.contents, /\*\*RuntimeClass handler\*\* `kata-rs`[\s\S]*→ configuration `etc\/kata-containers\/configuration\.toml` → checked as \*\*runtime-rs\*\*/);
});

test('one file named by a Go runtime and by a runtime-rs runtime of the node is checked with both dialects', async () => {
  const { makeWorkspace } = await import('./helpers/lsp-client.mjs');
  const files = { ...NODE };
  files['etc/containerd/config.toml'] = files['etc/containerd/config.toml'].replace('ConfigPath = "/etc/kata-containers/configuration.toml"', 'ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"');
  files['opt/kata/share/defaults/kata-containers/configuration-qemu.toml'] = '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\nseccompsandbox = "on"\n';
  files['deploy/kata-deploy.yaml'] = files['deploy/kata-deploy.yaml'].replace('3.29.0', '3.28.0');
  const root = makeWorkspace(files);
  try {
    const out = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '.', '--format', 'json'], { cwd: root, encoding: 'utf8' });
    const r = JSON.parse(out.stdout).find((x) => x.filePath.endsWith('configuration-qemu.toml'));
    assert.deepEqual(r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['3:1 kata/flavour-switch']);
    assert.match(r.messages[0].message, /seccompsandbox, which the Go runtime 3\.28\.0 reads: runtime-rs 3\.28\.0 ignores seccompsandbox/);
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('kata-deploy\'s tag is the window of the files under its own .skewguard.yaml only', async () => {
  const { makeWorkspace } = await import('./helpers/lsp-client.mjs');
  const conf = '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n';
  const root = makeWorkspace({
    'site-a/.skewguard.yaml': 'kubernetes:\n  window: "1.32"\n',
    'site-a/deploy/kata-deploy.yaml': NODE['deploy/kata-deploy.yaml'],
    'site-a/configuration-qemu.toml': conf,
    'site-b/.skewguard.yaml': 'kubernetes:\n  window: "1.32"\n',
    'site-b/configuration-qemu.toml': conf,
  });
  try {
    const cfg = (rel) => JSON.parse(spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--print-config', rel], { cwd: root, encoding: 'utf8' }).stdout).kata;
    assert.deepEqual(cfg('site-a/configuration-qemu.toml'), { window: '3.29.0', flavour: null, source: { kind: 'workspace', detail: 'site-a/deploy/kata-deploy.yaml: kata-deploy image 3.29.0' } });
    assert.equal(cfg('site-b/configuration-qemu.toml').window, null);
    assert.equal(cfg('site-b/configuration-qemu.toml').source.kind, 'default');
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

// Review pass: a not-read finding both sides give at one key was the first side's alone (the second, naming the
// runtime-rs side's releases, was dropped as a duplicate). emptydir_mode: Go reads it from 3.28.0, runtime-rs from
// 3.31.0 (data/kata/config.json), so neither 3.20..3.27 (go) nor 3.28 (runtime-rs) reads it.
test('a key neither side reads is one finding that names both sides\' releases', () => {
  const ds = rest(lint('[runtime]\nemptydir_mode = "shared-fs"\n', NARROW)).filter((d) => d.ruleId === 'kata/option-not-in-window');
  assert.equal(ds.length, 1);
  assert.match(ds[0].message, /3\.20\.0\.\.3\.27\.0 reads emptydir_mode.*; .*window 3\.28\.0 reads emptydir_mode/);
  assert.ok(ds[0].fixes.length >= 1, 'both sides read none: the removal is kept');
});
