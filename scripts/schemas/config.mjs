// Schema family "config": the JSON Schema of .skewguard.yaml, for the Red Hat YAML extension (contributes.yamlValidation)
// and any yaml-language-server. Generated from the same source as the validator the server and lsp-lint run
// (configSchema in server/src/engine/config.ts, read from the built dist/engine.js), with what the validator checks
// in code added as suggestions: the StarlingX releases of data/starlingx/releases.json, every rule id (with its
// title) and the severities, the file families. Values the validator accepts beside those ("6", "stx-6.0") stay
// valid here (anyOf with a string): the server reports what is wrong, with "did you mean".
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readRepoJson, toJsonFile } from './common.mjs';

export const family = 'config';
export const outputDir = 'schemas/config';

const SEVERITY_TEXT = {
  error: 'Report as an error (lsp-lint exits 1).', warning: 'Report as a warning.', info: 'Report as information.',
  hint: 'Report as a hint (shown faintly in the editor).', off: 'Do not report this rule.',
};

export function generate(repoRoot) {
  const enginePath = path.join(repoRoot, 'dist', 'engine.js');
  if (!fs.existsSync(enginePath)) throw new Error('dist/engine.js not found: run `npm run build` first');
  const e = createRequire(import.meta.url)(enginePath);
  const schema = JSON.parse(JSON.stringify(e.configSchema));
  schema.$id = 'https://skewguard.dev/schemas/config/skewguard.schema.json';
  schema.description = 'The version window and rules of skewguard for the files in this folder and below (the nearest .skewguard.yaml applies). Read by the editor and lsp-lint alike.';
  const releases = readRepoJson(repoRoot, 'data/starlingx/releases.json').releases;
  const suggest = (values, descriptions, base) => ({ ...base, anyOf: [{ enum: values, enumDescriptions: descriptions, markdownEnumDescriptions: descriptions }, { type: 'string' }] });
  const relNames = releases.map((r) => r.release);
  const relText = releases.map((r) => `StarlingX ${r.release} (${r.tag}): Kubernetes ${r.kubernetes.map((k) => k.version).join(', ')}; fresh install ${r.default}`);
  const stx = schema.properties.starlingx.properties;
  stx.release = suggest(relNames, relText, { description: stx.release.description });
  stx.upgradeFrom = suggest(relNames, relText, { description: stx.upgradeFrom.description });
  const sev = schema.properties.rules.additionalProperties;
  const severity = { ...sev, enumDescriptions: sev.enum.map((s) => SEVERITY_TEXT[s] ?? s) };
  schema.properties.rules.properties = Object.fromEntries(e.allRules.filter((r) => !r.fixedSeverity).map((r) => [r.id, { ...severity, description: `${r.title} (default: ${r.defaultSeverity}).` }]));
  schema.properties.rules.additionalProperties = severity;
  schema.properties.kata.properties.flavour.enumDescriptions = ['The Go runtime (containerd-shim-kata-v2).', 'The Rust runtime (runtime-rs).'];
  schema.properties.files.additionalProperties = { enum: [...e.FAMILIES], enumDescriptions: e.families.map((f) => f.title) };
  return new Map([[`${outputDir}/skewguard.schema.json`, toJsonFile(schema)]]);
}
