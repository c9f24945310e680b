// Every conversion the Kubernetes fixes can make, checked against the fields its source and target serve
// (test/fixtures/kubernetes/fields.json: the model trees of @kubernetes/client-node, each release generated from one
// Kubernetes OpenAPI document; made by scripts/extract-k8s-fields.mjs). For each (from, to, kind) pair and each
// OpenAPI document that serves both, objects holding every field of the source (one per variant of each
// discriminated union and each set of mutually exclusive fields) are converted; then
//   (a) the result holds no field the target does not serve (for a partial conversion: except under the paths it
//       names as left for a person),
//   (b) every value of the source is still in the result (a complete conversion never drops meaning; the few fields
//       a pair removes on purpose are listed below with why),
//   (c) an apiVersion-only pair is complete for every such object.
// `status` is left out of the objects: the API server ignores it in what is applied.
// Reads only the repo. Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const fields = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'fields.json'), 'utf8'));
const PRIMITIVES = new Set(['string', 'number', 'boolean', 'Date', 'object', 'any']);

/** Fields a conversion removes on purpose (not served by the target, no meaning to keep), per source apiVersion/kind. */
const DROPPED = {
  // rollbackTo was a one-off rollback request (kubectl rollout undo replaces it); templateGeneration was superseded
  // by the controller's pod-template-hash / controller-revision-hash labels. apps/v1 serves neither.
  'extensions/v1beta1 Deployment': ['spec.rollbackTo'],
  'apps/v1beta1 Deployment': ['spec.rollbackTo'],
  'extensions/v1beta1 DaemonSet': ['spec.templateGeneration'],
  // Rewritten as subjects[].apiGroup: the group part of the apiVersion (the value changes, so it is not "kept").
  'rbac.authorization.k8s.io/v1alpha1 RoleBinding': ['subjects[0].apiVersion'],
  'rbac.authorization.k8s.io/v1alpha1 ClusterRoleBinding': ['subjects[0].apiVersion'],
};

/** Fields that are one-of: an object sets one member of each group (the API rejects more). */
const EXCLUSIVE = [
  ['serviceName', 'resource'], // IngressBackend (servicePort goes with serviceName)
  ['targetAverageUtilization', 'targetAverageValue'], // v2beta1 Resource/ContainerResource metric source
  ['targetValue', 'averageValue'], // v2beta1 Object metric source
  ['targetValue', 'targetAverageValue'], // v2beta1 External metric source
  ['value', 'averageValue', 'averageUtilization'], // v2beta2/v2 MetricTarget (with its type)
];

const shapeOf = (pkg, model) => fields.shapes[pkg.models[model]];
const refOf = (type) => {
  const a = /^Array<(.+)>$/.exec(type);
  if (a) return { array: true, of: a[1] };
  const m = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (m) return { map: true, of: m[1] };
  return { of: type };
};

/**
 * Objects of `model` holding every field (recursion cut where a model contains itself): the first variant of
 * every choice, then one object per other variant of each choice. A choice is a discriminated union (a `type`
 * field beside object fields: type = the field's name capitalised, that field alone) or an EXCLUSIVE group.
 */
