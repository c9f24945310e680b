// Issue 15, "Done when": skewguard's own template evaluator (the engine's helmEmissions, no Helm binary) and a real
// Helm 3 (the faithful per-step render of server/src/engine/families/helm-chart/server/helm-render.ts, which answers
// .Capabilities.APIVersions.Has with exactly what the step serves) agree, for every test chart under
// test/fixtures/charts/ and example chart under examples/helm/, and every step the data knows, on which
// apiVersion/kind each template emits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot, engine } from './helpers/k8s.mjs';
import { helmBinary } from './helpers/helm.mjs';

const require = createRequire(import.meta.url);
const hr = require(path.join(repoRoot, 'dist', 'helm-render.js'));
const CHARTS = path.join(repoRoot, 'test', 'fixtures', 'charts');

/** The engine's FileAccess over the disk (what the language server gives it, without open buffers). */
const disk = {
  read(p) { try { const st = fs.statSync(p); return st.isFile() && st.size <= engine.MAX_FILE_BYTES ? fs.readFileSync(p, 'utf8') : undefined; } catch { return undefined; } },
  readBytes(p) { try { const st = fs.statSync(p); return st.isFile() && st.size <= engine.MAX_FILE_BYTES ? new Uint8Array(fs.readFileSync(p)) : undefined; } catch { return undefined; } },
  list(d) { try { return fs.readdirSync(d, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() })).sort((a, b) => (a.name < b.name ? -1 : 1)); } catch { return undefined; } },
};

/** Every step from the oldest to the newest minor the API data knows (1.16..1.33 at the time of writing). */
function steps() {
  const minors = engine.kubernetesApis().minors;
  const from = minors.find((m) => engine.compareVersions(m, '1.16') >= 0) ?? minors[0];
  return engine.minorsBetween(from, minors[minors.length - 1]);
}

/** Templates Helm renders (not partials, not NOTES.txt), chart-relative, from the chart's folders on disk. */
function templatesOnDisk(root, rel = '') {
  const out = [];
  const dir = path.join(root, rel);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) { if (!rel.includes('templates') && e.name !== 'templates' && e.name !== 'charts' && !rel.startsWith('charts')) continue; out.push(...templatesOnDisk(root, r)); continue; }
    if (/(^|\/)templates\//.test(r) && !e.name.startsWith('_') && e.name !== 'NOTES.txt' && /\.(ya?ml|json|tpl)$/.test(e.name)) out.push(r);
  }
  return out;
}

/** The test charts, and the example charts of examples/helm/ (as `examples/<name>`). */
const EXAMPLES = path.join(repoRoot, 'examples', 'helm');
const chartsIn = (dir, prefix) => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [])
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'Chart.yaml'))).map((d) => ({ name: prefix + d.name, root: path.join(dir, d.name) }));
const charts = () => [...chartsIn(CHARTS, ''), ...chartsIn(EXAMPLES, 'examples/')].sort((a, b) => (a.name < b.name ? -1 : 1));

