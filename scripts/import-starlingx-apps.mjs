#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the StarlingX application reference material in
// ../shared/reference/starlingx (relative to the repo root; override with argv[2]) into
//   data/starlingx/app-metadata.json   the keys of an application bundle's metadata.yaml that sysinv reads,
//                                      per release (type, required, valid values, file:line @ tag), what sysinv
//                                      does when Kubernetes is outside supported_k8s_version, and the FluxCD that
//                                      each StarlingX release ships (the Flux CRD apiVersions its cluster serves)
// Read: app-metadata.json, fluxcd-versions.json (both cite starlingx/config and starlingx/ansible-playbooks at the
// release tags). The machine-checkable form of each key (CHECKS below) is written here in own words from the
// reference's per-release rules; the script fails when a reference key has no check or a check no reference key,
// or when a release a check names is not one the reference cites for that key.
// What was checked again upstream through the search tool's code corpus (and what could not be) is in VERIFIED.
// Output is deterministic: fixed order, 2-space JSON, trailing newline. Sanity checks throw.
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('starlingx'));
const outFile = path.join(repoRoot, 'data', 'starlingx', 'app-metadata.json');

function fail(msg) { throw new Error(`import-starlingx-apps: ${msg}`); }
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(refDir, rel), 'utf8'));
/** "12.0.0" -> "12.0"; "master", "master (post-12.0)" -> "master" */
function releaseOf(s) {
  if (/^master\b/.test(s)) return 'master';
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(s);
  if (!m) fail(`not a release: ${s}`);
  return `${Number(m[1])}.${Number(m[2])}`;
}

const meta = readJson('app-metadata.json');
const fluxRef = readJson('fluxcd-versions.json');
const RELEASES = Object.keys(meta.commits).map(releaseOf);
if (RELEASES.join(',') !== '8.0,9.0,10.0,11.0,12.0,master') fail(`releases changed: ${RELEASES}`);
const from = (r) => RELEASES.slice(RELEASES.indexOf(r));
const upTo = (r) => RELEASES.slice(0, RELEASES.indexOf(r) + 1);
const BOOLSTR = ['true', 'false', 'yes', 'no', 'y', 'n', '1', '0'];

