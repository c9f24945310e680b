// Per-rule fixtures with expected-findings snapshots (as ruff's resources/test/fixtures/<linter>/<code>.py and
// snapshots/): test/fixtures/rules/<rule-id>/ (the rule id's `/` is a folder) holds
//   cases.json      {"cases": [{"input": "<file in the folder>", "as": "<path it is analysed as>",
//                               "options": "StarlingX 6.0, Kubernetes 1.21..1.22, Kata 3.0..3.32, go",
//                               "rules": {"<id>": "<severity>"}, "faults": ["rule:<id>"],
//                               "expect": "finding" | "none",
//                               "name": "<what differs, when one input is checked under several options>"}]}
//                   ("files": true beside "cases": the engine may read the fixture folder, as /x/…, like the disk)
//   <input files>   the inputs, written after the patterns of real files (no upstream prose)
//   snapshot.json   the exact findings of every case (every rule's, not only this one's): position (1-based
//                   line:column, UTF-16 columns, as the editor shows them), severity, message, and each fix's title,
//                   kind and the whole fixed text. The rule's documented bad/good examples are cases too
//                   ("docs:bad", "docs:good").
// One test per rule id in the registry: a rule without fixtures fails, and so does a fixture folder no rule owns.
// UPDATE_SNAPSHOTS=1 node --test test/rule-fixtures.test.mjs rewrites the snapshots on purpose (review the diff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { exampleOverrides } from './helpers/example-options.mjs';
import { fsAccess } from './helpers/fs-access.mjs';
import { lineStarts } from './helpers/line-starts.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = require('../dist/engine.js');
const FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'rules');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

// Documented examples that are a description, not text (see test/docs-fresh.test.mjs): the input used instead.
const CONSTRUCTED = {
  'skewguard/skipped-file': 'system_mode: simplex\n\u0000\u0001\u0002 binary data\n',
  'skewguard/internal-error': 'system_mode: simplex\n',
};
const DOC_FAULTS = { 'skewguard/internal-error': ['rule:starlingx/unknown-key'] };


const offsetOf = (starts, pos) => starts[pos.line] + pos.character;
const where = (r) => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;

/** The text after one fix: its edits applied from the end backwards. */
function applyFix(text, fix) {
  const starts = lineStarts(text);
  const edits = fix.edits.map((x) => ({ s: offsetOf(starts, x.range.start), e: offsetOf(starts, x.range.end), t: x.newText }))
    .sort((a, b) => b.s - a.s || b.e - a.e);
  let out = text;
  for (const x of edits) out = out.slice(0, x.s) + x.t + out.slice(x.e);
  return out;
}

// The first stack frame of an internal error names a line of dist/engine.js, which every build moves.
const stable = (message) => message.replace(/ \(at [^()]*:\d+:\d+\)/g, ' (at <frame>)');

function snapshotOf(text, diagnostics) {
  return diagnostics.map((d) => {
    const out = { rule: d.ruleId, at: where(d.range), severity: d.severity, message: stable(d.message) };
    if (d.fixes?.length) {
      out.fixes = d.fixes.map((f) => ({
        title: f.title, ...(f.preferred ? { preferred: true } : {}), ...(f.partial ? { partial: true } : {}), fixed: applyFix(text, f),
      }));
    }
    return out;
  });
}

/**
 * The files around an input, as the language server gives them to the engine (AnalyzeInput.files): `/x/…` is the
 * rule's fixture folder, so a case can name files next to it.
 */
function folderFiles(dir) {
  const real = (abs) => (abs.startsWith('/x/') || abs === '/x' ? path.join(dir, abs.slice(3)) : undefined);
  return {
    read(abs) { const p = real(abs); try { return p && fs.statSync(p).isFile() ? fs.readFileSync(p, 'utf8') : undefined; } catch { return undefined; } },
    readBytes(abs) { const p = real(abs); try { return p && fs.statSync(p).isFile() ? fs.readFileSync(p) : undefined; } catch { return undefined; } },
    list(abs) { const p = real(abs); try { return p ? fs.readdirSync(p, { withFileTypes: true }).map((d) => ({ name: d.name, dir: d.isDirectory() })).sort((a, b) => (a.name < b.name ? -1 : 1)) : undefined; } catch { return undefined; } },
  };
}

