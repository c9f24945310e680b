// Real Helm rendering per step (server/src/engine/families/helm-chart/server/helm-render.ts, bundled for tests as dist/helm-render.js), with the
// Helm 3 binary of a dev dependency (test/helpers/helm.mjs). The trap of issue 15: plain `helm template` answers
// .Capabilities.APIVersions.Has from its own fixed list; the faithful render answers it with what the step serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { repoRoot } from './helpers/k8s.mjs';
import { helmBinary } from './helpers/helm.mjs';

const require = createRequire(import.meta.url);
const hr = require(path.join(repoRoot, 'dist', 'helm-render.js'));
const helm = helmBinary();
const PSP = path.join(repoRoot, 'test', 'fixtures', 'charts', 'psp-capabilities');

/** "template: apiVersion kind" per emission, sorted. */
const summary = (emissions) => emissions.map((e) => `${e.template}: ${e.apiVersion} ${e.kind}`).sort();

/** Plain `helm template` (client-only), as a user would run it, isolated from the user's Helm set-up. */
function plainTemplate(chart, args) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-plain-'));
  try {
    return execFileSync(helm, ['template', 'release-name', chart, ...args], {
      encoding: 'utf8', timeout: 60_000,
      env: { HOME: home, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home, KUBECONFIG: path.join(home, 'none') },
    });
  } finally { fs.rmSync(home, { recursive: true, force: true }); }
}

test('the trap: plain helm template answers Capabilities.APIVersions.Has from its own list, whatever --kube-version says', () => {
  const at = (args) => summary(hr.parseRendered(plainTemplate(PSP, args)).map((d, index) => ({ ...d, index })));
  const v125 = at(['--kube-version', '1.25.0']);
  // The group/version form is in Helm's fixed list (every group/version its client library knows): true at 1.25,
  // which no longer serves policy/v1beta1. The kind form is never in it (no kinds): false at 1.24, which serves it.
  assert.ok(v125.includes('templates/psp-groupversion.yaml: policy/v1beta1 PodSecurityPolicy'), v125.join('\n'));
  assert.ok(!v125.some((l) => l.startsWith('templates/psp-kind.yaml')), v125.join('\n'));
  assert.ok(!at(['--kube-version', '1.24.0']).some((l) => l.startsWith('templates/psp-kind.yaml')));
  // "policy/v1/PodDisruptionBudget" is never in the list either: plain helm picks policy/v1beta1, removed in 1.25.
  assert.ok(v125.includes('templates/pdb.yaml: policy/v1beta1 PodDisruptionBudget'), v125.join('\n'));
  // --api-versions only adds: passing what 1.25 serves cannot take policy/v1beta1 away.
  const added = at(['--kube-version', '1.25.0', '--api-versions', 'policy/v1/PodDisruptionBudget']);
  assert.ok(added.includes('templates/psp-groupversion.yaml: policy/v1beta1 PodSecurityPolicy'));
  assert.ok(added.includes('templates/pdb.yaml: policy/v1 PodDisruptionBudget'));
});

test('the faithful render answers Has with exactly what the step serves: the PSP at 1.24, not at 1.25, in both forms', async () => {
  const renderer = new hr.HelmRenderer({ helm, jobs: 2 });
  const [r120, r124, r125] = await renderer.render(PSP, ['1.20', '1.24', '1.25']);
  for (const r of [r120, r124, r125]) assert.equal(r.ok, true, r.error);
  assert.match(r124.helmVersion, /^v3\.17\./);
  assert.deepEqual(summary(r124.emissions), [
    'charts/legacy-jobs/templates/cronjob.yaml: batch/v1 CronJob',
    'templates/hook-cronjob.yaml: batch/v1beta1 CronJob',
    'templates/pdb.yaml: policy/v1 PodDisruptionBudget',
    'templates/psp-groupversion.yaml: policy/v1beta1 PodSecurityPolicy',
    'templates/psp-kind.yaml: policy/v1beta1 PodSecurityPolicy',
  ]);
  // 1.25: no PSP in either form, PDB policy/v1; the hook that hard-codes batch/v1beta1 is still seen (not a failure).
  assert.deepEqual(summary(r125.emissions), [
    'charts/legacy-jobs/templates/cronjob.yaml: batch/v1 CronJob',
    'templates/hook-cronjob.yaml: batch/v1beta1 CronJob',
    'templates/pdb.yaml: policy/v1 PodDisruptionBudget',
  ]);
  // 1.20: policy/v1 PDB not served yet; .Capabilities.KubeVersion comes from the step's /version.
  assert.deepEqual(summary(r120.emissions), [
    'charts/legacy-jobs/templates/cronjob.yaml: batch/v1beta1 CronJob',
    'templates/hook-cronjob.yaml: batch/v1beta1 CronJob',
    'templates/pdb.yaml: policy/v1beta1 PodDisruptionBudget',
    'templates/psp-groupversion.yaml: policy/v1beta1 PodSecurityPolicy',
    'templates/psp-kind.yaml: policy/v1beta1 PodSecurityPolicy',
  ]);
});

