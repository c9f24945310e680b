import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { operatorObjects, windowSaid } from '../operators';
import { inRanges, storageVersionAt, curatedFor } from '../../../components/operator-data';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/operator-storage-version-dropped',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'The operator window crosses a release that drops a version objects may still be stored in',
  what: 'Reports, at the apiVersion of the first custom resource of a kind in a file (any of its versions), an upgrade '
    + 'step of the operator\'s window (two consecutive releases of it) where the kind\'s CRD stops listing a version that '
    + 'objects may still be stored in: a version that was the storage version in an earlier release read, or that was '
    + 'already there in the first release read (it may have been the storage version before). cert-manager 1.7 drops '
    + 'v1alpha2, v1alpha3 and v1beta1; External Secrets 0.16 drops v1alpha1. The objects must be rewritten at the current '
    + 'storage version and the dropped version removed from the CRD\'s status.storedVersions before that upgrade '
    + '(a storage version migration; cert-manager: cmctl upgrade migrate-api-version). The window, and a workspace CRD '
    + 'winning, are as for k8s/operator-api-not-served.',
  why: 'The API server reads each object in the version it was stored in; a CRD update that drops a version still in '
    + 'status.storedVersions is rejected, and the operator upgrade stops half-way (its Helm upgrade or manifest apply fails). '
    + 'Manifests written at the new version do not help: objects written long ago are stored at the old one until rewritten.',
  bad: { filename: 'certificate.yaml', text: 'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web\nspec:\n  secretName: web-tls\n  dnsNames: [example.com]\n  issuerRef: {name: letsencrypt, kind: ClusterIssuer}\n', options: 'component cert-manager=1.6..1.7' },
  good: { filename: 'certificate.yaml', text: 'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web\nspec:\n  secretName: web-tls\n  dnsNames: [example.com]\n  issuerRef: {name: letsencrypt, kind: ClusterIssuer}\n', options: 'component cert-manager=1.7..1.8' },
  fix: 'none',
  sources: [
    'data/operators/lifecycle.json (scripts/import-operators.mjs: versions[].present and storage per release of the operators\' CRDs)',
    'cert-manager/cert-manager PR #4635/#4636 (v1.7.0 drops the old versions from the CRDs); cmd/ctl/pkg/upgrade/migrateapiversion at v1.7.3',
    'Kubernetes docs: Versions in CustomResourceDefinitions (upgrade existing objects to a new stored version; status.storedVersions)',
  ],
  check(ctx, report) {
    const said = new Set<string>();
    for (const x of operatorObjects(ctx)) {
      if (!x.window || x.steps.length < 2 || said.has(x.crdKey)) continue;
      const crd = x.data.crds[x.crdKey];
      if (!crd) continue;
      const ids = x.data.releases.map((r) => r.id);
      const firstRead = ids[0];
      const drops: Array<{ from: string; to: string; versions: string[] }> = [];
      for (let i = 0; i + 1 < x.steps.length; i++) {
        const a = x.steps[i].release, b = x.steps[i + 1].release;
        if (!inRanges(x.data, crd.releases, a) || !inRanges(x.data, crd.releases, b)) continue;
        const ai = ids.indexOf(a);
        const versions = Object.entries(crd.versions).filter(([, v]) => inRanges(x.data, v.present, a) && !inRanges(x.data, v.present, b)
          && (ids.slice(0, ai + 1).some((r) => inRanges(x.data, v.storage, r)) || (v.beforeCoverage ?? inRanges(x.data, v.present, firstRead)))).map(([n]) => n);
        if (versions.length) drops.push({ from: a, to: b, versions });
      }
      if (!drops.length) continue;
      said.add(x.crdKey);
      const d = drops[0];
      const storage = storageVersionAt(x.data, x.crdKey, d.from);
      const how = curatedFor(x.data, crd.group, d.versions[0], crd.kind).find((c) => /migrat/i.test(`${c.source} ${c.note ?? ''}`));
      const { o } = x;
      report({
        message: `${x.operator} ${d.to} drops ${d.versions.map((v) => `${crd.group}/${v}`).join(', ')} from the ${crd.kind} CRD: ${crd.kind} objects stored at `
          + `${d.versions.length > 1 ? 'one of them' : 'it'} (written while ${d.versions.length > 1 ? 'one' : 'it'} was the storage version) must be rewritten at ${storage ? `${crd.group}/${storage}` : 'the storage version'} `
          + `and the CRD's status.storedVersions cleared of ${d.versions.join(', ')} before upgrading ${x.operator} ${d.from} → ${d.to} (a storage version migration)`
          + `${drops.length > 1 ? `; also at ${drops.slice(1).map((y) => `${y.to} (${y.versions.join(', ')})`).join(', ')}` : ''} (${windowSaid(x)})`,
        range: o.apiVersionRange,
        data: { operator: x.operator, window: x.window.text, windowSource: x.window.source, drops, storageVersion: storage ?? null, source: how?.source ?? crd.source },
      });
    }
  },
};
