// The lifecycle of the kube-apiserver's alpha/beta API versions from the generated code (issue #28 item 1):
// shared/reference/kubernetes/prerelease-lifecycle.json holds, per kubernetes/api (and apiextensions-apiserver,
// kube-aggregator) tag 1.16–1.36 and 1.37 (v0.37.0-beta.0, a pre-release), what each group/version/kind's
// zz_generated.prerelease-lifecycle.go declares and the minors the API server serves it at (`servedAt`: compiled in
// and introduced <= minor < removed, k8s.io/apiserver deleted_kinds.go). That is the source of every prerelease row's
// introduced / deprecated / removed; Pluto, kubent and the deprecation guide are kept as cross-checks (`crossChecks`:
// only where they say otherwise), and a documented departure (`departures`) is the only way a row may answer a
// minor differently from `servedAt`. test/k8s-prerelease-lifecycle.test.mjs checks every row at every minor.
import fs from 'node:fs';
import path from 'node:path';
import { compareMinor } from './kubernetes-version.mjs';

export const PRERELEASE_FILE = 'prerelease-lifecycle.json';
const COPY = `shared/reference/kubernetes/${PRERELEASE_FILE}`;

/**
 * Where the generated code and the API server part: the reference's own `openapiDisagreementCauses` explain them.
 * Each departure names the minors it answers differently and the upstream evidence.
 */
export const DEPARTURES = [
  ...['IPAddress', 'ServiceCIDR'].map((kind) => ({
    apiVersion: 'networking.k8s.io/v1alpha1', kind, field: 'removed', value: '1.31', minors: ['1.31', '1.32'],
    why: 'kube-apiserver stopped registering the v1alpha1 storage of IPAddress/ServiceCIDR in 1.31 (the beta went in), although the generated code of networking/v1alpha1 keeps declaring removed=1.33: the upstream OpenAPI documents of 1.31 and 1.32 have no networking.k8s.io/v1alpha1 IPAddress/ServiceCIDR operations while other alpha versions are there, and neither has kube-rs/k8s-pb\'s copy of the v1.31.1 tag.',
    evidence: `${COPY} openapiDisagreements / openapiDisagreementCauses (networking.k8s.io/v1alpha1 at 1.31, 1.32); openapiSources 1.31 and 1.32 (kubernetes-client/python swagger.json.unprocessed, release-1.31 / release-1.32)`,
  })),
  {
    apiVersion: 'storage.k8s.io/v1alpha1', kind: 'CSIStorageCapacity', field: 'introduced', value: '1.21', minors: ['1.19', '1.20'],
    why: 'At 1.19 and 1.20 kube-apiserver registered the CSIStorageCapacity v1alpha1 storage only with the CSIStorageCapacity feature gate (alpha, off by default), which --runtime-config alone does not turn on; the OpenAPI documents of 1.19 and 1.20 (generated without the gate) have no such kind, so its fields cannot be checked there either. From 1.21 the gate is beta (on) and the document has it.',
    evidence: `${COPY} openapiDisagreements / openapiDisagreementCauses (storage.k8s.io/v1alpha1 at 1.19, 1.20); openapiSources 1.19 and 1.20 (godaddy/kubernetes-client swagger-1.19/1.20)`,
  },
];

const minorStr = (m) => `1.${m}`;
export function readPrerelease(refDir, fail) {
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, PRERELEASE_FILE), 'utf8'));
  if (!Array.isArray(ref.gvks) || !Array.isArray(ref.minors)) fail(`${PRERELEASE_FILE}: no gvks/minors`);
  const byKey = new Map(ref.gvks.map((g) => [`${g.apiVersion}|${g.kind}`, g]));
  const first = Number(ref.minors[0].split('.')[1]);
  const last = Number(ref.minors.at(-1).split('.')[1]);
  const preRelease = {};
  for (const r of ref.repos) for (const [m, t] of Object.entries(r.minorTags)) if (t.prerelease) (preRelease[m] ??= []).push(`${r.repo} ${t.tag} (${t.date})`);
  return { ref, byKey, first, last, preRelease };
}

/** The values a prerelease row takes from the generated code (the item kind's for a List kind). */
export function generatedValues(g, item, first) {
  const s = item.servedAt;
  for (let i = 1; i < s.length; i++) if (s[i] !== s[i - 1] + 1) throw new Error(`${g.apiVersion} ${g.kind}: servedAt has a gap`);
  const declaredIntroduced = item.introduced;
  let introduced = declaredIntroduced;
  // A kind whose Go type came after its declared introduced minor (ServiceCIDR v1alpha1: declared 1.27, first compiled
  // in at 1.29) is served from its first compiled-in minor.
  if (s.length && s[0] > first && compareMinor(minorStr(s[0]), declaredIntroduced ?? '0.0') > 0) introduced = minorStr(s[0]);
  const removed = item.firstUnservedMinor != null ? minorStr(item.firstUnservedMinor) : item.removed;
  return { introduced, deprecated: item.deprecated, removed, declaredIntroduced };
}

