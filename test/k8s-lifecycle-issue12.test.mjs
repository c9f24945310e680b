// Issue #12: component rows checked at component versions (A), lifecycle wording and data facts (B), one reading of a
// Kubernetes version string (C), windows past the data (D). Reads only the repo and temporary folders it makes.
// Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e, analyze, findings } from './helpers/k8s.mjs';

const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8'));
const rowOf = (apiVersion, kind) => data.apis.find((r) => r.apiVersion === apiVersion && r.kind === kind);
const bin = path.join(repoRoot, 'bin', 'lsp-lint');

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-i12-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  return dir;
}
function lint(cwd, args, env = {}) {
  const en = { ...process.env, SKEWGUARD_TODAY: new Date(Date.parse(data.asOf) + 86400000).toISOString(), ...env };
  delete en.SKEWGUARD_SERVER;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: en, timeout: 60000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const lintJson = (cwd, args, env) => {
  const r = lint(cwd, ['--format', 'json', ...args], env);
  return { ...r, reports: JSON.parse(r.stdout) };
};
const DEPLOY = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';

// ---------------------------------------------------------------------------------------------
// C. One reading of a Kubernetes version string

test('C: normalizeKubernetesVersion strips one leading v or V and surrounding blanks, nothing else', () => {
  assert.equal(e.normalizeKubernetesVersion('V1.19.13'), '1.19.13');
  assert.equal(e.normalizeKubernetesVersion(' v1.25 '), '1.25');
  assert.equal(e.normalizeKubernetesVersion('1.21.3'), '1.21.3');
  assert.equal(e.normalizeKubernetesVersion('vv1.2'), 'v1.2');
  // every reader agrees: window ranges, minors, the lifecycle predicates, the StarlingX path
  assert.deepEqual(e.parseRange('V1.18..v1.21'), { from: '1.18', to: '1.21' });
  assert.equal(e.minorOf('V1.19.13'), '1.19');
  assert.deepEqual(e.k8sLifecycle.parseMinor('V1.22'), [1, 22]);
  const rel = e.findStarlingxRelease('6.0');
  assert.deepEqual(e.windowFromStarlingx(rel, 'V1.19.13', { kind: 'workspace', detail: 'x' }).patches, ['1.19.13', '1.20.9', '1.21.3']);
});

test('C: kubernetes_version V1.19.13 in localhost.yml gives the manifests the window its source text names (1.19..1.21)', (t) => {
  const dir = workspace(t, { '.skewguard.yaml': 'starlingx: { release: "6.0" }\n', 'localhost.yml': 'system_mode: simplex\nkubernetes_version: V1.19.13\n', 'deploy.yaml': DEPLOY });
  const r = lint(dir, ['--print-config', 'deploy.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const k = JSON.parse(r.stdout).kubernetes;
  assert.equal(k.window, '1.19..1.21');
  assert.deepEqual(k.versions, ['1.19.13', '1.20.9', '1.21.3']);
  assert.equal(k.source.detail, 'localhost.yml: StarlingX 6.0 upgrade path from 1.19.13');
});
