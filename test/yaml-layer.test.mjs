// The YAML layer (server/src/engine/parse/yaml.ts): documents split at every line break (issue #12: a CRLF
// multi-document manifest was not checked at all), aliases without their anchor are syntax errors at the alias
// (issue #13: they were called alias bombs), and nesting or length of any size is read without recursion: too
// deep is a diagnostic at the first level past the limit, a sequence of 1,000,000 items is read.
// Reads the built engine (dist/engine.js); `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const YAML = require('yaml');
const config = e.resolveConfig({ cli: { kubernetesWindow: '1.16..1.22', starlingxRelease: '12.0' } });
const analyze = (text, file = '/ws/manifest.yaml') => e.analyze({ path: file, text, config });
const brief = (r) => r.diagnostics.map((d) => ({ rule: d.ruleId, line: d.range.start.line, character: d.range.start.character, endLine: d.range.end.line, endCharacter: d.range.end.character, message: d.message }));
const crlf = (t) => t.replace(/\r?\n/g, '\r\n');

// ------------------------------------------------------------------------------------------------ documents

test('CRLF multi-document manifest: every document is checked, at the positions of the LF copy', () => {
  const lf = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: b\n';
  const out = brief(analyze(crlf(lf)));
  assert.deepEqual(out, brief(analyze(lf)));
  assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 5 && d.character === 12), JSON.stringify(out));
  assert.ok(!out.some((d) => d.rule === 'syntax/parse-error'), JSON.stringify(out));
});

test('CRLF, lone CR, BOM, tabs and multi-byte characters: findings at the same line and character as the LF copy', () => {
  const lf = '# é 😀 \u00e9\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "😀é"\ndata:\n  a:\t"x"\n---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: b   # 😀\n';
  const want = brief(analyze(lf));
  assert.ok(want.some((d) => d.rule === 'k8s/removed-api' && d.line === 8), JSON.stringify(want));
  for (const [name, text] of [['CRLF', crlf(lf)], ['lone CR', lf.replace(/\n/g, '\r')], ['BOM + CRLF', '\uFEFF' + crlf(lf)]]) {
    assert.deepEqual(brief(analyze(text)), want, name);
  }
});

test('splitDocuments: the documents the yaml package reads from the whole stream, for every marker and line break', () => {
  const cases = [
    'a: 1\n---\nb: 2\n',
    'a: 1\r\n---\r\nb: 2\r\n',
    'a: 1\r---\rb: 2\r',
    'a: 1\n---\t\nb: 2\n',
    'a: 1\n--- # c\nb: 2\n',
    'a: 1\n---#c\nb: 2\n', // not a marker: part of a plain key
    'a: 1\n...\nb: 2\n',
    'a: 1\r\n...\r\nb: 2\r\n',
    'a: 1\n... # end\n# c\n%YAML 1.1\n---\nb: 2\n',
    'a: 1\n...\n# trailing comment\n',
    'a: 1\n...\n---\nb: 2\n',
    '\uFEFFa: 1\r\n---\r\nb: 2\r\n',
    '# only a comment\n---\na: 1\n---\n---\nb: [1, 2]\n',
    'a: |\n  x\n...\nb: 2\n',
    '%YAML 1.1\n---\na: 1\n',
  ];
  for (const text of cases) {
    const chunks = e.splitDocuments(text);
    // The chunks cover the text without gaps.
    assert.equal(chunks[0].start, 0, JSON.stringify(text));
    assert.equal(chunks[chunks.length - 1].end, text.length, JSON.stringify(text));
    for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i].start, chunks[i - 1].end, JSON.stringify(text));
    const ours = e.parseYaml(text).docs;
    // The yaml package does not break lines at a lone CR; YAML 1.2 (and LSP) does, as parseYaml.
    const theirs = YAML.parseAllDocuments(text.replace(/\r(?!\n)/g, '\n'), { version: '1.1' });
    assert.deepEqual(ours.map((d) => d.errors.map((x) => x.code)), theirs.map((d) => d.errors.map((x) => x.code)), JSON.stringify(text));
    assert.deepEqual(ours.map((d) => d.value), theirs.map((d) => d.toJS()), JSON.stringify(text));
  }
});

