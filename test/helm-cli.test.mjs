// lsp-lint and real Helm rendering: --helm-render (no Helm: a usage error naming where it looked), helm.render in
// .skewguard.yaml, how each chart was read in the JSON report, --print-config and the stylish line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from './helpers/k8s.mjs';
import { helmBinary } from './helpers/helm.mjs';

const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');
const PSP = path.join(repoRoot, 'test', 'fixtures', 'charts', 'psp-capabilities');
const helmDir = path.dirname(helmBinary());

function workspace(config) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-helm-cli-')));
  if (config !== undefined) fs.writeFileSync(path.join(dir, '.skewguard.yaml'), config);
  fs.cpSync(PSP, path.join(dir, 'chart'), { recursive: true });
  return dir;
}

function lint(dir, args, PATH = '/nonexistent-bin') {
  return spawnSync(process.execPath, [lspLint, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, PATH, NO_COLOR: '1' } });
}

const helmFacts = (stdout) => JSON.parse(stdout).filter((r) => r.facts?.helm).map((r) => [path.basename(r.filePath), r.facts.helm]);

test('--helm-render without a Helm anywhere: usage error (exit 2) naming where it looked', () => {
  const dir = workspace();
  try {
    // PATH entries outside the checked folder (one inside it is never looked in: test/helm-trust.test.mjs).
    const r = lint(dir, ['--helm-render', '.'], `${path.join(os.tmpdir(), 'sg-none', 'no-such-bin')}${path.delimiter}${path.join(os.tmpdir(), 'sg-none', 'other')}`);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^lsp-lint: --helm-render: no Helm binary found \(looked at .*no-such-bin\/helm, .*other\/helm\); install Helm 3 or name it with --helm-path/);
    assert.equal(r.stdout, '');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('--helm-render with helm on PATH: every file of the chart says it was read by helm at each step; one stylish line', () => {
  const dir = workspace('kubernetes:\n  window: "1.24..1.25"\n');
  try {
    const json = lint(dir, ['--helm-render', '--format', 'json', '.'], helmDir);
    assert.equal(json.status, 1, json.stderr); // the chart's hook hard-codes batch/v1beta1 CronJob, removed in 1.25
    const facts = helmFacts(json.stdout);
    assert.ok(facts.length >= 7, JSON.stringify(facts));
    for (const [name, f] of facts) {
      assert.equal(f.readBy, 'helm', name);
      assert.equal(f.chart, path.join(dir, 'chart'), `${name}: the subchart's files belong to the parent chart`);
      assert.deepEqual(f.rendered, ['1.24', '1.25']);
      assert.match(f.helmVersion, /^v3\.17\./);
    }
    const stylish = lint(dir, ['--helm-render', '.'], helmDir);
    const last = stylish.stdout.trim().split('\n').at(-1);
    assert.match(last, /^Helm chart read: chart by helm v3\.17\.\d+ at 2 steps$/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('helm.render in .skewguard.yaml with a Helm that fails: not a usage error; the chart is read by the evaluator, and the report says why', () => {
  const dir = workspace('kubernetes:\n  window: "1.25"\nhelm:\n  render: true\n');
  // The user's Helm, outside the checked folder, named on the command line (a repository's own is never run).
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-helm-bin-'));
  const user = ['--helm-render', '--helm-path', path.join(bin, 'helm')];
  try {
    fs.writeFileSync(path.join(bin, 'helm'), '#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\necho "Error: chart is broken" >&2\nexit 1\n', { mode: 0o755 });
    const r = lint(dir, [...user, '--format', 'json', '.']);
    assert.equal(r.status, 1, r.stderr); // the chart's hook hard-codes batch/v1beta1 CronJob, removed in 1.25
    for (const [name, f] of helmFacts(r.stdout)) {
      assert.equal(f.readBy, 'evaluator', name);
      assert.deepEqual(f.notRendered, [{ step: '1.25', error: 'helm template failed (exit 1): chart is broken' }]);
      assert.match(f.why, /^not rendered at 1\.25: helm template failed/);
    }
    const last = lint(dir, [...user, '.']).stdout.trim().split('\n').at(-1);
    assert.match(last, /^Helm chart read: chart by skewguard's evaluator \(not rendered at 1\.25: helm template failed \(exit 1\): chart is broken\)$/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(bin, { recursive: true, force: true }); }
});

test('without --helm-render or helm.render, Helm is not run: the report says the chart was read by the evaluator, rendering off', () => {
  const dir = workspace('kubernetes:\n  window: "1.25"\n');
  try {
    const r = lint(dir, ['--format', 'json', '.'], helmDir);
    assert.equal(r.status, 1, r.stderr); // the chart's hook hard-codes batch/v1beta1 CronJob, removed in 1.25
    const facts = helmFacts(r.stdout);
    assert.ok(facts.length > 0);
    for (const [, f] of facts) { assert.equal(f.readBy, 'evaluator'); assert.match(f.why, /Helm rendering is off/); }
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('--print-config shows the Helm settings, where they came from, the binary and how a chart file would be read', () => {
  const dir = workspace('helm:\n  render: true\n  values: [ci.yaml]\n');
  try {
    // helm.render in .skewguard.yaml alone is no trust: nothing would be run.
    const alone = JSON.parse(lint(dir, ['--print-config', 'chart/templates/pdb.yaml'], helmDir).stdout).helm;
    assert.equal(alone.trusted, false);
    assert.match(alone.readBy.why, /not trusted: .*never on \.skewguard\.yaml alone/);
    const r = lint(dir, ['--helm-render', '--print-config', 'chart/templates/pdb.yaml'], helmDir);
    assert.equal(r.status, 0, r.stderr);
    const h = JSON.parse(r.stdout).helm;
    assert.equal(h.render, true);
    assert.equal(h.source.kind, 'cli');
    assert.deepEqual(h.values.files, ['ci.yaml']);
    assert.equal(h.values.base, dir);
    assert.equal(h.binary, helmBinary());
    assert.equal(h.trusted, true);
    assert.equal(h.readBy.chart, path.join(dir, 'chart'));
    assert.match(h.readBy.why, /not rendered yet: .*helm renders it when its files are checked/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('.skewguard.yaml helm: wrong types are reported at their value and left out', () => {
  const dir = workspace('helm:\n  render: "yes"\n  path: 3\n  values: [""]\n  colour: red\n');
  try {
    const r = lint(dir, ['.'], helmDir);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /\.skewguard\.yaml:2:11: helm\.render: must be boolean/);
    assert.match(r.stderr, /\.skewguard\.yaml:3:9: helm\.path: must be string/);
    assert.match(r.stderr, /\.skewguard\.yaml:4:12: helm\.values\[0\]: a values file path must not be empty/);
    assert.match(r.stderr, /\.skewguard\.yaml:5:3: unknown setting "helm\.colour"/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a Helm slower than lsp-lint --timeout allows is stopped before the server would be given up on: the files are checked, the chart not rendered, with why', () => {
  const dir = workspace('kubernetes:\n  window: "1.24..1.25"\nhelm:\n  render: true\n');
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-helm-bin-'));
  try {
    fs.writeFileSync(path.join(bin, 'helm'), '#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\nexec /bin/sleep 30\n', { mode: 0o755 });
    const r = lint(dir, ['--helm-render', '--helm-path', path.join(bin, 'helm'), '--timeout', '5', '--jobs', '1', '--format', 'json', '.']);
    assert.equal(r.status, 1, r.stderr); // the chart's hook hard-codes batch/v1beta1 CronJob, removed in 1.25
    const facts = helmFacts(r.stdout);
    assert.ok(facts.length >= 7);
    for (const [name, f] of facts) {
      assert.equal(f.readBy, 'evaluator', name);
      assert.deepEqual(f.notRendered.map((n) => n.error), ['helm template took longer than 4 s and was stopped', 'helm template took longer than 4 s and was stopped']);
    }
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('ground truth: what the evaluator cannot decide (.Files.Get), Helm\'s faithful render decides, and the finding is at the template\'s line', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-helm-truth-')));
  try {
    const chart = path.join(dir, 'chart');
    fs.mkdirSync(path.join(chart, 'templates'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.24..1.25"\n');
    fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: files-api\nversion: 0.1.0\n');
    fs.writeFileSync(path.join(chart, 'api-version.txt'), 'batch/v1beta1\n');
    fs.writeFileSync(path.join(chart, 'templates', 'cronjob.yaml'), 'apiVersion: {{ .Files.Get "api-version.txt" | trim }}\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: job\n              image: busybox:1.36\n');
    const messages = (r) => JSON.parse(r.stdout).find((f) => f.filePath.endsWith('cronjob.yaml')).messages;
    const without = lint(dir, ['--format', 'json', '.'], helmDir);
    assert.equal(without.status, 2, without.stderr);
    assert.match(without.stderr, /^lsp-lint: 1 file not \(fully\) checked: chart\/templates\/cronjob\.yaml; see the report/m);
    assert.equal(lint(dir, ['--allow-unchecked', '.'], helmDir).status, 0);
    assert.ok(messages(without).every((m) => m.severity !== 'error'), JSON.stringify(messages(without)));
    assert.ok(messages(without).some((m) => m.ruleId === 'helm/not-evaluated' && m.line === 1), JSON.stringify(messages(without)));
    const withHelm = lint(dir, ['--helm-render', '--format', 'json', '.'], helmDir);
    assert.equal(withHelm.status, 1, withHelm.stderr);
    const errors = messages(withHelm).filter((m) => m.severity === 'error');
    assert.ok(errors.length > 0 && errors.every((m) => m.line === 1), JSON.stringify(messages(withHelm)));
    assert.match(errors[0].message, /batch\/v1beta1/);
    assert.match(errors[0].message, /1\.25/);
    assert.match(errors[0].message, /as `helm template` rendered it/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('stylish: the summary counts hints apart from info (a dead compatibility branch is a hint)', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-helm-hints-')));
  try {
    const chart = path.join(dir, 'chart');
    fs.mkdirSync(path.join(chart, 'templates'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.25..1.27"\n');
    fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: hints\nversion: 0.1.0\n');
    fs.writeFileSync(path.join(chart, 'templates', 'pdb.yaml'), '{{- if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n');
    fs.writeFileSync(path.join(chart, 'templates', 'cronjob.yaml'), 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: job\n              image: busybox:1.36\n');
    const r = lint(dir, ['.']);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /  hint  .*helm\/dead-branch/);
    assert.ok(r.stdout.includes('✖ 2 problems (1 error, 0 warnings, 0 info, 1 hint)'), r.stdout);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
