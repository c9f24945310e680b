// Values scenarios of a chart (#32): ci/*-values.yaml and helm.valueSets files rendered over the chart's defaults as
// Helm coalesces them; a finding a scenario gives names it; the same finding from several is one; a chart without
// scenarios reports as before; the hover lists the scenarios that render a line; helm.valueSets is validated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fsAccess } from './helpers/fs-access.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = require('../dist/engine.js');

function chart(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-scn-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}
function analyze(dir, rel, window = '1.21..1.25', configText) {
  const loaded = configText ? e.parseConfig(path.join(dir, '.skewguard.yaml'), configText, e.ruleIds) : undefined;
  const config = e.resolveConfig({ cli: { kubernetesWindow: window }, config: loaded });
  const file = path.join(dir, rel);
  const text = fs.readFileSync(file, 'utf8');
  return { result: e.analyze({ path: file, text, config, files: fsAccess() }), text };
}
const lineOf = (text, off) => text.slice(0, off).split('\n').length;

const CRONJOB = '{{- if .Values.backup.legacy }}\napiVersion: batch/v1beta1\n{{- else }}\napiVersion: batch/v1\n{{- end }}\nkind: CronJob\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: b\n              image: busybox:1.36\n';
const BASE = { 'Chart.yaml': 'apiVersion: v2\nname: backup\nversion: 0.1.0\n', 'values.yaml': 'backup:\n  legacy: false\n', 'templates/cronjob.yaml': CRONJOB };

test('a template emitting batch/v1beta1 only under ci/legacy-values.yaml is an error at 1.25 naming that scenario', () => {
  const dir = chart({ ...BASE, 'ci/legacy-values.yaml': 'backup:\n  legacy: true\n', 'ci/plain-values.yaml': 'backup:\n  legacy: false\n' });
  const { result, text } = analyze(dir, 'templates/cronjob.yaml');
  const f = result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(f.length, 1, JSON.stringify(result.diagnostics));
  assert.equal(f[0].severity, 'error');
  assert.match(f[0].message, /^at 1\.25 this template emits batch\/v1beta1 CronJob/);
  assert.match(f[0].message, /\(with ci\/legacy-values\.yaml\)$/);
  assert.deepEqual(f[0].data.scenarios, ['ci/legacy-values.yaml']);
  assert.deepEqual(f[0].data.steps, ['1.25']);
  assert.equal(f[0].range.start.line, 1);
  // The hover on that line names the scenario and what it emits at each step.
  const h = e.hover(result, text, { line: 1, character: 14 });
  assert.ok(h, 'a hover on the line');
  assert.match(h.markdown, /Values scenarios that render this line: ci\/legacy-values\.yaml/);
  assert.match(h.markdown, /\*\*With ci\/legacy-values\.yaml\*\*[\s\S]*\| 1\.25 \| `batch\/v1beta1 CronJob` — removed there \|/);
  assert.doesNotMatch(h.markdown, /With ci\/plain-values\.yaml/);
  void lineOf;
});

test('without scenarios the finding keeps its text; the same finding from several scenarios is one naming them', () => {
  const legacyDefaults = { ...BASE, 'values.yaml': 'backup:\n  legacy: true\n' };
  const alone = analyze(chart(legacyDefaults), 'templates/cronjob.yaml').result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(alone.length, 1);
  assert.equal(alone[0].message, 'at 1.25 this template emits batch/v1beta1 CronJob, which 1.25 no longer serves (removed in 1.25); use batch/v1, served across the window 1.21..1.25');
  assert.equal(alone[0].data.scenarios, undefined);
  const two = analyze(chart({ ...legacyDefaults, 'ci/a-values.yaml': '{}\n', 'ci/off-values.yaml': 'backup:\n  legacy: false\n' }), 'templates/cronjob.yaml').result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(two.length, 1);
  assert.equal(two[0].message, `${alone[0].message} (with the default values and ci/a-values.yaml)`);
});

