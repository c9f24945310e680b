// Known conversions between Kubernetes API versions, as minimal text edits. Each returns whether the
// conversion is complete; an incomplete one says what is left for a person to do.
import { YamlEditor } from '../parse/yaml-edit';

type Path = Array<string | number>;
type Obj = Record<string, any>;

export interface Conversion { complete: boolean; notes: string[] }

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Converts the object at `at` (the document root, or a List item) to `target`, adding its edits to `ed`.
 * Returns undefined when no known conversion applies (the caller then offers an apiVersion-only change as partial).
 */
export function convert(ed: YamlEditor, at: Path, obj: Obj, target: string): Conversion | undefined {
  const from = String(obj.apiVersion), kind = String(obj.kind);
  const notes: string[] = [];
  ed.setScalar([...at, 'apiVersion'], target);
  const spec = isObj(obj.spec) ? obj.spec : undefined;

  if (kind === 'Ingress' && target === 'networking.k8s.io/v1' && /^(extensions|networking\.k8s\.io)\/v1beta1$/.test(from)) {
    if (spec) convertIngressSpec(ed, [...at, 'spec'], spec, notes);
    return { complete: notes.length === 0, notes };
  }
  if (kind === 'IngressClass' && target === 'networking.k8s.io/v1') return { complete: true, notes };
  if (kind === 'CronJob' && target === 'batch/v1' && from === 'batch/v1beta1') return { complete: true, notes };
  if (kind === 'PodDisruptionBudget' && target === 'policy/v1' && from === 'policy/v1beta1') {
    if (spec && isObj(spec.selector) && Object.keys(spec.selector).length === 0) {
      notes.push('spec.selector is {}: policy/v1beta1 selected no pods with it, policy/v1 selects every pod in the namespace; set the selector you mean');
    }
    return { complete: notes.length === 0, notes };
  }
  if (kind === 'HorizontalPodAutoscaler' && target === 'autoscaling/v2') {
    if (from === 'autoscaling/v2beta2') return { complete: true, notes };
    if (from === 'autoscaling/v2beta1') {
      if (spec && Array.isArray(spec.metrics)) {
        spec.metrics.forEach((m: unknown, i: number) => {
          if (!isObj(m)) return;
          const converted = hpaMetricV2(m);
          if (converted) ed.replaceValue([...at, 'spec', 'metrics', i], converted);
          else notes.push(`spec.metrics[${i}] (type ${m.type}) has no known v2 form; convert it by hand`);
        });
      }
      return { complete: notes.length === 0, notes };
    }
  }
  if (['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'].includes(kind) && target === 'apps/v1' && /^(extensions\/v1beta1|apps\/v1beta1|apps\/v1beta2)$/.test(from)) {
    if (spec) {
      const labels = spec.template?.metadata?.labels;
      if (!spec.selector) {
        // Before apps/v1 the selector defaulted to the pod template's labels; apps/v1 requires it.
        if (isObj(labels) && Object.keys(labels).length) ed.insertKey([...at, 'spec'], 'selector', { matchLabels: labels });
        else notes.push('spec.selector is required in apps/v1 and the pod template has no labels to derive it from');
      }
      if ('rollbackTo' in spec) ed.deleteKey([...at, 'spec', 'rollbackTo']);
      if ('templateGeneration' in spec) ed.deleteKey([...at, 'spec', 'templateGeneration']);
      // Keep the old default update strategies, which apps/v1 changed to RollingUpdate.
      if (kind === 'DaemonSet' && from === 'extensions/v1beta1' && !spec.updateStrategy) ed.insertKey([...at, 'spec'], 'updateStrategy', { type: 'OnDelete' });
      if (kind === 'StatefulSet' && from === 'apps/v1beta1' && !spec.updateStrategy) ed.insertKey([...at, 'spec'], 'updateStrategy', { type: 'OnDelete' });
    } else {
      notes.push('spec is missing');
    }
    return { complete: notes.length === 0, notes };
  }
  return undefined;
}

function ingressBackend(b: Obj): Obj | undefined {
  if ('resource' in b) return undefined; // unchanged in v1
  if (!('serviceName' in b)) return undefined;
  const port = b.servicePort;
  const numeric = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  return { service: { name: b.serviceName, port: numeric ? { number: Number(port) } : { name: port } } };
}

function convertIngressSpec(ed: YamlEditor, at: Path, spec: Obj, notes: string[]): void {
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
        else if (!('resource' in p.backend) && !('service' in p.backend)) notes.push(`spec.rules[${ri}].http.paths[${pi}].backend has neither serviceName nor resource`);
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
    if (average !== undefined) return { type: 'AverageValue', averageValue: average };
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
