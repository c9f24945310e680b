// Editor settings validated by the .skewguard.yaml validator (issue #12), glob limits and a matcher that cannot
// backtrack (issue #13), and .skewguard.yaml files that cannot be read.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const ignore = require('ignore');
const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(cond, what, ms = 8000) {
  for (const end = Date.now() + ms; !cond(); await sleep(20)) if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
}
const norm = (s) => e.normalizeSettings(s, e.ruleIds);
const parse = (text) => e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
const at = (text, p) => { const li = new e.LineIndex(text); const s = li.positionAt(p.range.start); return `${s.line + 1}:${s.character + 1}`; };

// The four bad values of issue #12, each with the setting it is in.
const BAD_VALUES = [
  ['reversed Kubernetes window', { kubernetes: { window: '1.25..1.18' } }, 'skewguard.kubernetes.window', /start must not be newer than the end/],
  ['unknown StarlingX release', { starlingx: { release: '99' } }, 'skewguard.starlingx.release', /unknown StarlingX release "99"/],
  ['unknown Kata flavour', { kata: { flavour: 'rust' } }, 'skewguard.kata.flavour', /must be equal to one of the allowed values: "go", "runtime-rs"/],
  ['misspelt rule id', { rules: { 'k8s/removed-apii': 'off' } }, 'skewguard.rules.k8s/removed-apii', /unknown rule id "k8s\/removed-apii"; did you mean "k8s\/removed-api"\?/],
];
// Valid settings given alongside every bad value: they must still apply.
const GOOD = { starlingx: { release: '6.0' }, kata: { window: '3.2..3.32' }, rules: { 'starlingx/unknown-key': 'error' } };
const merge = (bad) => ({
  ...GOOD, ...bad,
  starlingx: { ...GOOD.starlingx, ...bad.starlingx }, kata: { ...GOOD.kata, ...bad.kata }, rules: { ...GOOD.rules, ...bad.rules },
});

// ---- the normaliser ----

test('normalizeSettings: each bad value is reported and left out, the rest applies', () => {
  for (const [what, bad, setting, message] of BAD_VALUES) {
    const raw = merge(bad);
    const n = norm(raw);
    assert.equal(n.problems.length, 1, `${what}: ${JSON.stringify(n.problems)}`);
    assert.equal(n.problems[0].setting, setting, what);
    assert.match(n.problems[0].message, message, what);
    const want = { starlingxRelease: '6.0', kataWindow: '3.2..3.32', rules: { 'starlingx/unknown-key': 'error' } };
    if (bad.starlingx) delete want.starlingxRelease;
    assert.deepEqual({ ...n.overrides, rules: n.overrides.rules }, want, what);
    assert.equal(JSON.stringify(raw), JSON.stringify(merge(bad)), 'the input is not modified');
  }
});

test('normalizeSettings: VS Code defaults (empty strings, {} and []) are "not set", and a valid debounceMs is kept', () => {
  const vscodeDefaults = {
    starlingx: { release: '' }, kubernetes: { window: '' }, kata: { window: '', flavour: '' },
    rules: {}, files: {}, ignore: [], debounceMs: 150, trace: { server: 'off' },
  };
  const n = norm(vscodeDefaults);
  assert.deepEqual(n.problems, []);
  assert.deepEqual(n.overrides, { rules: {}, files: {}, ignore: [] });
  assert.equal(n.settings.debounceMs, 150);
  assert.deepEqual(norm(undefined).problems, []);
  assert.deepEqual(norm('release 6.0').problems, [{ setting: 'skewguard', message: 'the settings must be an object' }]);
});

