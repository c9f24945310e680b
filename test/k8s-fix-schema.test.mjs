// Issue #16 item 2 ("every conversion fix is proven against the target schema"): every fix the Kubernetes rules offer
// for the conversion fixtures (test/fixtures/kubernetes/conversions/*.before.* and fix-schema/all-pairs.yaml), over windows that
// cover every minor of the field table, is applied, and every field path of the result is looked up in the field
// table (data/kubernetes/fields/fields.json, engine/families/kubernetes/data/fields.ts) at every minor of the window that has a
// source:
//   - a complete fix: every path is served there (or lies in a free-form map); no path the table does not know;
//     a path the source object already had that the source apiVersion does not serve at that minor either is the
//     source's (k8s/field-not-served reports it where it is written), not the fix's;
//   - a partial fix: every path the fix wrote (not in the source object) is served there; what it left is the
//     person's, and the fix says so.
// Every (from, to, kind) pair of engine/families/kubernetes/data/convert.ts is exercised: by an offered fix, or, for the pairs no
// rule chooses in these windows (the rules pick the best target; e.g. autoscaling/v2 -> v1), by the conversion itself
// on a fixture object, checked the same way at every minor with a source that serves both ends.
// Reads only the repo. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { repoRoot, engine as e, analyze, applyEdits } from './helpers/k8s.mjs';

const F = e.k8sFields;
const table = F.fieldTable();
const dir = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'conversions');
const extra = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'fix-schema');
const inputs = [...fs.readdirSync(dir).filter((f) => /\.before\.(ya?ml|json)$/.test(f)).map((f) => path.join(dir, f)), path.join(extra, 'all-pairs.yaml')];
const gaps = new Set(Object.keys(table.gaps ?? {}).map(Number));
// A kind served at a minor whose field source has no type for it (1.37: client-go's schema has no apiextensions or
// apiregistration types): its fields are not checked there (k8s/fields-not-checked), so neither is a fix to it.
const unsaidKind = (m, a) => table.sources[String(m)]?.servedNotInSchema?.includes(`${a.apiVersion} ${a.kind}`) ?? false;

// Windows: every single minor of the table (Pluto's one-target semantics) and every four-minor window.
const WINDOWS = [];
for (let m = table.first; m <= table.last; m++) WINDOWS.push([m]);
for (let m = table.first; m + 3 <= table.last; m++) WINDOWS.push([m, m + 1, m + 2, m + 3]);
const windowText = (w) => (w.length > 1 ? `1.${w[0]}..1.${w.at(-1)}` : `1.${w[0]}`);

/** Every key path of a JSON value, as segment arrays (array items keep their index). */
function paths(v, at = [], out = []) {
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push([...at, k]); paths(x, [...at, k], out); }
  return out;
}
const key = (segs) => segs.map(String).join('\u0000');

/** The objects of a document: itself, or a List's items (with their path). */
const objectsOf = (doc) => (doc && doc.kind === 'List' && Array.isArray(doc.items) ? doc.items.map((o, i) => ({ o, at: ['items', i] })) : [{ o: doc, at: [] }]);

/** The table node of a path of an object (array indices skipped: the items share the list's node). */
function nodeOf(root, segs) {
  let n = root;
  for (const s of segs) if (typeof s === 'string') n = n.child(s);
  return n;
}

const checked = new Set();
const problems = [];
let judged = 0;

/** Whether the source object's own path is not served by the source apiVersion at bit (what the fix kept as it was). */
function sourceUnserved(b, p, bit) {
  const r = F.rootNode(b.apiVersion, b.kind);
  if (!r) return false;
  const n = nodeOf(r, p);
  return !(n.served & bit) && !(n.freeForm & bit);
}

