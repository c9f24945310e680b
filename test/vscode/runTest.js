#!/usr/bin/env node
// `npm run test:vscode`: the extension's integration tests (test/vscode/suite/, mocha) inside a real VS Code
// extension host, started the usual way with @vscode/test-electron's runTests().
//
// VS Code desktop cannot be downloaded on this CI machine, so vscodeExecutablePath is a stand-in: the harness's
// vscode-test-shim.js starts code-server (VS Code 1.100.3, Node extension host) and drives it with headless Chromium.
// On a machine that can download VS Code, run the same suite on the desktop build with
// SKEWGUARD_VSCODE_DESKTOP=1 (runTests then downloads it), or point VSCODE_TEST_SHIM at another executable.
//
// The workspace is a temporary copy of examples/ (test/vscode/workspace.js), removed afterwards.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { runTests } = require('@vscode/test-electron');
const { repoRoot, harnessTools, makeWorkspace, ensureHarness } = require('./workspace');

async function main() {
  const t0 = Date.now();
  const desktop = process.env.SKEWGUARD_VSCODE_DESKTOP === '1';
  let vscodeExecutablePath;
  if (!desktop) {
    const harness = ensureHarness();
    process.env.VSCODE_WEB_HARNESS = harness;
    vscodeExecutablePath = process.env.VSCODE_TEST_SHIM ?? path.join(harnessTools, 'vscode-test-shim.js');
  }
  const w = makeWorkspace();
  // The shim keeps each run's code-server state in <harness>/run/shim-*: drop this run's when the tests pass.
  const runDir = process.env.VSCODE_WEB_HARNESS && path.join(process.env.VSCODE_WEB_HARNESS, 'run');
  const runsBefore = new Set(runDir && fs.existsSync(runDir) ? fs.readdirSync(runDir) : []);
  let code = 1;
  try {
    fs.mkdirSync(path.join(w.base, 'user-data'), { recursive: true });
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(__dirname, 'suite', 'index.js'),
      launchArgs: [w.ws, `--user-data-dir=${path.join(w.base, 'user-data')}`, `--extensions-dir=${path.join(w.base, 'extensions')}`, '--disable-extensions'],
      extensionTestsEnv: {
        SKEWGUARD_TEST_WORKSPACE: w.ws,
        SKEWGUARD_TEST_EXPECTED: w.expectedFile,
      },
    });
    code = 0;
  } catch (err) {
    console.error('test:vscode failed:', err.message || err);
  } finally {
    w.cleanup();
    if (code === 0 && runDir && fs.existsSync(runDir)) {
      for (const d of fs.readdirSync(runDir)) if (d.startsWith('shim-') && !runsBefore.has(d)) fs.rmSync(path.join(runDir, d), { recursive: true, force: true });
    }
  }
  console.log(`test:vscode: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(code);
}

main();
