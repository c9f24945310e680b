// Shared by the VS Code integration tests (test/vscode/runTest.js) and the UI test (test/e2e/ui.test.mjs).
//
// makeWorkspace(): a throw-away copy of examples/ for VS Code to open, so the tests never modify the repository.
// Next to it (outside the workspace) expected.json: what `lsp-lint --format json` reports for every file of the
// copy. The editor must show exactly those findings: lsp-lint starts the same language server, so any difference
// is a client bug.
//
// ensureHarness(): the code-server + Chromium harness (scripts/vscode-harness/setup.sh, a copy of the shared
// vscode-web tools), installed once into a cached folder outside the repository.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const repoRoot = path.resolve(__dirname, '..', '..');
const harnessTools = path.join(repoRoot, 'scripts', 'vscode-harness');

/** The example files the tests look at closely: one of each kind skewguard serves. */
const FILES = {
  localhost: 'starlingx/stx12-v-prefix/localhost.yml',
  manifest: 'kubernetes/upgrade-1.18-to-1.21/legacy-monitoring.yaml',
  siteIngress: 'kubernetes/stx6-site/manifests/ingress.yaml',
  kata: 'kata/gpu-host-3.1-to-3.32/configuration-qemu-tdx.toml',
};

function makeWorkspace(prefix = 'skewguard-vscode-') {
  // realpath: /tmp may be a symlink, and VS Code reports real paths.
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const ws = path.join(base, 'examples');
  fs.cpSync(path.join(repoRoot, 'examples'), ws, { recursive: true });
  for (const f of Object.values(FILES)) if (!fs.existsSync(path.join(ws, f))) throw new Error(`examples/${f} is gone: update FILES in ${__filename}`);
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--format', 'json', '--max-warnings=-1', '.'], {
    cwd: ws, encoding: 'utf8', maxBuffer: 64 << 20,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`lsp-lint on the test workspace exited ${r.status}:\n${r.stderr}`);
  const expected = JSON.parse(r.stdout).map((f) => ({
    file: path.relative(ws, f.filePath).split(path.sep).join('/'),
    messages: f.messages.map((m) => ({
      code: m.ruleId, severity: m.severity, message: m.message,
      range: [m.line - 1, m.column - 1, m.endLine - 1, m.endColumn - 1],
    })),
  }));
  const expectedFile = path.join(base, 'expected.json');
  fs.writeFileSync(expectedFile, JSON.stringify(expected, null, 2) + '\n');
  return {
    base, ws, expectedFile, expected,
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * Installs (or finds) the harness in $SKEWGUARD_HARNESS (default ~/.cache/skewguard-vscode: short, because VS Code's
 * IPC socket paths inside it must stay under 108 characters); returns its folder. About a second when installed.
 */
function ensureHarness() {
  const dir = path.resolve(process.env.SKEWGUARD_HARNESS || path.join(os.homedir(), '.cache', 'skewguard-vscode'));
  const rel = path.relative(repoRoot, dir);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) throw new Error(`SKEWGUARD_HARNESS (${dir}) must be outside the repository`);
  const t0 = Date.now();
  const r = spawnSync('bash', [path.join(harnessTools, 'setup.sh'), dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`harness setup failed (exit ${r.status}); see ${dir}/npm-install.log`);
  if (Date.now() - t0 > 5000) console.log(`harness installed in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${dir}`);
  return dir;
}

module.exports = { repoRoot, harnessTools, makeWorkspace, ensureHarness, FILES };
