import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { crdOf } from '../crds';

const HEAD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/crd-storage-version',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'CRD whose storage version breaks its stored objects',
  what: 'Reports a `CustomResourceDefinition` (apiextensions.k8s.io/v1 or v1beta1) whose versions do not mark exactly one '
    + '`storage: true` (at each extra one, or at `versions` when none is), whose storage version is `served: false`, or whose '
    + '`status.storedVersions` (kept in a CRD read back from a cluster) names a version `spec.versions` no longer lists.',
  why: 'Objects are kept in etcd at the storage version. The API server refuses a CRD without exactly one storage version, and one '
    + 'that drops a version objects are still stored at ("status.storedVersions[0]: must appear in spec.versions"): the upgrade '
    + 'that applies it stops. A storage version that is not served stores every object at a version no client can ask for.',
  bad: { filename: 'crontab-crd.yaml', text: `${HEAD}  - name: v1beta1\n    served: false\n    storage: true\n  - name: v1\n    served: true\n    storage: true\n`, options: 'Kubernetes 1.30' },
  good: { filename: 'crontab-crd.yaml', text: `${HEAD}  - name: v1beta1\n    served: false\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n`, options: 'Kubernetes 1.30' },
  fix: 'none',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go (ValidateCustomResourceDefinitionSpec: "must have exactly one version marked as storage version"; ValidateCustomResourceDefinitionStoredVersions: "must appear in spec.versions")',
  ],
  check(ctx, report) {
    for (const o of ctx.crdObjects()) {
      const d = crdOf(o, '');
      if (!d) continue;
      const at = (...p: Array<string | number>) => { const l = o.doc.locate([...o.at, ...p]); return l.key ?? l.value; };
      const val = (...p: Array<string | number>) => o.doc.locate([...o.at, ...p]).value;
      const stored = d.versions.filter((v) => v.storage);
      const listed = Array.isArray(o.value.spec?.versions);
      if (!stored.length && listed) {
        report({ message: `${d.name}: no version is marked storage: true; the API server refuses a CRD without exactly one storage version (${d.versions.map((v) => v.name).join(', ')})`, range: at('spec', 'versions'), data: { crd: d.name, storage: [] } });
      }
      for (const v of stored.slice(1)) {
        report({ message: `${d.name}: ${v.name} is a second storage version (${stored.map((x) => x.name).join(', ')} are marked storage: true); the API server refuses a CRD without exactly one`, range: v.index !== undefined ? val('spec', 'versions', v.index, 'storage') : at('spec'), data: { crd: d.name, storage: stored.map((x) => x.name) } });
      }
      const only = stored.length === 1 ? stored[0] : undefined;
      if (only && !only.served && only.index !== undefined) {
        const v = { ...only, index: only.index };
        const other = d.versions.filter((x) => x.served).map((x) => x.name);
        report({ message: `${d.name}: ${v.name} is the storage version but served: false; objects are stored as ${v.name}, which no client can read or write${other.length ? `; make a served version (${other.join(', ')}) the storage version once the objects are migrated` : ''}`, range: val('spec', 'versions', v.index, 'served'), data: { crd: d.name, storage: v.name } });
      }
      const sv = o.value.status?.storedVersions;
      if (Array.isArray(sv)) {
        sv.forEach((name: unknown, i: number) => {
          if (typeof name !== 'string' || d.versions.some((v) => v.name === name)) return;
          report({ message: `${d.name}: status.storedVersions names ${name}, which spec.versions no longer lists; the API server refuses this CRD until the objects stored as ${name} are migrated and ${name} is removed from storedVersions`, range: val('status', 'storedVersions', i), data: { crd: d.name, storedVersion: name } });
        });
      }
    }
  },
};
