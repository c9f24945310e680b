// What the shipped data knows of each minor of a Kubernetes window (k8s/window-past-data, --print-config: the
// Kubernetes section's describe, families/kubernetes/config.ts).
import { kubernetesApis } from './apis';
import type { ResolvedConfig } from '../../../config';
import { compareVersions } from '../../../versions';

// ---- the Kubernetes window and the lifecycle data (k8s/window-past-data) ----

export interface WindowPastData {
  /** Newest minor the API lifecycle data knows. */
  knownUpTo: string;
  asOf: string;
  /** Window minors newer than knownUpTo: the data cannot vouch for them. */
  steps: string[];
  /** Removals the data has for those steps anyway (announced upstream), "apiVersion in minor". */
  announced: string[];
}

/** Where each minor of the window (and each minor with a document) is judged from, for --print-config. */
export function knowledgeOf(c: ResolvedConfig): Record<string, string> {
  const data = kubernetesApis();
  const knownUpTo = data.minors[data.minors.length - 1];
  const out: Record<string, string> = {};
  const docs = c.kubernetesOpenapi ?? {};
  for (const m of [...new Set([...c.kubernetes.minors, ...Object.keys(docs)])].sort(compareVersions)) {
    const d = docs[m];
    out[m] = d ? `openapi file ${d.file} (${d.origin}): the kinds it serves and their fields${d.doc.covers ? ` (for ${d.doc.covers.join(', ')}; the other group-versions from the shipped data)` : ''}`
      : compareVersions(m, knownUpTo) > 0 ? `not known: past the shipped data (it knows Kubernetes up to ${knownUpTo})`
        : `shipped data (data/kubernetes/api-lifecycle.json as of ${data.asOf}, data/kubernetes/fields/fields.json)`;
  }
  return out;
}

/** The steps of a window the shipped lifecycle data does not know (a minor with the user's OpenAPI document is known); undefined when it knows them all. */
export function windowPastDataOf(minors: string[], openapi?: Readonly<Record<string, unknown>>): WindowPastData | undefined {
  const data = kubernetesApis();
  const knownUpTo = data.minors[data.minors.length - 1];
  const newer = (a: string, b: string) => compareVersions(a, b) > 0;
  // A document of some group-versions only (a v3 document set) does not vouch for the step.
  const steps = minors.filter((m) => newer(m, knownUpTo) && !(openapi?.[m] && !(openapi[m] as { doc?: { covers?: unknown } }).doc?.covers));
  if (!steps.length) return undefined;
  const announced = [...new Set(data.apis
    .filter((r) => (r.component ?? 'k8s') === 'k8s' && r.removed && steps.includes(r.removed))
    .sort((a, b) => compareVersions(a.removed!, b.removed!) || (a.apiVersion < b.apiVersion ? -1 : 1))
    .map((r) => `${r.apiVersion} in ${r.removed}`))];
  return { knownUpTo, asOf: data.asOf, steps, announced };
}
