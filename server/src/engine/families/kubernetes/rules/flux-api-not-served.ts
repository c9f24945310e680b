import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { fluxSteps, fluxCommon, fluxMove, fluxData, windowNote, type FluxStepStatus } from './flux';
import { fluxStepName } from '../../starlingx-app/data';

const why = (s: FluxStepStatus, kind: string, group: string) => (s.step.notInData
  ? `StarlingX ${s.step.starlingx}, for which the data has no FluxCD (${s.step.notes[0]})`
  : !s.step.flux
  ? `StarlingX ${s.step.starlingx}, which ships no FluxCD (its applications were deployed with Armada)`
  : !s.kindInstalled
    ? `${fluxStepName(s.step)}, which installs no ${kind} CRD of ${group}`
    : `${fluxStepName(s.step)}, whose ${kind} CRD serves ${s.versions.join(', ')}`);

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/flux-api-not-served',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Flux apiVersion not served by the FluxCD of a StarlingX release on the upgrade path',
  what: 'When the configuration names a StarlingX release (`starlingx.release`, `starlingx.upgradeFrom` in `.skewguard.yaml`, '
    + '`--starlingx-release`) or the workspace has a localhost.yml, the Flux manifests of an application bundle (HelmRelease, '
    + 'HelmRepository, HelmChart, GitRepository, Kustomization, Alert …) are checked against the Flux CRDs that each StarlingX release '
    + 'of the upgrade path installs, e.g. 12.0 ships Flux 2.7.5, whose CRDs no longer serve `helm.toolkit.fluxcd.io/v2beta1` or '
    + '`source.toolkit.fluxcd.io/v1beta1`. The error names the release and its Flux version; the fix changes the apiVersion to one '
    + 'served by every release of the path only where the two apiVersions\' spec fields are the same (compared upstream).',
  why: 'An object whose apiVersion no installed CRD serves is refused by the Kubernetes API server, so applying the application\'s '
    + 'fluxcd-manifests fails on that release, and after a platform upgrade the application can no longer be re-applied or updated. '
    + 'sysinv\'s own HelmRelease objects moved from helm.toolkit.fluxcd.io/v2beta1 to v2 in 10.0 (FLUXCD_CRD_HELM_REL_VERSION).',
  bad: { filename: 'helmrelease.yaml', text: 'apiVersion: helm.toolkit.fluxcd.io/v2beta1\nkind: HelmRelease\nmetadata:\n  name: metrics-server\nspec:\n  releaseName: ms-metrics-server\n  chart:\n    spec:\n      chart: metrics-server\n      version: 3.8.2\n      sourceRef:\n        kind: HelmRepository\n        name: stx-platform\n  interval: 5m\n', options: 'StarlingX 12.0' },
  good: { filename: 'helmrelease.yaml', text: 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: metrics-server\nspec:\n  releaseName: ms-metrics-server\n  chart:\n    spec:\n      chart: metrics-server\n      version: 3.8.2\n      sourceRef:\n        kind: HelmRepository\n        name: stx-platform\n  interval: 5m\n', options: 'StarlingX 12.0' },
  fix: 'complete',
  sources: ['data/starlingx/app-metadata.json (flux: CRDs per StarlingX release, starlingx/ansible-playbooks fluxcd-controllers and fluxcd-community/helm-charts at the release tags)', 'data/kubernetes/api-lifecycle.json (component fluxcd)', 'fluxcd/helm-controller and fluxcd/source-controller api/ types (field comparisons)'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const steps = fluxSteps(ctx, o);
      if (!steps) continue;
      const bad = steps.filter((s) => !s.served);
      if (!bad.length) continue;
      const group = o.apiVersion.slice(0, o.apiVersion.lastIndexOf('/'));
      const common = fluxCommon(ctx, o).filter((a) => a !== o.apiVersion);
      const move = common.length ? fluxMove(ctx, o, common[0]) : undefined;
      const advice = move
        ? move.advice
        : ctx.flux!.steps.length > 1
          ? `no apiVersion of ${o.kind} is served by every release of ${ctx.flux!.text}: the manifest has to change during the platform upgrade`
          : `${ctx.flux!.text} serves no other apiVersion of ${o.kind}`;
      report({
        message: `${o.apiVersion} ${o.kind} is not served by ${bad.map((s) => why(s, o.kind, group)).join('; nor by ')}: `
          + `applying the application's FluxCD manifests fails there; ${advice} ${windowNote(ctx)}`,
        range: o.apiVersionRange,
        fixes: move ? move.fixes : [],
        data: { ...fluxData(ctx, steps), replacement: common[0] ?? null },
      });
    }
  },
};
