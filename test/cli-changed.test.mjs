// Issue #19 item 4: lsp-lint --changed-since <git-ref> (findings only on the lines the change touched; renamed, added
// and untracked files) and --compare (which steps the change breaks or repairs against the base), on scratch git
// repositories made here with the system's git. The work tree is never written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { scratch, lint, writeFiles, K8S_WINDOW, ING_BETA, ING_V1, CM } from './helpers/cli-run.mjs';

function git(dir, ...args) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const CRON_BETA = 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: job\n              image: busybox\n';
const TAB_NAME = 'odd\tname é.yaml';

/** A repository with a base commit (tag `base`) and a working tree changed from it in every way the tests need. */
function repo(t) {
  const dir = scratch(t, {
    '.skewguard.yaml': K8S_WINDOW('1.21..1.23'),
    // Two findings now: line 1 (was there before) and the one the change adds in a third document.
    'deploy/multi.yaml': `${ING_BETA}---\n${CM}`,
    'deploy/app.yaml': ING_V1, // the change makes it fail from 1.22
    'deploy/old.yaml': ING_BETA, // the change repairs it
    'deploy/moved.yaml': CM.replace('  a: "1"\n', '  a: "1"\n  b: "2"\n'), // renamed, one line edited
    [TAB_NAME]: CM,
    'deploy/trim.yaml': `${CM.replace('metadata:\n', 'metadata:\n  labels: {}\n')}`,
  }, 'skewguard-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'tag', 'base');
  writeFiles(dir, {
    'deploy/multi.yaml': `${ING_BETA}---\n${CM}---\n${CRON_BETA}`,
    'deploy/app.yaml': ING_V1.replace('networking.k8s.io/v1', 'extensions/v1beta1').replace('  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n', '  backend:\n    serviceName: web\n    servicePort: 80\n'),
    'deploy/old.yaml': ING_V1,
    [TAB_NAME]: CM.replace('name: cfg', 'name: cfg\n  replica: 1'),
  });
  git(dir, 'mv', 'deploy/moved.yaml', 'deploy/renamed.yaml');
  fs.writeFileSync(path.join(dir, 'deploy/renamed.yaml'), CM.replace('  a: "1"\n', '  a: "1"\n  b: "2"\n').replace('kind: ConfigMap\n', 'kind: ConfigMap\nreplicas: 1\n'));
  // A deleted line: the finding on the line after it is touched.
  fs.writeFileSync(path.join(dir, 'deploy/trim.yaml'), CM.replace('metadata:\n', 'metadata:\n  labels: {}\n').replace('apiVersion: v1\n', 'apiVersion: v1\nspek: 1\n').replace('  labels: {}\n', ''));
  writeFiles(dir, { 'untracked/cron.yaml': CRON_BETA, 'staged/new.yaml': ING_BETA });
  git(dir, 'add', 'staged/new.yaml');
  return dir;
}

const state = (dir) => {
  const files = {};
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { if (e.name === '.git') continue; const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files[path.relative(dir, p)] = fs.readFileSync(p, 'utf8'); } };
  walk(dir);
  return { files, status: git(dir, 'status', '--porcelain'), index: fs.readFileSync(path.join(dir, '.git', 'index')).toString('base64') };
};

const json = (r) => { try { return JSON.parse(r.stdout); } catch { assert.fail(`not JSON: ${r.stdout}\n${r.stderr}`); } };
const findingsOf = (reports) => Object.fromEntries(reports.filter((x) => x.messages.length).map((x) => [x.filePath, x.messages.map((m) => `${m.ruleId}@${m.line}`)]));

