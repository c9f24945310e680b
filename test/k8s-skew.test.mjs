// Cross-component skew rules: Calico manifests against the window (k8s/component-not-validated, with the API
// lifecycle rules that fire on the same files), static-pod folders against the version-skew policy of the
// release in question (k8s/control-plane-skew, k8s/node-component-skew) through lsp-lint on the folder and
// through analyze() with neighbours, the kubeadm ClusterConfiguration against localhost.yml
// (k8s/kubeadm-version-mismatch), and how container images are parsed.
// The Calico manifests in test/fixtures/kubernetes/calico/ are constructed (see SOURCES.md there).
// Reads only the repo and temporary folders it makes. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML from 'yaml';
import { repoRoot, engine as e, findings, applyEdits } from './helpers/k8s.mjs';

const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');
const calicoDir = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'calico');
const CALICO_312 = fs.readFileSync(path.join(calicoDir, 'calico-v3.12.yaml'), 'utf8');
const CALICO_319 = fs.readFileSync(path.join(calicoDir, 'calico-v3.19.yaml'), 'utf8');
const asOf = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8')).asOf;

const config = (kubernetesWindow, starlingxRelease) => e.resolveConfig({ cli: { kubernetesWindow, starlingxRelease } });
const analyze = (file, text, window, { release, neighbours } = {}) => e.analyze({ path: file, text, config: config(window, release), neighbours });
const only = (diags, rule) => diags.filter((d) => d.ruleId === rule);
const lineOf = (text, needle, from = 0) => text.split('\n').findIndex((l, i) => i >= from && l.includes(needle)) + 1;

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-skew-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** lsp-lint --format json in `cwd`; { code, byFile: { relative path: ["line:col severity rule message"] } }. */
function lint(cwd, args) {
  const env = { ...process.env, SKEWGUARD_TODAY: new Date(Date.parse(asOf) + 86400000).toISOString() };
  delete env.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, '--format', 'json', ...args], { cwd, encoding: 'utf8', env, timeout: 60000 });
  assert.equal(r.error, undefined, `spawn failed: ${r.error}`);
  assert.doesNotMatch(r.stderr, /internal error|exited unexpectedly/, r.stderr);
  const byFile = {};
  for (const rep of JSON.parse(r.stdout)) {
    byFile[path.relative(cwd, rep.filePath).split(path.sep).join('/')] = rep.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId} ${m.message}`);
  }
  return { code: r.status, byFile };
}

// ---------------------------------------------------------------------------------------------
// Calico manifests v3.12 and v3.19 (constructed fixtures, structure of the release calico.yaml)

const CRD_LINES_312 = [56, 70, 84, 98, 112, 126, 140, 154, 168, 182, 196, 210, 224, 238];
const IMAGE_LINES_312 = [497, 519, 555, 566, 733]; // upgrade-ipam, install-cni, flexvol-driver, calico-node, calico-kube-controllers
const IMAGE_LINES_319 = [864, 886, 922, 933, 1100];
const PDB_LINE_319 = 1125;
const crdFindings = CRD_LINES_312.map((l) => `k8s/deprecated-api @ ${l}:13`);
const imageFindings = (lines) => lines.map((l) => `k8s/component-not-validated @ ${l}:18`);
const sortFindings = (list) => [...list].sort((a, b) => {
  const [la, ca] = a.split(' @ ')[1].split(':').map(Number);
  const [lb, cb] = b.split(' @ ')[1].split(':').map(Number);
  return la - lb || ca - cb;
});

test('the constructed Calico fixtures have the shape of the release manifests they stand for', () => {
  const kinds = (text) => YAML.parseAllDocuments(text).map((d) => { const v = d.toJS(); return v && `${v.apiVersion} ${v.kind} ${v.metadata?.name}`; });
  const k312 = kinds(CALICO_312);
  const k319 = kinds(CALICO_319);
  assert.equal(k312.filter((k) => k.startsWith('apiextensions.k8s.io/v1beta1 CustomResourceDefinition')).length, 14);
  assert.equal(k319.filter((k) => k.startsWith('apiextensions.k8s.io/v1 CustomResourceDefinition')).length, 15);
  for (const k of [k312, k319]) {
    assert.ok(k.includes('apps/v1 DaemonSet calico-node'));
    assert.ok(k.includes('apps/v1 Deployment calico-kube-controllers'));
  }
  assert.ok(k319.includes('policy/v1beta1 PodDisruptionBudget calico-kube-controllers'));
  assert.ok(!k312.some((k) => /PodDisruptionBudget/.test(k)));
  const images = (text) => [...text.matchAll(/^\s*image: (\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(images(CALICO_312), ['calico/cni:v3.12.0', 'calico/cni:v3.12.0', 'calico/pod2daemon-flexvol:v3.12.0', 'calico/node:v3.12.0', 'calico/kube-controllers:v3.12.0']);
  assert.deepEqual(images(CALICO_319), ['docker.io/calico/cni:v3.19.1', 'docker.io/calico/cni:v3.19.1', 'docker.io/calico/pod2daemon-flexvol:v3.19.1', 'docker.io/calico/node:v3.19.1', 'docker.io/calico/kube-controllers:v3.19.1']);
  // The line numbers the tests below use.
  assert.deepEqual(IMAGE_LINES_312, [lineOf(CALICO_312, 'calico/cni:'), lineOf(CALICO_312, 'calico/cni:', 497), lineOf(CALICO_312, 'pod2daemon'), lineOf(CALICO_312, 'calico/node:'), lineOf(CALICO_312, 'kube-controllers:v')]);
  assert.equal(lineOf(CALICO_319, 'policy/v1beta1'), PDB_LINE_319);
});

const CRD_MESSAGE = (window) => `apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated from Kubernetes 1.16 and removed in 1.22 (window ${window}); move to apiextensions.k8s.io/v1, served across the whole window`;
const PDB_MESSAGE = (window) => `policy/v1beta1 PodDisruptionBudget is deprecated from Kubernetes 1.21 and removed in 1.25 (window ${window}); policy/v1 is served only from 1.21 in this window, so it cannot replace it before the window starts at 1.21 or later`;
const STX6_NOTE = '; StarlingX 6.0 ships 3.12.0 on 1.18, 3.19.1 on 1.19, 3.19.1 on 1.20, 3.19.1 on 1.21';

const CALICO_CASES = [
  {
    file: 'calico-v3.12.yaml', text: CALICO_312, window: '1.18..1.18',
    expect: [...crdFindings, ...imageFindings(IMAGE_LINES_312)],
    message: 'Calico v3.12.0 is not validated for Kubernetes 1.18 (upstream lists it for 1.14..1.17; window 1.18); Calico 3.14 is validated for every version of the window (e.g. v3.14.0)',
    fix: 'v3.14.0', crd: CRD_MESSAGE('1.18'),
  },
  {
    file: 'calico-v3.12.yaml', text: CALICO_312, window: '1.19..1.21',
    expect: [...crdFindings, ...imageFindings(IMAGE_LINES_312)],
    message: 'Calico v3.12.0 is not validated for Kubernetes 1.19, 1.20, 1.21 (upstream lists it for 1.14..1.17; window 1.19..1.21); Calico 3.19 is validated for every version of the window (e.g. v3.19.1)',
    fix: 'v3.19.1', crd: CRD_MESSAGE('1.19..1.21'),
  },
  {
    file: 'calico-v3.12.yaml', text: CALICO_312, window: '1.18..1.21',
    expect: [...crdFindings, ...imageFindings(IMAGE_LINES_312)],
    message: 'Calico v3.12.0 is not validated for Kubernetes 1.18, 1.19, 1.20, 1.21 (upstream lists it for 1.14..1.17; window 1.18..1.21); no Calico version is validated for the whole window: Calico 3.18 for 1.18..1.20, then Calico 3.19 for 1.21 (change it at the step to 1.21)',
    fix: null, crd: CRD_MESSAGE('1.18..1.21'),
  },
  {
    file: 'calico-v3.19.yaml', text: CALICO_319, window: '1.18..1.18',
    expect: imageFindings(IMAGE_LINES_319),
    message: 'Calico v3.19.1 is not validated for Kubernetes 1.18 (upstream lists it for 1.19..1.21; window 1.18); Calico 3.18 is validated for every version of the window (e.g. v3.18.0)',
    fix: 'v3.18.0',
  },
  {
    file: 'calico-v3.19.yaml', text: CALICO_319, window: '1.19..1.21',
    expect: [`k8s/deprecated-api @ ${PDB_LINE_319}:13`], pdb: PDB_MESSAGE('1.19..1.21'),
  },
  {
    file: 'calico-v3.19.yaml', text: CALICO_319, window: '1.18..1.21',
    expect: [...imageFindings(IMAGE_LINES_319), `k8s/deprecated-api @ ${PDB_LINE_319}:13`],
    message: 'Calico v3.19.1 is not validated for Kubernetes 1.18 (upstream lists it for 1.19..1.21; window 1.18..1.21); no Calico version is validated for the whole window: Calico 3.18 for 1.18, then Calico 3.19 for 1.19..1.21 (change it at the step to 1.19)',
    fix: null, pdb: PDB_MESSAGE('1.18..1.21'),
  },
];

for (const c of CALICO_CASES) {
  test(`${c.file} under ${c.window}: exact findings of every rule, severities, messages and fixes`, () => {
    const r = analyze(`/w/${c.file}`, c.text, c.window);
    assert.deepEqual(findings(r.diagnostics), sortFindings(c.expect));
    assert.ok(r.diagnostics.every((d) => d.severity === 'warning'), 'nothing here is an error: upstream documents no incompatibility, no API is removed in the window');
    for (const d of only(r.diagnostics, 'k8s/component-not-validated')) {
      assert.equal(d.message, c.message);
      if (c.fix) {
        assert.equal(d.fixes.length, 1);
        assert.equal(d.fixes[0].title, `Use Calico ${c.fix}`);
        assert.equal(d.fixes[0].edits.length, 1);
        assert.equal(d.fixes[0].edits[0].newText, c.fix);
        assert.ok(!d.fixes[0].preferred, 'a suggestion: lsp-lint --fix does not apply it');
      } else assert.deepEqual(d.fixes, []);
    }
    for (const d of only(r.diagnostics, 'k8s/deprecated-api')) {
      if (c.crd) {
        assert.equal(d.message, c.crd);
        assert.equal(d.fixes.length, 1);
        assert.ok(d.fixes[0].partial, 'the CRD conversion is partial (v1 needs a structural schema)');
        assert.match(d.fixes[0].title, /^Change apiVersion to apiextensions\.k8s\.io\/v1 — partial/);
      } else {
        assert.equal(d.message, c.pdb);
        assert.deepEqual(d.fixes, [], 'policy/v1 is not served before 1.21');
      }
    }
  });
}

test('calico-v3.12.yaml under 1.19..1.21: applying every Calico fix moves all five images to v3.19.1 and leaves only the CRD findings', () => {
  const r = analyze('/w/calico.yaml', CALICO_312, '1.19..1.21');
  const edits = only(r.diagnostics, 'k8s/component-not-validated').flatMap((d) => d.fixes[0].edits);
  const fixed = applyEdits(CALICO_312, edits);
  assert.deepEqual([...fixed.matchAll(/^\s*image: (\S+)$/gm)].map((m) => m[1]), ['calico/cni:v3.19.1', 'calico/cni:v3.19.1', 'calico/pod2daemon-flexvol:v3.19.1', 'calico/node:v3.19.1', 'calico/kube-controllers:v3.19.1']);
  assert.equal(fixed.replace(/v3\.19\.1/g, 'v3.12.0'), CALICO_312, 'nothing but the tags changed');
  assert.deepEqual(findings(analyze('/w/calico.yaml', fixed, '1.19..1.21').diagnostics), crdFindings);
});

test('--starlingx-release 6.0: the 1.18..1.21 plan names what StarlingX 6.0 ships at each step; narrower windows do not', () => {
  const m312 = only(analyze('/w/c.yaml', CALICO_312, '1.18..1.21', { release: '6.0' }).diagnostics, 'k8s/component-not-validated');
  assert.equal(m312.length, 5);
  for (const d of m312) assert.equal(d.message, CALICO_CASES[2].message + STX6_NOTE);
  const m319 = only(analyze('/w/c.yaml', CALICO_319, '1.18..1.21', { release: '6.0' }).diagnostics, 'k8s/component-not-validated');
  assert.equal(m319.length, 5);
  for (const d of m319) assert.equal(d.message, CALICO_CASES[5].message + STX6_NOTE);
  // Where one version covers the window the advice is that version, with or without a release.
  const d = only(analyze('/w/c.yaml', CALICO_312, '1.19..1.21', { release: '6.0' }).diagnostics, 'k8s/component-not-validated')[0];
  assert.equal(d.message, CALICO_CASES[1].message);
  assert.deepEqual(d.data, { component: 'calico', version: '3.12', notValidatedFor: ['1.19', '1.20', '1.21'], incompatibleWith: [], target: '3.19' });
});

test('lsp-lint on a folder with both Calico manifests, --kubernetes-window 1.18..1.21 --starlingx-release 6.0', (t) => {
  const dir = workspace(t, { 'calico-v3.12.yaml': CALICO_312, 'calico-v3.19.yaml': CALICO_319 });
  const { code, byFile } = lint(dir, ['--kubernetes-window', '1.18..1.21', '--starlingx-release', '6.0', '.']);
  assert.equal(code, 0, 'warnings only');
  assert.deepEqual(byFile['calico-v3.12.yaml'], [
    ...CRD_LINES_312.map((l) => `${l}:13 warning k8s/deprecated-api ${CRD_MESSAGE('1.18..1.21')}`),
    ...IMAGE_LINES_312.map((l) => `${l}:18 warning k8s/component-not-validated ${CALICO_CASES[2].message}${STX6_NOTE}`),
  ]);
  assert.deepEqual(byFile['calico-v3.19.yaml'], [
    ...IMAGE_LINES_319.map((l) => `${l}:18 warning k8s/component-not-validated ${CALICO_CASES[5].message}${STX6_NOTE}`),
    `${PDB_LINE_319}:13 warning k8s/deprecated-api ${PDB_MESSAGE('1.18..1.21')}`,
  ]);
});

// ---------------------------------------------------------------------------------------------
// Static-pod folders: kube-apiserver, kube-controller-manager, kube-scheduler (Pods) and a kube-proxy DaemonSet

const POD = (c, image) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${c}\n  namespace: kube-system\n  labels:\n    component: ${c}\n    tier: control-plane\n`
  + `spec:\n  hostNetwork: true\n  priorityClassName: system-node-critical\n  containers:\n    - name: ${c}\n      image: ${image.includes('/') ? image : `registry.k8s.io/${c}:${image}`}\n`
  + `      command:\n        - ${c}\n`;
