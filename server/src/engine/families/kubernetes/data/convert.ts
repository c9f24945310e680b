// Known conversions between Kubernetes API versions, as minimal text edits. Each returns whether the
// conversion is complete; an incomplete one says what is left for a person to do.
import { YamlEditor } from '../../../parse/yaml-edit';
import { groupOf } from './api-version';

type Path = Array<string | number>;
type Obj = Record<string, any>;

export interface Conversion {
  complete: boolean;
  notes: string[];
  /**
   * Paths (as "spec.metrics[0]") the conversion left as they were for a person to finish: only an incomplete
   * conversion has them, and only there may the result still hold a field the target does not serve.
   */
  leftover: string[];
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

interface Step {
  ed: YamlEditor;
  at: Path;
  obj: Obj;
  from: string;
  kind: string;
  spec: Obj | undefined;
  opts: ConvertOptions;
  note(text: string, leftover?: string): void;
}

export interface ConvertOptions {
  /**
   * Why the pod template's labels cannot be copied into a selector as they are read (a Helm template whose labels are
   * written under an `if`, `range` or `with`, or come from an `include` on a line of its own: the selector would not
   * match the labels at every render).
   */
  labelsUnsure?: string;
}
type Converter = (s: Step) => void;

/** Only the apiVersion changes: the target serves every field of the source (test/k8s-fields.test.mjs proves it per pair). */
const apiVersionOnly: Converter = () => {};

/**
 * Every conversion the fixes can make, keyed by (from apiVersion, to apiVersion, kind). A pair not here has no known
 * conversion: the fix is then an apiVersion change marked partial. Each pair is checked against the fields of its
 * source and target (test/fixtures/kubernetes/fields.json, from the Kubernetes OpenAPI documents).
 */
const PAIRS: Array<[kinds: string[], from: string[], to: string, run: Converter]> = [
  [['Ingress'], ['extensions/v1beta1', 'networking.k8s.io/v1beta1'], 'networking.k8s.io/v1', (s) => { if (s.spec) convertIngressSpec(s, [...s.at, 'spec'], s.spec); }],
  [['Ingress'], ['extensions/v1beta1'], 'networking.k8s.io/v1beta1', apiVersionOnly],
  [['IngressClass'], ['networking.k8s.io/v1beta1'], 'networking.k8s.io/v1', apiVersionOnly],
  [['CronJob', 'CronJobList'], ['batch/v1beta1'], 'batch/v1', apiVersionOnly],
  [['PodDisruptionBudget'], ['policy/v1beta1'], 'policy/v1', (s) => {
    if (s.spec && selectsNothingInV1beta1(s.spec.selector)) {
      const what = Object.keys(s.spec.selector).length === 0 ? 'is {}' : 'has no matchLabels and no matchExpressions';
      s.note(`spec.selector ${what}: policy/v1beta1 selected no pods with it, policy/v1 selects every pod in the namespace; set the selector you mean`, 'spec.selector');
    }
  }],
  [['HorizontalPodAutoscaler', 'HorizontalPodAutoscalerList'], ['autoscaling/v2beta2'], 'autoscaling/v2', apiVersionOnly],
  [['HorizontalPodAutoscaler'], ['autoscaling/v2beta1'], 'autoscaling/v2', hpaV2beta1ToV2],
  [['HorizontalPodAutoscaler'], ['autoscaling/v2beta1'], 'autoscaling/v2beta2', hpaV2beta1ToV2],
  [['HorizontalPodAutoscaler'], ['autoscaling/v2beta1', 'autoscaling/v2beta2', 'autoscaling/v2'], 'autoscaling/v1', hpaToV1],
  // The kinds each old apiVersion served (apps/v1beta1 had no DaemonSet nor ReplicaSet, extensions no StatefulSet).
  [['Deployment'], ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'], 'apps/v1', workloadToAppsV1],
  [['DaemonSet', 'ReplicaSet'], ['extensions/v1beta1', 'apps/v1beta2'], 'apps/v1', workloadToAppsV1],
  [['StatefulSet'], ['apps/v1beta1', 'apps/v1beta2'], 'apps/v1', workloadToAppsV1],
  [['NetworkPolicy'], ['extensions/v1beta1'], 'networking.k8s.io/v1', apiVersionOnly],
  [['PodSecurityPolicy'], ['extensions/v1beta1'], 'policy/v1beta1', apiVersionOnly],
  [['APIService'], ['apiregistration.k8s.io/v1beta1'], 'apiregistration.k8s.io/v1', apiVersionOnly],
  [['CSIDriver', 'CSINode', 'CSIStorageCapacity', 'StorageClass', 'VolumeAttachment'], ['storage.k8s.io/v1beta1'], 'storage.k8s.io/v1', apiVersionOnly],
  [['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterRoleList', 'ClusterRoleBindingList', 'RoleList', 'RoleBindingList'],
    ['rbac.authorization.k8s.io/v1beta1'], 'rbac.authorization.k8s.io/v1', apiVersionOnly],
  [['ClusterRole', 'Role', 'ClusterRoleList', 'RoleList'], ['rbac.authorization.k8s.io/v1alpha1'], 'rbac.authorization.k8s.io/v1', apiVersionOnly],
  // v1alpha1 subjects name an apiVersion where v1 has an apiGroup.
  [['ClusterRoleBinding', 'RoleBinding'], ['rbac.authorization.k8s.io/v1alpha1'], 'rbac.authorization.k8s.io/v1', rbacSubjectsToV1],
  [['Lease'], ['coordination.k8s.io/v1beta1'], 'coordination.k8s.io/v1', apiVersionOnly],
  [['PriorityClass'], ['scheduling.k8s.io/v1beta1', 'scheduling.k8s.io/v1alpha1'], 'scheduling.k8s.io/v1', apiVersionOnly],
  [['RuntimeClass'], ['node.k8s.io/v1beta1'], 'node.k8s.io/v1', apiVersionOnly],
  [['TokenReview'], ['authentication.k8s.io/v1beta1'], 'authentication.k8s.io/v1', apiVersionOnly],
  // Not here on purpose: flowcontrol v1beta3 -> v1 (PriorityLevelConfiguration nominalConcurrencyShares: 0 means the
  // default 30 in v1beta3 and zero in v1, a change of meaning no field set shows), and pairs whose two ends no
  // OpenAPI document in test/fixtures/kubernetes/fields.json serves together.
];

/**
 * Whether a policy/v1beta1 PodDisruptionBudget selector is the one v1beta1 reads as "match no pods": upstream
 * (pkg/apis/policy/v1beta1/conversion.go) compares it with apiequality.Semantic.DeepEqual to an empty LabelSelector,
 * and that comparison holds nil and empty maps and lists equal, so `{}`, `{matchLabels: {}}`, `{matchExpressions: []}`
 * (and either as null) all mean "none" — where policy/v1 reads each of them as "every pod in the namespace". Other keys
 * are not LabelSelector fields (the API server drops them), so they do not make a selector select anything.
 */
function selectsNothingInV1beta1(selector: unknown): boolean {
  if (!isObj(selector)) return false;
  const { matchLabels: labels, matchExpressions: exprs } = selector;
  const noLabels = labels === undefined || labels === null || (isObj(labels) && Object.keys(labels).length === 0);
  const noExprs = exprs === undefined || exprs === null || (Array.isArray(exprs) && exprs.length === 0);
  return noLabels && noExprs;
}

const pairKey = (from: string, to: string, kind: string) => `${from}\u0000${to}\u0000${kind}`;
const TABLE = new Map<string, Converter>();
for (const [kinds, froms, to, run] of PAIRS) for (const k of kinds) for (const f of froms) TABLE.set(pairKey(f, to, k), run);

/** Every (from, to, kind) the fixes can convert, for the tests. */
export function conversionPairs(): Array<{ from: string; to: string; kind: string; apiVersionOnly: boolean }> {
  const out = [];
  for (const [kinds, froms, to, run] of PAIRS) for (const kind of kinds) for (const from of froms) out.push({ from, to, kind, apiVersionOnly: run === apiVersionOnly });
  return out;
}

/**
 * Converts the object at `at` (the document root, or a List item) to `target`, adding its edits to `ed`.
 * Returns undefined when no known conversion applies for this (from, to, kind) (the caller then offers an
 * apiVersion-only change as partial).
 */
export function convert(ed: YamlEditor, at: Path, obj: Obj, target: string, opts: ConvertOptions = {}): Conversion | undefined {
  const from = String(obj.apiVersion), kind = String(obj.kind);
  const run = TABLE.get(pairKey(from, target, kind));
  if (!run) return undefined;
  const notes: string[] = [], leftover: string[] = [];
  ed.setScalar([...at, 'apiVersion'], target);
  const spec = isObj(obj.spec) ? obj.spec : undefined;
  run({ ed, at, obj, from, kind, spec, opts, note: (text, path) => { notes.push(text); if (path) leftover.push(path); } });
  return { complete: notes.length === 0, notes, leftover };
}

/**
 * Inserts what `want` has and `have` lacks under mapPath (recursing into maps both have); false where it cannot.
 * `only`: "nested" does only the recursion, "here" only this level — insertions at the end of a nested map and at
 * the end of this one can fall on one offset, where edits apply in array order, so nested ones must come first.
 */
function ensure(ed: YamlEditor, mapPath: Path, have: Obj, want: Obj, only?: 'nested' | 'here'): boolean {
  let ok = true;
  if (only !== 'here') for (const [k, v] of Object.entries(want)) if (isObj(v) && isObj(have[k])) ok = ensure(ed, [...mapPath, k], have[k], v) && ok;
  if (only !== 'nested') {
    for (const [k, v] of Object.entries(want)) {
      if (!(k in have)) ok = ed.insertKey(mapPath, k, v) && ok;
      else if (have[k] == null) ok = ed.replaceValue([...mapPath, k], v) && ok; // "key:" with no value
    }
  }
  return ok;
}

const MAX_INT32 = 2147483647;

/**
 * The defaults of the source apiVersion that apps/v1 changed, written out where the source leaves them unset, so the
 * object behaves as before. From the defaulting code of the last release serving each source
 * (pkg/apis/{extensions,apps}/{v1beta1,v1beta2}/defaults.go, as the OpenAPI field descriptions of Kubernetes 1.15 say):
 *   extensions/v1beta1 Deployment: RollingUpdate maxUnavailable 1, maxSurge 1; revisionHistoryLimit and
 *     progressDeadlineSeconds MaxInt32 ("keep all" / "no deadline")   — apps/v1: 25%, 25%, 10, 600
 *   apps/v1beta1 Deployment: revisionHistoryLimit 2 (strategy 25%/25% and 600 s as apps/v1)
 *   extensions/v1beta1 DaemonSet: updateStrategy OnDelete                                     — apps/v1: RollingUpdate
 *   apps/v1beta1 StatefulSet: updateStrategy OnDelete                                         — apps/v1: RollingUpdate
 * apps/v1beta2 has the apps/v1 defaults; ReplicaSets have none that changed (replicas 1 everywhere).
 */
function oldDefaults(s: Step): Obj | undefined {
  const spec = s.spec!;
  if (s.kind === 'Deployment' && s.from === 'extensions/v1beta1') {
    const want: Obj = { revisionHistoryLimit: MAX_INT32, progressDeadlineSeconds: MAX_INT32 };
    const st = isObj(spec.strategy) ? spec.strategy : undefined;
    // The type defaults to RollingUpdate in both; only its rollingUpdate numbers differ.
    if (!st || st.type == null || st.type === 'RollingUpdate') want.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } };
    return want;
  }
  if (s.kind === 'Deployment' && s.from === 'apps/v1beta1') return { revisionHistoryLimit: 2 };
  if (s.kind === 'DaemonSet' && s.from === 'extensions/v1beta1') return { updateStrategy: { type: 'OnDelete' } };
  if (s.kind === 'StatefulSet' && s.from === 'apps/v1beta1') return { updateStrategy: { type: 'OnDelete' } };
  return undefined;
}

