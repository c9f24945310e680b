import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { crdOf, groupVersion } from '../crds';
import { lineIndexOf, type LineIndex } from '../../../text';
import { formatList } from '../../../versions';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/crd-version-in-use',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'CRD that stops serving a version custom resources of the workspace use',
  what: 'Reports a `CustomResourceDefinition` that marks a version `served: false`, or no longer lists it, while custom resources of '
    + 'the workspace (its other YAML and JSON files, found by a bounded walk, and the CRD\'s own file) are written at that version. '
    + 'It names up to five of them (file:line), at the version\'s `served` value, or at `versions` when the version is gone. '
    + 'Where the walk stopped at its bound, an information at the first CRD\'s `versions` says that uses may be missed.',
  why: 'Once the CRD is applied the API server refuses those manifests at that version: the next apply, Helm upgrade or Flux '
    + 'reconciliation of the objects fails, although the CRD itself applies cleanly.',
  bad: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: false\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n---\napiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: nightly\n', options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n---\napiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: nightly\n', options: 'Kubernetes 1.30' },
  fix: 'none',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go (served: a version that is not served is not available over REST)',
  ],
  check(ctx, report) {
    const crds = ctx.crdObjects();
    if (!crds.length) return;
    let lines: LineIndex | undefined;
    // The file's own objects by group/kind, in one pass (a bundle holds hundreds of CRDs and thousands of objects).
    let own: Map<string, Array<{ file: string; version: string; line: number }>> | undefined;
    const ownOf = (group: string, kind: string) => {
      if (!own) {
        own = new Map();
        for (const { o: x } of ctx.customResources()) {
          const gv = groupVersion(x.apiVersion);
          const k = `${gv.group}/${x.kind}`;
          lines ??= lineIndexOf(ctx.file.text);
          const list = own.get(k) ?? [];
          list.push({ file: 'this file', version: gv.version, line: lines.positionAt(x.apiVersionRange.start).line + 1 });
          own.set(k, list);
        }
      }
      return own.get(`${group}/${kind}`) ?? [];
    };
    let searchCut = false;
    for (const o of crds) {
      const d = crdOf(o, '');
      if (!d) continue;
      const here = ownOf(d.group, d.kind);
      const there = ctx.neighbours.customResourceUses?.(d.group);
      if (there?.notRead && !searchCut) {
        // The search for uses was cut short (the workspace walk's bound): said once per file, not passed as "no use".
        searchCut = true;
        const loc = o.doc.locate([...o.at, 'spec', 'versions']);
        report({
          message: `${d.name}: custom resources of the workspace not all searched (${there.notRead}): a use of a version this file's CRDs do not serve may be missed`,
          range: loc.key ?? loc.value,
          severity: 'info',
          data: { crd: d.name, notSearched: there.notRead },
        });
      }
      const uses = [...here, ...(there?.uses ?? []).filter((u) => u.kind === d.kind)];
      const byVersion = new Map<string, typeof uses>();
      for (const u of uses) {
        const v = d.versions.find((x) => x.name === u.version);
        if (v?.served) continue;
        // Appended in place: a copy of the list per use was quadratic in a workspace of thousands of them.
        const list = byVersion.get(u.version);
        if (list) list.push(u); else byVersion.set(u.version, [u]);
      }
      for (const [version, us] of byVersion) {
        const v = d.versions.find((x) => x.name === version);
        const loc = v?.index !== undefined ? o.doc.locate([...o.at, 'spec', 'versions', v.index, 'served']) : o.doc.locate([...o.at, 'spec', 'versions']);
        const range = v?.index !== undefined ? loc.value : loc.key ?? loc.value;
        const shown = us.slice(0, 5).map((u) => `${u.file}:${u.line}`);
        const more = us.length > 5 ? ` and ${us.length - 5} more` : '';
        report({
          message: `${d.name}: ${d.group}/${version} ${v ? 'is served: false' : 'is not listed'}, but ${us.length} custom resource${us.length > 1 ? 's' : ''} of the workspace use${us.length > 1 ? '' : 's'} it (${formatList(shown)}${more}); the API server refuses them once this CRD is applied`,
          range,
          data: { crd: d.name, version, uses: us.slice(0, 20) },
        });
      }
    }
  },
};
