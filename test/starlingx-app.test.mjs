// StarlingX application bundles (issue #15 item 8, with the FluxCD part of #16 item 5): an application's
// metadata.yaml checked per StarlingX release and against the Kubernetes window, and its FluxCD manifests checked
// against the Flux of the StarlingX releases on the upgrade path. Engine-level cases, then the built lsp-lint on the
// example bundle, with exact findings per window. Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = createRequire(import.meta.url)('../dist/engine.js');
const BUNDLE = path.join(repoRoot, 'examples/starlingx-app/metrics-server');
const read = (rel) => fs.readFileSync(path.join(BUNDLE, rel), 'utf8');
const HR = read('fluxcd-manifests/metrics-server/helmrelease.yaml');
const REPO = read('fluxcd-manifests/base/helmrepository.yaml');
const META = read('metadata.yaml');

function run(file, text, cli = {}, workspace) {
  return e.analyze({ path: `/w/${file}`, text, config: e.resolveConfig({ cli, workspace }) });
}
const brief = (r) => r.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.ruleId}`);

/** The text after a diagnostic's preferred fix (edits applied from the end). */
function applyFix(text, fix) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const off = (p) => starts[p.line] + p.character;
  let out = text;
  for (const x of [...fix.edits].sort((a, b) => off(b.range.start) - off(a.range.start))) out = out.slice(0, off(x.range.start)) + x.newText + out.slice(off(x.range.end));
  return out;
}

test('data: every metadata.yaml key cites its source per release; Flux per StarlingX release; FluxCD lifecycle rows', () => {
  const d = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/starlingx/app-metadata.json'), 'utf8'));
  assert.deepEqual(d.releases, ['8.0', '9.0', '10.0', '11.0', '12.0', 'master']);
  for (const k of d.keys) {
    assert.ok(Object.keys(k.releases).length, k.key);
    for (const [r, x] of Object.entries(k.releases)) {
      assert.ok(d.releases.includes(r), `${k.key} ${r}`);
      // A release the reference does not cite for a read-only key says so in the row and in a note.
      if (x.source === null) assert.ok(k.notes.some((n) => /not cited|does not say/.test(n)), `${k.key} ${r}: uncited without a note`);
      else assert.match(x.source, /^starlingx\/config \S+:\d+/, `${k.key} ${r}`);
    }
  }
  const flux = Object.fromEntries(d.flux.map((f) => [f.starlingx, f.flux]));
  assert.deepEqual(flux, { '6.0': null, '7.0': '0.25.0', '8.0': '0.37.0', '9.0': '2.0.1', '10.0': '2.3.0', '11.0': '2.5.1', '12.0': '2.7.5', master: '2.8.3' });
  const twelve = d.flux.find((f) => f.starlingx === '12.0');
  assert.deepEqual(twelve.served['helm.toolkit.fluxcd.io/HelmRelease'].map((x) => x.version), ['v2', 'v2beta2']);
  assert.deepEqual(twelve.served['source.toolkit.fluxcd.io/HelmRepository'].map((x) => x.version), ['v1', 'v1beta2']);
  for (const f of d.flux) if (f.flux) assert.equal(f.upstreamCheck.agrees, true, `${f.starlingx}: the cluster's CRDs agree with upstream Flux ${f.fluxMinor}`);
  assert.ok(d.verified.some((v) => v.result.startsWith('not ')), 'what could not be verified is in the data');
  const rows = e.kubernetesApis().apis.filter((r) => r.component === 'fluxcd');
  const row = (a, k) => rows.find((r) => r.apiVersion === a && r.kind === k);
  assert.deepEqual([row('helm.toolkit.fluxcd.io/v2beta1', 'HelmRelease').removed, row('helm.toolkit.fluxcd.io/v2beta1', 'HelmRelease').replacement], ['2.7', 'helm.toolkit.fluxcd.io/v2']);
  assert.equal(row('source.toolkit.fluxcd.io/v1beta1', 'HelmRepository').removed, '2.7');
  assert.equal(row('source.toolkit.fluxcd.io/v1beta2', 'HelmRepository').removed, '2.8');
  assert.equal(row('notification.toolkit.fluxcd.io/v1beta2', 'Receiver').replacement, 'notification.toolkit.fluxcd.io/v1');
  assert.equal(row('notification.toolkit.fluxcd.io/v1beta2', 'Alert').replacement, 'notification.toolkit.fluxcd.io/v1beta3');
  for (const r of rows) assert.ok(r.sources.length && /Flux/.test(r.note), `${r.apiVersion} ${r.kind}`);
  assert.equal(e.knownComponents().fluxcd.version, '2.9');
});

