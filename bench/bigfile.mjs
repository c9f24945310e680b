// Issue #18 item 5, the big-file editor lines: the 12,000-document bundle (bench/bundle.mjs, 3.5 MB) opened and
// edited in the language server as an editor drives it (no lsp-lint flags: the window comes from .skewguard.yaml,
// debounceMs 0), against the same server driven as lsp-lint drives it (initializationOptions.cli: the whole file
// analysed on every change, every finding sent), in the same run. Targets: first squiggle ≤ 1 s after didOpen,
// didChange → publishDiagnostics p95 ≤ 50 ms and no edit over 200 ms, server peak RSS ≤ 250 MB.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFile } from './bundle.mjs';
import { LspSession } from './lsp.mjs';
import { rng } from './corpus.mjs';

const DOCS = 12000;
const EDITS = 200, WARMUP = 10;
const CHECKING = 'skewguard/checking', LIMIT = 'skewguard/findings-limit';

export const bigfileMethod = [
  `- Big bundle (bench/bundle.mjs, ${DOCS.toLocaleString('en-US')} documents): the editor server gets the window from .skewguard.yaml and \`debounceMs: 0\`;`,
  '  "first squiggle" is didOpen → the first publishDiagnostics with a finding, "checked whole" → the first without the',
  `  ${CHECKING} note. Edits replace one namespace value (findings unchanged), one at a time; "whole-file" is the same`,
  '  server with lsp-lint\'s initializationOptions (every change analyses the whole file, every finding is sent).',
];