test('normalizeSettings: debounceMs negative, NaN or a string; files: with an unknown family; ignore: not an array', () => {
  for (const d of [-5, Number.NaN, '100', 1e9]) {
    const n = norm({ debounceMs: d, starlingx: { release: '6.0' } });
    assert.equal(n.problems.length, 1, `debounceMs ${d}: ${JSON.stringify(n.problems)}`);
    assert.equal(n.problems[0].setting, 'skewguard.debounceMs');
    assert.equal(n.settings.debounceMs, undefined, `debounceMs ${d} is not used`);
    assert.equal(n.overrides.starlingxRelease, '6.0');
  }
  const f = norm({ files: { 'sites/*.yml': 'starlingx', 'charts/*.yaml': 'helm' } });
  assert.equal(f.problems.length, 1);
  assert.equal(f.problems[0].setting, 'skewguard.files.charts/*.yaml');
  assert.ok(f.problems[0].message.includes(`must be equal to one of the allowed values: ${e.families.map((x) => `"${x.id}"`).join(', ')}`), f.problems[0].message);
  assert.deepEqual(f.overrides.files, { 'sites/*.yml': 'starlingx' }, 'the valid association still applies');
  const i = norm({ ignore: 'vendor/**', starlingx: { release: '6.0' } });
  assert.deepEqual(i.problems.map((p) => `${p.setting}: ${p.message}`), ['skewguard.ignore: ignore: must be array']);
  assert.equal(i.overrides.ignore, undefined);
  assert.equal(i.overrides.starlingxRelease, '6.0');
  const u = norm({ kubernetes: { windw: '1.18..1.21' } });
  assert.deepEqual(u.problems.map((p) => p.message), ['unknown setting "kubernetes.windw"; did you mean "window"?']);
});

test('settings and .skewguard.yaml give the same problems for the same values (one validator), windows past the data included', () => {
  const cases = [
    ...BAD_VALUES.map(([, bad]) => bad),
    { kata: { window: '9.0..9.9' } }, // no Kata release the data knows
    { kata: { window: 'three' } },
    { kubernetes: { window: '1.18..1.99' } },
    { kubernetes: { window: '2.0' } },
    { starlingx: { release: '6.5' } },
    { ignore: ['x'.repeat(2000)] },
    { files: { '+(a|b).yml': 'kubernetes' } },
  ];
  for (const c of cases) {
    const fromConfig = parse(JSON.stringify(c)).problems.map((p) => p.message);
    const fromSettings = norm(c).problems.map((p) => p.message);
    assert.deepEqual(fromSettings, fromConfig, JSON.stringify(c).slice(0, 100));
    assert.deepEqual(norm(c).overrides, parse(JSON.stringify(c)).overrides, JSON.stringify(c).slice(0, 100));
  }
  assert.match(norm({ kata: { window: '9.0..9.9' } }).problems[0].message, /holds no known release/);
});

// ---- globs ----

test('a files: glob over 65,536 characters is reported at its key; the files are still recognised and checked', () => {
  const long = 'deploy/' + 'x'.repeat(70000) + '*.yml';
  // An explicit key (`? `): YAML limits implicit keys to 1,024 characters.
  const text = `files:\n  "sites/*.yml": starlingx\n  ? "${long}"\n  : kubernetes\nstarlingx: { release: "6.0" }\n`;
  const c = parse(text);
  assert.equal(c.problems.length, 1);
  assert.equal(at(text, c.problems[0]), '3:5', 'at the key');
  assert.match(c.problems[0].message, /^files "deploy\/x+…": the pattern is 70012 characters long; at most 1024 are allowed$/);
  assert.deepEqual(c.overrides.files, { 'sites/*.yml': 'starlingx' });
  // Even a pattern that bypasses the config (e.g. a library caller) does not make analysis throw.
  const cfg = e.resolveConfig({ config: { path: '/w/.skewguard.yaml', text: '', problems: [], overrides: { starlingxRelease: '6.0', files: { [long]: 'kubernetes', 'sites/*.yml': 'starlingx' } } } });
  const r = e.analyze({ path: '/w/sites/a.yml', root: '/w', text: 'dns_server: [1.1.1.1]\n', config: cfg });
  assert.equal(r.family, 'starlingx');
  assert.deepEqual(r.diagnostics.map((d) => d.ruleId), ['starlingx/unknown-key'], 'the file is checked, not reported clean');
});

