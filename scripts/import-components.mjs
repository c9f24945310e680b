#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the cross-component reference material in
// ../shared/reference (relative to the repo root; override the kubernetes directory with argv[2],
// the starlingx directory with argv[3]) into
//   data/kubernetes/components.json   per component (Calico, Multus, SR-IOV CNI, SR-IOV network
//                                     device plugin, containerd, runc, crictl, CNI plugins, the
//                                     kube-* control-plane images): the image repositories that
//                                     identify it, per version the Kubernetes minors upstream
//                                     validates / documents / excludes, with evidence and sources;
//                                     plus the StarlingX pairings (which versions StarlingX ships
//                                     with which Kubernetes version / release)
//   data/kubernetes/skew-policy.json  the Kubernetes version-skew policy as rules, each with the
//                                     range of releases whose policy it is
// Read from the reference directories: kubernetes/component-compat.json (every row),
// kubernetes/skew-policy.md (checked against the hand-written rules below), kubernetes/releases.json
// (snapshot date), kubernetes/SOURCES.md (read-on date), starlingx/kube-versions.json (StarlingX
// release -> Kubernetes versions).
//
// Rules:
//  * "validated" = upstream says it TESTS that minor (Calico's requirements page); "documented" =
//    upstream lists the minor as supported / recommended without a test claim (containerd's
//    RELEASES.md table, cri-tools' same-minor rule); "mayWork" = upstream says "may work but not
//    tested"; incompatible* = upstream says it does not work (or, marked `derived`, follows from an
//    upstream statement such as "Kubernetes 1.26+ requires CRI v1"). Nothing is inferred from go.mod
//    (kept as `builtAgainst`, a hint) or from StarlingX shipping a pair (kept as `starlingx`).
//  * where the material is silent the lists stay empty and `upstreamMatrix` says so.
// Output is deterministic (fixed order, 2-space JSON, trailing newline). Sanity checks throw.
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeKubernetesVersion, compareMinor as cmpMinor, minorsBetween as minorsFromTo } from './lib/kubernetes-version.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('kubernetes'));
const stxDir = path.resolve(process.argv[3] ?? path.join(refDir, '..', 'starlingx'));
const outComponents = path.join(repoRoot, 'data', 'kubernetes', 'components.json');
const outSkew = path.join(repoRoot, 'data', 'kubernetes', 'skew-policy.json');

// ---------------------------------------------------------------------------------------------
// helpers

