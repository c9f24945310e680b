// The Kubernetes family: manifests (YAML or JSON, one object per document, Lists), checked across the window.
import * as path from 'node:path';
import type { AnalyzeInput } from '../../analyze';
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { kubernetesApis } from './data/apis';
import { windowPastDataOf } from './data/past-data';
import { COMPONENTS } from '../../components/registry';
import { fileOperatorWindows } from './operators';
import { LineIndex, lineIndexOf, matchesAfter } from '../../text';
import { runRule, reportSyntax, type SyntaxHint } from '../core';
import { KubernetesContext, manifestObjects, isManifestValue, isManifestLike, lifecycleRows } from './index';
import { withOpenapi } from './data/openapi';
import { fieldTableWith } from './data/fields';
import { mayHoldCrd } from './crds';
import { k8sComplete, k8sHover, k8sInlayHints } from './language';
import { parseImage, componentOf, kubeMinorOfTag } from './data/components';
import { rule as removedApi } from './rules/removed-api';
import { rule as deprecatedApi } from './rules/deprecated-api';
import { rule as notYetServed } from './rules/api-not-yet-served';
import { rule as noCommon } from './rules/no-common-api-version';
import { helmTemplate, staleData, windowPastData, documentNotChecked } from './rules/engine-notes';
import { rule as componentNotValidated } from './rules/component-not-validated';
import { rule as controlPlaneSkew } from './rules/control-plane-skew';
import { rule as nodeComponentSkew } from './rules/node-component-skew';
import { rule as kubeadmVersion } from './rules/kubeadm-version';
import { rule as fluxNotServed } from './rules/flux-api-not-served';
import { rule as fluxDeprecated } from './rules/flux-api-deprecated';
import { rule as fluxIdle } from './rules/flux-controller-not-deployed';
import { rule as fieldNotServed } from './rules/field-not-served';
import { rule as componentSetting } from './rules/component-setting';
import { rule as unknownField } from './rules/unknown-field';
import { rule as fieldType } from './rules/field-type';
import { rule as componentConfigKind } from './rules/component-config-kind';
import { rule as invalidEnum } from './rules/invalid-enum-value';
import { rule as deprecatedAnnotation } from './rules/deprecated-annotation';
import { rule as runtimeClassHandler } from './rules/runtimeclass-handler';
import { rule as fieldsNotChecked } from './rules/fields-not-checked';
import { rule as unknownApi } from './rules/unknown-api';
import { rule as apiOffByDefault } from './rules/api-off-by-default';
import { rule as fieldFeatureGated } from './rules/field-feature-gated';
import { rule as crVersionNotServed } from './rules/cr-version-not-served';
import { rule as crVersionDeprecated } from './rules/cr-version-deprecated';
import { rule as crUnknownField } from './rules/cr-unknown-field';
import { rule as crInvalidValue } from './rules/cr-invalid-value';
import { rule as crValidationRule } from './rules/cr-validation-rule';
import { rule as crdStorageVersion } from './rules/crd-storage-version';
import { rule as crdVersionInUse } from './rules/crd-version-in-use';
import { rule as operatorNotServed } from './rules/operator-api-not-served';
import { rule as operatorDeprecated } from './rules/operator-api-deprecated';
import { rule as operatorStorageDropped } from './rules/operator-storage-version-dropped';
import { partialObjects } from './partial';
import { scanTemplates } from '../../parse/template-text';
import { parseYaml, YamlFile, type YamlDoc } from '../../parse/yaml';
import { keepShape } from '../../keep-shapes';
import { windowText } from '../../window-text';
import { kubernetesConfigSection } from './config';
import { operatorPinsProducer } from '../../components/pin-index';
import { scanFilePins, pinsOf } from '../../components/operator-pins';
import { crdIndexProducer } from './crd-index';
import { rule as operatorPinsDisagree } from './rules/operator-pins-disagree';
import { runDeploymentRules, deploymentHover, bothHovers } from '../helm-chart/deployment-rules';

