// Cross-component data: data/kubernetes/components.json (component images -> versions -> the
// Kubernetes minors upstream validates/documents/excludes, StarlingX pairings) and
// data/kubernetes/skew-policy.json (the version-skew policy as rules), both written by
// scripts/import-components.mjs. Reads only the repo, never ../shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(repoRoot, rel), 'utf8'));
const data = readJson('data/kubernetes/components.json');
const skew = readJson('data/kubernetes/skew-policy.json');
const comp = (id) => data.components.find((c) => c.id === id) ?? assert.fail(`no component ${id}`);
const ver = (id, v) => comp(id).versions.find((r) => r.version === v) ?? assert.fail(`no ${id} ${v}`);

const cmpMinor = (a, b) => {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
};
const MINOR = /^1\.\d+$/;
const K8S_KEYS = ['validated', 'documented', 'documentedFrom', 'minimumPatch', 'mayWork', 'incompatible', 'incompatibleBelow', 'incompatibleFrom', 'builtAgainst', 'starlingx'];

/** "registry.local:9001/quay.io/calico/node:v3.12.0" -> {repo, tag} (the way the fields doc says to match) */
function splitImage(image) {
  const noDigest = image.split('@')[0];
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? { repo: noDigest.slice(0, colon), tag: noDigest.slice(colon + 1) } : { repo: noDigest, tag: null };
}
/** the component and version row an image reference identifies */
function identify(image) {
  const { repo, tag } = splitImage(image);
  const c = data.components.find((x) => x.images.some((s) => repo === s || repo.endsWith(`/${s}`)));
  if (!c) return null;
  if (c.versionIsKubernetes) {
    const m = new RegExp(c.tagPattern).exec(tag ?? '');
    return { component: c.id, kubernetes: m ? `${m[1]}.${m[2]}` : null };
  }
  const row = tag == null ? null : c.versions.find((r) => new RegExp(r.match).test(tag));
  return { component: c.id, version: row?.version ?? null };
}
/** the skew rules in force for `component` vs `reference` when the deciding minor is `minor` */
const rulesAt = (component, reference, minor) =>
  skew.rules.filter((r) => r.component === component && r.reference === reference && cmpMinor(minor, r.policyFrom) >= 0 && (r.policyTo == null || cmpMinor(minor, r.policyTo) <= 0));
const ALL_MINORS = Array.from({ length: 21 }, (_, i) => `1.${16 + i}`); // 1.16 … 1.36

// ---------------------------------------------------------------------------------------------
// shape and sources

test('components.json: as-of date, unique ids, every component named in the brief, row shape', () => {
  assert.equal(data.asOf, '2026-08-22');
  const ids = data.components.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const id of ['calico', 'multus', 'sriov-cni', 'sriov-network-device-plugin', 'containerd', 'runc', 'crictl', 'cni-plugins', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy']) {
    assert.ok(ids.includes(id), `component ${id}`);
  }
  for (const c of data.components) {
    assert.ok(Array.isArray(c.images), `${c.id} images`);
    assert.ok(['tested', 'recommended', 'none', 'is-kubernetes'].includes(c.upstreamMatrix), `${c.id} upstreamMatrix`);
    if (c.versionIsKubernetes) assert.equal(c.versions.length, 0, `${c.id}: the tag is the Kubernetes version`);
    const seen = new Set();
    for (const v of c.versions) {
      const id = `${c.id} ${v.version}`;
      assert.ok(!seen.has(v.version), `duplicate ${id}`);
      seen.add(v.version);
      assert.doesNotThrow(() => new RegExp(v.match), id);
      assert.ok(new RegExp(v.match).test(v.version) || new RegExp(v.match).test(`v${v.version}`), `${id} matches its own version`);
      assert.deepEqual(Object.keys(v.kubernetes), K8S_KEYS, `${id} kubernetes keys`);
      const k = v.kubernetes;
      for (const list of [k.validated, k.documented, k.mayWork, k.incompatible, k.starlingx]) {
        assert.ok(list.every((m) => MINOR.test(m)), `${id}: minors are "1.N"`);
        assert.deepEqual(list, [...list].sort(cmpMinor), `${id}: minors sorted`);
      }
      for (const m of Object.keys(k.minimumPatch)) assert.ok(k.documented.includes(m), `${id}: minimumPatch ${m} is documented`);
      if (c.upstreamMatrix === 'none') assert.deepEqual([k.validated, k.documented], [[], []], `${id}: silent upstream has no lists`);
    }
  }
  // no two version rows of a component match the same tag
  for (const c of data.components) {
    for (const a of c.versions) {
      for (const b of c.versions) if (a !== b) assert.ok(!new RegExp(a.match).test(b.version), `${c.id}: ${a.match} also matches ${b.version}`);
    }
  }
});

