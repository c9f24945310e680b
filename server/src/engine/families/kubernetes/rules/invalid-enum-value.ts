import type { Rule, FindingFix } from '../../../rules/types';
import { shownSegments } from '../manifest-objects';
import type { KubernetesContext } from '../index';
import { formatList } from '../../../versions';
import { maskOf, minorNumber, pathSegments, pathText, type FieldNode, covers, type FieldTable } from '../data/fields';
import { range, listOf } from './common';

/** The minors of the table whose source lists enums at all (the others are never judged). */
const knownMemo = new WeakMap<FieldTable, number[]>();
function enumMinors(t: FieldTable): number[] {
  let hit = knownMemo.get(t);
  if (hit) return hit;
  const out = new Set<number>();
  for (const es of Object.values(t.enums)) for (const e of es) for (const m of e.minors) out.add(m);
  knownMemo.set(t, (hit = [...out].sort((a, b) => a - b)));
  return hit;
}

/** Per node (a named field: its owners per minor are fixed), the enum of each minor with enum data; [] for most fields. */
const enumsOf = new WeakMap<FieldNode, Array<{ minor: number; values: string[] }>>();
const NONE: Array<{ minor: number; values: string[] }> = [];
function enumsAt(c: FieldNode, key: string): Array<{ minor: number; values: string[] }> {
  let hit = enumsOf.get(c);
  if (hit) return hit;
  const t = c.table;
  hit = [];
  for (const m of enumMinors(t)) {
    const owner = c.owners[m - t.first];
    const e = owner ? t.enums[`${owner}.${key}`]?.find((x) => x.minors.includes(m)) : undefined;
    if (e) hit.push({ minor: m, values: e.values });
  }
  if (!hit.length) hit = NONE;
  enumsOf.set(c, hit);
  return hit;
}

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/invalid-enum-value',
  family: 'kubernetes',
  defaultSeverity: 'error',
  title: 'Value outside the enum the API defines',
  what: 'Reports, at the value, a string field of a built-in kind whose value is not one of those the OpenAPI document of a '
    + 'step of the window lists for it (`imagePullPolicy: always`: "Always, IfNotPresent or Never"), with a fix where only '
    + 'the case differs. Enums are known only where a minor\'s source lists them (some minors\' packages carry no enums; '
    + 'the message names the minors that do): a step without enum data is never judged; where no step of the window has any, a value outside '
    + 'the enums of the other minors is said as information, naming the minors it was compared with.',
  why: 'The API server refuses an object whose enum field has a value it does not define (or, for older fields validated '
    + 'only by the controller, the object is created and never works): the apply fails at that step of the upgrade.',
  bad: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    imagePullPolicy: always\n', options: 'Kubernetes 1.23..1.27' },
  good: { filename: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    imagePullPolicy: Always\n', options: 'Kubernetes 1.23..1.27' },
  fix: 'complete',
  sources: [
    'data/kubernetes/fields/fields.json `enums`: the enum values each minor\'s OpenAPI-generated package lists (the package of each minor is cited there)',
  ],
  check(ctx, report) {
    const t = ctx.fields;
    const windowMinors = ctx.minors.map(minorNumber).filter((m) => covers(t, m));
    const win = maskOf(windowMinors, t);
    if (!win) return;
    const known = enumMinors(t);
    const text = ctx.file.text;
    for (const o of ctx.fieldObjects()) {
      // The shared walk (fieldEntries): it goes into exactly the keys this rule went into (served, not free-form).
      const walk = ctx.fieldWalk(o);
      if (!walk) continue;
      const entries = walk.entries;
      for (let n = 0; n < entries.length; n++) {
        const { at, key, c, val } = entries[n];
        if (!c.served || (c.freeForm & c.served) === c.served) continue;
        if (typeof val !== 'string') continue;
        // The enum of each minor with enum data, through the model that holds the field there.
        const all = enumsAt(c, key);
        if (!all.length) continue;
        // Most values are fine: said with one pass over the enums, before any path or list is built for a finding.
        let anyJudged = false, refused = false, anyOther = false, otherTakes = false;
        for (const x of all) {
          if (win & (1 << (x.minor - t.first))) { anyJudged = true; if (!x.values.includes(val)) refused = true; } else { anyOther = true; if (x.values.includes(val)) otherTakes = true; }
        }
        if (!refused && (anyJudged || !anyOther || otherTakes)) continue;
        const judged = all.filter((x) => win & (1 << (x.minor - t.first)));
        const others = all.filter((x) => !(win & (1 << (x.minor - t.first))));
        const refusing = judged.filter((j) => !j.values.includes(val));
        const segs = pathSegments({ up: at, seg: key });
        const shown = pathText(shownSegments(o, segs));
        const notJudged = windowMinors.filter((m) => !judged.some((j) => j.minor === m) && c.served & (1 << (m - t.first)));
        if (refusing.length) {
          const values = refusing[refusing.length - 1].values;
          const loc = o.doc.locate(segs).value;
          const src = text.slice(loc.start, loc.end);
          const q = /^["']/.test(src) ? src[0] : '';
          // Only the case differs, and the value so written is in every judged minor's enum: a fix that keeps the meaning.
          const same = values.filter((x) => x.toLowerCase() === val.toLowerCase());
          const fixes: FindingFix[] = same.length === 1 && judged.every((j) => j.values.includes(same[0]))
            ? [{ title: `Write ${same[0]}`, edits: [{ range: loc, newText: `${q}${same[0]}${q}` }], preferred: true, destructive: false }] : [];
          report({
            message: `${shown}: ${val} is not one of ${formatList(values, 'or')} (the enum of ${listOf(refusing.map((r) => r.minor))})`
              + (notJudged.length ? `; not judged at ${listOf(notJudged)} (no enum data for it there: the table has enums only from the sources of ${listOf(known)})` : ''),
            range: loc,
            fixes,
            data: { path: shown, value: val, allowed: values, judgedAt: judged.map((j) => `1.${j.minor}`), window: range(ctx.minors) },
          });
        } else if (!judged.length && others.length && others.every((x) => !x.values.includes(val))) {
          // No step of the window has enum data: said as information, not judged.
          const values = others[others.length - 1].values;
          const loc = o.doc.locate(segs).value;
          report({
            message: `${shown}: ${val} is not one of ${formatList(values, 'or')} at ${listOf(others.map((x) => x.minor))}; not judged in the window ${range(ctx.minors)} (no enum data for it there: the table has enums only from the sources of ${listOf(known)})`,
            range: loc,
            severity: 'info',
            data: { path: shown, value: val, allowed: values, judgedAt: [], window: range(ctx.minors) },
          });
        }
      }
    }
  },
};
