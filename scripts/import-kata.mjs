#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the Kata Containers reference material in
// ../shared/reference/kata (relative to the repo root; override with argv[2]) into
//   data/kata/config.json                     one row per configuration*.toml (section, key): which
//                                             release accepts it per runtime flavour (Go runtime,
//                                             runtime-rs), JSON type per release range, validated
//                                             values, default, doc comment, renames, sources, notes
//   test/fixtures/kata/config-rendered/**     copy of config-rendered/ (see its SOURCES.md), data only
//                                             (comments stripped), so the tests never read ../shared
// Read from the reference directory: config-options.json, config-key-history.json,
// go-runtime-config-keys.json, config/<release>/**/*.toml.in (doc comments, defaults, line
// numbers), config-rendered/ (fixtures) and the facts of skew-facts.md, which are written below
// as own-words tables, each with its fact number.
//
// Mapping rules (also written into the output's `fields` / `notes`):
//  * releases: inclusive x.y.z tags; `first`/`from` = first release, `last`/`to` = last release
//    that has the property, null = still true in the newest release of `releases`.
//  * Go acceptance = the Go TOML struct (go-runtime-config-keys.json / config-key-history.json
//    goParserKeys). The Go parser groups hypervisor keys as "hypervisor.*" (one struct decoded for
//    every [hypervisor.<name>] table): such a key gets a generic row with section "hypervisor.*"
//    (commonToAllHypervisors) AND its concrete rows (sections as in the templates) get the same
//    history clipped to the releases in which that hypervisor name is accepted. "agent.*",
//    "proxy.*", "shim.*" map to [agent.kata], [proxy.kata], [shim.kata] (@PROJECT_TYPE@ = kata).
//  * runtime-rs acceptance is APPROXIMATED by template presence (exactHistory
//    "templates:runtime-rs"): the material has no runtime-rs parser scan.
// Output is deterministic (fixed order, 2-space JSON, trailing newline). Sanity checks throw, so
// a changed reference fails loudly instead of producing different facts silently.
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { parseTOML, getStaticTOMLValue } from 'toml-eslint-parser';

import { applyRuntimeRs, migrationGuide, RS_KEYS, GUIDE } from './lib/kata-runtime-rs.mjs';
import { stripComments } from './strip-fixture-comments.mjs';
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('kata'));
const outFile = path.join(repoRoot, 'data', 'kata', 'config.json');
const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'kata', 'config-rendered');

// ---------------------------------------------------------------------------------------------
// helpers

function fail(msg) {
  throw new Error(`import-kata: ${msg}`);
}
const readText = (rel) => fs.readFileSync(path.join(refDir, rel), 'utf8');
const readJson = (rel) => JSON.parse(readText(rel));
const cmpRel = (a, b) => semver.compare(a, b);
const sortStrings = (list) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
function walkFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else out.push(p);
  }
  return out.sort();
}

const CATALOG = 'config-options.json';
const HISTORY = 'config-key-history.json';
const GOKEYS = 'go-runtime-config-keys.json';
const FACTS = 'skew-facts.md';
const fact = (n) => `${FACTS} #${n}`;

const catalog = readJson(CATALOG);
const history = readJson(HISTORY);
const goKeys = readJson(GOKEYS);
const skewFacts = readText(FACTS);
const sourcesMd = readText('SOURCES.md');

if (catalog.options.length !== 434) fail(`expected 434 catalog options, got ${catalog.options.length}`);
if (JSON.stringify(history.scannedReleases) !== JSON.stringify(goKeys.scannedReleases)) {
  fail('config-key-history.json and go-runtime-config-keys.json scanned different releases');
}
for (const n of [8, 9, 10, 11, 12, 13, 14, 15]) {
  if (!new RegExp(`^${n}\\. \\*\\*`, 'm').test(skewFacts)) fail(`${FACTS}: fact ${n} not found`);
}
const spread = catalog.schema.releaseSpread;
const spreadCommits = {};
for (const m of sourcesMd.matchAll(/^\| (\d+\.\d+\.\d+) \| (kc|runtime) \| ([^|]+) \| ([0-9a-f]{40}) \|$/gm)) {
  spreadCommits[m[1]] = { repo: m[2] === 'kc' ? 'kata-containers/kata-containers' : 'kata-containers/runtime', ref: m[3].trim(), commit: m[4] };
}
if (Object.keys(spreadCommits).length !== spread.length) fail('SOURCES.md: release → commit table does not match the spread');

// ---------------------------------------------------------------------------------------------
// releases

const releaseSet = new Set([...goKeys.scannedReleases, ...history.scannedReleases, ...spread]);
(function collect(x) {
  if (Array.isArray(x)) return x.forEach(collect);
  if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      if (typeof v === 'string' && /^(first|last)Release$|^firstWithNew$|^lastWithOld$|^firstWithout$|^reAddedIn$/.test(k)) releaseSet.add(v);
      else collect(v);
    }
  }
})([catalog, history]);
for (const r of releaseSet) if (!semver.valid(r)) fail(`not a release: ${r}`);
const releases = [...releaseSet].sort(cmpRel);
const extraReleases = releases.filter((r) => !goKeys.scannedReleases.includes(r));
if (extraReleases.length) fail(`releases outside the scanned tags: ${extraReleases.join(', ')}`);
const NEWEST = releases.at(-1);
const idx = new Map(releases.map((r, i) => [r, i]));
const ix = (r) => idx.get(r) ?? fail(`unknown release ${r}`);
const prevRel = (r) => releases[ix(r) - 1] ?? null;
/** inclusive last release -> null when it is the newest */
const openEnd = (r) => (r === NEWEST ? null : r);
const toIdx = (r) => (r === null ? releases.length - 1 : ix(r));

/** {first,last,missingIn?} from an exactHistory-style {firstRelease,lastRelease,missingIn} */
function span(h) {
  if (!h) return null;
  const out = { first: h.firstRelease, last: openEnd(h.lastRelease) };
  if (h.missingIn?.length) out.missingIn = [...h.missingIn].sort(cmpRel);
  return out;
}
/** releases covered by a span */
function spanReleases(s) {
  if (!s) return [];
  return releases.slice(ix(s.first), toIdx(s.last) + 1).filter((r) => !(s.missingIn ?? []).includes(r));
}
/** compress a list of releases back into a span (gaps become missingIn) */
function spanOf(list) {
  if (!list.length) return null;
  const sorted = [...list].sort(cmpRel);
  const first = sorted[0];
  const last = sorted.at(-1);
  const set = new Set(sorted);
  const missing = releases.slice(ix(first), ix(last) + 1).filter((r) => !set.has(r));
  const out = { first, last: openEnd(last) };
  if (missing.length) out.missingIn = missing;
  return out;
}
const spanText = (s) => `${s.first}..${s.last ?? NEWEST}${s.missingIn?.length ? ` (not in ${s.missingIn.join(', ')})` : ''}`;
const inSpan = (s, r) => !!s && ix(r) >= ix(s.first) && ix(r) <= toIdx(s.last) && !(s.missingIn ?? []).includes(r);

// ---------------------------------------------------------------------------------------------
// Facts from skew-facts.md (own words, with the fact number)

/** Go runtime: accepted [hypervisor.<name>] tables. Fact 10 covers runtime 1.13.0 and kc 2.0.0+;
 *  for 1.0.0 … 1.12.x the set is derived from the first Go template of each hypervisor table. */
function goHypervisorNamesAt(r) {
  if (cmpRel(r, '1.13.0') < 0) {
    const names = [];
    for (const [sec, h] of Object.entries(history.sections)) {
      const m = /^hypervisor\.([^.]+)$/.exec(sec);
      if (m && h['go-runtime'] && inSpan(span(h['go-runtime']), r)) names.push(m[1]);
    }
    return { names: sortStrings(names), source: `${HISTORY} sections (go-runtime template presence)`, derived: true };
  }
  let names;
  if (cmpRel(r, '3.0.0') < 0) names = ['acrn', 'clh', 'firecracker', 'qemu'];
  else if (cmpRel(r, '3.3.0') < 0) names = ['acrn', 'clh', 'dragonball', 'firecracker', 'qemu'];
  else if (cmpRel(r, '3.10.0') < 0) names = ['acrn', 'clh', 'dragonball', 'firecracker', 'qemu', 'remote', 'stratovirt'];
  else names = ['clh', 'dragonball', 'firecracker', 'qemu', 'remote', 'stratovirt'];
  return { names, source: fact(10), derived: false };
}
function rsHypervisorNamesAt(r) {
  const names = [];
  for (const [sec, h] of Object.entries(history.sections)) {
    const m = /^hypervisor\.([^.]+)$/.exec(sec);
    if (m && h['runtime-rs'] && inSpan(span(h['runtime-rs']), r)) names.push(m[1]);
  }
  return { names: sortStrings(names), source: `${HISTORY} sections (runtime-rs template presence)`, derived: true };
}
const UNKNOWN_HYPERVISOR_FATAL_GO = '3.2.0';
const RS_FIRST = '3.0.0';
const RS_STRICT = '3.29.0';
const RS_STRICT_TABLES = ['agent.kata', 'agent.kata.mem_agent'];

/** Validated values of the Go runtime (fact 11; extra_monitor_socket "" and emptydir_mode values
 *  from the templates' doc comments). Each value has the release it is first accepted from. */
