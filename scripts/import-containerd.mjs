#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): writes data/containerd/config.json, the facts the `containerd` family
// checks a containerd config.toml against, from ../shared/reference/containerd/ (config-keys.json: keys, tables,
// plugin IDs, config versions, migrations and deprecations per containerd tag, extracted from containerd's config
// structs and migration code; kubernetes-support.json: RELEASES.md's Kubernetes support table). See SOURCES.md there.
//
// A window release is a containerd minor ("1.7"); its facts are those of the minor's last covered patch tag (1.7.34),
// and `firstTag` (1.7.0) is named too, so hovers can say where a key appeared inside a minor. Every row cites the tag,
// commit and file:line it was read from. Facts checked by hand against upstream (through the search index) are in
// VERIFIED below, each with where; the rest is the reference material's, as its SOURCES.md says.
// Output is deterministic (fixed order, 2-space JSON, trailing newline). Sanity checks throw.
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = referenceOf('containerd');
const ref = (f) => JSON.parse(fs.readFileSync(path.join(fs.existsSync(refDir) ? refDir : '/work/shared/reference/containerd', f), 'utf8'));
const keysRef = ref('config-keys.json');
const support = ref('kubernetes-support.json');
const outFile = path.join(repoRoot, 'data', 'containerd', 'config.json');

const MINORS = ['1.3', '1.4', '1.5', '1.6', '1.7', '2.0', '2.1', '2.2', '2.3'];
const tags = Object.keys(keysRef.tags).filter((t) => t !== 'main');
const cmp = (a, b) => { const x = a.split('.').map(Number), y = b.split('.').map(Number); for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0); return 0; };

// Facts read by hand in the upstream source (search tool, code corpus) on 2026-12-01; each says where.
const VERIFIED = [
  { fact: 'A version above version.ConfigVersion is a startup error ("expected containerd config version equal to or less than `N`"), checked after every file and import is merged (ValidateVersion in LoadConfigWithPlugins).', repo: 'containerd/containerd', path: 'cmd/containerd/server/config/config.go', commit: '01200cb8c01bf15c3813cdcb67925812d6d11798', agreesWith: 'versionNotes "version greater than N is a startup error" (2.x rows)' },
  { fact: 'An older version is migrated in memory one version at a time (MigrateConfigTo, then each plugin\'s ConfigMigration), with the warning "Configuration migrated from version N, use `containerd config migrate` to avoid migration"; the file is not changed.', repo: 'containerd/containerd', path: 'cmd/containerd/server/config/config.go', commit: '01200cb8c01bf15c3813cdcb67925812d6d11798', agreesWith: 'migrations[] and versionNotes of the 2.x rows' },
  { fact: 'Unknown keys are decoded strictly first, logged as "Ignoring unknown key in TOML" (daemon) / "Ignoring unknown key in TOML for plugin" (plugin sections), then decoded leniently: an unknown key is ignored, not fatal.', repo: 'containerd/containerd', path: 'cmd/containerd/server/config/config.go', commit: '01200cb8c01bf15c3813cdcb67925812d6d11798', agreesWith: 'notes[0]' },
  { fact: 'The v1 short plugin names (cri, cgroups, linux, …) map to full URIs by a fixed table (v1MigratePluginName); cri becomes io.containerd.grpc.v1.cri.', repo: 'containerd/containerd', path: 'cmd/containerd/server/config/config.go', commit: '01200cb8c01bf15c3813cdcb67925812d6d11798', agreesWith: 'migrations[from 1 to 2].shortNameMap' },
  { fact: 'In 2.3 (serviceMigrate, version 3 to 4) grpc/ttrpc/debug/metrics addresses move into the server plugins io.containerd.server.v1.grpc, grpc-tcp, ttrpc, debug and metrics; the top-level tables are kept as deprecated fields.', repo: 'containerd/containerd', path: 'cmd/containerd/server/config/config.go', commit: '01200cb8c01bf15c3813cdcb67925812d6d11798', agreesWith: '2.3 migrations (scope server)' },
];

