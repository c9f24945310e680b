// A chart rendered with the values its GitOps deployments give it (deployments.ts), and what that says:
// - on a template (helm-chart family): each deployment is one of the chart's values scenarios (scenarios.ts), so
//   helm/removed-api, helm/deprecated-api and helm/not-evaluated run on its render too and a finding names the
//   deployments (and scenarios) whose values make it ("… (with HelmRelease db/backup (flux/backup.yaml:12))");
// - on the deployment's own line (its file is a Kubernetes manifest or a kustomization): helm/deployment-breaks sums
//   up what its values make the chart emit that a step does not serve (or deprecates), and
//   helm/deployment-not-checked says what of it could not be read (its chart not in the workspace, a values source).
// Editor and CI are the same whatever is open: the deployments a template is rendered with are read from the disk as
// saved (the server's DeploymentIndex); a deployment's own file is read from its text, its sources as saved.
import * as path from 'node:path';
import type { Rule } from '../../rules/types';
import type { Emit } from '../types';
import type { AnalyzeInput } from '../../analyze';
import type { HoverResult } from '../../language';
import type { Position } from '../../types';
import type { FileAccess } from '../../files';
import type { ApiRow } from '../kubernetes/data/apis';
import type { KubeWindow } from '../kubernetes/config';
import { LineIndex } from '../../text';
import { runRule } from '../core';
import { injectFault } from '../../faults';
import { internalError, describeFailure } from '../../rules/general';
import { lifecycleRows } from '../kubernetes';
import { withOpenapi } from '../kubernetes/data/openapi';
import { loadChart, type Chart } from './chart';
import { MAX_SCENARIOS } from './scenarios';
import type { NeighbourFacts } from '../kubernetes';
import { chartRun, type TemplateRun } from './run';
import { judge, stepsText, windowText } from './index';
import { groupsOf } from './rules/emissions';
import { scanDeployments, mayDeploy, resolveDeployment, labelOf, lineAt, deploymentName, type DeploymentFacts, type ResolvedDeployment, type World } from './deployments';
import type { ValuesScenario } from './scenarios';

// The server's facts of the workspace's deployments (server/deployment-index.ts), handed over with the neighbours.
declare module '../kubernetes' {
  interface NeighbourFacts {
    /** The workspace's GitOps deployments of its charts, read from the disk as saved (asked for only when used). */
    helmDeployments?: DeploymentFacts;
  }
}

// This module's part of an analysis result: the deployments of a manifest or kustomization, for its hover.
declare module '../registry' {
  interface FamilyResults {
    helmDeployments?: DeploymentContext;
  }
}

/** Most deployments a chart is rendered with (each costs a render of the chart at every step), as for its own scenarios. */
const MAX_DEPLOYMENTS = MAX_SCENARIOS;

/**
 * The values scenarios of the workspace's deployments of a chart (its top chart's folder), in file and position order,
 * for the chart's renders (contextOf: they join its own scenarios); `notes`: what is not rendered (over the bound).
 */
export function deploymentScenarios(neighbours: NeighbourFacts | undefined, top: Chart): { scenarios: ValuesScenario[]; notes: string[] } {
  if (!neighbours || top.alone || top.archive || top.parent) return { scenarios: [], notes: [] };
  const deps = neighbours.helmDeployments?.forChart(top.dir) ?? [];
  const notes = deps.length > MAX_DEPLOYMENTS ? [`${deps.length} GitOps deployments of the chart: only the first ${MAX_DEPLOYMENTS} are rendered (${deps.slice(MAX_DEPLOYMENTS).map((d) => d.scenario.label).join(', ')} are not)`] : [];
  return { scenarios: deps.slice(0, MAX_DEPLOYMENTS).map((d) => d.scenario), notes };
}

/** What a deployment's values make the chart emit at each step, and what of that a step does not serve. */
export interface DeploymentItem {
  resolved: ResolvedDeployment;
  label: string;
  /** Relative to the workspace (or the chart's folder name). */
  chartShown?: string;
  emits: Array<{ template: string; line: number; apiVersion: string; kind: string; steps: string[]; bad: string[]; deprecated: string[]; removedIn?: string }>;
  undecided: Array<{ template: string; line: number; steps: string[]; reason: string }>;
  /** Why the chart was not rendered (no file access). */
  notRendered?: string;
}

export interface DeploymentContext {
  file: string;
  text: string;
  window: KubeWindow;
  rows: ApiRow[];
  items: DeploymentItem[];
  problems: Array<{ message: string; at: { start: number; end: number }; notChecked?: boolean }>;
}

