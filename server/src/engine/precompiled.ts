// JSON Schema validators compiled at build time (scripts/validators.mjs): ajv's standalone code for each schema the
// engine validates with at run time (.skewguard.yaml's, the editor settings', and the schemas under the folders the
// sources read: the StarlingX localhost.yml releases and the Kata persist.json eras), one file each in dist/validators/.
// Compiling a schema at run time cost each process that met it ajv's load and compile: about 25 ms for the
// configuration's (every lsp-lint run in a folder with a .skewguard.yaml), 60-80 ms for a StarlingX release's, 50-100 ms
// for each of the eight persist.json eras a persist.json is checked against. Loading the compiled file costs 1-3 ms.
//
// Never a wrong validator: a file carries a hash of the schema it was made from (its JSON) and of the options, and is
// used only where both hash the same; otherwise (another build's file, a schema or options changed since, no file, a
// runtime without require such as the web build) the schema is compiled at run time as before, with AJV_OPTIONS.
import * as path from 'node:path';
import type { ErrorObject } from 'ajv';

/** A validator as ajv makes it: true when valid, else its errors in `errors`. */
export type Validator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** ajv's options for each kind of schema: the run-time compile and the build's (which adds code.source) use these. */
export const AJV_OPTIONS = {
  // Our own constant schemas are not checked against the draft-07 meta-schema at run time (test/config.test.mjs does).
  config: { allErrors: true, strict: false, validateSchema: false },
  data: { allErrors: true, strict: false, verbose: false },
} as const;

/** The file of a schema's compiled validator in dist/validators/ (`key`: 'config', 'settings' or a schema's path). */
export function validatorFile(key: string): string {
  return `${key.replace(/[^A-Za-z0-9.-]/g, '_')}.js`;
}

/** A 53-bit hash (cyrb53) of the schema's JSON: which schema a compiled validator was made from. */
export function schemaSum(schema: unknown): string {
  const s = JSON.stringify(schema) ?? '';
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** What a compiled validator is made from: the schema and the options (all of AJV_OPTIONS: a change to either makes a new one). */
export function validatorSum(schema: unknown): string {
  return schemaSum([AJV_OPTIONS, schema]);
}

/** The build's compiled validator of `schema` (named by `key`), when there is one made from this very schema and options. */
export function precompiledValidator(key: string, schema: object): Validator | undefined {
  let v: (Validator & { schemaSum?: unknown }) | undefined;
  try {
    v = require(path.join(__dirname, 'validators', validatorFile(key)));
  } catch { return undefined; } // no such file, or no require (the web build): compiled at run time
  return typeof v === 'function' && v.schemaSum === validatorSum(schema) ? v : undefined;
}
