// lsp-lint against hostile input and a failing language server (issues #12, #13): ignored named paths, servers that
// crash or stall, failures inside lsp-lint, --fix writing like a careful editor, bounded reads, unreadable folders
// and file names with control characters. Every run is bounded (spawn timeouts); none may hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
const realServer = path.join(repoRoot, 'dist', 'server.js');
assert.ok(fs.existsSync(realServer), 'dist/ is missing: run npm run build first');

const STX6 = 'starlingx: { release: "6.0" }\n';
const BAD = 'system_mode: simplex\nkubernetes_version: v1.21.3\n';
const FIXED = 'system_mode: simplex\nkubernetes_version: 1.21.3\n';
const CLEAN = FIXED;
const NOBODY = 65534;
const asNobody = fs.existsSync('/usr/bin/setpriv') && process.getuid?.() === 0;

function workspace(t, files = {}) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-hostile-')));
  t.after(() => { try { execFileSync('chmod', ['-R', 'u+rwX', dir]); } catch { /* */ } fs.rmSync(dir, { recursive: true, force: true }); });
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

/** Runs lsp-lint; `timeout` bounds it (a hang fails the test instead of the suite). */
function lint(cwd, args, { env = {}, input, stdio, timeout = 30000, nobody = false } = {}) {
  const e = { ...process.env, ...env };
  delete e.NO_COLOR;
  if (!env.SKEWGUARD_SERVER) delete e.SKEWGUARD_SERVER;
  const cmd = nobody ? '/usr/bin/setpriv' : process.execPath;
  const argv = nobody ? [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, bin, ...args] : [bin, ...args];
  const r = spawnSync(cmd, argv, { cwd, input, stdio, encoding: 'utf8', env: e, timeout, maxBuffer: 64 << 20 });
  assert.equal(r.error?.code, undefined, `lsp-lint did not end within ${timeout} ms (or failed to start): ${r.error}\n${r.stderr}`);
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const lintJson = (cwd, args, opts) => { const r = lint(cwd, ['-f', 'json', ...args], opts); return { ...r, reports: JSON.parse(r.stdout) }; };

/**
 * A language server that is the real one, except that it crashes (CRASH-ME), stops itself with SIGSTOP (STOP-ME),
 * never answers `initialize` (env HANG_INIT), stops when asked to shut down (env STOP_ON_SHUTDOWN), dies then (env DIE_ON_SHUTDOWN), plants a symlink at the temporary name older lsp-lint versions used
 * (PLANT-ME), or changes the file it is sent (MUTATE-ME), when it sees the marker in what it is sent. Each server's pid is appended to `pids`.
 */
function fakeServer(dir) {
  const p = path.join(dir, 'fake-server.cjs');
  fs.writeFileSync(p, `
const fs = require('fs'), path = require('path');
fs.appendFileSync(${JSON.stringify(path.join(dir, 'pids'))}, process.pid + '\\n');
if (process.env.HANG_INIT) { process.stdin.on('data', () => {}); setInterval(() => {}, 1000); return; }
const mutated = new Set();
process.stdin.on('data', (c) => {
  const s = c.toString('latin1');
  if (s.includes('CRASH-ME')) process.kill(process.pid, 'SIGKILL');
  if (s.includes('STOP-ME') || (process.env.STOP_ON_SHUTDOWN && s.includes('"method":"shutdown"'))) process.kill(process.pid, 'SIGSTOP');
  if (process.env.DIE_ON_SHUTDOWN && s.includes('"method":"shutdown"')) process.kill(process.pid, 'SIGKILL');
  const plant = /PLANT-ME (\\S+) (\\S+) END/.exec(s);
  if (plant) { try { fs.symlinkSync(plant[2], path.join(path.dirname(plant[1]), '.' + path.basename(plant[1]) + '.skewguard-' + process.ppid + '.tmp')); } catch {} }
  const mutate = /MUTATE-ME (\\S+) END/.exec(s);
  if (mutate && !mutated.has(mutate[1])) { mutated.add(mutate[1]); fs.appendFileSync(mutate[1], '# changed meanwhile\\n'); }
});
require(${JSON.stringify(realServer)});
`);
  return p;
}
const pidsOf = (dir) => fs.readFileSync(path.join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const ruleIdsOf = (reports, file) => reports.find((r) => r.filePath === file)?.messages.map((m) => m.ruleId);

// ---- 1. named paths that .gitignore or ignore: excludes ----

test('#1 a named folder that .gitignore excludes is checked; one whose files are all ignored is warned about, and checking nothing exits 2', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': STX6, '.gitignore': 'rendered/\n', 'rendered/localhost.yml': BAD,
    'site/.gitignore': '*.yml\n', 'site/localhost.yml': BAD, 'empty/README.md': 'no yaml here\n',
  });
  const named = lintJson(dir, ['rendered']);
  assert.equal(named.code, 1, named.stderr);
  assert.deepEqual(ruleIdsOf(named.reports, path.join(dir, 'rendered', 'localhost.yml')), ['starlingx/kubernetes-version-v-prefix']);
  // The walk of the whole repository still leaves the ignored folder out.
  const all = lintJson(dir, ['.']);
  assert.ok(!all.reports.some((r) => r.filePath.includes('rendered')), JSON.stringify(all.reports.map((r) => r.filePath)));

  const ignored = lintJson(dir, ['site']);
  assert.equal(ignored.code, 2, 'nothing was checked');
  const note = ignored.reports.find((r) => r.filePath === path.join(dir, 'site'));
  assert.ok(note, JSON.stringify(ignored.reports));
  assert.equal(note.messages[0].severity, 'warning');
  assert.match(note.messages[0].message, /ignored.*--no-ignore/);
  assert.match(ignored.stderr, /no file was checked/);
  const stylish = lint(dir, ['site']);
  assert.doesNotMatch(stylish.stdout, /✔ 0 files checked/);
  const glob = lintJson(dir, ['site/*.yml']);
  assert.equal(glob.code, 2);
  assert.match(glob.reports[0].messages[0].message, /all 1 files matching site\/\*\.yml are ignored.*--no-ignore/);
  const forced = lintJson(dir, ['--no-ignore', 'site']);
  assert.equal(forced.code, 1);
  assert.deepEqual(ruleIdsOf(forced.reports, path.join(dir, 'site', 'localhost.yml')), ['starlingx/kubernetes-version-v-prefix']);

  const none = lint(dir, ['empty']);
  assert.equal(none.code, 2, 'a run that checks no file does not pass');
  assert.match(none.stderr, /no file was checked/);
});

