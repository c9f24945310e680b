// Issue #32 item 3: GitOps deployments of a chart in the same repository (a Flux HelmRelease, an Argo CD Application,
// a kustomization's helmCharts:) render the chart with their values. A template that emits batch/v1beta1 only under a
// deployment's values is an error at 1.25 on the template naming the deployment, and on the deployment's own line;
// what cannot be read is said on the deployment. The editor gives the same findings as lsp-lint whatever is open (the
// deployments a template is rendered with are read from the disk as saved), and the deployment's hover says its chart,
// values sources and what the chart emits at each step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';

const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');

const CRONJOB = `{{- if .Values.backup.legacy }}
apiVersion: batch/v1beta1
{{- else }}
apiVersion: batch/v1
{{- end }}
kind: CronJob
metadata:
  name: {{ .Release.Name }}-backup
spec:
  schedule: {{ .Values.schedule | quote }}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: backup
              image: busybox:1.36
`;
// .Release.Namespace decides the PodDisruptionBudget's apiVersion: the deployment's namespace must reach it.
const PDB = `{{- if eq .Release.Namespace "legacy" }}
apiVersion: policy/v1beta1
{{- else }}
apiVersion: policy/v1
{{- end }}
kind: PodDisruptionBudget
metadata:
  name: {{ .Release.Name }}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app: backup
`;
const HELMRELEASE = (values = '') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: backup
  namespace: db
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/backup
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
  valuesFrom:
    - kind: ConfigMap
      name: backup-values
${values}`;
const CONFIGMAP = (legacy) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: backup-values
  namespace: db
data:
  values.yaml: |
    backup:
      legacy: ${legacy}
`;
const APPLICATION = (file, ns = 'reports') => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: reports
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://git.example.com/platform/deploy.git
    path: charts/backup
    helm:
      valueFiles:
        - ${file}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${ns}
`;
const GITREPO = (name, url) => `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 1m
  url: ${url}
