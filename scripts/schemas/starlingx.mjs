// Schema family "starlingx": one JSON Schema (draft-07) per StarlingX release for the bootstrap
// override file localhost.yml, generated from data/starlingx/{releases,keys}.json only.
//
// Conventions (kept identical in every release's schema):
//  * bool keys accept YAML booleans and the Ansible bool strings (ANSIBLE_BOOL_STRINGS), except
//    where validated-values records a strict Ansible type check (type_debug == 'bool'), which a
//    quoted string would fail: then only real booleans (plus the exact strings the rule lists).
//  * enum/range/length rules become enum/minimum/maximum/minItems/maxItems; rule kinds a schema
//    cannot express (file, ip, pair, derived, uninterpreted shape) are spelled out in the
//    description. kubernetes_version has no enum on purpose: a dedicated engine rule checks it.
//  * additionalProperties: false at the top level (the engine reports "unknown key"); nested
//    objects stay open unless the data says otherwise.
//  * "x-skewguard" (top level) = { family, release, asOf, notRead: { <key>: { releases, lastRead,
//    firstRead } } } for every key another release reads but this one does not.
import { ANSIBLE_BOOL_STRINGS, compareReleases, readRepoJson, releaseRanges, toJsonFile } from './common.mjs';

export const family = 'starlingx';
export const outputDir = 'schemas/starlingx';
const ID_BASE = 'https://skewguard.dev/schemas/starlingx';

const looseBool = () => ({ anyOf: [{ type: 'boolean' }, { type: 'string', enum: [...ANSIBLE_BOOL_STRINGS] }] });

/** Schema for a bool given the Ansible type rules that apply (strict when type_debug is checked). */
function boolSchema(typeRules) {
  const rule = typeRules.find((r) => r.allowed.includes('bool'));
  if (!rule) return looseBool();
  const literals = rule.allowed.filter((a) => /^'.*'$/.test(a)).map((a) => a.slice(1, -1));
  if (!literals.length) return { type: 'boolean' };
  return { anyOf: [{ type: 'boolean' }, { type: 'string', enum: literals }] };
}

function baseSchema(type, typeRules, nullable) {
  let s;
  switch (type) {
    case 'string':
      s = { type: 'string' };
      break;
    case 'int':
      s = { type: 'integer' };
      break;
    case 'bool':
      s = boolSchema(typeRules);
      break;
    case 'list':
      s = { type: 'array' };
      break;
    case 'dict':
      s = { type: 'object' };
      break;
    default:
      s = {};
  }
  if (nullable) {
    if (s.anyOf) s.anyOf.push({ type: 'null' });
    else if (s.type) s.type = [s.type, 'null'];
  }
  return s;
}

function describeUnexpressed(rule) {
  const what = rule.allowed.join('; ');
  const members = rule.members ? `; keys ${rule.members.join(', ')}` : '';
  return `Playbook check not expressed in this schema (${rule.kind}${members}): ${what}.`;
}

/** Applies one validated-values rule to a (sub)schema; returns description sentences it adds. */
function applyRule(s, rule, extra) {
  switch (rule.kind) {
    case 'enum':
      if (rule.enforced === false) {
        s.examples = [...rule.allowed];
        extra.push(`Documented values: ${rule.allowed.join(', ')} (not enforced by the playbook).`);
      } else {
        s.enum = [...rule.allowed];
        // the playbook lower-cases the value first: the engine may compare case-insensitively
        if (rule.caseInsensitive) s['x-skewguard'] = { ...(s['x-skewguard'] ?? {}), caseInsensitive: true };
      }
      break;
    case 'range':
      s.minimum = rule.allowed[0];
      s.maximum = rule.allowed[1];
      break;
    case 'length':
      s.minItems = rule.allowed[0];
      s.maxItems = rule.allowed[1];
      break;
    case 'type':
      if (rule.allowed.includes('list')) s.type = 'array';
      break; // bool handled by baseSchema
    case 'shape':
      if (rule.interpreted?.pattern) {
        s.pattern = rule.interpreted.pattern;
        extra.push(`Must be: ${rule.allowed.join("; ")}.`);
      } else extra.push(describeUnexpressed(rule));
      break;
    default:
      extra.push(describeUnexpressed(rule));
  }
  if (rule.note) extra.push(`Note: ${rule.note}`);
}

/** "<registry>.type" -> ["<registry>", "type"]; "[].pathType" -> ["[]", "pathType"]; "" -> [] */
function splitPath(p) {
  if (p === '') return [];
  const out = [];
  for (const part of p.split('.')) {
    if (part.startsWith('[]')) {
      out.push('[]');
      if (part.length > 2) out.push(part.slice(2));
    } else out.push(part);
  }
  return out;
}

