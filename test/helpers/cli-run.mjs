// Helpers for the lsp-lint report and CI tests: a scratch folder with files, and lsp-lint run in it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');

/** A temporary folder (real path) with `files` ({ relative path: content }), removed after the test. */
export function scratch(t, files = {}, prefix = 'skewguard-rep-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  t?.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir, files) {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

export function lint(cwd, args, { env, input } = {}) {
  const e = { ...process.env, NO_COLOR: '1', ...env };
  delete e.FORCE_COLOR;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: 'utf8', env: e, timeout: 120000, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

export const K8S_WINDOW = (w) => `kubernetes:\n  window: "${w}"\n`;
export const ING_BETA = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
export const ING_V1 = 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n';
export const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n';
