// Loaded by the VS Code extension host (extensionTestsPath): VS Code's test-runner contract is a run() that
// resolves when the tests pass and rejects when they fail.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

function run() {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec', bail: false });
  for (const f of fs.readdirSync(__dirname).sort()) if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}

module.exports = { run };