function workloadToAppsV1(s: Step): void {
  const { ed, at, spec } = s;
  if (!spec) { s.note('spec is missing'); return; }
  const want = oldDefaults(s);
  let ok = !want || ensure(ed, [...at, 'spec'], spec, want, 'nested');
  const labels = spec.template?.metadata?.labels;
  if (!spec.selector) {
    // Before apps/v1 the selector defaulted to the pod template's labels (apps/v1beta2 already required it). A label
    // without a string value (`app:` with nothing, a number) would make a selector the API server rejects.
    const noString = isObj(labels) ? Object.keys(labels).filter((k) => typeof labels[k] !== 'string') : [];
    if (s.opts.labelsUnsure) s.note(`spec.selector is required in apps/v1 and is not derived from the pod template's labels: ${s.opts.labelsUnsure}; set it to labels every render has`, 'spec.selector');
    else if (noString.length) s.note(`spec.selector is required in apps/v1 and is not derived from the pod template's labels: ${noString.join(', ')} ha${noString.length === 1 ? 's' : 've'} no string value; set it by hand`, 'spec.selector');
    else if (isObj(labels) && Object.keys(labels).length) ed.insertKey([...at, 'spec'], 'selector', { matchLabels: labels });
    else s.note('spec.selector is required in apps/v1 and the pod template has no labels to derive it from', 'spec.selector');
  }
  if (want) ok = ensure(ed, [...at, 'spec'], spec, want, 'here') && ok;
  if (!ok) s.note(`could not write the ${s.from} defaults (${JSON.stringify(want)}) that apps/v1 changes; set them by hand`, 'spec');
  // Not served by apps/v1: rollbackTo was a one-off request (kubectl rollout undo replaces it), templateGeneration
  // was superseded by the controller-revision-hash label the apps/v1 controller keeps.
  if ('rollbackTo' in spec) ed.deleteKey([...at, 'spec', 'rollbackTo']);
  if ('templateGeneration' in spec) ed.deleteKey([...at, 'spec', 'templateGeneration']);
}

