// Upstream copies under test/fixtures keep only data (the project's guide): the files listed in
// test/fixtures/SOURCES.md, "Upstream copies", hold no comment (found here by the parsers' own comment lists, not by
// the stripping script), and scripts/strip-fixture-comments.mjs removes comments without touching data (`#` in
// strings and block scalars, line endings, a BOM). Reads only the repo; needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { parseTOML, getStaticTOMLValue } from 'toml-eslint-parser';
import { stripComments, upstreamCopies, kindOf } from '../scripts/strip-fixture-comments.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fixtures = path.join(repoRoot, 'test', 'fixtures');
const script = path.join(repoRoot, 'scripts', 'strip-fixture-comments.mjs');

/** The comments of `text` as the parsers see them (TOML: toml-eslint-parser; YAML: the yaml document model). */
function commentsIn(kind, text) {
  if (kind === 'toml') return parseTOML(text).comments.map((c) => `#${c.value}`);
  if (kind === 'json') { JSON.parse(text); return []; }
  if (kind === 'helm') return text.match(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}|^[ \t]*#.*$/gm) ?? [];
  const out = [];
  for (const doc of YAML.parseAllDocuments(text, { version: '1.1' })) {
    for (const c of [doc.commentBefore, doc.comment]) if (c) out.push(c);
    YAML.visit(doc, (_, node) => {
      for (const c of [node?.commentBefore, node?.comment]) if (c) out.push(c);
    });
  }
  return out;
}

test('every upstream copy listed in test/fixtures/SOURCES.md holds no comment and no blank run', () => {
  const { globs, files } = upstreamCopies();
  assert.ok(globs.length >= 5 && files.length >= 100, `${globs.length} globs, ${files.length} files`);
  assert.ok(files.filter((f) => f.startsWith('kata/config-rendered/')).length === 91, 'the 91 Kata templates are listed');
  for (const f of files) {
    const kind = kindOf(f);
    assert.ok(kind, `${f}: a kind of file the check knows`);
    const text = fs.readFileSync(path.join(fixtures, f), 'utf8');
    assert.deepEqual(commentsIn(kind, text), [], `${f}: comments left (run node scripts/strip-fixture-comments.mjs)`);
    assert.equal(stripComments(text, kind).text, text, `${f}: not as the stripping script leaves it (blank runs?)`);
  }
});

test('the check sees comments where they are: TOML, YAML, a Helm template', () => {
  assert.deepEqual(commentsIn('toml', 'a = "x # y" # z\n# w\nb = 1\n'), ['# z', '# w']);
  assert.deepEqual(commentsIn('yaml', 'a: "x # y" # z\n# w\nb: |\n  # data\n').sort(), [' w', ' z']);
  assert.deepEqual(commentsIn('yaml', 'a: "x # y"\nb: |\n  # data\n'), []);
  assert.equal(commentsIn('helm', '{{/* note */}}\nkind: A\n').length, 1);
});

test('fixtures the project wrote itself are not listed (they test comments, suppressions, modelines on purpose)', () => {
  const { files } = upstreamCopies();
  for (const own of ['rules/', 'charts/', 'kubernetes/conversions/', 'kubernetes/calico/', 'kubernetes/fix-schema/', 'kata/persist-examples/']) {
    assert.deepEqual(files.filter((f) => f.startsWith(own)), [], own);
  }
  // e.g. a suppression comment in a rule fixture is still there
  const own = fs.readdirSync(path.join(fixtures, 'rules'), { recursive: true }).map(String).filter((f) => /\.(ya?ml|toml)$/.test(f))
    .some((f) => /#\s*skewguard-disable/.test(fs.readFileSync(path.join(fixtures, 'rules', f), 'utf8')));
  assert.ok(own, 'some rule fixture keeps a skewguard-disable comment');
});

test('strip TOML: comments and blank runs go; # in strings, multi-line strings, CRLF and the BOM stay', () => {
  const src = '\uFEFF# head\r\n\r\n[a] # table\r\na = "x # y" # c\r\nb = \'#lit\'\r\n\r\n\r\n# gone = 1\r\n\r\nc = """\r\n# kept\r\n\r\n\r\n"""\r\nd = [ # inside\r\n  1, # one\r\n  2,\r\n]\r\n# end\r\n';
  const r = stripComments(src, 'toml');
  assert.equal(r.text, '\uFEFF[a]\r\na = "x # y"\r\nb = \'#lit\'\r\n\r\nc = """\r\n# kept\r\n\r\n\r\n"""\r\nd = [\r\n  1,\r\n  2,\r\n]\r\n');
  assert.deepEqual(getStaticTOMLValue(parseTOML(r.text.slice(1))), getStaticTOMLValue(parseTOML(src.slice(1))));
  assert.deepEqual(r.lineMap.slice(0, 5), [null, null, 1, 2, 3]);
  assert.equal(r.comments, 7);
  // Nothing to strip: the text comes back as it is, byte for byte.
  assert.equal(stripComments(r.text, 'toml').text, r.text);
});

test('strip YAML: comments go; quoted, plain and block scalars keep their # and blank lines; documents and CRLF stay', () => {
  const src = '# head\nurl: http://x/#frag # c\nq: "a # b"\ns: \'c # d\'\nblock: |+\n  # data\n\n\n  line\n\nfold: >\n  x # y\n\n\n  z\n# between\nlist:\n  - a # one\n  # two\n  - b\n---\n# doc 2\nk: v\n';
  const r = stripComments(src, 'yaml');
  assert.equal(r.text, 'url: http://x/#frag\nq: "a # b"\ns: \'c # d\'\nblock: |+\n  # data\n\n\n  line\n\nfold: >\n  x # y\n\n\n  z\nlist:\n  - a\n  - b\n---\nk: v\n');
  const data = (t) => YAML.parseAllDocuments(t).map((d) => d.toJS());
  assert.deepEqual(data(r.text), data(src));
  const crlf = stripComments(`\uFEFF${src.replace(/\n/g, '\r\n')}`, 'yaml');
  assert.equal(crlf.text, `\uFEFF${r.text.replace(/\n/g, '\r\n')}`);
});

test('strip refuses what it does not handle: comments in a Helm template', () => {
  assert.throws(() => stripComments('{{/* a note */}}\napiVersion: v1\n', 'helm'), /Helm template/);
  assert.equal(stripComments('{{- if .Values.x }}\napiVersion: v1\n{{- end }}\n', 'helm').text, '{{- if .Values.x }}\napiVersion: v1\n{{- end }}\n');
});

test('strip-fixture-comments.mjs: --check reports and changes nothing; without it the named file is stripped', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strip-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'configuration-qemu.toml');
  const src = '# doc\n[hypervisor.qemu]\npath = "/usr/bin/qemu # not a comment" # comment\n';
  fs.writeFileSync(file, src);
  const check = spawnSync(process.execPath, [script, '--check', file], { encoding: 'utf8' });
  assert.equal(check.status, 1, check.stderr);
  assert.match(check.stderr, /configuration-qemu\.toml: 2 comment\(s\)/);
  assert.equal(fs.readFileSync(file, 'utf8'), src, '--check writes nothing');
  const run = spawnSync(process.execPath, [script, file], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(fs.readFileSync(file, 'utf8'), '[hypervisor.qemu]\npath = "/usr/bin/qemu # not a comment"\n');
  const again = spawnSync(process.execPath, [script, '--check', file], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
});
