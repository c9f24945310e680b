// Issue #18 problem 2: one configuration truth. `ignore:` (in the root .skewguard.yaml and in nested ones) leaves out
// the same files in the editor (the language server) as in lsp-lint, and every other file gets the same findings:
// the same workspace through both, compared file by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot, applyTextEdits } from './helpers/lsp-client.mjs';

const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
const BAD_LOCALHOST = 'system_mode: simplex\nkubernetes_version: v1.21.3\n';
const OLD_INGRESS = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const OLD_INGRESS_JSON = JSON.stringify({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'web' }, spec: {} }, null, 2) + '\n';

const WORKSPACE = {
  '.skewguard.yaml': 'starlingx: { release: "6.0" }\nkubernetes:\n  window: "1.18..1.21"\nignore:\n  - "archive/**"\n  - "*.generated.yaml"\n',
  'archive/localhost.yml': BAD_LOCALHOST,
  'site/localhost.yml': BAD_LOCALHOST,
  'site/ingress.generated.yaml': OLD_INGRESS,
  'site/ingress.yaml': OLD_INGRESS,
  // A nested configuration: its ignore: applies under its folder, relative to it (lsp-lint used to read only the root's).
  'team/.skewguard.yaml': 'kubernetes:\n  window: "1.19..1.22"\nignore:\n  - "skip/**"\n  - "/local.json"\n',
  'team/skip/ingress.yaml': OLD_INGRESS,
  'team/local.json': OLD_INGRESS_JSON,
  'team/sub/local.json': OLD_INGRESS_JSON,
  'team/ingress.yaml': OLD_INGRESS,
};

