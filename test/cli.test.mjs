// lsp-lint end to end: run `node bin/lsp-lint.js` in temporary folders and check its output formats,
// exit codes, --fix, file collection and positions. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
assert.ok(fs.existsSync(path.join(repoRoot, 'dist', 'lsp-lint.js')), 'dist/lsp-lint.js is missing: run node scripts/build.mjs first');

const STX6 = 'starlingx: { release: "6.0" }\n';
const V_PREFIX = 'starlingx/kubernetes-version-v-prefix';
const UNKNOWN_KEY = 'starlingx/unknown-key';
// An error (the "v") and a warning (dns_server is a misspelling of dns_servers).
const BAD = 'system_mode: simplex\nkubernetes_version: v1.21.3\ndns_server:\n  - 8.8.8.8\n';
const CLEAN = 'system_mode: simplex\nkubernetes_version: 1.21.3\ndns_servers:\n  - 8.8.8.8\n';
// Only a warning: 1.18.1 is shipped by 6.0 but older than its default.
const WARN_ONLY = 'system_mode: simplex\nkubernetes_version: 1.18.1\n';

/** A temporary folder holding `files` ({ relativePath: string | Buffer }), removed after the test. */
function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-cli-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

function lint(cwd, args, { input, env } = {}) {
  const e = { ...process.env, ...env };
  delete e.NO_COLOR;
  delete e.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: 'utf8', env: e, timeout: 60000 });
  assert.equal(r.error, undefined, `spawn failed: ${r.error}`);
  assert.doesNotMatch(r.stderr, /internal error|exited unexpectedly/, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const lintJson = (cwd, args, opts) => {
  const r = lint(cwd, ['--format', 'json', ...args], opts);
  return { ...r, reports: JSON.parse(r.stdout) };
};
const messagesOf = (reports, file) => reports.find((r) => r.filePath === file)?.messages;

// ---- formats ----

test('stylish: one block per file, position, severity, message and rule id; no colour when not a TTY', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': BAD });
  const r = lint(dir, ['localhost.yml']);
  assert.equal(r.code, 1);
  assert.ok(!r.stdout.includes('\u001b['), 'no ANSI escapes on a pipe');
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], 'localhost.yml');
  assert.match(lines[1], /^ {2}2:21 {2}error {4}kubernetes_version "v1\.21\.3" has a "v" prefix.* {2}starlingx\/kubernetes-version-v-prefix$/);
  assert.match(lines[2], /^ {2}3:1 {3}warning {2}unknown key "dns_server".*did you mean "dns_servers"\? {2}starlingx\/unknown-key$/);
  assert.ok(r.stdout.includes('✖ 2 problems (1 error, 1 warning, 0 info)'), r.stdout);

  const colour = lint(dir, ['--color', 'localhost.yml']);
  assert.ok(colour.stdout.includes('\u001b[31merror'), 'errors in red with --color');
  const none = lint(dir, ['--color', '--no-color', 'localhost.yml']);
  assert.ok(!none.stdout.includes('\u001b['));
  assert.equal(none.stdout, r.stdout);

  const clean = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  const c = lint(clean, ['localhost.yml']);
  assert.equal(c.code, 0);
  assert.equal(c.stdout, '✔ 1 file checked, no problems\n');
});

test('stylish: a file of no kind skewguard checks is not counted as checked', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN, 'configuration.toml': '[server]\nport = 80\n[database]\nurl = "x"\n' });
  const one = lint(dir, ['configuration.toml']);
  assert.equal(one.code, 0);
  assert.equal(one.stdout, '✔ 0 files checked, no problems (1 other file read: not of a kind skewguard checks)\n');
  const both = lint(dir, ['localhost.yml', 'configuration.toml']);
  assert.equal(both.stdout, '✔ 1 file checked, no problems (1 other file read: not of a kind skewguard checks)\n');
});

