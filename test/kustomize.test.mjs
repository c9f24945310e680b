// Issue #15 item 7: kustomization.yaml as the `kustomize` family, checked against the kustomize each step's kubectl
// embeds (data/kubernetes/kustomize.json). Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { repoRoot, engine as e, analyze, findings, applyEdits } from './helpers/k8s.mjs';

const require = createRequire(import.meta.url);
const YAML = require('yaml');
const parse = (t) => YAML.parse(t);
const K = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

test('a kustomization is the kustomize family by name, and by content over the Kubernetes family', () => {
  const cfg = e.resolveConfig({ cli: { kubernetesWindow: '1.27..1.28' } });
  const family = (file, text) => e.analyze({ path: file, text, config: cfg }).family;
  assert.equal(family('/w/kustomization.yaml', 'resources: []\n'), 'kustomize');
  assert.equal(family('/w/kustomization.yml', 'resources: []\n'), 'kustomize');
  assert.equal(family('/w/Kustomization', 'resources: []\n'), 'kustomize');
  // Before this family, the document below (apiVersion + kind) was read as a Kubernetes manifest.
  assert.equal(family('/w/overlay.yaml', `${K}resources: []\n`), 'kustomize');
  assert.equal(family('/w/component.yaml', 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n'), 'kustomize');
  assert.equal(family('/w/deploy.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n'), 'kubernetes');
  assert.equal(family('/w/bundle.yaml', `apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n---\n${K}`), 'kubernetes', 'by content only as the first document');
  // A patch file next to the kustomization stays a manifest and is checked as one.
  const r = analyze('/w/cron.yaml', 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: x\n', '1.24..1.25');
  assert.equal(r.family, 'kubernetes');
  assert.deepEqual(findings(r.diagnostics), ['k8s/removed-api @ 1:13']);
});

test('the embedded kustomize per kubectl minor, and what is not known, come from the data', () => {
  const d = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/kubernetes/kustomize.json'), 'utf8'));
  const at = (m) => d.kubectl.find((r) => Number(m.split('.')[1]) >= Number(r.from.split('.')[1]) && (r.to === null || Number(m.split('.')[1]) <= Number(r.to.split('.')[1])));
  assert.equal(at('1.20').version, '2.0.3');
  assert.equal(at('1.21').version, '4.0.5');
  assert.equal(at('1.27').version, '5.0.1');
  assert.equal(at('1.30').version, null, 'not read at the tag: said so, not guessed');
  assert.match(at('1.30').note, /not read/);
  for (const f of d.fields) assert.ok(f.sources.length, `${f.name} cites a source`);
});

// Each fix: the fixed file, analysed again, has no deprecated field and the same resources, patches, labels, images.
const FIXES = [
  { field: 'bases', text: `${K}bases:\n  - ../base\nresources:\n  - deployment.yaml\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, resources: ['deployment.yaml', '../base'] }) },
  { field: 'bases', name: 'bases without resources', text: `${K}bases:\n  - ../base\n  - ../../common\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, resources: ['../base', '../../common'] }) },
  { field: 'patchesStrategicMerge', text: `${K}resources:\n  - d.yaml\npatchesStrategicMerge:\n  - replicas.yaml\n  - |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\npatches:\n  - path: other.yaml\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, resources: ['d.yaml'], patches: [{ path: 'replicas.yaml' }, { patch: o.patchesStrategicMerge[1] }, { path: 'other.yaml' }] }) },
  { field: 'patchesJson6902', text: `${K}patchesJson6902:\n  - target:\n      group: apps\n      version: v1\n      kind: Deployment\n      name: web\n    path: env.yaml\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, patches: o.patchesJson6902 }) },
  { field: 'commonLabels', text: `${K}resources:\n  - d.yaml\ncommonLabels:\n  app: web\n  tier: front\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, resources: ['d.yaml'], labels: [{ pairs: { app: 'web', tier: 'front' }, includeSelectors: true }] }) },
  { field: 'commonLabels', name: 'commonLabels with labels (CRLF)', text: `${K}labels:\n  - pairs:\n      team: a\ncommonLabels:\n  app: web\n`.replace(/\n/g, '\r\n'),
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, labels: [{ pairs: { team: 'a' } }, { pairs: { app: 'web' }, includeSelectors: true }] }) },
  { field: 'imageTags', text: `${K}images:\n  - name: a\n    newTag: "1"\nimageTags:\n  - name: b\n    newTag: "2"\n`,
    expect: (o) => ({ apiVersion: o.apiVersion, kind: o.kind, images: [...o.images, ...o.imageTags] }) },
];
for (const c of FIXES) {
  test(`fix of ${c.name ?? c.field}: no deprecated field after it, the same resources/patches/labels`, () => {
    const r = analyze('/w/kustomization.yaml', c.text, '1.27..1.29');
    const d = r.diagnostics.find((x) => x.ruleId === 'kustomize/deprecated-field' && x.data.field === c.field);
    assert.ok(d, `a finding for ${c.field}`);
    assert.equal(d.fixes.length, 1);
    assert.equal(d.fixes[0].preferred, true);
    const fixed = applyEdits(c.text, d.fixes[0].edits);
    const again = analyze('/w/kustomization.yaml', fixed, '1.27..1.29');
    assert.deepEqual(again.diagnostics.filter((x) => x.ruleId !== 'kustomize/deprecated-field' || x.data.field === c.field).map((x) => x.ruleId), [], fixed);
    assert.deepEqual(parse(fixed), c.expect(parse(c.text)), fixed);
  });
}

test('no fix where the replacement is not read by some step, and none for vars', () => {
  const text = `${K}bases:\n  - ../base\ncommonLabels:\n  app: web\nvars:\n  - name: X\n    objref:\n      kind: Service\n      name: web\n      apiVersion: v1\n`;
  const r = analyze('/w/kustomization.yaml', text, '1.20..1.27');
  const by = Object.fromEntries(r.diagnostics.filter((d) => d.ruleId === 'kustomize/deprecated-field').map((d) => [d.data.field, d]));
  assert.deepEqual(by.bases.fixes, []);
  assert.match(by.bases.message, /not read by 1\.20 \(kustomize 2\.0\.3\)/);
  assert.deepEqual(by.commonLabels.fixes, []);
  assert.match(by.commonLabels.message, /not read by 1\.20 \(kustomize 2\.0\.3\), 1\.21 \(kustomize 4\.0\.5\)/);
  assert.deepEqual(by.vars.fixes, []);
  assert.equal(by.vars.severity, 'warning');
  assert.match(by.vars.message, /no automatic fix/);
  // Before kustomize 5 (kubectl 1.26) patchesStrategicMerge is not deprecated.
  const old = analyze('/w/kustomization.yaml', `${K}patchesStrategicMerge:\n  - r.yaml\n`, '1.24..1.26');
  assert.deepEqual(findings(old.diagnostics), []);
});

test('images: entries feed the component-skew rules, at the entry\'s line', () => {
  const text = `${K}images:\n  - name: registry.k8s.io/kube-proxy\n    newTag: v1.25.3\n  - name: calico/node\n    newTag: v3.12.0\n  - name: docker.io/calico/node\n    newTag: v3.12.0\n    digest: sha256:${'0'.repeat(64)}\n  - name: nginx\n    newTag: "1.25"\n`;
  const r = analyze('/w/kustomization.yaml', text, '1.26..1.29');
  assert.deepEqual(findings(r.diagnostics), ['k8s/node-component-skew @ 5:13', 'k8s/component-not-validated @ 7:13', 'k8s/component-not-validated @ 9:13']);
  // 1.19..1.21: a Calico release is validated for the whole window, so the finding has a fix (to its tag).
  const calico = analyze('/w/kustomization.yaml', text, '1.19..1.21').diagnostics.filter((d) => d.ruleId === 'k8s/component-not-validated');
  assert.equal(calico[0].fixes.length, 1);
  assert.match(applyEdits(text, calico[0].fixes[0].edits), /name: calico\/node\n {4}newTag: v3\.\d+\.\d+\n/);
  assert.deepEqual(calico[1].fixes, [], 'a digest pins the image: a new tag would not change it');
});

test('patch targets naming a removed API are errors at the target\'s version', () => {
  const text = `${K}patches:\n  - path: p.yaml\n    target:\n      group: batch\n      version: v1beta1\n      kind: CronJob\n`;
  const r = analyze('/w/kustomization.yaml', text, '1.24..1.25');
  assert.deepEqual(findings(r.diagnostics), ['kustomize/patch-target-api @ 7:16']);
  assert.match(applyEdits(text, r.diagnostics[0].fixes[0].edits), /version: v1\n/);
});

test('hover: a field and its lifecycle per step; completion: fields read at every step', () => {
  const text = `${K}bases:\n  - ../base\nres\n`;
  const valid = `${K}bases:\n  - ../base\n`;
  const h = e.hover(analyze('/w/kustomization.yaml', valid, '1.20..1.27'), valid, { line: 2, character: 1 });
  assert.match(h.markdown, /\*\*bases\*\*/);
  assert.match(h.markdown, /\| 1\.20 \| 1\.21 \|/);
  assert.match(h.markdown, /⚠ deprecated/);
  const labels = (window) => e.complete(analyze('/w/kustomization.yaml', text, window), text, { line: 4, character: 3 }).map((c) => c.label);
  assert.ok(labels('1.20..1.27').includes('resources'));
  assert.ok(!labels('1.20..1.27').includes('labels'), 'kustomize 2.0.3 and 4.0.5 do not read labels');
  assert.ok(labels('1.22..1.27').includes('labels'));
  assert.ok(!labels('1.22..1.27').includes('patchesStrategicMerge'), 'deprecated at 1.27');
  assert.ok(!labels('1.22..1.27').includes('bases'), 'present already, and deprecated');
});

test('through lsp-lint: the example overlay, and --fix leaves no deprecated field and one patches key', () => {
  let out;
  try { out = execFileSync(process.execPath, ['bin/lsp-lint.js', 'examples/kustomize/kustomization.yaml', '--format', 'json'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); } catch (err) { assert.equal(err.status, 1, 'exit 1: an error is reported'); out = err.stdout; }
  assert.deepEqual(JSON.parse(out)[0].messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`),
    ['4:1 kustomize/deprecated-field', '6:1 kustomize/deprecated-field', '8:1 kustomize/deprecated-field', '12:13 k8s/node-component-skew'].map(String));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-fix-'));
  try {
    const file = path.join(dir, 'kustomization.yaml');
    const before = `${K}bases:\n  - base\npatchesStrategicMerge:\n  - replicas.yaml\npatchesJson6902:\n  - target:\n      version: v1\n      kind: Service\n      name: web\n    path: port.yaml\nimageTags:\n  - name: nginx\n    newTag: "1.25"\n`;
    fs.writeFileSync(file, before);
    try { execFileSync(process.execPath, ['bin/lsp-lint.js', '--fix', '--kubernetes-window', '1.27..1.29', file], { cwd: repoRoot, stdio: 'pipe' }); } catch { /* exit 1 when findings remain */ }
    const after = fs.readFileSync(file, 'utf8');
    assert.equal((after.match(/^patches:/gm) ?? []).length, 1, after);
    assert.deepEqual(parse(after), { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['base'],
      patches: [{ path: 'replicas.yaml' }, { target: { version: 'v1', kind: 'Service', name: 'web' }, path: 'port.yaml' }], images: [{ name: 'nginx', newTag: '1.25' }] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The engine's FileAccess over a real folder (what the language server gives it), counting its look-ups. */
function diskFiles() {
  const stat = (p) => { try { return fs.statSync(p); } catch { return undefined; } };
  const files = {
    lookups: 0,
    read(p) { files.lookups++; return stat(p)?.isFile() ? fs.readFileSync(p, 'utf8') : undefined; },
    readBytes(p) { return stat(p)?.isFile() ? fs.readFileSync(p) : undefined; },
    list(p) { files.lookups++; return stat(p)?.isDirectory() ? fs.readdirSync(p, { withFileTypes: true }).map((d) => ({ name: d.name, dir: d.isDirectory() })) : undefined; },
  };
  return files;
}

test('a listed resource, base or patch file that does not exist is a warning at its entry (with file access), bounded', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-res-'));
  try {
    fs.mkdirSync(path.join(dir, 'base'));
    fs.writeFileSync(path.join(dir, 'base', 'kustomization.yaml'), `${K}resources: []\n`);
    fs.writeFileSync(path.join(dir, 'replicas.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n');
    const text = `${K}resources:\n  - base\n  - bsae\n  - https://github.com/example/app//deploy?ref=v1\npatches:\n  - path: replicas.yaml\n  - path: replica.yaml\n`;
    const file = path.join(dir, 'kustomization.yaml');
    const files = diskFiles();
    const r = analyze(file, text, '1.27..1.28', { input: { files } });
    assert.deepEqual(findings(r.diagnostics), ['kustomize/missing-resource @ 5:5', 'kustomize/missing-resource @ 6:5', 'kustomize/missing-resource @ 9:11']);
    assert.match(r.diagnostics[0].message, /the resources entry bsae does not exist/);
    // The remote base is not fetched: said (info, once) as not checked (issue #25).
    assert.equal(r.diagnostics[1].severity, 'info');
    assert.match(r.diagnostics[1].message, /^remote https:\/\/github\.com\/example\/app\/\/deploy\?ref=v1 is not fetched: what it holds is not checked$/);
    // Without file access (a caller that gives none) nothing is looked up, and nothing is claimed.
    assert.deepEqual(findings(analyze(file, text, '1.27..1.28').diagnostics), []);
    // Bounded: a list of 2,000 missing entries costs at most 500 look-ups of each kind.
    const many = `${K}resources:\n${Array.from({ length: 2000 }, (_, i) => `  - r${i}.yaml\n`).join('')}`;
    const counted = diskFiles();
    const big = analyze(file, many, '1.27..1.28', { input: { files: counted } });
    const said = big.diagnostics.filter((d) => d.ruleId === 'kustomize/missing-resource');
    assert.equal(said.filter((d) => d.severity === 'warning').length, 500);
    assert.deepEqual(said.filter((d) => d.severity === 'info').map((d) => d.range.start.line), [503], 'the first entry not looked up says so');
    assert.ok(counted.lookups <= 1000, `${counted.lookups} look-ups`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('kustomize 2.0.3 (kubectl 1.14..1.20) reads resources as files only: a folder there is an error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-v2-'));
  try {
    fs.mkdirSync(path.join(dir, 'base'));
    const text = `${K}resources:\n  - base\n  - deployment.yaml\n`;
    const file = path.join(dir, 'kustomization.yaml');
    const r = analyze(file, text, '1.20..1.21', { input: { files: diskFiles() } });
    assert.deepEqual(findings(r.diagnostics).filter((f) => f.startsWith('kustomize/field-not-read')), ['kustomize/field-not-read @ 4:5']);
    assert.match(r.diagnostics.find((d) => d.ruleId === 'kustomize/field-not-read').message, /is a folder, which 1\.20 \(kustomize 2\.0\.3\) reads only under bases/);
    // From 1.21 (kustomize 4.0.5) resources take folders.
    assert.deepEqual(analyze(file, text, '1.21..1.22', { input: { files: diskFiles() } }).diagnostics.filter((d) => d.ruleId === 'kustomize/field-not-read'), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