test('.skewguard.yaml starlingx.upgradeFrom: the path, checked at the value', () => {
  const ok = e.parseConfig('/w/.skewguard.yaml', 'starlingx:\n  release: "12.0"\n  upgradeFrom: "10.0"\n', e.ruleIds);
  assert.deepEqual(ok.problems, []);
  const c = e.resolveConfig({ config: ok });
  assert.deepEqual(c.starlingx.path.map((r) => r.release), ['10.0', '11.0', '12.0']);
  assert.deepEqual(c.flux.steps.map((s) => s.flux), ['2.3.0', '2.5.1', '2.7.5']);
  assert.equal(c.flux.text, 'StarlingX 10.0..12.0');
  const bad = 'starlingx:\n  release: "10.0"\n  upgradeFrom: "12.0"\n';
  const p = e.parseConfig('/w/.skewguard.yaml', bad, e.ruleIds).problems;
  assert.equal(p.length, 1);
  assert.match(p[0].message, /upgradeFrom 12\.0 is newer than starlingx\.release 10\.0/);
  assert.equal(bad.slice(p[0].range.start, p[0].range.end), '"12.0"');
  const unknown = e.parseConfig('/w/.skewguard.yaml', 'starlingx:\n  upgradeFrom: "13.5"\n', e.ruleIds).problems;
  assert.match(unknown[0].message, /unknown StarlingX release "13\.5"/);
  // No StarlingX said (no release, no upgradeFrom, no localhost.yml): no Flux window; Flux rows are a component instead.
  assert.equal(e.resolveConfig({}).flux, undefined);
  assert.ok(e.resolveConfig({ workspace: { localhost: { path: 'localhost.yml' } } }).flux);
  // A Flux version given explicitly wins over the StarlingX path.
  assert.equal(e.resolveConfig({ cli: { starlingxRelease: '12.0', componentVersions: { fluxcd: '2.3' } } }).flux, undefined);
  assert.deepEqual(e.describeResolved(c).flux.versions, [{ starlingx: '10.0', flux: '2.3.0' }, { starlingx: '11.0', flux: '2.5.1' }, { starlingx: '12.0', flux: '2.7.5' }]);
});

