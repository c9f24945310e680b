// Issue #28 item 5: the user's own OpenAPI document for a Kubernetes minor (kubernetes.openapi in .skewguard.yaml,
// lsp-lint --kubernetes-openapi). The documents are written here, data only (the shape of `kubectl get --raw
// /openapi/v2`: swagger 2.0, definitions carrying x-kubernetes-group-version-kind). Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const bin = path.join(repoRoot, 'bin', 'lsp-lint');
const last = data.minors[data.minors.length - 1];
const next = `1.${Number(last.split('.')[1]) + 1}`; // the first minor past the shipped data

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-openapi-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}
function lint(cwd, args) {
  const env = { ...process.env, SKEWGUARD_TODAY: new Date(Date.parse(data.asOf) + 86400000).toISOString() };
  delete env.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env, timeout: 60000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const messages = (r) => JSON.parse(r.stdout).flatMap((x) => x.messages);

const def = (group, version, kind) => ({ type: 'object', properties: { apiVersion: { type: 'string' } }, 'x-kubernetes-group-version-kind': [{ group, version, kind }] });
/** A swagger 2.0 document serving the given "apiVersion Kind"s (plus the shared meta type, which lists many). */
function swagger(gvks) {
  const definitions = {};
  for (const id of gvks) {
    const [apiVersion, kind] = id.split(' ');
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    definitions[`x.${apiVersion}.${kind}`] = def(group, version, kind);
    definitions[`x.${apiVersion}.${kind}List`] = def(group, version, `${kind}List`);
  }
  definitions['io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent'] = { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'WatchEvent' }, { group: '', version: 'v1', kind: 'WatchEvent' }] };
  return JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: `v${next}.0` }, paths: {}, definitions });
}

const DOCS = [
  'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n',
  'apiVersion: apps/v1\nkind: Widget\nmetadata:\n  name: w\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
  'apiVersion: resource.k8s.io/v1beta2\nkind: DeviceClass\nmetadata:\n  name: gpu\n',
].join('---\n');
const LINE = { cronjob: 1, widget: 6, deploy: 11, deviceclass: 16 };
const window = `${last.replace(/\d+$/, (n) => String(n - 1))}..${next}`;

// The document at `next`: adds apps/v1 Widget, drops batch/v1 CronJob and resource.k8s.io/v1beta2 DeviceClass.
const NEXT_DOC = swagger(['apps/v1 Deployment', 'apps/v1 Widget', 'v1 ConfigMap', 'resource.k8s.io/v1 DeviceClass']);

test('a minor past the data is judged from the kubernetes.openapi document: what it adds and drops', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": cluster/openapi.json\n`,
    'cluster/openapi.json': NEXT_DOC,
    'm.yaml': DOCS,
  });
  const r = lint(dir, ['--format', 'json', 'm.yaml']);
  assert.equal(r.code, 1, r.stderr);
  const ms = messages(r).filter((m) => m.ruleId !== 'k8s/fields-not-checked' && m.ruleId !== 'k8s/api-off-by-default');
  const at = (line) => ms.filter((m) => m.line === line).map((m) => m.ruleId).sort();
  // Nothing said about a window past the data: the document vouches for that step.
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/window-past-data'), []);
  assert.deepEqual(at(LINE.cronjob), ['k8s/no-common-api-version']);
  assert.match(ms.find((m) => m.line === LINE.cronjob).message, new RegExp(`batch/v1 is served only at ${window.split('..')[0]}\\.\\.${last}`));
  assert.deepEqual(at(LINE.widget), ['k8s/api-not-yet-served']);
  assert.match(ms.find((m) => m.line === LINE.widget).message, new RegExp(`not served before Kubernetes ${next}`));
  assert.deepEqual(at(LINE.deploy), []);
  const dc = ms.filter((m) => m.line === LINE.deviceclass && m.ruleId === 'k8s/removed-api');
  assert.equal(dc.length, 1, JSON.stringify(ms));
  assert.match(dc[0].message, new RegExp(`removed in Kubernetes ${next}.*use resource\\.k8s\\.io/v1`));
  // A step after the document's minor (past the data, not vouched for): what the document dropped stays dropped.
  const after = `1.${Number(next.split('.')[1]) + 1}`;
  const longer = messages(lint(dir, ['--format', 'json', '--kubernetes-window', `${window.split('..')[0]}..${after}`, 'm.yaml']));
  assert.equal(longer.filter((m) => m.ruleId === 'k8s/window-past-data').length, 1);
  assert.match(longer.find((m) => m.line === LINE.cronjob && m.ruleId === 'k8s/no-common-api-version').message, new RegExp(`batch/v1 is served only at ${window.split('..')[0]}\\.\\.${last} `));
});

