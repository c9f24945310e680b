import type { Rule, FindingFix } from '../../../rules/types';
import type { KubernetesContext, ManifestObject } from '../index';
import { componentReader, minorNumber, type FieldTable } from '../data/fields';
import { kindIndex } from './component-config-kind';
import { findRow } from '../data/lifecycle';
import { splitApiVersion } from '../data/api-version';
import { YamlEditor } from '../../../parse/yaml-edit';
import { didYouMean } from '../../../text';
import { listOf, servedAcrossWindow } from './common';
import { formatList } from '../../../versions';
import { loadJson } from '../../../data';

/**
 * What the built-in groups hold at any minor of the data: group -> version -> kinds. From the field table (one upstream
 * source per minor: the kinds kube-apiserver and the component configuration files have), the lifecycle rows and the
 * stable kinds the table has no model for (v1 ComponentStatus). A group is built in when the field table has it.
 */
interface Known { groups: Map<string, Map<string, Set<string>>> }
const knownOf = new WeakMap<FieldTable, WeakMap<object, Known>>();

function known(ctx: KubernetesContext): Known {
  const byRows = knownOf.get(ctx.fields) ?? knownOf.set(ctx.fields, new WeakMap()).get(ctx.fields)!;
  let k = byRows.get(ctx.rows);
  if (k) return k;
  const groups = new Map<string, Map<string, Set<string>>>();
  const add = (apiVersion: string, kind: string, builtIn: boolean) => {
    const { group, version } = splitApiVersion(apiVersion);
    let versions = groups.get(group);
    if (!versions) {
      if (!builtIn) return;
      groups.set(group, (versions = new Map()));
    }
    const kinds = versions.get(version) ?? versions.set(version, new Set()).get(version)!;
    if (kind) kinds.add(kind);
  };
  for (const key of Object.keys(ctx.fields.kinds)) { const sp = key.indexOf(' '); add(key.slice(0, sp), key.slice(sp + 1), true); }
  for (const r of ctx.rows) add(r.apiVersion, r.kind, false);
  for (const r of loadJson<{ rows: Array<{ apiVersion: string; kind: string }> }>('data/kubernetes/served-stable.json').rows) add(r.apiVersion, r.kind, false);
  k = { groups };
  byRows.set(ctx.rows, k);
  return k;
}

/** The kubeconfig format (`apiVersion: v1`, `kind: Config`): read by clients, never served, not a typo. */
const CLIENT_ONLY = new Set(['v1 Config']);

