import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';
import { kustomizeData } from '../index';
import { didYouMean } from '../../../text';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

// Keys of the entries of the list fields whose entries kustomize decodes strictly (api/types: Image, Patch,
// Selector, Label, Replica).
const ENTRY_KEYS: Record<string, string[]> = {
  images: ['name', 'newName', 'newTag', 'digest', 'tagSuffix'],
  imageTags: ['name', 'newName', 'newTag', 'digest'],
  patches: ['path', 'patch', 'target', 'options'],
  patchesJson6902: ['path', 'patch', 'target', 'options'],
  labels: ['pairs', 'includeSelectors', 'includeTemplates', 'fields'],
  replicas: ['name', 'count'],
};
const TARGET_KEYS = ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'];

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/unknown-field',
  family: 'kustomize',
  defaultSeverity: 'error',
  title: 'Field that no kustomize reads',
  what: 'Reports a top-level field of a kustomization, or a key of an `images`, `patches`, `patchesJson6902`, `labels` or `replicas` '
    + 'entry or of a patch `target`, that no kustomize knows, with a "did you mean" fix when a known field is close; a file whose top level '
    + 'is not a mapping; and (as info) documents after the first, which are not checked.',
  why: 'kustomize decodes a kustomization strictly: `kubectl apply -k` stops at the first unknown field ("json: unknown field"), '
    + 'at every step of the upgrade; a misspelt `newTag` or `includeSelector` never takes effect.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresource:\n  - deployment.yaml\n', options: 'Kubernetes 1.26..1.28' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n', options: 'Kubernetes 1.26..1.28' },
  fix: 'suggestion',
  sources: ['kubernetes-sigs/kustomize api/types/kustomization.go (Unmarshal with DisallowUnknownFields), api/types/image.go, patch.go, selector.go, labels.go'],
  check(ctx, report) {
    const known = kustomizeData().fields.map((f) => f.name);
    const say = (key: string, candidates: string[], where: string, path: Array<string | number>) => {
      const loc = ctx.locate(path);
      const range = loc.key ?? loc.value;
      const hint = didYouMean(key, candidates);
      const src = ctx.file.text.slice(range.start, range.end);
      const q = /^["']/.test(src) ? src[0] : '';
      report({
        message: `unknown field "${key}"${where}: kustomize rejects the kustomization${hint ? `; did you mean "${hint}"?` : ` (known: ${candidates.join(', ')})`}`,
        range,
        fixes: hint ? [{ title: `Rename to ${hint}`, edits: [{ range, newText: `${q}${hint}${q}` }], destructive: true }] : [],
        data: { key, suggestion: hint ?? null },
      });
    };
    // The file's documents: the kustomization is the first with content; what is not a mapping, or comes after it, is said.
    const docs = ctx.file.docs.filter((d) => !d.empty);
    const first = docs[0];
    if (first && !first.errors.length && !isObj(first.value) && first.value !== null && first.value !== undefined) {
      const at = first.locate([]).value;
      report({
        message: `the top level is ${Array.isArray(first.value) ? 'a sequence' : 'a scalar'}, not a mapping of kustomization fields: kustomize refuses the file`,
        range: { start: at.start, end: Math.min(at.end, at.start + 1) },
        data: { notAMapping: true },
      });
    }
    for (const d of docs.slice(1)) {
      const at = d.locate([]).value;
      report({
        message: `document ${d.index + 1} is not checked: skewguard reads the first document of a kustomization only`,
        range: { start: at.start, end: Math.min(at.end, at.start + 1) },
        severity: 'info',
        data: { document: d.index + 1 },
      });
    }
    for (const tf of ctx.fields) {
      if (!tf.row) { say(tf.name, known, '', [tf.name]); continue; }
      const keys = ENTRY_KEYS[tf.name];
      const list = ctx.value[tf.name];
      if (!keys || !Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        if (!isObj(entry)) return;
        for (const k of Object.keys(entry)) if (!keys.includes(k)) say(k, keys, ` in a ${tf.name} entry`, [tf.name, i, k]);
        if (isObj(entry.target) && keys.includes('target')) {
          for (const k of Object.keys(entry.target)) if (!TARGET_KEYS.includes(k)) say(k, TARGET_KEYS, ' in a patch target', [tf.name, i, 'target', k]);
        }
      });
    }
  },
};
