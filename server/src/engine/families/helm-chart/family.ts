// The Helm chart family: a chart's templates (and helpers), Chart.yaml, values.yaml and packaged dependencies,
// checked in place at every step of the Kubernetes window by rendering the chart with the embedded evaluator
// (no Helm binary). Files around the analysed one come through AnalyzeInput.files (the server's FileAccess).
import type { OpenapiMinor } from '../kubernetes/data/openapi';
import * as path from 'node:path';
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import type { FileAccess } from '../../files';
import { kubernetesApis } from '../kubernetes/data/apis';
import { runRule, reportSyntax } from '../core';
import { parseYaml } from '../../parse/yaml';
import { LineIndex } from '../../text';
import { lifecycleRows } from '../kubernetes';
import { withOpenapi } from '../kubernetes/data/openapi';
import { scanTemplates, withoutActions, hasHelmAction } from '../../parse/template-text';
import { chartRootOf, loadChart, chartOfFile, allCharts, type Chart } from './chart';
import { chartRun, type ChartRun, type ChartRender } from './run';
import { chartScenarios, renderScenarios, isCiValuesName } from './scenarios';
import { runScenarioRules, SCENARIO_RULES } from './scenario-rules';
import { valuesSchema, schemaNotes } from './rules/values-schema';
import { windowText, type HelmContext, type HelmFileKind } from './index';
import { helmHover } from './language';
import { runImageRules } from './images';
import { runCustomResourceRules } from './custom-resources';
import { runFieldRules } from './field-rules';
import { internalError, describeFailure } from '../../rules/general';
import { removedApi, deprecatedApi, deadBranch, notEvaluated } from './rules/emissions';
import { kubeVersion, chartApiV1 } from './rules/chart-yaml';
import { rule as operatorPinsDisagree } from '../kubernetes/rules/operator-pins-disagree';
import { templateSyntax, notInChart } from './rules/notes';
import { deploymentRules, deploymentScenarios } from './deployment-rules';
import type { NeighbourFacts } from '../kubernetes';
import { helmConfigSection } from './config';
import { rootFactProducers } from './root-facts';

export const helmRules: Rule<HelmContext>[] = [removedApi, deprecatedApi, deadBranch, notEvaluated, templateSyntax, notInChart, kubeVersion, chartApiV1, valuesSchema];

const segs = (file: string) => file.split(/[\\/]/);
const isValuesName = (b: string) => /^values\.ya?ml$/.test(b);

/**
 * A values file of a chart besides values.yaml, by its name and place: `ci/*-values.yaml` (chart-testing's scenarios)
 * or `values-*.yaml` / `values.*.yaml` beside Chart.yaml (what helm.valueSets usually names). The caller checks the
 * Chart.yaml; never a file under templates/.
 */
function scenarioChartDir(file: string): string | undefined {
  const p = segs(file);
  const b = p[p.length - 1];
  if (p.slice(0, -1).includes('templates')) return undefined;
  if (p[p.length - 2] === 'ci' && isCiValuesName(b)) return path.dirname(path.dirname(file));
  if (/^values[-.].+\.ya?ml$/.test(b)) return path.dirname(file);
  return undefined;
}
const isSchemaName = (b: string) => b === 'values.schema.json';

function kindOf(file: string, ext: string): HelmFileKind {
  const b = path.basename(file);
  if (b === 'Chart.yaml') return 'chart-yaml';
  if (ext === '.tgz') return 'archive';
  if (isValuesName(b)) return 'values';
  if (isSchemaName(b)) return 'schema';
  if (scenarioChartDir(file) !== undefined) return 'scenario';
  return 'template';
}

/**
 * A chart's file whose saved change the chart's other files render with (FamilyModule.changeReachesOthers): anything
 * under templates/ or charts/, Chart.yaml, its values files (values.yaml, the scenarios) and values.schema.json, read
 * by name and place as kindOf reads them (no disk read).
 */
