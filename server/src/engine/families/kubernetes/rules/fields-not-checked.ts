import type { Rule } from '../../../rules/types';
import type { KubernetesContext, ManifestObject } from '../index';
import { rootNode, fieldTable, minorNumber, minorBit, componentFieldTable, isComponentKind, covers, fieldSpanText } from '../data/fields';
import { servedAt, type ServedSet } from '../data/served';
import { speaksFor } from '../data/openapi';
import { groupOf } from '../data/api-version';
import { listOf } from './common';
import { pathText } from '../data/fields';
import { shownSegments } from '../manifest-objects';
import { knownArgsKind, argsKindMissing, runsText } from '../scheduler-args';
import { formatList } from '../../../versions';

/** A minor's source as the message names it; a document that has no type for the kind says so (1.37's schema). */
function sourceName(t: ReturnType<typeof fieldTable>, m: number, id: string): string {
  const s = t.sources[String(m)] as { package?: string; document?: string; servedNotInSchema?: string[] } | undefined;
  if (t.documents?.[String(m)]) return t.documents[String(m)];
  if (s?.package) return s.package;
  if (s?.document) return `${s.document}${s.servedNotInSchema?.includes(id) ? ', which has no type for it' : ''}`;
  return 'none';
}

/**
 * The steps and kinds the field rules (field-not-served, unknown-field, invalid-enum-value) cannot judge, said once per
 * file (and once per apiVersion/kind of the file) instead of being passed over: steps outside the field table, steps of
 * the table without a source of their own, and built-in kinds the table does not have at a step that serves them.
 */
/**
 * Component configuration files (their own table, data/kubernetes/fields/component-config.json): the steps of the
 * window outside that table's span, once per apiVersion/kind of the file (a kubelet file at 1.38 is not field-checked).
 */
/** The minors the component table spans, worked out once (the editor runs this rule once per part of a big file). */
let span: [number, number] | undefined;
function componentSpan(): [number, number] {
  if (span) return span;
  let lo = Infinity, hi = -Infinity;
  for (const iv of Object.values(componentFieldTable().kinds)) for (const [, a, b] of iv) { if (a < lo) lo = a; if (b > hi) hi = b; }
  return (span = [lo, hi]);
}