test('each emission is mapped to its template line (the apiVersion key) through # Source:', async () => {
  const [r, r120] = await new hr.HelmRenderer({ helm }).render(PSP, ['1.24', '1.20']);
  const by = Object.fromEntries(r.emissions.map((e) => [e.template, e]));
  assert.equal(by['templates/psp-kind.yaml'].line, 1);
  assert.equal(by['templates/hook-cronjob.yaml'].line, 0);
  // An apiVersion key in each arm of an if/else: the line of the arm whose literal Helm emitted.
  assert.equal(by['templates/pdb.yaml'].line, 1);
  assert.equal(by['charts/legacy-jobs/templates/cronjob.yaml'].line, 1);
  const old = Object.fromEntries(r120.emissions.map((e) => [e.template, e]));
  assert.equal(old['templates/pdb.yaml'].apiVersion, 'policy/v1beta1');
  assert.equal(old['templates/pdb.yaml'].line, 3);
  assert.equal(old['charts/legacy-jobs/templates/cronjob.yaml'].line, 3);
  for (const e of r.emissions) assert.equal(e.index, 0);
});

test('Helm asks the per-step API server for discovery only (logged calls), and nothing else', async () => {
  const raw = await hr.renderRaw(PSP, '1.25', { helm, helmVersion: 'v3' });
  assert.equal(raw.ok, true, raw.error);
  assert.ok(raw.calls.length > 3, raw.calls.join('\n'));
  for (const c of raw.calls) assert.match(c, /^GET \/(version|api|apis|api\/v1|apis\/[^/]+\/[^/]+)$/, c);
  assert.ok(raw.calls.includes('GET /version') && raw.calls.includes('GET /apis'));
  // What 1.25 does not serve is never asked for: Helm took the group list as given.
  assert.ok(!raw.calls.includes('GET /apis/policy/v1beta1'), raw.calls.join('\n'));
});