/** The world a deployment's own file is resolved in: the server's (the disk as saved), else the file and its folder's files. */
function worldFor(input: AnalyzeInput, own: ReturnType<typeof scanDeployments>): World {
  const w = input.neighbours?.helmDeployments?.world;
  if (w) return w;
  const files: FileAccess | undefined = input.files;
  return {
    root: input.root, remotes: [], remotesNote: 'the workspace\'s git remote is not read here',
    ...(input.config.helm.repositories ? { repositoriesFor: () => ({ urls: input.config.helm.repositories!.urls, said: `helm.repositories in ${input.config.helm.repositories!.source.detail ?? input.config.helm.repositories!.source.kind}` }) } : {}),
    objects: own.objects, sources: own.sources,
    read: (p) => files?.read(p), unreadable: (p) => files?.unreadable?.(p),
    notRead: files ? undefined : 'no other file of the workspace is read here',
  };
}

/** On a manifest or kustomization that deploys a chart of the workspace: its context (undefined: it deploys none). */
export function deploymentContext(input: AnalyzeInput): DeploymentContext | undefined {
  if (!mayDeploy(input.text)) return undefined;
  const own = scanDeployments(input.path, input.text);
  if (!own.deployments.length) return undefined;
  const world = worldFor(input, own);
  const config = input.config;
  const rows = withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
  const minors = config.kubernetes.minors;
  const lines = new LineIndex(input.text);
  const ctx: DeploymentContext = { file: input.path, text: input.text, window: config.kubernetes, rows, items: [], problems: [] };
  for (const d of own.deployments) {
    const r = resolveDeployment(d, world);
    for (const p of r.problems) ctx.problems.push(p);
    if (!r.chartDir) continue;
    const line = lines.positionAt(d.at.start).line + 1;
    r.scenario.label = r.scenario.id = labelOf(d, line, world.root);
    r.scenario.line = line;
    const item: DeploymentItem = { resolved: r, label: r.scenario.label, chartShown: world.root ? path.relative(world.root, r.chartDir).split(path.sep).join('/') || '.' : path.basename(r.chartDir), emits: [], undecided: [] };
    ctx.items.push(item);
    if (!input.files) { item.notRendered = 'its chart\'s files cannot be read here (no file access)'; continue; }
    const s = r.scenario;
    const run = chartRun(loadChart(r.chartDir, input.files), minors, undefined, config.kubernetesOpenapi, { id: s.id, values: s.values, release: s.release });
    for (const tr of run.byRel.values()) {
      if (tr.notRendered) continue;
      const tl = new LineIndex(tr.template.text);
      const lineOf = (o: number) => tl.positionAt(o).line + 1;
      for (const g of groupsOf(tr)) {
        const js = g.steps.map((s) => judge(rows, g.apiVersion, g.kind, s));
        const bad = js.filter((j) => j && !j.served).map((j) => j!.step);
        const dep = js.filter((j) => j && j.served && j.deprecated).map((j) => j!.step);
        const row = js.find((j) => j)?.row;
        item.emits.push({ template: tr.template.rel, line: lineOf(g.at.start), apiVersion: g.apiVersion, kind: g.kind, steps: g.steps, bad, deprecated: dep, removedIn: row?.removed ?? undefined });
      }
      undecidedOf(tr, lineOf, item);
    }
  }
  return ctx;
}

function undecidedOf(tr: TemplateRun, lineOf: (o: number) => number, item: DeploymentItem): void {
  const m = new Map<string, DeploymentItem['undecided'][number]>();
  for (const s of tr.steps) for (const u of s.undecided) {
    const k = `${u.at.start}|${u.reason}`;
    let g = m.get(k);
    if (!g) m.set(k, (g = { template: tr.template.rel, line: lineOf(u.at.start), steps: [], reason: u.reason }));
    if (!g.steps.includes(s.step)) g.steps.push(s.step);
  }
  for (const g of m.values()) item.undecided.push(g);
}

const sourcesText = (r: ResolvedDeployment) => r.read.slice(1).map((x) => x.what).join(', ') || 'no values of its own';

