// Issue #13: no spread of an input-sized array into a call. `push(...arr)`, `Math.max(...arr)` and
// `String.fromCharCode(...arr)` pass every element as an argument, and past ~100,000 elements the call overflows
// the stack (a persist.json with 140,000 devices did, in parentsOf). This scan keeps them out of the product code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsSources } from './helpers/sources.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CALL_SPREAD = /\b(?:push|unshift|max|min|fromCharCode|fromCodePoint|apply|concat|splice)\((?:[^(){}\[\]`]*,)?\s*\.\.\./;


test('no array is spread into push, unshift, Math.max/min, fromCharCode, apply, concat or splice in server/src and client/src', () => {
  const hits = [];
  for (const file of [...tsSources(path.join(root, 'server/src')), ...tsSources(path.join(root, 'client/src'))]) {
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      if (CALL_SPREAD.test(line)) hits.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, []);
});

test('the scan finds the shapes it is meant to find', () => {
  for (const bad of ['out.push(...items)', 'Math.max(...rows.map((x) => x.length))', 'String.fromCharCode(...codes)', 'a.splice(0, 0, ...b)']) {
    assert.ok(CALL_SPREAD.test(bad), bad);
  }
  for (const ok of ['const a = [...b]', 'f({ ...o })', 'out.push(x)', 'r.push({ file, ...facts })', 'out.push(`${[a, ...b].join()}`)']) assert.ok(!CALL_SPREAD.test(ok), ok);
});
