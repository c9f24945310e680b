// The .vsix contents, without building one: the manifest fields the Marketplace and VS Code read, and the file list
// `vsce ls --no-dependencies` would package (exactly the bundles, data, schemas the engine reads, grammar, icon and
// documents). `npm run package` makes the .vsix and checks that the packaged extension starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestProblems, vsceLs, fileListProblems, requiredFiles, schemaDirsUsed } from '../scripts/package.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

test('manifest: icon (128×128 PNG), categories, keywords, activation, untrusted workspaces, settings, commands', () => {
  assert.deepEqual(manifestProblems(pkg), []);
  // The checks themselves notice what they are for.
  const broken = structuredClone(pkg);
  delete broken.icon;
  broken.capabilities.untrustedWorkspaces.supported = false;
  broken.activationEvents = broken.activationEvents.filter((e) => e !== 'onLanguage:kata-toml');
  broken.contributes.commands[0].title = '';
  delete broken.contributes.configuration.properties['skewguard.debounceMs'].default;
  assert.equal(manifestProblems(broken).length, 5, manifestProblems(broken).join('\n'));
});

test('manifest: packaging scripts and fields', () => {
  assert.match(pkg.scripts['vscode:prepublish'], /scripts\/build\.mjs/);
  assert.match(pkg.scripts.package, /scripts\/package\.mjs/);
  assert.match(pkg.devDependencies['@vscode/vsce'], /^[~^]?3\./, '@vscode/vsce 4 needs Node 22');
  assert.ok(!('files' in pkg), 'vsce refuses a "files" list together with .vscodeignore');
});

test('vsce ls --no-dependencies lists exactly the files the extension needs', () => {
  const files = vsceLs();
  assert.deepEqual(fileListProblems(files), []);
  for (const f of requiredFiles()) assert.ok(files.includes(f), f);
  assert.ok(!files.some((f) => /(^|\/)(node_modules|test|server\/src|client\/src|examples|scripts|bench)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts')), files.join('\n'));
  assert.ok(schemaDirsUsed().includes('schemas/starlingx/'));
  // And the check notices a stray or a missing file.
  assert.equal(fileListProblems([...files, 'test/lsp.test.mjs']).length, 1);
  assert.equal(fileListProblems(files.filter((f) => f !== 'dist/server.js')).length, 1);
});