function lintJson(cwd, args) {
  const r = spawnSync(process.execPath, [bin, '-f', 'json', '--max-warnings', '-1', ...args], { cwd, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.error, undefined, String(r.error));
  return JSON.parse(r.stdout);
}
const rel = (root, f) => path.relative(root, f).split(path.sep).join('/');
/** lsp-lint's messages and the editor's diagnostics in one comparable form (0-based ranges). */
const fromCli = (m) => `${m.ruleId} ${m.line - 1}:${m.column - 1}-${m.endLine - 1}:${m.endColumn - 1} ${m.message}`;
const fromLsp = (d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;
const languageOf = (f) => (f.endsWith('.json') ? 'json' : 'yaml');

async function editorDiagnostics(t, root, files) {
  const client = new LspClient(root, { settings: {} });
  t.after(() => client.kill());
  await client.initialize();
  const out = {};
  for (const f of files) {
    const p = await client.open(uriOf(path.join(root, f)), fs.readFileSync(path.join(root, f), 'utf8'), 1, languageOf(f));
    out[f] = p.diagnostics.map(fromLsp).sort();
  }
  return { out, client };
}

test('the same workspace through lsp-lint and the editor: the same files left out (root and nested ignore:), the same findings in every other file', async (t) => {
  const root = makeWorkspace(WORKSPACE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const candidates = Object.keys(WORKSPACE).filter((f) => !f.endsWith('.skewguard.yaml')).sort();
  const report = lintJson(root, ['.']);
  const cli = Object.fromEntries(report.map((r) => [rel(root, r.filePath), r.messages.map(fromCli).sort()]));
  const { out: editor } = await editorDiagnostics(t, root, candidates);
  const left = ['archive/localhost.yml', 'site/ingress.generated.yaml', 'team/local.json', 'team/skip/ingress.yaml'];
  assert.deepEqual(candidates.filter((f) => !(f in cli)), left, 'lsp-lint leaves out the root\'s and the nested config\'s ignored files');
  for (const f of candidates) {
    if (left.includes(f)) assert.deepEqual(editor[f], [], `${f}: left out in the editor too`);
    else {
      assert.ok(cli[f].length > 0, `${f}: a checked file with findings (the comparison is not empty)`);
      assert.deepEqual(editor[f], cli[f], `${f}: the editor's findings are lsp-lint's`);
    }
  }
  // The nested config's window applies to its files in both (1.19..1.22 there, 1.18..1.21 at the root).
  assert.ok(cli['team/ingress.yaml'].some((m) => /1\.19\.\.1\.22/.test(m)), JSON.stringify(cli['team/ingress.yaml']));
  // A file named on the command line is checked even when ignored (as before).
  const named = lintJson(root, ['team/skip/ingress.yaml']);
  assert.ok(named[0].messages.length > 0);
});

test('JSON: applying "Ignore <file> in .skewguard.yaml" leaves the file out in the editor and in lsp-lint', async (t) => {
  const root = makeWorkspace({ '.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.21"\nignore:\n  - "archive/**"\n', 'deploy/ing.json': OLD_INGRESS_JSON });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const client = new LspClient(root, { initializationOptions: { clientCommands: [] } });
  t.after(() => client.kill());
  await client.initialize();
  const u = uriOf(path.join(root, 'deploy/ing.json'));
  const p = await client.open(u, OLD_INGRESS_JSON, 1, 'json');
  assert.ok(p.diagnostics.length > 0);
  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: p.diagnostics[0].range, context: { diagnostics: [p.diagnostics[0]], only: ['quickfix'] } });
  const ig = actions.find((a) => /^Ignore deploy\/ing\.json in \.skewguard\.yaml/.test(a.title));
  assert.ok(ig, JSON.stringify(actions.map((a) => a.title)));
  const cfgUri = uriOf(path.join(root, '.skewguard.yaml'));
  const cfgText = fs.readFileSync(path.join(root, '.skewguard.yaml'), 'utf8');
  const next = applyTextEdits(cfgText, ig.edit.changes[cfgUri]);
  assert.equal(next, 'kubernetes:\n  window: "1.18..1.21"\nignore:\n  - "archive/**"\n  - "/deploy/ing.json"\n');
  fs.writeFileSync(path.join(root, '.skewguard.yaml'), next);
  const since = client.count(u);
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: cfgUri, type: 2 }] });
  await client.waitFor(u, (x) => x.diagnostics.length === 0, { since });
  // lsp-lint leaves it out as well; its only file being ignored, the folder is reported as all ignored (never a silent pass).
  const after = lintJson(root, ['.']);
  assert.deepEqual(after.map((r) => rel(root, r.filePath)), ['']);
  assert.match(after[0].messages[0].message, /^all 1 files under \. are ignored: ignored by the ignore: list of \.skewguard\.yaml; use --no-ignore/);
});

