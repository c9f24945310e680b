// `npm run test:e2e`: what a person sees. The packaged .vsix is installed into code-server (VS Code 1.100.3 in the
// browser, Node extension host), a temporary copy of examples/ is opened in headless Chromium (playwright-core), and
// the test looks at the screen: squiggles, the Problems panel, hovers, the Ctrl+. menu, the edited text and the
// status bar. Screenshots go to test-results/e2e/ (gitignored).
//
//   npm run test:e2e                  packages the extension first (scripts/package.mjs)
//   SKEWGUARD_VSIX=x.vsix npm run test:e2e    uses that package instead
//   SKEWGUARD_HARNESS=dir             where the harness lives (default ~/.cache/skewguard-vscode; installed if missing)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as P from './page.mjs';

const { makeWorkspace, ensureHarness, FILES, OUT, log, norm } = P;
const STEP_TIMEOUT = 60000;

let w, cs, context, page;
const ctx = { ok: true };

before(async () => {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const harness = ensureHarness();
  w = makeWorkspace('skewguard-e2e-');
  const vsix = P.packagedVsix(w.base);
  assert.ok(fs.existsSync(vsix), `no .vsix at ${vsix}`);
  cs = P.startCodeServer(harness, w, vsix);
  log(`code-server at ${cs.CS_URL} with ${path.basename(vsix)} installed`);
  let consoleLines;
  ({ context, page, consoleLines } = await P.launchBrowser(harness, w.base, STEP_TIMEOUT));
  ctx.writeConsole = () => fs.writeFileSync(path.join(OUT, 'console.log'), consoleLines.join('\n') + '\n');
  await page.goto(`${cs.CS_URL}/?folder=${encodeURIComponent(w.ws)}`);
  await page.locator('.monaco-workbench').waitFor();
  log('workbench visible');
});

after(async () => {
  ctx.writeConsole?.();
  await context?.close().catch(() => {});
  if (cs?.CS_STATE_DIR) {
    if (!ctx.ok && cs.CS_LOG) fs.copyFileSync(cs.CS_LOG, path.join(OUT, 'code-server.log'));
    P.stopCodeServer(cs);
  }
  w?.cleanup();
  log(`screenshots in ${path.relative(process.cwd(), OUT) || OUT}`);
});

/** Runs a UI step; on failure saves a screenshot named after it. */
function step(name, fn) {
  test(name, async () => {
    try {
      await fn();
    } catch (e) {
      ctx.ok = false;
      const file = path.join(OUT, `failure-${name.replace(/[^\w]+/g, '-').slice(0, 60)}.png`);
      await page?.screenshot({ path: file }).catch(() => {});
      throw e;
    }
  });
}

const shot = (name) => P.shot(page, name);
const editor = () => P.editorOf(page);
const openFile = (rel) => P.openFile(page, rel);
/** Runs a command from the Command Palette by its title. */
async function runCommand(title) {
  await P.runCommand(page, title);
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}
const hoverOver = (text) => P.hoverOver(page, text);
const closeHover = () => P.closeHover(page);
/** The Ctrl+. menu at line:column, the row titled `title` chosen (page.mjs quickFix), with a screenshot. */
const quickFix = (line, column, title) => P.quickFix(page, line, column, title, `quickfix-${title.replace(/[^\w.]+/g, '-').replace(/^-|-$/g, '').slice(0, 40)}`);

