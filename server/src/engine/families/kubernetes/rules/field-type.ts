import type { Rule } from '../../../rules/types';
import { shownSegments } from '../manifest-objects';
import type { KubernetesContext } from '../index';
import { maskOf, minorNumber, fieldTable, pathSegments, pathText, describeType, componentReader, isComponentKind, componentFieldTable, type FieldNode, covers } from '../data/fields';
import { listOf } from './common';

const SCALAR = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string']);

/** The JSON shape a value has: list, mapping or a scalar's type (null: anything goes). */
function shapeOf(v: unknown): 'list' | 'mapping' | 'string' | 'number' | 'boolean' | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'mapping';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  return null;
}

/**
 * Whether a value of that shape can be decoded into a field of that table type. Only what no YAML reading can turn
 * into the other is a mismatch: a list where a mapping is wanted and the reverse, a mapping or list where a scalar is
 * wanted and the reverse, a number or boolean where a string is wanted (Go's JSON decoding refuses each). A string
 * where a number or boolean is wanted is not judged: YAML 1.1 (sigs.k8s.io/yaml) reads `yes`, `on` or `0x1F` as a
 * boolean or number where YAML 1.2 reads a string.
 */
export function fits(shape: ReturnType<typeof shapeOf>, type: string): boolean {
  if (shape === null || type === 'object') return true;
  if (type.startsWith('[]')) return shape === 'list';
  if (type.startsWith('{}') || !SCALAR.has(type)) return shape === 'mapping';
  if (shape === 'list' || shape === 'mapping') return false;
  if (type === 'string') return shape === 'string';
  return true;
}

/** Whether a value fits none of the types a node has at the minors of `mask` that serve it (0: every minor). */
export function misfitsEverywhere(node: FieldNode, value: unknown): boolean {
  const shape = shapeOf(value);
  if (shape === null) return false;
  let any = false;
  for (const t of node.types) {
    if (t === undefined) continue;
    any = true;
    if (fits(shape, t)) return false;
  }
  return any;
}

const FORMAT_TEXT: Record<string, string> = {
  duration: 'a Go duration such as "1m0s"', quantity: 'a quantity such as "100Mi"', 'date-time': 'an RFC 3339 time',
  byte: 'base64', 'bootstrap-token': 'a bootstrap token "abcdef.0123456789abcdef"', nanoseconds: 'nanoseconds',
};
const SHAPE_TEXT = { list: 'a list', mapping: 'a mapping', string: 'a string', number: 'a number', boolean: 'a boolean' } as const;

/** "a list of {name, value}" for a list of a small model, else the table's description. */
function wanted(type: string): string {
  const t = fieldTable();
  const base = type.replace(/^\[\]/, '');
  const m = type.startsWith('[]') && !SCALAR.has(base) && base !== 'object' ? t.models[base] : undefined;
  if (m) {
    const names = Object.keys(m.fields);
    if (names.length <= 4) return `a list of {${names.join(', ')}}`;
  }
  if (type.startsWith('[]')) return `a list (${describeType(type)})`;
  if (type.startsWith('{}')) return `a mapping (${describeType(type)})`;
  if (!SCALAR.has(type) && type !== 'object') return 'a mapping (an object)';
  return `${type === 'int-or-string' ? 'a number or a string' : type === 'integer' ? 'an integer' : `a ${type}`}`;
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/field-type',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Component configuration field of the wrong type at some step',
  what: 'Reports, at its key, a field of a component configuration file (kubeadm, kubelet, kube-proxy, kube-scheduler, the '
    + 'kube-apiserver\'s configuration files, audit Policy) whose value has a JSON shape the component\'s Go type cannot '
    + 'take at a step of the window: a kubeadm v1beta3-style `extraArgs` mapping in a v1beta4 file, which wants a list of '
    + '`{name, value}`; a list where an object is wanted; a number where a string (a duration, a version) is wanted. It '
    + 'names the steps and the type each wants. A string where a number or boolean is wanted is not judged (YAML 1.1 reads '
    + '`yes` or `0x1F` so). The fields below a value of the wrong shape are not reported again as unknown. A '
    + 'KubeSchedulerConfiguration\'s `profiles[].pluginConfig[].args` are checked as the Args kind of their plugin.',
  why: 'The component decodes its file strictly into Go types: a value of another shape is a decoding error, so kubeadm, '
    + 'the kubelet or kube-proxy refuses the whole file at that step — typically right after the apiVersion was moved to '
    + 'the new version without rewriting the fields whose type changed.',
  bad: { filename: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    authorization-mode: Node,RBAC\n', options: 'Kubernetes 1.31..1.32' },
  good: { filename: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n  - name: authorization-mode\n    value: Node,RBAC\n', options: 'Kubernetes 1.31..1.32' },
  fix: 'none',
  sources: [
    'data/kubernetes/fields/component-config.json: each component configuration field\'s type per minor, from the Go types and json tags (scripts/import-k8s-component-fields.mjs; ../shared/reference/kubernetes/component-config-fields.json)',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const windowMinors = ctx.minors.map(minorNumber).filter((m) => covers(t, m));
    const win = maskOf(windowMinors, t);
    if (!win) return;
    for (const o of ctx.fieldObjects()) {
      if (!isComponentKind(o.apiVersion, o.kind)) continue;
      const walk = ctx.fieldWalk(o);
      if (!walk) continue;
      const reader = componentReader(o.apiVersion, o.kind) ?? 'the component';
      for (const e of walk.entries) {
        if (e.node === walk.root && (e.key === 'apiVersion' || e.key === 'kind')) continue;
        const c = e.c;
        const alive = c.served & c.kindServed & win;
        if (!alive) continue;
        const shape = shapeOf(e.val);
        if (shape === null) continue;
        const bad: number[] = [];
        let format: string | undefined;
        const types = new Set<string>();
        for (const m of windowMinors) {
          const i = m - t.first;
          const ty = c.types[i];
          if (!(alive & (1 << i)) || ty === undefined) continue;
          if (!fits(shape, ty)) { bad.push(m); types.add(ty); const f = c.owners[i] && componentFieldTable().formats[`${c.owners[i]}.${e.key}`]; if (f) format = f; }
        }
        if (!bad.length) continue;
        // A value below a mapping or list of the wrong shape is left alone (its parent is reported).
        if (e.parent >= 0) { const p = walk.entries[e.parent]; if (misfitsEverywhere(p.c, p.val)) continue; }
        const segs = pathSegments({ up: e.at, seg: e.key });
        const shown = pathText(shownSegments(o, segs));
        const loc = o.doc.locate(segs);
        const want = [...types].map((ty) => wanted(ty) + (format && FORMAT_TEXT[format] && SCALAR.has(ty) ? ` (${FORMAT_TEXT[format]})` : ''));
        const all = bad.length === windowMinors.filter((m) => alive & (1 << (m - t.first))).length;
        report({
          message: `${shown} is ${SHAPE_TEXT[shape]}, but ${reader} ${listOf(bad)} ${bad.length > 1 ? 'want' : 'wants'} ${[...new Set(want)].join(' or ')} for it in ${o.apiVersion} ${o.kind}`
            + `${all ? '' : ' (the other steps take it)'}: ${reader} refuses the file there`,
          range: loc.key ?? loc.value,
          data: { path: shown, shape, wants: [...types], steps: bad.map((m) => `1.${m}`) },
        });
      }
    }
  },
};
