import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { loadJson } from '../../../data';
import { maskOf, minorNumber, walkServedEntries, pathSegments, pathText, covers } from '../data/fields';
import { listOf } from './common';

interface GateRow { gates: string[]; minors: number[]; text: string }
interface GateData { fields: Record<string, GateRow[]>; notRead: Record<string, string> }
const FILE = 'data/kubernetes/fields/feature-gates.json';
let names: Set<string> | undefined;
/** The JSON field names that are gated somewhere (a cheap filter before the per-minor lookups). */
const gatedNames = (): Set<string> => (names ??= new Set(Object.keys(loadJson<GateData>(FILE).fields).map((k) => k.slice(k.indexOf('.') + 1))));

/**
 * "Served only when enabled", for fields: a field the Kubernetes OpenAPI document of a step describes as alpha behind a
 * feature gate (data/kubernetes/fields/feature-gates.json) is served there only when the gate is enabled. A warning at
 * the key, naming the steps, the gates and the document's own sentence.
 */
export const rule: Rule<KubernetesContext> = {
  id: 'k8s/field-feature-gated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Field served only when its feature gate is enabled',
  what: 'Reports, at its key, a field of a built-in kind that the Kubernetes OpenAPI document of some step of the window describes '
    + 'as alpha behind a feature gate (e.g. Pod `spec.resourceClaims`, "This is an alpha field and requires enabling the '
    + 'DynamicResourceAllocation feature gate"): at those steps it is served only when the gate is enabled on the API server '
    + '(alpha gates are off by default). It names the steps, the gates and quotes the document. Read from the descriptions of '
    + 'the @kubernetes/client-node releases of the field table; minors whose source is another package, or none, are not read '
    + 'for gates: such a minor between two read minors whose documents gate the field behind the same gates is taken as gated, '
    + 'and the message says it is inferred; one gated on one side only is said as not known (an info when no step is known to '
    + 'gate it). The document\'s sentence is quoted as upstream wrote it: a description can lag a '
    + 'gate\'s promotion (the 1.24 document still calls StatefulSet `minReadySeconds` alpha, although its gate was beta and '
    + 'on from 1.23), which the quote lets you check.',
  why: 'An API server with the gate off drops the field (before strict field validation, silently): the object is created '
    + 'without it. A manifest written on a test cluster with the gate on loses the setting on a default cluster.',
  bad: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n  resourceClaims:\n    - name: gpu\n      resourceClaimName: gpu-claim\n  containers:\n    - name: app\n      image: app:1\n', options: 'Kubernetes 1.29..1.30' },
  good: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n  containers:\n    - name: app\n      image: app:1\n', options: 'Kubernetes 1.29..1.30' },
  fix: 'none',
  sources: [
    'data/kubernetes/fields/feature-gates.json: the alpha/feature-gate sentence of each field\'s description in the Kubernetes OpenAPI document of each minor (through @kubernetes/client-node, scripts/import-k8s-feature-gates.mjs)',
    'Kubernetes feature gates: alpha features are disabled by default',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const { fields: data, notRead: notReadAt } = loadJson<GateData>(FILE);
    const gated = gatedNames();
    const windowMinors = ctx.minors.map(minorNumber).filter((m) => covers(t, m));
    const win = maskOf(windowMinors, t);
    if (!win) return;
    for (const o of ctx.objects) {
      const walk = ctx.fieldWalk(o);
      if (!walk) continue;
      walkServedEntries(walk.entries, walk.root, win, (key, c, alive, at) => {
        const here = alive & c.served;
        if (!here || !gated.has(key)) return;
        const hits: Array<{ m: number; row: GateRow }> = [];
        const rowAt = (m: number): GateRow | undefined => {
          const i = m - t.first;
          if (i < 0 || !c.owners[i]) return undefined;
          return data[`${c.owners[i]}.${key}`]?.find((r) => r.minors.includes(m));
        };
        // Steps of the window that serve the field but whose source was not read for gates (notRead).
        const unread: number[] = [];
        for (const m of windowMinors) {
          if (!(here & (1 << (m - t.first)))) continue;
          if (notReadAt[String(m)]) { unread.push(m); continue; }
          const row = rowAt(m);
          if (row) hits.push({ m, row });
        }
        // An unread step between two read minors whose documents both gate the field behind the same gates is gated
        // too (a gate is not dropped and brought back); one gated on one side only is said as not known. A field gated
        // on neither side is taken as not gated, as at a read step.
        const readNear = (m: number, dir: 1 | -1): number | undefined => {
          for (let n = m + dir; n >= t.first && n <= t.last; n += dir) if (!notReadAt[String(n)]) return n;
          return undefined;
        };
        const inferred: Array<{ m: number; row: GateRow; lo: number; hi: number }> = [];
        const unknown: number[] = [];
        for (const m of unread) {
          const lo = readNear(m, -1), hi = readNear(m, 1);
          const a = lo === undefined ? undefined : rowAt(lo), b = hi === undefined ? undefined : rowAt(hi);
          if (a && b && a.gates.join() === b.gates.join()) inferred.push({ m, row: a, lo: lo!, hi: hi! });
          else if (a || b) unknown.push(m);
        }
        if (!hits.length && !inferred.length && !unknown.length) return;
        const segs = pathSegments({ up: at, seg: key });
        const shown = pathText(segs.slice(o.at.length));
        if (!hits.length && !inferred.length) {
          // Only unread steps, gated on one side of them: not known, said as such (info), not passed over.
          const side = unknown.map((m) => [readNear(m, -1), readNear(m, 1)].find((n) => n !== undefined && rowAt(n))!)[0];
          const row = rowAt(side)!;
          const l = o.doc.locate(segs);
          report({
            message: `whether ${shown} is served at ${listOf(unknown)} only behind a feature gate is not known: no field descriptions were read for ${unknown.length > 1 ? 'those minors' : 'that minor'}, `
              + `and the minors read on each side disagree (the 1.${side} OpenAPI document: "${row.text}")`,
            range: l.key ?? l.value, severity: 'info',
            data: { path: shown, gates: row.gates, notKnownAt: unknown.map((m) => `1.${m}`) },
          });
          return;
        }
        const gates = [...new Set([...hits, ...inferred].flatMap((h) => h.row.gates))];
        const first = hits[0] ?? { m: inferred[0].lo, row: inferred[0].row };
        const loc = o.doc.locate(segs);
        const gatedAt = [...hits.map((h) => h.m), ...inferred.map((h) => h.m)].sort((x, y) => x - y);
        const inferredText = inferred.length
          ? `; at ${listOf(inferred.map((h) => h.m))} inferred: no field descriptions were read for ${inferred.length > 1 ? 'those minors' : 'that minor'}, and the minors read on both sides (${[...new Set(inferred.flatMap((h) => [`1.${h.lo}`, `1.${h.hi}`]))].join(', ')}) gate it`
          : '';
        report({
          message: `${shown} is served at ${listOf(gatedAt)} only when feature gate${gates.length > 1 ? 's' : ''} ${gates.join(' and ')} ${gates.length > 1 ? 'are' : 'is'} enabled `
            + `(alpha gates are off by default; the 1.${first.m} OpenAPI document: "${first.row.text}")`
            + inferredText
            + (unknown.length ? `; not known at ${listOf(unknown)} (no field descriptions read for ${unknown.length > 1 ? 'those minors' : 'that minor'})` : ''),
          range: loc.key ?? loc.value,
          data: { path: shown, gates, servedOnlyWhenEnabledAt: gatedAt.map((m) => `1.${m}`), ...(inferred.length ? { inferredAt: inferred.map((h) => `1.${h.m}`) } : {}) },
        });
      });
    }
  },
};