const releases = MINORS.map((minor) => {
  const mine = tags.filter((t) => t.startsWith(`${minor}.`)).sort(cmp);
  if (!mine.length) throw new Error(`no tag for ${minor}`);
  const first = mine[0], last = mine[mine.length - 1];
  const t = keysRef.tags[last];
  return {
    minor, firstTag: first, lastTag: last, commit: t.commit, firstCommit: keysRef.tags[first].commit,
    configVersions: t.configVersions, currentConfigVersion: t.currentConfigVersion,
    firstConfigVersions: keysRef.tags[first].configVersions,
    criPlugins: Object.keys(t.criPlugins),
    versionNotes: t.versionNotes,
    migrations: (t.migrations ?? []).map((m) => ({ from: m.from, to: m.to, scope: m.scope, plugin: m.plugin ?? null, what: m.what, source: m.source })),
    runtimeOptions: runtimeOptionsOf(last, t),
  };
});

/**
 * Which options struct a runtime's `options` table is decoded into, by its runtime_type (getRuntimeOptionsType), and
 * the fields (TOML keys) of each struct, at one tag: the keys under `options` are read only when they are fields of
 * the struct the runtime_type selects (a Kata runtime's options are the generic TypeUrl/ConfigPath/ConfigBody message).
 * `notExtracted`: runtime types whose struct the reference does not enumerate (runhcs): not judged.
 */
function runtimeOptionsOf(tag, t) {
  const byRuntimeType = {}, notExtracted = [];
  let other = null;
  for (const sel of t.runtimeOptionsBySelector ?? []) {
    const extracted = !sel.optionsSection.startsWith('(');
    if (sel.runtimeType.startsWith('(')) { if (!extracted) throw new Error(`${tag}: the catch-all runtime options struct must be extracted`); other = sel.optionsSection; continue; }
    if (extracted) byRuntimeType[sel.runtimeType] = sel.optionsSection; else notExtracted.push(sel.runtimeType);
  }
  if (!other) throw new Error(`${tag}: no catch-all runtime options struct`);
  const structs = {};
  for (const k of t.keys) {
    if (!k.section || !/\.containerd\.runtimes\.<runtime_name>\.options\.[^.]+$/.test(k.path)) continue;
    if (!t.sections[k.section]) throw new Error(`${tag}: unknown options section ${k.section}`);
    const st = (structs[k.section] ??= { file: t.sections[k.section].file, root: t.sections[k.section].root, fields: [] });
    st.fields.push(k.path.slice(k.path.lastIndexOf('.') + 1));
  }
  for (const s of new Set([...Object.values(byRuntimeType), other])) if (!structs[s]?.fields.length) throw new Error(`${tag}: options struct ${s} has no fields`);
  return { byRuntimeType, other, notExtracted, structs, source: `config-keys.json tags[${tag}].runtimeOptionsBySelector and keys[].section` };
}

