// Flux manifests (HelmRelease, HelmRepository, Kustomization, Alert …) on a StarlingX upgrade path: at each release
// of the path, is the object's apiVersion served by the Flux CRDs that release applies (data/starlingx/app-metadata.json
// flux[].served, from the CRD templates StarlingX installs)? Shared by k8s/flux-api-not-served and k8s/flux-api-deprecated.
import type { KubernetesContext, ManifestObject } from '../index';
import type { FindingFix } from '../../../rules/types';
import { YamlEditor } from '../../../parse/yaml-edit';
import { splitApiVersion } from '../data/api-version';
import { appMetadata, fluxStepName, type StxFlux } from '../../starlingx-app/data';

export const isFluxGroup = (group: string) => /(^|\.)fluxcd\.io$/.test(group);

export interface FluxStepStatus { step: StxFlux; served: boolean; deprecated: boolean; kindInstalled: boolean; versions: string[] }


/** The object's status at each step of the Flux window, or undefined when it is not a Flux object or there is no window. */
export function fluxSteps(ctx: KubernetesContext, o: ManifestObject, crdWins = true): FluxStepStatus[] | undefined {
  if (!ctx.flux) return undefined;
  const { group, version } = splitApiVersion(o.apiVersion);
  if (!isFluxGroup(group)) return undefined;
  // A Flux CRD in the workspace is what is installed: the object's version is checked against it (k8s/cr-*) instead
  // (whether the release runs the object's controller is still asked: crdWins false).
  if (crdWins && ctx.crdFor(o)) return undefined;
  const gk = `${group}/${o.kind}`;
  return ctx.flux.steps.map((step) => {
    const list = step.served?.[gk];
    const v = list?.find((x) => x.version === version);
    return { step, served: !!v, deprecated: !!v?.deprecated, kindInstalled: !!list, versions: (list ?? []).map((x) => x.version) };
  });
}

const STABILITY = (v: string): [number, number, number] => {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  return m ? [m[2] ? (m[2] === 'beta' ? 2 : 1) : 3, Number(m[1]), Number(m[3] ?? 0)] : [0, 0, 0];
};

/** apiVersions of the object's group and kind served at every step, best first (deprecated at no step, then GA > beta, higher). */
export function fluxCommon(ctx: KubernetesContext, o: ManifestObject): string[] {
  const { group } = splitApiVersion(o.apiVersion);
  const gk = `${group}/${o.kind}`;
  const steps = ctx.flux!.steps;
  let acc: Set<string> | undefined;
  for (const s of steps) {
    const here = new Set((s.served?.[gk] ?? []).map((x) => x.version));
    acc = acc ? new Set([...acc].filter((x) => here.has(x))) : here;
  }
  const dep = (v: string) => steps.some((s) => s.served?.[gk]?.find((x) => x.version === v)?.deprecated);
  return [...(acc ?? [])].sort((a, b) => Number(dep(a)) - Number(dep(b)) || STABILITY(b)[0] - STABILITY(a)[0] || STABILITY(b)[1] - STABILITY(a)[1] || STABILITY(b)[2] - STABILITY(a)[2])
    .map((v) => `${group}/${v}`);
}

/**
 * The advice and fix to move the object to `target`: an automatic fix only where the two apiVersions' spec fields were
 * compared upstream and are the same (data fieldCompat); otherwise the advice says so and there is no fix.
 */
export function fluxMove(ctx: KubernetesContext, o: ManifestObject, target: string): { advice: string; fixes: () => FindingFix[] } {
  const compat = appMetadata().fieldCompat.find((c) => c.kind === o.kind && c.from === o.apiVersion && c.to === target);
  const where = `served by every release of ${ctx.flux!.text}`;
  if (compat?.sameFields) {
    return {
      advice: `use ${target}, ${where}; its spec fields are those of ${o.apiVersion}, so only the apiVersion changes`,
      fixes: () => {
        const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
        ed.setScalar([...o.at, 'apiVersion'], target);
        return [{ title: `Change apiVersion to ${target} (same spec fields)`, edits: ed.edits, preferred: true, destructive: ed.destructive }];
      },
    };
  }
  return {
    advice: `move to ${target}, ${where}; the spec fields of ${o.apiVersion} and ${target} ${o.kind} are not known to be the same (not compared in the data), so there is no automatic fix: check the spec against ${target}`,
    fixes: () => [],
  };
}

/** "(Flux window StarlingX 11.0..12.0, from .skewguard.yaml)" */
export function windowNote(ctx: KubernetesContext): string {
  const k = ctx.flux!.source.kind;
  const from = k === 'cli' ? 'the command line' : k === 'config' ? '.skewguard.yaml' : k === 'settings' ? 'the editor settings' : k === 'workspace' ? 'the workspace localhost.yml' : 'the default';
  return `(Flux window: ${ctx.flux!.text}, from ${from})`;
}

export const stepList = (steps: FluxStepStatus[]) => steps.map((s) => fluxStepName(s.step)).join(', ');

export function fluxData(ctx: KubernetesContext, steps: FluxStepStatus[]) {
  return {
    fluxWindow: ctx.flux!.text, fluxSource: ctx.flux!.source,
    steps: steps.map((s) => ({ starlingx: s.step.starlingx, flux: s.step.flux, served: s.served, deprecated: s.deprecated, versions: s.versions })),
  };
}
