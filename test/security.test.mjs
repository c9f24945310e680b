// Security (issue item 4): no network access at run time, no evaluation of workspace content, configuration
// and user-supplied lifecycle rows validated before use (errors name the file and line), and `__proto__` /
// `constructor` keys handled as plain keys. These are why package.json declares support for untrusted
// workspaces (limited only in that the opt-in Helm rendering never runs there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';

const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');
const probe = path.join(repoRoot, 'test', 'helpers', 'net-probe.cjs');
const CANARY = 'SKEWGUARD_CANARY_7f3a9c';

/** Runs node with the probe preloaded; returns the spawnSync result and the probe's events. */
function runProbed(args, { cwd, workspace = cwd } = {}) {
  const outFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-probe-')), 'events.jsonl');
  const r = spawnSync(process.execPath, args, {
    cwd, encoding: 'utf8', timeout: 120000, maxBuffer: 64 << 20,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim(),
      SKEWGUARD_PROBE_OUT: outFile, SKEWGUARD_PROBE_CANARY: CANARY, SKEWGUARD_PROBE_WORKSPACE: workspace,
    },
  });
  const events = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  fs.rmSync(path.dirname(outFile), { recursive: true, force: true });
  return { r, events, loaded: events.filter((e) => e.kind === 'loaded'), attempts: events.filter((e) => e.kind !== 'loaded') };
}

test('the probe itself records and blocks sockets, DNS, http, fetch, other programs and evaluation of workspace text', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-probe-self-')));
  fs.writeFileSync(path.join(dir, 'evil.js'), 'module.exports = 1;\n');
  const code = `
    const tries = [
      () => require('net').connect(9, '127.0.0.1'),
      () => new (require('net').Socket)().connect(9, '127.0.0.1'),
      () => require('tls').connect(9, '127.0.0.1'),
      () => require('dgram').createSocket('udp4'),
      () => require('dns').lookup('localhost', () => {}),
      () => require('http').get('http://127.0.0.1:9/'),
      () => require('https').request('https://127.0.0.1:9/'),
      () => fetch('http://127.0.0.1:9/'),
      () => require('child_process').spawnSync('sh', ['-c', 'true']),
      () => require('child_process').execSync('true'),
      () => eval('"${CANARY}"'),
      () => new Function('return "${CANARY}"')(),
      () => require('vm').runInNewContext('"${CANARY}"'),
      () => require(${JSON.stringify(path.join(dir, 'evil.js'))}),
    ];
    let blocked = 0;
    for (const t of tries) { try { t(); } catch (e) { if (/security probe/.test(e.message)) blocked++; } }
    require('child_process').spawnSync(process.execPath, ['-e', '0']); // allowed: node itself
    console.log(blocked);`;
  const { r, attempts, loaded } = runProbed(['-e', code], { cwd: dir });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(r.stdout.trim(), '14', r.stderr);
  assert.equal(attempts.length, 14, JSON.stringify(attempts.map((a) => a.detail)));
  assert.equal(loaded.length, 2, 'the probe loads in every node process (the allowed child too)');
});

