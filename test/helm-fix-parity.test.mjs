// Issue #27 item 2: the editor's fix and lsp-lint --fix give the same template. The chart of
// test/fixtures/charts/workloads-v1beta1 is checked by the language server (the quick fix of each helm/removed-api
// finding, as the editor applies it) and by lsp-lint --fix on a copy: the fixed templates are byte-identical, the
// selector is written with the labels' own template text, and the templates no fix can convert keep no fix at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, applyTextEdits, repoRoot } from './helpers/lsp-client.mjs';
import { scratch, lint } from './helpers/cli-run.mjs';

const CHART = path.join(repoRoot, 'test', 'fixtures', 'charts', 'workloads-v1beta1');
const WINDOW = 'kubernetes:\n  window: "1.15..1.18"\n';

function chartFiles() {
  const files = { '.skewguard.yaml': WINDOW };
  for (const f of ['Chart.yaml', 'values.yaml']) files[`web/${f}`] = fs.readFileSync(path.join(CHART, f), 'utf8');
  for (const f of fs.readdirSync(path.join(CHART, 'templates'))) files[`web/templates/${f}`] = fs.readFileSync(path.join(CHART, 'templates', f), 'utf8');
  return files;
}

test('#27 the editor\'s quick fix of a templated workload equals lsp-lint --fix, and keeps the selector as template text', async (t) => {
  const files = chartFiles();
  const root = makeWorkspace(files);
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const cli = scratch(t, files);
  const r = lint(cli, ['--fix', '.']);
  assert.equal(r.code, 1, r.stderr); // canary.yaml and statefulset.yaml are left as they are, still reported
  const templates = Object.keys(files).filter((f) => f.startsWith('web/templates/') && f.endsWith('.yaml'));
  const fixedBy = {};
  for (const rel of templates) {
    const uri = uriOf(path.join(root, rel));
    const p = await client.open(uri, files[rel]);
    const d = p.diagnostics.find((x) => x.code === 'helm/removed-api');
    assert.ok(d, `${rel}: ${JSON.stringify(p.diagnostics)}`);
    const actions = await client.request('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
    const fixes = actions.filter((a) => a.edit && !/^Disable /.test(a.title) && (a.diagnostics ?? []).some((x) => x.code === 'helm/removed-api'));
    const fromCli = fs.readFileSync(path.join(cli, rel), 'utf8');
    if (!fixes.length) {
      fixedBy[rel] = 'no fix';
      assert.equal(fromCli, files[rel], `${rel}: lsp-lint --fix left it as it was`);
      continue;
    }
    assert.equal(fixes.length, 1, `${rel}: ${fixes.map((a) => a.title).join(' | ')}`);
    const edits = fixes[0].edit.changes?.[uri] ?? fixes[0].edit.documentChanges?.find((c) => c.textDocument?.uri === uri)?.edits;
    const inEditor = applyTextEdits(files[rel], edits);
    assert.equal(inEditor, fromCli, `${rel}: the editor's fix ("${fixes[0].title}") and lsp-lint --fix differ`);
    fixedBy[rel] = fixes[0].title;
  }
  assert.deepEqual(fixedBy, {
    'web/templates/canary.yaml': 'no fix',
    'web/templates/daemonset.yaml': 'Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)',
    'web/templates/deployment.yaml': 'Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)',
    'web/templates/replicaset.yaml': 'Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)',
    'web/templates/statefulset.yaml': 'no fix',
    'web/templates/worker.yaml': 'Convert to apps/v1',
  });
  const dep = fs.readFileSync(path.join(cli, 'web/templates/deployment.yaml'), 'utf8');
  assert.match(dep, /\n {2}selector:\n {4}matchLabels:\n {6}app: \{\{ template "web\.name" \. \}\}\n {6}release: \{\{ \.Release\.Name \}\}\n/);
  assert.match(fs.readFileSync(path.join(cli, 'web/templates/daemonset.yaml'), 'utf8'), /\n {6}version: "\{\{ \.Chart\.AppVersion \}\}"\n/, 'the quoting of a label is kept');
  // The next run reports what is left, not "no problems".
  const again = lint(cli, ['--format', 'json', '.']);
  const left = JSON.parse(again.stdout).filter((x) => x.messages.some((m) => m.ruleId === 'helm/removed-api')).map((x) => path.relative(cli, x.filePath)).sort();
  assert.deepEqual(left, ['web/templates/canary.yaml', 'web/templates/statefulset.yaml']);
});

test('#27 the Helm conversion fix works from the template as the rule parsed it (TemplateRun.parsed), not a second parse of the text', async () => {
  const { engine } = await import('./helpers/k8s.mjs');
  const text = fs.readFileSync(path.join(CHART, 'templates', 'deployment.yaml'), 'utf8');
  const parsed = engine.helmTemplate.parseTemplate({ path: 'web/templates/deployment.yaml', text });
  const start = text.indexOf('extensions/v1beta1');
  const g = { at: { start, end: start + 'extensions/v1beta1'.length }, apiVersion: 'extensions/v1beta1', kind: 'Deployment', steps: ['1.16'], literal: true, byHelm: false };
  const fix = engine.helmLiteralFix(text, g, 'apps/v1', parsed);
  assert.match(fix.title, /^Convert to apps\/v1/);
  assert.match(fix.edits.map((e) => e.newText).join('\n'), /matchLabels:\n\s+app: \{\{ template "web\.name" \. \}\}/);
  // The actions it keeps clear of are the given parse's: read from it, and a parse that says the pod template's labels
  // are one action (no such template: a stand-in) makes the conversion cross it, so no fix is offered.
  let reads = 0;
  const watched = new Proxy(parsed, { get: (o, k) => { if (k === 'actions') reads++; return o[k]; } });
  assert.deepEqual(engine.helmLiteralFix(text, g, 'apps/v1', watched), fix);
  assert.ok(reads > 0, 'the given parse is read');
  const labels = text.indexOf('      labels:\n        app:');
  const doctored = { ...parsed, actions: [...parsed.actions, { start: text.indexOf('spec:'), end: labels + 10, kind: 'if' }] };
  assert.equal(engine.helmLiteralFix(text, g, 'apps/v1', doctored), undefined);
});
