// Component configuration API rows for data/kubernetes/api-lifecycle.json (called by scripts/import-kubernetes.mjs),
// from shared/reference/kubernetes/component-config-apis.json: kubeadm, kubelet, kube-proxy, kube-scheduler,
// kube-controller-manager and kube-apiserver configuration files. These are NOT served by kube-apiserver: a component
// reads them from disk (`readBy`), so `servedBy` is "<component> config file" and served.ts leaves them out of
// discovery. Versions are Kubernetes minors (kubeadm's are its Kubernetes minor). "removed" = first minor whose
// component no longer reads it. audit.k8s.io rows already come from Pluto/kubent and are left to the main script
// (only `readBy` is added there). Sanity checks throw.
import fs from 'node:fs';
import path from 'node:path';

const REF = 'shared/reference/kubernetes/component-config-apis.json';
const READ_BY = {
  'kubeadm.k8s.io': 'kubeadm',
  'kubelet.config.k8s.io': 'kubelet',
  'kubeproxy.config.k8s.io': 'kube-proxy',
  'kubescheduler.config.k8s.io': 'kube-scheduler',
  'kubecontrollermanager.config.k8s.io': 'kube-controller-manager',
  'apiserver.config.k8s.io': 'kube-apiserver',
  'apiserver.k8s.io': 'kube-apiserver',
  'audit.k8s.io': 'kube-apiserver',
};
// Kinds left out, with why (written into the data's `componentConfig.omitted`).
const OMIT = {
  'plugin Args kinds': 'the reference does not list the plugin Args kinds of this version one by one',
  SerializedNodeConfigSource: 'kubelet-internal checkpoint of the removed dynamic kubelet config, not a file users write',
  ImagePullIntent: 'kubelet-internal image pull record (KEP-2535), not user configuration',
  ImagePulledRecord: 'kubelet-internal image pull record (KEP-2535), not user configuration',
};
// What was checked against upstream source through the search tool (code corpus) while importing, per apiVersion.
export const VERIFIED = {
  'kubeadm.k8s.io/v1beta3': 'deprecation verified: kubernetes/kubernetes cmd/kubeadm/app/apis/kubeadm/v1beta3/doc.go says "DEPRECATED: v1beta3 is deprecated in favor of v1beta4 and will be removed in a future release, 1.34 or later" (search-index copy). The removal minor 1.37 is from the reference (PR 136016, CHANGELOG-1.37 v1.37.0-alpha.1); not verified in source here.',
  'kubeadm.k8s.io/v1beta1': 'deprecation verified: cmd/kubeadm/app/apis/kubeadm/v1beta1/doc.go says "Package v1beta1 has been deprecated by v1beta2" (search-index copy; the tag is not named by the index).',
};
// Marked "inferred" in the reference: what was done about it here (the scheduler one was searched for in the code corpus).
export const NOT_VERIFIED = {
  'kubescheduler.config.k8s.io/v1beta1': 'deprecated 1.22 is inferred from v1beta2 appearing in 1.22; no upstream statement of a v1beta1 deprecation (doc.go, changelog) was found in the code corpus, so the minor is kept as the reference gives it.',
  'kubecontrollermanager.config.k8s.io/v1alpha1': 'whether kube-controller-manager reads this kind from a --config file was not looked up here; the row only records that the type is registered.',
  'apiserver.config.k8s.io/v1alpha1': 'EncryptionConfiguration v1alpha1 removal (package gone at 1.14) is inferred from the package listing; not looked up here.',
};
// Migration notes (field changes between the version and its replacement), from the reference's fieldChanges/notes.
const MIGRATION = {
  'kubeadm.k8s.io/v1beta2': ['spec-changes', 'kubeadm.k8s.io/v1beta3 removed ClusterConfiguration.useHyperKubeImage and dns.type and the ClusterStatus kind, and moved BootstrapToken* to the bootstraptoken group; convert with `kubeadm config migrate` of kubeadm 1.22-1.26.'],
  'kubeadm.k8s.io/v1beta3': ['spec-changes', 'kubeadm.k8s.io/v1beta4 turns every extraArgs map (apiServer, controllerManager, scheduler, etcd.local, nodeRegistration.kubeletExtraArgs) into a list of {name, value}, moves JoinConfiguration.discovery.timeout and apiServer.timeoutForControlPlane under timeouts; convert with `kubeadm config migrate` of kubeadm 1.31-1.36.'],
  'kubeadm.k8s.io/v1beta1': ['spec-changes', 'convert with `kubeadm config migrate` of kubeadm 1.15-1.21.'],
};

