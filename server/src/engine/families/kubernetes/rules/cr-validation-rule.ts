import type { Rule, Report } from '../../../rules/types';
import type { KubernetesContext, ManifestObject } from '../index';
import type { CrdSchema } from '../crds';
import { crdName, relPath } from './cr-common';
import { prepareRule, runRule, celValue, sizeOf, COST_LIMIT, SLOW_MS } from '../cel';
import { bundledTargets, releasesBySnapshot, snapshotSchema } from '../operator-schema';
import { linkOf, pathSegments, type PathLink } from '../../../path-link';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

const CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            x-kubernetes-validations:\n            - rule: "self.minReplicas <= self.replicas"\n              message: "replicas should be greater than or equal to minReplicas"\n            properties:\n              minReplicas: {type: integer}\n              replicas: {type: integer}\n';

interface Site { path: Array<string | number>; value: unknown; schema: CrdSchema }

const NODES = 200000;
const SITES = 5000;

/** Every value of the object that a schema node with x-kubernetes-validations applies to (bounded walk). */
function sites(o: ManifestObject, schema: CrdSchema): { found: Site[]; cut?: Array<string | number> } {
  const found: Site[] = [];
  // Each value's path is a link to its parent's (path-link.ts): an array is made only for a site.
  const top = linkOf(o.at);
  const stack: Array<{ p: PathLink; value: unknown; schema: CrdSchema }> = [{ p: top, value: o.value, schema }];
  let budget = NODES;
  while (stack.length && budget-- > 0 && found.length < SITES) {
    const x = stack.pop()!;
    const { value: v, schema: s } = x;
    if (v === null || v === undefined) continue;
    if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length) found.push({ path: pathSegments(x.p), value: v, schema: s });
    if (Array.isArray(v)) {
      if (isObj(s.items)) for (let i = v.length - 1; i >= 0; i--) stack.push({ p: { up: x.p, seg: i }, value: v[i], schema: s.items as CrdSchema });
      continue;
    }
    if (!isObj(v)) continue;
    const props = isObj(s.properties) ? s.properties as Record<string, CrdSchema> : undefined;
    const ap = isObj(s.additionalProperties) ? s.additionalProperties as CrdSchema : undefined;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      if (x.p === top && (k === 'status')) continue;
      const c = props && Object.prototype.hasOwnProperty.call(props, k) && isObj(props[k]) ? props[k] : ap;
      if (c) stack.push({ p: { up: x.p, seg: k }, value: v[k], schema: c });
    }
  }
  return { found, cut: stack.length ? pathSegments(stack[stack.length - 1].p) : undefined };
}

/** A rule's fieldPath (".spec.x", "['a.b']") below the site, when the object has it. */
function fieldPathBelow(site: Site, fieldPath: unknown): Array<string | number> | undefined {
  if (typeof fieldPath !== 'string' || !fieldPath.startsWith('.') && !fieldPath.startsWith('[')) return undefined;
  const segs: Array<string | number> = [];
  const re = /\.([A-Za-z0-9_-]+)|\[['"]([^'"]+)['"]\]|\[(\d+)\]/gy;
  let m: RegExpExecArray | null;
  let v: unknown = site.value;
  while ((m = re.exec(fieldPath))) {
    const seg = m[3] !== undefined ? Number(m[3]) : (m[1] ?? m[2]);
    v = Array.isArray(v) && typeof seg === 'number' ? v[seg] : isObj(v) && typeof seg === 'string' ? v[seg] : undefined;
    if (v === undefined) return undefined;
    segs.push(seg);
  }
  return re.lastIndex === 0 && segs.length === 0 ? undefined : [...site.path, ...segs];
}

