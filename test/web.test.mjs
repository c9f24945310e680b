// The web extension's language server (dist/web/server.js, package.json "browser"), run as a browser runs it: in a
// context holding only a web worker's globals (test/helpers/web-worker.mjs), fed the workspace's files as the web
// client hands them over. It must say what the desktop server says, for every example file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebWorkerServer, repoRoot } from './helpers/web-worker.mjs';
import { LspClient } from './helpers/lsp-client.mjs';

const examples = path.join(repoRoot, 'examples');
const READ = /(\.(ya?ml|json|toml|tpl|tgz)|\/\.skewguard\.ya?ml)$/i;
const languageOf = (f) => (f.endsWith('.toml') ? 'toml' : f.endsWith('.json') ? 'json' : 'yaml');

/** The examples as the web client hands them over: every file listed, the ones it reads with their contents. */
function webFiles(base) {
  const files = {};
  for (const rel of fs.readdirSync(examples, { recursive: true })) {
    const p = path.join(examples, rel);
    if (!fs.statSync(p).isFile()) continue;
    const uri = `${base}/${rel.split(path.sep).join('/')}`;
    const b = fs.readFileSync(p);
    files[uri] = !READ.test(uri) ? { why: 'not read' } : /\.tgz$/.test(p) ? { size: b.length, base64: b.toString('base64') } : b.toString('utf8');
  }
  return files;
}
const checked = () => fs.readdirSync(examples, { recursive: true }).map((r) => r.split(path.sep).join('/'))
  .filter((r) => /\.(ya?ml|json|toml|tpl|tgz)$/.test(r) && fs.statSync(path.join(examples, r)).isFile()).sort();
const shape = (ds) => ds.map((d) => `${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`);

test('the web server runs with only a web worker\'s globals: no require, process, Buffer or __dirname', async () => {
  const s = new WebWorkerServer('file:///nowhere');
  try {
    assert.deepEqual(s.nodeGlobals(), []);
    const r = await s.initialize();
    assert.equal(r.serverInfo.name, 'skewguard-language-server');
    assert.ok(r.capabilities.hoverProvider && r.capabilities.codeActionProvider);
  } finally { s.dispose(); }
});

