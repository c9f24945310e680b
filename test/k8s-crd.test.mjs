// Issue #16 item 4: the workspace's CustomResourceDefinitions define their custom resources (served, deprecated with its
// warning, storage, openAPIV3Schema), in lsp-lint and in the editor alike; a CRD is checked for changes that break its
// stored objects; .skewguard.yaml's kubernetes.crds points at CRDs outside the workspace.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { withLspClient, makeWorkspace, uriOf, LspClient, applyTextEdits } from './helpers/lsp-client.mjs';
import { fsAccess } from './helpers/fs-access.mjs';
import { CRONTAB_CRD } from './helpers/crds.mjs';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const BACKUP_CRD_V1BETA1 = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: backups.ops.example.com
spec:
  group: ops.example.com
  version: v1
  names: {plural: backups, kind: Backup}
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            schedule: {type: string}
`;
const CRS = `apiVersion: stable.example.com/v1alpha1
kind: CronTab
metadata:
  name: a
---
apiVersion: stable.example.com/v1beta1
kind: CronTab
metadata:
  name: b
spec:
  anything: goes
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: c
  labels: {x: y}
spec:
  cronSpec: "* * * * *"
  replica: 2
  replicas: "3"
  policy: forbid
  template: {free: form}
  selector: {app: c}
status: {whatever: 1}
---
apiVersion: ops.example.com/v1
kind: Backup
metadata:
  name: d
spec:
  schedul: daily
