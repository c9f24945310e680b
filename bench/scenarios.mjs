// Benchmark suite for charts with values scenarios (issue 32 item 2), added to bench/run.mjs's SUITES:
//
//   scenarios   the chart repository of bench/charts.mjs (200 charts, 2,000 templates) through lsp-lint, without
//               values scenarios and then the same files plus SCENARIOS `ci/*-values.yaml` per chart (each flips
//               values the templates read: ingress off, a replica count, a legacy switch). Goal: each scenario added
//               costs at most 2× the files' time without scenarios, i.e. t(with k scenarios) ≤ (1 + 2k) × t(without).
//
// Both runs check the same chart files; the scenario run also reads the ci/ files (k × 200 small YAML files).
import fs from 'node:fs';
import path from 'node:path';
import { writeChartRepo } from './charts.mjs';

const SCENARIOS = 2;
const RUNS = 3;
const WINDOW = '1.21..1.25';

const SCENARIO_VALUES = [
  '# chart-testing: no ingress, more replicas.\ningress:\n  enabled: false\nreplicaCount: 3\n',
  '# chart-testing: an older image tag and a config key.\nimage:\n  tag: "0.9.0"\nconfig:\n  key: legacy\n',
  '# chart-testing: a NodePort service.\nservice:\n  type: NodePort\n',
];

/** @param {object} ctx helpers from run.mjs: { SERVER_ENV, LSP_LINT, check, row, stats, ratio, tmpDir, run, gc, Failure } */
export function scenarioSuites(ctx) {
  const { SERVER_ENV, LSP_LINT, check, row, stats, ratio, tmpDir, run, gc, Failure } = ctx;

  async function lintDir(dir) {
    const report = path.join(path.dirname(dir), `report-${path.basename(dir)}.json`);
    gc();
    const r = await run(process.execPath, [LSP_LINT, '--kubernetes-window', WINDOW, '--format', 'json', '--output-file', report, path.basename(dir)], { cwd: path.dirname(dir), env: SERVER_ENV });
    if (r.code !== 0 && r.code !== 1) throw new Failure(`lsp-lint exited ${r.code} on ${dir}\n${r.stderr.slice(0, 2000)}`);
    const got = JSON.parse(fs.readFileSync(report, 'utf8'));
    return { ms: r.ms, files: got.length, messages: got.flatMap((f) => f.messages.map((m) => ({ ...m, file: f.filePath }))) };
  }

  async function scenarios() {
    const S = '9b. Helm chart repository with values scenarios (issue 32)';
    const root = tmpDir('scenarios');
    const plain = writeChartRepo(path.join(root, 'without'));
    const withDir = path.join(root, 'with');
    fs.cpSync(plain.charts, path.join(withDir, 'charts-repo'), { recursive: true });
    const scn = path.join(withDir, 'charts-repo');
    let files = 0;
    for (const c of fs.readdirSync(scn)) {
      fs.mkdirSync(path.join(scn, c, 'ci'));
      for (let k = 0; k < SCENARIOS; k++) { fs.writeFileSync(path.join(scn, c, 'ci', `s${k}-values.yaml`), SCENARIO_VALUES[k]); files++; }
    }
    console.log(`\n${S} (${plain.templates} templates; ${SCENARIOS} ci/*-values.yaml per chart; window ${WINDOW})`);
    const a = [], b = [];
    let first;
    for (let i = -1; i < RUNS; i++) {
      const x = await lintDir(plain.charts);
      const y = await lintDir(scn);
      first ??= { x, y };
      check(`scenario repository diagnostics, run ${i + 2}`, y.messages.length === first.y.messages.length && x.messages.length === first.x.messages.length && y.messages.length > 0, `${x.messages.length} without, ${y.messages.length} with scenarios`);
      if (i >= 0) { a.push(x.ms); b.push(y.ms); }
    }
    // The scenarios were rendered: findings name them (every chart's hard-coded CronJob, under the defaults and each scenario).
    const named = first.y.messages.filter((m) => /\(with the default values and (all \d+ values scenarios|ci\/s\d-values\.yaml)\)$/.test(m.message)).length;
    check('findings name the scenarios that render them', named > 0 && !first.x.messages.some((m) => /values scenarios|ci\/s\d-values/.test(m.message)), `${named} findings name scenarios`);
    const sa = stats(a), sb = stats(b);
    const r = sb.median / sa.median;
    const perScenario = (r - 1) / SCENARIOS;
    console.log(`  t(with ${SCENARIOS}) / t(without) = ${r.toFixed(2)} (goal ≤ ${1 + 2 * SCENARIOS}); ${perScenario.toFixed(2)}× per scenario${r <= 1 + 2 * SCENARIOS ? '' : ' — OVER THE GOAL'}`);
    row(S, `lsp-lint, the repository with ${SCENARIOS} scenarios per chart (+${files} ci/ files)`, sb, { note: `**${ratio(sb.median, sa.median)} the same files without scenarios; ${perScenario.toFixed(2)}× per scenario added** (goal ≤ 2× per scenario); ${first.y.messages.length} findings` });
    row(S, 'lsp-lint, the same charts without scenarios', sa, { note: `${first.x.messages.length} findings` });
  }

  return { scenarios };
}

export const scenarioMethod = [
  `- Scenarios: the chart repository above, and its copy with ${SCENARIOS} \`ci/*-values.yaml\` per chart (values the templates read); goal`,
  '  t(with k) ≤ (1 + 2k) × t(without): each scenario added costs at most twice the files\' time without scenarios.',
];