// The line-by-line walk splitDocuments made its cuts with before it searched for the markers (#29), as the reference:
// every line; a `---` marker line (not at 0) is a cut, the line after a `...` marker line is one (an "after end" cut).
function referenceCuts(text) {
  const marker = (i, ch) => text.charCodeAt(i) === ch && text.charCodeAt(i + 1) === ch && text.charCodeAt(i + 2) === ch
    && (i + 3 >= text.length || [32, 9, 10, 13].includes(text.charCodeAt(i + 3)));
  const cuts = [0], afterEnd = [];
  for (let pos = 0; pos < text.length;) {
    let nl = pos;
    while (nl < text.length && text.charCodeAt(nl) !== 10 && !(text.charCodeAt(nl) === 13 && text.charCodeAt(nl + 1) !== 10)) nl++;
    if (pos > 0 && marker(pos, 45)) { if (cuts[cuts.length - 1] !== pos) cuts.push(pos); }
    else if (marker(pos, 46) && nl + 1 < text.length) { cuts.push(nl + 1); afterEnd.push(nl + 1); }
    pos = nl + 1;
  }
  return { cuts, afterEnd };
}

test('splitDocuments: the marker search cuts as the line-by-line walk did, on random streams of every line kind and break', () => {
  const LINES = ['---', '--- # c', '---\t', '---#x', ' ---', '----', '-- -', '...', '... # end', '....', ' ...', 'a: 1', 'b: "---"', '# ---', '%YAML 1.1', '', 'c: |', '  ...', '- x', '\uFEFF---', 'k: -----BEGIN-----', '---   ', '...\t'];
  const BREAKS = ['\n', '\r\n', '\r'];
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let multi = 0;
  for (let round = 0; round < 5000; round++) {
    let text = '';
    const mixed = rnd(3) === 0;
    const br = BREAKS[rnd(3)];
    for (let i = 0, n = 1 + rnd(14); i < n; i++) text += LINES[rnd(LINES.length)] + (i + 1 < n || rnd(2) ? (mixed ? BREAKS[rnd(3)] : br) : '');
    const want = referenceCuts(text);
    const got = e.documentCuts(text);
    assert.deepEqual({ cuts: got.cuts, afterEnd: [...got.afterEnd] }, want, JSON.stringify(text));
    if (want.cuts.length > 2) multi++;
  }
  // The streams are not all single documents (the comparison says something).
  assert.ok(multi > 1000, String(multi));
});

// ------------------------------------------------------------------------------------------------ aliases

test('an alias whose anchor is not defined is a syntax error at the alias, not an alias bomb', () => {
  for (const [text, name, line, character] of [
    ['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: *foo\n', 'foo', 5, 5],
    ['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: *.\n', '.', 3, 8],
    ['apiVersion: v1\r\nkind: ConfigMap\r\ndata: {a: *x1, b: 2}\r\n', 'x1', 2, 10],
    ['apiVersion: v1\nkind: *k\n', 'k', 1, 6],
  ]) {
    const out = brief(analyze(text));
    assert.deepEqual(out, [{ rule: 'syntax/parse-error', line, character, endLine: line, endCharacter: character + 1 + name.length, message: `YAML syntax error: alias *${name} is not defined` }], JSON.stringify(text));
  }
  // Everywhere YAML is read, e.g. a StarlingX bootstrap overrides file.
  const stx = brief(analyze('system_mode: duplex\ndns_servers: *servers\n', '/ws/localhost.yml'));
  assert.deepEqual(stx.map((d) => d.message), ['YAML syntax error: alias *servers is not defined']);
});

test('an alias used before its anchor says so', () => {
  const out = brief(analyze('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: *x\n  b: &x v\n'));
  assert.deepEqual(out.map((d) => [d.line, d.character, d.message]), [[3, 5, 'YAML syntax error: alias *x is not defined before it is used (its anchor &x comes later)']]);
});

test('an alias bomb keeps its message, at its first alias', () => {
  const bomb = 'apiVersion: v1\nkind: ConfigMap\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n';
  const out = brief(analyze(bomb));
  assert.deepEqual(out.map((d) => [d.line, d.character, d.message]), [[3, 7, 'YAML not read: its aliases expand to more than 1,000 nodes (a "billion laughs" alias bomb?): this document is not checked']]);
});

