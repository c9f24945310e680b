// The Helm chart rules on Chart.yaml: its kubeVersion (and its dependencies') against every step, its chart API version.
import type { Rule } from '../../../rules/types';
import type { HelmContext } from '../index';
import { stepsText, windowText } from '../index';
import { allCharts, type Chart } from '../chart';
import { semverCompare } from '../template';

/**
 * The steps a constraint excludes (Helm checks it against the cluster's version): `out` where no patch release of the
 * minor satisfies it (neither vX.Y.0 nor a late patch), `early` where only later patches do; `tagged` where the
 * release passes but a cluster version with a pre-release tag (EKS `v1.25.3-eks-…`, GKE `-gke.…`) fails, which is
 * Masterminds semver's rule for a constraint without `-0`.
 */
function excluded(constraint: string, minors: string[]): { out: string[]; early: string[]; tagged: string[]; undecided: string[]; error?: string } {
  const out: string[] = [], early: string[] = [], tagged: string[] = [], undecided: string[] = [];
  let error: string | undefined;
  const ok = (v: string) => { const r = semverCompare(constraint, v); if (typeof r === 'object') { error ??= r.error; return undefined; } return r; };
  for (const m of minors) {
    const first = ok(`v${m}.0`), late = ok(`v${m}.999`);
    if (first === undefined || late === undefined) { undecided.push(m); continue; }
    if (!first && !late) out.push(m);
    else if (!first) early.push(m);
    if (first && ok(`v${m}.3-eks-1`) === false) tagged.push(m);
  }
  return { out, early, tagged, undecided, error };
}

function valueRange(c: Chart, key: Array<string | number>): { start: number; end: number } {
  const doc = c.chartYaml?.yaml.docs.find((d) => !d.empty);
  return doc ? doc.locate(key).value : { start: 0, end: 0 };
}

export const kubeVersion: Rule<HelmContext> = {
  id: 'helm/kube-version',
  family: 'helm-chart',
  defaultSeverity: 'error',
  title: 'Chart kubeVersion excludes steps of the window',
  what: 'Checks Chart.yaml\'s `kubeVersion` constraint (Masterminds semver, as Helm checks it against the cluster\'s version, `-0` '
    + 'prerelease handling included) at every step of the Kubernetes window, and the `kubeVersion` of each dependency '
    + '(vendored under charts/ or packaged as charts/*.tgz): an error at the constraint naming the steps it excludes; a warning '
    + 'where only the first patch releases of a step are excluded, or where a constraint without `-0` refuses clusters whose '
    + 'version carries a pre-release tag (EKS, GKE).',
  why: 'Helm refuses to install or upgrade a chart whose kubeVersion excludes the cluster\'s version: at those steps the release '
    + 'cannot be upgraded at all, whatever the templates emit.',
  bad: { filename: 'Chart.yaml', text: 'apiVersion: v2\nname: web\nversion: 1.2.0\nkubeVersion: ">=1.19.0-0 <1.24.0-0"\n', options: 'Kubernetes 1.22..1.25' },
  good: { filename: 'Chart.yaml', text: 'apiVersion: v2\nname: web\nversion: 1.3.0\nkubeVersion: ">=1.22.0-0"\n', options: 'Kubernetes 1.22..1.25' },
  fix: 'none',
  sources: ['Helm pkg/action/install.go (kubeVersion check), pkg/chartutil/capabilities.go', 'Masterminds/semver v3 constraints'],
  check(ctx, report) {
    if (ctx.kind !== 'chart-yaml' || !ctx.own) return;
    const minors = ctx.window.minors;
    const c = ctx.own;
    const kv = c.chartYaml?.value?.kubeVersion;
    if (typeof kv === 'string' && kv.trim()) {
      const { out, early, tagged, undecided, error } = excluded(kv, minors);
      const range = valueRange(c, ['kubeVersion']);
      if (out.length) report({ message: `kubeVersion "${kv}" excludes ${stepsText(out, minors)} of the window ${windowText(minors)}: Helm refuses to install or upgrade the chart there`, range, data: { steps: out, constraint: kv } });
      if (early.length) report({ severity: 'warning', message: `kubeVersion "${kv}" excludes the first patch releases of ${stepsText(early, minors)} (v${early[0]}.0 fails it): Helm refuses the chart on a cluster still at such a patch`, range, data: { steps: early, constraint: kv } });
      if (tagged.length && !out.length) report({ severity: 'warning', message: `kubeVersion "${kv}" has no "-0": a cluster whose version carries a pre-release tag (e.g. v${tagged[0]}.3-eks-1, as EKS and GKE report) fails it, and Helm refuses the chart there; write it with "-0": "${kv.replace(/(\d+\.\d+(?:\.\d+)?)(?![-.\d])/g, '$1-0')}"`, range, data: { steps: tagged, constraint: kv } });
      if (undecided.length) report({ severity: 'info', message: `not checked at ${stepsText(undecided, minors)}: kubeVersion "${kv}" is not a constraint Helm reads (${error}): Helm refuses to install the chart`, range, data: { steps: undecided, constraint: kv, notChecked: true } });
    }
    const deps = Array.isArray(c.chartYaml?.value?.dependencies) ? c.chartYaml!.value.dependencies : [];
    for (const sub of c.subcharts) {
      const skv = sub.chartYaml?.value?.kubeVersion;
      if (typeof skv !== 'string' || !skv.trim()) continue;
      const { out } = excluded(skv, minors);
      if (!out.length) continue;
      const i = deps.findIndex((d: any) => d && d.name === sub.name);
      const range = i >= 0 ? valueRange(c, ['dependencies', i, 'name']) : valueRange(c, ['name']);
      const where = sub.archive ? sub.archive.slice(sub.archive.lastIndexOf('charts')) : `${sub.prefix.slice(c.prefix.length)}Chart.yaml`;
      report({ message: `dependency ${sub.name} (${where}) has kubeVersion "${skv}", which excludes ${stepsText(out, minors)} of the window ${windowText(minors)}: Helm refuses to install or upgrade the chart there`, range, data: { steps: out, constraint: skv, dependency: sub.name } });
    }
    void allCharts;
  },
};

export const chartApiV1: Rule<HelmContext> = {
  id: 'helm/chart-api-v1',
  family: 'helm-chart',
  defaultSeverity: 'info',
  title: 'Chart in the Helm 2 format (apiVersion: v1)',
  what: 'Notes a Chart.yaml with `apiVersion: v1`: Helm 3 still installs it, but its dependencies are declared in requirements.yaml, '
    + 'which is not read here (vendored charts/ are).',
  why: 'Helm 2 is long out of support; a v1 chart\'s dependency conditions and aliases are in a file the chart checks do not read.',
  bad: { filename: 'Chart.yaml', text: 'apiVersion: v1\nname: web\nversion: 0.1.0\n' },
  good: { filename: 'Chart.yaml', text: 'apiVersion: v2\nname: web\nversion: 0.1.0\n' },
  fix: 'none',
  sources: ['Helm docs: Charts (The apiVersion Field)'],
  check(ctx, report) {
    if (ctx.kind !== 'chart-yaml' || !ctx.own) return;
    if (ctx.own.chartYaml?.value?.apiVersion !== 'v1') return;
    report({ message: 'this chart is apiVersion v1 (Helm 2\'s format): Helm 3 installs it, but its dependencies are declared in requirements.yaml, which is not read here; move to apiVersion: v2 (dependencies in Chart.yaml)', range: valueRange(ctx.own, ['apiVersion']) });
  },
};
