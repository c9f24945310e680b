// The StarlingX application bundle family: an application's metadata.yaml, checked at every StarlingX release of the
// upgrade path (keys, types, values as sysinv validates them) and against the Kubernetes window (supported_k8s_version).
// The bundle's fluxcd-manifests are Kubernetes manifests, checked there against the Flux of the same path (k8s/flux-*).
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError } from '../../rules/general';
import { runRule, reportSyntax } from '../core';
import { appMetadata } from './data';
import { AppContext, isAppMetadataName, looksLikeAppMetadata } from './index';
import { appComplete, appHover } from './language';
import { rule as unknownKey } from './rules/unknown-key';
import { rule as keyNotRead } from './rules/key-not-read';
import { rule as missingKey } from './rules/missing-key';
import { rule as invalidType } from './rules/invalid-type';
import { rule as invalidValue } from './rules/invalid-value';
import { rule as outside } from './rules/kubernetes-outside-supported';
import { rule as maxNoPatch } from './rules/maximum-without-patch';
import { rule as notCovered } from './rules/release-not-covered';
import { windowText } from '../../window-text';
import { kubernetesAlongPath } from '../starlingx/data';
import type { ResolvedConfig } from '../../config';
import type { KubeWindow } from '../kubernetes/config';
import { minorOf } from '../../versions';

/**
 * The Kubernetes versions an application bundle is checked against. Without a platform upgrade: the Kubernetes window.
 * On a StarlingX upgrade path (starlingx.upgradeFrom) whose Kubernetes window is the StarlingX one (exact patches, not
 * a kubernetes.window of the user's): every version the cluster runs along the path (kubernetesAlongPath), as an
 * application applied on the first release and kept across the platform upgrade must support each; with the release
 * that runs each version first, whose sysinv acts at that step.
 */
function appWindow(config: ResolvedConfig): { window: KubeWindow; kubeReleases?: Map<string, string> } {
  const path = config.starlingx.path;
  const w = config.kubernetes;
  if (path.length < 2 || !w.patches) return { window: w };
  const along = kubernetesAlongPath(path, w.patches);
  const patches = along.map((a) => a.version);
  const minors = [...new Set(patches.map((v) => minorOf(v)!))];
  const names = path.map((r) => r.release);
  const source = {
    kind: config.starlingx.source.kind,
    detail: `the Kubernetes versions a cluster runs on the StarlingX upgrade path ${windowText(names)} (data/starlingx/releases.json from kube-versions.json): `
      + names.map((n) => `${n}: ${along.filter((a) => a.release === n).map((a) => a.version).join(', ') || '(none new)'}`).join('; ')
      + `; with ${w.source.detail}`,
  };
  return { window: { minors, patches, source }, kubeReleases: new Map(along.map((a) => [a.version, a.release])) };
}

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    app?: AppContext;
  }
}

export const appRules: Rule<AppContext>[] = [missingKey, invalidType, invalidValue, unknownKey, keyNotRead, outside, maxNoPatch, notCovered];

const YAML_EXT = new Set(['.yml', '.yaml']);

export const starlingxApp: FamilyModule<'starlingx-app'> = {
  id: 'starlingx-app',
  title: 'StarlingX application bundles (`metadata.yaml`)',
  modelineNames: ['starlingx-app'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }], languages: ['yaml'] },
  detect({ file, ext, yaml }) {
    if (!YAML_EXT.has(ext)) return DETECT.no;
    const doc = yaml?.docs.find((d) => !d.empty);
    const named = isAppMetadataName(file);
    if (!looksLikeAppMetadata(doc, named)) return DETECT.no;
    return named ? DETECT.name : DETECT.content;
  },
  rules: appRules,
  analyze({ input, yaml, emit, stage }) {
    if (!yaml) return {};
    const { config, faults } = input;
    stage('parse', () => reportSyntax(yaml, emit));
    const content = yaml.docs.filter((d) => !d.empty);
    const doc = content[0];
    for (const extra of content.slice(1)) {
      emit(parseError, { message: 'a second YAML document: sysinv reads metadata.yaml as one document (yaml.safe_load) and fails on this one', range: { start: extra.rootRange().start, end: extra.rootRange().start + 1 } });
    }
    if (!doc || doc.errors.length) return {};
    const v = doc.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      emit(parseError, { message: 'an application metadata.yaml must be a mapping of keys to values', range: doc.rootRange() });
      return {};
    }
    const app = stage('context', () => {
      const known = appMetadata().releases;
      const names = config.starlingx.path.map((r) => r.release);
      const pathText = windowText(names);
      const { window, kubeReleases } = appWindow(config);
      return new AppContext(yaml, doc, names.filter((r) => known.includes(r)), names.filter((r) => !known.includes(r)), config.starlingx.release, window, pathText, kubeReleases);
    });
    for (const rule of appRules) runRule(rule, app, emit, faults);
    return { app };
  },
  hover: (r, text, pos) => (r.app ? appHover(r.app, text, pos) : undefined),
  complete: appComplete,
  facts: (r) => (r.app ? { starlingxReleases: r.app.releases, app: typeof r.app.value.app_name === 'string' ? r.app.value.app_name : null } : undefined),
  stepsName: 'StarlingX',
  steps: (r) => r.app?.releases,
  stepsSource: (r) => r.config?.starlingx.source,
  data: appMetadata,
};