/** A control-plane or kube-proxy component's name: the skew rules compare the file's own images (documentWise). */
const COMPONENT_NAME = /kube-(apiserver|controller-manager|scheduler|proxy)/y;

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    k8s?: KubernetesContext;
  }
}

export const kubernetesRules: Rule<KubernetesContext>[] = [
  removedApi, deprecatedApi, notYetServed, noCommon, componentNotValidated, controlPlaneSkew, nodeComponentSkew, kubeadmVersion,
  fluxNotServed, fluxDeprecated, fluxIdle, fieldNotServed, componentSetting, unknownField, invalidEnum, deprecatedAnnotation, runtimeClassHandler, fieldsNotChecked, apiOffByDefault, fieldFeatureGated,
  crVersionNotServed, crVersionDeprecated, crUnknownField, crInvalidValue, crValidationRule, crdStorageVersion, crdVersionInUse,
  operatorNotServed, operatorDeprecated, operatorStorageDropped,
  fieldType, componentConfigKind, unknownApi,
];

/** The rules that read only an object's apiVersion and kind: run on documents read up to a syntax error too. */
const partialRules: Rule<KubernetesContext>[] = [removedApi, deprecatedApi, notYetServed, noCommon, fluxNotServed, fluxDeprecated];

/**
 * An unrendered Helm template in a document: said once per such document, at its first `{{` that YAML reads as
 * structure, instead of checking that document; the file's other documents are checked.
 */
export const helmTemplateRule: Rule<{ path: string; at: number; document?: number }> = {
  ...helmTemplate,
  check({ path: file, at, document }, report) {
    report({
      message: `template: this ${document === undefined ? 'file' : `document (${document})`} is read as a Kubernetes manifest but holds Helm template syntax where YAML reads structure, so it is not checked; `
        + `without the association or modeline that makes it a manifest it is checked as a Helm chart template, rendered at every step (${path.basename(file)})`,
      range: { start: at, end: at + 2 },
    });
  },
};

/**
 * Documents of a manifest file that are no Kubernetes object (read without error, not empty, no apiVersion and kind at
 * the top): each said at its first line, never passed over. Only in a file some document of which is an object.
 */
type NotCheckedInput = { yaml: YamlFile; numbered: boolean; firstDocument: number; objectElsewhere: boolean };
/** documentNotCheckedRule's input. Made here only, so that the object kept below has its hidden class (keep-shapes.ts). */
const notCheckedInput = (yaml: YamlFile, numbered: boolean, firstDocument: number, objectElsewhere: boolean): NotCheckedInput => ({ yaml, numbered, firstDocument, objectElsewhere });
// Alive between files: the rule's optimised code reads this class, and a full collection that found no object of it
// left the rule's check with its inline caches cleared (test/keep-shapes).
keepShape(notCheckedInput(new YamlFile('', []), false, 0, false));

