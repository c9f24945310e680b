// Kubernetes conversion fixes, case by case (issue #12): a move never loses meaning. HPA moves to
// autoscaling/v1 say only what v1 can carry and are partial otherwise (so --fix leaves them); workload moves to
// apps/v1 write out the defaults of the old apiVersion that apps/v1 changed. The field-level proof for every
// pair is test/k8s-fields.test.mjs. Reads only the repo (and temporary folders it makes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { repoRoot, analyze, applyEdits } from './helpers/k8s.mjs';

const k8s = (diags) => diags.filter((d) => d.ruleId.startsWith('k8s/'));
const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');

const HPA_HEAD = 'apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: api\nspec:\n'
  + '  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: api\n  minReplicas: 1\n  maxReplicas: 5\n';
const HPA_MEMORY = `${HPA_HEAD}  metrics:\n    - type: Resource\n      resource:\n        name: memory\n        target:\n          type: AverageValue\n          averageValue: 500Mi\n`;
const HPA_CPU = `${HPA_HEAD}  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target:\n          type: Utilization\n          averageUtilization: 60\n`;

function onlyFix(text, window, file = '/w/hpa.yaml') {
  const diags = k8s(analyze(file, text, window).diagnostics);
  assert.equal(diags.length, 1, diags.map((d) => d.message).join('\n'));
  assert.equal(diags[0].fixes.length, 1);
  return { d: diags[0], fix: diags[0].fixes[0] };
}

test('#12 HPA v2beta2 with a memory metric, window 1.21..1.25: the move to autoscaling/v1 is partial and says what v1 cannot carry', () => {
  const { d, fix } = onlyFix(HPA_MEMORY, '1.21..1.25');
  assert.equal(d.ruleId, 'k8s/deprecated-api');
  assert.equal(fix.partial, true);
  assert.equal(fix.preferred, false);
  assert.match(fix.title, /^Convert to autoscaling\/v1 — partial: spec\.metrics\[0\] is a Resource metric of memory; autoscaling\/v1 can only say one cpu utilization target \(targetCPUUtilizationPercentage\)/);
});

test('#12 HPA v2beta2: other shapes v1 cannot say are partial too (two metrics, behavior, an empty list, cpu by average value)', () => {
  const cases = [
    [`${HPA_CPU}    - type: Pods\n      pods:\n        metric:\n          name: qps\n        target:\n          type: AverageValue\n          averageValue: "10"\n`, /spec\.metrics has 2 metrics/],
    [`${HPA_CPU}  behavior:\n    scaleDown:\n      stabilizationWindowSeconds: 60\n`, /spec\.behavior has no autoscaling\/v1 form/],
    [`${HPA_HEAD}  metrics: []\n`, /spec\.metrics is empty/],
    [HPA_CPU.replace('type: Utilization\n          averageUtilization: 60', 'type: AverageValue\n          averageValue: 500m'), /spec\.metrics\[0\] is a Resource metric of cpu that is not a utilization target/],
  ];
  for (const [text, why] of cases) {
    const { fix } = onlyFix(text, '1.21..1.25');
    assert.equal(fix.partial, true, text);
    assert.equal(fix.preferred, false);
    assert.match(fix.title, why);
  }
});

test('#12 HPA v2beta2 without metrics, window 1.21..1.25: v1 defaults to the same 80% cpu, so the move is complete', () => {
  const { fix } = onlyFix(HPA_HEAD, '1.21..1.25');
  assert.equal(fix.preferred, true);
  assert.equal(fix.title, 'Convert to autoscaling/v1');
  assert.equal(applyEdits(HPA_HEAD, fix.edits), HPA_HEAD.replace('autoscaling/v2beta2', 'autoscaling/v1'));
});

test('#12 HPA v2beta2 with a memory metric: where the window serves autoscaling/v2 (1.23..1.25) the move goes there, complete', () => {
  const { fix } = onlyFix(HPA_MEMORY, '1.23..1.25');
  assert.equal(fix.title, 'Convert to autoscaling/v2');
  assert.equal(fix.preferred, true);
  assert.equal(applyEdits(HPA_MEMORY, fix.edits), HPA_MEMORY.replace('autoscaling/v2beta2', 'autoscaling/v2'));
});