// ---------------------------------------------------------------------------------------------
// The checks, per key path, in own words from the reference's per-release `validation` rules.
//   type:      string | mapping | list | boolstr | integer | enum | any
//   required:  releases where a missing key (or, for app_name/app_version, an empty string) is an upload error
//   validated: releases whose validator checks the type/value (others read it unchecked, or ignore it)
//   read:      releases where sysinv reads the key at all (default: the releases the reference cites)
const CHECKS = {
  app_name: { type: 'string', required: RELEASES, nonEmpty: from('9.0'), validated: RELEASES, typeChecked: [] },
  app_version: { type: 'string', required: RELEASES, nonEmpty: from('9.0'), validated: RELEASES, typeChecked: [] },
  upgrades: { type: 'mapping', validated: RELEASES },
  'upgrades.auto_update': { type: 'boolstr', validated: RELEASES, lenient: ['9.0'] },
  'upgrades.update_failure_no_rollback': { type: 'boolstr', validated: RELEASES, lenient: ['9.0'] },
  'upgrades.from_versions': { type: 'list', items: 'string', validated: RELEASES, lenient: ['9.0'], regexItems: ['master'] },
  downgrades: { type: 'mapping', validated: from('10.0') },
  'downgrades.auto_downgrade': { type: 'boolstr', validated: from('10.0') },
  supported_k8s_version: { type: 'mapping', required: from('10.0'), validated: RELEASES },
  'supported_k8s_version.minimum': { type: 'string', required: from('10.0'), validated: RELEASES, format: from('10.0') },
  'supported_k8s_version.maximum': { type: 'string', validated: RELEASES, format: from('10.0') },
  k8s_upgrades: { type: 'mapping', validated: from('9.0') },
  'k8s_upgrades.auto_update': { type: 'boolstr', validated: from('9.0'), lenient: ['9.0'], pairedWith: 'k8s_upgrades.timing' },
  'k8s_upgrades.timing': { type: 'enum', values: ['pre', 'post'], validated: from('9.0'), pairedWith: 'k8s_upgrades.auto_update' },
  supported_releases: { type: 'mapping', values: 'list-of-strings', validated: RELEASES },
  behavior: { type: 'mapping', validated: RELEASES },
  'behavior.platform_managed_app': { type: 'boolstr', validated: RELEASES, lenient: ['9.0'] },
  'behavior.desired_state': { type: 'string', validated: RELEASES },
  'behavior.evaluate_reapply': { type: 'mapping', validated: RELEASES },
  'behavior.evaluate_reapply.after': { type: 'list', validated: upTo('11.0'), lenient: ['9.0'] },
  'behavior.evaluate_reapply.triggers': { type: 'list', items: 'trigger', validated: RELEASES, lenient: ['9.0'] },
  apply_progress_adjust: { type: 'integer', minimum: 0, validated: ['8.0'], read: RELEASES },
  dependent_apps: { type: 'list', items: 'dependency', validated: from('11.0') },
  dependent_parent_exceptions: { type: 'list', items: 'parent-exception', validated: from('11.0') },
  class: { type: 'enum', values: ['critical', 'storage', 'discovery', 'optional', 'reporting'], validated: from('11.0') },
  helm_repo: { type: 'string', validated: [], read: RELEASES },
  disabled_charts: { type: 'list', validated: [], read: RELEASES },
  maintain_user_overrides: { type: 'any', validated: [], read: RELEASES },
  maintain_attributes: { type: 'any', validated: [], read: RELEASES },
};
// The reference lists two keys in one row.
const SPLIT = { 'maintain_user_overrides / maintain_attributes': ['maintain_user_overrides', 'maintain_attributes'] };
// Where the reference cites only some releases for a read-only key, the releases between them are assumed to read it too.
const ASSUMED = {
  helm_repo: 'The reference cites 8.0, 10.0, 12.0 and master (conductor/kube_app.py); 9.0 and 11.0 are assumed to read it as the releases around them do (not cited).',
  disabled_charts: 'The reference cites 8.0, 10.0, 12.0 and master (conductor/kube_app.py); 9.0 and 11.0 are assumed to read it as the releases around them do (not cited).',
  apply_progress_adjust: 'Validated (int >= 0) only by the 8.0 validator; read by the conductor during apply in every release.',
  maintain_user_overrides: 'Read during application-update (conductor/kube_app.py) in 10.0, 12.0 and master per the reference; for 8.0, 9.0 and 11.0 the reference does not say: treated as read (no finding), not verified.',
  maintain_attributes: 'Read during application-update (conductor/kube_app.py) in 10.0, 12.0 and master per the reference; for 8.0, 9.0 and 11.0 the reference does not say: treated as read (no finding), not verified.',
};