test('every row has a source', () => {
  const hasSource = (s) => s && typeof s === 'object' && (s.repo || s.copy || s.url) && (s.commit || s.copy || s.url || s.tag || s.branch);
  for (const c of data.components) {
    for (const v of c.versions) {
      assert.ok(v.evidence.length > 0, `${c.id} ${v.version} has evidence`);
      for (const e of v.evidence) assert.ok(hasSource(e.source), `${c.id} ${v.version}: evidence "${e.relation}" has a source`);
      for (const x of v.conflicts ?? []) assert.ok(hasSource(x.source), `${c.id} ${v.version}: conflict has a source`);
    }
    if (c.general) assert.ok(hasSource(c.general.source), `${c.id} general statement has a source`);
  }
  for (const n of data.starlingx.networking) assert.ok(hasSource(n.source) && n.source.commit, `StarlingX ${n.release} ${n.kubernetesVersion}`);
  for (const h of data.starlingx.host) assert.ok(hasSource(h.source) && h.source.commit, `StarlingX ${h.release} host`);
  for (const r of skew.rules) {
    assert.ok(r.sources.length > 0, `${r.id} ${r.policyFrom}`);
    assert.ok(r.sources.some((s) => s.repo || s.url || s.name), `${r.id} ${r.policyFrom}: an upstream source besides the reference copy`);
  }
});

// ---------------------------------------------------------------------------------------------
// Calico

test('Calico 3.12 is validated up to Kubernetes 1.17 only', () => {
  const k = ver('calico', '3.12').kubernetes;
  assert.equal([...k.validated].sort(cmpMinor).at(-1), '1.17');
  assert.deepEqual(k.validated, ['1.14', '1.15', '1.16', '1.17']);
  for (const m of ['1.18', '1.19', '1.20']) assert.ok(!k.validated.includes(m) && !k.documented.includes(m) && !k.mayWork.includes(m), `3.12 says nothing good about ${m}`);
  assert.equal(ver('calico', '3.12').evidence[0].source.commit, '8584f4ea37058c058740b3d17419eb5af8c50900');
});

test('Calico 3.19 is validated for 1.19–1.21; 1.16–1.18 may work; 1.15 and older do not', () => {
  const k = ver('calico', '3.19').kubernetes;
  assert.deepEqual(k.validated, ['1.19', '1.20', '1.21']);
  assert.deepEqual(k.mayWork, ['1.16', '1.17', '1.18']);
  assert.equal(k.incompatibleBelow, '1.16');
  assert.equal(ver('calico', '3.19').upstreamMatrix, 'tested');
});

test('Calico: every minor 3.12 … 3.32 has a row; contradictory upstream revisions are kept as conflicts', () => {
  assert.deepEqual(comp('calico').versions.map((v) => v.version), Array.from({ length: 21 }, (_, i) => `3.${12 + i}`));
  const c325 = ver('calico', '3.25');
  assert.deepEqual(c325.kubernetes.validated, ['1.23', '1.24', '1.25', '1.26', '1.27', '1.28']);
  assert.deepEqual(c325.conflicts[0].kubernetes.validated, ['1.22', '1.23', '1.24']);
  assert.equal(c325.conflicts[0].source.tag, 'v3.25.0');
  assert.match(ver('calico', '3.15').note, /stale/);
});

// ---------------------------------------------------------------------------------------------
// image identification (the `images` / `match` contract the engine will use)