test('without the document the same window is past the data, and none of those verdicts is given', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n`, 'm.yaml': DOCS });
  const ms = messages(lint(dir, ['--format', 'json', 'm.yaml']));
  assert.equal(ms.filter((m) => m.ruleId === 'k8s/window-past-data').length, 1);
  assert.deepEqual(ms.filter((m) => ['k8s/no-common-api-version', 'k8s/api-not-yet-served', 'k8s/removed-api'].includes(m.ruleId)), []);
});

test('--kubernetes-openapi wins over the config file for its minor; a document that keeps an API keeps it served', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": openapi.json\n`,
    'openapi.json': NEXT_DOC,
    'keeps.json': swagger(['apps/v1 Deployment', 'batch/v1 CronJob', 'resource.k8s.io/v1 DeviceClass', 'resource.k8s.io/v1beta2 DeviceClass', 'resource.k8s.io/v1beta1 DeviceClass']),
    'm.yaml': DOCS,
  });
  // The data has resource.k8s.io/v1beta1 removed at `next` (announced upstream); this cluster still serves it.
  const alone = workspace(t, { 'keeps.json': fs.readFileSync(path.join(dir, 'keeps.json'), 'utf8'), 'old.yaml': 'apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: old\n' });
  const removedIn = data.apis.find((r) => r.apiVersion === 'resource.k8s.io/v1beta1' && r.kind === 'DeviceClass').removed;
  assert.equal(removedIn, next, 'the data\'s announced removal this test relies on');
  const removed = (args) => messages(lint(alone, ['--format', 'json', '--kubernetes-window', window, ...args, 'old.yaml'])).filter((m) => m.ruleId === 'k8s/removed-api');
  assert.equal(removed([]).length, 1); // the data's announcement
  const withDoc = messages(lint(alone, ['--format', 'json', '--kubernetes-window', window, '--kubernetes-openapi', `${next}=keeps.json`, 'old.yaml']));
  assert.deepEqual(withDoc.filter((m) => m.ruleId === 'k8s/removed-api'), []); // the document's word
  // Still deprecated (the data says so), but no longer said to be removed at `next`.
  const dep = withDoc.filter((m) => m.ruleId === 'k8s/deprecated-api');
  assert.equal(dep.length, 1, JSON.stringify(withDoc));
  assert.doesNotMatch(dep[0].message, /removed in/);
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-openapi', `${next}=keeps.json`, 'm.yaml']));
  assert.deepEqual(ms.filter((m) => [LINE.cronjob, LINE.deviceclass].includes(m.line) && ['k8s/no-common-api-version', 'k8s/removed-api'].includes(m.ruleId)), []);
  // Widget is in neither the data nor this document: an unknown kind, not judged (no row is made up for it).
  assert.deepEqual(ms.filter((m) => m.line === LINE.widget && m.ruleId === 'k8s/api-not-yet-served'), []);
  const cfg = JSON.parse(lint(dir, ['--kubernetes-openapi', `${next}=keeps.json`, '--print-config', 'm.yaml']).stdout);
  assert.match(cfg.kubernetes.knowledge[next], new RegExp(`^openapi file ${path.join(dir, 'keeps.json').replace(/[.\\]/g, '\\$&')} \\(from the command line\\)`));
});

test('--print-config says where each minor\'s knowledge comes from', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": cluster/openapi.json\n`,
    'cluster/openapi.json': NEXT_DOC, 'm.yaml': DOCS,
  });
  const r = lint(dir, ['--print-config', 'm.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const k = JSON.parse(r.stdout).kubernetes;
  assert.equal(k.pastData, null);
  assert.match(k.knowledge[next], new RegExp(`^openapi file cluster/openapi\\.json \\(from ${path.join(dir, '.skewguard.yaml').replace(/[.\\]/g, '\\$&')}\\): the kinds it serves; fields not checked`));
  assert.match(k.knowledge[last], /^shipped data/);
});

