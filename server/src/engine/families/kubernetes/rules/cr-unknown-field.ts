import type { Rule, FindingFix } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { crIssues, crdName, relPath } from './cr-common';
import { reportBundledFields } from './cr-bundled';

const CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              cronSpec: {type: string}\n              replicas: {type: integer}\n              template: {type: object, x-kubernetes-preserve-unknown-fields: true}\n              selector:\n                type: object\n                additionalProperties: {type: string}\n';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/cr-unknown-field',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Custom resource field its CRD\'s schema does not declare',
  what: 'Reports, at its key, a field of a custom resource that the `openAPIV3Schema` of its version in the workspace\'s '
    + '`CustomResourceDefinition` does not declare, with the nearest declared field ("did you mean replicas?") and a rename fix '
    + 'when there is one. `x-kubernetes-preserve-unknown-fields: true` and `additionalProperties` (maps) accept any key below them, '
    + '`x-kubernetes-embedded-resource` objects their apiVersion, kind and metadata; `metadata` and `status` of the resource '
    + 'itself are not checked; allOf/anyOf/oneOf add no fields (a structural schema declares every field outside them). '
    + 'A version without a schema, or one the CRD does not serve, is not read (k8s/cr-version-not-served says the latter). '
    + 'The check of one resource stops after 500 issues or 200,000 values; where it stops, an information at that field says '
    + 'that it and the rest were not checked. '
    + 'A custom resource with no CRD of its group in the workspace, of an operator whose CRDs skewguard bundles (cert-manager, '
    + 'External Secrets, prometheus-operator, Argo CD, Kyverno, Istio, Traefik, KEDA, Velero, Cilium, Tekton Pipelines, Crossplane, '
    + 'Knative Serving, Argo Rollouts: data/operators/, read from their CRDs at each release), is read against the field paths of '
    + 'each release of the operator\'s window (kubernetes.components / --component-versions): a field no release accepts (with '
    + '"did you mean"), and a field some release of the window does not accept ("accepted from 1.14"); '
    + 'x-kubernetes-preserve-unknown-fields is honoured. With no version of the operator known, only fields that no bundled release '
    + 'ever accepted are said, naming the releases consulted. Each finding says which source judged it ("cert-manager 1.14 fields, '
    + 'bundled"); a version outside the releases bundled is read as no version, and the finding says so; window releases that serve the '
    + 'version without a schema in the data are said as not checked.',
  why: 'The API server prunes what a structural schema does not declare: a misspelt field is dropped without an error and the '
    + 'controller runs with its default. A v1beta1 CRD with `preserveUnknownFields` keeps it, but nothing reads it.',
  bad: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  replica: 2\n`, options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  replicas: 2\n  selector: {app: nightly}\n  template: {anything: goes}\n`, options: 'Kubernetes 1.30' },
  fix: 'suggestion',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go (structural pruning, x-kubernetes-preserve-unknown-fields, additionalProperties, x-kubernetes-embedded-resource)',
    'Kubernetes docs: Extend the Kubernetes API with CustomResourceDefinitions (field pruning)',
    'data/operators/ (scripts/import-operator-schemas.mjs): the operators\' CRDs at their release tags, ../shared/reference/operators',
  ],
  check(ctx, report) {
    const text = ctx.file.text;
    for (const { o } of ctx.customResources()) {
      const { issues, crd } = crIssues(ctx, o);
      for (const x of issues) {
        if (!crd) continue;
        if (x.kind === 'cut') {
          // The walk's bounds (crd-schema.ts schemaIssues): what it did not reach is said, not passed as checked.
          const loc = o.doc.locate(x.path);
          report({
            message: `${relPath(o, x.path)} and the rest of this ${o.kind} not checked against the schema in ${crdName(crd)}: the check stops after ${x.reason}`,
            range: loc.key ?? loc.value,
            severity: 'info',
            data: { path: relPath(o, x.path), crd: crd.name, notChecked: true, stoppedAfter: x.reason },
          });
          continue;
        }
        if (x.kind !== 'unknown') continue;
        const shown = relPath(o, x.path);
        const loc = o.doc.locate(x.path);
        const range = loc.key ?? loc.value;
        const parent = shown.slice(0, shown.length - x.key.length);
        const fixes: FindingFix[] = [];
        if (x.suggestion && loc.key) {
          const src = text.slice(loc.key.start, loc.key.end);
          const q = /^["']/.test(src) ? src[0] : '';
          fixes.push({ title: `Rename ${x.key} to ${x.suggestion}`, edits: [{ range: loc.key, newText: `${q}${x.suggestion}${q}` }], destructive: true });
        }
        const fate = crd.preserveUnknown
          ? 'the API server keeps it (spec.preserveUnknownFields of the v1beta1 CRD) but nothing declared reads it'
          : 'the API server drops it (pruning)';
        report({
          message: `${shown} is not in the schema of ${o.apiVersion} ${o.kind} in ${crdName(crd)}; ${fate}${x.suggestion ? `; did you mean ${parent}${x.suggestion}?` : ''}`,
          range,
          fixes,
          data: { path: shown, crd: crd.name, crdFile: crd.file, suggestions: x.suggestion ? [x.suggestion] : [] },
        });
      }
    }
    reportBundledFields(ctx, report);
  },
};