/** Applies a nested rule (path syntax of keys.json, see its description) below the key's schema. */
function applyNested(root, rule, extra) {
  const segments = splitPath(rule.path);
  let s = root;
  let container = root; // the object schema whose field `s` is (for required/bool fields)
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg === '<key>') {
      s.propertyNames ??= {};
      s = s.propertyNames;
    } else if (/^<.+>$/.test(seg)) {
      s.additionalProperties ??= { type: 'object' };
      s = s.additionalProperties;
      container = s;
    } else if (seg === '[]') {
      s.items ??= { type: 'object' };
      s = s.items;
      container = s;
    } else if (seg.includes('/')) {
      // fields that must come together: not expressible here, describe it
      if (i !== segments.length - 1) throw new Error(`gen-schemas: unexpected nested path ${rule.path}`);
      extra.push(
        `Playbook check not expressed in this schema (${rule.kind}, fields ${seg.split('/').join(' and ')} of each entry): ${rule.allowed.join('; ')}.`,
      );
      return;
    } else {
      container = s;
      s.properties ??= {};
      s.properties[seg] ??= {};
      s = s.properties[seg];
    }
  }
  const shape = rule.interpreted;
  if (shape?.requiredTogether) {
    s.properties ??= {};
    for (const f of [...shape.requiredTogether, ...shape.optional]) s.properties[f] ??= {};
    if (shape.allowEmpty) {
      s.if = { minProperties: 1 };
      s.then = { required: [...shape.requiredTogether] };
    } else s.required = [...shape.requiredTogether];
    extra.push(`Either empty or all of ${shape.requiredTogether.join(', ')} (optionally ${shape.optional.join(', ')}).`);
    return;
  }
  if (rule.kind === 'type' && rule.allowed.includes('bool')) {
    for (const k of Object.keys(s)) delete s[k];
    Object.assign(s, boolSchema([rule]));
  } else {
    const sub = [];
    applyRule(s, rule, sub);
    extra.push(...sub.filter((t) => !t.startsWith('Note:')));
  }
  if (shape?.itemRequired) {
    container.required = [...shape.itemRequired];
    container.properties ??= {};
    for (const f of shape.itemBool ?? []) container.properties[f] = looseBool();
    extra.push(`Each item needs ${shape.itemRequired.join(', ')}.`);
  }
  if (rule.kind === 'enum' && rule.path === '<key>') extra.push(`Allowed keys: ${rule.allowed.join(', ')}.`);
}

/** Fixed key order inside a property schema, so the output is stable and readable. */
const ORDER = [
  'description', 'type', 'anyOf', 'enum', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern',
  'propertyNames', 'properties', 'additionalProperties', 'items', 'required', 'if', 'then',
  'default', 'examples', 'x-skewguard',
];
function ordered(s) {
  const out = {};
  for (const k of ORDER) if (s[k] !== undefined) out[k] = s[k];
  for (const k of Object.keys(s)) if (!(k in out)) out[k] = s[k];
  for (const k of ['properties']) {
    if (out[k]) out[k] = Object.fromEntries(Object.entries(out[k]).map(([n, v]) => [n, ordered(v)]));
  }
  for (const k of ['additionalProperties', 'items', 'propertyNames']) {
    if (out[k] && typeof out[k] === 'object') out[k] = ordered(out[k]);
  }
  return out;
}

function sourceText(key, rel, keyOrder) {
  if (key.defaultLines[rel] !== undefined) {
    return `${'playbookconfig/src/playbooks/host_vars/bootstrap/default.yml'}:${key.defaultLines[rel]} at ${rel === 'master' ? 'master' : `${rel}.0`}`;
  }
  // optional keys carry the source at the newest and at the earliest release: use the nearer one
  const candidates = [key.source, key.sourceEarliest].filter((c) => c && c.path);
  if (!candidates.length) return key.source.reference ?? 'Ansible';
  const relOf = (tag) => (tag === 'master' ? 'master' : tag.replace(/\.0$/, ''));
  const distance = (c) => Math.abs(keyOrder.indexOf(relOf(c.tag)) - keyOrder.indexOf(rel));
  const src = candidates.reduce((best, c) => (distance(c) < distance(best) ? c : best));
  return `${src.path}:${src.line} at ${src.tag}`;
}

