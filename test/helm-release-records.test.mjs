// Issue #33 items 3 and 4: Helm release records (`kubectl get secrets -A -l owner=helm -o yaml|json`, ConfigMap storage,
// single records) decoded and their stored manifests checked at every step of the Kubernetes window, and the per-step
// summary of the markdown and HTML reports. The example is decoded here independently (node:zlib), the hostile records
// (a gzip bomb, a huge record, bad base64, bad JSON, deep nesting) must each give a positioned finding, never a crash.
// Uses the built dist/ (`npm test` builds first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, configFor } from './helpers/k8s.mjs';
import { scratch, lint, K8S_WINDOW } from './helpers/cli-run.mjs';

const EXAMPLE = path.join(repoRoot, 'examples', 'cluster-evidence', 'helm-releases.yaml');
const example = fs.readFileSync(EXAMPLE, 'utf8');
const analyze = (text, window = '1.24..1.25', file = '/x/records.yaml') => e.analyze({ path: file, text, config: configFor(window) });
const lineOf = (text, needle) => text.split('\n').findIndex((l) => l.includes(needle));

/** What Helm's Secret storage writes: JSON → gzip → base64 → the Secret's base64. */
const secretData = (value, { gzip = true } = {}) => {
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  return Buffer.from((gzip ? zlib.gzipSync(bytes) : bytes).toString('base64')).toString('base64');
};
const record = (data, { name = 'db', rev = 7, status = 'deployed' } = {}) => [
  'apiVersion: v1', 'kind: Secret', 'type: helm.sh/release.v1', 'metadata:', `  name: sh.helm.release.v1.${name}.v${rev}`, `  namespace: ${name}`,
  '  labels:', `    name: ${name}`, '    owner: helm', `    status: ${status}`, `    version: "${rev}"`, 'data:', `  release: ${data}`, ''].join('\n');
const release = (manifest, { name = 'db', rev = 7, status = 'deployed' } = {}) => ({ name, namespace: name, version: rev, info: { status }, chart: { metadata: { name, version: '1.2.0' } }, manifest });
const PDB = (v) => `---\n# Source: db/templates/pdb.yaml\napiVersion: ${v}\nkind: PodDisruptionBudget\nmetadata:\n  name: db-pdb\nspec:\n  minAvailable: 1\n`;

test('the bar: a deployed release storing policy/v1beta1 PodDisruptionBudget is an error naming the release under 1.24..1.25, at its record\'s name', () => {
  const r = analyze(example);
  assert.equal(r.family, 'helm-release-records');
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(r.diagnostics.map((d) => d.message)));
  const d = errors[0];
  assert.equal(d.ruleId, 'helm/release-record-api');
  assert.match(d.message, /^release db \(revision 7, chart db-1\.2\.0, namespace db\) stores policy\/v1beta1 PodDisruptionBudget db-pdb \(removed in Kubernetes 1\.25\): at 1\.25 `helm upgrade` and `helm rollback` of this release fail/);
  assert.match(d.message, /helm-mapkubeapis/);
  // On the deployed record's metadata.name, the value exactly.
  const line = lineOf(example, 'name: sh.helm.release.v1.db.v7');
  assert.deepEqual(d.range, { start: { line, character: 10 }, end: { line, character: 10 + 'sh.helm.release.v1.db.v7'.length } });
  assert.deepEqual(d.data.steps, ['1.25']);
  assert.equal(d.data.subject, 'release db (namespace db)');
  assert.deepEqual(d.data.objects.map((o) => `${o.apiVersion} ${o.kind} ${o.name}`), ['policy/v1beta1 PodDisruptionBudget db-pdb']);
  // The superseded revision 6 is a rollback target: a warning of its own rule, at its own record.
  const w = r.diagnostics.filter((x) => x.severity === 'warning');
  assert.deepEqual(w.map((x) => `${x.ruleId} @ ${x.range.start.line}`), [`helm/release-record-rollback-api @ ${lineOf(example, 'name: sh.helm.release.v1.db.v6')}`]);
  assert.match(w[0].message, /`helm rollback db 6` to this revision fails/);
  // Hovering the record's name lists its stored objects and where each is not served.
  const h = e.hover(r, example, { line, character: 14 });
  assert.match(h.markdown, /\*\*Helm release db \(revision 7, chart db-1\.2\.0, namespace db\)\*\* — deployed/);
  assert.match(h.markdown, /- ✗ not served at 1\.25 `policy\/v1beta1 PodDisruptionBudget` db-pdb/);
  assert.match(h.markdown, /- ✓ `apps\/v1 StatefulSet` db/);
  // Release web stores policy/v1 and networking.k8s.io/v1: nothing. Under 1.24 alone nothing fails either.
  assert.ok(!r.diagnostics.some((x) => /release web/.test(x.message)));
  assert.deepEqual(analyze(example, '1.24').diagnostics, []);
});