`;

function lint(dir, ...args) {
  try {
    return { code: 0, out: execFileSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), '--format', 'json', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), err: '' };
  } catch (err) { return { code: err.status, out: err.stdout, err: err.stderr }; }
}
/** Where CRS gets its findings from the CronTab and Backup CRDs, wherever those are read from. */
const CRS_FINDINGS = [
  '1:13 k8s/cr-version-not-served', '6:13 k8s/cr-version-deprecated', '20:3 k8s/cr-unknown-field',
  '21:13 k8s/cr-invalid-value', '22:11 k8s/cr-invalid-value', '32:3 k8s/cr-unknown-field',
];
const messagesOf = (out, file) => JSON.parse(out).find((f) => f.filePath.endsWith(file))?.messages ?? [];
const brief = (ms) => ms.map((m) => `${m.line}:${m.column} ${m.severity === 2 || m.severity === 'error' ? 'error' : m.severity === 1 || m.severity === 'warning' ? 'warning' : m.severity} ${m.ruleId}`);

test('lsp-lint: CRs are checked against the CRDs of a Helm chart\'s crds/ folder (multi-document, v1 and v1beta1)', () => {
  const dir = makeWorkspace({ 'charts/app/crds/crds.yaml': `${CRONTAB_CRD}---\n${BACKUP_CRD_V1BETA1}`, 'manifests/crs.yaml': CRS });
  try {
    const r = lint(dir, '--kubernetes-window', '1.30', 'manifests');
    assert.equal(r.code, 1, r.err);
    const ms = messagesOf(r.out, 'manifests/crs.yaml');
    assert.deepEqual(ms.map((m) => `${m.line}:${m.column} ${m.ruleId}`), CRS_FINDINGS);
    assert.match(ms[0].message, /crontabs\.stable\.example\.com \(charts\/app\/crds\/crds\.yaml\) lists it with served: false; it serves v1beta1, v1/);
    assert.match(ms[1].message, /"stable\.example\.com\/v1beta1 CronTab is deprecated; migrate to v1"/);
    assert.match(ms[2].message, /spec\.replica is not in the schema .*drops it/);
    assert.match(ms[3].message, /spec\.replicas is a string; .* says integer/);
    assert.match(ms[4].message, /"forbid" is not one of "Allow", "Forbid".*did you mean Forbid\?/);
    // v1beta1's single spec.version and its CRD-wide spec.validation schema.
    assert.match(ms[5].message, /spec\.schedul is not in the schema of ops\.example\.com\/v1 Backup .*did you mean spec\.schedule\?/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('engine: a CRD in the same file defines its CRs; preserve-unknown-fields, additionalProperties, metadata and status are not judged', () => {
  const text = `${CRONTAB_CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c, annotations: {a: b}}\nspec:\n  template: {any: thing}\n  selector: {x: z}\nstatus: {free: 1}\n`;
  const r = e.analyze({ path: '/x/c.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }) });
  assert.deepEqual(r.diagnostics.filter((d) => d.ruleId.startsWith('k8s/cr')).map((d) => d.ruleId), []);
  // CRLF and a multi-byte character before the key: the position is still the key's (UTF-16 columns).
  const crlf = `${CRONTAB_CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: "é"}\nspec: {cronSpec: "é", replica: 1}\n`.replace(/\n/g, '\r\n');
  const d = e.analyze({ path: '/x/c.yaml', text: crlf, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }) }).diagnostics.filter((x) => x.ruleId === 'k8s/cr-unknown-field');
  assert.deepEqual(d.map((x) => x.range.start), [{ line: 38, character: 22 }]);
  assert.match(d[0].message, /did you mean spec\.replicas\?/);
});

test('engine: a custom resource whose schema check stops at its issue limit says where, instead of passing the rest as checked', () => {
  // 500 unknown keys before spec.cronSpec (a number where the schema says string): the check stops at 500 issues.
  const keys = Array.from({ length: 500 }, (_, i) => `  k${i}: 1\n`).join('');
  const text = `${CRONTAB_CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec:\n${keys}  cronSpec: 5\n`;
  const d = e.analyze({ path: '/x/c.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }) }).diagnostics.filter((x) => x.ruleId.startsWith('k8s/cr-'));
  assert.equal(d.filter((x) => x.ruleId === 'k8s/cr-unknown-field' && x.severity === 'warning').length, 500);
  const cut = d.filter((x) => x.severity === 'info');
  assert.equal(cut.length, 1);
  assert.match(cut[0].message, /^spec\.cronSpec and the rest of this CronTab not checked against the schema in .*: the check stops after 500 issues found$/);
  assert.equal(cut[0].data.notChecked, true, 'a "not checked" note: lsp-lint exits 2 on it unless --allow-unchecked');
  const line = text.split('\n').findIndex((l) => l.startsWith('  cronSpec:'));
  assert.deepEqual(cut[0].range.start, { line, character: 2 });
});

test('engine: the issue limit holds within one object: 600 unknown keys give 500 findings, and the cut is at the 501st key (not at a key before it, not past the rest)', () => {
  // Before: every unknown key of one object was reported (the limit was only looked at between objects), and the cut
  // then named spec.cronSpec, a key before them, while saying "after 500 issues found".
  const keys = Array.from({ length: 600 }, (_, i) => `  k${i}: 1\n`).join('');
  const text = `${CRONTAB_CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec:\n  cronSpec: "1"\n${keys}`;
  const d = e.analyze({ path: '/x/c.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }) }).diagnostics.filter((x) => x.ruleId.startsWith('k8s/cr-'));
  const unknown = d.filter((x) => x.ruleId === 'k8s/cr-unknown-field' && x.severity === 'warning');
  assert.equal(unknown.length, 500);
  assert.equal(unknown.at(-1).data.path, 'spec.k499');
  const cut = d.filter((x) => x.severity === 'info');
  assert.equal(cut.length, 1);
  assert.match(cut[0].message, /^spec\.cronSpec and the rest of this CronTab not checked .*after 500 issues found$/);
  // spec.cronSpec's value was not read yet when the limit was reached (values are read after their object's keys).
  const line = text.split('\n').findIndex((l) => l.startsWith('  cronSpec:'));
  assert.deepEqual(cut[0].range.start, { line, character: 2 });
  // With no key of known value before them, the cut is at the first unknown key not read.
  const bare = `${CRONTAB_CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec:\n${keys}`;
  const d2 = e.analyze({ path: '/x/c.yaml', text: bare, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }) }).diagnostics.filter((x) => x.ruleId.startsWith('k8s/cr-'));
  assert.equal(d2.filter((x) => x.severity === 'warning').length, 500);
  const cut2 = d2.filter((x) => x.severity === 'info');
  assert.match(cut2[0].message, /^spec\.k500 and the rest of this CronTab not checked/);
  assert.deepEqual(cut2[0].range.start, { line: bare.split('\n').indexOf('  k500: 1'), character: 2 });
});

test('engine: a CRD file whose workspace search for custom resources was cut short says so once, instead of passing as "no use"', () => {
  const neighbours = { crds: undefined, customResourceUses: () => ({ uses: [], notRead: 'the workspace walk for CustomResourceDefinitions stopped after 5000 files' }) };
  const text = `${CRONTAB_CRD}---\n${CRONTAB_CRD.replace(/crontabs?/g, 'backup').replace(/CronTab/g, 'Backup')}`;
  const d = e.analyze({ path: '/x/crd.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), neighbours }).diagnostics.filter((x) => x.ruleId === 'k8s/crd-version-in-use');
  assert.deepEqual(d.map((x) => x.severity), ['info']);
  assert.match(d[0].message, /^crontabs\.stable\.example\.com: custom resources of the workspace not all searched \(the workspace walk for CustomResourceDefinitions stopped after 5000 files\)/);
  assert.deepEqual(d[0].range.start, { line: text.split('\n').indexOf('  versions:'), character: 2 });
  // Without a cut, nothing is said.
  const none = e.analyze({ path: '/x/crd.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), neighbours: { crds: undefined, customResourceUses: () => ({ uses: [] }) } }).diagnostics.filter((x) => x.ruleId === 'k8s/crd-version-in-use');
  assert.deepEqual(none, []);
});

test('engine: a custom resource no CRD read defines says so at its apiVersion once per group/kind, naming the CRD files not read', () => {
  const crds = e.workspaceFacts.crdFacts([], ['crds/big.yaml does not parse (bad indentation)']);
  const text = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: c}\n';
  const run = (neighbours) => e.analyze({ path: '/x/cr.yaml', text, config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), neighbours }).diagnostics.filter((x) => x.ruleId === 'k8s/cr-version-not-served');
  const d = run({ crds, customResourceUses: () => ({ uses: [] }) });
  assert.deepEqual(d.map((x) => [x.severity, x.range.start]), [['info', { line: 0, character: 12 }]]);
  assert.equal(d[0].message, 'stable.example.com/v1 CronTab: no CustomResourceDefinition read defines stable.example.com/CronTab, so its version and fields are not checked; not read: crds/big.yaml does not parse (bad indentation)');
  // Every CRD file read and none defines it, and no data speaks for the group: said too, once (never a silent pass).
  const all = run({ crds: e.workspaceFacts.crdFacts([], []), customResourceUses: () => ({ uses: [] }) });
  assert.deepEqual(all.map((x) => [x.severity, x.range.start]), [['info', { line: 0, character: 12 }]]);
  assert.match(all[0].message, /^stable\.example\.com\/v1 CronTab: no CustomResourceDefinition in the workspace defines stable\.example\.com\/CronTab and skewguard has no data for stable\.example\.com, so its version and fields are not checked/);
});

test('a workspace without CRDs or custom resources never gathers CRD facts (the 5,000-document bench pays nothing)', () => {
  let asked = 0;
  const neighbours = { get crds() { asked++; return undefined; }, customResourceUses() { asked++; return { uses: [] }; } };
  const docs = [];
  for (let i = 0; i < 5000; i++) docs.push(`apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: nginx}]}\n`);
  docs.push('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n');
  e.analyze({ path: '/x/big.yaml', text: docs.join('---\n'), config: e.resolveConfig({ cli: { kubernetesWindow: '1.28..1.30' } }), neighbours });
  assert.equal(asked, 0, 'built-in kinds never ask for the workspace CRDs');
  // One custom resource: asked (once per file, memoized), and nothing else changes.
  e.analyze({ path: '/x/cr.yaml', text: 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: y}\n', config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), neighbours });
  assert.equal(asked, 1);
});

test('lsp-lint: a CRD is checked for changes that break its stored objects, and for versions the workspace\'s CRs still use', () => {
  const crd = (versions, status = '') => `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, kind: CronTab}\n  versions:\n${versions}${status}`;
  const v = (name, served, storage) => `  - name: ${name}\n    served: ${served}\n    storage: ${storage}\n`;
  const dir = makeWorkspace({
    'crds/two-storage.yaml': crd(v('v1beta1', true, true) + v('v1', true, true)),
    'crds/no-storage.yaml': crd(v('v1beta1', true, false) + v('v1', true, false)),
    'crds/storage-not-served.yaml': crd(v('v1beta1', false, true) + v('v1', true, false)),
    'crds/stored-removed.yaml': crd(v('v1', true, true), 'status:\n  storedVersions: [v1alpha1, v1]\n'),
    'apps/a.yaml': 'apiVersion: stable.example.com/v1alpha1\nkind: CronTab\nmetadata: {name: a}\n',
    'apps/b.json': '{"apiVersion": "stable.example.com/v1beta1", "kind": "CronTab", "metadata": {"name": "b"}}\n',
  });
  try {
    const r = lint(dir, '--kubernetes-window', '1.30', 'crds');
    const at = (f) => brief(messagesOf(r.out, f)).sort();
    const msg = (f, rule, i = 0) => messagesOf(r.out, f).filter((m) => m.ruleId === rule)[i].message;
    assert.deepEqual(at('crds/two-storage.yaml'), ['15:14 error k8s/crd-storage-version', '9:3 error k8s/crd-version-in-use']);
    assert.match(msg('crds/two-storage.yaml', 'k8s/crd-storage-version'), /v1 is a second storage version \(v1beta1, v1 are marked storage: true\)/);
    assert.match(msg('crds/two-storage.yaml', 'k8s/crd-version-in-use'), /v1alpha1 is not listed, but 1 custom resource of the workspace uses it \(apps\/a\.yaml:1\)/);
    assert.deepEqual(at('crds/no-storage.yaml'), ['9:3 error k8s/crd-storage-version', '9:3 error k8s/crd-version-in-use']);
    assert.match(msg('crds/no-storage.yaml', 'k8s/crd-storage-version'), /no version is marked storage: true/);
    assert.deepEqual(at('crds/storage-not-served.yaml'), ['11:13 error k8s/crd-storage-version', '11:13 error k8s/crd-version-in-use', '9:3 error k8s/crd-version-in-use']);
    assert.match(msg('crds/storage-not-served.yaml', 'k8s/crd-storage-version'), /v1beta1 is the storage version but served: false/);
    assert.match(messagesOf(r.out, 'crds/storage-not-served.yaml').map((m) => m.message).join('\n'), /v1beta1 is served: false, but 1 custom resource .*\(apps\/b\.json:1\)/);
    assert.deepEqual(at('crds/stored-removed.yaml'), ['14:20 error k8s/crd-storage-version', '9:3 error k8s/crd-version-in-use', '9:3 error k8s/crd-version-in-use']);
    assert.match(msg('crds/stored-removed.yaml', 'k8s/crd-storage-version'), /status\.storedVersions names v1alpha1, which spec\.versions no longer lists/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('.skewguard.yaml kubernetes.crds: CRD files and folders outside the workspace (only from a configuration outside it, --config); an unreadable entry is a problem at its line', () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'crds-outside-'));
  fs.mkdirSync(path.join(outside, 'crds'));
  fs.writeFileSync(path.join(outside, 'crds', 'crontab.yaml'), CRONTAB_CRD);
  fs.writeFileSync(path.join(outside, 'backup.yaml'), BACKUP_CRD_V1BETA1);
  fs.writeFileSync(path.join(outside, 'not-a-crd.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  const dir = makeWorkspace({
    '.skewguard.yaml': `kubernetes:\n  window: "1.30"\n  crds:\n    - ${path.join(outside, 'crds')}\n    - ${path.join(outside, 'backup.yaml')}\n`,
    'crs.yaml': CRS,
  });
  try {
    // Issue #25: the repository's .skewguard.yaml does not make skewguard read outside the workspace.
    const refused = lint(dir, 'crs.yaml');
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.err, /\.skewguard\.yaml:4:7: kubernetes\.crds\[0\] ".*crds": outside the workspace, not read/);
    // The user's own configuration, named on the command line, does.
    const own = path.join(outside, 'own.skewguard.yaml');
    fs.writeFileSync(own, fs.readFileSync(path.join(dir, '.skewguard.yaml')));
    const r = lint(dir, '--config', own, 'crs.yaml');
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(messagesOf(r.out, 'crs.yaml').map((m) => m.ruleId), ['k8s/cr-version-not-served', 'k8s/cr-version-deprecated', 'k8s/cr-unknown-field', 'k8s/cr-invalid-value', 'k8s/cr-invalid-value', 'k8s/cr-unknown-field']);
    assert.match(messagesOf(r.out, 'crs.yaml')[0].message, new RegExp(`\\(${path.join(outside, 'crds').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/crontab\\.yaml\\)`));
    // A missing path and a file without a CRD: said in .skewguard.yaml at the entry, not passed over.
    fs.writeFileSync(own, `kubernetes:\n  window: "1.30"\n  crds:\n    - ./missing\n    - ${path.join(outside, 'not-a-crd.yaml')}\n`);
    const bad = lint(dir, '--config', own, 'crs.yaml');
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.err, /own\.skewguard\.yaml:4:7: kubernetes\.crds\[0\] "\.\/missing": cannot be read \(ENOENT\)/);
    assert.match(bad.err, /own\.skewguard\.yaml:5:7: kubernetes\.crds\[1\] ".*not-a-crd\.yaml": the file holds no apiextensions\.k8s\.io CustomResourceDefinition/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); fs.rmSync(outside, { recursive: true, force: true }); }
});

test('a workspace CRD wins over the bundled cert-manager data and the Flux lifecycle rows of its group/kind', () => {
  const cert = 'apiVersion: cert-manager.io/v1alpha2\nkind: Certificate\nmetadata: {name: c}\nspec: {secretName: s}\n';
  const certCrd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: certificates.cert-manager.io}\nspec:\n  group: cert-manager.io\n  scope: Namespaced\n  names: {plural: certificates, kind: Certificate}\n  versions:\n  - {name: v1alpha2, served: true, storage: false, deprecated: true}\n  - {name: v1, served: true, storage: true}\n`;
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.30', componentVersions: { 'cert-manager': '1.8' } } });
  const ids = (text) => e.analyze({ path: '/x/c.yaml', text, config }).diagnostics.map((d) => d.ruleId);
  assert.deepEqual(ids(cert), ['k8s/operator-api-not-served'], 'without a CRD the bundled operator data (not served from cert-manager 1.6) applies');
  assert.deepEqual(ids(`${certCrd}---\n${cert}`), ['k8s/cr-version-deprecated'], 'the installed CRD serves it, deprecated');
  const m = e.analyze({ path: '/x/c.yaml', text: `${certCrd}---\n${cert}`, config }).diagnostics[0].message;
  assert.match(m, /"cert-manager\.io\/v1alpha2 Certificate is deprecated; use cert-manager\.io\/v1 Certificate" \(the API server's default warning/);
  // A CRD-provided *.k8s.io group (external-snapshotter's): the workspace's CRD wins over the Kubernetes row too.
  const vs = 'apiVersion: snapshot.storage.k8s.io/v1beta1\nkind: VolumeSnapshot\nmetadata: {name: s}\nspec: {source: {persistentVolumeClaimName: p}}\n';
  const vsCrd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: volumesnapshots.snapshot.storage.k8s.io}\nspec:\n  group: snapshot.storage.k8s.io\n  scope: Namespaced\n  names: {plural: volumesnapshots, kind: VolumeSnapshot}\n  versions:\n  - {name: v1beta1, served: false, storage: false}\n  - {name: v1, served: true, storage: true}\n';
  const k8sConfig = e.resolveConfig({ cli: { kubernetesWindow: '1.30' } });
  const vids = (text) => e.analyze({ path: '/x/s.yaml', text, config: k8sConfig }).diagnostics.map((d) => d.ruleId);
  assert.deepEqual(vids(vs), ['k8s/deprecated-api']);
  assert.deepEqual(vids(`${vsCrd}---\n${vs}`), ['k8s/crd-version-in-use', 'k8s/cr-version-not-served']);
  // Flux on a StarlingX path: helm.toolkit.fluxcd.io/v2beta1 is not served by 12.0's Flux, unless the workspace installs its own CRD.
  const hr = 'apiVersion: helm.toolkit.fluxcd.io/v2beta1\nkind: HelmRelease\nmetadata: {name: h}\nspec: {interval: 5m}\n';
  const fluxConfig = e.resolveConfig({ cli: { starlingxRelease: '12.0' } });
  const fids = (text) => e.analyze({ path: '/x/h.yaml', text, config: fluxConfig }).diagnostics.map((d) => d.ruleId).filter((id) => /flux|crd?-/.test(id));
  assert.ok(fids(hr).includes('k8s/flux-api-not-served'), JSON.stringify(fids(hr)));
  const hrCrd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: helmreleases.helm.toolkit.fluxcd.io}\nspec:\n  group: helm.toolkit.fluxcd.io\n  scope: Namespaced\n  names: {plural: helmreleases, kind: HelmRelease}\n  versions:\n  - {name: v2beta1, served: false, storage: false}\n  - {name: v2, served: true, storage: true}\n`;
  assert.deepEqual(fids(`${hrCrd}---\n${hr}`).filter((id) => id !== 'k8s/flux-controller-not-deployed'), ['k8s/crd-version-in-use', 'k8s/cr-version-not-served']);
});

test('LSP: editing a CRD re-checks the open custom resources; a CRD changed on disk too (didChangeWatchedFiles)', async () => {
  // The CRD on disk has a byte order mark, which the editor's buffer does not: still the same text.
  await withLspClient({ 'crds/crontab.yaml': `\uFEFF${CRONTAB_CRD}`, 'crs/c.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec: {cronSpec: x}\n', 'other/o.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: o}\n' }, async (client, dir) => {
    const cr = uriOf(path.join(dir, 'crs/c.yaml'));
    const first = await client.open(cr, fs.readFileSync(path.join(dir, 'crs/c.yaml'), 'utf8'));
    assert.deepEqual(first.diagnostics.map((d) => d.code), []);
    await new Promise((r) => setTimeout(r, 300)); // the folder-scoped settings' re-check of the CR itself
    // Opening the CRD with the disk's text changes nothing: the CR is not checked again.
    const crdUri = uriOf(path.join(dir, 'crds/crontab.yaml'));
    const before = client.count(cr);
    await client.open(crdUri, CRONTAB_CRD);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(client.count(cr), before, 'a CRD buffer equal to the disk does not re-check the others');
    // The CRD stops serving v1 in the editor: the open CR is checked again and says so.
    const edited = CRONTAB_CRD.replace(/name: v1\n    served: true/, 'name: v1\n    served: false');
    const since = client.count(cr);
    await client.notify('textDocument/didChange', { textDocument: { uri: crdUri, version: 2 }, contentChanges: [{ text: edited }] });
    const again = await client.waitFor(cr, (p) => p.diagnostics.some((d) => d.code === 'k8s/cr-version-not-served'), { since });
    assert.match(again.diagnostics[0].message, /lists it with served: false; it serves v1beta1/);
    // Closed, the disk's text counts again: v1 served, the finding goes.
    const since2 = client.count(cr);
    await client.notify('textDocument/didClose', { textDocument: { uri: crdUri } });
    await client.waitFor(cr, (p) => p.diagnostics.length === 0, { since: since2 });
    // Changed on disk, reported by the client's file watcher: checked again.
    fs.writeFileSync(path.join(dir, 'crds/crontab.yaml'), CRONTAB_CRD.replace('name: v1\n    served: true\n    storage: true', 'name: v1\n    served: true\n    storage: true\n    deprecated: true'));
    const since3 = client.count(cr);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: crdUri, type: 2 }] });
    const dep = await client.waitFor(cr, (p) => p.diagnostics.some((d) => d.code === 'k8s/cr-version-deprecated'), { since: since3 });
    assert.match(dep.diagnostics.find((d) => d.code === 'k8s/cr-version-deprecated').message, /stable\.example\.com\/v1 CronTab is deprecated/);
  });
});

/**
 * The open CRD (served: false for v1alpha1) is clean; the custom resource file, opened as `before`, is edited to use
 * stable.example.com/v1alpha1: the CRD is checked again and names the use.
 */
async function crMovesToUnservedVersion(before) {
  const crd = CRONTAB_CRD;
  const after = 'apiVersion: stable.example.com/v1alpha1\nkind: CronTab\nmetadata: {name: c}\n';
  await withLspClient({ 'crds/crontab.yaml': crd, 'crs/c.yaml': before }, async (client, dir) => {
    const crdUri = uriOf(path.join(dir, 'crds/crontab.yaml'));
    const crUri = uriOf(path.join(dir, 'crs/c.yaml'));
    // The CRD's check asks for its group's uses first (the files naming stable.example.com are indexed then).
    const first = await client.open(crdUri, crd);
    assert.deepEqual(first.diagnostics.map((d) => d.code), []);
    await client.open(crUri, before);
    const since = client.count(crdUri);
    await client.notify('textDocument/didChange', { textDocument: { uri: crUri, version: 2 }, contentChanges: [{ text: after }] });
    const p = await client.waitFor(crdUri, (x) => x.diagnostics.some((d) => d.code === 'k8s/crd-version-in-use'), { since });
    assert.match(p.diagnostics[0].message, /stable\.example\.com\/v1alpha1 is served: false, but 1 custom resource of the workspace uses it \(crs\/c\.yaml:1\)/);
    assert.deepEqual(p.diagnostics[0].range.start, { line: 10, character: 12 });
  });
}

test('LSP: a custom resource moved to a version its CRD no longer serves re-checks the open CRD (k8s/crd-version-in-use)', async () => {
  await crMovesToUnservedVersion('apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\n');
});

test('LSP: a file that starts using a CRD\'s group (it used another group before) re-checks the open CRD: the index of files by group follows the edit', async () => {
  await crMovesToUnservedVersion('apiVersion: other.example.com/v1\nkind: Widget\nmetadata: {name: c}\n');
});

/** A packaged chart dependency `<dir>/charts/<name>-1.0.0.tgz` made by tar from `files` (chart-relative, under `<name>/`). */
function packChart(dir, name, files, links = {}) {
  const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-pkg-'));
  try {
    for (const [rel, text] of Object.entries({ 'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`, ...files })) {
      fs.mkdirSync(path.dirname(path.join(pkg, name, rel)), { recursive: true });
      fs.writeFileSync(path.join(pkg, name, rel), text);
    }
    for (const [rel, target] of Object.entries(links)) fs.symlinkSync(target, path.join(pkg, name, rel));
    fs.mkdirSync(path.join(dir, 'charts'), { recursive: true });
    const tgz = path.join(dir, 'charts', `${name}-1.0.0.tgz`);
    execFileSync('tar', ['-czf', tgz, '-C', pkg, name]);
    return tgz;
  } finally { fs.rmSync(pkg, { recursive: true, force: true }); }
}
const SUB_CRD = CRONTAB_CRD.replace('  - name: v1alpha1\n    served: false\n    storage: false\n', '');

