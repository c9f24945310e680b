// Lifecycle rows of ecosystem APIs with their own version line (called by scripts/import-kubernetes.mjs): Gateway API
// (component "gateway-api", versions are Gateway API releases "0.8", "1.2"), Calico ("calico", Calico minors), Multus
// ("multus") and the SR-IOV network operator ("sriov-network-operator"). As cert-manager's and Flux's rows, they are
// checked at the component's own version (kubernetes.components.<name> / --component-versions), never at a
// Kubernetes minor. Every row names what was read upstream (search-index copies of the projects' files: repository,
// path and the commit of the stored version, or the search-index id where the index named no path); where no source
// said a value, the value is null and the note says so. Sanity checks throw.

const GW = 'kubernetes-sigs/gateway-api';
const GW_08 = `${GW} CHANGELOG/0.x-CHANGELOG.md @ 144c34539883 (v0.8.0 "API Version Changes": v1alpha2 of Gateway, GatewayClass and HTTPRoute no longer served; v1alpha2 of ReferenceGrant deprecated)`;
const GW_06 = `${GW} CHANGELOG.md v0.6.0 (search-index copy id 3506996394: ReferenceGrant promoted to v1beta1 and the standard channel; ReferencePolicy removed from the API)`;
const GW_06_DEP = 'projectcontour/contour changelog quoting the Gateway API v0.6.0 release notes (search-index copy id 21424491474: "v1alpha2 versions of GatewayClass, Gateway, and HTTPRoute are deprecated")';
const GW_05 = `${GW} CHANGELOG.md v0.5.0-rc1 ("API versions: v1beta1, v1alpha2"; GatewayClass, Gateway and HTTPRoute graduate to v1beta1)`;
const GW_04 = `${GW} CHANGELOG.md v0.4.0-rc1 ("The Gateway API APIGroup has moved from networking.x-k8s.io to gateway.networking.k8s.io", API version v1alpha2; automatic conversion is not possible)`;
const GW_REFPOL = `${GW} apis/v1alpha2/referencepolicy_types.go (search-index copy id 137272281: +kubebuilder:deprecatedversion "ReferencePolicy has been renamed to ReferenceGrant. ReferencePolicy will be removed in v0.6.0")`;
const GW_10 = `${GW} CHANGELOG/1.0-CHANGELOG.md @ 0f3aa864cf60 (v1.0.0: Gateway, GatewayClass and HTTPRoute GA with v1; BackendTLSPolicy new in the experimental channel)`;
const GW_11 = `${GW} CHANGELOG/1.1-CHANGELOG.md @ 70ef27ea7866 (v1.1.0: GRPCRoute GA (v1), experimental channel serves v1alpha2 and v1; BackendTLSPolicy v1alpha3 replaces v1alpha2, which must be uninstalled first; BackendLBPolicy new)`;
const GW_12 = `${GW} CHANGELOG/1.2-CHANGELOG.md @ 080ed2b057fd (v1.2.0 "GRPCRoute and ReferenceGrant v1alpha2 removal": neither channel serves v1alpha2 of them, "as per a previous deprecation notice")`;
const GW_CRD_HEAD = `${GW} config/crd/standard/gateway.networking.k8s.io_gateways.yaml @ 00068f38bea8 (bundle-version v1.4.1, versions v1 and v1beta1)`;
const GW_X = `${GW} config/crd/experimental/gateway.networking.x-k8s.io_*.yaml (file listing of the search index: xlistenersets, xbackendtrafficpolicies, xmeshes)`;

const CALICO_V1 = 'projectcalico/calico libcalico-go/config/crd/crd.projectcalico.org_*.yaml (file listing of the search index; the CRDs the Kubernetes datastore uses)';
const CALICO_V3 = 'projectcalico/calico api/config/crd/projectcalico.org_*.yaml (file listing of the search index; projectcalico.org_profiles.yaml @ 3a49e36139cf read: group projectcalico.org, version v3, served, storage)';
const MULTUS = 'k8snetworkplumbingwg/multus-cni deploy/charts/multus-cni/crds/k8s.cni.cncf.io_network-attachment-definitions.yml @ c89680f61722 (file listing of the search index)';
const SRIOV = 'k8snetworkplumbingwg/sriov-network-operator config/crd/bases/sriovnetwork.openshift.io_*.yaml (file listing of the search index; sriovnetwork.openshift.io_sriovnetworks.yaml @ 36d724300913 read: group sriovnetwork.openshift.io, version v1, served, storage)';

