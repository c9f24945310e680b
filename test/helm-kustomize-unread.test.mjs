// Never a silent pass in the Helm and Kustomize families: what is there but cannot be read or loaded is said at a
// position (a dependency whose Chart.yaml cannot be read or parsed, a folder that cannot be listed, links in a
// packaged dependency, a listed kustomize resource over the size limit, a step with no kustomize data row), failed
// real-Helm renders are not reused for ever, and an edit in a vendored subchart re-checks its parent's open files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fsAccess } from './helpers/fs-access.mjs';
import { LspClient, makeWorkspace, uriOf } from './helpers/lsp-client.mjs';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const hr = require('../dist/helm-render.js');
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');

const CHART_YAML = 'apiVersion: v2\nname: app\nversion: 1.0.0\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const config = (window) => e.resolveConfig({ cli: { kubernetesWindow: window } });
const show = (r) => r.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.ruleId} ${d.message}`);

function tmp(files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-unread-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** lsp-lint --format json on `args` in `dir`: the messages per file (relative path → `line:col severity rule message`). */
function lint(dir, args) {
  const r = spawnSync(process.execPath, [lspLint, '--format', 'json', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, SKEWGUARD_TODAY: '2026-12-01' } });
  assert.ok(r.stdout, r.stderr);
  const out = {};
  for (const f of JSON.parse(r.stdout)) out[path.relative(dir, f.filePath)] = f.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId} ${m.message}`);
  return { status: r.status, files: out, stderr: r.stderr };
}

