// The Helm chart rules on the template files themselves: syntax, and a template outside any chart.
import type { Rule } from '../../../rules/types';
import type { HelmContext } from '../index';

export const templateSyntax: Rule<HelmContext> = {
  id: 'helm/template-syntax',
  family: 'helm-chart',
  defaultSeverity: 'error',
  title: 'Go template syntax error in a chart template',
  what: 'Reports, at its position, a template action that Go\'s text/template (as Helm uses it) cannot read: an unclosed `{{`, an '
    + '`if` without `end`, an unknown keyword, a bad string. Such a template is not rendered, so what it emits is not checked.',
  why: 'Helm refuses to render the whole chart when one template does not parse: no install, no upgrade.',
  bad: { filename: 'templates/svc.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }\n' },
  good: { filename: 'templates/svc.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n' },
  fix: 'none',
  sources: ['Go text/template (parse)', 'Helm pkg/engine'],
  check(ctx, report) {
    const errs = ctx.template?.parsed.errors ?? [];
    for (const e of errs) report({ message: `template syntax: ${e.message} (the template is not rendered, so what it emits is not checked)`, range: { start: e.start, end: Math.max(e.end, e.start) } });
  },
};

export const notInChart: Rule<HelmContext> = {
  id: 'helm/not-in-chart',
  family: 'helm-chart',
  defaultSeverity: 'info',
  title: 'Helm template outside a chart',
  what: 'Says, at the first template action, that a file holding Helm template syntax has no Chart.yaml above it (or was given '
    + 'without its chart, e.g. on stdin): it is rendered alone; what depends on its values, Chart.yaml or helpers is Unknown there, '
    + 'so it is said as not checked (helm/not-evaluated), never taken as empty. Outside a chart a file is such a fragment only when a `{{` with a '
    + 'Helm action stands where YAML reads structure (`{{- if … }}` lines, `name: {{ .Release.Name }}`): `{{ … }}` inside a scalar is another tool\'s '
    + 'text and the file a manifest. A fragment that parses as YAML neither as it is nor with its actions taken out gets this one finding '
    + 'instead, saying what it was taken for and why, and is neither rendered nor checked.',
  why: 'A template renders with its chart\'s values, helpers and Chart.yaml: without them most of what it emits cannot be decided, so the '
    + 'file is not (fully) checked: lsp-lint exits 2 on it unless `--allow-unchecked`.',
  bad: { filename: 'deploy/web.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n' },
  good: { filename: 'deploy/web.yaml', text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' },
  fix: 'none',
  sources: ['Helm docs: Charts (The Chart File Structure)'],
  check(ctx, report) {
    if (!ctx.alone) return;
    const open = ctx.text.indexOf('{{');
    const at = Math.max(0, open);
    report({ message: ctx.alone, range: { start: at, end: open >= 0 ? at + 2 : at }, data: { notChecked: true } });
  },
};