`;

const SITE = {
  '.skewguard.yaml': 'kubernetes:\n  window: "1.24..1.25"\n',
  'charts/backup/Chart.yaml': 'apiVersion: v2\nname: backup\nversion: 0.1.0\n',
  'charts/backup/values.yaml': 'schedule: "0 3 * * *"\nbackup:\n  legacy: false\n',
  'charts/backup/values-legacy.yaml': 'backup:\n  legacy: true\n',
  'charts/backup/templates/cronjob.yaml': CRONJOB,
  'charts/backup/templates/pdb.yaml': PDB,
  'flux/backup.yaml': HELMRELEASE(),
  'flux/backup-values.yaml': CONFIGMAP(true),
  'argo/reports.yaml': APPLICATION('values-legacy.yaml', 'legacy'),
};

function lint(root, args = []) {
  const r = spawnSync(process.execPath, [bin, '-f', 'json', '--max-warnings', '-1', ...args, '.'], { cwd: root, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.error, undefined, String(r.error));
  return Object.fromEntries(JSON.parse(r.stdout).map((x) => [path.relative(root, x.filePath).split(path.sep).join('/'), x.messages]));
}
const fromCli = (m) => `${m.ruleId} ${m.line - 1}:${m.column - 1}-${m.endLine - 1}:${m.endColumn - 1} ${m.message}`;
const fromLsp = (d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;

test('#32 item 3: a template that emits batch/v1beta1 only under a HelmRelease\'s valuesFrom or an Application\'s valueFiles is an error at 1.25 naming the deployment, on the template and on the deployment', (t) => {
  const root = makeWorkspace(SITE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const got = lint(root);
  const cron = got['charts/backup/templates/cronjob.yaml'].filter((m) => m.ruleId === 'helm/removed-api');
  assert.equal(cron.length, 1, JSON.stringify(cron));
  assert.equal(cron[0].line, 2);
  assert.equal(cron[0].severity, 'error');
  assert.match(cron[0].message, /^at 1\.25 this template emits batch\/v1beta1 CronJob, .* \(with Application argocd\/reports \(argo\/reports\.yaml:4\) and HelmRelease db\/backup \(flux\/backup\.yaml:4\)\)$/);
  // .Release.Namespace is the Application's destination namespace: only its render emits policy/v1beta1.
  const pdb = got['charts/backup/templates/pdb.yaml'].filter((m) => m.ruleId === 'helm/removed-api');
  assert.equal(pdb.length, 1, JSON.stringify(pdb));
  assert.match(pdb[0].message, /^at 1\.25 this template emits policy\/v1beta1 PodDisruptionBudget, .* \(with Application argocd\/reports \(argo\/reports\.yaml:4\)\)$/);
  // The deployments' own lines sum up what breaks, template and line named.
  const hr = got['flux/backup.yaml'].filter((m) => m.ruleId === 'helm/deployment-breaks');
  assert.equal(hr.length, 1, JSON.stringify(got['flux/backup.yaml']));
  assert.equal(hr[0].line, 4);
  assert.match(hr[0].message, /HelmRelease db\/backup renders the chart charts\/backup with valuesFrom ConfigMap db\/backup-values \(release db\/backup\): at 1\.25 templates\/cronjob\.yaml:2 emits batch\/v1beta1 CronJob, not served there \(removed in 1\.25\)/);
  const app = got['argo/reports.yaml'].filter((m) => m.ruleId === 'helm/deployment-breaks');
  assert.equal(app.length, 1);
  assert.match(app[0].message, /templates\/cronjob\.yaml:2 emits batch\/v1beta1 CronJob.*templates\/pdb\.yaml:2 emits policy\/v1beta1 PodDisruptionBudget/);
});

test('#32 item 3: with the chart\'s defaults only (the deployment sets legacy: false) nothing is said; spec.values wins over valuesFrom', (t) => {
  const root = makeWorkspace({ ...SITE, 'argo/reports.yaml': APPLICATION('values.yaml'), 'flux/backup.yaml': HELMRELEASE('  values:\n    backup:\n      legacy: false\n') });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const got = lint(root);
  for (const [f, ms] of Object.entries(got)) assert.deepEqual(ms.filter((m) => m.severity === 'error'), [], f);
});

test('#32 item 3: a chart path not in the workspace (information) and a values source that cannot be read (not checked: exit 2) are said once, on the deployment', (t) => {
  const root = makeWorkspace({
    ...SITE,
    'flux/backup-values.yaml': '# moved to the cluster repository\n',
    'argo/reports.yaml': APPLICATION('values-prod.yaml'),
    'argo/web.yaml': APPLICATION('values.yaml').replace('charts/backup', 'charts/web').replace('name: reports', 'name: web'),
  });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const r = spawnSync(process.execPath, [bin, '-f', 'json', '.'], { cwd: root, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 2, r.stderr);
  const got = Object.fromEntries(JSON.parse(r.stdout).map((x) => [path.relative(root, x.filePath).split(path.sep).join('/'), x.messages]));
  const only = (f) => got[f].filter((m) => m.ruleId === 'helm/deployment-not-checked');
  assert.deepEqual(only('flux/backup.yaml').map((m) => [m.line, m.message]), [[17, 'not checked with HelmRelease db/backup\'s valuesFrom ConfigMap db/backup-values: no ConfigMap db/backup-values in the workspace, so the chart is not rendered with the values it deploys']]);
  assert.deepEqual(only('argo/reports.yaml').map((m) => [m.line, m.message]), [[13, 'not checked with Application argocd/reports\'s valueFiles values-prod.yaml: charts/backup/values-prod.yaml is not in the workspace, so the chart is not rendered with the values it deploys']]);
  assert.deepEqual(only('argo/web.yaml').map((m) => m.line), [4]);
  assert.match(only('argo/web.yaml')[0].message, /^Application argocd\/web deploys the chart charts\/web, which is not in the workspace/);
  assert.equal(only('argo/web.yaml')[0].severity, 'info');
  // Nothing on the template: the values it would have been rendered with are not known.
  assert.deepEqual(got['charts/backup/templates/cronjob.yaml'].filter((m) => m.severity === 'error'), []);
});

test('#32 item 3: a GitRepository is this repository when its URL is the git remote of .git/config (another one\'s chart path is not checked here)', (t) => {
  const hr = (src) => HELMRELEASE().replace('name: flux-system\n        namespace', `name: ${src}\n        namespace`);
  const root = makeWorkspace({
    ...SITE,
    'argo/reports.yaml': APPLICATION('values.yaml'),
    '.git/config': '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@git.example.com:platform/deploy.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    'flux/sources.yaml': `${GITREPO('flux-system', 'ssh://git@git.example.com/platform/deploy.git')}---\n${GITREPO('vendor', 'https://github.com/vendor/charts')}`,
    'flux/backup.yaml': hr('flux-system'),
    'flux/vendor.yaml': hr('vendor').replace('name: backup\n  namespace: db', 'name: vendor-backup\n  namespace: db'),
  });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const got = lint(root);
  assert.equal(got['flux/backup.yaml'].filter((m) => m.ruleId === 'helm/deployment-breaks').length, 1);
  // The vendor's repository also has a charts/backup: not this workspace's, so nothing is rendered with its values.
  assert.deepEqual(got['flux/vendor.yaml'].filter((m) => m.ruleId.startsWith('helm/')), []);
  const cron = got['charts/backup/templates/cronjob.yaml'].filter((m) => m.ruleId === 'helm/removed-api');
  assert.equal(cron.length, 1);
  assert.match(cron[0].message, / \(with HelmRelease db\/backup \(flux\/backup\.yaml:4\)\)$/);
});

test('#32 item 3: a deployment written JSON-style in a .yaml file is found (the workspace walk\'s cheap look for deployments is a superset); a workspace with none renders the chart with its defaults only', (t) => {
  const chart = Object.fromEntries(Object.entries(SITE).filter(([f]) => f.startsWith('charts/') || f === '.skewguard.yaml'));
  const none = makeWorkspace({ ...chart, 'flux/backup-values.yaml': CONFIGMAP(true) });
  t.after(() => fs.rmSync(none, { recursive: true, force: true }));
  assert.deepEqual(lint(none)['charts/backup/templates/cronjob.yaml'].filter((m) => m.ruleId === 'helm/removed-api'), [], 'defaults: legacy off');
  const kust = JSON.stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', namespace: 'analytics', helmGlobals: { chartHome: '../charts' }, helmCharts: [{ name: 'backup', releaseName: 'analytics-backup', valuesInline: { backup: { legacy: true } } }] });
  const json = makeWorkspace({ ...chart, 'kust/kustomization.yaml': `${kust}\n` });
  t.after(() => fs.rmSync(json, { recursive: true, force: true }));
  const cron = lint(json)['charts/backup/templates/cronjob.yaml'].filter((m) => m.ruleId === 'helm/removed-api');
  assert.equal(cron.length, 1);
  assert.match(cron[0].message, /kust\/kustomization\.yaml/);
});

test('#32 item 3: a values source in a YAML file too big to read is said as not read where the lookup fails, not passed as missing', (t) => {
  const big = `${CONFIGMAP(true)}# ${'x'.repeat(21 * 1024 * 1024)}\n`;
  const root = makeWorkspace({ ...SITE, 'flux/backup-values.yaml': big });
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const hr = lint(root)['flux/backup.yaml'].filter((m) => m.ruleId === 'helm/deployment-not-checked');
  assert.equal(hr.length, 1, JSON.stringify(hr));
  assert.match(hr[0].message, /no ConfigMap db\/backup-values in the workspace \(1 YAML file not read \(over the size limit or unreadable: flux\/backup-values\.yaml\)\)/);
});

