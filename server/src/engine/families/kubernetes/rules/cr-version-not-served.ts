import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { YamlEditor } from '../../../parse/yaml-edit';
import { bestServed, groupVersion, mayBeCustomGroup } from '../crds';
import { crdName, servedList } from './cr-common';
import { fluxSteps } from './flux';
import { operatorObjects } from '../operators';
import { bundledTargets } from '../operator-schema';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/cr-version-not-served',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Custom resource at a version its CRD does not serve',
  what: 'Reports, at its apiVersion, a custom resource (an object whose group and kind a `CustomResourceDefinition` of the workspace '
    + 'defines: any file of the workspace that the `ignore:` lists do not leave out, a Helm chart\'s `crds/` folder, a packaged chart '
    + 'dependency (`charts/*.tgz`), the analysed file itself, or a file `kubernetes.crds` in `.skewguard.yaml` names) whose version the CRD does not list or lists with `served: false`, naming the versions it serves. '
    + 'The fix changes the apiVersion to the best served version (partial: the fields are not converted). A CRD of the analysed file '
    + 'wins over one elsewhere; among the workspace\'s, the first by path. Where a workspace CRD and the built-in lifecycle rows '
    + '(Flux on a StarlingX path, CRD-provided groups such as snapshot.storage.k8s.io) or the bundled operator data (k8s/operator-*: '
    + 'cert-manager, External Secrets, Kyverno, Traefik …) both know the group/kind, the workspace CRD wins: it is what the cluster installs. Groups the API server serves itself (those of the field table) are never custom resources. '
    + 'Where no CRD read defines a custom group/kind and some files that may hold CRDs were not read (too big, unparsable, the '
    + 'workspace walk cut short, a `charts/*.tgz` that cannot be read), an information at its apiVersion says so, naming them; '
    + 'where every file was read, it says so for a group/kind nothing else checks (no CRD, no operator or component data). '
    + 'Custom resources a Helm chart\'s templates render are checked by this rule and the other k8s/cr-* rules too, at the template\'s '
    + 'position (a value from `values.yaml` at the action that prints it, a define\'s output at the include).',
  why: 'The API server serves a custom resource only at the versions its CRD marks `served: true`: applying the object fails '
    + '("no matches for kind"), and a Helm upgrade or a Flux reconciliation that carries it stops, once this CRD is installed.',
  bad: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: false\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n---\napiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n', options: 'Kubernetes 1.30' },
  good: { filename: 'crontab.yaml', text: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: crontabs.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Namespaced\n  names: {plural: crontabs, singular: crontab, kind: CronTab}\n  versions:\n  - name: v1beta1\n    served: false\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n', options: 'Kubernetes 1.30' },
  fix: 'partial',
  sources: [
    'kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go (CustomResourceDefinitionVersion: served, storage, deprecated, deprecationWarning)',
    'Kubernetes docs: Versions in CustomResourceDefinitions (served versions; a version that is not served is not available over REST)',
  ],
  check(ctx, report) {
    for (const { o, c } of ctx.customResources()) {
      if (c.version?.served) continue;
      const best = bestServed(c.crd) ?? c.crd.versions.filter((v) => v.served).map((v) => v.name)[0];
      const why = c.version ? 'lists it with served: false' : 'does not list it';
      report({
        message: `${o.apiVersion} ${o.kind}: ${crdName(c.crd)} ${why}; it serves ${servedList(c.crd)}, so the API server refuses this object`,
        range: o.apiVersionRange,
        fixes: best ? () => {
          const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
          ed.setScalar([...o.at, 'apiVersion'], `${c.crd.group}/${best}`);
          return [{ title: `Change apiVersion to ${c.crd.group}/${best} — partial: check the fields against the CRD's ${best} schema`, edits: ed.edits, partial: true, preferred: false, destructive: ed.destructive }];
        } : [],
        data: { crd: c.crd.name, crdFile: c.crd.file, version: c.versionName, served: c.crd.versions.filter((v) => v.served).map((v) => v.name) },
      });
    }
    // A custom group/kind no CRD read defines (and no lifecycle row knows), where some CRD files were not read: its CRD
    // may be among them. Said once per group/kind of the file, instead of passing as a resource nothing defines. Where
    // every file was read, it is said for a group/kind nothing else checks either (no operator or component data, no
    // Flux steps): such a file would otherwise read as checked and clean.
    const said = new Set<string>();
    for (const o of ctx.objects) {
      if (!o.apiVersion.includes('.') || ctx.crdFor(o) || ctx.row(o)) continue;
      const { group } = groupVersion(o.apiVersion);
      if (said.has(`${group}/${o.kind}`) || !mayBeCustomGroup(group) || /List$/.test(o.kind)) continue;
      const notRead = ctx.crdFacts()?.notRead ?? [];
      said.add(`${group}/${o.kind}`);
      // A version the built-in data knows (Flux on a StarlingX path, a component's rows) is checked there; its fields are not.
      const ofOperator = operatorObjects(ctx).find((x) => x.o === o);
      const op = ofOperator?.window ? ofOperator : undefined;
      const bundled = bundledTargets(ctx).find((t) => t.o === o);
      if (!notRead.length) {
        if (fluxSteps(ctx, o) || bundled || ctx.componentRow(o) || ofOperator) continue;
        report({
          message: `${o.apiVersion} ${o.kind}: no CustomResourceDefinition in the workspace defines ${group}/${o.kind} and skewguard has no data for ${group}, so its version and fields are not checked; `
            + 'add its CRD to the workspace (a chart\'s crds/, a vendored bundle, kubectl get crd -o yaml) or name its file in kubernetes.crds',
          range: o.apiVersionRange,
          severity: 'info',
          data: { group, kind: o.kind, crdsNotRead: [] },
        });
        continue;
      }
      const known = fluxSteps(ctx, o) ? 'its fields are not checked (its version is, against the Flux CRDs of the StarlingX releases)'
        : bundled ? `it is checked against the bundled data of ${bundled.op}${op ? ` ${op.window!.text}` : ' (its fields against every release: no version of it is known)'} instead`
        : op ? `its fields are not checked (its version is, against the bundled data of ${op.operator} ${op.window!.text})`
        : ctx.componentRow(o)?.status ? 'its fields are not checked (its version is, against the built-in lifecycle data)' : 'its version and fields are not checked';
      report({
        message: `${o.apiVersion} ${o.kind}: no CustomResourceDefinition read defines ${group}/${o.kind}, so ${known}; not read: ${notRead.join('; ')}`,
        range: o.apiVersionRange,
        severity: 'info',
        data: { group, kind: o.kind, crdsNotRead: notRead },
      });
    }
  },
};
