// docs/rules/ must be exactly what scripts/gen-docs.mjs generates from the rule registry, and every rule's
// documented examples must behave as documented: the bad example triggers the rule, the good one does not.
// Reads the built engine (dist/engine.js); `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { generateDocs, listDocs, rulesSettingProperties, filesSettingFields } from '../scripts/gen-docs.mjs';
import { exampleOverrides } from './helpers/example-options.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = require('../dist/engine.js');
const HINT = 'docs/rules/ is out of date: run `npm run build && npm run gen:docs` and commit the result';

// Examples that cannot be written as text (their text is a description in parentheses): the input the test uses.
const CONSTRUCTED = {
  'skewguard/skipped-file': { bad: 'system_mode: simplex\n\u0000\u0001\u0002 binary data\n' },
  'skewguard/internal-error': { bad: 'system_mode: simplex\n' },
};
// Files around an example that its text cannot hold (the rule's `what` says what they are): a chart's values.schema.json.
const AROUND = { 'helm/values-schema': { '/x/values.schema.json': '{ "type": "object", "properties": { "replicaCount": { "type": "integer" } } }\n' } };
// Rules whose bad example needs a stage to throw (fault injection, as SKEWGUARD_FAULT does in the server).
const FAULTS = { 'skewguard/internal-error': 'rule:starlingx/unknown-key' };
// Rules whose bad example shows the finding but not the quick fix its `fix` kind promises (the fix is conditional).
// Reported to the rule's owner; remove the entry once the example shows the fix (the test says when).
// Rules whose bad example deliberately shows no fix (none at the moment).
const FIX_NOT_IN_EXAMPLE = {};
// Suppressibility and fixed severity are the rules' own metadata; the engine and the docs both read it.
const NOT_SUPPRESSIBLE = Object.fromEntries(e.allRules.filter((r) => r.suppressible === false).map((r) => [r.id, true]));
const FIXED_SEVERITY = Object.fromEntries(e.allRules.filter((r) => r.fixedSeverity === true).map((r) => [r.id, true]));
const isDescription = (text) => /^\([^\n]*\)\s*$/.test(text);


function exampleText(rule, which) {
  const ex = rule[which];
  if (!isDescription(ex.text)) return ex.text;
  const t = CONSTRUCTED[rule.id]?.[which];
  assert.ok(t !== undefined, `${rule.id}: the ${which} example is a description (${ex.text}); add its input to CONSTRUCTED`);
  return t;
}

const isConfigFile = (filename) => /^\.skewguard\.ya?ml$/.test(path.basename(filename));

/** Findings of `rule` for one example, as the editor and lsp-lint would report them. */
function findings(rule, which, { prefix = '', rules } = {}) {
  const ex = rule[which];
  const text = prefix + exampleText(rule, which);
  if (isConfigFile(ex.filename)) {
    // .skewguard.yaml is not analysed as a document: the server publishes parseConfig()'s problems as config/invalid.
    assert.equal(rule.id, 'config/invalid', `${rule.id}: only config/invalid is reported on .skewguard.yaml`);
    return e.parseConfig(`/x/${ex.filename}`, text, e.ruleIds).problems.map((p) => ({ ruleId: 'config/invalid', severity: 'error', message: p.message }));
  }
  const { staleData, cli, neighbours } = exampleOverrides(ex.options);
  if (rules) cli.rules = rules;
  const config = e.resolveConfig({ cli });
  // Pin "today" to the data's date, or to a year after it when the example is about stale data.
  const asOf = Date.parse(e.kubernetesApis().asOf);
  const today = new Date(staleData ? asOf + 365 * 86400000 : asOf);
  const faults = which === 'bad' && FAULTS[rule.id] ? new Set([FAULTS[rule.id]]) : undefined;
  // A documented example is a file alone: a rule that looks at the files around it (AnalyzeInput.files) finds only it,
  // and, for a file of a Helm chart (templates/…, values.yaml), the smallest Chart.yaml that makes the folder a chart.
  return e.analyze({ path: `/x/${ex.filename}`, text, config, reportStaleData: true, today, faults, files: aloneIn(ex.filename, text, AROUND[rule.id], rule.id), neighbours }).diagnostics;
}
function aloneIn(filename, text, around = {}, id) {
  const files = new Map([[`/x/${filename}`, text], ...Object.entries(around)]);
  if (/^(templates\/|values\.ya?ml$)/.test(filename)) files.set('/x/Chart.yaml', 'apiVersion: v2\nname: example\nversion: 0.1.0\n');
  // A GitOps deployment (helm/deployment-*) is about the chart it deploys: its example has the chart of the rule's
  // fixture folder beside it (charts/<name>/), as a template's has the smallest Chart.yaml.
  if (/^helm\/deployment-/.test(id ?? '')) {
    const charts = path.join(repoRoot, 'test', 'fixtures', 'rules', ...id.split('/'), 'charts');
    const walk = (dir, rel) => { for (const d of fs.readdirSync(dir, { withFileTypes: true })) { if (d.isDirectory()) walk(path.join(dir, d.name), `${rel}/${d.name}`); else files.set(`/x/charts${rel}/${d.name}`, fs.readFileSync(path.join(dir, d.name), 'utf8')); } };
    walk(charts, '');
  }
  const list = (dir) => {
    const names = new Map();
    for (const f of files.keys()) if (f.startsWith(`${dir}/`)) { const rest = f.slice(dir.length + 1); const i = rest.indexOf('/'); names.set(i < 0 ? rest : rest.slice(0, i), i >= 0); }
    return names.size ? [...names].map(([name, d]) => ({ name, dir: d })).sort((a, b) => (a.name < b.name ? -1 : 1)) : undefined;
  };
  return { read: (p) => files.get(p), readBytes: (p) => (files.has(p) ? Buffer.from(files.get(p)) : undefined), list };
}