/** rbac v1alpha1 Subject.apiVersion ("rbac.authorization.k8s.io/v1alpha1", "v1") -> v1 Subject.apiGroup ("rbac.authorization.k8s.io", ""). */
function rbacSubjectsToV1(s: Step): void {
  const subjects = Array.isArray(s.obj.subjects) ? s.obj.subjects : [];
  subjects.forEach((sub: unknown, i: number) => {
    if (!isObj(sub) || !('apiVersion' in sub)) return;
    const p = [...s.at, 'subjects', i, 'apiVersion'];
    const v = String(sub.apiVersion ?? '');
    const group = groupOf(v);
    if ('apiGroup' in sub) {
      if (String(sub.apiGroup ?? '') !== group) s.note(`subjects[${i}] has both apiVersion ${v} and apiGroup ${sub.apiGroup}; keep the one you mean as apiGroup`, `subjects[${i}]`);
      else s.ed.deleteKey(p);
    } else if (!(s.ed.replaceValue(p, group) && s.ed.renameKey(p, 'apiGroup'))) s.note(`could not rewrite subjects[${i}].apiVersion as apiGroup`, `subjects[${i}]`);
  });
}

function hpaV2beta1ToV2(s: Step): void {
  const { ed, at, spec } = s;
  if (!spec || !Array.isArray(spec.metrics)) return;
  spec.metrics.forEach((m: unknown, i: number) => {
    if (!isObj(m)) return;
    const converted = hpaMetricV2(m);
    if (converted) ed.replaceValue([...at, 'spec', 'metrics', i], converted);
    else s.note(`spec.metrics[${i}] (type ${m.type}) has no known v2 form; convert it by hand`, `spec.metrics[${i}]`);
  });
}

