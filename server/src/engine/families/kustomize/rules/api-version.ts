import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';

const KUSTOMIZATION = 'kustomize.config.k8s.io/v1beta1';
const COMPONENT = 'kustomize.config.k8s.io/v1alpha1';

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/api-version',
  family: 'kustomize',
  defaultSeverity: 'error',
  title: 'Kustomization kind or apiVersion that kustomize refuses',
  what: 'Reports a kustomization whose `kind` is neither `Kustomization` nor `Component`, and one whose `apiVersion` is not the one its '
    + 'kind requires (`kustomize.config.k8s.io/v1beta1` for a Kustomization, `kustomize.config.k8s.io/v1alpha1` for a Component), with a fix to it.',
  why: 'kustomize checks both before building (EnforceFields): "apiVersion for Component should be kustomize.config.k8s.io/v1alpha1" '
    + 'stops `kubectl apply -k` at every step. A Component copied from a Kustomization keeps the wrong apiVersion easily.',
  bad: { filename: 'components/tls/kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Component\npatches:\n  - path: tls.yaml\n', options: 'Kubernetes 1.26..1.28' },
  good: { filename: 'components/tls/kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: tls.yaml\n', options: 'Kubernetes 1.26..1.28' },
  fix: 'complete',
  sources: ['kubernetes-sigs/kustomize api/types/kustomization.go (KustomizationVersion, ComponentVersion, EnforceFields)'],
  check(ctx, report) {
    const v = ctx.value;
    const kind = v.kind;
    if (kind !== undefined && kind !== 'Kustomization' && kind !== 'Component') {
      report({ message: `kind ${JSON.stringify(kind)}: kustomize accepts only Kustomization or Component here`, range: ctx.locate(['kind']).value, data: { kind } });
      return;
    }
    const want = kind === 'Component' ? COMPONENT : KUSTOMIZATION;
    if (v.apiVersion === undefined || v.apiVersion === want) return; // an empty apiVersion is filled in by kustomize
    const loc = ctx.locate(['apiVersion']).value;
    const src = ctx.file.text.slice(loc.start, loc.end);
    const q = /^["']/.test(src) ? src[0] : '';
    report({
      message: `apiVersion ${JSON.stringify(v.apiVersion)}: a ${kind ?? 'Kustomization'} must be ${want}, kustomize refuses anything else`,
      range: loc,
      fixes: [{ title: `Use ${want}`, edits: [{ range: loc, newText: `${q}${want}${q}` }], preferred: true, destructive: false }],
      data: { apiVersion: v.apiVersion, required: want },
    });
  },
};