test('images match any registry prefix and the tag picks the version row', () => {
  assert.deepEqual(identify('calico/node:v3.12.0'), { component: 'calico', version: '3.12' });
  assert.deepEqual(identify('docker.io/calico/cni:v3.19.1'), { component: 'calico', version: '3.19' });
  assert.deepEqual(identify('registry.local:9001/quay.io/calico/kube-controllers:v3.19.1'), { component: 'calico', version: '3.19' });
  assert.deepEqual(identify('quay.io/calico/pod2daemon-flexvol:v3.12.0@sha256:0123'), { component: 'calico', version: '3.12' });
  assert.deepEqual(identify('quay.io/calico/node:v3.11.2'), { component: 'calico', version: null }, 'unknown Calico minor');
  assert.equal(identify('quay.io/calico/nodex:v3.12.0'), null);
  assert.equal(identify('docker.io/library/nginx:1.25'), null);
  assert.deepEqual(identify('ghcr.io/k8snetworkplumbingwg/multus-cni:v4.2.3-thick'), { component: 'multus', version: '4.2.3' });
  assert.deepEqual(identify('docker.io/nfvpe/multus:v3.4'), { component: 'multus', version: '3.4' });
  assert.deepEqual(identify('docker.io/starlingx/k8s-cni-sriov:stx.5.0-v2.6-7-gb18123d8'), { component: 'sriov-cni', version: 'stx.5.0-v2.6-7-gb18123d8' });
  assert.deepEqual(identify('ghcr.io/k8snetworkplumbingwg/sriov-network-device-plugin:v3.3.2'), { component: 'sriov-network-device-plugin', version: '3.3.2' });
  assert.deepEqual(identify('k8s.gcr.io/kube-apiserver:v1.18.1'), { component: 'kube-apiserver', kubernetes: '1.18' });
  assert.deepEqual(identify('registry.local:9001/registry.k8s.io/kube-proxy:v1.28.4'), { component: 'kube-proxy', kubernetes: '1.28' });
  assert.deepEqual(identify('gcr.io/google_containers/kube-scheduler-amd64:v1.9.0'), { component: 'kube-scheduler', kubernetes: '1.9' });
});

// ---------------------------------------------------------------------------------------------
// silent / documented components

test('silence is explicit: SR-IOV CNI has no Kubernetes matrix, Multus and the device plugin only go.mod hints', () => {
  for (const id of ['sriov-cni', 'multus', 'sriov-network-device-plugin', 'runc', 'cni-plugins']) {
    assert.equal(comp(id).upstreamMatrix, 'none', id);
    assert.ok(comp(id).silent, `${id} says what is silent`);
  }
  assert.ok(comp('sriov-cni').versions.every((v) => v.kubernetes.builtAgainst === null), 'sriov-cni: no library hint either');
  assert.equal(ver('multus', '3.7.1').kubernetes.builtAgainst, '1.18');
  assert.equal(ver('sriov-network-device-plugin', '3.3.2').kubernetes.builtAgainst, '1.18');
  assert.equal(comp('sriov-cni').general.documentedFrom, '1.16');
  assert.deepEqual(ver('crictl', '1.21').kubernetes.documented, ['1.21'], 'crictl: same minor');
});

test('containerd: recommended lines with minimum patches; 1.4 cannot serve CRI v1 (1.26+)', () => {
  const c16 = ver('containerd', '1.6').kubernetes;
  assert.ok(c16.documented.includes('1.29'));
  assert.equal(c16.minimumPatch['1.29'], '1.6.27');
  assert.equal(ver('containerd', '1.4').kubernetes.incompatibleFrom, '1.26');
  assert.deepEqual(ver('containerd', '1.5').kubernetes.documented, ['1.20', '1.21', '1.22', '1.23', '1.24', '1.25']);
  assert.deepEqual(ver('runc', '1.1.7').testedWithContainerd, ['1.6.21']);
});

// ---------------------------------------------------------------------------------------------
// StarlingX pairings

test('StarlingX 6.0: Kubernetes 1.18 ships Calico 3.12 / Multus 3.4 / device plugin 3.2, 1.19+ Calico 3.19.1 / Multus 3.7.1 / device plugin 3.3.2', () => {
  const six = data.starlingx.networking.filter((n) => n.release === '6.0');
  assert.deepEqual(six.map((n) => n.kubernetesVersion), ['1.18.1', '1.19.13', '1.20.9', '1.21.3']);
  const on118 = six[0];
  assert.equal(on118.components.calico, '3.12.0');
  assert.equal(on118.components.multus, 'v3.4');
  assert.match(on118.components['sriov-network-device-plugin'], /-v3\.2-/);
  assert.equal(on118.versionRows.calico, '3.12');
  assert.equal(on118.upstream.calico, 'not-listed', 'Calico 3.12 is not validated for 1.18');
  for (const n of six.slice(1)) {
    assert.equal(n.components.calico, '3.19.1', n.kubernetesVersion);
    assert.equal(n.components.multus, 'v3.7.1');
    assert.equal(n.components['sriov-network-device-plugin'], 'v3.3.2');
    assert.equal(n.upstream.calico, 'validated', `Calico 3.19 on ${n.kubernetesVersion}`);
    assert.equal(n.upstream.multus, 'no-matrix');
  }
  assert.ok(ver('calico', '3.12').kubernetes.starlingx.includes('1.18'));
});

