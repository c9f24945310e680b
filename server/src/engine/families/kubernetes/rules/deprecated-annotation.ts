import type { Rule, FindingFix } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import type { OffsetRange } from '../../../parse/yaml';
import { loadJson } from '../../../data';
import { rootNode, maskOf, minorNumber, pathText, covers } from '../data/fields';
import { linkOf, pathSegments, type PathLink } from '../../../path-link';

export interface AnnotationRow {
  key?: string;
  prefix?: string;
  scope: 'pod' | 'container' | 'ingress';
  deprecated: number;
  ignoredByKubelet?: number;
  nonFunctional?: number;
  field: string[];
  /** annotation value (or a prefix ending in "/") -> the field's value ("$rest": what follows the prefix, "$value": the value). */
  values: Record<string, unknown>;
  sources: string[];
}
const rows = (): AnnotationRow[] => loadJson<{ rows: AnnotationRow[] }>('data/kubernetes/annotations.json').rows;

/** The row of an annotation key of a pod template's metadata or (`ingress`) an Ingress's: a key, or a prefix and more. */
export function annotationRow(key: string, ingress: boolean): AnnotationRow | undefined {
  return rows().find((r) => (r.key ? r.key === key : key.startsWith(r.prefix!) && key.length > r.prefix!.length)
    && (r.scope === 'ingress') === ingress);
}
/** Where pod templates are found below an object (a Deployment's spec.template, a CronJob's spec.jobTemplate.spec.template). */
const TEMPLATE_KEYS = ['spec', 'template', 'jobTemplate'] as const;
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The field's value for an annotation value, or undefined when the row has no mapping for it. */
function mapValue(row: AnnotationRow, value: string): unknown {
  if ('*' in row.values) return value;
  if (value in row.values) return row.values[value];
  for (const [k, v] of Object.entries(row.values)) {
    if (k.endsWith('/') && value.startsWith(k) && value.length > k.length && isObj(v)) {
      return Object.fromEntries(Object.entries(v).map(([a, b]) => [a, b === '$rest' ? value.slice(k.length) : b]));
    }
  }
  return undefined;
}