function reachesChart(file: string): boolean {
  const p = segs(file);
  const b = p[p.length - 1];
  return p.slice(0, -1).some((s) => s === 'templates' || s === 'charts') || b === 'Chart.yaml' || isValuesName(b) || isSchemaName(b)
    || scenarioChartDir(file) !== undefined;
}

/** A chart of one template, for a template read without its chart (no Chart.yaml above it, no file access). */
function loneChart(file: string, text: string, byDocument = false): Chart {
  return { name: 'chart', dir: path.dirname(file), prefix: '', templates: [{ rel: `templates/${path.basename(file)}`, abs: file, text, ...(byDocument ? { byDocument } : {}) }], subcharts: [], library: false, problems: [], alone: true };
}

/** A template fragment outside any chart's templates/ (read as Helm by its content or modeline), not a helper. */
const isFragment = (file: string) => !segs(file).slice(0, -1).includes('templates') && path.extname(file).toLowerCase() !== '.tpl';

/** The chart tree with one template's text replaced (an open buffer the FileAccess does not show, a fix being proven). */
function withText(top: Chart, abs: string, text: string): Chart {
  const clone = (c: Chart, parent?: Chart): Chart => {
    const n: Chart = { ...c, parent, templates: c.templates.map((t) => (t.abs === abs ? { ...t, text } : t)), subcharts: [] };
    n.subcharts = c.subcharts.map((s) => clone(s, n));
    return n;
  };
  return clone(top);
}

/** The chart folders a values file, values.schema.json or scenario file belongs to (chartRootOf knows values.yaml). */
function rootOf(file: string, kind: HelmFileKind, files: FileAccess): { top: string; own: string } | undefined {
  if (kind !== 'scenario' && kind !== 'schema') return chartRootOf(file, files);
  const dir = kind === 'schema' ? path.dirname(file) : scenarioChartDir(file);
  return dir === undefined ? undefined : chartRootOf(path.join(dir, 'Chart.yaml'), files);
}

