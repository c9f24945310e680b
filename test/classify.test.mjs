// Issue #26: every file read as what it is. Go-template text of other tools (Prometheus, Alertmanager, Argo, Grafana,
// Tekton, GitHub-style expressions) inside a scalar is text, and the file is a manifest checked document by document;
// `{{` where YAML reads structure with a Helm action makes a template fragment; a chart's templates stay Helm
// templates by where they are. The corpus under test/fixtures/classify/ was written for this test after the patterns
// of real files (no upstream text); each file has its expected family, what decided it and its exact findings.
// Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, findings } from './helpers/k8s.mjs';
import { fsAccess } from './helpers/fs-access.mjs';
import { scratch, lint } from './helpers/cli-run.mjs';

const dir = path.join(repoRoot, 'test', 'fixtures', 'classify');
const dir0 = dir;
const WINDOW = '1.24..1.26';
// The operators of the corpus's custom resources (PrometheusRule, Tekton Task) at releases that serve them: judged, and
// clean (without a version each would get k8s/operator-api-not-served's information "no version is known").
const OPERATORS = { 'prometheus-operator': '0.93', 'tekton-pipelines': '1.15' };
const config = (loaded) => e.resolveConfig({ cli: { kubernetesWindow: WINDOW, componentVersions: OPERATORS }, config: loaded });
const run = (rel, { text, loaded, files = fsAccess() } = {}) => {
  const file = path.join(dir, rel);
  return e.analyze({ path: file, text: text ?? fs.readFileSync(file, 'utf8'), config: config(loaded), root: dir, files });
};

// file → [family, decided by, findings ("rule @ line:col"), what it proves]
const CORPUS = {
  'prometheusrule.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 29:13'],
    'quoted, plain-after-text, block (| and >-) scalars holding {{ $labels.x }} are text; the PDB in the next document is checked'],
  'prometheusrule-continued.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 22:13'],
    'a plain value that starts on the line after its key and continues, less indented, with `{{ .Labels.job }}` at a line\'s start is one scalar, as YAML reads it: text, no template fragment; the PDB is checked'],
  'prometheusrule-crlf.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 16:13'],
    'the same with CRLF line ends: positions exact'],
  'alertmanager-configmap.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 25:13'],
    'an Alertmanager config and template ({{ define }} … {{ end }} at the start of block lines) in a ConfigMap are text'],
  'grafana-dashboard-configmap.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 23:13'],
    'a Grafana dashboard (JSON in a block scalar, legendFormat "{{instance}}") is text'],
  'argo-workflow.yaml': ['kubernetes', 'content', ['k8s/cr-version-not-served @ 1:13'],
    'Argo {{inputs.parameters.x}}, {{item}} in quoted, flow and plain scalars and a comment in a script are text; the Workflow, a custom resource no CRD or data defines, is said not checked (no silent pass)'],
  'tekton-task.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 20:13'],
    'Tekton $(params.x) is no template; the Ingress in the next document is checked'],
  'ci-substituted-deployment.yaml': ['kubernetes', 'content', ['k8s/removed-api @ 1:13'],
    'GitHub-style ${{ github.sha }} in plain and quoted values is text'],
  '.github/workflows/deploy.yaml': [null, 'none', [],
    'a GitHub workflow (${{ }} everywhere) is claimed by no family, and never taken for a Helm template'],
  'grafana-unquoted.yaml': ['kubernetes', 'content', ['syntax/parse-error @ 6:17', 'k8s/removed-api @ 9:13'],
    '{{instance}} at the start of a plain value (YAML rejects it): one syntax error at that {{, saying why; no Helm finding; the next document is checked'],
  'dashboard-configmap.json': ['kubernetes', 'content', ['k8s/no-common-api-version @ 12:21'],
    'templates inside JSON strings are text; the List\'s items are checked'],
  'multi-doc-broken.yaml': ['kubernetes', 'content', ['syntax/parse-error @ 13:9', 'k8s/removed-api @ 15:13', 'k8s/document-not-checked @ 22:1'],
    'a document that cannot be read, and one that is no object, are each said at their own line; the documents around them are checked'],
  'forced-manifest.yaml': ['kubernetes', 'modeline', ['k8s/helm-template @ 5:9', 'k8s/removed-api @ 9:13'],
    'a file made a manifest by its modeline: the document with Helm syntax is said at its own line, the other is checked'],
  'helm-fragment.yaml': ['helm-chart', 'content', ['helm/not-evaluated @ 4:9', 'helm/not-in-chart @ 4:9'],
    'name: {{ include … }} and {{- include … }} lines outside a chart: a template fragment, as before'],
  'helm-fragment-fail.yaml': ['helm-chart', 'content', ['helm/not-in-chart @ 2:1', 'helm/not-evaluated @ 3:1', 'helm/removed-api @ 17:13'],
    'a fragment outside a chart whose document 1 calls fail: that document is said not checked at its fail, and document 2\'s removed PodDisruptionBudget is still found (each document rendered on its own)'],
  'helm-fragment-unparseable.yaml': ['helm-chart', 'content', ['helm/not-in-chart @ 4:9'],
    'a fragment that parses neither as it is nor with its actions taken out: one finding, what it was taken for and why'],
  'chart/templates/deployment.yaml': ['helm-chart', 'path', [],
    'a chart\'s real template stays a Helm template, by where it is'],
  'chart/templates/ingress.yaml': ['helm-chart', 'path', ['helm/removed-api @ 2:13'],
    'a chart template is rendered at every step: its removed Ingress is found'],
  'chart/templates/prometheusrule.yaml': ['helm-chart', 'path', [],
    'Prometheus text escaped for Helm inside a chart ({{`{{ … }}`}}, {{ "{{" }}) stays Helm: rendered, no syntax error'],
  'chart/templates/_helpers.tpl': ['helm-chart', 'path', [],
    'a chart\'s helpers'],
};

