// scripts/import-k8s-served-stable.mjs verifies its rows against the upstream swaggers of the reference folder
// (kubernetes/openapi): a row that disagrees with one fails the run, with the evidence. Run on a scratch copy of the
// script (it writes next to itself), with one row changed; needs the reference folder, as test/data-fresh does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from './helpers/k8s.mjs';

const reference = [process.env.SKEWGUARD_REFERENCE, path.join(repoRoot, '..', 'shared', 'reference'), '/work/shared/reference'].find((d) => d && fs.existsSync(path.join(d, 'kubernetes', 'openapi', 'SOURCES.md')));

function runCopy(t, edit) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-served-stable-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'scripts', 'lib'), { recursive: true });
  const text = fs.readFileSync(path.join(repoRoot, 'scripts', 'import-k8s-served-stable.mjs'), 'utf8');
  fs.writeFileSync(path.join(dir, 'scripts', 'import-k8s-served-stable.mjs'), edit(text));
  fs.copyFileSync(path.join(repoRoot, 'scripts', 'lib', 'reference.mjs'), path.join(dir, 'scripts', 'lib', 'reference.mjs'));
  const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'import-k8s-served-stable.mjs')], { encoding: 'utf8', env: { ...process.env, SKEWGUARD_REFERENCE: reference }, timeout: 120000 });
  const out = path.join(dir, 'data', 'kubernetes', 'served-stable.json');
  return { code: r.status, stderr: r.stderr, written: fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : undefined };
}

test('served-stable rows are verified against the reference swaggers: the shipped rows pass, a wrong one fails with its evidence', (t) => {
  assert.ok(reference, 'the shared reference (../shared/reference or SKEWGUARD_REFERENCE) is needed, as for test/data-fresh');
  const same = runCopy(t, (s) => s);
  assert.equal(same.code, 0, same.stderr);
  assert.equal(same.written, fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'served-stable.json'), 'utf8'));
  // ComponentStatus said removed in 1.30: every swagger from 1.30 on still defines it.
  const wrong = runCopy(t, (s) => s.replace(/("kind": "ComponentStatus",\s*"introduced": "1\.0",\s*"deprecated": "1\.19",\s*"removed": )null/, '$1"1.30"'));
  assert.notEqual(wrong.code, 0);
  assert.equal(wrong.written, undefined);
  assert.match(wrong.stderr, /v1 ComponentStatus at 1\.30: the row says not served, swagger-1\.30\.json\.gz \(sha256 86dce48e9e83 uncompressed\): definition io\.k8s\.api\.core\.v1\.ComponentStatus/);
  assert.match(wrong.stderr, /v1 ComponentStatus at 1\.36: the row says not served/);
});
