// Benchmark suites against peers and at scale (issue items 1b–1e), added to bench/run.mjs's SUITES:
//
//   yls     b. the 5,000-document manifest and the same JSON Schema (schemas/kubernetes/1.21) through
//              yaml-language-server 1.x over LSP, against the skewguard server over LSP (window 1.21)
//   taplo   c. a large Kata configuration.toml and the same generated JSON Schema through
//              `taplo lint --schema`, against lsp-lint
//   scale   d. lsp-lint over 10,000 mixed files (manifests, localhost.yml, Kata TOML): files/s and peak RSS,
//              against yaml-language-server's per-file throughput on a 1,000-file sample (extrapolated)
//   edits   e. 1,000 random edits of a 1,000-line manifest file over LSP: p50 / p95 edit → diagnostics
//
// The peers are dev dependencies (yaml-language-server, @taplo/cli); nothing here reaches the network:
// yaml-language-server gets schemaStore and kubernetesCRDStore disabled and file: schema URIs, Taplo a
// file: schema URI and --no-auto-config.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { manifestFile, manifestFileOfLines, stableEditableLines, rng } from './corpus.mjs';
import { kataTomlBig, kataSchemaPath, KATA_RELEASE, mixedFiles } from './corpus-peers.mjs';
import { LspSession } from './lsp.mjs';

/** yaml-language-server validates `validationDelayMs` after the last change; 200 ms, hard-coded in 1.x (yamlSettings.js). */
export const YLS_DEBOUNCE_MS = 200;
const K8S_MINOR = '1.21';
const STX_RELEASE = '6.0';
const KATA_WINDOW = '3.2..3.32';
const RUNS = { yls: 3, ylsOurs: 5, taplo: 3, scale: 3, scaleSample: 3, edits: 1000, editWarmup: 50 };
const SIZES = { bigDocs: 5000, scaleFiles: 10000, ylsSample: 1000, editLines: 1000, kataArrayItems: 1000 };

/**
 * @param {object} ctx helpers from run.mjs: { ROOT, WINDOW, TODAY, SERVER_ENV, LSP_LINT, engine, check, row, rows,
 *   stats, timeRuns, median, pct, ms, mb, ratio, tmpDir, run, kbFromStatus, gc, Failure }
 */