const show = (ds) => ds.map((d) => `${d.ruleId}: ${d.message}`).join('\n  ') || '(nothing)';

test('the registry has rules, with unique ids and complete metadata', () => {
  assert.ok(e.allRules.length > 0);
  assert.equal(new Set(e.allRules.map((r) => r.id)).size, e.allRules.length, 'duplicate rule ids');
  for (const r of e.allRules) {
    for (const k of ['id', 'family', 'defaultSeverity', 'title', 'what', 'why']) assert.ok(r[k], `${r.id}: ${k} is empty`);
    assert.ok(r.bad?.filename && r.bad.text, `${r.id}: bad example missing`);
    assert.ok(r.good?.filename && r.good.text, `${r.id}: good example missing`);
    assert.ok(Array.isArray(r.sources) && r.sources.length > 0, `${r.id}: no sources`);
    assert.ok(['complete', 'suggestion', 'partial', 'none', undefined].includes(r.fix), `${r.id}: fix "${r.fix}"`);
  }
});

test('every generated page equals the committed file', () => {
  const stale = [];
  for (const [rel, contents] of generateDocs(e.allRules)) {
    const abs = path.join(repoRoot, rel);
    if (!fs.existsSync(abs)) stale.push(`${rel} (missing)`);
    else if (fs.readFileSync(abs, 'utf8') !== contents) stale.push(`${rel} (differs)`);
  }
  assert.deepEqual(stale, [], `${HINT}:\n  ${stale.join('\n  ')}`);
});

test('no page under docs/rules/ that the generator does not produce', () => {
  const generated = generateDocs(e.allRules);
  const extra = listDocs(repoRoot).filter((rel) => !generated.has(rel));
  assert.deepEqual(extra, [], `${HINT} (it deletes stale pages):\n  ${extra.join('\n  ')}`);
});

test('every rule has a page at the URL its diagnostics link to', () => {
  const generated = generateDocs(e.allRules);
  for (const r of e.allRules) {
    assert.ok(e.docsUrl(r.id).endsWith(`/docs/rules/${r.id}.md`), e.docsUrl(r.id));
    assert.ok(generated.has(`docs/rules/${r.id}.md`), r.id);
    assert.match(generated.get('docs/rules/README.md'), new RegExp(`\\]\\(${r.id}\\.md\\)`), `${r.id} missing from the index`);
  }
});

test('docs/rules/index.md is generated: the same index as docs/rules/README.md, listing every rule', () => {
  const generated = generateDocs(e.allRules);
  assert.ok(generated.has('docs/rules/index.md'), 'the generator does not produce docs/rules/index.md');
  assert.equal(generated.get('docs/rules/index.md'), generated.get('docs/rules/README.md'));
  for (const r of e.allRules) assert.match(generated.get('docs/rules/index.md'), new RegExp(`\\]\\(${r.id}\\.md\\)`), `${r.id} missing from index.md`);
  const committed = path.join(repoRoot, 'docs/rules/index.md');
  assert.ok(fs.existsSync(committed), `docs/rules/index.md is missing: ${HINT}`);
  assert.equal(fs.readFileSync(committed, 'utf8'), generated.get('docs/rules/index.md'), `docs/rules/index.md differs: ${HINT}`);
});