/** The rendered text of editor line `line` (1-based; the line must be on screen). */
async function lineText(line) {
  return page.evaluate(({ line }) => {
    const lines = [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-lines .view-line')];
    const lh = lines[0]?.offsetHeight || 1;
    const top = (el) => parseFloat(el.style.top);
    const first = Math.min(...lines.map(top));
    // Lines are absolutely positioned; the first rendered one is the top visible line (no scrolling here).
    const el = lines.find((l) => Math.round((top(l) - first) / lh) === line - 1);
    return el ? el.textContent.replace(/\u00a0/g, ' ') : null;
  }, { line });
}

// The skewguard status item: the active file's own window (#18: a Kata file shows its Kata window, a manifest its
// Kubernetes window).
const statusWindow = () => page.locator('.statusbar-item', { hasText: /^\s*(StarlingX|Kubernetes|Kata|skewguard)/ }).first();

step('the workbench shows the examples workspace', async () => {
  for (const dir of ['kata', 'kubernetes', 'starlingx']) {
    await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${dir}"]`).first().waitFor();
  }
});

step('localhost.yml: the "v" prefix is underlined as an error', async () => {
  await openFile(FILES.localhost);
  await editor().locator('.squiggly-error').first().waitFor();
  await editor().locator('.squiggly-warning').first().waitFor();
  assert.equal(await lineText(17), 'kubernetes_version: v1.34.1');
  const problems = await page.locator('#status\\.problems').getAttribute('aria-label');
  assert.match(problems, /Errors: 1, Warnings: 3/);
});

step('the status bar shows the resolved window of the active file', async () => {
  await statusWindow().waitFor();
  assert.match(norm(await statusWindow().innerText()), /^StarlingX 12\.0 · Kubernetes 1\.34$/);
  await shot('localhost-status-bar');
});

step('localhost.yml: hovering kubernetes_version shows the versions StarlingX 12.0 ships', async () => {
  const hover = await hoverOver('v1.34.1');
  const text = norm(await hover.innerText());
  assert.match(text, /kubernetes_version — StarlingX 12\.0/);
  assert.match(text, /1\.34\.1 is the newest version this release ships/);
  await shot('localhost-hover');
  await closeHover();
});

step('localhost.yml: hovering a dropped key shows the releases that read it', async () => {
  const hover = await hoverOver('k8s_root_ca_cert');
  const text = norm(await hover.innerText());
  assert.match(text, /Not read by StarlingX 12\.0\./);
  assert.match(text, /Releases that read it: 5\.0, 6\.0, 7\.0, 8\.0, 9\.0, 10\.0, 11\.0\./);
  await closeHover();
});

step('the Problems panel lists the problems of a localhost.yml, a manifest and a Kata TOML', async () => {
  await openFile(FILES.manifest);
  await editor().locator('.squiggly-error').first().waitFor();
  await openFile(FILES.kata);
  await editor().locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').waitFor();
  // Room for every row (the list only renders what fits).
  await runCommand('View: Toggle Maximized Panel');
  const rows = page.locator('.markers-panel .monaco-list-row');
  const want = [FILES.localhost, FILES.manifest, FILES.kata].flatMap((f) => w.expected.find((e) => e.file === f).messages.map((m) => ({ f, m })));
  assert.equal(want.length, 6);
  for (const { m } of want) {
    await page.locator('.markers-panel .monaco-list-row', { hasText: m.message.slice(0, 60) }).first().waitFor();
  }
  const texts = (await rows.allInnerTexts()).map(norm);
  for (const { f, m } of want) {
    const row = texts.find((t) => t.includes(m.message.slice(0, 60)));
    assert.ok(row.includes(m.code), `row without the rule id ${m.code}: ${row}`);
    assert.ok(row.includes(`[Ln ${m.range[0] + 1}, Col ${m.range[1] + 1}]`), `row without the position: ${row}`);
    assert.ok(texts.some((t) => t.startsWith(path.basename(f))), `no file row for ${f}`);
  }
  assert.ok(texts.some((t) => /^localhost\.yml\s*starlingx\/stx12-v-prefix\s*4$/.test(t)), `localhost.yml file row: ${texts.join(' | ')}`);
  await shot('problems-panel');
  await runCommand('View: Toggle Maximized Panel');
  await runCommand('View: Hide Panel');
  await page.locator('.markers-panel').waitFor({ state: 'hidden' });
});

step('Kata TOML: hovering shared_fs shows the values each release accepts', async () => {
  await openFile(FILES.kata);
  const hover = await hoverOver('shared_fs');
  const text = norm(await hover.innerText());
  assert.match(text, /shared_fs in \[hypervisor\.qemu\] — Kata Containers Go runtime/);
  assert.match(text, /virtio-9p, virtio-fs, virtio-fs-nydus \(2\.4\.0–3\.1\.3, others fatal\)/);
  await shot('kata-hover');
  await closeHover();
});

step('Kata TOML: Ctrl+. offers values every release accepts; choosing one changes the text and clears the error', async () => {
  const titles = await quickFix(13, 14, 'Change to virtio-fs');
  assert.deepEqual(titles.filter((t) => t.startsWith('Change to')), ['Change to virtio-9p', 'Change to virtio-fs', 'Change to virtio-fs-nydus']);
  await page.waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ') === 'shared_fs = "virtio-fs"'));
  assert.equal(await lineText(13), 'shared_fs = "virtio-fs"');
  await editor().locator('.squiggly-error').first().waitFor({ state: 'detached' });
  assert.match(norm(await statusWindow().innerText()), /^Kata 3\.1\.0\.\.3\.32\.0 \(go\)$/);
  await shot('kata-after-fix');
});

step('manifest: hovering apiVersion shows the timeline over the window', async () => {
  await openFile(FILES.manifest);
  const hover = await hoverOver('extensions/v1beta1');
  const text = norm(await hover.innerText());
  assert.match(text, /extensions\/v1beta1 DaemonSet/);
  assert.match(text, /removed 1\.16/);
  assert.match(text, /Served by every version of the window: apps\/v1/);
  await shot('manifest-hover');
  await closeHover();
});

step('manifest: Ctrl+. offers the conversion to apps/v1; applying it rewrites the text and clears the error', async () => {
  assert.match(norm(await statusWindow().innerText()), /^Kubernetes 1\.18\.\.1\.21$/);
  await quickFix(2, 14, 'Convert to apps/v1');
  await page.waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ') === 'apiVersion: apps/v1'));
  assert.equal(await lineText(2), 'apiVersion: apps/v1');
  // apps/v1 needs a selector (from the pod labels); the old default update strategy is kept. Both are inserted at
  // the end of spec; their order is the order of the edits (LSP), which lsp-lint --fix applies differently.
  const added = (await Promise.all([17, 18, 19, 20, 21].map(lineText))).join('\n');
  assert.ok([
    '  selector:\n    matchLabels:\n      app: node-exporter\n  updateStrategy:\n    type: OnDelete',
    '  updateStrategy:\n    type: OnDelete\n  selector:\n    matchLabels:\n      app: node-exporter',
  ].includes(added), added);
  await editor().locator('.squiggly-error').first().waitFor({ state: 'detached' });
  await shot('manifest-after-fix');
});

step('#18 localhost.yml: the Ctrl+. menu has the fix, disable for line/file, the documentation and fix-all; the rule page opens offline', async () => {
  await openFile(FILES.localhost);
  const V = 'starlingx/kubernetes-version-v-prefix';
  const titles = await quickFix(17, 22, `Show documentation for ${V}`);
  // The page shipped in the .vsix, in VS Code's Markdown preview (no browser, no network).
  const tab = page.locator('.tabs-container .tab.active', { hasText: 'kubernetes-version-v-prefix' });
  await tab.waitFor();
  const label = norm(await tab.innerText());
  // The preview is a webview (its iframe lives outside the editor part); give it a moment to render for the picture.
  await page.locator('iframe.webview.ready').first().waitFor({ state: 'attached' });
  await page.waitForTimeout(1500);
  await shot('rule-page-offline');
  // The webview has the keyboard: close the preview with its tab's close button.
  await tab.locator('.tab-actions .action-label').first().click();
  await page.locator('.tabs-container .tab.active', { hasText: 'localhost.yml' }).waitFor();
  assert.match(label, /Preview kubernetes-version-v-prefix\.md/);
  for (const t of ['Remove the "v": 1.34.1', `Disable ${V} for this line`, `Disable ${V} for the entire file`, `Show documentation for ${V}`, 'Fix all skewguard problems in this file']) {
    assert.ok(titles.some((x) => x.includes(t)), `${t} in ${JSON.stringify(titles)}`);
  }
});

step('localhost.yml: Ctrl+. offers "Remove the v"; applying it changes the text and clears the error', async () => {
  await openFile(FILES.localhost);
  await quickFix(17, 22, 'Remove the "v": 1.34.1');
  await page.waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ') === 'kubernetes_version: 1.34.1'));
  assert.equal(await lineText(17), 'kubernetes_version: 1.34.1');
  await editor().locator('.squiggly-error').first().waitFor({ state: 'detached' });
  // Errors fixed in all three files; the localhost.yml's three warnings stay.
  await page.waitForFunction(() => !/Errors: [1-9]/.test(document.querySelector('#status\\.problems')?.getAttribute('aria-label') ?? 'Errors: 1'));
  assert.match(await page.locator('#status\\.problems').getAttribute('aria-label'), /Warnings: 3/);
  await page.mouse.move(1300, 850);
  await shot('localhost-after-fix');
});

step('#18 the status item opens the window menu; "Change window…" picks a release and writes .skewguard.yaml', async () => {
  await openFile(FILES.localhost);
  await statusWindow().waitFor();
  assert.match(norm(await statusWindow().innerText()), /^StarlingX 12\.0 · Kubernetes 1\.34$/);
  await statusWindow().click();
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await rows.filter({ hasText: 'Change window…' }).first().waitFor();
  const menu = (await rows.allInnerTexts()).map(norm);
  for (const t of ['Change window…', 'Open .skewguard.yaml', 'Show resolved window']) assert.ok(menu.some((x) => x.includes(t)), `${t} in ${JSON.stringify(menu)}`);
  await shot('window-menu');
  await page.keyboard.press('Enter'); // Change window… (the first row)
  await rows.filter({ hasText: 'StarlingX release' }).first().waitFor();
  await shot('change-window-parts');
  await page.keyboard.press('Enter'); // StarlingX release (the first row)
  await rows.filter({ hasText: '11.0' }).first().waitFor();
  await page.waitForTimeout(300);
  await shot('change-window-picker');
  await page.locator('.quick-input-widget input').fill('11.0');
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: '11.0' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  const cfg = path.join(w.ws, path.dirname(FILES.localhost), '.skewguard.yaml');
  await page.waitForFunction(() => /StarlingX 11\.0/.test(document.querySelector('.part.statusbar')?.textContent ?? ''), null, { timeout: 30000 });
  assert.match(fs.readFileSync(cfg, 'utf8'), /release: "?11\.0"?/);
  await shot('window-changed');
});
