// Issue #25: never a false green, and nothing read outside the workspace. Kustomize entries and .skewguard.yaml
// kubernetes.crds entries outside the checked roots are said as "outside the workspace, not read" (never read, never
// looked at); remote bases are said once as not checked (4); a folder walk follows symbolic links within the
// workspace with loop protection and reports the others (11); "not checked" notes fail the run (exit 2) unless
// --allow-unchecked (12); merge-reports accepts only lsp-lint reports of this version, with findings as lsp-lint
// writes them (13).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { scratch, lint, K8S_WINDOW } from './helpers/cli-run.mjs';
import { LspClient, withTimeout } from './helpers/lsp-client.mjs';

const K = 'kubernetes:\n  window: "1.21..1.23"\n';
const ING_BETA = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n';
const KUST = (resources) => `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map((r) => `  - ${r}\n`).join('')}`;
const json = (r) => { try { return JSON.parse(r.stdout); } catch { assert.fail(`not JSON: ${r.stdout}\n${r.stderr}`); } };
const messagesOf = (reports, end) => reports.find((x) => x.filePath.endsWith(end))?.messages ?? [];

test('4: Kustomize entries outside the workspace are not read (nor said to exist), remote bases are said once; kubernetes.crds too', (t) => {
  const outside = scratch(t, { 'secret.yaml': CM, 'crds/x.yaml': CM });
  const dir = scratch(t, { '.skewguard.yaml': K, 'app/local.yaml': CM });
  const rel = path.relative(path.join(dir, 'app'), outside);
  fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'app', 'linked.yaml'));
  fs.writeFileSync(path.join(dir, 'app', 'kustomization.yaml'), KUST([`${rel}/secret.yaml`, `${rel}/missing.yaml`, 'linked.yaml', 'local.yaml', 'https://github.com/org/repo//base?ref=v1', 'github.com/org/other']));
  const r = lint(dir, ['-f', 'json', '--allow-unchecked', '.']);
  assert.equal(r.code, 0, r.stderr);
  const ms = messagesOf(json(r), path.join('app', 'kustomization.yaml'));
  const outsideNotes = ms.filter((m) => /is outside the workspace, not read/.test(m.message));
  assert.deepEqual(outsideNotes.map((m) => m.line), [4, 5, 6], JSON.stringify(ms));
  // A file that exists and one that does not are said alike: the report tells nothing of the runner's files.
  assert.equal(outsideNotes[0].message.replaceAll('secret', 'X'), outsideNotes[1].message.replaceAll('missing', 'X'));
  assert.ok(ms.every((m) => !/does not exist/.test(m.message)), JSON.stringify(ms));
  const remote = ms.filter((m) => /is not fetched/.test(m.message));
  assert.equal(remote.length, 1, 'remote bases are said once');
  assert.match(remote[0].message, /^remote https:\/\/github\.com\/org\/repo\/\/base\?ref=v1 \(and 1 more remote entry: github\.com\/org\/other\) is not fetched: what it holds is not checked$/);
  assert.ok([...outsideNotes, ...remote].every((m) => m.severity === 'info' && m.data?.notChecked === true));
  // Not allowed: the run fails (they are not checked).
  assert.equal(lint(dir, ['.']).code, 2);
  // Named on the command line, the outside folder is the user's: its kustomization's entries are read.
  fs.writeFileSync(path.join(outside, 'kustomization.yaml'), KUST(['secret.yaml', 'gone.yaml']));
  const named = json(lint(dir, ['-f', 'json', path.join(outside, 'kustomization.yaml')]));
  assert.deepEqual(messagesOf(named, 'kustomization.yaml').map((m) => m.message.replace(/ \(looked up as .*\)/, '')), ['the resources entry gone.yaml does not exist: kustomize stops here at every step']);
  // kubernetes.crds naming a path outside: a configuration problem at its place, not read.
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), `${K}  crds: ["${path.join(outside, 'crds')}"]\n`);
  const c = lint(dir, ['app/local.yaml']);
  assert.equal(c.code, 2);
  assert.match(c.stderr, /\.skewguard\.yaml:3:\d+: kubernetes\.crds\[0\] ".*crds": outside the workspace, not read/);
});

