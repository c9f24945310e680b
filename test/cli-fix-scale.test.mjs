// lsp-lint --fix at scale (issues #12, #13): kill -9 in the middle of --fix never leaves a corrupt file, and the
// next run leaves no temporary file; fixing N findings in one document takes time linear in N.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
const BAD = 'system_mode: simplex\nkubernetes_version: v1.21.3\n';
const FIXED = 'system_mode: simplex\nkubernetes_version: 1.21.3\n';

function workspace(t) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-fixscale-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const env = () => { const e = { ...process.env }; delete e.SKEWGUARD_SERVER; delete e.NO_COLOR; return e; };

/** Runs lsp-lint --fix in its own process group and kills the whole group with SIGKILL after `ms`. */
function runAndKill(cwd, ms) {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, '--fix', '-f', 'json', '.'], { cwd, env: env(), detached: true, stdio: 'ignore' });
    const timer = setTimeout(() => { try { process.kill(-c.pid, 'SIGKILL'); } catch { /* ended already */ } }, ms);
    c.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal }); });
  });
}

const allFiles = (dir) => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f)).filter((f) => fs.lstatSync(f).isFile());

test('kill -9 during --fix: every file is either the old or the fixed text, and the next run leaves no temporary file', async (t) => {
  const dir = workspace(t);
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'starlingx: { release: "6.0" }\nfiles:\n  "**/*.yml": starlingx\n');
  const N = 600;
  for (let i = 0; i < N; i++) {
    const d = path.join(dir, `site${i % 12}`);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, `host${i}.yml`), BAD);
  }
  // Kill times within the length of a whole --fix run on this machine (measured on a copy), so that they land while
  // it writes however fast lsp-lint is: fixed times (0.4–2 s) came before the first write once lsp-lint got faster.
  const probe = `${dir}-probe`;
  fs.cpSync(dir, probe, { recursive: true });
  const t0 = performance.now();
  spawnSync(process.execPath, [bin, '--fix', '-f', 'json', '.'], { cwd: probe, env: env(), stdio: 'ignore', timeout: 120000 });
  const whole = performance.now() - t0;
  fs.rmSync(probe, { recursive: true, force: true });
  let killed = 0, midWrite = 0;
  const hosts = allFiles(dir).filter((f) => f.endsWith('.yml'));
  for (let k = 0; k < 6; k++) {
    // Every run has the whole work to do (what a killed run left of its temporary files stays).
    for (const f of hosts) fs.writeFileSync(f, BAD);
    const r = await runAndKill(dir, Math.round(whole * (0.3 + Math.random() * 0.65)));
    if (r.signal === 'SIGKILL') killed++;
    let fixed = 0;
    for (const f of allFiles(dir)) {
      if (!f.endsWith('.yml')) continue;
      const text = fs.readFileSync(f, 'utf8');
      assert.ok(text === BAD || text === FIXED, `${f} is corrupt after kill -9: ${JSON.stringify(text)}`);
      if (text === FIXED) fixed++;
    }
    if (r.signal === 'SIGKILL' && fixed > 0 && fixed < N) midWrite++;
  }
  assert.ok(killed >= 3, `only ${killed} runs were killed mid-way; the test did not test anything`);
  assert.ok(midWrite >= 1, 'no run was killed while it wrote its fixes; the test did not test anything');
  const last = spawnSync(process.execPath, [bin, '--fix', '.'], { cwd: dir, env: env(), encoding: 'utf8', timeout: 120000 });
  assert.equal(last.status, 0, last.stdout + last.stderr);
  const files = allFiles(dir);
  assert.deepEqual(files.filter((f) => !f.endsWith('.yml') && !f.endsWith('.skewguard.yaml')), [], 'no temporary file is left');
  for (const f of files) if (f.endsWith('.yml')) assert.equal(fs.readFileSync(f, 'utf8'), FIXED, f);
});

/**
 * Runs lsp-lint and returns the CPU seconds it and its language servers used (each process appends its own
 * process.cpuUsage() once: lsp-lint at exit, a server when it reads the shutdown request, since lsp-lint kills it
 * once that is answered): far less sensitive to a loaded machine than wall-clock time.
 */
function cpuSeconds(dir, args) {
  const log = path.join(dir, 'cpu.log');
  fs.writeFileSync(log, '');
  const note = `let noted = false; const note = () => { if (noted) return; noted = true; const u = process.cpuUsage(); require('fs').appendFileSync(${JSON.stringify(log)}, (u.user + u.system) + '\\n'); };\nprocess.on('exit', note);`;
  const atShutdown = `let tail = ''; process.stdin.on('data', (d) => { tail = (tail + d).slice(-4096); if (tail.includes('"method":"shutdown"')) note(); });`;
  fs.writeFileSync(path.join(dir, 'cpu-server.cjs'), `${note}\n${atShutdown}\nrequire(${JSON.stringify(path.join(repoRoot, 'dist', 'server.js'))});\n`);
  fs.writeFileSync(path.join(dir, 'cpu-lint.cjs'), `${note}\nrequire(${JSON.stringify(bin)});\n`);
  const r = spawnSync(process.execPath, [path.join(dir, 'cpu-lint.cjs'), ...args], { cwd: dir, env: { ...env(), SKEWGUARD_SERVER: path.join(dir, 'cpu-server.cjs') }, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.error, undefined, `${args.join(' ')}: ${r.error}`);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const us = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
  assert.ok(us.length >= 2, 'lsp-lint and its server both reported');
  return us.reduce((a, b) => a + b, 0) / 1e6;
}

test('--fix of a JSON List: N findings are fixed in CPU time linear in N (a ratio of sizes, not a time limit)', (t) => {
  const dir = workspace(t);
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.19..1.22"\n');
  const list = (n) => JSON.stringify({
    apiVersion: 'v1', kind: 'List',
    items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: `i${i}` }, spec: { backend: { serviceName: 's', servicePort: 80 } } })),
  }, null, 2);
  const fix = (n) => {
    const f = `list${n}.json`;
    fs.writeFileSync(path.join(dir, f), list(n));
    const s = cpuSeconds(dir, ['--fix', f]);
    const items = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).items;
    assert.equal(items.length, n);
    assert.ok(items.every((x) => x.apiVersion === 'networking.k8s.io/v1'), `${n} items: not every Ingress was converted`);
    return s;
  };
  const base = fix(1), small = fix(500), large = fix(4000);
  // 8 times the findings: at most 8 times the work when linear (less: part of each run is fixed cost), 64 when
  // quadratic. Measured: 3.8 now, 12.1 before the fix.
  const ratio = (large - base) / Math.max(small - base, 0.05);
  t.diagnostic(`CPU: 1 item ${base.toFixed(2)} s, 500 items ${small.toFixed(2)} s, 4000 items ${large.toFixed(2)} s; ratio ${ratio.toFixed(2)}`);
  assert.ok(ratio < 8, `4000 items took ${large.toFixed(1)} s of CPU, 500 took ${small.toFixed(1)} s (startup ${base.toFixed(1)} s): ratio ${ratio.toFixed(1)}`);
});