/** examples/ plus files that would do harm if any of their content were run. */
function hostileWorkspace() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-sec-')));
  fs.cpSync(path.join(repoRoot, 'examples'), root, { recursive: true });
  const pwned = path.join(root, 'PWNED');
  const files = {
    'hostile/manifest.yaml': [
      `# ${CANARY}`, 'apiVersion: extensions/v1beta1', 'kind: Deployment', 'metadata:',
      `  name: !!js/function "function () { require('fs').writeFileSync(${JSON.stringify(pwned)}, '${CANARY}') }"`,
      `  annotations: {a: !!python/object/apply:os.system ["touch ${pwned}"], b: !<tag:yaml.org,2002:js/eval> "${CANARY}"}`,
      `  labels: {x: "{{ lookup('pipe', 'touch ${pwned}') }}", y: "$(touch ${pwned})", z: "\${${CANARY}}"}`,
      'spec:', '  template:', '    spec:', '      containers:', `        - image: "registry.${CANARY}.example:443/x:1"`, '',
    ].join('\n'),
    'hostile/localhost.yml': [`# ${CANARY}`, `kubernetes_version: "{{ lookup('pipe', 'touch ${pwned}') }}"`, `docker_registries: {defaults: {url: "https://${CANARY}.example"}}`, `__proto__: {polluted: "${CANARY}"}`, ''].join('\n'),
    'hostile/configuration-qemu.toml': [`# ${CANARY}`, '[hypervisor.qemu]', `path = "$(touch ${pwned})"`, `kernel_params = "${CANARY} init=/bin/sh"`, `valid_hypervisor_paths = ["https://${CANARY}.example/qemu"]`, ''].join('\n'),
    'hostile/persist.json': JSON.stringify({ PersistVersion: 2, Config: { HypervisorConfig: { HypervisorPath: `$(touch ${pwned})`, KernelParams: CANARY } }, constructor: { prototype: { polluted: CANARY } } }),
    'hostile/evil.js': `require('fs').writeFileSync(${JSON.stringify(pwned)}, '${CANARY}');\n`,
    'hostile/package.json': JSON.stringify({ name: 'evil', main: 'evil.js', scripts: { preinstall: `touch ${pwned}` } }),
    'hostile/.skewguard.yaml': `# ${CANARY}\nkubernetes:\n  window: "1.18..1.21"\nignore: ["$(touch ${pwned})"]\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, pwned };
}

for (const [label, extra] of [['default', []], ['--jobs 2 --fix --format sarif', ['--jobs', '2', '--fix', '--format', 'sarif']]]) {
  test(`a full lint of examples/ (${label}) opens no socket, starts nothing but node and evaluates no workspace content`, { timeout: 120000 }, () => {
    const { root, pwned } = hostileWorkspace();
    try {
      const { r, loaded, attempts } = runProbed([lspLint, '.', '--max-warnings=-1', ...(extra.length ? extra : ['--format', 'json'])], { cwd: root });
      assert.ok(r.status === 0 || r.status === 1, `lsp-lint exited ${r.status}: ${r.stderr}`);
      const scripts = loaded.map((e) => path.basename(e.detail.split(' ')[0])).sort();
      // With --jobs 2, two servers; by default a second one is started early for a folder and shut down when the
      // folder turns out small (it is a server all the same, and must behave).
      const servers = scripts.filter((x) => x === 'server.js').length;
      assert.deepEqual([...new Set(scripts)], ['lsp-lint.js', 'server.js'], 'only lsp-lint and its servers ran');
      assert.ok(extra.includes('--jobs') ? servers === 2 : servers >= 1 && servers <= 2, `the probe ran in every server it started (${servers})`);
      assert.deepEqual(attempts.map((a) => `${a.script}: ${a.kind} ${a.detail}\n${a.stack}`), []);
      assert.equal(fs.existsSync(pwned), false, 'workspace content was run');
      // The lint did the work: findings in the examples and in the hostile files.
      const out = r.stdout;
      assert.match(out, /k8s\/removed-api/);
      assert.match(out, /hostile\/manifest\.yaml/);
      assert.match(out, /starlingx\/unknown-key/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

// ------------------------------------------------------------------------------------------ configuration

const BAD_CONFIGS = [
  { name: 'additionalVersions row with a malformed version', text: 'kubernetes:\n  additionalVersions:\n    - version: acme.io/v1\n      kind: Widget\n      introduced-in: banana\n', line: 5, match: /introduced-in.*must match pattern/ },
  { name: 'additionalVersions not a list', text: 'kubernetes:\n  window: "1.18..1.21"\n  additionalVersions: oops\n', line: 3, match: /additionalVersions: must be array/ },
  { name: 'additionalVersions row without version', text: '# rows\nkubernetes:\n  additionalVersions:\n    - kind: Widget\n', line: 4, match: /must have required property 'version'/ },
  { name: 'additionalVersions row that is a string', text: 'kubernetes:\n  additionalVersions:\n    - just-a-string\n', line: 3, match: /additionalVersions\.0: must be object/ },
  { name: 'additionalVersions kind that is a list', text: 'kubernetes:\n  additionalVersions:\n    - version: acme.io/v1\n      kind: [1, 2]\n', line: 4, match: /kind: must be string/ },
  { name: 'additionalVersions row with __proto__', text: 'kubernetes:\n  additionalVersions:\n    - version: acme.io/v1\n      kind: Widget\n      __proto__: {polluted: yes}\n', line: 5, match: /unknown setting "kubernetes\.additionalVersions\.0\.__proto__"/ },
  { name: 'rule id __proto__', text: 'rules:\n  __proto__: error\n', line: 2, match: /unknown rule id "__proto__"/ },
  { name: 'top-level constructor', text: 'constructor:\n  prototype: {polluted: yes}\n', line: 1, match: /unknown setting "constructor"/ },
  { name: 'unknown family in files', text: 'files:\n  "*.yaml": banana\n', line: 2, match: /must be equal to one of the allowed values/ },
  { name: 'malformed window', text: 'kubernetes:\n  window: "1.21..1.18"\n', line: 2, match: /start must not be newer/ },
  // Reported at the quote that is not closed (issue #18 item 6), not where the reader ran out of text (line 4).
  { name: 'YAML syntax error (reported at the quote that is not closed)', text: 'kubernetes:\n  window: "1.18\n  additionalVersions: [\n', line: 2, match: /YAML syntax.*quote/ },
];

test('lsp-lint: a malformed .skewguard.yaml is refused with an error naming the file and line (exit 2)', () => {
  for (const c of BAD_CONFIGS) {
    const root = makeWorkspace({ '.skewguard.yaml': c.text, 'app.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n' });
    try {
      const r = spawnSync(process.execPath, [lspLint, 'app.yaml'], { cwd: root, encoding: 'utf8' });
      assert.equal(r.status, 2, `${c.name}: exit ${r.status}\n${r.stdout}${r.stderr}`);
      const m = /^lsp-lint: \.skewguard\.yaml:(\d+):(\d+): (.*)$/m.exec(r.stderr);
      assert.ok(m, `${c.name}: no file:line:column in ${JSON.stringify(r.stderr)}`);
      assert.equal(Number(m[1]), c.line, `${c.name}: ${r.stderr}`);
      assert.match(m[3], c.match, c.name);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
  assert.equal(({}).polluted, undefined);
});

test('server: each malformed .skewguard.yaml gets config/invalid at the line of the bad value', { timeout: 60000 }, async () => {
  for (const c of BAD_CONFIGS) {
    const root = makeWorkspace({ '.skewguard.yaml': c.text, 'app.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n' });
    const client = new LspClient(root, { settings: { skewguard: { debounceMs: 0 } } });
    try {
      await client.initialize();
      await client.open(uriOf(path.join(root, 'app.yaml')), fs.readFileSync(path.join(root, 'app.yaml'), 'utf8'));
      const p = await client.waitFor(uriOf(path.join(root, '.skewguard.yaml')), (x) => x.diagnostics.length > 0);
      const d = p.diagnostics.find((x) => c.match.test(x.message)) ?? p.diagnostics[0];
      assert.equal(d.code, 'config/invalid', c.name);
      assert.equal(d.range.start.line + 1, c.line, `${c.name}: ${JSON.stringify(p.diagnostics)}`);
      assert.match(d.message, c.match, c.name);
      await client.shutdown();
    } finally {
      client.kill();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
});

test('user lifecycle rows are used once they are valid', () => {
  const rows = 'kubernetes:\n  window: "1.18..1.21"\n  additionalVersions:\n    - version: acme.io/v1beta1\n      kind: Widget\n      deprecated-in: v1.19\n      removed-in: v1.20\n      replacement-api: acme.io/v1\n';
  const lint = (config) => {
    const root = makeWorkspace({ '.skewguard.yaml': config, 'widget.yaml': 'apiVersion: acme.io/v1beta1\nkind: Widget\nmetadata:\n  name: w\n' });
    try {
      const r = spawnSync(process.execPath, [lspLint, '--format', 'json', 'widget.yaml'], { cwd: root, encoding: 'utf8' });
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      return JSON.parse(r.stdout)[0].messages;
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
  // Without the rows nothing is known about acme.io: the Widget is said not checked, nothing more.
  assert.deepEqual(lint('kubernetes:\n  window: "1.18..1.21"\n').map((m) => [m.ruleId, m.severity]), [['k8s/cr-version-not-served', 'info']], 'without the rows nothing is known about acme.io');
  const got = lint(rows);
  assert.ok(got.length > 0 && got.every((m) => m.ruleId.startsWith('k8s/') && /acme\.io\/v1beta1/.test(m.message)), JSON.stringify(got));
});

// ------------------------------------------------------------------------------------------ __proto__

/** Analyses `cases` in a fresh node process; returns each case's diagnostics and whether any prototype changed. */
function analyseIsolated(cases) {
  const code = `
    const engine = require(${JSON.stringify(path.join(repoRoot, 'dist', 'engine.js'))});
    const protos = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype };
    const before = Object.fromEntries(Object.entries(protos).map(([k, p]) => [k, Object.getOwnPropertyNames(p).join(',')]));
    const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const config = engine.resolveConfig({ cli: { kubernetesWindow: '1.18..1.21', kataWindow: '3.2..3.32' } });
    const out = {};
    for (const c of cases) {
      let diagnostics;
      if (c.config) diagnostics = engine.parseConfig('/ws/.skewguard.yaml', c.text, new Set(engine.ruleIds)).problems.map((p) => ({ ruleId: 'config/invalid', message: p.message }));
      else diagnostics = engine.analyze({ path: '/ws/' + c.file, text: c.text, config }).diagnostics.map((d) => ({ ruleId: d.ruleId, line: d.range.start.line, message: d.message }));
      const changed = Object.entries(protos).filter(([k, p]) => Object.getOwnPropertyNames(p).join(',') !== before[k]).map(([k]) => k);
      out[c.name] = { diagnostics, polluted: changed.length > 0 || ({}).polluted !== undefined || [].polluted !== undefined, changed };
    }
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', code], { input: JSON.stringify(cases), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const PROTO_CASES = [
  { name: 'localhost.yml', file: 'localhost.yml', text: 'system_mode: simplex\n__proto__: {polluted: yes}\nconstructor: {prototype: {polluted: yes}}\n"__proto__ ": x\n', expect: [['starlingx/unknown-key', 1, '__proto__'], ['starlingx/unknown-key', 2, 'constructor']] },
  { name: 'manifest', file: 'm.yaml', text: 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: x\n  __proto__: {polluted: yes}\n  constructor: {prototype: {polluted: yes}}\nspec:\n  <<: {__proto__: {polluted: yes}}\n', expect: [['k8s/removed-api', 0, 'extensions/v1beta1']] },
  { name: 'persist.json', file: 'persist.json', text: '{"PersistVersion": 2, "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}', expect: [['kata-persist/field-not-read', 0, '__proto__'], ['kata-persist/field-not-read', 0, 'constructor']] },
  { name: 'JSON manifest', file: 'm.json', text: '{"apiVersion": "extensions/v1beta1", "kind": "Deployment", "__proto__": {"polluted": true}, "metadata": {"name": "x", "constructor": {"prototype": {"polluted": true}}}}', expect: [['k8s/removed-api', 0, 'extensions/v1beta1']] },
  { name: '.skewguard.yaml', config: true, text: '__proto__: {polluted: yes}\nrules:\n  constructor: off\n', expect: [['config/invalid', undefined, 'unknown setting "__proto__"'], ['config/invalid', undefined, 'unknown rule id "constructor"']] },
  { name: 'TOML keys', file: 'configuration-qemu.toml', text: '[hypervisor.qemu]\n__proto__ = 1\nconstructor = "x"\n', expect: [['kata/unknown-option', 1, '__proto__'], ['kata/unknown-option', 2, 'constructor']] },
];