test('aliases resolve as the yaml package resolves them (a redefined anchor: the latest before the alias)', () => {
  for (const text of [
    'a: &x 1\nb: *x\nc: &x 2\nd: *x\n',
    'base: &b {cpu: 1, mem: 2}\nx:\n  <<: *b\n  cpu: 3\ny: [*b, *b]\n',
    'k: &k key\n*k : v\n',
    'l: &l [1, &m 2, *m]\nm: *m\nn: *l\n',
    'a: &x 1\r\nb: *x\r\n',
  ]) {
    const ours = e.parseYaml(text).docs[0];
    assert.deepEqual(ours.errors, [], JSON.stringify(text));
    assert.deepEqual(ours.value, YAML.parseDocument(text, { version: '1.1' }).toJS(), JSON.stringify(text));
  }
});

// ------------------------------------------------------------------------------------------------ depth and length

const DEEP = 100000;

test('YAML nested 100,000 deep, block and flow: "nested too deeply" at the first collection past 300 levels', () => {
  const head = 'apiVersion: v1\nkind: ConfigMap\ndata: ';
  for (const [name, text, opener] of [
    ['flow sequences', `${head}${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`, '['],
    ['flow mappings', `${head}${'{a: '.repeat(DEEP)}1${'}'.repeat(DEEP)}\n`, '{a: '],
    ['block sequences, CRLF', `${head}\r\n  ${'- '.repeat(DEEP)}x\r\n`, '- '],
  ]) {
    const r = analyze(text);
    assert.equal(r.family, 'kubernetes', name);
    assert.equal(r.diagnostics.length, 1, `${name}: ${JSON.stringify(brief(r))}`);
    const d = r.diagnostics[0];
    assert.equal(d.message, 'YAML not read: nested too deeply to read (more than 300 levels; no Kubernetes, Ansible or Kata file nests this deep): this document is not checked', name);
    // The root mapping is level 1, `data`'s value level 2: level 301 is the 300th opener.
    const first = text.indexOf(opener, head.length);
    const at = first + 299 * opener.length;
    const line = text.slice(0, at).split(/\r?\n/).length - 1;
    assert.deepEqual([d.range.start.line, d.range.start.character], [line, at - (text.lastIndexOf('\n', at - 1) + 1)], name);
  }
  // JSON (a YAML subset): the same, and still a manifest.
  const json = `{"apiVersion":"v1","kind":"ConfigMap","data":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`;
  const r = analyze(json, '/ws/manifest.json');
  assert.equal(r.family, 'kubernetes');
  assert.match(r.diagnostics[0].message, /^YAML not read: nested too deeply to read/);
});

test('nesting of exactly 300 levels is read (fast path and full parse alike), 301 levels is reported', () => {
  for (const [open, close] of [['[', ']'], ['{a: ', '}']]) {
    for (const eol of ['\n', '\r\n']) {
      const ok = `a: ${open.repeat(299)}1${close.repeat(299)}${eol}`;
      const deep = `a: ${open.repeat(300)}1${close.repeat(300)}${eol}`;
      assert.deepEqual(e.parseYaml(ok).docs[0].errors, [], JSON.stringify([open, eol]));
      assert.deepEqual(e.parseYaml(deep).docs[0].errors.map((x) => x.code), ['TOO_DEEP'], JSON.stringify([open, eol]));
    }
  }
});

test('a sequence of 1,000,000 items is read and analysed, block and flow (and 100,000 through the full parse)', () => {
  const n = 1000000;
  for (const [name, text, len] of [
    ['block', `apiVersion: v1\nkind: List\nitems:\n${'- 1\n'.repeat(n)}`, n],
    ['flow', `apiVersion: v1\nkind: List\nitems: [${'1,'.repeat(n - 1)}1]\n`, n],
    // CRLF never takes the fast path; the full parse costs about ten times more per item.
    ['block, CRLF', `apiVersion: v1\r\nkind: List\r\nitems:\r\n${'- 1\r\n'.repeat(n / 10)}`, n / 10],
  ]) {
    const r = analyze(text);
    assert.equal(r.family, 'kubernetes', name);
    // the items are no objects: said once for the List, at the first, with their count
    assert.deepEqual(brief(r).map((d) => [d.rule, d.message]), [['k8s/document-not-checked', `${len} items of this List (the first: item 1) are not checked: they have no apiVersion and kind of their own, no Kubernetes object`]], name);
    assert.equal(r.yaml.docs[0].value.items.length, len, name);
  }
});

