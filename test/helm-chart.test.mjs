// Helm charts as a family (server/src/engine/families/helm/, rules under engine/rules/helm-chart/): charts under
// test/fixtures/charts/ (written after real charts' patterns, see its SOURCES.md) analysed in place at every step of
// the window, through the engine (dist/engine.js, with a FileAccess over the disk) and through lsp-lint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fsAccess } from './helpers/fs-access.mjs';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CHARTS = path.join(repoRoot, 'test', 'fixtures', 'charts');

function analyse(rel, window, { text, overlay } = {}) {
  const file = path.join(CHARTS, rel);
  const t = text ?? fs.readFileSync(file, 'utf8');
  const config = e.resolveConfig({ cli: { kubernetesWindow: window } });
  return e.analyze({ path: file, text: t, config, files: fsAccess(overlay) });
}
const show = (r) => r.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.ruleId} ${d.message}`);

function applyFix(text, fix) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) { if (text[i] === '\n') starts.push(i + 1); else if (text[i] === '\r' && text[i + 1] !== '\n') starts.push(i + 1); }
  const off = (p) => starts[p.line] + p.character;
  let out = text;
  for (const x of [...fix.edits].sort((a, b) => off(b.range.start) - off(a.range.start))) out = out.slice(0, off(x.range.start)) + x.newText + out.slice(off(x.range.end));
  return out;
}

test('hard-coded removed APIs: an error at the template\'s own line naming the step (LF and CRLF, multi-byte comment)', () => {
  assert.deepEqual(show(analyse('hardcoded/templates/cronjob.yaml', '1.21..1.25')), [
    '1:13 error helm/removed-api at 1.25 this template emits batch/v1beta1 CronJob, which 1.25 no longer serves (removed in 1.25); use batch/v1, served across the window 1.21..1.25',
  ]);
  assert.deepEqual(show(analyse('hardcoded/templates/pdb.yaml', '1.21..1.26')), [
    '2:13 error helm/removed-api at 1.25, 1.26 this template emits policy/v1beta1 PodDisruptionBudget, which these steps no longer serve (removed in 1.25); use policy/v1, served across the window 1.21..1.26',
  ]);
  assert.deepEqual(show(analyse('hardcoded/templates/service.yaml', '1.21..1.25')), []);
  // Inside the window where it is still served: deprecated, a warning.
  assert.deepEqual(show(analyse('hardcoded/templates/cronjob.yaml', '1.21..1.24')), [
    '1:13 warning helm/deprecated-api at 1.21..1.24 this template emits batch/v1beta1 CronJob, deprecated there (deprecated in 1.21, removed in 1.25); use batch/v1, served across the window 1.21..1.24',
  ]);
  assert.equal(analyse('hardcoded/templates/cronjob.yaml', '1.21..1.25').family, 'helm-chart');
});

test('the fix to an apiVersion served across the window: re-analysed, the finding is gone at every step and nothing new appears', () => {
  for (const [rel, window] of [['hardcoded/templates/cronjob.yaml', '1.21..1.25'], ['hardcoded/templates/pdb.yaml', '1.21..1.26']]) {
    const file = path.join(CHARTS, rel);
    const text = fs.readFileSync(file, 'utf8');
    const before = analyse(rel, window);
    const d = before.diagnostics.find((x) => x.ruleId === 'helm/removed-api');
    const fix = d.fixes.find((f) => f.preferred);
    assert.ok(fix, `${rel}: a preferred fix`);
    const fixed = applyFix(text, fix);
    const after = analyse(rel, window, { text: fixed, overlay: new Map([[file, fixed]]) });
    assert.deepEqual(show(after), [], `${rel}: ${fixed}`);
    assert.ok(!/\r(?!\n)/.test(fixed) && (text.includes('\r\n') ? !/[^\r]\n/.test(fixed) : true), 'line ends kept');
  }
});

test('a template with no Chart.yaml above it: a positioned note saying why it is not checked as part of a chart', () => {
  const out = show(analyse('no-chart/templates/cronjob.yaml', '1.21..1.25'));
  assert.equal(out.find((x) => x.includes('helm/not-in-chart')), '4:9 info helm/not-in-chart not checked as part of a chart: no Chart.yaml found above this file; it is rendered alone, with no values and no helpers, so only what it emits without them is checked');
  assert.equal(out.length >= 1, true);
});

test('charts are read in place: vendored and packaged (.tgz, in memory) dependencies, values scoped as Helm does', () => {
  const files = fsAccess();
  const top = path.join(CHARTS, 'helpers');
  const r = analyse('helpers/templates/cronjob.yaml', '1.21..1.25');
  const chart = r.helm.chart;
  assert.equal(chart.name, 'app');
  assert.deepEqual(chart.subcharts.map((c) => [c.name, c.prefix, !!c.archive, c.library]), [['common', 'charts/common/', false, true], ['legacy', 'charts/legacy/', true, false]]);
  const legacy = chart.subcharts[1];
  assert.deepEqual(legacy.templates.map((t) => t.rel), ['charts/legacy/templates/configmap.yaml', 'charts/legacy/templates/psp.yaml']);
  assert.equal(legacy.archive, path.join(top, 'charts', 'legacy-0.1.0.tgz'));
  void files;
});

test('lsp-lint on a chart folder: exits 1 with the error at templates/cronjob.yaml:1, opening .tpl helpers and .tgz dependencies too', () => {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--kubernetes-window', '1.21..1.25', '-f', 'json', 'hardcoded', 'helpers'], { cwd: CHARTS, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const reports = JSON.parse(r.stdout);
  const by = Object.fromEntries(reports.map((x) => [path.relative(CHARTS, x.filePath).split(path.sep).join('/'), x.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId}`)]));
  assert.deepEqual(by['hardcoded/templates/cronjob.yaml'], ['1:13 error helm/removed-api']);
  assert.deepEqual(by['hardcoded/templates/pdb.yaml'], ['2:13 error helm/removed-api']);
  assert.ok('helpers/charts/legacy-0.1.0.tgz' in by, 'the packaged dependency is opened');
  assert.ok('helpers/charts/common/templates/_capabilities.tpl' in by, 'the helpers are opened');
  assert.equal(reports.find((x) => x.filePath.endsWith('legacy-0.1.0.tgz')).family, 'helm-chart');
});

