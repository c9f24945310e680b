// Helm charts as a family (server/src/engine/families/helm-chart/, its rules in its rules/): charts under
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
  assert.equal(out.find((x) => x.includes('helm/not-in-chart')), '4:9 info helm/not-in-chart not checked as part of a chart: no Chart.yaml found above this file; it is rendered alone, so what depends on its values, Chart.yaml or helpers is not checked');
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

/** Every finding of every file of a chart folder, as `file:line:col severity rule message`. */
function chartFindings(dir, window) {
  const out = [];
  const walk = (d, rel) => {
    for (const n of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${n.name}` : n.name;
      if (n.isDirectory()) { walk(path.join(d, n.name), r); continue; }
      const f = path.join(d, n.name);
      const text = n.name.endsWith('.tgz') ? '' : fs.readFileSync(f, 'utf8');
      const res = e.analyze({ path: f, text, config: e.resolveConfig({ cli: { kubernetesWindow: window } }), files: fsAccess() });
      for (const x of res.diagnostics) out.push(`${r}:${x.range.start.line + 1}:${x.range.start.character + 1} ${x.severity} ${x.ruleId} ${x.message}`);
    }
  };
  walk(dir, '');
  return out;
}
const DEAD = (w) => `no step of the window ${w} takes this branch: compatibility code for Kubernetes versions outside the window, which can go once the window has moved past them`;

test('inline .Capabilities branches: clean where every arm taken is served, dead arms are hints, kubeVersion excludes steps, undecidable values are info', () => {
  const dir = path.join(CHARTS, 'inline-capabilities');
  const notChecked = (w) => [
    `templates/job.yaml:1:13 info helm/not-evaluated not checked at ${w}: the template stops with an error with the chart's default values: nil pointer evaluating interface {}.apiVersion`,
    `templates/secret.yaml:6:13 info helm/not-evaluated not checked at ${w}: the template stops with an error with the chart's default values: nil pointer evaluating interface {}.password`,
  ];
  assert.deepEqual(chartFindings(dir, '1.19..1.25'), [
    'Chart.yaml:4:14 error helm/kube-version kubeVersion ">=1.19.0-0 <1.24.0-0" excludes 1.24, 1.25 of the window 1.19..1.25: Helm refuses to install or upgrade the chart there',
    `templates/ingress.yaml:3:1 hint helm/dead-branch ${DEAD('1.19..1.25')}`,
    `templates/ingress.yaml:5:1 hint helm/dead-branch ${DEAD('1.19..1.25')}`,
    ...notChecked('1.19..1.25'),
  ]);
  assert.deepEqual(chartFindings(dir, '1.25..1.27'), [
    'Chart.yaml:4:14 error helm/kube-version kubeVersion ">=1.19.0-0 <1.24.0-0" excludes 1.25..1.27 of the window 1.25..1.27: Helm refuses to install or upgrade the chart there',
    `templates/cronjob.yaml:3:1 hint helm/dead-branch ${DEAD('1.25..1.27')}`,
    `templates/hpa.yaml:4:1 hint helm/dead-branch ${DEAD('1.25..1.27')}`,
    `templates/ingress.yaml:3:1 hint helm/dead-branch ${DEAD('1.25..1.27')}`,
    `templates/ingress.yaml:5:1 hint helm/dead-branch ${DEAD('1.25..1.27')}`,
    ...notChecked('1.25..1.27'),
  ]);
  // A window before the branch's arm exists: the older arm is taken there, and it is what is checked.
  assert.deepEqual(chartFindings(dir, '1.20..1.21').filter((x) => x.includes('cronjob')), []);
});

