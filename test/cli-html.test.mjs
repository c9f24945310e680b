// Issue #19 item 3: lsp-lint --format html (one self-contained page: files × steps matrix, cells linking to the
// findings with their source lines, a per-step chart) and --format markdown (a pull-request summary under GitHub's
// comment limit). The page in a real browser: test/e2e/html-report.test.mjs (screenshot in test-results/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scratch, lint, K8S_WINDOW, ING_BETA, ING_V1, CM } from './helpers/cli-run.mjs';

const HOSTILE_NAME = 'a<b>&"x".yaml';
const HOSTILE = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  "<script>alert(1)</script>": 1\n  replicas: 1\n';

function site(t) {
  return scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'deploy/ing.yaml': ING_BETA, 'deploy/cm.yaml': CM, 'deploy/new.yaml': ING_V1, [HOSTILE_NAME]: HOSTILE });
}

/** Every cell of the matrix row of `file`: its verdict class and link. */
function rowOf(page, file) {
  const tr = page.split('<tr>').find((x) => x.includes(`>${file}</a></td>`));
  assert.ok(tr, `a matrix row for ${file}`);
  return [...tr.matchAll(/<td class="c (\w+)"[^>]*>(?:<a href="(#[^"]+)")?/g)].map((m) => ({ verdict: m[1], href: m[2] }));
}

test('html: the files × steps matrix, each failing cell linking to the findings of that step with their source lines', (t) => {
  const dir = site(t);
  const r = lint(dir, ['--format', 'html', '--output-file', 'report.html', '.']);
  assert.equal(r.code, 1, r.stderr);
  const page = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  assert.match(page, /^<!DOCTYPE html>/);
  assert.match(page, /<h2>kubernetes · 1\.21\.\.1\.23<\/h2>/);
  assert.match(page, /<th>1\.21<\/th>\s*<th>1\.22<\/th>\s*<th>1\.23<\/th>/);
  // Removed in 1.22: passes at 1.21, fails at 1.22 and 1.23.
  const ing = rowOf(page, 'deploy/ing.yaml');
  assert.deepEqual(ing.map((c) => c.verdict), ['pass', 'fail', 'fail']);
  assert.deepEqual(rowOf(page, 'deploy/cm.yaml').map((c) => c.verdict), ['pass', 'pass', 'pass']);
  // The cell's target holds the finding at that step, with its source line and the range marked.
  const target = ing[1].href.slice(1);
  const view = page.slice(page.indexOf(`id="${target}"`), page.indexOf('</div>', page.indexOf(`id="${target}"`)));
  assert.match(view, /<h4>at 1\.22: 1 error/);
  assert.match(view, /k8s\/removed-api<\/a>: extensions\/v1beta1 Ingress is removed in Kubernetes 1\.22/);
  assert.match(view, /<pre><span class="n">1<\/span>apiVersion: <mark>extensions\/v1beta1<\/mark><\/pre>/);
  // The per-step chart: one bar group per step; at 1.22 one of the four files fails.
  const svg = page.slice(page.indexOf('<svg'), page.indexOf('</svg>'));
  assert.match(svg, /<title>1\.22: 1 file failing<\/title>/);
  assert.match(svg, /<title>1\.21: 3 files passing<\/title>/);
  assert.match(svg, /<title>1\.21: 1 file with warnings<\/title>/);
  assert.doesNotMatch(svg, /<title>1\.21: \d+ files? failing/);
});

test('html: file names, messages and source lines are escaped; nothing of the file becomes markup', (t) => {
  const dir = site(t);
  lint(dir, ['--format', 'html', '--output-file', 'report.html', '.']);
  const page = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  assert.ok(!page.includes('<script'), 'no script element, not even the one the file spells');
  assert.ok(!page.includes('<b>&"x"'), 'the file name is not markup');
  assert.ok(page.includes('a&lt;b&gt;&amp;&quot;x&quot;.yaml'), 'the file name, escaped');
  assert.ok(page.includes('spec.&lt;script&gt;alert(1)&lt;/script&gt; is not a field'), 'the message, escaped');
  assert.ok(page.includes('<mark>&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</mark>'), 'the source line, escaped, its range marked');
});

test('html: self-contained, no external references (no script, style sheet, font, image or frame; CSP forbids loading)', (t) => {
  const dir = site(t);
  lint(dir, ['--format', 'html', '--output-file', 'report.html', '.']);
  const page = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
  for (const bad of [/<script\b/i, /<link\b/i, /<img\b/i, /<iframe\b/i, /<object\b/i, /<embed\b/i, /@import/i, /url\(/i, /\bsrc\s*=/i, /@font-face/i]) {
    assert.doesNotMatch(page, bad, `no ${bad}`);
  }
  // Every link is inside the page, or a rule's documentation page (followed only when clicked, never loaded).
  const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
  assert.ok(hrefs.length > 5);
  for (const h of hrefs) assert.ok(h.startsWith('#') || /^https:\/\/github\.com\/skewguard\/skewguard\/blob\/main\/docs\/rules\/[\w/-]+\.md$/.test(h), h);
  // The fragment links all have their target.
  for (const h of hrefs.filter((x) => x.startsWith('#'))) assert.ok(page.includes(`id="${h.slice(1)}"`), `target of ${h}`);
  // The only xmlns is SVG's namespace name (not fetched).
  assert.deepEqual([...new Set([...page.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]).filter((u) => !hrefs.includes(u)))], ['http://www.w3.org/2000/svg']);
});

test('markdown: the matrix of the files with findings, then the findings grouped by step', (t) => {
  const dir = site(t);
  const r = lint(dir, ['--format', 'markdown', '.']);
  assert.equal(r.code, 1, r.stderr);
  const md = r.stdout;
  assert.match(md, /^## ❌ skewguard: 1 error, 1 warning, 0 info in 2 of 4 checked files/);
  assert.match(md, /\| file \| 1\.21 \| 1\.22 \| 1\.23 \|/);
  assert.match(md, /\| <code>deploy\/ing\.yaml<\/code> \| ✅ \| ❌ 1 \| ❌ 1 \|/);
  assert.ok(!md.includes('<code>deploy/cm.yaml</code>'), 'a clean file is not a row');
  assert.match(md, /2 other files of this window pass at every step\./);
  const every = md.indexOf('#### At every step (1.21..1.23)'), at22 = md.indexOf('#### At 1.22'), at23 = md.indexOf('#### At 1.23');
  assert.ok(md.indexOf('| file |') < every && every < at22 && at22 < at23, 'matrix, then every step, then each step');
  assert.match(md.slice(at22, at23), /<code>deploy\/ing\.yaml&#58;1&#58;13<\/code> \*\*error\*\* \[k8s\/removed-api\]\(https:/);
  // Markup in names and messages is written as character references: no tag, no table cell break.
  assert.ok(!md.includes('<script>') && !md.includes('<b>'));
  assert.ok(md.includes('<code>a&#60;b&#62;&#38;"x".yaml</code>'));
  assert.doesNotMatch(md, /Left out/);
});

test('markdown: under GitHub\'s comment limit (65,536 characters), saying what it left out', (t) => {
  // 1,500 removed Ingresses in one file, 1,500 findings at two steps each: far more than a comment holds.
  const many = Array.from({ length: 1500 }, (_, i) => ING_BETA.replace('name: web', `name: web-${i}`)).join('---\n');
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.23'), 'big.yaml': many, 'ok.yaml': CM });
  const r = lint(dir, ['--format', 'markdown', '.']);
  assert.equal(r.code, 1, r.stderr);
  const md = r.stdout;
  assert.ok(md.length <= 65536, `${md.length} characters`);
  assert.ok([...md].length <= 65536);
  assert.ok(md.length > 60000, 'it uses the room it has');
  const m = /> \*\*Left out\*\* to stay under GitHub's comment limit \(65,536 characters\): (\d+) of 1500 findings\./.exec(md);
  assert.ok(m, md.slice(-600));
  const listed = new Set([...md.matchAll(/<code>big\.yaml&#58;(\d+)&#58;13<\/code>/g)].map((x) => x[1]));
  assert.equal(Number(m[1]), 1500 - listed.size, 'the count left out is what is not listed');
  assert.match(md, /\| <code>big\.yaml<\/code> \| ✅ \| ❌ 1500 \| ❌ 1500 \|/, 'the matrix comes first and is whole');
  assert.match(md, /<sub>skewguard \d/);
});

test('lsp-lint json: each finding\'s data says the steps it concerns', (t) => {
  const dir = site(t);
  const r = lint(dir, ['--format', 'json', '.']);
  const reports = JSON.parse(r.stdout);
  const ing = reports.find((x) => x.filePath.endsWith('ing.yaml'));
  assert.deepEqual(ing.messages.map((m) => [m.ruleId, m.data.steps]), [['k8s/removed-api', ['1.22', '1.23']]]);
  const hostile = reports.find((x) => x.filePath.endsWith('.yaml') && x.filePath.includes('<b>'));
  assert.deepEqual(hostile.messages[0].data.steps, ['1.21', '1.22', '1.23'], 'a field no version knows: every step');
});
