// forgetParsed: a text's documents leave the parse cache (the editor drops a closed file's), however it is asked
// (with the parse that names them, or with the text alone, cut again), and no other text's documents go with them,
// whatever their lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');

/** A document of exactly `len` characters (with its `---` line), distinct per `tag`. */
function docOf(tag, len) {
  const head = `---\nkind: ConfigMap\nmetadata:\n  name: ${tag}\ndata:\n  pad: "`;
  return head + 'x'.repeat(len - head.length - 2) + '"\n';
}
const cached = (text) => { const a = e.parseYaml(text).docs.map((d) => d.value); return (b = e.parseYaml(text).docs.map((d) => d.value)) => a.map((v, i) => v === b[i]); };

test('a text\'s documents leave the cache, asked with its parse or with its text; another text\'s of the same lengths stay', () => {
  // Two files whose documents have the same lengths, one by one: only a document's text tells them apart.
  const a = [docOf('a1', 300), docOf('a2', 420), docOf('a3', 555)].join('');
  const b = [docOf('b1', 300), docOf('b2', 420), docOf('b3', 555)].join('');
  for (const how of ['text', 'parse']) {
    e.forgetParsed(a); e.forgetParsed(b);
    const aSame = cached(a), bSame = cached(b);
    assert.deepEqual(aSame(), [true, true, true], 'parsed once, then from the cache');
    e.forgetParsed(a, [], how === 'parse' ? e.parseYaml(a) : undefined);
    assert.deepEqual(aSame(), [false, false, false], `${how}: a's documents were parsed again`);
    assert.deepEqual(bSame(), [true, true, true], `${how}: b's documents stayed`);
  }
});

test('forgetParsed keeps the documents of the texts it is told to keep, and reads CRLF and lone CRs as the parse does', () => {
  const part = docOf('k1', 310) + docOf('k2', 333);
  const text = (docOf('f1', 290) + part + docOf('f2', 301)).replace(/\n/g, '\r\n').replace('kind: ConfigMap\r\nmetadata', 'kind: ConfigMap\rmetadata');
  assert.ok(/\r(?!\n)/.test(text));
  const keep = part.replace(/\n/g, '\r\n');
  e.forgetParsed(text);
  const same = cached(text);
  e.forgetParsed(text, [keep]);
  const now = e.parseYaml(text).docs.map((d) => d.value);
  assert.deepEqual(same(now), [false, true, true, false]);
  e.forgetParsed(text);
  assert.deepEqual(same(e.parseYaml(text).docs.map((d) => d.value)), [false, false, false, false]);
});