test('Bitnami-style helpers in a vendored library chart and a packaged dependency: findings at the include, the dependency\'s kubeVersion, its templates on the archive', () => {
  const dir = path.join(CHARTS, 'helpers');
  assert.deepEqual(chartFindings(dir, '1.19..1.25'), [
    'Chart.yaml:8:11 error helm/kube-version dependency legacy (charts/legacy-0.1.0.tgz) has kubeVersion ">=1.16.0-0 <1.25.0-0", which excludes 1.25 of the window 1.19..1.25: Helm refuses to install or upgrade the chart there',
    `charts/common/templates/_capabilities.tpl:14:1 hint helm/dead-branch ${DEAD('1.19..1.25')}`,
    'charts/legacy-0.1.0.tgz:1:1 error helm/removed-api charts/legacy/templates/psp.yaml:2: at 1.25 this template emits policy/v1beta1 PodSecurityPolicy, which 1.25 no longer serves (removed in 1.25); no apiVersion of PodSecurityPolicy is served there',
    'templates/ingress.yaml:1:13 error helm/removed-api at 1.22..1.25 this template emits networking.k8s.io/v1beta1 Ingress (from the define "common.capabilities.ingress.apiVersion" in charts/common/templates/_capabilities.tpl), which these steps no longer serve (removed in 1.22); use networking.k8s.io/v1, served across the window 1.19..1.25',
  ]);
  assert.deepEqual(chartFindings(dir, '1.16..1.21'), [
    `charts/common/templates/_capabilities.tpl:14:1 hint helm/dead-branch ${DEAD('1.16..1.21')}`,
    'charts/legacy-0.1.0.tgz:1:1 warning helm/deprecated-api charts/legacy/templates/psp.yaml:2: at 1.21 this template emits policy/v1beta1 PodSecurityPolicy, deprecated there (deprecated in 1.21, removed in 1.25)',
    'templates/ingress.yaml:1:13 warning helm/deprecated-api at 1.19..1.21 this template emits networking.k8s.io/v1beta1 Ingress (from the define "common.capabilities.ingress.apiVersion" in charts/common/templates/_capabilities.tpl), deprecated there (deprecated in 1.19, removed in 1.22)',
  ]);
});

test('values scoping: the parent\'s values.<dependency> and global reach a packaged subchart (its own default psp.create: false is overridden)', () => {
  const r = analyse('helpers/templates/cronjob.yaml', '1.24..1.25');
  const psp = [...r.helm.run.byRel.values()].find((t) => t.template.rel === 'charts/legacy/templates/psp.yaml');
  const out = psp.steps[0].rendered.text;
  assert.match(out, /apiVersion: policy\/v1beta1/);
  assert.match(out, /name: legacy-eu/);
  // Turned off in the parent's values: not rendered, and the archive says nothing is emitted.
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.cpSync(path.join(CHARTS, 'helpers'), tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'values.yaml'), 'image:\n  repository: r/web\nlegacy:\n  enabled: false\n');
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } });
    const a = e.analyze({ path: path.join(tmp, 'charts', 'legacy-0.1.0.tgz'), text: '', config, files: fsAccess() });
    assert.deepEqual(a.diagnostics.map((d) => d.ruleId), []);
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

test('the partial fix where no apiVersion serves the whole window: a .Capabilities.APIVersions.Has branch; re-analysed, no finding at any step', () => {
  const rel = 'hardcoded/templates/cronjob.yaml';
  const file = path.join(CHARTS, rel);
  const text = fs.readFileSync(file, 'utf8');
  const d = analyse(rel, '1.19..1.25').diagnostics.find((x) => x.ruleId === 'helm/removed-api');
  assert.equal(d.message, 'at 1.25 this template emits batch/v1beta1 CronJob, which 1.25 no longer serves (removed in 1.25); use batch/v1 there (no apiVersion of CronJob serves the whole window 1.19..1.25: branch on .Capabilities.APIVersions.Has)');
  assert.equal(d.fixes.length, 1);
  assert.equal(d.fixes[0].partial, true);
  const fixed = applyFix(text, d.fixes[0]);
  assert.ok(fixed.startsWith('{{- if .Capabilities.APIVersions.Has "batch/v1/CronJob" }}\napiVersion: batch/v1\n{{- else }}\napiVersion: batch/v1beta1\n{{- end }}\nkind: CronJob\n'), fixed);
  const after = analyse(rel, '1.19..1.25', { text: fixed, overlay: new Map([[file, fixed]]) });
  assert.deepEqual(show(after), []);
  // What each step emits now: the older apiVersion before 1.21, batch/v1 from 1.21 on.
  const steps = after.helm.template.steps.map((s) => `${s.step} ${s.emissions.map((x) => x.apiVersion).join()}`);
  assert.deepEqual(steps, ['1.19 batch/v1beta1', '1.20 batch/v1beta1', '1.21 batch/v1', '1.22 batch/v1', '1.23 batch/v1', '1.24 batch/v1', '1.25 batch/v1']);
});

