// Error recovery for manifests (issue #18 item 6): a document with a YAML syntax error is not read as a whole, but
// its top-level `apiVersion` and `kind`, when both are plain values that end before the first error, were read
// exactly as they are written. Such a document is still checked for its API version (removed, deprecated, not yet
// served): one syntax error does not hide a removed DaemonSet. Its fields are not checked (they may be cut off),
// and its findings carry no fixes (an edit computed on a broken document could change the wrong text).
import type { YamlFile } from '../../parse/yaml';
import type { ManifestObject } from './index';

export function partialObjects(file: YamlFile): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const doc of file.docs) {
    const errors = doc.errors;
    if (doc.empty || !errors.length) continue;
    const v = doc.value as Record<string, unknown> | null;
    if (!v || typeof v !== 'object' || Array.isArray(v) || typeof v.apiVersion !== 'string' || typeof v.kind !== 'string') continue;
    if (/List$/.test(v.kind) || !v.apiVersion || !v.kind) continue;
    const firstError = errors.reduce((m, e) => Math.min(m, e.start), Infinity);
    const api = doc.locate(['apiVersion']), kind = doc.locate(['kind']);
    // Both must be top-level keys of the document (located by key), read completely before the parser went wrong.
    if (!api.key || !kind.key || api.value.end > firstError || kind.value.end > firstError) continue;
    // The value as written (a plain or quoted scalar on its line), not one the error ran into.
    const written = (r: { start: number; end: number }) => file.text.slice(r.start, r.end).replace(/^(["'])(.*)\1$/, '$2');
    if (written(api.value) !== v.apiVersion || written(kind.value) !== v.kind) continue;
    out.push({ doc, at: [], value: { apiVersion: v.apiVersion, kind: v.kind }, apiVersion: v.apiVersion, kind: v.kind, apiVersionRange: api.value, kindRange: kind.value });
  }
  return out;
}