test('Flux manifests: exact findings per StarlingX path, each naming the release and its Flux', () => {
  const cases = [
    [{ starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }, ['1:13 error k8s/flux-api-not-served'], ['1:13 error k8s/flux-api-not-served']],
    [{ starlingxRelease: '12.0' }, ['1:13 error k8s/flux-api-not-served'], ['1:13 error k8s/flux-api-not-served']],
    [{ starlingxRelease: '11.0', starlingxUpgradeFrom: '10.0' }, ['1:13 warning k8s/flux-api-deprecated'], ['1:13 warning k8s/flux-api-deprecated']],
    [{ starlingxRelease: '9.0' }, [], []],
    [{ starlingxRelease: '9.0', starlingxUpgradeFrom: '7.0' }, [], []],
    // Not StarlingX: Flux rows are checked at the component's default (the newest Flux minor), as cert-manager's are.
    [{}, ['1:13 error k8s/removed-api'], ['1:13 error k8s/removed-api']],
    [{ starlingxRelease: '12.0', componentVersions: { fluxcd: '2.3' } }, ['1:13 warning k8s/deprecated-api'], ['1:13 warning k8s/deprecated-api']],
  ];
  for (const [cli, hr, repo] of cases) {
    assert.deepEqual(brief(run('fluxcd-manifests/metrics-server/helmrelease.yaml', HR, cli)), hr, `HelmRelease ${JSON.stringify(cli)}`);
    assert.deepEqual(brief(run('fluxcd-manifests/base/helmrepository.yaml', REPO, cli)), repo, `HelmRepository ${JSON.stringify(cli)}`);
  }
  const [d] = run('fluxcd-manifests/metrics-server/helmrelease.yaml', HR, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }).diagnostics;
  assert.match(d.message, /^helm\.toolkit\.fluxcd\.io\/v2beta1 HelmRelease is not served by StarlingX 12\.0 \(Flux 2\.7\.5\), whose HelmRelease CRD serves v2, v2beta2/);
  assert.match(d.message, /use helm\.toolkit\.fluxcd\.io\/v2, served by every release of StarlingX 11\.0\.\.12\.0/);
  // 8.0 serves only v2beta1, 12.0 no longer does: no single apiVersion for the path, and no fix.
  const [w] = run('hr.yaml', HR, { starlingxRelease: '12.0', starlingxUpgradeFrom: '8.0' }).diagnostics;
  assert.match(w.message, /no apiVersion of HelmRelease is served by every release of StarlingX 8\.0\.\.12\.0/);
  assert.deepEqual(w.fixes ?? [], []);
  // HelmRepository v1beta1 -> v1beta2 on 8.0..12.0: the fields of that pair were not compared, so no automatic fix.
  const [r] = run('repo.yaml', REPO, { starlingxRelease: '12.0', starlingxUpgradeFrom: '8.0' }).diagnostics;
  assert.match(r.message, /move to source\.toolkit\.fluxcd\.io\/v1beta2.*not known to be the same.*no automatic fix/);
  assert.deepEqual(r.fixes ?? [], []);
  // Hover on the apiVersion: what each release of the path serves.
  const hr = run('hr.yaml', HR, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' });
  const h = e.hover(hr, HR, { line: 0, character: 20 }).markdown;
  assert.match(h, /\| 11\.0 \| 2\.5\.1 \| ⚠ deprecated \| v2, v2beta1, v2beta2 \|/);
  assert.match(h, /\| 12\.0 \| 2\.7\.5 \| ✗ not served \| v2, v2beta2 \|/);
  // Completion of the apiVersion: what every release of the path serves first.
  const items = e.complete(hr, HR, { line: 0, character: 13 });
  assert.deepEqual(items.map((i) => i.label), ['helm.toolkit.fluxcd.io/v2', 'helm.toolkit.fluxcd.io/v2beta2', 'helm.toolkit.fluxcd.io/v2beta1']);
  assert.equal(items[0].detail, 'served by every release of StarlingX 11.0..12.0');
  assert.match(items[2].detail, /part of StarlingX 11\.0\.\.12\.0 only/);
  // A modeline makes any file a metadata.yaml.
  assert.equal(run('app.yaml', `# skewguard: starlingx-app\n${META}`, { starlingxRelease: '12.0' }).family, 'starlingx-app');
  // A release before the Flux data (5.0): reported, not passed.
  const [old] = run('hr.yaml', HR, { starlingxRelease: '5.0' }).diagnostics;
  assert.equal(old.ruleId, 'k8s/flux-api-not-served');
  assert.match(old.message, /StarlingX 5\.0, for which the data has no FluxCD \(the Flux data starts at 6\.0, which ships no FluxCD/);
  // A Kustomization on 8.0: its CRD is not installed at all.
  const k = 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  interval: 10m\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: platform\n';
  assert.match(run('k.yaml', k, { starlingxRelease: '8.0' }).diagnostics[0].message, /StarlingX 8\.0 \(Flux 0\.37\.0\), which installs no Kustomization CRD/);
});

test('Flux fixes are proven by re-analysis on the same path: the fixed manifests have no finding left', () => {
  for (const [cli, file, text, target] of [
    [{ starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }, 'hr.yaml', HR, 'apiVersion: "helm.toolkit.fluxcd.io/v2"'],
    [{ starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }, 'repo.yaml', REPO, 'apiVersion: source.toolkit.fluxcd.io/v1\n'],
    [{ starlingxRelease: '10.0' }, 'repo.yaml', REPO, 'apiVersion: source.toolkit.fluxcd.io/v1\n'],
  ]) {
    const [d] = run(file, text, cli).diagnostics;
    const fix = d.fixes.find((f) => f.preferred);
    assert.ok(fix && !fix.partial, `${file}: a complete fix`);
    const fixed = applyFix(text, fix);
    assert.ok(fixed.includes(target), fixed);
    assert.equal(fixed.split('\n').length, text.split('\n').length, 'only the apiVersion line changes');
    assert.deepEqual(brief(run(file, fixed, cli)), [], `${file} fixed, re-analysed at ${JSON.stringify(cli)}`);
    // …and on the whole 10.0..12.0 path too (v2 and v1 are served from 10.0).
    assert.deepEqual(brief(run(file, fixed, { starlingxRelease: '12.0', starlingxUpgradeFrom: '10.0' })), []);
  }
});

test('metadata.yaml: detected by name and content; exact findings per window', () => {
  assert.equal(run('metadata.yaml', META, { starlingxRelease: '12.0' }).family, 'starlingx-app');
  // A metadata.yaml that is not an application's (no app keys) is not this family; under another name it takes
  // app_name, app_version and supported_k8s_version or k8s_upgrades.
  assert.notEqual(run('metadata.yaml', 'name: x\nowner: y\n', {}).family, 'starlingx-app');
  assert.notEqual(run('values.yaml', 'upgrades:\n  auto_update: true\nreplicas: 2\n', {}).family, 'starlingx-app');
  assert.equal(run('app-metadata.yaml', META, {}).family, 'starlingx-app');
  const local = (v) => ({ localhost: { path: 'localhost.yml', kubernetesVersion: v } });
  // 12.0 from 1.32.2: 1.32.2 -> 1.33.0 -> 1.34.1; maximum v1.33.0 blocks the last step.
  const r12 = run('metadata.yaml', META, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }, local('1.32.2'));
  assert.deepEqual(brief(r12), ['11:14 error stx-app/kubernetes-outside-supported']);
  assert.match(r12.diagnostics[0].message, /the Kubernetes upgrade 1\.33\.0 → 1\.34\.1 \(step 2 of 2 on the window 1\.32\.2\.\.1\.34\.1, on StarlingX 12\.0 of the upgrade path 11\.0\.\.12\.0\) goes above this app's supported_k8s_version v1\.29\.2\.\.v1\.33\.0: sysinv 12\.0 rejects system kube-upgrade-start to 1\.34\.1/);
  assert.match(r12.diagnostics[0].message, /this bundle has k8s_upgrades auto_update true, timing post/);
  // 11.0 from 1.29.2: 1.29.2 … 1.33.0, all inside v1.29.2..v1.33.0.
  assert.deepEqual(brief(run('metadata.yaml', META, { starlingxRelease: '11.0' }, local('1.29.2'))), []);
  // 10.0 from 1.28.4: below the minimum at the start (apply rejected), at the value of minimum.
  const r10 = run('metadata.yaml', META, { starlingxRelease: '10.0' }, local('1.28.4'));
  assert.deepEqual(brief(r10), ['10:14 error stx-app/kubernetes-outside-supported']);
  assert.match(r10.diagnostics[0].message, /^Kubernetes 1\.28\.4, the start of the window 1\.28\.4\.\.1\.30\.6, is below .*application-apply is rejected/);
  // 8.0: k8s_upgrades is not read, and 8.0 rejects kube-upgrade-start without updating apps.
  assert.deepEqual(brief(run('metadata.yaml', META, { starlingxRelease: '8.0' }, local('1.24.4'))), ['10:14 error stx-app/kubernetes-outside-supported', '12:1 warning stx-app/key-not-read']);
  // maximum v1.33 is read as 1.33.0 (sysinv: "v1.27 is equal to v1.27.0"): 1.33.0 is inside, 1.34.1 above, and the
  // missing patch is a warning of its own.
  const minorMax = META.replace('maximum: v1.33.0', 'maximum: v1.33');
  const rm = run('metadata.yaml', minorMax, { starlingxRelease: '12.0' }, local('1.32.2'));
  assert.deepEqual(brief(rm), ['11:14 error stx-app/kubernetes-outside-supported', '11:14 warning stx-app/maximum-without-patch']);
  assert.deepEqual(rm.diagnostics[0].data.outside, ['1.34.1']);
  // Widening the range clears 12.0.
  const wide = META.replace('maximum: v1.33.0', 'maximum: v1.34.1');
  assert.deepEqual(brief(run('metadata.yaml', wide, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }, local('1.32.2'))), []);
});