// ---- 2. a language server that dies or stalls ----

test('#2 a server that crashes is restarted once; the files it did not answer for are reported as skewguard/internal-error in every format', (t) => {
  const files = { '.skewguard.yaml': STX6 };
  for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}/localhost.yml`] = i === 0 ? `# CRASH-ME\n${CLEAN}` : CLEAN;
  const dir = workspace(t, files);
  const env = { SKEWGUARD_SERVER: fakeServer(dir) };
  const r = lintJson(dir, ['-j', '1', '.'], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.reports.length, 40, 'every file is in the report');
  const crashed = r.reports.find((x) => x.filePath.endsWith(`f00${path.sep}localhost.yml`));
  assert.deepEqual(crashed.messages.map((m) => [m.ruleId, m.severity, m.line]), [['skewguard/internal-error', 'error', 1]]);
  assert.match(crashed.messages[0].message, /not checked: the language server exited unexpectedly/);
  const checked = r.reports.filter((x) => !x.messages.length);
  assert.ok(checked.length >= 40 - 16, `the restarted server checked the rest: ${checked.length}`);
  assert.match(r.stderr, /starting a new one/);
  assert.match(r.stderr, /not checked.*f00/);
  assert.ok(pidsOf(dir).every((p) => !alive(p)), 'no server is left running');

  for (const [fmt, pattern] of [['stylish', /skewguard\/internal-error/], ['sarif', /"ruleId": "skewguard\/internal-error"/], ['github', /::error file=f00\/localhost\.yml,line=1.*title=skewguard\/internal-error/], ['gitlab', /"check_name": "skewguard\/internal-error"/]]) {
    const o = lint(dir, ['-j', '1', '-f', fmt, 'f00', 'f01'], { env });
    assert.equal(o.code, 2, `${fmt}: ${o.stderr}`);
    assert.match(o.stdout, pattern, fmt);
  }
});

