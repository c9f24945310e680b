import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';
import { fieldDeprecatedAt, kustomizeData } from '../index';
import { conversion, stepsWith, unknownAt } from './common';

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/deprecated-field',
  family: 'kustomize',
  defaultSeverity: 'warning',
  title: 'Kustomization field deprecated by the kustomize of some step of the window',
  what: 'Reports a field of a kustomization (`bases`, `patchesStrategicMerge`, `patchesJson6902`, `commonLabels`, `vars`, `imageTags`) '
    + 'that the kustomize embedded in the kubectl of some Kubernetes version of the window deprecates, with its replacement. '
    + 'Where the conversion is mechanical and every step\'s kustomize reads the replacement, a fix rewrites it as `kustomize edit fix` '
    + 'does (bases into resources; strategic-merge patches into `patches: - path:`; JSON 6902 patches into `patches` with their '
    + 'target; commonLabels into `labels` with `includeSelectors: true`; imageTags into images). `vars` gets no automatic fix: '
    + 'replacements name their targets explicitly where a var is substituted wherever `$(NAME)` appears, so the resource files change too.',
  why: 'kubectl embeds kustomize, so the same kustomization is built by a different kustomize at each step of an upgrade. Deprecated '
    + 'fields warn on every build from kustomize v5 (kubectl 1.27) and are not part of the coming kustomize.config.k8s.io/v1 API; '
    + 'replacing them too early breaks the older steps, whose kustomize does not read the replacement yet.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\npatchesStrategicMerge:\n  - replicas.yaml\n', options: 'Kubernetes 1.26..1.28' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\npatches:\n  - path: replicas.yaml\n', options: 'Kubernetes 1.26..1.28' },
  fix: 'complete',
  sources: ['kubernetes-sigs/kustomize api/types/kustomization.go (Deprecated comments, CheckDeprecatedFields, FixKustomization)', 'kustomize v2.1.0 and v5.0.0 release notes', 'data/kubernetes/kustomize.json'],
  check(ctx, report) {
    for (const tf of ctx.fields) {
      const f = tf.row;
      if (!f?.deprecated) continue;
      const at = ctx.steps.filter((s) => fieldDeprecatedAt(f, s) === true);
      const maybe = ctx.steps.filter((s) => fieldDeprecatedAt(f, s) === undefined);
      if (!at.length && !maybe.length) continue;
      const since = f.deprecated === '5.x' ? 'a kustomize v5 release (which one is not in the data)' : `kustomize ${f.deprecated}`;
      const where = at.length ? `deprecated since ${since}, which the window's kubectl embeds at ${stepsWith(at)}` : `deprecated by ${since}; at ${stepsWith(maybe)} that is not vouched for`;
      const repl = f.replacement ? kustomizeData().fields.find((x) => x.name === f.replacement) : undefined;
      let advice: string;
      let fixes: ReturnType<typeof conversion>['fix'][] = [];
      if (f.name === 'vars') {
        advice = 'move to replacements by hand: no automatic fix, since replacements name each target field while a var is substituted wherever $(NAME) appears in the resources (`kustomize edit fix` converts them by rewriting the resource files, experimentally)';
      } else if (repl) {
        const { no, unsure } = unknownAt(ctx, { ...repl, introduced: f.replacementSince ?? repl.introduced });
        if (no.length || unsure.length) {
          advice = `its replacement (${repl.name}${f.replacementSince && f.replacementSince !== repl.introduced ? ` as it is read from kustomize ${f.replacementSince}` : ''}) is ${no.length ? `not read by ${stepsWith(no)}` : `not vouched for at ${stepsWith(unsure)}`}, so no single form serves the whole window ${ctx.windowText}: keep ${f.name} until the window has moved past ${(no[no.length - 1] ?? unsure[unsure.length - 1]).minor}`;
        } else {
          const c = conversion(ctx, f);
          advice = `use ${repl.name}${f.name === 'commonLabels' ? ' with includeSelectors: true' : ''}, read by every step of the window`;
          if (c.fix) fixes = [c.fix]; else if (c.why) advice += ` (no automatic fix: ${c.why})`;
        }
      } else advice = 'remove it';
      report({
        message: `${f.name} is ${where}; ${advice}`,
        range: tf.key,
        fixes: fixes.filter((x): x is NonNullable<typeof x> => !!x),
        data: { field: f.name, deprecatedIn: f.deprecated, replacement: f.replacement, steps: at.map((s) => s.minor), unvouched: maybe.map((s) => s.minor) },
      });
    }
  },
};
