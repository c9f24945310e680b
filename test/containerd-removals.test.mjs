// Issue #28 item 4: the runtimes containerd 2.0 removed (io.containerd.runc.v1, io.containerd.runtime.v1.linux) at
// their lines whenever the window reaches 2.0; the removals RELEASES.md announces for 2.4 said as announced targets;
// containerd/deprecated says a deprecation only from its deprecatedIn (plugin_dir: 2.0, not 1.6..2.0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = createRequire(import.meta.url)('../dist/engine.js');
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'containerd', 'config.json'), 'utf8'));
const run = (text, containerdWindow) => e.analyze({ path: '/etc/containerd/config.toml', text, config: e.resolveConfig({ cli: { containerdWindow } }) }).diagnostics;
const lineOf = (d) => d.range.start.line + 1;

const CONFIG = [
  'version = 2', 'plugin_dir = "/opt/containerd/plugins"', '',
  '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]', '  runtime_type = "io.containerd.runc.v1"', '',
  '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.legacy]', '  runtime_type = "io.containerd.runtime.v1.linux"', '',
  '[plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]', '  endpoint = ["https://mirror.example.com"]', '',
  '[plugins."io.containerd.runtime.v1.linux"]', '  shim = "containerd-shim"', '',
].join('\n');

test('containerd/removed-runtime: runc.v1, runtime.v1.linux and its plugin table are errors at their lines when the window reaches 2.0', () => {
  for (const w of ['1.7..2.0', '2.0..2.3', '1.6..2.1']) {
    const ds = run(CONFIG, w).filter((d) => d.ruleId === 'containerd/removed-runtime');
    assert.deepEqual(ds.map((d) => [lineOf(d), d.severity]), [[5, 'error'], [8, 'error'], [13, 'error']], w);
    assert.match(ds[0].message, /^runtime_type "io\.containerd\.runc\.v1" .*removed in 2\.0/);
    assert.equal(CONFIG.split('\n')[4].slice(ds[0].range.start.character, ds[0].range.end.character), '"io.containerd.runc.v1"');
  }
  // Below 2.0: said as a deprecation (warning), the removal named.
  const ds = run(CONFIG, '1.6..1.7').filter((d) => d.ruleId === 'containerd/removed-runtime');
  assert.deepEqual(ds.map((d) => [lineOf(d), d.severity]), [[5, 'warning'], [8, 'warning'], [13, 'warning']]);
  assert.match(ds[0].message, /deprecated since 1\.4 .* removed in 2\.0/);
  // runc.v2 is fine everywhere.
  assert.deepEqual(run(CONFIG.replace(/io\.containerd\.(runc\.v1|runtime\.v1\.linux)"/g, 'io.containerd.runc.v2"').replace(/\[plugins."io.containerd.runtime.v1.linux"\]\n.*\n/, ''), '1.7..2.2').filter((d) => d.ruleId === 'containerd/removed-runtime'), []);
});

test('the 2.0 removals come from RELEASES.md at 2.0.0 and the 2.4 targets from the newest tag, said as announced', () => {
  assert.deepEqual(data.removedRuntimes.map((r) => [r.value, r.removedIn, r.sources[0].tag]).sort(), [['io.containerd.runc.v1', '2.0', '2.0.0'], ['io.containerd.runtime.v1.linux', '2.0', '2.0.0']]);
  const announced = Object.fromEntries(data.deprecations.filter((d) => d.announcedRemoval).map((d) => [d.id.replace('io.containerd.deprecation/', ''), d.announcedRemoval.release]));
  for (const id of ['cri-registry-mirrors', 'cri-registry-configs', 'cri-registry-auths', 'cri-cni-bin-dir', 'enable-cdi']) assert.equal(announced[id], '2.4', id);
  for (const d of data.deprecations.filter((x) => x.announcedRemoval)) assert.equal(d.removedIn, null, `${d.id}: an announced removal is not a done one`);
  const mirrors = run(CONFIG, '1.7..2.3').find((d) => d.ruleId === 'containerd/deprecated' && lineOf(d) === 10);
  assert.match(mirrors.message, /removal announced for 2\.4 \(RELEASES\.md of 2\.3\.\d+: a target, not done yet\)/);
});

test('containerd/deprecated: plugin_dir is deprecated only from 2.0 (1.6 and 1.7 only warn ahead), removed in 2.1', () => {
  const at = (w) => run(CONFIG, w).filter((d) => d.ruleId === 'containerd/deprecated' && lineOf(d) === 2);
  assert.deepEqual(at('1.6..1.7'), []);
  const [d] = at('1.6..2.0');
  assert.match(d.message, /^plugin_dir: deprecated in containerd 2\.0 \(/);
  assert.deepEqual(d.data.deprecatedAt, ['2.0']);
});

// data/containerd/config.json's freshness (what scripts/import-containerd.mjs writes) is test/data-fresh's, for every table at once.
