// Issue #19 item 5: the tools CI already runs. `npm pack` installed globally on a clean prefix (offline: the package
// has no runtime dependencies) runs lsp-lint and skewguard-language-server; `lsp-lint merge-reports` joins 4 shards'
// reports into the report of one unsharded run; the GitHub Action's run: steps, executed with a simulated GITHUB_*
// environment; the GitLab CI template's job script. The pre-commit hook with Debian's pre-commit:
// test/e2e/pre-commit.test.mjs (run by .ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { scratch, lint, writeFiles, repoRoot, K8S_WINDOW, ING_BETA, ING_V1, CM } from './helpers/cli-run.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
let tmp, prefix, tgz;

before(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-ci-')));
  // dist/ is built by npm test first; prepack would build it again (checked below that it is the build).
  const p = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp, '--json'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  tgz = path.join(tmp, JSON.parse(p.stdout)[0].filename);
  prefix = path.join(tmp, 'prefix');
  // A clean prefix, no network: everything it needs is in the tarball.
  const i = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tgz], { cwd: tmp, encoding: 'utf8', env: { ...process.env, npm_config_cache: path.join(tmp, 'empty-npm-cache') } });
  assert.equal(i.status, 0, `npm install -g failed:\n${i.stdout}\n${i.stderr}`);
});
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

