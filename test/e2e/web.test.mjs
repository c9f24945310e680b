// `npm run test:e2e`: the web extension in a real browser. code-server with the packaged .vsix, the extension forced
// into the browser's web worker extension host (setting remote.extensionKind: web, as on github.dev/vscode.dev, where
// only web extensions run), headless Chromium. The extension's web client and its language server in a web worker
// must show the same squiggle, hover and quick fix as the desktop extension. Screenshots: test-results/e2e/web-*.png.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { start, step, openFile, editorOf, hoverOver, closeHover, quickFix, viewLines, shot, norm, FILES, log } from './page.mjs';

let s;
const page = () => s.page;
before(async () => { s = await start({ prefix: 'web', settings: { 'remote.extensionKind': { 'skewguard.skewguard': ['web'] } } }); });
after(async () => { await s?.stop(); log('done'); });

/** The processes of this code-server that run a skewguard language server on Node. */
function nodeServers() {
  const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.split('\n');
  return ps.filter((l) => l.includes(s.cs.CS_EXTENSIONS_DIR) && /dist\/(server|server-main)\.js/.test(l));
}

step('web-only: a Kata TOML gets its squiggle from the server in the web worker (no Node server runs)', async () => {
  await openFile(page(), FILES.kata);
  await editorOf(page()).locator('.squiggly-error').first().waitFor();
  // The code lens above line 1 comes a moment after the squiggle and moves the lines down: wait for it before hovering.
  await editorOf(page()).locator('.codelens-decoration', { hasText: 'Kata Containers 3.1.0..3.32.0:' }).first().waitFor();
  assert.deepEqual(nodeServers(), [], 'a Node language server of the extension is running: the extension is not in web-only mode');
  // The web client says so in its output channel; the problems are the desktop's (test/web.test.mjs compares them all).
  const problems = await page().locator('#status\\.problems').getAttribute('aria-label');
  assert.match(problems, /Errors: 1/);
  await shot(page(), 'web-kata-squiggle');
});

step('web-only: hovering shared_fs shows the values each release accepts', async () => {
  const hover = await hoverOver(page(), 'shared_fs');
  const text = norm(await hover.innerText());
  assert.match(text, /shared_fs in \[hypervisor\.qemu\] — Kata Containers Go runtime/);
  assert.match(text, /virtio-9p, virtio-fs, virtio-fs-nydus \(2\.4\.0–3\.1\.3, others fatal\)/);
  assert.match(text, /Window 3\.1\.0\.\.3\.32\.0 \(config: .*\.skewguard\.yaml\)/);
  await shot(page(), 'web-kata-hover');
  await closeHover(page());
});

step('web-only: Ctrl+. offers the values every release accepts; choosing one fixes the text and clears the error', async () => {
  const titles = await quickFix(page(), 13, 14, 'Change to virtio-fs', 'web-kata-quickfix');
  assert.deepEqual(titles.filter((t) => t.startsWith('Change to')), ['Change to virtio-9p', 'Change to virtio-fs', 'Change to virtio-fs-nydus']);
  await page().waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ') === 'shared_fs = "virtio-fs"'));
  assert.equal((await viewLines(page()))[12], 'shared_fs = "virtio-fs"');
  await editorOf(page()).locator('.squiggly-error').first().waitFor({ state: 'detached' });
  await shot(page(), 'web-kata-after-fix');
});

step('web-only: localhost.yml: the "v" prefix squiggle, the hover and "Remove the v"', async () => {
  await openFile(page(), FILES.localhost);
  await editorOf(page()).locator('.squiggly-error').first().waitFor();
  const hover = await hoverOver(page(), 'v1.34.1');
  assert.match(norm(await hover.innerText()), /kubernetes_version — StarlingX 12\.0/);
  await closeHover(page());
  await quickFix(page(), 17, 22, 'Remove the "v": 1.34.1');
  await page().waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ') === 'kubernetes_version: 1.34.1'));
  await editorOf(page()).locator('.squiggly-error').first().waitFor({ state: 'detached' });
  assert.deepEqual(nodeServers(), []);
  await shot(page(), 'web-localhost-after-fix');
});

step('web-only: the window at a glance works there too: the code lens per step and the inlay hint', async () => {
  await openFile(page(), 'kubernetes/upgrade-1.18-to-1.21/app.yaml');
  await page().locator('.part.editor .monaco-editor .codelens-decoration', { hasText: '1.18 ✗' }).first().waitFor();
  assert.match(norm(await page().locator('.part.editor .monaco-editor .codelens-decoration').first().innerText()), /^Kubernetes 1\.18\.\.1\.21: \| 1\.18 ✗ \| 1\.19 ✓ \| 1\.20 ✓ \| 1\.21 ⚠$/);
  await openFile(page(), 'starlingx/stx6-upgrade-lab/localhost.yml');
  await page().waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ').includes('→ 1.21.3: 3 upgrades')));
  assert.deepEqual(nodeServers(), []);
  await shot(page(), 'web-window-at-a-glance');
});
