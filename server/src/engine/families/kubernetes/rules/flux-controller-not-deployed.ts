import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { fluxSteps, fluxData, windowNote } from './flux';
import { groupOf } from '../data/api-version';
import { fluxStepName } from '../../starlingx-app/data';

/** The Flux controller that reconciles a group's objects (image.toolkit.fluxcd.io: the reflector or the automation controller). */
const CONTROLLERS: Record<string, (kind: string) => string> = {
  'helm.toolkit.fluxcd.io': () => 'helm-controller',
  'source.toolkit.fluxcd.io': () => 'source-controller',
  'kustomize.toolkit.fluxcd.io': () => 'kustomize-controller',
  'notification.toolkit.fluxcd.io': () => 'notification-controller',
  'image.toolkit.fluxcd.io': (kind) => (kind === 'ImageUpdateAutomation' ? 'image-automation-controller' : 'image-reflector-controller'),
};

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/flux-controller-not-deployed',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Flux object whose controller a StarlingX release on the path does not run',
  what: 'A Flux object that the CRDs of a StarlingX release on the upgrade path serve, but whose controller that release does not '
    + 'deploy: 7.0 to 10.0 run only helm-controller and source-controller (9.0 and 10.0 still install the kustomize, notification and '
    + 'image CRDs), 11.0 and later add kustomize-controller and notification-controller, and no release runs the image controllers.',
  why: 'The object is accepted and stored, but nothing reconciles it: a Kustomization is never applied, an Alert never sent, and '
    + 'nothing reports an error.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  interval: 10m\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: platform\n', options: 'StarlingX 10.0' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  interval: 10m\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: platform\n', options: 'StarlingX 11.0' },
  fix: 'none',
  sources: ['data/starlingx/app-metadata.json (flux[].deployedControllers: starlingx/ansible-playbooks roles/common/fluxcd-controllers at the release tags)'],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const steps = fluxSteps(ctx, o, false);
      if (!steps || steps.some((s) => !s.served)) continue; // k8s/flux-api-not-served speaks
      const controller = CONTROLLERS[groupOf(o.apiVersion)]?.(o.kind);
      if (!controller) continue;
      const idle = steps.filter((s) => s.step.deployedControllers && !s.step.deployedControllers.includes(controller));
      if (!idle.length) continue;
      report({
        message: `${o.apiVersion} ${o.kind} is served by the CRDs of ${idle.map((s) => fluxStepName(s.step)).join(', ')}, but ${idle.length === 1 ? 'that release does' : 'those releases do'} not run ${controller}: `
          + `the object is stored and never reconciled ${windowNote(ctx)}`,
        range: o.kindRange,
        data: { ...fluxData(ctx, steps), controller, notDeployedIn: idle.map((s) => s.step.starlingx) },
      });
    }
  },
};
