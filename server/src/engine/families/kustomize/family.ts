// The Kustomize family: kustomization.yaml / kustomization.yml / Kustomization (a Kustomization or a Component), checked
// against the kustomize that each step's kubectl embeds. The resources it lists are files of the workspace and are
// checked as such (by their own family); its `images:` entries feed the Kubernetes component-skew rules.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { runRule, reportSyntax } from '../core';
import { KubernetesContext, lifecycleRows, type ContainerImage, type ManifestObject } from '../kubernetes';
import { withOpenapi } from '../kubernetes/data/openapi';
import { parseImage, componentOf } from '../kubernetes/data/components';
import { KustomizeContext, isKustomizationName, isKustomizationValue, kustomizeData } from './index';
import { kustomizeHover, kustomizeComplete } from './language';
import { rule as deprecatedField } from './rules/deprecated-field';
import { rule as fieldNotRead } from './rules/field-not-read';
import { rule as unknownField } from './rules/unknown-field';
import { rule as patchTargetApi } from './rules/patch-target-api';
import { rule as missingResource } from './rules/missing-resource';
import { rule as apiVersion } from './rules/api-version';
import { rule as componentNotValidated } from '../kubernetes/rules/component-not-validated';
import { rule as controlPlaneSkew } from '../kubernetes/rules/control-plane-skew';
import { rule as nodeComponentSkew } from '../kubernetes/rules/node-component-skew';
import { rule as operatorPinsDisagree } from '../kubernetes/rules/operator-pins-disagree';
import { runDeploymentRules, deploymentHover, bothHovers } from '../helm-chart/deployment-rules';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    kustomize?: KustomizeContext;
  }
}

export const kustomizeRules: Rule<KustomizeContext>[] = [apiVersion, deprecatedField, fieldNotRead, unknownField, patchTargetApi, missingResource];

/** The Kubernetes family's component-skew rules, run over the `images:` entries (their ids stay the Kubernetes family's). */
const imageRules = [componentNotValidated, controlPlaneSkew, nodeComponentSkew];

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An `images:` entry as the image it makes: newName (else name), newTag, digest; located at the entry's tag (else its name). */
class EntryImage implements ContainerImage {
  constructor(readonly object: ManifestObject, readonly path: Array<string | number>, readonly ref: ReturnType<typeof parseImage>, readonly component: ContainerImage['component'], readonly text: string, readonly range: { start: number; end: number }, readonly digest: boolean) {}
}

/** The Kubernetes context of a kustomization: no objects, its images are the `images:` entries. */
class ImagesContext extends KubernetesContext {
  entries: EntryImage[] = [];
  override images(): ContainerImage[] { return this.entries; }
}

function entryImages(ctx: KustomizeContext): EntryImage[] {
  const list = ctx.value.images;
  if (!Array.isArray(list) || !ctx.doc) return [];
  const out: EntryImage[] = [];
  const object = { doc: ctx.doc, at: [], value: ctx.value, apiVersion: String(ctx.value.apiVersion ?? ''), kind: String(ctx.value.kind ?? ''), apiVersionRange: { start: 0, end: 0 }, kindRange: { start: 0, end: 0 } } as ManifestObject;
  list.forEach((e, i) => {
    if (!isObj(e) || typeof e.name !== 'string') return;
    const repository = typeof e.newName === 'string' && e.newName ? e.newName : e.name;
    const tag = typeof e.newTag === 'string' ? e.newTag : typeof e.newTag === 'number' ? String(e.newTag) : undefined;
    const digest = typeof e.digest === 'string' ? e.digest : undefined;
    // Without newTag the tag is whatever the resources say: only the name is known here.
    const ref = { ...parseImage(repository), ...(tag !== undefined ? { tag } : {}), ...(digest ? { digest } : {}) };
    const at = tag !== undefined ? 'newTag' : typeof e.newName === 'string' ? 'newName' : 'name';
    const range = ctx.locate(['images', i, at]).value;
    const text = at === 'newTag' ? tag! : repository;
    out.push(new EntryImage(object, ['images', i, at], ref, componentOf(ref), text, range, !!digest));
  });
  return out;
}

export const kustomize: FamilyModule<'kustomize'> = {
  id: 'kustomize',
  title: 'Kustomize overlays (`kustomization.yaml`)',
  modelineNames: ['kustomize'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }], languages: ['yaml'] },
  detect({ file, yaml }) {
    const first = yaml?.docs.find((d) => !d.empty);
    // By name, unless the file says it is another API's object: a Flux `kustomize.toolkit.fluxcd.io` Kustomization kept
    // in a file named kustomization.yaml is a manifest (the Kubernetes family checks it against the Flux window).
    const v = first?.value as Record<string, unknown> | undefined;
    const foreign = !!v && typeof v === 'object' && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && !/^kustomize\.config\.k8s\.io\//.test(v.apiVersion);
    if (isKustomizationName(file) && !foreign) return DETECT.name;
    // By content: listed before the Kubernetes family in the registry, so a tie at `structure` is this family's.
    // (The first document: a bundle of manifests that holds a kustomization further down stays a bundle of manifests.)
    if (first && isKustomizationValue(first.value)) return DETECT.structure;
    return DETECT.no;
  },
  rules: kustomizeRules,
  analyze({ input, yaml, emit, stage }) {
    if (!yaml) return {};
    const { config, faults } = input;
    stage('parse', () => reportSyntax(yaml, emit));
    const kustomize = stage('context', () => {
      // The kustomization is the first document with content (kustomize/unknown-field says what else the file holds).
      const first = yaml.docs.find((d) => !d.empty);
      const doc = first && !first.errors.length && isObj(first.value) ? first : undefined;
      const rows = withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
      const k8s = new ImagesContext(yaml, [], config.kubernetes, rows, false, input.neighbours, input.path, config.starlingx.release.release, config.components);
      const ctx = new KustomizeContext(yaml, doc, config.kubernetes, input.path, k8s, input.files);
      k8s.entries = entryImages(ctx);
      return ctx;
    });
    for (const rule of kustomizeRules) runRule(rule, kustomize, emit, faults);
    // The operator versions its remote resources and images: pin, against the workspace's other pins.
    runRule(operatorPinsDisagree, { text: yaml.text, path: input.path, neighbours: input.neighbours ?? {} }, emit, faults);
    for (const rule of imageRules) {
      // A digest pins the image whatever newTag says: a tag fix would not change what runs, so none is offered.
      runRule(rule, kustomize.k8s, (r, f) => {
        const img = (kustomize.k8s as ImagesContext).entries.find((e) => e.range.start === f.range.start && e.range.end === f.range.end);
        emit(r, img?.digest ? { ...f, fixes: [] } : f);
      }, faults);
    }
    // helmCharts: entries of a chart of the workspace: checked with their values (issue #32 item 3).
    const helmDeployments = runDeploymentRules(input, emit);
    return { kustomize, helmDeployments };
  },
  hover: (r, text, pos) => bothHovers(deploymentHover(r.helmDeployments, text, pos), r.kustomize ? kustomizeHover(r.kustomize, text, pos) : undefined),
  complete: (r, text, pos) => (r.kustomize ? kustomizeComplete(r.kustomize, text, pos) : []),
  facts: (r) => (r.kustomize ? { kubernetesWindow: r.kustomize.windowText, kustomize: r.kustomize.steps.map((s) => ({ minor: s.minor, version: s.version, major: s.major })) } : undefined),
  steps: (r) => r.kustomize?.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  data: kustomizeData,
};