test('#2 a server that fails again after its restart: the remaining files are reported as not checked, none dropped', (t) => {
  const files = { '.skewguard.yaml': STX6 };
  for (let i = 0; i < 40; i++) files[`f${String(i).padStart(2, '0')}.yml`] = i === 0 || i === 20 ? `# CRASH-ME\n${CLEAN}` : CLEAN;
  const dir = workspace(t, files);
  const r = lintJson(dir, ['-j', '1', '.'], { env: { SKEWGUARD_SERVER: fakeServer(dir) } });
  assert.equal(r.code, 2);
  assert.equal(r.reports.length, 40);
  const unchecked = r.reports.filter((x) => x.messages.some((m) => m.ruleId === 'skewguard/internal-error'));
  assert.ok(unchecked.some((x) => x.filePath.endsWith('f20.yml')) && unchecked.some((x) => x.filePath.endsWith('f39.yml')), JSON.stringify(unchecked.map((x) => x.filePath)));
  assert.ok(pidsOf(dir).every((p) => !alive(p)));
});

test('#2 a server stopped with SIGSTOP is given up after --timeout, killed, and its file named; one that never starts ends the run with exit 2', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'a.yml': CLEAN, 'stop.yml': `# STOP-ME\n${CLEAN}`, 'z.yml': CLEAN });
  const env = { SKEWGUARD_SERVER: fakeServer(dir) };
  const r = lintJson(dir, ['-j', '1', '--timeout', '1', 'stop.yml', 'z.yml'], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(ruleIdsOf(r.reports, path.join(dir, 'stop.yml')), ['skewguard/internal-error']);
  assert.match(r.reports.find((x) => x.filePath.endsWith('stop.yml')).messages[0].message, /no answer within 1 s/);
  assert.match(r.stderr, /not checked.*stop\.yml/);
  assert.ok(pidsOf(dir).every((p) => !alive(p)), 'the stopped server was killed');

  fs.writeFileSync(path.join(dir, 'pids'), '');
  const noShutdown = lint(dir, ['a.yml'], { env: { ...env, STOP_ON_SHUTDOWN: '1' } });
  assert.equal(noShutdown.code, 0, 'a server that does not answer shutdown is killed; the run itself passed');
  assert.ok(pidsOf(dir).every((p) => !alive(p)), 'and it is not left behind');

  // Issue #25, 10: a server that dies while its shutdown request is pending is never a clean run.
  fs.writeFileSync(path.join(dir, 'pids'), '');
  for (const args of [['a.yml'], ['-f', 'json', 'a.yml', 'z.yml']]) {
    const died = lint(dir, args, { env: { ...env, DIE_ON_SHUTDOWN: '1' } });
    assert.equal(died.code, 2, `${args}: ${died.stderr}`);
    assert.match(died.stderr, /the language server died while shutting down \(signal SIGKILL\)/);
  }
  assert.ok(pidsOf(dir).every((p) => !alive(p)));

  fs.writeFileSync(path.join(dir, 'pids'), '');
  const never = lint(dir, ['--timeout', '1', 'a.yml'], { env: { ...env, HANG_INIT: '1' } });
  assert.equal(never.code, 2);
  assert.match(never.stderr, /language server did not start: the language server gave no answer within 1 s/);
  assert.ok(pidsOf(dir).every((p) => !alive(p)));

  const bad = lint(dir, ['--timeout', '0', 'a.yml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout takes a number of seconds/);
});

// ---- 3. failures inside lsp-lint ----

test('#3 -o into a missing folder, a glob over 65,536 characters: a clear message and exit 2, promptly', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  const o = lint(dir, ['-o', '/nonexistent/dir/x', 'localhost.yml'], { timeout: 15000 });
  assert.equal(o.code, 2);
  assert.match(o.stderr, /cannot write the report to \/nonexistent\/dir\/x: ENOENT/);
  assert.doesNotMatch(o.stderr, /internal error/);
  const g = lint(dir, [`${'a'.repeat(70000)}*.yml`], { timeout: 15000 });
  assert.equal(g.code, 2);
  assert.match(g.stderr, /cannot use a{80}… \(70005 characters\): .*exceeds maximum allowed length/);
  assert.ok(g.stderr.length < 2000, 'the pattern is not echoed whole');
});

