// Issue #29: the editor server's memory policy for big files (server/src/server/memory.ts), built alone with the V8
// flags it sets and the full collections it asks for recorded. Keystrokes in a big file grow the heap slowly (and one
// collection sets the limit by the slow factor at once); a big file opened gets V8's own growth back for its first
// check, without incremental marking until the next edit or close; a big file closed is collected; lsp-lint's server
// (the policy not enabled) keeps V8's defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { loadSource } from './helpers/source-module.mjs';

const require = createRequire(import.meta.url);

async function load() {
  const log = [];
  const v8 = { setFlagsFromString: (f) => log.push(f) };
  const vm = { runInNewContext: (code) => (code.includes('gc') && log.includes('--expose-gc') ? () => log.push('gc') : null) };
  const m = await loadSource('server/src/server/memory.ts', { require: (x) => (x === 'node:v8' ? v8 : x === 'node:vm' ? vm : require(x)) });
  return { m, log };
}

test('#29 memory policy: slow heap growth only while a big file is edited, V8\'s own for a big file\'s first check', async () => {
  const { m, log } = await load();
  const big = m.BIG_DOCUMENT_CHARS + 1, small = 1000, huge = m.HUGE_DOCUMENT_CHARS + 1;
  // lsp-lint's server: nothing is set or collected, whatever happens.
  m.documentEdited(big); m.documentOpened(big); m.documentClosed(big); m.documentOpened(huge);
  assert.deepEqual(log, []);
  m.enableEditorMemoryPolicy();
  assert.deepEqual(log, ['--expose-gc']);
  m.documentEdited(small);
  assert.equal(m.slowHeapGrowth(), false, 'a small file\'s keystrokes change nothing');
  assert.equal(log.length, 1);
  m.documentEdited(big);
  assert.equal(m.slowHeapGrowth(), true);
  assert.deepEqual(log.slice(1), ['--heap-growing-percent=100', 'gc'], 'slow growth, and one collection that sets the limit by it');
  m.documentEdited(big);
  assert.equal(log.length, 3, 'the next keystrokes set nothing and collect nothing');
  m.documentOpened(small);
  assert.equal(m.slowHeapGrowth(), true, 'a small file opened changes nothing');
  assert.equal(log.length, 3);
  m.documentOpened(big);
  assert.equal(m.slowHeapGrowth(), false);
  assert.equal(m.atomicHeapMarking(), true);
  assert.deepEqual(log.slice(3), ['--heap-growing-percent=0', '--no-incremental-marking'], 'a big file\'s first check: V8\'s own factor, no incremental marking');
  m.documentOpened(big);
  assert.equal(log.length, 5, 'another big file opened meanwhile: already set');
  m.documentClosed(small);
  assert.equal(log.length, 5);
  m.documentClosed(big);
  assert.deepEqual(log.slice(5), ['gc', '--incremental-marking'], 'a big file closed is collected (one collection: no marking in progress), then marking is incremental again');
  assert.equal(m.atomicHeapMarking(), false);
  m.documentClosed(big);
  assert.deepEqual(log.slice(7), ['gc'], 'incremental already');
  // An edit anywhere gives incremental marking back (short pauses for keystrokes).
  m.documentOpened(big);
  assert.deepEqual(log.slice(8), ['--no-incremental-marking']);
  m.documentEdited(small);
  assert.deepEqual(log.slice(9), ['--incremental-marking']);
  assert.equal(m.slowHeapGrowth(), false, 'a small file\'s edit does not slow growth');
  // A huge file (a CRD bundle) is checked with slow growth too, and incremental marking: its analysis holds many times its text.
  m.documentOpened(big);
  m.documentOpened(huge);
  assert.equal(m.slowHeapGrowth(), true);
  assert.equal(m.atomicHeapMarking(), false);
  assert.deepEqual(log.slice(10), ['--no-incremental-marking', '--incremental-marking', '--heap-growing-percent=100', 'gc']);
  m.documentOpened(huge);
  m.documentEdited(big);
  assert.equal(log.length, 14, 'already slow: nothing more');
  m.documentOpened(big);
  assert.deepEqual(log.slice(14), ['--heap-growing-percent=0', '--no-incremental-marking']);
});

// The flags the policy sets at run time take effect in this Node's V8 (the claim above rests on it): in a child process,
// with the real node:v8, a big file's open stops incremental marking of a growing heap, and an edit brings it back.
test('#29 memory policy: incremental marking stops after a big file is opened and comes back with an edit, in V8 itself', async () => {
  const { spawnSync } = await import('node:child_process');
  const child = `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    const m = globalThis.__memory;
    let incremental = 0;
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) incremental++; });
    obs.observe({ entryTypes: ['gc'] });
    const keep = [];
    const grow = (rounds, done) => { let r = 0; const step = () => { const a = []; for (let i = 0; i < 200000; i++) a.push({ i, s: 'x' + i, n: [i, i + 1] }); keep.push(a); if (keep.length > 4) keep.shift(); if (++r < rounds) setImmediate(step); else setTimeout(done, 20); }; step(); };
    m.enableEditorMemoryPolicy();
    m.documentOpened(m.BIG_DOCUMENT_CHARS + 1);
    grow(30, () => {
      const atomic = incremental;
      m.documentEdited(1000);
      incremental = 0;
      grow(30, () => { obs.disconnect(); process.stdout.write(JSON.stringify({ atomic, after: incremental })); });
    });`;
  const { bundleSource } = await import('./helpers/source-module.mjs');
  const bundle = await bundleSource('server/src/server/memory.ts');
  const script = `const module = { exports: {} }; (function (module, exports) { ${bundle} })(module, module.exports); globalThis.__memory = module.exports; ${child}`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const { atomic, after } = JSON.parse(r.stdout);
  assert.equal(atomic, 0, 'no incremental marking during a big file\'s first check');
  assert.ok(after > 0, `incremental marking again after an edit (${after} incremental steps)`);
});