test('json: one report per file with ruleId, severity, 1-based line/column and counts', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': BAD });
  const { code, reports } = lintJson(dir, ['localhost.yml']);
  assert.equal(code, 1);
  assert.equal(reports.length, 1);
  const [rep] = reports;
  assert.equal(rep.filePath, path.join(dir, 'localhost.yml'));
  assert.equal(rep.family, 'starlingx');
  assert.equal(rep.errorCount, 1);
  assert.equal(rep.warningCount, 1);
  assert.equal(rep.fixed, false);
  const pick = (m) => ({ ruleId: m.ruleId, severity: m.severity, line: m.line, column: m.column, endLine: m.endLine, endColumn: m.endColumn });
  assert.deepEqual(rep.messages.map(pick), [
    { ruleId: V_PREFIX, severity: 'error', line: 2, column: 21, endLine: 2, endColumn: 28 },
    { ruleId: UNKNOWN_KEY, severity: 'warning', line: 3, column: 1, endLine: 3, endColumn: 11 },
  ]);
  assert.ok(rep.messages[0].docsUrl.endsWith(`${V_PREFIX}.md`));
  assert.deepEqual(rep.messages[1].data, { key: 'dns_server', suggestion: 'dns_servers', steps: ['6.0'] });
});

function sarifValidator() {
  const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/sarif-schema-2.1.0.json'), 'utf8'));
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  const ajv = new Ajv({ allErrors: true, strict: false });
  const isAbsoluteUri = (s) => { try { new URL(s); return /^[a-z][a-z0-9+.-]*:/i.test(s) && !/\s/.test(s); } catch { return false; } };
  ajv.addFormat('uri', isAbsoluteUri);
  ajv.addFormat('uri-reference', (s) => { try { new URL(s, 'http://base.invalid/'); return !/\s/.test(s); } catch { return false; } });
  ajv.addFormat('date-time', (s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)));
  return ajv.compile(schema);
}

test('sarif: valid against the official SARIF 2.1.0 schema; every result has a rule with a helpUri', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': STX6,
    'localhost.yml': BAD,
    'site a/localhost.yml': 'kubernetes_version: 1.18.1\n',
    'broken/localhost.yml': 'docker_registries:\n  docker.elastic.co\n    url: x\n',
  });
  const r = lint(dir, ['--format', 'sarif', '.']);
  assert.equal(r.code, 1);
  const log = JSON.parse(r.stdout);
  const validate = sarifValidator();
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  // The validator is not a no-op: a wrong level is rejected.
  const broken = structuredClone(log);
  broken.runs[0].results[0].level = 'fatal';
  assert.equal(validate(broken), false);

  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'skewguard');
  assert.equal(run.columnKind, 'utf16CodeUnits');
  const rules = run.tool.driver.rules;
  assert.equal(new Set(rules.map((x) => x.id)).size, rules.length, 'rule ids are unique');
  assert.equal(run.results.length, 4);
  for (const res of run.results) {
    const rule = rules.find((x) => x.id === res.ruleId);
    assert.ok(rule, `no rule for ${res.ruleId}`);
    assert.match(rule.helpUri, /^https:\/\/.+\.md$/);
    assert.equal(rules[res.ruleIndex].id, res.ruleId, 'ruleIndex points at the rule');
  }
  const byId = Object.fromEntries(run.results.map((x) => [x.ruleId, x]));
  assert.deepEqual(Object.keys(byId).sort(), ['starlingx/kubernetes-version-below-default', V_PREFIX, UNKNOWN_KEY, 'syntax/parse-error'].sort());
  const v = byId[V_PREFIX];
  assert.equal(v.level, 'error');
  assert.deepEqual(v.locations[0].physicalLocation.artifactLocation, { uri: 'localhost.yml', uriBaseId: 'SRCROOT' });
  assert.deepEqual(v.locations[0].physicalLocation.region, { startLine: 2, startColumn: 21, endLine: 2, endColumn: 28 });
  assert.equal(byId[UNKNOWN_KEY].level, 'warning');
  assert.equal(byId['starlingx/kubernetes-version-below-default'].locations[0].physicalLocation.artifactLocation.uri, 'site%20a/localhost.yml');
  assert.equal(new URL(run.originalUriBaseIds.SRCROOT.uri).pathname, `${dir}/`);
});