function kubernetesVersionSchema(key, rel, releaseRow) {
  const versions = releaseRow.kubernetes.map((v) => v.version);
  const parts = [
    `${key.description} Write plain X.Y.Z without v; one of: ${versions.join(', ')}; default ${releaseRow.default}.`,
  ];
  if (releaseRow.override === 'not-supported') {
    parts.push(`Override not supported in ${rel}: ${releaseRow.overrideNote}.`);
  }
  if (releaseRow.playbookImageVars) {
    const dirs = new Set(releaseRow.playbookImageVars.map((d) => d.version));
    const missing = versions.filter((v) => !dirs.has(v));
    if (missing.length) {
      parts.push(
        `${missing.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no image/manifest directory in the ${rel} playbooks, so bootstrap is expected to fail with ${missing.length > 1 ? 'them' : 'it'}.`,
      );
    }
  }
  for (const rule of key.validation.filter((r) => r.releases.includes(rel))) {
    parts.push(`Playbook check: ${rule.allowed.join('; ')}.`);
  }
  return { description: parts.join(' '), type: 'string', examples: versions };
}

function propertySchema(key, rel, keyReleases, releaseRow) {
  const tail = ` (read by StarlingX ${releaseRanges(key.releases, keyReleases)}; source: ${sourceText(key, rel, keyReleases)})`;
  let s;
  if (key.key === 'kubernetes_version') {
    s = kubernetesVersionSchema(key, rel, releaseRow);
  } else {
    const rules = key.validation.filter((r) => r.releases.includes(rel));
    s = baseSchema(key.type, rules.filter((r) => r.kind === 'type'), key.nullable);
    const extra = [];
    for (const rule of rules) applyRule(s, rule, extra);
    for (const rule of (key.nested ?? []).filter((r) => r.releases.includes(rel))) applyNested(s, rule, extra);
    s.description = [key.description, ...extra].join(' ');
    if (key.defaults[rel] !== undefined) s.default = key.defaults[rel];
  }
  s.description += tail;
  if (key.category !== 'defaults') s['x-skewguard'] = { ...(s['x-skewguard'] ?? {}), category: key.category };
  return ordered(s);
}

function notReadFor(rel, keys, keyReleases) {
  const here = keyReleases.indexOf(rel);
  const out = {};
  for (const key of [...keys].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    if (key.releases.includes(rel)) continue;
    const idx = key.releases.map((r) => keyReleases.indexOf(r));
    const before = idx.filter((i) => i < here);
    const after = idx.filter((i) => i > here);
    out[key.key] = {
      releases: [...key.releases],
      lastRead: before.length ? keyReleases[Math.max(...before)] : null,
      firstRead: after.length ? keyReleases[Math.min(...after)] : null,
    };
  }
  return out;
}

/** @returns {Map<string, string>} relative path -> exact file contents */
export function generate(repoRoot) {
  const releasesData = readRepoJson(repoRoot, 'data/starlingx/releases.json');
  const keysData = readRepoJson(repoRoot, 'data/starlingx/keys.json');
  const keyReleases = [...keysData.releases].sort(compareReleases);
  const files = new Map();

  for (const releaseRow of releasesData.releases) {
    if (!releaseRow.hasSchema) continue;
    const rel = releaseRow.release;
    if (!keyReleases.includes(rel)) throw new Error(`gen-schemas: keys.json has no data for release ${rel}`);
    const keys = keysData.keys.filter((k) => k.releases.includes(rel)).sort((a, b) => (a.key < b.key ? -1 : 1));
    const where = releaseRow.bootstrapDefaults
      ? `${releaseRow.bootstrapDefaults.repo} ${releaseRow.bootstrapDefaults.tag} (${releaseRow.bootstrapDefaults.commit.slice(0, 12)})`
      : rel;
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: `${ID_BASE}/${rel}/localhost.schema.json`,
      title: `StarlingX ${rel} bootstrap overrides (localhost.yml)`,
      description:
        `Keys the StarlingX ${rel} bootstrap playbook reads from localhost.yml (${where}); Kubernetes ` +
        `${releaseRow.kubernetes.map((v) => v.version).join(', ')} (default ${releaseRow.default}). ` +
        `Data as of ${releasesData.asOf}. Generated by scripts/gen-schemas.mjs from data/starlingx; do not edit.`,
      type: 'object',
      properties: Object.fromEntries(keys.map((k) => [k.key, propertySchema(k, rel, keyReleases, releaseRow)])),
      additionalProperties: false,
      'x-skewguard': {
        family,
        release: rel,
        asOf: releasesData.asOf,
        notRead: notReadFor(rel, keysData.keys, keyReleases),
      },
    };
    files.set(`${outputDir}/${rel}/localhost.schema.json`, toJsonFile(schema));
  }
  return files;
}
