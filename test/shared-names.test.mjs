// One home per shared concept (issue #14): the product version comes from package.json (put in at build time), the
// config file names, the always-skipped folders, the size limit and the severities are defined once in
// server/src/shared/, and lsp-lint does not bundle the engine (it gets --rule's ids and SARIF's rule table from a
// build-time table, and the server checks the flags that need the data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { LspClient, makeWorkspace } from './helpers/lsp-client.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const e = require('../dist/engine.js');
const lint = (args, cwd) => spawnSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), ...args], { cwd, encoding: 'utf8' });

/** Every .ts file of the product (engine, server, CLI, shared, client). */
function sources() {
  const out = [];
  const walk = (d) => { for (const n of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, n.name); if (n.isDirectory()) walk(p); else if (p.endsWith('.ts')) out.push(p); } };
  walk(path.join(repoRoot, 'server/src')); walk(path.join(repoRoot, 'client/src'));
  return out;
}

test('the version is package.json\'s in lsp-lint --version, the SARIF driver and the server\'s serverInfo', async (t) => {
  assert.equal(lint(['--version'], repoRoot).stdout, `${pkg.version}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-version-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'a.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\n');
  const r = lint(['--format', 'sarif', 'a.yaml'], dir);
  assert.equal(r.status, 0, r.stderr);
  const driver = JSON.parse(r.stdout).runs[0].tool.driver;
  assert.equal(driver.version, pkg.version);
  assert.equal(driver.semanticVersion, pkg.version);
  // The build-time rule table is the registry's.
  assert.deepEqual(driver.rules.map((x) => x.id), e.allRules.map((x) => x.id));
  assert.deepEqual(driver.rules.map((x) => x.helpUri), e.allRules.map((x) => e.docsUrl(x.id)));
  const root = makeWorkspace({});
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  const init = await client.initialize();
  assert.equal(init.serverInfo.version, pkg.version);
  for (const f of sources()) assert.doesNotMatch(fs.readFileSync(f, 'utf8'), new RegExp(`['"]${pkg.version.replace(/\./g, '\\.')}['"]`), `${path.relative(repoRoot, f)} spells the version`);
});

test('config file names, always-skipped folders, the size limit and severities are defined once, in server/src/shared/', () => {
  const home = {
    configNames: 'server/src/shared/names.ts', skipped: 'server/src/shared/names.ts', severities: 'server/src/shared/names.ts', limit: 'server/src/shared/limits.ts',
  };
  const patterns = {
    configNames: /['"]\.skewguard\.yml['"]|skewguard\\\.ya\?ml/,
    skipped: /['"]node_modules['"]/,
    severities: /\[\s*'error',\s*'warning',\s*'info',\s*'hint',\s*'off'\s*\]/,
    limit: /20 \* 1024 \* 1024/,
  };
  for (const f of sources()) {
    const rel = path.relative(repoRoot, f).split(path.sep).join('/');
    const text = fs.readFileSync(f, 'utf8');
    for (const [k, re] of Object.entries(patterns)) if (rel !== home[k]) assert.doesNotMatch(text, re, `${rel} defines ${k} again; use ${home[k]}`);
  }
  assert.deepEqual(e.CONFIG_FILENAMES, ['.skewguard.yaml', '.skewguard.yml']);
  assert.deepEqual(e.SEVERITIES, ['error', 'warning', 'info', 'hint', 'off']);
  assert.equal(e.MAX_FILE_BYTES, 20 * 1024 * 1024);
});

test('a Kubernetes version is read, normalised and its minors compared and counted only in engine/versions.ts', () => {
  const home = 'server/src/engine/versions.ts';
  const patterns = {
    'a minor-parsing regex': /\(\\d\+\)\\\.\(\\d\+\)/,
    'a v-prefix strip': /replace\(\/\^\[vV\]\/|replace\(\/\^v\/i/,
    'its own version arithmetic': /function (normalizeVersion|normalizeKubernetesVersion|parseMinor|leadingMinor|minorOf|compareMinor|compareVersions|minorsBetween|parseRange)\b[^=]*\{\s*$/,
  };
  const hits = [];
  for (const f of sources()) {
    const rel = path.relative(repoRoot, f).split(path.sep).join('/');
    if (rel === home) continue;
    fs.readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      for (const [what, re] of Object.entries(patterns)) if (re.test(line)) hits.push(`${rel}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, [], `use ${home}:\n${hits.join('\n')}`);
  const v = fs.readFileSync(path.join(repoRoot, home), 'utf8');
  for (const re of Object.values(patterns)) assert.ok(v.split('\n').some((l) => re.test(l)), `the scan matches what versions.ts itself holds: ${re}`);
  // The readings agree: lifecycle's tuple is versions' minor; a tag's leading minor is the minor of its version part.
  assert.deepEqual(e.k8sLifecycle.parseMinor('V1.22.3'), [1, 22]);
  assert.equal(e.k8sLifecycle.compareMinor, e.compareMinor);
  assert.equal(e.leadingMinor('v1.21.3-amd64'), '1.21');
  assert.equal(e.leadingMinor('1.x'), undefined);
  assert.equal(e.compareMinor('1.9', '1.10') < 0, true);
  assert.throws(() => e.compareMinor('1.x', '1.10'), /not a version: 1\.x/);
});

test('rule facts live in the rules: no family rule id is written out in the core, the server, lsp-lint, shared or the client', () => {
  const ids = e.allRules.filter((r) => r.family !== 'general').map((r) => r.id);
  const hits = [];
  for (const f of sources()) {
    const rel = path.relative(repoRoot, f).split(path.sep).join('/');
    if (/^server\/src\/engine\/(rules|families)\//.test(rel)) continue;
    fs.readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const id of ids) if (line.includes(`'${id}'`) || line.includes(`"${id}"`)) hits.push(`${rel}:${i + 1}: ${id}`);
    });
  }
  assert.deepEqual(hits, [], hits.join('\n'));
  // What lsp-lint reads instead: the metadata, in its build-time table.
  const table = fs.readFileSync(path.join(repoRoot, 'dist/lsp-lint-main.js'), 'utf8');
  const once = e.allRules.filter((r) => r.oncePerRun).map((r) => r.id).sort();
  const pluto = Object.fromEntries(e.allRules.filter((r) => r.plutoExitCode).map((r) => [r.id, r.plutoExitCode]));
  assert.deepEqual(once, ['k8s/stale-data', 'k8s/window-past-data']);
  assert.deepEqual(pluto, { 'k8s/deprecated-api': 2, 'k8s/no-common-api-version': 3, 'k8s/removed-api': 3 });
  const field = (id, name, value) => new RegExp(`"?id"?:\\s*"${id}"[^}]*"?${name}"?:\\s*${value}\\b`);
  for (const id of once) assert.match(table, field(id, 'oncePerRun', 'true'));
  for (const [id, code] of Object.entries(pluto)) assert.match(table, field(id, 'plutoExitCode', code));
  assert.doesNotMatch(table, field('k8s/removed-api', 'oncePerRun', 'true'));
});

test('lsp-lint does not bundle the engine: no YAML, TOML, ajv or data in dist/lsp-lint.js and dist/lsp-lint-main.js', () => {
  // dist/lsp-lint.js is the loader (cli/entry.ts) that runs dist/lsp-lint-main.js, the CLI.
  const bundle = ['dist/lsp-lint.js', 'dist/lsp-lint-main.js'].map((f) => fs.readFileSync(path.join(repoRoot, f), 'utf8')).join('\n');
  for (const m of ['node_modules/yaml/', 'node_modules/ajv/', 'node_modules/toml-eslint-parser/', 'server/src/engine/analyze.ts', 'server/src/engine/config.ts', 'server/src/engine/data.ts', 'server/src/engine/rules/index.ts']) {
    assert.ok(!bundle.includes(m), `dist/lsp-lint.js bundles ${m}`);
  }
  // The whole engine is more than twice the size of lsp-lint (it was 1.2 times the engine's size when it bundled it).
  assert.ok(fs.statSync(path.join(repoRoot, 'dist/engine.js')).size > 1.5 * fs.statSync(path.join(repoRoot, 'dist/lsp-lint-main.js')).size);
});

test('the flags that need the data are usage errors checked by the server: same messages, exit 2', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-flags-'));
  fs.writeFileSync(path.join(dir, 'a.yaml'), 'a: 1\n');
  try {
    const cases = [
      [['--starlingx-release', '99.0'], 'unknown StarlingX release "99.0"'],
      [['--kubernetes-window', '1.21..1.18'], 'Kubernetes window "1.21..1.18": the start must not be newer than the end'],
      [['--kubernetes-window', 'soon'], 'Kubernetes window "soon" is not a version or range such as "1.18..1.21"'],
      [['--kata-window', '0.1..0.2'], 'Kata window "0.1..0.2" holds no known release'],
      [['--component-versions', 'cert-manger=1.5'], '--component-versions cert-manger: unknown component "cert-manger"; did you mean "cert-manager"?'],
      [['--component-versions', 'calico=vX'], '--component-versions calico: "vX" is not a version such as 1.5 or v1.5.3'],
      // An operator (components/operators.ts): one release or a window over its releases read.
      [['--component-versions', 'cert-manager=vX'], '--component-versions cert-manager: "vX" is not a version such as 0.17, v1.14.2, or a window such as 0.16..0.17'],
      [['--component-versions', 'external-secrets=0.17..0.16'], '--component-versions external-secrets: window "0.17..0.16" is reversed: give the older release first (0.16..0.17)'],
      [['--component-versions', 'cert-manager=0.15'], '--component-versions cert-manager: unknown cert-manager release "0.15" (cert-manager releases in the data: 1.0 .. 1.21)'],
      [['--rule', 'no/such-rule=error'], 'unknown rule id "no/such-rule"'],
      [['--rule', 'kata/unknown-option=loud'], 'severity must be one of error, warning, info, hint, off'],
    ];
    for (const [args, message] of cases) {
      const r = lint([...args, 'a.yaml'], dir);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.startsWith(`lsp-lint: ${message}`), `${args.join(' ')}: ${r.stderr.split('\n')[0]}`);
      assert.match(r.stderr, /Usage: lsp-lint/);
      assert.equal(r.stdout, '');
    }
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