test('scenario values are coalesced over the defaults as Helm does: maps merged, null deletes a default', () => {
  const dir = chart({
    ...BASE,
    'templates/cronjob.yaml': CRONJOB.replace('{{- if .Values.backup.legacy }}', '{{- if hasKey .Values.backup "legacy" }}'),
    'values.yaml': 'backup:\n  legacy: true\n  retention: 7\n',
    // A map merged key by key: legacy stays the default's (true).
    'ci/keep-values.yaml': 'backup:\n  retention: 2\n',
    // null deletes the default: the key is gone (hasKey is false), not there with a null value.
    'ci/unset-values.yaml': 'backup:\n  legacy: null\n',
    // A map given whole but for legacy: still merged.
    'ci/other-values.yaml': 'backup:\n  schedule: "0 4 * * *"\n',
  });
  const d = analyze(dir, 'templates/cronjob.yaml').result.diagnostics.filter((x) => x.ruleId === 'helm/removed-api');
  assert.equal(d.length, 1, JSON.stringify(d));
  assert.match(d[0].message, /\(with the default values, ci\/keep-values\.yaml and ci\/other-values\.yaml\)$/);
  assert.deepEqual(d[0].data.scenarios, ['default', 'ci/keep-values.yaml', 'ci/other-values.yaml']);
});

test('helm.valueSets: globs relative to each chart folder; an absolute or bad pattern is a config problem', () => {
  const ok = e.parseConfig('/r/.skewguard.yaml', 'helm:\n  valueSets:\n    - "values-*.yaml"\n', e.ruleIds);
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.overrides.helmValueSets, ['values-*.yaml']);
  const bad = e.parseConfig('/r/.skewguard.yaml', 'helm:\n  valueSets:\n    - "/etc/values.yaml"\n    - "+(a|b).yaml"\n', e.ruleIds);
  assert.equal(bad.problems.length, 2, JSON.stringify(bad.problems));
  assert.match(bad.problems[0].message, /helm\.valueSets\[0\]: a pattern is relative to each chart's folder/);
  const described = e.describeResolved(e.resolveConfig({ config: ok }));
  assert.deepEqual(described.helm.valueSets.patterns, ['values-*.yaml']);
  // The file it names is a scenario of the chart; one it does not name is not.
  const dir = chart({ ...BASE, 'values-old.yaml': 'backup:\n  legacy: true\n', 'values-new.yaml': 'backup:\n  legacy: false\n' });
  const without = analyze(dir, 'templates/cronjob.yaml').result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(without.length, 0, 'values-*.yaml is no scenario unless helm.valueSets names it');
  const withSets = analyze(dir, 'templates/cronjob.yaml', '1.21..1.25', 'helm:\n  valueSets: ["values-old.yaml"]\n').result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(withSets.length, 1);
  assert.match(withSets[0].message, /\(with values-old\.yaml\)$/);
});

test('a scenario file that does not parse is not rendered, and says so on itself', () => {
  const dir = chart({ ...BASE, 'ci/bad-values.yaml': 'backup: [legacy: true\n' });
  const { result } = analyze(dir, 'ci/bad-values.yaml');
  assert.equal(result.family, 'helm-chart');
  assert.ok(result.diagnostics.some((d) => d.ruleId === 'helm/not-evaluated' && /not used as a values scenario: it does not parse/.test(d.message) && d.data?.notChecked), JSON.stringify(result.diagnostics));
  const t = analyze(dir, 'templates/cronjob.yaml').result.diagnostics;
  assert.ok(!t.some((d) => /ci\/bad-values/.test(d.message)));
});

test('the example chart: values-prod.yaml breaks values.schema.json at its lines, ci/legacy-values.yaml emits batch/v1beta1', () => {
  const dir = path.join(repoRoot, 'examples', 'helm', 'scenarios-1.21-to-1.25');
  const cfg = fs.readFileSync(path.join(dir, '.skewguard.yaml'), 'utf8');
  const prod = analyze(dir, 'values-prod.yaml', '1.21..1.25', cfg).result.diagnostics.filter((d) => d.ruleId === 'helm/values-schema');
  assert.deepEqual(prod.map((d) => d.range.start.line + 1), [3, 4]);
  const tpl = analyze(dir, 'templates/cronjob.yaml', '1.21..1.25', cfg).result.diagnostics.filter((d) => d.ruleId === 'helm/removed-api');
  assert.equal(tpl.length, 1);
  assert.match(tpl[0].message, /with ci\/legacy-values\.yaml\)$/);
});
