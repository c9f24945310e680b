// The Helm chart family through the language server (dist/server.js): a template reads its chart's other files
// through the server's FileAccess (the disk with open buffers over it), and an edit of a helper re-checks the
// templates that include it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const HELPERS = '{{- define "app.cronjob.apiVersion" -}}\nbatch/v1beta1\n{{- end -}}\n';
const CHART = {
  '.skewguard.yaml': 'kubernetes:\n  window: "1.21..1.25"\n',
  'chart/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n',
  'chart/values.yaml': 'schedule: "0 1 * * *"\n',
  'chart/templates/_helpers.tpl': HELPERS,
  'chart/templates/cronjob.yaml': 'apiVersion: {{ include "app.cronjob.apiVersion" . }}\nkind: CronJob\nmetadata:\n  name: report\nspec:\n  schedule: {{ .Values.schedule | quote }}\n',
};

async function start(t) {
  const root = makeWorkspace(CHART);
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}

test('a template is checked with its chart\'s helpers from disk; editing the open helper re-checks the template', async (t) => {
  const { root, client, uri } = await start(t);
  const tpl = uri('chart/templates/cronjob.yaml');
  const p = await client.open(tpl, CHART['chart/templates/cronjob.yaml']);
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.message]), [[
    'helm/removed-api', 0, 12,
    'at 1.25 this template emits batch/v1beta1 CronJob (from the define "app.cronjob.apiVersion" in templates/_helpers.tpl), which 1.25 no longer serves (removed in 1.25); use batch/v1, served across the window 1.21..1.25',
  ]]);
  const helper = uri('chart/templates/_helpers.tpl');
  await client.open(helper, HELPERS, 1, 'helm');
  const since = client.count(tpl);
  await client.change(helper, 2, [{ text: HELPERS.replace('batch/v1beta1', 'batch/v1') }]);
  const again = await client.waitFor(tpl, (x) => x.diagnostics.length === 0, { since, timeout: 3000 });
  assert.deepEqual(again.diagnostics, [], 'the template, re-checked with the helper\'s open buffer');
  // The disk still has the old helper: the buffer wins while it is open.
  assert.match(fs.readFileSync(path.join(root, 'chart/templates/_helpers.tpl'), 'utf8'), /batch\/v1beta1/);
});

test('values.yaml and Chart.yaml of a chart are the chart family\'s; a template outside any chart says so', async (t) => {
  const { client, uri } = await start(t);
  const v = await client.open(uri('chart/values.yaml'), CHART['chart/values.yaml']);
  assert.deepEqual(v.diagnostics, []);
  const c = await client.open(uri('chart/Chart.yaml'), 'apiVersion: v2\nname: app\nversion: 1.0.0\nkubeVersion: "<1.24.0-0"\n');
  assert.deepEqual(c.diagnostics.map((d) => [d.code, d.range.start.line, d.message]), [['helm/kube-version', 3, 'kubeVersion "<1.24.0-0" excludes 1.24, 1.25 of the window 1.21..1.25: Helm refuses to install or upgrade the chart there']]);
  const lone = await client.open(uri('loose/templates/x.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n');
  assert.deepEqual(lone.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['helm/not-in-chart', 3, 8]]);
});

test('editing an open ci/*-values.yaml (a values scenario) re-checks the chart\'s open template, which names it', async (t) => {
  const TPL = '{{- if .Values.legacy }}\napiVersion: batch/v1beta1\n{{- else }}\napiVersion: batch/v1\n{{- end }}\nkind: CronJob\nmetadata:\n  name: report\nspec:\n  schedule: {{ .Values.schedule | quote }}\n';
  const root = makeWorkspace({ ...CHART, 'chart/templates/cronjob.yaml': TPL, 'chart/ci/legacy-values.yaml': 'legacy: false\n' });
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const tpl = uriOf(path.join(root, 'chart/templates/cronjob.yaml'));
  const p = await client.open(tpl, TPL);
  assert.deepEqual(p.diagnostics, []);
  const ci = uriOf(path.join(root, 'chart/ci/legacy-values.yaml'));
  await client.open(ci, 'legacy: false\n');
  const since = client.count(tpl);
  await client.change(ci, 2, [{ text: 'legacy: true\n' }]);
  const again = await client.waitFor(tpl, (x) => x.diagnostics.length === 1, { since, timeout: 3000 });
  assert.deepEqual(again.diagnostics.map((d) => [d.code, d.range.start.line]), [['helm/removed-api', 1]]);
  assert.match(again.diagnostics[0].message, /\(with ci\/legacy-values\.yaml\)$/);
});