test('#3 --fix of a file with a 245-byte name works (the temporary name is shortened)', (t) => {
  const name = `${'n'.repeat(237)}-lh.yaml`;
  assert.equal(Buffer.byteLength(name), 245);
  const dir = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\nfiles:\n  "**/*-lh.yaml": starlingx\n', [name]: BAD });
  const r = lint(dir, ['--fix', name], { timeout: 15000 });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(fs.readFileSync(path.join(dir, name), 'utf8'), FIXED);
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('#3 a FIFO, a device and a socket named as paths are reported as not checked, without blocking', async (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  execFileSync('mkfifo', [path.join(dir, 'pipe.yml')]);
  const server = net.createServer();
  await new Promise((resolve) => server.listen(path.join(dir, 'sock.yml'), resolve));
  t.after(() => server.close());
  const r = lintJson(dir, ['pipe.yml', '/dev/zero', 'sock.yml', 'localhost.yml'], { timeout: 15000 });
  assert.equal(r.code, 2);
  const fifo = r.reports.find((x) => x.filePath === path.join(dir, 'pipe.yml')).messages;
  assert.deepEqual(fifo.map((m) => [m.ruleId, m.line]), [['skewguard/skipped-file', 1]]);
  assert.match(fifo[0].message, /not checked: a FIFO, not a regular file/);
  assert.match(r.reports.find((x) => x.filePath === '/dev/zero').messages[0].message, /not checked: a character device/);
  assert.match(r.reports.find((x) => x.filePath === path.join(dir, 'sock.yml')).messages[0].message, /not checked: a socket/);
  assert.match(r.stderr, /not checked or not written: .*pipe\.yml/);
  assert.deepEqual(ruleIdsOf(r.reports, path.join(dir, 'localhost.yml')), [], 'the regular file is still checked');
});

test('#3 --fix in a folder that cannot be written: that file is reported, the others are fixed, exit 2', { skip: !asNobody && 'needs root and setpriv to run as nobody' }, (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'ro/localhost.yml': BAD, 'rw/localhost.yml': BAD });
  fs.chmodSync(dir, 0o755);
  execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
  fs.chmodSync(path.join(dir, 'ro'), 0o555);
  const r = lintJson(dir, ['--fix', 'ro', 'rw'], { nobody: true, timeout: 15000 });
  assert.equal(r.code, 2, r.stderr);
  const ro = r.reports.find((x) => x.filePath === path.join(dir, 'ro', 'localhost.yml'));
  assert.equal(ro.messages[0].ruleId, 'skewguard/internal-error');
  assert.match(ro.messages[0].message, /not fixed: writing the file failed: EACCES/);
  assert.equal(fs.readFileSync(path.join(dir, 'ro', 'localhost.yml'), 'utf8'), BAD);
  assert.equal(fs.readFileSync(path.join(dir, 'rw', 'localhost.yml'), 'utf8'), FIXED);
});

// ---- 4. --fix writes like a careful editor ----

