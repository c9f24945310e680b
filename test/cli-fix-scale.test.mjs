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
  let killed = 0;
  for (let k = 0; k < 6; k++) {
    const r = await runAndKill(dir, 400 + Math.floor(Math.random() * 1600));
    if (r.signal === 'SIGKILL') killed++;
    for (const f of allFiles(dir)) {
      if (!f.endsWith('.yml')) continue;
      const text = fs.readFileSync(f, 'utf8');
      assert.ok(text === BAD || text === FIXED, `${f} is corrupt after kill -9: ${JSON.stringify(text)}`);
    }
  }
  assert.ok(killed >= 3, `only ${killed} runs were killed mid-way; the test did not test anything`);
  const last = spawnSync(process.execPath, [bin, '--fix', '.'], { cwd: dir, env: env(), encoding: 'utf8', timeout: 120000 });
  assert.equal(last.status, 0, last.stdout + last.stderr);
  const files = allFiles(dir);
  assert.deepEqual(files.filter((f) => !f.endsWith('.yml') && !f.endsWith('.skewguard.yaml')), [], 'no temporary file is left');
  for (const f of files) if (f.endsWith('.yml')) assert.equal(fs.readFileSync(f, 'utf8'), FIXED, f);
});

test('--fix of a JSON List: N findings are fixed in time linear in N (ratio of sizes, not wall-clock)', (t) => {
  const dir = workspace(t);
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.19..1.22"\n');
  const list = (n) => JSON.stringify({
    apiVersion: 'v1', kind: 'List',
    items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: `i${i}` }, spec: { backend: { serviceName: 's', servicePort: 80 } } })),
  }, null, 2);
  const timed = (n) => {
    const f = path.join(dir, `list${n}.json`);
    fs.writeFileSync(f, list(n));
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [bin, '--fix', f], { cwd: dir, env: env(), encoding: 'utf8', timeout: 90000 });
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    assert.equal(r.error, undefined, `${n} items: ${r.error}`);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const items = JSON.parse(fs.readFileSync(f, 'utf8')).items;
    assert.equal(items.length, n);
    assert.ok(items.every((x) => x.apiVersion === 'networking.k8s.io/v1'), `${n} items: not every Ingress was converted`);
    return s;
  };
  const base = timed(1), small = timed(600), large = timed(2400);
  // 4 times the findings: about 4 times the work when linear, 16 times when quadratic.
  const ratio = (large - base) / Math.max(small - base, 0.05);
  assert.ok(ratio < 8, `2400 items took ${large.toFixed(1)} s, 600 took ${small.toFixed(1)} s (startup ${base.toFixed(1)} s): ratio ${ratio.toFixed(1)}`);
});