test('the web server reports what the desktop server reports for every example file (packaged charts excepted)', async () => {
  const base = pathToFileURL(examples).toString();
  const web = new WebWorkerServer(base, { files: webFiles(base) });
  const desk = new LspClient(examples);
  try {
    await web.initialize();
    await desk.initialize();
    const differ = [];
    for (const rel of checked()) {
      const uri = `${base}/${rel}`;
      const text = rel.endsWith('.tgz') ? '' : fs.readFileSync(path.join(examples, rel), 'utf8');
      // A packaged chart is opened as bytes by lsp-lint, not as a document; a .skewguard.yaml's problems are published apart.
      if (rel.endsWith('.tgz') || /(^|\/)\.skewguard\.ya?ml$/.test(rel)) continue;
      const [w, d] = await Promise.all([web.open(uri, text, 1, languageOf(rel)), desk.open(uri, text, 1, languageOf(rel))]);
      if (JSON.stringify(shape(w.diagnostics)) !== JSON.stringify(shape(d.diagnostics))) differ.push({ rel, web: shape(w.diagnostics), desktop: shape(d.diagnostics) });
    }
    // The only difference allowed: in a chart with a packaged dependency (charts/*.tgz), which the browser does not
    // unpack, findings that need the dependency's templates are missing; the web server adds none.
    const chartWithArchive = (rel) => {
      for (let d = path.dirname(path.join(examples, rel)); d.startsWith(examples); d = path.dirname(d)) {
        if (fs.existsSync(path.join(d, 'charts')) && fs.readdirSync(path.join(d, 'charts')).some((n) => n.endsWith('.tgz'))) return true;
      }
      return false;
    };
    // And one the web server adds: a custom resource no CRD read defines names the packaged charts it could not read
    // (their CRDs may define it), instead of passing in silence.
    const archiveNotRead = (m) => /^k8s\/cr-version-not-served 3 .*; not read: .*\.tgz was not read \(packaged charts \(\.tgz\) are not unpacked by the web extension/.test(m);
    // And Helm release records (gzipped, which the browser does not unpack): each is said as not checked there (an
    // info note on its record), where the desktop decodes it and reports what its stored manifest holds.
    const recordNotUnpacked = (m) => /^helm\/release-record-unreadable 3 .* is not checked: the web extension does not unpack gzip/.test(m);
    const recordsOnly = (x) => x.web.every(recordNotUnpacked) && x.desktop.every((m) => /^helm\/release-record-/.test(m)) && x.web.length > 0;
    // And the bundled operator data (gzipped, not shipped in the web build): a custom resource it would check is said
    // as not checked there, once, at its apiVersion.
    const operatorDataNotHere = (m) => /^k8s\/cr-unknown-field 3 .*: its fields are not checked against the bundled [\w-]+ data: .* \(the web extension does not ship or unpack the bundled operator data\)$/.test(m);
    const webOnly = (m) => archiveNotRead(m) || operatorDataNotHere(m);
    const rest = differ.filter((x) => !recordsOnly(x) && !(x.desktop.every((m) => x.web.includes(m)) && x.web.filter((m) => !x.desktop.includes(m)).every(webOnly)));
    for (const x of rest) {
      const extra = x.web.filter((m) => !x.desktop.includes(m));
      assert.ok(chartWithArchive(x.rel) && !extra.length, `${x.rel}:\nweb:     ${x.web.join('\n         ')}\ndesktop: ${x.desktop.join('\n         ')}`);
    }
    assert.ok(rest.length <= 1, rest.map((x) => x.rel).join(', '));
    assert.ok(checked().length > 40, 'the examples are read');
  } finally { web.dispose(); desk.kill(); }
});

test('web: a virtual workspace URI (vscode-vfs://github/…) finds its .skewguard.yaml; hover and quick fix answer as on the desktop', async () => {
  const base = 'vscode-vfs://github/skewguard/skewguard/examples';
  const web = new WebWorkerServer(base, { files: webFiles(base) });
  const desk = new LspClient(examples);
  try {
    await web.initialize();
    await desk.initialize();
    const rel = 'kata/gpu-host-3.1-to-3.32/configuration-qemu-tdx.toml';
    const text = fs.readFileSync(path.join(examples, rel), 'utf8');
    const w = await web.open(`${base}/${rel}`, text, 1, 'toml');
    const duri = pathToFileURL(path.join(examples, rel)).toString();
    const d = await desk.open(duri, text, 1, 'toml');
    assert.deepEqual(shape(w.diagnostics), shape(d.diagnostics));
    assert.ok(w.diagnostics.some((x) => x.code === 'kata/invalid-value'), 'the window of its .skewguard.yaml (3.1..3.32) is used');
    const at = { line: 12, character: 3 };
    const [wh, dh] = await Promise.all([web.request('textDocument/hover', { textDocument: { uri: `${base}/${rel}` }, position: at }), desk.request('textDocument/hover', { textDocument: { uri: duri }, position: at })]);
    assert.match(wh.contents.value, /shared_fs/);
    assert.equal(wh.contents.value.replaceAll(base, examples), dh.contents.value);
    const ctx = (ds) => ({ diagnostics: ds.filter((x) => x.code === 'kata/invalid-value'), only: ['quickfix'] });
    const range = w.diagnostics.find((x) => x.code === 'kata/invalid-value').range;
    const wa = await web.request('textDocument/codeAction', { textDocument: { uri: `${base}/${rel}` }, range, context: ctx(w.diagnostics) });
    const da = await desk.request('textDocument/codeAction', { textDocument: { uri: duri }, range, context: ctx(d.diagnostics) });
    assert.deepEqual(wa.map((a) => a.title), da.map((a) => a.title));
    assert.ok(wa.some((a) => a.title === 'Change to virtio-fs'));
    assert.deepEqual(Object.values(wa[0].edit.changes)[0], Object.values(da[0].edit.changes)[0]);
  } finally { web.dispose(); desk.kill(); }
});

test('web: a changed .skewguard.yaml handed over by the client (skewguard/webFiles + didChangeWatchedFiles) re-checks the open files', async () => {
  const base = 'vscode-remote://127.0.0.1:8080/ws';
  const cfg = `${base}/.skewguard.yaml`;
  const manifest = `${base}/app.yaml`;
  const text = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: x\nspec: {}\n';
  const web = new WebWorkerServer(base, { files: { [cfg]: 'kubernetes:\n  window: "1.18..1.21"\n', [manifest]: text } });
  try {
    await web.initialize();
    const first = await web.open(manifest, text);
    assert.ok(first.diagnostics.some((d) => d.code === 'k8s/deprecated-api'), shape(first.diagnostics).join('\n'));
    assert.ok(!first.diagnostics.some((d) => d.code === 'k8s/removed-api'));
    const since = web.count(manifest);
    await web.notify('skewguard/webFiles', { files: [{ uri: cfg, size: 30, text: 'kubernetes:\n  window: "1.21..1.23"\n' }] });
    await web.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: cfg, type: 2 }] });
    const again = await web.waitFor(manifest, (p) => p.diagnostics.some((d) => d.code === 'k8s/removed-api'), { since });
    assert.ok(again.diagnostics.some((d) => /1\.22/.test(d.message)), shape(again.diagnostics).join('\n'));
  } finally { web.dispose(); }
});

