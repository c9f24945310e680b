// Big files whole (issue #18 item 5), what a person sees: the 12,000-document bundle of the benchmark
// (bench/bundle.mjs, 3.5 MB, about 7,700 findings, far over the 1,000 diagnostics VS Code shows per file) is opened in
// code-server (the packaged .vsix, as in ui.test.mjs), the editor goes to its last lines, and the squiggles there are
// on screen: the client tells the server what is visible and the server sends the findings there. Screenshot:
// test-results/e2e/bigfile-near-end.png (and bigfile-top.png).
//
//   npm run test:e2e                  runs it after ui.test.mjs (one editor suite at a time: flock /tmp/editor-suite.lock)
//   SKEWGUARD_VSIX=x.vsix             uses that package instead of packaging one
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleFile } from '../../bench/bundle.mjs';
import { ensureHarness, OUT, log, packagedVsix, startCodeServer, stopCodeServer, launchBrowser, openFile, editorOf } from './page.mjs';

const STEP_TIMEOUT = 120000;
const TEXT = bundleFile(12000);
const LINES = TEXT.split('\n').length - 1;

let base, ws, cs, context, page;
let ok = true;

before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  const harness = ensureHarness();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-e2e-big-')));
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), 'kubernetes:\n  window: "1.18..1.21"\n');
  fs.writeFileSync(path.join(ws, 'bundle.yaml'), TEXT);
  const vsix = packagedVsix(base);
  cs = startCodeServer(harness, { ws, base }, vsix);
  log(`code-server at ${cs.CS_URL}`);
  ({ context, page } = await launchBrowser(harness, base, STEP_TIMEOUT));
  await page.goto(`${cs.CS_URL}/?folder=${encodeURIComponent(ws)}`);
  await page.locator('.monaco-workbench').waitFor();
});

after(async () => {
  await context?.close().catch(() => {});
  if (cs?.CS_STATE_DIR) {
    if (!ok && cs.CS_LOG) fs.copyFileSync(cs.CS_LOG, path.join(OUT, 'bigfile-code-server.log'));
    stopCodeServer(cs);
  }
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const editor = () => editorOf(page);
const SQUIGGLES = '.part.editor .editor-instance .monaco-editor .view-overlays .squiggly-error, .part.editor .editor-instance .monaco-editor .view-overlays .squiggly-warning';

/** The line numbers in the gutter (what is on screen). */
const visibleLines = () => page.evaluate(() => [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .margin-view-overlays .line-numbers')]
  .map((e) => Number(e.textContent.trim())).filter((n) => n > 0));

test('#18.5 a 12,000-document bundle: squiggles near its end, where VS Code showed none past its first 1,000 findings', async () => {
  try {
    await openFile(page, 'bundle.yaml');
    await page.locator(SQUIGGLES).first().waitFor();
    log('squiggles at the top');
    await page.screenshot({ path: path.join(OUT, 'bigfile-top.png') });

    // To the last lines (Ctrl+G), the cursor there.
    const target = LINES - 25;
    await editor().locator('.view-lines').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').waitFor();
    await page.keyboard.type(`${target}:1`);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await page.waitForFunction((n) => [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .margin-view-overlays .line-numbers')]
      .some((e) => Number(e.textContent.trim()) === n), target);
    const lines = await visibleLines();
    assert.ok(Math.min(...lines) > LINES - 200, `on screen: lines ${Math.min(...lines)}..${Math.max(...lines)} of ${LINES}`);
    // The squiggles there: drawn by the editor from the diagnostics the server sent for these lines.
    await page.locator(SQUIGGLES).first().waitFor();
    const n = await page.locator(SQUIGGLES).count();
    log(`${n} squiggles on lines ${Math.min(...lines)}..${Math.max(...lines)} of ${LINES}`);
    assert.ok(n > 0);
    // And one of them is a finding of that part of the file: hover the last apiVersion on screen with a squiggle.
    const marked = await page.evaluate(() => {
      const top = (el) => el.getBoundingClientRect().top;
      const sq = [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-overlays .squiggly-error, .part.editor .editor-instance .monaco-editor .view-overlays .squiggly-warning')];
      const rows = [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-lines .view-line')];
      return sq.map((s) => rows.find((r) => Math.abs(top(r) - top(s)) < 4)?.textContent.replace(/\u00a0/g, ' ')).filter(Boolean);
    });
    assert.ok(marked.some((t) => /^apiVersion: (extensions\/v1beta1|networking\.k8s\.io\/v1beta1|batch\/v1beta1|policy\/v1beta1)$/.test(t)), JSON.stringify(marked));
    await page.screenshot({ path: path.join(OUT, 'bigfile-near-end.png') });
  } catch (e) {
    ok = false;
    await page?.screenshot({ path: path.join(OUT, 'failure-bigfile.png') }).catch(() => {});
    throw e;
  }
});