test('#4 --fix: a symlink stays a link, hard links are kept (file left alone), mode kept through umask, owner kept, read-only left alone', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': 'starlingx: { release: "6.0" }\nfiles:\n  "**/*.yml": starlingx\n',
    'real/target.yml': BAD, 'hard.yml': BAD, 'shared.yml': BAD, 'ro.yml': BAD, 'owned.yml': BAD,
  });
  fs.symlinkSync(path.join(dir, 'real', 'target.yml'), path.join(dir, 'link.yml'));
  fs.linkSync(path.join(dir, 'hard.yml'), path.join(dir, 'other-name.txt'));
  fs.chmodSync(path.join(dir, 'shared.yml'), 0o666);
  fs.chmodSync(path.join(dir, 'ro.yml'), 0o444);
  if (process.getuid?.() === 0) fs.chownSync(path.join(dir, 'owned.yml'), NOBODY, NOBODY);
  const stROBefore = fs.statSync(path.join(dir, 'ro.yml'));
  const r = spawnSync('/bin/sh', ['-c', 'umask 022; exec "$0" "$@"', process.execPath, bin, '-f', 'json', '--fix', 'link.yml', 'hard.yml', 'shared.yml', 'ro.yml', 'owned.yml'], { cwd: dir, encoding: 'utf8', timeout: 30000 });
  const reports = JSON.parse(r.stdout);
  const msgs = (f) => reports.find((x) => x.filePath === path.join(dir, f)).messages;

  assert.ok(fs.lstatSync(path.join(dir, 'link.yml')).isSymbolicLink(), 'the link stays a link');
  assert.equal(fs.readFileSync(path.join(dir, 'real', 'target.yml'), 'utf8'), FIXED, 'its target is fixed');

  assert.equal(fs.readFileSync(path.join(dir, 'hard.yml'), 'utf8'), BAD, 'a file with two names is left alone');
  assert.equal(fs.statSync(path.join(dir, 'hard.yml')).ino, fs.statSync(path.join(dir, 'other-name.txt')).ino, 'the hard link is not split');
  assert.match(msgs('hard.yml')[0].message, /not fixed: the file has 2 hard links/);
  assert.equal(msgs('hard.yml')[0].severity, 'warning');
  assert.ok(msgs('hard.yml').some((m) => m.ruleId === 'starlingx/kubernetes-version-v-prefix'), 'what the file on disk holds is reported');

  assert.equal(fs.readFileSync(path.join(dir, 'shared.yml'), 'utf8'), FIXED);
  assert.equal(fs.statSync(path.join(dir, 'shared.yml')).mode & 0o777, 0o666, 'mode 666 kept, not 644 through the umask');

  assert.equal(fs.readFileSync(path.join(dir, 'ro.yml'), 'utf8'), BAD);
  assert.equal(fs.statSync(path.join(dir, 'ro.yml')).mtimeMs, stROBefore.mtimeMs);
  assert.match(msgs('ro.yml')[0].message, /not fixed: the file is read-only \(mode 0444\)/);

  assert.equal(fs.readFileSync(path.join(dir, 'owned.yml'), 'utf8'), FIXED);
  if (process.getuid?.() === 0) assert.equal(fs.statSync(path.join(dir, 'owned.yml')).uid, NOBODY, 'the owner is kept');
  assert.equal(r.status, 1, 'the files left alone still hold their error');
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('#4 --fix leaves a file that is not valid UTF-8 alone: its other bytes would be written back as U+FFFD', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6 });
  const bad = Buffer.concat([Buffer.from(`# caf`), Buffer.from([0xe9]), Buffer.from(`\n${BAD}`)]);
  fs.writeFileSync(path.join(dir, 'localhost.yml'), bad);
  fs.writeFileSync(path.join(dir, 'ok.yml'), BAD);
  const r = lintJson(dir, ['--fix', 'localhost.yml']);
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(fs.readFileSync(path.join(dir, 'localhost.yml')), bad, 'not a byte changed');
  const m = r.reports[0].messages;
  assert.match(m[0].message, /^not fixed: the file is not valid UTF-8/);
  assert.equal(m[0].severity, 'warning');
  assert.ok(m.some((x) => x.ruleId === 'starlingx/kubernetes-version-v-prefix'), 'what the file holds is reported');
});