export const documentNotCheckedRule: Rule<NotCheckedInput> = {
  ...documentNotChecked,
  check({ yaml, numbered, firstDocument, objectElsewhere }, report) {
    if (!objectElsewhere && !yaml.docs.some((d) => !d.errors.length && isManifestLike(d.value))) return;
    let lines: LineIndex | undefined;
    const firstLine = (r: { start: number; end: number }) => ({ start: r.start, end: Math.max(r.start, Math.min(r.end, (lines ??= lineIndexOf(yaml.text)).lineEnd(lines.positionAt(r.start).line))) });
    for (const d of yaml.docs) {
      if (d.empty || d.errors.length || d.value == null) continue;
      if (isManifestLike(d.value)) {
        // A List's items are its objects (manifest-objects.ts): an item without apiVersion and kind is not one. In a
        // typed list (IngressList, as the API server returns one) the list's decoding gives such an item the list's
        // apiVersion and the kind without "List"; it is said as not checked rather than judged under a guess.
        const v = d.value as Record<string, unknown>;
        if (typeof v.kind !== 'string' || !/List$/.test(v.kind) || !Array.isArray(v.items)) continue;
        const typed = v.kind !== 'List' && typeof v.apiVersion === 'string' ? `${v.apiVersion} ${v.kind.slice(0, -4)}` : undefined;
        // One finding per List, at its first such item, naming how many there are (a List of a million scalars is one).
        let first = -1, count = 0;
        for (let i = 0; i < v.items.length; i++) if (!isManifestValue(v.items[i])) { if (first < 0) first = i; count++; }
        if (first < 0) continue;
        const which = count === 1 ? `item ${first + 1} of this ${v.kind} is` : `${count} items of this ${v.kind} (the first: item ${first + 1}) are`;
        report({
          message: `${which} not checked: ${count === 1 ? 'it has' : 'they have'} no apiVersion and kind of ${count === 1 ? 'its' : 'their'} own`
            + (typed ? ` (the API server reads ${count === 1 ? 'it' : 'them'} as ${typed}; write apiVersion and kind in the item to have it checked)` : ', no Kubernetes object'),
          range: firstLine(d.locate(['items', first]).value),
          data: { items: count, first: first + 1 },
        });
        continue;
      }
      const v = d.value;
      const what = Array.isArray(v) ? 'a list' : typeof v === 'object' ? `a mapping without ${'apiVersion' in (v as object) ? 'kind' : 'kind' in (v as object) ? 'apiVersion' : 'apiVersion and kind'}` : `a ${typeof v === 'string' ? 'string' : typeof v}`;
      const r = d.rootRange();
      report({
        message: `${numbered ? `document ${d.index + 1 + firstDocument}` : 'this document'} is not checked: it is ${what}, no Kubernetes object; the file's other documents are checked`,
        // Its first line (up to the line's end, whatever ends it).
        range: firstLine(r),
      });
    }
  },
};

/** Offsets in [doc.offset, doc.end): the first, or -1. */
function firstIn(offsets: number[], doc: YamlDoc): number {
  for (const o of offsets) if (o >= doc.offset && o < doc.end) return o;
  return -1;
}

/** The data's notes, said once per run (the caller sets reportStaleData on one file), at the file's first object. */
export interface DataNoteRun { k8s: KubernetesContext; input: AnalyzeInput }

export const staleDataRule: Rule<DataNoteRun> = {
  ...staleData,
  check({ k8s, input }, report) {
    if (!input.reportStaleData || !k8s.objects.length) return;
    const asOf = kubernetesApis().asOf;
    const age = ((input.today ?? new Date()).getTime() - Date.parse(asOf)) / 86400000;
    if (age > 183) {
      report({
        message: `the Kubernetes API lifecycle data is as of ${asOf}, more than six months ago: deprecations announced since then are not known`,
        range: k8s.objects[0].apiVersionRange,
      });
    }
  },
};

/** Steps of the window the data does not know: said once per run too (with the stale-data note's flag). */
export const windowPastDataRule: Rule<DataNoteRun> = {
  ...windowPastData,
  check({ k8s, input }, report) {
    if (!input.reportStaleData || !k8s.objects.length) return;
    const past = windowPastDataOf(input.config.kubernetes.minors, input.config.kubernetesOpenapi);
    if (!past) return;
    const announced = past.announced.length ? `; only the removals already announced for them are checked (${past.announced.join(', ')})` : '';
    report({
      message: `the Kubernetes window ${k8s.windowText} goes past the API lifecycle data, which knows Kubernetes up to ${past.knownUpTo} (as of ${past.asOf}): `
        + `${windowText(past.steps)} ${past.steps.length > 1 ? 'are' : 'is'} not vouched for, removals there are not known${announced}`,
      range: k8s.objects[0].apiVersionRange,
      data: { ...past },
    });
  },
};