test('11: a folder walk follows symbolic links within the workspace (loops reported), and reports links it does not follow', (t) => {
  const outside = scratch(t, { 'ing.yaml': ING_BETA });
  const dir = scratch(t, { '.skewguard.yaml': K, 'real/ing.yaml': ING_BETA, 'other/cm.yaml': CM, 'walked/plain.yaml': CM });
  fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'walked', 'dir-link'));
  fs.symlinkSync(path.join(dir, 'real', 'ing.yaml'), path.join(dir, 'walked', 'file-link.yaml'));
  fs.symlinkSync(dir, path.join(dir, 'walked', 'loop'));
  fs.symlinkSync(path.join(outside, 'ing.yaml'), path.join(dir, 'walked', 'out.yaml'));
  fs.symlinkSync(path.join(dir, 'nowhere.yaml'), path.join(dir, 'walked', 'dangling.yaml'));
  const r = lint(dir, ['-f', 'json', 'walked']);
  assert.equal(r.code, 2, 'links not followed are not checked');
  const reports = json(r);
  const by = (end) => reports.find((x) => x.filePath === path.join(dir, 'walked', end));
  assert.deepEqual(by(path.join('dir-link', 'ing.yaml')).messages.map((m) => m.ruleId), ['k8s/removed-api']);
  assert.deepEqual(by('file-link.yaml').messages.map((m) => m.ruleId), ['k8s/removed-api']);
  assert.match(by('loop').messages[0].message, /a folder above it \(a loop, not followed\)/);
  assert.match(by('out.yaml').messages[0].message, /outside the workspace \(not followed\)/);
  assert.match(by('dangling.yaml').messages[0].message, /target is missing/);
  assert.match(r.stderr, /3 files not \(fully\) checked: walked\/dangling\.yaml, walked\/loop, walked\/out\.yaml/);
  // Allowed: the findings decide (the linked manifests use a removed API).
  assert.equal(lint(dir, ['--allow-unchecked', 'walked']).code, 1);
});

test('11, in the editor: "Check whole workspace" says the symbolic links it does not follow in notChecked, in lsp-lint\'s words', async (t) => {
  const outside = scratch(t, { 'ing.yaml': ING_BETA });
  const dir = scratch(t, { '.skewguard.yaml': K, 'real/ing.yaml': ING_BETA, 'walked/plain.yaml': CM });
  fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'walked', 'dir-link'));
  fs.symlinkSync(path.join(dir, 'real', 'ing.yaml'), path.join(dir, 'walked', 'file-link.yaml'));
  fs.symlinkSync(dir, path.join(dir, 'walked', 'loop'));
  fs.symlinkSync(path.join(outside, 'ing.yaml'), path.join(dir, 'walked', 'out.yaml'));
  fs.symlinkSync(path.join(outside), path.join(dir, 'out-dir'));
  fs.symlinkSync(path.join(dir, 'nowhere.yaml'), path.join(dir, 'walked', 'dangling.yaml'));
  // lsp-lint's notes for the same folder: "<file relative to the folder>: <message>".
  const cli = json(lint(dir, ['-f', 'json', '--allow-unchecked', '.']));
  const notes = cli.filter((x) => /symbolic link/.test(x.messages[0]?.message ?? '')).map((x) => `${path.relative(dir, x.filePath)}: ${x.messages[0].message}`).sort();
  assert.equal(notes.length, 4, JSON.stringify(notes));
  const client = new LspClient(dir, {});
  t.after(() => client.kill());
  await withTimeout(client.initialize(), 10000, 'initialize did not answer');
  const r = await withTimeout(client.request('skewguard/checkWorkspace', {}), 30000, 'checkWorkspace did not answer');
  assert.deepEqual([...r.notChecked].sort(), notes);
  assert.match(notes.join('\n'), /^out-dir: not checked: a symbolic link to .*, outside the workspace \(not followed\)$/m);
  assert.match(notes.join('\n'), /^walked\/loop: not checked: .*a loop, not followed\)$/m);
  assert.match(notes.join('\n'), /^walked\/out\.yaml: not checked: .*outside the workspace/m);
  assert.match(notes.join('\n'), /^walked\/dangling\.yaml: not checked: .*target is missing/m);
  // The links it follows are checked: real/ing.yaml, walked/plain.yaml and walked/file-link.yaml (dir-link's files are real/'s).
  assert.equal(r.files, 3);
  assert.equal(r.withFindings, 2);
});