const NOT_RECORDED = 'The release that first served it is not recorded in the sources read (introduced unknown: treated as served by every release asked about).';

const row = (component, servedBy, apiVersion, kind, o) => {
  const [group, version] = apiVersion.split('/');
  return {
    apiVersion, group, version, kind, component, servedBy,
    introduced: o.introduced ?? null, deprecated: o.deprecated ?? null, removed: o.removed ?? null,
    replacement: o.replacement ?? null, replacementAvailable: o.replacementAvailable ?? null,
    migration: o.migration ?? (o.replacement || o.removed || o.deprecated ? 'unknown' : null),
    migrationNote: o.migrationNote ?? (o.replacement || o.removed || o.deprecated ? `spec fields of ${apiVersion} and ${o.replacement ?? 'its successor'} not compared; check the spec against the target` : null),
    confidence: 'changelog',
    changelogFields: ['introduced', 'deprecated', 'removed', 'replacementAvailable'].filter((f) => o[f] != null),
    sources: o.sources,
    note: [o.versionNote, ...(o.introduced == null ? [NOT_RECORDED] : []), ...(o.notes ?? [])].filter(Boolean).join(' '),
  };
};

function gatewayApi() {
  const c = 'gateway-api';
  const by = 'CRD (Gateway API)';
  const vn = 'Versions are Gateway API (kubernetes-sigs/gateway-api) releases, not Kubernetes minors.';
  const out = [];
  const add = (apiVersion, kind, o) => out.push(row(c, by, apiVersion, kind, { versionNote: vn, ...o }));
  // networking.x-k8s.io/v1alpha1: the group before v0.4.0
  for (const k of ['GatewayClass', 'Gateway', 'HTTPRoute', 'TCPRoute', 'UDPRoute', 'TLSRoute', 'BackendPolicy']) {
    add('networking.x-k8s.io/v1alpha1', k, {
      introduced: '0.1', removed: '0.4',
      replacement: k === 'BackendPolicy' ? null : `gateway.networking.k8s.io/v1alpha2`, replacementAvailable: k === 'BackendPolicy' ? null : '0.4',
      migration: 'spec-changes', migrationNote: 'v0.4.0 moved the API to the group gateway.networking.k8s.io with breaking changes (no automatic conversion): recreate the objects against v1alpha2.',
      sources: [GW_04, `${GW} CHANGELOG.md v0.1.0 (API Version: v1alpha1)`],
      notes: k === 'BackendPolicy' ? ['v1alpha2 has no BackendPolicy; no replacement is given.'] : [],
    });
  }
  for (const k of ['GatewayClass', 'Gateway', 'HTTPRoute']) {
    add('gateway.networking.k8s.io/v1alpha2', k, {
      introduced: '0.4', deprecated: '0.6', removed: '0.8', replacement: 'gateway.networking.k8s.io/v1beta1', replacementAvailable: '0.5',
      migration: 'apiVersion-only', migrationNote: 'Gateway API v1alpha2 and v1beta1 of these kinds are served side by side with conversion between them (v0.5.0 – v0.7.x); only the apiVersion changes.',
      sources: [GW_04, GW_05, GW_06_DEP, GW_08],
    });
    add('gateway.networking.k8s.io/v1beta1', k, {
      introduced: '0.5', replacement: 'gateway.networking.k8s.io/v1', replacementAvailable: '1.0',
      migration: 'apiVersion-only', migrationNote: 'v1 graduated "with only minor spec clarifications since the v0.8.0 release" (v1.0.0 changelog); only the apiVersion changes.',
      sources: [GW_05, GW_10, GW_CRD_HEAD],
      notes: ['Still served in v1.4.1 (the standard CRD read); no deprecation of v1beta1 is recorded in the sources read.'],
    });
    add('gateway.networking.k8s.io/v1', k, { introduced: '1.0', sources: [GW_10, GW_CRD_HEAD] });
  }
  add('gateway.networking.k8s.io/v1alpha2', 'ReferencePolicy', {
    introduced: '0.4', deprecated: '0.5', removed: '0.6',
    migration: 'spec-changes', migrationNote: 'ReferencePolicy was renamed ReferenceGrant (same fields): change the kind to ReferenceGrant (gateway.networking.k8s.io/v1beta1 from v0.6.0).',
    sources: [GW_REFPOL, GW_06],
    notes: ['The replacement is another kind (ReferenceGrant), so no replacement apiVersion is given. introduced 0.4: the v1alpha2 API of v0.4.0 (the CRD file config/crd/experimental/gateway.networking.k8s.io_referencepolicies.yaml is in the index).'],
  });
  add('gateway.networking.k8s.io/v1alpha2', 'ReferenceGrant', {
    introduced: '0.5', deprecated: '0.8', removed: '1.2', replacement: 'gateway.networking.k8s.io/v1beta1', replacementAvailable: '0.6',
    migration: 'apiVersion-only', migrationNote: 'ReferenceGrant v1beta1 was promoted from v1alpha2 unchanged ("has all the same features"); only the apiVersion changes.',
    sources: [GW_REFPOL, GW_06, GW_08, GW_12],
    notes: ['introduced 0.5: ReferencePolicy was renamed ReferenceGrant in June 2022 (kubernetes-sigs/gateway-api#1179, before v0.5.0); its deprecation warning says ReferencePolicy goes in v0.6.0.'],
  });
  add('gateway.networking.k8s.io/v1beta1', 'ReferenceGrant', { introduced: '0.6', sources: [GW_06, GW_12] });
  add('gateway.networking.k8s.io/v1alpha2', 'GRPCRoute', {
    introduced: '0.6', deprecated: '1.1', removed: '1.2', replacement: 'gateway.networking.k8s.io/v1', replacementAvailable: '1.1',
    sources: [GW_06, GW_11, GW_12],
    notes: ['Experimental channel only. deprecated 1.1: the v1.2.0 changelog removes it "as per a previous deprecation notice"; v1.1 is the release that added v1 (the notice itself was not read).'],
  });
  add('gateway.networking.k8s.io/v1', 'GRPCRoute', { introduced: '1.1', sources: [GW_11, GW_12] });
  for (const k of ['TCPRoute', 'UDPRoute', 'TLSRoute']) {
    add('gateway.networking.k8s.io/v1alpha2', k, {
      introduced: '0.4', sources: [GW_04],
      notes: ['Experimental channel only. Later versions of this kind (if any) were not read, so nothing after v1alpha2 is recorded.'],
    });
  }
  add('gateway.networking.k8s.io/v1alpha2', 'BackendTLSPolicy', {
    introduced: '1.0', removed: '1.1', replacement: 'gateway.networking.k8s.io/v1alpha3', replacementAvailable: '1.1',
    migration: 'spec-changes', migrationNote: 'v1alpha3 renamed fields: targetRef became targetRefs (a list, without namespace), tls became validation, caCertRefs caCertificateRefs, wellKnownCACerts wellKnownCACertificates; the v1alpha2 CRD must be uninstalled first.',
    sources: [GW_10, GW_11], notes: ['Experimental channel only.'],
  });
  add('gateway.networking.k8s.io/v1alpha3', 'BackendTLSPolicy', {
    introduced: '1.1', sources: [GW_11],
    notes: ['Experimental channel. Later versions (v1) were not read, so no deprecation or removal is recorded.'],
  });
  add('gateway.networking.k8s.io/v1alpha2', 'BackendLBPolicy', { introduced: '1.1', sources: [GW_11], notes: ['Experimental channel only.'] });
  for (const k of ['XListenerSet', 'XBackendTrafficPolicy', 'XMesh']) {
    add('gateway.networking.x-k8s.io/v1alpha1', k, {
      sources: [GW_X],
      notes: ['Experimental API group (gateway.networking.x-k8s.io, experimental channel); its CRDs were not read at a release tag.'],
    });
  }
  return out;
}

