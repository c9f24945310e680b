import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { fluxSteps, fluxCommon, fluxMove, fluxData, windowNote, stepList } from './flux';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/flux-api-deprecated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Flux apiVersion deprecated by the FluxCD of a StarlingX release on the upgrade path',
  what: 'A Flux manifest whose apiVersion every StarlingX release of the upgrade path serves, but whose CRD marks it deprecated in '
    + 'some of them (e.g. `helm.toolkit.fluxcd.io/v2beta2` in 12.0\'s Flux 2.7.5). The fix to an apiVersion served and not deprecated '
    + 'across the path is offered only where the spec fields are the same (compared upstream).',
  why: 'Flux removes a deprecated API version a few minors later (v2beta1 and v1beta1 in 2.7, v2beta2 and source v1beta2 in 2.8); '
    + 'the next StarlingX release that ships that Flux can no longer apply the application.',
  bad: { filename: 'helmrepository.yaml', text: 'apiVersion: source.toolkit.fluxcd.io/v1beta1\nkind: HelmRepository\nmetadata:\n  name: stx-platform\nspec:\n  url: http://192.168.206.1:8080/helm_charts/stx-platform\n  interval: 60m\n', options: 'StarlingX 10.0' },
  good: { filename: 'helmrepository.yaml', text: 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: stx-platform\nspec:\n  url: http://192.168.206.1:8080/helm_charts/stx-platform\n  interval: 60m\n', options: 'StarlingX 10.0' },
  fix: 'complete',
  sources: ['data/starlingx/app-metadata.json (flux: CRDs per StarlingX release)', 'data/kubernetes/api-lifecycle.json (component fluxcd)'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const steps = fluxSteps(ctx, o);
      if (!steps || steps.some((s) => !s.served)) continue; // k8s/flux-api-not-served speaks
      const dep = steps.filter((s) => s.deprecated);
      if (!dep.length) continue;
      const gk = `${o.apiVersion.slice(0, o.apiVersion.lastIndexOf('/'))}/${o.kind}`;
      const better = fluxCommon(ctx, o).filter((a) => a !== o.apiVersion && !ctx.flux!.steps.some((s) => s.served?.[gk]?.find((x) => `${gk.split('/')[0]}/${x.version}` === a)?.deprecated));
      const move = better.length ? fluxMove(ctx, o, better[0]) : undefined;
      report({
        message: `${o.apiVersion} ${o.kind} is deprecated by the Flux CRDs of ${stepList(dep)}: a later Flux removes it; `
          + `${move ? move.advice : `no apiVersion of ${o.kind} is served and not deprecated by every release of ${ctx.flux!.text}`} ${windowNote(ctx)}`,
        range: o.apiVersionRange,
        fixes: move ? move.fixes : [],
        data: { ...fluxData(ctx, steps), replacement: better[0] ?? null },
      });
    }
  },
};