test('a conversion of the spec is offered only when it touches no template action', () => {
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.mkdirSync(path.join(tmp, 'templates'));
    fs.writeFileSync(path.join(tmp, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
    fs.writeFileSync(path.join(tmp, 'values.yaml'), 'service: web\n');
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.21..1.22' } });
    const run = (name, text) => {
      const f = path.join(tmp, 'templates', name);
      fs.writeFileSync(f, text);
      const r = e.analyze({ path: f, text, config, files: fsAccess() });
      const d = r.diagnostics.find((x) => x.ruleId === 'helm/removed-api');
      return { f, text, d };
    };
    // The action is in metadata, which the conversion does not touch: the whole conversion, proven by re-analysis.
    const a = run('a.yaml', 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n');
    const fa = a.d.fixes.find((f) => f.preferred);
    assert.equal(fa.title, 'Convert to networking.k8s.io/v1 (spec rewritten)');
    const fixed = applyFix(a.text, fa);
    assert.match(fixed, /name: \{\{ \.Release\.Name \}\}/);
    const again = e.analyze({ path: a.f, text: fixed, config, files: fsAccess(new Map([[a.f, fixed]])) });
    assert.deepEqual(again.diagnostics.map((x) => x.ruleId), []);
    // The backend's service comes from values: converting it would cross the action, so only the apiVersion, partial.
    const b = run('b.yaml', 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: {{ .Values.service }}\n    servicePort: 80\n');
    assert.deepEqual(b.d.fixes.map((f) => [f.title, !!f.partial, !!f.preferred]), [['Change apiVersion to networking.k8s.io/v1 — partial: the conversion of the spec would cross template actions; convert it by hand', true, false]]);
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

test('hover on an apiVersion in a template: what it becomes at each step', () => {
  const file = path.join(CHARTS, 'inline-capabilities', 'templates', 'hpa.yaml');
  const text = fs.readFileSync(file, 'utf8');
  const r = analyse('inline-capabilities/templates/hpa.yaml', '1.22..1.24');
  const h = e.hover(r, text, { line: 2, character: 14 });
  assert.match(h.markdown, /\| 1\.23 \| `autoscaling\/v2 HorizontalPodAutoscaler` — served \|/);
  const h2 = e.hover(r, text, { line: 4, character: 14 });
  assert.match(h2.markdown, /\| 1\.22 \| `autoscaling\/v2beta2 HorizontalPodAutoscaler` — served \|/);
  assert.doesNotMatch(h2.markdown, /1\.23/);
});

test('where the evaluator cannot decide and a real helm render of that (template, step) exists, it is used and said', () => {
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.mkdirSync(path.join(tmp, 'templates'));
    fs.writeFileSync(path.join(tmp, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
    const f = path.join(tmp, 'templates', 'cj.yaml');
    const text = 'apiVersion: {{ printf "batch/%s" (randAlpha 2) }}\nkind: CronJob\nmetadata:\n  name: a\n';
    fs.writeFileSync(f, text);
    fs.writeFileSync(path.join(tmp, 'values.yaml'), 'x: 1\n');
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } });
    const plain = e.analyze({ path: f, text, config, files: fsAccess() });
    assert.deepEqual(plain.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.ruleId}`), ['1:13 helm/not-evaluated'], show(plain).join('\n'));
    const helmRenders = ['1.24', '1.25'].map((step) => ({ chartRoot: tmp, step, ok: true, helmVersion: 'v3.17.3', emissions: [{ template: 'templates/cj.yaml', index: 0, apiVersion: 'batch/v1beta1', kind: 'CronJob' }] }));
    const withHelm = e.analyze({ path: f, text, config, files: fsAccess(), helmRenders });
    assert.deepEqual(show(withHelm), ['1:13 error helm/removed-api at 1.25 this template emits batch/v1beta1 CronJob, which 1.25 no longer serves (removed in 1.25); use batch/v1, served across the window 1.24..1.25 (as `helm template` rendered it: the embedded evaluator could not decide it)']);
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

test('images from values feed the component rules, reported at the values.yaml line (literal ones at the template\'s), with the fix there', () => {
  const dir = path.join(CHARTS, 'images');
  const msg = 'Calico v3.12.0 is not validated for Kubernetes 1.19, 1.20, 1.21 (upstream lists it for 1.14..1.17; window 1.19..1.21); Calico 3.19 is validated for every version of the window (e.g. v3.19.1)';
  assert.deepEqual(chartFindings(dir, '1.19..1.21'), [
    `templates/daemonset.yaml:21:18 warning k8s/component-not-validated ${msg}`,
    `values.yaml:4:10 warning k8s/component-not-validated templates/daemonset.yaml renders this image: ${msg}`,
  ]);
  const file = path.join(dir, 'values.yaml');
  const text = fs.readFileSync(file, 'utf8');
  const r = analyse('images/values.yaml', '1.19..1.21');
  const fix = r.diagnostics[0].fixes[0];
  const fixed = applyFix(text, fix);
  assert.match(fixed, /tag: v3\.19\.1\n/);
  const again = analyse('images/values.yaml', '1.19..1.21', { text: fixed, overlay: new Map([[file, fixed]]) });
  assert.deepEqual(show(again), []);
  const t = path.join(dir, 'templates', 'daemonset.yaml');
  const tt = fs.readFileSync(t, 'utf8');
  const tf = applyFix(tt, analyse('images/templates/daemonset.yaml', '1.19..1.21').diagnostics[0].fixes[0]);
  assert.match(tf, /image: docker\.io\/calico\/pod2daemon-flexvol:v3\.19\.1\n/);
});

test('an undecidable condition around a whole document is not a pass: "not checked" at the condition', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n{{- if eq (randAlpha 3) "abc" }}\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: y\n{{- end }}\n';
  const r = e.analyze({ path: '/w/templates/a.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } }) });
  assert.deepEqual(r.diagnostics.filter((d) => d.ruleId === 'helm/not-evaluated').map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`), [
    '6:1 not checked at 1.24, 1.25: the condition "eq (randAlpha 3) \\"abc\\"" cannot be evaluated: function randAlpha is not evaluated',
  ]);
  // Decided by values, the same block is checked: an error for the CronJob at 1.25.
  const decided = text.replace('eq (randAlpha 3) "abc"', 'true');
  const d = e.analyze({ path: '/w/templates/a.yaml', text: decided, config: e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } }) });
  assert.deepEqual(d.diagnostics.filter((x) => x.ruleId !== 'helm/not-in-chart').map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${x.ruleId}`), ['7:13 helm/removed-api']);
});

test('a List a template renders: its items are what is checked', () => {
  const text = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: policy/v1beta1\n    kind: PodDisruptionBudget\n    metadata:\n      name: {{ .Release.Name }}\n';
  const r = e.analyze({ path: '/w/templates/list.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } }) });
  assert.deepEqual(r.diagnostics.filter((x) => x.ruleId !== 'helm/not-in-chart').map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${x.ruleId}`), ['4:17 helm/removed-api']);
});

