// Issue #12: component rows checked at component versions (A), lifecycle wording and data facts (B), one reading of a
// Kubernetes version string (C), windows past the data (D). Reads only the repo and temporary folders it makes.
// Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, analyze, findings } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const rowOf = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const bin = path.join(repoRoot, 'bin', 'lsp-lint');

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-i12-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  return dir;
}
function lint(cwd, args, env = {}) {
  const en = { ...process.env, SKEWGUARD_TODAY: new Date(Date.parse(data.asOf) + 86400000).toISOString(), ...env };
  delete en.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: en, timeout: 60000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const lintJson = (cwd, args, env) => {
  const r = lint(cwd, ['--format', 'json', ...args], env);
  return { ...r, reports: JSON.parse(r.stdout) };
};
const DEPLOY = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';

// ---------------------------------------------------------------------------------------------
// C. One reading of a Kubernetes version string

test('C: normalizeVersion (a Kubernetes version as read everywhere) strips one leading v or V and surrounding blanks, nothing else', () => {
  assert.equal(e.normalizeVersion('V1.19.13'), '1.19.13');
  assert.equal(e.normalizeVersion(' v1.25 '), '1.25');
  assert.equal(e.normalizeVersion('1.21.3'), '1.21.3');
  assert.equal(e.normalizeVersion('vv1.2'), 'v1.2');
  // every reader agrees: window ranges, minors, the lifecycle predicates, the StarlingX path
  assert.deepEqual(e.parseRange('V1.18..v1.21'), { from: '1.18', to: '1.21' });
  assert.equal(e.minorOf('V1.19.13'), '1.19');
  assert.deepEqual(e.k8sLifecycle.parseMinor('V1.22'), [1, 22]);
  const rel = e.findStarlingxRelease('6.0');
  assert.deepEqual(e.windowFromStarlingx(rel, 'V1.19.13', { kind: 'workspace', detail: 'x' }).patches, ['1.19.13', '1.20.9', '1.21.3']);
});

test('C: kubernetes_version V1.19.13 in localhost.yml gives the manifests the window its source text names (1.19..1.21)', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\n', 'localhost.yml': 'system_mode: simplex\nkubernetes_version: V1.19.13\n', 'deploy.yaml': DEPLOY });
  const r = lint(dir, ['--print-config', 'deploy.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const k = JSON.parse(r.stdout).kubernetes;
  assert.equal(k.window, '1.19..1.21');
  assert.deepEqual(k.versions, ['1.19.13', '1.20.9', '1.21.3']);
  assert.equal(k.source.detail, 'localhost.yml: StarlingX 6.0 upgrade path from 1.19.13');
});

test('C: an Ansible playbook named localhost.yml sets no window for the manifests around it', (t) => {
  const playbook = '- hosts: localhost\n  gather_facts: false\n  tasks:\n    - name: hi\n      debug:\n        msg: hi\n';
  const dir = workspace(t, { 'localhost.yml': playbook, 'deploy.yaml': DEPLOY });
  const r = lint(dir, ['--print-config', 'deploy.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const k = JSON.parse(r.stdout).kubernetes;
  assert.equal(k.source.kind, 'default', JSON.stringify(k.source));
  // the same folder with a bootstrap file: its window
  const boot = workspace(t, { 'localhost.yml': 'system_mode: simplex\nkubernetes_version: 1.19.13\n', 'deploy.yaml': DEPLOY, '.skewguard.yaml': 'starlingx: { release: "6.0" }\n' });
  assert.equal(JSON.parse(lint(boot, ['--print-config', 'deploy.yaml']).stdout).kubernetes.source.kind, 'workspace');
});

// ---------------------------------------------------------------------------------------------
// B. Wrong words, wrong facts

const manifest = (apiVersion, kind) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\n`;
// The lifecycle rules only: k8s/fields-not-checked (steps the field rules cannot check) is test/k8s-fields-not-checked.test.mjs's.
const run = (apiVersion, kind, window) => analyze('/w/m.yaml', manifest(apiVersion, kind), window).diagnostics.filter((d) => d.ruleId.startsWith('k8s/') && d.ruleId !== 'k8s/fields-not-checked');

test('B: networking.k8s.io/v1beta1 IngressClass before 1.18 is "not served yet" (api-not-yet-served), never "removed"', () => {
  const at16 = run('networking.k8s.io/v1beta1', 'IngressClass', '1.16');
  assert.deepEqual(findings(at16), ['k8s/api-not-yet-served @ 1:13']);
  assert.equal(at16[0].severity, 'error');
  assert.match(at16[0].message, /^networking\.k8s\.io\/v1beta1 IngressClass is not served yet: Kubernetes 1\.18 introduces it, after the window 1\.16/);
  assert.doesNotMatch(at16[0].message, /remov/);
  const upTo19 = run('networking.k8s.io/v1beta1', 'IngressClass', '1.16..1.19');
  assert.deepEqual(findings(upTo19), ['k8s/api-not-yet-served @ 1:13']);
  assert.match(upTo19[0].message, /is not served before Kubernetes 1\.18, and no apiVersion of IngressClass is served before that, but the window starts at 1\.16: applying it fails until the upgrade reaches 1\.18/);
  // Window over both ends: the plan says the kind is new, and where to switch.
  const across = run('networking.k8s.io/v1beta1', 'IngressClass', '1.16..1.23');
  assert.deepEqual(findings(across), ['k8s/no-common-api-version @ 1:13']);
  assert.match(across[0].message, /: nothing serves IngressClass before 1\.18; split the upgrade: keep networking\.k8s\.io\/v1beta1 up to 1\.21, switch to networking\.k8s\.io\/v1 while the cluster is on 1\.19\.\.1\.21/);
});

test('B: audit: at a window wholly before an apiVersion is introduced, no lifecycle message of any row speaks of a removal', () => {
  let checked = 0;
  for (const r of data.apis) {
    if (r.component !== 'k8s' || !r.introduced || r.kind === '' || !e.k8sLifecycle.parseMinor(r.introduced)) continue;
    const [maj, min] = e.k8sLifecycle.parseMinor(r.introduced);
    if (maj !== 1 || min <= 16) continue;
    for (const window of [`1.${min - 1}`, `1.16..1.${min - 1}`, `1.${min - 1}..${r.introduced}`]) {
      const diags = run(r.apiVersion, r.kind, window);
      const lifecycle = diags.filter((d) => ['k8s/removed-api', 'k8s/deprecated-api', 'k8s/api-not-yet-served', 'k8s/no-common-api-version'].includes(d.ruleId));
      assert.ok(lifecycle.length > 0, `${r.apiVersion} ${r.kind} at ${window}: reported`);
      for (const d of lifecycle) {
        assert.doesNotMatch(d.message, /\b(was|is) removed\b|removed in Kubernetes/, `${r.apiVersion} ${r.kind} at ${window}: ${d.message}`);
        assert.notEqual(d.ruleId, 'k8s/removed-api', `${r.apiVersion} ${r.kind} at ${window}`);
      }
      checked++;
    }
  }
  assert.ok(checked > 150, `checked ${checked} windows`);
});

test('B: FlowSchema / PriorityLevelConfiguration v1beta2 and v1 over 1.24..1.29: v1beta3 bridges 1.26..1.28, no re-creation', () => {
  for (const kind of ['FlowSchema', 'PriorityLevelConfiguration']) {
    const old = run('flowcontrol.apiserver.k8s.io/v1beta2', kind, '1.24..1.29');
    assert.deepEqual(findings(old), ['k8s/no-common-api-version @ 1:13']);
    assert.equal(old[0].message, `no apiVersion of ${kind} is served by every Kubernetes version in 1.24..1.29: split the upgrade: `
      + 'keep flowcontrol.apiserver.k8s.io/v1beta2 up to 1.28, switch to flowcontrol.apiserver.k8s.io/v1beta3 while the cluster is on 1.26..1.28 '
      + '(both are served there), then continue to 1.29');
    const v1 = run('flowcontrol.apiserver.k8s.io/v1', kind, '1.24..1.29');
    assert.deepEqual(findings(v1), ['k8s/no-common-api-version @ 1:13']);
    assert.doesNotMatch(v1[0].message, /re-created|no step where both work/);
    assert.match(v1[0].message, /flowcontrol\.apiserver\.k8s\.io\/v1 is served only from 1\.29: split the upgrade: apply flowcontrol\.apiserver\.k8s\.io\/v1beta2 up to 1\.28, switch to flowcontrol\.apiserver\.k8s\.io\/v1beta3 while the cluster is on 1\.26\.\.1\.28 \(both are served there\), switch to flowcontrol\.apiserver\.k8s\.io\/v1 while the cluster is on 1\.29/);
    assert.deepEqual(v1[0].data.plan.map((p) => p.apiVersion), ['v1beta2', 'v1beta3', 'v1'].map((v) => `flowcontrol.apiserver.k8s.io/${v}`));
  }
});

test('B: authentication.k8s.io/v1beta1 TokenReview is deprecated from 1.19 (generated lifecycle code), recorded as a correction of Pluto', () => {
  const row = rowOf('authentication.k8s.io/v1beta1', 'TokenReview');
  assert.deepEqual([row.introduced, row.deprecated, row.removed, row.replacement], ['1.4', '1.19', '1.22', 'authentication.k8s.io/v1']);
  assert.ok(row.sources.some((s) => /authentication\/v1beta1\/zz_generated\.prerelease-lifecycle\.go @ [0-9a-f]{40}/.test(s)), row.sources.join('; '));
  const c = data.corrections.find((x) => x.apiVersion === 'authentication.k8s.io/v1beta1' && x.kind === 'TokenReview' && x.field === 'deprecated');
  assert.deepEqual([c.pluto, c.value], ['1.6', '1.19']);
  assert.match(c.source, /zz_generated\.prerelease-lifecycle\.go/);
  // Same year as the authorization review kinds of that release.
  assert.equal(rowOf('authorization.k8s.io/v1beta1', 'SubjectAccessReview').deprecated, row.deprecated);
  assert.deepEqual(run('authentication.k8s.io/v1beta1', 'TokenReview', '1.16..1.18'), []);
  const dep = run('authentication.k8s.io/v1beta1', 'TokenReview', '1.18..1.21');
  assert.deepEqual(findings(dep), ['k8s/deprecated-api @ 1:13']);
  assert.match(dep[0].message, /deprecated from Kubernetes 1\.19 and removed in 1\.22/);
});

test('B: authorization.k8s.io/v1beta1 SelfSubjectRulesReview and authentication.k8s.io SelfSubjectReview are known, with sources', () => {
  const ssrr = rowOf('authorization.k8s.io/v1beta1', 'SelfSubjectRulesReview');
  assert.deepEqual([ssrr.introduced, ssrr.deprecated, ssrr.removed, ssrr.replacement, ssrr.replacementAvailable], ['1.8', '1.19', '1.22', 'authorization.k8s.io/v1', '1.8']);
  assert.ok(ssrr.sources.some((s) => /authorization\/v1beta1\/zz_generated\.prerelease-lifecycle\.go @ 2d58ef78/.test(s)));
  assert.equal(rowOf('authorization.k8s.io/v1', 'SelfSubjectRulesReview').introduced, '1.8');
  const rem = run('authorization.k8s.io/v1beta1', 'SelfSubjectRulesReview', '1.21..1.22');
  assert.deepEqual(findings(rem), ['k8s/removed-api @ 1:13']);
  assert.match(rem[0].message, /removed in Kubernetes 1\.22.*use authorization\.k8s\.io\/v1, served across the whole window/);
  const alpha = rowOf('authentication.k8s.io/v1alpha1', 'SelfSubjectReview');
  // From the generated code (issue #28): the 1.26 tag declared 1.25/1.28/1.31, every tag since 1.27 1.26/1.29/1.32,
  // and the API server served it at 1.26–1.31 (shared/reference/kubernetes/prerelease-lifecycle.json).
  assert.deepEqual([alpha.introduced, alpha.deprecated, alpha.removed], ['1.26', '1.29', '1.32']);
  assert.deepEqual(alpha.lifecycleFrom.declaredEarlier.map((d) => [d.minors, d.introduced, d.deprecated, d.removed]), [[['1.26', '1.26'], '1.25', '1.28', '1.31']]); // the source contradiction is said
  assert.equal(rowOf('authentication.k8s.io/v1beta1', 'SelfSubjectReview').introduced, '1.27');
  assert.equal(rowOf('authentication.k8s.io/v1', 'SelfSubjectReview').introduced, '1.28');
  // an alpha API: also served only when enabled at 1.30 (test/k8s-off-by-default.test.mjs)
  assert.deepEqual(findings(run('authentication.k8s.io/v1alpha1', 'SelfSubjectReview', '1.31..1.32')), ['k8s/api-off-by-default @ 1:13', 'k8s/removed-api @ 1:13']);
  for (const r of [ssrr, alpha]) for (const f of r.changelogFields) assert.ok(r.sources.length >= 1, f);
});

// ---------------------------------------------------------------------------------------------
// D. Windows past the data

test('D: the data knows 1.37 (released 2026-08-26) and the announced removals of resource.k8s.io/v1beta1 (1.38) and v1beta2 (1.39)', () => {
  assert.equal(data.minors.at(-1), '1.37');
  assert.equal(data.asOf, '2026-12-01');
  assert.ok(data.sourcesRead.some((s) => /lifecycle-1\.33-1\.38\.json/.test(s.copy ?? '') && /1\.37 2026-08-26/.test(s.note)));
  for (const kind of ['ResourceSlice', 'ResourceClaim', 'DeviceClass', 'ResourceClaimTemplate']) {
    const b1 = rowOf('resource.k8s.io/v1beta1', kind);
    assert.deepEqual([b1.introduced, b1.deprecated, b1.removed], ['1.32', '1.35', '1.38'], kind);
    assert.ok(b1.sources.some((s) => /resource\/v1beta1\/zz_generated\.prerelease-lifecycle\.go @ d7ce957d/.test(s)), kind);
    for (const [field, pluto, value] of [['deprecated', '1.33', '1.35'], ['removed', '1.36', '1.38']]) {
      const c = data.corrections.find((x) => x.apiVersion === 'resource.k8s.io/v1beta1' && x.kind === kind && x.field === field);
      assert.deepEqual([c.pluto, c.value], [pluto, value], `${kind} ${field}`);
    }
    const b2 = rowOf('resource.k8s.io/v1beta2', kind);
    assert.deepEqual([b2.introduced, b2.deprecated, b2.removed], ['1.33', '1.36', '1.39'], kind);
  }
  const slice = manifest('resource.k8s.io/v1beta1', 'ResourceSlice');
  // (and served at 1.37 only when enabled: a beta API added after 1.24, test/k8s-off-by-default.test.mjs)
  assert.deepEqual(findings(analyze('/w/s.yaml', slice, '1.37').diagnostics.filter((d) => d.ruleId !== 'k8s/fields-not-checked')), ['k8s/api-off-by-default @ 1:13', 'k8s/deprecated-api @ 1:13']);
  const rem = analyze('/w/s.yaml', slice, '1.36..1.38').diagnostics.filter((d) => d.ruleId === 'k8s/removed-api');
  assert.equal(rem.length, 1);
  assert.match(rem[0].message, /removed in Kubernetes 1\.38, which is in the window 1\.36\.\.1\.38/);
});

test('D: a window past the data is one k8s/window-past-data warning per run, at the first manifest\'s apiVersion', (t) => {
  const dir = workspace(t, { 'a.yaml': DEPLOY, 'b.yaml': DEPLOY, 'slice.yaml': manifest('resource.k8s.io/v1beta1', 'ResourceSlice') });
  const r = lintJson(dir, ['--kubernetes-window', '1.36..1.45', 'a.yaml', 'b.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const notes = r.reports.flatMap((x) => x.messages.filter((m) => m.ruleId === 'k8s/window-past-data').map((m) => ({ file: path.basename(x.filePath), ...m })));
  assert.equal(notes.length, 1);
  assert.deepEqual([notes[0].line, notes[0].column, notes[0].severity], [1, 13, 'warning']);
  assert.equal(notes[0].message, 'the Kubernetes window 1.36..1.45 goes past the API lifecycle data, which knows Kubernetes up to 1.37 (as of 2026-12-01): '
    + '1.38..1.45 are not vouched for, removals there are not known; only the removals already announced for them are checked '
    // every removal the generated code declares past 1.37 (shared/reference/kubernetes/prerelease-lifecycle.json)
    + '(admissionregistration.k8s.io/v1alpha1 in 1.38, coordination.k8s.io/v1alpha2 in 1.38, resource.k8s.io/v1beta1 in 1.38, '
    + 'coordination.k8s.io/v1beta1 in 1.39, resource.k8s.io/v1alpha3 in 1.39, resource.k8s.io/v1beta2 in 1.39, '
    + 'admissionregistration.k8s.io/v1beta1 in 1.40, certificates.k8s.io/v1beta1 in 1.40, storagemigration.k8s.io/v1beta1 in 1.40, '
    + 'certificates.k8s.io/v1beta1 in 1.41, resource.k8s.io/v1alpha3 in 1.42, resource.k8s.io/v1beta2 in 1.42)');
  // stylish output no longer says "no problems"
  const plain = lint(dir, ['--kubernetes-window', '1.36..1.45', 'a.yaml']);
  assert.doesNotMatch(plain.stdout, /no problems/);
  assert.match(plain.stdout, /k8s\/window-past-data/);
  // users make it fail the job
  assert.equal(lint(dir, ['--kubernetes-window', '1.36..1.45', '--max-warnings', '0', 'a.yaml']).code, 1);
  assert.equal(lint(dir, ['--kubernetes-window', '1.36..1.45', '--rule', 'k8s/window-past-data=error', 'a.yaml']).code, 1);
  // --exit-codes pluto: not a removal (3) nor a deprecation (2): the default codes apply; a removal still wins
  assert.equal(lint(dir, ['--kubernetes-window', '1.36..1.45', '--exit-codes', 'pluto', 'a.yaml']).code, 0);
  assert.equal(lint(dir, ['--kubernetes-window', '1.36..1.45', '--exit-codes', 'pluto', '--rule', 'k8s/window-past-data=error', 'a.yaml']).code, 1);
  assert.equal(lint(dir, ['--kubernetes-window', '1.36..1.45', '--exit-codes', 'pluto', 'slice.yaml']).code, 3);
  // inside the data: nothing said about the lifecycle data (and, since issue #28, 1.37 has a field source too)
  const inside = lintJson(dir, ['--kubernetes-window', '1.36..1.37', 'a.yaml']);
  assert.deepEqual(inside.reports.flatMap((x) => x.messages).map((m) => m.ruleId), []);
  // --print-config lists the steps it cannot vouch for
  const cfg = JSON.parse(lint(dir, ['--kubernetes-window', '1.36..1.45', '--print-config', 'a.yaml']).stdout);
  assert.deepEqual(cfg.kubernetes.pastData, {
    knownUpTo: '1.37', asOf: '2026-12-01', steps: ['1.38', '1.39', '1.40', '1.41', '1.42', '1.43', '1.44', '1.45'],
    announced: ['admissionregistration.k8s.io/v1alpha1 in 1.38', 'coordination.k8s.io/v1alpha2 in 1.38', 'resource.k8s.io/v1beta1 in 1.38',
      'coordination.k8s.io/v1beta1 in 1.39', 'resource.k8s.io/v1alpha3 in 1.39', 'resource.k8s.io/v1beta2 in 1.39',
      'admissionregistration.k8s.io/v1beta1 in 1.40', 'certificates.k8s.io/v1beta1 in 1.40', 'storagemigration.k8s.io/v1beta1 in 1.40',
      'certificates.k8s.io/v1beta1 in 1.41', 'resource.k8s.io/v1alpha3 in 1.42', 'resource.k8s.io/v1beta2 in 1.42'],
  });
  assert.equal(JSON.parse(lint(dir, ['--kubernetes-window', '1.30..1.37', '--print-config', 'a.yaml']).stdout).kubernetes.pastData, null);
});

// ---------------------------------------------------------------------------------------------
// A. Component rows (cert-manager, Istio) checked at the component's own version. cert-manager.io and
// acme.cert-manager.io moved to the operators' data (data/operators, issue #31): judged by the k8s/operator-* rules at
// the cert-manager window, with no default (test/operators.test.mjs). The rows older than that data stay here:
// certmanager.k8s.io (cert-manager before 0.11) and Istio's authentication.istio.io, at Pluto's default target.

const ISSUER = manifest('cert-manager.io/v1alpha2', 'Issuer');
const OLD_ISSUER = manifest('certmanager.k8s.io/v1alpha1', 'Issuer');
const cfgWith = (cli) => e.resolveConfig({ cli: { kubernetesWindow: '1.25', ...cli } });
const check = (text, cli, loaded) => e.analyze({ path: '/w/i.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.25', ...cli }, config: loaded }) }).diagnostics;

test('A: Pluto\'s default component targets are in the data, from its versions.yaml target-versions', () => {
  assert.deepEqual(data.componentTargets, {
    'cert-manager': { version: '1.5.3', plutoTarget: 'v1.5.3', source: 'pluto v5.24.0 versions.yaml target-versions; used only for the certmanager.k8s.io rows (cert-manager before 0.11)' },
    istio: { version: '1.11.0', plutoTarget: 'v1.11.0', source: 'pluto v5.24.0 versions.yaml target-versions' },
    // Not Pluto's: the newest Flux minor of fluxcd-apis.json (scripts/lib/fluxcd-rows.mjs), test/starlingx-app.test.mjs.
    fluxcd: data.componentTargets.fluxcd,
    // Not Pluto's either: Gateway API, Calico, Multus, SR-IOV (scripts/lib/ecosystem-rows.mjs), test/k8s-ecosystem.test.mjs.
    'gateway-api': data.componentTargets['gateway-api'],
    calico: data.componentTargets.calico,
    multus: data.componentTargets.multus,
    'sriov-network-operator': data.componentTargets['sriov-network-operator'],
  });
  assert.equal(data.componentTargets.fluxcd.plutoTarget, undefined);
  const c = cfgWith({}).components;
  assert.deepEqual(c['cert-manager'].version, '1.5.3');
  assert.equal(c['cert-manager'].source.kind, 'default');
  assert.equal(data.apis.filter((r) => /(^|\.)cert-manager\.io$/.test(r.group)).length, 0, 'cert-manager.io rows moved to data/operators');
  assert.deepEqual([...new Set(data.apis.filter((r) => r.component === 'cert-manager').map((r) => r.group))], ['certmanager.k8s.io']);
});

test('A: without a cert-manager version, a cert-manager.io/v1alpha2 Issuer is not judged (information); the pre-0.11 group still is, at Pluto\'s default', () => {
  const d = check(ISSUER, {});
  assert.deepEqual(findings(d), ['k8s/operator-api-not-served @ 1:13']);
  assert.equal(d[0].severity, 'info');
  assert.match(d[0].message, /no cert-manager version is known, so whether its releases serve it is not checked: set kubernetes\.components\.cert-manager/);
  // The Kubernetes window does not matter to an operator's resource.
  assert.deepEqual(findings(check(ISSUER, { kubernetesWindow: '1.16..1.37' })), ['k8s/operator-api-not-served @ 1:13']);
  const old = check(OLD_ISSUER, {});
  assert.deepEqual(findings(old), ['k8s/removed-api @ 1:13']);
  assert.match(old[0].message, /^certmanager\.k8s\.io\/v1alpha1 Issuer is removed in cert-manager 0\.11 \(checked at cert-manager 1\.5\.3: Pluto's default target/);
  // Istio at its default (1.11.0): authentication.istio.io/v1alpha1 (every kind) is removed since 1.6
  const istio = check(manifest('authentication.istio.io/v1alpha1', 'MeshPolicy'), {});
  assert.deepEqual(findings(istio), ['k8s/removed-api @ 1:13']);
  assert.match(istio[0].message, /^authentication\.istio\.io\/v1alpha1 MeshPolicy is removed in istio 1\.6 \(checked at istio 1\.11\.0: Pluto's default target/);
  assert.match(istio[0].message, /move to security\.istio\.io\/v1beta1: .*PeerAuthentication/);
});

test('A: cert-manager versions from the flag: not served at 1.6, deprecated at 1.5, clean at 1.3; the pre-0.11 rows at the window\'s newest release', () => {
  const removed = check(ISSUER, { componentVersions: { 'cert-manager': '1.6' } });
  assert.deepEqual(findings(removed), ['k8s/operator-api-not-served @ 1:13']);
  assert.equal(removed[0].message, 'cert-manager.io/v1alpha2 Issuer: cert-manager 1.6 lists v1alpha2 with served: false (last served in 1.5); move to cert-manager.io/v1, served at every release of the window (cert-manager window 1.6, from --component-versions: cert-manager 1.6)');
  assert.deepEqual(removed[0].fixes ?? [], [], 'no apiVersion-only fix: cert-manager changed fields between versions');
  assert.deepEqual(findings(check(ISSUER, { componentVersions: { 'cert-manager': '1.5' } })), ['k8s/operator-api-deprecated @ 1:13']);
  assert.deepEqual(check(ISSUER, { componentVersions: { 'cert-manager': '1.3' } }), []);
  assert.deepEqual(check(manifest('cert-manager.io/v1', 'Issuer'), { componentVersions: { 'cert-manager': '1.7..1.21' } }), []);
  assert.deepEqual(findings(check(manifest('cert-manager.io/v1', 'Issuer'), { componentVersions: { 'cert-manager': '1.0..1.21' } })), ['k8s/operator-storage-version-dropped @ 1:13'], '1.7 drops the old versions');
  const old = check(OLD_ISSUER, { componentVersions: { 'cert-manager': '1.0..1.2' } });
  assert.deepEqual(findings(old), ['k8s/removed-api @ 1:13']);
  assert.match(old[0].message, /\(checked at cert-manager 1\.2: from --component-versions: cert-manager 1\.0\.\.1\.2\)/);
});

test('A: .skewguard.yaml kubernetes.components: validated with positions, used with its path as the source, the flag wins', () => {
  const text = 'kubernetes:\n  components:\n    cert-manager: "1.6"\n    cert-manger: "1.2"\n    istio: 1.x\n    calico: 3.x\n    k8s: "1.25"\n';
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  const probs = loaded.problems.map((p) => [p.message, text.slice(p.range.start, p.range.end)]);
  assert.deepEqual(probs, [
    ['kubernetes.components.cert-manger: unknown component "cert-manger"; did you mean "cert-manager"? (known: argo-cd, argo-rollouts, calico, cert-manager, cilium, crossplane, external-secrets, fluxcd, gateway-api, istio, keda, knative-serving, kyverno, multus, prometheus-operator, sriov-network-operator, tekton-pipelines, traefik, velero)', 'cert-manger'],
    ['kubernetes.components.istio: "1.x" is not a version such as 0.17, v1.14.2, or a window such as 0.16..0.17', '1.x'],
    ['kubernetes.components.calico: "3.x" is not a version such as 1.5 or v1.5.3', '3.x'],
    ['kubernetes.components.k8s: Kubernetes versions are the Kubernetes window (kubernetes.window / --kubernetes-window), not a component version', 'k8s'],
  ]);
  assert.deepEqual(loaded.overrides.componentVersions, { 'cert-manager': '1.6' });
  const fromFile = check(ISSUER, {}, loaded);
  assert.deepEqual(findings(fromFile), ['k8s/operator-api-not-served @ 1:13']);
  assert.match(fromFile[0].message, /\(cert-manager window 1\.6, from \/w\/\.skewguard\.yaml kubernetes\.components: cert-manager 1\.6\)$/);
  assert.deepEqual(findings(check(ISSUER, { componentVersions: { 'cert-manager': 'v1.5.0' } }, loaded)), ['k8s/operator-api-deprecated @ 1:13']);
  assert.ok(e.configSchema.properties.kubernetes.properties.components);
});

test('A: lsp-lint --component-versions: exit codes (default and pluto), usage errors, --print-config components', (t) => {
  // Istio is an operator of data/operators now: a version is one of its releases read (1.9..1.30).
  const dir = workspace(t, { 'issuer.yaml': OLD_ISSUER, 'cert.yaml': ISSUER, '.skewguard.yaml': 'kubernetes:\n  window: "1.25"\n  components:\n    istio: "1.10"\n' });
  const dflt = lintJson(dir, ['issuer.yaml']);
  assert.equal(dflt.code, 1);
  assert.deepEqual(dflt.reports[0].messages.map((m) => m.ruleId), ['k8s/removed-api']);
  assert.equal(lint(dir, ['--exit-codes', 'pluto', 'issuer.yaml']).code, 3);
  const info = lintJson(dir, ['cert.yaml']);
  assert.equal(info.code, 0, 'an unknown operator version is an information: no exit 2');
  const r = lintJson(dir, ['--component-versions', 'cert-manager=1.6,istio=1.11', 'cert.yaml']);
  assert.equal(r.code, 1);
  assert.match(r.reports[0].messages[0].message, /cert-manager 1\.6 lists v1alpha2 with served: false .*from --component-versions: cert-manager 1\.6\)/);
  for (const bad of ['cert-manger=1.6', 'cert-manager=one', 'cert-manager', 'cert-manager=1.7..1.6', 'cert-manager=0.15']) {
    const u = lint(dir, ['--component-versions', bad, 'cert.yaml']);
    assert.equal(u.code, 2, bad);
    assert.match(u.stderr, /--component-versions/, bad);
  }
  const cfg = JSON.parse(lint(dir, ['--component-versions', 'cert-manager=1.6..1.7', '--print-config', 'cert.yaml']).stdout);
  assert.deepEqual(cfg.components['cert-manager'], { version: '1.6..1.7', source: { kind: 'cli', detail: '--component-versions' } });
  assert.deepEqual(cfg['operator:cert-manager'], { window: '1.6..1.7', versions: [{ release: '1.6', tag: 'v1.6.3' }, { release: '1.7', tag: 'v1.7.3' }], source: { kind: 'cli', detail: '--component-versions: cert-manager 1.6..1.7' } });
  assert.deepEqual(cfg.components.istio, { version: '1.10', source: { kind: 'config', detail: `${path.join(dir, '.skewguard.yaml')} kubernetes.components` } });
  const whole = JSON.parse(lint(dir, ['--print-config', 'cert.yaml']).stdout);
  assert.deepEqual([whole.components['cert-manager'].version, whole.components['cert-manager'].source.kind], ['1.5.3', 'default']);
  assert.match(whole.components['cert-manager'].source.detail, /^Pluto's default target, pluto v5\.24\.0 versions\.yaml target-versions; used only for the certmanager\.k8s\.io rows/);
  assert.equal(whole['operator:cert-manager'], undefined, 'no default operator window');
});

test('A: a user row of a component without a version is said (info), not passed over', () => {
  const text = 'kubernetes:\n  additionalVersions:\n    - version: example.com/v1beta1\n      kind: Widget\n      deprecated-in: v2.0.0\n      component: my-operator\n';
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  assert.deepEqual(loaded.problems, []);
  const d = check(manifest('example.com/v1beta1', 'Widget'), {}, loaded);
  assert.deepEqual(findings(d), ['k8s/deprecated-api @ 1:13']);
  assert.equal(d[0].severity, 'info');
  assert.match(d[0].message, /no version of my-operator is given, so its lifecycle is not checked/);
  const withVersion = e.parseConfig('/w/.skewguard.yaml', `${text}  components:\n    my-operator: "2.1"\n`, e.ruleIds);
  assert.deepEqual(withVersion.problems, []);
  const dep = check(manifest('example.com/v1beta1', 'Widget'), {}, withVersion);
  assert.match(dep[0].message, /deprecated from my-operator 2\.0 \(checked at my-operator 2\.1: from \/w\/\.skewguard\.yaml kubernetes\.components\)/);
});

test('C: a kubeadm kubernetesVersion V1.21.3 is the same version as localhost.yml\'s 1.21.3; a different one keeps the file\'s "V"', () => {
  const kubeadm = (v) => `apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\nkubernetesVersion: ${v}\n`;
  const input = { neighbours: { localhost: { path: 'localhost.yml', kubernetesVersion: '1.21.3' } } };
  const of = (v) => analyze('/w/kubeadm.yaml', kubeadm(v), '1.21', { input }).diagnostics.filter((d) => d.ruleId === 'k8s/kubeadm-version-mismatch');
  assert.deepEqual(of('V1.21.3'), []);
  const other = of('V1.20.9');
  assert.equal(other.length, 1);
  assert.equal(other[0].fixes[0].edits[0].newText, 'V1.21.3');
});