function fail(msg) {
  throw new Error(`import-components: ${msg}`);
}
const readText = (dir, rel) => fs.readFileSync(path.join(dir, rel), 'utf8');
const readJson = (dir, rel) => JSON.parse(readText(dir, rel));
function cmpVersion(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return 0;
}
const uniqSorted = (list, cmp) => [...new Set(list)].sort(cmp);
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "1.19.13" / "v1.19.13" -> "1.19" */
function minorOf(v) {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?/.exec(normalizeKubernetesVersion(String(v)));
  if (!m) fail(`not a version: ${JSON.stringify(v)}`);
  return `${Number(m[1])}.${Number(m[2])}`;
}
/** every minor from a to b inclusive (same major): the engine's minorsBetween, failing loudly on a bad range */
function minorsBetween(a, b) {
  return minorsFromTo(a, b) ?? fail(`bad minor range ${a}..${b}`);
}
/** the tag regex for a version row: "3.12" matches v3.12, 3.12.0, v3.12.3-amd64; "3.7.1" matches v3.7.1, v3.7.1-thick */
function tagMatch(version) {
  const parts = version.split('.');
  return parts.length === 2 ? `^v?${escapeRe(version)}(?:[.-]|$)` : `^v?${escapeRe(version)}(?:[-+_]|$)`;
}
/** an exact (non-semver) tag, e.g. StarlingX builds "stx.5.0-v2.6-7-gb18123d8" */
const exactMatch = (tag) => `^${escapeRe(tag)}$`;
/** a source object without empty keys, in a fixed key order */
function src(s) {
  const out = {};
  for (const k of ['name', 'repo', 'path', 'paths', 'tag', 'branch', 'commit', 'date', 'url', 'copy', 'note']) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

// ---------------------------------------------------------------------------------------------
// read the reference material

const compat = readJson(refDir, 'component-compat.json');
const releases = readJson(refDir, 'releases.json');
const skewMd = readText(refDir, 'skew-policy.md');
const sourcesMd = readText(refDir, 'SOURCES.md');
const kubeVersions = readJson(stxDir, 'kube-versions.json');
const readOn = /Read on (\d{4}-\d{2}-\d{2})/.exec(sourcesMd)?.[1] ?? fail('SOURCES.md: no "Read on YYYY-MM-DD"');
if (!releases.snapshotDate) fail('releases.json: no snapshotDate');
const asOf = [readOn, releases.snapshotDate].sort().at(-1);

const rows = compat.upstreamRows;
const stxNet = compat.starlingxValidatedNetworking.rows;
const stxHost = compat.starlingxHostComponents.rows;
if (rows.length !== 99) fail(`component-compat.json upstreamRows: expected 99 rows, got ${rows.length}`);
const byComponent = {};
for (const r of rows) byComponent[r.component] = (byComponent[r.component] ?? 0) + 1;
const EXPECTED_COUNTS = { calico: 21, containerd: 20, 'cri-tools (crictl)': 13, 'multus-cni': 11, 'sriov-cni': 1, 'sriov-network-device-plugin': 8, runc: 12, 'cni-plugins': 13 };
if (JSON.stringify(byComponent) !== JSON.stringify(EXPECTED_COUNTS)) fail(`component counts changed: ${JSON.stringify(byComponent)}`);
const used = new Set(); // indexes of upstreamRows consumed: every row must land somewhere
const take = (pred) => rows.flatMap((r, i) => (pred(r) ? (used.add(i), [r]) : []));

/** an evidence entry for a component-compat row */
function evidence(r, extra = {}) {
  const e = { relation: r.relation };
  if (r.kubernetesMinors) e.kubernetesMinors = r.kubernetesMinors;
  if (r.componentVersion) e.componentVersion = r.componentVersion;
  if (r.containerdVersion) e.containerdVersion = r.containerdVersion;
  if (r.k8sLibraryVersion) e.k8sLibraryVersion = r.k8sLibraryVersion;
  if (r.criVersion) e.criVersion = r.criVersion;
  Object.assign(e, extra);
  e.source = src(r.source);
  if (r.notes) e.note = r.notes;
  return e;
}

/** empty normalized Kubernetes summary */
const emptyK8s = () => ({
  validated: [],
  documented: [],
  documentedFrom: null,
  minimumPatch: {},
  mayWork: [],
  incompatible: [],
  incompatibleBelow: null,
  incompatibleFrom: null,
  builtAgainst: null,
  starlingx: [],
});

// ---------------------------------------------------------------------------------------------
// StarlingX pairings (needed by every component's `starlingx` list)

const STX_RELEASE = (tag) => (tag === 'master' ? 'master' : tag.replace(/\.0$/, ''));
const kvRelease = (r) => (r.starlingx.startsWith('master') ? 'master' : r.starlingx);
const kvByRelease = new Map(kubeVersions.releases.map((r) => [kvRelease(r), r]));
/** "v4.2.0-debug" -> "4.2.0"; "3.31.5 (Tigera operator v1.40.12)" -> "3.31.5"; StarlingX builds kept as is */
function normTag(tag) {
  const t = String(tag).trim();
  if (/^stx\./.test(t)) return t;
  const m = /^v?(\d+\.\d+(?:\.\d+)?)/.exec(t);
  if (!m) fail(`unparsable tag ${JSON.stringify(tag)}`);
  return m[1];
}
const NET_KEYS = { calico: 'calico', multus: 'multus', sriovCni: 'sriov-cni', sriovDevicePlugin: 'sriov-network-device-plugin' };
const HOST_KEYS = { containerd: 'containerd', runc: 'runc', crictl: 'crictl', cniPlugins: 'cni-plugins' };
/** component id -> version string -> Set of Kubernetes minors StarlingX ships it with */
const stxShipped = {};
function shipped(comp, version, minor) {
  ((stxShipped[comp] ??= {})[version] ??= new Set()).add(minor);
}
for (const r of stxNet) {
  for (const [k, comp] of Object.entries(NET_KEYS)) shipped(comp, normTag(r[k]), minorOf(r.kubernetesVersion));
}
for (const r of stxHost) {
  const kv = kvByRelease.get(STX_RELEASE(r.starlingxTag)) ?? fail(`kube-versions.json has no release ${r.starlingxTag}`);
  for (const [k, comp] of Object.entries(HOST_KEYS)) for (const v of kv.versions) shipped(comp, normTag(r[k]), minorOf(v.version));
}
/** minors StarlingX ships `comp` version rows matching `re` with */
function stxMinors(comp, re) {
  const rx = new RegExp(re);
  const out = [];
  for (const [v, set] of Object.entries(stxShipped[comp] ?? {})) if (rx.test(v)) out.push(...set);
  return uniqSorted(out, cmpMinor);
}

// ---------------------------------------------------------------------------------------------
// Calico (projectcalico/calico and tigera/docs requirements pages: "tested" = validated)

function calicoVersions() {
  const list = take((r) => r.component === 'calico');
  return list.map((r) => {
    if (r.relation !== 'tested') fail(`calico ${r.componentVersion}: relation ${r.relation}`);
    const k = emptyK8s();
    k.validated = uniqSorted(r.kubernetesMinors, cmpMinor);
    const notes = [];
    const conflicts = [];
    if (r.notes) {
      let rest = r.notes;
      const m1 = /page also says: will not work on Kubernetes v(1\.\d+) or below; v(1\.\d+)(?:-v(1\.\d+))? may work but (?:are|is) no longer tested/.exec(rest);
      if (m1) {
        const [maj, min] = m1[1].split('.').map(Number);
        k.incompatibleBelow = `${maj}.${min + 1}`;
        k.mayWork = minorsBetween(m1[2], m1[3] ?? m1[2]);
        rest = rest.replace(m1[0], '').trim();
        notes.push(`The requirements page also says: will not work on Kubernetes v${m1[1]} or below; ${m1[3] ? `v${m1[2]}–v${m1[3]}` : `v${m1[2]}`} may work but ${m1[3] ? 'are' : 'is'} no longer tested.`);
        const between = [];
        const top = k.validated[0];
        for (const mm of minorsBetween(k.incompatibleBelow, top)) if (mm !== top && !k.mayWork.includes(mm)) between.push(mm);
        if (between.length) notes.push(`Silent on ${between.join(', ')} (neither tested, "may work" nor excluded).`);
      }
      const m2 = /^projectcalico\/calico tag (v[\d.]+) \(([0-9a-f]{40})\) listed (1\.\d+)-(1\.\d+); later docs (?:added (1\.\d+)|list (1\.\d+)-(1\.\d+))$/.exec(rest);
      if (m2) {
        const [, tag, commit, lo, hi] = m2;
        conflicts.push({
          kubernetes: { validated: minorsBetween(lo, hi) },
          source: src({ repo: 'projectcalico/calico', path: 'calico/getting-started/kubernetes/requirements.md', tag, commit }),
          note: `The requirements page in the ${tag} release tag lists ${lo}–${hi}; the later tigera/docs page (used for \`validated\`) lists ${k.validated.join(', ')}.`,
        });
        rest = '';
      }
      const m3 = /^as written in the (v[\d.]+) tag \(lower than 3\.14's list; likely a stale page\)$/.exec(rest);
      if (m3) {
        notes.push(`As written in the ${m3[1]} tag: lower than 3.14's list (1.16–1.18), probably a stale page; kept as written.`);
        rest = '';
      }
      if (rest) fail(`calico ${r.componentVersion}: unparsed note ${JSON.stringify(rest)}`);
    }
    k.starlingx = stxMinors('calico', `^${escapeRe(r.componentVersion)}(\\.|$)`);
    return {
      version: r.componentVersion,
      match: tagMatch(r.componentVersion),
      upstreamMatrix: 'tested',
      kubernetes: k,
      ...(conflicts.length ? { conflicts } : {}),
      evidence: [evidence(r)],
      note: notes.length ? notes.join(' ') : null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// containerd (RELEASES.md "Kubernetes Support": per Kubernetes minor the recommended containerd lines)

function containerdVersions() {
  const rec = take((r) => r.component === 'containerd' && r.relation === 'recommended');
  const min = take((r) => r.component === 'containerd' && r.relation.startsWith('minimum'));
  if (rec.length !== 17 || min.length !== 3) fail(`containerd rows: ${rec.length} recommended, ${min.length} minimum`);
  const lines = {}; // "1.6" -> {minors: {minor: {min, evidence}}}
  const line = (v) => (lines[v] ??= { documented: new Map(), evidence: [], notes: [] });
  const OLD_REV = /^2023-03 revision listed ((?:\d+\.\d+\.\d+\+(?:, )?)+)$/;
  const oldSrc = rec.find((r) => r.source.commit === 'e92e692de0ba8832aa03a08b355ffa8741625bf3')?.source ?? fail('containerd 2023-03 revision source');
  for (const r of rec) {
    if (r.kubernetesMinors.length !== 1) fail('containerd row with several minors');
    const minor = r.kubernetesMinors[0];
    const mins = r.componentVersion.split(',').map((s) => s.trim().replace(/\+$/, ''));
    for (const m of mins) {
      if (!/^\d+\.\d+\.\d+$/.test(m)) fail(`containerd ${minor}: ${m}`);
      const l = line(minorOf(m));
      l.documented.set(minor, m);
      l.evidence.push(evidence(r, { kubernetesMinors: [minor], componentVersion: `${m}+` }));
    }
    const old = r.notes && OLD_REV.exec(r.notes);
    if (old) {
      for (const m of old[1].split(',').map((s) => s.trim().replace(/\+$/, ''))) {
        const l = line(minorOf(m));
        if (l.documented.has(minor)) continue; // same line in both revisions: the newer row wins
        l.documented.set(minor, m);
        l.evidence.push({ relation: 'recommended', kubernetesMinors: [minor], componentVersion: `${m}+`, source: src(oldSrc), note: `Listed for ${minor} in the 2023-03 revision only; later revisions dropped this line from the ${minor} row.` });
      }
    } else if (r.notes && !/^table as of 2023-03/.test(r.notes)) fail(`containerd ${minor}: unparsed note ${r.notes}`);
  }
  for (const r of min) {
    for (const m of r.componentVersion.split(',').map((s) => s.trim().replace(/\+$/, ''))) {
      const l = line(minorOf(m));
      const from = /^(1\.\d+)\+$/.exec(r.kubernetesMinors[0])?.[1] ?? fail(`containerd minimum ${r.kubernetesMinors}`);
      l.evidence.push(evidence(r, { componentVersion: m }));
      if (r.criVersion === 'v1alpha2') {
        // containerd <= 1.4: only CRI v1alpha2; kubelet 1.26+ only speaks CRI v1
        l.documentedFrom = from;
        l.incompatibleFrom = '1.26';
        l.notes.push(`RELEASES.md's deprecated-versions table gives Kubernetes ${from}+ for ${m} (CRI v1alpha2 only); incompatibleFrom 1.26 is derived from its note that Kubernetes 1.26+ requires CRI v1.`);
      } else if (!l.documented.size) fail(`containerd ${m}: minimum row without recommended rows`);
      else if (m === '1.5') l.notes.push(`RELEASES.md's deprecated-versions table gives Kubernetes ${from}+ for 1.5 (CRI ${r.criVersion}); no row lists 1.5 for 1.26 or later: silent there.`);
    }
  }
  return Object.keys(lines).sort(cmpVersion).map((v) => {
    const l = lines[v];
    const k = emptyK8s();
    k.documented = [...l.documented.keys()].sort(cmpMinor);
    k.documentedFrom = l.documentedFrom ?? null;
    k.incompatibleFrom = l.incompatibleFrom ?? null;
    for (const mm of k.documented) if (!l.documented.get(mm).endsWith('.0')) k.minimumPatch[mm] = l.documented.get(mm);
    k.minimumPatch = Object.fromEntries(Object.entries(k.minimumPatch).sort((a, b) => cmpMinor(a[0], b[0])));
    k.starlingx = stxMinors('containerd', `^${escapeRe(v)}\\.`);
    l.evidence.push(...stxHostEvidence('containerd', (x) => minorOf(x) === v));
    return {
      version: v,
      match: tagMatch(v),
      upstreamMatrix: 'recommended',
      kubernetes: k,
      evidence: l.evidence,
      note: l.notes.length ? l.notes.join(' ') : null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// containerd CI pins (runc, crictl, CNI plugins tested with a containerd version)

const ciRows = take((r) => r.containerdVersion !== undefined);
/** containerd version -> {runc, crictl, cni-plugins} pinned by containerd's CI */
const ciPins = {};
const CI_COMP = { runc: 'runc', 'cri-tools (crictl)': 'crictl', 'cni-plugins': 'cni-plugins' };
for (const r of ciRows) (ciPins[r.containerdVersion] ??= {})[CI_COMP[r.component] ?? fail(`CI row ${r.component}`)] = r.componentVersion;
if (Object.keys(ciPins).length !== 12) fail(`containerd CI pins: ${Object.keys(ciPins).length} containerd versions`);

/** "shipped by StarlingX" evidence for host components whose packaged version passes `test` */
function stxHostEvidence(comp, test) {
  const field = Object.entries(HOST_KEYS).find(([, c]) => c === comp)[0];
  const dir = { containerd: '/containerd/', runc: '/runc/', crictl: '/crictl/', 'cni-plugins': '/cni/plugins/' }[comp];
  return stxHost
    .filter((s) => test(normTag(s[field])))
    .map((s) => {
      const { paths, ...rest } = s.source;
      return { relation: 'shipped by StarlingX', starlingx: STX_RELEASE(s.starlingxTag), packaged: s[field], source: src({ ...rest, path: paths.find((p) => p.includes(dir)) ?? fail(`${comp}: no ${dir} path`) }) };
    });
}

/** version rows for a component whose evidence is only CI pins (+ StarlingX): runc, cni-plugins */
function pinnedVersions(comp, compatName, extraRows = []) {
  const versions = new Set();
  for (const r of ciRows) if (r.component === compatName) versions.add(r.componentVersion);
  for (const r of extraRows) versions.add(r.componentVersion);
  for (const v of Object.keys(stxShipped[comp] ?? {})) versions.add(v);
  return [...versions].sort(cmpVersion).map((v) => {
    const k = emptyK8s();
    k.starlingx = stxMinors(comp, `^${escapeRe(v)}$`);
    const ev = [];
    const tested = ciRows.filter((r) => r.component === compatName && r.componentVersion === v);
    for (const r of tested) ev.push(evidence(r));
    for (const r of extraRows.filter((x) => x.componentVersion === v)) ev.push(evidence(r));
    ev.push(...stxHostEvidence(comp, (x) => x === v));
    return {
      version: v,
      match: tagMatch(v),
      upstreamMatrix: 'none',
      kubernetes: k,
      testedWithContainerd: uniqSorted(tested.map((r) => r.containerdVersion), cmpVersion),
      evidence: ev,
      note: ev.length && tested.length === 0 && !extraRows.some((x) => x.componentVersion === v) ? 'Only known as shipped by StarlingX; no upstream statement about this version.' : null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// cri-tools (crictl): README matrix = "use crictl 1.N with Kubernetes 1.N"

function crictlVersions() {
  const rule = take((r) => r.component === 'cri-tools (crictl)' && r.containerdVersion === undefined);
  if (rule.length !== 1) fail('cri-tools README row');
  const buildDeps = rows.find((r) => r.component === 'cni-plugins' && r.source.path === 'build/dependencies.yaml');
  const minors = new Set();
  for (const r of ciRows) if (r.component === 'cri-tools (crictl)') minors.add(minorOf(r.componentVersion));
  for (const v of Object.keys(stxShipped.crictl ?? {})) minors.add(minorOf(v));
  minors.add('1.29'); // build/dependencies.yaml snapshot (crictl 1.29.0)
  const out = [...minors].sort(cmpMinor).map((v) => {
    const k = emptyK8s();
    k.documented = [v];
    k.starlingx = stxMinors('crictl', `^${escapeRe(v)}\\.`);
    const ev = [evidence(rule[0], { kubernetesMinors: [v], componentVersion: `${v}.x` })];
    const tested = ciRows.filter((r) => r.component === 'cri-tools (crictl)' && minorOf(r.componentVersion) === v);
    for (const r of tested) ev.push(evidence(r));
    ev.push(...stxHostEvidence('crictl', (x) => minorOf(x) === v));
    if (v === '1.29') ev.push({ relation: buildDeps.relation, componentVersion: '1.29.0', kubernetesMinors: buildDeps.kubernetesMinors, source: src(buildDeps.source), note: 'build/dependencies.yaml pins crictl 1.29.0 in this ~1.30 development snapshot' });
    return {
      version: v,
      match: tagMatch(v),
      upstreamMatrix: 'recommended',
      kubernetes: k,
      testedWithContainerd: uniqSorted(tested.map((r) => r.containerdVersion), cmpVersion),
      evidence: ev,
      note: null,
    };
  });
  return { rule: rule[0], versions: out };
}

// ---------------------------------------------------------------------------------------------
// Multus, SR-IOV CNI, SR-IOV network device plugin: no upstream matrix; go.mod library versions
// (a hint) and StarlingX pairings only.

/** "v0.18.3" / "k8s.io/api v0.29.0" -> "1.18"; "... (~1.13)" -> "1.13" (approximate) */
function libraryMinor(s) {
  const m = /v0\.(\d+)\.\d+/.exec(s);
  if (m) return { minor: `1.${m[1]}`, approximate: false };
  const a = /\(~(1\.\d+)\)/.exec(s);
  if (a) return { minor: a[1], approximate: true };
  fail(`library version ${s}`);
}
/** StarlingX-only builds of an upstream tag: stx.<stx>-v<base>-<n>-g<sha> */
const stxBuildBase = (t) => /^stx\.\d+\.\d+-v(\d+\.\d+)(?:-|$)/.exec(t)?.[1] ?? null;

function networkPluginVersions(comp, compatName, noGoModNote = 'No go.mod reading for this version.') {
  const general = take((r) => r.component === compatName && r.relation === 'support statement');
  if (general.length !== 1) fail(`${compatName}: support statement rows ${general.length}`);
  const built = take((r) => r.component === compatName && r.relation === 'built against k8s client libraries');
  const versions = new Set(built.map((r) => r.componentVersion));
  for (const v of Object.keys(stxShipped[comp] ?? {})) versions.add(v);
  const stxBuilds = [...versions].filter((v) => v.startsWith('stx.')).sort();
  const semverish = [...versions].filter((v) => !v.startsWith('stx.')).sort(cmpVersion);
  // "3.8" and "3.8.0" would be two rows for one tag: a 2-part version absorbs its .0
  for (const v of semverish) if (v.split('.').length === 2 && versions.has(`${v}.0`)) fail(`${comp}: both ${v} and ${v}.0`);
  const rowsOut = [...semverish, ...stxBuilds].map((v) => {
    const k = emptyK8s();
    const isStx = v.startsWith('stx.');
    const re = isStx ? exactMatch(v) : tagMatch(v);
    k.starlingx = isStx ? stxMinors(comp, `^${escapeRe(v)}$`) : stxMinors(comp, v.split('.').length === 2 ? `^${escapeRe(v)}(\\.|$)` : `^${escapeRe(v)}$`);
    const ev = [];
    for (const r of built.filter((x) => x.componentVersion === v)) {
      const lib = libraryMinor(r.k8sLibraryVersion);
      k.builtAgainst = lib.minor;
      ev.push(evidence(r, { builtAgainst: lib.minor, ...(lib.approximate ? { approximate: true } : {}) }));
    }
    const NET_FIELD = Object.entries(NET_KEYS).find(([, c]) => c === comp)[0];
    for (const s of stxNet) {
      if (normTag(s[NET_FIELD]) !== v) continue;
      ev.push({ relation: 'shipped by StarlingX', starlingx: STX_RELEASE(s.starlingxTag), kubernetesVersion: s.kubernetesVersion, tag: s[NET_FIELD], source: src(s.source) });
    }
    const notes = [];
    if (isStx) notes.push(`StarlingX build of upstream ${stxBuildBase(v) ?? '?'} (image tag ${v}); only StarlingX pairs it with Kubernetes.`);
    if (!built.some((x) => x.componentVersion === v) && !isStx && noGoModNote) notes.push(noGoModNote);
    return {
      version: v,
      match: re,
      upstreamMatrix: 'none',
      kubernetes: k,
      ...(isStx ? { upstreamBase: stxBuildBase(v) } : {}),
      evidence: ev,
      note: notes.length ? notes.join(' ') : null,
    };
  });
  return { general: general[0], versions: rowsOut };
}

// ---------------------------------------------------------------------------------------------
// assemble the components

const calico = calicoVersions();
const containerd = containerdVersions();
const crictl = crictlVersions();
const multus = networkPluginVersions('multus', 'multus-cni');
const sriovCni = networkPluginVersions('sriov-cni', 'sriov-cni', 'go.mod requires no k8s.io library (tags v2.6.1 … v2.10.0 checked), so there is no library hint either.');
const sriovDp = networkPluginVersions('sriov-network-device-plugin', 'sriov-network-device-plugin');
const k8sBuildDeps = take((r) => r.component === 'cni-plugins' && r.source.path === 'build/dependencies.yaml');
const runc = pinnedVersions('runc', 'runc');
const cniPlugins = pinnedVersions('cni-plugins', 'cni-plugins', k8sBuildDeps);
const unused = rows.map((r, i) => (used.has(i) ? null : `${r.component} ${r.componentVersion} (${r.relation})`)).filter(Boolean);
if (unused.length) fail(`component-compat rows not imported: ${unused.join('; ')}`);

const generalOf = (r, extra = {}) => ({ relation: r.relation, componentVersion: r.componentVersion, kubernetesMinors: r.kubernetesMinors, ...extra, source: src(r.source), note: r.notes ?? null });
const CONTROL_PLANE_NOTE = 'The image tag is the Kubernetes version itself (vX.Y.Z): the version-skew policy (skew-policy.json) applies, no compatibility matrix is needed.';
const controlPlane = (id, name, extraImages = []) => ({
  id,
  name,
  kind: 'control-plane-image',
  images: [id, `${id}-amd64`, ...extraImages],
  imageRegistries: ['registry.k8s.io', 'k8s.gcr.io', 'gcr.io/google_containers', 'gcr.io/google-containers'],
  versionIsKubernetes: true,
  tagPattern: '^v(\\d+)\\.(\\d+)\\.(\\d+)',
  skewComponent: id,
  upstreamMatrix: 'is-kubernetes',
  general: null,
  silent: null,
  note: `${CONTROL_PLANE_NOTE} The "-amd64" name is the older per-architecture image name (gcr.io/google_containers/${id}-amd64). Any registry prefix matches (e.g. registry.local:9001/k8s.gcr.io/${id}).`,
  versions: [],
});

const components = [
  {
    id: 'calico',
    name: 'Calico',
    kind: 'network-plugin-image',
    images: ['calico/node', 'calico/cni', 'calico/kube-controllers', 'calico/pod2daemon-flexvol', 'calico/typha', 'calico/ctl', 'calico/apiserver', 'calico/csi', 'calico/node-driver-registrar', 'calico/dikastes', 'calico/flannel-migration-controller'],
    imageRegistries: ['docker.io', 'quay.io'],
    versionIsKubernetes: false,
    upstreamMatrix: 'tested',
    general: null,
    silent: 'Calico versions before 3.12 are not in the material. The tigera/operator image has its own version numbers (e.g. v1.40.12 for Calico 3.31.5) and is not matched.',
    note: 'Every Calico image of a release carries the release tag (vX.Y.Z). Rows are per minor; `validated` = the minors the requirements page says are tested.',
    versions: calico,
  },
  {
    id: 'multus',
    name: 'Multus CNI',
    kind: 'network-plugin-image',
    images: ['k8snetworkplumbingwg/multus-cni', 'nfvpe/multus'],
    imageRegistries: ['ghcr.io', 'docker.io'],
    versionIsKubernetes: false,
    upstreamMatrix: 'none',
    general: generalOf(multus.general, { documentedRule: 'the Kubernetes minors the community supports (latest 3) at the time of use' }),
    silent: 'Upstream publishes no per-version Kubernetes matrix: `validated`/`documented` stay empty; `builtAgainst` (go.mod k8s.io libraries) is a hint only and `starlingx` lists the minors StarlingX ships the version with.',
    note: 'Tags may carry a flavour suffix (-thick, -debug); StarlingX 11.0+ uses v4.2.x-debug / -thick.',
    versions: multus.versions,
  },
  {
    id: 'sriov-cni',
    name: 'SR-IOV CNI',
    kind: 'network-plugin-image',
    images: ['k8snetworkplumbingwg/sriov-cni', 'nfvpe/sriov-cni', 'starlingx/k8s-cni-sriov'],
    imageRegistries: ['ghcr.io', 'docker.io'],
    versionIsKubernetes: false,
    upstreamMatrix: 'none',
    general: generalOf(sriovCni.general, { documentedFrom: '1.16' }),
    silent: 'SR-IOV CNI has no Kubernetes matrix at all: the README only says "Kubernetes 1.16+" (current head) and go.mod of v2.6.1 … v2.10.0 requires none of k8s.io/api, client-go, kubelet, cri-api, so there is not even a library hint. Only StarlingX pairings exist.',
    note: 'starlingx/k8s-cni-sriov is StarlingX\'s own build (tag stx.<release>-v<upstream>-…).',
    versions: sriovCni.versions,
  },
  {
    id: 'sriov-network-device-plugin',
    name: 'SR-IOV network device plugin',
    kind: 'network-plugin-image',
    images: ['k8snetworkplumbingwg/sriov-network-device-plugin', 'nfvpe/sriov-device-plugin', 'starlingx/k8s-plugins-sriov-network-device'],
    imageRegistries: ['ghcr.io', 'docker.io'],
    versionIsKubernetes: false,
    upstreamMatrix: 'none',
    general: generalOf(sriovDp.general, { documentedFrom: '1.16' }),
    silent: 'No per-version Kubernetes matrix upstream: images/README.md only distinguishes deployment files for Kubernetes 1.16+ and 1.10–1.15 (current head). `builtAgainst` is the go.mod k8s.io/kubelet (or k8s.io/*) version, a hint only.',
    note: 'starlingx/k8s-plugins-sriov-network-device is StarlingX\'s own build (tag stx.<release>-v<upstream>-…).',
    versions: sriovDp.versions,
  },
  {
    id: 'containerd',
    name: 'containerd',
    kind: 'host-runtime',
    images: [],
    imageRegistries: [],
    versionIsKubernetes: false,
    upstreamMatrix: 'recommended',
    general: { relation: 'support statement', note: 'RELEASES.md: Kubernetes supports n-3 minor versions and containerd keeps a supported containerd release for each supported Kubernetes minor.', source: src({ repo: 'containerd/containerd', path: 'RELEASES.md', branch: 'main', commit: '301026e58c619e63d09c0ec411012e54c0124b03' }) },
    silent: 'containerd does not TEST-claim Kubernetes minors: every row is the RELEASES.md "recommended" table (documented), with the minimum patch per minor in `minimumPatch`. Kubernetes 1.16–1.19 have no recommended row.',
    note: 'A host package, not an image in manifests (StarlingX: starlingx/integ kubernetes/containerd). Rows are per containerd minor line.',
    versions: containerd,
  },
  {
    id: 'runc',
    name: 'runc',
    kind: 'host-runtime',
    images: [],
    imageRegistries: [],
    versionIsKubernetes: false,
    upstreamMatrix: 'none',
    general: null,
    silent: 'runc publishes no Kubernetes matrix; the only upstream pairing is the runc version containerd\'s CI pins (`testedWithContainerd`), i.e. Kubernetes compatibility is indirect via that containerd row.',
    note: 'A host package, not an image in manifests.',
    versions: runc,
  },
  {
    id: 'crictl',
    name: 'cri-tools (crictl)',
    kind: 'host-tool',
    images: [],
    imageRegistries: [],
    versionIsKubernetes: false,
    upstreamMatrix: 'recommended',
    general: generalOf(crictl.rule, { documentedRule: 'same-minor' }),
    silent: null,
    note: 'cri-tools\' README recommends crictl 1.N for Kubernetes 1.N (rows here only for the crictl minors the material names; the rule covers every minor 1.16+). A host binary, not an image.',
    versions: crictl.versions,
  },
  {
    id: 'cni-plugins',
    name: 'CNI plugins (containernetworking/plugins)',
    kind: 'host-runtime',
    images: [],
    imageRegistries: [],
    versionIsKubernetes: false,
    upstreamMatrix: 'none',
    general: null,
    silent: 'containernetworking/plugins publishes no Kubernetes matrix; pairings are containerd\'s go.mod (`testedWithContainerd`) and one kubernetes/kubernetes build/dependencies.yaml snapshot (~1.30 development: 1.4.0).',
    note: 'A host package, not an image in manifests.',
    versions: cniPlugins,
  },
  controlPlane('kube-apiserver', 'kube-apiserver'),
  controlPlane('kube-controller-manager', 'kube-controller-manager'),
  controlPlane('kube-scheduler', 'kube-scheduler'),
  controlPlane('kube-proxy', 'kube-proxy'),
];

// ---------------------------------------------------------------------------------------------
// StarlingX pairings + upstream status of each pairing (derived from the rows above)

const compById = new Map(components.map((c) => [c.id, c]));
function rowFor(compId, tag) {
  const c = compById.get(compId);
  const t = normTag(tag);
  return c.versions.find((v) => new RegExp(v.match).test(t)) ?? null;
}
/**
 * validated | documented | below-minimum-patch | may-work | incompatible | not-listed (upstream has
 * a matrix that does not list the minor) | no-matrix (upstream is silent) | unknown-version
 */
function statusOf(compId, tag, minor) {
  const row = rowFor(compId, tag);
  if (!row) return 'unknown-version';
  const k = row.kubernetes;
  if (k.validated.includes(minor)) return 'validated';
  if ((k.incompatibleBelow && cmpMinor(minor, k.incompatibleBelow) < 0) || (k.incompatibleFrom && cmpMinor(minor, k.incompatibleFrom) >= 0) || k.incompatible.includes(minor)) return 'incompatible';
  if (k.documented.includes(minor)) {
    const need = k.minimumPatch[minor];
    return need && cmpVersion(normTag(tag), need) < 0 ? 'below-minimum-patch' : 'documented';
  }
  if (k.documentedFrom && cmpMinor(minor, k.documentedFrom) >= 0) return 'documented';
  if (k.mayWork.includes(minor)) return 'may-work';
  return row.upstreamMatrix === 'none' ? 'no-matrix' : 'not-listed';
}

const networking = stxNet.map((r) => {
  const minor = minorOf(r.kubernetesVersion);
  const comps = {};
  const rowsUsed = {};
  const upstream = {};
  for (const [k, comp] of Object.entries(NET_KEYS)) {
    comps[comp] = r[k];
    rowsUsed[comp] = rowFor(comp, r[k])?.version ?? null;
    upstream[comp] = statusOf(comp, r[k], minor);
  }
  return {
    release: STX_RELEASE(r.starlingxTag),
    kubernetesVersion: r.kubernetesVersion,
    kubernetesMinor: minor,
    components: comps,
    versionRows: rowsUsed,
    upstream,
    source: src({ ...r.source, ...(r.source.symlinkTo ? { note: `symlink to ${r.source.symlinkTo}` } : {}) }),
  };
});
const host = stxHost.map((r) => {
  const rel = STX_RELEASE(r.starlingxTag);
  const kv = kvByRelease.get(rel);
  const versions = kv.versions.map((v) => normalizeKubernetesVersion(v.version));
  const comps = {};
  const upstream = {};
  for (const [k, comp] of Object.entries(HOST_KEYS)) {
    comps[comp] = r[k];
    upstream[comp] = Object.fromEntries(versions.map((kvv) => [kvv, statusOf(comp, r[k], minorOf(kvv))]));
  }
  const cd = normTag(r.containerd);
  const pins = ciPins[cd] ?? null;
  return {
    release: rel,
    kubernetesVersions: versions,
    components: comps,
    upstream,
    containerdCiPins: pins ? { containerd: cd, runc: pins.runc, crictl: pins.crictl, 'cni-plugins': pins['cni-plugins'] } : null,
    source: src(r.source),
  };
});
// releases/versions of kube-versions.json that no networking row covers
const netCovered = new Set(networking.map((n) => `${n.release}|${n.kubernetesVersion}`));
const gaps = [];
for (const r of kubeVersions.releases) {
  const rel = kvRelease(r);
  const missing = r.versions.map((v) => normalizeKubernetesVersion(v.version)).filter((v) => !netCovered.has(`${rel}|${v}`));
  if (missing.length) gaps.push({ release: rel, kubernetesVersions: missing, what: 'networking' });
}
const hostCovered = new Set(host.map((h) => h.release));
for (const r of kubeVersions.releases) {
  const rel = kvRelease(r);
  if (!hostCovered.has(rel)) gaps.push({ release: rel, kubernetesVersions: r.versions.map((v) => normalizeKubernetesVersion(v.version)), what: 'host' });
}

// ---------------------------------------------------------------------------------------------
// sanity checks (facts the tests and the brief rely on)

const calico312 = calico.find((v) => v.version === '3.12');
if (calico312.kubernetes.validated.at(-1) !== '1.17') fail('Calico 3.12 must be validated up to 1.17');
if (calico.find((v) => v.version === '3.19').kubernetes.validated.join() !== '1.19,1.20,1.21') fail('Calico 3.19 must be validated for 1.19–1.21');
const n618 = networking.find((n) => n.release === '6.0' && n.kubernetesMinor === '1.18');
if (n618?.components.calico !== '3.12.0' || n618.upstream.calico !== 'not-listed') fail('StarlingX 6.0 / 1.18 must pair Calico 3.12.0 (not validated upstream)');
for (const c of components) for (const v of c.versions) if (!v.evidence.length) fail(`${c.id} ${v.version}: no evidence`);
for (const n of networking) for (const [comp, st] of Object.entries(n.upstream)) if (st === 'unknown-version') fail(`${n.release} ${comp} ${n.components[comp]}: no version row`);

// ---------------------------------------------------------------------------------------------
// skew policy (own words; checked against skew-policy.md)

const SKEW_SOURCE = { repo: 'kubernetes/website', path: 'content/en/releases/version-skew-policy.md', commit: '01bc09751ea95187842d07b12453df0eba104622', note: 'current wording (post-1.28), search-index copy' };
const HISTORY_SOURCE = { url: 'https://v1-27.docs.kubernetes.io/releases/version-skew-policy/', note: 'v1.27 page (also a v1.27 docs deploy preview, deploy-preview-41302); v1.22, v1.23 and v1.26 snapshots read for the kubelet N-2 wording' };
const EKS_SOURCE = { name: 'AWS EKS documentation', note: 'quotes the older skew-policy wording "kube-proxy must be the same minor version as kubelet on the node" (found by web search; URL and date not recorded in shared/reference/kubernetes/SOURCES.md)' };
const MD = 'shared/reference/kubernetes/skew-policy.md';
for (const needle of [
  'N-3 for kubelet ≥ 1.25, introduced with Kubernetes 1.28 (KEP-3935)',
  'kubelet < 1.25 may only be up to two minor versions older',
  'N-3 for kube-proxy ≥ 1.25, same change as kubelet (1.28)',
  'relaxed to ±2 minors vs kubelet (present in the v1.27 page), then ±3 for kube-proxy ≥ 1.25 with the 1.28 change',
  'exact release of the "same minor" → "±2" relaxation not pinned down',
  '| kubectl | within ±1 minor of kube-apiserver (N+1, N, N-1) |',
  'newest and oldest instance within 1 minor',
  'never newer than the apiserver(s) they talk to; same minor expected; 1 older (N-1) allowed',
  'kube-apiserver must not skip minor versions',
  '"within 2 minor versions of the new API server"',
  'must satisfy the rule against EVERY apiserver it may talk to',
]) if (!skewMd.includes(needle)) fail(`skew-policy.md no longer says: ${needle}`);

const APISERVER_SELECTS = 'the minor of the kube-apiserver the component is compared with (with skewed HA apiservers: each one in turn, with its own policy)';
const CLUSTER_SELECTS = 'the cluster\'s kube-apiserver minor N (the newest apiserver); the page words the 1.28 change on kube-proxy ≥ 1.25 (componentMin), which gives the same answers whenever the kubelet and kube-proxy rules against the apiserver hold';
const rule = (r) => ({
  id: r.id,
  component: r.component,
  reference: r.reference,
  maxOlder: r.maxOlder,
  maxNewer: r.maxNewer,
  policyFrom: r.policyFrom,
  policyTo: r.policyTo ?? null,
  boundaryConfirmed: r.boundaryConfirmed ?? true,
  ...(r.componentMin ? { componentMin: r.componentMin } : {}),
  policyChosenBy: r.policyChosenBy ?? APISERVER_SELECTS,
  againstEveryApiserver: r.againstEveryApiserver ?? true,
  sources: r.sources,
  note: r.note ?? null,
});
const skewRules = [
  rule({
    id: 'apiserver-ha', component: 'kube-apiserver', reference: 'kube-apiserver', maxOlder: 1, maxNewer: 1, policyFrom: '1.0',
    policyChosenBy: 'any (unchanged in every release read)', againstEveryApiserver: false,
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'The newest and the oldest kube-apiserver instance of an HA control plane are within 1 minor (N and N-1). Unchanged in every page read (v1.22 onward); policyFrom 1.0 means "as far back as the data goes".',
  }),
  rule({
    id: 'kubelet-vs-apiserver', component: 'kubelet', reference: 'kube-apiserver', maxOlder: 2, maxNewer: 0, policyFrom: '1.0', policyTo: '1.27',
    sources: [src(HISTORY_SOURCE), src({ copy: MD })],
    note: 'Before 1.28: kubelet never newer than kube-apiserver and up to two minors older (N-2). The v1.22, v1.23, v1.26 and v1.27 pages all say N-2.',
  }),
  rule({
    id: 'kubelet-vs-apiserver', component: 'kubelet', reference: 'kube-apiserver', maxOlder: 3, maxNewer: 0, policyFrom: '1.28', componentMin: { maxOlder: 3, minVersion: '1.25', otherwise: 2 },
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'From 1.28 (KEP-3935): up to three minors older (N-3) for kubelet ≥ 1.25; "kubelet < 1.25 may only be up to two minor versions older". The page words the condition on the kubelet\'s version; choosing the policy by the apiserver minor gives the same answers (a kubelet ≥ 1.25 that is 3 behind implies N ≥ 1.28, and at N ≤ 1.27 a kubelet 3 behind is < 1.25). With HA apiservers at N and N-1 the page allows kubelet N-1 … N-3: the rule holds against every apiserver (not newer than the oldest, at most 3 behind the newest).',
  }),
  rule({
    id: 'kube-proxy-vs-apiserver', component: 'kube-proxy', reference: 'kube-apiserver', maxOlder: 2, maxNewer: 0, policyFrom: '1.0', policyTo: '1.27',
    sources: [src(HISTORY_SOURCE), src({ copy: MD })],
    note: 'Before 1.28: kube-proxy never newer than kube-apiserver, up to two minors older (v1.27 page: "up to two minor versions older").',
  }),
  rule({
    id: 'kube-proxy-vs-apiserver', component: 'kube-proxy', reference: 'kube-apiserver', maxOlder: 3, maxNewer: 0, policyFrom: '1.28', componentMin: { maxOlder: 3, minVersion: '1.25', otherwise: 2 },
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'From 1.28, same change as kubelet: up to three minors older (N-3) for kube-proxy ≥ 1.25; kube-proxy < 1.25 only two.',
  }),
  rule({
    id: 'kube-proxy-vs-kubelet', component: 'kube-proxy', reference: 'kubelet', maxOlder: 0, maxNewer: 0, policyFrom: '1.0', policyTo: '1.26', boundaryConfirmed: false,
    againstEveryApiserver: false, policyChosenBy: CLUSTER_SELECTS,
    sources: [src(EKS_SOURCE), src({ copy: MD })],
    note: 'Older pages: "kube-proxy must be the same minor version as kubelet on the node". The release that relaxed this to ±2 is NOT pinned down by the sources read (±2 is confirmed in the 1.27 page); policyTo 1.26 is the latest it can have applied, so this strict rule may over-report for releases where ±2 already applied.',
  }),
  rule({
    id: 'kube-proxy-vs-kubelet', component: 'kube-proxy', reference: 'kubelet', maxOlder: 2, maxNewer: 2, policyFrom: '1.27', policyTo: '1.27', boundaryConfirmed: false,
    againstEveryApiserver: false, policyChosenBy: CLUSTER_SELECTS,
    sources: [src(HISTORY_SOURCE), src({ copy: MD })],
    note: 'kube-proxy within ±2 minors of the kubelet on the same node. Confirmed in the v1.27 page; it may have applied earlier (policyFrom is the first release the sources confirm, not the release that introduced it).',
  }),
  rule({
    id: 'kube-proxy-vs-kubelet', component: 'kube-proxy', reference: 'kubelet', maxOlder: 3, maxNewer: 3, policyFrom: '1.28', componentMin: { maxOlder: 3, maxNewer: 3, minVersion: '1.25', otherwise: 2 },
    againstEveryApiserver: false, policyChosenBy: CLUSTER_SELECTS,
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'From 1.28: within ±3 minors of the kubelet on the same node for kube-proxy ≥ 1.25 (kube-proxy < 1.25: ±2).',
  }),
  ...['kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager'].map((c) => rule({
    id: `${c}-vs-apiserver`, component: c, reference: 'kube-apiserver', maxOlder: 1, maxNewer: 0, policyFrom: '1.0',
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'Never newer than the kube-apiserver(s) it talks to; the same minor is expected, one minor older (N-1) allowed. If it can reach any HA apiserver (e.g. through a load balancer) it must fit the oldest one. Unchanged in every page read.',
  })),
  rule({
    id: 'kubectl-vs-apiserver', component: 'kubectl', reference: 'kube-apiserver', maxOlder: 1, maxNewer: 1, policyFrom: '1.0',
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
    note: 'Within ±1 minor of kube-apiserver (N+1, N, N-1); with HA apiservers at N and N-1 only N and N-1. Unchanged in every page read.',
  }),
];
const skew = {
  asOf,
  description:
    'The Kubernetes version-skew policy as data: per component, how many minors it may be older (maxOlder) or newer (maxNewer) than its reference component, for the releases policyFrom … policyTo (null = still current) whose policy says so. Patch versions are ignored. ' +
    'Imported by scripts/import-components.mjs from shared/reference/kubernetes/skew-policy.md (own words, sources per rule).',
  fields: {
    maxOlder: 'minors the component may be behind its reference (kubelet N-3 -> 3)',
    maxNewer: 'minors the component may be ahead of its reference (0 = never newer)',
    policyFrom: 'first Kubernetes release whose policy this is ("1.0" = as far back as the sources go)',
    policyTo: 'last release whose policy this is; null = current',
    policyChosenBy: 'which version picks the policy in force (compared with policyFrom/policyTo): the minor of the kube-apiserver the component is compared with, or for kube-proxy vs kubelet the cluster\'s apiserver minor',
    boundaryConfirmed: 'false = the sources confirm the rule inside the range but not where exactly it starts/ends (see note)',
    componentMin: 'the page conditions the wider limit on the component\'s own version: maxOlder/maxNewer only for component >= minVersion, else `otherwise`',
    againstEveryApiserver: 'true = with HA apiservers at N and N-1 the rule must hold against every apiserver the component may reach, i.e. against the oldest',
  },
  policySelection:
    'For a component compared with a kube-apiserver, use the rule whose policyFrom <= A <= policyTo, A being the minor of THAT apiserver; with skewed HA apiservers (N and N-1) check against each of them (againstEveryApiserver), each with its own policy. For kube-proxy vs kubelet use the cluster\'s apiserver minor N. The page words the 1.28 change as "N-3 for kubelet/kube-proxy ≥ 1.25" (componentMin): checking componentMin as well gives the same results. Rules with boundaryConfirmed false cover releases where the sources do not pin the rule down: report their violations with lower confidence.',
  versionsCompared: 'minor versions only (patch ignored)',
  haNarrowing: 'When kube-apiservers are skewed (N and N-1), every other component must satisfy its rule against every apiserver it may talk to, so it may not be newer than N-1.',
  upgrade: {
    order: ['kube-apiserver', 'kube-controller-manager, kube-scheduler, cloud-controller-manager (any order, may be simultaneous, once the apiservers they reach are at N)', 'kubelet (optional; drain the node first; may stay at N-1 … N-3)', 'kube-proxy (optional; may stay at N-1 … N-3)'],
    apiserverNoSkip: true,
    preconditions: [
      { component: 'kube-apiserver', rule: 'single instance at N-1; HA instances all at N-1 or N' },
      { component: 'kube-controller-manager, kube-scheduler, cloud-controller-manager', rule: 'at N-1' },
      { component: 'kubelet', rule: 'within 2 minors of the NEW apiserver (N-1 or N-2): a kubelet already 3 behind must be upgraded before the control plane moves again', maxOlderThanTarget: 2 },
      { component: 'admission webhooks', rule: 'able to handle the new API versions/fields (or matchPolicy: Equivalent, v1.15+)' },
    ],
    note: 'kube-apiserver must not skip minor versions even as a single instance: 1.27 -> 1.29 is 1.27 -> 1.28 -> 1.29. Go to the latest patch of the current minor first, then to the latest patch of the target minor.',
    sources: [src(SKEW_SOURCE), src({ copy: MD })],
  },
  starlingx: {
    kubeletMinorSkewTolerance: 3,
    since: '11.0',
    note: 'starlingx/config sysinv enforces KUBELET_MINOR_SKEW_TOLERANCE = 3 (tags 11.0.0, 12.0.0, master) and walks multi-minor upgrades one minor at a time (shared/reference/starlingx/kube-upgrade-facts.md).',
    source: src({ repo: 'starlingx/config', copy: 'shared/reference/starlingx/kube-upgrade-facts.md' }),
  },
  supportedReleases: {
    maintainedMinors: 3,
    patchSupport: [{ to: '1.18', months: 9 }, { from: '1.19', months: 12 }],
    note: 'Plus about 2 months of maintenance mode before EOL for 1.19+ (releases.json has the dates).',
  },
  rules: skewRules,
};

// ---------------------------------------------------------------------------------------------
// write

const silences = components.filter((c) => c.silent).map((c) => ({ component: c.id, silent: c.silent }));
const out = {
  asOf,
  description:
    'Cross-component compatibility: per component (network plugins, host runtime, control-plane images) the image repositories that identify it and, per version, the Kubernetes minors upstream validates (tests), documents (lists as supported/recommended), says "may work", or excludes; plus which versions StarlingX ships with which Kubernetes version. ' +
    'Imported by scripts/import-components.mjs from shared/reference/kubernetes/component-compat.json (every row, sources kept per evidence entry) and shared/reference/starlingx/kube-versions.json.',
  fields: {
    images: 'image repository suffixes: an image matches when its repository (registry prefix and tag removed) equals the suffix or ends with "/" + suffix, e.g. calico/node matches docker.io/calico/node, quay.io/calico/node, registry.local:9001/quay.io/calico/node',
    'versions[].match': 'regular expression for the image tag (the part after ":", before any "@sha256:"); "3.12" rows match v3.12, v3.12.0, 3.12.3-amd64; exact-version rows also accept a -suffix (v4.2.3-thick)',
    'kubernetes.validated': 'minors upstream says it tests (Calico requirements pages)',
    'kubernetes.documented': 'minors upstream lists as supported/recommended without a test claim (containerd RELEASES.md, cri-tools same-minor rule)',
    'kubernetes.documentedFrom': 'open-ended "Kubernetes X.Y+" statement',
    'kubernetes.minimumPatch': 'documented minor -> lowest patch of this line upstream recommends for it (containerd)',
    'kubernetes.mayWork': 'minors upstream says may work but are not tested',
    'kubernetes.incompatible / incompatibleBelow / incompatibleFrom': 'minors upstream says it does not work with (incompatibleBelow: every minor below; incompatibleFrom: that minor and later)',
    'kubernetes.builtAgainst': 'Kubernetes minor of the k8s.io libraries in the version\'s go.mod (k8s.io/* v0.X.Y = 1.X): a hint, never a support claim',
    'kubernetes.starlingx': 'minors some StarlingX release ships this version with (see starlingx.networking / starlingx.host)',
    upstreamMatrix: 'tested | recommended | none (upstream is silent: no per-version Kubernetes statement) | is-kubernetes (the tag is the Kubernetes version)',
    conflicts: 'other upstream revisions that say something different (not used for kubernetes.*)',
    testedWithContainerd: 'containerd versions whose CI pins this version',
    'starlingx.*.upstream': 'derived status of each shipped pairing: validated | documented | below-minimum-patch | may-work | incompatible | not-listed (upstream matrix exists but does not list the minor) | no-matrix (upstream silent) | unknown-version',
  },
  sourcesRead: [
    { name: 'component-compat.json', copy: 'shared/reference/kubernetes/component-compat.json', note: 'per-row sources are kept in each evidence entry' },
    { name: 'StarlingX Kubernetes versions', copy: 'shared/reference/starlingx/kube-versions.json' },
    { name: 'StarlingX image names', repo: 'starlingx/ansible-playbooks', path: 'playbookconfig/src/playbooks/roles/common/load-images-information/vars/k8s-v*/system-images.yml', note: 'read (search-index copies) for k8s-v1.18.1 and k8s-v1.19.13 at 165816eeffe42b772b08fb77b8707cf5cf983a24, k8s-v1.24.4 at 0530faed93f8a864db7e0b4ad3a0ee51051a81fa, k8s-v1.35.2 at 0741269d82843ac48ec88c4444b0a95b20174888; image repositories (quay.io/calico/*, docker.io/nfvpe/multus, ghcr.io/k8snetworkplumbingwg/*, docker.io/starlingx/k8s-cni-sriov, docker.io/starlingx/k8s-plugins-sriov-network-device) used to fill `images`; the other image names (calico/typha, nfvpe/sriov-*, kube-*-amd64, …) are the projects\' well-known repository names, not from the reference material' },
  ],
  silences,
  components,
  starlingx: {
    description: 'Which component versions StarlingX ships: networking images per (release, Kubernetes version) from ansible-playbooks system-images.yml; host runtime packages per release from starlingx/integ (one version per release, used with every Kubernetes version of that release).',
    networking,
    host,
    gaps,
    notes: [
      ...compat.starlingxHostComponents.notes,
      'gaps: Kubernetes versions a release knows (kube-versions.json) for which the material has no networking pairing (e.g. 7.0 on 1.18–1.20, 8.0 on 1.21–1.23, 3.0/4.0 entirely) or no host-component row.',
    ],
  },
};

fs.mkdirSync(path.dirname(outComponents), { recursive: true });
fs.writeFileSync(outComponents, JSON.stringify(out, null, 2) + '\n');
fs.writeFileSync(outSkew, JSON.stringify(skew, null, 2) + '\n');
const nVersions = components.reduce((n, c) => n + c.versions.length, 0);
console.log(`wrote ${path.relative(repoRoot, outComponents)}: ${components.length} components, ${nVersions} version rows, ${networking.length} StarlingX networking pairings, ${host.length} host rows, ${gaps.length} gaps`);
console.log(`wrote ${path.relative(repoRoot, outSkew)}: ${skewRules.length} rules`);
