// Issue 29: real-shaped files at real speed. Four 5,000-document files side by side in one run: the synthetic one of
// suite 1 (corpus.mjs), the real-shaped bundles of real-corpus.mjs without and with CRDs, and the one without CRDs
// with CRLF line breaks. For each, interleaved
// (each repeat runs every contender once, in turn), a fresh process each time:
//   - `node -e` js-yaml loadAll(readFileSync(file)) (the floor: keeps no positions, checks nothing),
//   - lsp-lint --format json on the file (its server included), and, with BENCH_BASE=<another checkout, built>, that
//     checkout's lsp-lint too (an A/B in the same run);
// and in the editor, didOpen → the file checked whole (no "still checking" note), two ways, each against js-yaml in the
// same state: a freshly started server's first file against js-yaml's first loadAll in a fresh process (both cold: the
// time of that call, printed by the js-yaml process above), and a running server's next files (it has checked a file of
// the same shape, as an editor's server has) against js-yaml loadAll of the same texts in this process, after a warm-up.
// Each file the editor opens is new to the server (`salt`: one comment line per document differs, same findings), so no
// parse cache answers for it. Peak RSS of every process (VmHWM, bench/rss-probe.cjs).
//   node bench/run.mjs real                      all four
//   BENCH_REAL=crds node bench/run.mjs real      only the with-CRDs file (synthetic, plain, crds, crlf; comma-separated)
//   BENCH_REAL_RUNS=3                            repeats (default 5, after one warm-up)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { manifestFile } from './corpus.mjs';
import { realManifest } from './real-corpus.mjs';
import { LspSession } from './lsp.mjs';

const CHECKING = 'skewguard/checking', LIMIT = 'skewguard/findings-limit';

export const realMethod = [
  '- Real-shaped (bench/real.mjs, bench/real-corpus.mjs): each file is written once; each repeat runs, in turn, a fresh `node -e` js-yaml',
  '  `loadAll` process and a fresh `lsp-lint --format json --output-file` process on it (medians; the ratio is of the medians). Peak RSS:',
  '  VmHWM of each process (lsp-lint, its server, the js-yaml process). Editor (window from .skewguard.yaml, debounceMs 0): didOpen →',
  '  the first publication without the "still checking" note. Fresh server: its first file, against the first `loadAll` in the',
  '  fresh js-yaml process (the call alone, both cold). Running server: the next files of the same shape it is given (each new to',
  '  it: one comment line per document differs, same findings), against js-yaml `loadAll` of the same texts in the bench process.',
];

