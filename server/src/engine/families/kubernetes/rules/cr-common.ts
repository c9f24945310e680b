// Shared by the k8s/cr-* and k8s/crd-* rules: the workspace's CustomResourceDefinitions (families/kubernetes/crds.ts)
// and a custom resource read against its version's schema (families/kubernetes/crd-schema.ts), once per object.
import type { KubernetesContext, ManifestObject } from '../index';
import { schemaIssues, type SchemaIssue } from '../crd-schema';
import { crdName, type CrdDef } from '../crds';
import { pathText } from '../data/fields';

export { crdName };

/** The served versions of a CRD, said: "v1, v1beta1". */
export const servedList = (d: CrdDef): string => d.versions.filter((v) => v.served).map((v) => v.name).join(', ') || 'no version';

const issuesMemo = new WeakMap<ManifestObject, SchemaIssue[]>();

/** A CR's schema issues at its version (served, with a schema); [] when there is nothing to read it against. */
export function crIssues(ctx: KubernetesContext, o: ManifestObject): { issues: SchemaIssue[]; crd?: CrdDef } {
  const c = ctx.crdFor(o);
  if (!c?.version?.served || !c.version.schema) return { issues: [] };
  let issues = issuesMemo.get(o);
  if (!issues) { issues = schemaIssues(o.value, c.version.schema, o.at); issuesMemo.set(o, issues); }
  return { issues, crd: c.crd };
}

/** "spec.jobs[0].image": a path below the object, as the other field rules say it. */
export function relPath(o: ManifestObject, path: ReadonlyArray<string | number>): string {
  return pathText(path.slice(o.at.length));
}