test('github: ::error / ::warning workflow commands with file, line, col and the rule id as title', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': BAD, 'localhost-bin.yml': Buffer.from('a: 1\n\u0000\u0001\n') });
  // The binary file is not checked: exit 2 (issue #25), unless --allow-unchecked, which still reports it.
  assert.equal(lint(dir, ['--format', 'github', '.']).code, 2);
  const r = lint(dir, ['--format', 'github', '--allow-unchecked', '.']);
  assert.equal(r.code, 1);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3, r.stdout);
  assert.match(lines[0], /^::notice file=localhost-bin\.yml,line=1,col=1,endLine=1,endColumn=1,title=skewguard\/skipped-file::not checked: binary data/);
  assert.match(lines[1], /^::error file=localhost\.yml,line=2,col=21,endLine=2,endColumn=28,title=starlingx\/kubernetes-version-v-prefix::kubernetes_version "v1\.21\.3" has a "v" prefix/);
  assert.match(lines[2], /^::warning file=localhost\.yml,line=3,col=1,endLine=3,endColumn=11,title=starlingx\/unknown-key::unknown key "dns_server"/);
  for (const l of lines) assert.doesNotMatch(l.split('::').slice(2).join('::'), /[\r\n]/);

  const clean = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  const c = lint(clean, ['--format', 'github', 'localhost.yml']);
  assert.equal(c.code, 0);
  assert.equal(c.stdout, '');
});

// ---- exit codes ----

test('exit codes 0 and 1: clean, errors, warnings with and without --max-warnings', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'clean/localhost.yml': CLEAN, 'bad/localhost.yml': BAD, 'warn/localhost.yml': WARN_ONLY });
  assert.equal(lint(dir, ['clean/localhost.yml']).code, 0);
  assert.equal(lint(dir, ['bad/localhost.yml']).code, 1);
  const w = lintJson(dir, ['warn/localhost.yml']);
  assert.equal(w.reports[0].errorCount, 0);
  assert.equal(w.reports[0].warningCount, 1);
  assert.equal(w.code, 0, 'warnings and no limit');
  const w0 = lint(dir, ['--max-warnings', '0', 'warn/localhost.yml']);
  assert.equal(w0.code, 1);
  assert.match(w0.stderr, /1 warnings, more than --max-warnings 0/);
  assert.equal(lint(dir, ['--max-warnings=1', 'warn/localhost.yml']).code, 0, 'within the limit');
  assert.equal(lint(dir, ['--max-warnings', '0', 'clean/localhost.yml']).code, 0);
  // A rule turned off on the command line: the file is clean.
  assert.equal(lint(dir, ['--rule', `${V_PREFIX}=off`, '--rule', `${UNKNOWN_KEY}=off`, 'bad/localhost.yml']).code, 0);
});

test('exit code 2: unknown option, missing path, invalid .skewguard.yaml, unknown --starlingx-release', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  const opt = lint(dir, ['--bogus', 'localhost.yml']);
  assert.equal(opt.code, 2);
  assert.match(opt.stderr, /^lsp-lint: unknown option --bogus\n/);
  assert.match(opt.stderr, /Usage: lsp-lint/);
  assert.equal(opt.stdout, '');

  const missing = lint(dir, ['nothere.yml']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no such file or no match: nothere\.yml/);

  const rel = lint(dir, ['--starlingx-release', '99.0', 'localhost.yml']);
  assert.equal(rel.code, 2);
  assert.match(rel.stderr, /unknown StarlingX release "99\.0"/);

  const bad = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\nrules:\n  starlingx/unknwn-key: off\n', 'localhost.yml': CLEAN });
  const cfg = lint(bad, ['localhost.yml']);
  assert.equal(cfg.code, 2);
  assert.match(cfg.stderr, /^lsp-lint: \.skewguard\.yaml:3:3: unknown rule id "starlingx\/unknwn-key"; did you mean "starlingx\/unknown-key"\?$/m);
  assert.equal(cfg.stdout, '', 'no report when the config is invalid');

  const typo = workspace(t, { '.skewguard.yaml': 'kubernetes:\n  windw: "1.18..1.21"\n', 'localhost.yml': CLEAN });
  const ty = lint(typo, ['localhost.yml']);
  assert.equal(ty.code, 2);
  assert.match(ty.stderr, /\.skewguard\.yaml:2:3: unknown setting "kubernetes\.windw"; did you mean "window"\?/);
});