test('generation is deterministic', () => {
  const a = generateDocs(e.allRules);
  const b = generateDocs(e.allRules);
  assert.deepEqual([...a], [...b]);
  for (const [rel, contents] of a) assert.ok(contents.endsWith('\n') && !contents.endsWith('\n\n'), `${rel}: must end with one newline`);
});

for (const rule of e.allRules) {
  test(`${rule.id}: the bad example triggers it`, () => {
    const ds = findings(rule, 'bad');
    assert.ok(ds.some((d) => d.ruleId === rule.id), `${rule.id} did not fire on its bad example; got:\n  ${show(ds)}`);
    for (const d of ds.filter((x) => x.ruleId === rule.id)) assert.equal(d.severity, rule.defaultSeverity, `${rule.id}: severity`);
  });

  test(`${rule.id}: the good example does not trigger it`, () => {
    const ds = findings(rule, 'good');
    assert.ok(!ds.some((d) => d.ruleId === rule.id), `${rule.id} fired on its good example:\n  ${show(ds)}`);
  });

  if (!isConfigFile(rule.bad.filename)) {
    test(`${rule.id}: the bad example offers the documented kind of fix (${rule.fix ?? 'none'})`, () => {
      const own = findings(rule, 'bad').filter((d) => d.ruleId === rule.id);
      const fixes = own.flatMap((d) => d.fixes ?? []);
      switch (rule.fix ?? 'none') {
        case 'complete':
          assert.ok(own.every((d) => d.fixes?.some((f) => f.preferred && !f.partial)), `${rule.id}: every finding needs a preferred fix for fix-all`);
          break;
        case 'suggestion':
          if (FIX_NOT_IN_EXAMPLE[rule.id]) assert.equal(fixes.length, 0, `${rule.id}: the example now offers a fix; remove it from FIX_NOT_IN_EXAMPLE`);
          else assert.ok(fixes.length > 0, `${rule.id}: no quick fix offered`);
          assert.ok(!fixes.some((f) => f.preferred), `${rule.id}: a suggestion must not be applied by fix-all (preferred)`);
          break;
        case 'partial':
          assert.ok(fixes.some((f) => f.partial), `${rule.id}: no partial fix offered`);
          break;
        default:
          assert.deepEqual(fixes, [], `${rule.id}: documented as not fixable but offers fixes`);
      }
    });

    test(`${rule.id}: severity can be set as documented`, () => {
      const off = findings(rule, 'bad', { rules: { [rule.id]: 'off' } });
      const hint = findings(rule, 'bad', { rules: { [rule.id]: 'hint' } });
      if (FIXED_SEVERITY[rule.id]) {
        // Documented as fixed: neither off nor hint changes it.
        for (const ds of [off, hint]) {
          const own = ds.filter((d) => d.ruleId === rule.id);
          assert.ok(own.length > 0 && own.every((d) => d.severity === rule.defaultSeverity), `${rule.id} has fixedSeverity but the rules: setting changed it:\n  ${show(ds)}`);
        }
        return;
      }
      assert.ok(!off.some((d) => d.ruleId === rule.id), `${rule.id} still fires when off`);
      assert.ok(hint.some((d) => d.ruleId === rule.id && d.severity === 'hint'), `${rule.id}: severity hint not applied`);
    });

    test(`${rule.id}: suppression comments work as documented`, () => {
      const prefix = `# skewguard-disable-file ${rule.id} -- documented example\n`;
      const ds = findings(rule, 'bad', { prefix });
      if (NOT_SUPPRESSIBLE[rule.id] && /\.json$/.test(rule.bad.filename)) {
        // JSON has no comments: the comment line itself is a syntax error, and nothing is suppressed.
        assert.ok(ds.some((d) => d.ruleId === 'syntax/parse-error'), `${rule.id}: a # line in JSON should be a parse error:\n  ${show(ds)}`);
      } else if (NOT_SUPPRESSIBLE[rule.id]) {
        assert.ok(ds.some((d) => d.ruleId === rule.id), `${rule.id} is documented as not suppressible, but a disable-file comment silenced it`);
      } else {
        assert.ok(!ds.some((d) => d.ruleId === rule.id), `${rule.id} not suppressed by disable-file:\n  ${show(ds)}`);
        assert.ok(!ds.some((d) => d.ruleId === 'skewguard/unused-suppression'), `the suppression was reported as unused:\n  ${show(ds)}`);
      }
    });
  }
}

test('config/invalid: .skewguard.yaml problems are errors whatever rules: says (as documented)', () => {
  const loaded = e.parseConfig('/x/.skewguard.yaml', 'rules:\n  config/invalid: "off"\nkubernetes:\n  windw: "1.18..1.21"\n', e.ruleIds);
  assert.ok(loaded.problems.length > 0, 'the misspelt key was not reported');
});