const PROXY = (tag) => 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kube-proxy\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: kube-proxy\n'
  + `  template:\n    metadata:\n      labels:\n        k8s-app: kube-proxy\n    spec:\n      containers:\n        - name: kube-proxy\n          image: registry.k8s.io/kube-proxy:${tag}\n`;
const POD_AT = '14:14'; // the image value of POD
const PROXY_AT = '17:18';
const proxyOlder = (tag, at, n) => `kube-proxy ${tag} is outside the version-skew policy when the kube-apiserver runs ${at} (kube-proxy may be at most ${n} minors older there): upgrade kube-proxy with the control plane`;

/** The neighbours the language server gathers for `file`: kube-* images (not kube-proxy) of the folder's other files. */
function neighboursFor(dir, files, file) {
  const staticPods = [];
  for (const [name, text] of Object.entries(files)) {
    if (name === file) continue;
    for (const m of text.matchAll(/^\s*-?\s*image:\s*["']?([^\s"'#]+)/gm)) {
      const ref = /(?:^|\/)(kube-(?:apiserver|controller-manager|scheduler)):v(\d+\.\d+)/.exec(m[1]);
      if (ref) staticPods.push({ file: path.join(dir, name), component: ref[1], minor: ref[2], image: m[1].slice(m[1].lastIndexOf(':') + 1) });
    }
  }
  return { staticPods };
}

const FOLDERS = [
  {
    name: '1.28 policy: kube-proxy 1.25 with apiserver 1.28 is inside N-3; scheduler N-1 is fine',
    window: '1.28',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.28.4'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'), 'kube-proxy.yaml': PROXY('v1.25.3') },
    expect: {},
  },
  {
    name: '1.27 policy: kube-proxy 1.25 with apiserver 1.27 is inside N-2',
    window: '1.27',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.27.5'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.26.1'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'), 'kube-proxy.yaml': PROXY('v1.25.3') },
    expect: {},
  },
  {
    name: '1.27 policy: kube-proxy 1.24 with apiserver 1.27 is outside N-2',
    window: '1.27',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.27.5'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.27.5'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'), 'kube-proxy.yaml': PROXY('v1.24.4') },
    expect: { 'kube-proxy.yaml': [`${PROXY_AT} error k8s/node-component-skew ${proxyOlder('v1.24.4', '1.27', 2)}`] },
  },
  {
    name: '1.28 policy: kube-proxy 1.24 with apiserver 1.28 is outside (N-3 applies only to kube-proxy 1.25 and newer)',
    window: '1.28',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.28.4'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.28.4'), 'kube-proxy.yaml': PROXY('v1.24.4') },
    expect: { 'kube-proxy.yaml': [`${PROXY_AT} error k8s/node-component-skew ${proxyOlder('v1.24.4', '1.28', 2)}`] },
  },
  {
    name: 'kube-proxy newer than the apiserver',
    window: '1.27',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.27.5'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.27.5'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'), 'kube-proxy.yaml': PROXY('v1.28.4') },
    expect: { 'kube-proxy.yaml': [`${PROXY_AT} error k8s/node-component-skew kube-proxy v1.28.4 is outside the version-skew policy when the kube-apiserver runs 1.27 (kube-proxy must never be newer than the apiserver): upgrade kube-proxy with the control plane`] },
  },
  {
    name: 'kube-controller-manager newer than the apiserver (1.27 policy)',
    window: '1.27',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.27.5'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.28.4'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'), 'kube-proxy.yaml': PROXY('v1.27.5') },
    expect: { 'kube-controller-manager.yaml': [`${POD_AT} error k8s/control-plane-skew kube-controller-manager v1.28.4 is outside the version-skew policy: it is newer than the kube-apiserver in kube-apiserver.yaml (1.27); it must never be newer`] },
  },
  {
    name: 'kube-scheduler two minors older than the apiserver (1.28 policy)',
    window: '1.28',
    files: { 'kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'), 'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.28.4'), 'kube-scheduler.yaml': POD('kube-scheduler', 'v1.26.1'), 'kube-proxy.yaml': PROXY('v1.26.1') },
    expect: { 'kube-scheduler.yaml': [`${POD_AT} error k8s/control-plane-skew kube-scheduler v1.26.1 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.28); at most 1 allowed`] },
  },
  {
    name: 'HA apiservers two minors apart (one image quoted, from a registry with a port)',
    window: '1.28',
    files: {
      'kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
      'kube-apiserver-controller-1.yaml': POD('kube-apiserver', '"registry.local:9001/k8s.gcr.io/kube-apiserver:v1.26.1"'),
      'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.27.5'),
      'kube-scheduler.yaml': POD('kube-scheduler', 'v1.26.1'),
      'kube-proxy.yaml': PROXY('v1.26.1'),
    },
    expect: {
      'kube-apiserver-controller-1.yaml': [`${POD_AT} error k8s/control-plane-skew kube-apiserver v1.26.1 is outside the version-skew policy: the kube-apiserver in kube-apiserver.yaml runs 1.28: HA apiservers must be within one minor of each other`],
      'kube-apiserver.yaml': [`${POD_AT} error k8s/control-plane-skew kube-apiserver v1.28.4 is outside the version-skew policy: the kube-apiserver in kube-apiserver-controller-1.yaml runs 1.26: HA apiservers must be within one minor of each other`],
      'kube-controller-manager.yaml': [`${POD_AT} error k8s/control-plane-skew kube-controller-manager v1.27.5 is outside the version-skew policy: it is newer than the kube-apiserver in kube-apiserver-controller-1.yaml (1.26); it must never be newer`],
      'kube-scheduler.yaml': [`${POD_AT} error k8s/control-plane-skew kube-scheduler v1.26.1 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.28); at most 1 allowed`],
    },
  },
  {
    name: 'HA apiservers one minor apart mid-upgrade, everything else within both',
    window: '1.27..1.28',
    files: {
      'kube-apiserver.yaml': POD('kube-apiserver', 'v1.28.4'),
      'kube-apiserver-controller-1.yaml': POD('kube-apiserver', 'v1.27.5'),
      'kube-controller-manager.yaml': POD('kube-controller-manager', 'v1.27.5'),
      'kube-scheduler.yaml': POD('kube-scheduler', 'v1.27.5'),
      'kube-proxy.yaml': PROXY('v1.25.3'),
    },
    expect: {},
  },
];