function minorOr(v, fail, what) {
  if (v == null) return { minor: null };
  const s = String(v);
  if (/^\(/.test(s)) return { minor: null, note: `${what}: ${s.slice(1, -1)} (no minor given)` };
  if (/^<=\d+\.\d+/.test(s)) return { minor: null, note: `${what} ${s} (present in the first release the reference read; treated as served since before any minor asked about)` };
  const m = /^(\d+\.\d+)(?:\s*\((.*)\))?$/.exec(s);
  if (!m) fail(`${REF}: cannot read ${what} ${s}`);
  return { minor: m[1], note: m[2] ? `${what} ${m[1]}: ${m[2]}` : undefined, inferred: /inferred/.test(m[2] ?? '') };
}

export function componentConfigRows(refDir, fail) {
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, 'component-config-apis.json'), 'utf8'));
  if (!Array.isArray(ref.rows) || ref.rows.length !== 24) fail(`${REF}: expected 24 rows, got ${ref.rows?.length}`);
  const rows = [];
  const omitted = [];
  for (const r of ref.rows) {
    const readBy = READ_BY[r.group] ?? fail(`${REF}: no component for group ${r.group}`);
    const apiVersion = `${r.group}/${r.version}`;
    if (r.group === 'audit.k8s.io') continue; // rows from Pluto/kubent; readBy added by the main script
    if (/placeholder|experimental/.test(String(r.introduced))) {
      omitted.push({ apiVersion, kinds: r.kinds, why: `introduced "${r.introduced}": ${r.notes.join(' ')} No minor reads it yet, so it gets no lifecycle row.`, sources: r.sources });
      continue;
    }
    const intro = minorOr(r.introduced, fail, 'introduced');
    const dep = minorOr(r.deprecated, fail, 'deprecated');
    const rem = minorOr(r.removed, fail, 'removed');
    for (const k0 of r.kinds) {
      const km = /^(\w+)(?:\s*\((\d+\.\d+)(\+| only)?\))?$/.exec(k0) ?? [k0, k0];
      const kind = km[1];
      // "apiserver.config.k8s.io/v1 AdmissionConfiguration; apiserver.k8s.io/v1beta1 EgressSelectorConfiguration": per kind.
      const repText = r.replacement?.includes(';') ? r.replacement.split(';').map((x) => x.trim()).find((x) => x.endsWith(` ${kind}`)) : r.replacement;
      const rep = repText ? /^([a-z0-9.]+\/v\w+)(?:\s|$)/.exec(repText)?.[1] ?? null : null;
      if (OMIT[k0] || OMIT[kind]) { omitted.push({ apiVersion, kinds: [k0], why: OMIT[k0] ?? OMIT[kind], sources: r.sources }); continue; }
      if (!/^[A-Z]\w+$/.test(kind)) fail(`${REF}: cannot read kind ${k0}`);
      const notes = [`Not served by kube-apiserver: a ${readBy} configuration file, read from disk by ${readBy}; "removed" is the first ${readBy} minor that no longer reads it.`];
      for (const n of [intro.note, dep.note, rem.note]) if (n) notes.push(n);
      let introduced = intro.minor;
      let removed = rem.minor;
      if (km[2]) {
        introduced = km[2];
        if (km[3] === ' only') {
          // "EncryptionConfiguration (1.12 only)": the reference's note says the package exists at 1.12 and 1.13, gone at 1.14.
          const gone = r.notes.map((n) => new RegExp(`^${kind} ${r.version}: .*gone at (\\d+\\.\\d+)`).exec(n)).find(Boolean);
          removed = gone ? gone[1] : fail(`${REF}: ${apiVersion} ${kind}: "${k0}" without a removal minor in the notes`);
          notes.push(`Kind listed as "${k0}"; removed ${removed} taken from the note "${r.notes.find((n) => n.startsWith(kind))}".`);
        }
      }
      notes.push(...r.notes);
      const inferred = [intro, dep, rem].some((x) => x.inferred) || r.notes.some((n) => /inferred/.test(n));
      if (VERIFIED[apiVersion]) notes.push(`Verified: ${VERIFIED[apiVersion]}`);
      else if (inferred) notes.push(`Part of this row is marked "inferred" in the reference and was not verified against upstream source here${NOT_VERIFIED[apiVersion] ? `: ${NOT_VERIFIED[apiVersion]}` : '.'}`);
      const [migration, migrationNote] = MIGRATION[apiVersion] ?? (rep ? ['unknown', `fields of ${apiVersion} and ${rep} not compared; check the file against ${rep}`] : [null, null]);
      rows.push({
        apiVersion, group: r.group, version: r.version, kind, component: 'k8s',
        servedBy: `${readBy} config file`, readBy,
        introduced, deprecated: dep.minor, removed,
        replacement: rep, replacementAvailable: null,
        migration, migrationNote,
        // Every value comes from upstream source or docs named in `sources` (the reference's own confidence is in the
        // first source: verified-in-source = read in the staging mirror's register.go at the tag; documented = PRs/docs).
        confidence: 'changelog',
        ...(introduced || dep.minor || removed ? { changelogFields: ['deprecated', 'introduced', 'removed'].filter((f) => ({ introduced, deprecated: dep.minor, removed })[f] != null) } : {}),
        sources: [`${REF} (${r.confidence})`, ...r.sources],
        note: notes.join(' '),
      });
    }
  }
  // replacementAvailable: the minor from which the replacement apiVersion is read for the same kind.
  for (const row of rows) {
    if (!row.replacement) continue;
    const to = rows.find((x) => x.apiVersion === row.replacement && x.kind === row.kind);
    if (to) { row.replacementAvailable = to.introduced; continue; }
    // The replacement apiVersion has no such kind (kubeadm v1beta3 dropped ClusterStatus).
    row.note += ` ${row.replacement} has no ${row.kind}: no replacement for this kind.`;
    row.replacement = null;
    row.migration = 'no-replacement';
    row.migrationNote = `${row.kind} has no successor kind in the sources read.`;
  }
  const kubeadm = rows.filter((r) => r.group === 'kubeadm.k8s.io');
  const v1b2 = kubeadm.find((r) => r.version === 'v1beta2' && r.kind === 'ClusterConfiguration');
  if (v1b2?.removed !== '1.27') fail(`${REF}: kubeadm.k8s.io/v1beta2 removal changed: ${v1b2?.removed}`);
  return { rows, omitted, settings: componentSettings(refDir, fail) };
}

