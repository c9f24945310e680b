// Issue #30: a family's server side (what it does in the language server that the pure engine may not: run Helm, read
// the user's OpenAPI documents) is in its folder, engine/families/<id>/server/index.ts, behind the hooks of
// server/src/server/family-service.ts. The build collects them from the registry's ids (scripts/family-services.mjs,
// the module `skewguard:family-services`); the engine never bundles them. Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';
import { familyServerModules, familyServicesSource } from '../scripts/family-services.mjs';

const families = path.join(repoRoot, 'server/src/engine/families');

test('the server modules collected are those of the registry\'s families that have one, in the registry\'s order', () => {
  const mods = familyServerModules(repoRoot, [...e.FAMILIES]).map((f) => path.relative(families, f).split(path.sep)[0]);
  // Every family folder with a server side is taken (nothing is listed by hand), in the registry's order.
  const onDisk = fs.readdirSync(families).filter((d) => fs.existsSync(path.join(families, d, 'server', 'index.ts')));
  assert.deepEqual([...mods].sort(), onDisk.sort());
  assert.deepEqual(mods, [...e.FAMILIES].filter((id) => onDisk.includes(id)));
  assert.ok(mods.includes('helm-chart') && mods.includes('kubernetes'), mods.join(', '));
  // The module the server imports lists each of them once.
  const src = familyServicesSource(repoRoot, [...e.FAMILIES]);
  assert.equal((src.match(/^import \{ start as start\d+ \}/gm) ?? []).length, mods.length);
});

test('a folder that is not a registry id is not taken, and the registry\'s order is kept (it can fail)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'family-services-'));
  try {
    for (const id of ['b', 'a', 'stray']) {
      fs.mkdirSync(path.join(root, 'server/src/engine/families', id, 'server'), { recursive: true });
      fs.writeFileSync(path.join(root, 'server/src/engine/families', id, 'server', 'index.ts'), 'export function start() { return {}; }\n');
    }
    fs.mkdirSync(path.join(root, 'server/src/engine/families', 'c'), { recursive: true });
    const got = familyServerModules(root, ['b', 'c', 'a']).map((f) => path.relative(path.join(root, 'server/src/engine/families'), f).split(path.sep)[0]);
    assert.deepEqual(got, ['b', 'a']);
    assert.match(familyServicesSource(root, ['b', 'c', 'a']), /export const familyServices = \[\{ start: start0 \}, \{ start: start1 \}\];/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the engine never imports a family\'s server side: its library bundles no module of a families/<id>/server/ folder', async () => {
  const { build } = await import('esbuild');
  const r = await build({ entryPoints: [path.join(repoRoot, 'server/src/engine/index.ts')], absWorkingDir: repoRoot, bundle: true, write: false, metafile: true, platform: 'node', format: 'cjs', logLevel: 'silent', packages: 'external' });
  const inputs = Object.keys(r.metafile.inputs);
  assert.ok(inputs.some((f) => f.includes('engine/families/registry.ts')), 'the registry is bundled');
  assert.deepEqual(inputs.filter((f) => /engine\/families\/[^/]+\/server\//.test(f)), []);
  // …while the server's bundle has them (the Helm renderer and its progress notification are in dist/server-main.js),
  // and the web server's has the Helm family's stub instead of the renderer.
  const server = fs.readFileSync(path.join(repoRoot, 'dist/server-main.js'), 'utf8');
  const web = fs.readFileSync(path.join(repoRoot, 'dist/web/server.js'), 'utf8');
  assert.match(server, /family: "helm-chart", subject: chartRoot/);
  assert.match(server, /superseded: the chart changed before it was rendered/);
  assert.doesNotMatch(web, /superseded: the chart changed before it was rendered/);
  assert.match(web, /in the web extension Helm is never run/);
});