function contextOf(input: { path: string; text: string; files?: FileAccess; helmRenders?: ChartRender[]; valueSets?: readonly string[]; neighbours?: NeighbourFacts }, kind: HelmFileKind, window: HelmContext['window'], rows: HelmContext['rows'], openapi?: Readonly<Record<string, OpenapiMinor>>): HelmContext {
  const ctx: HelmContext = { file: input.path, text: input.text, kind, window, rows };
  const files = input.files;
  const root = files ? rootOf(input.path, kind, files) : undefined;
  if (!files || !root) {
    if (kind === 'chart-yaml') {
      // Chart.yaml alone (no file access): its own fields are still checked.
      const yaml = parseYaml(input.text);
      const doc = yaml.docs.find((d) => !d.empty);
      ctx.own = { ...loneChart(input.path, ''), templates: [], chartYaml: { abs: input.path, text: input.text, yaml, value: doc && !doc.errors.length ? doc.value : undefined } };
      return ctx;
    }
    if (kind === 'scenario' || kind === 'schema' || kind === 'values') return ctx;
    if (kind !== 'template') return ctx;
    ctx.alone = files
      ? 'not checked as part of a chart: no Chart.yaml found above this file; it is rendered alone, so what depends on its values, Chart.yaml or helpers is not checked'
      : 'not checked as part of a chart: its chart\'s files cannot be read here (no file access, e.g. stdin); it is rendered alone, so what depends on its values, Chart.yaml or helpers is not checked';
    // A fragment outside a chart is rendered document by document: Helm never renders it as one file of a chart.
    const lone = loneChart(input.path, input.text, isFragment(input.path));
    ctx.chart = ctx.own = lone;
    ctx.run = chartRun(lone, window.minors, undefined, openapi);
    ctx.template = ctx.run.byRel.get(lone.templates[0].rel);
    return ctx;
  }
  let top = loadChart(root.top, files);
  if (kind === 'template') {
    const t = allCharts(top).flatMap((c) => c.templates).find((x) => x.abs === input.path);
    if (t && t.text !== input.text) top = withText(top, input.path, input.text);
  }
  const run: ChartRun = chartRun(top, window.minors, input.helmRenders, openapi);
  ctx.chart = top;
  ctx.run = run;
  ctx.own = chartOfFile(top, input.path);
  if (kind === 'chart-yaml' && ctx.own && ctx.own.chartYaml?.text !== input.text) {
    // An open buffer the FileAccess does not show: its own fields are checked as typed.
    const yaml = parseYaml(input.text);
    const doc = yaml.docs.find((d) => !d.empty);
    ctx.own = { ...ctx.own, chartYaml: { abs: input.path, text: input.text, yaml, value: doc && !doc.errors.length ? doc.value : undefined } };
  }
  const problems = allCharts(top).flatMap((c) => c.problems);
  // The chart's values scenarios (ci/*-values.yaml, helm.valueSets): the chart rendered under each, lazily.
  const own = ctx.own;
  const sc = chartScenarios(top, files, input.valueSets);
  // And the values of the workspace's GitOps deployments of the chart (deployments.ts, issue #32 item 3), after them.
  const deployed = kind === 'template' || kind === 'archive' ? deploymentScenarios(input.neighbours, top) : { scenarios: [], notes: [] };
  const all = [...sc.scenarios, ...deployed.scenarios];
  if (all.length && (kind === 'template' || kind === 'archive')) ctx.scenarios = renderScenarios(top, window.minors, all, openapi).map((s) => ({ ...s }));
  if (kind === 'scenario') {
    ctx.scenario = sc.scenarios.find((x) => x.file === input.path);
    ctx.scenarioProblem = sc.problems.get(input.path);
    if (ctx.scenarioProblem) ctx.problems = [{ message: ctx.scenarioProblem }];
  }
  if ((kind === 'values' || kind === 'scenario' || kind === 'schema') && own) {
    // The schema of the chart whose values these are (a scenario's: the top chart's).
    const dir = kind === 'scenario' ? top.dir : own.dir;
    const abs = path.join(dir, 'values.schema.json');
    const text = own.archive ? undefined : kind === 'schema' ? input.text : files.read(abs);
    const why = text === undefined ? files.unreadable?.(abs) : undefined;
    if (text !== undefined || why) ctx.valuesSchema = { abs, text, why };
    // What of the schema is not checked: said on it; a schema not read: said on values.yaml (never a silent pass).
    if (kind === 'schema' && text !== undefined) ctx.problems = schemaNotes(text);
    else if (kind === 'values' && why) ctx.problems = [{ message: `not checked against values.schema.json: it is not read (${why})` }];
  }
  if (kind === 'chart-yaml' && ctx.own?.dir === top.dir && sc.notes.length) ctx.problems = sc.notes.map((message) => ({ message }));
  if (kind === 'template') {
    const tr = [...run.byRel.values()].find((x) => x.template.abs === input.path);
    if (tr && tr.notRendered && !/helper|NOTES/.test(tr.notRendered)) ctx.problems = [{ message: `not checked: ${tr.notRendered}` }];
    ctx.template = tr;
    // What of its chart (or the charts above it) was not read bears on how it renders: said on the template.
    const unread: Array<{ message: string }> = [];
    for (let c: Chart | undefined = tr?.chart; c; c = c.parent) for (const p of c.problems) if (/(^|[\\/!])values\.ya?ml$/.test(p.file)) unread.push({ message: `not checked as Helm renders it: ${p.file}: ${p.message}` });
    if (unread.length) ctx.problems = [...(ctx.problems ?? []), ...unread];
    if (!tr) ctx.problems = [{ message: 'not checked: the file is not one of its chart\'s templates as read (over the size limit, or more templates than are read)' }];
    if (deployed.notes.length) ctx.problems = [...(ctx.problems ?? []), ...deployed.notes.map((message) => ({ message }))];
    if (tr && ctx.scenarios) for (const s of ctx.scenarios) s.template = s.run.byRel.get(tr.template.rel);
  } else if (kind === 'chart-yaml' && ctx.own) {
    const notes = ctx.problems ?? [];
    // What of this chart could not be read and has no file of its own to carry it (a dependency not loaded, a
    // folder not listed, a link in a packaged dependency's archive is said on the archive): said here, at line 1.
    const dir = ctx.own.dir;
    ctx.problems = [...problems.filter((p) => p.chart === dir).map((p) => ({ message: `${path.relative(dir, p.file).split(path.sep).join('/') || p.file}: ${p.message}` })), ...notes];
  } else if (kind === 'archive') {
    const own = allCharts(top).find((c) => c.archive === input.path && c.parent && !c.parent.archive);
    ctx.own = own;
    ctx.archived = [...run.byRel.values()].filter((x) => x.chart.archive === input.path && !x.notRendered);
    for (const s of ctx.scenarios ?? []) s.archived = [...s.run.byRel.values()].filter((x) => x.chart.archive === input.path && !x.notRendered);
    ctx.problems = problems.filter((p) => p.file === input.path || p.file.startsWith(`${input.path}!`)).map((p) => ({ message: p.file === input.path ? p.message : `${p.file.slice(input.path.length + 1)}: ${p.message}` }));
    if (!own && !ctx.problems.length) ctx.problems = [{ message: 'not checked: this archive is not a dependency of the chart above it as read' }];
  }
  return ctx;
}