test('#4 --fix never follows a planted symlink at a temporary name, and skips a file changed since it was read', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'victim.txt': 'precious\n' });
  const lh = path.join(dir, 'localhost.yml');
  fs.writeFileSync(lh, `# PLANT-ME ${lh} ${path.join(dir, 'victim.txt')} END\n${BAD}`);
  const mutated = path.join(dir, 'site', 'localhost.yml');
  fs.mkdirSync(path.dirname(mutated));
  fs.writeFileSync(mutated, `# MUTATE-ME ${mutated} END\n${BAD}`);
  const r = lintJson(dir, ['--fix', 'localhost.yml', 'site/localhost.yml'], { env: { SKEWGUARD_SERVER: fakeServer(dir) } });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(fs.readFileSync(mutated, 'utf8'), `# MUTATE-ME ${mutated} END\n${BAD}# changed meanwhile\n`, 'the change made meanwhile is kept');
  const m = r.reports.find((x) => x.filePath === mutated).messages;
  assert.match(m[0].message, /not fixed: the file changed since it was read/);
  assert.equal(fs.readFileSync(path.join(dir, 'victim.txt'), 'utf8'), 'precious\n', 'the target of the planted link is untouched');
  assert.ok(fs.lstatSync(lh).isFile() && !fs.lstatSync(lh).isSymbolicLink(), 'the file did not become a link');
  assert.match(fs.readFileSync(lh, 'utf8'), /kubernetes_version: 1\.21\.3/);
  const planted = fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'));
  assert.equal(planted.length, 1, 'the planted link was there (the test did plant it)');
  assert.equal(fs.readlinkSync(path.join(dir, planted[0])), path.join(dir, 'victim.txt'), 'and is left as it was');
});

test('#4 --fix removes temporary files of killed runs (exact pattern, dead pid only) and keeps everything else', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'localhost.yml': CLEAN });
  // A pid that is not running: a child that has exited.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  assert.ok(!alive(Number(dead)));
  const names = {
    stale: `.localhost.yml.skewguard-${dead}-0123456789ab.tmp`,
    staleOld: `.localhost.yml.skewguard-${dead}.tmp`,
    live: `.localhost.yml.skewguard-${process.pid}-0123456789ab.tmp`,
    nearMiss: `.localhost.yml.skewguard-${dead}-0123456789ab.tmp.bak`,
    other: `localhost.yml.skewguard-${dead}-0123456789ab.tmp`,
  };
  for (const n of Object.values(names)) fs.writeFileSync(path.join(dir, n), 'x');
  const r = lint(dir, ['--fix', '.']);
  assert.equal(r.code, 0, r.stderr);
  const left = new Set(fs.readdirSync(dir));
  assert.ok(!left.has(names.stale) && !left.has(names.staleOld), 'stale temporaries removed');
  for (const k of ['live', 'nearMiss', 'other']) assert.ok(left.has(names[k]), `${k} kept`);
  // Without --fix nothing is removed.
  fs.writeFileSync(path.join(dir, names.stale), 'x');
  lint(dir, ['.']);
  assert.ok(fs.existsSync(path.join(dir, names.stale)));
});

// ---- 5. every read bounded ----

test('#5 standard input from /dev/zero is read up to the size limit and reported as larger than it', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6 });
  const zero = fs.openSync('/dev/zero', 'r');
  t.after(() => fs.closeSync(zero));
  const r = lintJson(dir, ['--stdin-filename', 'localhost.yml'], { stdio: [zero, 'pipe', 'pipe'], timeout: 30000 });
  assert.equal(r.reports.length, 1);
  assert.deepEqual(r.reports[0].messages.map((m) => m.ruleId), ['skewguard/skipped-file']);
  assert.match(r.reports[0].messages[0].message, /not checked: larger than the 20 MB limit/);
});

