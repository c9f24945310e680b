// Corpus snapshot: every file under examples/ and every manifest fixture under test/fixtures/kubernetes/, linted
// with the engine (dist/engine.js analyze) at four one-version Kubernetes windows (1.16, 1.22, 1.25, 1.29), must give
// exactly the findings stored in test/snapshots/corpus-crlf.json (rule id, line, column, severity, message; lines
// and columns 1-based, as lsp-lint prints them), and an LF and a CRLF copy of each file (made in memory) must give
// identical findings at identical positions (issue #12: a CRLF multi-document manifest was not checked at all).
//
// Regenerate the snapshot on purpose (after a message changes, a rule is added, a fixture is added) with ONE command:
//
//   npm run build --silent && UPDATE_SNAPSHOTS=1 node --test test/corpus-crlf.test.mjs
//
// and review the diff of test/snapshots/corpus-crlf.json. Without UPDATE_SNAPSHOTS the test only compares.
// Reads the built engine; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SNAPSHOT = path.join(repoRoot, 'test/snapshots/corpus-crlf.json');
const WINDOWS = ['1.16', '1.22', '1.25', '1.29'];
// Data files among the Kubernetes fixtures, not manifests (the lifecycle tables other tests read).
const NOT_MANIFESTS = new Set(['test/fixtures/kubernetes/kubent-rules.json', 'test/fixtures/kubernetes/pluto-versions.yaml']);

function walk(dir) {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const ent of fs.readdirSync(path.join(repoRoot, d), { withFileTypes: true })) {
      const rel = `${d}/${ent.name}`;
      if (ent.isDirectory()) stack.push(rel);
      else out.push(rel);
    }
  }
  return out.sort();
}

const files = [
  ...walk('examples').filter((f) => !f.endsWith('.md')),
  ...walk('test/fixtures/kubernetes').filter((f) => /\.(ya?ml|json)$/.test(f) && !NOT_MANIFESTS.has(f)),
];

const findings = (r) => r.diagnostics.map((d) => ({
  rule: d.ruleId, line: d.range.start.line + 1, column: d.range.start.character + 1,
  endLine: d.range.end.line + 1, endColumn: d.range.end.character + 1, severity: d.severity, message: d.message,
}));

function lint(rel, text, window) {
  const config = e.resolveConfig({ cli: { kubernetesWindow: window } });
  const r = e.analyze({ path: path.join(repoRoot, rel), text, config, root: repoRoot, today: new Date('2026-01-01T00:00:00Z') });
  return { family: r.family ?? null, findings: findings(r) };
}

test('corpus: examples/ and the Kubernetes fixtures at 1.16, 1.22, 1.25 and 1.29: the snapshot, and CRLF gives what LF gives', () => {
  assert.ok(files.length > 40, `only ${files.length} files found`);
  const actual = {};
  for (const rel of files) {
    const raw = fs.readFileSync(path.join(repoRoot, rel), 'utf8');
    const lf = raw.replace(/\r\n?/g, '\n');
    const crlf = lf.replace(/\n/g, '\r\n');
    actual[rel] = {};
    for (const w of WINDOWS) {
      const a = lint(rel, lf, w);
      const b = lint(rel, crlf, w);
      assert.deepEqual(b, a, `${rel} at ${w}: the CRLF copy differs from the LF copy`);
      actual[rel][w] = a;
    }
  }
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    fs.mkdirSync(path.dirname(SNAPSHOT), { recursive: true });
    fs.writeFileSync(SNAPSHOT, `${JSON.stringify(actual, null, 1)}\n`);
    return;
  }
  assert.ok(fs.existsSync(SNAPSHOT), `no snapshot: run UPDATE_SNAPSHOTS=1 node --test test/corpus-crlf.test.mjs`);
  const expected = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8'));
  assert.deepEqual(Object.keys(actual), Object.keys(expected), 'the corpus files changed: regenerate the snapshot (see the header)');
  for (const rel of Object.keys(expected)) {
    assert.deepEqual(actual[rel], expected[rel], `${rel}: findings differ from test/snapshots/corpus-crlf.json (regenerate on purpose: see the header)`);
  }
});