test('metadata.yaml: with starlingx.upgradeFrom the Kubernetes versions are those the cluster runs along the platform upgrade path', () => {
  const app = 'app_name: cert-manager\napp_version: 25.09-78\nsupported_k8s_version:\n  minimum: v1.34.0\n  maximum: v1.35.2\nk8s_upgrades:\n  auto_update: true\n  timing: pre\n';
  const outside = (r) => r.diagnostics.filter((d) => d.ruleId === 'stx-app/kubernetes-outside-supported');
  // 12.0 alone: its default 1.34.1 to its newest; inside the range.
  assert.deepEqual(outside(run('metadata.yaml', app, { starlingxRelease: '12.0' })), []);
  // 11.0 -> 12.0: the cluster runs 11.0's 1.32.2 and 1.33.0 (12.0 ships both for the platform upgrade), then 1.34.1.
  const [d] = outside(run('metadata.yaml', app, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0' }));
  assert.deepEqual(d.data.window, ['1.32.2', '1.33.0', '1.34.1']);
  assert.deepEqual(d.data.outside, ['1.32.2', '1.33.0']);
  assert.equal(d.data.bound, 'minimum');
  assert.match(d.message, /^Kubernetes 1\.32\.2, the start of the window 1\.32\.2\.\.1\.34\.1, on StarlingX 11\.0 of the upgrade path 11\.0\.\.12\.0, is below this app's supported_k8s_version v1\.34\.0\.\.v1\.35\.2 \(also 1\.33\.0\)/);
  // 10.0 -> 12.0: 10.0 from its default 1.29.2, kept into 11.0 at 1.30.6, on to 1.33.0, kept into 12.0, then 1.34.1.
  const [d10] = outside(run('metadata.yaml', app, { starlingxRelease: '12.0', starlingxUpgradeFrom: '10.0' }));
  assert.deepEqual(d10.data.window, ['1.29.2', '1.30.6', '1.31.5', '1.32.2', '1.33.0', '1.34.1']);
  // 6.0 -> 8.0: 7.0 does not ship 6.0's 1.21.3 and bootstraps a platform upgrade at its upgrade_k8s_version 1.21.8.
  const old = app.replace('v1.34.0', 'v1.21.0').replace('v1.35.2', 'v1.23.1');
  const [d6] = outside(run('metadata.yaml', old, { starlingxRelease: '8.0', starlingxUpgradeFrom: '6.0' }));
  assert.deepEqual(d6.data.window, ['1.21.3', '1.21.8', '1.22.5', '1.23.1', '1.24.4']);
  assert.deepEqual(d6.data.outside, ['1.24.4']);
  assert.match(d6.message, /1\.23\.1 → 1\.24\.4 \(step 4 of 4 on the window 1\.21\.3\.\.1\.24\.4, on StarlingX 8\.0 of the upgrade path 6\.0\.\.8\.0\).*sysinv 8\.0/);
  // A Kubernetes window of the user's own is kept as given.
  assert.deepEqual(outside(run('metadata.yaml', app, { starlingxRelease: '12.0', starlingxUpgradeFrom: '11.0', kubernetesWindow: '1.34' })), []);
});

test('metadata.yaml: positions are exact with CRLF, a BOM, tabs in comments and multi-byte characters', () => {
  const text = '\ufeff# Métriques — app\r\napp_name: métriques\r\napp_version: 1.0-1\r\nsupported_k8s_version:\r\n  minimum: v1.29.2\r\n  maximum: v1.33.0\r\nk8s_upgrades:\r\n  auto_update: true\r\n  timing: "après"\r\n';
  const r = run('metadata.yaml', text, { starlingxRelease: '12.0' });
  const by = Object.fromEntries(r.diagnostics.map((d) => [d.ruleId, d.range]));
  assert.deepEqual(by['stx-app/invalid-value'], { start: { line: 8, character: 10 }, end: { line: 8, character: 17 } });
  assert.deepEqual(by['stx-app/kubernetes-outside-supported'], { start: { line: 5, character: 11 }, end: { line: 5, character: 18 } });
});

test('metadata.yaml: hover names the meaning and what each release does; completion offers the keys of the mapping', () => {
  const r = run('metadata.yaml', META, { starlingxRelease: '12.0', starlingxUpgradeFrom: '10.0' });
  const line = META.split('\n').findIndex((l) => l.startsWith('k8s_upgrades'));
  const h = e.hover(r, META, { line, character: 3 });
  assert.match(h.markdown, /^\*\*k8s_upgrades\*\* — StarlingX application metadata\.yaml/);
  assert.match(h.markdown, /\| 8\.0 \| not read \|/);
  assert.match(h.markdown, /\| 12\.0 \*\*\(on the path\)\*\* \| must be a dict if present \| starlingx\/config sysinv\/sysinv\/sysinv\/sysinv\/common\/app_metadata\.py:525 @ 12\.0\.0/);
  const t = line + 2;
  const timing = e.hover(r, META, { line: t, character: 6 });
  assert.match(timing.markdown, /\*\*k8s_upgrades\.timing\*\*/);
  // Completion at a new line inside supported_k8s_version offers nothing it has; at the top level, what it lacks.
  const text = 'app_name: a\napp_version: "1"\nk8s_upgrades:\n  auto_update: true\n  \n';
  const res = run('metadata.yaml', text, { starlingxRelease: '12.0' });
  assert.deepEqual(e.complete(res, text, { line: 4, character: 2 }).map((c) => c.label), ['timing']);
  const top = e.complete(res, 'app_name: a\napp_version: "1"\nk8s_upgrades:\n  auto_update: true\n\n', { line: 4, character: 0 }).map((c) => c.label);
  assert.ok(top.includes('supported_k8s_version') && top.includes('class') && !top.includes('app_name'), top.join(','));
  // On 10.0 alone class is not read, so it is not offered; on the path 10.0..12.0 it is offered last, saying where it is not read.
  const t10 = 'app_name: a\napp_version: "1"\n\n';
  assert.ok(!e.complete(run('metadata.yaml', t10, { starlingxRelease: '10.0' }), t10, { line: 2, character: 0 }).some((c) => c.label === 'class'));
  const c10 = e.complete(run('metadata.yaml', t10, { starlingxRelease: '12.0', starlingxUpgradeFrom: '10.0' }), t10, { line: 2, character: 0 });
  const cls = c10.find((c) => c.label === 'class');
  assert.match(cls.detail, /not read by 10\.0/);
  assert.ok(cls.sortText > c10.find((c) => c.label === 'supported_k8s_version').sortText);
});

function lint(cwd, ...args) {
  try {
    return { code: 0, stdout: execFileSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (err) {
    return { code: err.status, stdout: err.stdout };
  }
}
function byFile(stdout, root) {
  return Object.fromEntries(JSON.parse(stdout).filter((r) => !/\.skewguard\.yaml$/.test(r.filePath))
    .map((r) => [path.relative(root, r.filePath).split(path.sep).join('/'), r.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId}`)]));
}

test('lsp-lint on the bundle: exact findings on 11.0 -> 12.0, then --fix, then on 10.0 -> 11.0', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stx-app-'));
  try {
    fs.cpSync(BUNDLE, dir, { recursive: true });
    const first = lint(dir, '.', '--format', 'json');
    assert.equal(first.code, 1);
    assert.deepEqual(byFile(first.stdout, dir), {
      'fluxcd-manifests/base/helmrepository.yaml': ['1:13 error k8s/flux-api-not-served'],
      'fluxcd-manifests/metrics-server/helmrelease.yaml': ['1:13 error k8s/flux-api-not-served'],
      'localhost.yml': ['2:21 warning starlingx/kubernetes-version-below-default'],
      'metadata.yaml': ['11:14 error stx-app/kubernetes-outside-supported'],
    });
    const cfg = JSON.parse(lint(dir, '--print-config', 'metadata.yaml').stdout);
    assert.deepEqual(cfg.starlingx.path, ['11.0', '12.0']);
    assert.equal(cfg.flux.window, 'StarlingX 11.0..12.0');
    assert.deepEqual(cfg.kubernetes.versions, ['1.32.2', '1.33.0', '1.34.1']);
    // --fix rewrites only the apiVersions (same spec fields); the metadata error needs a person.
    lint(dir, '.', '--fix');
    assert.match(fs.readFileSync(path.join(dir, 'fluxcd-manifests/metrics-server/helmrelease.yaml'), 'utf8'), /^apiVersion: "helm\.toolkit\.fluxcd\.io\/v2"\n/);
    assert.match(fs.readFileSync(path.join(dir, 'fluxcd-manifests/base/helmrepository.yaml'), 'utf8'), /^apiVersion: source\.toolkit\.fluxcd\.io\/v1\n/);
    assert.equal(fs.readFileSync(path.join(dir, 'metadata.yaml'), 'utf8'), META);
    const after = lint(dir, '.', '--format', 'json');
    assert.deepEqual(byFile(after.stdout, dir), {
      'fluxcd-manifests/base/helmrepository.yaml': [],
      'fluxcd-manifests/metrics-server/helmrelease.yaml': [],
      'localhost.yml': ['2:21 warning starlingx/kubernetes-version-below-default'],
      'metadata.yaml': ['11:14 error stx-app/kubernetes-outside-supported'],
    });
    // The original manifests on 10.0 -> 11.0: served there, deprecated by both releases' CRDs; 11.0's Kubernetes path
    // from 1.32.2 (its default) ends at 1.33.0, inside the app's range.
    fs.cpSync(BUNDLE, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'starlingx:\n  release: "11.0"\n  upgradeFrom: "10.0"\n');
    const older = lint(dir, '.', '--format', 'json');
    assert.equal(older.code, 0);
    assert.deepEqual(byFile(older.stdout, dir), {
      'fluxcd-manifests/base/helmrepository.yaml': ['1:13 warning k8s/flux-api-deprecated'],
      'fluxcd-manifests/metrics-server/helmrelease.yaml': ['1:13 warning k8s/flux-api-deprecated'],
      'localhost.yml': [],
      'metadata.yaml': [],
    });
    // The path from the command line wins over .skewguard.yaml: 8.0..12.0 has no HelmRelease apiVersion for every release.
    const cli = lint(dir, '--starlingx-release', '12.0', '--starlingx-upgrade-from', '8.0', 'fluxcd-manifests/', '--format', 'json');
    assert.equal(cli.code, 1);
    const msgs = JSON.parse(cli.stdout).flatMap((r) => r.messages.map((m) => m.message));
    assert.equal(msgs.length, 2);
    assert.ok(msgs.every((m) => /StarlingX 12\.0 \(Flux 2\.7\.5\)/.test(m) && /StarlingX 8\.0\.\.12\.0, from the command line/.test(m)), msgs.join('\n'));
    const usage = lint(dir, '--starlingx-release', '10.0', '--starlingx-upgrade-from', '12.0', '.');
    assert.equal(usage.code, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