test('12: "not checked" notes of severity info fail the run unless --allow-unchecked: a packaged chart in a packaged chart, a binary file', (t) => {
  // A chart whose dependency is a .tgz holding another .tgz (tar built here: a ustar header per file).
  const tar = (files) => {
    const blocks = [];
    for (const [name, body] of Object.entries(files)) {
      const h = Buffer.alloc(512);
      h.write(name, 0); h.write('0000644\0', 100); h.write('0000000\0', 108); h.write('0000000\0', 116);
      h.write(body.length.toString(8).padStart(11, '0') + '\0', 124); h.write('00000000000\0', 136); h.write('        ', 148); h.write('0', 156); h.write('ustar\0', 257); h.write('00', 263);
      let sum = 0; for (const b of h) sum += b;
      h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
      blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
    blocks.push(Buffer.alloc(1024));
    return zlib.gzipSync(Buffer.concat(blocks));
  };
  const inner = tar({ 'inner/Chart.yaml': Buffer.from('apiVersion: v2\nname: inner\nversion: 0.1.0\n') });
  const dep = tar({ 'dep/Chart.yaml': Buffer.from('apiVersion: v2\nname: dep\nversion: 0.1.0\n'), 'dep/charts/inner-0.1.0.tgz': inner });
  const dir = scratch(t, { '.skewguard.yaml': K, 'chart/Chart.yaml': 'apiVersion: v2\nname: top\nversion: 0.1.0\n', 'chart/templates/cm.yaml': CM });
  fs.mkdirSync(path.join(dir, 'chart', 'charts'));
  fs.writeFileSync(path.join(dir, 'chart', 'charts', 'dep-0.1.0.tgz'), dep);
  const r = lint(dir, ['-f', 'json', 'chart']);
  const notes = json(r).flatMap((x) => x.messages).filter((m) => /a packaged chart inside a packaged chart is not read/.test(m.message));
  assert.ok(notes.length >= 1 && notes.every((m) => m.severity === 'info' && m.data?.notChecked === true), r.stdout);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /not \(fully\) checked: .*--allow-unchecked/);
  assert.equal(lint(dir, ['--allow-unchecked', 'chart']).code, 0);

  const bin = scratch(t, { '.skewguard.yaml': K, 'ok.yaml': CM, 'blob.yaml': 'a: 1\n\0\0\0' });
  const b = lint(bin, ['-f', 'json', '.']);
  assert.equal(messagesOf(json(b), 'blob.yaml')[0].severity, 'info');
  assert.equal(b.code, 2, b.stderr);
  assert.equal(lint(bin, ['--allow-unchecked', '.']).code, 0);
  // Turned off by the user (the rule's severity): nothing is said, nothing fails.
  assert.equal(lint(bin, ['--rule', 'skewguard/skipped-file=off', '.']).code, 0);
});

