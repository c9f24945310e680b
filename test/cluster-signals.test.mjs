// Issue #33 items 1 and 2: what the cluster itself says, exported once and checked offline. The API server's
// /metrics (cluster-metrics family: every apiserver_requested_deprecated_apis series at its line) and its audit log
// (audit-log family: calls grouped by caller and API, with a count, at the first call's line), both judged at each
// step of the Kubernetes window with the manifests' lifecycle data. The bar cases of the issue, the formats
// (escapes, CRLF, BOM, JSON lines, arrays, EventLists), hostile inputs, big inputs and the network probe.
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { engine as e, repoRoot, configFor } from './helpers/k8s.mjs';
import { scratch, lint } from './helpers/cli-run.mjs';

const DEP = 'apiserver_requested_deprecated_apis';
const HEAD = `# HELP ${DEP} [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE ${DEP} gauge\n`;
const series = (g, v, r, rr, sub = '') => `${DEP}{group="${g}",removed_release="${rr}",resource="${r}",subresource="${sub}",version="${v}"} 1\n`;
const run = (file, text, window) => e.analyze({ path: file, text, config: configFor(window) });
const mine = (r, re = /^k8s\/(cluster|audit|metrics)/) => r.diagnostics.filter((d) => re.test(d.ruleId));
const where = (d) => `${d.ruleId} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}`;

const event = (o = {}) => ({
  kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'a1', stage: 'ResponseComplete', verb: 'list',
  requestURI: '/apis/batch/v1beta1/namespaces/backup/cronjobs?limit=500',
  user: { username: 'system:serviceaccount:backup:backup-operator', groups: ['system:serviceaccounts'] },
  sourceIPs: ['10.0.3.17'], userAgent: 'backup-operator/2.3.1 (linux/amd64) kubernetes/0f1e2d3',
  objectRef: { resource: 'cronjobs', namespace: 'backup', apiGroup: 'batch', apiVersion: 'v1beta1' },
  responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: '2026-11-30T02:00:00.000000Z', stageTimestamp: '2026-11-30T02:00:00.010000Z',
  annotations: { 'authorization.k8s.io/decision': 'allow' }, ...o,
});
const PODS = { verb: 'list', requestURI: '/api/v1/namespaces/backup/pods', objectRef: { resource: 'pods', namespace: 'backup', apiVersion: 'v1' } };
const jsonl = (evs) => `${evs.map((x) => JSON.stringify(x)).join('\n')}\n`;

test('bar case: a deprecated-API series for policy/v1beta1 podsecuritypolicies is an error under 1.24..1.25, at its line', () => {
  const text = `# HELP go_goroutines Number of goroutines that currently exist.\n# TYPE go_goroutines gauge\ngo_goroutines 1873\n${HEAD}${series('policy', 'v1beta1', 'podsecuritypolicies', '1.25')}`;
  const r = run('/w/cluster-metrics.txt', text, '1.24..1.25');
  assert.equal(r.family, 'cluster-metrics');
  const d = mine(r);
  assert.deepEqual(d.map(where), [`k8s/cluster-api-not-served 6:1-6:${text.split('\n')[5].lastIndexOf('}') + 2}`]);
  assert.equal(d[0].severity, 'error');
  assert.match(d[0].message, /^policy\/v1beta1 podsecuritypolicies \(PodSecurityPolicy\) was requested from this cluster \(apiserver_requested_deprecated_apis\): not served from Kubernetes 1\.25 on \(at 1\.25\), in the window 1\.24\.\.1\.25/);
  assert.deepEqual(d[0].steps, ['1.25'], 'the step it breaks');
  // One minor earlier the same series is a deprecation warning, not an error.
  assert.deepEqual(mine(run('/w/cluster-metrics.txt', text, '1.23..1.24')).map((x) => `${x.ruleId} ${x.severity}`), ['k8s/cluster-api-deprecated warning']);
});