test('lsp-lint: the CRDs of a packaged chart dependency (charts/*.tgz: its crds/ and templates) define custom resources; an archive not read is named', () => {
  const dir = makeWorkspace({ 'app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n', 'manifests/crs.yaml': CRS });
  try {
    packChart(path.join(dir, 'app'), 'dep', { 'crds/crontab.yaml': SUB_CRD, 'templates/backup-crd.yaml': BACKUP_CRD_V1BETA1 });
    const r = lint(dir, '--kubernetes-window', '1.30', 'manifests');
    assert.equal(r.code, 1, r.err);
    const ms = messagesOf(r.out, 'manifests/crs.yaml');
    // As with the CRDs on disk (first test), less v1alpha1, which this CRD does not list.
    assert.deepEqual(ms.map((m) => `${m.line}:${m.column} ${m.ruleId}`), CRS_FINDINGS);
    assert.match(ms[0].message, /the CustomResourceDefinition crontabs\.stable\.example\.com \(app\/charts\/dep-1\.0\.0\.tgz!dep\/crds\/crontab\.yaml\) does not list it/);
    assert.match(ms[5].message, /\(app\/charts\/dep-1\.0\.0\.tgz!dep\/templates\/backup-crd\.yaml\)/);
    // An archive that cannot be read, and a link inside one: a custom resource no CRD read defines names them.
    fs.writeFileSync(path.join(dir, 'app', 'charts', 'broken-1.0.0.tgz'), 'not gzip\n');
    packChart(path.join(dir, 'app'), 'linked', { 'crds/real.yaml': 'a: 1\n' }, { 'crds/widget.yaml': 'real.yaml' });
    fs.writeFileSync(path.join(dir, 'manifests', 'widget.yaml'), 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: w}\n');
    const w = messagesOf(lint(dir, '--kubernetes-window', '1.30', 'manifests').out, 'manifests/widget.yaml');
    assert.deepEqual(brief(w), ['1:13 info k8s/cr-version-not-served']);
    assert.match(w[0].message, /no CustomResourceDefinition read defines widgets\.example\.com\/Widget, so its version and fields are not checked; not read: app\/charts\/broken-1\.0\.0\.tgz was not read \(not a gzip archive .*\); app\/charts\/linked-1\.0\.0\.tgz!linked\/crds\/widget\.yaml: a symbolic link to real\.yaml in the archive: not read/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('LSP: a packaged chart dependency changed on disk (didChangeWatchedFiles) re-checks the open custom resources against its CRDs', async () => {
  await withLspClient({ 'app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n', 'crs/c.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec: {cronSpec: x}\n' }, async (client, dir) => {
    const tgz = packChart(path.join(dir, 'app'), 'dep', { 'crds/crontab.yaml': SUB_CRD });
    const cr = uriOf(path.join(dir, 'crs/c.yaml'));
    const first = await client.open(cr, fs.readFileSync(path.join(dir, 'crs/c.yaml'), 'utf8'));
    assert.deepEqual(first.diagnostics.map((d) => d.code), []);
    packChart(path.join(dir, 'app'), 'dep', { 'crds/crontab.yaml': SUB_CRD.replace(/name: v1\n    served: true/, 'name: v1\n    served: false') });
    const since = client.count(cr);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(tgz), type: 2 }] });
    const p = await client.waitFor(cr, (x) => x.diagnostics.some((d) => d.code === 'k8s/cr-version-not-served'), { since });
    assert.match(p.diagnostics[0].message, /\(app\/charts\/dep-1\.0\.0\.tgz!dep\/crds\/crontab\.yaml\) lists it with served: false/);
  });
});

