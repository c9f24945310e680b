#!/usr/bin/env node
// Writes the fixtures of the Helm release record rules (test/fixtures/rules/helm/release-record-*/), hostile ones
// included, encoded as Helm 3's storage writes records (JSON, gzip, base64; a Secret adds Kubernetes' base64) or broken
// on purpose: a gzip bomb (40 MiB of zeros, about 40 KB gzipped), records over the per-file budget, bad base64 in
// either layer, truncated gzip, not JSON, JSON that is not an object, no manifest, a manifest YAML cannot read, an object
// that is no record. Deterministic (gzip's mtime is 0), so `--check` can say when a fixture was edited by hand.
//   node scripts/make-helm-release-fixtures.mjs [--check]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIR = path.join(root, 'test', 'fixtures', 'rules', 'helm');

const gz = (s) => zlib.gzipSync(typeof s === 'string' ? Buffer.from(s, 'utf8') : s, { level: 9 });
const b64 = (b) => Buffer.from(b).toString('base64');
/** The Secret's data.release of a release value (object: JSON; string or bytes: as given, before gzip). */
const secretData = (payload, { gzip = true } = {}) => b64(b64(gzip ? gz(typeof payload === 'object' && !Buffer.isBuffer(payload) ? JSON.stringify(payload) : payload) : Buffer.from(typeof payload === 'object' ? JSON.stringify(payload) : payload)));
const cmData = (payload) => b64(gz(JSON.stringify(payload)));

const rel = ({ name = 'db', namespace = name, revision = 7, status = 'deployed', chart = name, version = '1.2.0', docs }) => ({
  name, info: { status }, chart: { metadata: { name: chart, version } },
  manifest: docs.map(([tpl, body]) => `---\n# Source: ${chart}/templates/${tpl}\n${body}`).join('\n'), version: revision, namespace,
});
const PDB = (v, name = 'db-pdb') => ['pdb.yaml', `apiVersion: ${v}\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\nspec:\n  minAvailable: 1\n`];
const CJ = (v) => ['cronjob.yaml', `apiVersion: ${v}\nkind: CronJob\nmetadata:\n  name: db-backup\nspec:\n  schedule: "0 3 * * *"\n`];
const SVC = ['service.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: db\nspec:\n  ports:\n    - port: 5432\n'];
const ING = (v) => ['ingress.yaml', `apiVersion: ${v}\nkind: Ingress\nmetadata:\n  name: web\n`];

/** One List item (kubectl -o yaml's layout: keys sorted). */
function item(r, data, { kind = 'Secret', type = true, i = 0 } = {}) {
  const lines = ['- apiVersion: v1', '  data:', `    release: ${data}`, `  kind: ${kind}`, '  metadata:', '    labels:',
    `      name: ${r.name}`, '      owner: helm', `      status: ${r.info.status}`, `      version: "${r.version}"`,
    `    name: sh.helm.release.v1.${r.name}.v${r.version}`, `    namespace: ${r.namespace}`, `    uid: 00000000-0000-4000-8000-${String(1000 + i).padStart(12, '0')}`];
  if (kind === 'Secret' && type) lines.push('  type: helm.sh/release.v1');
  return lines.join('\n');
}
const list = (items) => ['apiVersion: v1', 'items:', ...items, 'kind: List', 'metadata:', '  resourceVersion: ""', ''].join('\n');

const FILES = {};
const CASES = {};
const add = (rule, file, text, expect, options = 'Kubernetes 1.24..1.25', extra = {}) => {
  FILES[`${rule}/${file}`] = text;
  (CASES[rule] ??= []).push({ input: file, as: file, options, expect, ...extra });
};

