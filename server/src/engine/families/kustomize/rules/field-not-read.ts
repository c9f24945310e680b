import * as path from 'node:path';
import type { Rule } from '../../../rules/types';
import type { KustomizeContext } from '../index';
import { stepsWith, unknownAt, stepsText } from './common';
import { kustomizeName } from '../index';

export const rule: Rule<KustomizeContext> = {
  id: 'kustomize/field-not-read',
  family: 'kustomize',
  defaultSeverity: 'error',
  title: 'Kustomization field that the kustomize of some step does not read',
  what: 'Reports a kustomization field that the kustomize embedded in the kubectl of some Kubernetes version of the window does not '
    + 'know yet (e.g. `labels` before kustomize 4.1.0, i.e. kubectl 1.21; `components`, `replacements` or the object form of `patches` '
    + 'in the kustomize 2.0.3 of kubectl 1.14..1.20, `replacements` in the kustomize 4.0.5 of kubectl 1.21, `sortOptions` before kustomize 5.0.0, i.e. kubectl 1.27, '
    + 'and a folder or URL under `resources` in kustomize 2.0.3), and a window step whose kubectl has no kustomize at all (before 1.14). '
    + 'A step for which the data has no kubectl row is said as not checked (info), and so is a field the data dates only as later than kustomize 2.0.x '
    + '(e.g. `helmGlobals`, `openapi`): the steps whose kustomize may or may not read it are named, never passed over.',
  why: 'During the upgrade the kustomization is built by every step\'s kubectl. A field its kustomize does not read makes '
    + '`kubectl apply -k` fail (kustomize rejects unknown fields) or, in old releases, silently drops what the field did.',
  bad: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\nlabels:\n  - pairs:\n      team: web\n', options: 'Kubernetes 1.21..1.22' },
  good: { filename: 'kustomization.yaml', text: 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\nlabels:\n  - pairs:\n      team: web\n', options: 'Kubernetes 1.22..1.23' },
  fix: 'none',
  sources: ['kubernetes-sigs/kustomize api/types/kustomization.go and pkg/types/kustomization.go (v2.0.x)', 'kustomize release notes v2.1.0, v3.1.0; kustomize#3937 (labels in 4.1.0)', 'kubectl docs: components guide (v3.7.0), sortOptions reference (v5.0.0+); kubectl#1277 (replacements not in 4.0.5)', 'data/kubernetes/kustomize.json'],
  check(ctx, report) {
    if (ctx.unmapped.length) {
      report({
        message: `not checked at ${stepsText(ctx.unmapped)}: data/kubernetes/kustomize.json has no kubectl row for ${ctx.unmapped.length > 1 ? 'these steps' : 'this step'}, so which kustomize ${ctx.unmapped.length > 1 ? 'they run' : 'it runs'} is not known; the fields are checked at the other steps of the window ${ctx.windowText} only`,
        range: ctx.fields[0]?.key ?? { start: 0, end: 0 },
        severity: 'info',
        data: { steps: ctx.unmapped },
      });
    }
    const none = ctx.steps.filter((s) => s.major === null);
    if (none.length && ctx.fields.length) {
      report({
        message: `kubectl ${stepsText(none.map((s) => s.minor))} has no kustomize (kubectl apply -k came with 1.14): this kustomization cannot be applied with kubectl at ${none.length > 1 ? 'those steps' : 'that step'} of the window ${ctx.windowText}`,
        range: ctx.fields[0].key,
        data: { steps: none.map((s) => s.minor) },
      });
    }
    // kustomize 2.0.x read `resources` as files only (directories and URLs went under `bases` until 2.1.0): an entry
    // known to be a folder (the file access says so, or it ends with /) or a URL is not read at those steps.
    const v2 = ctx.steps.filter((s) => s.major === 2);
    const res = ctx.value.resources;
    if (v2.length && Array.isArray(res)) {
      const dir = path.dirname(ctx.path);
      res.forEach((x, i) => {
        if (typeof x !== 'string' || !x) return;
        const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(x) || /^(git@|github\.com\/)/.test(x);
        const folder = /\/$/.test(x) || (!url && ctx.files?.list(path.resolve(dir, x)) !== undefined);
        if (!url && !folder) return;
        report({
          message: `the resources entry ${x} is a ${url ? 'URL' : 'folder'}, which ${stepsWith(v2)} reads only under bases (resources took kustomizations from kustomize 2.1.0): \`kubectl apply -k\` at ${v2.length > 1 ? 'those steps' : 'that step'} fails`,
          range: ctx.locate(['resources', i]).value,
          data: { entry: x, steps: v2.map((s) => s.minor) },
        });
      });
    }
    for (const tf of ctx.fields) {
      const f = tf.row;
      if (!f) continue; // kustomize/unknown-field speaks
      const known = unknownAt(ctx, f);
      const unsure = known.unsure;
      let no = known.no.filter((s) => s.major !== null);
      // Steps the data cannot vouch for (a field added after 2.0.x whose first release no source names): said, not passed.
      if (unsure.length) {
        const names = [...new Set(unsure.map(kustomizeName))].map((n, i) => (i ? n.replace(/^kustomize /, '') : n));
        const which = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
        const bounds = `later than kustomize ${f.notReadBy ?? '2.0.x'}${f.readBy ? ` and as read by kustomize ${f.readBy}` : ''}`;
        report({
          message: `not checked at ${stepsText(unsure.map((s) => s.minor))}: whether ${which} ${names.length > 1 ? 'read' : 'reads'} ${f.name} is not known (the data dates it only as ${bounds})`,
          range: tf.key,
          severity: 'info',
          data: { field: f.name, unsure: true, steps: unsure.map((s) => s.minor) },
        });
      }
      // kustomize 2.0.x read `patches` as a (deprecated) list of strategic-merge file paths.
      if (f.name === 'patches') {
        const v = ctx.value.patches;
        if (Array.isArray(v) && v.every((x) => typeof x === 'string')) no = no.filter((s) => s.major !== 2);
      }
      if (!no.length) continue;
      const since = f.introduced ? `came with kustomize ${f.introduced}` : `came after kustomize ${f.notReadBy ?? '2.0.x'}`;
      const v2patch = f.name === 'patches' && no.some((s) => s.major === 2) ? ' (kustomize 2.0.x read `patches` only as a list of strategic-merge file paths)' : '';
      report({
        message: `${f.name} is not read by ${stepsWith(no)}${v2patch}: the field ${since}, so \`kubectl apply -k\` at ${no.length > 1 ? 'those steps' : 'that step'} fails or drops what it does`,
        range: tf.key,
        data: { field: f.name, introduced: f.introduced, steps: no.map((s) => s.minor) },
      });
    }
  },
};