/**
 * autoscaling/v1 has only targetCPUUtilizationPercentage: a single cpu Utilization metric maps to it, no metrics
 * means the same 80% cpu default in every version, and anything else (other metrics, spec.behavior) cannot be said.
 */
function hpaToV1(s: Step): void {
  const { ed, at, spec, from } = s;
  if (!spec) return;
  if ('behavior' in spec) s.note(`spec.behavior has no autoscaling/v1 form (v1 scales with the default behaviour); keep ${from} or drop it by hand`, 'spec.behavior');
  if (!('metrics' in spec) || spec.metrics == null) return;
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : undefined;
  const cpu = metrics?.length === 1 ? cpuUtilization(metrics[0], from) : undefined;
  if (cpu !== undefined && !('targetCPUUtilizationPercentage' in spec)) {
    if (!ed.replaceEntry([...at, 'spec', 'metrics'], 'targetCPUUtilizationPercentage', cpu)) s.note('could not rewrite spec.metrics', 'spec.metrics');
    return;
  }
  const what = !metrics ? 'spec.metrics is not a list'
    : metrics.length === 0 ? 'spec.metrics is empty (no metric at all; autoscaling/v1 would scale on 80% cpu)'
    : `spec.metrics${metrics.length > 1 ? ` has ${metrics.length} metrics` : `[0] is ${describeMetric(metrics[0])}`}; autoscaling/v1 can only say one cpu utilization target (targetCPUUtilizationPercentage)`;
  s.note(`${what}; use autoscaling/v2 where the window serves it, or convert by hand`, 'spec.metrics');
}

function cpuUtilization(m: unknown, from: string): number | undefined {
  if (!isObj(m) || m.type !== 'Resource' || !isObj(m.resource) || m.resource.name !== 'cpu') return undefined;
  const r = m.resource;
  const keys = Object.keys(r).sort().join(',');
  if (from === 'autoscaling/v2beta1') {
    return keys === 'name,targetAverageUtilization' && Number.isInteger(r.targetAverageUtilization) ? r.targetAverageUtilization : undefined;
  }
  const t = r.target;
  return keys === 'name,target' && isObj(t) && t.type === 'Utilization' && Object.keys(t).sort().join(',') === 'averageUtilization,type' && Number.isInteger(t.averageUtilization) ? t.averageUtilization : undefined;
}