export const deploymentBreaks: Rule<DeploymentContext> = {
  id: 'helm/deployment-breaks',
  family: 'helm-chart',
  defaultSeverity: 'error',
  title: 'A GitOps deployment\'s values make its chart emit an API a step does not serve',
  what: 'On a Flux `HelmRelease`, an Argo CD `Application` (or an `ApplicationSet` template without generator parameters) or a '
    + 'kustomization\'s `helmCharts:` entry that deploys a chart of this repository: renders the chart with the values the deployment gives '
    + 'it (Flux: `valuesFrom` ConfigMaps/Secrets of the workspace, then `spec.values`; Argo CD: `valueFiles`, `values`/`valuesObject`, '
    + '`parameters`; kustomize: `valuesFile`, `additionalValuesFiles`, `valuesInline`) and its release name and namespace, at every step '
    + 'of the Kubernetes window, and sums up at the deployment\'s name what the chart then emits that a step does not serve (or '
    + 'deprecates), naming each template and line. The template itself gets the finding too, naming the deployment.',
  why: 'What breaks an upgrade is what the chart renders with the values it is deployed with, not its defaults: a template that emits '
    + '`batch/v1beta1` only when a deployment sets a value passes with the defaults and fails that deployment at the step that removed it.',
  bad: { filename: 'flux/backup.yaml', text: 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: backup\n  namespace: db\nspec:\n  interval: 10m\n  chart:\n    spec:\n      chart: ./charts/backup\n      sourceRef:\n        kind: GitRepository\n        name: flux-system\n        namespace: flux-system\n  values:\n    backup:\n      legacy: true\n', options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'flux/backup.yaml', text: 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: backup\n  namespace: db\nspec:\n  interval: 10m\n  chart:\n    spec:\n      chart: ./charts/backup\n      sourceRef:\n        kind: GitRepository\n        name: flux-system\n        namespace: flux-system\n  values:\n    backup:\n      legacy: false\n', options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['Flux helm-controller API (HelmRelease spec.chart, values, valuesFrom, targetNamespace, releaseName)', 'Argo CD Application spec (source.path, helm.valueFiles, values, valuesObject, parameters, releaseName)', 'kustomize api/types/helmchartargs.go (HelmChart, HelmGlobals.ChartHome)', 'Helm pkg/chartutil/coalesce.go, pkg/strvals', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    const minors = ctx.window.minors;
    for (const it of ctx.items) {
      const breaks = it.emits.filter((e) => e.bad.length || e.deprecated.length);
      if (!breaks.length) continue;
      const bad = breaks.filter((e) => e.bad.length);
      const steps = minors.filter((m) => breaks.some((e) => e.bad.includes(m) || e.deprecated.includes(m)));
      const part = (e: DeploymentItem['emits'][number]) => e.bad.length
        ? `at ${stepsText(e.bad, minors)} ${e.template}:${e.line} emits ${e.apiVersion} ${e.kind}, not served there${e.removedIn ? ` (removed in ${e.removedIn})` : ''}`
        : `at ${stepsText(e.deprecated, minors)} ${e.template}:${e.line} emits ${e.apiVersion} ${e.kind}, deprecated there`;
      report({
        message: `${deploymentName(it.resolved.deployment)} renders the chart ${it.chartShown} with ${sourcesText(it.resolved)} (release ${it.resolved.deployment.release.namespace}/${it.resolved.deployment.release.name}): ${breaks.map(part).join('; ')}`,
        range: it.resolved.deployment.at,
        severity: bad.length ? undefined : 'warning',
        data: { steps, chart: it.chartShown, breaks: breaks.map((e) => ({ template: e.template, line: e.line, apiVersion: e.apiVersion, kind: e.kind, steps: e.bad.length ? e.bad : e.deprecated, removed: e.bad.length > 0 })) },
      });
    }
  },
};

export const deploymentNotChecked: Rule<DeploymentContext> = {
  id: 'helm/deployment-not-checked',
  family: 'helm-chart',
  defaultSeverity: 'info',
  title: 'A GitOps deployment of a chart could not be checked with its values',
  what: 'Says, at the deployment (a Flux `HelmRelease`, an Argo CD `Application`/`ApplicationSet`, a kustomization\'s `helmCharts:` '
    + 'entry), that its chart is not in the workspace, that a values source it names cannot be read (a ConfigMap or Secret not in the '
    + 'workspace, a values file missing or not YAML, a `$ref` or URL value file), or that it is not evaluated (an ApplicationSet '
    + 'template with generator parameters); and where the chart rendered with its values stops or cannot be decided.',
  why: 'Never a silent pass: the chart is not checked with the values this deployment gives it, so what breaks there at an upgrade '
    + 'is not known; lsp-lint exits 2 on it unless `--allow-unchecked`. A chart that is not in the workspace is said as information '
    + 'only (no file of the workspace goes unchecked, and the path may be another repository\'s).',
  bad: { filename: 'argo/web.yaml', text: 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: https://git.example.com/platform/deploy.git\n    path: charts/missing\n    helm:\n      valueFiles:\n        - values-prod.yaml\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: web\n', options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'argo/web.yaml', text: 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: https://git.example.com/platform/deploy.git\n    path: charts/backup\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: web\n', options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['Flux helm-controller API (valuesFrom optional, valuesKey, targetPath)', 'Argo CD Application spec (helm.valueFiles, ignoreMissingValueFiles)'],
  check(ctx, report) {
    const minors = ctx.window.minors;
    for (const p of ctx.problems) report({ message: p.message, range: p.at, ...(p.notChecked ? { data: { notChecked: true } } : {}) });
    for (const it of ctx.items) {
      if (it.notRendered) report({ message: `not checked: ${deploymentName(it.resolved.deployment)}: ${it.notRendered}`, range: it.resolved.deployment.at, data: { notChecked: true } });
      for (const u of it.undecided) {
        report({ message: `not checked at ${stepsText(u.steps, minors)}: with the values of ${deploymentName(it.resolved.deployment)}, ${u.template}:${u.line}: ${u.reason.replace(/the chart's default values/g, 'these values')}`, range: it.resolved.deployment.at, data: { steps: u.steps, template: u.template, notChecked: true } });
      }
    }
  },
};

export const deploymentRules = [deploymentBreaks, deploymentNotChecked];

/** Runs the deployment rules on a manifest or kustomization (no-op when it deploys no chart). */
export function runDeploymentRules(input: AnalyzeInput, emit: Emit): DeploymentContext | undefined {
  let ctx: DeploymentContext | undefined;
  try {
    injectFault(input.faults, 'helm:deployments');
    ctx = deploymentContext(input);
  } catch (e) {
    // The file's own findings stand; what its deployments would say is this internal error.
    emit(internalError, { message: describeFailure('helm:deployments', e), range: { start: 0, end: 0 }, data: { stage: 'helm:deployments', error: e } });
    return undefined;
  }
  if (!ctx) return undefined;
  for (const r of deploymentRules) runRule(r, ctx, emit, input.faults);
  return ctx;
}

/** Hover on a deployment's name: the chart it deploys, its values sources, and what the chart emits at each step. */
export function deploymentHover(ctx: DeploymentContext | undefined, text: string, pos: Position): HoverResult | undefined {
  if (!ctx) return undefined;
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const lineStart = text.lastIndexOf('\n', off - 1) + 1;
  let lineEnd = text.indexOf('\n', off);
  if (lineEnd < 0) lineEnd = text.length;
  const it = ctx.items.find((x) => x.resolved.deployment.at.start < lineEnd + 1 && x.resolved.deployment.at.end >= lineStart);
  if (!it) return undefined;
  const r = it.resolved;
  const out: string[] = [`**${deploymentName(r.deployment)}** deploys the chart \`${it.chartShown}\` as release \`${r.deployment.release.namespace}/${r.deployment.release.name}\``, '', '**Values** (merged in this order, the later wins):'];
  for (const x of r.read) out.push(`- ${x.what}${x.from ? ` — ${x.from}` : ''}`);
  if (it.notRendered) out.push('', `Not rendered: ${it.notRendered}`);
  else {
    out.push('', `**What the chart emits with these values** (window ${windowText(ctx.window.minors)})`, '', '| step | template | apiVersion kind |', '|---|---|---|');
    for (const m of ctx.window.minors) {
      for (const e of it.emits.filter((x) => x.steps.includes(m))) {
        const state = e.bad.includes(m) ? ' — not served there' : e.deprecated.includes(m) ? ' — deprecated there' : ' — served';
        out.push(`| ${m} | ${e.template}:${e.line} | \`${e.apiVersion} ${e.kind}\`${state} |`);
      }
      for (const u of it.undecided.filter((x) => x.steps.includes(m))) out.push(`| ${m} | ${u.template}:${u.line} | not decided: ${u.reason.replace(/\|/g, '\\|')} |`);
    }
  }
  return { markdown: out.join('\n'), range: lines.range(r.deployment.at.start, r.deployment.at.end) };
}

/** A deployment's hover and the family's own at the same place, one after the other. */
export function bothHovers(a: HoverResult | undefined, b: HoverResult | undefined): HoverResult | undefined {
  if (!a || !b) return a ?? b;
  return { markdown: `${a.markdown}\n\n---\n\n${b.markdown}`, range: a.range };
}

export { lineAt };