/** The 1-based line of an offset, as the editor numbers lines (\n, \r\n or a lone \r end one). */
const lineOf = (lines: LineIndex, at: number) => lines.positionAt(at).line + 1;

/**
 * A template fragment outside a chart that does not parse as YAML, as it is or once its actions are taken out: the
 * finding that says so (at its first `{{` where YAML reads structure), or undefined when one of the two parses.
 */
function neitherParses(text: string): { message: string; range: { start: number; end: number } } | undefined {
  const raw = parseYaml(text).errors;
  if (!raw.length) return undefined;
  const stripped = parseYaml(withoutActions(text)).errors;
  if (!stripped.length) return undefined;
  const scan = scanTemplates(text);
  const at = scan.syntax[0] ?? scan.bare[0] ?? Math.max(0, text.indexOf('{{'));
  const first = stripped.reduce((a, b) => (b.start < a.start ? b : a));
  const lines = new LineIndex(text);
  return {
    message: `taken for a Helm template fragment: the \`{{\` at line ${lineOf(lines, at)} stands where YAML reads structure and holds a Helm action, and no chart's templates/ holds the file; `
      + `but it parses as YAML neither as it is nor with its template actions taken out (line ${lineOf(lines, first.start)}: ${first.message}), so it is neither rendered nor checked as a manifest`,
    range: { start: at, end: at + 2 },
  };
}

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    helm?: HelmContext;
  }
}

