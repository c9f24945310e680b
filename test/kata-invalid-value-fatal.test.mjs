// kata/invalid-value reports every rejected enumerated value as fatal (error severity, "the runtime refuses to start
// sandboxes"): upstream, every validator of an enumerated option in the Go runtime's
// src/runtime/pkg/katautils/config.go (blockDeviceDriver(), sharedFS(), blockDeviceAIO(), extraMonitorSocket(),
// emptyDirMode(), checkPCIeConfig(), SetModel / VFIOSetMode) returns an error and LoadConfiguration fails; what it
// falls back on silently are numbers (default_bridges, default_memory, rate-limiter bursts), not enumerated values.
// A values row with fatal: false would need the rule's warning branch back, which was removed as dead code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/kata/config.json'), 'utf8'));

test('every enumerated values row in data/kata/config.json is fatal, as kata/invalid-value reports it', () => {
  const rows = [];
  const walk = (v, at) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (v && typeof v === 'object') {
      if (Array.isArray(v.values) && v.values.some((x) => x && Array.isArray(x.enum))) for (const [i, r] of v.values.entries()) rows.push({ at: `${at}.values[${i}]`, r });
      for (const [k, x] of Object.entries(v)) if (k !== 'values') walk(x, `${at}.${k}`);
    }
  };
  walk(data, '$');
  assert.ok(rows.length > 0, 'no values rows found: the data layout changed, update this test');
  const notFatal = rows.filter(({ r }) => r.fatal !== true).map(({ at }) => at);
  assert.deepEqual(notFatal, [], 'a non-fatal values row: kata/invalid-value has no warning branch; add it back with a fixture under test/fixtures/rules/kata/invalid-value/');
});
