// What the kustomize rules share: the steps a fact holds at, and the conversions of deprecated fields.
import type { KustomizeContext, KustomizeStep, FieldRow } from '../index';
import { fieldKnownAt, kustomizeName, stepsText } from '../index';
import { YamlEditor } from '../../../parse/yaml-edit';
import type { FindingFix } from '../../../rules/types';

export { stepsText };

/** "1.21 (kustomize 4.0.5)", "1.28..1.30 (kustomize v5 (…))": steps grouped by what they run. */
export function stepsWith(steps: KustomizeStep[]): string {
  const groups: Array<{ minors: string[]; name: string }> = [];
  for (const s of steps) {
    const name = kustomizeName(s);
    const last = groups[groups.length - 1];
    if (last && last.name === name) last.minors.push(s.minor); else groups.push({ minors: [s.minor], name });
  }
  return groups.map((g) => `${stepsText(g.minors)} (${g.name})`).join(', ');
}

/** The steps at which a field is not known to be read (false), and those the data cannot vouch for (undefined). */
export function unknownAt(ctx: KustomizeContext, f: FieldRow): { no: KustomizeStep[]; unsure: KustomizeStep[] } {
  const no: KustomizeStep[] = [], unsure: KustomizeStep[] = [];
  for (const s of ctx.steps) {
    const k = fieldKnownAt(f, s);
    if (k === false) no.push(s); else if (k === undefined) unsure.push(s);
  }
  return { no, unsure };
}

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Transformers that run between the patches (before them) and patchesJson6902 (after them) in kustomize's build. */
const BETWEEN = ['namespace', 'namePrefix', 'nameSuffix', 'commonLabels', 'labels', 'commonAnnotations'];

/**
 * The conversion of a deprecated field into its replacement, as `kustomize edit fix` does it (FixKustomization,
 * FixKustomizationPreMarshalling), written as edits of this file only. undefined: no mechanical conversion.
 */
export function conversion(ctx: KustomizeContext, f: FieldRow): { fix?: FindingFix; why?: string } {
  const v = ctx.value;
  const old = v[f.name];
  const doc = ctx.doc!;
  const ed = new YamlEditor(ctx.file.text, doc);
  const into = (target: string, entries: unknown[], before = false) => {
    const cur = v[target];
    if (cur === undefined || cur === null) {
      ed.renameKey([f.name], target);
      ed.replaceValue([f.name], entries);
    } else {
      ed.replaceValue([target], before ? [...entries, ...cur] : [...cur, ...entries]);
      ed.deleteKey([f.name]);
    }
  };
  const listOk = (target: string) => v[target] === undefined || v[target] === null || Array.isArray(v[target]);
  switch (f.fix) {
    case 'bases-to-resources': {
      if (!Array.isArray(old) || !old.every((x) => typeof x === 'string') || !listOk('resources')) return { why: 'bases or resources is not a list of strings' };
      // edit fix appends the bases after the resources; resource order only decides the output order.
      into('resources', old);
      return { fix: { title: 'Move the bases into resources (as `kustomize edit fix` does)', edits: ed.edits, preferred: true, destructive: ed.destructive } };
    }
    case 'imageTags-to-images': {
      if (!Array.isArray(old) || !listOk('images')) return { why: 'imageTags or images is not a list' };
      into('images', old);
      return { fix: { title: 'Move the imageTags entries into images', edits: ed.edits, preferred: true, destructive: ed.destructive } };
    }
    case 'patchesStrategicMerge-to-patches':
    case 'patchesJson6902-to-patches': {
      // Both deprecated patch fields go into `patches` in one conversion (two separate ones would each create the key).
      // The strategic-merge patches ran before `patches`, the JSON 6902 ones after: they keep that order around it.
      const psm = v.patchesStrategicMerge, j = v.patchesJson6902;
      if ((psm !== undefined && (!Array.isArray(psm) || !psm.every((x) => typeof x === 'string')))
        || (j !== undefined && (!Array.isArray(j) || !j.every(isObj))) || !listOk('patches')) return { why: 'patchesStrategicMerge, patchesJson6902 or patches is not a list of the expected entries' };
      // A file path stays a path; an inline patch (YAML text) becomes `patch:`.
      const fromPsm = (psm ?? []).map((x: string) => (/[\r\n]/.test(x) || /^\s*[{[]/.test(x) ? { patch: x } : { path: x }));
      const all = [...fromPsm, ...(v.patches ?? []), ...(j ?? [])];
      const olds = ['patchesStrategicMerge', 'patchesJson6902'].filter((k) => v[k] !== undefined);
      if (v.patches === undefined || v.patches === null) {
        ed.renameKey([olds[0]], 'patches');
        ed.replaceValue([olds[0]], all);
        for (const k of olds.slice(1)) ed.deleteKey([k]);
      } else {
        ed.replaceValue(['patches'], all);
        for (const k of olds) ed.deleteKey([k]);
      }
      const both = olds.length > 1 ? 'patchesStrategicMerge and patchesJson6902' : olds[0];
      const between = j !== undefined ? BETWEEN.filter((k) => v[k] !== undefined) : [];
      if (between.length) {
        return { fix: { title: `Convert ${both} to patches — partial: patchesJson6902 ran after ${between.join(', ')}, patches run before them; check the JSON patches that touch what those set`, edits: ed.edits, preferred: false, partial: true, destructive: ed.destructive } };
      }
      return { fix: { title: `Convert ${both} to patches (path or inline patch; JSON patches keep their target)`, edits: ed.edits, preferred: true, destructive: ed.destructive } };
    }
    case 'commonLabels-to-labels': {
      if (!isObj(old) || !listOk('labels')) return { why: 'commonLabels is not a mapping or labels is not a list' };
      const clash = (v.labels ?? []).flatMap((l: any) => (isObj(l) && isObj(l.pairs) ? Object.keys(l.pairs) : [])).filter((k: string) => k in old);
      if (clash.length) return { why: `label ${clash.join(', ')} is in both commonLabels and labels (kustomize edit fix refuses this too)` };
      into('labels', [{ pairs: old, includeSelectors: true }]);
      return { fix: { title: 'Convert to labels with includeSelectors: true (selectors and templates labelled as before)', edits: ed.edits, preferred: true, destructive: ed.destructive } };
    }
    default:
      return {};
  }
}
