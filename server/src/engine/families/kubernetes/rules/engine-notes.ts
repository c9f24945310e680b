// Kubernetes findings the engine raises itself (not per manifest object).
import type { RuleMeta } from '../../../rules/types';

export const helmTemplate: RuleMeta = {
  id: 'k8s/helm-template',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Unrendered Helm template',
  what: 'Says, once per document, at its first such `{{`, that a document of a file read as a Kubernetes manifest (a `files:` association or a '
    + '`# skewguard: kubernetes` modeline says so) holds Go template syntax where YAML reads structure (a `{{- if … }}` line, `name: {{ .Release.Name }}`) '
    + 'and is not checked; the file\'s other documents are. `{{ … }}` inside a scalar (quoted, block, or a plain value after other text) is text of '
    + 'another tool (Prometheus, Alertmanager, Argo, Grafana) and is not this note. Without the association or modeline such a file is a Helm chart '
    + 'template (family helm-chart), rendered and checked at every step.',
  why: 'A template is not YAML until it is rendered: checking it would give a flood of meaningless parse errors, and the '
    + 'apiVersion it ends up with may come from values. Render it and lint the output instead: '
    + '`helm template my-release ./chart | lsp-lint --stdin-filename rendered.yaml`.',
  bad: { filename: 'templates/ingress.yaml', text: '# skewguard: kubernetes\napiVersion: {{ .Values.ingress.apiVersion }}\nkind: Ingress\nmetadata:\n  name: {{ include "app.fullname" . }}\n' },
  good: { filename: 'rendered.yaml', text: 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app\n' },
  fix: 'none',
  sources: ['Helm documentation: helm template'],
};

export const staleData: RuleMeta = {
  id: 'k8s/stale-data',
  family: 'kubernetes',
  oncePerRun: true,
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

export const windowPastData: RuleMeta = {
  id: 'k8s/window-past-data',
  family: 'kubernetes',
  oncePerRun: true,
  defaultSeverity: 'warning',
  title: 'Kubernetes window goes past the lifecycle data',
  what: 'Says, once per run, that the Kubernetes window has versions newer than the newest minor the API lifecycle data '
    + 'knows, and which versions of the window it cannot vouch for. `--print-config` lists the same versions.',
  why: 'A version the data does not know is not a version where nothing is removed: only the removals already announced '
    + 'for it (e.g. in the generated API lifecycle code) are checked. Without this note a window such as 1.36..1.45 would '
    + 'pass as "no problems". Make it fail the job with `--max-warnings 0` or by setting its severity to error; under '
    + '`--exit-codes pluto` it is neither a removal (3) nor a deprecation (2), so it follows the default exit codes.',
  bad: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'Kubernetes 1.36..1.45' },
  good: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'Kubernetes 1.36..1.37' },
  fix: 'none',
  sources: ['data/kubernetes/api-lifecycle.json (minors, asOf)'],
};

export const documentNotChecked: RuleMeta = {
  id: 'k8s/document-not-checked',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Document of a manifest file not checked',
  what: 'Says, at its first line, that a document of a file read as Kubernetes manifests is no Kubernetes object (its top '
    + 'level is not a mapping with `apiVersion` and `kind`: a list, a scalar, a mapping of something else), so nothing '
    + 'in it is checked; the file\'s other documents are. So is an item of a List without apiVersion and kind of its own (a typed '
    + 'list such as `IngressList`, as the API server returns one, whose items the list\'s decoding gives the list\'s apiVersion '
    + 'and kind). A document that does not parse is said by syntax/parse-error '
    + 'at its own line instead, one with Helm template syntax by k8s/helm-template.',
  why: 'A multi-document file is checked one document at a time: a document passed over in silence would read as checked '
    + 'and clean, although a typo in `apiVersion` or `kind` kept it from being read as an object at all.',
  bad: { filename: 'app.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n---\napiVerison: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' },
  good: { filename: 'app.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' },
  fix: 'none',
  sources: ['Kubernetes API conventions: every object has apiVersion and kind (kubectl apply refuses a document without them)'],
};