test('web: a workspace file the client listed but did not read is said to be unread, not taken as missing', async () => {
  const base = 'vscode-remote://127.0.0.1:8080/ws';
  const cfg = `${base}/.skewguard.yaml`;
  const manifest = `${base}/app.yaml`;
  const web = new WebWorkerServer(base, { files: { [cfg]: { size: 600000, why: 'over 512 KiB: the web extension does not read it for facts' } } });
  try {
    await web.initialize();
    const p = await web.open(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const r = await web.request('skewguard/resolvedConfig', { uri: manifest });
    assert.match(JSON.stringify(r.configProblems), /cannot read \.skewguard\.yaml: EIO: over 512 KiB/);
    assert.ok(p);
  } finally { web.dispose(); }
});

test('in the web server a template\'s sha256sum is not evaluated (no node:crypto there), said as any value it does not evaluate: the chart is still checked, no internal error', async () => {
  // The web build's node:crypto stand-in throws the engine's NotEvaluated (engine/not-evaluated.ts), the class the Helm
  // template evaluator catches: another class would be an internal error in the middle of the render.
  const base = 'file:///ws';
  const deploy = 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: app\n  annotations:\n    checksum/config: {{ include (print $.Template.BasePath "/cm.yaml") . | sha256sum }}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n';
  const files = {
    [`${base}/chart/Chart.yaml`]: 'apiVersion: v2\nname: app\nversion: 0.1.0\n',
    [`${base}/chart/values.yaml`]: 'x: 1\n',
    [`${base}/chart/templates/cm.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  x: "{{ .Values.x }}"\n',
    [`${base}/chart/templates/deploy.yaml`]: deploy,
  };
  const web = new WebWorkerServer(base, { files });
  try {
    await web.initialize();
    const r = await web.open(`${base}/chart/templates/deploy.yaml`, deploy, 1, 'yaml');
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'skewguard/internal-error').map((d) => d.message), []);
    assert.ok(r.diagnostics.some((d) => d.code === 'helm/removed-api'), JSON.stringify(r.diagnostics.map((d) => `${d.code} ${d.message}`)));
  } finally { web.dispose(); }
});