test('#12 HPA v2beta1 cpu utilization -> autoscaling/v1 (window 1.20..1.24) becomes targetCPUUtilizationPercentage', () => {
  const text = 'apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  scaleTargetRef:\n    kind: Deployment\n    name: h\n  maxReplicas: 3\n'
    + '  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      targetAverageUtilization: 50\n';
  const diags = k8s(analyze('/w/h.yaml', text, '1.20..1.24').diagnostics);
  const fix = diags.flatMap((d) => d.fixes).find((f) => f.title.includes('autoscaling/v1'));
  assert.ok(fix, diags.map((d) => d.fixes.map((f) => f.title)).join('; '));
  assert.equal(fix.preferred, true);
  const out = YAML.parse(applyEdits(text, fix.edits));
  assert.deepEqual(out.spec, { scaleTargetRef: { kind: 'Deployment', name: 'h' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
});

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-convert-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  return dir;
}
const lint = (cwd, args) => {
  const env = { ...process.env };
  delete env.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, '--format', 'json', ...args], { cwd, encoding: 'utf8', env, timeout: 60000 });
  assert.equal(r.error, undefined);
  return { code: r.status, reports: JSON.parse(r.stdout) };
};

test('#12 lsp-lint --fix --kubernetes-window 1.21..1.25 leaves a v2beta2 HPA with a memory metric unchanged and still reported', (t) => {
  const dir = workspace(t, { 'hpa.yaml': HPA_MEMORY, 'cpu.yaml': HPA_CPU });
  const r = lint(dir, ['--fix', '--kubernetes-window', '1.21..1.25', 'hpa.yaml', 'cpu.yaml']);
  assert.equal(fs.readFileSync(path.join(dir, 'hpa.yaml'), 'utf8'), HPA_MEMORY);
  const byFile = Object.fromEntries(r.reports.map((x) => [path.basename(x.filePath), x]));
  assert.deepEqual(byFile['hpa.yaml'].messages.map((m) => m.ruleId).filter((id) => id.startsWith('k8s/')), ['k8s/deprecated-api']);
  // The cpu one is converted, and what it became is served by every version of the window.
  const cpu = YAML.parse(fs.readFileSync(path.join(dir, 'cpu.yaml'), 'utf8'));
  assert.equal(cpu.apiVersion, 'autoscaling/v1');
  assert.equal(cpu.spec.targetCPUUtilizationPercentage, 60);
  assert.equal('metrics' in cpu.spec, false);
  assert.deepEqual(byFile['cpu.yaml'].messages.filter((m) => m.ruleId.startsWith('k8s/')), []);
});

// ---------------------------------------------------------------------------------------------
// Workload defaults (issue #12 part 2): the old apiVersion's defaults that apps/v1 changed are written out.