for (const f of FOLDERS) {
  test(`static pods, ${f.name}: lsp-lint on the folder and analyze() with neighbours agree exactly`, (t) => {
    const dir = workspace(t, f.files);
    const { code, byFile } = lint(dir, ['--kubernetes-window', f.window, '.']);
    const want = Object.fromEntries(Object.keys(f.files).sort().map((n) => [n, f.expect[n] ?? []]));
    assert.deepEqual(byFile, want);
    assert.equal(code, Object.keys(f.expect).length ? 1 : 0);
    for (const [name, text] of Object.entries(f.files)) {
      const r = analyze(path.join(dir, name), text, f.window, { neighbours: neighboursFor(dir, f.files, name) });
      assert.deepEqual(r.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.ruleId} ${d.message}`), want[name], name);
    }
  });
}

test('the same static pods without their neighbours: only what a file shows by itself', () => {
  // kube-scheduler alone: no apiserver to compare with, nothing to report.
  assert.deepEqual(analyze('/w/m/kube-scheduler.yaml', POD('kube-scheduler', 'v1.26.1'), '1.28').diagnostics, []);
  // With the apiserver as a neighbour, the finding appears; the neighbour's folder name is what the message shows.
  const r = analyze('/w/m/kube-scheduler.yaml', POD('kube-scheduler', 'v1.26.1'), '1.28', { neighbours: { staticPods: [{ file: '/w/m/kube-apiserver.yaml', component: 'kube-apiserver', minor: '1.28', image: 'v1.28.4' }] } });
  assert.deepEqual(r.diagnostics.map((d) => d.message), ['kube-scheduler v1.26.1 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.28); at most 1 allowed']);
  assert.deepEqual(r.diagnostics[0].data, { component: 'kube-scheduler', minor: '1.26', apiservers: ['1.28'] });
  // Two documents of one file: the apiserver in the same file counts as "this file".
  const both = `${POD('kube-apiserver', 'v1.21.3')}---\n${POD('kube-controller-manager', 'v1.22.4')}`;
  assert.deepEqual(analyze('/w/m/cp.yaml', both, '1.21').diagnostics.map((d) => d.message), ['kube-controller-manager v1.22.4 is outside the version-skew policy: it is newer than the kube-apiserver in this file (1.21); it must never be newer']);
});

test('kube-proxy without an apiserver in its folder: checked at every step of the window with that release\'s policy', () => {
  const msgs = (tag, window) => analyze('/w/kube-proxy.yaml', PROXY(tag), window).diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.message}`);
  // 1.24 is 3 behind 1.27 (N-2 policy) and 4 behind 1.28; at 1.28 it is < 1.25, so N-2 still applies.
  assert.deepEqual(msgs('v1.24.4', '1.24..1.28'), ['k8s/node-component-skew error kube-proxy v1.24.4 is outside the version-skew policy when the kube-apiserver runs 1.27..1.28 (kube-proxy may be at most 2 minors older there); window 1.24..1.28: upgrade kube-proxy with the control plane']);
  // 1.25 is 3 behind 1.28: allowed from 1.28 (kube-proxy ≥ 1.25).
  assert.deepEqual(msgs('v1.25.3', '1.25..1.28'), []);
  // 1.25 under 1.25..1.29: 4 behind 1.29.
  assert.deepEqual(msgs('v1.25.3', '1.25..1.29'), ['k8s/node-component-skew error kube-proxy v1.25.3 is outside the version-skew policy when the kube-apiserver runs 1.29 (kube-proxy may be at most 3 minors older there); window 1.25..1.29: upgrade kube-proxy with the control plane']);
  // Newer than the start of the window.
  assert.deepEqual(msgs('v1.21.3', '1.19..1.21'), ['k8s/node-component-skew error kube-proxy v1.21.3 is outside the version-skew policy when the kube-apiserver runs 1.19..1.20 (kube-proxy must never be newer than the apiserver); window 1.19..1.21: upgrade kube-proxy with the control plane']);
  assert.deepEqual(msgs('v1.19.13', '1.19..1.21'), []);
});

// ---------------------------------------------------------------------------------------------
// kubeadm ClusterConfiguration vs localhost.yml

const KUBEADM = (v) => `apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\nkubernetesVersion: ${v}\nnetworking:\n  podSubnet: 172.16.0.0/16\n  serviceSubnet: 10.96.0.0/12\n`;
const LOCALHOST = (v) => `system_mode: simplex\ndns_servers:\n  - 192.0.2.53\nkubernetes_version: ${v}\n`;

test('lsp-lint on a workspace with localhost.yml and kubeadm files: the kubeadm version must be localhost.yml\'s', (t) => {
  const dir = workspace(t, {
    '.skewguard.yaml': 'starlingx: { release: "6.0" }\n',
    'localhost.yml': LOCALHOST('1.18.1'),
    'bootstrap/kubeadm.yaml': KUBEADM('v1.21.3'),
    'bootstrap/kubeadm-quoted.yaml': KUBEADM('"1.20.9"'),
    'bootstrap/kubeadm-same.yaml': KUBEADM('v1.18.1'),
  });
  const { code, byFile } = lint(dir, ['.']);
  assert.equal(code, 0);
  assert.deepEqual(byFile, {
    'bootstrap/kubeadm-quoted.yaml': ['3:20 warning k8s/kubeadm-version-mismatch kubernetesVersion 1.20.9 differs from kubernetes_version 1.18.1 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other'],
    'bootstrap/kubeadm-same.yaml': [],
    'bootstrap/kubeadm.yaml': ['3:20 warning k8s/kubeadm-version-mismatch kubernetesVersion v1.21.3 differs from kubernetes_version 1.18.1 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other'],
    'localhost.yml': ['4:21 warning starlingx/kubernetes-version-below-default Kubernetes 1.18.1 is older than StarlingX 6.0\'s default 1.21.3: after bootstrap the system needs 3 one-minor upgrades (1.18.1 → 1.19.13 → 1.20.9 → 1.21.3) to reach it.'],
  });
  // The same workspace with localhost.yml at 1.21.3: the other kubeadm files now disagree.
  fs.writeFileSync(path.join(dir, 'localhost.yml'), LOCALHOST('1.21.3'));
  const after = lint(dir, ['bootstrap']);
  assert.deepEqual(Object.fromEntries(Object.entries(after.byFile).map(([k, v]) => [k, v.map((m) => m.split(' k8s/kubeadm-version-mismatch ')[1])])), {
    'bootstrap/kubeadm-quoted.yaml': ['kubernetesVersion 1.20.9 differs from kubernetes_version 1.21.3 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other'],
    'bootstrap/kubeadm-same.yaml': ['kubernetesVersion v1.18.1 differs from kubernetes_version 1.21.3 in localhost.yml: bootstrap installs one and the upgrade plan assumes the other'],
    'bootstrap/kubeadm.yaml': [],
  });
});

test('kubeadm through analyze(): the fix takes localhost.yml\'s version in the file\'s style; without localhost.yml, the window', () => {
  const lh = { localhost: { path: 'localhost.yml', kubernetesVersion: '1.18.1' } };
  const r = analyze('/w/kubeadm.yaml', KUBEADM('v1.21.3'), '1.18..1.21', { neighbours: lh });
  assert.deepEqual(findings(r.diagnostics), ['k8s/kubeadm-version-mismatch @ 3:20']);
  assert.deepEqual(r.diagnostics[0].fixes.map((f) => [f.title, applyEdits(KUBEADM('v1.21.3'), f.edits)]), [['Use v1.18.1 (from localhost.yml)', KUBEADM('v1.18.1')]]);
  const q = analyze('/w/kubeadm.yaml', KUBEADM("'1.20.9'"), '1.18..1.21', { neighbours: lh });
  assert.equal(applyEdits(KUBEADM("'1.20.9'"), q.diagnostics[0].fixes[0].edits), KUBEADM("'1.18.1'"));
  assert.deepEqual(analyze('/w/kubeadm.yaml', KUBEADM('1.18.1'), '1.18..1.21', { neighbours: lh }).diagnostics, []);
  // No localhost.yml: only the window counts.
  const w = analyze('/w/kubeadm.yaml', KUBEADM('v1.23.1'), '1.18..1.21');
  assert.deepEqual(w.diagnostics.map((d) => [d.ruleId, d.severity, d.message, d.fixes.length]), [['k8s/kubeadm-version-mismatch', 'warning', 'kubernetesVersion v1.23.1 is outside the Kubernetes window 1.18..1.21', 0]]);
  assert.deepEqual(analyze('/w/kubeadm.yaml', KUBEADM('v1.21.3'), '1.18..1.21').diagnostics, []);
  // A window that is a StarlingX upgrade path starts at a version bootstrap installs: the fix goes there.
  const stx = e.analyze({ path: '/w/kubeadm.yaml', text: KUBEADM('v1.23.1'), config: e.resolveConfig({ cli: { starlingxRelease: '6.0' }, workspace: { localhost: { path: 'localhost.yml', kubernetesVersion: '1.19.13' } } }) });
  assert.deepEqual(stx.diagnostics.map((d) => [d.message, d.fixes.map((f) => f.title)]), [['kubernetesVersion v1.23.1 is outside the Kubernetes window 1.19..1.21, which starts at 1.19.13', ['Use v1.19.13, the start of the window']]]);
});

// ---------------------------------------------------------------------------------------------
// How images are read

const DIGEST = 'sha256:4d2b9e8f5c6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e';
const EDGE = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: calico-node
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: calico-node
  template:
    metadata:
      labels:
        k8s-app: calico-node
    spec:
      initContainers:
        - name: install-cni
          image: registry.local:9001/quay.io/calico/cni:v3.12.0
        - name: flexvol-driver
          image: calico/pod2daemon-flexvol@${DIGEST}
      containers:
        - name: calico-node
          image: "quay.io/calico/node:v3.12.0@${DIGEST}"
        - name: sidecar
          image: 'Quay.IO/calico/typha:v3.12.3'
        - name: mirror-without-tag
          image: registry.local:9001/calico/kube-controllers
        - name: not-a-component
          image: registry.local:9001/library/nginx:1.19.6
`;
const CRON = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: calico-ipam-check
  namespace: kube-system
spec:
  schedule: "@daily"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          initContainers:
            - name: ctl
              image: docker.io/calico/ctl:v3.12.0
          containers:
            - name: check
              image: calico/kube-controllers:3.12.3
`;

test('images: registry with a port, digest only (not checked), tag+digest, quoted and upper-case registry, a mirror without tag', () => {
  const r = analyze('/w/calico-node.yaml', EDGE, '1.19..1.21');
  const lines = EDGE.split('\n');
  assert.deepEqual(findings(r.diagnostics), ['k8s/component-not-validated @ 17:18', 'k8s/component-not-validated @ 22:18', 'k8s/component-not-validated @ 24:18']);
  const [port, tagDigest, upper] = r.diagnostics;
  // Registry with a port: the port is not the tag; the fix edits the tag only.
  assert.match(port.message, /^Calico v3\.12\.0 is not validated for Kubernetes 1\.19, 1\.20, 1\.21 /);
  assert.deepEqual(port.range, { start: { line: 16, character: 17 }, end: { line: 16, character: lines[16].length } });
  assert.equal(applyEdits(EDGE, port.fixes[0].edits).split('\n')[16], '          image: registry.local:9001/quay.io/calico/cni:v3.19.1');
  // Tag and digest: the digest pins v3.12.0 whatever the tag says, so the fix replaces both.
  assert.deepEqual(tagDigest.range, { start: { line: 21, character: 17 }, end: { line: 21, character: lines[21].length } }, 'the range includes the quotes');
  assert.equal(tagDigest.fixes[0].title, 'Use Calico v3.19.1 (drops the digest of v3.12.0)');
  assert.equal(applyEdits(EDGE, tagDigest.fixes[0].edits).split('\n')[21], '          image: "quay.io/calico/node:v3.19.1"');
  // Quoted, upper-case registry host (host names are case-insensitive): recognised; the fix keeps the quotes.
  assert.match(upper.message, /^Calico v3\.12\.3 is not validated/);
  assert.equal(applyEdits(EDGE, upper.fixes[0].edits).split('\n')[23], "          image: 'Quay.IO/calico/typha:v3.19.1'");
  // Digest only, a mirror without a tag and nginx: not reported.
  const h = (line, needle) => e.hover(r, EDGE, { line, character: lines[line].indexOf(needle) + 2 });
  assert.equal(h(18, 'calico/pod2daemon').markdown, '**Calico** `(no tag)`\n\nNo tag (pinned by digest only): the version cannot be read from the image, so it is not checked.');
  assert.equal(h(25, 'calico/kube-controllers').markdown, '**Calico** `(no tag)`\n\nNo tag: the version cannot be read from the image, so it is not checked.');
  assert.equal(h(27, 'nginx'), undefined, 'no component, no image hover (and no apiVersion there)');
});

test('images in a CronJob\'s jobTemplate (initContainers and containers) are checked; tags without "v" are fixed without one', () => {
  const r = analyze('/w/cron.yaml', CRON, '1.19..1.21');
  assert.deepEqual(findings(r.diagnostics), ['k8s/deprecated-api @ 1:13', 'k8s/component-not-validated @ 15:22', 'k8s/component-not-validated @ 18:22']);
  const [, init, main] = [...r.diagnostics].sort((a, b) => a.range.start.line - b.range.start.line);
  assert.match(init.message, /^Calico v3\.12\.0 is not validated for Kubernetes 1\.19, 1\.20, 1\.21 /);
  assert.equal(applyEdits(CRON, init.fixes[0].edits).split('\n')[14], '              image: docker.io/calico/ctl:v3.19.1');
  assert.match(main.message, /^Calico 3\.12\.3 is not validated for Kubernetes 1\.19, 1\.20, 1\.21 .*\(e\.g\. 3\.19\.1\)$/);
  assert.equal(applyEdits(CRON, main.fixes[0].edits).split('\n')[17], '              image: calico/kube-controllers:3.19.1');
});

test('a Calico version that upstream validates for the window is not reported, whatever the registry', () => {
  for (const ref of ['calico/node:v3.19.1', 'docker.io/calico/node:v3.19.1', 'registry.local:9001/quay.io/calico/node:v3.19.1', `quay.io/calico/node:v3.19.1@${DIGEST}`]) {
    const text = EDGE.split('\n').slice(0, 17).join('\n').replace(/image: registry\.local:9001\/quay\.io\/calico\/cni:v3\.12\.0/, `image: ${ref}`) + '\n';
    assert.deepEqual(analyze('/w/c.yaml', text, '1.19..1.21').diagnostics, [], ref);
  }
});

test('Multus and SR-IOV images are recognised but not reported: upstream publishes no Kubernetes matrix (the hover says so)', () => {
  const text = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kube-multus-ds-amd64\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      app: multus\n  template:\n    metadata:\n      labels:\n        app: multus\n    spec:\n      containers:\n        - name: kube-multus\n          image: docker.io/nfvpe/multus:v3.4\n        - name: sriov-device-plugin\n          image: docker.io/starlingx/k8s-plugins-sriov-network-device:stx.4.0-v3.2-16-g4e0302ae\n';
  const r = analyze('/w/multus.yaml', text, '1.18..1.21');
  assert.deepEqual(r.diagnostics, []);
  const h = e.hover(r, text, { line: 16, character: 30 });
  assert.match(h.markdown, /^\*\*Multus CNI\*\* `v3\.4`\n\nUpstream publishes no Kubernetes matrix for Multus CNI: not checked against the window 1\.18\.\.1\.21\.\n\nStarlingX ships it on Kubernetes 1\.18\.\n/);
  assert.doesNotMatch(h.markdown, /not listed|validated for/);
});

test('a container list is found however its key is written: plain, escaped in a quoted key, in a document beside ones without', () => {
  // images() walks only documents whose text names a container list (#29): an escape that spells the key counts too.
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.19..1.21' } });
  const ds = (key) => `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: calico-node\n  namespace: kube-system\nspec:\n  template:\n    spec:\n      ${key}:\n        - name: calico-node\n          image: docker.io/calico/node:v3.12.0\n`;
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  image: docker.io/calico/node:v3.12.0\n';
  for (const key of ['containers', 'initContainers', '"c\\u006Fntainers"', "'ephemeralContainers'", '"initCont\\x61iners"']) {
    const text = `${cm}---\n${ds(key)}`;
    const got = e.analyze({ path: '/ws/calico.yaml', text, config }).diagnostics.filter((d) => d.ruleId === 'k8s/component-not-validated');
    assert.deepEqual(got.map((d) => [d.range.start.line, d.range.start.character]), [[17, 17]], key);
  }
});

test('a CRD\'s schema runs no container: a `containers` list in its openAPIV3Schema (a default, an example) is no image; the same list in a workload is', () => {
  // images() leaves a CRD's openAPIV3Schema out (#29): a bundle of CRDs with real schemas spent most of that walk there.
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.19..1.21' } });
  const list = (pad) => `${pad}containers:\n${pad}- name: calico-node\n${pad}  image: docker.io/calico/node:v3.12.0\n`;
  const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\nspec:\n  group: example.com\n'
    + '  names: {kind: Thing, plural: things}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n'
    + '      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            default:\n' + list('              ');
  const r = e.analyze({ path: '/ws/crd.yaml', text: crd, config });
  assert.deepEqual(r.k8s.images(), []);
  assert.deepEqual(r.diagnostics.filter((d) => d.ruleId === 'k8s/component-not-validated'), []);
  // The same list in a custom resource (a CR is not a CRD) and in a DaemonSet: images, checked.
  const cr = `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n${list('  ')}`;
  assert.deepEqual(e.analyze({ path: '/ws/cr.yaml', text: cr, config }).k8s.images().map((i) => i.path), [['spec', 'containers', 0, 'image']]);
  const ds = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: calico-node\n  namespace: kube-system\nspec:\n  template:\n    spec:\n${list('      ')}`;
  const got = e.analyze({ path: '/ws/ds.yaml', text: ds, config }).diagnostics.filter((d) => d.ruleId === 'k8s/component-not-validated');
  assert.equal(got.length, 1);
});
