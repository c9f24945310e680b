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
  assert.match(k.knowledge[next], new RegExp(`^openapi file cluster/openapi\\.json \\(from ${path.join(dir, '.skewguard.yaml').replace(/[.\\]/g, '\\$&')}\\): the kinds it serves and their fields$`));
  assert.match(k.knowledge[last], /^shipped data/);
});

test('a document that cannot be used is config/invalid at its entry (exit 2); the flag\'s is a usage error (exit 2)', (t) => {
  const cases = {
    'missing.json': /cannot be read: no such file/,
    'notjson.json': /not JSON/,
    'notswagger.json': /neither "swagger": "2\.0"/,
    'nokinds.json': /serves no kind/,
    'folder': /a folder without \.json documents/,
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

test('an OpenAPI 3 document (components.schemas) is read the same way, for the group-versions of its paths', (t) => {
  const v2 = JSON.parse(NEXT_DOC);
  const paths = Object.fromEntries(['/apis/batch/v1', '/apis/apps/v1/namespaces/{namespace}/deployments', '/api/v1/configmaps', '/apis/resource.k8s.io/v1/deviceclasses', '/apis/resource.k8s.io/v1beta2/deviceclasses'].map((p) => [p, {}]));
  const v3 = JSON.stringify({ openapi: '3.0.0', info: v2.info, paths, components: { schemas: v2.definitions } });
  // It speaks for those group-versions only: the step is still past the data for the others.
  const dir = workspace(t, { 'v3.json': v3, 'm.yaml': DOCS });
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-window', window, '--kubernetes-openapi', `${next}=v3.json`, 'm.yaml']));
  assert.equal(ms.filter((m) => m.ruleId === 'k8s/window-past-data').length, 1);
  assert.deepEqual(ms.filter((m) => m.line === LINE.cronjob && m.ruleId !== 'k8s/fields-not-checked' && m.ruleId !== 'k8s/window-past-data').map((m) => m.ruleId), ['k8s/no-common-api-version']);
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

// ---- Fields from the document (item 1), v3 per-group documents and sets (item 3), Helm's .Capabilities (item 4).
// The fixture is cut from the upstream 1.36 swagger (shared/reference/kubernetes/openapi/swagger-1.36.json.gz): the
// definitions of v1 ConfigMap, scheduling.k8s.io/v1 PriorityClass and networking.k8s.io/v1 IngressClass and what they
// reference, descriptions left out (test/fixtures/openapi/README.md). Each test changes a copy's data to stand for a
// cluster of another minor.
const CUT = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'openapi', 'swagger-1.36-cut.json'), 'utf8'));
const cut = () => JSON.parse(JSON.stringify(CUT));
const D = 'io.k8s.api.';
/** The cut with ConfigMap's `immutable` dropped and IngressClassSpec given a new field `controllerRef` (a cluster of `next`). */
function nextCut() {
  const d = cut();
  delete d.definitions[`${D}core.v1.ConfigMap`].properties.immutable;
  d.definitions[`${D}networking.v1.IngressClassSpec`].properties.controllerRef = { type: 'string' };
  return d;
}
const FIELDS = [
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nimmutable: true\n',
  'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: i\nspec:\n  controller: example.com/ingress\n  controllerRef: x\n  controler: y\n',
].join('---\n');
const prevLast = `1.${Number(last.split('.')[1]) - 0}`; // the data's last minor, the step before `next`

test('fields at a minor with a document come from its definitions: field-not-served, unknown-field, exact positions; no fields-not-checked', (t) => {
  const dir = workspace(t, { 'next.json': JSON.stringify(nextCut()), 'm.yaml': FIELDS, 'crlf.yaml': `\uFEFF${FIELDS.replace(/\n/g, '\r\n')}` });
  const args = (f) => ['--format', 'json', '--kubernetes-window', `${prevLast}..${next}`, '--kubernetes-openapi', `${next}=next.json`, f];
  for (const f of ['m.yaml', 'crlf.yaml']) {
    const ms = messages(lint(dir, args(f)));
    assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/fields-not-checked'), [], f);
    const pick = (rule, line) => ms.filter((m) => m.ruleId === rule && m.line === line).map((m) => ({ line: m.line, column: m.column, endColumn: m.endColumn, message: m.message }));
    // ConfigMap immutable (line 5): the document drops it at `next`.
    const imm = pick('k8s/field-not-served', 5);
    assert.equal(imm.length, 1, `${f}: ${JSON.stringify(ms)}`);
    assert.deepEqual([imm[0].column, imm[0].endColumn], [1, 10]);
    assert.match(imm[0].message, new RegExp(`^${next.replace('.', '\\.')} drops immutable silently|^${next.replace('.', '\\.')} does not serve immutable`));
    assert.match(imm[0].message, new RegExp(`${next.replace('.', '\\.')} judged from \\S*next\\.json \\(OpenAPI document for ${next.replace('.', '\\.')}, from the command line\\)`));
    // spec.controllerRef (line 13): only the document has it, so the data's minor lacks it.
    const ref = pick('k8s/field-not-served', 13);
    assert.equal(ref.length, 1, `${f}: ${JSON.stringify(ms)}`);
    assert.deepEqual([ref[0].column, ref[0].endColumn], [3, 16]);
    assert.match(ref[0].message, new RegExp(`^${prevLast.replace('.', '\\.')} (drops|does not serve) spec\\.controllerRef.*served from ${next.replace('.', '\\.')}`));
    assert.deepEqual(pick('k8s/unknown-field', 13), []);
    // spec.controler (line 14): in no minor of the table or the document.
    const typo = pick('k8s/unknown-field', 14);
    assert.equal(typo.length, 1, `${f}: ${JSON.stringify(ms)}`);
    assert.deepEqual([typo[0].column, typo[0].endColumn], [3, 12]);
    assert.match(typo[0].message, new RegExp(`\\(1\\.15\\.\\.${last.replace('.', '\\.')} and the OpenAPI document for ${next.replace('.', '\\.')}\\).*did you mean spec\\.controller\\?`));
  }
  // Without the document the same step is not field-checked, and said so.
  const none = messages(lint(dir, ['--format', 'json', '--kubernetes-window', `${prevLast}..${next}`, 'm.yaml']));
  assert.equal(none.filter((m) => m.ruleId === 'k8s/fields-not-checked' && m.data.reason === 'outside-table').length, 1);
  assert.deepEqual(none.filter((m) => m.ruleId === 'k8s/field-not-served'), []);
  // --print-config: the minor's fields come from the document.
  const cfg = JSON.parse(lint(dir, ['--kubernetes-openapi', `${next}=next.json`, '--kubernetes-window', `${prevLast}..${next}`, '--print-config', 'm.yaml']).stdout);
  assert.match(cfg.kubernetes.knowledge[next], /the kinds it serves and their fields$/);
});

test('a component configuration file keeps its own table at a minor with a document (no API the document serves)', (t) => {
  const dir = workspace(t, { 'doc.json': JSON.stringify(cut()), 'kubelet.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfailSwapOnn: false\nfailSwapOn: [true]\n' });
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-window', last, '--kubernetes-openapi', `${last}=doc.json`, 'kubelet.yaml']));
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/unknown-field').map((m) => [m.line, m.data.suggestions]), [[3, ['failSwapOn']]], JSON.stringify(ms));
  // Judged at the document's minor from the component table: the wrong type is found there.
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/field-type').map((m) => m.line), [4], JSON.stringify(ms));
});

test('a minor between the data and a document has no field source: said by fields-not-checked, not judged', (t) => {
  const after = `1.${Number(next.split('.')[1]) + 1}`;
  const dir = workspace(t, { 'after.json': JSON.stringify(nextCut()), 'm.yaml': FIELDS });
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-window', `${prevLast}..${after}`, '--kubernetes-openapi', `${after}=after.json`, 'm.yaml']));
  const nc = ms.filter((m) => m.ruleId === 'k8s/fields-not-checked');
  assert.equal(nc.length, 1, JSON.stringify(ms));
  assert.deepEqual(nc[0].data.minors, [next]);
  assert.match(nc[0].message, new RegExp(`covers 1\\.15\\.\\.${last.replace('.', '\\.')} and the OpenAPI document for ${after.replace('.', '\\.')}`));
  const imm = ms.filter((m) => m.ruleId === 'k8s/field-not-served' && m.line === 5);
  assert.equal(imm.length, 1);
  assert.deepEqual(imm[0].data.notServedAt, [after]);
});

/** The cut as OpenAPI v3 documents of single group-versions (kubectl get --raw /openapi/v3/apis/<g>/<v>): refs to
 *  #/components/schemas wrapped in allOf as the API server writes them, the group-version's paths. */
function v3Of(gv, keep) {
  const d = cut();
  const wrap = (v) => {
    if (Array.isArray(v)) return v.map(wrap);
    if (!v || typeof v !== 'object') return v;
    if (typeof v.$ref === 'string') return { allOf: [{ $ref: v.$ref.replace('#/definitions/', '#/components/schemas/') }], default: {} };
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wrap(x)]));
  };
  const schemas = {};
  for (const [id, s] of Object.entries(d.definitions)) if (keep(id)) schemas[id] = wrap(s);
  const base = gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`;
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'unversioned' }, paths: { [base]: {}, [`${base}/things`]: {} }, components: { schemas } };
}
const meta = (id) => id.startsWith('io.k8s.apimachinery.');

test('an OpenAPI v3 document of one group-version speaks only for it: other groups keep the data; its kinds\' fields come from it', (t) => {
  // At the data's last minor: a scheduling.k8s.io/v1 document without PriorityClass's preemptionPolicy.
  const doc = v3Of('scheduling.k8s.io/v1', (id) => meta(id) || id.includes('.scheduling.v1.'));
  delete doc.components.schemas[`${D}scheduling.v1.PriorityClass`].properties.preemptionPolicy;
  const dir = workspace(t, {
    'sched.json': JSON.stringify(doc),
    'm.yaml': [
      'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: p\nvalue: 10\npreemptionPolicy: Never\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 2\n',
      'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n',
    ].join('---\n'),
  });
  const ms = messages(lint(dir, ['--format', 'json', '--kubernetes-window', last, '--kubernetes-openapi', `${last}=sched.json`, 'm.yaml']));
  // Deployment and CronJob: the document does not speak for apps/v1 or batch/v1; nothing said removed.
  assert.deepEqual(ms.filter((m) => ['k8s/removed-api', 'k8s/no-common-api-version', 'k8s/api-not-yet-served'].includes(m.ruleId)), [], JSON.stringify(ms));
  // Their fields still from the shipped table: the typo is found.
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/unknown-field').map((m) => [m.line, m.data.suggestions]), [[13, ['replicas']]]);
  // PriorityClass: from the document, which lacks preemptionPolicy at that minor.
  const pp = ms.filter((m) => m.ruleId === 'k8s/field-not-served');
  assert.deepEqual(pp.map((m) => [m.line, m.column, m.data.notServedAt]), [[6, 1, [last]]]);
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/fields-not-checked'), []);
});

test('a v3 document set (a folder, one file per group-version) for a minor past the data', (t) => {
  const dir = workspace(t, {
    'v3/apis__networking.k8s.io__v1.json': JSON.stringify(v3Of('networking.k8s.io/v1', (id) => meta(id) || id.includes('.networking.v1.'))),
    'v3/apis__scheduling.k8s.io__v1.json': JSON.stringify(v3Of('scheduling.k8s.io/v1', (id) => meta(id) || id.includes('.scheduling.v1.'))),
    'v3/README.txt': 'not read',
    '.skewguard.yaml': `kubernetes:\n  window: "${prevLast}..${next}"\n  openapi:\n    "${next}": v3\n`,
    'm.yaml': FIELDS,
  });
  const r = lint(dir, ['--format', 'json', 'm.yaml']);
  const ms = messages(r);
  // IngressClass: fields from the set at `next` (the unchanged cut: no controllerRef anywhere; the typo).
  assert.deepEqual(ms.filter((m) => m.ruleId === 'k8s/unknown-field').map((m) => [m.line, m.data.suggestions]), [[13, []], [14, ['controller']]]);
  assert.match(ms.find((m) => m.ruleId === 'k8s/unknown-field').message, new RegExp(`and the OpenAPI document for ${next.replace('.', '\\.')}`));
  // ConfigMap (core v1): the set does not cover it; its fields at `next` are not checked, and said so.
  const nc = ms.filter((m) => m.ruleId === 'k8s/fields-not-checked');
  assert.deepEqual(nc.map((m) => [m.data.reason, m.data.kind, m.data.minors]), [['kind-not-in-table', 'ConfigMap', [next]]], JSON.stringify(nc));
  // A set of some group-versions does not vouch for the step: the window is still past the data.
  assert.equal(ms.filter((m) => m.ruleId === 'k8s/window-past-data').length, 1);
  const cfg = JSON.parse(lint(dir, ['--print-config', 'm.yaml']).stdout);
  assert.match(cfg.kubernetes.knowledge[next], /^openapi file v3 .*the kinds it serves and their fields \(for networking\.k8s\.io\/v1, scheduling\.k8s\.io\/v1; the other group-versions from the shipped data\)/);
  // A bad file in the set fails the entry, at the entry.
  fs.writeFileSync(path.join(dir, 'v3', 'broken.json'), '{"openapi": "3.0.0"');
  const bad = lint(dir, ['--format', 'json', 'm.yaml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /\.skewguard\.yaml:4:13: OpenAPI document for Kubernetes .* "v3": "broken\.json": not JSON/);
});

test('Helm\'s .Capabilities.APIVersions at a minor with a document answers from the document', (t) => {
  const tpl = '{{- if .Capabilities.APIVersions.Has "batch/v1/CronJob" }}\napiVersion: batch/v1\n{{- else }}\napiVersion: batch/v1beta1\n{{- end }}\nkind: CronJob\nmetadata:\n  name: nightly\n';
  const dir = workspace(t, {
    'chart/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    'chart/templates/cron.yaml': tpl,
    'next.json': NEXT_DOC, // serves no batch/v1 CronJob
  });
  const run = (extra) => messages(lint(dir, ['--format', 'json', '--kubernetes-window', `${prevLast}..${next}`, ...extra, 'chart/templates/cron.yaml']));
  const withDoc = run(['--kubernetes-openapi', `${next}=next.json`]);
  // At `next` the template takes the else branch (the document serves no batch/v1 CronJob): it emits batch/v1beta1.
  assert.ok(withDoc.some((m) => new RegExp(`at ${next.replace('.', '\\.')} this template emits batch/v1beta1 CronJob`).test(m.message)), JSON.stringify(withDoc.map((m) => m.message)));
  assert.ok(!withDoc.some((m) => new RegExp(`at ${next.replace('.', '\\.')} this template emits batch/v1 CronJob`).test(m.message)));
});

test('editor setting skewguard.kubernetes.openapi: a workspace value is read only inside the workspace, a user-level one anywhere; the findings are lsp-lint\'s', async (t) => {
  const { withLspClient, uriOf } = await import('./helpers/lsp-client.mjs');
  const outside = workspace(t, { 'next.json': JSON.stringify(nextCut()) });
  const outsideDoc = path.join(outside, 'next.json');
  const files = { 'm.yaml': FIELDS, 'cluster/next.json': JSON.stringify(nextCut()) };
  const window = `${prevLast}..${next}`;
  const immutableDropped = (p) => p.diagnostics.some((d) => d.code === 'k8s/field-not-served' && d.range.start.line === 4);
  const fieldsNotChecked = (p) => p.diagnostics.some((d) => d.code === 'k8s/fields-not-checked');
  const settingsProblems = (client) => client.notifications.filter((n) => n.method === 'skewguard/settingsProblems').flatMap((n) => n.params.problems);
  // 1. A workspace value pointing outside the workspace: not read, said as an invalid setting; the step stays unchecked.
  await withLspClient(files, async (client, dir) => {
    const uri = uriOf(path.join(dir, 'm.yaml'));
    await client.open(uri, files['m.yaml']);
    const p = await client.waitFor(uri, (x) => fieldsNotChecked(x) && !immutableDropped(x));
    assert.ok(!immutableDropped(p));
    const deadline = Date.now() + 10000;
    while (!settingsProblems(client).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const sp = settingsProblems(client);
    assert.equal(sp.length, 1, JSON.stringify(sp));
    assert.equal(sp[0].setting, `skewguard.kubernetes.openapi.${next}`);
    assert.match(sp[0].message, /is outside the workspace: not read \(a workspace setting: read only inside the workspace\)/);
  }, { settings: { skewguard: { debounceMs: 0, kubernetes: { window, openapi: { [next]: outsideDoc } } } } });
  // 2. The same value set at the user level (the VS Code client says so in userLevel): read.
  await withLspClient(files, async (client, dir) => {
    const uri = uriOf(path.join(dir, 'm.yaml'));
    await client.open(uri, files['m.yaml']);
    const p = await client.waitFor(uri, immutableDropped);
    assert.ok(!fieldsNotChecked(p), JSON.stringify(p.diagnostics.map((d) => d.message)));
  }, { settings: { skewguard: { debounceMs: 0, kubernetes: { window, openapi: { [next]: outsideDoc } }, userLevel: { 'kubernetes.openapi': [next] } } } });
  // 3. A workspace value inside the workspace (relative to the folder): read; the same findings as lsp-lint given the document.
  await withLspClient(files, async (client, dir) => {
    const uri = uriOf(path.join(dir, 'm.yaml'));
    await client.open(uri, files['m.yaml']);
    const p = await client.waitFor(uri, immutableDropped);
    const cli = messages(lint(dir, ['--format', 'json', '--kubernetes-window', window, '--kubernetes-openapi', `${next}=cluster/next.json`, 'm.yaml']));
    const norm = (s) => s.replace(/judged from \S+ \(OpenAPI document for ([\d.]+), from [^)]*\)/g, 'judged from the document for $1');
    const editor = p.diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1} ${norm(d.message)}`).sort();
    const batch = cli.map((m) => `${m.ruleId} ${m.line}:${m.column} ${norm(m.message)}`).sort();
    assert.deepEqual(editor, batch);
    assert.ok(editor.some((l) => l.startsWith('k8s/unknown-field 14:3')));
  }, { settings: { skewguard: { debounceMs: 0, kubernetes: { window, openapi: { [next]: 'cluster/next.json' } } } } });
});