test('#32 item 3: helm.repositories names this repository over the git remotes: a clone whose remote is another URL (a mirror, CI) checks the same deployments', (t) => {
  const mirror = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://mirror.example.org/deploy.git\n';
  const files = { ...SITE, 'argo/reports.yaml': APPLICATION('values-legacy.yaml'), '.git/config': mirror };
  const breaks = (got) => got['argo/reports.yaml'].filter((m) => m.ruleId === 'helm/deployment-breaks');
  // The remote is not the Application's repoURL: another repository's chart, not rendered here.
  const plain = makeWorkspace(files);
  t.after(() => fs.rmSync(plain, { recursive: true, force: true }));
  assert.deepEqual(breaks(lint(plain)), []);
  // Said in .skewguard.yaml: the Application deploys this workspace's chart, whatever the clone's remote.
  const cfg = SITE['.skewguard.yaml'] + 'helm:\n  repositories: ["git@git.example.com:platform/deploy"]\n';
  const declared = makeWorkspace({ ...files, '.skewguard.yaml': cfg });
  t.after(() => fs.rmSync(declared, { recursive: true, force: true }));
  const got = lint(declared);
  assert.equal(breaks(got).length, 1, JSON.stringify(got['argo/reports.yaml']));
  // And an Application of another URL is then another repository's, named with where that is said.
  const other = makeWorkspace({ ...files, '.skewguard.yaml': cfg.replace('git@git.example.com:platform/deploy', 'https://git.example.com/other/repo') });
  t.after(() => fs.rmSync(other, { recursive: true, force: true }));
  assert.deepEqual(breaks(lint(other)), []);
});

