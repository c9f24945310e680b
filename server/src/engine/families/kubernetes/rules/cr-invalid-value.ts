import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { crIssues, crdName, relPath, reportSchemaValue } from './cr-common';
import { reportBundledValues } from './cr-bundled';

const CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              replicas: {type: integer}\n              concurrencyPolicy: {type: string, enum: [Allow, Forbid, Replace]}\n';


export const rule: Rule<KubernetesContext> = {
  id: 'k8s/cr-invalid-value',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Custom resource value its CRD\'s schema refuses',
  what: 'Reports, at its value, a field of a custom resource whose JSON type is not the one the `openAPIV3Schema` of its version '
    + 'in the workspace\'s `CustomResourceDefinition` gives (`type`, `x-kubernetes-int-or-string`, `nullable`), or a value outside '
    + 'the schema\'s `enum` (with the nearest allowed value and a fix). Other validations (patterns, bounds, formats, CEL rules) '
    + 'are not evaluated (k8s/cr-validation-rule evaluates the CEL rules). A custom resource with no CRD of its group in the workspace, '
    + 'of an operator whose CRDs skewguard bundles (data/operators/), is read the same way against the bundled schema of each release '
    + 'of the operator\'s window (kubernetes.components / --component-versions) whose schema a snapshot holds (the newest release, '
    + 'and the last release serving each version the newest no longer serves, each standing for the releases whose schema equals '
    + 'it); the finding names it ("cert-manager 1.21 schema, bundled"). With no version known, no value is judged from the bundled data.',
  why: 'The API server validates a custom resource against its schema and refuses the whole object: the apply, the Helm release '
    + 'or the Flux reconciliation that carries it fails.',
  bad: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  replicas: "2"\n  concurrencyPolicy: forbid\n`, options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  replicas: 2\n  concurrencyPolicy: Forbid\n`, options: 'Kubernetes 1.30' },
  fix: 'suggestion',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/validation (the CR schema validator: type, enum, nullable, x-kubernetes-int-or-string)',
    'data/operators/ (scripts/import-operator-schemas.mjs): the operators\' CRDs at their release tags, ../shared/reference/operators',
  ],
  check(ctx, report) {
    const text = ctx.file.text;
    for (const { o } of ctx.customResources()) {
      const { issues, crd } = crIssues(ctx, o);
      for (const x of issues) {
        if (x.kind === 'unknown' || x.kind === 'cut' || !crd) continue;
        const shown = relPath(o, x.path);
        const range = o.doc.locate(x.path).value;
        const where = `the schema of ${o.apiVersion} ${o.kind} in ${crdName(crd)}`;
        reportSchemaValue(text, report, shown, range, where, {}, { crd: crd.name }, x);
      }
    }
    reportBundledValues(ctx, report);
  },
};