// Any value: `kind: *foo` (an alias without its anchor) is a manifest that says why it is not checked. `^` (multiline)
// matches after LF, CRLF and a lone CR alike.
// A quote before a key is allowed, closed or not (`"apiVersion: v1` with its quote never closed is a syntax error to say).
const TOP_LEVEL_MANIFEST = (t: string) => /^["']?apiVersion["']?[ \t]*:[ \t]*[^\s#]/m.test(t) && /^["']?kind["']?[ \t]*:[ \t]*[^\s#]/m.test(t);

/**
 * Whether JSON text has `apiVersion` and `kind` keys in its top-level object: for a manifest the reader could not
 * turn into a value (nested too deeply). One pass, no recursion: depth is counted outside strings.
 */
function jsonTopLevelManifest(t: string): boolean {
  let depth = 0, api = false, kind = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 34 /* " */) {
      const s = i;
      for (i++; i < t.length && t.charCodeAt(i) !== 34; i++) if (t.charCodeAt(i) === 92) i++;
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < t.length && /\s/.test(t[j])) j++;
      if (t.charCodeAt(j) !== 58 /* : */) continue;
      const key = t.slice(s + 1, i);
      if (key === 'apiVersion') api = true;
      else if (key === 'kind') kind = true;
      if (api && kind) return true;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return false;
}

const YAML_EXT = new Set(['.yml', '.yaml', '']);