// ---- --fix ----

const ODD = [
  '# bootstrap overrides for lab-3',
  '#   (kept by hand — do not reformat)',
  'system_mode:     duplex      # two controllers',
  '',
  "kubernetes_version:   \"v1.21.3\"     # must match the ISO",
  'dns_servers:',
  '    -   8.8.8.8   # primary',
  "    - '8.8.4.4'",
  '',
].join('\n');

test('--fix rewrites only the value, keeping comments, spacing and quotes; a second run changes nothing', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': ODD });
  const file = path.join(dir, 'localhost.yml');
  fs.chmodSync(file, 0o640);
  const before = fs.readdirSync(dir).sort();

  const r = lintJson(dir, ['--fix', 'localhost.yml']);
  assert.equal(r.code, 0, 'nothing left after the fix');
  assert.equal(fs.readFileSync(file, 'utf8'), ODD.replace('"v1.21.3"', '"1.21.3"'));
  assert.equal(r.reports[0].fixed, true);
  assert.deepEqual(r.reports[0].messages, [], 'the report is of the fixed text');
  assert.deepEqual(fs.readdirSync(dir).sort(), before, 'no temporary files left behind');
  assert.equal(fs.statSync(file).mode & 0o777, 0o640, 'file mode kept');

  const bytes = fs.readFileSync(file);
  const { mtimeMs, ino } = fs.statSync(file);
  const again = lint(dir, ['--fix', 'localhost.yml']);
  assert.equal(again.code, 0);
  assert.ok(!again.stdout.includes('fixed'), again.stdout);
  assert.ok(fs.readFileSync(file).equals(bytes), 'byte-identical');
  assert.equal(fs.statSync(file).mtimeMs, mtimeMs, 'not rewritten');
  assert.equal(fs.statSync(file).ino, ino, 'not replaced');
});

test('--fix: the exit code reflects the problems that remain', (t) => {
  const text = 'kubernetes_version: v1.21.3\nzz_site_label: lab-3\n';
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': text });
  const file = path.join(dir, 'localhost.yml');
  // The unknown key has no automatic fix; as an error it keeps the exit code at 1.
  const r = lintJson(dir, ['--fix', '--rule', `${UNKNOWN_KEY}=error`, 'localhost.yml']);
  assert.equal(r.code, 1);
  assert.equal(fs.readFileSync(file, 'utf8'), 'kubernetes_version: 1.21.3\nzz_site_label: lab-3\n');
  assert.deepEqual(r.reports[0].messages.map((m) => [m.ruleId, m.severity, m.line]), [[UNKNOWN_KEY, 'error', 2]]);
  // The same remaining problem as a warning: exit 0.
  fs.writeFileSync(file, text);
  const w = lint(dir, ['--fix', 'localhost.yml']);
  assert.equal(w.code, 0);
  assert.match(w.stdout, /1 problem \(0 errors, 1 warning, 0 info\)\n1 file fixed\n$/);
});