const POD = '  template:\n    metadata:\n      labels:\n        app: w\n    spec:\n      containers:\n      - name: c\n        image: busybox\n';
const workload = (apiVersion, kind, extra = '') => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: w\nspec:\n${extra}${POD}`;

function converted(text, window = '1.18..1.21') {
  const diags = k8s(analyze('/w/w.yaml', text, window).diagnostics);
  assert.equal(diags.length, 1, diags.map((d) => d.message).join('\n'));
  const [fix] = diags[0].fixes;
  assert.equal(fix.preferred, true, fix.title);
  const out = applyEdits(text, fix.edits);
  assert.deepEqual(k8s(analyze('/w/w.yaml', out, window).diagnostics), [], 'clean after the fix');
  return YAML.parse(out).spec;
}
const without = (spec) => { const { template, selector, ...rest } = spec; return rest; };

test('#12 extensions/v1beta1 Deployment -> apps/v1 keeps maxSurge/maxUnavailable 1/1, revisionHistoryLimit and progressDeadlineSeconds MaxInt32', () => {
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'Deployment'))), {
    revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
  });
  // What the source sets is kept; only what it leaves unset is filled in.
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'Deployment', '  revisionHistoryLimit: 3\n  strategy:\n    rollingUpdate:\n      maxSurge: 30%\n'))), {
    revisionHistoryLimit: 3, progressDeadlineSeconds: 2147483647,
    strategy: { rollingUpdate: { maxSurge: '30%', maxUnavailable: 1 }, type: 'RollingUpdate' },
  });
  // Insertions at the same place (a strategy that ends the file, with no final line break) stay in order.
  const last = `${workload('extensions/v1beta1', 'Deployment')}  strategy:\n    rollingUpdate:\n      maxSurge: 30%`;
  assert.deepEqual(without(converted(last)), {
    strategy: { rollingUpdate: { maxSurge: '30%', maxUnavailable: 1 }, type: 'RollingUpdate' }, revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647,
  });
  // Recreate has no rolling-update numbers to keep.
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'Deployment', '  strategy:\n    type: Recreate\n'))), {
    strategy: { type: 'Recreate' }, revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647,
  });
});

test('#12 apps/v1beta1 Deployment -> apps/v1 keeps revisionHistoryLimit 2 (its other defaults are apps/v1\'s)', () => {
  assert.deepEqual(without(converted(workload('apps/v1beta1', 'Deployment'))), { revisionHistoryLimit: 2 });
});

test('#12 apps/v1beta2 Deployment, DaemonSet, StatefulSet, ReplicaSet -> apps/v1: same defaults, nothing added', () => {
  for (const kind of ['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet']) {
    const text = workload('apps/v1beta2', kind, '  selector:\n    matchLabels:\n      app: w\n');
    assert.deepEqual(without(converted(text)), {}, kind);
  }
});

test('#12 extensions/v1beta1 DaemonSet -> apps/v1 keeps updateStrategy OnDelete, also when the strategy object has no type', () => {
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'DaemonSet'))), { updateStrategy: { type: 'OnDelete' } });
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'DaemonSet', '  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 2\n'))),
    { updateStrategy: { rollingUpdate: { maxUnavailable: 2 }, type: 'OnDelete' } });
  assert.deepEqual(without(converted(workload('extensions/v1beta1', 'DaemonSet', '  updateStrategy:\n    type: RollingUpdate\n'))), { updateStrategy: { type: 'RollingUpdate' } });
});

test('#12 apps/v1beta1 StatefulSet -> apps/v1 keeps updateStrategy OnDelete; extensions/v1beta1 ReplicaSet gets only its selector', () => {
  assert.deepEqual(without(converted(workload('apps/v1beta1', 'StatefulSet', '  serviceName: w\n'))), { serviceName: 'w', updateStrategy: { type: 'OnDelete' } });
  const rs = converted(workload('extensions/v1beta1', 'ReplicaSet'));
  assert.deepEqual(rs.selector, { matchLabels: { app: 'w' } });
  assert.deepEqual(without(rs), {});
});

test('#12 rbac v1alpha1 RoleBinding -> v1: subjects[].apiVersion becomes apiGroup (v1 has no apiVersion there)', () => {
  const text = 'apiVersion: rbac.authorization.k8s.io/v1alpha1\nkind: RoleBinding\nmetadata:\n  name: b\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r\n'
    + 'subjects:\n- kind: User\n  apiVersion: rbac.authorization.k8s.io/v1alpha1\n  name: alice\n- kind: ServiceAccount\n  apiVersion: v1\n  name: sa\n  namespace: ns\n';
  const diags = k8s(analyze('/w/b.yaml', text, '1.21').diagnostics);
  const [fix] = diags.flatMap((d) => d.fixes);
  assert.equal(fix.preferred, true, fix.title);
  assert.deepEqual(YAML.parse(applyEdits(text, fix.edits)).subjects, [
    { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
    { kind: 'ServiceAccount', apiGroup: '', name: 'sa', namespace: 'ns' },
  ]);
});

test('#12 a move with no known conversion for its (from, to, kind) is a partial apiVersion change, never preferred', () => {
  // The lifecycle row of flowcontrol v1beta2 FlowSchema says apiVersion-only — for its replacement v1beta3, not for v1.
  const text = 'apiVersion: flowcontrol.apiserver.k8s.io/v1beta2\nkind: FlowSchema\nmetadata:\n  name: f\nspec:\n  priorityLevelConfiguration:\n    name: p\n';
  const diags = k8s(analyze('/w/f.yaml', text, '1.29').diagnostics);
  const fixes = diags.flatMap((d) => d.fixes);
  assert.ok(fixes.length);
  for (const f of fixes) {
    assert.equal(f.partial, true, f.title);
    assert.equal(f.preferred, false);
    assert.match(f.title, /^Change apiVersion to flowcontrol\.apiserver\.k8s\.io\/v1 — partial: no known conversion from flowcontrol\.apiserver\.k8s\.io\/v1beta2 to flowcontrol\.apiserver\.k8s\.io\/v1/);
  }
});

test('#12 JSON manifests: the old Deployment defaults and the HPA cpu target are written as valid JSON', () => {
  const dep = '{\n  "apiVersion": "extensions/v1beta1",\n  "kind": "Deployment",\n  "metadata": {"name": "w"},\n  "spec": {\n    "strategy": {"rollingUpdate": {"maxSurge": 2}},\n'
    + '    "template": {"metadata": {"labels": {"app": "w"}}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}\n  }\n}\n';
  const [d] = k8s(analyze('/w/d.json', dep, '1.18..1.21').diagnostics);
  const out = JSON.parse(applyEdits(dep, d.fixes[0].edits));
  assert.equal(out.apiVersion, 'apps/v1');
  assert.deepEqual(out.spec.strategy, { rollingUpdate: { maxSurge: 2, maxUnavailable: 1 }, type: 'RollingUpdate' });
  assert.equal(out.spec.revisionHistoryLimit, 2147483647);
  assert.equal(out.spec.progressDeadlineSeconds, 2147483647);
  const hpa = JSON.stringify(YAML.parse(HPA_CPU), null, 2);
  const [h] = k8s(analyze('/w/h.json', hpa, '1.21..1.25').diagnostics);
  assert.equal(h.fixes[0].preferred, true);
  const spec = JSON.parse(applyEdits(hpa, h.fixes[0].edits)).spec;
  assert.equal(spec.targetCPUUtilizationPercentage, 60);
  assert.equal('metrics' in spec, false);
});

test('#27 a pod template label without a string value (`app:` with nothing, a number) is not copied into an apps/v1 selector', () => {
  for (const [label, why] of [['app:', 'app has no string value'], ['version: 2', 'version has no string value']]) {
    const text = `apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels:\n        ${label}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n`;
    const { fix } = onlyFix(text, '1.17..1.19', '/w/deploy.yaml');
    assert.ok(fix.partial && !fix.preferred, `${label}: ${fix.title}`);
    assert.match(fix.title, new RegExp(why));
    assert.doesNotMatch(applyEdits(text, fix.edits), /selector:/, 'no selector the API server would reject');
  }
});

test('HPA v2beta1 -> v2: an Object (or External) metric with a value and an average value keeps both, as the upstream conversion does', () => {
  const head = 'apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: api\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: api\n  maxReplicas: 5\n  metrics:\n';
  const text = `${head}  - type: Object\n    object:\n      metricName: requests-per-second\n      target:\n        apiVersion: networking.k8s.io/v1\n        kind: Ingress\n        name: main-route\n      targetValue: 10k\n      averageValue: 2k\n`
    + '  - type: External\n    external:\n      metricName: queue\n      targetValue: 100\n      targetAverageValue: 30\n';
  const d = k8s(analyze('/w/hpa.yaml', text, '1.23..1.26').diagnostics).find((x) => x.ruleId === 'k8s/removed-api');
  const fix = d.fixes.find((f) => /^Convert to autoscaling\/v2/.test(f.title));
  assert.ok(fix && !fix.partial, d.fixes.map((f) => f.title).join('\n'));
  const out = YAML.parse(applyEdits(text, fix.edits));
  assert.equal(out.apiVersion, 'autoscaling/v2');
  assert.deepEqual(out.spec.metrics[0].object.target, { type: 'AverageValue', value: '10k', averageValue: '2k' });
  assert.deepEqual(out.spec.metrics[1].external.target, { type: 'AverageValue', value: 100, averageValue: 30 });
});