function calico() {
  const out = [];
  const vn = 'Versions are Calico minors, not Kubernetes minors.';
  const v1 = ['BGPConfiguration', 'BGPFilter', 'BGPPeer', 'BlockAffinity', 'CalicoNodeStatus', 'ClusterInformation', 'FelixConfiguration', 'GlobalNetworkPolicy', 'GlobalNetworkSet', 'HostEndpoint', 'IPAMBlock', 'IPAMConfig', 'IPAMHandle', 'IPPool', 'IPReservation', 'KubeControllersConfiguration', 'NetworkPolicy', 'NetworkSet', 'StagedGlobalNetworkPolicy', 'StagedKubernetesNetworkPolicy', 'StagedNetworkPolicy', 'Tier'];
  for (const k of v1) {
    out.push(row('calico', 'CRD (Calico)', 'crd.projectcalico.org/v1', k, {
      versionNote: vn, sources: [CALICO_V1],
      notes: ['The Kubernetes-datastore storage form of the Calico API; Calico documents projectcalico.org/v3 (through calicoctl or the Calico API server) as the API to write.'],
    }));
  }
  const v3 = ['BGPConfiguration', 'BGPFilter', 'BGPPeer', 'BlockAffinity', 'CalicoNodeStatus', 'ClusterInformation', 'FelixConfiguration', 'GlobalNetworkPolicy', 'GlobalNetworkSet', 'HostEndpoint', 'IPAMBlock', 'IPAMConfiguration', 'IPAMHandle', 'IPPool', 'IPReservation', 'KubeControllersConfiguration', 'NetworkPolicy', 'NetworkSet', 'Profile', 'StagedGlobalNetworkPolicy', 'StagedKubernetesNetworkPolicy', 'StagedNetworkPolicy', 'Tier'];
  for (const k of v3) {
    out.push(row('calico', 'Calico API server / CRD (Calico)', 'projectcalico.org/v3', k, {
      versionNote: vn, sources: [CALICO_V3],
      notes: ['Served by the Calico API server (an aggregated API) and, where the api/config/crd CRDs are installed, as CRDs.'],
    }));
  }
  return out;
}

