// One way to write a window: engine/window-text.ts's windowText ("1.25..1.28", or the one step), used by the engine,
// the rules and the server alike (it was copied about twenty times). The reports did not change with it (examples/
// and the rule snapshots are byte-identical); a new inline copy fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { engine as e, repoRoot } from './helpers/k8s.mjs';

test('windowText: first..last, or the one step; another separator for ranges', () => {
  assert.equal(e.windowText(['1.25', '1.26', '1.27']), '1.25..1.27');
  assert.equal(e.windowText(['1.25', '1.27']), '1.25..1.27');
  assert.equal(e.windowText(['3.2.0']), '3.2.0');
  assert.equal(e.windowText(['1.25', '1.26'], '–'), '1.25–1.26');
});

test('no inline copy of windowText in server/src or client/src (first..last written out by hand)', () => {
  const COPY = /\.length > 1 \? `\$\{[^`]*\[0\][^`]*\}(?:\.\.|–)\$\{[^`]*\.length - 1\][^`]*\}`/;
  const found = [];
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name.endsWith('.ts') && d.name !== 'window-text.ts') {
        fs.readFileSync(p, 'utf8').split('\n').forEach((l, i) => { if (COPY.test(l)) found.push(`${path.relative(repoRoot, p)}:${i + 1}`); });
      }
    }
  };
  walk(path.join(repoRoot, 'server', 'src'));
  walk(path.join(repoRoot, 'client', 'src'));
  assert.deepEqual(found, [], 'use windowText from server/src/engine/window-text.ts');
});
