// The parser's optimised code survives full garbage collections made while no document is alive (the editor's server
// makes one when a big file is closed: server/memory.ts). V8 deoptimises code whose hidden classes died in a full
// collection, and clears the inline caches that named them; engine/keep-shapes.ts keeps one object of each class the
// parse makes alive, and parse/yaml.ts the values of the last documents parsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const SCRIPT = `
const e = require(${JSON.stringify(path.join(root, 'dist', 'engine.js'))});
(async () => {
const { realManifest } = await import(${JSON.stringify(new URL('../bench/real-corpus.mjs', import.meta.url).href)});
const cfg = e.resolveConfig({ cli: { kubernetesWindow: '1.18..1.21' } });
const run = (salt) => e.analyze({ path: '/x/a.yaml', text: realManifest(3000, { crds: false, salt }), config: cfg }).diagnostics.length;
for (let i = 0; i < 4; i++) run(i);
e.setParseCacheBudget(0); e.setParseCacheBudget(4 * 1024 * 1024);
// Hidden classes no object uses any more are retained for a few full collections (--retain-maps-for-n-gc) first.
gc(); gc(); gc();
console.log('--- after gc ---');
for (let i = 4; i < 6; i++) run(i);
})();
`;

test('full collections between files do not deoptimise the parser or the rules (their hidden classes are kept alive)', () => {
  // --no-concurrent-recompilation: a function is optimised on the main thread when V8 asks, so which ones are optimised
  // after the collection does not depend on the machine's load. With concurrent compiles the test passed on an idle
  // machine and failed one run in four under load: a rule's check (documentNotCheckedRule's) optimised only after the
  // collection, whose input's hidden class had died, got code without feedback (now kept: kubernetes/family.ts).
  const r = spawnSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--trace-opt', '--trace-deopt', '-e', SCRIPT], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const [before, after] = r.stdout.split('--- after gc ---');
  assert.ok(after !== undefined, 'the script ran to the end');
  const PARSER = /(SharedFunctionInfo|JSFunction) (parseMap|parseSeq|parseNested|plainScalar|keyAt|trivia|attach|parseDocument|quotedScalar|flowColl|parseInlineValue|resolvePlain|LineIndex)\b/;
  // Not vacuous: the parser's functions were optimised before the collection.
  assert.ok(before.split('\n').some((l) => /completed (optimizing|compiling)/.test(l) && /parseMap|plainScalar|keyAt|trivia/.test(l)), 'the parser was optimised before the collection');
  // Thrown away with its hidden classes ("weak objects"), or left with the inline caches the collection cleared
  // ("Insufficient type feedback"): either way the parse ran unoptimised until optimised again.
  const DIED = /weak objects|Insufficient type feedback/;
  const lost = after.split('\n').filter((l) => /^\[(bailout|marking dependent code)/.test(l) && DIED.test(l) && PARSER.test(l));
  assert.deepEqual(lost, [], 'the parser\'s optimised code was thrown away by the collection');
  // Nor any other function (the rules read the Kubernetes context and its images): nothing is thrown away for a hidden
  // class that died or an inline cache that was cleared.
  const anyLost = after.split('\n').filter((l) => /^\[(bailout|marking dependent code)/.test(l) && DIED.test(l));
  assert.deepEqual(anyLost, [], 'optimised code was thrown away by the collection');
});
