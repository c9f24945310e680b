// Shared by the k8s/cr-* and k8s/crd-* rules: the workspace's CustomResourceDefinitions (families/kubernetes/crds.ts)
// and a custom resource read against its version's schema (families/kubernetes/crd-schema.ts), once per object.
import type { KubernetesContext, ManifestObject } from '../index';
import { schemaIssues, type SchemaIssue } from '../crd-schema';
import { crdName, type CrdDef } from '../crds';
import { pathText } from '../data/fields';
import type { Report, FindingFix } from '../../../rules/types';

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

const shownValue = (v: unknown) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

/**
 * A value the schema refuses (a type or an enum), as k8s/cr-invalid-value says it for a workspace CRD and for the
 * bundled operator data alike: `where` names the schema; the finding's data is `head`, the value's, then `tail`.
 */
export function reportSchemaValue(
  text: string, report: Report, shown: string, range: { start: number; end: number }, where: string,
  head: Record<string, unknown>, tail: Record<string, unknown>,
  x: { kind: 'type'; got: string; expected: string } | { kind: 'enum'; got: unknown; values: unknown[]; suggestion?: string },
): void {
  if (x.kind === 'type') {
    report({ message: `${shown} is ${/^[aeiou]/.test(x.got) ? 'an' : 'a'} ${x.got}; ${where} says ${x.expected}: the API server refuses the object`, range, data: { ...head, path: shown, expected: x.expected, got: x.got, ...tail } });
    return;
  }
  const fixes: FindingFix[] = [];
  if (x.suggestion) {
    const src = text.slice(range.start, range.end);
    const q = /^["']/.test(src) ? src[0] : '';
    fixes.push({ title: `Use ${x.suggestion}`, edits: [{ range, newText: `${q}${x.suggestion}${q}` }], destructive: false });
  }
  report({
    message: `${shown} ${shownValue(x.got)} is not one of ${x.values.map(shownValue).join(', ')} (${where}): the API server refuses the object${x.suggestion ? `; did you mean ${x.suggestion}?` : ''}`,
    range, fixes, data: { ...head, path: shown, values: x.values, got: x.got, ...tail },
  });
}
