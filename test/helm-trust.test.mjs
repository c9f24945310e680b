// Real Helm rendering is never run in an untrusted workspace (VS Code's Restricted Mode): the client says so in
// initializationOptions.workspaceTrusted and sends skewguard/workspaceTrusted when the user trusts it. Helm here is
// a wrapper around the dev dependency's binary that logs every run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';
import { helmBinary } from './helpers/helm.mjs';

const PSP = path.join(repoRoot, 'test', 'fixtures', 'charts', 'psp-capabilities');

function workspace(config) {
  const dir = makeWorkspace({ '.skewguard.yaml': config });
  fs.cpSync(PSP, path.join(dir, 'chart'), { recursive: true });
  const log = path.join(dir, 'helm-runs.log');
  fs.writeFileSync(path.join(dir, 'helm-wrapper'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${helmBinary()}' "$@"\n`, { mode: 0o755 });
  return { dir, log, file: path.join(dir, 'chart', 'templates', 'psp-kind.yaml') };
}

const runs = (log) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
const readBy = async (c, file) => (await c.request('skewguard/resolvedConfig', { uri: uriOf(file) })).resolved.helm.readBy;

async function until(pred, what, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('untrusted: Helm is never run, whatever .skewguard.yaml says; trusting the workspace renders the chart', async () => {
  const ws = workspace('kubernetes:\n  window: "1.24..1.25"\nhelm:\n  render: true\n  path: helm-wrapper\n');
  const c = new LspClient(ws.dir, { initializationOptions: { workspaceTrusted: false } });
  try {
    await c.initialize();
    await c.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    const before = await readBy(c, ws.file);
    assert.equal(before.readBy, 'evaluator');
    assert.match(before.why, /not trusted \(Restricted Mode\): Helm is never run/);
    assert.deepEqual(runs(ws.log), [], 'helm ran in an untrusted workspace');

    await c.notify('skewguard/workspaceTrusted', {});
    await until(() => c.notifications.filter((n) => n.method === 'skewguard/progress' && n.params.family === 'helm-chart').length >= 2, 'two rendered steps');
    await until(async () => (await readBy(c, ws.file)).readBy === 'helm', 'the chart read by helm');
    const after = await readBy(c, ws.file);
    assert.match(after.helmVersion, /^v3\./);
    assert.ok(runs(ws.log).includes('template'), runs(ws.log).join(','));
    const steps = c.notifications.filter((n) => n.method === 'skewguard/progress' && n.params.family === 'helm-chart').map((n) => n.params.step).sort();
    assert.deepEqual(steps, ['1.24', '1.25']);
  } finally { c.kill(); fs.rmSync(ws.dir, { recursive: true, force: true }); }
});

test('trusted but not asked for: Helm is not run, and the report says the chart was read by the evaluator', async () => {
  const ws = workspace('kubernetes:\n  window: "1.25"\nhelm:\n  path: helm-wrapper\n');
  const c = new LspClient(ws.dir);
  try {
    await c.initialize();
    await c.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    const r = await readBy(c, ws.file);
    assert.equal(r.readBy, 'evaluator');
    assert.match(r.why, /Helm rendering is off/);
    assert.deepEqual(runs(ws.log), []);
  } finally { c.kill(); fs.rmSync(ws.dir, { recursive: true, force: true }); }
});

test('the editor setting skewguard.helm.path names the binary (relative to the workspace folder; a binary inside it only when the workspace is trusted)', async () => {
  const ws = workspace('kubernetes:\n  window: "1.25"\nhelm:\n  render: true\n');
  const c = new LspClient(ws.dir, { settings: { skewguard: { helm: { path: 'helm-wrapper' } } }, initializationOptions: { workspaceTrusted: true } });
  try {
    await c.initialize();
    await c.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    await until(async () => (await readBy(c, ws.file)).readBy === 'helm', 'the chart read by helm');
    const cfg = (await c.request('skewguard/resolvedConfig', { uri: uriOf(ws.file) })).resolved.helm;
    assert.equal(cfg.binary, path.join(ws.dir, 'helm-wrapper'));
    assert.equal(cfg.path.source.kind, 'settings');
    assert.ok(runs(ws.log).includes('template'));
  } finally { c.kill(); fs.rmSync(ws.dir, { recursive: true, force: true }); }
});

test('editor settings: skewguard.helm.path is a setting; whether to render is not (only .skewguard.yaml or --helm-render say it)', async () => {
  const { engine } = await import('./helpers/k8s.mjs');
  const ok = engine.normalizeSettings({ helm: { path: '/opt/helm/bin/helm' } }, engine.ruleIds);
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.settings.helm, { path: '/opt/helm/bin/helm' });
  assert.equal(ok.overrides.helmPath, '/opt/helm/bin/helm');
  const bad = engine.normalizeSettings({ helm: { render: true, path: 7 } }, engine.ruleIds);
  assert.deepEqual(bad.problems.map((p) => p.setting).sort(), ['skewguard.helm.path', 'skewguard.helm.render']);
  assert.equal(bad.overrides.helmRender, undefined);
  assert.equal(bad.overrides.helmPath, undefined);
  // Resolved: the editor's path is used, relative to the workspace folder (no base); the config file's is relative to it.
  const r = engine.resolveConfig({ settings: ok.overrides });
  assert.equal(r.helm.render, false);
  assert.deepEqual(r.helm.path, { value: '/opt/helm/bin/helm', base: undefined, source: { kind: 'settings', detail: 'editor settings' } });
  const loaded = engine.parseConfig('/w/repo/.skewguard.yaml', 'helm:\n  render: true\n  path: tools/helm\n  values: [a.yaml, b.yaml]\n', engine.ruleIds);
  const c = engine.resolveConfig({ config: loaded, settings: ok.overrides });
  assert.equal(c.helm.render, true);
  assert.equal(c.helm.path.value, 'tools/helm', 'the config file wins over the editor setting');
  assert.equal(c.helm.path.base, '/w/repo');
  assert.deepEqual(c.helm.values, { files: ['a.yaml', 'b.yaml'], base: '/w/repo', source: { kind: 'config', detail: '/w/repo/.skewguard.yaml' } });
  // The command line wins over the file for render.
  assert.equal(engine.resolveConfig({ cli: { helmRender: true }, config: engine.parseConfig('/w/.skewguard.yaml', 'helm:\n  render: false\n', engine.ruleIds) }).helm.render, true);
});

// Issue #25, 1: a client that sends no trust signal (Neovim, Helix, Emacs, any plain LSP client) is not a trusted one.
test('no trust signal: a Helm named by .skewguard.yaml, or found through a relative PATH entry, is never run', async () => {
  const ws = workspace('kubernetes:\n  window: "1.25"\nhelm:\n  render: true\n  path: helm-wrapper\n');
  fs.mkdirSync(path.join(ws.dir, 'tools'));
  fs.copyFileSync(path.join(ws.dir, 'helm-wrapper'), path.join(ws.dir, 'tools', 'helm'));
  fs.chmodSync(path.join(ws.dir, 'tools', 'helm'), 0o755);
  const plain = new LspClient(ws.dir);
  try {
    await plain.initialize();
    await plain.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    const r = await readBy(plain, ws.file);
    assert.equal(r.readBy, 'evaluator');
    assert.match(r.why, /not trusted: Helm is run only when the user trusts it .*never on \.skewguard\.yaml alone/);
  } finally { plain.kill(); }
  // Trusted for rendering (the user's flag) but not for the workspace's content: .skewguard.yaml's helm.path, and a
  // PATH whose entries are relative ("tools") or inside the workspace, name no Helm that is run.
  const cli = new LspClient(ws.dir, { initializationOptions: { cli: { helmRender: true } }, env: { PATH: `tools${path.delimiter}${path.join(ws.dir, 'tools')}` } });
  try {
    await cli.initialize();
    await cli.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    const r = await readBy(cli, ws.file);
    assert.equal(r.readBy, 'evaluator');
    assert.match(r.why, /helm\.path of \.skewguard\.yaml .* is not run: the workspace is not trusted/);
    fs.writeFileSync(path.join(ws.dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.25"\nhelm:\n  render: true\n');
    await cli.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(ws.dir, '.skewguard.yaml')), type: 2 }] });
    await until(async () => /no Helm binary found/.test((await readBy(cli, ws.file)).why ?? ''), 'the PATH lookup');
    const cfg = (await cli.request('skewguard/resolvedConfig', { uri: uriOf(ws.file) })).resolved.helm;
    assert.equal(cfg.binary, null);
    assert.ok(cfg.looked.some((l) => /^not tools \(a relative PATH entry\)$/.test(l)), cfg.looked.join(', '));
    assert.ok(cfg.looked.some((l) => l.startsWith(`not ${path.join(ws.dir, 'tools')} (inside the workspace)`)), cfg.looked.join(', '));
  } finally { cli.kill(); }
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(runs(ws.log), [], 'a Helm of the repository ran');
  fs.rmSync(ws.dir, { recursive: true, force: true });
});