// What was read again upstream through the search tool (code corpus), 2026-12-01, and what could not be.
const VERIFIED = [
  { claim: 'HelmRelease: every spec field of helm.toolkit.fluxcd.io/v2beta1 is a spec field of v2 with the same name and type (HelmReleaseSpec, HelmChartTemplateSpec, Install, InstallRemediation, Upgrade, UpgradeRemediation, Test, Rollback, Kustomize post-renderer); v2 adds chartRef, chart.spec.ignoreMissingValuesFiles, test.filters, and keeps valuesFile / patchesStrategicMerge / patchesJson6902 as deprecated',
    result: 'verified', source: 'fluxcd/helm-controller api/v2beta1/helmrelease_types.go and api/v2/helmrelease_types.go @ 00785fbfa3cbcb33d3f0ca3c5a0827a79816a26e (read side by side; v2 Rollback and Uninstall past the first 32,000 characters not read)' },
  { claim: 'HelmRepository: every spec field of source.toolkit.fluxcd.io/v1beta1 (url, secretRef, interval, timeout) is a spec field of v1; v1 adds certSecretRef, passCredentials, insecure, suspend, accessFrom, type, provider; v1 makes interval optional',
    result: 'verified for the v1beta1 file version read', source: 'fluxcd/source-controller api/v1beta1/helmrepository_types.go @ 00bb853d0e6359a89b84bd5321ebfe11bcfe1e97 and api/v1/helmrepository_types.go @ 065d6efd74c243fbc179af9f47ed79fe2909f9bf; later v1beta1 versions (passCredentials, suspend, accessFrom) not read, all three are v1 fields' },
  { claim: 'validate_metadata_file: minimum/maximum are read with .strip().lstrip("v") and must fullmatch ([0-9][.])([0-9]+[.])?([0-9]+), and "the major.minor format will be converted to major.minor.0 (e.g. v1.27 is equal to v1.27.0)"; timing must be "pre" or "post"; k8s_upgrades auto_update and timing need each other; a missing supported_k8s_version or minimum is an error; an empty or missing app_name/app_version is an error; unknown keys are not looked at',
    result: 'verified in the stored version (the 10.0 line, not a release tag)', source: 'starlingx/config sysinv/sysinv/sysinv/sysinv/common/app_metadata.py @ 00420a0c9ece8466696fdca78c36c3fbf011c5d1 (copyright 2023-2024; has downgrades, so 10.0 or later)' },
  { claim: 'app-metadata.json rows at the release tags (app_metadata.py, utils.py, kube_upgrade.py at 8.0.0 … 12.0.0)',
    result: 'not re-read: the search index stores starlingx/config sysinv/common/app_metadata.py, but not at the release-tag commits (read_file: "stored, but not at that commit"); the rows are used as the reference gives them', source: 'starlingx/config sysinv/sysinv/sysinv/sysinv/common/app_metadata.py (search index)' },
  { claim: '8.0.0: a non-string minimum/maximum raises AttributeError instead of a validation error (marked inferred in the reference)',
    result: 'not verified (8.0.0 utils.py not stored at that tag in the search index); kept as inferred: a wrong type is reported as an error for 8.0 either way', source: 'starlingx/config sysinv/sysinv/sysinv/sysinv/common/utils.py:2516,2527 @ 8.0.0 per the reference' },
  { claim: 'The metadata.yaml and fluxcd-manifests of a real application (the example bundle is written after them)',
    result: 'read', source: 'starlingx/metrics-server-armada-app stx-metrics-server-helm/stx-metrics-server-helm/files/metadata.yaml @ b434294dcf9e, fluxcd-manifests/metrics-server/helmrelease.yaml and fluxcd-manifests/base/helmrepository.yaml @ 03e2d54d7c92' },
];

// Field comparisons behind the automatic fixes (see VERIFIED): a pair not listed here gets no automatic fix.
const FIELD_COMPAT = [
  { kind: 'HelmRelease', from: 'helm.toolkit.fluxcd.io/v2beta1', to: 'helm.toolkit.fluxcd.io/v2', sameFields: true, source: VERIFIED[0].source },
  { kind: 'HelmRepository', from: 'source.toolkit.fluxcd.io/v1beta1', to: 'source.toolkit.fluxcd.io/v1', sameFields: true, source: VERIFIED[1].source },
];

// ---------------------------------------------------------------------------------------------
// keys

const refKeys = [];
for (const k of meta.keys) for (const name of SPLIT[k.key] ?? [k.key]) refKeys.push({ ...k, key: name });
const names = refKeys.map((k) => k.key);
for (const n of names) if (!CHECKS[n]) fail(`reference key ${n} has no check`);
for (const n of Object.keys(CHECKS)) if (!names.includes(n)) fail(`check ${n} has no reference key`);