test('glob limits: length, wildcards, {…} expansions and extglobs are reported as config problems at their position', () => {
  const text = [
    'ignore:',
    '  - "vendor/**"',
    `  - "${'*a'.repeat(65)}"`,
    `  - "${'{a,b}'.repeat(7)}"`,
    '  - "!(x).yaml"',
    'files:',
    '  "!sites/*.yml": starlingx',
    '',
  ].join('\n');
  const c = parse(text);
  assert.deepEqual(c.problems.map((p) => `${at(text, p)} ${p.message.replace(/"[^"]*"/, 'P')}`), [
    '3:5 ignore[1] P: the pattern has 65 wildcards; at most 64 are allowed',
    '4:5 ignore[2] P: the pattern\'s {…} alternatives expand to 128 patterns; at most 64 are allowed',
    '5:5 ignore[3] P: extglob patterns such as +(…), @(…) or !(…) are not supported; use {a,b} alternatives',
    '7:3 files P: a negated pattern (!…) is not supported in files:',
  ]);
  assert.deepEqual(c.overrides.ignore, ['vendor/**']);
  assert.equal(e.checkGlob('{'.repeat(1024)), undefined, 'unclosed braces are literal (and parsed in bounded time)');
});

test('globs: files: semantics (as picomatch with dot and matchBase) for the syntax allowed', () => {
  const cases = [
    ['*.yaml', 'a.yaml', true], ['*.yaml', 'd/a.yaml', true], ['deploy/*.yml', 'deploy/x.yml', true], ['deploy/*.yml', 'deploy/a/x.yml', false],
    ['deploy/**/*.yml', 'deploy/x.yml', true], ['deploy/**/*.yml', 'deploy/a/b/x.yml', true], ['**/x.yml', 'x.yml', true], ['**/x.yml', 'ax.yml', false],
    ['a/**', 'a/b/c', true], ['a/**', 'ab', false], ['site-?.yml', 'site-1.yml', true], ['site-?.yml', 'site-10.yml', false],
    ['site-[0-9].yml', 'site-5.yml', true], ['site-[!0-9].yml', 'site-5.yml', false], ['site-[!0-9].yml', 'site-x.yml', true],
    ['{a,b}.yml', 'b.yml', true], ['x/{a,b/c}.yml', 'x/b/c.yml', true], ['*.yml', '.hidden.yml', true], ['a\\*b', 'a*b', true], ['a\\*b', 'axb', false],
    ['a/**/b', 'a/b', true], ['a/**/b', 'a/x/y/b', true], ['a/**/b', 'a/xb', false], ['./sites/*.yml', 'sites/a.yml', true],
  ];
  for (const [p, s, want] of cases) assert.equal(e.compileGlob(p, { matchBase: true })(s), want, `${p} ~ ${s}`);
});

/** Time of `f()` in ms, the least of `n` runs (the least is the least disturbed by other processes). */
function best(f, n = 5) {
  let m = Infinity;
  for (let i = 0; i < n; i++) { const t = process.hrtime.bigint(); f(); m = Math.min(m, Number(process.hrtime.bigint() - t) / 1e6); }
  return m;
}

test('files: globs match in time linear in the name length, also for the worst patterns allowed (no backtracking)', () => {
  // picomatch's regex for *a*a*a*a*a*a*a*a*a*ab takes 15 s for a 50-character name of a's; each 4x longer name
  // multiplies that by far more than 4. The matcher here is an NFA simulation: 4x the name, about 4x the time.
  const worst = ['*a*a*a*a*a*a*a*a*a*ab', '*a'.repeat(64) + 'b', 'a/**/'.repeat(30) + 'b'];
  for (const glob of worst) {
    const cfg = e.resolveConfig({ cli: { starlingxRelease: '6.0', files: { [glob]: 'kubernetes' } } });
    const detect = (n) => () => {
      for (let i = 0; i < 10; i++) {
        e.detectFamily(`/w/${'a'.repeat(n)}`, '', cfg, '/w');
        e.detectFamily(`/w/${'a/'.repeat(n / 2)}c`, '', cfg, '/w');
      }
    };
    best(detect(12), 2); // warm up
    const small = best(detect(12)), mid = best(detect(30), 2);
    assert.ok(mid < Math.max(small, 0.5) * 20, `${glob}: 12 → 30 characters took ${small.toFixed(2)} → ${mid.toFixed(2)} ms`);
    // 8x the length: linear is about 8x the time, quadratic 64x. The bound leaves room for a loaded machine.
    const long = best(detect(1000)), longer = best(detect(8000));
    assert.ok(longer < Math.max(long, 1) * 24, `${glob}: 1,000 → 8,000 characters took ${long.toFixed(1)} → ${longer.toFixed(1)} ms`);
    assert.equal(e.checkGlob(glob), undefined, `${glob} is allowed`);
  }
});

