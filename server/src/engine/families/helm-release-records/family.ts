// The Helm release record family: `kubectl get secrets -A -l owner=helm -o yaml|json` (and ConfigMap storage, and
// single records), each record decoded and its stored manifest checked at every step of the Kubernetes window with
// the Kubernetes family's lifecycle rows (index.ts, decode.ts).
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { kubernetesApis } from '../kubernetes/data/apis';
import { runRule, reportSyntax } from '../core';
import { KubernetesContext, lifecycleRows } from '../kubernetes';
import { withOpenapi } from '../kubernetes/data/openapi';
import { fieldTableWith } from '../kubernetes/data/fields';
import { COMPONENTS } from '../../components/registry';
import { windowText } from '../../window-text';
import { ReleaseRecordsContext, holdsRecords, readRecords } from './index';
import { parseYaml } from '../../parse/yaml';
import { recordsHover } from './language';
import { rule as recordApi } from './rules/release-record-api';
import { rule as rollbackApi } from './rules/release-record-rollback-api';
import { rule as unreadable } from './rules/release-record-unreadable';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover and facts.
declare module '../registry' {
  interface FamilyResults {
    helmRecords?: ReleaseRecordsContext;
  }
}

export const recordRules: Rule<ReleaseRecordsContext>[] = [recordApi, rollbackApi, unreadable];

const EXT = new Set(['.yaml', '.yml', '.json', '']);

export const helmReleaseRecords: FamilyModule<'helm-release-records'> = {
  id: 'helm-release-records',
  title: 'Helm release records (`kubectl get secrets -l owner=helm`)',
  modelineNames: ['helm-release-records'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }, { ext: '.json' }], languages: ['yaml', 'json', 'jsonc'] },
  // A List of records is a manifest too (apiVersion and kind): the structure level, listed before the Kubernetes
  // family so that the tie is this family's.
  detect: ({ ext, text, yaml }) => (EXT.has(ext) && holdsRecords(yaml, text) ? DETECT.structure : DETECT.no),
  explain: ({ yaml }) => `its content: Helm release records (Secrets of type helm.sh/release.v1 or objects labelled owner=helm) in ${yaml?.docs.length ?? 0} document${yaml?.docs.length === 1 ? '' : 's'}`,
  rules: recordRules,
  analyze({ input, yaml, emit, stage }) {
    const { text, config, faults } = input;
    // Named by `files:` or a modeline, a file may hold no record at all: read anyway, and said (release-record-unreadable).
    const read = yaml ?? stage('parse', () => parseYaml(text));
    stage('parse', () => reportSyntax(read, emit));
    const rows = withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
    const windowed = new Set(COMPONENTS.filter((m) => (config as unknown as Record<string, unknown>)[m.key]).map((m) => m.id));
    const ctx = stage('context', () => readRecords(read, config.kubernetes, rows, (y, objects) => new KubernetesContext(y, objects, config.kubernetes, rows, false, {}, input.path,
      config.starlingx.release.release, config.components, config.flux, fieldTableWith(config.kubernetesOpenapi), windowed)));
    for (const rule of recordRules) runRule(rule, ctx, emit, faults);
    return { helmRecords: ctx };
  },
  hover: (r, text, pos) => (r.helmRecords ? recordsHover(r.helmRecords, text, pos) : undefined),
  complete: () => [],
  facts: (r) => (r.helmRecords ? {
    kubernetesWindow: windowText(r.helmRecords.minors),
    releaseRecords: r.helmRecords.records.length,
    releases: new Set(r.helmRecords.records.map((x) => `${x.namespace ?? ''}/${x.name}`)).size,
    recordsNotRead: r.helmRecords.records.filter((x) => !x.decoded.ok).length,
  } : undefined),
  steps: (r) => r.helmRecords?.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  data: kubernetesApis,
};