test('--changed-since: only the findings on touched lines; added, staged, untracked, renamed and oddly named files', (t) => {
  const dir = repo(t);
  const all = json(lint(dir, ['--format', 'json', '.']));
  const before = findingsOf(all);
  assert.ok(before[path.join(dir, 'deploy/multi.yaml')].includes('k8s/removed-api@1'), 'the old finding is there without --changed-since');
  const r = lint(dir, ['--format', 'json', '--changed-since', 'base', '.']);
  assert.equal(r.code, 1, r.stderr);
  const got = findingsOf(json(r));
  const abs = (p) => path.join(dir, p);
  assert.deepEqual(got[abs('deploy/multi.yaml')], ['k8s/deprecated-api@17'], 'the CronJob the change added, not the Ingress at line 1 it did not touch');
  assert.deepEqual(got[abs('deploy/app.yaml')], ['k8s/removed-api@1']);
  assert.equal(got[abs('deploy/old.yaml')], undefined, 'repaired: nothing left');
  assert.deepEqual(got[abs('untracked/cron.yaml')], ['k8s/deprecated-api@1'], 'an untracked file is changed whole');
  assert.deepEqual(got[abs('staged/new.yaml')], ['k8s/removed-api@1'], 'a staged new file is changed whole');
  assert.deepEqual(got[abs('deploy/renamed.yaml')], ['k8s/unknown-field@3'], 'renamed: only its edited line');
  assert.deepEqual(got[abs(TAB_NAME)], ['k8s/unknown-field@5'], 'a name git quotes (tab, non-ASCII) is read back');
  assert.deepEqual(got[abs('deploy/trim.yaml')], ['k8s/unknown-field@2'], 'the line next to a deleted one');
  // Files the change did not touch are not checked at all.
  const files = json(r).map((x) => path.relative(dir, x.filePath)).sort();
  assert.deepEqual(files, ['deploy/app.yaml', 'deploy/multi.yaml', 'deploy/old.yaml', 'deploy/renamed.yaml', 'deploy/trim.yaml', TAB_NAME, 'staged/new.yaml', 'untracked/cron.yaml'].sort());
  assert.match(r.stderr, /lsp-lint: Changed since base: 8 checked files; \d+ findings? on lines the change did not touch left out/);
});

test('--compare: the steps the change breaks and repairs, from the base version checked by the same server', (t) => {
  const dir = repo(t);
  const s0 = state(dir);
  const r = lint(dir, ['--changed-since', 'base', '--compare', '.']);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.split('\n');
  assert.match(lines[0], /^Changed since base: 8 checked files/);
  const head = lines.slice(0, lines.indexOf(''));
  assert.ok(head.includes('  this change makes deploy/app.yaml fail at 1.22, 1.23'), head.join('\n'));
  assert.ok(head.includes('  this change makes deploy/old.yaml pass again at 1.22, 1.23'));
  assert.ok(head.includes('  this change makes staged/new.yaml fail at 1.22, 1.23 (a file the change adds)'));
  assert.ok(!head.some((l) => l.includes('multi.yaml')), 'multi.yaml fails at 1.22 before and after: no change of verdict');
  assert.ok(!head.some((l) => l.includes('untracked/cron.yaml')), 'a deprecation is a warning: no step fails');
  assert.ok(!head.some((l) => l.includes('not compared')), 'every base version was read, the renamed file\'s from its old path');
  assert.deepEqual(state(dir), s0, 'nothing in the work tree or the index was written');
});