const FAILING_TEMPLATE = /(?:template: |parse error at \()[^/\s]+\/([^:\s]+):\d+/;

test('the evaluator and a faithful real helm template agree at every (template, step) of the test charts', { timeout: 600_000 }, async (t) => {
  assert.equal(typeof engine.helmEmissions, 'function', 'dist/engine.js exports helmEmissions (the helm-family branch)');
  const renderer = new hr.HelmRenderer({ helm: helmBinary(), jobs: 2 });
  const all = steps();
  assert.ok(all.length >= 10, `steps ${all}`);
  let pairs = 0, agreed = 0, linesCompared = 0, linesAgreed = 0;
  const disagreements = [], notRendered = [], perChart = [];

  /** Compares one chart at every step; returns the templates that make Helm fail with the default values. */
  async function compareChart(root, label) {
    const renders = await renderer.render(root, all);
    const evaluated = engine.helmEmissions(root, disk, all);
    const templates = new Set(templatesOnDisk(root));
    for (const r of renders) for (const e of r.emissions) templates.add(e.template);
    for (const e of evaluated) templates.add(e.template);
    const failing = new Set();
    let chartPairs = 0, chartAgreed = 0;
    for (const r of renders) {
      if (!r.ok) {
        notRendered.push({ chart: label, step: r.step, error: r.error });
        // Helm renders a chart whole: one template that fails with the chart's default values fails every template.
        // The evaluator must not claim an emission for the template Helm names (it could not render it either).
        const m = FAILING_TEMPLATE.exec(r.error);
        if (m) {
          failing.add(m[1]);
          const claimed = evaluated.filter((e) => e.template === m[1] && e.step === r.step);
          if (claimed.length) disagreements.push(`${label}/${m[1]} at ${r.step}: Helm cannot render it (${r.error}), the evaluator says [${claimed.map((e) => `${e.apiVersion} ${e.kind}`).join(', ')}]`);
        }
        continue;
      }
      for (const tpl of templates) {
        const byHelm = r.emissions.filter((e) => e.template === tpl);
        const byEval = evaluated.filter((e) => e.template === tpl && e.step === r.step);
        const h = byHelm.map((e) => `${e.apiVersion} ${e.kind}`).sort();
        const v = byEval.map((e) => `${e.apiVersion} ${e.kind}`).sort();
        pairs++; chartPairs++;
        if (JSON.stringify(h) === JSON.stringify(v)) { agreed++; chartAgreed++; } else disagreements.push(`${label}/${tpl} at ${r.step}: helm [${h.join(', ')}], evaluator [${v.join(', ')}]`);
        // Lines, where both sides have one for a single document of a kind (the evaluator's are 1-based).
        for (const e of byHelm) {
          const same = byEval.filter((x) => x.kind === e.kind && x.apiVersion === e.apiVersion);
          if (e.line === undefined || same.length !== 1 || byHelm.filter((x) => x.kind === e.kind).length !== 1) continue;
          linesCompared++;
          if (same[0].line === e.line + 1) linesAgreed++; else disagreements.push(`${label}/${tpl} at ${r.step}: ${e.kind} apiVersion at line ${e.line + 1} (helm) or ${same[0].line} (evaluator)`);
        }
      }
    }
    perChart.push(`${label}: ${chartAgreed}/${chartPairs}`);
    return failing;
  }

  for (const { name, root } of charts()) {
    let failing = await compareChart(root, name);
    // The chart's other templates are still compared: on a copy without the templates Helm cannot render (Helm names
    // the first one that fails, so a few rounds).
    const left = new Set();
    for (let round = 0; failing.size && round < 5; round++) {
      for (const f of failing) left.add(f);
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), `sg-agree-${path.basename(root)}-`));
      try {
        fs.cpSync(root, copy, { recursive: true });
        for (const tpl of left) fs.rmSync(path.join(copy, ...tpl.split('/')));
        failing = await compareChart(copy, `${name} without ${[...left].join(', ')}`);
      } finally { fs.rmSync(copy, { recursive: true, force: true }); }
    }
    assert.equal(failing.size, 0, `${name}: still failing after leaving out ${[...left]}`);
  }

  // Why Helm refused the (chart, step) pairs it did not render: the chart's own kubeVersion excludes the step, or a
  // template fails with the chart's default values (Helm then renders none of the chart's templates).
  const why = new Map();
  for (const n of notRendered) {
    const tpl = FAILING_TEMPLATE.exec(n.error)?.[1];
    const reason = /chart requires kubeVersion/.test(n.error) ? 'kubeVersion excludes the step' : tpl ? `${tpl} fails with the default values` : `other: ${n.error}`;
    const k = `${n.chart}: ${reason}`;
    why.set(k, [...(why.get(k) ?? []), n.step]);
  }
  const refused = [...why].map(([k, st]) => `${k} at ${st.length} step${st.length === 1 ? '' : 's'}`);
  const summary = `helm agreement (helm ${await renderer.helmVersion()}, steps ${all[0]}..${all[all.length - 1]}): `
    + `${agreed}/${pairs} (template, step) pairs agree [${perChart.join('; ')}]; apiVersion lines ${linesAgreed}/${linesCompared}; `
    + `not rendered by Helm: ${notRendered.length} (chart, step) [${refused.join('; ')}]`;
  t.diagnostic(summary);
  console.log(summary);
  assert.ok(pairs > 0);
  assert.deepEqual(disagreements, []);
  for (const k of why.keys()) assert.doesNotMatch(k, /: other: /, k);
});