const keys = refKeys.map((k) => {
  const c = CHECKS[k.key];
  const cited = Object.keys(k.validation).map(releaseOf);
  for (const r of c.validated) if (!cited.includes(r)) fail(`${k.key}: validated in ${r}, which the reference does not cite`);
  const read = c.read ?? cited;
  const perRelease = {};
  for (const r of RELEASES) {
    const v = Object.entries(k.validation).find(([t]) => releaseOf(t) === r)?.[1];
    if (!read.includes(r) && !v) continue;
    perRelease[r] = {
      rule: v?.rule ?? 'read, not validated (not cited in the reference for this release; see note)',
      source: v ? `starlingx/config ${v.source}` : null,
      validated: c.validated.includes(r) && !(c.lenient ?? []).includes(r),
      ...(c.required?.includes(r) ? { required: true } : {}),
    };
  }
  const notes = [...k.notes];
  if (ASSUMED[k.key]) notes.push(ASSUMED[k.key]);
  if (c.lenient?.length) notes.push(`Not enforced in ${c.lenient.join(', ')}: the 9.0.0 validator's *_field helpers pass a custom message, so validate_boolstr/validate_list never raise there (app_metadata.py:119-126,136-143 @ 9.0.0).`);
  return {
    key: k.key,
    path: k.key.split('.'),
    type: k.type,
    meaning: k.meaning,
    check: {
      type: c.type,
      ...(c.values ? { values: c.values } : {}),
      ...(c.type === 'boolstr' ? { values: BOOLSTR } : {}),
      ...(c.items ? { items: c.items } : {}),
      ...(c.minimum !== undefined ? { minimum: c.minimum } : {}),
      ...(c.nonEmpty ? { nonEmpty: c.nonEmpty } : {}),
      ...(c.format ? { format: c.format, pattern: '^([0-9][.])([0-9]+[.])?([0-9]+)$', formatNote: 'after a leading "v" is removed' } : {}),
      ...(c.regexItems ? { regexItems: c.regexItems } : {}),
      ...(c.pairedWith ? { pairedWith: c.pairedWith } : {}),
      ...(c.typeChecked ? { typeChecked: c.typeChecked } : {}),
    },
    releases: perRelease,
    notes,
    confidence: k.confidence,
  };
});

// ---------------------------------------------------------------------------------------------
// what sysinv does when Kubernetes is outside supported_k8s_version

const enforcement = {};
for (const e of meta.kubernetesVersionEnforcement) {
  const r = releaseOf(e.release);
  enforcement[r] = {
    compatibility: { rule: e.compatibilityTest.rule, source: `starlingx/config ${e.compatibilityTest.source}` },
    apply: { behaviour: e.apply.behaviour, source: `starlingx/config ${e.apply.source}` },
    update: { behaviour: e.update.behaviour, source: `starlingx/config ${e.update.source}` },
    kubeUpgradeStart: {
      blocksAtApi: /^BLOCKS/.test(e.kubeUpgradeStart.behaviour),
      autoUpdates: !/No automatic app updates/.test(e.kubeUpgradeStart.behaviour),
      behaviour: e.kubeUpgradeStart.behaviour,
      source: `starlingx/config ${e.kubeUpgradeStart.source}`,
    },
    ...(e.bundleSelection ? { bundleSelection: { behaviour: e.bundleSelection.behaviour, source: `starlingx/config ${e.bundleSelection.source}` } } : {}),
    confidence: e.confidence,
  };
}
if (Object.keys(enforcement).join(',') !== RELEASES.join(',')) fail('enforcement releases differ from the key releases');

// ---------------------------------------------------------------------------------------------
// FluxCD per StarlingX release