test('lsp-lint --fix on a chart: the hard-coded apiVersions are fixed in the templates, the archive is left alone, a second run is clean', () => {
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.cpSync(path.join(CHARTS, 'hardcoded'), tmp, { recursive: true });
    fs.mkdirSync(path.join(tmp, 'charts'));
    fs.copyFileSync(path.join(CHARTS, 'helpers', 'charts', 'legacy-0.1.0.tgz'), path.join(tmp, 'charts', 'legacy-0.1.0.tgz'));
    const tgz = fs.readFileSync(path.join(tmp, 'charts', 'legacy-0.1.0.tgz'));
    const lint = (...args) => spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--kubernetes-window', '1.21..1.25', ...args, tmp], { encoding: 'utf8' });
    const fixed = lint('--fix');
    assert.equal(fixed.status, 1, fixed.stdout + fixed.stderr); // the packaged dependency's kubeVersion excludes 1.25: no fix
    assert.match(fs.readFileSync(path.join(tmp, 'templates', 'cronjob.yaml'), 'utf8'), /^apiVersion: batch\/v1\nkind: CronJob\n/);
    assert.match(fs.readFileSync(path.join(tmp, 'templates', 'pdb.yaml'), 'utf8'), /\r\napiVersion: policy\/v1\r\nkind: PodDisruptionBudget\r\n/);
    assert.deepEqual(fs.readFileSync(path.join(tmp, 'charts', 'legacy-0.1.0.tgz')), tgz);
    const again = lint('-f', 'json');
    const left = JSON.parse(again.stdout).flatMap((f) => f.messages.map((m) => `${path.relative(tmp, f.filePath)} ${m.ruleId}`));
    assert.deepEqual(left, ['Chart.yaml helm/kube-version']);
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

test('a values.yaml that is there but not read is said on the templates (not rendered as if the chart had no values)', () => {
  const tmp = fs.mkdtempSync(path.join(CHARTS, '..', 'tmp-chart-'));
  try {
    fs.mkdirSync(path.join(tmp, 'templates'));
    fs.writeFileSync(path.join(tmp, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
    const f = path.join(tmp, 'templates', 'cm.yaml');
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
    fs.writeFileSync(f, text);
    const values = path.join(tmp, 'values.yaml');
    fs.writeFileSync(values, 'x: 1\n');
    const config = e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' } });
    const r = e.analyze({ path: f, text, config, files: fsAccess(new Map([[values, undefined]])) });
    assert.ok(r.diagnostics.some((d) => /values\.yaml: not read/.test(d.message)), show(r).join('\n'));
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});
