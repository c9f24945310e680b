import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { YamlEditor } from '../../../parse/yaml-edit';
import { operatorObjects, windowSaid, replacementOf, servedThroughout, span, curatedOf, releaseIndex, type OperatorObject } from '../operators';
import type { ReleaseStatus } from '../../../components/operator-data';

const why = (x: OperatorObject, s: ReleaseStatus): string =>
  !s.crd ? `does not ship the ${x.crdKey} CRD` : !s.present ? `no longer lists ${x.version} in its ${x.o.kind} CRD` : `lists ${x.version} with served: false`;

const list = (xs: string[]) => (xs.length > 3 ? `${xs[0]}, ${xs[1]} … ${xs[xs.length - 1]}` : xs.join(', '));

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/operator-api-not-served',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Operator custom resource at a version some release of the operator\'s window does not serve',
  what: 'Reports, at its apiVersion, a custom resource of one of the 14 operators of the bundled data (cert-manager, '
    + 'external-secrets, prometheus-operator, argo-cd, kyverno, istio, traefik, keda, velero, cilium, tekton-pipelines, '
    + 'crossplane, knative-serving, argo-rollouts: their CRDs read at every minor release) whose group/version some release of '
    + 'the operator\'s window does not serve: the CRD lists it with `served: false`, no longer lists it, or the release does not '
    + 'ship that CRD (yet, or any more). It names the release where it stops (or the first that serves it), the version to '
    + 'move to, and the window with where it came from. The window is `kubernetes.components.<operator>` (one release '
    + '"0.17" or a window "0.16..0.17"; `--component-versions`, editor settings), else the versions the workspace pins. '
    + 'A version served only by the optional CRD set (prometheus-operator\'s `example/prometheus-operator-crd-full`, '
    + 'AlertmanagerConfig v1beta1) is said as an information, not an error. Without a window nothing is claimed: an '
    + 'information at the first such resource of a file says that its operator\'s version is unknown and how to give it. '
    + 'A `CustomResourceDefinition` of the same group/kind in the workspace wins over the bundled data (k8s/cr-* rules). '
    + 'The quick fix changes only the apiVersion, and is offered only where the data says the two versions share one schema '
    + '(External Secrets v1beta1 → v1) and the target is served at every step of the window.',
  why: 'An operator upgrade installs its new CRDs: a version they stop serving makes every apply of the object fail ("no '
    + 'matches for kind"), and a Helm upgrade, Flux or Argo CD sync carrying it stops. Renovate bumps of operator charts '
    + 'break services this way (External Secrets 0.17 and v1beta1, Traefik 3.0 and traefik.containo.us).',
  bad: { filename: 'secret.yaml', text: 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: db\nspec:\n  refreshInterval: 1h\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target: {name: db}\n', options: 'component external-secrets=0.16..0.17' },
  good: { filename: 'secret.yaml', text: 'apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: db\nspec:\n  refreshInterval: 1h\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target: {name: db}\n', options: 'component external-secrets=0.16..0.17' },
  fix: 'complete',
  sources: [
    'data/operators/lifecycle.json (scripts/import-operators.mjs from the operators\' CRDs at each release tag: versions[].served, the CRD files read per release)',
    'external-secrets/external-secrets deploy/crds/bundle.yaml v0.17.0 (v1beta1 served: false)',
    'cert-manager/cert-manager PR #4482 (v1.6.0: every non-v1 CRD version served: false)',
    'traefik/traefik docs/content/migration/v2-to-v3-details.md at v3.0.4 (traefik.containo.us removed)',
  ],
  check(ctx, report) {
    const unknownSaid = new Set<string>();
    for (const x of operatorObjects(ctx)) {
      const { o } = x;
      if (!x.window) {
        if (unknownSaid.has(x.operator)) continue;
        unknownSaid.add(x.operator);
        report({
          message: `${o.apiVersion} ${o.kind} is a custom resource of ${x.operator}, and no ${x.operator} version is known, so whether its releases serve it is not checked: `
            + `set kubernetes.components.${x.operator} in .skewguard.yaml (one release "${x.data.releases.filter((r) => !r.prerelease).at(-1)!.id}" or a window "A..B") or --component-versions ${x.operator}=…`,
          range: o.apiVersionRange,
          severity: 'info',
          data: { operator: x.operator, apiVersion: o.apiVersion, kind: o.kind, window: null },
        });
        continue;
      }
      const bad = x.steps.filter((s) => !s.served);
      const alt = x.steps.filter((s) => s.served && s.altOnly);
      const { first, last } = span(x);
      if (bad.length) {
        const li = last ? releaseIndex(x, last) : -1, fi = first ? releaseIndex(x, first) : -1;
        const after = bad.filter((s) => li >= 0 && releaseIndex(x, s.release) > li);
        const before = bad.filter((s) => fi >= 0 && releaseIndex(x, s.release) < fi);
        const stop = after[0];
        const repl = replacementOf(x, stop?.release ?? bad[0].release);
        const movable = repl?.apiVersion && repl.apiVersion !== o.apiVersion && servedThroughout(x, repl.apiVersion);
        const parts: string[] = [];
        if (!first) parts.push(`no release of ${x.operator} read (${x.data.releases[0].id}..${x.data.releases.at(-1)!.id}) serves ${o.apiVersion} ${o.kind}`);
        if (stop) parts.push(`${x.operator} ${stop.release} ${why(x, stop)} (last served in ${last})${after.length > 1 ? `, nor do ${list(after.slice(1).map((s) => s.release))}` : ''}`);
        if (before.length) parts.push(`${x.operator} ${list(before.map((s) => s.release))} ${before.length > 1 ? 'do' : 'does'} not serve it yet (first served in ${first})`);
        const gaps = bad.filter((s) => !after.includes(s) && !before.includes(s) && first);
        if (gaps.length) parts.push(`${x.operator} ${list(gaps.map((s) => s.release))} ${gaps.length > 1 ? 'do' : 'does'} not serve it`);
        const to = repl ? `; move to ${repl.text}${movable ? `, served at every release of the window` : ''}` : '';
        const curated = curatedOf(x).find((c) => c.apiVersionOnly && repl?.apiVersion && c.replacement?.startsWith(repl.apiVersion));
        report({
          message: `${o.apiVersion} ${o.kind}: ${parts.join('; ')}${to} (${windowSaid(x)})`,
          range: o.apiVersionRange,
          fixes: curated && movable ? () => {
            const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
            ed.setScalar([...o.at, 'apiVersion'], repl!.apiVersion!);
            return [{ title: `Change apiVersion to ${repl!.apiVersion} (the same schema: ${curated.note ?? curated.source})`, edits: ed.edits, preferred: true, destructive: ed.destructive }];
          } : [],
          data: {
            operator: x.operator, window: x.window.text, windowSource: x.window.source, notServedAt: bad.map((s) => s.release),
            firstServed: first ?? null, lastServed: last ?? null, replacement: repl?.text ?? null, source: x.data.crds[x.crdKey]?.source,
          },
        });
      } else if (alt.length) {
        report({
          message: `${o.apiVersion} ${o.kind}: at ${x.operator} ${list(alt.map((s) => s.release))} only the optional CRD set serves ${x.version} (the default CRDs do not): `
            + `it works only where those CRDs (and the conversion webhook they need) are installed (${windowSaid(x)})`,
          range: o.apiVersionRange,
          severity: 'info',
          data: { operator: x.operator, window: x.window.text, altOnlyAt: alt.map((s) => s.release), source: x.data.crds[x.crdKey]?.source },
        });
      }
    }
  },
};