export function realSuites({ ROOT, WINDOW, SERVER_ENV, check, row, stats, ms, mb, ratio, tmpDir, run, gc, Failure }) {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const JS_YAML = require.resolve('js-yaml');
  const PROBE = path.join(ROOT, 'bench', 'rss-probe.cjs');
  const RUNS = Number(process.env.BENCH_REAL_RUNS ?? 5);

  const FILES = {
    synthetic: (salt = 0) => manifestFile(5000, { salt }),
    plain: (salt = 0) => realManifest(5000, { crds: false, salt }),
    crds: (salt = 0) => realManifest(5000, { crds: true, salt }),
    // The same documents as `plain`, with CRLF line breaks (a repository written on Windows): the fast path reads them too.
    crlf: (salt = 0) => realManifest(5000, { crds: false, crlf: true, salt }),
  };
  const LABEL = { synthetic: 'synthetic 5,000 documents (corpus.mjs)', plain: 'real-shaped, without CRDs', crds: 'real-shaped, with CRDs', crlf: 'real-shaped, without CRDs, CRLF line breaks' };

  /** Runs a command with the RSS probe; resolves to { ms, code, stdout, stderr, procs: [{script, hwmKb}] }. */
  async function probed(dir, tag, command, args) {
    const rssFile = path.join(dir, `rss-${tag}.jsonl`);
    fs.rmSync(rssFile, { force: true });
    const env = { ...SERVER_ENV, BENCH_RSS_OUT: rssFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim() };
    gc();
    const r = await run(command, args, { cwd: dir, env });
    let procs = [];
    for (let w = 0; w < 50; w++) {
      procs = fs.existsSync(rssFile) ? fs.readFileSync(rssFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
      if (procs.length >= (args.includes('-e') ? 1 : 2)) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    return { ...r, procs };
  }

  /**
   * One editor server: opens each text in turn (a new file each, closed after), didOpen → checked whole. Resolves to
   * [{ ms, total }] per text and the server's peak RSS.
   */
  async function editorOpens(dir, texts) {
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), `kubernetes:\n  window: "${WINDOW}"\n`);
    const s = await LspSession.start({ command: process.execPath, args: [path.join(ROOT, 'dist', 'server.js'), '--stdio'], cwd: dir, env: SERVER_ENV, initializationOptions: { settings: { debounceMs: 0 } } });
    const out = [];
    try {
      for (const [k, text] of texts.entries()) {
        const uri = pathToFileURL(path.join(dir, `open-${k}.yaml`)).toString();
        gc();
        const t0 = performance.now();
        const whole = new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Failure(`real: editor server did not finish open-${k}.yaml within 120 s\n${s.stderr}`)), 120000);
          const l = (p, at) => { if (p.uri === uri && !p.diagnostics.some((d) => d.code === CHECKING)) { clearTimeout(timer); s.listeners.delete(l); resolve({ diagnostics: p.diagnostics, at }); } };
          s.listeners.add(l);
        });
        await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
        const w = await whole;
        const summary = w.diagnostics.find((d) => d.code === LIMIT);
        out.push({ ms: w.at - t0, total: summary?.data?.total ?? w.diagnostics.length });
        await s.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
      const hwm = Number(/^VmHWM:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${s.pid}/status`, 'utf8'))?.[1]);
      return { opens: out, hwm };
    } finally { await s.stop(); }
  }

  async function one(id) {
    const S = `8. ${LABEL[id]} (#29)`;
    const text = FILES[id]();
    const dir = tmpDir(`real-${id}`);
    const name = `${id}.yaml`;
    fs.writeFileSync(path.join(dir, name), text);
    const docs = text.split(/^---\r?$/m).length;
    console.log(`\n${S} (${(text.length / 1048576).toFixed(1)} MB, ${docs} documents)`);
    const js = [], jsCold = [], jsHwm = [], lint = [], lintHwm = [], srvHwm = [], base = [], baseSrvHwm = [];
    const counts = new Set(), baseCounts = new Set();
    const BASE = process.env.BENCH_BASE;
    const lintArgs = (root, i) => [path.join(root, 'bin', 'lsp-lint.js'), '--kubernetes-window', WINDOW, '--format', 'json', '--output-file', path.join(dir, `report-${i}.json`), name];
    const count = (i) => JSON.parse(fs.readFileSync(path.join(dir, `report-${i}.json`), 'utf8')).reduce((s, f) => s + f.messages.length, 0);
    for (let i = -1; i < RUNS; i++) {
      // The process also prints how long its first (cold) loadAll took: the fresh editor server's floor.
      const j = await probed(dir, `js-${i}`, process.execPath, ['-e', `const y = require(${JSON.stringify(JS_YAML)}), t = require('fs').readFileSync(${JSON.stringify(name)}, 'utf8'); const t0 = performance.now(); y.loadAll(t); process.stdout.write(String(performance.now() - t0))`]);
      if (j.code !== 0) throw new Failure(`js-yaml process exited ${j.code}\n${j.stderr}`);
      const l = await probed(dir, `lint-${i}`, process.execPath, lintArgs(ROOT, i));
      if (l.code !== 0 && l.code !== 1) throw new Failure(`lsp-lint exited ${l.code} on ${name}\n${l.stderr}`);
      counts.add(count(i));
      let b;
      if (BASE) {
        b = await probed(dir, `base-${i}`, process.execPath, lintArgs(BASE, `b${i}`));
        // The other checkout may fail where this one does not (the point of an A/B): said in its row, not fatal.
        // This checkout's timings of the same repeat are kept either way (they were dropped with a `continue`).
        if (b.code !== 0 && b.code !== 1) baseCounts.add(`exit ${b.code}: ${b.stderr.trim().split('\n')[0]}`);
        else baseCounts.add(count(`b${i}`));
      }
      if (i < 0) continue;
      js.push(j.ms); jsHwm.push(j.procs[0]?.hwmKb ?? NaN); jsCold.push(Number(j.stdout));
      lint.push(l.ms);
      lintHwm.push(l.procs.find((p) => p.script === 'lsp-lint.js')?.hwmKb ?? NaN);
      srvHwm.push(l.procs.find((p) => p.script === 'server.js')?.hwmKb ?? NaN);
      if (b) { base.push(b.ms); baseSrvHwm.push(b.code === 0 || b.code === 1 ? b.procs.find((p) => p.script === 'server.js')?.hwmKb ?? NaN : NaN); }
    }
    const [n] = counts;
    check(`lsp-lint findings (${id})`, counts.size === 1 && n > 0, `${[...counts].join('/')} every run`);
    const baseOk = baseCounts.size === 1 && baseCounts.has(n);
    if (BASE) console.log(`  ${baseOk ? 'same' : 'DIFFERENT'}: BENCH_BASE lsp-lint findings (${id}): ${[...baseCounts].join(' / ')} (this checkout ${n})`);

    // The editor: a fresh server's first file, then the same server's next files (each new to it: another salt).
    const y = require('js-yaml');
    const fresh = [], running = [], warmTexts = [];
    let edHwm = 0;
    const totals = new Set();
    for (let i = 0; i < Math.min(RUNS, 3); i++) {
      const texts = [FILES[id](100 + 3 * i), FILES[id](101 + 3 * i), FILES[id](102 + 3 * i)];
      const r = await editorOpens(tmpDir(`real-ed-${id}`), texts);
      fresh.push(r.opens[0].ms);
      for (const o of r.opens.slice(1)) running.push(o.ms);
      warmTexts.push(...texts.slice(1));
      for (const o of r.opens) totals.add(o.total);
      edHwm = Math.max(edHwm, r.hwm);
    }
    check(`editor server findings (${id})`, totals.size === 1 && totals.has(n), `${[...totals].join('/')} every file (lsp-lint ${n})`);
    // js-yaml on the running server's texts, in this process after a warm-up.
    const inproc = [];
    y.loadAll(FILES[id](99));
    for (const t of warmTexts) { gc(); const t0 = performance.now(); y.loadAll(t); inproc.push(performance.now() - t0); }

    const J = stats(js), JC = stats(jsCold), L = stats(lint), F = stats(fresh), E = stats(running), I = stats(inproc);
    const maxKb = (xs) => Math.max(...xs.filter((x) => x === x));
    row(S, 'js-yaml loadAll, fresh process (floor)', J, { note: `peak RSS ${mb(maxKb(jsHwm))}` });
    row(S, 'lsp-lint --format json, fresh process', L, { note: `${ratio(L.median, J.median)} js-yaml (goal ≤ 3×); peak RSS lsp-lint ${mb(maxKb(lintHwm))}, server ${mb(maxKb(srvHwm))} (goal ≤ 300 MB)` });
    if (BASE) row(S, `BENCH_BASE lsp-lint (${path.basename(BASE)})`, stats(base), { note: `${ratio(stats(base).median, J.median)} js-yaml; ${ratio(stats(base).median, L.median)} this checkout's; server peak RSS ${baseSrvHwm.some((x) => x === x) ? mb(maxKb(baseSrvHwm)) : '?'}${baseOk ? '' : `; findings ${[...baseCounts].join(' / ')}`}` });
    row(S, 'editor, fresh server: didOpen → checked whole', F, { note: `${ratio(F.median, JC.median)} the first js-yaml loadAll in a fresh process (${ms(JC.median)}; goal ≤ 2×)` });
    row(S, 'editor, running server: didOpen → checked whole', E, { note: `${ratio(E.median, I.median)} js-yaml loadAll in-process (${ms(I.median)}; goal ≤ 2×); server peak RSS ${mb(edHwm)}` });
  }

  return { real: async () => { for (const id of (process.env.BENCH_REAL ?? 'synthetic,plain,crds,crlf').split(',')) await one(id); } };
}