// Settings inside the files whose meaning changes at a minor (value-level facts), from lifecycle-1.33-1.38.json.
// Only facts that a file's content decides are taken: kube-proxy `mode: ipvs` (deprecated 1.35). KubeletConfiguration
// failCgroupV1 (default true from 1.35: kubelet refuses cgroup v1 hosts) depends on the host, not on the file, so it
// is recorded but no rule reads it.
function componentSettings(refDir, fail) {
  const LREF = 'shared/reference/kubernetes/lifecycle-1.33-1.38.json';
  const ref = JSON.parse(fs.readFileSync(path.join(refDir, 'lifecycle-1.33-1.38.json'), 'utf8'));
  const find = (prefix) => ref.rows.find((r) => r.what.startsWith(prefix)) ?? fail(`${LREF}: no row "${prefix}"`);
  const ipvs = find('kube-proxy ipvs mode deprecated');
  const cg = find('KubeletConfiguration failCgroupV1 defaults to true');
  if (ipvs.minors.deprecated !== '1.35' || cg.minors.behaviourChange !== '1.35') fail(`${LREF}: ipvs / failCgroupV1 minors changed`);
  return [
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1', kind: 'KubeProxyConfiguration', path: ['mode'], value: 'ipvs', readBy: 'kube-proxy',
      change: 'deprecated', minor: ipvs.minors.deprecated, planned: { offByDefault: ipvs.minors.disablePlanned, removal: ipvs.minors.removalPlanned },
      replacement: ipvs.replacement, what: ipvs.what, note: ipvs.notes.join(' '), confidence: ipvs.confidence, sources: [`${LREF} (${ipvs.confidence})`, ...ipvs.sources],
    },
    {
      apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', path: ['failCgroupV1'], value: null, readBy: 'kubelet',
      change: 'default-changed', minor: cg.minors.behaviourChange, introduced: cg.minors.introduced,
      replacement: cg.replacement, what: cg.what, note: `${cg.notes.join(' ')} Not checked by a rule: whether a node runs cgroup v1 is a fact of the host, not of the file.`, confidence: cg.confidence, sources: [`${LREF} (${cg.confidence})`, ...cg.sources],
    },
  ];
}