test('a document that cannot be used is config/invalid at its entry (exit 2); the flag\'s is a usage error (exit 2)', (t) => {
  const cases = {
    'missing.json': /cannot be read: no such file/,
    'notjson.json': /not JSON/,
    'notswagger.json': /neither "swagger": "2\.0"/,
    'nokinds.json': /serves no kind/,
    'folder': /cannot be read: a folder/,
  };
  const dir = workspace(t, {
    'notjson.json': '{"swagger": "2.0", secret', 'notswagger.json': '{"hello": 1}', 'nokinds.json': '{"swagger":"2.0","definitions":{"a":{"type":"object"}}}',
    'folder/x': '', 'm.yaml': DOCS,
  });
  for (const [file, why] of Object.entries(cases)) {
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": ${file}\n`);
    const r = lint(dir, ['--format', 'json', 'm.yaml']);
    assert.equal(r.code, 2, `${file}: ${r.stderr}`);
    // At the entry's value: line 4, column 13 ("    "1.38": <file>").
    const said = r.stderr.split('\n').filter((l) => l.includes('.skewguard.yaml:'));
    assert.equal(said.length, 1, `${file}: ${r.stderr}`);
    assert.match(said[0], new RegExp(`\\.skewguard\\.yaml:4:13: OpenAPI document for Kubernetes ${next.replace('.', '\\.')} "${file}"`));
    assert.match(said[0], why);
    assert.doesNotMatch(r.stderr, /secret/); // the file's text is not quoted
    const f = lint(dir, ['--kubernetes-openapi', `${next}=${file}`, '--kubernetes-window', window, '-c', path.join(dir, 'none.yaml'), 'm.yaml']);
    assert.equal(f.code, 2, file);
    assert.match(f.stderr, /--kubernetes-openapi OpenAPI document/);
    assert.match(f.stderr, why);
  }
  const bad = lint(dir, ['--kubernetes-openapi', 'latest=x.json', 'm.yaml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--kubernetes-openapi takes <minor>=<file>/);
});

test('a .skewguard.yaml entry outside the workspace is not read', (t) => {
  const outside = workspace(t, { 'openapi.json': NEXT_DOC });
  const dir = workspace(t, { '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": ${JSON.stringify(path.join(outside, 'openapi.json'))}\n`, 'm.yaml': DOCS });
  const r = lint(dir, ['--format', 'json', 'm.yaml']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /\.skewguard\.yaml:4:13: OpenAPI document .* is outside the workspace: not read/);
});

test('an OpenAPI 3 document (components.schemas) is read the same way', (t) => {
  const v2 = JSON.parse(NEXT_DOC);
  const v3 = JSON.stringify({ openapi: '3.0.0', info: v2.info, paths: {}, components: { schemas: v2.definitions } });
  const dir = workspace(t, { 'v3.json': v3, 'm.yaml': DOCS });
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-window', window, '--kubernetes-openapi', `${next}=v3.json`, 'm.yaml']));
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/window-past-data'), []);
  assert.deepEqual(ms.filter((m) => m.line === LINE.cronjob && m.ruleId !== 'k8s/fields-not-checked').map((m) => m.ruleId), ['k8s/no-common-api-version']);
});

test('LSP: the document changed on disk (didChangeWatchedFiles) re-checks the open files with it', async () => {
  const { withLspClient, uriOf } = await import('./helpers/lsp-client.mjs');
  const files = {
    '.skewguard.yaml': `kubernetes:\n  window: "${window}"\n  openapi:\n    "${next}": openapi.json\n`,
    'openapi.json': swagger(['batch/v1 CronJob']),
    'c.yaml': 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n',
  };
  await withLspClient(files, async (client, dir) => {
    const uri = uriOf(path.join(dir, 'c.yaml'));
    const first = await client.open(uri, files['c.yaml']);
    assert.deepEqual(first.diagnostics.filter((d) => d.code === 'k8s/no-common-api-version'), []);
    await new Promise((r) => setTimeout(r, 300)); // the folder-scoped settings' re-check
    fs.writeFileSync(path.join(dir, 'openapi.json'), swagger(['apps/v1 Deployment']));
    const since = client.count(uri);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(dir, 'openapi.json')), type: 2 }] });
    const again = await client.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'k8s/no-common-api-version'), { since });
    assert.match(again.diagnostics.find((d) => d.code === 'k8s/no-common-api-version').message, /batch\/v1 is served only at/);
  });
});
