// Schema family "kata": JSON Schemas (draft-07) for Kata Containers configuration*.toml, one per
// runtime flavour (Go runtime, runtime-rs) and CHANGE POINT, generated from data/kata/config.json
// only. A change point is a release whose schema differs from the previous release's (accepted
// tables/keys, types, validated values, strictness); the releases in between share the file of
// the change point before them. schemas/kata/index.json maps EVERY release of the data to its file
// per flavour (runtime-rs: null before its first release).
//
//   schemas/kata/<release>/configuration.schema.json             Go runtime
//   schemas/kata/<release>/configuration-runtime-rs.schema.json  runtime-rs
//   schemas/kata/index.json                                      release -> file, per flavour
//
// Shape (the TOML document as a JSON value, e.g. toml-eslint-parser getStaticTOMLValue):
//  * Go: top-level tables the Go struct has in that release; [hypervisor.<name>] for every accepted
//    name, each {$ref: #/definitions/hypervisor} (the Go runtime decodes every hypervisor table with
//    one struct: the "hypervisor.*" rows); [hypervisor] has additionalProperties:false from 3.2.0
//    (unknown hypervisor table is fatal, skew-facts #10), open before. [agent.kata], [proxy.kata],
//    [shim.kata] for the agent.*/proxy.*/shim.* groups. Every other table is open
//    (additionalProperties allowed: the Go runtime ignores unknown keys), but listed keys are typed
//    and carry the validated values (enum) of that release.
//  * runtime-rs: tables and keys kata-types reads at that tag (runtime-rs-config-keys.json): every
//    [hypervisor.<name>] {$ref: #/definitions/hypervisor}, [hypervisor] closed (unknown plugin fatal),
//    [agent.<name>] {$ref: #/definitions/agent}; the deny_unknown_fields tables closed from 3.29.0;
//    allow-lists enforced at load as enums.
//  * description = doc comment + "Accepted by <flavour> <first>..<last>; source …"; default = the
//    data row's default when it fits the type (placeholders are left out).
//  * "x-skewguard" = { family: "kata-config", release (first release of the file), releases (all
//    releases the file stands for), flavour, asOf, hypervisorNames, unknownHypervisorFatal,
//    strictTables }.
// Limitation: a JSON value cannot tell the TOML float 1.0 from the integer 1, so "integer" cannot
// catch `default_vcpus = 1.0` on Go <= 3.2.x; the engine has to look at the TOML literal.
import { readRepoJson, toJsonFile } from './common.mjs';

export const family = 'kata';
export const outputDir = 'schemas/kata';
const DATA = 'data/kata/config.json';
const ID_BASE = 'https://skewguard.dev/schemas/kata';
const FILE = { go: 'configuration.schema.json', 'runtime-rs': 'configuration-runtime-rs.schema.json' };
const FLAVOUR_NAME = { go: 'Go runtime', 'runtime-rs': 'runtime-rs' };
const DATA_SHORT = 'data/kata';

/** @param {string[]} releases */
function releaseIndex(releases) {
  const idx = new Map(releases.map((r, i) => [r, i]));
  const ix = (r) => {
    const i = idx.get(r);
    if (i === undefined) throw new Error(`kata schemas: unknown release ${r}`);
    return i;
  };
  const covers = (s, r) =>
    !!s && ix(r) >= ix(s.first) && ix(r) <= (s.last === null ? releases.length - 1 : ix(s.last)) && !(s.missingIn ?? []).includes(r);
  const covers2 = (e, r) => covers({ first: e.from, last: e.to, missingIn: e.missingIn }, r);
  return { ix, covers, coversRange: covers2 };
}

const spanText = (s, newest) => `${s.first}..${s.last ?? newest}${s.missingIn?.length ? ` except ${s.missingIn.join(', ')}` : ''}`;