test('gitignoreMatcher: gitignore semantics as the `ignore` package, without its backtracking on **/ chains', () => {
  const patterns = ['vendor/', '*.log', '!keep.log', '/root.yaml', 'a/**/b', 'docs/*.md', '# comment', '', 'Build', '\\#hash', 'x/**'];
  const mine = e.gitignoreMatcher(patterns), theirs = ignore().add(patterns);
  const paths = ['vendor/x.yaml', 'x/vendor/y.yaml', 'vendor', 'vendor/', 'a.log', 'd/keep.log', 'root.yaml', 'x/root.yaml', 'a/b', 'a/q/b/c.yaml',
    'docs/x.md', 'docs/y/x.md', 'build/x.yaml', 'BUILD', '#hash', 'x/y', 'y/x/z', 'comment'];
  for (const p of paths) assert.equal(mine.ignores(p), theirs.ignores(p), p);
  // The `ignore` package backtracks on this pattern: 40 segments take a quarter of a second, 200 do not end in minutes.
  const chain = 'a/**/'.repeat(6) + 'b';
  const g = e.gitignoreMatcher([chain]);
  const run = (n) => () => g.ignores('a/'.repeat(n) + 'c');
  best(run(50), 2);
  // 8x the segments: linear is about 8x the time, quadratic 64x.
  const t1 = best(run(100)), t2 = best(run(800));
  assert.ok(t2 < Math.max(t1, 0.5) * 24, `100 → 800 segments took ${t1.toFixed(2)} → ${t2.toFixed(2)} ms`);
  assert.equal(g.ignores('a/'.repeat(400) + 'c'), false);
  assert.equal(g.ignores('a/'.repeat(6) + 'b'), true);
});

// ---- over LSP ----

async function start(t, files, opts) {
  const root = makeWorkspace(files);
  const client = new LspClient(root, opts);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  return { root, client, uri: (rel) => uriOf(path.join(root, rel)) };
}
const problemsSent = (client) => client.notifications.filter((n) => n.method === 'skewguard/settingsProblems').map((n) => n.params.problems);
const LOCALHOST = 'system_mode: simplex\nkubernetes_version: 1.21.3\ndns_server: [8.8.8.8]\n';

for (const [what, bad, setting, message] of BAD_VALUES) {
  for (const via of ['workspace/configuration', 'initializationOptions.settings', 'didChangeConfiguration']) {
    test(`LSP (${via}): a ${what} in the settings is reported and not applied; the rest of the settings apply`, async (t) => {
      const skewguard = merge(bad);
      const opts = via === 'workspace/configuration' ? { settings: { skewguard } }
        : via === 'initializationOptions.settings' ? { configuration: false, initializationOptions: { settings: skewguard } }
          : { configuration: false };
      const { client, uri } = await start(t, {}, opts);
      if (via === 'didChangeConfiguration') await client.notify('workspace/didChangeConfiguration', { settings: { skewguard } });
      const u = uri('localhost.yml');
      await client.open(u, LOCALHOST);
      await until(() => problemsSent(client).some((l) => l.length), 'settings problems were sent');
      const sent = problemsSent(client).filter((l) => l.length).at(-1);
      assert.equal(sent.length, 1, JSON.stringify(sent));
      assert.equal(sent[0].setting, setting);
      assert.match(sent[0].message, message);
      // A request's answer comes after every notification the server sent before it: showMessage follows the
      // settingsProblems notification, and may not have been read yet when that one was.
      const rc = await client.request('skewguard/resolvedConfig', { uri: u });
      const shown = client.notifications.filter((n) => n.method === 'window/showMessage');
      assert.equal(shown.length, 1, 'said once with window/showMessage');
      assert.match(shown[0].params.message, new RegExp(setting.replace(/[./]/g, '\\$&')));
      assert.deepEqual(rc.settingsProblems, sent);
      if (bad.starlingx) assert.notEqual(rc.resolved.starlingx.source.kind, 'settings', 'the bad release is not applied');
      else assert.deepEqual(rc.resolved.starlingx, { release: '6.0', source: { kind: 'settings', detail: 'editor settings' } });
      if (bad.kubernetes) assert.notEqual(rc.resolved.kubernetes.source.kind, 'settings', 'the reversed window is not applied');
      if (bad.kata) assert.equal(rc.resolved.kata.flavour, null, 'the bad flavour is not applied');
      assert.equal(rc.resolved.kata.window, '3.2..3.32', 'the valid Kata window applies');
      assert.equal(rc.resolved.rules['starlingx/unknown-key'].severity, 'error', 'the valid rule severity applies');
      assert.equal(rc.resolved.rules['k8s/removed-apii'], undefined);
      // The valid rule severity is used: the misspelt dns_server is an error.
      const last = client.published.get(u).at(-1);
      assert.equal(last.diagnostics.find((d) => d.code === 'starlingx/unknown-key')?.severity, 1);
    });
  }
}