export const helmChart: FamilyModule<'helm-chart'> = {
  id: 'helm-chart',
  changeReachesOthers: reachesChart,
  title: 'Helm charts (`Chart.yaml`, `values.yaml`, `templates/`)',
  modelineNames: ['helm-chart', 'helm'],
  serves: { files: [{ ext: '.yaml' }, { ext: '.yml' }, { ext: '.tpl', within: 'templates' }, { ext: '.tgz', parent: 'charts' }], languages: ['yaml', 'helm'], patterns: ['**/templates/**/*.tpl'] },
  look({ file, ext, text }) {
    const b = path.basename(file);
    if (b === 'Chart.yaml' || isValuesName(b) || isSchemaName(b) || scenarioChartDir(file) !== undefined) return { notYaml: false };
    // In a templates/ folder any action is the chart's; elsewhere only `{{` where YAML reads structure (issue #26).
    const inTemplates = segs(file).slice(0, -1).includes('templates');
    return { notYaml: ext === '.tgz' || ext === '.tpl' || (inTemplates ? hasHelmAction(text) : scanTemplates(text).syntax.length > 0) };
  },
  detect({ file, ext, text, files, yaml }) {
    const b = path.basename(file);
    const parts = segs(file);
    if (b === 'Chart.yaml') return DETECT.name;
    if (ext === '.tgz') return parts[parts.length - 2] === 'charts' ? DETECT.name : DETECT.no;
    if (isValuesName(b)) return files && chartRootOf(file, files) ? DETECT.name : DETECT.no;
    // values.schema.json and the chart's other values files (scenarios): beside (or in ci/ of) a Chart.yaml.
    const beside = isSchemaName(b) ? path.dirname(file) : scenarioChartDir(file);
    if (beside !== undefined && files?.read(path.join(beside, 'Chart.yaml')) !== undefined) return DETECT.name;
    const inTemplates = parts.slice(0, -1).includes('templates');
    if (ext === '.tpl') return inTemplates || hasHelmAction(text) ? DETECT.name : DETECT.no;
    // In a templates/ folder: a chart's template when a Chart.yaml is above it, or when nothing around it can be read
    // (Helm renders every file there; a JSON one only with a chart above it).
    if (ext === '.json') return inTemplates && files && chartRootOf(file, files) ? DETECT.name : DETECT.no;
    if (!['.yaml', '.yml', '.tpl', ''].includes(ext)) return DETECT.no;
    if (inTemplates && (!files || chartRootOf(file, files))) return DETECT.name;
    // Outside a chart, `{{` inside a scalar is another tool's text (the file is a manifest); `{{` where YAML reads
    // structure with a Helm action (`{{- if … }}` lines, `name: {{ .Release.Name }}`) makes a template fragment.
    const scan = scanTemplates(text);
    if (scan.syntax.length) return DETECT.structure;
    // Other `{{` where YAML reads structure: a template fragment only when the file does not parse as YAML but does
    // once its actions are taken out, and nothing else claims it (no apiVersion and kind at its top level).
    if (scan.bare.length && yaml?.errors.length && !(/^apiVersion[ \t]*:/m.test(text) && /^kind[ \t]*:/m.test(text)) && !parseYaml(withoutActions(text)).errors.length) return DETECT.hint;
    return DETECT.no;
  },
  explain({ file, ext, text, files }, level) {
    const b = path.basename(file);
    if (b === 'Chart.yaml') return 'its name: a chart\'s Chart.yaml';
    if (ext === '.tgz') return 'a packaged dependency in a chart\'s charts/ folder';
    if (isValuesName(b)) return 'its name: the values of the chart beside it';
    if (isSchemaName(b)) return 'its name: the JSON Schema of the values of the chart beside it';
    if (scenarioChartDir(file) !== undefined && level === DETECT.name) return path.basename(path.dirname(file)) === 'ci' ? 'its name and place: a values scenario of the chart (chart-testing\'s ci/*-values.yaml)' : 'its name: a values file beside a chart (a values scenario when helm.valueSets names it)';
    const root = files ? chartRootOf(file, files) : undefined;
    if (root) return `its place: under templates/ of the chart at ${root.own}/Chart.yaml`;
    if (level === DETECT.name && segs(file).slice(0, -1).includes('templates')) return ext === '.tpl' ? 'its name: a template helper (.tpl)' : 'its place: under a templates/ folder, whose chart\'s files cannot be read here';
    const scan = scanTemplates(text);
    const lines = new LineIndex(text);
    const line = (at: number) => lineOf(lines, at);
    if (scan.syntax.length) return `its content: the \`{{\` at line ${line(scan.syntax[0])} stands where YAML reads structure and holds a Helm action, and no chart's templates/ holds the file: a template fragment, rendered alone`;
    if (scan.bare.length) return `its content: it does not parse as YAML but does once its template actions are taken out (the \`{{\` at line ${line(scan.bare[0])}), and no other family claims it`;
    return ext === '.tpl' ? 'its content: a .tpl file holding Helm actions' : undefined;
  },
  rules: [...helmRules, ...deploymentRules],
  analyze({ input, ext, yaml, emit, stage }) {
    const { config, faults } = input;
    const kind = kindOf(input.path, ext);
    // Chart.yaml and values files are YAML; a template's syntax is said by its render (helm/template-syntax).
    if (yaml && (kind === 'chart-yaml' || kind === 'values' || kind === 'scenario')) stage('parse', () => reportSyntax(yaml, emit));
    const helm = stage('context', () => {
      const rows = withOpenapi(lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin), config.kubernetesOpenapi);
      return contextOf({ ...(input as typeof input & { helmRenders?: ChartRender[] }), valueSets: config.helm?.valueSets?.patterns }, kind, config.kubernetes, rows, config.kubernetesOpenapi);
    });
    // A fragment outside a chart that parses as YAML neither as it is nor with its actions taken out: one finding
    // says what it was taken for and why, instead of guessing at what it renders.
    // (Under a templates/ folder the file is placed in a chart, and a Go syntax error is said by helm/template-syntax.)
    const outside = helm.alone && kind === 'template' && isFragment(input.path) && !helm.template?.parsed.errors.length;
    const unread = outside ? stage('parse', () => neitherParses(input.text)) : undefined;
    if (unread) {
      emit(notInChart, unread);
      return { helm };
    }
    // With values scenarios, the rules on what templates emit run once per scenario and their findings are merged
    // (scenario-rules.ts); without, exactly as before.
    const scenarios = !!helm.scenarios?.length;
    for (const rule of helmRules) if (!scenarios || !SCENARIO_RULES.includes(rule)) runRule(rule, helm, emit, faults);
    if (scenarios) runScenarioRules(helm, emit, faults);
    // A chart's dependencies pin operator versions: against the workspace's other pins.
    if (kind === 'chart-yaml') runRule(operatorPinsDisagree, { text: input.text, path: input.path, neighbours: input.neighbours ?? {} }, emit, faults);
    try {
      runImageRules(helm, input, emit, faults);
    } catch (e) {
      emit(internalError, { message: describeFailure('helm:images', e), range: { start: 0, end: 0 }, data: { stage: 'helm:images', error: e } });
    }
    try {
      runCustomResourceRules(helm, input, emit, faults);
    } catch (e) {
      emit(internalError, { message: describeFailure('helm:custom-resources', e), range: { start: 0, end: 0 }, data: { stage: 'helm:custom-resources', error: e } });
    }
    try {
      runFieldRules(helm, input, emit, faults);
    } catch (e) {
      emit(internalError, { message: describeFailure('helm:fields', e), range: { start: 0, end: 0 }, data: { stage: 'helm:fields', error: e } });
    }
    return { helm };
  },
  hover: (r, text, pos) => (r.helm ? helmHover(r.helm, text, pos) : undefined),
  complete: () => [],
  facts: (r) => (r.helm ? { kubernetesWindow: windowText(r.helm.window.minors), chart: r.helm.chart?.name ?? null, helmFile: r.helm.kind, ...(r.helm.alone ? { alone: true } : {}), ...(r.helm.scenarios?.length ? { valuesScenarios: r.helm.scenarios.map((s) => s.scenario.id) } : {}) } : undefined),
  steps: (r) => r.helm?.window.minors ?? r.config?.kubernetes.minors,
  stepsName: 'Kubernetes',
  stepsSource: (r) => r.config?.kubernetes.source,
  rootFactProducers,
  data: kubernetesApis,
  // helm: of .skewguard.yaml (real Helm rendering, values scenarios, the repository's URLs), skewguard.helm.path.
  config: helmConfigSection,
};
