// The CI contract of lsp-lint: `--help` and the README's option table name every option the parser accepts and
// every output format, and `--format gitlab` writes a GitLab Code Quality report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliSource = fs.readFileSync(path.join(repoRoot, 'server/src/cli/main.ts'), 'utf8');
const lint = (args, cwd = repoRoot) => spawnSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), ...args], { cwd, encoding: 'utf8' });

/** Every option spelling the parser accepts: the `case '--x':` labels of parseArgs. */
const parsedOptions = () => [...new Set([...cliSource.matchAll(/case '(-{1,2}[\w-]+)'/g)].map((m) => m[1]))].sort();
const formats = () => JSON.parse(/const FORMATS = (\[[^\]]*\])/.exec(cliSource)[1].replace(/'/g, '"'));

test('lsp-lint --help names every option the parser accepts, every format and the exit codes', () => {
  const r = lint(['--help']);
  assert.equal(r.status, 0);
  const options = parsedOptions();
  assert.ok(options.length >= 20, `only ${options.length} options found in server/src/cli/main.ts`);
  const missing = options.filter((o) => !new RegExp(`(^|[\\s,(])${o.replace(/-/g, '\\-')}(?![\\w-])`, 'm').test(r.stdout));
  assert.deepEqual(missing, [], `not in --help: ${missing.join(', ')}`);
  for (const f of formats()) assert.match(r.stdout, new RegExp(`\\b${f}\\b`), `format ${f} not in --help`);
  assert.match(r.stdout, /--stdin, -/);
  assert.match(r.stdout, /Exit codes: 0 .*; 1 .*; 2 /);
  assert.match(r.stdout, /--exit-codes pluto: 3 .* 2 /);
});

test('the README option table names every long option and format', () => {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| Option |'), readme.indexOf('**Exit codes:**'));
  assert.ok(table.length > 100, 'README: the lsp-lint option table is gone');
  const missing = parsedOptions().filter((o) => o.startsWith('--') && !table.includes(`\`${o}`) && !table.includes(` ${o}`) && !table.includes(`${o}\``));
  assert.deepEqual(missing, [], `not in the README option table: ${missing.join(', ')}`);
  for (const f of formats()) assert.ok(table.includes(f), `format ${f} not in the README option table`);
});

test('--format gitlab: a Code Quality report with relative paths, lines, severities and stable unique fingerprints', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-gitlab-')));
  try {
    fs.mkdirSync(path.join(dir, 'site'));
    fs.writeFileSync(path.join(dir, 'site', 'localhost.yml'), 'system_mode: simplex\nkubernetes_version: v1.34.1\nk8s_root_ca_cert: /a\nk8s_root_ca_key: /b\n');
    fs.writeFileSync(path.join(dir, 'site', '.skewguard.yaml'), 'starlingx:\n  release: "12.0"\n');
    const r = lint(['--format', 'gitlab', '.'], dir);
    assert.equal(r.status, 1, r.stderr);
    const issues = JSON.parse(r.stdout);
    assert.ok(Array.isArray(issues) && issues.length === 3, r.stdout);
    for (const i of issues) {
      assert.equal(i.type, 'issue');
      assert.ok(i.description && i.check_name, JSON.stringify(i));
      assert.ok(['info', 'minor', 'major', 'critical', 'blocker'].includes(i.severity), i.severity);
      assert.match(i.fingerprint, /^[0-9a-f]{64}$/);
      assert.equal(i.location.path, 'site/localhost.yml');
      assert.ok(Number.isInteger(i.location.lines.begin) && i.location.lines.begin >= 1);
    }
    assert.deepEqual(issues.map((i) => [i.check_name, i.severity, i.location.lines.begin]), [
      ['starlingx/kubernetes-version-v-prefix', 'major', 2], ['starlingx/key-not-read', 'minor', 3], ['starlingx/key-not-read', 'minor', 4],
    ]);
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, issues.length, 'fingerprints must be unique');
    // A finding keeps its fingerprint when lines are added above it.
    fs.writeFileSync(path.join(dir, 'site', 'localhost.yml'), '# a comment\n' + fs.readFileSync(path.join(dir, 'site', 'localhost.yml'), 'utf8'));
    const again = JSON.parse(lint(['--format', 'gitlab', '.'], dir).stdout);
    assert.deepEqual(again.map((i) => i.fingerprint), issues.map((i) => i.fingerprint));
    assert.deepEqual(again.map((i) => i.location.lines.begin), [3, 4, 5]);
    // No findings: an empty report, exit 0.
    fs.writeFileSync(path.join(dir, 'site', 'localhost.yml'), 'system_mode: simplex\n');
    const clean = lint(['--format', 'gitlab', '.'], dir);
    assert.equal(clean.status, 0);
    assert.deepEqual(JSON.parse(clean.stdout), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the README GitLab CI example: the report lsp-lint writes is the one GitLab reads', async () => {
  const { parse } = await import('yaml');
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('--format gitlab'));
  assert.ok(block, 'README has no GitLab CI example using --format gitlab');
  const job = Object.values(parse(block))[0];
  const cmd = job.script.find((l) => l.includes('--format gitlab'));
  const out = /--output-file (\S+)/.exec(cmd)?.[1];
  assert.ok(out, cmd);
  assert.equal(job.artifacts.reports.codequality, out);
  assert.equal(job.artifacts.when, 'always', 'the report must be uploaded when the job fails');
  for (const line of job.script.filter((l) => l.startsWith('lsp-lint '))) {
    const args = line.replace(/\s*\|\|.*$/, '').split(/\s+/).slice(1).map((a) => (a === '.' ? '--version' : a));
    // Every option of the example parses (paths replaced by --version, which exits 0 after parsing).
    const r = lint(args.filter((a, i) => !(args[i - 1] === '--output-file' || a === '--output-file')));
    assert.equal(r.status, 0, `${line}: ${r.stderr}`);
  }
});