export const kubernetes: FamilyModule<'kubernetes'> = {
  id: 'kubernetes',
  title: 'Kubernetes manifests',
  // Its section of the configuration (kubernetes.window, crds, openapi, additionalVersions): the window every manifest is checked against.
  config: kubernetesConfigSection,
  modelineNames: ['kubernetes'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }, { ext: '.json' }], languages: ['yaml', 'json', 'jsonc'] },
  detect({ ext, text, head, yaml }) {
    if (ext === '.json') {
      if (yaml?.docs.some((d) => isManifestValue(d.value))) return DETECT.structure;
      // Not read (nested too deeply, an alias error): still a manifest if its top level says so, and told why.
      if (yaml?.docs.some((d) => d.errors.length && !isManifestValue(d.value)) && jsonTopLevelManifest(text)) return DETECT.structure;
      return DETECT.no;
    }
    if (!YAML_EXT.has(ext)) return DETECT.no;
    if (yaml?.docs.some((d) => isManifestLike(d.value))) return DETECT.structure;
    if (/^\s*apiVersion\s*:/m.test(head) && /^\s*kind\s*:/m.test(text) && scanTemplates(text).syntax.length) return DETECT.hint;
    // A document the reader could not turn into a value (an alias bomb, nesting too deep, a syntax error) is still a
    // manifest when it says so at its top level: it gets the reason it is not checked instead of silence.
    if (yaml?.docs.some((d) => d.errors.length && !isManifestLike(d.value) && TOP_LEVEL_MANIFEST(yaml.text.slice(d.offset, d.end)))) return DETECT.hint;
    return DETECT.no;
  },
  explain({ text, yaml }, level) {
    // Lines only for a `{{` said below (a 5 MB bundle's line index was built here for nothing, then again by analyze()).
    let lines: LineIndex | undefined;
    const line = (at: number) => (lines ??= lineIndexOf(text)).positionAt(at).line + 1;
    const docs = yaml?.docs.filter((d) => isManifestLike(d.value)).length ?? 0;
    const parts = [level === DETECT.hint ? 'its content: apiVersion and kind at the top level of a document it could not read' : `its content: apiVersion and kind in ${docs} document${docs === 1 ? '' : 's'}`];
    const scan = scanTemplates(text);
    if (scan.text.length) parts.push(`${scan.text.length} \`{{\` (first at line ${line(scan.text[0])}) inside scalars: text of another tool, never evaluated`);
    if (scan.bare.length) parts.push(`a \`{{\` at line ${line(scan.bare[0])} where YAML reads a flow mapping, not a Helm action: said as a syntax error`);
    if (scan.syntax.length) parts.push(`Helm template syntax at line ${line(scan.syntax[0])}: that document is not checked`);
    return parts.join('; ');
  },
  rules: [...kubernetesRules, operatorPinsDisagree, helmTemplateRule, documentNotCheckedRule, staleDataRule, windowPastDataRule],
  analyze({ input, ext, yaml, emit, stage }) {
    const { text, config, faults } = input;
    // `{{` where YAML reads structure (a `{{- if }}` line, `name: {{ .Release.Name }}`) is Helm template syntax: the
    // documents holding it are said, each at its own line, and not checked; the file's other documents are. `{{`
    // inside a scalar is text of another tool (Prometheus, Alertmanager, Argo, Grafana) and is never evaluated.
    const scan = scanTemplates(text);
    let numbered = input.partOf;
    // An object outside the documents read here: a templated document (said above, not checked) or, in a part of a
    // big file after the first, the first part's (documentWise needs one there).
    let objectElsewhere = !!input.partOf && input.partOf.firstDocument > 0;
    if (scan.syntax.length) {
      // Another family's look() may have kept a template from being parsed.
      const whole = yaml ?? stage('parse', () => parseYaml(text));
      const many = whole.docs.length > 1 || input.partOf;
      const kept = whole.docs.filter((d) => {
        const at = firstIn(scan.syntax, d);
        if (at < 0) return true;
        runRule(helmTemplateRule, { path: input.path, at, document: many ? d.index + 1 + (input.partOf?.firstDocument ?? 0) : undefined }, emit, faults);
        return false;
      });
      if (!kept.length) return {};
      objectElsewhere ||= kept.length < whole.docs.length;
      yaml = new YamlFile(whole.text, kept);
      if (whole.docs.length > 1) numbered ??= { firstDocument: 0 };
    }
    if (!yaml) return {};
    const read = yaml;
    stage('parse', () => reportSyntax(read, emit, numbered, bareHint(read, scan.bare)));
    const context = (objects: ReturnType<typeof manifestObjects>) => {
      const rows = withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
      const k = new KubernetesContext(read, objects, config.kubernetes, rows, ext === '.json', input.neighbours, input.path, config.starlingx.release.release, config.components, config.flux, fieldTableWith(config.kubernetesOpenapi),
        new Set(COMPONENTS.filter((m) => (config as unknown as Record<string, unknown>)[m.key]).map((m) => m.id)));
      k.operatorWindowsOf = fileOperatorWindows(config, input.neighbours);
      return k;
    };
    runRule(documentNotCheckedRule, notCheckedInput(read, !!numbered || read.docs.length > 1, numbered?.firstDocument ?? 0, objectElsewhere), emit, faults);
    const k8s = stage('context', () => context(manifestObjects(read)));
    for (const rule of kubernetesRules) runRule(rule, k8s, emit, faults);
    runRule(operatorPinsDisagree, { text: read.text, path: input.path, neighbours: input.neighbours ?? {} }, emit, faults);
    k8s.dropFieldWalks();
    // Documents with a syntax error whose apiVersion and kind were read before it: their API version is still
    // checked (partial.ts), without fixes.
    const partial = stage('context', () => partialObjects(read));
    if (partial.length) {
      const pk = stage('context', () => context(partial));
      for (const rule of partialRules) runRule(rule, pk, (r, f) => emit(r, { ...f, fixes: [] }), faults);
    }
    // Said or not (a severity of off still counts): the note is not tried again in this run's other files.
    let staleReported = false;
    for (const rule of [staleDataRule, windowPastDataRule]) {
      runRule(rule, { k8s, input }, (r, f) => { if (r === rule) staleReported = true; emit(r, f); }, faults);
    }
    // A Flux HelmRelease or an Argo CD Application of a chart of the workspace: checked with its values (issue #32 item 3).
    const helmDeployments = runDeploymentRules(input, emit);
    return { k8s, staleReported, helmDeployments };
  },
  hover: (r, text, pos) => bothHovers(deploymentHover(r.helmDeployments, text, pos), r.k8s ? k8sHover(r.k8s, text, pos) : undefined),
  complete: k8sComplete,
  inlayHints: k8sInlayHints,
  facts: (r) => (r.k8s ? { kubernetesWindow: r.k8s.windowText, objects: r.k8s.objects.length } : undefined),
  steps: (r) => r.k8s?.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  // The operator versions the workspace pins (engine/components/pin-index.ts), read by its operator-pins rule and
  // windows; the workspace's CRDs and custom resources (crd-index.ts), read by its custom resource rules.
  rootFactProducers: [operatorPinsProducer, crdIndexProducer],
  data: kubernetesApis,
  // Every rule looks at one object (and the workspace), except the skew rules, which compare the file's own
  // control-plane and kube-proxy images, and the template note, said once for the file: such files are checked whole.
  // The data notes (once per run) are said at the file's first object: the first part must hold it. A CRD too: the
  // custom resources of its file that use a version it does not serve (k8s/crd-version-in-use) may be in other parts.
  // k8s/operator-pins-disagree compares a file's pins with each other (and with the workspace's): a big file that pins
  // an operator at two places, or names a chart source it may resolve elsewhere, is checked whole.
  partKeys: (text, file) => {
    const scan = scanFilePins(file, text);
    const keys = pinsOf([scan]).pins.map((p) => `op:${p.operator}`);
    return scan.pending.length ? [...keys, '*'] : keys;
  },
  documentWise: (text, first) => !!first.k8s?.objects.length && !scanTemplates(text).syntax.length && !matchesAfter(text, 'kube-', COMPONENT_NAME)
    && !mayHoldCrd(text),
};

