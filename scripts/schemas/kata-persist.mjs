// Schema family "kata-persist": JSON Schemas (draft-07) for the Kata Containers Go runtime's
// persist.json, ONE FILE PER LAYOUT ERA, generated from data/kata/persist.json only.
//
//   schemas/kata/persist/<era>.schema.json   e.g. v2-3.3.schema.json (releases 3.3.0–3.32.0)
//   schemas/kata/persist/index.json          release -> era file (null before 1.7.0: no persist.json)
//
// Both files of an era live in one schema as two definitions: #/definitions/sandbox (SandboxState,
// /run/vc/sbs/<sandbox-id>/persist.json) and #/definitions/container (ContainerState,
// /run/vc/sbs/<sandbox-id>/<container-id>/persist.json). The root picks one with if/then/else: an
// object with PersistVersion or SandboxContainer (always written in a sandbox file, never in a
// container file) is a sandbox file, anything else a container file. (oneOf would not work: with
// open objects and no required keys an empty object matches both.)
//
// Shape: nested properties following the JSON paths of the era's fields ("*" = array items or
// map values); every object stays open (additionalProperties not set: the Go decoder drops
// unknown keys, which is a skew finding for the engine, not a schema error); listed keys are
// typed (type per era, "null" added where Go writes nil slices/maps/pointers as null, minimum 0
// for unsigned Go integers; map values typed). No `required`: a missing key decodes as the zero
// value. description = meaning + the releases that write/read the key + renames;
// "x-skewguard" = { family: "kata-persist", era, persistVersion, writtenBy, releases, kinds,
// discriminator, asOf }.
import { readRepoJson, toJsonFile } from './common.mjs';

export const family = 'kata-persist';
export const outputDir = 'schemas/kata/persist';
const DATA = 'data/kata/persist.json';
const ID_BASE = 'https://skewguard.dev/schemas/kata/persist';

const rangesText = (rs) => rs.map((g) => (g.to === null ? `${g.from}+` : g.from === g.to ? g.from : `${g.from}–${g.to}`)).join(', ');
const keyOf = (file, p) => `${file}|${p.join('.')}`;
const sortObject = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
/** compact: the schemas/kata tree has a size budget (test/kata-data.test.mjs) */
const compactJsonFile = (value) => JSON.stringify(value) + '\n';

function typeOf(f) {
  const types = [].concat(f.type);
  if (f.nullable) types.push('null');
  return types.length === 1 ? types[0] : types;
}

function description(f, row) {
  const parts = [];
  // generic HypervisorConfig meanings are said once on Config.HypervisorConfig (size budget)
  // release ranges and "(omitempty)" in the meaning are repeated by the sentences below: dropped
  if (row.meaningFrom === 'material') parts.push(`${row.meaning.replace(/\s*\((?:[^()]*\d\.\d[^()]*|omitempty)\)/g, '')}.`);
  const w = rangesText(row.writtenBy);
  parts.push(`Written/read by ${w}${f.inEra ? ` (in this era: ${rangesText(f.inEra)})` : ''}.`);
  for (const rn of row.renames) {
    const here = rn.to.join('.') === row.path.join('.');
    const other = (here ? rn.from : rn.to).at(-1);
    parts.push(here ? `Was ${other} before ${rn.in}.` : `Became ${other} in ${rn.in}.`);
  }
  if (f.omitempty) parts.push('Omitted when empty.');
  return parts.join(' ');
}