const yamlScalar = (s: string): string => (/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|~)$/i.test(s) && !/^[0-9.]+$/.test(s) ? s : JSON.stringify(s));

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/deprecated-annotation',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Annotation replaced by a field',
  what: 'Reports an annotation that Kubernetes deprecated in favour of a field, where a step of the window is at or past its '
    + 'deprecation: the seccomp annotations `seccomp.security.alpha.kubernetes.io/pod` and '
    + '`container.seccomp.security.alpha.kubernetes.io/<container>` (deprecated 1.19; the kubelet ignores them from 1.25, '
    + 'the API server stops converting them from 1.27), the AppArmor annotation `container.apparmor.security.beta.kubernetes.io/<container>` '
    + '(deprecated 1.30) and `kubernetes.io/ingress.class` (deprecated 1.18). The fix writes the field with the same meaning '
    + '(`runtime/default` → `type: RuntimeDefault`, `localhost/<p>` → `type: Localhost` and `localhostProfile: <p>`, '
    + '`unconfined` → `type: Unconfined`; the ingress class name as it is) and removes the annotation, only where every step '
    + 'of the window serves the field (by the field table) and the file is block-style YAML. For the Ingress class the fix is a '
    + 'quick fix only, not applied by fix-all: an ingress controller older than the field reads only the annotation.',
  why: 'An annotation that no longer has an effect fails without an error: a pod meant to run under a seccomp or AppArmor '
    + 'profile runs unconfined after the upgrade to 1.25/1.27, and an Ingress is picked up by a different controller.',
  bad: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n    seccomp.security.alpha.kubernetes.io/pod: runtime/default\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n', options: 'Kubernetes 1.24..1.26' },
  good: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n  securityContext:\n    seccompProfile:\n      type: RuntimeDefault\n', options: 'Kubernetes 1.24..1.26' },
  fix: 'complete',
  sources: [
    'data/kubernetes/annotations.json (scripts/import-k8s-annotations.mjs): each row cites kubernetes/kubernetes pkg/api/pod/warnings.go, KEP-135 (seccomp), KEP-24 (AppArmor) or the Ingress documentation',
    'data/kubernetes/fields/fields.json: whether each step serves the replacing field',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const windowMinors = ctx.minors.map(minorNumber).filter((m) => Number.isFinite(m));
    if (!windowMinors.length) return;
    const win = maskOf(windowMinors, t);
    const last = windowMinors.reduce((a, b) => (b > a ? b : a), -Infinity);
    const text = ctx.file.text;
    // The file's line break, looked for only when a fix is written (a search of the whole text per call otherwise).
    let nlSeen: string | undefined;
    const newline = () => (nlSeen ??= text.includes('\r\n') ? '\r\n' : '\n');
    const lineStart = (off: number) => Math.max(text.lastIndexOf('\n', off - 1), text.lastIndexOf('\r', off - 1)) + 1;
    const lineEnd = (off: number) => { let i = off; while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++; return i; };
    const nextLine = (off: number) => { const e = lineEnd(off); return text[e] === '\r' && text[e + 1] === '\n' ? e + 2 : Math.min(e + 1, text.length); };
    const blank = (a: number, b: number) => /^[ ]*$/.test(text.slice(a, b));
    for (const o of ctx.objects) {
      // The field table's node of the object, looked up at the first annotation with a row (most objects have none).
      let rootSeen: ReturnType<typeof rootNode> | null = null;
      const root = () => (rootSeen ??= rootNode(o.apiVersion, o.kind, t));
      // Pod templates at any depth (a Pod itself, a Deployment's, a CronJob's), and the Ingress object.
      type Holder = { at: Array<string | number>; v: Record<string, unknown>; scope: 'pod' | 'ingress' };
      const holders: Holder[] = [];
      // Paths as links (path-link.ts), made into arrays only for a template with annotations (the rest are not read).
      const stack: Array<{ v: unknown; p: PathLink }> = [{ v: o.value, p: linkOf(o.at) }];
      while (stack.length) {
        const { v, p } = stack.pop()!;
        if (!isObj(v)) continue;
        if (isObj(v.metadata) && isObj(v.spec) && Array.isArray((v.spec as Record<string, unknown>).containers) && isObj(v.metadata.annotations)) holders.push({ at: pathSegments(p), v, scope: 'pod' });
        for (const k of TEMPLATE_KEYS) if (isObj(v[k])) stack.push({ v: v[k], p: { up: p, seg: k } });
      }
      if (o.kind === 'Ingress' && isObj(o.value.metadata)) holders.push({ at: [...o.at], v: o.value, scope: 'ingress' });
      for (const h of holders) {
        const ann = (h.v.metadata as Record<string, unknown>).annotations;
        if (!isObj(ann)) continue;
        const annKeys = Object.keys(ann);
        for (const key of annKeys) {
          const row = annotationRow(key, h.scope === 'ingress');
          if (!row || last < row.deprecated) continue;
          const value = ann[key];
          // Where the field goes: the pod spec, the named container, or the Ingress spec.
          let target: Array<string | number> | undefined;
          let container: string | undefined;
          const spec = h.v.spec as Record<string, unknown> | undefined;
          if (row.scope === 'pod') target = [...h.at, 'spec', ...row.field];
          else if (row.scope === 'ingress') target = [...h.at, ...row.field];
          else {
            container = key.slice(row.prefix!.length);
            for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
              const cs = spec?.[list];
              const i = Array.isArray(cs) ? cs.findIndex((c) => isObj(c) && c.name === container) : -1;
              if (i >= 0) { target = [...h.at, 'spec', list, i, ...row.field]; break; }
            }
          }
          const rel = (p: Array<string | number>) => pathText(p.slice(o.at.length));
          const fieldShown = target ? rel(target) : `spec.containers[name=${container}].${row.field.join('.')}`;
          // Does every step of the window serve the field (the field table; a kind it does not have cannot be told)?
          let node = root();
          if (node && target) for (const s of target.slice(o.at.length)) if (typeof s === 'string') node = node.child(s);
          const servedAll = !!node && !!target && (node.served & win) === win && !(node.unknown & win) && windowMinors.every((m) => covers(t, m));
          const firstServed = target && node && node.served ? t.first + (31 - Math.clz32(node.served & -node.served)) : undefined;
          const effect = [
            row.ignoredByKubelet && last >= row.ignoredByKubelet ? `the kubelet ignores it from 1.${row.ignoredByKubelet}` : '',
            row.nonFunctional && last >= row.nonFunctional ? `it has no effect at all from 1.${row.nonFunctional}` : '',
          ].filter(Boolean).join(' and ');
          const annLoc = o.doc.locate([...h.at, 'metadata', 'annotations', key]);
          const fixes: FindingFix[] = [];
          const mapped = typeof value === 'string' ? mapValue(row, value) : undefined;
          let why = '';
          if (!target) why = `no container is named ${container}`;
          else if (!servedAll) why = `not every step of the window serves ${fieldShown}`;
          else if (mapped === undefined) why = `no field value means ${JSON.stringify(value)}`;
          else {
            // The field already set: nothing to write (the fix only removes the annotation when they agree).
            let cur: unknown = o.value;
            for (const s of target.slice(o.at.length)) cur = isObj(cur) || Array.isArray(cur) ? (cur as Record<string | number, unknown>)[s] : undefined;
            const fix = !ctx.json && annLoc.key && fixFor(target, mapped, cur, annKeys.length === 1 ? [...h.at, 'metadata', 'annotations'] : undefined, annLoc);
            if (fix) fixes.push({ title: `Use ${fieldShown} instead of the annotation`, edits: fix, destructive: true, ...(row.scope === 'ingress' ? {} : { preferred: true }) });
            else why = ctx.json ? 'a JSON file is not rewritten' : cur !== undefined && JSON.stringify(cur) !== JSON.stringify(mapped) ? `${fieldShown} is already set to something else` : 'a comment or flow style around the annotation or where the field goes (the fix does not rewrite those)';
          }
          report({
            message: `annotation ${key} is deprecated from 1.${row.deprecated}${effect ? ` (${effect})` : ''}; use ${fieldShown}`
              + (firstServed !== undefined ? ` (served from 1.${firstServed})` : '') + (why && !fixes.length ? `; no fix: ${why}` : ''),
            range: annLoc.key ?? annLoc.value,
            fixes,
            data: { annotation: key, deprecated: `1.${row.deprecated}`, field: fieldShown, sources: row.sources },
          });
        }
      }

      /** Edits that remove the annotation and write the field, or undefined when the text is not plain block YAML. */
      function fixFor(target: Array<string | number>, mapped: unknown, current: unknown, wholeAnnotations: Array<string | number> | undefined, annLoc: { key?: OffsetRange; value: OffsetRange }): Array<{ range: OffsetRange; newText: string }> | undefined {
        if (current !== undefined) {
          if (JSON.stringify(current) !== JSON.stringify(mapped)) return undefined;
        }
        // Removal: the entry's own line (or the whole `annotations:` block when it is the only entry).
        const k = annLoc.key!;
        if (!blank(lineStart(k.start), k.start) || !blank(annLoc.value.end, lineEnd(annLoc.value.end))) return undefined;
        let del: OffsetRange = { start: lineStart(k.start), end: nextLine(annLoc.value.end) };
        if (wholeAnnotations) {
          const a = o.doc.locate(wholeAnnotations).key;
          if (!a || !blank(lineStart(a.start), a.start)) return undefined;
          del = { start: lineStart(a.start), end: del.end };
        }
        const edits = [{ range: del, newText: '' }];
        if (current !== undefined) return edits;
        // Insertion: after the last entry of the deepest map of the path that exists, at its keys' indentation.
        let host = target.length - 1;
        let hv: unknown;
        for (; host > 0; host--) {
          let cur: unknown = o.value;
          for (const s of target.slice(o.at.length, host)) cur = isObj(cur) || Array.isArray(cur) ? (cur as Record<string | number, unknown>)[s] : undefined;
          if (isObj(cur)) { hv = cur; break; }
        }
        if (!isObj(hv)) return undefined;
        const keys = Object.keys(hv);
        if (!keys.length) return undefined;
        const first = o.doc.locate([...target.slice(0, host), keys[0]]).key;
        const lastLoc = o.doc.locate([...target.slice(0, host), keys[keys.length - 1]]);
        if (!first || !lastLoc.key) return undefined;
        const indent = first.start - lineStart(first.start);
        const lead = text.slice(lineStart(first.start), first.start);
        if (!/^[ -]*$/.test(lead)) return undefined;
        let end = Math.max(lastLoc.value.end, lastLoc.key.end);
        while (end > lastLoc.key.end && /[\r\n ]/.test(text[end - 1])) end--;
        if (!blank(end, lineEnd(end))) return undefined;
        const lines: string[] = [];
        const rest = target.slice(host) as string[];
        rest.forEach((s, i) => {
          const pad = ' '.repeat(indent + 2 * i);
          if (i < rest.length - 1) lines.push(`${pad}${s}:`);
          else if (isObj(mapped)) {
            lines.push(`${pad}${s}:`);
            for (const [a, b] of Object.entries(mapped)) lines.push(`${pad}  ${a}: ${yamlScalar(String(b))}`);
          } else lines.push(`${pad}${s}: ${yamlScalar(String(mapped))}`);
        });
        edits.push({ range: { start: lineEnd(end), end: lineEnd(end) }, newText: newline() + lines.join(newline()) });
        return edits;
      }
    }
  },
};