test('#26 corpus: every fixture is read by its expected family, for the expected reason, with exactly its findings', () => {
  const seen = [];
  const walk = (d, rel) => { for (const n of fs.readdirSync(d, { withFileTypes: true })) { const r = rel ? `${rel}/${n.name}` : n.name; if (n.isDirectory()) walk(path.join(d, n.name), r); else if (!/^(Chart|values)\.yaml$/.test(n.name)) seen.push(r); } };
  walk(dir, '');
  assert.deepEqual(seen.sort(), Object.keys(CORPUS).sort(), 'every fixture has its expectation');
  for (const [rel, [family, by, expected, proves]] of Object.entries(CORPUS)) {
    const r = run(rel);
    assert.equal(r.family ?? null, family, `${rel}: ${proves}`);
    assert.equal(r.readAs.by, by, `${rel}: ${r.readAs.why}`);
    assert.deepEqual(findings(r.diagnostics), expected, `${rel}: ${proves}`);
    if (family !== 'helm-chart') assert.ok(!r.diagnostics.some((d) => d.ruleId.startsWith('helm/')), `${rel}: no Helm finding`);
  }
});

test('#26 corpus with lone CR line ends (as the editor and the YAML reader break lines there): the same families, reasons and findings', () => {
  for (const [rel, [family, by, expected]] of Object.entries(CORPUS)) {
    const lf = fs.readFileSync(path.join(dir, rel), 'utf8');
    if (!lf.includes('\n')) continue;
    const r = run(rel, { text: lf.replace(/\r?\n/g, '\r') });
    assert.equal(r.family ?? null, family, rel);
    assert.equal(r.readAs.by, by, rel);
    assert.equal(r.readAs.why, run(rel).readAs.why, `${rel}: its lines are numbered as with LF`);
    assert.deepEqual(findings(r.diagnostics), expected, rel);
  }
});