/** Every finding for one input, as the editor and lsp-lint report them. */
function run({ as, text, options, rules, faults, chart, dir, folder }) {
  if (/^\.skewguard\.ya?ml$/.test(path.basename(as))) {
    // .skewguard.yaml is not analysed as a document: its problems are config/invalid findings (as the server publishes them).
    const meta = e.ruleById('config/invalid');
    const starts = lineStarts(text);
    const pos = (o) => { let l = 0; while (l + 1 < starts.length && starts[l + 1] <= o) l++; return { line: l, character: o - starts[l] }; };
    return e.parseConfig(`/x/${as}`, text, e.ruleIds).problems.map((p) => ({
      ruleId: meta.id, severity: meta.defaultSeverity, message: p.message,
      range: p.range ? { start: pos(p.range.start), end: pos(p.range.end) } : { start: pos(0), end: pos(0) },
    }));
  }
  const { cli, staleData, neighbours } = exampleOverrides(options);
  if (rules) cli.rules = rules;
  const config = e.resolveConfig({ cli });
  const asOf = Date.parse(e.kubernetesApis().asOf);
  const today = new Date(staleData ? asOf + 365 * 86400000 : asOf);
  // `chart: true`: the file is analysed where it is in the fixture folder, with the files around it (a Helm chart's);
  // `"files": true` in cases.json: the engine reads the fixture folder as `/x/` (as the language server gives it the disk).
  const file = chart ? path.join(folder, as) : as.startsWith('/') ? as : `/x/${as}`;
  return e.analyze({ path: file, text, config, reportStaleData: true, today, faults: faults?.length ? new Set(faults) : undefined, files: chart ? fsAccess() : dir && folderFiles(dir), neighbours }).diagnostics;
}

/** The rule's cases: its documented examples, then its fixture folder's. */
function casesOf(rule) {
  const folder = path.join(FIXTURES, ...rule.id.split('/'));
  const file = path.join(folder, 'cases.json');
  const spec = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { cases: [] };
  const own = spec.cases;
  // "files": true — the engine gets read access to the fixture folder (as the language server gives it the disk).
  const dir = spec.files === true ? folder : undefined;
  const docText = (ex) => (/^\([^\n]*\)\s*$/.test(ex.text) ? CONSTRUCTED[rule.id] : ex.text);
  const cases = [
    { name: 'docs:bad', as: rule.bad.filename, text: docText(rule.bad), options: rule.bad.options, faults: DOC_FAULTS[rule.id], expect: 'finding', dir },
    { name: 'docs:good', as: rule.good.filename, text: docText(rule.good), options: rule.good.options, expect: 'none', dir },
  ];
  for (const c of own) {
    assert.ok(c.input && c.as && ['finding', 'none'].includes(c.expect), `${rule.id}: case ${JSON.stringify(c)} needs input, as and expect (finding|none)`);
    cases.push({ ...c, name: c.name ? `${c.input} (${c.name})` : c.input, text: c.input.endsWith('.tgz') ? '' : fs.readFileSync(path.join(folder, c.input), 'utf8'), dir, folder });
  }
  return { dir: folder, own, cases };
}

test('every fixture folder under test/fixtures/rules/ belongs to a rule in the registry', () => {
  const folders = [];
  const walk = (abs, rel) => {
    for (const d of fs.readdirSync(abs, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const sub = rel ? `${rel}/${d.name}` : d.name;
      if (fs.existsSync(path.join(abs, d.name, 'cases.json'))) folders.push(sub);
      else walk(path.join(abs, d.name), sub);
    }
  };
  walk(FIXTURES, '');
  assert.deepEqual(folders.filter((f) => !e.ruleIds.has(f)), [], 'fixture folders for rule ids the registry does not have');
});

for (const rule of e.allRules) {
  test(`${rule.id}: fixtures match the snapshot`, () => {
    const { dir, own, cases } = casesOf(rule);
    assert.ok(own.some((c) => c.expect === 'finding') && own.some((c) => c.expect === 'none'),
      `${rule.id}: test/fixtures/rules/${rule.id}/cases.json needs at least one case that triggers the rule and one that does not`);
    const actual = {};
    for (const c of cases) {
      const ds = run(c);
      const mine = ds.filter((d) => d.ruleId === rule.id);
      if (c.expect === 'finding') assert.ok(mine.length > 0, `${rule.id} ${c.name}: expected a finding of the rule, got ${JSON.stringify(snapshotOf(c.text, ds), null, 1)}`);
      else assert.deepEqual(snapshotOf(c.text, mine), [], `${rule.id} ${c.name}: expected no finding of the rule`);
      actual[c.name] = snapshotOf(c.text, ds);
    }
    const snapFile = path.join(dir, 'snapshot.json');
    const next = `${JSON.stringify(actual, null, 2)}\n`;
    if (UPDATE) { fs.mkdirSync(dir, { recursive: true }); if (!fs.existsSync(snapFile) || fs.readFileSync(snapFile, 'utf8') !== next) fs.writeFileSync(snapFile, next); return; }
    assert.ok(fs.existsSync(snapFile), `${rule.id}: no snapshot; run UPDATE_SNAPSHOTS=1 node --test test/rule-fixtures.test.mjs and review it`);
    assert.deepEqual(actual, JSON.parse(fs.readFileSync(snapFile, 'utf8')), `${rule.id}: findings differ from test/fixtures/rules/${rule.id}/snapshot.json (UPDATE_SNAPSHOTS=1 rewrites it on purpose)`);
  });
}