test('StarlingX pairings resolve to version rows; statuses are consistent with the rows', () => {
  for (const n of data.starlingx.networking) {
    for (const [id, tag] of Object.entries(n.components)) {
      const row = ver(id, n.versionRows[id]);
      assert.ok(row.kubernetes.starlingx.includes(n.kubernetesMinor), `${id} ${row.version} lists ${n.kubernetesMinor}`);
      if (n.upstream[id] === 'validated') assert.ok(row.kubernetes.validated.includes(n.kubernetesMinor), `${n.release} ${id} ${tag}`);
    }
  }
  const ten = data.starlingx.networking.find((n) => n.release === '10.0' && n.kubernetesVersion === '1.25.3');
  assert.equal(ten.upstream.calico, 'not-listed', 'Calico 3.28 is tested from 1.27');
  const host10 = data.starlingx.host.find((h) => h.release === '10.0');
  assert.equal(host10.upstream.containerd['1.29.2'], 'below-minimum-patch', 'containerd 1.6.21 < 1.6.27');
  assert.equal(host10.upstream.crictl['1.29.2'], 'not-listed', 'crictl 1.21 with Kubernetes 1.29');
  assert.deepEqual(data.starlingx.host.find((h) => h.release === '9.0').containerdCiPins.runc, '1.1.7');
  assert.ok(data.starlingx.gaps.some((g) => g.release === '7.0' && g.what === 'networking' && g.kubernetesVersions.includes('1.18.1')));
});

// ---------------------------------------------------------------------------------------------
// skew policy

test('skew: kubelet may be N-2 before 1.28 and N-3 from 1.28, never newer', () => {
  for (const m of ALL_MINORS) {
    const rules = rulesAt('kubelet', 'kube-apiserver', m);
    assert.equal(rules.length, 1, `exactly one kubelet rule at ${m}`);
    assert.equal(rules[0].maxOlder, cmpMinor(m, '1.28') >= 0 ? 3 : 2, m);
    assert.equal(rules[0].maxNewer, 0, m);
  }
  const n3 = skew.rules.find((r) => r.id === 'kubelet-vs-apiserver' && r.policyFrom === '1.28');
  assert.deepEqual(n3.componentMin, { maxOlder: 3, minVersion: '1.25', otherwise: 2 });
  assert.equal(skew.rules.find((r) => r.id === 'kubelet-vs-apiserver' && r.policyTo === '1.27').maxOlder, 2);
});

test('skew: controller-manager, scheduler and cloud-controller-manager are never newer than the apiserver, at most 1 older', () => {
  for (const c of ['kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager']) {
    for (const m of ALL_MINORS) {
      const rules = rulesAt(c, 'kube-apiserver', m);
      assert.equal(rules.length, 1, `${c} at ${m}`);
      assert.equal(rules[0].maxNewer, 0, `${c} never newer`);
      assert.equal(rules[0].maxOlder, 1);
      assert.equal(rules[0].againstEveryApiserver, true);
    }
  }
});

test('skew: kube-proxy history, kubectl ±1, HA apiservers within 1 minor', () => {
  for (const m of ALL_MINORS) {
    const vsApi = rulesAt('kube-proxy', 'kube-apiserver', m);
    assert.equal(vsApi.length, 1, `kube-proxy vs apiserver at ${m}`);
    assert.equal(vsApi[0].maxOlder, cmpMinor(m, '1.28') >= 0 ? 3 : 2);
    const vsKubelet = rulesAt('kube-proxy', 'kubelet', m);
    assert.equal(vsKubelet.length, 1, `kube-proxy vs kubelet at ${m}`);
    const kubectl = rulesAt('kubectl', 'kube-apiserver', m);
    assert.deepEqual([kubectl[0].maxOlder, kubectl[0].maxNewer], [1, 1]);
    const ha = rulesAt('kube-apiserver', 'kube-apiserver', m);
    assert.deepEqual([ha[0].id, ha[0].maxOlder, ha[0].maxNewer], ['apiserver-ha', 1, 1]);
  }
  assert.equal(rulesAt('kube-proxy', 'kubelet', '1.29')[0].maxOlder, 3);
  assert.equal(rulesAt('kube-proxy', 'kubelet', '1.27')[0].maxOlder, 2);
  assert.equal(rulesAt('kube-proxy', 'kubelet', '1.27')[0].boundaryConfirmed, false, 'the ±2 start is not pinned down');
  assert.equal(rulesAt('kube-proxy', 'kubelet', '1.20')[0].maxOlder, 0, 'older pages: same minor as kubelet');
  assert.equal(skew.upgrade.apiserverNoSkip, true);
  assert.equal(skew.starlingx.kubeletMinorSkewTolerance, 3);
  for (const r of skew.rules) assert.ok(typeof r.policyChosenBy === 'string' && r.policyChosenBy.length > 10, `${r.id}: how the policy in force is chosen`);
});