test('__proto__ and constructor keys in YAML, JSON and .skewguard.yaml are plain keys and pollute nothing', () => {
  const out = analyseIsolated(PROTO_CASES);
  for (const c of PROTO_CASES) {
    const got = out[c.name];
    assert.equal(got.polluted, false, `${c.name} changed ${got.changed.join(', ')}.prototype`);
    for (const [ruleId, line, word] of c.expect) {
      assert.ok(got.diagnostics.some((d) => d.ruleId === ruleId && (line === undefined || d.line === line) && d.message.includes(word)),
        `${c.name}: expected ${ruleId} at line ${line} naming ${word}; got ${JSON.stringify(got.diagnostics)}`);
    }
  }
});

// In a Kata folder: outside one, a configuration*.toml whose only table is unknown is not Kata's (#18 problem 3).
const TOML_TABLE_CASES = [
  { name: '[__proto__] table', file: 'kata-containers/configuration-qemu.toml', text: '[__proto__]\npolluted = true\n', expect: [['kata/unknown-section', 0, '__proto__']] },
  { name: '[hypervisor.__proto__] table', file: 'kata-containers/configuration-qemu.toml', text: '[hypervisor.__proto__]\npolluted = true\n', expect: [['kata/unknown-section', 0, '__proto__']] },
  { name: '__proto__ dotted key', file: 'configuration-qemu.toml', text: '[runtime]\n__proto__.polluted = true\n', expect: [] },
];

// toml-eslint-parser's getStaticTOMLValue assigns obj[key]: parse/toml.ts builds tables itself with own properties.
test('TOML __proto__ tables and dotted keys pollute nothing', () => {
  const out = analyseIsolated(TOML_TABLE_CASES);
  for (const c of TOML_TABLE_CASES) {
    assert.equal(out[c.name].polluted, false, `${c.name} changed ${out[c.name].changed.join(', ')}.prototype`);
    for (const [ruleId, line, word] of c.expect) assert.ok(out[c.name].diagnostics.some((d) => d.ruleId === ruleId && d.line === line && d.message.includes(word)), `${c.name}: ${JSON.stringify(out[c.name].diagnostics)}`);
  }
});

test('package.json declares support for untrusted workspaces, limited only in that Helm is never run there (what the tests above back)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  // Everything above holds in Restricted Mode; the one thing held back is the opt-in real Helm rendering, which runs
  // a program (test/helm-trust.test.mjs: the server never runs Helm until it is told the workspace is trusted).
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skewguard.helm.path']);
});
