// `npm run test:e2e`: the window at a glance in the editor (#19 item 2), in code-server's Node extension host with
// headless Chromium: the per-step code lens at the top of a checked file and its quick pick of a step's findings,
// the inlay hints after kubernetes_version and after an image, and the Upgrade Window view, filtered by a step.
// Screenshots: test-results/e2e/window-*.png.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, step, openFile, runCommand, viewLines, shot, norm, log } from './page.mjs';

let s;
const page = () => s.page;
before(async () => { s = await start({ prefix: 'window' }); });
after(async () => { await s?.stop(); log('done'); });

const lensTexts = async () => (await page().locator('.part.editor .monaco-editor .codelens-decoration').first().innerText()).split(/\s*\|\s*/).map(norm);

step('code lens: the verdict per step at the top of a manifest', async () => {
  await openFile(page(), 'kubernetes/upgrade-1.18-to-1.21/app.yaml');
  const lens = page().locator('.part.editor .monaco-editor .codelens-decoration', { hasText: '1.18 ✗' }).first();
  await lens.waitFor();
  assert.deepEqual(await lensTexts(), ['Kubernetes 1.18..1.21:', '1.18 ✗', '1.19 ✓', '1.20 ✓', '1.21 ⚠']);
  await shot(page(), 'window-code-lens');
});

step('code lens: clicking a step lists its findings; picking one reveals it', async () => {
  await page().locator('.part.editor .monaco-editor .codelens-decoration a', { hasText: '1.18 ✗' }).first().click();
  const rows = page().locator('.quick-input-widget .monaco-list-row');
  await rows.first().waitFor();
  assert.match(norm(await page().locator('.quick-input-widget .quick-input-title').innerText()), /findings at Kubernetes 1\.18/);
  const texts = (await rows.allInnerTexts()).map(norm);
  assert.equal(texts.length, 1, texts.join(' | '));
  assert.match(texts[0], /k8s\/api-not-yet-served/);
  await shot(page(), 'window-code-lens-step-findings');
  await page().keyboard.press('Enter');
  await page().locator('.quick-input-widget').waitFor({ state: 'hidden' });
  // The cursor is on the finding.
  assert.match(norm(await page().locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first().innerText()), /^Ln \d+, Col \d+/);
});

step('inlay hint: after kubernetes_version in a localhost.yml, the upgrade path', async () => {
  await openFile(page(), 'starlingx/stx6-upgrade-lab/localhost.yml');
  await page().waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ').includes('→ 1.21.3: 3 upgrades')));
  const line = (await viewLines(page())).find((l) => l.startsWith('kubernetes_version:'));
  assert.match(line, /^kubernetes_version: 1\.18\.1\s*→ 1\.21\.3: 3 upgrades/);
  // Its code lens names the axis of a localhost.yml's steps: the StarlingX release its .skewguard.yaml sets (#27: it said
  // "Kubernetes 6.0", and this test only looked at the prefix). The lens comes with its own request, maybe after the
  // inlay hint: waited for (any text), then compared.
  await page().waitForFunction(() => (document.querySelector('.part.editor .monaco-editor .codelens-decoration')?.textContent ?? '').trim().length > 0);
  assert.equal((await lensTexts())[0], 'StarlingX 6.0:', 'and its code lens');
  await shot(page(), 'window-inlay-kubernetes-version');
});

step('inlay hint: after a container image, the steps it is validated for', async () => {
  await openFile(page(), 'kubernetes/stx6-skew-site/manifests/calico-node.yaml');
  await page().waitForFunction(() => [...document.querySelectorAll('.part.editor .view-line')].some((l) => l.textContent.replace(/\u00a0/g, ' ').includes('validated for no step of 1.19–1.21')));
  const lines = (await viewLines(page())).filter((l) => /^\s*image:/.test(l));
  assert.equal(lines.length, 3);
  assert.ok(lines.every((l) => /image: .*calico.*:v3\.12\.0\s*validated for no step of 1\.19–1\.21$/.test(l)), lines.join('\n'));
  await shot(page(), 'window-inlay-image');
});

step('Upgrade Window view: the workspace\'s checked files with their verdict per step', async () => {
  // Room for the view: the folder's tree collapsed.
  await page().locator('.pane-header[aria-expanded="true"]', { hasText: 'examples' }).first().click();
  await runCommand(page(), 'Focus on Upgrade Window View');
  const view = page().locator('.pane', { has: page().locator('.pane-header', { hasText: 'Upgrade Window' }) });
  const row = view.locator('.monaco-list-row', { hasText: 'app.yaml' }).first();
  await row.waitFor();
  assert.match(norm(await row.innerText()), /app\.yaml\s*1\.18 ✗ · 1\.19 ✓ · 1\.20 ✓ · 1\.21 ⚠ — kubernetes\/upgrade-1\.18-to-1\.21\/app\.yaml/);
  // Failing files first: the first row fails somewhere.
  const first = norm(await view.locator('.monaco-list-row').first().innerText());
  assert.match(first, /✗/);
  await shot(page(), 'window-view');
});

step('Upgrade Window view: filtered by one step, each file\'s verdict at that step', async () => {
  // The pick shows at once (the view's steps, no request). Once in CI it never showed in 60 s, the palette closed: the
  // Enter had not run the command. The command is run again (at most twice more) when its pick is not there in 10 s.
  for (let i = 0; ; i++) {
    await runCommand(page(), 'Filter the Upgrade Window by Step');
    try {
      await page().locator('.quick-input-widget .monaco-list-row', { hasText: 'All steps' }).first().waitFor({ timeout: 10000 });
      break;
    } catch (e) {
      if (i >= 2) throw e;
      await page().keyboard.press('Escape');
    }
  }
  const pick = page().locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'Kubernetes 1.21' }).first();
  await page().locator('.quick-input-widget input').fill('Kubernetes 1.21');
  await pick.waitFor();
  await page().keyboard.press('Enter');
  const view = page().locator('.pane', { has: page().locator('.pane-header', { hasText: 'Upgrade Window' }) });
  await view.locator('.pane-header', { hasText: 'step Kubernetes 1.21' }).waitFor();
  // The rows are drawn again after the header: wait for the filtered text.
  const row = view.locator('.monaco-list-row', { hasText: 'kube-proxy.yaml' }).filter({ hasText: 'Kubernetes 1.21 ✗' }).first();
  await row.waitFor();
  assert.match(norm(await row.innerText()), /kube-proxy\.yaml\s*Kubernetes 1\.21 ✗ — kubernetes\/stx6-skew-site\/manifests\/kube-proxy\.yaml$/);
  const app = view.locator('.monaco-list-row', { hasText: 'upgrade-1.18-to-1.21/app.yaml' }).first();
  assert.match(norm(await app.innerText()), /app\.yaml\s*Kubernetes 1\.21 ⚠ — /);
  await shot(page(), 'window-view-filtered');
});