function multus() {
  return [row('multus', 'CRD (Multus / Network Plumbing WG)', 'k8s.cni.cncf.io/v1', 'NetworkAttachmentDefinition', {
    versionNote: 'Versions are Multus CNI releases, not Kubernetes minors.', sources: [MULTUS],
    notes: ['The NetworkAttachmentDefinition CRD of the Kubernetes Network Plumbing WG de-facto standard; v1 is its only version in the sources read.'],
  })];
}

function sriov() {
  const kinds = ['OVSNetwork', 'SriovIBNetwork', 'SriovNetwork', 'SriovNetworkNodePolicy', 'SriovNetworkNodeState', 'SriovNetworkPoolConfig', 'SriovOperatorConfig'];
  return kinds.map((k) => row('sriov-network-operator', 'CRD (SR-IOV network operator)', 'sriovnetwork.openshift.io/v1', k, {
    versionNote: 'Versions are sriov-network-operator releases, not Kubernetes minors.', sources: [SRIOV],
    notes: ['v1 is the only version of the group in the sources read.'],
  }));
}

export function ecosystemRows(fail) {
  const rows = [...gatewayApi(), ...calico(), ...multus(), ...sriov()];
  const seen = new Set();
  for (const r of rows) {
    const k = `${r.apiVersion}|${r.kind}`;
    if (seen.has(k)) fail(`ecosystem rows: duplicate ${k}`);
    seen.add(k);
    if (!r.sources.length) fail(`ecosystem rows: ${k} has no source`);
    if (r.replacement && !rows.some((x) => x.apiVersion === r.replacement && x.kind === r.kind)) fail(`ecosystem rows: ${k} names replacement ${r.replacement} without a row`);
    for (const f of ['introduced', 'deprecated', 'removed', 'replacementAvailable']) if (r[f] != null && !/^\d+\.\d+$/.test(r[f])) fail(`ecosystem rows: ${k} ${f} ${r[f]} is not a minor`);
  }
  const targets = {
    'gateway-api': { version: '1.4', source: 'newest Gateway API release whose CRDs were read (standard channel bundle-version v1.4.1, kubernetes-sigs/gateway-api @ 00068f38bea8)' },
    calico: { version: '3.32', source: 'newest Calico minor in data/kubernetes/components.json' },
    multus: { version: '4.2', source: 'no Multus release changes k8s.cni.cncf.io/v1 in the sources read; any version gives the same answer' },
    'sriov-network-operator': { version: '1.5', source: 'no sriov-network-operator release changes sriovnetwork.openshift.io/v1 in the sources read; any version gives the same answer' },
  };
  return { rows, targets };
}
