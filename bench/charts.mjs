// Benchmark suite for Helm chart repositories (issue 15), added to bench/run.mjs's SUITES:
//
//   charts   a repository of 200 charts (2,000 templates: capability helpers in _helpers.tpl, inline
//            .Capabilities branches, hard-coded apiVersions, values-driven images) through lsp-lint, against
//            lsp-lint on the same number of plain manifest files (the same documents, literal); and a keystroke
//            in a template → diagnostics over LSP, p50 / p95.
//
// The chart corpus is generated with fixed seeds; nothing here runs Helm (real rendering is Helm's cost and is
// reported separately by the helm-render suite when it is on).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng } from './corpus.mjs';
import { LspSession } from './lsp.mjs';

const CHARTS = 200;
const TEMPLATES_PER_CHART = 10;
const RUNS = { lint: 3, edits: 200, editWarmup: 20 };
const WINDOW = '1.21..1.25';

const HELPERS = (name) => `{{/* helpers of ${name} */}}
{{- define "${name}.fullname" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "${name}.labels" -}}
app.kubernetes.io/name: {{ include "${name}.fullname" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{- define "${name}.capabilities.kubeVersion" -}}
{{- default .Capabilities.KubeVersion.Version .Values.kubeVersion -}}
{{- end -}}

{{- define "${name}.capabilities.ingress.apiVersion" -}}
{{- if semverCompare "<1.14-0" (include "${name}.capabilities.kubeVersion" .) -}}
{{- print "extensions/v1beta1" -}}
{{- else if semverCompare "<1.19-0" (include "${name}.capabilities.kubeVersion" .) -}}
{{- print "networking.k8s.io/v1beta1" -}}
{{- else -}}
{{- print "networking.k8s.io/v1" -}}
{{- end -}}
{{- end -}}

{{- define "${name}.capabilities.cronjob.apiVersion" -}}
{{- if semverCompare "<1.21-0" (include "${name}.capabilities.kubeVersion" .) -}}
{{- print "batch/v1beta1" -}}
{{- else -}}
{{- print "batch/v1" -}}
{{- end -}}
{{- end -}}
`;

/** One template and its literal twin (what it renders to at the window's steps that matter for the count). */
function template(r, chart, i) {
  const name = `${chart}-t${i}`;
  const kinds = ['deployment', 'service', 'ingress', 'cronjob', 'configmap', 'pdb', 'hpa'];
  const k = kinds[(i + r.int(0, kinds.length - 1)) % kinds.length];
  const meta = (literal) => `metadata:
  name: ${literal ? chart : `{{ include "${chart}.fullname" . }}`}-${name}
  labels:
    ${literal ? `app.kubernetes.io/name: ${chart}` : `{{- include "${chart}.labels" . | nindent 4 }}`}
`;
  const image = (literal) => (literal ? 'registry.example.com/app:1.2.3' : '{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}');
  switch (k) {
    case 'deployment': return [(l) => `apiVersion: apps/v1
kind: Deployment
${meta(l)}spec:
  replicas: ${l ? 2 : '{{ .Values.replicaCount }}'}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: app
          image: "${image(l)}"
          ports:
            - containerPort: 8080
`, k];
    case 'service': return [(l) => `apiVersion: v1
kind: Service
${meta(l)}spec:
  type: ${l ? 'ClusterIP' : '{{ .Values.service.type }}'}
  ports:
    - port: 80
      targetPort: 8080
`, k];
    case 'ingress': return [(l) => `${l ? '' : '{{- if .Values.ingress.enabled }}\n'}apiVersion: ${l ? 'networking.k8s.io/v1' : `{{ include "${chart}.capabilities.ingress.apiVersion" . }}`}
kind: Ingress
${meta(l)}spec:
  rules:
    - host: ${name}.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: ${name}
                port:
                  number: 80
${l ? '' : '{{- end }}\n'}`, k];
    case 'cronjob': return [(l) => `apiVersion: ${l ? 'batch/v1beta1' : 'batch/v1beta1'}
kind: CronJob
${meta(l)}spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: job
              image: "${image(l)}"
`, k];
    case 'configmap': return [(l) => `apiVersion: v1
kind: ConfigMap
${meta(l)}data:
  key: ${l ? 'value' : '{{ .Values.config.key | quote }}'}
`, k];
    case 'pdb': return [(l) => `${l ? 'apiVersion: policy/v1' : '{{- if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}'}
kind: PodDisruptionBudget
${meta(l)}spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: ${name}
`, k];
    default: return [(l) => `apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
${meta(l)}spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${name}
  minReplicas: 1
  maxReplicas: 3
`, k];
  }
}

