#!/usr/bin/env node
// Writes data/kubernetes/fields/component-config.json: the field table of the Kubernetes component configuration
// files (kubeadm Init/Cluster/Join/Reset/UpgradeConfiguration, KubeletConfiguration, CredentialProviderConfig,
// KubeProxyConfiguration, KubeSchedulerConfiguration and its plugin-args kinds, the kube-apiserver's Encryption/
// Admission/Authentication/Authorization/Tracing/EgressSelector configurations, audit Policy,
// LeaderMigrationConfiguration), 1.16–1.37, from ../shared/reference/kubernetes/component-config-fields.json (and the `added` values of component-config-apis.json; facts
// extracted from the Go types and their json tags at each minor's tag; kubeadm from the copy the kubernetes.io
// reference is generated from; see that folder's SOURCES.md and the caveats kept in `caveats` below).
//
// The output has the layout of data/kubernetes/fields/fields.json (`kinds`: "apiVersion kind" -> [[model, first,
// last], ...]; `models`: model -> {seen, fields: name -> type | [[type, first, last], ...]}) so that the engine's
// field accessor (server/src/engine/families/kubernetes/data/fields.ts) serves both tables through one walk, and the field rules,
// hover and completion read component configuration files as they read manifests. A nested object's model is named
// by its kind and JSON path ("kubeadm.k8s.io/v1beta4 ClusterConfiguration.apiServer.extraArgs[]"); types are those of
// fields.json (string, integer, number, boolean, int-or-string, object = free-form JSON, a model, []T, {}T).
//   node scripts/import-k8s-component-fields.mjs          (writes the file)
// Deterministic output: fixed key order, one model per line (the layout fields.ts reads lazily).
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = referenceOf('kubernetes');
const REF_FILE = 'component-config-fields.json';
const APIS_FILE = 'component-config-apis.json';
export const OUT = path.join(repoRoot, 'data', 'kubernetes', 'fields', 'component-config.json');

const minorOf = (s) => { const m = /^1\.(\d+)$/.exec(s); if (!m) throw new Error(`not a minor: ${s}`); return Number(m[1]); };
/** "1.16-1.37" / "1.18" -> [16, 37] / [18, 18]. */
const runOf = (s) => { const [a, b] = s.split('-'); return [minorOf(a), minorOf(b ?? a)]; };

/** The table type of a reference type at `path` (its models are named after the path). */
function typeOf(kindKey, p, entry) {
  const conv = (t, at) => {
    if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean') return t;
    if (t === 'string|number' || t === 'string|integer' || t === 'integer|string') return 'int-or-string';
    if (t === 'object') return entry.open && at === p ? 'object' : `${kindKey}.${at}`;
    let m = /^array<(.+)>$/.exec(t);
    if (m) return `[]${conv(m[1], `${at}[]`)}`;
    m = /^map<string,(.+)>$/.exec(t);
    if (m) return `{}${conv(m[1], `${at}{}`)}`;
    throw new Error(`${kindKey} ${p}: unknown type ${t}`);
  };
  return conv(entry.type, p);
}

/** Parent object path and own name of a reference path: "apiServer.extraArgs[].name" -> ["apiServer.extraArgs[]", "name"]. */
function split(p) {
  const i = p.lastIndexOf('.');
  return i < 0 ? ['', p] : [p.slice(0, i), p.slice(i + 1)];
}

/** Intervals of minors (within `runs`) where a field has each type: [[type, a, b], ...]. */
function intervals(runs, has, typeAt) {
  const out = [];
  for (const [a, b] of runs) {
    for (let m = a; m <= b; m++) {
      if (!has(m)) continue;
      const t = typeAt(m);
      const last = out[out.length - 1];
      if (last && last[0] === t && last[2] === m - 1) last[2] = m; else out.push([t, m, m]);
    }
  }
  return out;
}

/**
 * Values a field takes only from some minor (kube-proxy `mode: nftables` from 1.29): the `added` rows of
 * component-config-apis.json's fieldChanges that name a `field: value`, with the row's sources and notes.
 */
