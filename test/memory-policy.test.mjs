// Issue #29: the editor server's memory policy for big files (server/src/server/memory.ts), built alone with the V8
// flags it sets and the full collections it asks for recorded. Keystrokes in a big file grow the heap slowly (and one
// collection sets the limit by the slow factor at once); a big file opened gets V8's own growth back for its first
// check; a big file closed is collected; lsp-lint's server (the policy not enabled) keeps V8's defaults.
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
  const big = m.BIG_DOCUMENT_CHARS + 1, small = 1000;
  // lsp-lint's server: nothing is set or collected, whatever happens.
  m.documentEdited(big); m.documentOpened(big); m.documentClosed(big);
  assert.deepEqual(log, []);
  m.enableEditorMemoryPolicy();
  assert.deepEqual(log, ['--expose-gc']);
  m.documentEdited(small);
  assert.equal(m.slowHeapGrowth(), false, 'a small file\'s keystrokes change nothing');
  m.documentEdited(big);
  assert.equal(m.slowHeapGrowth(), true);
  assert.deepEqual(log.slice(1), ['--heap-growing-percent=100', 'gc'], 'slow growth, and one collection that sets the limit by it');
  m.documentEdited(big);
  assert.equal(log.length, 3, 'the next keystrokes set nothing and collect nothing');
  m.documentOpened(small);
  assert.equal(m.slowHeapGrowth(), true, 'a small file opened changes nothing');
  m.documentOpened(big);
  assert.equal(m.slowHeapGrowth(), false);
  assert.deepEqual(log.slice(3), ['--heap-growing-percent=0'], 'a big file\'s first check: V8\'s own factor');
  m.documentClosed(small);
  assert.equal(log.length, 4);
  m.documentClosed(big);
  assert.deepEqual(log.slice(4), ['gc'], 'a big file closed is collected');
  // A huge file (a CRD bundle) is checked with slow growth too: its analysis holds many times its text.
  m.documentOpened(m.HUGE_DOCUMENT_CHARS + 1);
  assert.equal(m.slowHeapGrowth(), true);
  assert.deepEqual(log.slice(5), ['--heap-growing-percent=100', 'gc']);
  m.documentOpened(m.HUGE_DOCUMENT_CHARS + 1);
  m.documentEdited(big);
  assert.equal(log.length, 7, 'already slow: nothing more');
  m.documentOpened(big);
  assert.deepEqual(log.slice(7), ['--heap-growing-percent=0']);
});