test('--compare in every format: markdown says it first, json per file, sarif in the run, github as annotations, html on top', (t) => {
  const dir = repo(t);
  const md = lint(dir, ['--format', 'markdown', '--changed-since', 'base', '--compare', '.']).stdout;
  assert.match(md.split('\n')[0], /^## ❌ skewguard: this change breaks 2 files at some step of the window$/);
  const first = md.indexOf('- ❌ this change makes <code>deploy/app.yaml</code> fail at 1.22, 1.23');
  assert.ok(first > 0 && first < md.indexOf('| file |'), 'before the matrix');
  assert.ok(md.includes('- ✅ this change makes <code>deploy/old.yaml</code> pass again at 1.22, 1.23'));

  const rep = json(lint(dir, ['--format', 'json', '--changed-since', 'base', '--compare', '.']));
  const app = rep.find((x) => x.filePath.endsWith('deploy/app.yaml'));
  assert.deepEqual(app.change, { since: 'base', breaks: ['1.22', '1.23'], repairs: [] });
  assert.deepEqual(rep.find((x) => x.filePath.endsWith('deploy/old.yaml')).change, { since: 'base', breaks: [], repairs: ['1.22', '1.23'] });

  const sarif = json(lint(dir, ['--format', 'sarif', '--changed-since', 'base', '--compare', '.']));
  const ch = sarif.runs[0].properties.skewguardChange;
  assert.equal(ch.since, 'base');
  assert.deepEqual(ch.entries.find((e) => e.file === 'deploy/app.yaml'), { file: 'deploy/app.yaml', family: 'kubernetes', kind: 'breaks', steps: ['1.22', '1.23'] });
  assert.ok(sarif.runs[0].results.every((x) => !x.locations[0].physicalLocation.artifactLocation.uri.includes('moved')));

  const gh = lint(dir, ['--format', 'github', '--changed-since', 'base', '--compare', '.']).stdout;
  assert.match(gh, /^::error file=deploy\/app.yaml,title=skewguard%3A the change breaks steps::this change makes deploy\/app.yaml fail at 1.22, 1.23$/m);
  assert.match(gh, /^::notice file=deploy\/old.yaml,title=skewguard%3A the change repairs steps::this change makes deploy\/old.yaml pass again at 1.22, 1.23$/m);

  const html = lint(dir, ['--format', 'html', '--changed-since', 'base', '--compare', '.']).stdout;
  const cmp = html.indexOf('<h2>What the change since base does to the window</h2>');
  assert.ok(cmp > 0 && cmp < html.indexOf('<table class="m">'));
  assert.ok(html.includes('<li class="breaks">this change makes <code>deploy/app.yaml</code> fail at 1.22, 1.23</li>'));
});

test('--changed-since: not a git repository, an unknown ref, an option for a ref, --compare alone: a clear message, exit 2', (t) => {
  const plain = scratch(t, { 'a.yaml': CM });
  let r = lint(plain, ['--changed-since', 'main', '.'], { env: { GIT_CEILING_DIRECTORIES: path.dirname(plain) } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lsp-lint: --changed-since: .* is not in a git repository/);
  const dir = repo(t);
  r = lint(dir, ['--changed-since', 'no-such-branch', '.']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lsp-lint: --changed-since: unknown git ref "no-such-branch"/);
  r = lint(dir, ['--changed-since=--output=/tmp/x', '.']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--changed-since takes a git ref/);
  r = lint(dir, ['--compare', '.']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--compare needs --changed-since/);
});

test('--compare: a file whose base version is of another family keeps its own window in the matrix (not the base\'s)', (t) => {
  // config.toml was a containerd configuration at the base (window: containerd minors) and is a Kata one now.
  const dir = scratch(t, { 'config.toml': 'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  sandbox_image = "registry.k8s.io/pause:3.9"\n' }, 'skewguard-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  writeFiles(dir, { 'config.toml': '[hypervisor.qemu]\npath = "/usr/bin/qemu-system-x86_64"\nenable_swap = true\n' });
  const header = (out) => out.split('\n').filter((l) => /^### kata-config · |^\| file \|/.test(l));
  const alone = header(lint(dir, ['--format', 'markdown', 'config.toml']).stdout);
  assert.equal(alone.length, 2, 'the Kata file has a matrix of its own window');
  const r = lint(dir, ['--format', 'markdown', '--changed-since', 'main', '--compare', 'config.toml']);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  assert.deepEqual(header(r.stdout), alone);
});

test('--changed-since: a git that hangs is stopped at --timeout, with a clear message, exit 2 (never a hung run)', (t) => {
  const dir = scratch(t, { 'a.yaml': CM });
  // Outside the checked folder: a git inside it is never run (the test below).
  const bin = scratch(t, { 'git': '#!/bin/sh\nexec sleep 60\n' });
  fs.chmodSync(path.join(bin, 'git'), 0o755);
  const r = lint(dir, ['--changed-since', 'main', '--timeout', '1', 'a.yaml'], { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
  assert.equal(r.signal, null, 'lsp-lint ended by itself');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^lsp-lint: --changed-since: git rev-parse gave no answer within 1 s \(--timeout\)/);
});

test('--changed-since with no changed file to check: says so, exit 0', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'a.yaml': ING_BETA }, 'skewguard-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const r = lint(dir, ['--changed-since', 'HEAD', '.']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /no file to check changed since HEAD/);
  assert.equal(lint(dir, ['.']).code, 1, 'the file has an error the change did not make');
});

test('--changed-since on a folder named through a symlink: the files git names by their real path are found', (t) => {
  const dir = repo(t);
  const link = `${dir}-link`;
  fs.symlinkSync(dir, link);
  t.after(() => fs.rmSync(link, { force: true }));
  const r = lint(dir, ['--format', 'json', '--changed-since', 'base', '--compare', link]);
  assert.equal(r.code, 1, r.stderr);
  const got = findingsOf(json(r));
  assert.deepEqual(got[path.join(link, 'deploy/app.yaml')], ['k8s/removed-api@1']);
  assert.match(r.stderr, /this change makes \S*deploy\/app\.yaml fail at 1\.22, 1\.23/);
  assert.doesNotMatch(r.stderr, /not compared/);
});

// Issue #25, 2: nothing of the repository's git configuration runs. Each hook below touches a marker file; a
// hostile .git/config and .gitattributes (a filter with clean and process commands, an fsmonitor hook, a hooks
// folder, a textconv and an external diff driver) and a `git` found through a relative PATH entry.
test('--changed-since and --compare run nothing of the repository: fsmonitor, filters, hooks, diff drivers, a git on a relative PATH entry', (t) => {
  const dir = repo(t);
  const marks = path.join(dir, '..', `${path.basename(dir)}-marks`);
  fs.mkdirSync(marks);
  t.after(() => fs.rmSync(marks, { recursive: true, force: true }));
  const touch = (name) => `touch '${path.join(marks, name)}'`;
  fs.mkdirSync(path.join(dir, 'hooks'));
  for (const h of ['post-index-change', 'reference-transaction', 'fsmonitor-watchman', 'pre-commit']) fs.writeFileSync(path.join(dir, 'hooks', h), `#!/bin/sh\n${touch(`hook-${h}`)}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'fsmon.sh'), `#!/bin/sh\n${touch('fsmonitor')}\necho /\n`, { mode: 0o755 });
  git(dir, 'config', 'core.fsmonitor', path.join(dir, 'fsmon.sh'));
  git(dir, 'config', 'core.hooksPath', path.join(dir, 'hooks'));
  git(dir, 'config', 'filter.evil.clean', `sh -c "${touch('filter-clean')}; cat"`);
  git(dir, 'config', 'filter.evil.smudge', `sh -c "${touch('filter-smudge')}; cat"`);
  git(dir, 'config', 'filter.odd name=x.clean', `sh -c "${touch('filter-odd')}; cat"`);
  git(dir, 'config', 'filter.proc.process', `sh -c "${touch('filter-process')}; exit 1"`);
  git(dir, 'config', 'diff.evil.textconv', `sh -c "${touch('textconv')}; cat \\"$1\\"" -`);
  git(dir, 'config', 'diff.evil.command', `sh -c "${touch('diff-command')}"`);
  git(dir, 'config', 'diff.external', `sh -c "${touch('diff-external')}"`);
  fs.writeFileSync(path.join(dir, '.gitattributes'), '*.yaml filter=evil diff=evil\n*.yml filter=proc\nodd* filter="odd name=x"\n');
  // Stat-dirty every tracked file, so that git must look at their content (the clean filter) to compare them.
  for (const f of ['deploy/multi.yaml', 'deploy/app.yaml', 'deploy/old.yaml', 'deploy/trim.yaml']) fs.utimesSync(path.join(dir, f), new Date(2001, 1, 1), new Date(2001, 1, 1));
  fs.mkdirSync(path.join(dir, 'tools'));
  fs.writeFileSync(path.join(dir, 'tools', 'git'), `#!/bin/sh\n${touch('workspace-git')}\nexit 1\n`, { mode: 0o755 });
  const r = lint(dir, ['--changed-since', 'base', '--compare', '--format', 'json', '.'], { env: { PATH: `tools${path.delimiter}${process.env.PATH}` } });
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  assert.ok(json(r).some((x) => x.filePath.endsWith('app.yaml')), 'the change was read');
  assert.deepEqual(fs.readdirSync(marks), [], 'something of the repository ran');
});

// Issue #25, 2: the repository, not the working folder, is what no git may come from: run from a subfolder, a git in
// another folder of the same repository (named on PATH by an absolute path) is not the one that runs.
test('--changed-since run from a subfolder: a git elsewhere in the repository, on PATH by its absolute path, never runs', (t) => {
  const dir = repo(t);
  const marks = path.join(dir, '..', `${path.basename(dir)}-marks`);
  fs.mkdirSync(marks);
  t.after(() => fs.rmSync(marks, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.writeFileSync(path.join(dir, 'bin', 'git'), `#!/bin/sh\ntouch '${path.join(marks, 'repository-git')}'\nexit 1\n`, { mode: 0o755 });
  const r = lint(path.join(dir, 'deploy'), ['--changed-since', 'base', '--format', 'json', '.'], { env: { PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH}` } });
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(findingsOf(json(r))[path.join(dir, 'deploy/app.yaml')], ['k8s/removed-api@1']);
  assert.deepEqual(fs.readdirSync(marks), [], 'the repository\'s bin/git ran');
});
