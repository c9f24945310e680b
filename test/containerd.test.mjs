// Issue #17 item 4: containerd's config.toml as a family, checked across the containerd window. The configurations
// are written after the patterns of real ones (kata-deploy's containerd snippets: kata-qemu with runtime_path and
// options.ConfigPath; StarlingX's containerd template: root /var/lib/docker, a registry.local:9001 mirror and its
// TLS config; distribution defaults from `containerd config default`), and each finding is justified by the
// upstream fact that causes it (data/containerd/config.json, from containerd's config structs at each tag).
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const ETC = '/etc/containerd/config.toml';
const cfg = (cli = {}, extra = {}) => e.resolveConfig({ cli, ...extra });
const run = (text, cli = {}, file = ETC, extra = {}) => e.analyze({ path: file, text, config: cfg(cli, extra) });
const list = (r) => r.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.ruleId}`);
const only = (r, id) => r.diagnostics.filter((d) => d.ruleId === id);
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/containerd/config.json'), 'utf8'));
const rel = (m) => data.releases.find((r) => r.minor === m);
const key = (p) => data.keys.find((k) => k.path === p);

function applyFix(text, fix) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const edits = fix.edits.map((x) => ({ s: starts[x.range.start.line] + x.range.start.character, e: starts[x.range.end.line] + x.range.end.character, t: x.newText })).sort((a, b) => b.s - a.s);
  let out = text;
  for (const x of edits) out = out.slice(0, x.s) + x.t + out.slice(x.e);
  return out;
}

// A kata-deploy style config for containerd 1.7 (version 2), with StarlingX's registry settings.
const V2_NODE = `version = 2
root = "/var/lib/docker"
state = "/var/run/containerd"

[grpc]
  address = "/var/run/containerd/containerd.sock"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.local:9001/registry.k8s.io/pause:3.9"
  systemd_cgroup = true

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]
  runtime_type = "io.containerd.kata-qemu.v2"
  runtime_path = "/opt/kata/bin/containerd-shim-kata-v2"
  privileged_without_host_devices = true
  pod_annotations = ["io.katacontainers.*"]

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu.options]
  ConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"

[plugins."io.containerd.grpc.v1.cri".registry.mirrors."registry.local:9001"]
  endpoint = ["https://registry.local:9001"]