test('the example is what its script writes, and holds what the test decodes independently (a List of Secrets, gzip inside)', () => {
  const check = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'make-helm-release-example.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
  const fixtures = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'make-helm-release-fixtures.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(fixtures.status, 0, fixtures.stderr);
  const datas = [...example.matchAll(/^ {4}release: (\S+)$/gm)].map((m) => m[1]);
  assert.equal(datas.length, 3);
  const releases = datas.map((d) => {
    const inner = Buffer.from(Buffer.from(d, 'base64').toString('latin1'), 'base64');
    assert.deepEqual([...inner.subarray(0, 3)], [0x1f, 0x8b, 0x08], 'Helm gzips the release');
    return JSON.parse(zlib.gunzipSync(inner).toString('utf8'));
  });
  assert.deepEqual(releases.map((x) => `${x.name}.v${x.version} ${x.info.status}`), ['db.v6 superseded', 'db.v7 deployed', 'web.v3 deployed']);
  assert.match(releases[1].manifest, /apiVersion: policy\/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n {2}name: db-pdb/);
});

test('recognised by content: Secrets of helm.sh/release.v1, owner=helm ConfigMaps, -o json; an ordinary List of Secrets stays a manifest', () => {
  const opaque = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  type: Opaque\n  metadata:\n    name: s\n  data:\n    release: YQ==\n';
  assert.equal(analyze(opaque).family, 'kubernetes');
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sh.helm.release.v1.db.v7\n  labels:\n    owner: helm\n    name: db\n    status: deployed\n    version: "7"\ndata:\n  release: ' + zlib.gzipSync(JSON.stringify(release(PDB('policy/v1beta1')))).toString('base64') + '\n';
  const r = analyze(cm);
  assert.equal(r.family, 'helm-release-records');
  assert.deepEqual(r.diagnostics.map((d) => d.ruleId), ['helm/release-record-api']);
  const json = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', type: 'helm.sh/release.v1', metadata: { name: 'sh.helm.release.v1.db.v7' }, data: { release: secretData(release(PDB('policy/v1beta1'))) } });
  const j = analyze(json, '1.24..1.25', '/x/records.json');
  assert.equal(j.family, 'helm-release-records');
  assert.deepEqual(j.diagnostics.map((d) => d.ruleId), ['helm/release-record-api']);
  // Named records by a modeline but holding none: said as not checked, never a clean pass.
  const forced = analyze('# skewguard: helm-release-records\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
  assert.equal(forced.family, 'helm-release-records');
  assert.deepEqual(forced.diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.range.start.line}:${d.range.start.character} ${d.data.notChecked}`), ['helm/release-record-unreadable info 2:6 true']);
  assert.deepEqual(analyze('# skewguard: helm-release-records\n').diagnostics.map((d) => `${d.severity} ${d.data.notChecked}`), ['info true']);
  // Not gzipped: Helm reads it, so do we.
  assert.deepEqual(analyze(record(secretData(release(PDB('policy/v1beta1')), { gzip: false }))).diagnostics.map((d) => d.ruleId), ['helm/release-record-api']);
});

test('hostile records each get a positioned "not checked" finding, never a crash: gzip bomb, huge, bad base64, bad JSON, deep nesting', () => {
  const cases = {
    bomb: [secretData(Buffer.alloc(64 * 1024 * 1024)), /unpacks to more than 20 MiB/],
    'bad outer base64': ['not_base64!', /data\.release is not base64/],
    'bad inner base64': [Buffer.from('***').toString('base64'), /Helm's own base64 layer\) is not base64/],
    'bad JSON': [secretData('{"name": "db", "manifest": "x"'), /is not JSON/],
    'truncated gzip': [Buffer.from(zlib.gzipSync(JSON.stringify(release(PDB('policy/v1')))).subarray(0, 30).toString('base64')).toString('base64'), /gzip data is broken/],
    'deep JSON': [secretData('['.repeat(200000) + ']'.repeat(200000)), /(not JSON|JSON but not an object)/],
    'no manifest': [secretData({ name: 'db', version: 7, info: { status: 'deployed' } }), /has no manifest/],
    // A release that is real JSON but 25 MiB of it (a chart with a huge values file): refused at 20 MiB too.
    huge: [secretData('{"name":"db","manifest":"","chart":{"values":{"x":"' + 'y'.repeat(25 * 1024 * 1024) + '"}}}'), /unpacks to more than 20 MiB/],
  };
  for (const [name, [data, why]] of Object.entries(cases)) {
    const text = record(data);
    const r = analyze(text);
    assert.equal(r.family, 'helm-release-records', name);
    assert.deepEqual(r.diagnostics.map((d) => d.ruleId), ['helm/release-record-unreadable'], `${name}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
    const d = r.diagnostics[0];
    assert.match(d.message, why, name);
    assert.equal(d.data.notChecked, true, name);
    assert.equal(d.range.start.line, 4, `${name}: at metadata.name`);
  }
  // A file of gzip bombs costs a bounded amount of work: five are unpacked up to 20 MiB each (the file's 100 MiB), the
  // others are refused without being unpacked; each is said at its own record.
  const bomb = secretData(Buffer.alloc(24 * 1024 * 1024));
  const bombs = ['apiVersion: v1', 'kind: List', 'items:', ...Array.from({ length: 12 }, (_, i) => record(bomb, { rev: i + 1 }).trimEnd().split('\n').map((l, j) => (j ? `  ${l}` : `- ${l}`)).join('\n')), ''].join('\n');
  const b = analyze(bombs);
  assert.equal(b.diagnostics.length, 12);
  assert.deepEqual(b.diagnostics.map((d) => (/more than 20 MiB/.test(d.message) ? 'unpacked' : /already unpacked to the 100 MiB/.test(d.message) ? 'refused' : d.message)),
    [...Array(5).fill('unpacked'), ...Array(7).fill('refused')]);
  assert.equal(new Set(b.diagnostics.map((d) => d.range.start.line)).size, 12);
  // A stored manifest nested too deeply for YAML: its document is said as not read.
  const deep = analyze(record(secretData(release(`---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: ${'['.repeat(5000)}${']'.repeat(5000)}\n`))));
  assert.deepEqual(deep.diagnostics.map((d) => d.ruleId), ['helm/release-record-unreadable']);
  assert.match(deep.diagnostics[0].message, /stored manifest is not read/);
});