test('bar case: an audit event of backup-operator/2.3.1 listing batch/v1beta1 cronjobs is an error naming the caller; a v1 pods call is not a finding', () => {
  const text = jsonl([event({ ...PODS, auditID: 'p1' }), event({ auditID: 'c1' }), event({ ...PODS, auditID: 'p2' })]);
  const r = run('/w/audit.log', text, '1.24..1.25');
  assert.equal(r.family, 'audit-log');
  const d = mine(r);
  assert.deepEqual(d.map(where), [`k8s/audit-api-not-served 2:1-2:${text.split('\n')[1].length + 1}`]);
  assert.equal(d[0].severity, 'error');
  assert.match(d[0].message, /"backup-operator\/2\.3\.1 \(linux\/amd64\) kubernetes\/0f1e2d3" as system:serviceaccount:backup:backup-operator calls list batch\/v1beta1 cronjobs \(CronJob\), 1 call/);
  assert.match(d[0].message, /not served from Kubernetes 1\.25 on \(at 1\.25\), in the window 1\.24\.\.1\.25/);
  assert.equal(d[0].data.userAgent, 'backup-operator/2.3.1 (linux/amd64) kubernetes/0f1e2d3');
  assert.deepEqual(d[0].steps, ['1.25']);
  // v1 pods alone: nothing (and nothing unread either).
  assert.deepEqual(mine(run('/w/audit.log', jsonl([event({ ...PODS })]), '1.24..1.25')), []);
});

test('label values with escapes are read as the format says, with CRLF and a BOM the position is the series\' own line and columns', () => {
  const lines = [
    '\uFEFF# HELP build_info Ünïcode 📈 with a \\\\ and a \\n',
    'build_info{note="a \\"quoted\\" } value, a \\\\ and a \\n in it",git_version="v1.24.17"} 1',
    '# TYPE apiserver_requested_deprecated_apis gauge',
    // A quoted "}" and "," inside a value, blanks, labels in another order, a trailing comma and a timestamp.
    `  ${DEP}{ version="v1beta1", group="policy",resource="podsecuritypolicies",\tsubresource="a \\"}\\" b" , removed_release="1.25", } 1 1764482110000`,
  ];
  const text = `${lines.join('\r\n')}\r\n`;
  const r = run('/w/cluster-metrics.txt', text, '1.24..1.25');
  const d = mine(r);
  const col = lines[3].lastIndexOf('}');
  assert.deepEqual(d.map(where), [`k8s/cluster-api-not-served 4:3-4:${col + 2}`]);
  assert.equal(d[0].data.subresource, 'a "}" b', 'the escaped value, unescaped');
  // The unescaping itself: \\ → \, \" → ", \n → a line break; other escapes are kept as written.
  const scan = e.analyze({ path: '/w/m.prom', text: `${HEAD}${DEP}{group="policy",version="v1beta1",resource="podsecuritypolicies",subresource="x\\\\y\\"z\\nw\\t",removed_release="1.25"} 1\n`, config: configFor('1.24..1.25') });
  assert.equal(mine(scan)[0].data.subresource, 'x\\y"z\nw\\t');
});