function instances(pkg, model, kind, apiVersion) {
  let counter = 0;
  const choices = [];
  const gen = (m, pick, at, stack) => {
    const shape = shapeOf(pkg, m);
    const out = {};
    let keys = Object.keys(shape).filter((k) => !(at === '' && (k === 'status' || k === 'apiVersion' || k === 'kind')));
    const members = keys.filter((k) => k !== 'type' && !PRIMITIVES.has(refOf(shape[k]).of) && !refOf(shape[k]).array && !refOf(shape[k]).map);
    let unionType;
    if (shape.type === 'string' && members.length > 1) {
      const i = pick(`${at}#union`, members.length);
      const chosen = members[i];
      keys = keys.filter((k) => !members.includes(k) || k === chosen);
      unionType = chosen[0].toUpperCase() + chosen.slice(1);
    }
    for (const group of EXCLUSIVE) {
      const present = group.filter((k) => keys.includes(k));
      if (present.length < 2) continue;
      const i = pick(`${at}#${group.join('|')}`, present.length);
      keys = keys.filter((k) => !present.includes(k) || k === present[i]);
      if (present[i] === 'resource') keys = keys.filter((k) => k !== 'servicePort');
    }
    for (const k of keys) {
      if (k === 'type' && unionType) { out.type = unionType; continue; }
      const v = value(shape[k], pick, `${at}.${k}`, stack);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
  const leaf = (t) => {
    counter++;
    if (t === 'number') return 100000 + counter;
    if (t === 'boolean') return true;
    if (t === 'Date') return '2020-01-02T03:04:05Z';
    return `v${counter}`;
  };
  const value = (type, pick, at, stack) => {
    const r = refOf(type);
    const one = () => {
      if (PRIMITIVES.has(r.of)) return leaf(r.of);
      if (stack.includes(r.of) || stack.length > 16) return undefined;
      return gen(r.of, pick, at, [...stack, r.of]);
    };
    if (r.array) { const v = one(); return v === undefined ? undefined : [v]; }
    if (r.map) { const v = one(); return v === undefined ? undefined : { [`k${++counter}`]: v }; }
    return one();
  };
  const seen = (key, n) => { if (!choices.some((c) => c.key === key)) choices.push({ key, n }); return 0; };
  const make = (pick) => { counter = 0; return { apiVersion, kind, ...gen(model, pick, '', [model]) }; };
  const out = [make(seen)];
  for (const c of choices) for (let i = 1; i < c.n; i++) out.push(make((key, n) => (key === c.key ? Math.min(i, n - 1) : 0)));
  return out;
}

/** Paths (a.b[0].c) in `value` the target model does not serve, or where the kind of value is wrong. */
function unserved(pkg, model, value, at = '') {
  const bad = [];
  const check = (type, v, p) => {
    const r = refOf(type);
    if (r.array) { if (!Array.isArray(v)) bad.push(`${p} (not a list)`); else v.forEach((x, i) => check(r.of, x, `${p}[${i}]`)); return; }
    if (r.map) { if (!v || typeof v !== 'object') bad.push(`${p} (not a map)`); else for (const [k, x] of Object.entries(v)) check(r.of, x, `${p}.${k}`); return; }
    if (r.of === 'object' || r.of === 'any') return;
    if (r.of === 'string' || r.of === 'Date') { if (typeof v !== 'string') bad.push(`${p} (not a string)`); return; }
    if (r.of === 'number') { if (typeof v !== 'number') bad.push(`${p} (not a number)`); return; }
    if (r.of === 'boolean') { if (typeof v !== 'boolean') bad.push(`${p} (not a boolean)`); return; }
    if (!v || typeof v !== 'object' || Array.isArray(v)) { bad.push(`${p} (not an object)`); return; }
    bad.push(...unserved(pkg, r.of, v, p));
  };
  const shape = shapeOf(pkg, model);
  for (const [k, v] of Object.entries(value)) {
    const p = at ? `${at}.${k}` : k;
    if (!(k in shape)) bad.push(p);
    else check(shape[k], v, p);
  }
  return bad;
}

/** Every (path, leaf value) of an object; numbers and v<N> strings are unique per generated object. */
function leaves(v, at = '', out = []) {
  if (Array.isArray(v)) v.forEach((x, i) => leaves(x, `${at}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, at ? `${at}.${k}` : k, out);
  else out.push([at, v]);
  return out;
}
const under = (p, prefixes) => prefixes.some((q) => p === q || p.startsWith(`${q}.`) || p.startsWith(`${q}[`));

function convertText(obj, to) {
  const text = YAML.stringify(obj, { lineWidth: 0 });
  const file = e.parseYaml(text);
  const doc = file.docs[0];
  const ed = new e.YamlEditor(text, doc, false);
  const conv = e.k8sConvert.convert(ed, [], doc.value, to);
  return { conv, out: YAML.parse(ed.apply()) };
}

const itemKind = (kind) => kind.replace(/List$/, '');
const pairs = e.k8sConvert.conversionPairs();

test('fields fixture: every package names its OpenAPI document and its models resolve', () => {
  assert.ok(fields.packages.length >= 5);
  for (const p of fields.packages) {
    assert.match(p.package, /^@kubernetes\/client-node@\d+\.\d+\.\d+$/);
    assert.match(p.openapi, /1\.\d+/);
    for (const m of Object.values(p.kinds)) assert.ok(fields.shapes[p.models[m]], `${p.package} ${m}`);
  }
});

test('every conversion pair is checked against at least one OpenAPI document serving both ends', () => {
  const unchecked = pairs.filter(({ from, to, kind }) => !fields.packages.some((p) => p.kinds[`${from} ${itemKind(kind)}`] && p.kinds[`${to} ${itemKind(kind)}`]));
  assert.deepEqual(unchecked, []);
});

for (const { from, to, kind, apiVersionOnly } of pairs) {
  const k = itemKind(kind);
  test(`conversion ${from} -> ${to} ${kind}: the target serves every field it produces and every source value is kept`, () => {
    const pkgs = fields.packages.filter((p) => p.kinds[`${from} ${k}`] && p.kinds[`${to} ${k}`]);
    assert.ok(pkgs.length, 'checked somewhere');
    let objects = 0;
    for (const pkg of pkgs) {
      for (const obj of instances(pkg, pkg.kinds[`${from} ${k}`], k, from)) {
        objects++;
        const where = `${pkg.openapi}, object ${objects}`;
        // A List kind: the same object as an item of a list of that apiVersion.
        const src = kind === k ? obj : { apiVersion: from, kind, metadata: {}, items: [obj] };
        const { conv, out } = convertText(src, to);
        assert.ok(conv, `${where}: a known conversion`);
        if (apiVersionOnly) assert.equal(conv.complete, true, `${where}: ${conv.notes.join('; ')}`);
        const item = kind === k ? out : out.items[0];
        if (kind !== k) assert.equal(out.apiVersion, to);
        const target = pkg.kinds[`${to} ${k}`];
        const produced = kind === k ? item : { ...item, apiVersion: to, kind: k };
        const bad = unserved(pkg, target, produced).filter((p) => !under(p, conv.leftover));
        assert.deepEqual(bad, [], `${where}: fields ${to} ${k} does not serve`);
        if (conv.complete) assert.deepEqual(conv.leftover, []);
        const kept = new Set(leaves(item).map(([, v]) => v));
        const dropped = [...(DROPPED[`${from} ${k}`] ?? []), ...conv.leftover];
        const lost = leaves(obj).filter(([p, v]) => typeof v !== 'boolean' && p !== 'apiVersion' && !under(p, dropped) && !kept.has(v));
        assert.deepEqual(lost, [], `${where}: source values missing after the conversion`);
      }
    }
    assert.ok(objects > 0);
  });
}
