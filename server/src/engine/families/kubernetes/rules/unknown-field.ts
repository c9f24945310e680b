import type { Rule, FindingFix } from '../../../rules/types';
import { shownSegments } from '../manifest-objects';
import type { KubernetesContext } from '../index';
import { formatList } from '../../../versions';
import { misfitsEverywhere } from './field-type';
import { pathSegments, pathText, componentReader, componentSpan, COMPONENT_UNKNOWN, type FieldNode, fieldSpanText, type FieldTable } from '../data/fields';

const PRIMITIVE = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string', 'object']);

/** The model names a node's value is at the minors of the table that have a source (arrays stripped). */
function modelsOf(node: FieldNode): Set<string> | undefined {
  const t = node.table;
  const out = new Set<string>();
  for (let i = 0; i < node.types.length; i++) {
    let base = node.types[i];
    if (base === undefined) continue;
    while (base.startsWith('[]')) base = base.slice(2);
    // A map or free-form JSON at some minor: any key is a field there; not judged.
    if (base.startsWith('{}') || base === 'object') return undefined;
    if (PRIMITIVE.has(base)) continue;
    if (!t.models[base]) return undefined;
    out.add(base);
  }
  return out.size ? out : undefined;
}

/** Edit distance of a and b (insertions, deletions, substitutions, adjacent transpositions), or limit + 1 beyond limit. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let pp: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, pp[j - 2] + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    pp = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** Whether a value of this JSON shape can be the value of a field of that table type. */
function sameJsonType(value: unknown, type: string): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return type.startsWith('[]');
  if (type.startsWith('[]')) return false;
  if (typeof value === 'object') return type.startsWith('{}') || type === 'object' || !PRIMITIVE.has(type);
  if (type === 'object' || type === 'int-or-string') return typeof value === 'string' || typeof value === 'number';
  if (typeof value === 'string') return type === 'string';
  if (typeof value === 'number') return type === 'number' || (type === 'integer' && Number.isInteger(value));
  if (typeof value === 'boolean') return type === 'boolean';
  return false;
}

const MAX_DISTANCE = 2;