test('LSP: fixing the settings sends an empty problem list; the client that shows them itself gets no showMessage', async (t) => {
  const skewguard = { kubernetes: { window: '1.25..1.18' } };
  const { client, uri } = await start(t, {}, { settings: { skewguard }, initializationOptions: { showSettingsProblems: false } });
  await client.open(uri('localhost.yml'), LOCALHOST);
  await until(() => problemsSent(client).some((l) => l.length), 'settings problems were sent');
  client.settings = { skewguard: { kubernetes: { window: '1.18..1.25' } } };
  await client.notify('workspace/didChangeConfiguration', { settings: null });
  await until(() => problemsSent(client).at(-1).length === 0, 'an empty list was sent');
  assert.equal(client.notifications.filter((n) => n.method === 'window/showMessage').length, 0);
  const rc = await client.request('skewguard/resolvedConfig', { uri: uri('localhost.yml') });
  assert.equal(rc.resolved.kubernetes.window, '1.18..1.25');
  assert.deepEqual(rc.settingsProblems, []);
});

test('LSP: a files: glob that would explode in picomatch, in the settings, is matched in bounded time', async (t) => {
  const glob = '*a*a*a*a*a*a*a*a*a*ab.yml';
  const { client, uri } = await start(t, {}, { settings: { skewguard: { files: { [glob]: 'starlingx', ['x'.repeat(70000)]: 'kubernetes' } } } });
  await until(() => problemsSent(client).some((l) => l.length), 'settings problems were sent');
  assert.match(problemsSent(client).at(-1)[0].message, /at most 1024 are allowed/);
  const name = `${'a'.repeat(60)}b.yml`;
  const p = await client.open(uri(name), 'dns_server: [1]\n');
  assert.ok(p.diagnostics.some((d) => d.code === 'starlingx/unknown-key'), 'associated by the glob and checked');
  const q = await client.open(uri(`${'a'.repeat(60)}.yml`), 'dns_server: [1]\n');
  assert.deepEqual(q.diagnostics, [], 'a name that does not match is left alone');
});

// ---- .skewguard.yaml that cannot be used ----

function lint(cwd, args) {
  const env = { ...process.env };
  delete env.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env, timeout: 60000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function tmp(t) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-cfg-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'localhost.yml'), 'system_mode: simplex\nkubernetes_version: 1.21.3\n');
  return dir;
}