test('the series\' own removed_release is cross-checked: a disagreement says both, a resource the data does not know is judged by it', () => {
  const r = run('/w/cluster-metrics.txt', `${HEAD}${series('policy', 'v1beta1', 'podsecuritypolicies', '1.26')}${series('widgets.example.com', 'v1beta1', 'widgets', '1.25')}`, '1.24..1.25');
  const d = mine(r);
  assert.equal(d.length, 2);
  assert.match(d[0].message, /removed_release says removed in 1\.26, the lifecycle data says 1\.25: judged by the data/);
  assert.match(d[1].message, /the data knows no kind for the resource widgets of widgets\.example\.com\/v1beta1: judged by the series' removed_release, 1\.25/);
  assert.equal(d[1].severity, 'error');
});

test('repeated calls by the same caller to the same API are one finding with a count at the first call; another caller is another finding', () => {
  const evs = [];
  for (let i = 0; i < 25; i++) evs.push(event({ auditID: `c${i}`, verb: i % 5 ? 'list' : 'watch', requestReceivedTimestamp: `2026-11-30T02:${String(10 + i).padStart(2, '0')}:00.000000Z` }));
  evs.splice(3, 0, event({ auditID: 'k', userAgent: 'kubectl/v1.24.17', user: { username: 'alice' }, verb: 'get' }));
  // The same call at RequestReceived is not a second call.
  evs.splice(1, 0, event({ auditID: 'c1', stage: 'RequestReceived', requestReceivedTimestamp: '2026-11-30T02:11:00.000000Z' }));
  const d = mine(run('/w/audit.log', jsonl(evs), '1.24..1.25'));
  assert.deepEqual(d.map((x) => `${x.range.start.line + 1} ${x.data.calls} ${x.data.userAgent}`), ['1 25 backup-operator/2.3.1 (linux/amd64) kubernetes/0f1e2d3', '5 1 kubectl/v1.24.17']);
  assert.match(d[0].message, /calls watch ×5, list ×20 batch\/v1beta1 cronjobs \(CronJob\), 25 calls from 2026-11-30T02:10:00\.000000Z to 2026-11-30T02:34:00\.000000Z/);
  assert.match(d[1].message, /^"kubectl\/v1\.24\.17" as alice calls get /);
});

test('the audit annotations decide for a resource the data does not know, and an annotated deprecation is a warning', () => {
  const custom = { objectRef: { resource: 'widgets', apiGroup: 'widgets.example.com', apiVersion: 'v1beta1' }, requestURI: '/apis/widgets.example.com/v1beta1/widgets' };
  const d = mine(run('/w/audit.log', jsonl([
    event({ ...custom, annotations: { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.25' } }),
    event({ ...custom, userAgent: 'other/1.0', annotations: { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.27' } }),
    event({ ...custom, userAgent: 'third/1.0' }),
  ]), '1.24..1.25'));
  assert.deepEqual(d.map((x) => `${x.ruleId} ${x.range.start.line + 1}`), ['k8s/audit-api-not-served 1', 'k8s/audit-api-deprecated 2']);
});

test('JSON lines, a JSON array, an EventList and pretty-printed records give the same findings, each at its record', () => {
  const evs = [event({ ...PODS }), event({ auditID: 'c1' }), event({ auditID: 'c2', verb: 'watch' })];
  const key = (r) => mine(r).map((x) => `${x.ruleId} ${x.data.calls} ${JSON.stringify(x.data.verbs)}`);
  const lines = run('/w/audit.log', jsonl(evs), '1.24..1.25');
  const array = JSON.stringify(evs, null, 2);
  const list = JSON.stringify({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: evs }, null, 2);
  const pretty = evs.map((x) => JSON.stringify(x, null, 2)).join('\n');
  for (const [name, text] of [['array', array], ['EventList', list], ['pretty', pretty]]) {
    const r = run(`/w/${name}.json`, text, '1.24..1.25');
    assert.equal(r.family, 'audit-log', name);
    assert.deepEqual(key(r), key(lines), name);
    // The finding is at its record's first line: the opening brace of the first cronjobs call (auditID c1).
    const pos = mine(r)[0].range.start;
    const at = text.split('\n').slice(0, pos.line).join('\n').length + (pos.line ? 1 : 0) + pos.character;
    assert.equal(text[at], '{', name);
    assert.equal(/"auditID": "([^"]+)"/.exec(text.slice(at))[1], 'c1', name);
  }
});

test('a malformed line is one positioned note per file with a count, never a crash; the rest is checked', () => {
  const good = JSON.stringify(event({ auditID: 'c1' }));
  const text = `${JSON.stringify(event({ ...PODS }))}\n${good.slice(0, 120)}\n${good}\n\u00ff\u00fe not json\n[1,2]\n{"kind":"Event","apiVersion":"v1","reason":"Pulled"}\n`;
  const d = mine(run('/w/audit.log', text, '1.24..1.25'));
  assert.deepEqual(d.map((x) => `${x.ruleId} ${x.range.start.line + 1} ${x.data.records ?? ''}`), ['k8s/audit-not-read 2 3', 'k8s/audit-api-not-served 3 ', 'k8s/audit-not-read 6 1']);
  assert.ok(d.filter((x) => x.ruleId === 'k8s/audit-not-read').every((x) => x.data.notChecked === true));
  // The metrics file alike: one note, with the count, at the first line that is not the format.
  const m = mine(run('/w/cluster-metrics.txt', `${HEAD}${DEP}{group="batch",resource="cron\n${series('policy', 'v1beta1', 'podsecuritypolicies', '1.25')}go_goroutines abc\n`, '1.24..1.25'));
  assert.deepEqual(m.map((x) => `${x.ruleId} ${x.range.start.line + 1}`), ['k8s/metrics-not-read 3', 'k8s/cluster-api-not-served 4']);
  assert.match(m[0].message, /^2 lines are not the Prometheus text format and not read/);
});

test('recognised by content, by name and by files:, and nothing else is claimed', () => {
  const metrics = `${HEAD}${series('policy', 'v1beta1', 'podsecuritypolicies', '1.25')}`;
  const audit = jsonl([event()]);
  assert.equal(run('/w/dump/apiserver', metrics, '1.24..1.25').family, 'cluster-metrics', 'no extension: by content');
  assert.equal(run('/w/node.prom', '# HELP node_load1 1m load average.\n', '1.24..1.25').family, 'cluster-metrics', '*.prom: by name');
  assert.equal(run('/w/evidence.json', audit, '1.24..1.25').family, 'audit-log', 'by content, before the Kubernetes family');
  assert.equal(run('/w/kube-apiserver-audit-2026-11-30T02-00-00.000.log', 'not json\n', '1.24..1.25').family, 'audit-log', 'a rotated audit log, by name');
  for (const [file, text] of [['/w/README.txt', 'Upgrade notes\n1. export metrics\n'], ['/w/requirements.txt', 'requests==2.31.0\n'], ['/w/app.log', '2026-11-30 started\n'], ['/w/values.yaml', '# TYPE x gauge\nfoo: 1\n'], ['/w/pod.json', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}']]) {
    assert.notEqual(run(file, text, '1.24..1.25').family ?? null, 'cluster-metrics', file);
    assert.notEqual(run(file, text, '1.24..1.25').family ?? null, 'audit-log', file);
  }
  // files: associates any name.
  const cfg = e.resolveConfig({ cli: { kubernetesWindow: '1.24..1.25' }, config: e.parseConfig('/w/.skewguard.yaml', 'files:\n  "evidence/*.out": audit-log\n', e.ruleIds) });
  const r = e.analyze({ path: '/w/evidence/calls.out', root: '/w', text: audit, config: cfg });
  assert.equal(r.family, 'audit-log');
  assert.equal(r.readAs.by, 'files');
});

test('lsp-lint: a folder walk checks cluster-metrics.txt and audit.log (not other .txt and .log files), in every format, and exits 1', (t) => {
  const metrics = `${HEAD}${series('policy', 'v1beta1', 'podsecuritypolicies', '1.25')}`;
  const dir = scratch(t, {
    '.skewguard.yaml': 'kubernetes:\n  window: "1.24..1.25"\n',
    'evidence/cluster-metrics.txt': metrics,
    'evidence/audit.log': jsonl([event(), event({ ...PODS })]),
    'evidence/notes.txt': 'export the metrics first\n',
    'evidence/app.log': 'started\n',
  });
  const r = lint(dir, ['-f', 'json', '.']);
  assert.equal(r.code, 1, r.stderr);
  const files = JSON.parse(r.stdout);
  assert.deepEqual(files.map((f) => `${path.relative(dir, f.filePath)} ${f.family} ${f.messages.map((m) => `${m.ruleId}@${m.line}`).join(',')}`).sort(),
    ['evidence/audit.log audit-log k8s/audit-api-not-served@1', 'evidence/cluster-metrics.txt cluster-metrics k8s/cluster-api-not-served@3']);
  for (const format of ['sarif', 'markdown', 'html', 'github']) {
    const x = lint(dir, ['-f', format, '.']);
    assert.equal(x.code, 1, `${format}: ${x.stderr}`);
    assert.match(x.stdout, /backup-operator\/2\.3\.1/, format);
    assert.match(x.stdout, /podsecuritypolicies/, format);
  }
});

test('hostile inputs: binary, a one-line 50 MB JSON, bad UTF-8 bytes, deep JSON: a positioned note or skipped, never a crash or a hang', (t) => {
  const dir = scratch(t, {
    'binary-audit.log': Buffer.concat([Buffer.from(JSON.stringify(event())), Buffer.from([10, 0, 1, 2, 10])]),
    'bad-utf8-audit.log': Buffer.concat([...JSON.stringify(event()).split('backup-operator/').flatMap((p, i) => (i ? [Buffer.from([0xff]), Buffer.from(`operator/${p}`)] : [Buffer.from(`${p}backup-`)])), Buffer.from([10, 0xff, 0xfe, 0x7b, 10])]),
    'deep-audit.log': `{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"d","stage":"x","requestObject":${'['.repeat(200000)}${']'.repeat(200000)}}\n${JSON.stringify(event())}\n`,
    'bad-utf8-metrics.txt': Buffer.concat([Buffer.from(HEAD), Buffer.from(`${DEP}{group="policy",resource="podsecuritypolicies",version="v1beta1",removed_release="1.25",subresource="`), Buffer.from([0xc3, 0x28]), Buffer.from('"} 1\n')]),
  });
  const big = path.join(dir, 'huge-audit.log');
  const fd = fs.openSync(big, 'w');
  fs.writeSync(fd, '{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"x","stage":"ResponseComplete","requestObject":"');
  const chunk = Buffer.alloc(1 << 20, 'x');
  for (let i = 0; i < 50; i++) fs.writeSync(fd, chunk);
  fs.writeSync(fd, '"}\n');
  fs.closeSync(fd);
  const t0 = Date.now();
  const r = lint(dir, ['-f', 'json', '--kubernetes-window', '1.24..1.25', '.']);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(Date.now() - t0 < 60_000, 'bounded');
  const by = Object.fromEntries(JSON.parse(r.stdout).map((f) => [path.basename(f.filePath), f.messages.map((m) => `${m.ruleId}@${m.line}: ${m.message}`)]));
  assert.match(by['binary-audit.log'].join('\n'), /^skewguard\/skipped-file@1: not checked: binary data/);
  assert.match(by['huge-audit.log'].join('\n'), /^skewguard\/skipped-file@1: not checked: larger than the 20 MB limit/);
  assert.match(by['bad-utf8-audit.log'].join('\n'), /k8s\/audit-api-not-served@1: "backup-\uFFFDoperator/);
  assert.match(by['bad-utf8-audit.log'].join('\n'), /k8s\/audit-not-read@2: a record that is not JSON is not read/);
  assert.match(by['deep-audit.log'].join('\n'), /k8s\/audit-not-read@1: a record that is not JSON is not read \(the first: nested more than 512 levels deep\)/);
  assert.match(by['deep-audit.log'].join('\n'), /k8s\/audit-api-not-served@2/);
  assert.match(by['bad-utf8-metrics.txt'].join('\n'), /k8s\/cluster-api-not-served@3/);
});

test('big logs are read as a stream: a 19 MB audit log and a 19 MB metrics file are checked in bounded time, with groups, not events, kept', () => {
  const evs = [];
  let size = 0;
  for (let i = 0; size < 19e6; i++) {
    const l = JSON.stringify(event({ auditID: `id-${i}`, userAgent: `agent-${i % 7}/1.0`, user: { username: `user-${i % 50}` }, ...(i % 2 ? {} : PODS) }));
    evs.push(l);
    size += l.length + 1;
  }
  const text = `${evs.join('\n')}\n`;
  const t0 = Date.now();
  const r = run('/w/audit.log', text, '1.24..1.25');
  const ms = Date.now() - t0;
  const d = mine(r);
  // 7 agents × 50 users, half the events cronjobs: every (agent, user) pair with an odd index is one group.
  assert.equal(d.length, new Set(evs.map((_, i) => i).filter((i) => i % 2).map((i) => `${i % 7} ${i % 50}`)).size);
  assert.equal(d.reduce((n, x) => n + x.data.calls, 0), evs.filter((_, i) => i % 2).length);
  assert.equal(r.auditLog.groups.length, d.length, 'groups kept, not events');
  assert.ok(ms < 20_000, `a 19 MB log in ${ms} ms`);
  const lines = ['# HELP apiserver_request_total x', '# TYPE apiserver_request_total counter'];
  for (let k = 0, n = 0; n < 19e6; k++) { const l = `apiserver_request_total{code="200",group="apps",resource="deployments",verb="LIST",version="v1",k="${k}"} 12`; lines.push(l); n += l.length + 1; }
  lines.push(series('policy', 'v1beta1', 'podsecuritypolicies', '1.25').trim());
  const t1 = Date.now();
  const m = mine(run('/w/cluster-metrics.txt', lines.join('\n'), '1.24..1.25'));
  assert.deepEqual(m.map((x) => `${x.ruleId} ${x.range.start.line + 1}`), [`k8s/cluster-api-not-served ${lines.length}`]);
  assert.ok(Date.now() - t1 < 20_000);
});

test('data/kubernetes/resources.json maps every resource kube-apiserver serves in the lifecycle data (or says why not)', () => {
  const res = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/kubernetes/resources.json'), 'utf8'));
  const life = e.kubernetesApis().apis.filter((r) => (r.component ?? 'k8s') === 'k8s' && (r.servedBy ?? 'kube-apiserver') === 'kube-apiserver' && r.kind && !/List$/.test(r.kind));
  const mapped = new Set(res.resources.map((r) => `${r.apiVersion} ${r.kind}`));
  const unmapped = new Set(res.unmapped.map((r) => `${r.apiVersion} ${r.kind}`));
  assert.deepEqual(life.map((r) => `${r.apiVersion} ${r.kind}`).filter((k) => !mapped.has(k) && !unmapped.has(k)), []);
  const find = (av, resource) => res.resources.find((r) => r.apiVersion === av && r.resource === resource);
  assert.equal(find('policy/v1beta1', 'podsecuritypolicies').kind, 'PodSecurityPolicy');
  assert.equal(find('batch/v1beta1', 'cronjobs').kind, 'CronJob');
  assert.equal(find('v1', 'pods').kind, 'Pod');
  assert.ok(find('flowcontrol.apiserver.k8s.io/v1beta2', 'flowschemas').inferredFrom.length, 'a version between two documents says where its name comes from');
  for (const r of res.resources) assert.ok(r.seenIn?.length || r.inferredFrom?.length, `${r.apiVersion} ${r.resource} cites its source`);
});

test('nothing is ever sent anywhere: lsp-lint over cluster evidence opens no socket, resolves no name and runs nothing', (t) => {
  const dir = scratch(t, {
    '.skewguard.yaml': 'kubernetes:\n  window: "1.24..1.25"\n',
    'cluster-metrics.txt': `${HEAD}${series('policy', 'v1beta1', 'podsecuritypolicies', '1.25')}`,
    'audit.log': jsonl([event(), event({ ...PODS, requestURI: 'https://evil.example.com/exfiltrate' })]),
  });
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-probe-')), 'events.jsonl');
  t.after(() => fs.rmSync(path.dirname(out), { recursive: true, force: true }));
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), '-f', 'json', '.'], {
    cwd: dir, encoding: 'utf8', timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(repoRoot, 'test/helpers/net-probe.cjs')}`.trim(), SKEWGUARD_PROBE_OUT: out, SKEWGUARD_PROBE_WORKSPACE: dir },
  });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(JSON.parse(r.stdout).length, 2);
  const events = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  assert.ok(events.some((x) => x.kind === 'loaded'), 'the probe ran');
  assert.deepEqual(events.filter((x) => x.kind !== 'loaded'), []);
});

test('lsp-lint on a terminal names a big file while the server checks it, and clears the line; not when stderr is not a terminal', (t) => {
  const evs = [];
  for (let i = 0; i < 15000; i++) evs.push(event({ auditID: `id-${i}`, requestObject: { pad: 'x'.repeat(300) } }));
  const dir = scratch(t, { 'big-audit.log': jsonl(evs) });
  assert.ok(fs.statSync(path.join(dir, 'big-audit.log')).size > 4 * 1024 * 1024);
  // util-linux `script` gives lsp-lint a terminal; the report goes to a file, so what script prints is stderr alone.
  const r = spawnSync('script', ['-qec', `"${process.execPath}" "${path.join(repoRoot, 'bin/lsp-lint.js')}" -f json --kubernetes-window 1.24..1.25 big-audit.log > report.json`, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^\rlsp-lint: checking big-audit\.log \(\d+\.\d MB\)…\x1b\[K\r\x1b\[K/);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'))[0].messages[0].ruleId, 'k8s/audit-api-not-served');
  const plain = lint(dir, ['-f', 'json', '--kubernetes-window', '1.24..1.25', 'big-audit.log']);
  assert.equal(plain.stderr, '', 'not on a terminal: nothing');
});
