// Issue #25: the server's judge of which paths it may read (server/src/server/checked-roots.ts), built alone with the
// file system calls it makes counted. A path whose real path is known costs no further call; a path that was missing
// is looked up again once it exists (a file created later is judged by its real path, a link created later too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from './helpers/k8s.mjs';
import { loadSource } from './helpers/source-module.mjs';

const require = createRequire(import.meta.url);

/** CheckedRoots, with every call it makes to node:fs counted by name. */
async function load() {
  const calls = {};
  const counted = new Proxy(fs, {
    get(target, name) {
      const v = Reflect.get(target, name);
      if (typeof v !== 'function') return v;
      return (...a) => { calls[name] = (calls[name] ?? 0) + 1; return v.apply(target, a); };
    },
  });
  const { CheckedRoots } = await loadSource('server/src/server/checked-roots.ts', { require: (m) => (m === 'node:fs' || m === 'fs' ? counted : require(m)) });
  return { CheckedRoots, calls };
}

function scratch(t) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-roots-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a path already judged costs no call to the file system: no existsSync, no realpath on a cached hit', async (t) => {
  const { CheckedRoots, calls } = await load();
  const dir = scratch(t);
  fs.mkdirSync(path.join(dir, 'ws', 'charts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'ws', 'charts', 'values.yaml'), 'a: 1\n');
  const roots = new CheckedRoots(() => [path.join(dir, 'ws')]);
  const file = path.join(dir, 'ws', 'charts', 'values.yaml');
  assert.equal(roots.inside(file), true);
  assert.ok(calls.realpathSync > 0, JSON.stringify(calls));
  for (const k of Object.keys(calls)) delete calls[k];
  for (let i = 0; i < 100; i++) assert.equal(roots.inside(file), true);
  assert.deepEqual(calls, {});
});

test('a file created after it was judged missing is judged by its real path: inside through a linked root, refused as a link outside', async (t) => {
  const { CheckedRoots } = await load();
  const dir = scratch(t);
  fs.mkdirSync(path.join(dir, 'real-ws'));
  fs.mkdirSync(path.join(dir, 'elsewhere'));
  fs.writeFileSync(path.join(dir, 'elsewhere', 'id_rsa'), 'secret\n');
  // The workspace folder is opened through a link (as /tmp on macOS is /private/tmp).
  fs.symlinkSync(path.join(dir, 'real-ws'), path.join(dir, 'ws'));
  const roots = new CheckedRoots(() => [path.join(dir, 'ws')]);

  const later = path.join(dir, 'ws', 'later.yaml');
  assert.equal(roots.inside(later), true, 'missing: judged by its existing parent');
  fs.writeFileSync(later, 'a: 1\n');
  assert.equal(roots.inside(later), true, 'created: inside the (linked) workspace');

  const trap = path.join(dir, 'ws', 'trap.yaml');
  assert.equal(roots.inside(trap), true);
  fs.symlinkSync(path.join(dir, 'elsewhere', 'id_rsa'), trap);
  assert.equal(roots.inside(trap), false, 'created as a link outside the workspace');
});

test('invalidate() (every watched-file batch): a file replaced by a link outside is judged again', async (t) => {
  const { CheckedRoots } = await load();
  const dir = scratch(t);
  fs.mkdirSync(path.join(dir, 'ws'));
  fs.mkdirSync(path.join(dir, 'elsewhere'));
  fs.writeFileSync(path.join(dir, 'elsewhere', 'secret'), 'x\n');
  const file = path.join(dir, 'ws', 'values.yaml');
  fs.writeFileSync(file, 'a: 1\n');
  const roots = new CheckedRoots(() => [path.join(dir, 'ws')]);
  assert.equal(roots.inside(file), true);
  fs.rmSync(file);
  fs.symlinkSync(path.join(dir, 'elsewhere', 'secret'), file);
  roots.invalidate();
  assert.equal(roots.inside(file), false);
});

test('in the server: a watched-file change of a plain manifest drops what was known of links (a resource replaced by a link outside is then said, not read)', async (t) => {
  const { LspClient, uriOf, withTimeout } = await import('./helpers/lsp-client.mjs');
  const outside = scratch(t);
  fs.writeFileSync(path.join(outside, 'secret.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: secret\n');
  const dir = scratch(t);
  const KUST = 'resources:\n  - res.yaml\n';
  fs.writeFileSync(path.join(dir, '.skewguard.yaml'), 'kubernetes:\n  window: "1.24..1.25"\n');
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), KUST);
  fs.writeFileSync(path.join(dir, 'res.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n');
  const client = new LspClient(dir, {});
  t.after(() => client.kill());
  await withTimeout(client.initialize(), 10000, 'initialize did not answer');
  const uri = uriOf(path.join(dir, 'kustomization.yaml'));
  const first = await client.open(uri, KUST);
  assert.deepEqual(first.diagnostics.map((d) => d.message), []);
  fs.rmSync(path.join(dir, 'res.yaml'));
  fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'res.yaml'));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(dir, 'res.yaml')), type: 2 }] });
  await new Promise((r) => setTimeout(r, 400));
  const again = await client.change(uri, 2, [{ text: `# edited\n${KUST}` }]);
  assert.deepEqual(again.diagnostics.map((d) => d.message), [`the resources entry res.yaml is outside the workspace, not read: it is not checked (looked up as ${path.join(dir, 'res.yaml')})`]);
});
