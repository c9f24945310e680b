// The Kubernetes objects of a parsed manifest file: each document's object, or each item of a List.
import type { YamlDoc, YamlFile, OffsetRange } from '../../parse/yaml';

export interface ManifestObject {
  doc: YamlDoc;
  /** Path of the object inside its document: [], ['items', i], or deeper in a List inside a List. */
  at: Array<string | number>;
  value: Record<string, any>;
  apiVersion: string;
  kind: string;
  apiVersionRange: OffsetRange;
  kindRange: OffsetRange;
  /** An object nested in another (a KubeSchedulerConfiguration's plugin args, scheduler-args.ts): the one it is in,
   *  from which its paths are said (`profiles[0].pluginConfig[0].args.…`). */
  within?: ManifestObject;
}

/** The path of a key of an object as findings say it: from the object, or from the one it is nested in. */
export const shownSegments = (o: ManifestObject, segs: ReadonlyArray<string | number>): Array<string | number> => segs.slice((o.within ?? o).at.length);

export const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
export const isManifestValue = (v: unknown): boolean => isObj(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string';
/** A manifest being typed: both keys present, one of them possibly still empty. */
export const isManifestLike = (v: unknown): boolean => isObj(v) && 'apiVersion' in v && 'kind' in v && (typeof v.apiVersion === 'string' || typeof v.kind === 'string');

/** Lists inside lists read this deep; a deeper one is an object of its own (a `…List` kind, which no rule judges). */
const MAX_LIST_DEPTH = 8;

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
    // A List's items, and the items of a List inside it (kubectl's builder flattens nested lists), a few levels deep.
    const walk = (at: Array<string | number>, value: Record<string, any>, depth: number) => {
      if (/List$/.test(value.kind) && Array.isArray(value.items) && depth < MAX_LIST_DEPTH) {
        value.items.forEach((item: unknown, i: number) => { if (isManifestValue(item)) walk([...at, 'items', i], item as Record<string, any>, depth + 1); });
      } else {
        push(at, value);
      }
    };
    walk([], obj, 0);
  }
  return out;
}