// helm/release-record-api
{
  const db7 = rel({ docs: [PDB('policy/v1beta1'), SVC, CJ('batch/v1beta1')] });
  add('release-record-api', 'deployed-pdb-v1beta1.yaml', list([item(db7, secretData(db7))]), 'finding');
  // -o json, and positions after a BOM, CRLF and multibyte text (the release's name)
  const ns = rel({ name: 'größe-db', namespace: 'daten', docs: [PDB('policy/v1beta1', 'größe-pdb')] });
  const json = JSON.stringify({ apiVersion: 'v1', items: [{ apiVersion: 'v1', data: { release: secretData(ns) }, kind: 'Secret', metadata: { labels: { name: ns.name, owner: 'helm', status: 'deployed', version: '7' }, name: `sh.helm.release.v1.${ns.name}.v7`, namespace: 'daten' }, type: 'helm.sh/release.v1' }], kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
  add('release-record-api', 'records-bom-crlf.json', `\uFEFF${json.replace(/\n/g, '\r\n')}\r\n`, 'finding');
  // ConfigMap storage (HELM_DRIVER=configmap): one base64 layer
  add('release-record-api', 'configmap-storage.yaml', list([item(db7, cmData(db7), { kind: 'ConfigMap' })]), 'finding');
  // Helm also reads records that are not gzipped
  add('release-record-api', 'not-gzipped.yaml', list([item(db7, secretData(db7, { gzip: false }))]), 'finding');
  // A window where policy/v1beta1 is still served and policy/v1 not yet: the deployed revision stores policy/v1 (not served at 1.20)
  const v1 = rel({ docs: [PDB('policy/v1'), ING('networking.k8s.io/v1')] });
  add('release-record-api', 'newer-api-older-step.yaml', list([item(v1, secretData(v1))]), 'finding', 'Kubernetes 1.20..1.22');
  // Clean: policy/v1 under 1.24..1.25
  add('release-record-api', 'clean.yaml', list([item(v1, secretData(v1))]), 'none');
  // A single record, as `kubectl get secret sh.helm.release.v1.db.v7 -n db -o yaml` prints it
  add('release-record-api', 'single-secret.yaml', ['apiVersion: v1', 'data:', `  release: ${secretData(db7)}`, 'kind: Secret', 'metadata:', '  labels:', '    name: db', '    owner: helm', '    status: deployed', '    version: "7"', '  name: sh.helm.release.v1.db.v7', '  namespace: db', 'type: helm.sh/release.v1', ''].join('\n'), 'finding');
}
// helm/release-record-rollback-api
{
  const r5 = rel({ revision: 5, status: 'superseded', version: '1.0.3', docs: [CJ('batch/v1beta1'), SVC] });
  const r6 = rel({ revision: 6, status: 'superseded', version: '1.1.0', docs: [CJ('batch/v1'), SVC] });
  const r7 = rel({ revision: 7, status: 'deployed', version: '1.2.0', docs: [CJ('batch/v1'), SVC] });
  add('release-record-rollback-api', 'history.yaml', list([item(r5, secretData(r5), { i: 0 }), item(r6, secretData(r6), { i: 1 }), item(r7, secretData(r7), { i: 2 })]), 'finding');
  // No deployed revision: the newest failed one is what `helm upgrade` starts from (an error), the superseded one a rollback target
  const f8 = rel({ revision: 8, status: 'failed', version: '1.3.0', docs: [CJ('batch/v1beta1')] });
  add('release-record-rollback-api', 'failed-newest.yaml', list([item(r5, secretData(r5), { i: 0 }), item(f8, secretData(f8), { i: 1 })]), 'finding');
  // Uninstalled with --keep-history: no current revision, a rollback target only
  const u = rel({ revision: 3, status: 'uninstalled', docs: [PDB('policy/v1beta1')] });
  add('release-record-rollback-api', 'uninstalled.yaml', list([item(u, secretData(u))]), 'finding');
  add('release-record-rollback-api', 'history-clean.yaml', list([item(r6, secretData(r6), { i: 1 }), item(r7, secretData(r7), { i: 2 })]), 'none');
}
// helm/release-record-unreadable (hostile records)
{
  const ok = rel({ docs: [PDB('policy/v1')] });
  const r = (n) => rel({ revision: n, docs: [PDB('policy/v1')] });
  const items = [
    item(r(1), 'not_base64!', { i: 1 }),
    item(r(2), b64('not base64 inside!'), { i: 2 }),
    item(r(3), b64(b64(gz('{"name": "db", "manifest": '))), { i: 3 }),
    item(r(4), b64(b64(gz(JSON.stringify(ok)).subarray(0, 40))), { i: 4 }),
    item(r(5), b64(b64(gz('[1, 2, 3]'))), { i: 5 }),
    item(r(6), secretData({ name: 'db', info: { status: 'superseded' }, version: 6, namespace: 'db' }), { i: 6 }),
    item(r(8), secretData(rel({ revision: 8, status: 'superseded', docs: [['broken.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n'], PDB('policy/v1')] })), { i: 8 }),
  ];
  const other = ['- apiVersion: v1', '  kind: ConfigMap', '  metadata:', '    name: kube-root-ca.crt', '    namespace: db', '  data:', '    ca.crt: x'].join('\n');
  add('release-record-unreadable', 'broken-records.yaml', list([...items, other]), 'finding');
  // A gzip bomb: 40 MiB of zeros gzipped, refused at 20 MiB (maxOutputLength), never unpacked whole
  add('release-record-unreadable', 'gzip-bomb.yaml', list([item(r(9), b64(b64(gz(Buffer.alloc(40 * 1024 * 1024)))), { i: 9 })]), 'finding');
  // Records whose sum is over the file's 100 MiB budget: each 18 MiB of JSON (a big string value), seven of them; the
  // sixth gets the 10 MiB left and is refused, the seventh is refused without being unpacked
  const big = (n) => ({ ...r(n), chart: { metadata: { name: 'db', version: '1.2.0' }, values: { blob: 'x'.repeat(18 * 1024 * 1024) } } });
  add('release-record-unreadable', 'over-budget.yaml', list([10, 11, 12, 13, 14, 15, 16].map((n) => item(big(n), secretData(big(n)), { i: n }))), 'finding');
  add('release-record-unreadable', 'readable.yaml', list([item(ok, secretData(ok))]), 'none');
}

const check = process.argv.includes('--check');
let stale = 0;
const want = { ...FILES };
for (const [rule, cases] of Object.entries(CASES)) want[`${rule}/cases.json`] = `${JSON.stringify({ cases }, null, 2)}\n`;
for (const [rel_, text] of Object.entries(want)) {
  const abs = path.join(DIR, rel_);
  if (check) { if (!fs.existsSync(abs) || fs.readFileSync(abs, 'utf8') !== text) { console.error(`stale: ${rel_}`); stale++; } continue; }
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}
if (stale) process.exit(1);
if (!check) console.log(`wrote ${Object.keys(want).length} files under ${path.relative(root, DIR)}`);