/** The rules of one schema against one object, the findings reported; `notes` collects, once per CRD version, what was not evaluated. */
function evaluate(ctx: KubernetesContext, o: ManifestObject, schema: CrdSchema, label: string, notes: Map<string, { o: ManifestObject; label: string; items: Set<string> }>, report: Report, extra: Record<string, unknown>): void {
  const noteKey = `${o.apiVersion}\u0000${o.kind}\u0000${label}`;
  const note = (what: string) => {
    let n = notes.get(noteKey);
    if (!n) notes.set(noteKey, (n = { o, label, items: new Set() }));
    n.items.add(what);
  };
  const { found, cut } = sites(o, schema);
  if (cut) note(`the rules at ${relPath(o, cut) || 'the object'} and after (the check stops after ${SITES} rule sites or ${NODES.toLocaleString('en')} values)`);
  for (const site of found) {
    const shown = relPath(o, site.path) || 'the object';
    let self: unknown, size = 0;
    for (const r of site.schema['x-kubernetes-validations'] as unknown[]) {
      if (!isObj(r) || typeof r.rule !== 'string') continue;
      const p = prepareRule(r.rule);
      if (p.kind === 'transition') continue; // oldSelf: judged on an update against the stored object, not on a file
      if (p.kind === 'unsupported') { note(`${p.names.join(', ')} (rule ${JSON.stringify(r.rule)} at ${shown})`); continue; }
      if (p.kind === 'invalid') { note(`rule ${JSON.stringify(r.rule)} at ${shown}: ${p.why}`); continue; }
      if (self === undefined) {
        try { self = celValue(site.value, site.schema, { n: NODES }); size = sizeOf(site.value); } catch { note(`the rules at ${shown} (its value is over ${NODES.toLocaleString('en')} values)`); break; }
      }
      const out = runRule(p, r as { rule: string }, self, size);
      const loc = o.doc.locate(site.path);
      const at = site.path.length === o.at.length ? o.apiVersionRange : loc.key ?? loc.value;
      if (out.kind === 'pass') continue;
      if (out.kind === 'too-costly' || out.kind === 'slow') {
        note(`rule ${JSON.stringify(r.rule)} at ${shown}: ${out.kind === 'too-costly' ? `its estimated cost (${Math.round(out.cost).toLocaleString('en')}) is over ${COST_LIMIT.toLocaleString('en')}` : `it took ${out.ms} ms (over ${SLOW_MS} ms)`}`);
        if (out.kind === 'too-costly' || out.failed === undefined) continue;
      }
      if (out.kind === 'error') {
        report({
          message: `${shown}: the x-kubernetes-validations rule ${JSON.stringify(r.rule)} of ${label} could not be evaluated here (${out.why}); not checked`,
          range: at, severity: 'info', data: { ...extra, path: shown, rule: r.rule, notChecked: true, why: out.why },
        });
        continue;
      }
      const message = out.kind === 'fail' ? out.message : out.failed!;
      const fp = fieldPathBelow(site, r.fieldPath);
      const range = fp ? (o.doc.locate(fp).key ?? o.doc.locate(fp).value) : at;
      report({
        message: `${shown}: ${message} (x-kubernetes-validations rule ${JSON.stringify(r.rule)} of ${label}): the API server refuses the object`,
        range, data: { ...extra, path: shown, rule: r.rule, ruleMessage: message, ...(typeof r.reason === 'string' ? { reason: r.reason } : {}) },
      });
    }
  }
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/cr-validation-rule',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Custom resource its CRD\'s CEL validation rules refuse',
  what: 'Evaluates the CEL rules (`x-kubernetes-validations`) of a custom resource\'s schema against the resource, each at the values '
    + 'its schema node applies to with `self` that value, as the API server does: the schema of its version in the workspace\'s '
    + '`CustomResourceDefinition`, or, with no CRD of its group in the workspace, the bundled schema of the operator (data/operators/) at '
    + 'each release of its window (kubernetes.components / --component-versions) whose schema a bundled snapshot holds. A rule that '
    + 'is false is reported at the value (or at its `fieldPath`) with the rule\'s `messageExpression` or `message` (else "failed rule: '
    + '…") and the source that holds it ("cert-manager 1.21 schema, bundled"). The Kubernetes CEL libraries supported: strings '
    + '(charAt, replace, reverse, and the standard ones), lists (isSorted, sum, min, max, indexOf, lastIndexOf), sets, regex (matches, '
    + 'find, findAll, with RE2 semantics), quantity, url, isIP and isCIDR; optional types and cel.bind. A rule that uses another '
    + 'function (ip(), cidr(), format, authorizer …) is not evaluated: said once per CRD version as an information naming the function, never passed. '
    + 'Transition rules (those naming `oldSelf`) compare an update with the stored object and are not evaluated on a file (skipped). '
    + 'Bounded: a rule whose estimated cost (AST nodes × the size of the value to the power of its comprehension nesting) is over '
    + '10,000,000 is not run, a rule that still takes over 200 ms is said, and a rule that fails to evaluate (a missing field not '
    + 'guarded by has()) is said as not checked at the value.',
  why: 'The API server evaluates these rules on every create and update and refuses the object when one is false: the apply, the Helm '
    + 'release or the Flux reconciliation that carries it fails, often only once the operator\'s CRDs of the new release are installed.',
  bad: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  minReplicas: 3\n  replicas: 2\n`, options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: `${CRD}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  minReplicas: 1\n  replicas: 2\n`, options: 'Kubernetes 1.30' },
  fix: 'none',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (x-kubernetes-validations: self, message, messageExpression, fieldPath, transition rules, cost limits)',
    'kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/cel/library (lists, regex, urls, quantity, sets) and cel-go ext (strings)',
    'Kubernetes docs: Validation rules (CustomResourceDefinitions)',
    'data/operators/ (scripts/import-operator-schemas.mjs): the operators\' CRDs at their release tags, ../shared/reference/operators',
  ],
  check(ctx, report) {
    const notes = new Map<string, { o: ManifestObject; label: string; items: Set<string> }>();
    for (const { o, c } of ctx.customResources()) {
      if (!c.version?.served || !c.version.schema) continue;
      evaluate(ctx, o, c.version.schema, crdName(c.crd), notes, report, { crd: c.crd.name });
    }
    for (const t of bundledTargets(ctx)) {
      if (!t.versionKnown || !t.judged.length) continue;
      for (const [s, rs] of releasesBySnapshot(t)) {
        const { schema } = snapshotSchema(t.op, s, t.key, t.version);
        if (!schema) continue;
        const holds = rs.length === 1 && rs[0] === s ? '' : `, which holds for ${t.op} ${rs.join(', ')}`;
        evaluate(ctx, t.o, schema, `${t.op} ${s} schema, bundled${holds}; ${t.versionSource}`, notes, report, { operator: t.op, bundled: true, releases: rs, snapshot: s });
      }
    }
    for (const n of notes.values()) {
      report({
        message: `${n.o.apiVersion} ${n.o.kind}: some x-kubernetes-validations rules of ${n.label} were not evaluated: ${[...n.items].join('; ')}`,
        range: n.o.apiVersionRange,
        severity: 'info',
        data: { notChecked: true, notEvaluated: [...n.items] },
      });
    }
  },
};
