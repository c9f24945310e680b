// "did you mean": the indexed search answers exactly what a scan of every candidate in order answers, and a file
// with thousands of unknown keys no longer compares each with every known key (a 2 MB localhost.yml took minutes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { didYouMean, editDistance, starlingxKeyNames } = require('../dist/engine.js');

/** The scan didYouMean did before it was indexed. */
function reference(word, candidates) {
  let best, bestD = Infinity;
  const limit = Math.max(2, Math.floor(word.length / 3));
  const w = word.toLowerCase();
  for (const c of candidates) {
    if (Math.abs(c.length - w.length) > Math.min(limit, bestD)) continue;
    const d = editDistance(w, c.toLowerCase());
    if (d < bestD && d <= limit) { best = c; bestD = d; }
  }
  return best;
}

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

test('didYouMean: the same answer as a scan of every candidate in order (random words and lists, ties included)', () => {
  const r = rng(42);
  const letters = 'abcde_AB';
  const word = (n) => Array.from({ length: n }, () => letters[Math.floor(r() * letters.length)]).join('');
  for (let round = 0; round < 300; round++) {
    const candidates = Array.from({ length: 1 + Math.floor(r() * 40) }, () => word(1 + Math.floor(r() * 9)));
    const set = new Set(candidates);
    for (let k = 0; k < 20; k++) {
      const w = r() < 0.3 ? candidates[Math.floor(r() * candidates.length)] + word(Math.floor(r() * 3)) : word(1 + Math.floor(r() * 10));
      assert.equal(didYouMean(w, candidates), reference(w, candidates), `${w} in ${JSON.stringify(candidates)}`);
      assert.equal(didYouMean(w, set), reference(w, set), `${w} in the set ${JSON.stringify([...set])}`);
    }
  }
});

test('didYouMean: a list that grows between calls is indexed again', () => {
  const list = ['alpha', 'beta'];
  assert.equal(didYouMean('gamme', list), undefined);
  list.push('gamma');
  assert.equal(didYouMean('gamme', list), 'gamma');
  const set = new Set(['alpha']);
  assert.equal(didYouMean('betx', set), undefined);
  set.add('beta');
  assert.equal(didYouMean('betx', set), 'beta');
});

test('didYouMean: StarlingX key names, as unknown-key asks for them', () => {
  const known = [...starlingxKeyNames()];
  for (const k of known.slice(0, 200)) {
    const typo = k.slice(0, -1) + (k.endsWith('x') ? 'y' : 'x');
    assert.equal(didYouMean(typo, known), reference(typo, known), typo);
  }
});
