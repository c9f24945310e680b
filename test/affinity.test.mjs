// lsp-lint's queue (server/src/cli/affinity.ts): the files of one chart, and the other files of one folder, go to one
// server as a group, and a server with nothing left takes over part of a group another server is working through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSource } from './helpers/source-module.mjs';

const affinity = () => loadSource('server/src/cli/affinity.ts');

test('groups: one per chart (the outermost, its subcharts with it), one per folder of the other files, in the order of first appearance', async () => {
  const { groupFiles } = await affinity();
  const files = [
    '/w/a/one.yaml', '/w/b/x.yaml', '/w/a/two.yaml',
    '/w/charts/app/Chart.yaml', '/w/charts/app/templates/d.yaml', '/w/charts/app/charts/sub/Chart.yaml', '/w/charts/app/charts/sub/templates/s.yaml',
    '/w/a/deeper/three.yaml', '/w/b/y.toml',
  ];
  assert.deepEqual(groupFiles(files).map((g) => [g.files, g.shareFrom]), [
    [['/w/a/one.yaml', '/w/a/two.yaml'], 2],
    [['/w/b/x.yaml', '/w/b/y.toml'], 2],
    [['/w/charts/app/Chart.yaml', '/w/charts/app/templates/d.yaml', '/w/charts/app/charts/sub/Chart.yaml', '/w/charts/app/charts/sub/templates/s.yaml'], 16],
    [['/w/a/deeper/three.yaml'], 2],
  ]);
});

test('queue: a server keeps to its group; when no group is left it takes half of what another server has left of a folder (from 2 files), of a chart only from 16; every file is handed out once', async () => {
  const { FileQueue } = await affinity();
  const folder = Array.from({ length: 6 }, (_, i) => `/w/m/f${i}.yaml`);
  const chart = ['/w/c/Chart.yaml', ...Array.from({ length: 5 }, (_, i) => `/w/c/templates/t${i}.yaml`)];
  const q = new FileQueue([...folder, ...chart]);
  const A = {}; const B = {};
  assert.equal(q.next(A), '/w/m/f0.yaml');
  assert.equal(q.next(B), '/w/c/Chart.yaml');
  assert.equal(q.next(A), '/w/m/f1.yaml');
  // No group left: A's folder (4 left) is shared with an idle server; B's chart (5 left) is not.
  const C = {};
  assert.equal(q.next(C), '/w/m/f4.yaml');
  assert.equal(q.next(C), '/w/m/f5.yaml');
  assert.equal(q.next(A), '/w/m/f2.yaml');
  assert.equal(q.next(A), '/w/m/f3.yaml');
  assert.equal(q.next(A), undefined, 'a chart of fewer than 16 files left is not split');
  const seen = ['/w/m/f0.yaml', '/w/c/Chart.yaml', '/w/m/f1.yaml', '/w/m/f4.yaml', '/w/m/f5.yaml', '/w/m/f2.yaml', '/w/m/f3.yaml'];
  for (let f = q.next(B); f !== undefined; f = q.next(B)) seen.push(f);
  assert.deepEqual([...seen].sort(), [...folder, ...chart].sort());
  assert.equal(new Set(seen).size, seen.length);
});

test('queue: a server that is gone gives the rest of its group back to the front; rest() is every file not handed out', async () => {
  const { FileQueue } = await affinity();
  const q = new FileQueue(['/w/a/1.yaml', '/w/a/2.yaml', '/w/a/3.yaml', '/w/b/1.yaml']);
  const A = {}; const B = {};
  assert.equal(q.next(A), '/w/a/1.yaml');
  q.release(A);
  assert.equal(q.next(B), '/w/a/2.yaml');
  assert.deepEqual(q.rest().sort(), ['/w/a/3.yaml', '/w/b/1.yaml']);
});
