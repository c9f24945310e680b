// The field rules' shared walk (data/fields.ts): walkServedEntries reuses one scratch array across calls, so what it
// visits must not depend on what was walked before, on a walk started inside a visit, or on an object too big for the
// scratch array. Each case is compared with the same walk in a module instance of its own that walked nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSource } from './helpers/source-module.mjs';

const ENTRY = { contents: `export { fieldEntries, walkServedEntries, rootNode, fieldTable, maskOf, pathSegments } from './server/src/engine/families/kubernetes/data/fields';` };
const fresh = () => loadSource(ENTRY);

const deployment = (n) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2, minReadySeconds: 5, selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'web' }],
        containers: [{ name: 'web', image: 'nginx:1.27', env: Array.from({ length: n }, (_, i) => ({ name: `V${i}`, valueFrom: { configMapKeyRef: { name: 'cm', key: `k${i}` } }, notAField: true })) }],
        tolerations: [{ key: 'k', operator: 'Exists' }],
        os: { name: 'linux' }, schedulingGates: [{ name: 'g' }],
      },
    },
  },
  status: { replicas: 1 },
});
const ingress = { apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'i' }, spec: { backend: { serviceName: 's', servicePort: 80 }, ingressClassName: 'x' } };

/** What walkServedEntries visits for an object at the window, as [path, alive, served] rows. */
function visits(f, obj, minors, inside) {
  const t = f.fieldTable();
  const root = f.rootNode(obj.apiVersion, obj.kind, t);
  const entries = f.fieldEntries(obj, root, []);
  const rows = [];
  f.walkServedEntries(entries, root, f.maskOf(minors, t), (key, c, alive, at) => {
    rows.push([f.pathSegments({ up: at, seg: key }).join('.'), alive, c.served]);
    if (rows.length === 1) inside?.();
  });
  return rows;
}

test('walkServedEntries: the same visits after another walk, and with a walk started inside a visit', async () => {
  // Pod spec `os` is served from 1.23: at 1.20-1.21 the walk does not go into it (fieldEntries does: the table serves it
  // elsewhere), at 1.23-1.26 it does. A mark left by the second window's walk must not lead the first one into it.
  const early = [20, 21], late = [23, 24, 25, 26];
  const x = deployment(3);
  const alone = visits(await fresh(), x, early);
  const lateAlone = visits(await fresh(), x, late);
  const ing = visits(await fresh(), ingress, [18, 19, 20, 21, 22]);
  assert.ok(!alone.some(([p]) => p.includes('.os.')) && lateAlone.some(([p]) => p.endsWith('.os.name')), 'os.name: visited at 1.23 on, not before');
  assert.ok(alone.length > 20 && ing.length > 3, 'the objects are walked');
  // Served somewhere in the window but not everywhere: the masks are part of what is compared.
  assert.ok(visits(await fresh(), x, [20, 21, 22, 23, 24, 25, 26]).some(([, alive, served]) => (alive & ~served) !== 0));

  const f = await fresh();
  assert.ok(visits(f, deployment(400), late).length > 800);
  assert.deepEqual(visits(f, x, late), lateAlone);
  assert.deepEqual(visits(f, x, early), alone, 'after walks at another window: their marks are not read');
  let nested, nested2;
  const outer = visits(f, x, early, () => { nested = visits(f, x, late, () => { nested2 = visits(f, ingress, [18, 19, 20, 21, 22]); }); });
  assert.deepEqual(outer, alone, 'the outer walk, with other walks in its first visit');
  assert.deepEqual(nested, lateAlone, 'a walk started inside a visit');
  assert.deepEqual(nested2, ing, 'and one started inside that one');
  assert.deepEqual(visits(f, x, early), alone, 'and after them');
});

test('walkServedEntries: an object with more entries than the scratch array keeps', async () => {
  const n = 20000; // 6 entries per env item, 3 of them holding others: over the 65,536 the scratch array is kept for
  const alone = visits(await fresh(), deployment(n), [18, 19, 20, 21]);
  const f = await fresh();
  visits(f, deployment(3), [18, 19, 20, 21]);
  const after = visits(f, deployment(n), [18, 19, 20, 21]);
  assert.equal(after.length, alone.length);
  assert.deepEqual(after, alone);
  // Every env item's name and the key its value comes from are visited, the last items' too: the walk went into the
  // mappings of the whole list (below the entries that hold them, past the scratch array's length).
  assert.equal(after.filter(([p]) => /\.env\.\d+\.name$/.test(p)).length, n);
  assert.equal(after.filter(([p]) => /\.env\.\d+\.valueFrom\.configMapKeyRef\.key$/.test(p)).length, n);
  assert.deepEqual(visits(f, deployment(3), [18, 19, 20, 21]), visits(await fresh(), deployment(3), [18, 19, 20, 21]));
});
