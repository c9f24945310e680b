// Component images (Calico, Multus, SR-IOV, kube-* control plane …) and the version-skew policy, from
// data/kubernetes/components.json and skew-policy.json. Pure predicates; no I/O beyond loading the data.
import { loadJson } from '../../../data';
import { compareMinor, parseMinor } from './lifecycle';
import { leadingMinor } from '../../../versions';

export interface ComponentVersion {
  version: string;
  match: string;
  upstreamMatrix: string;
  kubernetes: {
    validated: string[];
    documented: string[];
    mayWork?: string[];
    incompatible: string[];
    incompatibleBelow?: string | null;
    incompatibleFrom?: string | null;
    starlingx?: string[];
  };
  conflicts?: unknown;
  evidence: Array<{ relation: string; source?: Record<string, string>; kubernetesMinors?: string[] }>;
  note?: string | null;
}
export interface Component {
  id: string;
  name: string;
  images: string[];
  versionIsKubernetes: boolean;
  upstreamMatrix: string;
  tagPattern?: string;
  skewComponent?: string;
  versions: ComponentVersion[];
  note?: string | null;
}
export interface ComponentsData {
  asOf: string;
  components: Component[];
  starlingx: { networking: Array<{ release: string; kubernetesVersion: string; kubernetesMinor: string; components: Record<string, string> }> };
}
export interface SkewRule {
  id: string;
  component: string;
  reference: string;
  maxOlder: number;
  maxNewer: number;
  policyFrom: string;
  policyTo: string | null;
  componentMin?: { maxOlder?: number; maxNewer?: number; minVersion: string; otherwise: number };
  source?: unknown;
}

export const componentsData = (): ComponentsData => loadJson<ComponentsData>('data/kubernetes/components.json');
export const skewRules = (): SkewRule[] => loadJson<{ rules: SkewRule[] }>('data/kubernetes/skew-policy.json').rules;

import type { ImageRef } from '../../../image-ref';
export { parseImage, type ImageRef } from '../../../image-ref';

/** The component an image belongs to: its repository is one of the component's names, under any registry prefix. */
export function componentOf(image: ImageRef): Component | undefined {
  const repo = image.repository.toLowerCase();
  return componentsData().components.find((c) => c.images.some((n) => repo === n || repo.endsWith(`/${n}`)));
}

export function versionRow(c: Component, tag: string): ComponentVersion | undefined {
  return c.versions.find((v) => new RegExp(v.match).test(tag));
}

/** The Kubernetes minor of a kube-* image tag (v1.21.3 -> 1.21). */
export function kubeMinorOfTag(tag: string | undefined): string | undefined {
  return tag ? leadingMinor(tag) : undefined;
}

export type Standing = 'validated' | 'documented' | 'incompatible' | 'unlisted';

/** How upstream stands on a component version at one Kubernetes minor. */
export function standingAt(v: ComponentVersion, minor: string): Standing {
  const k = v.kubernetes;
  if (k.incompatible.includes(minor)) return 'incompatible';
  if (k.incompatibleFrom && compareMinor(minor, k.incompatibleFrom) >= 0) return 'incompatible';
  if (k.incompatibleBelow && compareMinor(minor, k.incompatibleBelow) < 0) return 'incompatible';
  if (k.validated.includes(minor)) return 'validated';
  if (k.documented.includes(minor)) return 'documented';
  return 'unlisted';
}

/** The skew rule in force for a component against a reference, when the reference runs `refMinor`. */
export function policyFor(component: string, reference: string, refMinor: string): SkewRule | undefined {
  return skewRules().find((r) => r.component === component && r.reference === reference
    && compareMinor(refMinor, r.policyFrom) >= 0 && (r.policyTo === null || compareMinor(refMinor, r.policyTo) <= 0));
}

/** Whether a component at `minor` may run against a reference at `refMinor`; the allowed older/newer distances. */
export function skewOk(rule: SkewRule, minor: string, refMinor: string): { ok: boolean; older: number; newer: number; diff: number } {
  const a = parseMinor(minor)!, b = parseMinor(refMinor)!;
  const diff = (b[0] - a[0]) * 100 + (b[1] - a[1]); // > 0: the component is older
  let older = rule.maxOlder, newer = rule.maxNewer;
  if (rule.componentMin && compareMinor(minor, rule.componentMin.minVersion) < 0) {
    older = Math.min(older, rule.componentMin.otherwise);
    if (rule.componentMin.maxNewer !== undefined) newer = Math.min(newer, rule.componentMin.otherwise);
  }
  return { ok: diff <= older && -diff <= newer, older, newer, diff };
}