function typeSchema(t) {
  if (t.type === 'array') return t.items ? { type: 'array', items: { type: t.items } } : { type: 'array' };
  return { type: t.type };
}
function valueFits(schema, v) {
  const jt =
    typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v === 'string' ? 'string' : Array.isArray(v) ? 'array' : 'object';
  if (schema.type && !(schema.type === jt || (schema.type === 'number' && jt === 'integer'))) return false;
  if (schema.enum && !schema.enum.includes(v)) return false;
  if (schema.type === 'array' && schema.items?.type === 'string' && !v.every((x) => typeof x === 'string')) return false;
  return true;
}

/** property schema of one key in one release and flavour; `rows` = the data rows it stands for
 *  (several when runtime-rs hypervisor tables share an identical key, see rsBody) */
function keySchema(rows, flavour, r, ctx) {
  const row = rows[0];
  const types = row.types.filter((t) => t.flavour === flavour && ctx.coversRange(t, r));
  let s = {};
  if (types.length === 1) s = typeSchema(types[0]);
  else if (types.length > 1) s = { anyOf: types.map(typeSchema) };
  const values = row.values.filter((v) => v.flavour === flavour && ctx.coversRange(v, r));
  if (values.length) s.enum = [...values[0].enum];
  const parts = [];
  if (row.doc) parts.push(row.doc);
  // kept short: it is repeated in every file (size budget); data/kata/config.json has the sources
  const spans =
    rows.length === 1
      ? spanText(row.flavours[flavour], ctx.newest)
      : rows.map((x) => `[${x.section}] ${spanText(x.flavours[flavour], ctx.newest)}`).join(', ');
  let tail = `Accepted by ${FLAVOUR_NAME[flavour]} ${spans} (source: ${flavour === 'go' ? 'Go parser' : 'kata-types'}).`;
  if (values.length) tail += ' Other values are fatal.';
  for (const rn of row.renamedTo ?? []) if (rn.flavour === flavour) tail += ` Renamed to [${rn.section}] ${rn.key}${rn.in ? ` in ${rn.in}` : ''}.`;
  parts.push(tail);
  s.description = parts.join('\n\n');
  if (row.default !== null && row.default !== undefined && valueFits(s, row.default)) s.default = row.default;
  return s;
}
/** what must be equal for runtime-rs hypervisor tables to share one definition of a key */
const shareKey = (row, r, ctx) =>
  JSON.stringify([row.key, row.doc, row.default, row.types.filter((t) => t.flavour === 'runtime-rs' && ctx.coversRange(t, r)).map(typeSchema), (row.renamedTo ?? []).filter((x) => x.flavour === 'runtime-rs')]);

function tableSchema(description, properties, strict) {
  const s = { type: 'object' };
  if (description) s.description = description;
  s.properties = properties;
  if (strict) s.additionalProperties = false;
  return s;
}