function describeMetric(m: unknown): string {
  if (!isObj(m)) return 'not a metric';
  const src = isObj(m.resource) ? m.resource : undefined;
  return `a ${m.type ?? 'typeless'} metric${src?.name ? ` of ${src.name}` : ''}${m.type === 'Resource' && src?.name === 'cpu' ? ' that is not a utilization target' : ''}`;
}

function ingressBackend(b: Obj): Obj | undefined {
  if ('resource' in b) return undefined; // unchanged in v1
  if (!('serviceName' in b)) return undefined;
  const port = b.servicePort;
  const numeric = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  return { service: { name: b.serviceName, port: numeric ? { number: Number(port) } : { name: port } } };
}

function convertIngressSpec(s: Step, at: Path, spec: Obj): void {
  const { ed } = s;
  if (isObj(spec.backend)) {
    const nb = ingressBackend(spec.backend);
    if (nb) ed.replaceValue([...at, 'backend'], nb);
    ed.renameKey([...at, 'backend'], 'defaultBackend');
  }
  (Array.isArray(spec.rules) ? spec.rules : []).forEach((rule: unknown, ri: number) => {
    const paths = isObj(rule) && isObj(rule.http) && Array.isArray(rule.http.paths) ? rule.http.paths : [];
    paths.forEach((p: unknown, pi: number) => {
      if (!isObj(p)) return;
      const base = [...at, 'rules', ri, 'http', 'paths', pi];
      if (isObj(p.backend)) {
        const nb = ingressBackend(p.backend);
        if (nb) ed.replaceValue([...base, 'backend'], nb);
        else if (!('resource' in p.backend) && !('service' in p.backend)) s.note(`spec.rules[${ri}].http.paths[${pi}].backend has neither serviceName nor resource`, `spec.rules[${ri}].http.paths[${pi}].backend`);
      }
      // v1beta1 treated a missing pathType as ImplementationSpecific; v1 requires it.
      if (!('pathType' in p)) ed.insertKey(base, 'pathType', 'ImplementationSpecific');
    });
  });
}

/** autoscaling/v2beta1 metric -> autoscaling/v2 metric. */
export function hpaMetricV2(m: Obj): Obj | undefined {
  const target = (value: unknown, average: unknown, utilization?: unknown): Obj | undefined => {
    if (utilization !== undefined) return { type: 'Utilization', averageUtilization: utilization };
    // Upstream (pkg/apis/autoscaling/v2beta1/conversion.go, Object and External sources) keeps Value beside an
    // AverageValue target: a v2beta1 object with both is stored with both, so the fix writes both.
    if (average !== undefined) return { type: 'AverageValue', ...(value !== undefined ? { value } : {}), averageValue: average };
    if (value !== undefined) return { type: 'Value', value };
    return undefined;
  };
  const withSelector = (name: unknown, selector: unknown) => (selector !== undefined ? { name, selector } : { name });
  switch (m.type) {
    case 'Resource': {
      const r = m.resource ?? {};
      const t = target(undefined, r.targetAverageValue, r.targetAverageUtilization);
      return t && { type: 'Resource', resource: { name: r.name, target: t } };
    }
    case 'ContainerResource': {
      const r = m.containerResource ?? {};
      const t = target(undefined, r.targetAverageValue, r.targetAverageUtilization);
      return t && { type: 'ContainerResource', containerResource: { name: r.name, container: r.container, target: t } };
    }
    case 'Pods': {
      const p = m.pods ?? {};
      const t = target(undefined, p.targetAverageValue);
      return t && { type: 'Pods', pods: { metric: withSelector(p.metricName, p.selector), target: t } };
    }
    case 'Object': {
      const o = m.object ?? {};
      const t = target(o.targetValue, o.averageValue);
      return t && { type: 'Object', object: { describedObject: o.target, metric: withSelector(o.metricName, o.selector), target: t } };
    }
    case 'External': {
      const x = m.external ?? {};
      const t = target(x.targetValue, x.targetAverageValue);
      return t && { type: 'External', external: { metric: withSelector(x.metricName, x.metricSelector), target: t } };
    }
    default:
      return undefined;
  }
}