// ---- 6. unreadable folders ----

test('#6 an unreadable folder, and an unreadable root, are reported with the reason and exit 2', { skip: !asNobody && 'needs root and setpriv to run as nobody' }, (t) => {
  const dir = workspace(t, { '.skewguard.yaml': STX6, 'ok/localhost.yml': CLEAN, 'locked/localhost.yml': BAD });
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(path.join(dir, 'locked'), 0o000);
  const r = lintJson(dir, ['.'], { nobody: true });
  assert.equal(r.code, 2, r.stderr);
  const locked = r.reports.find((x) => x.filePath === path.join(dir, 'locked'));
  assert.ok(locked, JSON.stringify(r.reports.map((x) => x.filePath)));
  assert.match(locked.messages[0].message, /folder not read: EACCES: permission denied/);
  assert.deepEqual(ruleIdsOf(r.reports, path.join(dir, 'ok', 'localhost.yml')), []);
  const root = lint(dir, ['locked'], { nobody: true });
  assert.equal(root.code, 2);
  assert.match(root.stdout, /locked\n.*folder not read: EACCES/);
  assert.doesNotMatch(root.stdout, /0 files checked/);
});

// ---- 7. file names with control characters ----

test('#7 file names with ESC and newline are escaped in stylish and github output; -- ends the options', (t) => {
  const esc = 'bad\u001b[2J\u001b[31m.yml', nl = 'two\nlines.yml', dash = '-dash.yml';
  const dir = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\nfiles:\n  "**/*.yml": starlingx\n', [esc]: BAD, [nl]: BAD, [dash]: BAD });
  const s = lint(dir, ['--no-color', '--', esc, nl, dash]);
  assert.equal(s.code, 1, s.stderr);
  assert.ok(!s.stdout.includes('\u001b'), JSON.stringify(s.stdout));
  assert.match(s.stdout, /^bad\\x1b\[2J\\x1b\[31m\.yml$/m);
  assert.match(s.stdout, /^two\\nlines\.yml$/m);
  assert.match(s.stdout, /^-dash\.yml$/m);
  const g = lint(dir, ['-f', 'github', '--', esc, nl]);
  assert.ok(!g.stdout.includes('\u001b'));
  assert.equal(g.stdout.trim().split('\n').length, 2, 'one line per annotation');
  assert.match(g.stdout, /file=two%0Alines\.yml/);
  const opt = lint(dir, [dash]);
  assert.equal(opt.code, 2, 'without --, a leading dash is an option');
});

test('standard output that goes away (EPIPE, as `| head` does) or is full (ENOSPC): said on stderr and exit 2, never a crash', async (t) => {
  const dir = workspace(t, { 'localhost.yml': BAD, '.skewguard.yaml': STX6 });
  // A reader that leaves at once: the report's write fails with EPIPE.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [bin, '--format', 'json', '.'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 2, err);
  assert.doesNotMatch(err, /Unhandled|throw er|at WriteWrap/);
  assert.match(err, /the report could not be written to standard output \(EPIPE\): not all of it was delivered/);
  // A full disk.
  if (fs.existsSync('/dev/full')) {
    const fd = fs.openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [bin, '--format', 'json', '.'], { cwd: dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 30000 });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /the report could not be written to standard output \(ENOSPC\)/);
      assert.doesNotMatch(r.stderr, /Unhandled|throw er/);
    } finally { fs.closeSync(fd); }
  }
  // A reader that stays: the run's own exit code (a finding: 1), nothing said.
  const r = spawnSync(process.execPath, [bin, '--format', 'json', '.'], { cwd: dir, encoding: 'utf8', timeout: 30000 });
  assert.equal(r.status, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /could not be written/);
});