test('helmEmissions: what each template emits at each step, at its line', () => {
  const rows = e.helmEmissions(path.join(CHARTS, 'hardcoded'), fsAccess(), ['1.24', '1.25']);
  assert.deepEqual(rows.map((x) => `${x.template} ${x.step} ${x.apiVersion} ${x.kind} ${x.line}`).sort(), [
    'templates/cronjob.yaml 1.24 batch/v1beta1 CronJob 1',
    'templates/cronjob.yaml 1.25 batch/v1beta1 CronJob 1',
    'templates/pdb.yaml 1.24 policy/v1beta1 PodDisruptionBudget 2',
    'templates/pdb.yaml 1.25 policy/v1beta1 PodDisruptionBudget 2',
    'templates/service.yaml 1.24 v1 Service 1',
    'templates/service.yaml 1.25 v1 Service 1',
  ]);
});

test('a packaged dependency that is not a gzip tar: said on the archive, not a crash', () => {
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.mkdirSync(path.join(tmp, 'charts'));
    fs.mkdirSync(path.join(tmp, 'templates'));
    fs.writeFileSync(path.join(tmp, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
    fs.writeFileSync(path.join(tmp, 'charts', 'bad-1.0.0.tgz'), 'not gzip at all');
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.21..1.25' } });
    const r = e.analyze({ path: path.join(tmp, 'charts', 'bad-1.0.0.tgz'), text: '', config, files: fsAccess() });
    assert.equal(r.family, 'helm-chart');
    assert.equal(r.diagnostics.length, 1);
    assert.match(r.diagnostics[0].message, /^not read: not a gzip archive/);
    assert.equal(r.diagnostics[0].ruleId, 'helm/not-evaluated');
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});
