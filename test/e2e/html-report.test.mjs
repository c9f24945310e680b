// The html report in a real browser (headless Debian Chromium driven by playwright-core from the editor harness,
// SKEWGUARD_HARNESS, default ~/.cache/skewguard-vscode): the page loads nothing but itself, shows the matrix with its
// colours and the chart, a failing cell leads to its findings with the source line, and the file's hostile name and
// content stay text. The screenshot is kept in test-results/html-report.png. Run by .ci/run (not by npm test):
//   node --test test/e2e/html-report.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { scratch, lint, repoRoot, K8S_WINDOW, ING_BETA, ING_V1, CM } from '../helpers/cli-run.mjs';

const harness = process.env.SKEWGUARD_HARNESS || path.join(os.homedir(), '.cache', 'skewguard-vscode');
const OUT = path.join(repoRoot, 'test-results');
let browser, dir;

before(async () => {
  const req = createRequire(path.join(harness, 'node_modules', 'x.js'));
  let chromium;
  try { ({ chromium } = req('playwright-core')); } catch (e) {
    throw new Error(`playwright-core not found in the harness ${harness} (bash scripts/vscode-harness/setup.sh ${harness}): ${e.message}`);
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  dir = scratch(null, {
    '.skewguard.yaml': K8S_WINDOW('1.19..1.23'),
    'deploy/ingress.yaml': ING_BETA, 'deploy/configmap.yaml': CM, 'deploy/ingress-v1.yaml': ING_V1,
    'deploy/a<img src=x onerror=alert(1)>.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  "<script>document.title=1</script>": 1\n  replicas: 1\n',
    'manifests/cronjob.yaml': 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: job\n              image: busybox\n',
  });
  const r = lint(dir, ['--format', 'html', '--output-file', 'report.html', '.']);
  assert.equal(r.code, 1, r.stderr);
});

after(async () => {
  await browser?.close().catch(() => {});
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the html report in headless Chromium: matrix, chart, a cell leads to its findings; nothing loaded, nothing run', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const url = pathToFileURL(path.join(dir, 'report.html')).toString();
  const requests = [];
  const errors = [];
  page.on('request', (q) => requests.push(q.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); void d.dismiss(); });
  await page.goto(url);
  await page.waitForLoadState('load');

  assert.deepEqual(requests, [url], 'the page loads nothing but itself');
  assert.deepEqual(errors, [], 'no script ran, no error, no dialog');
  assert.equal(await page.title(), 'skewguard report', 'the file\'s script did not run');
  assert.equal(await page.locator('img, script, iframe').count(), 0, 'the hostile name is text, not an element');
  assert.ok((await page.locator('td.f a', { hasText: 'a<img src=x onerror=alert(1)>.yaml' }).count()) === 1, 'and it reads as written');

  // The matrix: steps as columns, colours as verdicts (computed styles, as the reader sees them).
  const heads = await page.locator('table.m:not(.blk) thead th').allTextContents();
  assert.deepEqual(heads, ['file', '1.19', '1.20', '1.21', '1.22', '1.23']);
  // What blocks each step (#33 item 4): 1.21 nothing, 1.22 the ingress, each blocker a link to its findings there.
  const blockers = await page.locator('table.blk tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  assert.match(blockers.find((r) => r[0] === '1.21')[1], /nothing$/);
  assert.match(blockers.find((r) => r[0] === '1.22')[1], /deploy\/ingress\.yaml/);
  const link = await page.locator('table.blk td.blocked a', { hasText: 'deploy/ingress.yaml' }).first().getAttribute('href');
  assert.match(link, /^#f\d+-s3$/, 'the 1.22 blocker links to the file\'s findings at 1.22');
  const row = page.locator('tr', { has: page.locator('td.f a', { hasText: /^deploy\/ingress\.yaml$/ }) });
  const classes = await row.locator('td.c').evaluateAll((tds) => tds.map((td) => td.className.replace('c ', '')));
  assert.deepEqual(classes, ['pass', 'pass', 'pass', 'fail', 'fail'], 'removed from 1.22');
  const red = await row.locator('td.c.fail a').first().evaluate((a) => getComputedStyle(a).backgroundColor);
  assert.equal(red, 'rgb(207, 34, 46)');
  const green = await page.locator('tr', { has: page.locator('td.f a', { hasText: 'configmap.yaml' }) }).locator('td.c.pass span').first().evaluate((s) => getComputedStyle(s).color);
  assert.equal(green, 'rgb(26, 127, 55)');

  // The chart: a bar per step and verdict, drawn (non-zero size).
  const bars = page.locator('svg.chart rect.bar');
  assert.ok((await bars.count()) >= 5);
  const box = await page.locator('svg.chart').boundingBox();
  assert.ok(box && box.width > 200 && box.height > 100, JSON.stringify(box));
  assert.equal(await page.locator('svg.chart rect.bar.fail title', { hasText: '1.22: 1 file failing' }).count(), 1, 'the Ingress fails from 1.22');
  assert.equal(await page.locator('svg.chart rect.bar.warn title', { hasText: '1.21: 2 files with warnings' }).count(), 1, 'the CronJob is deprecated from 1.21, the hostile file has an unknown field');

  await page.screenshot({ path: path.join(OUT, 'html-report.png'), fullPage: false });

  // Click the 1.22 cell of deploy/ingress.yaml: its findings at that step, with the source line, come into view.
  await row.locator('td.c').nth(3).locator('a').click();
  const target = await page.evaluate(() => location.hash);
  assert.match(target, /^#f\d+-s3$/);
  const cell = page.locator(target);
  assert.ok(await cell.isVisible());
  assert.match(await cell.locator('h4').textContent(), /^at 1\.22: 1 error/);
  assert.match(await cell.locator('li').first().textContent(), /k8s\/removed-api: extensions\/v1beta1 Ingress is removed in Kubernetes 1\.22/);
  assert.equal(await cell.locator('pre mark').first().textContent(), 'extensions/v1beta1', 'the source line with the range marked');
  // (a sub-pixel offset from the rows' fractional heights is still the top of the view)
  const inView = await cell.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight; });
  assert.ok(inView, 'scrolled to the findings');
  assert.equal(await cell.evaluate((el) => getComputedStyle(el).outlineStyle), 'solid', 'the target is outlined');
  // And from there to the full finding.
  await cell.locator('li a').first().click();
  assert.match(await page.locator(await page.evaluate(() => location.hash)).locator('.steps').textContent(), /at 1\.22, 1\.23/);
  await page.screenshot({ path: path.join(OUT, 'html-report-cell.png') });
  assert.deepEqual(requests, [url], 'following the page\'s links loaded nothing');
  await context.close();
});