test('#32 item 3: the editor gives lsp-lint\'s findings whatever is open (an unsaved ConfigMap or deployment renders nothing for the template until saved); the deployment\'s hover says its chart, values and steps', async (t) => {
  const root = makeWorkspace(SITE);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const uri = (f) => uriOf(path.join(root, f));
  const cli = Object.fromEntries(Object.entries(lint(root)).map(([f, ms]) => [f, ms.map(fromCli).sort()]));
  const WATCH = ['charts/backup/templates/cronjob.yaml', 'charts/backup/templates/pdb.yaml', 'flux/backup.yaml', 'argo/reports.yaml'];
  const orders = [
    ['charts/backup/templates/cronjob.yaml'],
    ['flux/backup.yaml', 'charts/backup/templates/cronjob.yaml', 'charts/backup/templates/pdb.yaml'],
    ['argo/reports.yaml', 'flux/backup-values.yaml', 'flux/backup.yaml', 'charts/backup/templates/pdb.yaml', 'charts/backup/templates/cronjob.yaml'],
  ];
  for (const order of orders) {
    const client = new LspClient(root);
    t.after(() => client.kill());
    await client.initialize();
    for (const f of order) await client.open(uri(f), SITE[f]);
    for (const f of order.filter((x) => WATCH.includes(x))) assert.deepEqual(client.published.get(uri(f)).at(-1).diagnostics.map(fromLsp).sort(), cli[f] ?? [], `${f} with ${order.join(', ')} open`);
    client.kill();
  }

  const client = new LspClient(root);
  t.after(() => client.kill());
  await client.initialize();
  // An unsaved ConfigMap that turns legacy off: the template still renders with the saved one, as lsp-lint does.
  await client.open(uri('flux/backup-values.yaml'), CONFIGMAP(true));
  await client.change(uri('flux/backup-values.yaml'), 2, [{ text: CONFIGMAP(false) }]);
  await client.open(uri('charts/backup/templates/cronjob.yaml'), CRONJOB);
  assert.deepEqual(client.published.get(uri('charts/backup/templates/cronjob.yaml')).at(-1).diagnostics.map(fromLsp).sort(), cli['charts/backup/templates/cronjob.yaml']);
  // The deployment's own buffer is its own analysis: an unsaved HelmRelease is checked as typed.
  await client.open(uri('flux/backup.yaml'), SITE['flux/backup.yaml']);
  const hover = await client.request('textDocument/hover', { textDocument: { uri: uri('flux/backup.yaml') }, position: { line: 3, character: 9 } });
  const md = JSON.stringify(hover?.contents ?? null);
  assert.match(md, /HelmRelease db\/backup\*\* deploys the chart `charts\/backup` as release `db\/backup`/);
  assert.match(md, /valuesFrom ConfigMap db\/backup-values — flux\/backup-values\.yaml/);
  assert.match(md, /\| 1\.24 \| templates\/cronjob\.yaml:2 \| `batch\/v1beta1 CronJob` — deprecated there \|/);
  assert.match(md, /\| 1\.25 \| templates\/cronjob\.yaml:2 \| `batch\/v1beta1 CronJob` — not served there \|/);
  // The template's hover lists what each deployment's values make the line emit.
  const th = await client.request('textDocument/hover', { textDocument: { uri: uri('charts/backup/templates/cronjob.yaml') }, position: { line: 1, character: 14 } });
  assert.match(JSON.stringify(th?.contents ?? null), /With HelmRelease db\/backup \(flux\/backup\.yaml:4\)/);

  // Saved (the watcher's change): the ConfigMap that turns legacy off applies; the template's error now names only the Application.
  const since = client.count(uri('charts/backup/templates/cronjob.yaml'));
  fs.writeFileSync(path.join(root, 'flux/backup-values.yaml'), CONFIGMAP(false));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('flux/backup-values.yaml'), type: 2 }] });
  const p = await client.waitFor(uri('charts/backup/templates/cronjob.yaml'), (x) => x.diagnostics.some((d) => /^at 1\.25 .* \(with Application argocd\/reports \(argo\/reports\.yaml:4\)\)$/.test(d.message)), { since });
  assert.ok(p, 'the template is checked again with the saved ConfigMap');
  const saved = Object.fromEntries(Object.entries(lint(root)).map(([f, ms]) => [f, ms.map(fromCli).sort()]));
  assert.deepEqual(p.diagnostics.map(fromLsp).sort(), saved['charts/backup/templates/cronjob.yaml']);
});

