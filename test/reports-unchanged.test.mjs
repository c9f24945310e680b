// Reports unchanged (issue #30 item 6): what lsp-lint reports on examples/ and on every fixture folder under
// test/fixtures/ must stay byte-identical to the goldens in test/snapshots/reports/, so that a change of the code's
// shape (moving a family into one folder, generating the core from the registry) is proven to change no report.
// Each run is the real CLI (bin/lsp-lint.js, its servers, the walk, the window resolution of each file), in JSON
// (and, for examples/, SARIF too: its rule table comes from the rule registry). Normalised only where a run differs
// by where or what it runs: the checkout's absolute path becomes <repo> and package.json's version "<version>".
// Nothing else is normalised: the text compared is lsp-lint's standard output, its exit code and its standard error.
//
// The rule fixtures run here with lsp-lint's own defaults (the folder's .skewguard.yaml if any, the file's real
// path); each case's own options, `as` path and fixes are compared byte-for-byte by test/rule-fixtures.test.mjs.
//
// Regenerate on purpose (a message changed, a fixture was added) with ONE command and review the diff:
//
//   npm run build --silent && UPDATE_SNAPSHOTS=1 node --test test/reports-unchanged.test.mjs
//
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const GOLDEN = path.join(repoRoot, 'test', 'snapshots', 'reports');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const version = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;

/** Every folder of test/fixtures/ (each run alone, so a difference names its folder), and examples/. */
const fixtureDirs = fs.readdirSync(path.join(repoRoot, 'test', 'fixtures'), { withFileTypes: true })
  .filter((d) => d.isDirectory()).map((d) => d.name).sort();
const RUNS = [
  { name: 'examples.json', args: ['examples/', '--format', 'json'] },
  { name: 'examples.sarif', args: ['examples/', '--format', 'sarif'] },
  ...fixtureDirs.map((d) => ({ name: `fixtures-${d}.json`, args: [`test/fixtures/${d}/`, '--format', 'json'] })),
];

/** The environment without our variables that change a run (SKEWGUARD_FAULT and the like); the code cache changes no report. */
function cleanEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('SKEWGUARD_') && k !== 'SKEWGUARD_CACHE_DIR') delete env[k];
  return env;
}

function normalise(text) {
  return text.split(repoRoot).join('<repo>').split(`"${version}"`).join('"<version>"');
}

function lint(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/lsp-lint.js', ...args], { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 600_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : String(err.code ?? err.signal)) : 0, stdout, stderr }));
  });
}

for (const run of RUNS) {
  test(`lsp-lint ${run.args.join(' ')}: the report is byte-identical to test/snapshots/reports/${run.name}`, async () => {
    const { code, stdout, stderr } = await lint(run.args);
    const report = normalise(stdout);
    const meta = `exit ${code}\n${normalise(stderr)}`;
    const reportFile = path.join(GOLDEN, run.name);
    const metaFile = `${reportFile}.exit.txt`;
    if (UPDATE) {
      fs.mkdirSync(GOLDEN, { recursive: true });
      fs.writeFileSync(reportFile, report);
      fs.writeFileSync(metaFile, meta);
      return;
    }
    assert.ok(fs.existsSync(reportFile), `no golden: run UPDATE_SNAPSHOTS=1 node --test test/reports-unchanged.test.mjs`);
    assert.ok(report.length > 0, 'lsp-lint printed no report');
    assert.equal(meta, fs.readFileSync(metaFile, 'utf8'), `exit code or standard error differ from ${path.relative(repoRoot, metaFile)}`);
    // A string compare, so that a difference shows as a diff of the first lines that differ, not as a whole file.
    const expected = fs.readFileSync(reportFile, 'utf8');
    if (report !== expected) {
      const a = report.split('\n');
      const b = expected.split('\n');
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      assert.fail(`${run.name}: the report differs from the golden from line ${i + 1}:\n` +
        `  golden: ${b.slice(Math.max(0, i - 3), i + 3).join('\n          ')}\n  now:    ${a.slice(Math.max(0, i - 3), i + 3).join('\n          ')}`);
    }
  });
}

test('the goldens are exactly the runs above (none left over from a folder that is gone)', () => {
  const expected = RUNS.flatMap((r) => [r.name, `${r.name}.exit.txt`]).sort();
  if (UPDATE) {
    for (const f of fs.readdirSync(GOLDEN)) if (!expected.includes(f)) fs.rmSync(path.join(GOLDEN, f));
    return;
  }
  assert.deepEqual(fs.readdirSync(GOLDEN).sort(), expected);
});