test('13: merge-reports refuses shards whose findings are not as lsp-lint writes them, or of another version', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K, 'a.yaml': ING_BETA, 'b.yaml': CM });
  assert.equal(lint(dir, ['-f', 'json', '-o', 'a.json', 'a.yaml']).code, 1);
  assert.equal(lint(dir, ['-f', 'json', '-o', 'b.json', 'b.yaml']).code, 0);
  assert.equal(lint(dir, ['-f', 'sarif', '-o', 'a.sarif', 'a.yaml']).code, 1);
  const a = JSON.parse(fs.readFileSync(path.join(dir, 'a.json'), 'utf8'));
  assert.equal(lint(dir, ['merge-reports', 'a.json', 'b.json']).code, 1, 'the genuine shards merge');
  const forged = {
    'Error.json': a.map((r) => ({ ...r, messages: r.messages.map((m) => ({ ...m, severity: 'Error' })), errorCount: 0 })),
    'two.json': a.map((r) => ({ ...r, messages: r.messages.map((m) => ({ ...m, severity: 2 })), errorCount: 0 })),
    'none.json': a.map((r) => ({ ...r, messages: r.messages.map(({ severity, ...m }) => m), errorCount: 0 })),
    'count.json': a.map((r) => ({ ...r, errorCount: 0 })),
    'old.json': a.map((r) => ({ ...r, skewguardVersion: '0.0.1' })),
    'noversion.json': a.map(({ skewguardVersion, ...r }) => r),
    'plain.json': [{ filePath: path.join(dir, 'a.yaml'), messages: [] }],
  };
  for (const [name, content] of Object.entries(forged)) {
    fs.writeFileSync(path.join(dir, name), JSON.stringify(content));
    const m = lint(dir, ['merge-reports', 'b.json', name]);
    assert.equal(m.code, 2, `${name}: ${m.stdout}${m.stderr}`);
    assert.match(m.stderr, /is not an lsp-lint --format json report of this version/, name);
  }
  const sarif = JSON.parse(fs.readFileSync(path.join(dir, 'a.sarif'), 'utf8'));
  for (const [name, edit] of [['nolevel.sarif', (r) => { delete r.level; }], ['badlevel.sarif', (r) => { r.level = 'Error'; }]]) {
    const s = structuredClone(sarif);
    s.runs[0].results.forEach(edit);
    fs.writeFileSync(path.join(dir, name), JSON.stringify(s));
    const m = lint(dir, ['merge-reports', 'a.sarif', name]);
    assert.equal(m.code, 2, `${name}: ${m.stderr}`);
    assert.match(m.stderr, /level .* is not error, warning or note/);
  }
  // A shard that did not check a file: the merge fails as the shard did, unless allowed.
  fs.writeFileSync(path.join(dir, 'blob.yaml'), 'a: 1\n\0\0');
  assert.equal(lint(dir, ['-f', 'json', '-o', 'c.json', 'blob.yaml']).code, 2);
  assert.equal(lint(dir, ['merge-reports', 'b.json', 'c.json']).code, 2);
  assert.equal(lint(dir, ['merge-reports', '--allow-unchecked', 'b.json', 'c.json']).code, 0);
});

test('4: a folder whose name starts with two dots (..data/) is inside the workspace: its files are read and checked, not refused as outside', (t) => {
  const dir = scratch(t, {
    '.skewguard.yaml': K8S_WINDOW('1.24..1.25'),
    'kustomization.yaml': 'resources:\n  - ..data/cj.yaml\n',
    '..data/cj.yaml': 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\n',
  });
  const k = lint(dir, ['--format', 'json', 'kustomization.yaml']);
  assert.equal(k.code, 0, k.stdout + k.stderr);
  assert.deepEqual(JSON.parse(k.stdout)[0].messages, []);
  const all = lint(dir, ['--format', 'json', '.']);
  const cj = JSON.parse(all.stdout).find((r) => r.filePath.endsWith('cj.yaml'));
  assert.ok(cj?.messages.some((m) => m.ruleId === 'k8s/removed-api'), all.stdout);
});