test('suppressible / fixedSeverity: each rule that is not suppressible or has a fixed severity says why in its docs, and only those', () => {
  for (const r of e.allRules) {
    assert.ok(r.suppressible === undefined || typeof r.suppressible === 'boolean', `${r.id}: suppressible`);
    assert.ok(r.fixedSeverity === undefined || typeof r.fixedSeverity === 'boolean', `${r.id}: fixedSeverity`);
    assert.equal(Boolean(r.docs?.suppressing), r.suppressible === false, `${r.id}: docs.suppressing must be given exactly when suppressible is false`);
    assert.equal(Boolean(r.docs?.severity), r.fixedSeverity === true, `${r.id}: docs.severity must be given exactly when fixedSeverity is true`);
  }
  // The engine's own sets are the metadata, not a list of its own.
  assert.deepEqual([...e.notSuppressible].sort(), Object.keys(NOT_SUPPRESSIBLE).sort());
  assert.deepEqual([...e.fixedSeverity].sort(), Object.keys(FIXED_SEVERITY).sort());
  assert.ok(e.fixedSeverity.has('skewguard/internal-error') && e.fixedSeverity.has('config/invalid'));
  for (const id of ['syntax/parse-error', 'skewguard/internal-error', 'config/invalid']) assert.ok(e.notSuppressible.has(id), id);
});

test('package.json offers exactly the rules whose severity can be changed as skewguard.rules settings, generated from the metadata', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties['skewguard.rules'].properties;
  assert.deepEqual(Object.keys(props).sort(), e.allRules.filter((r) => !r.fixedSeverity).map((r) => r.id).sort(),
    'stale: run `npm run build && npm run gen:docs`');
  for (const id of Object.keys(FIXED_SEVERITY)) assert.ok(!(id in props), `${id} has a fixed severity but is offered as a setting`);
  assert.deepEqual(props, rulesSettingProperties(e.allRules, e.SEVERITIES, e.docsUrl), 'stale: run `npm run gen:docs`');
});

test('package.json\'s skewguard.files values and their description are the family registry\'s, generated', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const files = pkg.contributes.configuration.properties['skewguard.files'];
  const want = filesSettingFields(e.families);
  assert.deepEqual(want.enum, e.families.map((f) => f.id));
  assert.deepEqual(files.additionalProperties.enum, want.enum, 'stale: run `npm run gen:docs`');
  assert.equal(files.markdownDescription, want.markdownDescription, 'stale: run `npm run gen:docs`');
  for (const f of e.families) assert.ok(files.markdownDescription.includes(`\`${f.id}\``), f.id);
  // A family added to the registry changes both.
  const more = filesSettingFields([...e.families, { id: 'new-family', title: 'New files' }]);
  assert.deepEqual(more.enum.slice(-1), ['new-family']);
  assert.ok(more.markdownDescription.includes(`\`${e.families.at(-1).id}\` or \`new-family\``), more.markdownDescription);
});

test('the docs\' family sections are the registry\'s families, in its order, titled by each module', () => {
  const index = generateDocs(e.allRules).get('docs/rules/README.md');
  const headings = [...index.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
  assert.deepEqual(headings, ['General (any checked file)', ...e.families.map((f) => f.title)]);
  const renamed = generateDocs(e.allRules, e.families.map((f) => ({ ...f, title: `Title of ${f.id}` }))).get('docs/rules/README.md');
  assert.match(renamed, /^## Title of kata-config$/m);
});

test('a rule that is not suppressible is not silenced by suppression text inside a persist.json string', () => {
  // JSON has no comments, but the text "# skewguard-disable-file" can sit inside a string value: it must not count.
  const config = e.resolveConfig({ cli: { kataWindow: '3.2..3.32' } });
  const rule = e.allRules.find((r) => r.id === 'kata-persist/persist-version');
  const plain = e.analyze({ path: '/x/persist.json', text: rule.bad.text, config }).diagnostics.filter((d) => d.ruleId === rule.id);
  assert.ok(plain.length > 0, 'the bad example does not fire');
  const text = rule.bad.text.replace(/^\{/, `{"note": "# skewguard-disable-file ${rule.id} -- lab",`);
  assert.notEqual(text, rule.bad.text);
  const ds = e.analyze({ path: '/x/persist.json', text, config }).diagnostics;
  assert.ok(ds.some((d) => d.ruleId === rule.id), `suppressed by text in a string:\n  ${show(ds)}`);
});