// Issue #25 (leftover): a refused repository path must not shadow the user's own skewguard.helm.path.
test('not trusted for its content: the user\'s skewguard.helm.path wins over a refused helm.path of .skewguard.yaml', async () => {
  const ws = workspace('kubernetes:\n  window: "1.25"\nhelm:\n  render: true\n  path: helm-wrapper\n');
  // The user's Helm, outside the workspace (a wrapper logging to its own file).
  const mine = fs.mkdtempSync(path.join(path.dirname(ws.dir), 'skewguard-user-helm-'));
  const myLog = path.join(mine, 'runs.log');
  fs.writeFileSync(path.join(mine, 'helm'), `#!/bin/sh\necho "$1" >> '${myLog}'\nexec '${helmBinary()}' "$@"\n`, { mode: 0o755 });
  // Resolved: the repository's path wins the layers, the user's is kept beside it.
  const { engine } = await import('./helpers/k8s.mjs');
  const resolved = engine.resolveConfig({ config: engine.parseConfig(path.join(ws.dir, '.skewguard.yaml'), fs.readFileSync(path.join(ws.dir, '.skewguard.yaml'), 'utf8'), engine.ruleIds), settings: { helmPath: path.join(mine, 'helm') } });
  assert.equal(resolved.helm.path.source.kind, 'config');
  assert.deepEqual(resolved.helm.path.user, { value: path.join(mine, 'helm'), source: { kind: 'settings', detail: 'editor settings' } });
  // Trusted for rendering (the user's flag), not for the workspace's content: the repository's Helm is refused, the user's runs.
  const c = new LspClient(ws.dir, { initializationOptions: { cli: { helmRender: true } }, settings: { skewguard: { helm: { path: path.join(mine, 'helm') } } } });
  try {
    await c.initialize();
    await c.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    await until(async () => {
      const r = await readBy(c, ws.file);
      assert.doesNotMatch(r.why ?? '', /is not run/, 'the refused repository path shadowed the user\'s setting');
      return r.readBy === 'helm';
    }, 'the chart read by the user\'s helm');
    const cfg = (await c.request('skewguard/resolvedConfig', { uri: uriOf(ws.file) })).resolved.helm;
    assert.equal(cfg.binary, path.join(mine, 'helm'));
    assert.equal(cfg.refused, undefined);
    assert.equal(cfg.looked[0], `not ${path.join(ws.dir, 'helm-wrapper')} (helm.path of .skewguard.yaml: the workspace is not trusted)`);
    assert.ok(runs(myLog).includes('template'), runs(myLog).join(','));
  } finally { c.kill(); }
  // Without a setting of the user's, the repository's path is still refused (not replaced by helm on PATH).
  const plain = new LspClient(ws.dir, { initializationOptions: { cli: { helmRender: true } } });
  try {
    await plain.initialize();
    await plain.open(uriOf(ws.file), fs.readFileSync(ws.file, 'utf8'));
    const r = await readBy(plain, ws.file);
    assert.equal(r.readBy, 'evaluator');
    assert.match(r.why, /helm\.path of \.skewguard\.yaml .* is not run: the workspace is not trusted/);
  } finally { plain.kill(); }
  assert.deepEqual(runs(ws.log), [], 'the repository\'s Helm ran');
  fs.rmSync(ws.dir, { recursive: true, force: true });
  fs.rmSync(mine, { recursive: true, force: true });
});