// Keys: one row per path (placeholder notation of the reference), the minors whose last patch has it, the type and
// the file:line at the newest such tag. Runtime-options keys exist once per options struct: their selectors are kept.
const rows = new Map();
for (const r of releases) {
  for (const k of keysRef.tags[r.lastTag].keys) {
    const row = rows.get(k.path) ?? { path: k.path, type: k.type, minors: [], firstTags: {}, source: null, appliesWhenRuntimeType: [] };
    if (!row.minors.includes(r.minor)) row.minors.push(r.minor);
    row.type = k.type;
    row.source = { tag: r.lastTag, commit: r.commit, at: k.source };
    if (k.appliesWhenRuntimeType) for (const a of [].concat(k.appliesWhenRuntimeType)) if (!row.appliesWhenRuntimeType.includes(a)) row.appliesWhenRuntimeType.push(a);
    rows.set(k.path, row);
  }
  // Present already in the minor's first covered patch?
  const firstPaths = new Set(keysRef.tags[r.firstTag].keys.map((k) => k.path));
  for (const row of rows.values()) if (row.minors.includes(r.minor)) row.firstTags[r.minor] = firstPaths.has(row.path);
}
const keys = [...rows.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((r) => {
  const out = { path: r.path, type: r.type, minors: r.minors };
  const late = Object.entries(r.firstTags).filter(([, v]) => !v).map(([m]) => m);
  if (late.length) out.notInFirstPatch = late;
  if (r.appliesWhenRuntimeType.length) out.appliesWhenRuntimeType = r.appliesWhenRuntimeType;
  out.source = r.source;
  return out;
});

// A version-2 CRI key read by a 2.x release: where that release's migration puts it and whether it then reads it.
const v2map = {};
for (const r of releases) {
  const m = keysRef.tags[r.lastTag].criKeyMapFromV2Config;
  if (!m) continue;
  v2map[r.minor] = Object.fromEntries(m.rows.map((row) => [row.from, row.targets.map((t) => ({ to: t.to, how: t.how, known: t.knownAtThisTag }))]));
}

// Deprecations of config keys and tables (not behaviours): the catalog, with the minors that warn about them.
const deprecations = Object.entries(keysRef.deprecationCatalog)
  .filter(([, d]) => d.kind === 'config-key' || d.kind === 'config-section')
  .map(([id, d]) => {
    const where = [];
    for (const r of releases) {
      const at = keysRef.tags[r.lastTag].deprecations.find((x) => x.id === id);
      if (at) where.push({ minor: r.minor, tag: r.lastTag, definedAt: at.definedAt, emittedAt: at.emittedAt, removalPerMessage: at.removalPerMessageAtThisTag ?? null });
    }
    return { id, key: d.key, key2x: d.key2x ?? null, kind: d.kind, meaning: d.meaning, replacement: d.replacement, deprecatedIn: d.deprecatedIn, removedIn: d.removedIn, warnedBy: where };
  });

// Removals RELEASES.md announces but that have not happened yet (the newest covered tag's "Deprecated config properties"
// rows whose target is a release after it, e.g. "containerd v2.4"): recorded with that announced target, said as such.
const newestTag = releases[releases.length - 1].lastTag;
const mdConfig = keysRef.tags[newestTag].releasesMdDeprecatedConfig;
const lastKey = (k) => (k ? k.slice(k.lastIndexOf('.') + 1).replace(/^"|"$/g, '') : null);
for (const d of deprecations) {
  if (d.removedIn) continue;
  const group = (k) => (k ? `[${k.slice(0, k.lastIndexOf('.'))}]` : null);
  const row = mdConfig.rows.find((r) => {
    const props = r.property.split(/,\s*/);
    if (d.kind === 'config-section') return r.group === `[${d.key}]`;
    return props.includes(lastKey(d.key)) && (r.group === group(d.key) || r.group === group(d.key2x));
  });
  const m = row && /^containerd v(\d+\.\d+)$/.exec(row.targetRemoval.trim());
  if (!m || cmp(m[1], releases[releases.length - 1].minor) <= 0) continue;
  d.announcedRemoval = { release: m[1], source: { file: 'RELEASES.md', at: mdConfig.source, tag: newestTag, commit: keysRef.tags[newestTag].commit, row: `${row.group} ${row.property}: deprecated ${row.deprecationRelease}, target removal ${row.targetRemoval}` } };
}
if (!['io.containerd.deprecation/cri-registry-mirrors', 'io.containerd.deprecation/cri-registry-configs', 'io.containerd.deprecation/cri-registry-auths', 'io.containerd.deprecation/cri-cni-bin-dir', 'io.containerd.deprecation/enable-cdi']
  .every((id) => deprecations.find((d) => d.id === id)?.announcedRemoval?.release === '2.4')) throw new Error('the removals RELEASES.md announces for 2.4 must be recorded');

// Runtimes 2.0 removed (RELEASES.md "Deprecated features", "(done)" in 2.0.0's table; containerd/containerd PR 8262
// removed both): the runtime_type values and the v1 runtime plugin's table, from the catalog's value deprecations.
const mdFeatures = keysRef.tags[releases.find((r) => r.minor === '2.0').firstTag].releasesMdDeprecatedFeatures;
const RUNTIME_VALUES = ['io.containerd.deprecation/runtime-v1', 'io.containerd.deprecation/runtime-runc-v1'];
const removedRuntimes = Object.entries(keysRef.deprecationCatalog).filter(([id]) => RUNTIME_VALUES.includes(id)).map(([id, d]) => {
  const value = id.endsWith('/runtime-v1') ? 'io.containerd.runtime.v1.linux' : id.endsWith('/runtime-runc-v1') ? 'io.containerd.runc.v1' : null;
  if (!value || d.kind !== 'value') throw new Error(`unknown runtime deprecation ${id}`);
  const row = mdFeatures.rows.find((r) => r.component.includes(`(${value})`));
  if (!row || !/^containerd v2\.0 \(done\)$/.test(row.targetRemoval) || d.removedIn !== '2.0') throw new Error(`${value}: RELEASES.md at 2.0.0 must say removed in 2.0`);
  return {
    id, value, valueOf: d.valueOf, meaning: d.meaning, replacement: d.replacement, deprecatedIn: d.deprecatedIn, removedIn: d.removedIn,
    // The v1 runtime is also a plugin with its own table (shim, runtime, no_shim …); version 1 files call it "linux".
    ...(value === 'io.containerd.runtime.v1.linux' ? { pluginTables: ['plugins."io.containerd.runtime.v1.linux"', 'plugins.linux'] } : {}),
    sources: [
      { file: 'RELEASES.md', at: mdFeatures.source, tag: releases.find((r) => r.minor === '2.0').firstTag, commit: releases.find((r) => r.minor === '2.0').firstCommit, row: `${row.component}: deprecated ${row.deprecationRelease}, removal ${row.targetRemoval}` },
      { pr: 'containerd/containerd#8262', what: 'Remove io.containerd.runtime.v1.linux and io.containerd.runc.v1 (merged 2023-03, before v2.0.0)' },
    ],
  };
});

if (removedRuntimes.length !== 2) throw new Error('two runtimes removed in 2.0');
const kubernetes = {
  source: { repo: support.source.repo, file: support.source.file, tag: support.source.newestReleaseTag, commit: support.source.newestReleaseCommit, note: support.source.note },
  containerdMinorToKubernetes: support.containerdMinorToKubernetes,
  lastKubernetesMinorForContainerd1x: support.lastKubernetesMinorListingContainerd1x,
  configVersionMinimumContainerd: support.configVersionMinimumContainerd,
  supportMatrix: support.supportMatrix,
};

const out = {
  description: 'containerd config.toml facts per containerd minor (its last covered patch tag), from containerd\'s config structs, migration code and RELEASES.md; imported by scripts/import-containerd.mjs from ../shared/reference/containerd (see its SOURCES.md).',
  source: { repo: keysRef.source.repo, tags: keysRef.source.tags, pathNotation: keysRef.source.pathNotation },
  notes: keysRef.notes,
  releases, keys, v2map, deprecations, removedRuntimes, kata: keysRef.kata, kubernetes, verified: VERIFIED,
};
// Sanity.
if (!releases.find((r) => r.minor === '1.7').configVersions.includes(2) || releases.find((r) => r.minor === '1.7').configVersions.includes(3)) throw new Error('1.7 must read version 2 and not 3');
if (releases.find((r) => r.minor === '2.3').currentConfigVersion !== 4) throw new Error('2.3 writes version 4');
if (!keys.find((k) => k.path === 'plugins."io.containerd.grpc.v1.cri".systemd_cgroup')) throw new Error('systemd_cgroup missing');
{
  const ro = releases.find((r) => r.minor === '1.7').runtimeOptions;
  if (ro.byRuntimeType['io.containerd.runc.v2'] !== 'runc-options' || ro.other !== 'runtime-options-generic' || ro.structs[ro.other].fields.join() !== 'TypeUrl,ConfigPath,ConfigBody') throw new Error('1.7 runtime options selection');
}
const text = JSON.stringify(out, null, 2) + '\n';
// Freshness is checked once for every table: npm run gen:data -- --check (test/data-fresh.test.mjs).
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, text);
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${keys.length} keys; per minor: ${releases.map((r) => `${r.minor} ${keys.filter((k) => k.minors.includes(r.minor)).length}`).join(', ')}`);
