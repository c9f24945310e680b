// Shared by the UI suites (test/e2e/ui.test.mjs, bigfile.test.mjs, web.test.mjs, window.test.mjs): packages the .vsix,
// starts code-server with it and headless Chromium, and drives the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const { repoRoot, harnessTools, makeWorkspace, ensureHarness, FILES } = require('../vscode/workspace.js');
export const OUT = path.join(repoRoot, 'test-results', 'e2e');
const t0 = Date.now();
export const log = (s) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${s}`);

/** The default user settings of run-code-server.sh, plus `extra`. */
function settingsFile(dir, extra) {
  const s = {
    'workbench.startupEditor': 'none', 'files.autoSave': 'off', 'files.hotExit': 'off', 'workbench.tips.enabled': false,
    'workbench.enableExperiments': false, 'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false, 'extensions.ignoreRecommendations': true, 'telemetry.telemetryLevel': 'off', 'update.mode': 'none',
    'editor.hover.delay': 150, 'git.enabled': false, 'chat.disableAIFeatures': true, ...extra,
  };
  const f = path.join(dir, 'settings.json');
  fs.writeFileSync(f, JSON.stringify(s, null, 2));
  return f;
}

/** The .vsix under test: $SKEWGUARD_VSIX, or one packaged into `dir` by scripts/package.mjs (with `args`). */
export function packagedVsix(dir, args = []) {
  if (process.env.SKEWGUARD_VSIX) return path.resolve(process.env.SKEWGUARD_VSIX);
  const vsix = path.join(dir, 'skewguard.vsix');
  const p = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs'), '--out', vsix, ...args], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(p.status, 0, `npm run package failed:\n${p.stdout}\n${p.stderr}`);
  log(p.stdout.trim().split('\n').pop());
  return vsix;
}

/** code-server (run-code-server.sh) on `w.ws` with `vsix` installed, its state in `w.base`/cs; its CS_* variables. */
export function startCodeServer(harness, w, vsix, args = []) {
  const r = spawnSync('bash', [path.join(harnessTools, 'run-code-server.sh'), '--dir', harness, '--workspace', w.ws, '--port', '0',
    '--state-dir', path.join(w.base, 'cs'), '--install-extension', vsix, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, `code-server did not start:\n${r.stderr}`);
  return Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
}

/** Stops the code-server of startCodeServer. */
export const stopCodeServer = (cs) => spawnSync('bash', [path.join(harnessTools, 'run-code-server.sh'), '--stop', cs.CS_STATE_DIR], { stdio: 'ignore' });

/** Headless Chromium (playwright-core of the harness) on a new profile in `dir`; the page's console goes to consoleLines. */
export async function launchBrowser(harness, dir, timeout) {
  const { chromium } = createRequire(path.join(harness, 'node_modules', 'x.js'))('playwright-core');
  const profile = path.join(dir, 'chromium');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(profile, 'xdg-config'), XDG_CACHE_HOME: path.join(profile, 'xdg-cache') },
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(timeout);
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
  return { context, page, consoleLines };
}

/** Starts everything; `prefix` names the screenshots' failure files. */
export async function start({ prefix, settings = {} }) {
  fs.mkdirSync(OUT, { recursive: true });
  const harness = ensureHarness();
  const w = makeWorkspace(`skewguard-${prefix}-`);
  const vsix = packagedVsix(w.base, ['--skip-smoke']);
  const cs = startCodeServer(harness, w, vsix, ['--settings', settingsFile(w.base, settings)]);
  log(`code-server at ${cs.CS_URL}`);
  const { context, page, consoleLines } = await launchBrowser(harness, w.base, 60000);
  await page.goto(`${cs.CS_URL}/?folder=${encodeURIComponent(w.ws)}`);
  await page.locator('.monaco-workbench').waitFor();
  log('workbench visible');
  const s = { w, cs, context, page, ok: true, consoleLines };
  current = s;
  s.stop = async () => {
    fs.writeFileSync(path.join(OUT, `${prefix}-console.log`), consoleLines.join('\n') + '\n');
    await context.close().catch(() => {});
    if (!s.ok && cs.CS_LOG) fs.copyFileSync(cs.CS_LOG, path.join(OUT, `${prefix}-code-server.log`));
    stopCodeServer(cs);
    w.cleanup();
  };
  return s;
}

let current;

/** A UI step; on failure a screenshot named after it. */
export function step(name, fn) {
  test(name, async () => {
    try { await fn(); } catch (e) {
      if (current) current.ok = false;
      await current?.page?.screenshot({ path: path.join(OUT, `failure-${name.replace(/[^\w]+/g, '-').slice(0, 60)}.png`) }).catch(() => {});
      throw e;
    }
  });
}

export const norm = (t) => t.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
export const editorOf = (page) => page.locator('.part.editor .editor-instance .monaco-editor').first();
export const shot = (page, name) => page.screenshot({ path: path.join(OUT, `${name}.png`) });

export async function openFile(page, rel) {
  // Quick Open, asked again when the key went to a widget that was closing (the input then stays hidden).
  // A quick pick still closing (the one a previous step picked from) can show its input at the wait and hide it at
  // the fill: wait for it to go first, and ask again when the fill finds the input hidden.
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; ; attempt++) {
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    await page.keyboard.press('Control+P');
    try {
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(rel, { timeout: 5000 });
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
      await editorOf(page).click({ position: { x: 200, y: 60 } }).catch(() => {});
    }
  }
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: path.basename(rel) }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: path.basename(rel) }).waitFor();
  await editorOf(page).locator('.view-lines .view-line').first().waitFor();
}

export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

export async function gotoPosition(page, line, column) {
  await editorOf(page).locator('.view-lines').click({ position: { x: 5, y: 40 } }); // below the code lens above line 1
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor();
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** The texts of the rendered editor lines, top to bottom. */
export async function viewLines(page) {
  return page.evaluate(() => [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-lines .view-line')]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((l) => l.textContent.replace(/\u00a0/g, ' ')));
}

/** The hover of the first occurrence of `text` on screen. Asked again (the place found anew) when none shows: a code
 * lens that comes in above line 1 after the place was found moves the lines down, and the mouse is then off the text. */
export async function hoverOver(page, text) {
  const locate = () => page.evaluate(({ text }) => {
    for (const l of document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-lines .view-line')) {
      const full = l.textContent.replace(/\u00a0/g, ' ');
      const at = full.indexOf(text);
      if (at < 0) continue;
      const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
      let offset = 0, node;
      while ((node = walker.nextNode())) {
        const len = node.textContent.length;
        if (at + 1 < offset + len) {
          const r = document.createRange();
          r.setStart(node, at + 1 - offset); r.setEnd(node, at + 2 - offset);
          const b = r.getBoundingClientRect();
          return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        }
        offset += len;
      }
    }
    return null;
  }, { text });
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
  for (let attempt = 1; ; attempt++) {
    const box = await locate();
    assert.ok(box, `"${text}" is not on screen`);
    await page.mouse.move(box.x - 40, box.y + 120);
    await page.mouse.move(box.x, box.y, { steps: 4 });
    try { await hover.waitFor({ timeout: 15000 }); break; } catch (e) {
      if (attempt === 3) throw e;
    }
  }
  await page.waitForTimeout(300);
  return hover;
}

export async function closeHover(page) {
  await page.mouse.move(1300, 850);
  await page.keyboard.press('Escape');
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first().waitFor({ state: 'detached' }).catch(() => {});
}

/** Ctrl+. at line:column, the row titled `title` focused with the keyboard, Enter. Returns the rows' titles. */
export async function quickFix(page, line, column, title, shotName) {
  const rows = page.locator('.action-widget .monaco-list-row');
  for (let attempt = 1; ; attempt++) {
    await gotoPosition(page, line, column);
    await page.keyboard.press('Control+.');
    try { await rows.first().waitFor({ timeout: 15000 }); break; } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().waitFor();
  const titles = (await rows.allInnerTexts()).map(norm);
  for (let i = 0; i < titles.length + 1; i++) {
    const focused = norm(await page.locator('.action-widget .monaco-list-row.focused').first().innerText().catch(() => ''));
    if (focused.includes(title)) break;
    await page.keyboard.press('ArrowDown');
  }
  if (shotName) await shot(page, shotName);
  await page.keyboard.press('Enter');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
  return titles;
}
