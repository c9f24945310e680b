// Kubernetes findings the engine raises itself (not per manifest object).
import type { RuleMeta } from '../types';

export const helmTemplate: RuleMeta = {
  id: 'k8s/helm-template',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Unrendered Helm template',
  what: 'Says, once per file, that a YAML file holds Go template syntax (`{{ … }}`) and is not checked as a manifest.',
  why: 'A template is not YAML until it is rendered: checking it would give a flood of meaningless parse errors, and the '
    + 'apiVersion it ends up with may come from values. Render it and lint the output instead: '
    + '`helm template my-release ./chart | lsp-lint --stdin-filename rendered.yaml`.',
  bad: { filename: 'templates/ingress.yaml', text: 'apiVersion: {{ .Values.ingress.apiVersion }}\nkind: Ingress\nmetadata:\n  name: {{ include "app.fullname" . }}\n' },
  good: { filename: 'rendered.yaml', text: 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app\n' },
  fix: 'none',
  sources: ['Helm documentation: helm template'],
};

export const staleData: RuleMeta = {
  id: 'k8s/stale-data',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Kubernetes lifecycle data may be stale',
  what: 'Says, once per run, that the API lifecycle data is more than six months old, so deprecations announced since '
    + 'then are not known.',
  why: 'Stale deprecation data is the main complaint about tools of this kind: a clean result should not be read as '
    + '"nothing will break" when the data predates the newest Kubernetes release.',
  bad: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'data older than six months' },
  good: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' },
  fix: 'none',
  sources: ['data/kubernetes/api-lifecycle.json (asOf)'],
};
