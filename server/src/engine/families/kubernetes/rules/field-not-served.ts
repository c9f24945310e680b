import type { Rule } from '../../../rules/types';
import { shownSegments } from '../manifest-objects';
import type { KubernetesContext, ManifestObject } from '../index';
import { maskOf, minorNumber, walkServedEntries, pathSegments, pathText, componentReader, componentFieldTable, COMPONENT_UNKNOWN, covers } from '../data/fields';
import { range, listOf } from './common';

/** Before server-side field validation (GA in 1.25; kubectl's default from then on) an unknown field is dropped. */
const STRICT_FROM = 25;

/** "1.19", "1.15..1.21", "1.19..1.22, 1.24" from a mask of the table's minors. */
function minorsText(mask: number, first: number, n: number): string {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) if (mask & (1 << i)) ms.push(first + i);
  return listOf(ms);
}

/**
 * "served from 1.19", "served up to 1.21", "served in 1.18..1.21, 1.23": the minors that serve the field, said
 * against those that serve its apiVersion/kind (a field of networking.k8s.io/v1beta1 Ingress is "served from 1.18"
 * although the kind ends at 1.21).
 */
function servedText(served: number, kindServed: number, first: number, n: number): string {
  const lo = 31 - Math.clz32(served & -served);
  const hi = 31 - Math.clz32(served);
  const kindLo = 31 - Math.clz32(kindServed & -kindServed);
  const kindHi = 31 - Math.clz32(kindServed);
  const contiguous = served >>> lo === 2 ** (hi - lo + 1) - 1;
  if (contiguous && hi >= kindHi && lo > kindLo) return `served from 1.${first + lo}`;
  if (contiguous && lo <= kindLo && hi < kindHi) return `served up to 1.${first + hi}`;
  return `served in ${minorsText(served, first, n)}`;
}