// The prefilter of files that may deploy a chart (deployments.ts mayDeploy, also the workspace walk's) looks for each name
// where a rare piece of it is: the same answers as the expression it replaced, on texts made of the names (quoted
// helmCharts keys too), pieces of them and near misses.
test('mayDeploy answers as the expression for the Flux, Argo CD and Kustomize names does', async () => {
  const { loadSource } = await import('./helpers/source-module.mjs');
  const { mayDeploy } = await loadSource('server/src/engine/families/helm-chart/deployments.ts', { packagesExternal: true });
  const named = (t) => /helm\.toolkit\.fluxcd\.io|argoproj\.io|helmCharts["']?\s*:/.test(t);
  const names = ['helm.toolkit.fluxcd.io', 'argoproj.io', 'helmCharts:', 'helmCharts  :', 'helmCharts\n:', '"helmCharts":', "'helmCharts' :"];
  const near = ['xcd.io', 'j.io', 'Charts', 'helmCharts', 'helm.toolkit.fluxcd.i', 'elm.toolkit.fluxcd.io', 'argoproj.i', 'rgoproj.io',
    'source.toolkit.fluxcd.io', 'helmChart:', 'HelmCharts', 'fluxcd.io', 'argoproj', '.io', 'helm.toolkit.', 'kind: HelmRelease\n', '"', "'"];
  let seed = 29;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let yes = 0, quoted = 0;
  for (let k = 0; k < 4000; k++) {
    let text = '';
    for (let p = rnd(7); p >= 0; p--) {
      const pick = rnd(12);
      text += pick < 2 ? names[rnd(names.length)] : pick < 8 ? near[rnd(near.length)] : 'apiVersion: v1\n  chart: x # j.io\n'.slice(rnd(12), 12 + rnd(20));
    }
    const want = named(text);
    if (want) yes++;
    if (want && !/helm\.toolkit\.fluxcd\.io|argoproj\.io|helmCharts\s*:/.test(text)) quoted++;
    assert.equal(mayDeploy(text), want, JSON.stringify(text));
  }
  assert.ok(yes > 500 && yes < 3500, `${yes} of 4000 texts: both answers are tried`);
  assert.ok(quoted > 20, `${quoted} texts may deploy by a quoted helmCharts key only`);
});
