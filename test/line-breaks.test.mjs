// Line breaks as LSP counts them (\n, \r\n and a lone \r), however the text mixes them: LineIndex against a walk over
// every character, and loneCrIn against a regular expression, on random texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { lineStarts as startsByWalk } from './helpers/line-starts.mjs';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');


let seed = 11;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const PIECES = ['a', 'key: value', ' ', '\n', '\r\n', '\r', '\r\r\n', '\n\r', 'é', '\t'];
const randomText = () => { let s = ''; for (let k = rnd(40); k > 0; k--) s += PIECES[rnd(PIECES.length)]; return s; };

test('LineIndex puts every line start where a walk over every character does, with LF, CRLF and lone CRs mixed', () => {
  let withCrlfOnly = 0, withLone = 0;
  for (let k = 0; k < 5000; k++) {
    const text = k % 4 === 0 ? randomText().replace(/\r(?!\n)/g, '') : randomText();
    if (text.includes('\r')) { if (/\r(?!\n)/.test(text)) withLone++; else withCrlfOnly++; }
    const li = new e.LineIndex(text);
    const want = startsByWalk(text);
    assert.equal(li.lineCount, want.length, JSON.stringify(text));
    for (let line = 0; line < want.length; line++) assert.equal(li.lineStart(line), want[line], `${JSON.stringify(text)} line ${line}`);
    for (let off = 0; off <= text.length; off++) assert.equal(li.offsetAt(li.positionAt(off)) <= off, true);
  }
  assert.ok(withCrlfOnly > 500 && withLone > 500, `${withCrlfOnly} texts with CRLF only, ${withLone} with a lone CR`);
});

test('loneCrIn finds a CR not followed by a LF inside the range, and only that', () => {
  for (let k = 0; k < 5000; k++) {
    const text = randomText();
    const from = rnd(text.length + 1), to = from + rnd(text.length - from + 1);
    const want = /\r(?!\n)/.test(text.slice(from, to));
    assert.equal(e.loneCrIn(text, from, to), want, `${JSON.stringify(text)} [${from}, ${to})`);
  }
  assert.equal(e.loneCrIn('a\r\nb\r\n'), false);
  assert.equal(e.loneCrIn('a\r\nb\r'), true, 'a CR at the end is a line break of its own');
  assert.equal(e.loneCrIn('a\r\nb', 0, 2), true, 'a CR whose LF is past the range is lone in it');
});