function checkResult(before, after, fix, file, w) {
  const docsAfter = YAML.parseAllDocuments(after).map((d) => d.toJS());
  const docsBefore = YAML.parseAllDocuments(before).map((d) => d.toJS());
  for (let di = 0; di < docsAfter.length; di++) {
    const objsA = objectsOf(docsAfter[di]);
    const objsB = objectsOf(docsBefore[di]);
    for (let oi = 0; oi < objsA.length; oi++) {
      const a = objsA[oi].o, b = objsB[oi]?.o;
      if (!a || !b || a.apiVersion === b.apiVersion) continue; // not the object this fix moved
      checked.add(`${b.apiVersion}\u0000${a.apiVersion}\u0000${a.kind}`);
      const root = F.rootNode(a.apiVersion, a.kind);
      if (!root) { problems.push(`${file} @ ${windowText(w)}: ${a.apiVersion} ${a.kind} (fix "${fix.title}") is not in the field table`); continue; }
      const had = new Set(paths(b).map(key));
      const strip = (p) => p[0] !== 'status' && !(p.length === 1 && (p[0] === 'apiVersion' || p[0] === 'kind'));
      const mine = paths(a).filter(strip).filter((p) => !fix.partial || !had.has(key(p)));
      for (const m of w) {
        if (gaps.has(m) || unsaidKind(m, a)) continue;
        const bit = F.minorBit(m);
        assert.ok(root.kindServed & bit, `${file}: fix "${fix.title}" targets ${a.apiVersion} ${a.kind}, not served at 1.${m} (window ${windowText(w)})`);
        for (const p of mine) {
          // a path inside a free-form map is served when its parent is free-form there
          let free = false;
          let n = root;
          for (const s of p) {
            if (typeof s !== 'string') continue;
            if (n.freeForm & bit) { free = true; break; }
            n = n.child(s);
          }
          judged++;
          if (free || (n.served & bit) || (n.freeForm & bit)) continue;
          if (had.has(key(p)) && sourceUnserved(b, p, bit)) continue;
          problems.push(`${file} @ ${windowText(w)}: fix "${fix.title}" leaves ${F.pathText(p)} in ${a.apiVersion} ${a.kind}, ${n.served ? `not served at 1.${m}` : 'unknown to the field table'}`);
        }
      }
    }
  }
}

test('#16 every conversion fix the Kubernetes rules offer is proven against the field table at every minor of its window', () => {
  let fixes = 0;
  for (const f of inputs) {
    const text = fs.readFileSync(f, 'utf8');
    for (const w of WINDOWS) {
      const diags = analyze(`/w/${path.basename(f).replace('.before', '')}`, text, windowText(w)).diagnostics.filter((d) => d.ruleId.startsWith('k8s/'));
      for (const d of diags) {
        for (const fix of d.fixes ?? []) {
          if (!fix.edits?.length) continue;
          fixes++;
          checkResult(text, applyEdits(text, fix.edits), fix, f, w);
        }
      }
    }
  }
  assert.ok(fixes > 100, `fixes applied: ${fixes}`);
  assert.ok(judged > 1000, `paths judged: ${judged}`);
  assert.deepEqual(problems, []);
});

test('#16 the fixes proven above, and the conversion itself for the pairs no rule chose, cover every pair of engine/families/kubernetes/data/convert.ts', () => {
  // (runs after the test above in this file: node's runner keeps the order)
  const pairs = e.k8sConvert.conversionPairs().filter((p) => !/List$/.test(p.kind));
  const offered = pairs.filter((p) => checked.has(`${p.from}\u0000${p.to}\u0000${p.kind}`));
  assert.ok(offered.length >= pairs.length - 8, `pairs reached through the rules: ${offered.length} of ${pairs.length}`);
  const before = problems.length;
  const missing = [];
  for (const p of pairs) {
    if (checked.has(`${p.from}\u0000${p.to}\u0000${p.kind}`)) continue;
    let found = false;
    for (const f of inputs) {
      const text = fs.readFileSync(f, 'utf8');
      const file = e.parseYaml(text);
      file.docs.forEach((doc, di) => {
        const v = doc.value;
        if (!v || v.apiVersion !== p.from || v.kind !== p.kind) return;
        found = true;
        const ed = new e.YamlEditor(text, doc, f.endsWith('.json'));
        const conv = e.k8sConvert.convert(ed, [], v, p.to);
        assert.ok(conv, `${p.from} -> ${p.to} ${p.kind}: converts`);
        const after = applyEdits(text, ed.edits.map((x) => ({ range: { start: pos(text, x.range.start), end: pos(text, x.range.end) }, newText: x.newText })));
        // every minor with a source that serves both ends
        const both = [];
        for (let m = table.first; m <= table.last; m++) {
          const bit = F.minorBit(m);
          if (!gaps.has(m) && (F.rootNode(p.from, p.kind)?.kindServed & bit) && (F.rootNode(p.to, p.kind)?.kindServed & bit)) both.push(m);
        }
        assert.ok(both.length, `${p.from} -> ${p.to} ${p.kind}: some minor serves both`);
        for (const m of both) checkResult(text, after, { title: `convert ${p.from} -> ${p.to} (doc ${di})`, partial: !conv.complete }, f, [m]);
      });
    }
    if (!found) missing.push(`${p.from} -> ${p.to} ${p.kind}`);
  }
  assert.deepEqual(missing, [], 'pairs without a fixture object');
  assert.deepEqual(problems.slice(before), []);
  const unreached = pairs.filter((p) => !checked.has(`${p.from}\u0000${p.to}\u0000${p.kind}`)).map((p) => `${p.from} -> ${p.to} ${p.kind}`);
  assert.deepEqual(unreached, []);
});

/** Offset -> LSP position. */
function pos(text, off) {
  let line = 0, last = 0;
  for (let i = 0; i < off; i++) if (text[i] === '\n') { line++; last = i + 1; }
  return { line, character: off - last };
}

