// The JSON Schema validators the engine uses at run time, compiled at build time (server/src/engine/precompiled.ts):
// ajv's standalone code for .skewguard.yaml's schema, the editor settings' and every schema under the folders the
// sources read schemas from (scripts/package.mjs validatedSchemaPaths: the StarlingX releases, the Kata persist.json eras),
// each bundled with ajv's run-time helpers into dist/validators/<file>.js with the hash of the schema and options it was made from.
// The schemas and the options are the built engine's (its configSchema, settingsSchema, AJV_OPTIONS), so a validator
// is made from the very value the engine would compile.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { validatedSchemaPaths } from './package.mjs';

const require = createRequire(import.meta.url);

/** [key, schema, kind of options] of every validator to compile. */
export function validatorTargets(root, engine) {
  return [
    ['config', engine.configSchema, 'config'], ['settings', engine.settingsSchema, 'config'],
    ...validatedSchemaPaths().map((rel) => [rel, JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')), 'data']),
  ];
}

/** Writes dist/validators/ afresh. */
export async function buildValidators(root, engine) {
  const Ajv = require('ajv').default;
  const standalone = require('ajv/dist/standalone').default;
  const outDir = path.join(root, 'dist', 'validators');
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await Promise.all(validatorTargets(root, engine).map(([key, schema, kind]) => {
    const ajv = new Ajv({ ...engine.AJV_OPTIONS[kind], code: { source: true } });
    const code = `${standalone(ajv, ajv.compile(schema))}\nmodule.exports.schemaSum = ${JSON.stringify(engine.validatorSum(schema))};\n`;
    return build({
      stdin: { contents: code, resolveDir: root, sourcefile: `${key}.js`, loader: 'js' },
      outfile: path.join(outDir, engine.validatorFile(key)),
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, logLevel: 'warning', absWorkingDir: root,
    });
  }));
}