function componentsNotChecked(ctx: KubernetesContext, steps: number[], report: Parameters<Rule<KubernetesContext>['check']>[1]): void {
  const seen = new Set<string>();
  const [lo, hi] = componentSpan();
  const outside = steps.filter((m) => m < lo || m > hi);
  if (!outside.length) return;
  for (const o of ctx.objects) {
    if (!isComponentKind(o.apiVersion, o.kind)) continue;
    const id = `${o.apiVersion} ${o.kind}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const loc = o.doc.locate([...o.at, 'apiVersion']);
    report({
      message: `fields of ${id} not checked at ${listOf(outside)}: the component configuration table covers 1.${lo}..1.${hi} (data/kubernetes/fields/component-config.json)`,
      range: loc.value ?? loc.key,
      data: { reason: 'outside-component-table', minors: outside.map((m) => `1.${m}`), apiVersion: o.apiVersion, kind: o.kind },
    });
  }
}

/**
 * The plugin args of a KubeSchedulerConfiguration kube-scheduler does not decode at some step, so the field rules do not
 * check them there: a plugin the table has no args kind for (an out-of-tree plugin decodes its own args), or one whose
 * args kind is not in that apiVersion at that minor (scheduler-args.ts; a removed plugin is k8s/component-config-kind's).
 */
function pluginArgsNotChecked(ctx: KubernetesContext, report: Parameters<Rule<KubernetesContext>['check']>[1]): void {
  for (const p of ctx.pluginArgs()) {
    const known = knownArgsKind(p.name);
    const shown = pathText(shownSegments(p.config, p.at));
    const loc = p.config.doc.locate([...p.entryAt, 'name']);
    const data = { reason: 'plugin-args', path: shown, plugin: p.name, apiVersion: p.apiVersion, kind: p.kind };
    if (!known.length) {
      report({
        message: `${shown} (plugin ${p.name}) not checked: the component configuration table has no ${p.name}Args kind in any apiVersion of ${groupOf(p.config.apiVersion)}, `
          + 'so kube-scheduler does not decode these args itself (an out-of-tree plugin decodes its own; a plugin without an args kind ignores them)',
        range: loc.value ?? loc.key,
        data,
      });
      continue;
    }
    const miss = p.mismatch ? undefined : argsKindMissing(p, ctx.minors, ctx.fields);
    if (!miss || miss.verdict !== 'notChecked') continue;
    const same = known.find((k) => k.apiVersion === p.apiVersion);
    report({
      message: `${shown} (plugin ${p.name}) not checked at ${listOf(miss.steps)}: the component configuration table has no ${p.apiVersion} ${p.kind} there `
        + `(${same ? `it has it at ${runsText(same.runs)}` : `it has ${p.name}Args in ${formatList(known.map((k) => `${k.apiVersion} (${runsText(k.runs)})`), 'and')}`}), so kube-scheduler ${listOf(miss.steps)} does not decode the args as it`,
      range: loc.value ?? loc.key,
      data: { ...data, minors: miss.steps.map((m) => `1.${m}`) },
    });
  }
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/fields-not-checked',
  family: 'kubernetes',
  defaultSeverity: 'info',
  title: 'Fields not checked at some step',
  what: 'Says, once per file at the first built-in object\'s `apiVersion`, which steps of the window the field rules '
    + '(k8s/field-not-served, k8s/unknown-field, k8s/invalid-enum-value) cannot check: steps outside the field table '
    + '(data/kubernetes/fields/fields.json, 1.15 … 1.37; every minor there has a source) and not given by the user\'s own '
    + 'OpenAPI document (kubernetes.openapi: a minor with a document is checked from its definitions). '
    + 'And, once per apiVersion/kind of the file, a built-in kind the kube-apiserver serves at a step where the field table '
    + 'does not have it, whose fields are then not checked there (v1 ComponentStatus, which no source creates; at 1.37, whose '
    + 'source is client-go\'s v0.37.0-beta.0 schema, CustomResourceDefinition, APIService and the create-only review kinds). '
    + 'A component configuration file (kubeadm, kubelet, kube-proxy …) is said at the steps outside its own '
    + 'table (data/kubernetes/fields/component-config.json, 1.16 … 1.37). In a KubeSchedulerConfiguration, at the plugin\'s '
    + 'name, `pluginConfig[].args` whose Args kind the table does not have: an out-of-tree plugin\'s (`Coscheduling`: '
    + 'kube-scheduler does not decode them, the plugin does), or at steps before the plugin\'s Args kind (v1beta1 '
    + '`NodeResourcesBalancedAllocationArgs` before 1.22).',
  why: 'A field check that skips a step says nothing about it: without this note a window such as 1.12..1.15 or 1.36..1.38 '
    + 'would look field-checked at every step, although only some steps were.',
  bad: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'Kubernetes 1.36..1.38' },
  good: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'Kubernetes 1.32..1.34' },
  fix: 'none',
  sources: [
    'data/kubernetes/fields/fields.json: first and last minor, the source of each minor and why a minor has none (gaps)',
    'data/kubernetes/api-lifecycle.json and data/kubernetes/served-stable.json: what kube-apiserver serves at each minor',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const steps = ctx.minors.map(minorNumber).filter((m) => Number.isFinite(m));
    if (!steps.length) return;
    // servesAt per step, asked once per apiVersion/kind of the file (a bundle has thousands of objects of a few kinds).
    const servedOf = new Map<string, boolean[]>();
    let sets: ServedSet[] | undefined;
    const served = (o: ManifestObject): boolean[] => {
      const id = `${o.apiVersion}/${o.kind}`;
      let hit = servedOf.get(id);
      if (!hit) {
        // servedAt per step once per check (a chart's templates each make a check of their own).
        sets ??= steps.map((m) => servedAt(`1.${m}`));
        const kinds = sets.map((s) => s.kinds.get(o.apiVersion));
        servedOf.set(id, (hit = kinds.map((k) => !!k?.has(o.kind))));
      }
      return hit;
    };
    componentsNotChecked(ctx, steps, report);
    pluginArgsNotChecked(ctx, report);
    const objects = ctx.objects.filter((o) => served(o).some((x) => x));
    if (!objects.length) return;
    const at = (o: ManifestObject) => o.doc.locate([...o.at, 'apiVersion']);
    const first = objects[0];
    const where = at(first);
    // Steps the table has no source for: outside its span, or between the data and a document of the user's.
    const outside = steps.filter((m) => !covers(t, m));
    if (outside.length) {
      report({
        message: `fields not checked at ${listOf(outside)}: the field table covers ${fieldSpanText(t)} (data/kubernetes/fields/fields.json${t.documents ? ', kubernetes.openapi' : ''})`,
        range: where.value ?? where.key,
        data: { reason: 'outside-table', minors: outside.map((m) => `1.${m}`) },
      });
    }
    const seen = new Set<string>();
    for (const o of objects) {
      const id = `${o.apiVersion} ${o.kind}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const root = rootNode(o.apiVersion, o.kind, t);
      const flags = served(o);
      // At a minor with the user's document that speaks for the apiVersion, the document says what is served (a kind
      // it lacks is not served there: the lifecycle rules say so), so its fields are not missing.
      const doc = (m: number) => t.openapiDocs?.[String(m)];
      const missing = steps.filter((m, i) => covers(t, m) && !(doc(m) && speaksFor(doc(m)!, o.apiVersion))
        && flags[i] && !(root && (root.kindServed & minorBit(m, t))));
      if (!missing.length) continue;
      const loc = at(o);
      report({
        message: `fields of ${id} not checked at ${listOf(missing)}: kube-apiserver serves it there, but the field table has no ${id} at ${missing.length > 1 ? 'those minors' : 'that minor'} (its sources: ${[...new Set(missing.map((m) => sourceName(t, m, id)))].join(', ')})`,
        range: loc.value ?? loc.key,
        data: { reason: 'kind-not-in-table', minors: missing.map((m) => `1.${m}`), apiVersion: o.apiVersion, kind: o.kind },
      });
    }
  },
};
