// Issue #27 item 6: lsp-lint --format junit (JUnit XML, what GitLab's `reports: junit`, Jenkins' junit step and Azure
// Pipelines' PublishTestResults read) and --format tap (TAP 14): one test case per file and step of its window, a
// failure with the position and rule when an error concerns the step, the same exit codes as every other format,
// and names that cannot break the XML or forge TAP lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { scratch, lint, K8S_WINDOW, ING_BETA, CM } from './helpers/cli-run.mjs';

// xml2js (strict sax underneath) comes with @vscode/vsce, a pinned dev dependency: a real XML parser, so that a
// report that is not well-formed XML fails here as it would in GitLab or Jenkins.
const xml2js = createRequire(import.meta.url)('xml2js');
const parseXml = (s) => {
  let out, err;
  xml2js.parseString(s, { strict: true, async: false }, (e, r) => { err = e; out = r; });
  if (err) throw err;
  return out;
};

const HOSTILE = 'ing <&"\'#x ]]>.yaml';
const FORGER = 'a\nnot ok 9 - forged # SKIP\n1..1\n.yaml';

test('--format junit: one well-formed test case per file and step, failures at the steps an error concerns, with position and rule', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), [HOSTILE]: ING_BETA, [FORGER]: CM, 'bin.yaml': 'a: \u0000\u0001' });
  assert.equal(spawnSync('mkfifo', [path.join(dir, 'fifo.yaml')]).status, 0);
  const r = lint(dir, ['--format', 'junit', '.', 'fifo.yaml']);
  const stylish = lint(dir, ['.', 'fifo.yaml']);
  assert.equal(r.code, stylish.code, 'the same exit code as stylish');
  assert.equal(r.code, 2, r.stderr); // fifo.yaml, named, is not checked
  const doc = parseXml(r.stdout);
  const suites = doc.testsuites.testsuite;
  const byName = new Map(suites.map((s) => [s.$.name, s]));
  assert.ok(byName.has(HOSTILE), `the hostile name round-trips: ${[...byName.keys()].join(' | ')}`);
  assert.ok(byName.has(FORGER), 'a name with newlines round-trips (attribute line breaks are character references)');
  const ing = byName.get(HOSTILE);
  assert.deepEqual(ing.testcase.map((c) => c.$.name), ['1.21', '1.22', '1.23'].map((s) => `${HOSTILE} @ kubernetes ${s}`));
  assert.deepEqual(ing.testcase.map((c) => !!c.failure), [false, true, true], 'extensions/v1beta1 Ingress fails from 1.22 on');
  const f = ing.testcase[1].failure[0];
  assert.equal(f.$.type, 'k8s/removed-api');
  assert.match(f.$.message, /^ing <&"'#x \]\]>\.yaml:1:13 extensions\/v1beta1 Ingress is removed in Kubernetes 1\.22/);
  assert.match(f._, /:1:13 error k8s\/removed-api: /);
  assert.equal(ing.$.failures, '2');
  assert.equal(ing.$.tests, '3');
  const cm = byName.get(FORGER);
  assert.equal(cm.testcase.length, 3);
  assert.ok(cm.testcase.every((c) => !c.failure && !c.error));
  const bin = byName.get('bin.yaml');
  assert.equal(bin.testcase.length, 1);
  assert.match(bin.testcase[0].skipped[0].$.message, /^not checked: binary data/, 'a binary file (a note says so) is skipped');
  const fifo = byName.get('fifo.yaml');
  assert.equal(fifo.testcase[0].error[0].$.message, 'not checked: a FIFO, not a regular file', 'a file not checked (an error says so) is in error');
  assert.equal(fifo.testcase[0].error[0].$.type, 'skewguard/skipped-file');
  assert.deepEqual({ ...doc.testsuites.$ }, { name: 'skewguard', tests: '8', failures: '2', errors: '1', skipped: '1' });
});

test('--format junit and tap: a clean run exits 0, warnings are listed but fail no step, --max-warnings exits 1 as in stylish', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23') + 'rules:\n  k8s/removed-api: warning\n', 'ing.yaml': ING_BETA, 'cm.yaml': CM });
  for (const format of ['junit', 'tap']) {
    const r = lint(dir, ['--format', format, '.']);
    assert.equal(r.code, 0, `${format}: ${r.stderr}`);
    if (format === 'junit') {
      const doc = parseXml(r.stdout);
      assert.equal(doc.testsuites.$.failures, '0');
      const ing = doc.testsuites.testsuite.find((s) => s.$.name === 'ing.yaml');
      assert.match(ing.testcase[1]['system-out'][0], /ing\.yaml:1:13 warning k8s\/removed-api: /);
    } else assert.doesNotMatch(r.stdout, /^not ok/m);
    assert.equal(lint(dir, ['--format', format, '--max-warnings', '0', '.']).code, 1);
  }
});

test('--format tap: TAP 14, a plan and one test point per file and step; a file name cannot forge a line or a directive', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), [HOSTILE]: ING_BETA, [FORGER]: CM, [`x\\# TODO.yaml`]: CM });
  const r = lint(dir, ['--format', 'tap', '.']);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], 'TAP version 14');
  assert.equal(lines[1], '1..9');
  const points = lines.filter((l) => /^(not )?ok /.test(l));
  assert.equal(points.length, 9);
  points.forEach((l, i) => assert.match(l, new RegExp(`^(not )?ok ${i + 1} - `)));
  // Every other line at the left margin is the header, the plan or a comment: the test points are only ours.
  for (const l of lines.slice(2)) if (l && !l.startsWith(' ')) assert.match(l, /^((not )?ok \d+ - |# skewguard: )/, `a line at the margin that is not ours: ${l}`);
  assert.equal(points.filter((l) => l.startsWith('not ok')).length, 2);
  // No description carries an unescaped # (TAP 14: "\#"), so none has a directive (# SKIP, # TODO).
  for (const l of points) assert.doesNotMatch(l.replace(/\\\\/g, ''), /(^|[^\\])#/, l);
  assert.ok(points.some((l) => l.includes('x\\\\\\# TODO.yaml @ kubernetes 1.21')), 'backslash and # both escaped');
  // The YAML blocks parse, and carry the file, step, rule and position.
  const blocks = [...r.stdout.matchAll(/^ {2}---\n([\s\S]*?)^ {2}\.\.\.$/gm)].map((m) => YAML.parse(m[1].replace(/^ {2}/gm, '')));
  assert.equal(blocks.length, 2);
  assert.deepEqual(blocks.map((b) => b.step), ['1.22', '1.23']);
  assert.equal(blocks[0].file, HOSTILE);
  assert.deepEqual({ rule: blocks[0].findings[0].rule, line: blocks[0].findings[0].line, column: blocks[0].findings[0].column, severity: blocks[0].findings[0].severity }, { rule: 'k8s/removed-api', line: 1, column: 13, severity: 'error' });
});