const GO_ENUMS = [
  {
    group: 'hypervisor.*',
    key: 'shared_fs',
    values: [
      { value: 'virtio-9p', from: null },
      { value: 'virtio-fs', from: null },
      { value: 'virtio-fs-nydus', from: '2.4.0' },
      { value: 'none', from: '3.2.0' },
    ],
    source: `${fact(11)} (kc src/runtime/pkg/device/config/config.go 2.4.0, 3.2.0; src/runtime/virtcontainers/device/config/config.go 2.0.0; check sharedFS() in src/runtime/pkg/katautils/config.go 3.32.0)`,
    hypervisors: ['qemu', 'clh', 'stratovirt'],
    hypervisorsSource: 'go-runtime-corrections.md #2: only newQemuHypervisorConfig (3.32.0 config.go:1000), newClhHypervisorConfig (:1167) and newStratovirtHypervisorConfig (:1330) call sharedFS(); firecracker (:821-925), dragonball (:1249) and remote (:1407) never validate it',
    note: 'fact 11 dates virtio-9p and virtio-fs only as "1.x–": taken from the key\'s first Go-parser release (1.7.0).',
  },
  {
    group: 'hypervisor.*',
    key: 'block_device_driver',
    values: ['virtio-scsi', 'virtio-blk', 'virtio-mmio', 'nvdimm', 'virtio-blk-ccw'].map((value) => ({ value, from: '2.0.0' })),
    source: `${fact(11)} (same list at 2.0.0 and 3.32.0)`,
    note: 'the material gives the list for 2.0.0 and 3.32.0 only: no validated values are recorded for 1.x (the 1.x Go runtime was not read for this check).',
  },
  {
    group: 'hypervisor.*',
    key: 'block_device_aio',
    values: ['io_uring', 'native', 'threads'].map((value) => ({ value, from: null })),
    source: `${fact(11)} (key from 3.0.0; list read at 3.32.0)`,
  },
  {
    group: 'hypervisor.*',
    key: 'extra_monitor_socket',
    values: [{ value: '', from: null, source: 'template doc comment ("If set to the empty string "", no extra monitor socket is added")' }, ...['hmp', 'qmp', 'qmp-pretty'].map((value) => ({ value, from: null }))],
    source: `${fact(11)} (key from 3.2.0; list read at 3.32.0); "" from the template doc (3.2.0, 3.32.0, 4.1.0)`,
  },
  {
    group: 'runtime',
    key: 'emptydir_mode',
    values: [
      { value: 'shared-fs', from: null },
      { value: 'block-encrypted', from: null },
      { value: 'block-plain', from: '4.0.0', source: 'go-runtime-corrections.md #1 (kc src/runtime/pkg/katautils/config.go 4.0.0 :223, commit 24c51cfbbf, first tag 4.0.0)' },
    ],
    source: `${fact(11)} (validated, 3.28.0+); go-runtime-corrections.md #1: kc src/runtime/pkg/katautils/config.go 3.28.0/3.32.0 :216 (shared-fs, block-encrypted), 4.0.0/4.1.0 :223 (+ block-plain)`,
  },
  ...['hot_plug_vfio', 'cold_plug_vfio'].map((key) => ({
    group: 'hypervisor.*',
    key,
    values: ['root-port', 'switch-port', 'bridge-port', 'no-port'].map((value) => ({ value, from: null })),
    source: `${fact(11)} (list read at 3.32.0); the 3.2.0 template documents the same four values; go-runtime-corrections.md #3 (checkPCIeConfig 3.32.0 config.go:2034-2072, 4.1.0 :2094-2132)`,
    hypervisors: ['qemu', 'clh'],
    hypervisorsSource: 'go-runtime-corrections.md #3: checkPCIeConfig returns early with a warning for every hypervisor but QEMU/CLH (3.32.0 config.go:2035-2038)',
    machineTypes: ['q35', 'virt'],
    machineTypeDefault: 'q35',
    machineTypesSource: 'go-runtime-corrections.md #3: QEMU/CLH with a machine_type other than q35/virt accept any port (3.32.0 config.go:2048-2050); machine_type defaults to q35 (config.go:417-422, config-settings.go.in:59)',
    narrower: { clh: ['root-port', 'no-port'] },
    narrowerSource: 'go-runtime-corrections.md #3: CLH with q35/virt accepts only no-port or root-port (3.32.0 config.go:2051-2058)',
    note: 'checkPCIeConfig was read at 3.32.0 and 4.1.0 (identical); earlier releases from 3.2.0 are assumed to behave the same (not verified). Both keys set (other than no-port) is a separate check: see fatal.conditional.',
  })),
];
const ENUM_AFTER_SOURCE_NOTE = 'fact 11 cites sources up to 3.32.0: 4.0.0 and 4.1.0 are assumed unchanged.';

// ---------------------------------------------------------------------------------------------
// Go types -> JSON schema types

function jsonTypeOfGo(goType) {
  if (goType === 'bool') return { type: 'boolean' };
  if (goType === 'string' || goType === 'config.PCIePort' || goType === 'govmmQemu.MonitorProtocol') return { type: 'string' };
  if (/^\*?u?int(8|16|32|64)?$/.test(goType)) return { type: 'integer' };
  if (/^float(32|64)$/.test(goType)) return { type: 'number' };
  if (goType === '[]string') return { type: 'array', items: 'string' };
  if (/^\[\][A-Za-z.]+$/.test(goType)) return { type: 'array', items: 'object' };
  return fail(`unmapped Go type ${goType}`);
}
function jsonTypeOfCatalog(t) {
  if (Array.isArray(t)) {
    if (t.every((x) => x === 'int' || x === 'float')) return { type: 'number' };
    return fail(`unmapped catalog type list ${t}`);
  }
  const m = { bool: 'boolean', int: 'integer', float: 'number', string: 'string', array: 'array', table: 'object' }[t];
  return m ? { type: m } : fail(`unmapped catalog type ${t}`);
}
const sameType = (a, b) => a.type === b.type && (a.items ?? null) === (b.items ?? null);
/** JSON type of a parsed TOML value */
function jsonTypeOfValue(v) {
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'integer' : 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  if (v && typeof v === 'object') return 'object';
  return 'unknown';
}
const typeAccepts = (t, valueType) => t.type === valueType || (t.type === 'number' && valueType === 'integer');

// ---------------------------------------------------------------------------------------------
// Templates (.toml.in): sections, key lines, doc comments, literal values

const templates = new Map(); // "<release>/<path>" -> { release, file, flavour, lines }
for (const abs of walkFiles(path.join(refDir, 'config'))) {
  const rel = path.relative(path.join(refDir, 'config'), abs).split(path.sep).join('/');
  if (!rel.endsWith('.toml.in')) continue;
  const [release, ...rest] = rel.split('/');
  const file = rest.join('/');
  templates.set(rel, { release, file, flavour: file.startsWith('runtime-rs/') ? 'runtime-rs' : 'go', lines: fs.readFileSync(abs, 'utf8').split('\n') });
}
if (templates.size !== 91) fail(`expected 91 templates, got ${templates.size}`);