function eraSchema(data, era, rowsByKey) {
  const roots = { sandbox: { type: 'object', properties: {} }, container: { type: 'object', properties: {} } };
  const nodes = new Map(); // file|path -> schema node
  const sorted = [...era.fields].sort((a, b) => a.path.length - b.path.length);
  for (const f of sorted) {
    const row = rowsByKey.get(keyOf(f.file, f.path));
    if (!row) throw new Error(`kata-persist schemas: ${era.id} field ${f.path.join('.')} has no row`);
    const s = { type: typeOf(f), description: description(f, row) };
    if (f.unsigned && f.type === 'integer') s.minimum = 0;
    if (f.items) s.items = { type: f.items };
    if (f.values) s.additionalProperties = { type: f.values };
    // parent: nearest named ancestor; "*" goes through items / additionalProperties
    let parent;
    let key;
    const p = f.path;
    if (p.length === 1) {
      parent = roots[f.file];
      key = p[0];
    } else if (p.at(-2) === '*') {
      const owner = nodes.get(keyOf(f.file, p.slice(0, -2))) ?? fail(era, p);
      const slot = [].concat(owner.type).includes('array') ? 'items' : 'additionalProperties';
      owner[slot] = owner[slot] ?? { type: 'object' };
      owner[slot].properties ??= {};
      parent = owner[slot];
      key = p.at(-1);
    } else {
      parent = nodes.get(keyOf(f.file, p.slice(0, -1))) ?? fail(era, p);
      key = p.at(-1);
    }
    parent.properties ??= {};
    parent.properties[key] = s;
    nodes.set(keyOf(f.file, p), s);
  }
  // sort properties everywhere (deterministic, readable)
  (function sortAll(n) {
    if (!n || typeof n !== 'object') return;
    if (n.properties) {
      n.properties = sortObject(n.properties);
      Object.values(n.properties).forEach(sortAll);
    }
    if (n.items) sortAll(n.items);
    if (n.additionalProperties) sortAll(n.additionalProperties);
  })({ properties: roots });
  const hc = roots.sandbox.properties.Config?.properties?.HypervisorConfig;
  if (hc) hc.description = `${hc.description} Its keys are the Go names of the configuration.toml hypervisor options of the sandbox's configuration snapshot.`;
  roots.sandbox.description = `SandboxState: /run/vc/sbs/<sandbox-id>/persist.json as written by Kata Containers ${rangeOfEra(era)} (Go runtime).`;
  roots.container.description = `ContainerState: /run/vc/sbs/<sandbox-id>/<container-id>/persist.json as written by Kata Containers ${rangeOfEra(era)} (Go runtime).`;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${ID_BASE}/${era.id}.schema.json`,
    title: `Kata Containers persist.json, layout era ${era.id} (${rangeOfEra(era)}, PersistVersion ${era.persistVersion})`,
    description:
      `Sandbox or container persist.json of the Kata Containers Go runtime, layout written by releases ${era.releases.join(', ')}. ${era.summary}. ` +
      `Generated from ${DATA} (data as of ${data.asOf}) by scripts/gen-schemas.mjs. ` +
      'A file with PersistVersion or SandboxContainer is checked as a sandbox file, anything else as a container file. ' +
      'Unknown keys are allowed (the Go decoder drops them on read: a skew finding, not a parse error); listed keys are typed; no key is required (a missing key decodes as the zero value).',
    type: 'object',
    if: { anyOf: [{ required: ['PersistVersion'] }, { required: ['SandboxContainer'] }] },
    then: { $ref: '#/definitions/sandbox' },
    else: { $ref: '#/definitions/container' },
    definitions: roots,
    'x-skewguard': {
      family: 'kata-persist',
      era: era.id,
      persistVersion: era.persistVersion,
      writtenBy: era.writtenBy,
      releases: era.releases,
      kinds: { sandbox: '#/definitions/sandbox', container: '#/definitions/container' },
      discriminator: 'sandbox when the object has PersistVersion or SandboxContainer, else container',
      asOf: data.asOf,
    },
  };
}
const rangeOfEra = (era) => (era.writtenBy.to === null ? `${era.writtenBy.from}–${era.releases.at(-1)}` : era.writtenBy.from === era.writtenBy.to ? era.writtenBy.from : `${era.writtenBy.from}–${era.writtenBy.to}`);
function fail(era, p) {
  throw new Error(`kata-persist schemas: ${era.id}: no parent for ${p.join('.')}`);
}

/** @returns {Map<string, string>} */
export function generate(repoRoot) {
  const data = readRepoJson(repoRoot, DATA);
  const rowsByKey = new Map(data.fields.map((f) => [keyOf(f.file, f.path), f]));
  const out = new Map();
  const index = {};
  const releases = readRepoJson(repoRoot, 'data/kata/config.json').releases;
  for (const r of releases) index[r] = null;
  for (const era of data.eras) {
    out.set(`${outputDir}/${era.id}.schema.json`, compactJsonFile(eraSchema(data, era, rowsByKey)));
    for (const r of era.releases) index[r] = `${era.id}.schema.json`;
  }
  out.set(
    `${outputDir}/index.json`,
    toJsonFile({
      family: 'kata-persist',
      asOf: data.asOf,
      description:
        'Maps every Kata Containers release of data/kata/config.json to the persist.json layout-era schema (relative to schemas/kata/persist/) its Go runtime writes; null = no persist.json (before 1.7.0). Each era file holds #/definitions/sandbox and #/definitions/container.',
      eras: data.eras.map((e) => ({ id: e.id, persistVersion: e.persistVersion, writtenBy: e.writtenBy, file: `${e.id}.schema.json` })),
      schemas: index,
    }),
  );
  return out;
}
