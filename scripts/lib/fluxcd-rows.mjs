// FluxCD API lifecycle rows for data/kubernetes/api-lifecycle.json (called by scripts/import-kubernetes.mjs), from
// shared/reference/kubernetes/fluxcd-apis.json: one row per group/version/kind, component "fluxcd", whose versions are
// Flux (fluxcd/flux2) minors ("2.7"), not Kubernetes minors, as cert-manager and istio rows carry their own. The
// reference read the CRDs (versions[].served/deprecated) of the controller versions each flux2 minor tag pins.
// A replacement is named only when the reference names one apiVersion of the same group for the kind; the
// replacement is available from the Flux minor that introduced it. Sanity checks throw.
import fs from 'node:fs';
import path from 'node:path';

const FLUX = 'fluxcd/flux2 (CRDs of the controller versions each minor tag pins), shared/reference/kubernetes/fluxcd-apis.json';
// Pairs whose spec fields were compared upstream (scripts/import-starlingx-apps.mjs VERIFIED): changing only the
// apiVersion keeps the object's meaning. Every other Flux migration is "unknown".
const SAME_FIELDS = {
  'helm.toolkit.fluxcd.io/v2beta1|HelmRelease': 'Every spec field of v2beta1 is a v2 field with the same name and type (fluxcd/helm-controller api/v2beta1 and api/v2 helmrelease_types.go @ 00785fbfa3cb); v2 keeps valuesFile, patchesStrategicMerge and patchesJson6902 as deprecated.',
  'source.toolkit.fluxcd.io/v1beta1|HelmRepository': 'Every spec field of v1beta1 (url, secretRef, interval, timeout) is a v1 field (fluxcd/source-controller api/v1beta1 @ 00bb853d0e63 and api/v1 @ 065d6efd74c2 helmrepository_types.go); v1 makes interval optional.',
};

export function fluxcdRows(refDir, fail) {
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, 'fluxcd-apis.json'), 'utf8'));
  if (!Array.isArray(ref.rows) || ref.rows.length !== 19) fail(`fluxcd-apis.json: expected 19 rows, got ${ref.rows?.length}`);
  const minor = (v) => (v == null ? null : /^\d+\.\d+$/.test(v) ? v : fail(`fluxcd-apis.json: not a Flux minor: ${v}`));
  const out = [];
  for (const r of ref.rows) {
    for (const k of r.perKind) {
      // "v1beta3 (Alert, Provider); v1 (Receiver)" names one replacement per kind; "v1beta1, later v1beta2/v1" none.
      let rep = null;
      if (r.replacement) {
        const per = /\(/.test(r.replacement)
          ? r.replacement.split(';').map((s) => /^\s*(v\w+)\s*\(([^)]*)\)/.exec(s)).find((m) => m && m[2].split(',').map((x) => x.trim()).includes(k.kind))?.[1]
          : /^v\w+$/.test(r.replacement) ? r.replacement : undefined;
        if (per) rep = `${r.group}/${per}`;
      }
      const apiVersion = `${r.group}/${r.version}`;
      const same = SAME_FIELDS[`${apiVersion}|${k.kind}`];
      out.push({
        apiVersion, group: r.group, version: r.version, kind: k.kind, component: 'fluxcd', servedBy: `CRD (fluxcd ${k.introducedIn?.controller ?? 'controllers'})`,
        introduced: minor(k.introducedFlux), deprecated: minor(k.deprecatedFlux), removed: minor(k.removedFlux),
        replacement: rep, replacementAvailable: null,
        migration: same ? 'apiVersion-only' : rep || k.removedFlux || k.deprecatedFlux ? 'unknown' : null,
        migrationNote: same ?? (rep || k.removedFlux || k.deprecatedFlux ? `spec fields of ${apiVersion} and ${rep ?? 'its successor'} not compared; check the spec against the target (flux migrate rewrites stored objects from Flux 2.7)` : null),
        confidence: r.confidence === 'verified-in-source' ? 'changelog' : 'reference',
        changelogFields: ['introduced', ...(k.deprecatedFlux ? ['deprecated'] : []), ...(k.removedFlux ? ['removed'] : [])].sort(),
        sources: [
          `${FLUX}: introduced in ${k.introducedIn.controller} ${k.introducedIn.controllerVersion} (${k.introducedIn.controllerCommit.slice(0, 12)}) ${k.introducedIn.file}`,
          ...(k.deprecatedIn ? [`deprecated: ${k.deprecatedIn.controller} ${k.deprecatedIn.controllerVersion} (${k.deprecatedIn.controllerCommit.slice(0, 12)})`] : []),
          ...(k.removedFlux && k.lastSeenIn ? [`last served by ${k.lastSeenIn.controller} ${k.lastSeenIn.controllerVersion} (${k.lastSeenIn.controllerCommit.slice(0, 12)}), Flux ${k.lastServedFlux}`] : []),
        ],
        note: [
          'Versions are Flux (fluxcd/flux2) minors, not Kubernetes minors.',
          ...(k.deprecationWarning ? [`CRD deprecationWarning: "${k.deprecationWarning}".`] : []),
          ...(r.replacement && !rep ? [`Replacement per the reference: ${r.replacement}.`] : []),
          ...(r.notes ?? []),
        ].join(' '),
      });
    }
  }
  // replacementAvailable: the Flux minor that introduced the replacement for the same kind
  for (const row of out) {
    if (!row.replacement) continue;
    const to = out.find((x) => x.apiVersion === row.replacement && x.kind === row.kind);
    if (!to) {
      // source.extensions.fluxcd.io/v1beta1 names a v1 that no Flux release serves yet: no replacement to move to.
      if (row.removed) fail(`fluxcd: removed ${row.apiVersion} ${row.kind} names replacement ${row.replacement}, which has no row`);
      row.note += ` The reference names ${row.replacement} as its successor, which no Flux release in the reference serves yet; no replacement is given.`;
      row.replacement = null;
      row.migration = null;
      row.migrationNote = null;
      continue;
    }
    row.replacementAvailable = to.introduced;
  }
  const newest = ref.fluxReleases.at(-1);
  const target = {
    version: newest.flux, source: `newest Flux minor in the reference (${newest.tag}, ${newest.date}); a StarlingX release in the configuration checks Flux manifests against the Flux it ships instead`,
  };
  return { rows: out, target };
}