const HEADER = /^\s*\[\[?\s*([^\]\s]+)\s*\]\]?\s*(#.*)?$/;
const ACTIVE_KEY = /^\s*([A-Za-z0-9_-]+)\s*=\s*(.*)$/;
const COMMENTED_KEY_STRICT = /^\s*#\s?([a-z_][a-z0-9_]*)\s*=\s*(\S.*)$/;
const COMMENTED_KEY_LOOSE = /^\s*#\s*([a-z_][a-z0-9_]*)\s*=\s*(.*)$/;

/** per template: section of every line (null before the first header) */
function sectionsOf(t) {
  if (t.sections) return t.sections;
  let cur = null;
  t.sections = t.lines.map((line) => {
    const m = HEADER.exec(line);
    if (m && !line.trimStart().startsWith('#')) cur = m[1].replace('@PROJECT_TYPE@', 'kata');
    return cur;
  });
  return t.sections;
}
/** value text of a key line without a trailing comment; multi-line arrays are joined */
function valueText(lines, i, first) {
  let text = first;
  const balance = (s) => {
    let depth = 0;
    let q = null;
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (q) {
        if (c === '\\' && q === '"') k++;
        else if (c === q) q = null;
      } else if (c === '"' || c === "'") q = c;
      else if (c === '#') return { depth, cut: k };
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    return { depth, cut: -1 };
  };
  let { depth, cut } = balance(text);
  if (cut >= 0) text = text.slice(0, cut);
  let j = i;
  while (depth > 0 && j + 1 < lines.length) {
    j++;
    const b = balance(lines[j]);
    text += '\n' + (b.cut >= 0 ? lines[j].slice(0, b.cut) : lines[j]);
    depth += b.depth;
  }
  return text.trim();
}
/** finds the key line of section/key in a template: active first, then commented */
function findKey(t, section, key) {
  const secs = sectionsOf(t);
  for (const [re, commented] of [[ACTIVE_KEY, false], [COMMENTED_KEY_STRICT, true], [COMMENTED_KEY_LOOSE, true]]) {
    for (let i = 0; i < t.lines.length; i++) {
      if (secs[i] !== section) continue;
      const line = t.lines[i];
      if (!commented && line.trimStart().startsWith('#')) continue;
      const m = re.exec(line);
      if (m && m[1] === key) return { line: i, commented, raw: commented ? m[2].trim() : valueText(t.lines, i, m[2]) };
    }
  }
  return null;
}
/** comment block directly above line i, '#' removed, placeholders kept */
function docAbove(t, i) {
  const out = [];
  for (let j = i - 1; j >= 0; j--) {
    const line = t.lines[j];
    // a single blank line inside a doc block ("# Enable debug console.\n\n# If enabled, ...")
    if (line.trim() === '' && j > 0 && /^\s*#/.test(t.lines[j - 1]) && !COMMENTED_KEY_STRICT.test(t.lines[j - 1])) {
      out.unshift('');
      continue;
    }
    if (!/^\s*#/.test(line)) break;
    if (COMMENTED_KEY_STRICT.test(line)) break; // another (commented-out) key
    if (/^\s*#\s*XXX:/.test(line)) break; // generated-file banner
    out.unshift(line.replace(/^\s*#\s?/, '').replace(/\s+$/, ''));
  }
  while (out.length && out[0] === '') out.shift();
  while (out.length && out.at(-1) === '') out.pop();
  return out.length ? withoutPlaceholders(out.join('\n')) : null;
}
/**
 * A doc as people read it: the templates' build-time placeholders (`@DEFVALIDFILEMEMBACKENDS@`, filled by the
 * runtime's Makefile, which the material does not have) are not values anyone sets; each is said as what it is.
 */
function withoutPlaceholders(doc) {
  return doc.replace(/"?@[A-Z][A-Z0-9_]*@"?/g, '(a value chosen when Kata is built)');
}
/** parsed TOML literal, or {placeholder} / {invalid} */
function parseLiteral(raw) {
  if (/@[A-Z0-9_]+@/.test(raw)) return { placeholder: raw };
  try {
    return { value: getStaticTOMLValue(parseTOML(`v = ${raw}\n`)).v };
  } catch {
    return { invalid: raw };
  }
}

const BASE_TEMPLATE = {
  go: {
    'hypervisor.qemu': 'configuration-qemu.toml.in',
    'hypervisor.clh': 'configuration-clh.toml.in',
    'hypervisor.firecracker': 'configuration-fc.toml.in',
    'hypervisor.acrn': 'configuration-acrn.toml.in',
    'hypervisor.stratovirt': 'configuration-stratovirt.toml.in',
    'hypervisor.remote': 'configuration-remote.toml.in',
    '*': 'configuration-qemu.toml.in',
  },
  'runtime-rs': {
    'hypervisor.qemu': 'runtime-rs/configuration-qemu-runtime-rs.toml.in',
    'hypervisor.clh': 'runtime-rs/configuration-clh-runtime-rs.toml.in',
    'hypervisor.dragonball': 'runtime-rs/configuration-dragonball.toml.in',
    'hypervisor.firecracker': 'runtime-rs/configuration-rs-fc.toml.in',
    'hypervisor.remote': 'runtime-rs/configuration-remote.toml.in',
    'hypervisor.openvmm': 'runtime-rs/configuration-openvmm-azure-runtime-rs.toml.in',
    '*': 'runtime-rs/configuration-qemu-runtime-rs.toml.in',
  },
};
/** templates of a release in preference order for a section (preferred flavour first) */
function templatesFor(release, section, preferred) {
  const other = preferred === 'go' ? 'runtime-rs' : 'go';
  const top = section.split('.').slice(0, 2).join('.');
  const rank = (t) => {
    const base = BASE_TEMPLATE[t.flavour][section] ?? BASE_TEMPLATE[t.flavour][top];
    const generic = BASE_TEMPLATE[t.flavour]['*'];
    return [t.flavour === preferred ? 0 : 1, t.file === base ? 0 : t.file === generic ? 1 : 2, t.file.length, t.file];
  };
  return [...templates.values()]
    .filter((t) => t.release === release && (t.flavour === preferred || t.flavour === other))
    .map((t) => ({ t, r: rank(t) }))
    .sort((a, b) => {
      for (let k = 0; k < 4; k++) if (a.r[k] !== b.r[k]) return a.r[k] < b.r[k] ? -1 : 1;
      return 0;
    })
    .map((x) => x.t);
}
const tplRef = (t, line) => `template ${t.release}/${t.file}:${line + 1}`;

/** doc (newest template having the key, active or commented) and default (newest active value) */
function docAndDefault(section, key, preferred) {
  let doc = null;
  let def = null;
  for (const release of [...spread].reverse()) {
    for (const t of templatesFor(release, section, preferred)) {
      const hit = findKey(t, section, key);
      if (!hit) continue;
      if (!doc) doc = { doc: docAbove(t, hit.line), release, ref: tplRef(t, hit.line) };
      if (!def && !hit.commented) def = { ...parseLiteral(hit.raw), release, ref: tplRef(t, hit.line) };
      if (doc && def) return { doc, def };
    }
  }
  return { doc, def };
}

// ---------------------------------------------------------------------------------------------
// sections

const GROUP_OF = (section) => {
  if (section.startsWith('hypervisor.')) return section.split('.').length === 2 ? 'hypervisor.*' : null; // sub-tables: runtime-rs only
  if (section === 'agent.kata') return 'agent.*';
  if (section === 'proxy.kata') return 'proxy.*';
  if (section === 'shim.kata') return 'shim.*';
  if (section.startsWith('agent.kata.')) return null;
  return section;
};
/** Go parser: releases in which the group (table) exists in the struct */
function goGroupSpan(group) {
  return spanOf(goKeys.scannedReleases.filter((r) => group in goKeys.byTag[r]));
}
const goNameSpan = (name) => spanOf(releases.filter((r) => goHypervisorNamesAt(r).names.includes(name)));
const rsNameSpan = (name) => spanOf(releases.filter((r) => rsHypervisorNamesAt(r).names.includes(name)));
/** Go acceptance of a concrete section */
function goSectionSpan(section) {
  const m = /^hypervisor\.([^.]+)$/.exec(section);
  if (m) return goNameSpan(m[1]);
  const g = GROUP_OF(section);
  return g ? goGroupSpan(g) : null;
}
function intersect(a, b) {
  if (!a || !b) return null;
  const set = new Set(spanReleases(b));
  return spanOf(spanReleases(a).filter((r) => set.has(r)));
}

const catalogSections = new Map(catalog.sections.map((s) => [s.section, s]));
const sectionNames = sortStrings(new Set([...Object.keys(history.sections), ...catalogSections.keys()]));
const sections = [];
for (const name of sectionNames) {
  const cat = catalogSections.get(name);
  const hist = history.sections[name] ?? fail(`section ${name} not in ${HISTORY}`);
  const notes = [];
  const sources = [];
  if (cat) sources.push(`${CATALOG} sections[${name}]`);
  sources.push(`${HISTORY} sections[${name}]`);
  const flavours = {};
  const go = goSectionSpan(name);
  if (go) {
    flavours.go = go;
    const hm = /^hypervisor\.([^.]+)$/.exec(name);
    sources.push(hm ? `${fact(10)} (accepted hypervisor names)` : `${GOKEYS} byTag[*]["${GROUP_OF(name)}"]`);
    const tplGo = span(hist['go-runtime']);
    if (hm && JSON.stringify(tplGo) !== JSON.stringify(go)) {
      notes.push(
        tplGo
          ? `Go templates have this table ${spanText(tplGo)}; the Go runtime accepts the name ${spanText(go)}.`
          : `No Go template has this table, but the Go runtime accepts the name ${spanText(go)} (${fact(10)}).`,
      );
    }
  }
  if (hist['runtime-rs']) flavours['runtime-rs'] = span(hist['runtime-rs']);
  const kind = cat?.kind ?? 'table';
  if (cat?.note) notes.push(cat.note);
  if (!cat) notes.push(`Only in ${HISTORY} (not in any template of the nine-release spread), so no doc.`);
  if (name === 'hypervisor.cloud-hypervisor') notes.push(`runtime-rs renamed it to [hypervisor.clh] at 3.30.0 (${fact(14)}).`);
  if (name === 'proxy.kata' || name === 'shim.kata') notes.push(`1.x only; silently ignored by 2.x (${fact(15)}).`);
  if (name === 'hypervisor.acrn') notes.push(`Fatal ("invalid hypervisor section") on Go runtime 3.10.0+ (${fact(10)}).`);
  if (RS_STRICT_TABLES.includes(name)) notes.push(`runtime-rs rejects unknown keys here from ${RS_STRICT} (${fact(13)}).`);
  // doc: comment block above the header in the newest template that has the table
  let doc = null;
  for (const release of [...spread].reverse()) {
    for (const t of templatesFor(release, name, flavours.go && hist['go-runtime'] ? 'go' : 'runtime-rs')) {
      const i = t.lines.findIndex((l, k) => !l.trimStart().startsWith('#') && HEADER.test(l) && sectionsOf(t)[k] === name);
      if (i >= 0) {
        doc = { doc: docAbove(t, i), release, ref: tplRef(t, i) };
        break;
      }
    }
    if (doc) break;
  }
  if (doc) sources.push(doc.ref);
  const templatesHist = {};
  if (hist['go-runtime']) templatesHist.go = span(hist['go-runtime']);
  if (hist['runtime-rs']) templatesHist['runtime-rs'] = span(hist['runtime-rs']);
  sections.push({
    name,
    kind,
    ...(cat ? { sectionTemplate: cat.sectionTemplate } : {}),
    flavours,
    templates: templatesHist,
    doc: doc?.doc ?? null,
    docRelease: doc?.doc ? doc.release : null,
    sources,
    note: notes.length ? notes.join(' ') : null,
  });
}
// the Go parser's shared hypervisor struct
sections.push({
  name: 'hypervisor.*',
  kind: 'group',
  flavours: { go: goGroupSpan('hypervisor.*') },
  templates: {},
  doc: 'Any [hypervisor.<name>] table: the Go runtime decodes every hypervisor table with the same struct, so every key of the "hypervisor.*" rows is read in every hypervisor table whose name is accepted (see hypervisorNames).',
  docRelease: null,
  sources: [`${GOKEYS} description`, fact(10)],
  note: null,
});
// Go keys whose type is a slice of structs (hypervisor.*|guest_extension_images, Go []guestExtensionImage from 4.0.0)
// are not plain keys: BurntSushi/toml decodes an array of tables ([[hypervisor.<name>.guest_extension_images]]) into
// them, so the Go parser reads that table. It gets a section row with the Go flavour over the releases of that type.
// The material gives the Go type only, not the struct's fields: `keysNotListed` says so, and the engine reports the
// table's keys as not checked for the Go runtime, never as unknown. A map or a plain struct type (a table of tables,
// a sub-table) is not in the material: jsonTypeOfGo fails on it, so a reference that adds one is mapped on purpose.
const GO_SCALAR = /^(bool|string|\*?u?int(8|16|32|64)?|float(32|64)|config\.PCIePort|govmmQemu\.MonitorProtocol)$/;
const GO_TABLE_OF = { 'agent.*': 'agent.kata', 'proxy.*': 'proxy.kata', 'shim.*': 'shim.kata' };
for (const gk of sortStrings(Object.keys(history.goParserKeys))) {
  const [group, key] = gk.split('|');
  for (const [goType, h] of Object.entries(history.goParserKeys[gk].types)) {
    const m = /^\[\]\*?([A-Za-z_][A-Za-z0-9_.]*)$/.exec(goType);
    if (!m || GO_SCALAR.test(m[1])) continue;
    const name = `${GO_TABLE_OF[group] ?? group}.${key}`;
    if (Object.keys(history.goParserKeys).some((k) => k.startsWith(`${group}.${key}|`) || k.startsWith(`${name}|`))) {
      fail(`${HISTORY} goParserKeys now lists fields of ${gk} (${goType}): map them to rows of [${name}] instead of keysNotListed`);
    }
    const goSpan = span(h);
    let sec = sections.find((x) => x.name === name);
    if (!sec) {
      sec = { name, kind: 'arrayOfTables', flavours: {}, templates: {}, doc: null, docRelease: null, sources: [], note: null };
      sections.push(sec);
    }
    if (sec.flavours.go) fail(`section ${name}: Go flavour from two sources`);
    sec.kind = 'arrayOfTables';
    sec.flavours.go = goSpan;
    const from = `${GOKEYS} byTag[*]["${group}"].${key} / ${HISTORY} goParserKeys[${gk}] (Go ${goType})`;
    sec.sources.push(from);
    // No `note`: the runtime-rs schemas print the section's note, and this fact is the Go runtime's only.
    sec.keysNotListed = { go: { ...goSpan, goType, source: `${from}: the Go type only, not the fields of ${m[1]}` } };
  }
}
sections.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const sectionByName = new Map(sections.map((s) => [s.name, s]));

// ---------------------------------------------------------------------------------------------
// option rows

const catalogByKey = new Map(catalog.options.map((o, i) => [`${o.section}|${o.key}`, { o, i }]));
const histKeys = history.keys;
const goParserKeys = history.goParserKeys;

/** Go type entries for group|key (optionally clipped to a span), merged by JSON type */
function goTypeEntries(gk, clip) {
  const g = goParserKeys[gk];
  if (!g) return { types: [], goTypes: [] };
  const goTypes = [];
  for (const [goType, h] of Object.entries(g.types)) {
    let s = span(h);
    if (clip) s = intersect(s, clip);
    if (!s) continue;
    goTypes.push({ goType, from: s.first, to: s.last, ...(s.missingIn ? { missingIn: s.missingIn } : {}) });
  }
  goTypes.sort((a, b) => cmpRel(a.from, b.from));
  const types = [];
  for (const e of goTypes) {
    const jt = jsonTypeOfGo(e.goType);
    const prev = types.at(-1);
    if (prev && sameType(prev, jt) && prev.to !== null && releases[ix(prev.to) + 1] === e.from) {
      prev.to = e.to;
      if (e.missingIn) prev.missingIn = [...(prev.missingIn ?? []), ...e.missingIn];
      prev.goTypes.push(e.goType);
    } else {
      types.push({ ...jt, from: e.from, to: e.to, ...(e.missingIn ? { missingIn: e.missingIn } : {}), flavour: 'go', goTypes: [e.goType] });
    }
  }
  for (const t of types) {
    t.source = `${GOKEYS} / ${HISTORY} goParserKeys[${gk}] (Go ${t.goTypes.join(' → ')})`;
    delete t.goTypes;
  }
  return { types, goTypes };
}

/** validated values entries (Go) for group|key over the key's Go span */
function enumEntries(group, key, goSpan) {
  const e = GO_ENUMS.find((x) => x.group === group && x.key === key);
  if (!e || !goSpan) return [];
  const keyFirst = goSpan.first;
  const rels = spanReleases(goSpan).filter((r) => !(key === 'block_device_driver' && cmpRel(r, '2.0.0') < 0));
  const out = [];
  for (const r of rels) {
    const list = e.values.filter((v) => cmpRel(r, v.from ?? keyFirst) >= 0).map((v) => v.value);
    const prev = out.at(-1);
    if (prev && JSON.stringify(prev.enum) === JSON.stringify(list) && releases[toIdx(prev.to) + 1] === r) prev.to = openEnd(r);
    else out.push({ enum: list, from: r, to: openEnd(r) });
  }
  return out.map((x) => {
    const notes = [];
    if (e.note) notes.push(e.note);
    if (x.to === null) notes.push(ENUM_AFTER_SOURCE_NOTE);
    return { ...x, fatal: true, flavour: 'go', source: e.source, ...(e.hypervisors ? { onlyInHypervisors: e.hypervisors, onlyInHypervisorsSource: e.hypervisorsSource } : {}), ...(e.machineTypes ? { onlyWithMachineTypes: e.machineTypes, machineTypeDefault: e.machineTypeDefault, onlyWithMachineTypesSource: e.machineTypesSource } : {}), ...(e.narrower ? { narrowerIn: e.narrower, narrowerSource: e.narrowerSource } : {}), ...(notes.length ? { note: notes.join(' ') } : {}) };
  });
}

const rows = new Map(); // "section|key" -> row
const rowKeys = new Set([...catalogByKey.keys(), ...Object.keys(histKeys)]);
for (const gk of Object.keys(goParserKeys)) {
  const [group, key] = gk.split('|');
  if (group === 'hypervisor.*') continue; // generic row below
  const section = { 'agent.*': 'agent.kata', 'proxy.*': 'proxy.kata', 'shim.*': 'shim.kata' }[group] ?? group;
  rowKeys.add(`${section}|${key}`);
}

function buildRow(section, key) {
  const id = `${section}|${key}`;
  const cat = catalogByKey.get(id);
  const hist = histKeys[id];
  const notes = [];
  const sources = [];
  if (cat) sources.push(`${CATALOG} options[${cat.i}] (${id})`);
  if (hist) sources.push(`${HISTORY} keys[${id}]`);
  const group = GROUP_OF(section);
  const gk = group ? `${group}|${key}` : null;
  const goHist = gk ? goParserKeys[gk] : null;
  const flavours = {};
  let goSpan = null;
  if (goHist) {
    const keySpan = span(goHist);
    goSpan = section.startsWith('hypervisor.') ? intersect(keySpan, goSectionSpan(section)) : keySpan;
    if (goSpan) {
      flavours.go = goSpan;
      sources.push(`${GOKEYS} byTag[*]["${group}"].${key}`, `${HISTORY} goParserKeys[${gk}]`);
      if (section.startsWith('hypervisor.') && JSON.stringify(goSpan) !== JSON.stringify(keySpan)) {
        notes.push(`Go parser key ${spanText(keySpan)} (hypervisor.*), clipped to the releases that accept [${section}].`);
      }
    } else if (section.startsWith('hypervisor.')) {
      notes.push(`The Go parser knows ${key} (hypervisor.*, ${spanText(keySpan)}) but never accepts [${section}].`);
    }
  }
  const tplHist = {};
  if (hist?.['templates:go-runtime']) tplHist.go = span(hist['templates:go-runtime']);
  if (hist?.['templates:runtime-rs']) tplHist['runtime-rs'] = span(hist['templates:runtime-rs']);
  if (tplHist['runtime-rs']) {
    flavours['runtime-rs'] = tplHist['runtime-rs'];
  }
  // template vs parser contradictions (Go)
  if (tplHist.go) {
    const notRead = spanReleases(tplHist.go).filter((r) => !inSpan(flavours.go, r));
    if (notRead.length) {
      const s = spanOf(notRead);
      notes.push(
        `Contradiction: Go templates carry this key in ${spanText(s)} but the Go parser does not read ${gk ?? id} there${flavours.go ? '' : ' in any release'}; the Go runtime ignores it silently (${fact(8)}). Schemas keep such templates valid (open tables).`,
      );
    }
  }
  // types
  const { types, goTypes } = goHist && flavours.go ? goTypeEntries(gk, flavours.go) : { types: [], goTypes: [] };
  if (flavours['runtime-rs']) {
    let jt = null;
    let src = null;
    if (cat) {
      jt = jsonTypeOfCatalog(cat.o.type);
      src = `${CATALOG} options[${cat.i}].type "${Array.isArray(cat.o.type) ? cat.o.type.join('|') : cat.o.type}" (typeSource ${cat.o.typeSource})`;
      if (cat.o.typeSource === 'placeholder-name-heuristic') notes.push('runtime-rs type is a placeholder-name heuristic of the catalog.');
    } else {
      // history-only row: same key elsewhere in the catalog, else the Go parser type
      const alt = [...catalogByKey.values()].filter((x) => x.o.key === key && x.o.section.split('.')[0] === section.split('.')[0]);
      const anyTable = [...catalogByKey.values()].filter((x) => x.o.key === key && x.o.section === section.split('.').at(-1));
      const altSame = alt.find((x) => x.o.section === section.replace('cloud-hypervisor', 'clh')) ?? alt[0] ?? anyTable[0];
      if (altSame) {
        jt = jsonTypeOfCatalog(altSame.o.type);
        src = `${CATALOG} options[${altSame.i}].type of ${altSame.o.section}|${key} (same key, other table)`;
      } else if (goHist) {
        const last = Object.keys(goHist.types).sort((a, b) => cmpRel(goHist.types[a].lastRelease, goHist.types[b].lastRelease)).at(-1);
        jt = jsonTypeOfGo(last);
        src = `${HISTORY} goParserKeys[${gk}] (Go ${last}, used for runtime-rs)`;
      }
      if (jt) notes.push('runtime-rs type borrowed from the same key elsewhere (no template of this table in the spread).');
      else notes.push('Type unknown: the material has neither a template literal nor a Go type for it.');
    }
    if (jt) {
      if (jt.type === 'integer' && Object.keys(goHist?.types ?? {}).some((g) => jsonTypeOfGo(g).type === 'number')) {
        notes.push('runtime-rs type: the catalog says int but the Go parser reads a float from 3.3.0; the Rust type is not in the material, so runtime-rs schemas accept any number.');
        jt = { type: 'number' };
      }
      const rs = flavours['runtime-rs'];
      types.push({ ...jt, from: rs.first, to: rs.last, ...(rs.missingIn ? { missingIn: rs.missingIn } : {}), flavour: 'runtime-rs', source: src });
    }
  }
  // values
  const values = group ? enumEntries(group, key, flavours.go) : [];
  for (const v of values) if (!sources.includes(v.source.split(' (')[0])) sources.push(v.source.split(' (')[0]);
  if (values.length && flavours['runtime-rs']) notes.push('Whether runtime-rs validates these values is not in the material: values are recorded for the Go runtime only.');
  // doc + default
  const preferred = flavours.go && tplHist.go ? 'go' : tplHist['runtime-rs'] ? 'runtime-rs' : 'go';
  const { doc, def } = cat ? docAndDefault(section, key, preferred) : { doc: null, def: null };
  if (cat && !doc) notes.push('Key line not found in the spread templates.');
  if (doc) sources.push(doc.ref);
  if (def && def.ref !== doc?.ref) sources.push(def.ref);
  let defaultValue = null;
  let defaultPlaceholder = null;
  if (def?.placeholder) defaultPlaceholder = def.placeholder;
  else if (def?.invalid) notes.push(`Default in ${def.ref} is not a TOML literal: ${def.invalid}`);
  else if (def) defaultValue = def.value;
  if (!cat && hist) notes.push(`Only in ${HISTORY}: the key is in templates of releases outside the nine-release spread, so there is no doc or default.`);
  if (cat?.o.note) notes.push(`Catalog: ${cat.o.note}`);
  // default vs types
  if (defaultValue !== null && def) {
    const vt = jsonTypeOfValue(defaultValue);
    const applicable = types.filter((t) => (t.to === null || cmpRel(def.release, t.to) <= 0) && cmpRel(def.release, t.from) >= 0);
    if (applicable.length && !applicable.some((t) => typeAccepts(t, vt))) notes.push(`Contradiction: the default (${JSON.stringify(defaultValue)}) is a ${vt} but the type is ${applicable.map((t) => t.type).join('/')}.`);
  }
  const row = {
    section,
    key,
    ...(group === 'hypervisor.*' && flavours.go ? { commonToAllHypervisors: true } : {}),
    flavours,
    templates: tplHist,
    ...(cat ? { commentedOut: cat.o.commentedOut } : {}),
    types,
    ...(goTypes.length ? { goTypes } : {}),
    values,
    default: defaultValue,
    ...(defaultPlaceholder ? { defaultPlaceholder } : {}),
    doc: doc?.doc ?? null,
    docRelease: doc?.release ?? null,
    renamedTo: [],
    sources,
    notes,
  };
  return row;
}
for (const id of sortStrings(rowKeys)) {
  const [section, key] = id.split('|');
  if (!sectionByName.has(section)) fail(`row ${id}: unknown section`);
  rows.set(id, buildRow(section, key));
}

// generic "hypervisor.*" rows (Go parser)
const HYPERVISOR_PREF = ['qemu', 'clh', 'firecracker', 'stratovirt', 'remote', 'acrn', 'dragonball', 'openvmm', 'cloud-hypervisor'];
for (const gk of sortStrings(Object.keys(goParserKeys))) {
  const [group, key] = gk.split('|');
  if (group !== 'hypervisor.*') continue;
  const keySpan = span(goParserKeys[gk]);
  const concrete = HYPERVISOR_PREF.map((h) => rows.get(`hypervisor.${h}|${key}`)).filter(Boolean);
  const withDoc = concrete.find((r) => r.doc && r.flavours.go) ?? concrete.find((r) => r.doc);
  const { types, goTypes } = goTypeEntries(gk, null);
  const notes = [`Accepted by the Go parser in every [hypervisor.<name>] table whose name is valid in the release (hypervisorNames); concrete rows: ${concrete.map((r) => r.section).join(', ') || 'none'}.`];
  if (withDoc) notes.push(`doc taken from ${withDoc.section}.`);
  const values = enumEntries(group, key, keySpan);
  const row = {
    section: 'hypervisor.*',
    key,
    commonToAllHypervisors: true,
    concreteSections: concrete.map((r) => r.section),
    flavours: { go: keySpan },
    templates: {},
    types,
    goTypes,
    values,
    default: withDoc?.default ?? null,
    ...(withDoc?.defaultPlaceholder ? { defaultPlaceholder: withDoc.defaultPlaceholder } : {}),
    doc: withDoc?.doc ?? null,
    docRelease: withDoc?.docRelease ?? null,
    renamedTo: [],
    sources: [`${GOKEYS} byTag[*]["hypervisor.*"].${key}`, `${HISTORY} goParserKeys[${gk}]`, ...new Set(values.map((v) => v.source.split(' (')[0])), ...(withDoc ? withDoc.sources.filter((s) => s.startsWith('template ')).slice(0, 1) : [])],
    notes,
  };
  rows.set(`hypervisor.*|${key}`, row);
}

// ---------------------------------------------------------------------------------------------
// renames (normalised from the catalog, plus one the catalog states only in a row note)

const flavourOf = (runtime) => ({ 'go-runtime': 'go', 'runtime-rs': 'runtime-rs' })[runtime] ?? fail(`unknown runtime ${runtime}`);
const normSection = (s) => (s ? ({ 'agent.*': 'agent.kata', 'proxy.*': 'proxy.kata', 'shim.*': 'shim.kata' }[s] ?? s) : s);
const renames = catalog.renames.map((r, i) => {
  const out = { kind: r.kind, flavour: flavourOf(r.runtime) };
  for (const [k, v] of Object.entries(r)) {
    if (k === 'kind' || k === 'runtime') continue;
    if (k === 'section') out.section = normSection(v);
    else if (k === 'sections') out.sections = v.map((s) => s.replace(/^agent\.\*/, 'agent.kata'));
    else out[k] = v;
  }
  if (r.section && r.section !== out.section) out.sectionGroup = r.section;
  out.source = `${CATALOG} renames[${i}]`;
  return out;
});
const srm = catalogByKey.get('runtime|static_resource_mgmt');
if (!srm || !/replaced by static_sandbox_resource_mgmt from 3\.2\.0/.test(srm.o.note ?? '')) fail('runtime|static_resource_mgmt note changed');
renames.push({
  kind: 'key-rename',
  flavour: 'runtime-rs',
  section: 'runtime',
  from: 'static_resource_mgmt',
  to: 'static_sandbox_resource_mgmt',
  lastWithOld: prevRel('3.2.0'),
  firstWithNew: '3.2.0',
  note: 'runtime-rs templates only; the Go runtime has read static_sandbox_resource_mgmt since 2.4.0.',
  source: `${CATALOG} options[${srm.i}].note (runtime|static_resource_mgmt); not in the catalog's renames list`,
});

function addRenamedTo(id, entry) {
  const row = rows.get(id);
  if (row) row.renamedTo.push(entry);
}
for (const r of renames) {
  if (r.kind === 'key-superseded') {
    for (const [id, row] of rows) {
      if (row.key === r.from && (row.section === 'hypervisor.*' || (row.section.startsWith('hypervisor.') && row.flavours.go))) {
        addRenamedTo(id, { section: row.section, key: r.to, in: r.firstWithNew, flavour: r.flavour, mapping: r.mapping, source: r.source });
      }
    }
  } else if (r.kind === 'key-rename') {
    const to = rows.get(`${r.section}|${r.to}`);
    const inRel = r.firstWithNew ?? to?.flavours[r.flavour]?.first ?? null;
    addRenamedTo(`${r.section}|${r.from}`, { section: r.section, key: r.to, in: inRel, flavour: r.flavour, mapping: r.mapping ?? null, ...(r.note ? { note: r.note } : {}), source: r.source });
  } else if (r.kind === 'section-rename') {
    for (const [id, row] of rows) {
      if (row.section !== r.from) continue;
      const target = rows.get(`${r.to}|${row.key}`);
      addRenamedTo(id, {
        section: r.to,
        key: row.key,
        in: r.firstWithNew,
        flavour: r.flavour,
        mapping: `table [${r.from}] renamed to [${r.to}]`,
        ...(target?.flavours[r.flavour] ? {} : { note: `${r.to}|${row.key} is not in any runtime-rs template` }),
        source: r.source,
      });
    }
    const sec = sectionByName.get(r.from);
    if (sec) sec.renamedTo = { section: r.to, in: r.firstWithNew, flavour: r.flavour, source: r.source };
  }
}

// ---------------------------------------------------------------------------------------------
// sanity checks against skew-facts.md (fail loudly when the material changes)

const row = (s, k) => rows.get(`${s}|${k}`) ?? fail(`missing row ${s}|${k}`);
{
  const dv = row('hypervisor.*', 'default_vcpus').types;
  if (!(dv[0].type === 'integer' && dv[0].to === '3.2.0' && dv[1].type === 'number' && dv[1].from === '3.3.0')) fail('fact 12: default_vcpus types');
  const mo = row('hypervisor.*', 'memory_offset').goTypes;
  if (!(mo[0].goType === 'uint32' && mo[1].goType === 'uint64' && mo[1].from === '2.2.0')) fail('fact 12: memory_offset types');
  const h = row('hypervisor.*', 'hotplug_vfio_on_root_bus');
  if (h.flavours.go.last !== '3.1.3' || row('hypervisor.*', 'hot_plug_vfio').flavours.go.first !== '3.2.0') fail('hot_plug_vfio rename');
  if (row('hypervisor.*', 'use_vsock').flavours.go.last !== '1.13.0' || row('runtime', 'enable_agent_pidns').flavours.go.last !== '1.13.0') fail('fact 15: 1.x-only keys');
  if (sectionByName.get('proxy.kata').flavours.go.last !== '1.13.0' || sectionByName.get('shim.kata').flavours.go.last !== '1.13.0') fail('fact 15: 1.x-only tables');
  if (sectionByName.get('hypervisor.acrn').flavours.go.last !== '3.9.0') fail('fact 10: acrn');
  if (row('hypervisor.*', 'block_device_aio').flavours.go.first !== '3.0.0') fail('fact 11: block_device_aio from 3.0.0');
  if (row('hypervisor.*', 'extra_monitor_socket').flavours.go.first !== '3.2.0') fail('fact 11: extra_monitor_socket from 3.2.0');
  if (row('runtime', 'emptydir_mode').flavours.go.first !== '3.28.0') fail('fact 11: emptydir_mode from 3.28.0');
  if (sectionByName.get('hypervisor.cloud-hypervisor').flavours['runtime-rs'].last !== '3.29.0' || sectionByName.get('hypervisor.clh').flavours['runtime-rs'].first !== '3.30.0') fail('fact 14');
  if (row('agent.kata', 'dial_timeout').flavours['runtime-rs'].last !== '3.28.0') fail('fact 13: dial_timeout in runtime-rs templates until 3.28.0');
}

// ---------------------------------------------------------------------------------------------
// hypervisor names per release range

function nameRanges(flavour, fn, from) {
  const out = [];
  for (const r of releases) {
    if (cmpRel(r, from) < 0) continue;
    const { names, source, derived } = fn(r);
    const prev = out.at(-1);
    if (prev && JSON.stringify(prev.names) === JSON.stringify(names) && prev.source === source) prev.to = openEnd(r);
    else out.push({ flavour, from: r, to: openEnd(r), names, source, derived });
  }
  return out.map(({ derived, ...x }) => {
    const fatal = flavour === 'go' && cmpRel(x.from, UNKNOWN_HYPERVISOR_FATAL_GO) >= 0;
    const notes = [];
    if (flavour === 'go' && derived) notes.push('Fact 10 lists the names from 1.13.0 on; before that derived from the first Go template of each hypervisor table.');
    if (flavour === 'runtime-rs') notes.push('Approximated by runtime-rs template presence; the material has no runtime-rs parser scan.');
    if (flavour === 'go' && x.names.includes('dragonball')) notes.push('dragonball is in the Go switch (fact 10) although no Go template has [hypervisor.dragonball].');
    return { ...x, unknownIsFatal: flavour === 'go' ? fatal : null, ...(notes.length ? { note: notes.join(' ') } : {}) };
  });
}
// the fatal boundary must start a new range
const goNames = nameRanges('go', goHypervisorNamesAt, releases[0]);
for (const x of goNames) {
  if (x.to !== null && cmpRel(x.from, UNKNOWN_HYPERVISOR_FATAL_GO) < 0 && cmpRel(x.to, UNKNOWN_HYPERVISOR_FATAL_GO) >= 0) {
    const i = goNames.indexOf(x);
    const tail = { ...x, from: UNKNOWN_HYPERVISOR_FATAL_GO, unknownIsFatal: true };
    x.to = prevRel(UNKNOWN_HYPERVISOR_FATAL_GO);
    goNames.splice(i + 1, 0, tail);
    break;
  }
}
const hypervisorNames = [...goNames, ...nameRanges('runtime-rs', rsHypervisorNamesAt, RS_FIRST)];

// ---------------------------------------------------------------------------------------------
// output

const options = [...rows.values()]
  .map((r) => ({ ...r, note: r.notes.length ? r.notes.join(' ') : null, notes: undefined }))
  .map(({ notes, ...r }) => r)
  .sort((a, b) => (a.section < b.section ? -1 : a.section > b.section ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
for (const o of options) if (!o.sources.length) fail(`${o.section}|${o.key} has no sources`);

const out = {
  asOf: NEWEST,
  asOfNote: `The reference material gives no read-on date; asOf is the newest release it covers (kata-containers tag ${NEWEST}, commit ${spreadCommits[NEWEST].commit}).`,
  description:
    'Kata Containers configuration*.toml: every (section, key) that a template or the Go runtime TOML struct knows, with the releases that accept it per runtime flavour (go = Go runtime containerd-shim-kata-v2 incl. 1.x kata-runtime; runtime-rs = Rust runtime), its JSON type per release range, validated values, default and doc comment of the newest template, renames, sources and notes. ' +
    'Imported by scripts/import-kata.mjs from shared/reference/kata (config-options.json, config-key-history.json, go-runtime-config-keys.json, config/<release>/*.toml.in, SOURCES.md) and the facts of skew-facts.md (cited as "skew-facts.md #N").',
  fields: {
    releases: 'every release tag the material knows, sorted by semver; all first/last/from/to values are members',
    'first/from, last/to': 'inclusive release tags; last/to null = still true in the newest release (asOf); missingIn = releases inside the range where it does not hold',
    hypervisorNames: 'accepted [hypervisor.<name>] tables per flavour and release range; unknownIsFatal = an unknown name aborts the Go runtime (null: not known for runtime-rs)',
    'sections[].flavours': 'go: accepted by the Go runtime (hypervisor tables: the accepted names; other tables: the Go struct has the table); runtime-rs: template presence',
    'sections[].templates / options[].templates': 'raw template presence per flavour over all scanned tags (exactHistory templates:go-runtime / templates:runtime-rs)',
    'options[].section': 'concrete table as in the templates ("agent.kata" = agent.@PROJECT_TYPE@), or "hypervisor.*" for the Go parser\'s shared hypervisor struct (read in every accepted hypervisor table)',
    'options[].commonToAllHypervisors': 'true = the Go parser reads this key in every [hypervisor.<name>] table (Go group "hypervisor.*")',
    'options[].flavours.go': 'Go parser acceptance (exactHistory goParser), clipped for concrete hypervisor tables to the releases that accept that hypervisor name',
    'options[].flavours.runtime-rs': 'APPROXIMATED by runtime-rs template presence (exactHistory templates:runtime-rs): no runtime-rs parser scan exists in the material',
    'options[].types': 'JSON-schema type per flavour and release range: go from the Go struct types (int*/uint* → integer, float* → number, bool → boolean, string/PCIePort/MonitorProtocol → string, []string → array of string, []struct → array of object); runtime-rs from the catalog type (template literal / Go struct / placeholder heuristic)',
    'sections[].keysNotListed': 'per flavour, the releases in which the parser reads the table but the material does not list its keys (a Go []struct key whose struct fields go-runtime-config-keys.json does not give): keys without a row there are not checked, never unknown; goType = the Go type of the key',
    'options[].goTypes': 'the Go field types behind `types` (go flavour)',
    'options[].rustTypes': 'the kata-types field types behind `types` (runtime-rs flavour; u8, u32, i64, usize, array<u32>, … as runtime-rs-config-keys.json writes them)',
    'options[].values': 'validated values per release range (enum); fatal = an unknown value aborts the runtime; recorded only where the material states them',
    'options[].default': 'TOML value of the first uncommented occurrence in the newest template that has one (null with defaultPlaceholder when that value is a build-time @PLACEHOLDER@, or when no template sets it)',
    'options[].doc': 'comment block above the key (active or commented-out) in the newest template containing it, leading "#" removed, placeholders kept; docRelease = that template\'s release',
    'options[].commentedOut': 'catalog: always = only ever commented out in the templates (documented, off by default); never; mixed',
    'options[].renamedTo': 'successor keys (from `renames`), `in` = first release with the new name',
    'options[].sources': 'where each fact comes from: catalog/history/Go-key files, skew-facts.md #N, template <release>/<file>:<line>',
  },
  sourcesRead: [
    { name: CATALOG, copy: `shared/reference/kata/${CATALOG}`, note: catalog.schema.description },
    { name: HISTORY, copy: `shared/reference/kata/${HISTORY}`, note: history.description },
    { name: GOKEYS, copy: `shared/reference/kata/${GOKEYS}`, note: goKeys.description },
    { name: FACTS, copy: `shared/reference/kata/${FACTS}`, note: 'hand-written facts with upstream sources; used: #8–#15' },
    ...spread.map((r) => ({ name: `templates ${r}`, copy: `shared/reference/kata/config/${r}/`, repo: spreadCommits[r].repo, ref: spreadCommits[r].ref, commit: spreadCommits[r].commit })),
  ],
  releases,
  releasesNote:
    `${releases.length} releases = the x.y.z release tags scanned by the extractors (go-runtime-config-keys.json / config-key-history.json scannedReleases, 1.0.0 … ${NEWEST}); every exactHistory first/last and the template spread fall inside. ` +
    'No pre-release (-alpha/-rc) tags. 1.13.0 is the runtime release commit 8580454b (no 1.13.0 tag in the snapshot). The material does not say whether every upstream patch tag is present (e.g. the list goes 3.2.0 → 3.3.0 and has only two 3.x patch tags, 3.10.1 and 3.19.1), so a patch release missing here behaves like the nearest listed release only by assumption. ' +
    `runtime-rs exists from ${RS_FIRST}.`,
  templateReleases: spread,
  flavours: {
    go: { first: releases[0], note: 'Go runtime: kata-runtime / containerd-shim-kata-v2 (runtime repo 1.x, kata-containers src/runtime 2.x+).' },
    'runtime-rs': { first: RS_FIRST, note: 'Rust runtime (kata-containers src/runtime-rs); acceptance approximated by template presence.' },
  },
  hypervisorNames,
  fatal: {
    unknownHypervisorSection: { go: UNKNOWN_HYPERVISOR_FATAL_GO, 'runtime-rs': null, source: fact(10), note: 'Go before 3.2.0: an unknown hypervisor table is silently skipped. runtime-rs: the material is silent.' },
    denyUnknownFields: {
      'runtime-rs': {
        from: RS_STRICT,
        sections: ['agent.*', 'agent.*.mem_agent', 'hypervisor.*.rootless_user', 'shared mounts'],
        schemaTables: RS_STRICT_TABLES,
        source: `${fact(13)}; ${CATALOG} renames (parser-strictness-change)`,
        note: 'The schemas set additionalProperties:false on [agent.kata] and [agent.kata.mem_agent] from 3.29.0 with the keys of the runtime-rs templates (template presence approximates the Rust structs, so a real but undocumented Rust field would be flagged). The RootlessUser and shared-mount structs appear in no template: their fields are unknown and not in the schemas.',
      },
    },
    enumsFatal: { go: true, 'runtime-rs': null, source: fact(11), note: 'runtime-rs value validation is not in the material.' },
    typeMismatch: { go: true, 'runtime-rs': null, source: fact(12), note: 'A value of the wrong TOML type cannot be decoded (e.g. fractional default_vcpus on Go ≤ 3.2.x).' },
    unknownKeys: { go: 'ignored', 'runtime-rs': 'ignored, except in the denyUnknownFields tables from 3.29.0', source: `${fact(8)}; ${fact(13)}` },
  },
  dropIns: { go: { from: '2.5.0', dir: 'config.d', unknownKeys: 'warning' }, 'runtime-rs': null, source: fact(9), note: 'Go runtimes < 2.5.0 ignore config.d entirely. runtime-rs: the material is silent.' },
  notes: [
    'Go parser facts are grouped as "hypervisor.*" in the material (one struct for every hypervisor table): they are kept as rows with section "hypervisor.*" and copied, clipped to the accepted names, to the concrete hypervisor rows of the templates.',
    'runtime-rs acceptance = template presence (commented-out keys count as documented = accepted).',
    'Validated values are recorded for the Go runtime only (skew-facts #11); 1.x block_device_driver validation and runtime-rs validation are not in the material.',
    'The catalog reads some doc-comment lines as keys (e.g. runtime|cold_plug_vfio from "#      cold_plug_vfio = no_port (default)", hypervisor.qemu|root_hash): such rows keep the catalog facts and carry a contradiction note when the Go parser does not read them.',
    'The template spread holds nine releases (1.13.0, 2.0.0, 2.2.3, 2.4.3, 2.5.2, 3.0.0, 3.2.0, 3.32.0, 4.1.0): docs and defaults can only come from these; rows only in config-key-history.json have neither.',
  ],
  sections,
  options,
  renames,
};

out.fatal.conditional = [
  {
    id: 'go-pcie-hot-and-cold-plug',
    flavour: 'go',
    from: '3.2.0',
    to: null,
    table: 'hypervisor.<name>',
    when: { allSet: ['hot_plug_vfio', 'cold_plug_vfio'], notEqual: 'no-port' },
    outcomes: [
      { hypervisors: ['qemu', 'clh'], machineTypes: null, severity: 'error', says: 'the Go runtime refuses to load the configuration (checkPCIeConfig: hot_plug_vfio and cold_plug_vfio cannot both be set)' },
      { hypervisors: null, machineTypes: null, severity: 'warning', says: 'the Go runtime only logs that advanced PCIe topology is QEMU/CLH-only and ignores both keys' },
    ],
    fields: 'outcomes are tried in order; hypervisors/machineTypes null = any (the first matching outcome applies); machine_type defaults to q35 when unset',
    source: 'go-runtime-corrections.md #3: kc src/runtime/pkg/katautils/config.go checkPCIeConfig 3.32.0 :2034-2072 (non-QEMU/CLH warning and return :2035-2038, both set error :2040-2042 before the machine-type check), 4.1.0 :2094-2132 identical',
    note: 'Read at 3.32.0 and 4.1.0; from 3.2.0 (first release with hot_plug_vfio/cold_plug_vfio) to 3.31.x assumed the same (not verified).',
  },
];
{
  const rsSummary = applyRuntimeRs({ refDir, releases, options: out.options, sections: out.sections, hypervisorNames: out.hypervisorNames, fatal: out.fatal, dropIns: out.dropIns, fail });
  out.options.sort((a, b) => (a.section < b.section ? -1 : a.section > b.section ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  out.sections.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  out.sourcesRead.push({ name: RS_KEYS, copy: `shared/reference/kata/${RS_KEYS}`, note: `kata-types serde structures, plugin registration and load-time checks at ${rsSummary.tags} runtime-rs tags (3.0.0 … 4.1.0); ${rsSummary.keys} keys (${rsSummary.matched} on existing rows, ${rsSummary.created} new), ${rsSummary.tables} sub-tables` });
  out.fields['options[].flavours.runtime-rs'] = `what kata-types reads at each runtime-rs tag (${RS_KEYS}); templates['runtime-rs'] keeps the template presence`;
  out.fields['sections[].flavours'] = 'go: accepted by the Go runtime (hypervisor tables: the accepted names; other tables: the Go struct has the table); runtime-rs: the kata-types struct has the table (hypervisor tables: hypervisorNames)';
  out.fields['options[].required'] = 'runtime-rs release ranges where the field has no serde default (a table without it fails to load)';
  out.fields['options[].section'] = out.fields['options[].section'] + '; "agent.kata" stands for every [agent.<name>] table, "hypervisor.*.<t>" for a sub-table of every hypervisor table';
  out.description = out.description.replace('go-runtime-config-keys.json, ', `go-runtime-config-keys.json, ${RS_KEYS}, ${GUIDE}, `);
  out.migration = migrationGuide({ refDir, options: out.options, sections: out.sections, releases, fail });
  out.sourcesRead.push({ name: GUIDE, copy: `shared/reference/kata/${GUIDE}`, note: `the Go → runtime-rs migration guide's ${out.migration.mappings.length} mappings (${out.migration.source.doc} at ${out.migration.source.tag}), each key checked against the rows at that tag` });
  out.fields.migration = 'the upstream Go → runtime-rs migration guide, one row per mapping; readAt<tag> = whether the Go and runtime-rs parsers of the guide\'s tag read each key it names; guideErrors = where the guide disagrees with the code';
}
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${path.relative(repoRoot, outFile)}: ${releases.length} releases, ${sections.length} sections, ${options.length} options (${options.filter((o) => o.section === 'hypervisor.*').length} hypervisor.*), ${renames.length} renames`);

// ---------------------------------------------------------------------------------------------
// fixtures: config-rendered/ copy. render-templates.py fills every placeholder with a value of the
// option's type; for the keys whose values the Go runtime validates (skew-facts #11) a path-like
// string ("/opt/kata/defsharedfs_qemu_virtiofs") is not a value any build produces, so those are
// re-rendered with plausible build values (listed in the fixture SOURCES.md).

const PLAUSIBLE = {
  go: {
    defsharedfs: 'virtio-9p',
    defsharedfs_qemu_virtiofs: 'virtio-fs',
    defsharedfs_clh_virtiofs: 'virtio-fs',
    defsharedfs_stratovirt_virtiofs: 'virtio-fs',
    defsharedfs_qemu_sev_virtiofs: 'virtio-9p',
    defsharedfs_qemu_snp_virtiofs: 'none',
    defsharedfs_qemu_tdx_virtiofs: 'none',
    defsharedfs_qemu_sel_virtiofs: 'none',
    defsharedfs_qemu_coco_dev_virtiofs: 'none',
    defsharedfs_qemu_cca_virtiofs: 'none',
    defblockstoragedriver_qemu: 'virtio-scsi',
    defblockstoragedriver_acrn: 'virtio-blk',
    defblockstoragedriver_fc: 'virtio-mmio',
    defblockstoragedriver_stratovirt: 'virtio-mmio',
    defblockdeviceaio_qemu: 'io_uring',
    defemptydirmode: 'shared-fs',
    defemptydirmode_coco: 'block-encrypted',
    defaultvfioport_nv: 'root-port',
  },
  'runtime-rs': {
    dbsharedfs: 'virtio-fs',
    defsharedfs_qemu_virtiofs: 'virtio-fs',
    defsharedfs_clh_virtiofs: 'virtio-fs',
    defsharedfs_qemu_sel_virtiofs: 'none',
    defsharedfs_qemu_tdx_virtiofs: 'none',
    defsharedfs_qemu_coco_dev_virtiofs: 'none',
    defsharedfs_openvmm: 'virtio-fs',
    defblockstoragedriver_qemu: 'virtio-blk-pci',
    defblockstoragedriver_db: 'virtio-blk-mmio',
    defblockstoragedriver_fc: 'virtio-blk-mmio',
    defblockstoragedriver_openvmm: 'virtio-blk-pci',
    defblockdeviceaio_qemu: 'io_uring',
    defemptydirmode: 'shared-fs',
    defemptydirmode_coco: 'block-encrypted',
    defemptydirmode_nv: 'shared-fs',
    // keys kata-types validates at load (runtime-rs-config-keys.json validValues), not in the Go list above
    defvirtiofscache: 'auto',
    defnetworkmodel_clh: 'tcfilter',
    defnetworkmodel_db: 'tcfilter',
    defnetworkmodel_fc: 'tcfilter',
    defnetworkmodel_openvmm: 'tcfilter',
    defnetworkmodel_qemu: 'tcfilter',
    defvfiomode: 'guest-kernel',
    defvfiomode_nv: 'guest-kernel',
    defvfiomode_se: 'guest-kernel',
    vmrootfsdriver_clh: 'virtio-blk-pci',
    vmrootfsdriver_db: 'virtio-blk-mmio',
    vmrootfsdriver_nv: 'virtio-blk-pci',
    vmrootfsdriver_openvmm: 'virtio-blk-pci',
    vmrootfsdriver_qemu: 'virtio-blk-pci',
  },
};
const RS_VALIDATED_KEYS = [...new Set(out.options.filter((o) => o.values.some((v) => v.flavour === 'runtime-rs')).map((o) => o.key))];
const ENUM_KEYS_OF = { go: GO_ENUMS.map((e) => e.key), 'runtime-rs': [...new Set([...GO_ENUMS.map((e) => e.key), ...RS_VALIDATED_KEYS])] };
const renderedDir = path.join(refDir, 'config-rendered');
const substitutions = new Map(); // "flavour|key|placeholder|value" -> files
fs.rmSync(fixturesDir, { recursive: true, force: true });
let copied = 0;
for (const abs of walkFiles(renderedDir)) {
  const rel = path.relative(renderedDir, abs).split(path.sep).join('/');
  const flavour = rel.split('/')[1] === 'runtime-rs' ? 'runtime-rs' : 'go';
  const text = fs.readFileSync(abs, 'utf8');
  if (/@[A-Z0-9_]+@/.test(text.replace(/^\s*#.*$/gm, ''))) fail(`${rel}: unrendered placeholder outside comments`);
  const lines = text.split('\n').map((line) => {
    const m = /^(\s*)([a-z_]+)(\s*=\s*)"\/opt\/kata\/([a-z0-9_]+)"(.*)$/.exec(line);
    if (!m || !ENUM_KEYS_OF[flavour].includes(m[2])) return line;
    const value = PLAUSIBLE[flavour][m[4]] ?? fail(`${rel}: no plausible value for ${m[2]} = @${m[4].toUpperCase()}@ (${flavour})`);
    const id = `${flavour}|${m[2]}|@${m[4].toUpperCase()}@|${value}`;
    if (!substitutions.has(id)) substitutions.set(id, []);
    substitutions.get(id).push(rel);
    return `${m[1]}${m[2]}${m[3]}"${value}"${m[5]}`;
  });
  const dest = path.join(fixturesDir, rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  // Data only (test/fixtures/SOURCES.md, "Upstream copies"): the templates' comments are not copied.
  fs.writeFileSync(dest, stripComments(lines.join('\n'), 'toml').text);
  copied++;
}
const subRows = sortStrings(substitutions.keys()).map((id) => {
  const [flavour, key, ph, value] = id.split('|');
  const files = substitutions.get(id);
  return `| ${flavour} | \`${key}\` | \`${ph}\` | \`"${value}"\` | ${files.length} |`;
});
const fixturesMd = `# Sources — Kata Containers configuration fixtures

\`config-rendered/\` is a copy of \`shared/reference/kata/config-rendered/\` (${copied} files, written by
\`node scripts/import-kata.mjs\`; do not edit by hand). That directory holds the upstream
configuration templates of nine releases — \`shared/reference/kata/config/<release>/**/*.toml.in\`,
verbatim from github.com/kata-containers/kata-containers (tags 2.0.0 … 4.1.0) and
github.com/kata-containers/runtime (1.13.0 release commit 8580454b); see
\`shared/reference/kata/SOURCES.md\` for every file's upstream path, commit and sha256 — with their
build-time \`@PLACEHOLDER@\`s filled by \`shared/tools/kata/render-templates.py\`: \`@PROJECT_TYPE@\`
→ \`kata\`, every \`key = @X@\` gets a value of the option's catalog type (array → \`[]\`, bool →
\`false\`, int → a small number, float → \`1.0\`, string → \`"/opt/kata/<x>"\`), a quoted \`"@X@"\`
becomes \`"/opt/kata/<x>"\`, any other \`@X@\` (comments) becomes \`x\`.

No placeholder is left unrendered. The renderer's path-like strings are, however, not values any
build produces, and for the keys whose values the Go runtime validates (skew-facts.md #11:
shared_fs, block_device_driver, block_device_aio, extra_monitor_socket, emptydir_mode,
hot_plug_vfio, cold_plug_vfio) they would be fatal. The copy therefore re-renders exactly those
lines with plausible build values (the usual Kata Makefile defaults as we know them — NOT checked
against the Makefiles, which are not in the reference material):

| flavour | key | placeholder | value used | lines |
|---|---|---|---|---|
${subRows.join('\n')}

The copy keeps only data: the templates' comments (their documentation prose and commented-out keys) and the blank
runs left behind are removed by \`scripts/strip-fixture-comments.mjs\` (which \`import-kata.mjs\` calls; see
\`../SOURCES.md\`, "Upstream copies"); the script checks that every file parses to the same TOML data before and
after. Every other kept line is byte-identical to \`config-rendered/\`; other path-like artefacts (e.g.
\`virtio_fs_cache = "/opt/kata/defvirtiofscache"\`, \`internetworking_model = "/opt/kata/defnetworkmodel_qemu"\`,
\`vfio_mode\`, \`rootfs_type\`, \`vm_rootfs_driver\`) are kept: the material records no validated
values for them.

Used by \`test/kata-data.test.mjs\`: every file must validate with zero errors under the schema of
its own release and flavour (\`runtime-rs/\` = runtime-rs, else Go runtime), via
\`schemas/kata/index.json\`.
`;
fs.writeFileSync(path.join(path.dirname(fixturesDir), 'SOURCES.md'), fixturesMd);
console.log(`copied ${copied} rendered templates to ${path.relative(repoRoot, fixturesDir)} (${[...substitutions.values()].reduce((n, f) => n + f.length, 0)} lines re-rendered)`);