// Issue #27 item 2: the conversions of chart templates. Each helm/removed-api fix of test/fixtures/charts/workloads-v1beta1
// is applied to the template, and the template before and after is rendered at every step of the window (the
// embedded evaluator, the chart's values and helpers, each step's .Capabilities): the rendered object is proven as
// above against the field table, and an apps/v1 workload's selector must be a map of strings that the pod template's
// labels hold at that step (what the API server checks). Templates whose labels no selector can copy get no fix.
const CHART = path.join(repoRoot, 'test', 'fixtures', 'charts', 'workloads-v1beta1');
const TEMPLATE_WINDOW = '1.15..1.18';

function renderAt(rel, text, minor) {
  const h = e.helmTemplate;
  const templates = new Map();
  for (const f of fs.readdirSync(path.join(CHART, 'templates'))) {
    const r = `templates/${f}`;
    templates.set(r, h.parseTemplate({ path: r, text: r === rel ? text : fs.readFileSync(path.join(CHART, r), 'utf8') }));
  }
  const chart = YAML.parse(fs.readFileSync(path.join(CHART, 'Chart.yaml'), 'utf8'));
  const r = h.renderTemplate(templates.get(rel), {
    values: YAML.parse(fs.readFileSync(path.join(CHART, 'values.yaml'), 'utf8')),
    chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
    release: { Name: 'release-name', Namespace: 'default', Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    capabilities: e.k8sServed.capabilitiesAt(`1.${minor}`),
    templates,
  });
  assert.equal(r.error, undefined, `${rel} @ 1.${minor}: ${r.error?.message}`);
  assert.equal(r.unknowns.length, 0, `${rel} @ 1.${minor}: the evaluator could not decide everything`);
  return r.text;
}

test('#27 a Helm conversion fix is proven on the rendered template at every step: selectors copied as template text, or no fix', async () => {
  const { fsAccess } = await import('./helpers/fs-access.mjs');
  const offered = {};
  const before = problems.length;
  for (const f of fs.readdirSync(path.join(CHART, 'templates')).filter((x) => x.endsWith('.yaml'))) {
    const rel = `templates/${f}`, file = path.join(CHART, rel);
    const text = fs.readFileSync(file, 'utf8');
    const config = e.resolveConfig({ cli: { kubernetesWindow: TEMPLATE_WINDOW } });
    const r = e.analyze({ path: file, text, config, files: fsAccess() });
    const d = r.diagnostics.find((x) => x.ruleId === 'helm/removed-api');
    assert.ok(d, `${rel}: helm/removed-api`);
    const fixes = (typeof d.fixes === 'function' ? d.fixes() : d.fixes) ?? [];
    offered[f] = fixes.map((x) => `${x.preferred ? 'preferred' : 'not preferred'}: ${x.title}`);
    for (const fix of fixes) {
      const after = applyEdits(text, fix.edits);
      for (let m = 15; m <= 18; m++) {
        const rb = renderAt(rel, text, m), ra = renderAt(rel, after, m);
        checkResult(rb, ra, fix, `${rel} (rendered)`, [m]);
        for (const o of YAML.parseAllDocuments(ra).map((x) => x.toJS())) {
          if (o?.apiVersion !== 'apps/v1') continue;
          const sel = o.spec?.selector?.matchLabels, labels = o.spec?.template?.metadata?.labels ?? {};
          assert.ok(sel && Object.keys(sel).length, `${rel} @ 1.${m}: apps/v1 ${o.kind} has no spec.selector.matchLabels:\n${ra}`);
          for (const [k, v] of Object.entries(sel)) {
            assert.equal(typeof v, 'string', `${rel} @ 1.${m}: selector ${k} is ${JSON.stringify(v)}, not a string`);
            assert.equal(labels[k], v, `${rel} @ 1.${m}: selector ${k}=${v} does not match the pod template's label`);
          }
        }
      }
      // The fixed template is what the next run reads: no helm/removed-api, no syntax problem.
      const again = e.analyze({ path: file, text: after, config, files: fsAccess(new Map([[file, after]])) });
      assert.deepEqual(again.diagnostics.filter((x) => x.severity === 'error').map((x) => `${x.ruleId}: ${x.message}`), [], `${rel} after "${fix.title}"`);
    }
  }
  assert.deepEqual(problems.slice(before), []);
  assert.deepEqual(offered, {
    'canary.yaml': [],
    'daemonset.yaml': ['preferred: Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)'],
    'deployment.yaml': ['preferred: Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)'],
    'replicaset.yaml': ['preferred: Convert to apps/v1 (spec.selector from the pod template\'s labels, the old defaults kept)'],
    'statefulset.yaml': [],
    'worker.yaml': ['preferred: Convert to apps/v1'],
  });
});
