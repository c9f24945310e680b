// The JSON Schema validators compiled at build time (scripts/validators.mjs, engine/precompiled.ts): one for each
// schema the engine validates with, used only for the schema it was made from, and giving ajv's own verdicts and
// errors (a run-time compile with the same options) on values made from each schema, valid and not.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { validatorTargets } from '../scripts/validators.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const e = require('../dist/engine.js');
const Ajv = require('ajv').default;
const targets = validatorTargets(root, e);

test('every schema the engine validates with has its compiled validator, and nothing else is in dist/validators/', () => {
  const keys = targets.map(([k]) => k);
  for (const k of ['config', 'settings', 'schemas/starlingx/10.0/localhost.schema.json', 'schemas/kata/persist/v2-3.2.schema.json']) assert.ok(keys.includes(k), k);
  for (const [key, schema] of targets) assert.equal(typeof e.precompiledValidator(key, schema), 'function', key);
  assert.deepEqual(fs.readdirSync(path.join(root, 'dist', 'validators')).sort(), keys.map((k) => e.validatorFile(k)).sort());
  // The engine's own lookups take them: a StarlingX release's and a persist.json era's schema, by path.
  for (const rel of ['schemas/starlingx/10.0/localhost.schema.json', 'schemas/kata/persist/v2-3.2.schema.json']) {
    assert.equal(e.validatorFor(rel), require(path.join(root, 'dist', 'validators', e.validatorFile(rel))), rel);
  }
});

test('a compiled validator is not used for another schema or other options: a changed one is compiled at run time instead', () => {
  const changed = structuredClone(e.configSchema);
  changed.properties.rules.additionalProperties.enum = changed.properties.rules.additionalProperties.enum.slice(1);
  assert.equal(e.precompiledValidator('config', changed), undefined);
  assert.equal(e.precompiledValidator('config', { ...e.configSchema, title: 'another' }), undefined);
  assert.equal(e.precompiledValidator('no-such-schema', e.configSchema), undefined);
  // Nor for other options: the file was compiled with the build's.
  const allErrors = e.AJV_OPTIONS.config.allErrors;
  try {
    e.AJV_OPTIONS.config.allErrors = !allErrors;
    assert.equal(e.precompiledValidator('config', e.configSchema), undefined);
  } finally { e.AJV_OPTIONS.config.allErrors = allErrors; }
  assert.equal(typeof e.precompiledValidator('config', e.configSchema), 'function');
  // validateConfigValue with the changed schema compiles it: a severity it no longer allows is reported.
  const dropped = e.configSchema.properties.rules.additionalProperties.enum[0];
  const rule = [...e.ruleIds][0];
  assert.deepEqual(e.validateConfigValue({ rules: { [rule]: dropped } }, e.ruleIds).problems, []);
  assert.equal(e.validateConfigValue({ rules: { [rule]: dropped } }, e.ruleIds, changed, 'config').problems.length, 1);
});

/** A seeded PRNG (mulberry32). */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value made from the schema: mostly what it describes, with wrong types, values out of enums and unknown keys. */
function valueOf(schema, rootSchema, rnd, depth = 0) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  if (!schema || typeof schema !== 'object') return pick(['x', 1, true, null]);
  if (schema.$ref) {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], rootSchema);
    return depth > 12 ? null : valueOf(target, rootSchema, rnd, depth + 1);
  }
  if (rnd() < 0.06) return pick([null, 'text', 42, 1.5, -1, true, [], {}, ['a'], { z: 1 }]);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rnd() < 0.9 ? pick(schema.enum) : 'not-an-allowed-value';
  if (schema.then || schema.else) return valueOf(pick([schema.then, schema.else].filter(Boolean)), rootSchema, rnd, depth + 1);
  const alt = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alt && !schema.type && !schema.properties) return valueOf(pick(alt), rootSchema, rnd, depth + 1);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'object': {
      const o = {};
      if (depth > 10) return o;
      for (const [k, s] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(k) ? rnd() < 0.95 : rnd() < 0.4) o[k] = valueOf(s, rootSchema, rnd, depth + 1);
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && rnd() < 0.4) o[`extra${Math.floor(rnd() * 5)}`] = valueOf(schema.additionalProperties, rootSchema, rnd, depth + 1);
      if (rnd() < 0.1) o[`unknown${Math.floor(rnd() * 5)}`] = 1;
      return o;
    }
    case 'array': return depth > 10 ? [] : Array.from({ length: Math.floor(rnd() * 3) }, () => valueOf(schema.items ?? {}, rootSchema, rnd, depth + 1));
    case 'string': return pick(['value', '1.2.3', '', 'x'.repeat(Math.floor(rnd() * 40)), '10.0.0.1']);
    case 'integer': return pick([0, 1, 7, -3, 65536, 2.5]);
    case 'number': return pick([0, 0.5, 3, -2, 1e9]);
    case 'boolean': return rnd() < 0.5;
    case 'null': return null;
    default: return pick(['s', 1, true, null, {}, []]);
  }
}

test('each compiled validator gives ajv\'s verdict and errors on values made from its schema, valid and not', () => {
  for (const [key, schema, kind] of targets) {
    const compiled = e.precompiledValidator(key, schema);
    const runtime = new Ajv({ ...e.AJV_OPTIONS[kind] }).compile(schema);
    const rnd = prng([...key].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 0x811c9dc5));
    let valid = 0, invalid = 0;
    const values = [{}, [], null, 'text', ...Array.from({ length: 150 }, () => valueOf(schema, schema, rnd))];
    for (const v of values) {
      const a = runtime(v), b = compiled(v);
      assert.equal(b, a, `${key}: verdict on ${JSON.stringify(v).slice(0, 300)}`);
      assert.deepEqual(compiled.errors ?? null, runtime.errors ?? null, `${key}: errors on ${JSON.stringify(v).slice(0, 300)}`);
      if (a) valid++; else invalid++;
    }
    assert.ok(invalid >= 20 && valid >= 1, `${key}: ${valid} valid and ${invalid} invalid values`);
  }
});