test('#26: the messages say what a file was taken for and why', () => {
  const bare = run('grafana-unquoted.yaml').diagnostics.find((d) => d.ruleId === 'syntax/parse-error');
  assert.match(bare.message, /`\{\{instance\}\}` stands at the start of a plain value, where YAML reads a flow mapping/);
  assert.match(bare.message, /quote the value/);
  assert.match(bare.message, /not taken for a Helm template/);
  assert.equal(bare.range.end.character - bare.range.start.character, '{{instance}}'.length);
  // In a later document, with more errors after it: the document's number and the reader's own message, each once.
  const later = e.analyze({ path: '/w/x.yaml', config: config(), text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  legend: {{instance}} - {{job}}\n  x: [\n' }).diagnostics;
  assert.deepEqual(later.map((d) => [d.ruleId, d.range.start.line, d.range.start.character, d.range.end.character]), [['syntax/parse-error', 10, 10, 22]]);
  assert.match(later[0].message, /^YAML syntax error \(document 2\): `\{\{instance\}\}` stands at the start of a plain value, .* the file is not in a chart's templates\/ \(YAML: Unexpected [^()]* \(and \d+ more errors after it\)\)$/);
  const unread = run('helm-fragment-unparseable.yaml').diagnostics[0];
  assert.match(unread.message, /^taken for a Helm template fragment: the `\{\{` at line 4 stands where YAML reads structure/);
  assert.match(unread.message, /parses as YAML neither as it is nor with its template actions taken out \(line 6: /);
  const forced = run('forced-manifest.yaml').diagnostics.find((d) => d.ruleId === 'k8s/helm-template');
  assert.match(forced.message, /this document \(1\)/);
  const k = run('prometheusrule.yaml').readAs;
  assert.match(k.why, /apiVersion and kind in 2 documents; 9 `\{\{` \(first at line 17\) inside scalars: text of another tool, never evaluated/);
  assert.match(run('helm-fragment.yaml').readAs.why, /the `\{\{` at line 4 stands where YAML reads structure and holds a Helm action/);
  assert.match(run('chart/templates/deployment.yaml').readAs.why, /^its place: under templates\/ of the chart at .*chart\/Chart\.yaml$/);
});

test('#26: the same text outside and inside a chart — outside a manifest, inside a template', () => {
  // The Prometheus rule's text under a chart's templates/ is the chart's: Helm reads {{ $labels }} there, undefined.
  const text = fs.readFileSync(path.join(dir, 'prometheusrule.yaml'), 'utf8');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-classify-'));
  fs.cpSync(path.join(dir, 'chart'), path.join(tmp, 'chart'), { recursive: true });
  const file = path.join(tmp, 'chart', 'templates', 'rule-unescaped.yaml');
  fs.writeFileSync(file, text);
  const inChart = e.analyze({ path: file, text, config: config(), root: tmp, files: fsAccess() });
  fs.rmSync(tmp, { recursive: true, force: true });
  assert.equal(inChart.family, 'helm-chart');
  assert.equal(inChart.readAs.by, 'path');
  assert.ok(inChart.diagnostics.some((d) => d.ruleId === 'helm/template-syntax' && /\$labels/.test(d.message)));
  // A files: association decides over the content.
  const byFiles = run('prometheusrule.yaml', { loaded: e.parseConfig(path.join(dir, '.skewguard.yaml'), 'files:\n  "prometheusrule.yaml": helm-chart\n', e.ruleIds) });
  assert.equal(byFiles.family, 'helm-chart');
  assert.equal(byFiles.readAs.by, 'files');
});

test('#26: where each {{ stands (the scanner), quoted, plain, flow, block, comment, CRLF', () => {
  const kinds = (t) => { const r = e.analyze({ path: '/w/x.yaml', text: t, config: config() }); return [r.family ?? null, findings(r.diagnostics)]; };
  const m = (body) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n${body}\n`;
  for (const text of [
    m('  a: "x {{ .Values.y }}"'), m("  a: 'x {{ .Values.y }}'"), m('  a: x {{ .Values.y }}'), m('  a: |\n    {{ .Values.y }}\n    {{- if .x }}'),
    m('  a: >-\n    {{ include "x" . }}'), m('  a: [b, "{{ .Values.y }}"]'), m('  a: x # {{ .Values.y }}'), m('  a: "multi\n    {{ .Values.y }} line"'),
    m('  a: plain\n    {{ .Values.y }} continued'), m('  a:\n      plain {{ .Values.x }}\n    {{ .Values.y }} continued'), m('  a: # note\n      plain\n    {{ .Values.y }} continued'),
    m('  - \n      plain\n    {{ .Values.y }} continued'), m('  a: "{{ .Values.y }}"').replace(/\n/g, '\r\n'), m('  "{{ key }}": v'), `\uFEFF${m('  a: "{{ .Values.y }}"')}`,
  ]) assert.deepEqual(kinds(text), ['kubernetes', []], JSON.stringify(text));
  for (const text of [m('  a:\n      plain\n  {{ .Values.y }}: b'), m('  a:\n  {{ .Values.y }}'), m('  a: {{ .Values.y }}'), m('  {{- if .Values.x }}\n  a: b\n  {{- end }}'), m('  a:\n  - {{ .Values.y }}'), m('  a: [{{ .Values.y }}]'), m('{{ toYaml .Values.data | indent 2 }}'), `\uFEFF{{- if .Values.on }}\n${m('  a: b')}{{- end }}\n`]) {
    assert.equal(kinds(text)[0], 'helm-chart', JSON.stringify(text));
  }
});

test('#26: lsp-lint --print-config <file> says which family read it and why; the first line\'s hover says it too', () => {
  const cases = [
    ['prometheusrule.yaml', 'kubernetes', 'content', /inside scalars: text of another tool/],
    ['helm-fragment.yaml', 'helm-chart', 'content', /stands where YAML reads structure/],
    ['chart/templates/deployment.yaml', 'helm-chart', 'path', /under templates\/ of the chart at/],
    ['forced-manifest.yaml', 'kubernetes', 'modeline', /# skewguard: kubernetes" at line 1/],
  ];
  for (const [rel, family, by, why] of cases) {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'lsp-lint.js'), '--print-config', rel], { cwd: dir, encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    const readAs = JSON.parse(r.stdout).readAs;
    assert.equal(readAs.family, family, rel);
    assert.equal(readAs.by, by, rel);
    assert.match(readAs.why, why, rel);
  }
  // The classifier alone answers (no rule, no context is built): a check that would fail still says who reads the file.
  const faulty = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'lsp-lint.js'), '--print-config', 'prometheusrule.yaml'], { cwd: dir, encoding: 'utf8', timeout: 60000, env: { ...process.env, SKEWGUARD_FAULT: 'context,rule' } });
  assert.equal(faulty.status, 0, faulty.stderr);
  assert.deepEqual(JSON.parse(faulty.stdout).readAs, { family: 'kubernetes', by: 'content', why: JSON.parse(spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'lsp-lint.js'), '--print-config', 'prometheusrule.yaml'], { cwd: dir, encoding: 'utf8', timeout: 60000 }).stdout).readAs.why });
  // No file: no readAs; a file that is not there: said.
  const none = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'lsp-lint.js'), '--print-config'], { cwd: dir, encoding: 'utf8', timeout: 60000 });
  assert.equal(JSON.parse(none.stdout).readAs, undefined);
  // The first line's hover (editor): the family's title and the reason, after what the family says there.
  const text = fs.readFileSync(path.join(dir, 'prometheusrule.yaml'), 'utf8');
  const r = run('prometheusrule.yaml');
  const h = e.hover(r, text, { line: 0, character: 2 });
  assert.match(h.markdown, /skewguard reads this file as \*\*Kubernetes manifests\*\*, by its content: its content: apiVersion and kind in 2 documents/);
  assert.equal(e.hover(r, text, { line: 3, character: 2 })?.markdown?.includes('skewguard reads this file') ?? false, false);
});

test('#26 editor parity: the server reads an open document by the same decision whatever its language id; the status item, its window and the first line\'s hover follow it', async (t) => {
  const { LspClient, makeWorkspace, uriOf } = await import('./helpers/lsp-client.mjs');
  const files = {};
  for (const rel of ['prometheusrule.yaml', 'grafana-unquoted.yaml', 'chart/Chart.yaml', 'chart/values.yaml', 'chart/templates/_helpers.tpl', 'chart/templates/ingress.yaml']) files[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  files['.skewguard.yaml'] = `kubernetes: { window: "${WINDOW}", components: { prometheus-operator: "0.93" } }\n`;
  const root = makeWorkspace(files);
  const client = new LspClient(root, {});
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const uri = (rel) => uriOf(path.join(root, rel));
  // A PrometheusRule opened as the `helm` language (what an editor may tag a YAML with `{{` as) is still a manifest.
  for (const [rel, lang, family, window, codes] of [
    ['prometheusrule.yaml', 'helm', 'kubernetes', `Kubernetes ${WINDOW}`, ['k8s/removed-api']],
    ['grafana-unquoted.yaml', 'yaml', 'kubernetes', `Kubernetes ${WINDOW}`, ['syntax/parse-error', 'k8s/removed-api']],
    ['chart/templates/ingress.yaml', 'yaml', 'helm-chart', `Kubernetes ${WINDOW}`, ['helm/removed-api']],
  ]) {
    const published = await client.open(uri(rel), files[rel], 1, lang);
    assert.deepEqual((published?.diagnostics ?? (await client.waitFor(uri(rel))).diagnostics).map((d) => d.code), codes, rel);
    const st = await client.request('skewguard/resolvedConfig', { uri: uri(rel) });
    assert.equal(st.family, family, rel);
    assert.equal(st.resolved.readAs.family, family, rel);
    assert.equal(st.fileWindow, window, rel);
    const h = await client.request('textDocument/hover', { textDocument: { uri: uri(rel) }, position: { line: 0, character: files[rel].search(/[A-Za-z]/) } });
    const md = typeof h.contents === 'string' ? h.contents : h.contents.value;
    assert.match(md, new RegExp(`skewguard reads this file as \\*\\*${family === 'kubernetes' ? 'Kubernetes manifests' : 'Helm charts'}`), rel);
  }
});

test('a document that is no object is said even when the only object of its file is a templated document (not checked itself)', (t) => {
  const dir = scratch(t, {
    '.skewguard.yaml': 'kubernetes:\n  window: "1.24..1.25"\n',
    'f.yaml': '# skewguard: kubernetes\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n---\napiVerison: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
  });
  const r = lint(dir, ['--format', 'json', 'f.yaml']);
  const found = JSON.parse(r.stdout)[0].messages.map((m) => `${m.line} ${m.ruleId}`);
  assert.deepEqual(found, ['5 k8s/helm-template', '7 k8s/document-not-checked']);
});

test('#26 bullet 2: a fragment outside a chart is rendered document by document; the one that stops is not checked, and lsp-lint exits 2 for it', (t) => {
  const r = run('helm-fragment-fail.yaml');
  const stop = r.diagnostics.find((d) => d.ruleId === 'helm/not-evaluated');
  assert.match(stop.message, /^not checked at 1\.24\.\.1\.26: this document of the fragment stops rendering with an error \(read without its chart\): install the Prometheus Operator CRDs before the monitoring add-on; it is not checked, the fragment's other documents are$/);
  assert.equal(stop.data.notChecked, true);
  // The fix of the removed apiVersion in document 2 edits that document's own text.
  const removed = r.diagnostics.find((d) => d.ruleId === 'helm/removed-api');
  assert.deepEqual(removed.fixes[0].edits, [{ range: { start: { line: 16, character: 12 }, end: { line: 16, character: 26 } }, newText: 'policy/v1' }]);
  // A file-level variable is declared for every document; a `---` inside an {{ if }} … {{ end }} does not cut.
  const text = '{{- $name := printf "%s-web" .Release.Name -}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ $name }}\ndata:\n  a: {{ fail "no" }}\n---\n'
    + '{{- if .Values.pdb }}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: {{ $name }}\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: x\n{{- end }}\n---\n'
    + 'apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {{ $name }}\n';
  assert.deepEqual(findings(run('helm-fragment.yaml', { text }).diagnostics), ['helm/not-in-chart @ 1:1', 'helm/not-evaluated @ 8:6', 'helm/not-evaluated @ 10:1', 'helm/removed-api @ 22:13']);
  // lsp-lint: the PDB's error, and the document not checked makes the run exit 2 (unless --allow-unchecked).
  const dir = scratch(t, { '.skewguard.yaml': `kubernetes:\n  window: "${WINDOW}"\n`, 'monitoring.yaml': fs.readFileSync(path.join(dir0, 'helm-fragment-fail.yaml'), 'utf8') });
  const cli = lint(dir, ['--format', 'json', 'monitoring.yaml']);
  assert.equal(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, /1 file not \(fully\) checked: monitoring\.yaml/);
  assert.deepEqual(JSON.parse(cli.stdout)[0].messages.map((m) => `${m.line} ${m.ruleId}`), ['2 helm/not-in-chart', '3 helm/not-evaluated', '17 helm/removed-api']);
  assert.equal(lint(dir, ['--allow-unchecked', 'monitoring.yaml']).code, 1);
});

test('#26: one list of Helm actions — a .tpl outside a chart is Helm by the same actions the scanner counts', () => {
  const famOf = (file, text) => e.analyze({ path: file, text, config: config() }).family ?? null;
  // An Alertmanager-style template file: `{{ $labels.x }}` and `{{ .Labels.x }}` read the same way as in a scalar.
  assert.equal(famOf('/w/alerts/page.tpl', 'Alert {{ $labels.alertname }} on {{ $labels.instance }}\n'), null, 'Prometheus variables are no Helm action');
  assert.equal(famOf('/w/lib/_names.tpl', '{{- define "web.name" -}}\n{{ .Chart.Name | trunc 63 }}\n{{- end }}\n'), 'helm-chart');
  assert.equal(famOf('/w/lib/vars.tpl', '{{ $name := "web" }}{{ $name }}\n'), 'helm-chart', 'a variable set is a Helm action');
  // The scanner's verdict on the same action where YAML reads structure agrees.
  const scanned = (action) => { const r = e.analyze({ path: '/w/x.yaml', text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${action}\n`, config: config() }); return r.family; };
  assert.equal(scanned('{{ $labels.instance }}'), 'kubernetes');
  assert.equal(scanned('{{ .Chart.Name }}'), 'helm-chart');
});