test('a vendored dependency whose Chart.yaml cannot be read (a link loop) is said on the parent\'s Chart.yaml, through lsp-lint', () => {
  const dir = tmp({ 'Chart.yaml': CHART_YAML, 'templates/cm.yaml': CM, 'charts/sub/templates/cm.yaml': CM });
  try {
    fs.symlinkSync('Chart.yaml', path.join(dir, 'charts', 'sub', 'Chart.yaml'));
    const r = lint(dir, ['--kubernetes-window', '1.24..1.25', 'Chart.yaml']);
    assert.deepEqual(r.files['Chart.yaml'], ['1:1 info helm/not-evaluated charts/sub/Chart.yaml: not read (unreadable: ELOOP): the dependency in charts/sub/ is not checked']);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a vendored dependency whose Chart.yaml does not parse, or that has none, is said on the parent\'s Chart.yaml', () => {
  const dir = tmp({
    'Chart.yaml': CHART_YAML, 'templates/cm.yaml': CM,
    'charts/broken/Chart.yaml': 'apiVersion: v2\nname: [broken\n', 'charts/broken/templates/cm.yaml': CM,
    'charts/nochart/templates/cm.yaml': CM,
    'charts/ok/Chart.yaml': 'apiVersion: v2\nname: ok\nversion: 1.0.0\n',
  });
  try {
    fs.mkdirSync(path.join(dir, 'charts', 'empty'));
    const file = path.join(dir, 'Chart.yaml');
    const out = show(e.analyze({ path: file, text: CHART_YAML, config: config('1.24..1.25'), files: fsAccess() }));
    assert.equal(out.length, 2, out.join('\n'));
    assert.match(out[0], /^1:1 info helm\/not-evaluated charts\/broken\/Chart\.yaml: does not parse \(.+\): Helm cannot load the chart; the dependency in charts\/broken\/ is checked with no Chart\.yaml fields \(its name taken from its folder\)$/);
    assert.equal(out[1], '1:1 info helm/not-evaluated charts/nochart: no Chart.yaml in charts/nochart/: Helm refuses to load the chart (Chart.yaml file is missing), so the dependency is not checked');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('FileAccess.unreadable: a templates/ folder that cannot be listed is not an empty one (engine, and the server\'s access through lsp-lint)', () => {
  // In-process with an access that tells why (EACCES cannot be made for root: the reason is the access's).
  const dir = tmp({ 'Chart.yaml': CHART_YAML, 'values.yaml': 'a: 1\n' });
  try {
    const base = fsAccess();
    const templates = path.join(dir, 'templates');
    const files = { ...base, list: (d) => (d === templates ? undefined : base.list(d)), unreadable: (p) => (p === templates ? 'cannot be listed: EACCES' : undefined) };
    const out = show(e.analyze({ path: path.join(dir, 'Chart.yaml'), text: CHART_YAML, config: config('1.24..1.25'), files }));
    assert.deepEqual(out, ["1:1 info helm/not-evaluated templates: not read (cannot be listed: EACCES): the chart's templates are not checked"]);
    // An access without unreadable() (or a folder that is simply missing) says nothing: nothing is there.
    assert.deepEqual(show(e.analyze({ path: path.join(dir, 'Chart.yaml'), text: CHART_YAML, config: config('1.24..1.25'), files: base })), []);
    // The server's access: a folder that is a link loop is there but cannot be listed.
    fs.symlinkSync('templates', templates);
    const r = lint(dir, ['--kubernetes-window', '1.24..1.25', 'Chart.yaml']);
    assert.deepEqual(r.files['Chart.yaml'], ["1:1 info helm/not-evaluated templates: not read (cannot be listed: ELOOP): the chart's templates are not checked"]);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('links in a packaged dependency are said on the archive, not dropped', () => {
  const dir = tmp({ 'Chart.yaml': CHART_YAML, 'templates/cm.yaml': CM, 'pkg/dep/Chart.yaml': 'apiVersion: v2\nname: dep\nversion: 1.0.0\n', 'pkg/dep/templates/cm.yaml': CM });
  try {
    fs.symlinkSync('cm.yaml', path.join(dir, 'pkg', 'dep', 'templates', 'link.yaml'));
    fs.mkdirSync(path.join(dir, 'charts'));
    const tgz = path.join(dir, 'charts', 'dep-1.0.0.tgz');
    execFileSync('tar', ['-czf', tgz, '-C', path.join(dir, 'pkg'), 'dep']);
    const r = e.analyze({ path: tgz, text: '', config: config('1.24..1.25'), files: fsAccess() });
    assert.deepEqual(show(r), ['1:1 info helm/not-evaluated dep/templates/link.yaml: a symbolic link to cm.yaml in the archive: not read (only regular files are), so it is not checked']);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('kustomize/missing-resource: a listed file over the size limit is "not read", not "does not exist" (through lsp-lint)', () => {
  const K = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - big.yaml\n  - gone.yaml\n';
  const dir = tmp({ 'kustomization.yaml': K });
  try {
    // Sparse: over MAX_FILE_BYTES without writing it.
    const fd = fs.openSync(path.join(dir, 'big.yaml'), 'w');
    fs.ftruncateSync(fd, e.MAX_FILE_BYTES + 1);
    fs.closeSync(fd);
    const r = lint(dir, ['--kubernetes-window', '1.27..1.28', 'kustomization.yaml']);
    assert.deepEqual(r.files['kustomization.yaml'], [
      `4:5 info kustomize/missing-resource the resources entry big.yaml is there but was not read (over the size limit (${e.MAX_FILE_BYTES + 1} bytes; at most ${e.MAX_FILE_BYTES} are read)): it is not checked (looked up as ${path.join(dir, 'big.yaml')})`,
      `5:5 warning kustomize/missing-resource the resources entry gone.yaml does not exist (looked up as ${path.join(dir, 'gone.yaml')}): kustomize stops here at every step`,
    ]);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a window step the kustomize data has no kubectl row for is said as not checked, not an internal error', () => {
  // A package root whose kustomize data lacks the 1.21 row (everything else is the repository's).
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-kdata-')));
  try {
    fs.symlinkSync(path.join(repoRoot, 'schemas'), path.join(root, 'schemas'));
    fs.mkdirSync(path.join(root, 'data', 'kubernetes'), { recursive: true });
    for (const d of fs.readdirSync(path.join(repoRoot, 'data'))) if (d !== 'kubernetes') fs.symlinkSync(path.join(repoRoot, 'data', d), path.join(root, 'data', d));
    for (const f of fs.readdirSync(path.join(repoRoot, 'data', 'kubernetes'))) if (f !== 'kustomize.json') fs.symlinkSync(path.join(repoRoot, 'data', 'kubernetes', f), path.join(root, 'data', 'kubernetes', f));
    const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'kustomize.json'), 'utf8'));
    data.kubectl = data.kubectl.filter((r) => r.from !== '1.21');
    fs.writeFileSync(path.join(root, 'data', 'kubernetes', 'kustomize.json'), JSON.stringify(data));
    const script = `const e = require(${JSON.stringify(path.join(repoRoot, 'dist', 'engine.js'))});
const text = 'apiVersion: kustomize.config.k8s.io/v1beta1\\nkind: Kustomization\\nbases:\\n  - ../base\\n';
const r = e.analyze({ path: '/w/kustomization.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.20..1.22' } }) });
process.stdout.write(JSON.stringify(r.diagnostics.map((d) => [d.range.start.line + 1, d.severity, d.ruleId, d.message])));`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, SKEWGUARD_ROOT: root } }));
    assert.ok(!out.some((d) => d[2] === 'skewguard/internal-error'), JSON.stringify(out));
    assert.deepEqual(out.find((d) => d[2] === 'kustomize/field-not-read' && d[1] === 'info'),
      [1, 'info', 'kustomize/field-not-read', 'not checked at 1.21: data/kubernetes/kustomize.json has no kubectl row for this step, so which kustomize it runs is not known; the fields are checked at the other steps of the window 1.20..1.22 only']);
    assert.ok(out.some((d) => d[2] === 'kustomize/deprecated-field'), 'the other steps are still checked');
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});

test('a failed real-Helm render is reused only for a while (failedTtlMs), then rendered again although the chart did not change', async () => {
  const dir = tmp({ 'Chart.yaml': CHART_YAML, 'templates/cm.yaml': CM });
  // The fake Helm and its log outside the chart (a file in the chart would change its content key).
  const bin = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fakehelm-')));
  try {
    const fake = path.join(bin, 'helm');
    fs.writeFileSync(fake, `#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\necho x >> "${bin}/runs"\necho "Error: boom" >&2\nexit 1\n`, { mode: 0o755 });
    const file = path.join(dir, 'templates', 'cm.yaml');
    const cfg = { render: true, path: { value: fake }, values: { files: [] } };
    const request = (svc) => svc.request(file, cfg, ['1.25'], dir, () => undefined);
    const runs = () => fs.readFileSync(path.join(bin, 'runs'), 'utf8').split('\n').filter(Boolean).length;

    // Trusted as the server makes it on the user's signal (a new service trusts nothing: issue #25).
    const keep = Object.assign(new hr.HelmService({ jobs: 1 }), { trusted: true });
    await request(keep).pending;
    const again = request(keep);
    assert.equal(again.pending, undefined, 'within the time a failure is reused: not rendered again at once');
    assert.equal(again.renders[0].ok, false);
    assert.match(again.read.why, /boom/);
    assert.equal(runs(), 1);

    const fresh = Object.assign(new hr.HelmService({ jobs: 1, failedTtlMs: 0 }), { trusted: true });
    await request(fresh).pending;
    const retried = request(fresh);
    assert.ok(retried.pending, 'past the time, the same chart is rendered again');
    await retried.pending;
    assert.equal(runs(), 3);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(bin, { recursive: true, force: true }); }
});

test('an edit in a vendored subchart\'s helper re-checks the parent chart\'s open templates (the chart Helm renders)', async (t) => {
  const HELPER = '{{- define "sub.cronjob.apiVersion" -}}\nbatch/v1beta1\n{{- end -}}\n';
  const root = makeWorkspace({
    '.skewguard.yaml': 'kubernetes:\n  window: "1.21..1.25"\n',
    'chart/Chart.yaml': CHART_YAML,
    'chart/templates/cronjob.yaml': 'apiVersion: {{ include "sub.cronjob.apiVersion" . }}\nkind: CronJob\nmetadata:\n  name: report\n',
    'chart/charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 1.0.0\n',
    'chart/charts/sub/templates/_helpers.tpl': HELPER,
  });
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const tpl = uriOf(path.join(root, 'chart/templates/cronjob.yaml'));
  const p = await client.open(tpl, 'apiVersion: {{ include "sub.cronjob.apiVersion" . }}\nkind: CronJob\nmetadata:\n  name: report\n');
  assert.deepEqual(p.diagnostics.map((d) => d.code), ['helm/removed-api']);
  const helper = uriOf(path.join(root, 'chart/charts/sub/templates/_helpers.tpl'));
  await client.open(helper, HELPER, 1, 'helm');
  const since = client.count(tpl);
  await client.change(helper, 2, [{ text: HELPER.replace('batch/v1beta1', 'batch/v1') }]);
  const again = await client.waitFor(tpl, (x) => x.diagnostics.length === 0, { since, timeout: 5000 });
  assert.deepEqual(again.diagnostics, []);
});

test('.Values are converted once per chart and shared by its renders, copy on write: a template that sets or merges into its values changes no other template\'s', () => {
  const dir = tmp({
    'Chart.yaml': CHART_YAML,
    'values.yaml': 'api: batch/v1\nnested:\n  api: batch/v1\n',
    // a-*.yaml render first (by name): they change their values; b-*.yaml read the same keys afterwards.
    'templates/a-set.yaml': '{{- $_ := set .Values "api" "batch/v1beta1" }}\napiVersion: {{ .Values.api }}\nkind: CronJob\nmetadata:\n  name: a\n',
    'templates/a-merge.yaml': '{{- $_ := merge .Values.nested (dict "extra" 1) }}{{- $_ := unset .Values.nested "api" }}\napiVersion: {{ .Values.nested.api | default "batch/v1beta1" }}\nkind: CronJob\nmetadata:\n  name: m\n',
    'templates/b-read.yaml': 'apiVersion: {{ .Values.api }}\nkind: CronJob\nmetadata:\n  name: b\n',
    'templates/b-nested.yaml': 'apiVersion: {{ .Values.nested.api }}\nkind: CronJob\nmetadata:\n  name: n\n{{- if .Values.nested.extra }}\n  extra: seen\n{{- end }}\n',
  });
  try {
    const rows = e.helmEmissions(dir, { ...fsAccess(), stamp: () => 0 }, ['1.24', '1.25']);
    assert.deepEqual(rows.map((x) => `${x.template} ${x.step} ${x.apiVersion}`).sort(), [
      'templates/a-merge.yaml 1.24 batch/v1beta1', 'templates/a-merge.yaml 1.25 batch/v1beta1',
      'templates/a-set.yaml 1.24 batch/v1beta1', 'templates/a-set.yaml 1.25 batch/v1beta1',
      'templates/b-nested.yaml 1.24 batch/v1', 'templates/b-nested.yaml 1.25 batch/v1',
      'templates/b-read.yaml 1.24 batch/v1', 'templates/b-read.yaml 1.25 batch/v1',
    ]);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('closing a chart file whose buffer differed from the disk re-reads the chart; closing one equal to the disk keeps what was read', async (t) => {
  const DISK = '{{- define "app.api" -}}\nbatch/v1beta1\n{{- end -}}\n';
  const TPL = 'apiVersion: {{ include "app.api" . }}\nkind: CronJob\nmetadata:\n  name: report\n';
  const root = makeWorkspace({ '.skewguard.yaml': 'kubernetes:\n  window: "1.21..1.25"\n', 'chart/Chart.yaml': CHART_YAML, 'chart/templates/_helpers.tpl': DISK, 'chart/templates/cronjob.yaml': TPL });
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const tpl = uriOf(path.join(root, 'chart/templates/cronjob.yaml'));
  const helper = uriOf(path.join(root, 'chart/templates/_helpers.tpl'));
  await client.open(helper, DISK.replace('batch/v1beta1', 'batch/v1'), 1, 'helm');
  const open = await client.open(tpl, TPL);
  assert.deepEqual(open.diagnostics, [], 'the open helper buffer (batch/v1) is what the template includes');
  await client.notify('textDocument/didClose', { textDocument: { uri: helper } });
  const again = await client.change(tpl, 2, [{ text: TPL }]);
  assert.deepEqual(again.diagnostics.map((d) => d.code), ['helm/removed-api'], 'after the close, the disk helper (batch/v1beta1)');
  // A buffer equal to the disk: closing it changes nothing the template reads.
  await client.open(helper, DISK, 2, 'helm');
  await client.notify('textDocument/didClose', { textDocument: { uri: helper } });
  const same = await client.change(tpl, 3, [{ text: TPL }]);
  assert.deepEqual(same.diagnostics.map((d) => d.code), ['helm/removed-api']);
});

test('lsp-lint with two servers sends the files of one chart to one server (each chart is read and rendered once), and the report is the same as with one', () => {
  const files = {};
  for (let c = 0; c < 6; c++) {
    files[`c${c}/Chart.yaml`] = `apiVersion: v2\nname: c${c}\nversion: 1.0.0\n`;
    files[`c${c}/values.yaml`] = 'a: 1\n';
    for (let i = 0; i < 4; i++) files[`c${c}/templates/t${i}.yaml`] = `apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: t${i}\n`;
    files[`c${c}/charts/sub/Chart.yaml`] = 'apiVersion: v2\nname: sub\nversion: 1.0.0\n';
    files[`c${c}/charts/sub/templates/s.yaml`] = CM;
  }
  for (let i = 0; i < 6; i++) files[`plain/m${i}.yaml`] = CM;
  const dir = tmp(files);
  try {
    // The real server, logging the files each server process is sent.
    const log = path.join(dir, 'opened.log');
    const wrapper = path.join(dir, 'logging-server.cjs');
    fs.writeFileSync(wrapper, `const fs = require('fs');
process.stdin.on('data', (c) => { for (const m of c.toString('utf8').matchAll(/"method":"textDocument\\/didOpen","params":\\{"textDocument":\\{"uri":"([^"]+)"/g)) fs.appendFileSync(${JSON.stringify(log)}, process.pid + ' ' + m[1] + '\\n'); });
require(${JSON.stringify(path.join(repoRoot, 'dist', 'server.js'))});
`);
    const run = (jobs) => {
      const r = spawnSync(process.execPath, [lspLint, '--format', 'json', '--jobs', String(jobs), '--kubernetes-window', '1.24..1.25', '.'], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, SKEWGUARD_TODAY: '2026-12-01', SKEWGUARD_SERVER: wrapper } });
      assert.ok(r.stdout, r.stderr);
      return r.stdout;
    };
    fs.rmSync(log, { force: true });
    const two = run(2);
    const byChart = new Map();
    const pids = new Set();
    for (const line of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const [pid, uri] = line.split(' ');
      pids.add(pid);
      const m = /\/(c\d+)\//.exec(decodeURIComponent(uri));
      if (!m) continue;
      if (!byChart.has(m[1])) byChart.set(m[1], new Set());
      byChart.get(m[1]).add(pid);
    }
    assert.equal(pids.size, 2, 'two servers checked files');
    assert.equal(byChart.size, 6);
    for (const [chart, servers] of byChart) assert.equal(servers.size, 1, `${chart}: its files (its subchart's included) went to one server`);
    assert.equal(run(1), two, 'the same report with one server');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