const flux = fluxRef.rows.map((row) => {
  const release = releaseOf(row.starlingx);
  if (row.fluxcd === null) {
    return { starlingx: release, flux: null, notes: row.notes, confidence: row.confidence, source: `starlingx/ansible-playbooks @ ${row.gitTag} (${row.ansiblePlaybooksCommit}); starlingx/config @ ${row.gitTag} (${row.configCommit})` };
  }
  const version = /^(\d+\.\d+\.\d+)/.exec(row.matchingFlux2Release)?.[1] ?? fail(`${release}: flux release ${row.matchingFlux2Release}`);
  const served = {};
  for (const [gk, list] of Object.entries(row.servedCrdVersions)) {
    served[gk] = list.map((s) => {
      const m = /^(\S+)(?: \[(storage)\]| \((deprecated)\))?$/.exec(s) ?? fail(`${release} ${gk}: ${s}`);
      return { version: m[1], ...(m[2] ? { storage: true } : {}), ...(m[3] ? { deprecated: true } : {}) };
    });
  }
  return {
    starlingx: release,
    flux: version,
    fluxMinor: version.split('.').slice(0, 2).join('.'),
    fluxBasis: row.matchingFlux2ReleaseBasis + (row.matchingFlux2Release !== version ? ` (the reference says "${row.matchingFlux2Release}")` : ''),
    controllers: Object.fromEntries(Object.entries(row.controllers).map(([k, v]) => [k, { tag: v.tag, source: v.source }])),
    deployedControllers: row.deployedControllers,
    crdSource: row.crdSource,
    served,
    sysinvUses: Object.fromEntries(Object.entries(row.sysinvFluxApiConstants ?? {}).map(([k, v]) => [k, { value: v.value, source: v.source }])),
    notes: row.notes,
    confidence: row.confidence,
  };
});
for (const r of flux) if (r.flux && !Object.keys(r.served).length) fail(`${r.starlingx}: no served CRDs`);
// Cross-check: what the StarlingX cluster serves (the CRDs it applies) against what upstream Flux of the same minor
// serves (../kubernetes/fluxcd-apis.json). Differences are written into the row, not resolved: the cluster's CRDs win.
const upstream = JSON.parse(fs.readFileSync(path.join(refDir, '..', 'kubernetes', 'fluxcd-apis.json'), 'utf8'));
const cmpMinor = (a, b) => { const [x, y] = a.split('.').map(Number), [u, v] = b.split('.').map(Number); return x - u || y - v; };
for (const r of flux) {
  if (!r.flux) continue;
  const diffs = [];
  for (const [gk, list] of Object.entries(r.served)) {
    const [group, kind] = gk.split('/');
    const up = upstream.rows.filter((u) => u.group === group).flatMap((u) => u.perKind.filter((k) => k.kind === kind).map((k) => ({ version: u.version, ...k })))
      .filter((k) => cmpMinor(r.fluxMinor, k.introducedFlux) >= 0 && (!k.removedFlux || cmpMinor(r.fluxMinor, k.removedFlux) < 0)).map((k) => k.version).sort();
    const here = list.map((x) => x.version).sort();
    if (up.join(',') !== here.join(',')) diffs.push(`${gk}: StarlingX serves ${here.join(', ')}; upstream Flux ${r.fluxMinor} CRDs serve ${up.join(', ') || 'none'}`);
  }
  r.upstreamCheck = diffs.length ? { agrees: false, differences: diffs } : { agrees: true };
}

const out = {
  asOf: meta.readDate,
  description: 'StarlingX application bundles: the keys of metadata.yaml that sysinv reads per release (type, whether required, valid values, file:line @ tag), what sysinv does when the Kubernetes version is outside supported_k8s_version, and the FluxCD each StarlingX release ships with the Flux CRD apiVersions its cluster serves. '
    + 'Imported by scripts/import-starlingx-apps.mjs from shared/reference/starlingx (app-metadata.json, fluxcd-versions.json).',
  fields: {
    'keys[].check': 'the machine check: type (string | mapping | list | boolstr | integer | enum | any), values, items, nonEmpty / format / regexItems (releases where they apply), pairedWith (the other key that must be set with it)',
    'keys[].releases': 'per release that reads the key: the rule in words, its source, validated (an upload error when wrong), required',
    enforcement: 'per release: the compatibility test and what apply, update and kube-upgrade-start do with an app outside its range',
    flux: 'per StarlingX release: the Flux version its controllers match, the controllers deployed, and per group/Kind the CRD versions served (storage, deprecated)',
    fieldCompat: 'apiVersion pairs whose spec fields were compared upstream; only these get an automatic fix',
    verified: 'what was re-read upstream for this import, and what could not be',
  },
  sources: {
    starlingxConfig: Object.fromEntries(Object.entries(meta.commits).map(([t, c]) => [releaseOf(t), c])),
    validatorLocation: Object.fromEntries(Object.entries(meta.validatorLocation).map(([t, l]) => [releaseOf(t), `starlingx/config ${l}`])),
    entryPoints: meta.validationEntryPoints,
    fluxSnapshots: fluxRef.snapshotDates,
    reference: 'shared/reference/starlingx/app-metadata.json, fluxcd-versions.json (read 2026-12-01)',
  },
  releases: RELEASES,
  caveats: [...meta.caveats, ...fluxRef.caveats],
  keys,
  enforcement,
  flux,
  fieldCompat: FIELD_COMPAT,
  verified: VERIFIED,
};

fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${keys.length} keys, ${Object.keys(enforcement).length} releases, ${flux.length} Flux rows`);
