// Issue #29: the substring searches that replaced whole-text regexes in the editor's part-by-part check (the marker
// lines `...`/`%` and the control-plane component names): each must answer exactly what the regex did, on random texts
// made of the pieces that matter (line breaks of every kind, markers mid-line, names cut short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './helpers/k8s.mjs';

function randomText(seed, pieces) {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let out = '';
  for (let n = Math.floor(next() * 30); n > 0; n--) out += pieces[Math.floor(next() * pieces.length)];
  return out;
}

test('#29 someLineStartsWith answers as /^s/m, with \\n, \\r, U+2028 and U+2029 as line ends', () => {
  const pieces = ['a', ' ', '\n', '\r', '\r\n', '\u2028', '\u2029', '...', '..', '.', '%', 'x%', ' ...', '-- ', '\t'];
  let hits = 0;
  for (let seed = 1; seed <= 4000; seed++) {
    const t = randomText(seed, pieces);
    for (const [s, re] of [['...', /^\.\.\./m], ['%', /^%/m]]) {
      const want = re.test(t);
      hits += want ? 1 : 0;
      assert.equal(engine.someLineStartsWith(t, s), want, `${JSON.stringify(t)} ${s}`);
    }
  }
  assert.ok(hits > 1000 && hits < 7000, `both answers are met (${hits} of 8000 true)`);
});

test('#29 matchesAfter answers as the regex does anywhere in the text', () => {
  const pieces = ['kube-', 'kube-proxy', 'kube-prox', 'kube-apiserver', 'kube-scheduler', 'kube-controller-manager', 'kube-controller', 'kubekube-', 'k', '-', ' ', '\n', 'image: '];
  const any = /kube-(apiserver|controller-manager|scheduler|proxy)/;
  const sticky = /kube-(apiserver|controller-manager|scheduler|proxy)/y;
  let hits = 0;
  for (let seed = 1; seed <= 4000; seed++) {
    const t = randomText(seed, pieces);
    const want = any.test(t);
    hits += want ? 1 : 0;
    assert.equal(engine.matchesAfter(t, 'kube-', sticky), want, JSON.stringify(t));
  }
  assert.ok(hits > 500 && hits < 3900, `both answers are met (${hits} of 4000 true)`);
});

test('#29 indexOfBy finds each occurrence text.indexOf finds, in order, by a piece of the word', () => {
  const words = [['apiVersion', 'Versio'], ['"apiVersion"', 'Versio'], ['owner', 'wner'], ['helm.toolkit.fluxcd.io', 'xcd.io'], ['aaa', 'aa'], ['abab', 'ba'], ['word', 'absent']];
  const pieces = ['apiVersion', '"apiVersion"', 'Versio', 'Version', 'piVersion', 'owner', 'wner', 'oowner', 'o', 'xcd.io', 'helm.toolkit.fluxcd.io', 'helm.toolkit.', 'a', 'aa', 'ab', 'b', 'word', ' ', '\n', '"'];
  let found = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const t = randomText(seed, pieces);
    for (const [word, piece] of words) {
      const want = [], got = [];
      for (let i = t.indexOf(word); i !== -1; i = t.indexOf(word, i + 1)) want.push(i);
      for (let i = engine.indexOfBy(t, word, piece); i !== -1; i = engine.indexOfBy(t, word, piece, i + 1)) got.push(i);
      assert.deepEqual(got, want, `${JSON.stringify(t)} ${word} by ${piece}`);
      assert.equal(engine.includesBy(t, word, piece), t.includes(word));
      found += want.length;
    }
  }
  assert.ok(found > 10000, `${found} occurrences compared`);
});