export function valueFacts(apis) {
  const out = [];
  for (const r of apis?.fieldChanges ?? []) {
    if (!/^added\b/.test(r.change) || r.group.includes(' ')) continue;
    for (const m of r.field.matchAll(/\b([A-Za-z][\w.]*): ([\w-]+)/g)) {
      out.push({ apiVersion: `${r.group}/${r.version}`, kind: r.kind, path: m[1].split('.'), value: m[2], from: minorOf(r.minor), change: r.change, notes: r.notes ?? [], sources: r.sources, confidence: r.confidence ?? null });
    }
  }
  return out;
}

export function build(ref, apis) {
  const kinds = {};
  const models = {};
  const readBy = {};
  const formats = {};
  const files = {};
  let paths = 0;
  for (const kindKey of Object.keys(ref.kinds).sort()) {
    const k = ref.kinds[kindKey];
    const runs = k.minors.map(runOf);
    kinds[kindKey] = runs.map(([a, b]) => [kindKey, a, b]);
    readBy[kindKey] = k.readBy;
    files[kindKey] = k.files.map((f) => `${f.repo} ${f.path} (${f.minors.join(', ')})`);
    const model = (name) => (models[name] ??= { seen: runs.map((r) => [...r]), fields: {} });
    model(kindKey);
    for (const p of Object.keys(k.fields)) {
      const e = k.fields[p];
      paths++;
      const [parent, name] = split(p);
      const owner = parent ? `${kindKey}.${parent}` : kindKey;
      const intro = minorOf(e.introduced);
      const removed = e.removed ? minorOf(e.removed) : Infinity;
      const onlyIn = e.minors ? e.minors.map(runOf) : undefined;
      const has = (m) => m >= intro && m < removed && (!onlyIn || onlyIn.some(([a, b]) => m >= a && m <= b));
      const hist = (e.typeHistory ?? []).map((h) => ({ run: runOf(h.minors), type: typeOf(kindKey, p, { ...e, type: h.type }) }));
      const base = typeOf(kindKey, p, e);
      const typeAt = (m) => hist.find((h) => m >= h.run[0] && m <= h.run[1])?.type ?? base;
      const iv = intervals(runs, has, typeAt);
      if (!iv.length) throw new Error(`${kindKey} ${p}: at no minor of the kind`);
      const whole = iv.length === runs.length && iv.every(([t, a, b], i) => t === iv[0][0] && a === runs[i][0] && b === runs[i][1]);
      model(owner).fields[name] = whole ? iv[0][0] : iv;
      // Nested models exist wherever their kind does (a field's own minors bound its children's).
      const inner = base.replace(/^(\[\]|\{\})+/, '');
      if (inner.startsWith(`${kindKey}.`)) model(inner);
      if (e.format) formats[`${owner}.${name}`] = e.format;
    }
  }
  // Sanity: the spot checks of the reference, and the cases this table exists for.
  const need = (kindKey, p, what) => { if (!what) throw new Error(`sanity: ${kindKey} ${p}`); };
  const f = (m, n) => models[m]?.fields[n];
  need('v1beta4 extraArgs', 'list', f('kubeadm.k8s.io/v1beta4 ClusterConfiguration.apiServer', 'extraArgs') === '[]kubeadm.k8s.io/v1beta4 ClusterConfiguration.apiServer.extraArgs[]');
  need('v1beta3 extraArgs', 'map', f('kubeadm.k8s.io/v1beta3 ClusterConfiguration.apiServer', 'extraArgs') === '{}string');
  need('failCgroupV1', '1.31', JSON.stringify(f('kubelet.config.k8s.io/v1beta1 KubeletConfiguration', 'failCgroupV1')) === '[["boolean",31,37]]');
  need('nftables', '1.29', JSON.stringify(f('kubeproxy.config.k8s.io/v1alpha1 KubeProxyConfiguration', 'nftables')) === '[["kubeproxy.config.k8s.io/v1alpha1 KubeProxyConfiguration.nftables",29,37]]');
  if (!valueFacts(apis).some((v) => v.kind === 'KubeProxyConfiguration' && v.value === 'nftables' && v.from === 29)) throw new Error('sanity: mode: nftables from 1.29');
  for (const s of ref.spotChecks ?? []) if (!s.ok) throw new Error(`reference spot check failed: ${s.kind} ${s.path}`);
  const firsts = Object.values(kinds).flat().map((r) => r[1]);
  const lasts = Object.values(kinds).flat().map((r) => r[2]);
  return {
    description: 'Field table of the Kubernetes component configuration files (kubeadm, kubelet, kube-proxy, kube-scheduler, kube-apiserver configuration files, audit Policy, leader migration), '
      + `Kubernetes 1.${Math.min(...firsts)} ... 1.${Math.max(...lasts)}. Written by scripts/import-k8s-component-fields.mjs from ../shared/reference/kubernetes/${REF_FILE} `
      + '(Go struct types and json tags at the latest patch tag of each minor; see that folder\'s SOURCES.md). Same layout as fields.json: `kinds` "apiVersion kind" -> [[model, firstMinor, lastMinor], ...], '
      + '`models` model -> {seen, fields: name -> type | [[type, firstMinor, lastMinor], ...]}; a nested object\'s model is named by its kind and JSON path. Every minor of a kind\'s span has a source of its own (no gaps). '
      + '`values`: a value a field takes only from some minor (fieldChanges of component-config-apis.json). `formats`: "Model.field" -> the reference\'s format (duration, quantity, date-time, byte, bootstrap-token, nanoseconds). `readBy`: the component reading each kind. `files`: the files read per kind.',
    source: { file: `../shared/reference/kubernetes/${REF_FILE}`, generatedBy: ref.generatedBy, generatedOn: ref.generatedOn, minorTags: ref.minorTags, kubeadmSources: ref.kubeadmSources, kubeadmCorrections: ref.kubeadmCorrections },
    preReleaseMinors: ref.preReleaseMinors,
    caveats: [
      'kubeadm is not read per minor from upstream tags: v1beta2 at 1.16-1.19 is assumed equal to the 1.20 copy; v1beta4 1.32 and 1.34-1.36 come from the copy plus two corrections (source.kubeadmCorrections)',
      'a kind is listed at the minors whose source has the type (accepted by that binary as far as source presence says); its deprecation and removal are in api-lifecycle.json componentConfig',
      'feature-gated fields are listed from the minor the type has them',
      'kube-scheduler 1.18 matches v1 Extender keys case-insensitively (caseInsensitiveKeys in the reference); the table holds the canonical spelling only',
      ...(ref.notCovered ?? []).map((x) => `not covered: ${x}`),
    ],
    counts: { kinds: Object.keys(kinds).length, paths, models: Object.keys(models).length },
    values: valueFacts(apis),
    kinds, readBy, files, formats, models,
  };
}

/** The JSON text, one model per line (fields.ts readFieldTable parses each model when first asked for). */
export function render(out) {
  const { models, ...head } = out;
  const lines = Object.keys(models).map((m) => `${JSON.stringify(m)}:${JSON.stringify(models[m])}`);
  const top = JSON.stringify(head, null, 1);
  return `${top.slice(0, -2)},\n"models":{\n${lines.join(',\n')}\n}\n}\n`;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, REF_FILE), 'utf8'));
  const apis = JSON.parse(fs.readFileSync(path.join(refDir, APIS_FILE), 'utf8'));
  const text = render(build(ref, apis));
  // Freshness is checked once for every table: npm run gen:data -- --check (test/data-fresh.test.mjs).
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, text);
  const o = JSON.parse(text);
  console.log(`wrote ${path.relative(repoRoot, OUT)}: ${o.counts.kinds} kinds, ${o.counts.paths} paths, ${o.counts.models} models`);
}