test('lsp-lint: an unreadable record exits 2 (not checked) unless --allow-unchecked; the example exits 1', (t) => {
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.25'), 'broken.yaml': record('not_base64!'), 'ok.yaml': example });
  const r = lint(dir, ['broken.yaml']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  // A warning: with --allow-unchecked the run passes (it is still reported).
  const allowed = lint(dir, ['--allow-unchecked', 'broken.yaml']);
  assert.equal(allowed.code, 0);
  assert.match(allowed.stdout, /warning  release db \(revision 7, namespace db\): record sh\.helm\.release\.v1\.db\.v7 is not checked: the Secret's data\.release is not base64/);
  const ok = lint(dir, ['ok.yaml']);
  assert.equal(ok.code, 1, ok.stderr);
  assert.match(ok.stdout, /error {4}release db \(revision 7/);
});

test('markdown and html: what blocks each step names the files and the releases their errors name (data.subject), across families', (t) => {
  const cron = 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: a\n              image: busybox\n';
  const clean = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n';
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.26'), 'cluster/helm-releases.yaml': example, 'deploy/cron.yaml': cron, 'deploy/cm.yaml': clean });
  const m = lint(dir, ['--format', 'markdown', '.']);
  assert.equal(m.code, 1, m.stderr);
  const table = m.stdout.split('### What blocks each step')[1]?.split('\n###')[0];
  assert.ok(table, m.stdout);
  assert.match(table, /^ · helm-release-records, kubernetes · 1\.24\.\.1\.26\n/);
  const rows = Object.fromEntries(table.split('\n').filter((l) => /^\| 1\.\d+ \|/.test(l)).map((l) => [l.split('|')[1].trim(), l.split('|')[2].trim()]));
  assert.deepEqual(Object.keys(rows), ['1.24', '1.25', '1.26']);
  assert.equal(rows['1.24'], '✅ nothing');
  const blocked = '❌ release db &#40;namespace db&#41; in <code>cluster/helm-releases.yaml</code>, <code>deploy/cron.yaml</code>';
  assert.equal(rows['1.25'], blocked);
  assert.equal(rows['1.26'], blocked);
  assert.ok(!table.includes('cm.yaml'), 'a passing file blocks nothing');
  // A warning (the superseded revision) blocks no step.
  assert.ok(!/revision 6/.test(table));

  const h = lint(dir, ['--format', 'html', '.']);
  const page = h.stdout;
  const section = page.split('<h2>What blocks each step · helm-release-records, kubernetes · 1.24..1.26</h2>')[1]?.split('</table>')[0];
  assert.ok(section, 'the html summary');
  const trs = section.split('<tr>').slice(2);
  assert.equal(trs.length, 3);
  assert.match(trs[0], /^<td>1\.24<\/td><td class="f clear">/);
  for (const tr of trs.slice(1)) {
    const links = [...tr.matchAll(/<li>(.*?)<a href="(#f\d+-s\d)"><code>([^<]+)<\/code><\/a><\/li>/g)].map((x) => `${x[1]}${x[3]} ${x[2]}`);
    assert.equal(links.length, 2, tr);
    assert.match(links[0], /^release db \(namespace db\) in cluster\/helm-releases\.yaml #f\d+-s[12]$/);
    assert.match(links[1], /^deploy\/cron\.yaml #f\d+-s[12]$/);
    // Each link goes to that file's cell of that step, which the page has.
    for (const l of links) assert.ok(page.includes(`id="${l.split(' ').pop().slice(1)}"`), l);
  }
  // No error anywhere: no summary.
  const quiet = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.24..1.26'), 'cm.yaml': clean });
  assert.ok(!lint(quiet, ['--format', 'markdown', '.']).stdout.includes('What blocks each step'));
});

test('the cheap look for `owner: helm` finds it wherever the one expression over the whole text did', async () => {
  const { loadSource } = await import('./helpers/source-module.mjs');
  const { ownedByHelm } = await loadSource({ contents: "export { ownedByHelm } from './server/src/engine/families/helm-release-records/index';" });
  const whole = (t) => /["']?owner["']?\s*:\s*["']?helm\b/.test(t);
  const junk = ['owner', 'owners', 'x', 'own', 'er', 'wner', 'o', ' ', '\n', '"', "'", ':', 'helm', 'labels:\n  '];
  const key = ['owner', '"owner"', "'owner'", 'owners', '"owner', 'owner"', 'xowner', 'ownerr'];
  const sep = [':', ' : ', ':\n  ', ' :', ': ', ' ', '', ':\t'];
  const val = ['helm', '"helm"', "'helm'", 'helmet', 'helm-x', 'helm_', 'helm.v1', 'Helm', ' helm'];
  let seed = 5, hits = 0;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >>> 12) % n; };
  const pick = (a) => a[rnd(a.length)];
  for (let k = 0; k < 5000; k++) {
    let t = '';
    for (let p = rnd(6); p >= 0; p--) t += rnd(2) ? pick(key) + pick(sep) + pick(val) : pick(junk);
    const want = whole(t);
    if (want) hits++;
    assert.equal(ownedByHelm(t), want, JSON.stringify(t));
  }
  assert.ok(hits > 100, `${hits} texts hold it`);
});