test('the fake API server serves exactly servedAt(minor), on 127.0.0.1 only', async () => {
  const api = await hr.startFakeApiServer('1.25', { groupVersions: new Set(['v1', 'apps/v1', 'policy/v1']), kinds: new Map([['v1', new Set(['Pod'])], ['policy/v1', new Set(['PodDisruptionBudget'])], ['apps/v1', new Set(['Deployment'])]]) });
  try {
    const get = async (p) => { const r = await fetch(`http://127.0.0.1:${api.port}${p}`); return { status: r.status, body: await r.json() }; };
    assert.deepEqual((await get('/version')).body.gitVersion, 'v1.25.0');
    assert.deepEqual((await get('/api')).body.versions, ['v1']);
    assert.deepEqual((await get('/apis')).body.groups.map((g) => g.name), ['apps', 'policy']);
    assert.deepEqual((await get('/apis/policy/v1')).body.resources.map((r) => [r.name, r.kind]), [['poddisruptionbudgets', 'PodDisruptionBudget']]);
    assert.equal((await get('/apis/policy/v1beta1')).status, 404);
    assert.equal((await get('/api/v1/namespaces/default/secrets')).status, 404);
    const post = await fetch(`http://127.0.0.1:${api.port}/api/v1/namespaces`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
  } finally { await api.close(); }
});

test('a render that fails is not rendered, with Helm\'s reason (a missing dependency is never fetched)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-dep-'));
  try {
    fs.mkdirSync(path.join(dir, 'templates'));
    fs.writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: needs-dep\nversion: 0.1.0\ndependencies:\n  - name: redis\n    version: 17.0.0\n    repository: https://charts.example.invalid\n');
    fs.writeFileSync(path.join(dir, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const [r] = await new hr.HelmRenderer({ helm }).render(dir, ['1.25']);
    assert.equal(r.ok, false);
    assert.match(r.error, /helm template failed \(exit 1\): .*redis/);
    assert.deepEqual(r.emissions, []);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a render that does not finish in time is stopped and reported as not rendered', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-slow-'));
  try {
    const fake = path.join(dir, 'helm');
    fs.writeFileSync(fake, '#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\nexec /bin/sleep 60\n', { mode: 0o755 });
    const [r] = await new hr.HelmRenderer({ helm: fake, timeoutMs: 500 }).render(PSP, ['1.25']);
    assert.equal(r.ok, false);
    assert.match(r.error, /took longer than 0\.5 s and was stopped/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a render whose child keeps the output open after the timeout is still stopped in time', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-slow-'));
  try {
    const fake = path.join(dir, 'helm');
    // A grandchild that outlives Helm's SIGKILL and holds stdout and stderr open.
    fs.writeFileSync(fake, '#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\n/bin/sleep 20 &\nexec /bin/sleep 60\n', { mode: 0o755 });
    const t0 = Date.now();
    const [r] = await new hr.HelmRenderer({ helm: fake, timeoutMs: 500 }).render(PSP, ['1.25']);
    assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`);
    assert.equal(r.ok, false);
    assert.match(r.error, /took longer than 0\.5 s and was stopped/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('Helm 4 or an old Helm 3 is refused with the reason, not run', async () => {
  assert.match(hr.helmVersionProblem('v4.0.0'), /needs Helm 3\.10 or newer 3\.x/);
  assert.match(hr.helmVersionProblem('v3.9.4'), /needs Helm 3\.10/);
  assert.equal(hr.helmVersionProblem('v3.17.3'), undefined);
});

test('renders are cached by chart content: the same chart is rendered once per step; a changed file, or an open buffer, renders again', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-cache-'));
  try {
    fs.cpSync(PSP, dir, { recursive: true });
    const renderer = new hr.HelmRenderer({ helm });
    const [a] = await renderer.render(dir, ['1.25']);
    const [b] = await renderer.render(dir, ['1.25']);
    assert.equal(a, b, 'the same object: not rendered again');
    const pdb = path.join(dir, 'templates', 'pdb.yaml');
    const buffer = 'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: x\n';
    const [c] = await renderer.render(dir, ['1.25'], [], (f) => (f === pdb ? buffer : undefined));
    assert.ok(summary(c.emissions).includes('templates/pdb.yaml: policy/v1beta1 PodDisruptionBudget'), 'the open buffer, not the disk');
    assert.equal(fs.readFileSync(pdb, 'utf8').includes('Capabilities'), true, 'the chart on disk is untouched');
    fs.writeFileSync(pdb, buffer.replace('v1beta1', 'v1'));
    const [d] = await renderer.render(dir, ['1.25']);
    assert.notEqual(d, a);
    assert.ok(summary(d.emissions).includes('templates/pdb.yaml: policy/v1 PodDisruptionBudget'));
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('at most `jobs` Helm processes run at a time', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-jobs-'));
  try {
    // A Helm stand-in that records how many of it run at once (mkdir is atomic), then renders nothing.
    const fake = path.join(dir, 'helm');
    fs.writeFileSync(fake, `#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\nn=0; while ! /bin/mkdir "${dir}/run.$n" 2>/dev/null; do n=$((n+1)); done\n/bin/sleep 0.3\n/bin/rmdir "${dir}/run.$n"\necho "$n" >> "${dir}/slots"\n`, { mode: 0o755 });
    const steps = ['1.20', '1.21', '1.22', '1.23', '1.24', '1.25'];
    const rs = await new hr.HelmRenderer({ helm: fake, jobs: 2 }).render(PSP, steps);
    assert.ok(rs.every((r) => r.ok), rs.map((r) => r.error).join('\n'));
    const slots = fs.readFileSync(path.join(dir, 'slots'), 'utf8').trim().split('\n').map(Number);
    assert.equal(slots.length, steps.length);
    assert.ok(Math.max(...slots) <= 1, `slot numbers ${slots}: more than 2 ran at once`);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('findHelm: the configured path, else PATH; it says where it looked', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-find-'));
  try {
    assert.deepEqual(hr.findHelm(undefined, dir, ''), { looked: ['PATH (empty)'] });
    const f = hr.findHelm('bin/helm', dir, '');
    assert.equal(f.path, undefined);
    assert.deepEqual(f.looked, [path.join(dir, 'bin', 'helm')]);
    assert.equal(hr.findHelm(undefined, dir, path.dirname(helm)).path, helm);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('queued renders of a chart that changed again are dropped as superseded, and not kept', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-stale-'));
  try {
    const fake = path.join(dir, 'helm');
    fs.writeFileSync(fake, `#!/bin/sh\nif [ "$1" = version ]; then echo v3.17.3; exit 0; fi\necho x >> "${dir}/runs"\n/bin/sleep 0.2\n`, { mode: 0o755 });
    const renderer = new hr.HelmRenderer({ helm: fake, jobs: 1 });
    // The chart "changes" once the first render has started: every later check says stale.
    let checks = 0;
    const steps = ['1.22', '1.23', '1.24', '1.25'];
    const rs = await renderer.render(PSP, steps, [], undefined, undefined, () => ++checks > 1);
    assert.equal(rs[0].ok, true);
    assert.deepEqual(rs.slice(1).map((r) => r.error), [hr.SUPERSEDED, hr.SUPERSEDED, hr.SUPERSEDED]);
    assert.equal(fs.readFileSync(path.join(dir, 'runs'), 'utf8').trim().split('\n').length, 1, 'only the first ran');
    const again = await renderer.render(PSP, steps);
    assert.ok(again.every((r) => r.ok), 'the superseded ones were not cached');
    assert.equal(again[0], rs[0], 'the finished one was');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('documents of several kinds in one template are given back in the template\'s order (Helm prints them by kind), with their lines', async () => {
  const chart = path.join(repoRoot, 'test', 'fixtures', 'charts', 'render-order');
  const [r122, r125] = await new hr.HelmRenderer({ helm, jobs: 2 }).render(chart, ['1.22', '1.25']);
  assert.equal(r125.ok, true, r125.error);
  const app = (r) => r.emissions.filter((e) => e.template === 'templates/app.yaml').sort((a, b) => a.index - b.index).map((e) => `${e.index} ${e.apiVersion} ${e.kind} @${e.line}`);
  assert.deepEqual(app(r125), ['0 apps/v1 Deployment @0', '1 v1 Service @18', '2 autoscaling/v2 HorizontalPodAutoscaler @29', '3 v1 ConfigMap @44']);
  assert.deepEqual(app(r122), ['0 apps/v1 Deployment @0', '1 v1 Service @18', '2 autoscaling/v2beta2 HorizontalPodAutoscaler @31', '3 v1 ConfigMap @44']);
  // Helm's own order really is by kind (what the mapping undoes).
  assert.deepEqual(r125.emissions.filter((e) => e.template === 'templates/app.yaml').map((e) => e.kind), ['ConfigMap', 'Service', 'Deployment', 'HorizontalPodAutoscaler']);
  // A range making documents of two kinds that the text does not name: their template order is not known.
  const ranged = r125.emissions.filter((e) => e.template === 'templates/ranged.yaml');
  assert.deepEqual(ranged.map((e) => `${e.index} ${e.apiVersion} ${e.kind} ${e.line}`).sort(), ['-1 v1 ConfigMap undefined', '-1 v1 ServiceAccount undefined']);
});

test('the node post-renderer (used where there is no /bin/sh and cat) gives the same documents as the shell one', async () => {
  const a = await hr.renderRaw(PSP, '1.24', { helm, helmVersion: 'v3' });
  const b = await hr.renderRaw(PSP, '1.24', { helm, helmVersion: 'v3', node: process.execPath });
  assert.equal(a.ok && b.ok, true, `${a.error} ${b.error}`);
  const docs = (r) => hr.parseRendered(r.manifests).map((d) => `${d.template} ${d.apiVersion} ${d.kind}`).sort();
  assert.deepEqual(docs(b), docs(a));
  assert.equal(docs(a).length, 5);
});

test('parseRendered: chart-relative templates (subcharts too), quoted values, comment-only documents are no documents', () => {
  const out = '---\n# Source: top/templates/a.yaml\n# just a comment\n---\n# Source: top/templates/a.yaml\napiVersion: "apps/v1"\nkind: \'Deployment\' # trailing\n'
    + '---\n# Source: top/charts/sub/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\ndata:\n  apiVersion: nested\n';
  assert.deepEqual(hr.parseRendered(out), [
    { template: 'templates/a.yaml', apiVersion: 'apps/v1', kind: 'Deployment' },
    { template: 'charts/sub/templates/b.yaml', apiVersion: 'v1', kind: 'ConfigMap' },
  ]);
});
