#!/usr/bin/env node
// Writes test/fixtures/kubernetes/fields.json: for every apiVersion/kind of data/kubernetes/api-lifecycle.json
// (component k8s), the fields each Kubernetes minor's OpenAPI document gives it, as the model tree of the
// official JavaScript client (@kubernetes/client-node), whose releases are each generated from one Kubernetes
// OpenAPI document. Every model lists its fields in `attributeTypeMap` (JSON name + type).
//
// Not run by the build or the tests: the tests read the committed JSON. To refresh it:
//   node scripts/extract-k8s-fields.mjs [cache-dir]
// It fetches the package tarballs with the ordinary npm client (`npm pack`) into cache-dir (default: a folder in
// the system temp dir) and reads only dist/gen/model/*.js and dist/gen/api/*.js from them (nothing is run but the
// model classes, which have no imports).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// Versions of @kubernetes/client-node and the OpenAPI document each was generated from (as the files say).
const PACKAGES = ['0.11.2', '0.12.3', '0.13.2', '0.15.1', '0.17.1', '0.18.1', '0.21.0'];

const cache = process.argv[2] ?? path.join(os.tmpdir(), 'skewguard-k8s-client');
fs.mkdirSync(cache, { recursive: true });

function unpacked(version) {
  const dir = path.join(cache, version);
  if (fs.existsSync(path.join(dir, 'package', 'package.json'))) return path.join(dir, 'package');
  const tgz = path.join(cache, `kubernetes-client-node-${version}.tgz`);
  if (!fs.existsSync(tgz)) execFileSync('npm', ['pack', `@kubernetes/client-node@${version}`, '--silent'], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'] });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', tgz, '-C', dir]);
  return path.join(dir, 'package');
}

const rows = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8')).apis
  .filter((r) => (r.component ?? 'k8s') === 'k8s' && r.kind && !r.kind.endsWith('List'));
const wanted = new Set();
for (const r of rows) {
  wanted.add(`${r.apiVersion} ${r.kind}`);
  if (r.replacement) wanted.add(`${r.replacement} ${r.kind}`);
}

const PRIMITIVE = new Set(['string', 'number', 'boolean', 'Date', 'object', 'any']);
const shapes = [];
const shapeIds = new Map();
const out = { packages: [] };

for (const version of PACKAGES) {
  const pkg = unpacked(version);
  const gen = path.join(pkg, 'dist', 'gen');
  const apiDir = path.join(gen, 'api');
  const modelDir = path.join(gen, 'model');
  // apiVersion/kind -> model name, from the create methods of the API classes: the request path names the
  // group/version, the body's serializer type names the model.
  const kinds = {};
  for (const f of fs.readdirSync(apiDir).filter((x) => x.endsWith('Api.js'))) {
    const src = fs.readFileSync(path.join(apiDir, f), 'utf8');
    const re = /\n {4}(?:async )?create(?:Namespaced)?(\w+)\([^)]*\)\s*\{([\s\S]*?)\n {4}\}/g;
    for (let m; (m = re.exec(src));) {
      const [, kind, body] = m;
      const p = /basePath \+ '\/(?:api\/(v1)|apis\/([^/]+)\/([^/']+))\//.exec(body);
      const t = /serialize\(body, "(\w+)"\)/.exec(body);
      if (!p || !t) continue;
      const apiVersion = p[1] ?? `${p[2]}/${p[3]}`;
      if (wanted.has(`${apiVersion} ${kind}`) && t[1].endsWith(kind)) kinds[`${apiVersion} ${kind}`] = t[1];
    }
  }
  const header = fs.readFileSync(path.join(modelDir, 'v1ObjectMeta.js'), 'utf8');
  const openapi = /OpenAPI document: (\S+)/.exec(header)?.[1];
  const models = {};
  const fileOf = (name) => path.join(modelDir, `${name[0].toLowerCase()}${name.slice(1)}.js`);
  const refs = (type) => {
    const a = /^Array<(.+)>$/.exec(type);
    if (a) return refs(a[1]);
    const m = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (m) return refs(m[1]);
    // A named type without a model file (IntOrString from 0.17 on) is a leaf, like "object" before it.
    return PRIMITIVE.has(type) || !fs.existsSync(fileOf(type)) ? [] : [type];
  };
  const leaf = (type) => type.replace(/\bIntOrString\b/g, 'object');
  const visit = (name) => {
    if (name in models) return;
    models[name] = null;
    const mod = require(fileOf(name));
    const cls = mod[name] ?? Object.values(mod)[0];
    const fields = {};
    for (const a of cls.attributeTypeMap) fields[a.baseName] = leaf(a.type);
    const key = JSON.stringify(fields);
    let id = shapeIds.get(key);
    if (id === undefined) { id = shapes.length; shapes.push(fields); shapeIds.set(key, id); }
    models[name] = id;
    for (const t of Object.values(fields)) for (const r of refs(t)) visit(r);
  };
  for (const m of Object.values(kinds)) visit(m);
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
  out.packages.push({ package: `@kubernetes/client-node@${version}`, openapi, kinds: sorted(kinds), models: sorted(models) });
  console.log(`${version} (${openapi}): ${Object.keys(kinds).length} kinds, ${Object.keys(models).length} models`);
}

const result = {
  description: 'Fields per apiVersion/kind of each Kubernetes OpenAPI document below, for the conversion tests (test/k8s-fields.test.mjs). '
    + 'Extracted by scripts/extract-k8s-fields.mjs from the attributeTypeMap of each model of the @kubernetes/client-node release named '
    + '(generated by OpenAPI Generator from the Kubernetes OpenAPI document named in `openapi`); data only. `kinds` maps "apiVersion kind" '
    + 'to its model, `models` maps a model name to its entry in `shapes`, a shape maps each JSON field name to its type: a model name, '
    + 'Array<T>, { [key: string]: T; }, or string / number / boolean / Date / object (object = int-or-string, quantity-free JSON and the like).',
  source: 'npm registry, @kubernetes/client-node (https://github.com/kubernetes-client/javascript), dist/gen/model/*.js and dist/gen/api/*.js of each version below',
  ...out,
  shapes,
};
const dest = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'fields.json');
fs.writeFileSync(dest, JSON.stringify(result) + '\n');
console.log(`wrote ${path.relative(repoRoot, dest)}: ${shapes.length} shapes, ${fs.statSync(dest).size} bytes`);