test('--fix never changes a file with a YAML syntax error', (t) => {
  const text = 'kubernetes_version: v1.21.3\n---\nfoo: [\n';
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': text });
  const file = path.join(dir, 'localhost.yml');
  const { mtimeMs } = fs.statSync(file);
  const r = lintJson(dir, ['--fix', 'localhost.yml']);
  assert.equal(r.code, 1);
  const ids = r.reports[0].messages.map((m) => m.ruleId);
  assert.ok(ids.includes('syntax/parse-error'), JSON.stringify(ids));
  assert.ok(ids.includes(V_PREFIX), 'the fixable problem is still reported');
  assert.equal(r.reports[0].fixed, false);
  assert.equal(fs.readFileSync(file, 'utf8'), text);
  assert.equal(fs.statSync(file).mtimeMs, mtimeMs);
});

test('--fix keeps CRLF line endings and the UTF-8 BOM', (t) => {
  const text = '\uFEFF# site: lab-3\r\nsystem_mode: simplex\r\nkubernetes_version: v1.21.3 # pinned\r\ndns_servers:\r\n  - 8.8.8.8\r\n';
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': text });
  const file = path.join(dir, 'localhost.yml');
  const r = lint(dir, ['--fix', 'localhost.yml']);
  assert.equal(r.code, 0, r.stdout);
  const out = fs.readFileSync(file);
  assert.deepEqual([...out.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM kept');
  assert.equal(out.toString('utf8'), text.replace('v1.21.3', '1.21.3'));
  assert.equal(out.toString('utf8').split('\r\n').length, text.split('\r\n').length);
  assert.ok(!/[^\r]\n/.test(out.toString('utf8')), 'no bare LF');
});

// ---- input and file collection ----

test('--stdin-filename reads standard input and reports under that name', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6 });
  const r = lintJson(dir, ['--stdin-filename', 'localhost.yml'], { input: 'system_mode: simplex\nkubernetes_version: v1.21.3\n' });
  assert.equal(r.code, 1);
  assert.equal(r.reports.length, 1);
  assert.equal(r.reports[0].filePath, path.join(dir, 'localhost.yml'));
  assert.equal(r.reports[0].family, 'starlingx');
  assert.deepEqual(r.reports[0].messages.map((m) => [m.ruleId, m.line, m.column]), [[V_PREFIX, 2, 21]]);
  assert.ok(!fs.existsSync(path.join(dir, 'localhost.yml')), 'nothing written');
  const s = lint(dir, ['--stdin-filename', 'localhost.yml'], { input: CLEAN });
  assert.equal(s.code, 0);
  const f = lint(dir, ['--stdin-filename', 'localhost.yml', '--fix'], { input: CLEAN });
  assert.equal(f.code, 2, '--fix cannot be used with standard input');
});

test('a directory: an unparsable file gets one parse error, a binary one is skipped, .gitignored files are left out', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': STX6,
    'localhost.yml': 'docker_registries:\n  docker.elastic.co\n    url: my.registry.io\n  : : [\n',
    'localhost-bin.yml': Buffer.concat([Buffer.from('system_mode: simplex\n'), Buffer.from([0, 1, 2, 0, 0xff]), Buffer.from('\nkubernetes_version: v1\n')]),
    'localhost-ignored.yml': 'kubernetes_version: v1.21.3\n',
    '.gitignore': 'localhost-ignored.yml\n',
  });
  assert.equal(lintJson(dir, ['.']).code, 2, 'the binary file is not checked (issue #25)');
  const r = lintJson(dir, ['--allow-unchecked', '.']);
  assert.equal(r.code, 1);
  const files = r.reports.map((x) => path.relative(dir, x.filePath));
  assert.ok(!files.includes('localhost-ignored.yml'), JSON.stringify(files));
  const parse = messagesOf(r.reports, path.join(dir, 'localhost.yml'));
  assert.equal(parse.length, 1, JSON.stringify(parse));
  assert.equal(parse[0].ruleId, 'syntax/parse-error');
  assert.equal(parse[0].severity, 'error');
  assert.equal(parse[0].line, 2);
  const bin = messagesOf(r.reports, path.join(dir, 'localhost-bin.yml'));
  assert.deepEqual(bin.map((m) => [m.ruleId, m.severity]), [['skewguard/skipped-file', 'info']]);
  assert.match(bin[0].message, /binary/);
  // Named explicitly, an ignored file is checked.
  const explicit = lintJson(dir, ['localhost-ignored.yml']);
  assert.deepEqual(explicit.reports[0].messages.map((m) => m.ruleId), [V_PREFIX]);
});