/**
 * Applies the generated lifecycle to the rows under construction (Map key "apiVersion|kind" -> row) and adds rows
 * for the served alpha/beta kinds that have none. `newRow(apiVersion, kind)` makes an empty k8s row; `previous`
 * gives what Pluto / kubent said of a row (for `crossChecks`). Returns the summary written into the data.
 */
export function applyPrerelease({ rows, refDir, fail, newRow, addSource, addNote, previous, MIG }) {
  const { ref, byKey, first, last, preRelease } = readPrerelease(refDir, fail);
  const genSource = (g, item) => {
    return `${g.repo} ${item.path} (declared at ${item.declaredAt}; ${COPY})`;
  };
  const isPre = (g) => g.stability === 'alpha' || g.stability === 'beta';
  const changed = [];
  const added = [];
  const applied = new Set();
  const apply = (row, g) => {
    const item = g.servingFollows ? byKey.get(`${g.apiVersion}|${g.servingFollows}`) ?? fail(`${g.apiVersion} ${g.kind}: no item kind`) : g;
    const v = generatedValues(g, item, first);
    const dep = DEPARTURES.find((d) => d.apiVersion === row.apiVersion && d.kind === row.kind);
    const before = { introduced: row.introduced, deprecated: row.deprecated, removed: row.removed };
    const prev = previous(row);
    row.introduced = v.introduced;
    row.deprecated = v.deprecated;
    row.removed = v.removed;
    if (dep) {
      row[dep.field] = dep.value;
      row.departures = [{ field: dep.field, value: dep.value, generated: v[dep.field], minors: dep.minors, why: dep.why, evidence: dep.evidence }];
    }
    const cross = {};
    for (const [tool, vals] of Object.entries(prev)) {
      const differs = Object.entries(vals).filter(([f, x]) => x !== undefined && x !== row[f === 'since' ? 'deprecated' : f]);
      if (differs.length) cross[tool] = Object.fromEntries(differs);
    }
    if (Object.keys(cross).length) row.crossChecks = cross;
    if (!row.migration && (row.replacement || row.deprecated || row.removed)) [row.migration, row.migrationNote] = MIG.unknown;
    const src = genSource(g, item);
    row.sources = [src, ...row.sources.filter((s) => s !== src)];
    row.changelogFields = row.changelogFields.filter((f) => !['introduced', 'deprecated', 'removed'].includes(f));
    const pre = item.servedAt.includes(last) || item.firstUnservedMinor === last ? preRelease[minorStr(last)] : null;
    row.lifecycleFrom = {
      reference: COPY,
      repo: g.repo,
      path: item.path,
      declaredAt: item.declaredAt,
      ...(g.servingFollows ? { servingFollows: g.servingFollows } : {}),
      servedAt: item.servedAt.length ? [minorStr(item.servedAt[0]), minorStr(item.servedAt.at(-1))] : [],
      ...(v.declaredIntroduced !== v.introduced ? { declaredIntroduced: v.declaredIntroduced } : {}),
      ...(item.declared.length > 1 ? {
        declaredEarlier: item.declared.slice(0, -1).map((d) => ({ minors: d.minors.map(minorStr), tags: d.tags, introduced: d.introduced, deprecated: d.deprecated, removed: d.removed })),
      } : {}),
      ...(pre ? { preRelease: `${minorStr(last)} is read at ${pre.join(', ')}, a pre-release: its answer for ${minorStr(last)} may change at the release` } : {}),
    };
    // Notes that said a value was unknown or taken from Pluto no longer hold.
    row.notes = row.notes.filter((n) => !/removal release|Deprecation and removal releases|Deprecation not recorded|not vouched for|kept null|removed unknown|Pluto's \d+\.\d+ kept|Lifecycle from the explicit kubernetes\/api tags|The generated lifecycle code says introduced/.test(n));
    if (before.introduced !== row.introduced || before.deprecated !== row.deprecated || before.removed !== row.removed) {
      changed.push({ apiVersion: row.apiVersion, kind: row.kind, before, after: { introduced: row.introduced, deprecated: row.deprecated, removed: row.removed } });
    }
    applied.add(`${row.apiVersion}|${row.kind}`);
  };
  for (const row of rows.values()) {
    if (row.component !== 'k8s' || row.servedBy !== 'kube-apiserver' || !/alpha|beta/.test(row.version ?? '')) continue;
    const g = byKey.get(`${row.apiVersion}|${row.kind}`);
    if (g) apply(row, g);
  }
  // Served alpha/beta kinds without a row (and kinds served only before the first minor read, which a manifest may
  // still name): rows from the generated code alone.
  for (const g of ref.gvks) {
    if (!isPre(g) || g.list || g.notAResource || g.headOnly || rows.has(`${g.apiVersion}|${g.kind}`)) continue;
    if (!g.servedAt.length && !(g.removed && compareMinor(g.removed, minorStr(first)) <= 0)) continue;
    const row = newRow(g.apiVersion, g.kind);
    addSource(row, genSource(g, g));
    const target = g.replacement?.split(' ')[0];
    if (target && rows.has(`${target}|${g.kind}`)) {
      row.replacement = target;
      const t = rows.get(`${target}|${g.kind}`);
      row.replacementAvailable = t.introduced;
    }
    apply(row, g);
    addNote(row, `Row from the generated code alone (in neither Pluto nor kubent): served at ${row.lifecycleFrom.servedAt.length ? row.lifecycleFrom.servedAt.join('–') : `no minor from ${minorStr(first)} on`}.`);
    rows.set(`${g.apiVersion}|${g.kind}`, row);
    added.push(`${g.apiVersion} ${g.kind}`);
  }
  return {
    summary: {
      source: COPY,
      generatedBy: ref.generatedBy,
      generatedOn: ref.generatedOn,
      minors: [minorStr(first), minorStr(last)],
      preRelease: Object.fromEntries(Object.entries(preRelease).map(([m, tags]) => [m, `read at ${tags.join(', ')}: pre-release tags (no ${m}.0 tag in the snapshots read), so what this minor serves may change at the release`])),
      rule: 'served at minor M iff compiled in at the tag of M and introduced <= M < removed (k8s.io/apiserver deleted_kinds.go); a List kind follows its item kind',
      rows: applied.size,
      added,
      changed,
      departures: DEPARTURES.map((d) => ({ apiVersion: d.apiVersion, kind: d.kind, field: d.field, value: d.value, minors: d.minors })),
      notRead: 'alpha/beta kinds without lifecycle functions (the reference\'s prereleaseWithoutLifecycle) that have a Pluto/changelog row (e.g. rbac.authorization.k8s.io/v1alpha1, scheduling.k8s.io/v1alpha1 PriorityClass) keep its values; the others get rows inferred from type presence (`typePresence`); kinds with lifecycle functions only at a branch head (headOnly) get no row',
    },
  };
}

export const TYPE_PRESENCE_CONFIDENCE = 'type-presence';

/**
 * Rows for the alpha/beta kinds that never had lifecycle functions (the reference's `prereleaseWithoutLifecycle`:
 * batch/v2alpha1, settings.k8s.io/v1alpha1, resource.k8s.io/v1alpha1–v1alpha2, scheduling.k8s.io/v1alpha1–v1alpha3 …)
 * and no row yet. Without a row such a kind counts as served at every minor, a silent pass. Nothing declares their
 * lifecycle, so it is inferred from where the Go type exists (`typeAt`, the latest patch tag of each minor):
 *  - introduced = the first minor of typeAt, or null (unknown, before the first minor read) when typeAt starts there;
 *  - removed = the minor after the last of typeAt, when that is a minor read (null while the newest tag has the type);
 *  - earlier when the reference's own OpenAPI cross-check (`openapiServedAt`, documents generated with every API
 *    enabled) shows the kind gone at a minor that has a document while its type stays in kubernetes/api (node.k8s.io/v1alpha1
 *    RuntimeClass: in the documents to 1.22, in none from 1.28, type kept to 1.37): removed = the first such minor, the
 *    minors between without a document named in the row;
 *  - a kind whose type exists only at minors whose documents all lack it is not a served resource (no row).
 * List kinds follow their item kind. Each row says so in `typePresence` and has confidence "type-presence".
 */
export function applyTypePresence({ rows, refDir, fail, newRow, addSource, addNote, MIG }) {
  const { ref, first, last, preRelease } = readPrerelease(refDir, fail);
  const docMinors = new Set((ref.openapiSources ?? []).map((s) => Number(String(s.minor).split('.')[1])));
  const entries = ref.prereleaseWithoutLifecycle ?? fail(`${PRERELEASE_FILE}: no prereleaseWithoutLifecycle`);
  const byKey = new Map(entries.map((x) => [`${x.apiVersion}|${x.kind}`, x]));
  const added = [];
  const skipped = [];
  const values = (x) => {
    const t = x.typeAt;
    if (!t?.length) fail(`${x.apiVersion} ${x.kind}: no typeAt`);
    for (let i = 1; i < t.length; i++) if (t[i] !== t[i - 1] + 1) fail(`${x.apiVersion} ${x.kind}: typeAt has a gap`);
    const oa = x.openapiServedAt ?? [];
    const documented = t.filter((m) => docMinors.has(m));
    if (documented.length === t.length && !documented.some((m) => oa.includes(m))) return { notServed: `its type exists at ${minorStr(t[0])}–${minorStr(t.at(-1))} and no OpenAPI document of those minors has it` };
    let removed = t.at(-1) < last ? t.at(-1) + 1 : null;
    let removedBy = 'typeAt';
    let undocumented;
    const lastSeen = oa.length ? Math.max(...oa) : null;
    const gone = lastSeen === null ? [] : documented.filter((m) => m > lastSeen && !oa.includes(m));
    if (gone.length && (removed === null || gone[0] < removed)) {
      undocumented = t.filter((m) => m > lastSeen && m < gone[0]).map(minorStr);
      removed = gone[0];
      removedBy = 'openapiServedAt';
    }
    return { introduced: t[0] > first ? minorStr(t[0]) : null, removed: removed === null ? null : minorStr(removed), removedBy, undocumented };
  };
  const isList = (x) => x.kind.endsWith('List') && byKey.has(`${x.apiVersion}|${x.kind.slice(0, -4)}`);
  for (const x of [...entries.filter((e) => !isList(e)), ...entries.filter(isList)]) {
    const k = `${x.apiVersion}|${x.kind}`;
    if (x.notAResource || rows.has(k)) continue;
    const itemKind = isList(x) ? x.kind.slice(0, -4) : null;
    const item = itemKind ? byKey.get(`${x.apiVersion}|${itemKind}`) : x;
    if (itemKind && rows.has(`${x.apiVersion}|${itemKind}`) && !added.includes(`${x.apiVersion} ${itemKind}`)) continue; // the item has a row of another source
    const v = values(item);
    if (v.notServed) { skipped.push({ apiVersion: x.apiVersion, kind: x.kind, why: v.notServed }); continue; }
    const row = newRow(x.apiVersion, x.kind);
    row.introduced = v.introduced;
    row.removed = v.removed;
    const t = item.typeAt;
    addSource(row, `${COPY} prereleaseWithoutLifecycle (${item.repo} ${item.dir}: Go type ${item.kind} at the tags of ${minorStr(t[0])}–${minorStr(t.at(-1))}; first tag ${item.typeFirstTag}, last tag ${item.typeLastTag})`);
    if (v.removedBy === 'openapiServedAt') addSource(row, `${COPY} openapiServedAt / openapiSources (${item.kind} in the OpenAPI documents of ${item.openapiServedAt.map(minorStr).join(', ')}; not in that of ${v.removed})`);
    // The kind's GA version in the same group, when there is one still served, is where it goes.
    const ga = [...rows.values()].find((r) => r.component === 'k8s' && r.servedBy === 'kube-apiserver' && r.group === row.group && r.kind === x.kind && /^v\d+$/.test(r.version ?? '') && !r.removed);
    if (ga && row.removed) { row.replacement = ga.apiVersion; row.replacementAvailable = ga.introduced; }
    if (row.removed || row.replacement) [row.migration, row.migrationNote] = row.group === 'resource.k8s.io' && row.replacement ? MIG.dra : MIG.unknown;
    const pre = (v.removedBy === 'typeAt' && (t.at(-1) === last || t.at(-1) + 1 === last)) || t[0] === last ? preRelease[minorStr(last)] : null;
    row.typePresence = {
      reference: COPY,
      entry: 'prereleaseWithoutLifecycle',
      repo: item.repo,
      dir: item.dir,
      ...(itemKind ? { servingFollows: itemKind } : {}),
      typeAt: [minorStr(t[0]), minorStr(t.at(-1))],
      typeFirstTag: item.typeFirstTag,
      typeLastTag: item.typeLastTag,
      ...(item.openapiServedAt ? { openapiServedAt: item.openapiServedAt.map(minorStr) } : {}),
      removedBy: row.removed ? v.removedBy : null,
      ...(v.undocumented?.length ? { removedBetween: [v.undocumented[0], v.removed] } : {}),
      ...(pre ? { preRelease: `${minorStr(last)} is read at ${pre.join(', ')}, a pre-release: its answer for ${minorStr(last)} may change at the release` } : {}),
    };
    addNote(row, `No lifecycle functions (zz_generated.prerelease-lifecycle.go) ever declared this alpha/beta kind: its lifecycle is inferred from the minors whose ${item.repo} tag has the Go type (${minorStr(t[0])}–${minorStr(t.at(-1))} of the ${minorStr(first)}–${minorStr(last)} read), not read from a declaration.`);
    if (v.introduced === null) addNote(row, `introduced unknown: the type is in the first minor read (${minorStr(first)}, first tag ${item.typeFirstTag}); treated as served before any minor asked about.`);
    if (v.removedBy === 'openapiServedAt') {
      addNote(row, `The Go type stays in kubernetes/api to ${minorStr(t.at(-1))}, but the OpenAPI documents (generated with every API enabled) stop having the kind after ${minorStr(Math.max(...item.openapiServedAt))}: removed is the first minor whose document lacks it, ${v.removed}${v.undocumented?.length ? `; ${v.undocumented.join(', ')} have no document in the reference, so the removal may be as early as ${v.undocumented[0]}` : ''}.`);
    }
    rows.set(k, row);
    added.push(`${x.apiVersion} ${x.kind}`);
  }
  return {
    source: `${COPY} prereleaseWithoutLifecycle`,
    rule: 'alpha/beta kinds without lifecycle functions: introduced = first minor whose tag has the Go type (null when that is the first minor read), removed = the minor after the last one (null while the newest tag has it), or the first minor whose OpenAPI document lacks the kind when that is earlier; a List kind follows its item kind',
    confidence: TYPE_PRESENCE_CONFIDENCE,
    added,
    notServed: skipped,
  };
}

/**
 * GA kinds whose generated code declares when they came (APILifecycleIntroduced, generated for GA packages since about
 * 1.31) and that have no row while another apiVersion of the kind has one (resource.k8s.io/v1 DeviceTaintRule: GA in
 * 1.37, its v1alpha3 and v1beta2 rows known). Without a row the GA apiVersion counted as served at every minor; the row
 * says it is served from the first minor that serves it (`servedAt`), as the generated code declares. Kinds declared
 * only at a branch head (headOnly) get no row, as for the alpha/beta kinds.
 */
export function applyGaIntroduced({ rows, refDir, fail, newRow, addSource, addNote }) {
  const { ref, first, last, preRelease } = readPrerelease(refDir, fail);
  const added = [];
  for (const g of ref.gvks) {
    if (g.stability !== 'ga' || g.list || g.notAResource || g.headOnly || !g.servedAt.length || !g.introduced) continue;
    // served from the first minor read on: no row is needed to answer any minor (data/kubernetes/served-stable.json lists such kinds)
    if (g.servedAt[0] <= first) continue;
    if (rows.has(`${g.apiVersion}|${g.kind}`)) continue;
    if (![...rows.values()].some((r) => r.component === 'k8s' && r.servedBy === 'kube-apiserver' && r.kind === g.kind)) continue;
    if (g.removed || g.firstUnservedMinor != null) fail(`${g.apiVersion} ${g.kind}: a GA kind the generated code removes`);
    const row = newRow(g.apiVersion, g.kind);
    const introduced = minorStr(g.servedAt[0]);
    if (compareMinor(introduced, g.introduced) < 0) fail(`${g.apiVersion} ${g.kind}: served at ${introduced}, before its declared introduced ${g.introduced}`);
    row.introduced = introduced;
    addSource(row, `${g.repo} ${g.path} (APILifecycleIntroduced ${g.introduced}, declared at ${g.declaredAt}; ${COPY})`);
    const pre = g.servedAt[0] === last ? preRelease[minorStr(last)] : null;
    row.lifecycleFrom = {
      reference: COPY,
      repo: g.repo,
      path: g.path,
      declaredAt: g.declaredAt,
      servedAt: [minorStr(g.servedAt[0]), minorStr(g.servedAt.at(-1))],
      ...(g.introduced !== introduced ? { declaredIntroduced: g.introduced } : {}),
      ...(pre ? { preRelease: `${minorStr(last)} is read at ${pre.join(', ')}, a pre-release: its answer for ${minorStr(last)} may change at the release` } : {}),
    };
    addNote(row, `GA apiVersion with no other source: introduced is the one its generated lifecycle code declares (APILifecycleIntroduced ${g.introduced}), the first minor whose tag serves it.`);
    rows.set(`${g.apiVersion}|${g.kind}`, row);
    added.push(`${g.apiVersion} ${g.kind}`);
  }
  return added;
}
