// Issue #28 item 6: every data table is what the import scripts write from the reference folder. Runs
// `node scripts/regen-data.mjs --check`: every scripts/import-*.mjs on a scratch copy of the repository (data/ empty,
// ../shared/reference beside it), then every file of data/ (and each fixture an importer copies) compared byte for byte
// with the committed one. Needs the reference folder next to the repository (or SKEWGUARD_REFERENCE) and, for the two
// scripts that read registry packages, their tarballs in the cache outside the repository (os.tmpdir()/skewguard-k8s-fields;
// `npm pack` fills it from the npm registry when one is missing). Run `node scripts/build.mjs` first (the scripts use
// dist/engine.js's version arithmetic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from './helpers/k8s.mjs';

const script = path.join(repoRoot, 'scripts', 'regen-data.mjs');

test('npm run gen:data runs every import script, dependencies first', async () => {
  const { importOrder } = await import(script);
  const order = importOrder(path.join(repoRoot, 'scripts'));
  const all = fs.readdirSync(path.join(repoRoot, 'scripts')).filter((f) => /^import-.+\.mjs$/.test(f));
  assert.deepEqual([...order].sort(), all.sort(), 'globbed: every scripts/import-*.mjs, none listed by hand');
  const before = (a, b) => assert.ok(order.indexOf(a) < order.indexOf(b), `${a} before ${b}`);
  before('import-k8s-fields.mjs', 'import-kubernetes.mjs'); // import-kubernetes reads fields.json
  before('import-k8s-fields.mjs', 'import-k8s-feature-gates.mjs');
  before('import-kata.mjs', 'import-kata-persist.mjs');
  assert.equal(JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts['gen:data'], 'node scripts/regen-data.mjs');
});

test('every shipped data table equals what the import scripts produce from the reference', { timeout: 900_000 }, () => {
  const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8', timeout: 850_000, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.error, undefined, String(r.error));
  const report = (() => { try { return JSON.parse(r.stdout); } catch { return null; } })();
  assert.ok(report, `no report: ${r.stderr.slice(-2000)}`);
  assert.deepEqual(report.scripts.filter((s) => !s.ok), [], r.stderr.slice(-3000));
  assert.deepEqual(report.differ, [], 'regenerate with `npm run gen:data` and commit the tables it writes');
  assert.equal(r.status, 0);
  // it did compare: every table under data/ came from some script
  const tables = [];
  const walk = (d) => { for (const e of fs.readdirSync(path.join(repoRoot, d), { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else tables.push(p); } };
  walk('data');
  assert.ok(tables.length >= 15 && report.scripts.length >= 12, `${tables.length} tables, ${report.scripts.length} scripts`);
});
