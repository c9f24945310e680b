// The Kubernetes objects of a parsed manifest file: each document's object, or each item of a List.
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';

export interface ManifestObject {
  doc: YamlDoc;
  /** Path of the object inside its document: [] or ['items', i]. */
  at: Array<string | number>;
  value: Record<string, any>;
  apiVersion: string;
  kind: string;
  apiVersionRange: OffsetRange;
  kindRange: OffsetRange;
}

export const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
export const isManifestValue = (v: unknown): boolean => isObj(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string';
/** A manifest being typed: both keys present, one of them possibly still empty. */
export const isManifestLike = (v: unknown): boolean => isObj(v) && 'apiVersion' in v && 'kind' in v && (typeof v.apiVersion === 'string' || typeof v.kind === 'string');

export function manifestObjects(file: YamlFile): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const doc of file.docs) {
    if (doc.empty || doc.errors.length) continue;
    const v = doc.value;
    if (!isManifestValue(v)) continue;
    const obj = v as Record<string, any>;
    const push = (at: Array<string | number>, value: Record<string, any>) => {
      out.push({
        doc, at, value, apiVersion: value.apiVersion, kind: value.kind,
        apiVersionRange: doc.locate([...at, 'apiVersion']).value, kindRange: doc.locate([...at, 'kind']).value,
      });
    };
    if (/List$/.test(obj.kind) && Array.isArray(obj.items)) {
      obj.items.forEach((item: unknown, i: number) => { if (isManifestValue(item)) push(['items', i], item as Record<string, any>); });
    } else {
      push([], obj);
    }
  }
  return out;
}