test('an unreadable .skewguard.yaml (a directory: EISDIR; a FIFO) is reported at its line 1, lsp-lint exits 2', async (t) => {
  // Tests run as root, for whom chmod 000 does not stop a read: a directory by that name fails the read honestly.
  const dir = tmp(t);
  fs.mkdirSync(path.join(dir, '.skewguard.yaml'));
  const r = lint(dir, ['localhost.yml']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /lsp-lint: \.skewguard\.yaml:1:1: cannot read \.skewguard\.yaml: EISDIR/);

  const fifoDir = tmp(t);
  const mk = spawnSync('mkfifo', [path.join(fifoDir, '.skewguard.yaml')]);
  assert.equal(mk.status, 0, 'mkfifo');
  const f = lint(fifoDir, ['localhost.yml']);
  assert.equal(f.code, 2, `a FIFO is not read (the read would block): ${f.stderr}`);
  assert.match(f.stderr, /cannot read \.skewguard\.yaml: it is not a regular file/);

  // Over LSP: config/invalid on the config's uri, at line 1.
  const { client, uri } = await start(t, { 'localhost.yml': LOCALHOST }, {});
  fs.mkdirSync(path.join(client.root, '.skewguard.yaml'));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('.skewguard.yaml'), type: 1 }] });
  const p = await client.waitFor(uri('.skewguard.yaml'), (x) => x.diagnostics.length > 0);
  assert.equal(p.diagnostics[0].code, 'config/invalid');
  assert.deepEqual(p.diagnostics[0].range.start, { line: 0, character: 0 });
  assert.match(p.diagnostics[0].message, /cannot read \.skewguard\.yaml: EISDIR/);
});

test('a binary, huge or non-mapping .skewguard.yaml is a clear problem, not a crash', () => {
  const cases = [
    [Buffer.from([0x73, 0x74, 0x00, 0x01, 0xff, 0x0a]), /\.skewguard\.yaml is a binary file \(it holds NUL bytes\), not YAML/],
    ['# padding\n'.repeat(120 * 1024), /\.skewguard\.yaml is 1228800 bytes; a configuration is read only up to 1048576 bytes/],
    ['- starlingx\n- kubernetes\n', /the configuration must be a mapping/],
    ['"just a string"\n', /the configuration must be a mapping/],
  ];
  for (const [content, message] of cases) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-cfg-')));
    try {
      fs.writeFileSync(path.join(dir, '.skewguard.yaml'), content);
      fs.writeFileSync(path.join(dir, 'localhost.yml'), 'system_mode: simplex\n');
      const r = lint(dir, ['localhost.yml']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /lsp-lint: \.skewguard\.yaml:1:1: /);
      assert.match(r.stderr, message);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  }
});

test('skewguard.starlingx.upgradeFrom: the editor setting names the upgrade path as .skewguard.yaml does', () => {
  const ok = e.normalizeSettings({ starlingx: { release: '12.0', upgradeFrom: '11.0' } }, new Set());
  assert.equal(ok.overrides.starlingxUpgradeFrom, '11.0');
  assert.deepEqual(ok.settings.starlingx, { release: '12.0', upgradeFrom: '11.0' });
  const bad = e.normalizeSettings({ starlingx: { release: '10.0', upgradeFrom: '12.0' } }, new Set());
  assert.equal(bad.overrides.starlingxUpgradeFrom, undefined);
  assert.match(bad.problems[0].message, /newer than starlingx\.release/);
});

test('LSP: a document opened before the settings arrive is checked again only when they change what it is checked with', async (t) => {
  const settle = async (client, uri) => {
    await until(() => client.configurationRequests >= 2 && client.count(uri) >= 1, 'settings pulled and the document published');
    await client.request('skewguard/resolvedConfig', { uri });
    await new Promise((r) => setTimeout(r, 300));
    await client.request('skewguard/resolvedConfig', { uri });
  };
  // debounceMs is not part of what a file is checked with: one analysis, one publish.
  const same = await start(t, {}, { settings: { skewguard: { debounceMs: 0 } } });
  const u1 = same.uri('localhost.yml');
  await same.client.open(u1, LOCALHOST);
  await settle(same.client, u1);
  assert.equal(same.client.count(u1), 1, 'published once: the settings resolve to the configuration it was checked with');
  // A rule turned off by the settings: checked again, and the finding goes.
  const other = await start(t, {}, { settings: { skewguard: { debounceMs: 0, rules: { 'starlingx/unknown-key': 'off' } } } });
  const u2 = other.uri('localhost.yml');
  await other.client.open(u2, LOCALHOST);
  await settle(other.client, u2);
  const all = other.client.published.get(u2);
  assert.ok(all[0].diagnostics.some((d) => d.code === 'starlingx/unknown-key'), 'checked first without the settings');
  assert.ok(!all.at(-1).diagnostics.some((d) => d.code === 'starlingx/unknown-key'), 'checked again with them');
});