/** Writes the chart repository and the plain twin; returns { charts, plain, templates, editTemplate }. */
export function writeChartRepo(root) {
  const r = rng(1515);
  const charts = path.join(root, 'charts-repo');
  const plain = path.join(root, 'plain');
  let templates = 0, editTemplate;
  for (let c = 0; c < CHARTS; c++) {
    const chart = `app${String(c).padStart(3, '0')}`;
    const dir = path.join(charts, chart);
    fs.mkdirSync(path.join(dir, 'templates'), { recursive: true });
    fs.mkdirSync(path.join(plain, chart), { recursive: true });
    fs.writeFileSync(path.join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${chart}\nversion: 0.${c}.0\nappVersion: "1.${c}.0"\nkubeVersion: ">=1.19.0-0"\n`);
    fs.writeFileSync(path.join(dir, 'values.yaml'), `replicaCount: 2\nimage:\n  repository: registry.example.com/${chart}\n  tag: ""\nservice:\n  type: ClusterIP\ningress:\n  enabled: true\nconfig:\n  key: value\n`);
    fs.writeFileSync(path.join(dir, 'templates', '_helpers.tpl'), HELPERS(chart));
    for (let i = 0; i < TEMPLATES_PER_CHART; i++) {
      const [make, kind] = template(r, chart, i);
      const file = path.join(dir, 'templates', `${kind}-${i}.yaml`);
      fs.writeFileSync(file, make(false));
      fs.writeFileSync(path.join(plain, chart, `${kind}-${i}.yaml`), make(true));
      templates++;
      if (!editTemplate && kind === 'deployment') editTemplate = file;
    }
  }
  return { charts, plain, templates, editTemplate };
}

/**
 * @param {object} ctx helpers from run.mjs: { SERVER_ENV, LSP_LINT, check, row, rows, stats, median, pct, ms, ratio, tmpDir, run, gc, Failure }
 */
export function chartSuites(ctx) {
  const { SERVER_ENV, LSP_LINT, check, row, rows, stats, median, pct, ms, ratio, tmpDir, run, gc, Failure } = ctx;

  async function lintDir(dir) {
    const report = path.join(path.dirname(dir), `report-${path.basename(dir)}.json`);
    gc();
    const r = await run(process.execPath, [LSP_LINT, '--kubernetes-window', WINDOW, '--format', 'json', '--output-file', report, path.basename(dir)], { cwd: path.dirname(dir), env: SERVER_ENV });
    if (r.code !== 0 && r.code !== 1) throw new Failure(`lsp-lint exited ${r.code} on ${dir}\n${r.stderr.slice(0, 2000)}`);
    const got = JSON.parse(fs.readFileSync(report, 'utf8'));
    const messages = got.flatMap((f) => f.messages.map((m) => ({ ...m, file: f.filePath })));
    return { ms: r.ms, files: got.length, messages };
  }

  async function charts() {
    const S = '9. Helm chart repository (issue 15)';
    const root = tmpDir('charts');
    const { charts: chartDir, plain, templates, editTemplate } = writeChartRepo(root);
    console.log(`\n${S} (${CHARTS} charts, ${templates} templates + ${CHARTS} helpers; window ${WINDOW})`);
    const chartRuns = [], plainRuns = [];
    let chartFirst, plainFirst;
    for (let i = -1; i < RUNS.lint; i++) {
      const c = await lintDir(chartDir);
      const p = await lintDir(plain);
      chartFirst ??= c; plainFirst ??= p;
      check(`chart repository diagnostics, run ${i + 2}`, c.messages.length === chartFirst.messages.length && c.messages.length > 0, `${c.messages.length} in ${c.files} files`);
      if (i >= 0) { chartRuns.push(c.ms); plainRuns.push(p.ms); }
    }
    // Every template was read: the per-step rules found the hard-coded CronJobs, and no template was left as "not checked".
    const byRule = {};
    for (const m of chartFirst.messages) byRule[m.ruleId] = (byRule[m.ruleId] ?? 0) + 1;
    const cronjobs = fs.readdirSync(chartDir).flatMap((c) => fs.readdirSync(path.join(chartDir, c, 'templates')).filter((f) => f.startsWith('cronjob-')).map((f) => path.join(c, 'templates', f)));
    const cronFlagged = new Set(chartFirst.messages.filter((m) => m.severity === 'error' && /cronjob-/.test(m.file)).map((m) => path.relative(chartDir, m.file)));
    check('every hard-coded batch/v1beta1 CronJob template has an error', cronjobs.length > 0 && cronjobs.every((f) => cronFlagged.has(f)), `${cronFlagged.size} of ${cronjobs.length}; rules ${JSON.stringify(byRule)}`);
    check('no template is left unchecked', !chartFirst.messages.some((m) => m.ruleId === 'k8s/helm-template'), `k8s/helm-template notes: ${byRule['k8s/helm-template'] ?? 0}`);
    const cs = stats(chartRuns), ps = stats(plainRuns);
    row(S, `lsp-lint, ${CHARTS} charts (${templates + CHARTS} template files + Chart.yaml/values.yaml)`, cs, { note: `**${ratio(cs.median, ps.median)} the plain files' time** (goal ≤ 2×); ${chartFirst.messages.length} findings` });
    row(S, `lsp-lint, ${plainFirst.files || CHARTS * TEMPLATES_PER_CHART} plain manifest files (the same documents, literal)`, ps, { note: `${plainFirst.messages.length} findings` });

    // A keystroke in a template: change one value (the replica count) over LSP, debounce 0.
    const session = await LspSession.start({
      command: process.execPath, args: [path.join(path.dirname(LSP_LINT), '..', 'dist', 'server.js'), '--stdio'], cwd: chartDir, env: SERVER_ENV,
      initializationOptions: { cli: { kubernetesWindow: WINDOW }, settings: { debounceMs: 0 } },
    });
    const uri = pathToFileURL(editTemplate).toString();
    const base = fs.readFileSync(editTemplate, 'utf8');
    const opened = await session.open(uri, base, { languageId: 'helm' });
    const lines = base.split('\n');
    const at = lines.findIndex((l) => l.includes('containerPort:'));
    const col = lines[at].indexOf(':') + 2;
    let len = lines[at].length - col;
    const samples = [], counts = new Set();
    const r = rng(77);
    for (let i = -RUNS.editWarmup, v = 1; i < RUNS.edits; i++) {
      const text = String(r.int(1000, 65000));
      const res = await session.change(uri, ++v, [{ range: { start: { line: at, character: col }, end: { line: at, character: col + len } }, text }]);
      len = text.length;
      counts.add(res.diagnostics.length);
      if (i >= 0) samples.push(res.ms);
    }
    await session.stop();
    check('template diagnostics unchanged by the edits', counts.size === 1 && counts.has(opened.diagnostics.length), `${[...counts].join('/')} (on open ${opened.diagnostics.length})`);
    const s = stats(samples);
    rows.push({ section: S, name: 'keystroke in a template → publishDiagnostics, p50 / p95', value: `${ms(median(samples))} / ${ms(pct(samples, 95))}`, range: `${ms(s.min)} – ${ms(s.max)}`, n: String(s.n), note: 'goal p95 ≤ 30 ms; debounceMs 0' });
    console.log(`  keystroke p50 ${ms(median(samples))}, p95 ${ms(pct(samples, 95))}`);
  }

  return { charts };
}

export const chartMethod = [
  `- Charts: ${CHARTS} generated charts of ${TEMPLATES_PER_CHART} templates and a _helpers.tpl each (Bitnami-style capability helpers,`,
  '  inline `.Capabilities.APIVersions.Has` branches, hard-coded apiVersions), window ' + WINDOW + ', through `lsp-lint --format json`; the plain',
  '  twin has the same documents with every template action replaced by its literal value, one file per template.',
];