/** The fields of those models (at any minor) within MAX_DISTANCE of `key`, nearest first, with their latest type. */
function closeFields(t: FieldTable, models: Set<string>, key: string): Array<{ name: string; type: string; d: number }> {
  const found = new Map<string, { name: string; type: string; d: number }>();
  for (const m of models) {
    for (const [name, entry] of Object.entries(t.models[m].fields)) {
      if (found.has(name)) continue;
      const d = distance(key, name, MAX_DISTANCE);
      if (d > MAX_DISTANCE) continue;
      const type = typeof entry === 'string' ? entry : entry[entry.length - 1][0];
      found.set(name, { name, type, d });
    }
  }
  const all = [...found.values()];
  const best = all.reduce((m, c) => (c.d < m ? c.d : m), Infinity);
  return all.filter((c) => c.d === best).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The fields of those models whose own model (or array of it) has a field named `key`: "containers[]" for imagePullPolicy in a PodSpec. */
function oneLevelDown(t: FieldTable, models: Set<string>, key: string): string[] {
  const out = new Set<string>();
  for (const m of models) {
    for (const [name, entry] of Object.entries(t.models[m].fields)) {
      const type = typeof entry === 'string' ? entry : entry[entry.length - 1][0];
      const arr = type.startsWith('[]');
      const base = type.replace(/^(\[\])+/, '');
      if (t.models[base]?.fields[key] !== undefined) out.add(`${name}${arr ? '[]' : ''}`);
    }
  }
  return [...out].sort();
}


export const rule: Rule<KubernetesContext> = {
  id: 'k8s/unknown-field',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Field no Kubernetes version knows',
  what: 'Reports, at its key, a field of a built-in kind that no Kubernetes version of the field table (1.15 … 1.37) has '
    + 'for that apiVersion/kind at that place: a typo (`replica:` for `replicas:`) or a field written at the wrong level '
    + '(`imagePullPolicy` in the pod spec instead of a container: it says where the field belongs). It names the nearest fields ("did you mean replicas?", '
    + 'at most two edits away) and offers to rename the key when exactly one is that near and takes the same JSON type. '
    + 'Free-form maps (labels, annotations, `data`, `matchLabels`) and free-form JSON accept any key; `status` is not '
    + 'checked; custom resources and kinds the table does not have are not judged, nor is a part of an object the table '
    + 'cannot vouch for (a source that leaves it out). Component configuration files (kubeadm, KubeletConfiguration, '
    + 'KubeProxyConfiguration, KubeSchedulerConfiguration, the kube-apiserver\'s configuration files, audit Policy) are '
    + 'checked the same way against their own table (data/kubernetes/fields/component-config.json, 1.16 … 1.37); a '
    + 'KubeSchedulerConfiguration\'s `profiles[].pluginConfig[].args` as the Args kind of their plugin (`NodeResourcesFitArgs` '
    + 'for `NodeResourcesFit`, or the apiVersion/kind the args name), at paths said from the configuration.',
  why: 'The API server drops a field it does not know (before server-side field validation in 1.25, and after it unless '
    + 'validation is strict), so a misspelt field is not an error anywhere: the object is created without it and runs '
    + 'with the default — one replica, the default pull policy — at every step of the upgrade.',
  bad: { filename: 'deployment.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n', options: 'Kubernetes 1.28..1.30' },
  good: { filename: 'deployment.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n', options: 'Kubernetes 1.28..1.30' },
  fix: 'suggestion',
  sources: [
    'data/kubernetes/fields/fields.json: the fields of each Kubernetes minor\'s OpenAPI document (the package of each minor is cited there)',
    'Kubernetes API conventions: unknown fields are dropped unless field validation is strict (server-side field validation, GA in 1.25)',
    'data/kubernetes/fields/component-config.json: the fields of each component configuration kind per minor, from the Go types (scripts/import-k8s-component-fields.mjs)',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const text = ctx.file.text;
    for (const o of ctx.fieldObjects()) {
      // The shared walk (fieldEntries) goes into the keys this rule went into: served, not free-form at every minor
      // that serves them (below a free-form map or free-form JSON every key is served).
      const walk = ctx.fieldWalk(o);
      if (!walk) continue;
      const root = walk.root;
      // The models of the mapping's node, asked once per node (a pure function of it).
      let models: Set<string> | undefined | null = null;
      let modelsNode: FieldNode | undefined;
      const entries = walk.entries;
      for (let n = 0; n < entries.length; n++) {
        const { v, node, at, key, c, parent: up } = entries[n];
        if (node === root && (key === 'status' || key === 'apiVersion' || key === 'kind')) continue;
        if (c.served) continue;
        // Some minor's source leaves this part out: not judged.
        if (c.unknown) continue;
        // Below a component configuration value of the wrong shape (k8s/field-type says so): not a typo.
        if (root.component && up >= 0 && misfitsEverywhere(walk.entries[up].c, walk.entries[up].val)) continue;
        if (modelsNode !== node) { modelsNode = node; models = modelsOf(node); }
        if (!models) continue;
        const segs = pathSegments({ up: at, seg: key });
        const rel = shownSegments(o, segs);
        const shown = pathText(rel);
        const close = closeFields(t, models, key);
        const loc = o.doc.locate(segs);
        const range = loc.key ?? loc.value;
        const fixes: FindingFix[] = [];
        const only = close.length === 1 ? close[0] : undefined;
        if (only && loc.key && !Object.prototype.hasOwnProperty.call(v, only.name) && sameJsonType(v[key], only.type)) {
          const src = text.slice(loc.key.start, loc.key.end);
          const q = /^["']/.test(src) ? src[0] : '';
          fixes.push({ title: `Rename ${key} to ${only.name}`, edits: [{ range: loc.key, newText: `${q}${only.name}${q}` }], destructive: true });
        }
        const parent = shown.slice(0, shown.length - key.length);
        const reader = componentReader(o.apiVersion, o.kind);
        report({
          message: (reader
            ? `${shown} is not a field of ${o.apiVersion} ${o.kind} at any ${reader} version of the component configuration table (${componentSpan(o.apiVersion, o.kind)}); ${reader} does not apply it (${COMPONENT_UNKNOWN})`
            : `${shown} is not a field of ${o.apiVersion} ${o.kind} in any Kubernetes version of the field table (${fieldSpanText(t)}); the API server drops it`)
            + (close.length ? `; did you mean ${formatList(close.map((x) => parent + x.name), 'or')}?` : '')
            + (() => { const down = close.length ? [] : oneLevelDown(t, models, key); return down.length ? `; it is a field of ${formatList(down.map((d) => parent + d), 'or')}` : ''; })(),
          range,
          fixes,
          data: { path: shown, suggestions: close.map((x) => x.name) },
        });
      }
    }
  },
};