export function bigfileSuites({ ROOT, WINDOW, SERVER_ENV, engine, check, row, rows, stats, median, pct, ms, mb, ratio, tmpDir, kbFromStatus, gc }) {
  const TODAY = engine.kubernetesApis().asOf;
  const SERVER = [path.join(ROOT, 'dist', 'server.js'), '--stdio'];

  /** The namespace lines of the text: [{ line, start, end }] (0-based, characters of the value). */
  function namespaceLines(text) {
    const out = [];
    text.split('\n').forEach((l, i) => { const m = /^( {2}namespace: )(\S+)$/.exec(l); if (m) out.push({ line: i, start: m[1].length, end: l.length }); });
    return out;
  }

  async function session(cwd, editor) {
    return LspSession.start({
      command: process.execPath, args: SERVER, cwd, env: SERVER_ENV,
      initializationOptions: editor ? { settings: { debounceMs: 0 } } : { cli: { kubernetesWindow: WINDOW }, settings: { debounceMs: 0 }, allDiagnostics: true },
    });
  }

  /** Waits for publications of `uri` until pred(diagnostics) holds; resolves with { diagnostics, at }. */
  function until(s, uri, pred, timeoutMs = 60000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bigfile: no matching diagnostics for ${uri} within ${timeoutMs} ms\n${s.stderr}`)), timeoutMs);
      const l = (p, at) => {
        if (p.uri !== uri || !pred(p.diagnostics)) return;
        clearTimeout(timer); s.listeners.delete(l); resolve({ diagnostics: p.diagnostics, at });
      };
      s.listeners.add(l);
    });
  }

  async function editRun(s, uri, text, r) {
    const lines = namespaceLines(text);
    const samples = [];
    let version = 1, last;
    for (let i = -WARMUP; i < EDITS; i++) {
      const c = r.pick(lines);
      const value = `ns${r.int(0, 1e6).toString(36)}`;
      const range = { start: { line: c.line, character: c.start }, end: { line: c.line, character: c.end } };
      c.end = c.start + value.length;
      const res = await s.change(uri, ++version, [{ range, text: value }]);
      last = res.diagnostics;
      if (i >= 0) samples.push(res.ms);
    }
    return { samples, last };
  }

  async function bundle() {
    const S = '7. big bundle in the editor (#18)';
    const text = bundleFile(DOCS);
    const lineCount = text.split('\n').length - 1;
    const expected = engine.analyze({ path: '/bench/bundle.yaml', text, config: engine.resolveConfig({ cli: { kubernetesWindow: WINDOW } }), today: new Date(TODAY) }).diagnostics.length;
    console.log(`\n${S} (${(text.length / 1e6).toFixed(2)} MB, ${lineCount} lines, ${DOCS} documents, ${expected} findings in-process)`);

    // The editor path.
    const cwd = tmpDir('bundle');
    fs.writeFileSync(path.join(cwd, '.skewguard.yaml'), `kubernetes:\n  window: "${WINDOW}"\n`);
    const s = await session(cwd, true);
    const uri = pathToFileURL(path.join(cwd, 'bundle.yaml')).toString();
    gc();
    const t0 = performance.now();
    const first = until(s, uri, (ds) => ds.some((d) => d.code !== CHECKING && d.code !== LIMIT));
    const whole = until(s, uri, (ds) => !ds.some((d) => d.code === CHECKING));
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const f = await first, w = await whole;
    const summary = w.diagnostics.find((d) => d.code === LIMIT);
    check('editor server: every finding counted (big bundle)', summary?.data?.total === expected && w.diagnostics.length <= 1000,
      `${summary?.data?.total} findings, ${w.diagnostics.length} sent (in-process ${expected}; the editor shows at most 1,000)`);
    const lastLine = w.diagnostics.reduce((m, d) => Math.max(m, d.range.start.line), 0);
    const edited = await editRun(s, uri, text, rng(1818));
    const eSummary = edited.last.find((d) => d.code === LIMIT);
    check('editor server: findings after the edits (big bundle)', eSummary?.data?.total === expected, `${eSummary?.data?.total} (in-process ${expected})`);
    const hwm = kbFromStatus(s.pid, 'VmHWM');
    await s.stop();

    // The whole-file path (lsp-lint's options), same edits.
    const cwd2 = tmpDir('bundle-whole');
    const s2 = await session(cwd2, false);
    const uri2 = pathToFileURL(path.join(cwd2, 'bundle.yaml')).toString();
    gc();
    const opened = await s2.open(uri2, text);
    check('whole-file server: findings (big bundle)', opened.diagnostics.length === expected, `${opened.diagnostics.length} (in-process ${expected})`);
    const edited2 = await editRun(s2, uri2, text, rng(1818));
    const hwm2 = kbFromStatus(s2.pid, 'VmHWM');
    await s2.stop();

    const e = stats(edited.samples), e2 = stats(edited2.samples);
    row(S, 'didOpen → first squiggle', stats([f.at - t0]), { note: `target ≤ 1 s; the parts on screen first (lines near the top)` });
    row(S, 'didOpen → checked whole (no "still checking" note)', stats([w.at - t0]), { note: `whole-file server: didOpen → publishDiagnostics ${ms(opened.ms)}; last line with a diagnostic sent: ${lastLine + 1} of ${lineCount}` });
    rows.push({ section: S, name: 'didChange → publishDiagnostics, p50 / p95 / max', value: `${ms(median(edited.samples))} / ${ms(pct(edited.samples, 95))} / ${ms(e.max)}`, range: `${ms(e.min)} – ${ms(e.max)}`, n: String(e.n),
      note: `target p95 ≤ 50 ms, max ≤ 200 ms; whole-file server ${ms(median(edited2.samples))} / ${ms(pct(edited2.samples, 95))} / ${ms(e2.max)} (${ratio(median(edited2.samples), median(edited.samples))} the editor path's median)` });
    console.log(`  edits p50 ${ms(median(edited.samples))}, p95 ${ms(pct(edited.samples, 95))}, max ${ms(e.max)}; whole-file p50 ${ms(median(edited2.samples))}, p95 ${ms(pct(edited2.samples, 95))}, max ${ms(e2.max)}`);
    row(S, 'server peak RSS (open + edits)', stats([hwm]), { unit: 'kb', note: `target ≤ 250 MB; whole-file server ${mb(hwm2)}` });
  }

  return { bundle };
}