/** A component configuration value some step of the window does not know yet (kube-proxy `mode: nftables` before 1.29). */
function valuesNotKnown(ctx: KubernetesContext, o: ManifestObject, steps: number[], kindServed: number, first: number, report: Parameters<Rule<KubernetesContext>['check']>[1]): void {
  for (const f of componentFieldTable().values ?? []) {
    if (f.apiVersion !== o.apiVersion || f.kind !== o.kind) continue;
    let v: unknown = o.value;
    for (const k of f.path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
    if (typeof v !== 'string' || v.trim().toLowerCase() !== f.value.toLowerCase()) continue;
    const before = steps.filter((m) => m < f.from && kindServed & (1 << (m - first)));
    if (!before.length) continue;
    const reader = componentReader(o.apiVersion, o.kind) ?? 'the component';
    const shown = f.path.join('.');
    const loc = o.doc.locate([...o.at, ...f.path]);
    report({
      message: `${reader} ${listOf(before)} ${before.length > 1 ? 'do' : 'does'} not know ${shown}: ${f.value} (${f.change}): it is not a valid ${shown} there`,
      range: loc.value ?? loc.key,
      data: { path: shown, value: f.value, notServedAt: before.map((m) => `1.${m}`), from: `1.${f.from}`, window: range(ctx.minors) },
    });
  }
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/field-not-served',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Field not served at some step of the window',
  what: 'Reports, at its key, a field of a built-in kind that the OpenAPI document of some Kubernetes version of the window '
    + 'does not have for that apiVersion/kind, while another version does (e.g. `spec.ingressClassName` of an Ingress at 1.18, '
    + '`spec.template.spec.os` at 1.22). It says which steps lack it and which versions serve it. Free-form maps (labels, '
    + 'annotations, `data`) and free-form JSON accept any key; `status` is not checked (the API server ignores it in what is '
    + 'applied); a field no version knows is left to the unknown-field check. Steps the field table cannot vouch for (a source '
    + 'that leaves a part out, e.g. status at 1.31) are not judged: where they are the only steps lacking the field, it says so as '
    + 'information. A minor given the user\'s own OpenAPI document (kubernetes.openapi) is judged from that document\'s definitions. Component configuration files (kubeadm, kubelet, kube-proxy, kube-scheduler, the '
    + 'kube-apiserver\'s configuration files, audit Policy) are checked against their own table, which has a source at every '
    + 'minor 1.16 … 1.37 (`failCgroupV1` before 1.31, kube-proxy\'s `nftables` section before 1.29), and so is a value a '
    + 'component knows only from some minor (kube-proxy `mode: nftables`, from 1.29). A KubeSchedulerConfiguration\'s '
    + '`profiles[].pluginConfig[].args` are checked as the Args kind of their plugin (v1beta1 `NodeResourcesFitArgs` '
    + '`scoringStrategy`, from 1.22).',
  why: 'Before server-side field validation (1.25, and even then only with strict validation) the API server drops a field it '
    + 'does not know without a word: the object is created without what the manifest says, and nothing fails until the '
    + 'cluster behaves differently — typically right after a rollback, or on the old control plane during an upgrade.',
  bad: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  ingressClassName: nginx\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.17..1.19' },
  good: { filename: 'ingress.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n  annotations:\n    kubernetes.io/ingress.class: nginx\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n', options: 'Kubernetes 1.17..1.19' },
  fix: 'none',
  sources: [
    'data/kubernetes/fields/fields.json: the fields of each Kubernetes minor\'s OpenAPI document, read from @kubernetes/client-node, kubernetes-types, cdk8s-plus-23/-31 and kubernetes-models (the package of each minor is cited there)',
    'Kubernetes API conventions: unknown fields are dropped unless field validation is strict (server-side field validation, GA in 1.25)',
    'data/kubernetes/fields/component-config.json: the component configuration fields per minor and the values known from a minor (scripts/import-k8s-component-fields.mjs)',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const n = t.last - t.first + 1;
    const windowMinors = ctx.minors.map(minorNumber).filter((m) => covers(t, m));
    const win = maskOf(windowMinors, t);
    if (!win) return;
    for (const o of ctx.fieldObjects()) {
      const walk = ctx.fieldWalk(o);
      if (!walk) continue;
      if (walk.root.component) valuesNotKnown(ctx, o, windowMinors, walk.root.kindServed, t.first, report);
      walkServedEntries(walk.entries, walk.root, win, (key, c, alive, at) => {
        const missing = alive & ~c.served;
        const definite = missing & ~c.unknown;
        const unsure = missing & c.unknown;
        if (!definite && !unsure) return;
        const segs = pathSegments({ up: at, seg: key });
        const rel = shownSegments(o, segs);
        const shown = pathText(rel);
        const stepsIn = (mask: number) => windowMinors.filter((m) => mask & (1 << (m - t.first)));
        const served = servedText(c.served, c.kindServed, t.first, n);
        const why = (m: number) => `1.${m} (its source leaves this out)`;
        const notJudged = stepsIn(unsure).map(why).join(', ');
        const loc = o.doc.locate(segs);
        const data = { path: shown, notServedAt: stepsIn(definite).map((m) => `1.${m}`), notJudgedAt: stepsIn(unsure).map((m) => `1.${m}`), servedIn: minorsText(c.served, t.first, n), window: range(ctx.minors) };
        if (definite) {
          const steps = minorsText(definite, t.first, n);
          const count = stepsIn(definite).length;
          const strict = stepsIn(definite).some((m) => m >= STRICT_FROM);
          const reader = componentReader(o.apiVersion, o.kind);
          const verb = reader
            ? `${reader} ${steps} ${count > 1 ? 'do' : 'does'} not know ${shown} (${COMPONENT_UNKNOWN})`
            : strict
            ? `${steps} ${count > 1 ? 'do' : 'does'} not serve ${shown} (dropped, or refused where field validation is strict)`
            : `${steps} ${count > 1 ? 'drop' : 'drops'} ${shown} silently`;
          // A step judged from the user's OpenAPI document: said, with the document.
          const fromDocument = stepsIn(definite).filter((m) => t.documents?.[String(m)]).map((m) => `1.${m} judged from ${t.documents![String(m)]}`);
          const notes = [...fromDocument, ...(notJudged ? [`not judged at ${notJudged}`] : [])];
          report({ message: `${verb}; ${reader ? served.replace(/^served/, 'known') : served}${notes.length ? `; ${notes.join('; ')}` : ''}`, range: loc.key ?? loc.value, data });
        } else {
          // Only steps the table cannot vouch for: said, as information, instead of passing in silence.
          report({
            message: `not known whether ${notJudged} ${stepsIn(unsure).length > 1 ? 'serve' : 'serves'} ${shown}; ${served}`,
            range: loc.key ?? loc.value,
            severity: 'info',
            data,
          });
        }
      });
    }
  },
};