/** keys of a section accepted in release r by flavour, sorted by key */
function keysOf(data, section, flavour, r, ctx) {
  return data.options.filter((o) => o.section === section && ctx.covers(o.flavours[flavour], r)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
const sectionDoc = (sec, flavour, ctx) => {
  const acc = sec.flavours[flavour];
  return `[${sec.name}]${sec.doc ? `: ${sec.doc}` : ''}\n\nAccepted by ${FLAVOUR_NAME[flavour]} ${spanText(acc, ctx.newest)}.${sec.note ? ` ${sec.note}` : ''}`;
};

function goBody(data, r, ctx) {
  const secs = data.sections.filter((s) => ctx.covers(s.flavours.go, r));
  const names = data.hypervisorNames.find((h) => h.flavour === 'go' && ctx.coversRange(h, r));
  const fatal = names.unknownIsFatal;
  const props = {};
  const definitions = {};
  const keyProps = (section) => Object.fromEntries(keysOf(data, section, 'go', r, ctx).map((o) => [o.key, keySchema([o], 'go', r, ctx)]));
  // hypervisor
  definitions.hypervisor = tableSchema(
    'Keys the Go runtime reads in every [hypervisor.<name>] table (one Go struct for all hypervisors).',
    keyProps('hypervisor.*'),
    false,
  );
  const hv = {};
  for (const name of names.names) {
    const sec = data.sections.find((s) => s.name === `hypervisor.${name}`);
    hv[name] = { description: sectionDoc(sec, 'go', ctx), allOf: [{ $ref: '#/definitions/hypervisor' }] };
  }
  props.hypervisor = tableSchema(
    `Hypervisor tables. Accepted names: ${names.names.join(', ')}. ${fatal ? 'Any other [hypervisor.<name>] is fatal ("configuration file contains invalid hypervisor section").' : 'Other [hypervisor.<name>] tables are silently skipped.'}`,
    hv,
    fatal,
  );
  for (const sec of secs) {
    if (sec.name.startsWith('hypervisor.')) continue;
    const [top, sub] = sec.name.split('.');
    const t = tableSchema(sectionDoc(sec, 'go', ctx), keyProps(sec.name), false);
    if (sub) {
      props[top] ??= tableSchema(null, {}, false);
      props[top].properties[sub] = t;
    } else props[top] = t;
  }
  return {
    body: { properties: sortObject(props), definitions },
    meta: { hypervisorNames: names.names, unknownHypervisorFatal: fatal, strictTables: fatal ? ['hypervisor'] : [] },
  };
}

function rsBody(data, r, ctx) {
  const strictFrom = data.fatal.denyUnknownFields['runtime-rs'];
  const strictTables = ctx.ix(r) >= ctx.ix(strictFrom.from) ? strictFrom.schemaTables : [];
  const names = data.hypervisorNames.find((h) => h.flavour === 'runtime-rs' && ctx.coversRange(h, r));
  const secs = data.sections
    .filter((s) => ctx.covers(s.flavours['runtime-rs'], r))
    .sort((a, b) => a.name.split('.').length - b.name.split('.').length || (a.name < b.name ? -1 : 1));
  const keyProps = (section) => Object.fromEntries(keysOf(data, section, 'runtime-rs', r, ctx).map((o) => [o.key, keySchema([o], 'runtime-rs', r, ctx)]));
  const props = {};
  const definitions = {};
  // kata-types reads every [hypervisor.<name>] with one struct ("hypervisor.*" rows), its sub-tables as "hypervisor.*.<t>"
  definitions.hypervisor = tableSchema('Keys runtime-rs (kata-types) reads in every [hypervisor.<name>] table (one struct for all plugins; unknown keys are ignored).', keyProps('hypervisor.*'), false);
  const schemaOf = new Map([['hypervisor.*', definitions.hypervisor]]);
  for (const sec of secs) {
    if (sec.name === 'hypervisor.*' || /^hypervisor\.[^.]+$/.test(sec.name)) continue; // [hypervisor.<name>]: below
    const parts = sec.name.split('.');
    const t = tableSchema(sectionDoc(sec, 'runtime-rs', ctx), keyProps(sec.name), strictTables.includes(sec.name));
    schemaOf.set(sec.name, t);
    if (parts.length === 1) {
      props[parts[0]] = t;
      continue;
    }
    const parentName = parts.slice(0, -1).join('.');
    let parent = schemaOf.get(parentName);
    if (!parent) {
      if (parts.length !== 2) throw new Error(`kata schemas: ${sec.name} has no parent table in ${r}`);
      props[parts[0]] ??= tableSchema(null, {}, false);
      parent = props[parts[0]];
    }
    const leaf = parts.at(-1);
    if (sec.kind === 'arrayOfTables') {
      const { description, ...item } = t;
      parent.properties[leaf] = { type: 'array', description, items: item };
    } else parent.properties[leaf] = t;
    parent.properties = sortObject(parent.properties);
  }
  // [agent.<name>]: runtime-rs keeps a map of agents (chosen by runtime.agent_name); every entry is an Agent
  if (props.agent?.properties?.kata) {
    const agent = props.agent.properties.kata;
    definitions.agent = agent;
    props.agent = tableSchema('Agent tables [agent.<name>] (a map; runtime.agent_name chooses the one used).', {}, false);
    props.agent.additionalProperties = { $ref: '#/definitions/agent' };
  }
  const hv = {};
  for (const name of names.names) hv[name] = { allOf: [{ $ref: '#/definitions/hypervisor' }] };
  props.hypervisor = tableSchema(
    `Hypervisor tables. Registered plugins (default build): ${names.names.join(', ')}. Any other [hypervisor.<name>] is fatal ("Can not find plugin for hypervisor").`,
    hv,
    names.unknownIsFatal,
  );
  return {
    body: { properties: sortObject(props), definitions: sortObject(definitions) },
    meta: { hypervisorNames: names.names, unknownHypervisorFatal: names.unknownIsFatal, strictTables },
  };
}

/** Schema files are written without indentation: with the doc comments in every description the
 *  73 change-point files are ~4.4 MB indented and ~3.7 MB compact (budget: ~4 MB). */
const compactJsonFile = (value) => JSON.stringify(value) + '\n';

function sortObject(o) {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

function schemaFile(data, flavour, group, body, meta) {
  const first = group[0];
  const last = group.at(-1);
  const range = first === last ? first : `${first}–${last}`;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${ID_BASE}/${first}/${FILE[flavour]}`,
    title: `Kata Containers ${range} configuration.toml (${flavour === 'go' ? 'Go runtime' : 'runtime-rs'})`,
    description:
      `A Kata Containers configuration*.toml as ${FLAVOUR_NAME[flavour]} of release${group.length > 1 ? 's' : ''} ${group.join(', ')} reads it (the TOML document as a JSON value). ` +
      `Generated from ${DATA} (data as of ${data.asOf}) by scripts/gen-schemas.mjs. ` +
      (flavour === 'go'
        ? 'Unknown keys and tables are ignored by the Go runtime and allowed here; listed keys are typed and validated values are enforced (both fatal when wrong). '
        : 'Accepted keys are what kata-types\' serde structures read at this tag; the tables it declares deny_unknown_fields for and [hypervisor] (unknown plugin names are fatal) are closed. ') +
      'A JSON value cannot tell TOML 1.0 from 1: integer-typed keys need a literal check by the engine.',
    type: 'object',
    ...body,
    'x-skewguard': { family: 'kata-config', release: first, releases: group, flavour, asOf: data.asOf, ...meta },
  };
}

/** @returns {Map<string, string>} */
export function generate(repoRoot) {
  const data = readRepoJson(repoRoot, DATA);
  const { releases } = data;
  const ctx = { ...releaseIndex(releases), newest: releases.at(-1) };
  const out = new Map();
  const index = { go: {}, 'runtime-rs': {} };
  const changePoints = { go: [], 'runtime-rs': [] };
  for (const flavour of ['go', 'runtime-rs']) {
    const firstRel = data.flavours[flavour].first;
    let group = null;
    const flush = () => {
      if (!group) return;
      const file = `${group.releases[0]}/${FILE[flavour]}`;
      out.set(`${outputDir}/${file}`, compactJsonFile(schemaFile(data, flavour, group.releases, group.body, group.meta)));
      for (const r of group.releases) index[flavour][r] = file;
      changePoints[flavour].push(group.releases[0]);
    };
    for (const r of releases) {
      if (ctx.ix(r) < ctx.ix(firstRel)) {
        index[flavour][r] = null;
        continue;
      }
      const { body, meta } = flavour === 'go' ? goBody(data, r, ctx) : rsBody(data, r, ctx);
      const key = JSON.stringify([body, meta]);
      if (group && group.key === key) group.releases.push(r);
      else {
        flush();
        group = { key, body, meta, releases: [r] };
      }
    }
    flush();
  }
  out.set(
    `${outputDir}/index.json`,
    toJsonFile({
      family: 'kata-config',
      asOf: data.asOf,
      description:
        'Maps every Kata Containers release of data/kata/config.json to the schema file (relative to schemas/kata/) for each runtime flavour; null = the flavour does not exist in that release. ' +
        'One file is written per change point (a release whose accepted tables/keys, types, validated values or strictness differ from the previous release); later releases share it until the next change point.',
      releases,
      changePoints,
      schemas: index,
    }),
  );
  return out;
}
