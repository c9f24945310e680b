// The pre-commit hooks (.pre-commit-hooks.yaml) with Debian's pre-commit (apt-get install pre-commit), on scratch
// repositories: the manifest validates, a repository using the skewguard-system hook from a file:// repository of
// the hooks (pre-commit clones it as it would from GitHub) blocks a commit whose files break a step of the window
// and lets a clean one through; the local-hook variant of examples/ci/pre-commit works the same. lsp-lint comes from
// `npm pack` installed on a clean prefix, as users get it. Run by .ci/run (not by npm test: it needs pre-commit):
//   node --test test/e2e/pre-commit.test.mjs
// The `skewguard` hook (language: node) makes pre-commit build a Node environment with nodeenv and install the
// repository's development dependencies from the registry: not done here (no network in tests).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { writeFiles, repoRoot, K8S_WINDOW, ING_BETA, ING_V1, CM } from '../helpers/cli-run.mjs';

let tmp, env;
const GIT_ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

function sh(cwd, cmd, args, extra = {}) {
  return spawnSync(cmd, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout: 300000 });
}
function ok(cwd, cmd, args) {
  const r = sh(cwd, cmd, args);
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

before(() => {
  const v = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  assert.equal(v.status, 0, 'pre-commit is not installed: apt-get install pre-commit (Debian), then run this test again');
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-pc-')));
  const p = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp, '--json'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  const prefix = path.join(tmp, 'prefix');
  const i = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', path.join(tmp, JSON.parse(p.stdout)[0].filename)], { cwd: tmp, encoding: 'utf8', env: { ...process.env, npm_config_cache: path.join(tmp, 'npm-cache') } });
  assert.equal(i.status, 0, i.stderr);
  env = {
    ...process.env, ...GIT_ID, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`, HOME: tmp,
    PRE_COMMIT_HOME: path.join(tmp, 'pre-commit-home'), SKEWGUARD_CACHE_DIR: path.join(tmp, 'cache'), NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1',
  };
});
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

test('.pre-commit-hooks.yaml validates with pre-commit and defines the two hooks', () => {
  ok(repoRoot, 'pre-commit', ['validate-manifest', '.pre-commit-hooks.yaml']);
  const hooks = YAML.parse(fs.readFileSync(path.join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8'));
  assert.deepEqual(hooks.map((h) => [h.id, h.language, h.entry]), [['skewguard', 'node', 'lsp-lint'], ['skewguard-system', 'system', 'lsp-lint']]);
});

/** A hooks repository (the manifest, committed) and a project using `config` as its .pre-commit-config.yaml. */
function project(name, config) {
  const hooksRepo = path.join(tmp, `${name}-hooks`);
  fs.mkdirSync(hooksRepo);
  fs.copyFileSync(path.join(repoRoot, '.pre-commit-hooks.yaml'), path.join(hooksRepo, '.pre-commit-hooks.yaml'));
  ok(hooksRepo, 'git', ['init', '-q', '-b', 'main']);
  ok(hooksRepo, 'git', ['add', '-A']);
  ok(hooksRepo, 'git', ['commit', '-q', '-m', 'hooks']);
  const rev = ok(hooksRepo, 'git', ['rev-parse', 'HEAD']).trim();
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  writeFiles(dir, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'deploy/ok.yaml': CM, '.pre-commit-config.yaml': config(`file://${hooksRepo}`, rev), 'README.txt': 'not checked\n' });
  ok(dir, 'git', ['init', '-q', '-b', 'main']);
  ok(dir, 'git', ['add', '-A']);
  ok(dir, 'git', ['commit', '-q', '-m', 'base']);
  ok(dir, 'pre-commit', ['install']);
  return dir;
}

function commitBlockedThenClean(dir) {
  // A manifest removed at 1.22, staged: the commit is refused, with the finding.
  fs.writeFileSync(path.join(dir, 'deploy', 'ing.yaml'), ING_BETA);
  ok(dir, 'git', ['add', 'deploy/ing.yaml']);
  const bad = sh(dir, 'git', ['commit', '-m', 'add ingress']);
  assert.notEqual(bad.status, 0, 'the commit is refused');
  const out = bad.stdout + bad.stderr;
  assert.match(out, /skewguard .*Failed/);
  assert.match(out, /deploy\/ing\.yaml\n\s+1:13\s+error\s+extensions\/v1beta1 Ingress is removed in Kubernetes 1\.22/);
  assert.equal(sh(dir, 'git', ['rev-list', '--count', 'HEAD']).stdout.trim(), '1', 'nothing was committed');
  // Fixed: the commit goes through; a file of no kind skewguard checks never stops one.
  fs.writeFileSync(path.join(dir, 'deploy', 'ing.yaml'), ING_V1);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'x\n');
  ok(dir, 'git', ['add', '-A']);
  const good = sh(dir, 'git', ['commit', '-m', 'add ingress']);
  assert.equal(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout + good.stderr, /skewguard .*Passed/);
  // pre-commit run --all-files: every matching file, passed as arguments.
  assert.equal(sh(dir, 'pre-commit', ['run', '--all-files']).status, 0);
}

test('the skewguard-system hook from a (file://) hooks repository blocks a commit that breaks a step, passes a clean one', () => {
  const dir = project('remote', (url, rev) => `repos:\n  - repo: ${url}\n    rev: ${rev}\n    hooks:\n      - id: skewguard-system\n`);
  commitBlockedThenClean(dir);
});

test('the local hook of examples/ci/pre-commit works the same', () => {
  const example = fs.readFileSync(path.join(repoRoot, 'examples', 'ci', 'pre-commit', '.pre-commit-config.yaml'), 'utf8');
  // The commented-out local variant of the example, as a user would enable it.
  const lines = example.split('\n');
  const from = lines.findIndex((l) => l.includes('Or without fetching anything')) + 1;
  assert.ok(from > 0);
  const local = lines.slice(from).filter((l) => l.startsWith('  # ')).map((l) => l.replace(/^ {2}# /, '  ')).join('\n');
  const cfg = YAML.parse(`repos:\n${local}\n`);
  assert.equal(cfg.repos[0].repo, 'local');
  const dir = project('local', () => `repos:\n${local}\n`);
  commitBlockedThenClean(dir);
});