test('.skewguard.yaml ignore: ["vendor/**"] leaves out files under vendor/', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': 'starlingx: { release: "6.0" }\nignore: ["vendor/**"]\n',
    'vendor/localhost.yml': 'kubernetes_version: v1.21.3\n',
    'vendor/deep/er/localhost.yml': 'kubernetes_version: v1.21.3\n',
    'site/localhost.yml': 'kubernetes_version: v1.21.3\n',
  });
  const r = lintJson(dir, ['.']);
  const files = r.reports.map((x) => path.relative(dir, x.filePath));
  assert.ok(files.includes(path.join('site', 'localhost.yml')), JSON.stringify(files));
  assert.ok(!files.some((f) => f.startsWith('vendor')), JSON.stringify(files));
  assert.equal(r.code, 1, 'site/localhost.yml has an error');

  // Control: without the ignore list, vendor/ is checked.
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), STX6);
  const all = lintJson(dir, ['.']);
  assert.ok(all.reports.some((x) => path.relative(dir, x.filePath) === path.join('vendor', 'localhost.yml')));
});

// ---- --print-config ----

test('--print-config prints the resolved release and window with their sources; the command line wins', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': 'kubernetes_version: 1.19.13\n' });
  const cfgPath = path.join(dir, '.skewguard.yaml');
  const r = lint(dir, ['--print-config']);
  assert.equal(r.code, 0);
  const c = JSON.parse(r.stdout);
  assert.deepEqual(c.starlingx, { release: '6.0', source: { kind: 'config', detail: cfgPath } });
  assert.equal(c.kubernetes.window, '1.19..1.21');
  assert.deepEqual(c.kubernetes.versions, ['1.19.13', '1.20.9', '1.21.3']);
  assert.equal(c.kubernetes.source.kind, 'workspace');
  assert.equal(c.config, cfgPath);
  assert.deepEqual(c.configProblems, []);

  const cli = JSON.parse(lint(dir, ['--print-config', '--starlingx-release', '11.0', '--kubernetes-window', '1.30..1.32']).stdout);
  assert.deepEqual(cli.starlingx, { release: '11.0', source: { kind: 'cli', detail: 'command line' } });
  assert.equal(cli.kubernetes.window, '1.30..1.32');
  assert.equal(cli.kubernetes.source.kind, 'cli');

  const bad = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.1" }\n' });
  const b = lint(bad, ['--print-config']);
  assert.equal(b.code, 2);
  assert.match(JSON.parse(b.stdout).configProblems[0].message, /unknown StarlingX release "6\.1"/);
});

// ---- positions ----

test('positions with CRLF, a BOM, tabs and multi-byte characters are 1-based UTF-16 columns', (t) => {
  const lines = [
    '# ünïcödé 🚀 bootstrap overrides',
    '# 🚀🚀 ☃ ✓',
    '{ system_mode: "düplex 🚀\tx", kubernetes_version: v1.21.3,',
    '  zz_🚀_key: "tab\there", dns_server: ["🚀\t8.8.8.8"] }',
    '',
  ];
  const text = '\uFEFF' + lines.join('\r\n');
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': text });
  const r = lintJson(dir, ['localhost.yml']);
  const col = (line, needle) => lines[line].indexOf(needle) + 1; // UTF-16 code units, like the LSP
  const got = Object.fromEntries(r.reports[0].messages.map((m) => [`${m.ruleId} ${m.data?.key ?? ''}`.trim(), [m.line, m.column, m.endLine, m.endColumn]]));
  assert.deepEqual(got[V_PREFIX], [3, col(2, 'v1.21.3'), 3, col(2, 'v1.21.3') + 'v1.21.3'.length]);
  assert.deepEqual(got[`${UNKNOWN_KEY} zz_🚀_key`], [4, col(3, 'zz_'), 4, col(3, 'zz_') + 'zz_🚀_key'.length]);
  assert.deepEqual(got[`${UNKNOWN_KEY} dns_server`], [4, col(3, 'dns_server'), 4, col(3, 'dns_server') + 'dns_server'.length]);
  assert.equal(Object.keys(got).length, 4, JSON.stringify(got));
  assert.deepEqual(got['starlingx/invalid-value'].slice(0, 2), [3, col(2, '"düplex')]);
  // Sanity: the emoji really are two UTF-16 code units, so a code-point count would differ.
  assert.notEqual(col(2, 'v1.21.3'), [...lines[2].slice(0, lines[2].indexOf('v1.21.3'))].length + 1);
});

