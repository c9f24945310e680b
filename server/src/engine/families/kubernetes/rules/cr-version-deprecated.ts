import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { deprecationWarningOf } from '../crds';
import { crdName } from './cr-common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/cr-version-deprecated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Custom resource at a version its CRD deprecates',
  what: 'Reports, at its apiVersion, a custom resource whose version the workspace\'s `CustomResourceDefinition` serves with '
    + '`deprecated: true`, with the CRD\'s `deprecationWarning` text (or, when it gives none, the warning the API server makes '
    + 'up: "<group>/<version> <Kind> is deprecated; use <group>/<newer version> <Kind>"). Which CRD counts, and that it wins over '
    + 'the built-in cert-manager/Flux lifecycle rows, is as for k8s/cr-version-not-served.',
  why: 'A deprecated version is the one the CRD\'s next release stops serving: kubectl and Helm print the warning on every apply, '
    + 'and the object fails once the CRD is upgraded.',
  bad: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    deprecated: true\n    deprecationWarning: "stable.example.com/v1beta1 CronTab is deprecated; see https://example.com/v1 for instructions to migrate to stable.example.com/v1 CronTab"\n  - name: v1\n    served: true\n    storage: true\n---\napiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n', options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    deprecated: true\n    deprecationWarning: "stable.example.com/v1beta1 CronTab is deprecated; see https://example.com/v1 for instructions to migrate to stable.example.com/v1 CronTab"\n  - name: v1\n    served: true\n    storage: true\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n', options: 'Kubernetes 1.30' },
  fix: 'none',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go (deprecated, deprecationWarning)',
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go (defaultDeprecationWarning)',
  ],
  check(ctx, report) {
    for (const { o, c } of ctx.customResources()) {
      if (!c.version?.served || !c.version.deprecated) continue;
      const warning = deprecationWarningOf(c.crd, c.version);
      report({
        message: `${o.apiVersion} ${o.kind} is deprecated by ${crdName(c.crd)}: "${warning}"${c.version.deprecationWarning === undefined ? ' (the API server\'s default warning: the CRD gives no deprecationWarning)' : ''}`,
        range: o.apiVersionRange,
        data: { crd: c.crd.name, crdFile: c.crd.file, version: c.versionName, warning },
      });
    }
  },
};