const installedEnv = () => ({ ...process.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`, SKEWGUARD_CACHE_DIR: path.join(tmp, 'cache'), NO_COLOR: '1' });

test('npm pack: the bundles, data and schemas, no runtime dependency, and prepack builds dist/', () => {
  assert.equal(pkg.dependencies, undefined, 'lsp-lint and the server are self-contained bundles: nothing to install with them');
  assert.equal(pkg.scripts.prepack, 'node scripts/build.mjs');
  const list = spawnSync('tar', ['tzf', tgz], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  for (const f of ['package.json', 'bin/lsp-lint.js', 'bin/skewguard-language-server.js', 'bin/package.json', 'dist/package.json', 'dist/lsp-lint.js', 'dist/lsp-lint-main.js', 'dist/server.js', 'dist/server-main.js', 'dist/validators/config.js', 'data/kubernetes/api-lifecycle.json', 'README.md', 'LICENSE']) {
    assert.ok(list.includes(f), `${f} is packed`);
  }
  assert.ok(list.some((f) => f.startsWith('schemas/starlingx/')));
  for (const f of list) assert.doesNotMatch(f, /^(server|client|test|scripts|examples|bench|node_modules)\/|\.map$|^dist\/(client|engine|helm-render)\.js$/, `${f} is not shipped`);
  const installed = path.join(prefix, 'lib', 'node_modules', 'skewguard');
  assert.ok(fs.existsSync(path.join(installed, 'dist', 'server-main.js')));
  assert.ok(!fs.existsSync(path.join(installed, 'node_modules')), 'no dependency was installed');
});

test('the global install runs lsp-lint (a finding, exit 1; --version) from its own prefix, not from the repository', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'ing.yaml': ING_BETA, 'ok.yaml': CM });
  const env = installedEnv();
  const which = spawnSync('sh', ['-c', 'command -v lsp-lint'], { env, encoding: 'utf8' }).stdout.trim();
  assert.equal(which, path.join(prefix, 'bin', 'lsp-lint'));
  const v = spawnSync('lsp-lint', ['--version'], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(v.stdout.trim(), pkg.version);
  const r = spawnSync('lsp-lint', ['--format', 'json', '.'], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const rep = JSON.parse(r.stdout);
  assert.deepEqual(rep.find((x) => x.filePath.endsWith('ing.yaml')).messages.map((m) => m.ruleId), ['k8s/removed-api']);
  const h = spawnSync('lsp-lint', ['--format', 'html', '.'], { cwd: dir, env, encoding: 'utf8' });
  assert.match(h.stdout, /<td class="c fail">/);
});

/** Content-Length framed JSON-RPC over a child's stdio. */
function rpc(child) {
  let buf = Buffer.alloc(0);
  const waiting = [];
  const seen = [];
  child.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const head = buf.indexOf('\r\n\r\n');
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())[1]);
      if (buf.length < head + 4 + len) return;
      const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString('utf8'));
      buf = buf.subarray(head + 4 + len);
      // The server's own requests (workspace/configuration, client/registerCapability): answered as a bare client would.
      if (msg.method && msg.id !== undefined) { send({ id: msg.id, result: msg.method === 'workspace/configuration' ? (msg.params?.items ?? []).map(() => null) : null }); continue; }
      seen.push(msg);
      for (const w of [...waiting]) if (w.match(msg)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(msg); }
    }
  });
  const send = (m) => { const s = JSON.stringify({ jsonrpc: '2.0', ...m }); child.stdin.write(`Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`); };
  const wait = (match) => new Promise((resolve, reject) => {
    const old = seen.find(match);
    if (old) return resolve(old);
    const timer = setTimeout(() => reject(new Error('no answer from the language server')), 60000);
    waiting.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
  });
  return { send, wait };
}

test('the global install runs skewguard-language-server --stdio: initialize, a diagnostic for an opened file, shutdown', async (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23') });
  const file = path.join(dir, 'ing.yaml');
  const child = spawn(path.join(prefix, 'bin', 'skewguard-language-server'), ['--stdio'], { cwd: dir, env: installedEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const c = rpc(child);
  c.send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: pathToFileURL(dir).toString(), capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }] } });
  const init = await c.wait((m) => m.id === 1);
  assert.equal(init.result.serverInfo.name, 'skewguard-language-server');
  assert.ok(init.result.capabilities.textDocumentSync);
  c.send({ method: 'initialized', params: {} });
  c.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: pathToFileURL(file).toString(), languageId: 'yaml', version: 1, text: ING_BETA } } });
  const diag = await c.wait((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === pathToFileURL(file).toString() && m.params.diagnostics.length);
  assert.deepEqual(diag.params.diagnostics.map((d) => [d.code, d.data.steps]), [['k8s/removed-api', ['1.22', '1.23']]]);
  c.send({ id: 2, method: 'shutdown' });
  await c.wait((m) => m.id === 2);
  c.send({ method: 'exit' });
  assert.equal(await exited, 0);
});

// ---- merge-reports ----------------------------------------------------------------------------------------------

/** A repository of many files: the examples, plus a window past the data (a once-per-run note) and an ignored folder. */
function many(t) {
  const dir = scratch(t, {}, 'skewguard-shards-');
  const examples = path.join(repoRoot, 'examples');
  // examples/ci/ left out (by its path below examples/: the clone itself may be in a folder named ci…).
  fs.cpSync(examples, dir, { recursive: true, filter: (src) => path.relative(examples, src).split(path.sep)[0] !== 'ci' });
  writeFiles(dir, {
    'future/.skewguard.yaml': K8S_WINDOW('1.36..1.38'),
    'future/a.yaml': CM, 'future/b.yaml': ING_V1, 'future/c.yaml': CM.replace('cfg', 'c2'), 'future/d.yaml': CM.replace('cfg', 'd2'),
    'out/.gitignore': 'rendered/\n', 'out/rendered/x.yaml': ING_BETA,
  });
  return dir;
}

test('merge-reports: 4 shards\' SARIF and JSON reports, merged, are the report of one unsharded run', (t) => {
  const dir = many(t);
  const out = scratch(t, {}, 'skewguard-reports-');
  const at = (f) => path.join(out, f);
  // out/ is named but all its files are git-ignored: every shard notes it (once in the merged report, as in the
  // unsharded one).
  const args = ['.', 'out/'];
  for (const fmt of ['sarif', 'json']) {
    const whole = lint(dir, ['--format', fmt, '--output-file', at(`whole.${fmt}`), ...args]);
    assert.equal(whole.code, 1, whole.stderr);
    const shards = [1, 2, 3, 4].map((i) => {
      const r = lint(dir, ['--shard', `${i}/4`, '--format', fmt, '--output-file', at(`shard-${i}.${fmt}`), ...args]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      return at(`shard-${i}.${fmt}`);
    });
    const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
    const count = (log) => (fmt === 'sarif' ? log.runs[0].results.length : log.reduce((a, r) => a + r.messages.length, 0));
    const unsharded = read(at(`whole.${fmt}`));
    assert.ok(shards.every((s) => count(read(s)) < count(unsharded)), 'every shard has less than the whole');
    const m = lint(dir, ['merge-reports', '--output-file', at(`merged.${fmt}`), ...shards.reverse()]);
    assert.equal(m.code, 1, m.stderr);
    assert.deepEqual(read(at(`merged.${fmt}`)), unsharded, `${fmt}: merged shards = one unsharded run`);
    const text = JSON.stringify(unsharded);
    assert.equal(text.split('"k8s/window-past-data"').length - 1, fmt === 'sarif' ? 2 : 1, 'the once-per-run note once (SARIF: the rule table and one result)');
    const shardText = shards.map((s) => fs.readFileSync(s, 'utf8')).join('');
    assert.ok(shardText.split('"k8s/window-past-data"').length - 1 > (fmt === 'sarif' ? 5 : 1), 'several shards said it');
    assert.equal(text.split('are ignored by .gitignore').length - 1, 1, 'the ignored folder is noted once');
  }
});

test('merge-reports: mixed kinds, a file that is not a report, reports of another version: exit 2 with a message', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'a.yaml': ING_BETA });
  lint(dir, ['--format', 'sarif', '--output-file', 'a.sarif', 'a.yaml']);
  lint(dir, ['--format', 'json', '--output-file', 'a.json', 'a.yaml']);
  fs.writeFileSync(path.join(dir, 'other.sarif'), fs.readFileSync(path.join(dir, 'a.sarif'), 'utf8').replaceAll(`"version": "${pkg.version}"`, '"version": "0.0.1"'));
  fs.writeFileSync(path.join(dir, 'junk.json'), '{"hello": 1}');
  for (const [files, msg] of [[['a.sarif', 'a.json'], /different kinds/], [['junk.json'], /not an lsp-lint --format sarif report/], [['a.sarif', 'other.sarif'], /from skewguard 0\.0\.1/], [['missing.json'], /cannot read missing\.json: ENOENT/], [[], /no report to merge/]]) {
    const r = lint(dir, ['merge-reports', ...files]);
    assert.equal(r.code, 2, `${files}: ${r.stderr}`);
    assert.match(r.stderr, msg);
  }
  const one = lint(dir, ['merge-reports', 'a.json']);
  assert.equal(one.code, 1);
  assert.deepEqual(JSON.parse(one.stdout), JSON.parse(fs.readFileSync(path.join(dir, 'a.json'), 'utf8')));
});

// ---- the GitHub Action ------------------------------------------------------------------------------------------

const action = YAML.parse(fs.readFileSync(path.join(repoRoot, 'action.yml'), 'utf8'));

test('action.yml: a composite action with the inputs, setup-node, upload-sarif, the summary and the exit code', () => {
  assert.equal(action.runs.using, 'composite');
  for (const i of ['paths', 'windows', 'config', 'format', 'changed-since']) assert.ok(action.inputs[i], `input ${i}`);
  const uses = action.runs.steps.filter((s) => s.uses).map((s) => s.uses.split('@')[0]);
  assert.deepEqual(uses, ['actions/setup-node', 'github/codeql-action/upload-sarif']);
  const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
  assert.equal(upload.with.sarif_file, '${{ steps.lint.outputs.sarif-file }}');
  assert.match(upload.if, /always\(\)/, 'uploaded even when lsp-lint found errors');
  for (const s of action.runs.steps.filter((x) => x.run)) {
    assert.equal(s.shell, 'bash');
    assert.doesNotMatch(s.run, /\$\{\{/, `${s.name}: no expression in the script (inputs reach it as environment variables)`);
  }
});

/** Runs the action's run: steps as the runner would (bash --noprofile --norc -eo pipefail), in `ws`. */
function runAction(t, ws, inputs) {
  const run = scratch(t, {}, 'skewguard-runner-');
  const stub = path.join(run, 'stub-bin');
  fs.mkdirSync(stub);
  // npm ci / npm run build of the build step: recorded, not run (dist/ is built already).
  fs.writeFileSync(path.join(stub, 'npm'), `#!/bin/sh\necho "npm $*" >> "${path.join(run, 'npm.log')}"\n`, { mode: 0o755 });
  const files = { GITHUB_OUTPUT: path.join(run, 'output'), GITHUB_STEP_SUMMARY: path.join(run, 'summary.md') };
  for (const f of Object.values(files)) fs.writeFileSync(f, '');
  const outputs = {};
  const value = (expr) => expr.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e) => {
    let m;
    if ((m = /^inputs\.([\w-]+)$/.exec(e))) return inputs[m[1]] ?? action.inputs[m[1]].default ?? '';
    if (e === 'github.action_path') return repoRoot;
    if ((m = /^steps\.lint\.outputs\.([\w-]+)$/.exec(e))) return outputs[m[1]] ?? '';
    throw new Error(`expression not simulated: ${e}`);
  });
  const results = [];
  for (const step of action.runs.steps) {
    if (!step.run) { results.push({ uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, value(String(v))])) }); continue; }
    const env = { PATH: `${stub}${path.delimiter}${process.env.PATH}`, HOME: run, RUNNER_TEMP: path.join(run, 'temp'), GITHUB_WORKSPACE: ws, GITHUB_ACTIONS: 'true', CI: 'true', ...files, SKEWGUARD_CACHE_DIR: path.join(run, 'cache') };
    fs.mkdirSync(env.RUNNER_TEMP, { recursive: true });
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = value(String(v));
    const script = path.join(run, `step-${results.length}.sh`);
    fs.writeFileSync(script, step.run);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: ws, env, encoding: 'utf8', timeout: 300000 });
    results.push({ name: step.name, code: r.status, stdout: r.stdout, stderr: r.stderr });
    for (const line of fs.readFileSync(files.GITHUB_OUTPUT, 'utf8').split('\n')) { const i = line.indexOf('='); if (i > 0) outputs[line.slice(0, i)] = line.slice(i + 1); }
  }
  return { results, outputs, summary: fs.readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'), npm: fs.existsSync(path.join(run, 'npm.log')) ? fs.readFileSync(path.join(run, 'npm.log'), 'utf8') : '' };
}