`;

test('detection: config.toml under a containerd folder by name, a containerd config by content, never a web app\'s config.toml', () => {
  assert.equal(run(V2_NODE).family, 'containerd');
  assert.equal(run(V2_NODE, {}, '/srv/node/config.toml').family, 'containerd', 'by content: [plugins."io.containerd.…"] tables');
  assert.equal(run('[plugins.cri.containerd]\n  snapshotter = "overlayfs"\n', {}, '/x/my.toml').family, 'containerd', 'version 1: [plugins.cri]');
  assert.equal(run('root = "/var/lib/containerd"\nstate = "/run/containerd"\n[grpc]\n  address = "/run/containerd/containerd.sock"\n', {}, '/x/c.toml').family, 'containerd');
  const web = '[server]\nport = 8080\nroot = "/srv/www"\n[database]\nurl = "postgres://db"\n';
  assert.equal(run(web, {}, '/srv/app/config.toml').family ?? null, null);
  assert.equal(run('[hypervisor.qemu]\npath = "/usr/bin/qemu"\n', {}, '/etc/kata-containers/configuration.toml').family, 'kata-config', 'Kata keeps its files');
});

test('config-version: version 3 on containerd 1.7 (1.7.34 reads versions 1 and 2 only), version 4 on 2.2 (kata-containers #12936)', () => {
  assert.deepEqual(rel('1.7').configVersions, [1, 2]);
  assert.deepEqual(rel('2.2').configVersions, [1, 2, 3]);
  assert.equal(rel('2.3').currentConfigVersion, 4);
  const v3 = 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".containerd]\n  default_runtime_name = "runc"\n';
  const f = only(run(v3, { containerdWindow: '1.7..2.1' }), 'containerd/config-version');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'error');
  assert.deepEqual([f[0].range.start, f[0].range.end], [{ line: 0, character: 0 }, { line: 0, character: 11 }]);
  assert.match(f[0].message, /containerd 1\.7 cannot read it.*version 2 is read by every containerd of the window/);
  assert.equal(only(run(v3, { containerdWindow: '2.0..2.3' }), 'containerd/config-version').length, 0);
  const v4 = 'version = 4\n\n[plugins."io.containerd.cri.v1.runtime".containerd]\n  default_runtime_name = "runc"\n';
  const g = only(run(v4, { containerdWindow: '2.2..2.3' }), 'containerd/config-version');
  assert.match(g[0].message, /config version 4: containerd 2\.2 cannot read it.*version 3 is read by every containerd/);
});

test('not-read: the CRI plugin ID by config version (io.containerd.grpc.v1.cri in a version 3 file is not where 2.x reads runtimes)', () => {
  const text = 'version = 3\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\n  runtime_type = "io.containerd.runc.v2"\n';
  const f = only(run(text, { containerdWindow: '2.0..2.1' }), 'containerd/not-read');
  assert.equal(f.length, 1, 'one finding at the table, not one more per key under it');
  assert.match(f[0].message, /io\.containerd\.cri\.v1\.runtime/);
  assert.deepEqual(f[0].range.start, { line: 2, character: 1 }, 'at the table name');
  // Keys under io.containerd.grpc.v1.cri.containerd exist in the data for 1.x only; version 2 files are migrated.
  assert.deepEqual(key('plugins."io.containerd.grpc.v1.cri".containerd.default_runtime_name').minors, ['1.3', '1.4', '1.5', '1.6', '1.7']);
  const v2 = text.replace('version = 3', 'version = 2');
  assert.deepEqual(only(run(v2, { containerdWindow: '1.7..2.1' }), 'containerd/not-read'), [], 'a version 2 file is migrated in memory by 2.x (criKeyMapFromV2Config)');
});

test('not-read: a key 2.0 drops (systemd_cgroup, no_pivot, registry.configs.<host>.tls) and a misspelt key with did-you-mean', () => {
  const r = run(V2_NODE + '\n[plugins."io.containerd.grpc.v1.cri".cni]\n  conf_templte = "/etc/cni/template"\n', { containerdWindow: '1.7..2.1' });
  const f = only(r, 'containerd/not-read');
  // systemd_cgroup is in the 1.x CRI struct and not in the 2.x one (data keys; the 2.x migration copies it, 2.x ignores it).
  assert.deepEqual(key('plugins."io.containerd.grpc.v1.cri".systemd_cgroup').minors.includes('2.0'), false);
  assert.ok(f.some((d) => /systemd_cgroup: not read by containerd 2\.0, 2\.1 \(read by 1\.7\)/.test(d.message)));
  assert.ok(f.some((d) => /conf_templte.*did you mean `conf_template`/.test(d.message)));
  const lines = list(r);
  assert.ok(lines.includes('10:3 containerd/not-read'));
});

test('deprecated: systemd_cgroup, registry mirrors, with their replacements; no fix where the replacement is not mechanical', () => {
  const r = run(V2_NODE, { containerdWindow: '1.7..2.1' });
  const f = only(r, 'containerd/deprecated');
  const ids = f.map((d) => d.data?.id ?? /\((io\.containerd\.deprecation\/[a-z0-9-]+)/.exec(d.message)[1]);
  assert.deepEqual(ids, ['io.containerd.deprecation/cri-systemd-cgroup-v1', 'io.containerd.deprecation/cri-registry-mirrors']);
  assert.match(f[0].message, /SystemdCgroup = true/);
  assert.match(f[1].message, /config_path/);
  for (const d of f) assert.equal(d.fixes?.length ?? 0, 0, 'config_path needs hosts.toml files; systemd_cgroup applied to the v1 shim only');
});

test('deprecated: cni.bin_dir → cni.bin_dirs fix where every minor reads bin_dirs, proven by re-analysis', () => {
  assert.deepEqual(key('plugins."io.containerd.cri.v1.runtime".cni.bin_dirs').minors, ['2.1', '2.2', '2.3']);
  const text = 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".cni]\n  bin_dir = "/opt/cni/bin"\n  conf_dir = "/etc/cni/net.d"\n';
  const f = only(run(text, { containerdWindow: '2.1..2.3', kubernetesWindow: '1.36' }), 'containerd/deprecated');
  assert.equal(f.length, 1);
  assert.equal(f[0].fixes.length, 1);
  const fixed = applyFix(text, f[0].fixes[0]);
  assert.equal(fixed, text.replace('bin_dir = "/opt/cni/bin"', 'bin_dirs = ["/opt/cni/bin"]'));
  // (No Kubernetes minor is supported by all of 2.1..2.3, so containerd/kubernetes-support stays: not this fix's business.)
  const after = run(fixed, { containerdWindow: '2.1..2.3', kubernetesWindow: '1.36' }).diagnostics.map((d) => d.ruleId);
  assert.deepEqual(after, ['containerd/kubernetes-support'], 'after the fix: nothing deprecated, nothing unread');
  // 2.0 does not read bin_dirs: no fix then (it would lose the directory on 2.0).
  const g = only(run(text, { containerdWindow: '2.0..2.1' }), 'containerd/deprecated');
  assert.equal(g[0].fixes?.length ?? 0, 0);
});

test('kubernetes-support: containerd 1.7 with Kubernetes 1.36 (1.35 is the last Kubernetes to support containerd 1.x)', () => {
  assert.equal(data.kubernetes.lastKubernetesMinorForContainerd1x, '1.35');
  const f = only(run(V2_NODE, { containerdWindow: '1.7', kubernetesWindow: '1.35..1.36' }), 'containerd/kubernetes-support');
  assert.equal(f.length, 1);
  assert.match(f[0].message, /containerd 1\.7 does not support Kubernetes 1\.36.*1\.35 is the last release that supports containerd 1\.x/);
  assert.deepEqual(only(run(V2_NODE, { containerdWindow: '1.7', kubernetesWindow: '1.33..1.35' }), 'containerd/kubernetes-support'), []);
});

test('kata-runtime: runtime_type and options.ConfigPath, and the hover of ConfigPath shows the chain to the Kata configuration', () => {
  const bad = 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\n  privileged_without_host_devices = true\n';
  const f = only(run(bad, { containerdWindow: '1.7' }), 'containerd/kata-runtime').map((d) => d.message);
  assert.equal(f.length, 2);
  assert.match(f[0], /no runtime_type/);
  assert.match(f[1], /no options\.ConfigPath/);
  const r = run(V2_NODE, { containerdWindow: '1.7' });
  assert.deepEqual(only(r, 'containerd/kata-runtime'), []);
  const line = V2_NODE.split('\n').findIndex((l) => l.includes('ConfigPath'));
  const h = e.hover(r, V2_NODE, { line, character: 20 });
  assert.match(h.markdown, /kata-qemu.*io\.containerd\.kata-qemu\.v2.*containerd-shim-kata-qemu-v2.*configuration-qemu\.toml/s);
});

test('hover on a key names the minors that read it; completion offers keys every minor of the window reads', () => {
  const r = run(V2_NODE, { containerdWindow: '1.7..2.1' });
  const line = V2_NODE.split('\n').findIndex((l) => l.includes('systemd_cgroup'));
  const h = e.hover(r, V2_NODE, { line, character: 4 });
  assert.match(h.markdown, /✓ read by 1\.7; ✗ not read by 2\.0, 2\.1/);
  const text = 'version = 3\n\n[plugins."io.containerd.cri.v1.runtime".cni]\n  \n';
  const r3 = run(text, { containerdWindow: '2.1..2.3' });
  const labels = e.complete(r3, text, { line: 3, character: 2 }).map((c) => c.label);
  assert.ok(labels.includes('bin_dirs') && labels.includes('conf_dir'), labels.join(','));
  assert.ok(!labels.includes('bin_dir'), 'deprecated keys are not offered');
  const r2 = run(text, { containerdWindow: '2.0..2.3' });
  assert.ok(!e.complete(r2, text, { line: 3, character: 2 }).map((c) => c.label).includes('bin_dirs'), '2.0 does not read bin_dirs');
});

test('the containerd window: .skewguard.yaml, else StarlingX\'s release data, else the Kubernetes window; bad windows are reported', () => {
  const loaded = e.parseConfig('/w/.skewguard.yaml', 'containerd:\n  window: "1.7..2.1"\n', new Set());
  assert.deepEqual(loaded.problems, []);
  const c1 = e.resolveConfig({ config: loaded });
  assert.deepEqual(e.describeResolved(c1).containerd.window, '1.7..2.1');
  assert.equal(e.analyze({ path: ETC, text: V2_NODE, config: c1 }).containerd.windowText, '1.7..2.1');
  const bad = e.parseConfig('/w/.skewguard.yaml', 'containerd:\n  window: "0.9..1.0"\n', new Set());
  assert.match(bad.problems[0].message, /holds no containerd minor of the data/);
  // StarlingX 9.0 ships containerd 1.6.21 (data/kubernetes/components.json starlingx.host).
  const stx = run(V2_NODE, { starlingxRelease: '9.0' });
  assert.equal(stx.containerd.windowText, '1.6');
  assert.match(stx.containerd.window.source.detail, /StarlingX 9\.0 ships containerd 1\.6\.21/);
  // From the Kubernetes window: every containerd minor that supports one of its minors.
  const k = run(V2_NODE, { kubernetesWindow: '1.35..1.36' });
  assert.equal(k.containerd.windowText, '1.7..2.3');
  assert.deepEqual(e.checkCliOverrides({ containerdWindow: 'x' }), ['--containerd-window: containerd.window "x" is not a containerd minor or range such as "1.7..2.1"']);
});

test('exact positions with CRLF and multi-byte characters; a BOM is a TOML syntax error at 1:1, not a silent pass', () => {
  const bom = run('\ufeffversion = 2\n', { containerdWindow: '1.7' });
  assert.deepEqual(bom.diagnostics.map((d) => [d.ruleId, d.range.start]), [['syntax/parse-error', { line: 0, character: 0 }]]);
  const text = 'version = 3\r\n# ünïcödé 🚀\r\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]\r\n  runtime_type = "io.containerd.runc.v2"\r\n';
  const r = run(text, { containerdWindow: '1.7..2.0' });
  const v = only(r, 'containerd/config-version')[0];
  assert.deepEqual(v.range.start, { line: 0, character: 0 });
  const n = only(r, 'containerd/not-read')[0];
  assert.deepEqual(n.range.start, { line: 2, character: 1 });
  assert.deepEqual(n.range.end, { line: 2, character: 61 });
});

test('lsp-lint: the example upgrade through the built CLI, --containerd-window, a bad flag is a usage error', () => {
  const lint = (...args) => { try { return { code: 0, out: execFileSync(process.execPath, ['bin/lsp-lint.js', ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) }; } catch (err) { return { code: err.status, out: err.stdout + err.stderr }; } };
  const file = 'examples/containerd/upgrade-1.7-to-2.1/etc/containerd/config.toml';
  const a = lint(file, '--format', 'json');
  assert.equal(a.code, 0, 'warnings only');
  assert.equal(JSON.parse(a.out)[0].messages.length, 7);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctr-'));
  try {
    const p = path.join(dir, 'containerd', 'config.toml');
    fs.mkdirSync(path.dirname(p));
    fs.writeFileSync(p, 'version = 3\n[plugins."io.containerd.cri.v1.runtime".containerd]\n  default_runtime_name = "runc"\n');
    const b = lint(p, '--containerd-window', '1.7..2.1', '--format', 'json');
    assert.equal(b.code, 1);
    // 1.7 cannot read version 3 at all (config-version); 2.0 and 2.1 read the cri.v1.runtime table.
    assert.deepEqual(JSON.parse(b.out)[0].messages.map((m) => m.ruleId), ['containerd/config-version']);
    const c = lint(p, '--containerd-window', '0.1..0.2');
    assert.equal(c.code, 2);
    assert.match(c.out, /holds no containerd minor/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('item 5: a RuntimeClass handler must be a runtime the workspace\'s containerd config defines (engine and lsp-lint)', () => {
  const rc = 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: kata\nhandler: kata-qemu\n';
  // The runtime names come from the containerd config itself (the extractor the workspace uses).
  const names = e.analyze({ path: ETC, text: V2_NODE, config: cfg() }).containerd.runtimeNames();
  assert.deepEqual(names, ['kata-qemu']);
  const ok = e.analyze({ path: '/w/rc.yaml', text: rc, config: cfg({ kubernetesWindow: '1.32' }), neighbours: { containerdRuntimes: { files: ['etc/containerd/config.toml'], names } } });
  assert.deepEqual(ok.diagnostics, []);
  const bad = e.analyze({ path: '/w/rc.yaml', text: rc.replace('handler: kata-qemu', 'handler: kata-qemu-snp'), config: cfg({ kubernetesWindow: '1.32' }), neighbours: { containerdRuntimes: { files: ['etc/containerd/config.toml'], names } } });
  assert.deepEqual(bad.diagnostics.map((d) => [d.ruleId, d.severity, d.range.start]), [['k8s/runtimeclass-handler', 'error', { line: 4, character: 9 }]]);
  // The workspace walk stopped at its cap: the handler is said to be not checked (info), not passed silently or failed.
  const cut = e.analyze({ path: '/w/rc.yaml', text: rc, config: cfg({ kubernetesWindow: '1.32' }), neighbours: { containerdRuntimes: { files: [], names: [], truncated: 'the workspace walk for containerd configs stopped after 2000 folders' } } });
  assert.deepEqual(cut.diagnostics.map((d) => [d.ruleId, d.severity]), [['k8s/runtimeclass-handler', 'info']]);
  assert.match(cut.diagnostics[0].message, /not checked: the workspace walk .* stopped after 2000 folders: no containerd config of the workspace was read/);
  // Without a containerd config in the workspace the handler is not checked (nothing to check it against).
  assert.deepEqual(e.analyze({ path: '/w/rc.yaml', text: rc, config: cfg({ kubernetesWindow: '1.32' }) }).diagnostics, []);
  // Through lsp-lint: the server finds containerd/config.toml in the workspace by name.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctr-rc-'));
  try {
    fs.mkdirSync(path.join(dir, 'node', 'containerd'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node', 'containerd', 'config.toml'), V2_NODE);
    fs.writeFileSync(path.join(dir, 'rc.yaml'), rc + '---\n' + rc.replace('name: kata', 'name: fc').replace('kata-qemu', 'kata-fc'));
    let out;
    try { out = execFileSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), 'rc.yaml', '--format', 'json', '--kubernetes-window', '1.32'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); } catch (err) { assert.equal(err.status, 1); out = err.stdout; }
    const msgs = JSON.parse(out)[0].messages;
    assert.deepEqual(msgs.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['11:10 k8s/runtimeclass-handler']);
    assert.match(msgs[0].message, /"kata-fc".*node\/containerd\/config\.toml defines "kata-qemu"/);
    // A containerd config of the workspace that does not parse may define the handler: not checked (info), not passed silently.
    fs.writeFileSync(path.join(dir, 'node', 'containerd', 'config.toml'), 'version = 2\n[plugins\n');
    try { out = execFileSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), 'rc.yaml', '--format', 'json', '--kubernetes-window', '1.32'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); } catch (err) { out = err.stdout; }
    const broken = JSON.parse(out)[0].messages;
    assert.deepEqual(broken.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.severity}`), ['5:10 k8s/runtimeclass-handler info', '11:10 k8s/runtimeclass-handler info']);
    assert.match(broken[0].message, /not checked: node\/containerd\/config\.toml does not parse: no containerd config of the workspace was read/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('#27 the hover of a deprecated key shows its replacement as written: <runtime_name> is text, not an HTML tag markdown drops', async () => {
  const T = 'version = 2\n\n[plugins."io.containerd.grpc.v1.cri"]\n  systemd_cgroup = true\n';
  const r = run(T, { containerdWindow: '1.6..1.7' });
  const h = e.hover(r, T, { line: 3, character: 4 });
  // markdown-it (with @vscode/vsce, which renders extension READMEs the same way) as VS Code renders hovers: HTML off.
  const { createRequire } = await import('node:module');
  const MarkdownIt = createRequire(import.meta.url)('markdown-it');
  const shown = (html) => html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  // VS Code renders hovers with marked, which reads `<` + a word (underscores too) as an HTML tag and its sanitizer
  // drops it: outside code spans, no `<` may stand unescaped.
  const outsideCode = h.markdown.replace(/`[^`]*`/g, '');
  assert.doesNotMatch(outsideCode, /(^|[^\\])<[A-Za-z]/, h.markdown);
  for (const htmlOn of [false, true]) {
    const text = shown(new MarkdownIt({ html: htmlOn }).render(h.markdown));
    assert.ok(text.includes('plugins."io.containerd.grpc.v1.cri".containerd.runtimes.<runtime_name>.options.SystemdCgroup = true (runc v2 options)'), text);
    assert.ok(text.includes('plugins."io.containerd.grpc.v1.cri".systemd_cgroup — containerd config.toml'), text);
  }
});