/**
 * A document that YAML cannot read because a `{{` stands at the start of a plain value (`legendFormat: {{instance}}`:
 * YAML reads a flow mapping there) and whose action is no Helm one: its syntax error is said at that `{{`, with
 * what it was taken for and why, instead of wherever the YAML reader gave up (reportSyntax builds the message).
 */
function bareHint(yaml: YamlFile, bare: number[]): SyntaxHint | undefined {
  if (!bare.length) return undefined;
  return (d) => {
    const at = firstIn(bare, d);
    if (at < 0 || !d.errors.some((e) => e.start >= at || yaml.text.lastIndexOf('\n', e.start) === yaml.text.lastIndexOf('\n', at))) return undefined;
    const close = yaml.text.indexOf('}}', at);
    const action = yaml.text.slice(at, close >= 0 && close - at < 80 ? close + 2 : at + 2);
    return {
      range: { start: at, end: at + action.length },
      says: `\`${action}\` stands at the start of a plain value, where YAML reads a flow mapping, not text, so this document is not read; `
        + `quote the value if it is another tool's template (e.g. "${action}"). It is not taken for a Helm template: \`${action}\` is no Helm action and the file is not in a chart's templates/`,
    };
  };
}

/**
 * Kubernetes component images a file gives the other files of its folder (static pods: kube-apiserver …), for the
 * skew rules. A fast scan of `image:` lines, no YAML parse: the server reads up to 200 files per folder.
 */
export function staticPodImagesOf(text: string): Array<{ component: string; minor: string; image: string }> {
  const found: Array<{ component: string; minor: string; image: string }> = [];
  for (const m of text.matchAll(/^\s*-?\s*image:\s*["']?([^\s"'#]+)/gm)) {
    const ref = parseImage(m[1]);
    const c = componentOf(ref);
    const minor = kubeMinorOfTag(ref.tag);
    if (c?.versionIsKubernetes && minor && c.id !== 'kube-proxy') found.push({ component: c.id, minor, image: ref.tag! });
  }
  return found;
}