test('12: helm/not-evaluated\'s per-step notes fail the run unless --allow-unchecked: a template whose `fail` stops rendering at a step of the window', (t) => {
  const TEMPLATE = '{{- if semverCompare ">=1.25-0" .Capabilities.KubeVersion.Version }}\n{{- fail "not supported on this Kubernetes yet" }}\n{{- end }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n';
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.25'), 'chart/Chart.yaml': 'apiVersion: v2\nname: stops\nversion: 0.1.0\n', 'chart/templates/cm.yaml': TEMPLATE });
  const r = lint(dir, ['-f', 'json', '.']);
  const notes = messagesOf(json(r), 'cm.yaml');
  assert.deepEqual(notes.map((m) => [m.ruleId, m.severity, m.line, m.data?.notChecked]), [['helm/not-evaluated', 'info', 2, true]], r.stdout);
  assert.match(notes[0].message, /^not checked at 1\.25: the template stops with an error with the chart's default values: not supported on this Kubernetes yet$/);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /1 file not \(fully\) checked: chart\/templates\/cm\.yaml; see the report/);
  assert.equal(lint(dir, ['--allow-unchecked', '.']).code, 0);
  // SARIF says it too, so merge-reports fails on the shard as lsp-lint did.
  assert.equal(lint(dir, ['-f', 'sarif', '-o', 'a.sarif', '.']).code, 2);
  assert.equal(lint(dir, ['merge-reports', 'a.sarif']).code, 2);
  assert.equal(lint(dir, ['merge-reports', '--allow-unchecked', 'a.sarif']).code, 0);
});

test('#26 bullet 2 in a chart: a template whose document 1 stops rendering (required) still has its document 2 checked, and says document 1 not checked', (t) => {
  const TEMPLATE = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cfg\ndata:\n  password: {{ required "set .Values.password" .Values.password | quote }}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: {{ .Release.Name }}-pdb\nspec:\n  minAvailable: 1\n';
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.26'), 'chart/Chart.yaml': 'apiVersion: v2\nname: stops\nversion: 0.1.0\n', 'chart/values.yaml': 'replicas: 1\n', 'chart/templates/app.yaml': TEMPLATE });
  const r = lint(dir, ['-f', 'json', '.']);
  const ms = messagesOf(json(r), 'app.yaml');
  assert.deepEqual(ms.map((m) => [m.ruleId, m.severity, m.line, m.column, m.data?.notChecked ?? false]), [
    ['helm/not-evaluated', 'info', 6, 13, true],
    ['helm/removed-api', 'error', 8, 13, false],
  ], r.stdout);
  assert.match(ms[0].message, /^not checked at 1\.24\.\.1\.26: this document of the template stops with an error with the chart's default values: set \.Values\.password; it is not checked, the template's other documents are$/);
  assert.equal(r.code, 2, r.stderr);
});

test('12: a template read without its chart (helm/not-in-chart) and a kubeVersion Helm cannot read are "not checked" notes: exit 2 unless --allow-unchecked', (t) => {
  const loose = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.25'), 'loose/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n' });
  const r = lint(loose, ['-f', 'json', '.']);
  const ms = messagesOf(json(r), 'cm.yaml');
  assert.deepEqual(ms.map((m) => [m.ruleId, m.data?.notChecked]), [['helm/not-in-chart', true]], r.stdout);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(lint(loose, ['--allow-unchecked', '.']).code, 0);
  const kv = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.25'), 'chart/Chart.yaml': 'apiVersion: v2\nname: kv\nversion: 0.1.0\nkubeVersion: ">= 1.2x"\n', 'chart/templates/cm.yaml': CM });
  const k = lint(kv, ['-f', 'json', '.']);
  const notes = messagesOf(json(k), 'Chart.yaml').filter((m) => /is not a constraint Helm reads/.test(m.message));
  assert.deepEqual(notes.map((m) => m.data?.notChecked), [true], k.stdout);
  assert.equal(k.code, 2, k.stderr);
});

test('11: a folder link whose target lies in an ignored folder is reported as not followed, by lsp-lint and by "Check whole workspace" alike', async (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K, '.gitignore': 'vendor/\n', 'vendor/ing.yaml': ING_BETA, 'apps/plain.yaml': CM });
  fs.symlinkSync(path.join(dir, 'vendor'), path.join(dir, 'apps', 'vendored'));
  const r = lint(dir, ['-f', 'json', '.']);
  const note = json(r).find((x) => x.filePath === path.join(dir, 'apps', 'vendored'));
  assert.equal(note?.messages[0]?.message, `not checked: a symbolic link to ${path.join(dir, 'vendor')}, a folder the walk leaves out (ignored by .gitignore or the ignore: list, or always skipped; not followed)`, r.stdout);
  assert.equal(note.messages[0].ruleId, 'skewguard/skipped-file');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /1 file not \(fully\) checked: apps\/vendored;/);
  // Named on the command line, the ignored folder is walked: the link's target is checked there, the link is not said.
  const named = lint(dir, ['-f', 'json', '.', 'vendor']);
  assert.equal(named.code, 1, named.stderr);
  assert.ok(!json(named).some((x) => x.filePath === path.join(dir, 'apps', 'vendored')), named.stdout);
  assert.deepEqual(messagesOf(json(named), 'vendor/ing.yaml').map((m) => m.ruleId), ['k8s/removed-api']);

  const client = new LspClient(dir, {});
  t.after(() => client.kill());
  await withTimeout(client.initialize(), 10000, 'initialize did not answer');
  const w = await withTimeout(client.request('skewguard/checkWorkspace', {}), 30000, 'checkWorkspace did not answer');
  assert.deepEqual(w.notChecked, [`apps/vendored: ${note.messages[0].message}`]);
});
