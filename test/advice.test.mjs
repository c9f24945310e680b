// Issue #18 problem 4: advice that is consistent. Each message's advice, followed, leaves the file free of that
// finding: "keep both" for an option renamed inside the window (hotplug_vfio_on_root_bus / hot_plug_vfio), the
// rename fix when every release reads the new name ("split the upgrade"), "did you mean" renames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const QEMU = fs.readFileSync(path.join(repoRoot, 'examples/kata/gpu-host-3.1-to-3.32/configuration-qemu.toml'), 'utf8');
const lint = (text, window, file = '/etc/kata-containers/configuration-qemu.toml') =>
  e.analyze({ path: file, text, config: e.resolveConfig({ cli: { kataWindow: window, kataFlavour: 'go' } }) });
const about = (r, key) => r.diagnostics.filter((d) => d.data?.key === key || d.data?.renamedTo === key || new RegExp(`\\b${key}\\b`).test(d.message));
const applyFix = (text, fix) => {
  const edits = [...fix.edits].sort((a, b) => b.range.start - a.range.start);
  let out = text;
  for (const ed of edits) out = out.slice(0, ed.range.start) + ed.newText + out.slice(ed.range.end);
  return out;
};

test('"keep both": hot_plug_vfio written beside hotplug_vfio_on_root_bus over 3.1..3.32 is clean for both keys', () => {
  const before = lint(QEMU, '3.1..3.32');
  const ren = before.diagnostics.find((d) => d.ruleId === 'kata/renamed-option');
  assert.ok(ren, 'the example has the rename finding');
  assert.match(ren.message, /so keep both or split the upgrade$/);
  // The advice, followed: the new name with the value the rename's mapping gives, beside the old one.
  const both = QEMU.replace('hotplug_vfio_on_root_bus = true\n', 'hotplug_vfio_on_root_bus = true\nhot_plug_vfio = "root-port"\n');
  const after = lint(both, '3.1..3.32');
  assert.deepEqual(about(after, 'hotplug_vfio_on_root_bus').map((d) => d.ruleId), [], JSON.stringify(about(after, 'hotplug_vfio_on_root_bus')));
  assert.deepEqual(about(after, 'hot_plug_vfio').map((d) => d.ruleId), [], JSON.stringify(about(after, 'hot_plug_vfio')));
  // The other findings of the file are untouched.
  assert.deepEqual(after.diagnostics.map((d) => d.ruleId), before.diagnostics.filter((d) => d !== ren).map((d) => d.ruleId));
});

test('"keep both" with two values that do not mean the same is said, at the new value', () => {
  const both = QEMU.replace('hotplug_vfio_on_root_bus = true\n', 'hotplug_vfio_on_root_bus = true\nhot_plug_vfio = "bridge-port"\n');
  const r = lint(both, '3.1..3.32');
  const d = r.diagnostics.filter((x) => x.ruleId === 'kata/renamed-option');
  assert.equal(d.length, 1);
  assert.match(d[0].message, /do not mean the same: hotplug_vfio_on_root_bus = true means hot_plug_vfio = "root-port"/);
  assert.equal(both.split('\n')[d[0].range.start.line], 'hot_plug_vfio = "bridge-port"');
  assert.equal(d[0].range.start.character, 'hot_plug_vfio = '.length);
});

test('"split the upgrade": over 3.2..3.32 the rename fix is offered, and applied it leaves no finding about either key', () => {
  const r = lint(QEMU, '3.2..3.32');
  const ren = r.diagnostics.find((d) => d.ruleId === 'kata/renamed-option');
  assert.ok(ren?.fixes?.length, JSON.stringify(ren));
  const lines = QEMU.split('\n');
  const idx = QEMU.indexOf('hotplug_vfio_on_root_bus = true');
  const fix = ren.fixes[0];
  // Engine fixes are in LSP positions: turn them into offsets of this text.
  const off = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const fixed = applyFix(QEMU, { edits: fix.edits.map((x) => ({ range: { start: off(x.range.start), end: off(x.range.end) }, newText: x.newText })) });
  assert.ok(idx > 0 && fixed.includes('hot_plug_vfio = "root-port"'), fixed);
  const after = lint(fixed, '3.2..3.32');
  assert.deepEqual([...about(after, 'hot_plug_vfio'), ...about(after, 'hotplug_vfio_on_root_bus')], []);
});

test('"did you mean": a localhost.yml key renamed as the message says is clean', () => {
  const cfg = e.resolveConfig({ cli: { starlingxRelease: '6.0' } });
  const r = e.analyze({ path: '/lab/localhost.yml', text: 'system_mode: simplex\ndns_server:\n  - 8.8.8.8\n', config: cfg });
  const d = r.diagnostics.find((x) => /did you mean/i.test(x.message));
  assert.ok(d, JSON.stringify(r.diagnostics));
  const want = /did you mean "?([\w.-]+)/i.exec(d.message)[1];
  const after = e.analyze({ path: '/lab/localhost.yml', text: `system_mode: simplex\n${want}:\n  - 8.8.8.8\n`, config: cfg });
  assert.deepEqual(after.diagnostics.map((x) => x.ruleId), []);
});
