// The committed schemas/ must be exactly what scripts/gen-schemas.mjs generates from data/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemas, listFiles } from '../scripts/gen-schemas.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const HINT = 'schemas/ is out of date: run `npm run gen:schemas` and commit the result';

test('generator produces at least one schema', () => {
  assert.ok(generateSchemas(repoRoot).size > 0, 'generateSchemas returned no files');
});

test('every generated schema equals the committed file', () => {
  const stale = [];
  for (const [rel, contents] of generateSchemas(repoRoot)) {
    const abs = path.join(repoRoot, rel);
    if (!fs.existsSync(abs)) stale.push(`${rel} (missing)`);
    else if (fs.readFileSync(abs, 'utf8') !== contents) stale.push(`${rel} (differs)`);
  }
  assert.deepEqual(stale, [], `${HINT}:\n  ${stale.join('\n  ')}`);
});

test('no file under schemas/ that the generator does not produce', () => {
  const generated = generateSchemas(repoRoot);
  const extra = listFiles(repoRoot, 'schemas').filter(
    (rel) => !generated.has(rel) && !path.basename(rel).startsWith('.'),
  );
  assert.deepEqual(extra, [], `${HINT} (it deletes stale files):\n  ${extra.join('\n  ')}`);
});

test('generation is deterministic', () => {
  const a = generateSchemas(repoRoot);
  const b = generateSchemas(repoRoot);
  assert.deepEqual([...a.keys()], [...b.keys()]);
  for (const [rel, contents] of a) {
    assert.equal(b.get(rel), contents, rel);
    assert.ok(contents.endsWith('}\n'), `${rel} must end with a newline`);
  }
});