// Custom resources a chart's templates render: checked against the workspace's CRDs by the same k8s/cr-* rules, at the
// template's own positions (a literal: its span; a value: the action; a define's output: the include).
const CRON_TEMPLATE = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: {{ .Release.Name }}-cron
spec:
  cronSpec: {{ .Values.schedule | quote }}
  replica: 2
  policy: {{ .Values.policy }}
  {{- if semverCompare ">=1.30-0" .Capabilities.KubeVersion.Version }}
  selector: {app: 3}
  {{- end }}
  template: {{ .Values.free | someUnknownFunc }}
---
apiVersion: stable.example.com/v1alpha1
kind: CronTab
metadata:
  name: old
`;
const APP_CHART = { 'app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n', 'app/values.yaml': 'schedule: "0 3 * * *"\npolicy: forbid\n' };

test('engine: a chart template\'s rendered custom resources are checked against the workspace CRDs at the template\'s positions, with fixes only where the text is the template\'s own', () => {
  const dir = makeWorkspace({ ...APP_CHART, 'app/templates/cron.yaml': CRON_TEMPLATE });
  try {
    const file = path.join(dir, 'app/templates/cron.yaml');
    const crds = e.workspaceFacts.crdFacts([{ file: 'crds/crontab.yaml', defs: e.workspaceFacts.crdsOfText(CRONTAB_CRD, 'crds/crontab.yaml') }], []);
    const r = e.analyze({ path: file, text: CRON_TEMPLATE, config: e.resolveConfig({ cli: { kubernetesWindow: '1.29..1.30' } }), files: fsAccess(), neighbours: { crds, customResourceUses: () => ({ uses: [] }) } });
    const ds = r.diagnostics.filter((d) => /^k8s\/cr-|^helm\/not-evaluated/.test(d.ruleId));
    assert.deepEqual(ds.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.ruleId}`), [
      '7:3 k8s/cr-unknown-field', '8:11 k8s/cr-invalid-value', '10:19 k8s/cr-invalid-value', '12:13 helm/not-evaluated', '14:13 k8s/cr-version-not-served',
    ], ds.map((d) => d.message).join('\n'));
    const [unknown, fromValues, someSteps, note, notServed] = ds;
    assert.match(unknown.message, /^spec\.replica is not in the schema of stable\.example\.com\/v1 CronTab in the CustomResourceDefinition crontabs\.stable\.example\.com \(crds\/crontab\.yaml\); the API server drops it \(pruning\); did you mean spec\.replicas\?$/);
    assert.deepEqual(unknown.range.end, { line: 6, character: 9 });
    // The literal key's rename is the template's own text: the fix edits the template.
    assert.deepEqual(unknown.fixes.map((f) => f.title), ['Rename replica to replicas']);
    assert.match(applyTextEdits(CRON_TEMPLATE, unknown.fixes[0].edits), /\n {2}replicas: 2\n/);
    // A value from values.yaml: said at the action that prints it, without a fix (the template's text is not the value).
    assert.match(fromValues.message, /^spec\.policy "forbid" is not one of "Allow", "Forbid" .*did you mean Forbid\?$/);
    assert.deepEqual([fromValues.range.start, fromValues.range.end], [{ line: 7, character: 10 }, { line: 7, character: 30 }]);
    assert.deepEqual(fromValues.fixes ?? [], []);
    // Rendered at 1.30 only (a .Capabilities branch): said with its steps.
    assert.match(someSteps.message, /^at 1\.30: spec\.selector\.app is an integer; the schema .* says string/);
    // A value the evaluator cannot compute is never judged (its placeholder is no string): said as not checked, at its action.
    assert.equal(note.severity, 'info');
    assert.match(note.message, /^not checked at 1\.29, 1\.30 against the CustomResourceDefinition crontabs\.stable\.example\.com \(crds\/crontab\.yaml\): function someUnknownFunc is not known/);
    assert.equal(note.data.notChecked, true, 'a "not checked" note: lsp-lint exits 2 on it unless --allow-unchecked');
    assert.ok(!ds.some((d) => /spec\.template is a/.test(d.message)));
    assert.match(notServed.message, /^stable\.example\.com\/v1alpha1 CronTab: the CustomResourceDefinition crontabs\.stable\.example\.com \(crds\/crontab\.yaml\) lists it with served: false/);
    assert.match(applyTextEdits(CRON_TEMPLATE, notServed.fixes[0].edits), /\napiVersion: stable\.example\.com\/v1\nkind: CronTab\nmetadata:\n {2}name: old\n$/);
    // Without CRDs, and for a chart of Kubernetes' own kinds, no CRD facts are gathered.
    let asked = 0;
    const counting = { get crds() { asked++; return undefined; }, customResourceUses() { asked++; return { uses: [] }; } };
    e.analyze({ path: file, text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n', config: e.resolveConfig({ cli: { kubernetesWindow: '1.30' } }), files: fsAccess(), neighbours: counting });
    assert.equal(asked, 0);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('lsp-lint and the editor: custom resources rendered from chart templates (a define\'s output, a packaged dependency\'s templates, CRLF) are checked against the chart\'s and its dependencies\' CRDs, the same in both', async (t) => {
  const dir = makeWorkspace({
    ...APP_CHART,
    'app/crds/crontab.yaml': CRONTAB_CRD,
    'app/templates/_helpers.tpl': '{{- define "app.spec" -}}\nreplicaz: 1\ncronSpec: "x"\n{{- end }}\n',
    'app/templates/inc.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: inc\nspec:\n  {{- include "app.spec" . | nindent 2 }}\n',
    'app/templates/crlf.yaml': 'apiVersion: stable.example.com/v1\r\nkind: CronTab\r\nmetadata:\r\n  name: "é"\r\nspec: {cronSpec: "é", replica: 1}\r\n',
    'app/templates/backup.yaml': 'apiVersion: ops.example.com/v1\nkind: Backup\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  schedul: daily\n',
  });
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // The Backup CRD ships in a packaged dependency, whose own template renders a Backup too.
  packChart(path.join(dir, 'app'), 'dep', { 'crds/backup.yaml': BACKUP_CRD_V1BETA1, 'templates/b.yaml': 'apiVersion: ops.example.com/v1\nkind: Backup\nmetadata:\n  name: inner\nspec:\n  schedule: 5\n' });
  const r = lint(dir, '--kubernetes-window', '1.30', 'app');
  const at = (f) => messagesOf(r.out, f).filter((m) => /^k8s\/cr-/.test(m.ruleId)).map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`);
  const inc = at('app/templates/inc.yaml');
  assert.equal(inc.length, 1, r.out);
  assert.match(inc[0], /^6:3 k8s\/cr-unknown-field spec\.replicaz is not in the schema .*\(app\/crds\/crontab\.yaml\).*did you mean spec\.replicas\? \(from the define "app\.spec" in templates\/_helpers\.tpl\)$/);
  assert.deepEqual(at('app/templates/crlf.yaml').map((m) => m.split(' ').slice(0, 2).join(' ')), ['5:23 k8s/cr-unknown-field']);
  const backup = at('app/templates/backup.yaml');
  assert.equal(backup.length, 1);
  assert.match(backup[0], /^6:3 k8s\/cr-unknown-field spec\.schedul is not in the schema of ops\.example\.com\/v1 Backup in the CustomResourceDefinition backups\.ops\.example\.com \(app\/charts\/dep-1\.0\.0\.tgz!dep\/crds\/backup\.yaml\)/);
  // A packaged dependency's template: said on the archive, at the template's line.
  assert.deepEqual(at('app/charts/dep-1.0.0.tgz').map((m) => m.replace(/ the schema.*/, '')), ['1:1 k8s/cr-invalid-value charts/dep/templates/b.yaml:6: spec.schedule is an integer;']);
  // The editor says the same of each template.
  const client = new LspClient(dir, { settings: { kubernetes: { window: '1.30' } } });
  t.after(() => client.kill());
  await client.initialize();
  for (const f of ['app/templates/inc.yaml', 'app/templates/crlf.yaml', 'app/templates/backup.yaml']) {
    const p = await client.open(uriOf(path.join(dir, f)), fs.readFileSync(path.join(dir, f), 'utf8'));
    const editor = p.diagnostics.filter((d) => /^k8s\/cr-/.test(d.code)).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);
    assert.deepEqual(editor, at(f), f);
  }
});

test('engine: crdsOfArchive reads a packaged chart\'s CRDs in memory and names what it does not read (a packaged chart inside it, an archive that is not gzip)', () => {
  const dir = makeWorkspace({ 'Chart.yaml': 'apiVersion: v2\nname: top\nversion: 1.0.0\n' });
  try {
    const inner = packChart(path.join(dir, 'in'), 'inner', { 'crds/backup.yaml': BACKUP_CRD_V1BETA1 });
    const outer = path.join(dir, 'pkg');
    fs.mkdirSync(path.join(outer, 'dep', 'charts'), { recursive: true });
    fs.copyFileSync(inner, path.join(outer, 'dep', 'charts', 'inner-1.0.0.tgz'));
    fs.writeFileSync(path.join(outer, 'dep', 'Chart.yaml'), 'apiVersion: v2\nname: dep\nversion: 1.0.0\n');
    fs.mkdirSync(path.join(outer, 'dep', 'crds'));
    fs.writeFileSync(path.join(outer, 'dep', 'crds', 'crontab.yaml'), SUB_CRD);
    const tgz = path.join(dir, 'dep.tgz');
    execFileSync('tar', ['-czf', tgz, '-C', outer, 'dep']);
    const got = e.workspaceFacts.crdsOfArchive(fs.readFileSync(tgz), 'charts/dep.tgz');
    assert.deepEqual(got.found.map((f) => [f.file, f.defs.map((d) => d.name)]), [['charts/dep.tgz!dep/crds/crontab.yaml', ['crontabs.stable.example.com']]]);
    assert.deepEqual(got.notRead, ['charts/dep.tgz!dep/charts/inner-1.0.0.tgz: a packaged chart inside a packaged chart is not read']);
    assert.deepEqual(e.workspaceFacts.crdsOfArchive(Buffer.from('not gzip'), 'charts/x.tgz').notRead.map((n) => n.replace(/\(.*/, '')), ['charts/x.tgz was not read ']);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

// The CRD index's summary of a file (crd-index.ts summaryOf) finds its apiVersions by a search for "Versio": the same
// groups and versions as the two expressions it replaced (the YAML one at each line start, the JSON one over the text),
// on texts made of apiVersion lines and near misses, YAML and JSON, CR and LF and Unicode line ends.
test('the CRD index finds the apiVersions of a text as the line and JSON expressions did', async () => {
  const { loadSource } = await import('./helpers/source-module.mjs');
  const { summaryOf, mayBeCustomGroup } = await loadSource({ contents: "export { summaryOf } from './server/src/engine/families/kubernetes/crd-index'; export { mayBeCustomGroup } from './server/src/engine/families/kubernetes/crds';" }, { packagesExternal: true });
  const reference = (text) => {
    const groups = new Set(), versions = new Set();
    const found = (g, v) => { if (mayBeCustomGroup(g)) { groups.add(g); versions.add(`${g}/${v}`); } };
    for (const m of text.matchAll(/^[ \t]*(?:-[ \t]+)?["']?apiVersion["']?[ \t]*:[ \t]*["']?([A-Za-z0-9.-]+)\/([A-Za-z0-9]+)/gm)) found(m[1], m[2]);
    for (const m of text.matchAll(/"apiVersion"\s*:\s*"([A-Za-z0-9.-]+)\/([A-Za-z0-9]+)"/g)) found(m[1], m[2]);
    return { groups: [...groups].sort(), versions: [...versions].sort() };
  };
  const pieces = ['apiVersion: stable.example.com/v1', 'apiVersion: "cert-manager.io/v1"', "'apiVersion': x.io/v2", '- apiVersion: a.b/v1beta1',
    '"apiVersion": "monitoring.coreos.com/v1"', '"apiVersion":"c.d/v1"', '"apiVersion" : "e.f/v2"', 'apiVersion', 'Version', 'Versio', 'apiVersio',
    '"apiVersion"', 'apiVersion":"m.n/v1"', 'kind: X', '  ', '\t', '\n', '\r', '\r\n', '\u2028', '"', '- ', '# apiVersion: g.h/v1', 'xapiVersion: i.j/v1', ': k.l/v1', 'apps/v1', '{'];
  let seed = 41;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >>> 8) % n; };
  let some = 0;
  for (let k = 0; k < 3000; k++) {
    let text = '';
    for (let p = rnd(10); p >= 0; p--) text += pieces[rnd(pieces.length)];
    const want = reference(text);
    const got = summaryOf('/w/f.yaml', text);
    if (want.groups.length) some++;
    assert.deepEqual({ groups: got.groups, versions: got.versions }, want, JSON.stringify(text));
  }
  assert.ok(some > 500, `${some} of 3000 texts name a custom group`);
});
