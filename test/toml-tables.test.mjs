// parse/toml.ts: a table's first two keys (top) and last keys (tail) without building its path, and the parse cache's bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadSource } from './helpers/source-module.mjs';
import { repoRoot } from './helpers/k8s.mjs';

const ENTRY = { contents: `export { parseToml, tomlCacheStats } from './server/src/engine/parse/toml';` };

function tomlFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tomlFiles(p, out);
    else if (e.name.endsWith('.toml')) out.push(p);
  }
  return out;
}

test('top is the path\'s first two keys and tail(n) its last n, for every table of the fixtures and examples, headers, dotted keys and inline tables', async () => {
  const { parseToml } = await loadSource(ENTRY);
  const files = [...tomlFiles(path.join(repoRoot, 'test/fixtures')), ...tomlFiles(path.join(repoRoot, 'examples'))];
  assert.ok(files.length > 100, `${files.length} TOML files`);
  const made = [
    'a.b.c = 1\n[x]\ny = { z = { w = 1 } }\n[[arr.item]]\nk = 1\n["quoted.key"]\nq.r = 2\n[hypervisor.qemu]\npath = "/q"\n',
    `top = ${'{ a = '.repeat(50)}1${' }'.repeat(50)}\n`,
  ];
  let tables = 0;
  for (const text of [...files.map((f) => fs.readFileSync(f, 'utf8')), ...made]) {
    // tail(n), the last n keys, read before the path is built (up the trie) and after (a slice of it).
    for (const t of parseToml(`${text}\n# tail\n`).tables) {
      const ns = [0, 1, 2, t.depth, t.depth + 3];
      const before = ns.map((n) => t.tail(n));
      assert.deepEqual(before, ns.map((n) => t.path.slice(Math.max(0, t.depth - n))), t.path.join('.'));
      assert.deepEqual(ns.map((n) => t.tail(n)), before);
    }
    for (const t of parseToml(text).tables) {
      tables++;
      assert.deepEqual([...t.top], [t.path[0], t.path[1]], t.path.join('.'));
      assert.equal(t.depth, t.path.length);
    }
  }
  assert.ok(tables > 500, `${tables} tables`);
});

test('the parse cache keeps at most 64 texts and 2 MB of text, the most recently used, and no text over that', async () => {
  const { parseToml, tomlCacheStats } = await loadSource(ENTRY);
  const deep = (i, n) => `# ${i}\n[hypervisor.qemu]\n${Array.from({ length: 8 }, (_, k) => `x${k} = ${'{ a = '.repeat(n)}1${' }'.repeat(n)}\n`).join('')}`;
  // 60 texts of about 64 KB: about 3.8 MB in all, so the budget, not the count, decides.
  const texts = Array.from({ length: 60 }, (_, i) => deep(i, 1000));
  const first = parseToml(texts[0]);
  for (const t of texts.slice(1)) parseToml(t);
  const s = tomlCacheStats();
  assert.ok(s.chars <= 2 * 1024 * 1024 && s.chars > 1.5 * 1024 * 1024, JSON.stringify(s));
  assert.ok(s.files < 60 && s.files > 20, JSON.stringify(s));
  // The newest is kept (the same object on a second parse), the oldest is gone (parsed again: another object).
  const last = parseToml(texts[59]);
  assert.equal(parseToml(texts[59]), last);
  assert.notEqual(parseToml(texts[0]), first);
  // A hit makes a text the newest. A is kept, then as many other texts as fit with it: A is the oldest. After a hit
  // on A and one more new text, the one evicted is B1, not A.
  const A = deep(100, 1000);
  const cap = Math.floor((2 * 1024 * 1024) / A.length);
  const a = parseToml(A);
  const bs = Array.from({ length: cap - 1 }, (_, i) => deep(101 + i, 1000));
  const b1 = parseToml(bs[0]);
  for (const b of bs.slice(1)) parseToml(b);
  assert.equal(tomlCacheStats().files, cap);
  assert.equal(parseToml(A), a);
  parseToml(deep(900, 1000));
  assert.equal(parseToml(A), a, 'A, used last, is kept');
  assert.notEqual(parseToml(bs[0]), b1, 'B1, used least recently, is gone');
  // Small texts: at most 64 of them.
  for (let i = 0; i < 100; i++) parseToml(`k = ${i}\n`);
  assert.equal(tomlCacheStats().files, 64);
  // A text over the budget is parsed, not kept, and the texts kept stay.
  const small = parseToml('k = 99\n');
  const huge = `${'# padding\n'.repeat(220000)}k = 1\n`;
  assert.ok(huge.length > 2 * 1024 * 1024);
  const h = parseToml(huge);
  assert.equal(h.entries.length, 1);
  assert.notEqual(parseToml(huge), h);
  assert.equal(tomlCacheStats().files, 64);
  assert.equal(parseToml('k = 99\n'), small);
  assert.ok(tomlCacheStats().chars <= 2 * 1024 * 1024);
});