export function peerSuites(ctx) {
  const { ROOT, TODAY, SERVER_ENV, LSP_LINT, engine, check, row, rows, stats, median, pct, ms, mb, ratio, tmpDir, run, kbFromStatus, gc, Failure } = ctx;
  const require = createRequire(path.join(ROOT, 'package.json'));
  const YLS_BIN = path.join(path.dirname(require.resolve('yaml-language-server/package.json')), 'bin', 'yaml-language-server');
  const TAPLO_CLI = path.join(path.dirname(require.resolve('@taplo/cli/package.json')), 'dist', 'cli.js');
  let taploVersion;
  const versions = () => {
    // `taplo --version` prints the version and exits 1.
    taploVersion ??= spawnSync(process.execPath, [TAPLO_CLI, '--version'], { encoding: 'utf8' }).stdout.trim().replace(/^taplo /, '');
    return { yls: require('yaml-language-server/package.json').version, taplo: `${taploVersion} (@taplo/cli ${require('@taplo/cli/package.json').version})` };
  };
  const SERVER = [path.join(ROOT, 'dist', 'server.js'), '--stdio'];
  const schemaUri = (...p) => pathToFileURL(path.join(ROOT, 'schemas', ...p)).toString();
  const analyzeWith = (config) => (file, text, root) => engine.analyze({ path: file, text, config, root, today: new Date(TODAY) });
  const errorsOf = (diags) => diags.filter((d) => d.severity === 1 || d.severity === 'error').length;
  const sleep = (t) => new Promise((r) => setTimeout(r, t));

  /** Starts yaml-language-server with these yaml.schemas; waits until a probe document is validated against them. */
  async function startYls(cwd, schemas, probe) {
    const yaml = {
      validate: true, hover: false, completion: false, format: { enable: false },
      schemaStore: { enable: false }, kubernetesCRDStore: { enable: false }, schemas,
    };
    const session = await LspSession.start({ command: process.execPath, args: [YLS_BIN, '--stdio'], cwd, initializationOptions: {} });
    session.conn.onRequest('workspace/configuration', (p) => p.items.map((it) => (it.section === 'yaml' ? yaml : null)));
    await session.conn.sendNotification('workspace/didChangeConfiguration', { settings: { yaml } });
    // The settings apply asynchronously: re-open the probe until its schema diagnostic shows up.
    for (let i = 0; ; i++) {
      const r = await session.open(pathToFileURL(path.join(cwd, `${probe.name}-${i}${probe.ext}`)).toString(), probe.text);
      if (r.diagnostics.length >= probe.expect) return session;
      if (i >= 20) throw new Failure(`yaml-language-server never applied yaml.schemas (probe got ${JSON.stringify(r.diagnostics)})\n${session.stderr}`);
      await sleep(250);
    }
  }

  const K8S_PROBE = { name: 'probe', ext: '.yaml', expect: 1, text: 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: probe\n' };

  // -------------------------------------------------------------------------------------------- b
  /** b. The big manifest through yaml-language-server and through the skewguard server, same schema minor. */
  async function yls() {
    const S = `5. (b) yaml-language-server vs skewguard, ${SIZES.bigDocs.toLocaleString('en')}-document manifest`;
    const text = (i) => manifestFile(SIZES.bigDocs, { salt: 5000 + i });
    const base = text(0);
    console.log(`\n${S} (${(base.length / 1048576).toFixed(1)} MB, ${base.split('\n').length - 1} lines; schema kubernetes/${K8S_MINOR})`);
    const expected = errorsOf(analyzeWith(engine.resolveConfig({ cli: { kubernetesWindow: K8S_MINOR } }))('/bench/big.yaml', base).diagnostics);

    // yaml-language-server: 1 warm-up + RUNS.yls, a fresh uri and salt each time; no close in between.
    const cwd = tmpDir('yls');
    const session = await startYls(cwd, { [schemaUri('kubernetes', K8S_MINOR, 'manifest.schema.json')]: ['*.yaml'] }, K8S_PROBE);
    // The debounce alone: a 4-line document (its validation takes ~1 ms), so what is left after subtracting is transport.
    const tiny = [];
    for (let i = 0; i < 5; i++) tiny.push((await session.open(pathToFileURL(path.join(cwd, `tiny-${i}.yaml`)).toString(), K8S_PROBE.text)).ms);
    const ylsRaw = [];
    const ylsCounts = new Set();
    for (let i = -1; i < RUNS.yls; i++) {
      gc();
      const uri = pathToFileURL(path.join(cwd, `big-${i + 1}.yaml`)).toString();
      const r = await session.open(uri, text(i + 1));
      ylsCounts.add(r.diagnostics.length);
      if (i >= 0) ylsRaw.push(r.ms);
      await session.close(uri); // a fresh uri each run, so its empty close-time diagnostics match no later wait
    }
    const ylsHwm = kbFromStatus(session.pid, 'VmHWM');
    await session.stop();
    check('yaml-language-server diagnostics (big file)', ylsCounts.size === 1 && ylsCounts.has(expected) && expected > 0,
      `${[...ylsCounts].join('/')} schema errors (skewguard in-process, window ${K8S_MINOR}: ${expected} errors)`);

    // skewguard over LSP, window 1.21: the same served/not-served question per object.
    const cwd2 = tmpDir('yls-ours');
    const ours = await LspSession.start({ command: process.execPath, args: SERVER, cwd: cwd2, env: SERVER_ENV, initializationOptions: { cli: { kubernetesWindow: K8S_MINOR }, allDiagnostics: true } });
    const oursMs = [];
    const oursCounts = new Set();
    for (let i = -1; i < RUNS.ylsOurs; i++) {
      gc();
      const uri = pathToFileURL(path.join(cwd2, `big-${i + 1}.yaml`)).toString();
      const r = await ours.open(uri, text(i + 1));
      oursCounts.add(errorsOf(r.diagnostics));
      if (i >= 0) oursMs.push(r.ms);
      await ours.close(uri);
    }
    const oursHwm = kbFromStatus(ours.pid, 'VmHWM');
    await ours.stop();
    check('skewguard server errors (big file, window 1.21)', oursCounts.size === 1 && oursCounts.has(expected), `${[...oursCounts].join('/')} (in-process ${expected})`);

    // yaml-language-server with a real per-version Kubernetes field schema (schemas/kubernetes-fields/<minor>, generated
    // from the field table: every field of the built-in kinds, unknown ones rejected): same files, same run.
    const cwdF = tmpDir('yls-fields');
    const fieldProbe = { name: 'probe', ext: '.yaml', expect: 1, text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: probe\nspec:\n  replica: 2\n' };
    const fSession = await startYls(cwdF, { [schemaUri('kubernetes-fields', K8S_MINOR, 'manifest.schema.json')]: ['*.yaml'] }, fieldProbe);
    const ylsFRaw = [];
    const ylsFCounts = new Set();
    for (let i = -1; i < RUNS.yls; i++) {
      gc();
      const uri = pathToFileURL(path.join(cwdF, `big-${i + 1}.yaml`)).toString();
      const r = await fSession.open(uri, text(i + 1));
      ylsFCounts.add(r.diagnostics.length);
      if (i >= 0) ylsFRaw.push(r.ms);
      await fSession.close(uri);
    }
    const ylsFHwm = kbFromStatus(fSession.pid, 'VmHWM');
    await fSession.stop();
    // The field findings skewguard makes at the same minor (unknown fields, fields not served, values outside an enum):
    // the schema rejects the same things, so the counts must agree (the bench's manifests are field-clean: both 0).
    const FIELD_RULES = new Set(['k8s/unknown-field', 'k8s/field-not-served', 'k8s/invalid-enum-value']);
    const fieldExpected = analyzeWith(engine.resolveConfig({ cli: { kubernetesWindow: K8S_MINOR } }))('/bench/big.yaml', base).diagnostics.filter((d) => FIELD_RULES.has(d.ruleId)).length;
    check('yaml-language-server diagnostics (big file, field schema)', ylsFCounts.size === 1 && ylsFCounts.has(fieldExpected),
      `${[...ylsFCounts].join('/')} diagnostics (skewguard in-process field findings at ${K8S_MINOR}: ${fieldExpected})`);

    const ylsNet = stats(ylsRaw.map((x) => x - YLS_DEBOUNCE_MS));
    const ylsFNet = stats(ylsFRaw.map((x) => x - YLS_DEBOUNCE_MS));
    const o = stats(oursMs);
    const tinyS = stats(tiny);
    row(S, 'skewguard server: didOpen → publishDiagnostics', o, { note: `window ${K8S_MINOR}; ${expected} errors (+ deprecation warnings); server peak RSS ${mb(oursHwm)} (${RUNS.ylsOurs + 1} opened+closed)` });
    row(S, `yaml-language-server ${versions().yls}: didOpen → publishDiagnostics − ${YLS_DEBOUNCE_MS} ms`, ylsNet,
      { note: `**${ratio(ylsNet.median, o.median)} skewguard's time** (goal ≥ 5×); raw ${ms(median(ylsRaw))}; ${expected} schema errors; peak RSS ${mb(ylsHwm)} (${RUNS.yls + 1} opened+closed)` });
    row(S, `yaml-language-server ${versions().yls} with the Kubernetes ${K8S_MINOR} field schema (schemas/kubernetes-fields): didOpen → publishDiagnostics − ${YLS_DEBOUNCE_MS} ms`, ylsFNet,
      { note: `**${ratio(ylsFNet.median, o.median)} skewguard's time** (skewguard checks every field at the window too); raw ${ms(median(ylsFRaw))}; ${[...ylsFCounts][0]} diagnostics, as many as skewguard's field findings at ${K8S_MINOR}; peak RSS ${mb(ylsFHwm)} (${RUNS.yls + 1} opened+closed)` });
    row(S, 'yaml-language-server: 4-line document, raw', tinyS, { note: `the ${YLS_DEBOUNCE_MS} ms debounce + transport: what is subtracted above` });
  }

  // -------------------------------------------------------------------------------------------- c
  /** c. A large Kata configuration.toml: lsp-lint against taplo lint --schema, same generated schema. */
  async function taplo() {
    const S = `6. (c) Taplo vs lsp-lint, large Kata configuration.toml`;
    const dir = tmpDir('taplo');
    const big = kataTomlBig({ arrayItems: SIZES.kataArrayItems });
    fs.writeFileSync(path.join(dir, 'configuration-big.toml'), big);
    fs.writeFileSync(path.join(dir, 'configuration-tiny.toml'), '[runtime]\nenable_debug = "yes"\n');
    console.log(`\n${S} (${(big.length / 1048576).toFixed(1)} MB, ${big.split('\n').length - 1} lines; schema kata/${KATA_RELEASE}/configuration.schema.json)`);
    const cfg = engine.resolveConfig({ cli: { kataWindow: KATA_RELEASE, kataFlavour: 'go' } });
    const expected = errorsOf(analyzeWith(cfg)(path.join(dir, 'configuration-big.toml'), big).diagnostics);

    const schema = pathToFileURL(kataSchemaPath()).toString();
    const taploArgs = (f) => [TAPLO_CLI, 'lint', '--no-auto-config', '--colors', 'never', '--schema', schema, f];
    const oursArgs = (f) => [LSP_LINT, '--kata-window', KATA_RELEASE, '--kata-flavour', 'go', '--format', 'json', f];
    const measure = async (args, parse, n) => {
      const out = [];
      let count;
      for (let i = -1; i < n; i++) {
        gc();
        const r = await run(process.execPath, args, { cwd: dir, env: SERVER_ENV });
        if (r.code !== 1) throw new Failure(`${path.basename(args[0])} exited ${r.code} (expected 1: the file has errors)\n${r.stderr.slice(0, 2000)}`);
        count = parse(r);
        if (i >= 0) out.push(r.ms);
      }
      return { s: stats(out), count };
    };
    const taploCount = (r) => (r.stderr.match(/^error: /gm) ?? []).length;
    const oursCount = (r) => JSON.parse(r.stdout).reduce((s, f) => s + errorsOf(f.messages), 0);
    const t = await measure(taploArgs('configuration-big.toml'), taploCount, RUNS.taplo);
    const o = await measure(oursArgs('configuration-big.toml'), oursCount, RUNS.taplo);
    check('taplo lint errors (big file)', t.count === expected && expected > 0, `${t.count} (skewguard in-process ${expected})`);
    check('lsp-lint errors (big file)', o.count === expected, `${o.count} (in-process ${expected})`);
    const tf = await measure(taploArgs('configuration-tiny.toml'), taploCount, RUNS.taplo);
    const of = await measure(oursArgs('configuration-tiny.toml'), oursCount, RUNS.taplo);
    check('start-up floors found the one error', tf.count === 1 && of.count === 1, `taplo ${tf.count}, lsp-lint ${of.count}`);
    row(S, 'lsp-lint (whole command)', o.s, { note: `${expected} kata/invalid-type errors; Kata window ${KATA_RELEASE}, flavour go` });
    row(S, `taplo ${versions().taplo} lint --schema (whole command)`, t.s,
      { note: `**${ratio(t.s.median, o.s.median)} lsp-lint's time** (goal > 1×); ${t.count} schema errors` });
    row(S, 'lsp-lint, 2-line file (start-up floor)', of.s, { note: `big file minus floor: ${ms(o.s.median - of.s.median)}` });
    row(S, 'taplo lint, 2-line file (start-up floor)', tf.s,
      { note: `big file minus floor: ${ms(t.s.median - tf.s.median)}, ${ratio(t.s.median - tf.s.median, o.s.median - of.s.median)} lsp-lint's` });
  }

  // -------------------------------------------------------------------------------------------- d
  /** d. lsp-lint over 10,000 mixed files; yaml-language-server's per-file throughput on a 1,000-file YAML sample (300 gave a figure that moved by a third between runs). */
  async function scale() {
    const S = `7. (d) lsp-lint, ${SIZES.scaleFiles.toLocaleString('en')} files`;
    const dir = tmpDir('scale');
    const files = mixedFiles(SIZES.scaleFiles);
    const cliFlags = ['--kubernetes-window', ctx.WINDOW, '--starlingx-release', STX_RELEASE, '--kata-window', KATA_WINDOW];
    const an = analyzeWith(engine.resolveConfig({ cli: { kubernetesWindow: ctx.WINDOW, starlingxRelease: STX_RELEASE, kataWindow: KATA_WINDOW } }));
    let expected = 0, bytes = 0;
    const kinds = {};
    for (const f of files) {
      const p = path.join(dir, f.name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, f.text);
      expected += an(p, f.text, dir).diagnostics.length;
      bytes += f.text.length;
      kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
    }
    console.log(`\n${S} (${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(', ')}; ${(bytes / 1048576).toFixed(0)} MB)`);
    const out = tmpDir('scale-out');
    const lint = async (label, extra) => {
      const rssFile = path.join(out, `rss-${label}.jsonl`);
      const report = path.join(out, `report-${label}.json`);
      const env = { ...SERVER_ENV, BENCH_RSS_OUT: rssFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(ROOT, 'bench', 'rss-probe.cjs')}`.trim() };
      gc();
      const r = await run(process.execPath, [LSP_LINT, ...cliFlags, ...extra, '--format', 'json', '--output-file', report, '.'], { cwd: dir, env });
      if (r.code !== 1) throw new Failure(`lsp-lint ${extra.join(' ')} exited ${r.code}\n${r.stderr.slice(0, 2000)}`);
      const got = JSON.parse(fs.readFileSync(report, 'utf8'));
      const n = got.reduce((s, f) => s + f.messages.length, 0);
      check(`lsp-lint ${extra.join(' ') || '(default)'} diagnostics`, n === expected && got.length === files.length && expected > 0, `${n} in ${got.length} files (in-process ${expected})`);
      let procs = [];
      for (let w = 0; w < 50; w++) {
        procs = fs.existsSync(rssFile) ? fs.readFileSync(rssFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
        if (procs.filter((p) => p.script === 'server.js').length >= (extra[1] ? Number(extra[1]) : Math.min(2, os.cpus().length))) break;
        await sleep(50);
      }
      const cli = procs.find((p) => p.script === 'lsp-lint.js');
      const servers = procs.filter((p) => p.script === 'server.js');
      if (!cli || !servers.length) throw new Failure(`peak RSS probe: got ${JSON.stringify(procs)}`);
      return { ms: r.ms, cliKb: cli.hwmKb, serverKb: Math.max(...servers.map((p) => p.hwmKb)), servers: servers.length, sumKb: cli.hwmKb + servers.reduce((s, p) => s + p.hwmKb, 0) };
    };
    // The default run three times (a single 5-second run moved by a tenth between runs): median time, highest RSS.
    const defRuns = [];
    for (let k = 1; k <= RUNS.scale; k++) defRuns.push(await lint(`default-${k}`, []));
    const defStats = stats(defRuns.map((x) => x.ms));
    const maxOf = (f) => Math.max(...defRuns.map(f));
    const def = { ms: defStats.median, servers: defRuns[0].servers, cliKb: maxOf((x) => x.cliKb), serverKb: maxOf((x) => x.serverKb), sumKb: maxOf((x) => x.sumKb) };
    const one = await lint('jobs1', ['--jobs', '1']);

    // yaml-language-server on a sample: every n-th YAML file (it has no TOML support), all opened at once
    // (pipelined, as lsp-lint keeps 16 files in flight per server), fresh paths each run, timed from the first
    // didOpen to the last publishDiagnostics, minus one debounce (the per-uri timers run concurrently).
    const yamlFiles = files.filter((f) => f.kind !== 'kata');
    const step = Math.floor(yamlFiles.length / SIZES.ylsSample);
    const sample = yamlFiles.filter((_, i) => i % step === 0).slice(0, SIZES.ylsSample);
    const sdir = tmpDir('scale-sample');
    for (let k = -1; k < RUNS.scaleSample; k++) {
      for (const f of sample) {
        const p = path.join(sdir, `run${k + 1}`, f.name);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, f.text);
      }
    }
    const an1 = analyzeWith(engine.resolveConfig({ cli: { kubernetesWindow: K8S_MINOR, starlingxRelease: STX_RELEASE } }));
    const sampleErrors = sample.reduce((s, f) => s + errorsOf(an1(path.join(sdir, 'run0', f.name), f.text, sdir).diagnostics), 0);
    const pipelined = async (session, subtract, countOf) => {
      const walls = [];
      const counts = new Set();
      for (let k = -1; k < RUNS.scaleSample; k++) {
        gc();
        const t0 = performance.now();
        const res = await Promise.all(sample.map((f) => session.open(pathToFileURL(path.join(sdir, `run${k + 1}`, f.name)).toString(), f.text)));
        const wall = performance.now() - t0 - subtract;
        counts.add(res.reduce((s, r) => s + countOf(r.diagnostics), 0));
        if (k >= 0) walls.push(wall);
      }
      return { s: stats(walls), counts };
    };
    const ylsSession = await startYls(sdir, {
      [schemaUri('kubernetes', K8S_MINOR, 'manifest.schema.json')]: ['*.yaml'],
      [schemaUri('starlingx', STX_RELEASE, 'localhost.schema.json')]: ['localhost.yml'],
    }, K8S_PROBE);
    const y = await pipelined(ylsSession, YLS_DEBOUNCE_MS, (d) => d.length);
    const ylsHwm = kbFromStatus(ylsSession.pid, 'VmHWM');
    await ylsSession.stop();
    const oursSession = await LspSession.start({ command: process.execPath, args: SERVER, cwd: sdir, env: SERVER_ENV, initializationOptions: { cli: { kubernetesWindow: K8S_MINOR, starlingxRelease: STX_RELEASE } } });
    const o = await pipelined(oursSession, 0, errorsOf);
    await oursSession.stop();
    check('yaml-language-server sample diagnostics', y.counts.size === 1 && [...y.counts][0] > 0, `${[...y.counts].join('/')} in ${sample.length} files (skewguard errors in-process: ${sampleErrors}; the localhost.yml schema is stricter than the rules)`);
    check('skewguard server sample errors', o.counts.size === 1 && o.counts.has(sampleErrors), `${[...o.counts].join('/')} (in-process ${sampleErrors})`);

    const fps = (n, t) => n / (t / 1000);
    const ylsFps = fps(sample.length, y.s.median);
    const defFps = fps(files.length, def.ms);
    row(S, `lsp-lint, default jobs (${def.servers} servers on ${os.cpus().length} cores)`, defStats,
      { note: `**${defFps.toFixed(0)} files/s, ${ratio(defFps, ylsFps)} yaml-language-server's per-file throughput** (goal ≥ 4×)` });
    row(S, 'lsp-lint --jobs 1', stats([one.ms]), { note: `${fps(files.length, one.ms).toFixed(0)} files/s, ${ratio(fps(files.length, one.ms), ylsFps)} yaml-language-server's` });
    rows.push({ section: S, name: 'peak RSS, default jobs: lsp-lint / largest server / all processes', value: `${mb(def.cliKb)} / ${mb(def.serverKb)} / ${mb(def.sumKb)}`, range: '', n: String(RUNS.scale),
      note: `goal ≤ 250 MB per process; the sum is an upper bound of the tree (each process's VmHWM)` });
    rows.push({ section: S, name: 'peak RSS, --jobs 1: lsp-lint / server', value: `${mb(one.cliKb)} / ${mb(one.serverKb)}`, range: '', n: '1', note: '' });
    row(S, `yaml-language-server, ${sample.length}-file YAML sample, pipelined − ${YLS_DEBOUNCE_MS} ms`, y.s,
      { note: `${ylsFps.toFixed(0)} files/s → ${(files.length / ylsFps).toFixed(1)} s for ${files.length.toLocaleString('en')} files (extrapolated; YAML only, it has no TOML); peak RSS ${mb(ylsHwm)}` });
    row(S, `skewguard server, same ${sample.length}-file sample, same method`, o.s,
      { note: `${fps(sample.length, o.s.median).toFixed(0)} files/s, ${ratio(fps(sample.length, o.s.median), ylsFps)} yaml-language-server's (server only, no file walking or reports)` });
    console.log(`  lsp-lint default ${ms(def.ms)} (${defFps.toFixed(0)} files/s), --jobs 1 ${ms(one.ms)}; yls sample ${ms(y.s.median)} (${ylsFps.toFixed(0)} files/s)`);
  }

  // -------------------------------------------------------------------------------------------- e
  /**
   * e. 1,000 random edits of a 1,000-line manifest file over LSP, debounceMs 0, one at a time. Each edit is
   * a new scalar value (about 60 %), or a character typed at a random place in a random line (about 20 %;
   * the YAML may break), which the next edit removes again (a typo and its correction).
   */
  async function edits() {
    const S = `8. (e) edit → diagnostics, ${RUNS.edits.toLocaleString('en')} random edits`;
    const base = manifestFileOfLines(SIZES.editLines, { seed: 17 });
    const an = analyzeWith(engine.resolveConfig({ cli: { kubernetesWindow: ctx.WINDOW } }));
    const cwd = tmpDir('edits');
    const file = path.join(cwd, 'edit.yaml');
    const uri = pathToFileURL(file).toString();
    const candidates = stableEditableLines(base, (t) => an(file, t));
    console.log(`\n${S} (${base.split('\n').length - 1}-line file, ${candidates.length} editable lines)`);
    const session = await LspSession.start({ command: process.execPath, args: SERVER, cwd, env: SERVER_ENV, initializationOptions: { cli: { kubernetesWindow: ctx.WINDOW }, settings: { debounceMs: 0 } } });
    const opened = await session.open(uri, base);
    check('server diagnostics (1,000-line file, edits suite)', opened.diagnostics.length === an(file, base).diagnostics.length && opened.diagnostics.length > 0, `${opened.diagnostics.length}`);
    const r = rng(9001);
    const lines = base.split('\n');
    const typed = []; // [{ line, character }] of characters typed and not yet removed
    const samples = [];
    const kinds = { value: 0, type: 0, remove: 0 };
    let mismatches = 0, version = 1, parseErrors = 0;
    const sig = (ds) => ds.map((d) => `${d.code ?? d.ruleId}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`).sort().join('|');
    for (let i = -RUNS.editWarmup; i < RUNS.edits; i++) {
      const x = r.next();
      let change;
      if (typed.length) {
        const t = typed.pop();
        lines[t.line] = lines[t.line].slice(0, t.character) + lines[t.line].slice(t.character + 1);
        change = { range: { start: t, end: { line: t.line, character: t.character + 1 } }, text: '' };
        kinds.remove++;
      } else if (x < 0.25) {
        const line = r.int(0, lines.length - 2);
        const character = r.int(0, lines[line].length);
        const ch = r.pick('abcxyz019 :-#'.split(''));
        lines[line] = lines[line].slice(0, character) + ch + lines[line].slice(character);
        typed.push({ line, character });
        change = { range: { start: { line, character }, end: { line, character } }, text: ch };
        kinds.type++;
      } else {
        const c = r.pick(candidates);
        const v = c.kind === 'int' ? String(r.int(1, 9999)) : `v${r.int(0, 1e6).toString(36)}`;
        change = { range: { start: { line: c.line, character: c.valueStart }, end: { line: c.line, character: c.valueEnd } }, text: v };
        lines[c.line] = lines[c.line].slice(0, c.valueStart) + v + lines[c.line].slice(c.valueEnd);
        c.valueEnd = c.valueStart + v.length;
        kinds.value++;
      }
      const res = await session.change(uri, ++version, [change]);
      if (i >= 0) samples.push(res.ms);
      // Incremental edits must give what a fresh analysis of the same text gives.
      const fresh = an(file, lines.join('\n')).diagnostics;
      if (fresh.some((d) => d.ruleId === 'syntax/parse-error')) parseErrors++;
      if (sig(fresh) !== sig(res.diagnostics)) mismatches++;
    }
    const hwm = kbFromStatus(session.pid, 'VmHWM');
    await session.stop();
    check('diagnostics after each edit = fresh analysis', mismatches === 0, `${mismatches} mismatches in ${RUNS.edits + RUNS.editWarmup} edits (${parseErrors} left the YAML unparsable)`);
    const s = stats(samples);
    const p95 = pct(samples, 95);
    rows.push({ section: S, name: 'didChange → publishDiagnostics, p50 / p95', value: `${ms(median(samples))} / ${ms(p95)}`, range: `${ms(s.min)} – ${ms(s.max)}`, n: String(s.n),
      note: `goal p95 ≤ 30 ms; debounceMs 0; edits ${kinds.value} values, ${kinds.type} typed characters, ${kinds.remove} removals (incl. warm-up); server peak RSS ${mb(hwm)}` });
    console.log(`  p50 ${ms(median(samples))}, p95 ${ms(p95)}, max ${ms(s.max)}`);
  }

  return { yls, taplo, scale, edits };
}

/** Lines for the Method section of results.md. */
export const peerMethod = [
  `- (b) yaml-language-server ${'1.x'} over stdio with \`yaml.schemas\` = { schemas/kubernetes/${K8S_MINOR}/manifest.schema.json: *.yaml }, schemaStore and`,
  `  kubernetesCRDStore disabled (no network); it validates ${YLS_DEBOUNCE_MS} ms after didOpen (validationDelayMs, not configurable in 1.x), so`,
  `  ${YLS_DEBOUNCE_MS} ms is subtracted from its didOpen → publishDiagnostics time (the 4-line row shows that what remains is ~transport).`,
  `  skewguard runs with the window ${K8S_MINOR}, the schema's minor: both must report the same ${'errors'} (apiVersions 1.21 does not serve).`,
  `- (c) \`taplo lint --no-auto-config --schema file://…/schemas/kata/${KATA_RELEASE}/configuration.schema.json\` (@taplo/cli, WebAssembly build,`,
  '  offline) and `lsp-lint --kata-window ' + KATA_RELEASE + ' --kata-flavour go`, whole commands including start-up; both must find the same errors.',
  `- (d) ${'10,000'} files from bench/corpus-peers.mjs (Kubernetes windows ${'1.18..1.21'}, StarlingX ${STX_RELEASE}, Kata ${KATA_WINDOW}); the default run ${RUNS.scale} times (median; the highest RSS), --jobs 1 once.`,
  `  yaml-language-server's throughput is measured on a ${SIZES.ylsSample.toLocaleString('en')}-file YAML sample over LSP (all didOpens sent at once, timed to the last`,
  `  publishDiagnostics, minus one ${YLS_DEBOUNCE_MS} ms debounce) and extrapolated; skewguard\'s server is measured on the same sample the same way.`,
  `- (e) ${'1,000'} incremental didChange edits (after ${'50'} warm-up edits): new scalar values, and characters typed anywhere and removed by the next edit;`,
  '  after each one the published diagnostics are compared with a fresh in-process analysis of the same text.',
];