test('"Check whole workspace" (skewguard/checkWorkspace) publishes exactly lsp-lint\'s findings for the files it checks, and fix-all of the workspace is one edit', async (t) => {
  const root = makeWorkspace(WORKSPACE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const report = lintJson(root, ['.']);
  const cli = Object.fromEntries(report.map((r) => [rel(root, r.filePath), r.messages.map(fromCli).sort()]));
  const client = new LspClient(root, {});
  t.after(() => client.kill());
  await client.initialize();
  const r = await client.request('skewguard/checkWorkspace', {});
  assert.equal(r.files, Object.keys(WORKSPACE).filter((f) => !f.endsWith('.skewguard.yaml')).length);
  for (const [f, want] of Object.entries(cli)) {
    const got = (client.published.get(uriOf(path.join(root, f))) ?? []).at(-1);
    assert.deepEqual(got?.diagnostics.map(fromLsp).sort(), want, f);
  }
  for (const f of ['archive/localhost.yml', 'team/skip/ingress.yaml']) {
    assert.deepEqual((client.published.get(uriOf(path.join(root, f))) ?? []).at(-1)?.diagnostics ?? [], [], `${f} is ignored`);
  }
  const fix = await client.request('skewguard/fixAllWorkspace', {});
  const fixed = applyTextEdits(BAD_LOCALHOST, fix.changes[uriOf(path.join(root, 'site/localhost.yml'))]);
  assert.equal(fixed, 'system_mode: simplex\nkubernetes_version: 1.21.3\n');
  assert.ok(!fix.changes[uriOf(path.join(root, 'archive/localhost.yml'))], 'an ignored file is not fixed');
});

// Issue #16 item 4: an ignored file is not part of the workspace for the CRD index either: its CRDs define nothing and its
// custom resources are no use of a CRD's version — the same in lsp-lint and in the editor (root and nested ignore:).
const crdOf = (group, kind, plural, versions) => `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${plural}.${group}\nspec:\n  group: ${group}\n  scope: Namespaced\n  names: {plural: ${plural}, kind: ${kind}}\n  versions:\n${versions}`;
const CRD_WORKSPACE = {
  '.skewguard.yaml': 'kubernetes:\n  window: "1.30"\nignore:\n  - "archive/**"\n',
  // First by path, so it defined CronTab before: an old copy that no longer serves v1.
  'archive/crontab-crd.yaml': crdOf('stable.example.com', 'CronTab', 'crontabs', '  - {name: v1, served: false, storage: true}\n'),
  'archive/old-cr.yaml': 'apiVersion: stable.example.com/v1alpha1\nkind: CronTab\nmetadata: {name: old}\n',
  'crds/crontab-crd.yaml': crdOf('stable.example.com', 'CronTab', 'crontabs', '  - {name: v1alpha1, served: false, storage: false}\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {type: object, properties: {cronSpec: {type: string}}}\n'),
  'apps/cr.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec:\n  cronSpec: 5\n',
  'apps/legacy-cr.yaml': 'apiVersion: stable.example.com/v1alpha1\nkind: CronTab\nmetadata: {name: l}\n',
  'team/.skewguard.yaml': 'kubernetes:\n  window: "1.30"\nignore:\n  - "legacy/**"\n',
  'team/legacy/backup-crd.yaml': crdOf('ops.example.com', 'Backup', 'backups', '  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {type: object, properties: {schedule: {type: string}}}\n'),
  'team/stable/backup-crd.yaml': crdOf('ops.example.com', 'Backup', 'backups', '  - name: v1\n    served: true\n    storage: true\n    deprecated: true\n    schema:\n      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n'),
  'team/backup.yaml': 'apiVersion: ops.example.com/v1\nkind: Backup\nmetadata: {name: b}\nspec:\n  schedul: daily\n',
};

test('ignore: (root and nested) leaves files out of the workspace CRD index: their CRDs define nothing, their custom resources are no use — the same in lsp-lint and in the editor', async (t) => {
  const root = makeWorkspace(CRD_WORKSPACE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const candidates = Object.keys(CRD_WORKSPACE).filter((f) => !f.endsWith('.skewguard.yaml')).sort();
  const cli = Object.fromEntries(lintJson(root, ['.']).map((r) => [rel(root, r.filePath), r.messages.map(fromCli).sort()]));
  const kept = ['apps/cr.yaml', 'apps/legacy-cr.yaml', 'crds/crontab-crd.yaml', 'team/backup.yaml', 'team/stable/backup-crd.yaml'];
  assert.deepEqual(candidates.filter((f) => f in cli), kept);
  // The CronTab of apps/ is read against crds/ (not the ignored archive/ copy, which said v1 is not served).
  assert.equal(cli['apps/cr.yaml'].length, 1, cli['apps/cr.yaml'].join('\n'));
  assert.match(cli['apps/cr.yaml'][0], /^k8s\/cr-invalid-value 4:12-4:13 spec\.cronSpec is an integer; the schema of stable\.example\.com\/v1 CronTab in the CustomResourceDefinition crontabs\.stable\.example\.com \(crds\/crontab-crd\.yaml\) says string/);
  // The nested config's ignore: leaves team/legacy/ out: the Backup is read against team/stable/ (deprecated, any field).
  assert.deepEqual(cli['team/backup.yaml'].map((m) => m.split(' ')[0]), ['k8s/cr-version-deprecated']);
  assert.match(cli['team/backup.yaml'][0], /\(team\/stable\/backup-crd\.yaml\)/);
  // The ignored archive/old-cr.yaml is no use of v1alpha1: only apps/legacy-cr.yaml is named.
  const inUse = cli['crds/crontab-crd.yaml'].filter((m) => m.startsWith('k8s/crd-version-in-use'));
  assert.equal(inUse.length, 1, cli['crds/crontab-crd.yaml'].join('\n'));
  assert.match(inUse[0], /v1alpha1 is served: false, but 1 custom resource of the workspace uses it \(apps\/legacy-cr\.yaml:1\)/);
  // The editor (the language server) gives every kept file exactly lsp-lint's findings.
  const { out: editor } = await editorDiagnostics(t, root, kept);
  for (const f of kept) assert.deepEqual(editor[f], cli[f], `${f}: the editor's findings are lsp-lint's`);
  // --no-ignore: nothing is left out, the ignored copy is read again (first by path).
  const all = Object.fromEntries(lintJson(root, ['--no-ignore', '.']).map((r) => [rel(root, r.filePath), r.messages.map(fromCli).sort()]));
  assert.match(all['apps/cr.yaml'].join('\n'), /k8s\/cr-version-not-served .*\(archive\/crontab-crd\.yaml\) lists it with served: false/);
});

test('LSP: adding a folder to ignore: in .skewguard.yaml re-checks the open custom resources without its CRDs once saved (its unsaved buffer changes nothing)', async (t) => {
  const root = makeWorkspace({
    '.skewguard.yaml': 'kubernetes:\n  window: "1.30"\n',
    'archive/crontab-crd.yaml': CRD_WORKSPACE['archive/crontab-crd.yaml'],
    'apps/cr.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\n',
  });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const client = new LspClient(root, { settings: {} });
  t.after(() => client.kill());
  await client.initialize();
  const u = uriOf(path.join(root, 'apps/cr.yaml'));
  const first = await client.open(u, fs.readFileSync(path.join(root, 'apps/cr.yaml'), 'utf8'));
  assert.deepEqual(first.diagnostics.map((d) => d.code), ['k8s/cr-version-not-served']);
  // Typed in the editor (not saved): the saved configuration still counts (issue #27 item 1: the window and the ignore:
  // lists come from the disk, as in lsp-lint), so the custom resource keeps its finding; closed unsaved, nothing changes.
  const cfg = uriOf(path.join(root, '.skewguard.yaml'));
  await client.notify('textDocument/didOpen', { textDocument: { uri: cfg, languageId: 'yaml', version: 1, text: 'kubernetes:\n  window: "1.30"\n' } });
  const since = client.count(u);
  await client.notify('textDocument/didChange', { textDocument: { uri: cfg, version: 2 }, contentChanges: [{ text: 'kubernetes:\n  window: "1.30"\nignore:\n  - "archive/**"\n' }] });
  await client.notify('textDocument/didClose', { textDocument: { uri: cfg } });
  await new Promise((r) => setTimeout(r, 500));
  for (const p of client.published.get(u).slice(since)) assert.deepEqual(p.diagnostics.map((d) => d.code), ['k8s/cr-version-not-served']);
  // Saved to disk (the client's watcher says so): the archive's CRD is left out.
  fs.writeFileSync(path.join(root, '.skewguard.yaml'), 'kubernetes:\n  window: "1.30"\nignore:\n  - "archive/**"\n');
  const since3 = client.count(u);
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: cfg, type: 2 }] });
  // Without its CRD nothing defines the custom resource: it is said not checked (information), no longer refused.
  await client.waitFor(u, (x) => x.diagnostics.length === 1 && x.diagnostics[0].severity === 3 && /no CustomResourceDefinition in the workspace defines/.test(x.diagnostics[0].message), { since: since3 });
});