// ---- start-up ----

test('start-up time of lsp-lint on one file (reported, not asserted)', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    const r = lint(dir, ['localhost.yml']);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    assert.equal(r.code, 0);
  }
  const msg = `lsp-lint on one file: ${times.map((x) => `${x.toFixed(0)} ms`).join(', ')} (wall time, incl. node start-up and the server process)`;
  t.diagnostic(msg);
  console.log(msg);
});

test('file names of every kind: each file is read and reported at its own path (the server maps each URI back to it)', (t) => {
  // The server turns most file URIs into paths without fileURLToPath (#29); names with escapes, `#`, `?`, `%`, spaces,
  // backslashes, non-ASCII letters, a leading dot or `..` in them take the full conversion. Every one must be found.
  const removed = (n) => `apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: i${n}\n`;
  const names = ['plain.yaml', 'a b.yaml', 'c#d.yaml', 'e%f.yaml', 'g?h.yaml', 'é ü/x.yaml', '.hidden/y.yaml', 'k..l/m.yaml', '..n.yaml', 'p\\q.yaml', 'r;s=t,u@v+w&x$y!z(1)~2.yaml'];
  // The window comes from the folder's .skewguard.yaml, found from each file's path: a path mapped wrong finds none.
  const dir = workspace(t, { '.skewguard.yaml': 'kubernetes:\n  window: "1.18..1.22"\n', ...Object.fromEntries(names.map((n, i) => [n, removed(i)])) });
  const r = lintJson(dir, ['.']);
  assert.equal(r.code, 1);
  for (const n of names) {
    const msgs = messagesOf(r.reports, path.join(dir, n));
    assert.ok(msgs, `${n}: reported (got ${r.reports.map((x) => x.filePath).join(', ')})`);
    assert.ok(msgs.some((m) => m.ruleId === 'k8s/no-common-api-version' && m.line === 1), `${n}: ${JSON.stringify(msgs)}`);
  }
});

test('an invalid .skewguard.yaml of a subfolder is said on the first file it governs, and the run exits 2 (as the one of the folder lsp-lint runs in does)', (t) => {
  const dir = workspace(t, {
    'sub/.skewguard.yaml': 'kubernetes:\n  window: "1.20..1.18"\n',
    'sub/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'sub/b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    'ok/c.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
  });
  const r = lintJson(dir, ['sub', 'ok']);
  assert.equal(r.code, 2, r.stderr);
  const notes = r.reports.flatMap((x) => x.messages.filter((m) => m.ruleId === 'config/invalid').map((m) => [path.relative(dir, x.filePath), m.line, m.message]));
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.equal(notes[0][0], path.join('sub', 'a.yaml'));
  assert.match(notes[0][2], /^not checked as configured: \.skewguard\.yaml, the configuration of this folder, is invalid at 2:11: Kubernetes window "1\.20\.\.1\.18": the start must not be newer than the end;/);
  assert.equal(lintJson(dir, ['--allow-unchecked', 'sub']).code, 1);
});
