// A folder the server's workspace walk cannot list is said where the walk's answer is used, never taken for an empty
// folder. Tests run as root here, where permissions do not stop a listing; a path longer than PATH_MAX does
// (ENAMETOOLONG), for root as for anyone.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { LspClient, uriOf, repoRoot } from './helpers/lsp-client.mjs';
import { CRONTAB_CRD } from './helpers/crds.mjs';

const CRD = CRONTAB_CRD;

/** A workspace with crd.yaml at its root and a folder, 21 levels down, whose path is too long to be listed. */
function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-walk-'));
  fs.writeFileSync(path.join(root, 'crd.yaml'), CRD);
  const here = process.cwd();
  process.chdir(root);
  try {
    for (let i = 0; i < 22; i++) { fs.mkdirSync('d'.repeat(200)); process.chdir('d'.repeat(200)); }
    fs.writeFileSync('cr.yaml', 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n');
  } finally { process.chdir(here); }
  let p = root, depth = 0;
  for (;; depth++) { try { fs.readdirSync(p); } catch (e) { assert.equal(e.code, 'ENAMETOOLONG'); break; } p = path.join(p, 'd'.repeat(200)); }
  assert.ok(depth > 0 && depth < 22, 'some folder of the workspace cannot be listed');
  return root;
}
const remove = (root) => spawnSync('rm', ['-rf', root]);
const NOTE = /crontabs\.stable\.example\.com: custom resources of the workspace not all searched \(the workspace walk for CustomResourceDefinitions: 1 folder could not be listed \(d+(\/d+)* \(ENAMETOOLONG\)\)\)/;

test('lsp-lint: a folder the CRD walk cannot list is said at the CRD (crd-version-in-use) and as not checked (exit 2)', () => {
  const root = workspace();
  try {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), '--format', 'json', '--kubernetes-window', '1.30', '.'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    const files = JSON.parse(r.stdout);
    const crd = files.find((f) => f.filePath.endsWith('crd.yaml'));
    const said = crd.messages.filter((m) => m.ruleId === 'k8s/crd-version-in-use');
    assert.equal(said.length, 1, JSON.stringify(crd.messages));
    assert.equal(said[0].severity, 'info');
    assert.match(said[0].message, NOTE);
    assert.ok(files.some((f) => f.messages.some((m) => m.ruleId === 'skewguard/skipped-file' && /ENAMETOOLONG/.test(m.message))), 'the folder is listed as not checked');
  } finally { remove(root); }
});

test('editor: the same note on the open CRD, from the server\'s own walk', async () => {
  const root = workspace();
  const client = new LspClient(root, { initializationOptions: { cli: { kubernetesWindow: '1.30' } } });
  try {
    await client.initialize();
    const p = await client.open(uriOf(path.join(root, 'crd.yaml')), CRD);
    const said = p.diagnostics.filter((d) => d.code === 'k8s/crd-version-in-use');
    assert.equal(said.length, 1, JSON.stringify(p.diagnostics));
    assert.match(said[0].message, NOTE);
  } finally { client.kill(); remove(root); }
});

test('without the unlistable folder nothing is said: the note is the walk\'s, not the CRD\'s', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-walk-'));
  try {
    fs.writeFileSync(path.join(root, 'crd.yaml'), CRD);
    const out = execFileSync(process.execPath, [path.join(repoRoot, 'bin/lsp-lint.js'), '--format', 'json', '--kubernetes-window', '1.30', '.'], { cwd: root, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out).flatMap((f) => f.messages.map((m) => m.ruleId)), []);
  } finally { remove(root); }
});
