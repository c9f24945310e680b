// YAML error recovery (issue #18 item 6): one syntax error costs only the document it is in, not the file. The error
// is reported where the parser went wrong (an unclosed quote at its opening quote, an unclosed flow collection at
// its bracket), the other documents are checked, and a broken document whose apiVersion and kind were read before
// the error is still checked for its API version (without fixes). Never a silent pass: every document that could
// not be read is a syntax/parse-error at the parser's position. Reads the built engine (dist/engine.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const config = e.resolveConfig({ cli: { kubernetesWindow: '1.18..1.21' } });
const analyze = (text, file = '/ws/bundle.yaml') => e.analyze({ path: file, text, config, today: new Date(e.kubernetesApis().asOf) });
const brief = (r) => r.diagnostics.map((d) => ({ rule: d.ruleId, line: d.range.start.line, character: d.range.start.character, message: d.message }));
const crlf = (t) => t.replace(/\r?\n/g, '\r\n');
const errorsOf = (out) => out.filter((d) => d.rule === 'syntax/parse-error');

// The issue's case: document 1 is a removed DaemonSet whose last line (13) opens a quote it never closes; the
// `---` of line 14 starts document 2 (a clean ConfigMap), and document 3 is a deprecated Ingress.
const ISSUE = [
  'apiVersion: extensions/v1beta1', //  1
  'kind: DaemonSet', //                  2
  'metadata:', //                        3
  '  name: node-agent', //               4
  '  namespace: ops', //                 5
  'spec:', //                            6
  '  template:', //                      7
  '    spec:', //                        8
  '      containers:', //                9
  '        - name: agent', //           10
  '          image: busybox:1.36', //   11
  '          args:', //                 12
  '            - "--log-level=info', // 13: the quote is never closed
  '---', //                             14
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata:',
  '  name: settings',
  '---',
  'apiVersion: networking.k8s.io/v1beta1',
  'kind: Ingress',
  'metadata:',
  '  name: web',
  '',
].join('\n');

function assertIssueCase(out) {
  const errs = errorsOf(out);
  assert.equal(errs.length, 1, JSON.stringify(out));
  // Line 13 (0-based 12), at the opening quote, not at the `---` of line 14.
  assert.deepEqual([errs[0].line, errs[0].character], [12, 14], JSON.stringify(errs));
  assert.match(errs[0].message, /document 1\).*Missing closing "quote: the quoted value opened here is not closed/);
  // Document 1's removed DaemonSet is still reported, at its apiVersion.
  assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 0 && d.character === 12 && /DaemonSet/.test(d.message)), JSON.stringify(out));
  // Document 3 is checked.
  assert.ok(out.some((d) => d.rule === 'k8s/deprecated-api' && d.line === 19 && /Ingress/.test(d.message)), JSON.stringify(out));
}

test('#18.6 the issue\'s case: the unclosed quote is reported on line 13 and the removed DaemonSet of document 1 is still reported', () => {
  assertIssueCase(brief(analyze(ISSUE)));
});

test('#18.6 CRLF and BOM variants: the same findings at the same lines and characters', () => {
  const want = brief(analyze(ISSUE));
  assertIssueCase(brief(analyze(crlf(ISSUE))));
  assert.deepEqual(brief(analyze(crlf(ISSUE))), want);
  // A BOM is the first character of line 1 (UTF-16 positions count it): only line 1's characters move by one.
  const withBom = want.map((d) => (d.line === 0 ? { ...d, character: d.character + 1 } : d));
  assert.deepEqual(brief(analyze(`\uFEFF${ISSUE}`)), withBom);
  assert.deepEqual(brief(analyze(`\uFEFF${crlf(ISSUE)}`)), withBom);
});

test('#18.6 a finding on a document read only up to its syntax error offers no fix; the same finding on a clean document does', () => {
  const r = analyze(ISSUE);
  const broken = r.diagnostics.find((d) => d.ruleId === 'k8s/removed-api');
  assert.deepEqual(broken.fixes ?? [], []);
  const clean = analyze(ISSUE.replace('"--log-level=info', '"--log-level=info"')).diagnostics.find((d) => d.ruleId === 'k8s/removed-api');
  assert.ok(clean.fixes.length > 0);
});

