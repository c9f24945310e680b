import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { operatorObjects, windowSaid, replacementOf } from '../operators';
import { releaseStatus } from '../../../components/operator-data';

const BASIS: Record<string, string> = {
  'webhook-warning': 'the operator\'s admission webhook returns this warning on every create and update',
  documented: 'documented by the operator (its CRDs do not flag it)',
  deprecationWarning: 'the CRD\'s deprecationWarning',
  crd: 'the CRDs',
  inferred: 'inferred from the CRDs',
};

/** The source's first clause ("kyverno/kyverno commit 6b9f0e619a (PR #16868, first in v1.19.0)"); the whole is in the data. */
const shortSource = (s: string): string => { const t = s.split(/:\s|;\s/)[0]; return t.length > 140 ? `${t.slice(0, 139)}…` : t; };

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/operator-api-deprecated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Operator custom resource at a version some release of the operator\'s window deprecates',
  what: 'Reports, at its apiVersion, a custom resource of one of the operators of the bundled data (see '
    + 'k8s/operator-api-not-served) whose version every release of the operator\'s window serves but some release deprecates: '
    + 'the CRD flags it `deprecated: true` (its `deprecationWarning` text is quoted), or a curated fact of the data says so where the '
    + 'CRD flags do not (Kyverno 1.19\'s admission warning for kyverno.io policies, Traefik 2.10\'s documented deprecation of '
    + 'traefik.containo.us, Tekton 0.50\'s of v1beta1), with its basis and source. A version some release does not serve is '
    + 'k8s/operator-api-not-served\'s. The window, and a workspace CRD winning, are as for k8s/operator-api-not-served.',
  why: 'A deprecated version is the one a later release of the operator stops serving: kubectl, Helm and Argo CD print the '
    + 'warning on every apply, and the object fails once that release is installed.',
  bad: { filename: 'policy.yaml', text: 'apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: require-labels\nspec:\n  validationFailureAction: Audit\n  rules:\n  - name: check-team\n    match:\n      any:\n      - resources: {kinds: [Pod]}\n    validate:\n      message: label team is required\n      pattern: {metadata: {labels: {team: "?*"}}}\n', options: 'component kyverno=1.18..1.19' },
  good: { filename: 'policy.yaml', text: 'apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: require-labels\nspec:\n  validationFailureAction: Audit\n  rules:\n  - name: check-team\n    match:\n      any:\n      - resources: {kinds: [Pod]}\n    validate:\n      message: label team is required\n      pattern: {metadata: {labels: {team: "?*"}}}\n', options: 'component kyverno=1.17..1.18' },
  fix: 'none',
  sources: [
    'data/operators/lifecycle.json (scripts/import-operators.mjs: versions[].deprecated and deprecationWarning of the operators\' CRDs per release; curatedLifecycle)',
    'kyverno/kyverno commit 6b9f0e619a (PR #16868, v1.19.0): pkg/deprecations/deprecations.go (admission warning for kyverno.io policies)',
  ],
  check(ctx, report) {
    for (const x of operatorObjects(ctx)) {
      if (!x.window || !x.steps.length || x.steps.some((s) => !s.served)) continue;
      const first = x.steps.find((s) => s.deprecated);
      if (!first) continue;
      const { o } = x;
      const c = first.curated;
      const said = first.warning ? `: "${first.warning}"`
        : c ? ` (${BASIS[c.basis] ?? c.basis}; source: ${shortSource(c.source)})` : ' (versions[].deprecated in its CRD, with no deprecationWarning)';
      const repl = replacementOf(x, first.release);
      // Since when: the first release of the data from which every release up to the window's first deprecated one deprecates it.
      const ids = x.data.releases.map((r) => r.id);
      let since = ids.indexOf(first.release);
      while (since > 0 && releaseStatus(x.data, x.crdKey, x.version, ids[since - 1]).deprecated) since--;
      report({
        message: `${o.apiVersion} ${o.kind} is deprecated from ${x.operator} ${ids[since]}${said}${repl && repl.text !== o.apiVersion ? `; migrate to ${repl.text}` : ''} (${windowSaid(x)})`,
        range: o.apiVersionRange,
        data: {
          operator: x.operator, window: x.window.text, windowSource: x.window.source, deprecatedAt: x.steps.filter((s) => s.deprecated).map((s) => s.release),
          warning: first.warning ?? null, basis: c?.basis ?? 'crd', source: c?.source ?? x.data.crds[x.crdKey]?.source,
        },
      });
    }
  },
};