test('action.yml run: steps: SARIF for code scanning, the markdown summary, annotations, and the job fails on errors', (t) => {
  const ws = scratch(t, { 'deploy/ing.yaml': ING_BETA, 'deploy/ok.yaml': CM }, 'skewguard-ws-');
  const a = runAction(t, ws, { paths: 'deploy/', windows: 'kubernetes=1.21..1.23' });
  assert.deepEqual(a.npm.trim().split('\n'), ['npm ci --no-audit --no-fund --ignore-scripts', 'npm run build --silent'], 'the build step builds the action\'s checkout');
  const [, build, lintStep, upload, fail] = a.results;
  assert.equal(build.code, 0, build.stderr);
  assert.equal(lintStep.code, 0, `the lint step records the exit code instead of failing: ${lintStep.stderr}`);
  assert.equal(a.outputs['exit-code'], '1');
  assert.match(lintStep.stdout, /^::error file=deploy\/ing\.yaml,line=1,col=13,.*title=k8s\/removed-api::extensions\/v1beta1 Ingress is removed in Kubernetes 1\.22, which is in the window 1\.21\.\.1\.23/m);
  const sarif = JSON.parse(fs.readFileSync(upload.with.sarif_file, 'utf8'));
  assert.equal(sarif.version, '2.1.0');
  assert.deepEqual(sarif.runs[0].results.map((r) => r.ruleId), ['k8s/removed-api']);
  assert.equal(upload.with.category, 'skewguard');
  assert.match(a.summary, /^## ❌ skewguard: 1 error/);
  assert.match(a.summary, /\| <code>deploy\/ing\.yaml<\/code> \| ✅ \| ❌ 1 \| ❌ 1 \|/);
  assert.equal(fail.code, 1, 'the last step fails the job on exit code 1');
  assert.match(fail.stdout, /::error title=skewguard::lsp-lint found errors/);

  const clean = runAction(t, scratch(t, { 'deploy/ok.yaml': CM }, 'skewguard-ws-'), { paths: 'deploy/', windows: 'kubernetes=1.21..1.23' });
  assert.equal(clean.outputs['exit-code'], '0');
  assert.equal(clean.results.at(-1).code, 0);
  assert.match(clean.summary, /^## ✅ skewguard: 0 errors/);
});

test('action.yml run: steps: changed-since puts what the change breaks first; config and format inputs; bad input is exit 2, never code', (t) => {
  const ws = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'app.yaml': ING_V1, 'other.yaml': ING_BETA }, 'skewguard-ws-');
  const git = (...args) => assert.equal(spawnSync('git', args, { cwd: ws, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.invalid' } }).status, 0);
  git('init', '-q', '-b', 'main'); git('add', '-A'); git('commit', '-q', '-m', 'base');
  fs.writeFileSync(path.join(ws, 'app.yaml'), ING_BETA);
  const a = runAction(t, ws, { 'changed-since': 'main', format: 'stylish' });
  assert.equal(a.outputs['exit-code'], '1', a.results[2].stderr);
  assert.match(a.summary.split('\n')[0], /^## ❌ skewguard: this change breaks 1 file/);
  assert.ok(a.summary.indexOf('this change makes <code>app.yaml</code> fail at 1.22, 1.23') < a.summary.indexOf('| file |'));
  assert.match(a.results[2].stdout, /^Changed since main: 1 checked file/m, 'the stylish log starts with the change');
  assert.ok(!a.results[2].stdout.includes('other.yaml'), 'a file the change did not touch is not reported');

  // A config input: the window of another file.
  fs.writeFileSync(path.join(ws, 'wide.yaml'), K8S_WINDOW('1.18..1.21'));
  const c = runAction(t, ws, { paths: 'app.yaml', config: 'wide.yaml', format: 'json' });
  assert.equal(c.outputs['exit-code'], '0', 'extensions/v1beta1 Ingress is served up to 1.21');
  assert.ok(JSON.parse(c.results[2].stdout)[0].messages.some((m) => m.ruleId === 'k8s/deprecated-api'));

  // Inputs are data: shell syntax in them is not run, a malformed window is said, and the job fails with exit 2.
  const marker = path.join(ws, 'pwned');
  for (const inputs of [{ windows: 'kubernetes' }, { windows: 'colour=1.2' }, { windows: `kubernetes=1.21;touch${'${IFS}'}${marker}` }, { paths: `$(touch ${marker}) \`touch ${marker}\`` }]) {
    const r = runAction(t, ws, inputs);
    assert.equal(r.outputs['exit-code'], '2', JSON.stringify(inputs));
    assert.equal(r.results.at(-1).code, 2);
    assert.ok(!fs.existsSync(marker), `${JSON.stringify(inputs)} ran nothing`);
  }
});

// ---- the GitLab CI template -------------------------------------------------------------------------------------

test('the GitLab CI template: its job script writes the Code Quality, SARIF, html and markdown reports and fails on errors', (t) => {
  const tpl = YAML.parse(fs.readFileSync(path.join(repoRoot, 'examples', 'ci', 'gitlab', 'skewguard.gitlab-ci.yml'), 'utf8'));
  const job = { ...tpl['.skewguard-install'], ...tpl['.skewguard'] };
  assert.equal(tpl.skewguard.extends, '.skewguard');
  assert.deepEqual(tpl['.skewguard'].artifacts.reports, { codequality: 'gl-code-quality-report.json' });
  const ws = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'deploy/ing.yaml': ING_BETA, 'deploy/ok.yaml': CM }, 'skewguard-gl-');
  // npm install -g skewguard@latest: the tarball installed above stands in for the registry's.
  const stub = path.join(ws, '..', `${path.basename(ws)}-bin`);
  fs.mkdirSync(stub);
  t.after(() => fs.rmSync(stub, { recursive: true, force: true }));
  fs.writeFileSync(path.join(stub, 'npm'), '#!/bin/sh\n[ "$1 $2" = "install -g" ] || exit 9\n', { mode: 0o755 });
  const script = [...job.before_script, ...job.script].join('\n');
  const env = { ...installedEnv(), PATH: `${stub}${path.delimiter}${installedEnv().PATH}`, ...tpl.variables, ...job.variables, CI: 'true', GITLAB_CI: 'true', CI_PROJECT_DIR: ws };
  // GitLab runs the script with bash -e (errexit) and pipefail.
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: ws, env, encoding: 'utf8' });
  assert.equal(r.status, 1, `exit code 1 on errors\n${r.stdout}\n${r.stderr}`);
  const cq = JSON.parse(fs.readFileSync(path.join(ws, 'gl-code-quality-report.json'), 'utf8'));
  assert.deepEqual(cq.map((i) => [i.check_name, i.location.path, i.location.lines.begin]), [['k8s/removed-api', 'deploy/ing.yaml', 1]]);
  assert.equal(JSON.parse(fs.readFileSync(path.join(ws, 'skewguard.sarif'), 'utf8')).runs[0].results.length, 1);
  assert.match(fs.readFileSync(path.join(ws, 'skewguard.html'), 'utf8'), /<td class="c fail">/);
  assert.match(fs.readFileSync(path.join(ws, 'skewguard.md'), 'utf8'), /^## ❌ skewguard: 1 error/);
  assert.match(r.stdout, /deploy\/ing\.yaml\n {2}1:13 {2}error/);
  fs.writeFileSync(path.join(ws, 'deploy', 'ing.yaml'), ING_V1);
  assert.equal(spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: ws, env, encoding: 'utf8' }).status, 0, 'exit 0 when clean');
});
