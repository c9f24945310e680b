// The REST resource (plural) of each group/version/kind: data/kubernetes/resources.json (scripts/import-k8s-resources.mjs,
// from the paths of the upstream swagger documents). The API server's metrics and audit events name resources
// ("podsecuritypolicies"); the lifecycle rows name kinds ("PodSecurityPolicy"): this maps the one to the other.
import { loadJson } from '../../../data';

export interface ResourceRow {
  apiVersion: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** The minors whose swagger document has the resource's path. */
  seenIn?: string[];
  /** No document has this group/version: the resource the same kind has at these versions of its group. */
  inferredFrom?: string[];
}
interface ResourcesFile { resources: ResourceRow[]; unmapped: Array<{ apiVersion: string; kind: string; why: string }> }

let byKey: Map<string, ResourceRow> | undefined;
const keyOf = (apiVersion: string, resource: string) => `${apiVersion}\u0000${resource}`;

/** The kind a resource of an apiVersion ("batch/v1beta1", "cronjobs") is, or undefined when the data does not know it. */
export function resourceKind(apiVersion: string, resource: string): ResourceRow | undefined {
  byKey ??= new Map(loadJson<ResourcesFile>('data/kubernetes/resources.json').resources.map((r) => [keyOf(r.apiVersion, r.resource), r]));
  return byKey.get(keyOf(apiVersion, resource));
}

export function resourcesData(): ResourcesFile { return loadJson<ResourcesFile>('data/kubernetes/resources.json'); }