const groupName = (g: string) => (g === '' ? 'the core group' : `the group ${g}`);

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/unknown-api',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'apiVersion or kind that no Kubernetes release serves',
  what: 'Reports an object of a built-in API group (the core group, apps, batch, networking.k8s.io … — the groups of the '
    + 'field table, data/kubernetes/fields/fields.json) whose apiVersion or kind no Kubernetes release of the data serves: a '
    + 'version the group never had (`networking.k8s.io/v1beta2`), a kind the group never had (`apps/v1` `Deploymnet`, with the '
    + 'nearest kind of that apiVersion), a kind under another group (`apps/v1` `Ingress`), and a group without a dot that is '
    + 'no built-in group but near one (`app/v1`: a CustomResourceDefinition\'s group always has a dot; other tools\' dotless '
    + 'groups such as `skaffold/v4beta11` are left alone). A core-group (`v1`) kind is said only when it is near a core kind '
    + '(`Confmap`): OpenShift serves legacy kinds of its own there (`Template`, `DeploymentConfig`). Where the kind is served, it names '
    + 'the apiVersion served across the window and offers it as a fix. Kinds of a CRD in the workspace, of the lifecycle data '
    + '(removed and component APIs) and the kubeconfig format (`v1` `Config`) are left alone, as are `…List` kinds and a '
    + 'component configuration kind under another component\'s group (k8s/component-config-kind). '
    + 'Judged at the steps inside the data (1.15 or later): steps before it are named as not judged, a window wholly before it '
    + 'gets an info that the object is not checked there; past its end (k8s/window-past-data), as a warning, since a newer '
    + 'release may add the kind.',
  why: 'The API server refuses the object ("no matches for kind … in version …"), so nothing in it is applied. Every other '
    + 'rule is silent on an apiVersion/kind it has no data for: without this one a misspelt kind would pass as checked.',
  bad: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: web\n', options: 'Kubernetes 1.29..1.31' },
  good: { filename: 'deploy.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', options: 'Kubernetes 1.29..1.31' },
  fix: 'suggestion',
  sources: [
    'data/kubernetes/fields/fields.json: the apiVersion/kinds of every minor (one upstream source per minor, scripts/import-k8s-fields.mjs)',
    'data/kubernetes/api-lifecycle.json and data/kubernetes/served-stable.json: kinds with a lifecycle row, stable kinds the table has no model for',
  ],
  check(ctx, say0) {
    const t = ctx.fields;
    const steps = ctx.minors.map(minorNumber).filter((m) => Number.isFinite(m));
    if (!steps.length) return;
    const past = steps[steps.length - 1] > t.last;
    const span = `from 1.${t.first} to 1.${t.last}`;
    // Steps before the data: a kind served only before 1.15 and without a lifecycle row is not known there. The steps
    // inside the data are judged all the same (a kind none of them serves is refused at each of them); a window wholly
    // before the data is not judged, and that is said (info) rather than passed over.
    const before = steps.filter((m) => m < t.first);
    const beforeOnly = before.length === steps.length;
    const report = beforeOnly
      ? (f: Parameters<typeof say0>[0]) => {
        const d = f.data as { apiVersion: string; kind: string; reason: string };
        say0({
          message: `${d.apiVersion} ${d.kind} not checked at ${listOf(steps)}: no Kubernetes release ${span} serves it, and the data `
            + `on built-in kinds does not reach back to ${listOf(steps)} (a kind served only before 1.${t.first} is not known)`,
          range: f.range, severity: 'info', data: { ...d, reason: 'before-data', judged: d.reason },
        });
      }
      : say0;
    const k = known(ctx);
    const said = new Map<string, ((o: ManifestObject) => void) | null>();
    for (const o of ctx.objects) {
      const id = `${o.apiVersion} ${o.kind}`;
      let say = said.get(id);
      if (say === undefined) said.set(id, (say = verdict(o)));
      if (say && !ctx.crdFor(o)) say(o);
    }

    function verdict(o0: ManifestObject): ((o: ManifestObject) => void) | null {
      const { apiVersion, kind } = o0;
      if (!apiVersion || !kind || /List$/.test(kind) || CLIENT_ONLY.has(`${apiVersion} ${kind}`)) return null;
      if (t.kinds[`${apiVersion} ${kind}`] || findRow(ctx.rows, apiVersion, kind)) return null;
      const { group, version } = splitApiVersion(apiVersion);
      // A component configuration kind (component-config-kind.ts's index): under another component configuration group
      // or a *.k8s.io group it is that rule's finding (the same test as its own); under its own group, or any other
      // built-in group (apps/v1 KubeletConfiguration), it is said here.
      const index = kindIndex();
      const homes = index.byKind.get(kind);
      if (homes && !homes.some((h) => splitApiVersion(h.apiVersion).group === group) && (index.groups.has(group) || group.endsWith('.k8s.io'))) return null;
      const versions = k.groups.get(group);
      // Not a built-in group, with a dot: a CRD's or an aggregated API's, nothing is known of it here. Said before any
      // lookup by kind: a bundle of a thousand CRDs has a thousand kinds, each a memo entry of ctx.common otherwise.
      if (!versions && group.includes('.')) return null;
      if (versions?.get(version)?.has(kind)) return null; // a stable kind the table has no model for (v1 ComponentStatus)
      const caveat = past ? ` (the data ends at 1.${t.last}: a newer release may add it)`
        : before.length ? ` at ${listOf(steps.filter((m) => m >= t.first))} (${listOf(before)} ${before.length > 1 ? 'come' : 'comes'} before the data and ${before.length > 1 ? 'are' : 'is'} not judged)` : '';
      const severity = past ? 'warning' as const : undefined;
      // Who refuses it: a component configuration kind's component (the kubelet …), else the API server.
      const reader = homes ? componentReader(homes[0].apiVersion, kind) : undefined;
      const refuser = reader ?? 'the API server';
      const verb = reader ? `read by ${reader}` : 'served';
      // Where the kind is served: across the window first, else anywhere in it.
      const served = ctx.common(kind);
      const somewhere = served.length ? served : ctx.servedSomewhere(kind);
      const use = served.length ? `; use ${served[0]}, ${reader ? `${verb} across the whole window` : servedAcrossWindow(ctx, served[0], kind)}` : somewhere.length ? `; ${kind} is ${verb} as ${formatList(somewhere, 'or')} in the window` : '';
      const fixTo = (o: ManifestObject): FindingFix[] => {
        if (!served.length) return [];
        const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
        return ed.setScalar([...o.at, 'apiVersion'], served[0]) ? [{ title: `Change apiVersion to ${served[0]}`, edits: ed.edits, preferred: false, destructive: ed.destructive }] : [];
      };
      if (!versions) {
        // Not a built-in group (one with a dot returned above).
        // Other tools' files have dotless groups of their own (skaffold/v4beta11 Config): only a near miss of a built-in
        // group (app, extension, bacth) is said.
        const hint = didYouMean(group, [...k.groups.keys()].filter((g) => g));
        if (!hint) return null;
        return (o) => report({
          message: `${apiVersion}: no Kubernetes release ${span} has an API group "${group}", and a CustomResourceDefinition's group has a dot, so ${refuser} refuses ${kind}${caveat}`
            + (use || `; did you mean ${hint}?`),
          range: o.apiVersionRange, severity, fixes: () => fixTo(o),
          data: { apiVersion, kind, reason: 'no-such-group', suggestion: hint ?? null, replacement: served[0] ?? null },
        });
      }
      const kinds = versions.get(version);
      if (!kinds) {
        const list = [...versions.keys()].filter((v) => v).sort();
        return (o) => report({
          message: `${apiVersion}: ${groupName(group)} has no version ${version} in any Kubernetes release ${span} (its versions: ${list.join(', ')}), so ${refuser} refuses ${kind}${caveat}${use}`,
          range: o.apiVersionRange, severity, fixes: () => fixTo(o),
          data: { apiVersion, kind, reason: 'no-such-version', versions: list, replacement: served[0] ?? null },
        });
      }
      if (somewhere.length || [...versions.values()].some((s) => s.has(kind))) {
        // A real kind, under an apiVersion that never served it.
        const inGroup = [...versions].filter(([, s]) => s.has(kind)).map(([v]) => (group ? `${group}/${v}` : v));
        return (o) => report({
          message: `${apiVersion} does not serve ${kind} in any Kubernetes release ${span}`
            + (inGroup.length ? ` (${groupName(group)} serves it as ${formatList(inGroup, 'and')})` : ` (${kind} is not in ${groupName(group)})`)
            + `, so ${refuser} refuses it${caveat}${use}`,
          range: o.apiVersionRange, severity, fixes: () => fixTo(o),
          data: { apiVersion, kind, reason: 'kind-not-in-version', replacement: served[0] ?? null },
        });
      }
      // A kind no release has: the nearest kind of this apiVersion (else of the group).
      const hint = didYouMean(kind, kinds) ?? didYouMean(kind, new Set([...versions.values()].flatMap((s) => [...s])));
      // OpenShift serves legacy kinds of its own under v1 (Template, DeploymentConfig, Route): a core-group kind is said
      // only as a near miss of a core kind (Confmap, Secrett).
      if (!hint && group === '') return null;
      const hintServed = hint ? ctx.common(hint) : [];
      return (o) => report({
        message: `${apiVersion} has no kind ${kind} in any Kubernetes release ${span}, so ${refuser} refuses it${caveat}`
          + (hint ? `; did you mean ${hint}${hintServed.length && !hintServed.includes(apiVersion) ? ` (served as ${hintServed[0]} across the window)` : ''}?` : ''),
        range: o.kindRange, severity,
        fixes: () => {
          if (!hint || !hintServed.includes(apiVersion)) return [];
          const ed = new YamlEditor(ctx.file.text, o.doc, ctx.json);
          return ed.setScalar([...o.at, 'kind'], hint) ? [{ title: `Change kind to ${hint}`, edits: ed.edits, preferred: false, destructive: ed.destructive }] : [];
        },
        data: { apiVersion, kind, reason: 'no-such-kind', suggestion: hint ?? null },
      });
    }
  },
};