test('#18.6 a broken document in the middle of three: the first and the last are checked, the error is in the middle one', () => {
  const text = [
    'apiVersion: extensions/v1beta1', 'kind: DaemonSet', 'metadata:', '  name: a', // 1-4
    '---', // 5
    'apiVersion: v1', 'kind: ConfigMap', 'metadata:', "  name: 'broken", 'data:', '  a: b', // 6-11: quote opened on line 9
    '---', // 12
    'apiVersion: policy/v1beta1', 'kind: PodDisruptionBudget', 'metadata:', '  name: c', '', // 13-
  ].join('\n');
  const out = brief(analyze(text));
  const errs = errorsOf(out);
  assert.equal(errs.length, 1, JSON.stringify(out));
  assert.deepEqual([errs[0].line, errs[0].character], [8, 8], JSON.stringify(errs));
  assert.match(errs[0].message, /document 2\)/);
  assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 0), JSON.stringify(out));
  assert.ok(out.some((d) => d.rule === 'k8s/deprecated-api' && d.line === 12), JSON.stringify(out));
});

test('#18.6 unterminated flow collections are reported at the bracket that is not closed', () => {
  for (const [bracket, value] of [['{', '{app: web, tier: front'], ['[', '[web, front']]) {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: ${value}\ndata:\n  a: b\n---\napiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: y\n`;
    const out = brief(analyze(text));
    const errs = errorsOf(out);
    assert.equal(errs.length, 1, JSON.stringify(out));
    assert.deepEqual([errs[0].line, errs[0].character], [4, 10], `${bracket}: ${JSON.stringify(errs)}`);
    assert.match(errs[0].message, new RegExp(`the \\${bracket} opened here is not closed`));
    assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 8), JSON.stringify(out));
  }
});

test('#18.6 an unclosed quote inside a flow collection is reported at the quote, not at the brackets around it', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "x, labels: [a, b]}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n';
  const errs = errorsOf(brief(analyze(text)));
  assert.equal(errs.length, 1);
  assert.deepEqual([errs[0].line, errs[0].character], [2, 17], JSON.stringify(errs));
});

test('#18.6 bad indentation and tabs: reported at the offending line, the other documents checked', () => {
  const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n labels: {}\n---\napiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: y\n';
  let out = brief(analyze(bad));
  assert.deepEqual(errorsOf(out).map((d) => [d.line, d.character]), [[4, 0]], JSON.stringify(out));
  assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 6), JSON.stringify(out));
  const tab = 'apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n\tname: y\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n';
  out = brief(analyze(tab));
  assert.deepEqual(errorsOf(out).map((d) => [d.line, d.character]), [[3, 0]], JSON.stringify(out));
  // The tab is after apiVersion and kind: the DaemonSet is still reported; the PDB of document 2 too.
  assert.ok(out.some((d) => d.rule === 'k8s/removed-api' && d.line === 0), JSON.stringify(out));
  assert.ok(out.some((d) => d.rule === 'k8s/deprecated-api' && d.line === 5), JSON.stringify(out));
});

test('#18.6 a document broken before its kind is not guessed at: only the syntax error, at its position, speaks for it', () => {
  const text = 'apiVersion: "extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: y\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n';
  const out = brief(analyze(text));
  assert.deepEqual(errorsOf(out).map((d) => [d.line, d.character]), [[0, 12]], JSON.stringify(out));
  assert.ok(!out.some((d) => d.rule === 'k8s/removed-api'), JSON.stringify(out));
  assert.ok(out.some((d) => d.rule === 'k8s/deprecated-api' && d.line === 5), JSON.stringify(out));
});

test('#18.6 never a silent pass: every broken document of a file has its own syntax error at its position', () => {
  const docs = [];
  const want = [];
  let line = 0;
  for (let i = 0; i < 6; i++) {
    const broken = i % 2 === 1;
    const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', broken ? `  name: "cm-${i}` : `  name: cm-${i}`, 'data:', '  a: b'];
    if (broken) want.push([line + 3, 8]);
    docs.push(lines.join('\n'));
    line += lines.length + 1;
  }
  const out = brief(analyze(`${docs.join('\n---\n')}\n`));
  assert.deepEqual(errorsOf(out).map((d) => [d.line, d.character]), want, JSON.stringify(out));
});
