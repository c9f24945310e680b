// The audit log family: the API server's audit events (audit.k8s.io Event; JSON lines as the log backend writes them,
// a JSON array, an EventList). Each call of a resource is judged at every step of the Kubernetes window with the
// Kubernetes family's lifecycle data (kubernetes/cluster-api.ts); the calls some step breaks, or that are deprecated,
// are reported per caller and API with a count. The log is read as a stream of records (index.ts); nothing is sent.
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { runRule } from '../core';
import { clusterApiRows } from '../kubernetes/cluster-api';
import { resourcesData } from '../kubernetes/data/resources';
import { isAuditName, isAuditContent } from './index';
import { AuditContext } from './context';
import { rule as notServed } from './rules/api-not-served';
import { rule as deprecated } from './rules/api-deprecated';
import { rule as notRead } from './rules/not-read';

declare module '../registry' {
  interface FamilyResults {
    auditLog?: AuditContext;
  }
}

const rules: Rule<AuditContext>[] = [notServed, deprecated, notRead];

export const auditLog: FamilyModule<'audit-log'> = {
  id: 'audit-log',
  title: 'Kubernetes audit logs (audit.k8s.io Events)',
  modelineNames: ['audit-log'],
  serves: {
    files: [{ ext: '.jsonl' }, { ext: '.ndjson' }, { ext: '.json' }, { ext: '.log', name: '*audit*' }],
    languages: ['jsonl', 'json'],
    patterns: ['**/*audit*.log', '**/*.jsonl', '**/*.ndjson'],
  },
  // Never YAML: a log is megabytes of JSON lines, read record by record.
  look({ file, ext, text }) {
    const mine = isAuditName(file) || isAuditContent(ext, text);
    return { notYaml: mine, memo: mine };
  },
  detect({ file, ext, text, memo }) {
    if (isAuditName(file)) return DETECT.name;
    // Its own records' apiVersion and kind: as sure as a manifest's, and listed before the Kubernetes family.
    return (memo as boolean | undefined ?? isAuditContent(ext, text)) ? DETECT.structure : DETECT.no;
  },
  explain: (_d, level) => (level === DETECT.name ? 'its name: audit.log, its rotations, *audit*.jsonl' : 'its content: audit.k8s.io Events'),
  rules,
  analyze({ input, emit, stage }) {
    const ctx = stage('parse', () => new AuditContext(input.path, input.text, input.config.kubernetes.minors, clusterApiRows(input.config)));
    for (const r of rules) runRule(r, ctx, emit, input.faults);
    return { auditLog: ctx };
  },
  hover: () => undefined,
  complete: () => [],
  facts: (r) => (r.auditLog ? {
    auditLog: {
      events: r.auditLog.events, resourceEvents: r.auditLog.resourceEvents, groups: r.auditLog.groups.length,
      recordsNotRead: r.auditLog.malformed.count + r.auditLog.notEvents.count, kubernetesWindow: r.auditLog.windowText,
    },
  } : undefined),
  steps: (r) => r.auditLog?.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  data: resourcesData,
};