test('parseYamlHeld: documents an open file\'s reader parsed are taken by that file\'s own parse once (not parsed again), and let go on close or when another file\'s are held', () => {
  // No parse cache: only the hold can hand a parse over.
  e.setParseCacheBudget(0);
  try {
    const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.example.com}\n';
    const text = `${crd}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n`;
    const cuts = e.splitDocuments(text);
    const first = text.slice(cuts[0].start, cuts[0].end);
    const value = (t) => e.parseYaml(t).docs[0].value;

    const held = e.parseYamlHeld(first, '/w/bundle.yaml').docs[0].value;
    const whole = e.parseYaml(text);
    assert.equal(whole.docs.length, 2);
    assert.equal(whole.docs[0].value, held, 'the held document is taken, not parsed again');
    assert.deepEqual(whole.docs[1].value, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
    // Taken once: a later parse (no cache) parses it again.
    assert.notEqual(value(text), held);

    // Closed before its analysis: let go.
    const closed = e.parseYamlHeld(first, '/w/bundle.yaml').docs[0].value;
    e.forgetHeld('/w/bundle.yaml');
    assert.notEqual(value(text), closed);
    // Another file's documents held: the first file's go (one file's at a time).
    const a = e.parseYamlHeld(first, '/w/a.yaml').docs[0].value;
    e.parseYamlHeld('kind: Other\n', '/w/b.yaml');
    assert.notEqual(value(text), a);
    // The same value either way.
    assert.deepEqual(value(text), { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'a.example.com' } });
  } finally { e.setParseCacheBudget(4 * 1024 * 1024); e.forgetHeld('/w/b.yaml'); }
});

test('analyze() pins its parse while it runs: a reader of the same text during the analysis (a root index reading the file being checked) gets the analysis\'s documents, not a parse of its own; the pin ends with analyze()', () => {
  e.setParseCacheBudget(0);
  try {
    const text = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n';
    const twice = () => { const a = e.parseYaml(text).docs[0].value; const b = e.parseYaml(text).docs[0].value; return a === b; };
    let during;
    const neighbours = { get crds() { during = twice(); return undefined; }, customResourceUses: () => ({ uses: [] }) };
    e.analyze({ path: '/x/c.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), neighbours });
    assert.equal(during, true, 'the workspace CRDs were asked for during the analysis, and its documents were handed over');
    assert.equal(twice(), false, 'after analyze() nothing is pinned (no cache: each parse is its own)');
  } finally { e.setParseCacheBudget(4 * 1024 * 1024); }
});

// ------------------------------------------------------------------------------------------------ keys given twice

test('a key given twice: located, judged and edited at the last pair, the value YAML readers keep', () => {
  // Small and big mappings (the index from 33 keys), the fast path and the full parse (a flow map and an anchor take the full one).
  const filler = Array.from({ length: 40 }, (_, i) => `f${i}: ${i}\n`).join('');
  for (const pad of ['', filler]) {
    for (const tail of ['', 'x: &a {b: 1}\n']) {
      const text = `apiVersion: apps/v1\nkind: Deployment\n${pad}apiVersion: extensions/v1beta1\nmetadata:\n  name: a\n${tail}`;
      const doc = e.parseYaml(text).docs[0];
      assert.equal(doc.value.apiVersion, 'extensions/v1beta1');
      const loc = doc.locate(['apiVersion']);
      assert.equal(text.slice(loc.value.start, loc.value.end), 'extensions/v1beta1', JSON.stringify({ pad: !!pad, tail }));
      assert.equal(loc.node?.value, 'extensions/v1beta1');
      const ed = new e.YamlEditor(text, doc);
      assert.ok(ed.setScalar(['apiVersion'], 'apps/v1'));
      const out = [...ed.edits].sort((a, b) => b.range.start - a.range.start).reduce((t, x) => t.slice(0, x.range.start) + x.newText + t.slice(x.range.end), text);
      assert.equal(e.parseYaml(out).docs[0].value.apiVersion, 'apps/v1', out);
      assert.ok(out.startsWith('apiVersion: apps/v1\nkind: Deployment\n'), out);
      const removed = analyze(text).diagnostics.find((d) => d.ruleId === 'k8s/removed-api');
      assert.equal(removed?.range.start.line, 2 + (pad ? 40 : 0), JSON.stringify(analyze(text).diagnostics));
    }
  }
});
