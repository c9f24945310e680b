// runtime-rs rows of data/kata/config.json from what kata-types' serde structures read at each runtime-rs tag
// (shared/reference/kata/runtime-rs-config-keys.json, extracted from kata-containers at tags 3.0.0 … 4.1.0; see its
// SOURCES.md). Replaces the earlier approximation by template presence: template presence stays in `templates`,
// `flavours['runtime-rs']`, the runtime-rs `types`/`values`, the runtime-rs hypervisor names, the fatal facts and
// the drop-in support all come from the source extraction, each row citing tag and file:line.
//
// Path mapping (runtime-rs-config-keys.json → data rows):
//   agent.<name>.k            → section "agent.kata" (the data's representative of any [agent.<name>] table)
//   agent.<name>.mem_agent.k  → "agent.kata.mem_agent"
//   hypervisor.<name>.k       → "hypervisor.*" (one struct for every plugin)
//   hypervisor.<name>.t.k     → "hypervisor.*.t" (factory, rootless_user, …)
//   runtime.k                 → "runtime"; runtime.shared_mounts[].k → "runtime.shared_mounts"
import path from 'node:path';
import fs from 'node:fs';

export const RS_KEYS = 'runtime-rs-config-keys.json';

const jsonType = (t) => {
  if (/^[iu](8|16|32|64|size)$/.test(t)) return { type: 'integer' };
  if (/^f(32|64)$/.test(t)) return { type: 'number' };
  if (t === 'bool') return { type: 'boolean' };
  if (t === 'string' || t === 'enum<string>') return { type: 'string' };
  const m = /^array<(.+)>$/.exec(t);
  if (m) return { type: 'array', items: m[1] === 'table' ? 'object' : jsonType(m[1]).type };
  return { type: 'object' };
};

function mapPath(p) {
  const parts = p.replace(/\[\]/g, '').split('.');
  const key = parts.pop();
  let section;
  if (parts[0] === 'agent' && parts[1] === '<name>') section = ['agent', 'kata', ...parts.slice(2)].join('.');
  else if (parts[0] === 'hypervisor' && parts[1] === '<name>') section = ['hypervisor', '*', ...parts.slice(2)].join('.');
  else section = parts.join('.');
  return { section, key };
}

/**
 * @param ctx {{ refDir, releases, options, sections, hypervisorNames, fatal, dropIns, fail }}
 * mutates options/sections/hypervisorNames/fatal/dropIns in place; returns a summary for the sourcesRead entry.
 */
export function applyRuntimeRs(ctx) {
  const { refDir, releases, options, sections, fail } = ctx;
  const rs = JSON.parse(fs.readFileSync(path.join(refDir, RS_KEYS), 'utf8'));
  const tags = Object.keys(rs.tags);
  const ix = new Map(releases.map((r, i) => [r, i]));
  for (const t of tags) if (!ix.has(t)) fail(`${RS_KEYS}: tag ${t} is not a known release`);
  tags.sort((a, b) => ix.get(a) - ix.get(b));
  const NEWEST = releases.at(-1);
  const openEnd = (r) => (r === NEWEST ? null : r);
  const cite = (tag, src) => `${RS_KEYS} tags[${tag}] (kata-containers ${tag} ${src})`;
  /** first/last/missingIn over the runtime-rs tags. */
  const spanOf = (present) => {
    const on = tags.filter((t) => present.has(t));
    if (!on.length) return undefined;
    const first = on[0], last = on.at(-1);
    const missingIn = tags.filter((t) => ix.get(t) > ix.get(first) && ix.get(t) < ix.get(last) && !present.has(t));
    return { first, last: openEnd(last), ...(missingIn.length ? { missingIn } : {}) };
  };
  /** Runs of equal values over the tags where `f(tag)` is defined. */
  const runs = (f) => {
    const out = [];
    for (const t of tags) {
      const v = f(t);
      if (v === undefined) { if (out.at(-1)) out.at(-1).closed = true; continue; }
      const prev = out.at(-1);
      if (prev && !prev.closed && prev.id === v.id) prev.to = t;
      else out.push({ ...v, from: t, to: t });
    }
    return out.map(({ closed, id, ...x }) => ({ ...x, to: openEnd(x.to) }));
  };

  // 1. Forget the template approximation of runtime-rs acceptance (templates stay as they are).
  for (const o of options) {
    delete o.flavours['runtime-rs'];
    o.types = o.types.filter((t) => t.flavour !== 'runtime-rs');
    o.values = o.values.filter((v) => v.flavour !== 'runtime-rs');
    if (o.note) o.note = o.note.split(/(?<=\.) /).filter((s) => !/runtime-rs (type|validates)|Whether runtime-rs/.test(s)).join(' ') || null;
  }
  for (const s of sections) {
    delete s.flavours['runtime-rs'];
    if (s.note) s.note = s.note.replace(/runtime-rs rejects unknown keys here from 3\.29\.0 \(skew-facts\.md #13\)\.\s*/, '').trim() || null;
  }

  // 2. Keys and tables per tag.
  const byRow = new Map(); // "section|key" -> { section, key, at: Map(tag -> key fact) }
  const tables = new Map(); // section -> Map(tag -> fact)
  for (const t of tags) {
    for (const k of rs.tags[t].keys) {
      const container = ['table', 'map<table>', 'array<table>'].includes(k.type);
      const { section, key } = mapPath(k.path);
      if (container) {
        const name = section ? `${section}.${key}` : key;
        if (name === 'agent' || name === 'hypervisor') continue; // the maps themselves: their entries are tables
        const mapped = name.replace(/^agent\.kata$/, 'agent.kata').replace(/^agent$/, '');
        if (!tables.has(mapped)) tables.set(mapped, new Map());
        tables.get(mapped).set(t, k);
        if (k.type === 'array<table>') {
          // also a key of its parent ([[runtime.shared_mounts]] is runtime.shared_mounts = [ {…} ])
          const id = `${section}|${key}`;
          if (!byRow.has(id)) byRow.set(id, { section, key, at: new Map() });
          byRow.get(id).at.set(t, k);
        }
        continue;
      }
      const id = `${section}|${key}`;
      if (!byRow.has(id)) byRow.set(id, { section, key, at: new Map() });
      byRow.get(id).at.set(t, k);
      // a serde alias is read like the field itself (mem_agent_enable = enable)
      for (const a of k.aliases ?? []) {
        const aid = `${section}|${a}`;
        if (!byRow.has(aid)) byRow.set(aid, { section, key: a, at: new Map(), aliasOf: key });
        byRow.get(aid).at.set(t, k);
      }
    }
    // agent and hypervisor tables always exist as maps
  }
  tables.set('agent.kata', new Map(tags.map((t) => [t, { source: rs.tags[t].keys.find((k) => k.path === 'agent')?.source ?? 'src/libs/kata-types/src/config/mod.rs' }])));

  const rowById = new Map(options.map((o) => [`${o.section}|${o.key}`, o]));
  let created = 0, matched = 0;
  for (const [id, r] of byRow) {
    let row = rowById.get(id);
    if (!row) {
      row = { section: r.section, key: r.key, flavours: {}, templates: {}, types: [], values: [], default: null, doc: null, docRelease: null, renamedTo: [], sources: [], note: null };
      options.push(row);
      rowById.set(id, row);
      created++;
    } else matched++;
    const present = new Set(r.at.keys());
    row.flavours['runtime-rs'] = spanOf(present);
    const firstTag = [...present][0], lastTag = [...present].at(-1);
    const firstFact = r.at.get(firstTag), lastFact = r.at.get(lastTag);
    row.sources.push(cite(firstTag, firstFact.source));
    if (lastTag !== firstTag) row.sources.push(cite(lastTag, lastFact.source));
    // types
    for (const x of runs((t) => {
      const k = r.at.get(t);
      if (!k) return undefined;
      const jt = jsonType(k.type);
      return { id: `${jt.type}/${jt.items ?? ''}/${k.type}`, ...jt, rustType: k.rustType ?? k.type, src: k.source };
    })) {
      const { rustType, src, ...jt } = x;
      row.types.push({ ...jt, flavour: 'runtime-rs', source: cite(x.from, `${src}, Rust ${rustType}`) });
    }
    // the Rust types behind `types` (as goTypes for the Go runtime): serde rejects an integer out of the range of
    // u8/u32/i32/… (and a negative one for u64/usize), so the width matters, not only "integer"
    const rustTypes = runs((t) => {
      const k = r.at.get(t);
      return k ? { id: k.type, rustType: k.type } : undefined;
    }).map((x) => ({ rustType: x.rustType, from: x.from, to: x.to }));
    if (rustTypes.length) row.rustTypes = rustTypes;
    // validated values: serde enums always; adjust_config always; validate() only where it runs at load
    for (const x of runs((t) => {
      const k = r.at.get(t);
      if (!k?.validValues) return undefined;
      const check = k.validValuesCheck ?? {};
      const atLoad = check.phase !== 'validate' || rs.tags[t].validateCalledAtLoad;
      if (!atLoad) return undefined;
      // values handled before the allow-list ("" → built-in default, "none" → no shared fs) are accepted too
      const special = (k.specialValues ?? []).map((x) => x.value).filter((x) => !k.validValues.includes(x));
      const list = [...k.validValues, ...special];
      return { id: JSON.stringify(list), enum: list, src: check.source ?? k.source, phase: check.phase ?? 'deserialize' };
    })) {
      const { src, phase, ...v } = x;
      row.values.push({ ...v, fatal: true, flavour: 'runtime-rs', source: cite(x.from, `${src} (${phase})`) });
    }
    // required (no serde default, not Option): a table without it fails to deserialize
    const req = runs((t) => (r.at.get(t)?.required ? { id: 'required', src: r.at.get(t).source } : undefined));
    if (req.length) row.required = req.map(({ src, ...x }) => ({ ...x, flavour: 'runtime-rs', source: cite(x.from, src) }));
    const rename = lastFact.rename && lastFact.rustField ? `serde rename of Rust field ${lastFact.rustField}` : null;
    const alias = lastFact.aliases ? `also read under the serde alias${lastFact.aliases.length > 1 ? 'es' : ''} ${lastFact.aliases.join(', ')}` : null;
    if (rename || alias || lastFact.unitNote) row.rs = { ...(rename ? { rustField: lastFact.rustField } : {}), ...(lastFact.aliases ? { aliases: lastFact.aliases } : {}), ...(lastFact.unitNote ? { unitNote: lastFact.unitNote } : {}) };
    if (r.section === 'hypervisor.*') row.commonToAllHypervisors = true;
    if (r.aliasOf) {
      row.rs = { ...(row.rs ?? {}), aliasOf: r.aliasOf };
      row.note = [row.note, `runtime-rs reads it as a serde alias of ${r.aliasOf} (${cite(lastTag, lastFact.source)}).`].filter(Boolean).join(' ');
    }
  }
  // Rows of a concrete hypervisor table that runtime-rs reads through the shared struct, or not at all.
  for (const o of options) {
    if (Object.keys(o.flavours).length || !o.templates?.['runtime-rs']) continue;
    const m = /^hypervisor\.([^.*]+)(\..+)?$/.exec(o.section);
    const generic = m ? rowById.get(`hypervisor.*${m[2] ?? ''}|${o.key}`) : undefined;
    const why = generic?.flavours['runtime-rs']
      ? `runtime-rs reads ${o.key} in every hypervisor table through one kata-types struct: see the [hypervisor.*${m[2] ?? ''}] row (${RS_KEYS}).`
      : `Only the runtime-rs templates show it: kata-types has no such field in [${o.section}] at any tag ${tags[0]}–${tags.at(-1)} (${RS_KEYS}), so runtime-rs ignores it.`;
    o.note = [o.note, why].filter(Boolean).join(' ');
  }
  for (const o of options) if (!o.sources.length) fail(`${o.section}|${o.key} has no sources`);

  // 3. Tables (sub-tables of every [hypervisor.<name>], [agent.<name>], …). [hypervisor.<name>] itself: hypervisorNames.
  const sectionByName = new Map(sections.map((s) => [s.name, s]));
  for (const [name, at] of tables) {
    if (!name) continue;
    let s = sectionByName.get(name);
    if (!s) {
      s = { name, kind: [...at.values()].at(-1).type === 'array<table>' ? 'arrayOfTables' : 'table', flavours: {}, templates: {}, doc: null, docRelease: null, sources: [], note: null };
      sections.push(s);
      sectionByName.set(name, s);
    }
    s.flavours['runtime-rs'] = spanOf(new Set(at.keys()));
    const first = [...at.keys()][0];
    s.sources.push(cite(first, at.get(first).source));
  }

  // 4. Hypervisor plugins per tag (default build), all unknown [hypervisor.<name>] tables fatal.
  const names = runs((t) => {
    const hv = rs.tags[t].hypervisors;
    const on = hv.filter((h) => h.inDefaultBuild).map((h) => h.name).sort();
    const off = hv.filter((h) => !h.inDefaultBuild);
    return { id: JSON.stringify([on, off.map((h) => h.name), rs.tags[t].unknownHypervisorFatal]), names: on, off, fatal: rs.tags[t].unknownHypervisorFatal, src: hv.map((h) => `${h.name} ${h.source}`).join(', ') };
  });
  ctx.hypervisorNames.splice(0, ctx.hypervisorNames.length, ...ctx.hypervisorNames.filter((h) => h.flavour !== 'runtime-rs'),
    ...names.map((x) => ({
      flavour: 'runtime-rs', from: x.from, to: x.to, names: x.names,
      source: cite(x.from, `plugin registration: ${x.src}; ${rs.tags[x.from].unknownHypervisorEvidence.sources.join(', ')}`),
      unknownIsFatal: x.fatal,
      note: 'Registered plugins of the default build (src/runtime-rs/Makefile defaults, x86_64/aarch64). Every [hypervisor.<name>] table left after the drop-in merge must name one, selected or not: adjust_config fails the load with "Can not find plugin for hypervisor <name>".'
        + (x.off.length ? ` Registered only behind a non-default cargo feature: ${x.off.map((h) => `${h.name} (${(h.cargoFeatures ?? []).join(', ')})`).join('; ')}.` : ''),
    })));
  // [hypervisor.<name>] section rows: accepted where the plugin is registered in the default build
  const everNames = new Set(tags.flatMap((t) => rs.tags[t].hypervisors.filter((h) => h.inDefaultBuild).map((h) => h.name)));
  for (const name of everNames) {
    const present = new Set(tags.filter((t) => rs.tags[t].hypervisors.some((h) => h.inDefaultBuild && h.name === name)));
    let sec = sectionByName.get(`hypervisor.${name}`);
    if (!sec) {
      sec = { name: `hypervisor.${name}`, kind: 'table', flavours: {}, templates: {}, doc: null, docRelease: null, sources: [], note: null };
      sections.push(sec);
      sectionByName.set(sec.name, sec);
    }
    sec.flavours['runtime-rs'] = spanOf(present);
    const first = [...present][0];
    sec.sources.push(cite(first, rs.tags[first].hypervisors.find((h) => h.name === name).source));
  }
  const fatalFrom = tags.find((t) => rs.tags[t].unknownHypervisorFatal);
  if (tags.some((t) => ix.get(t) > ix.get(fatalFrom) && !rs.tags[t].unknownHypervisorFatal)) fail('unknownHypervisorFatal is not monotonic');
  ctx.fatal.unknownHypervisorSection['runtime-rs'] = fatalFrom;
  ctx.fatal.unknownHypervisorSection.note = 'Go before 3.2.0: an unknown hypervisor table is silently skipped. runtime-rs: every unknown [hypervisor.<name>] is fatal in every tag ("Can not find plugin for hypervisor"), see hypervisorNames.';
  ctx.fatal.unknownHypervisorSection.source = `skew-facts.md #10; ${RS_KEYS} tags[*].unknownHypervisorFatal`;

  // 5. deny_unknown_fields tables.
  const strict = runs((t) => {
    const tbls = rs.tags[t].denyUnknownFields.flatMap((d) => d.tomlTables).map((p) => mapPath(p + '.x').section).sort();
    return tbls.length ? { id: JSON.stringify(tbls), tables: tbls, src: rs.tags[t].denyUnknownFields.map((d) => `${d.struct} ${d.source}`).join(', ') } : undefined;
  });
  if (strict.length !== 1 || strict[0].to !== null) fail('deny_unknown_fields: expected one open range');
  ctx.fatal.denyUnknownFields['runtime-rs'] = {
    from: strict[0].from,
    sections: strict[0].tables,
    schemaTables: strict[0].tables,
    ignoredIn: rs.tags[NEWEST].unknownKeysSilentlyIgnoredIn,
    source: cite(strict[0].from, strict[0].src),
    note: 'From this tag an unknown key in these tables fails the load; [hypervisor.<name>], [runtime] and the top level ignore unknown keys in every tag (serde flatten cannot deny them).',
  };
  ctx.fatal.unknownKeys['runtime-rs'] = `ignored, except in the denyUnknownFields tables from ${strict[0].from}`;
  ctx.fatal.unknownKeys.source = `skew-facts.md #8; ${RS_KEYS} tags[*].denyUnknownFields / unknownKeysSilentlyIgnoredIn`;

  // 6. validate() at load, drop-ins.
  const vFrom = tags.find((t) => rs.tags[t].validateCalledAtLoad);
  ctx.fatal.validateAtLoad = {
    'runtime-rs': vFrom,
    source: cite(tags[0], rs.tags[tags[0]].validateEvidence.source) + '; ' + cite(vFrom, rs.tags[vFrom].validateEvidence.source),
    note: `runtime-rs before ${vFrom} loads with adjust_config only: checks of TomlConfig::validate() (allow-lists, minimums) do not stop it there.`,
  };
  const dFrom = tags.find((t) => rs.tags[t].dropIns);
  if (tags.some((t) => ix.get(t) > ix.get(dFrom) && !rs.tags[t].dropIns)) fail('dropIns not monotonic');
  ctx.dropIns['runtime-rs'] = { from: dFrom, dir: 'config.d', unknownKeys: 'as in the main file', source: cite(dFrom, rs.tags[dFrom].dropInsEvidence.sources.join(', ')) };
  ctx.dropIns.note = 'Go runtimes < 2.5.0 ignore config.d entirely; runtime-rs merges config.d from its first release.';

  return { tags: tags.length, keys: byRow.size, created, matched, tables: tables.size - 1 };
}

export const GUIDE = 'go-to-runtime-rs.json';

/**
 * The upstream migration guide's mappings (docs/migrating-config-go-runtime-to-runtime-rs.md at 4.1.0, restated in
 * go-to-runtime-rs.json) as data/kata/config.json `migration`, each concrete key resolved to the data's rows and
 * checked there at the guide's tag: `check.go` / `check.runtimeRs` say whether that tag's parser reads the key.
 * The guide's own errors stay visible (codeDiscrepancy, goValuesInCode, docValuesNote). Start of issue 17 item 2:
 * no rule reads it yet.
 */
export function migrationGuide({ refDir, options, sections, hypervisorNames, releases, fail }) {
  const g = JSON.parse(fs.readFileSync(path.join(refDir, GUIDE), 'utf8'));
  const tag = g.source.tag;
  const ix = new Map(releases.map((r, i) => [r, i]));
  if (!ix.has(tag)) fail(`${GUIDE}: tag ${tag} unknown`);
  const covers = (s, r) => !!s && ix.get(r) >= ix.get(s.first) && (s.last === null || ix.get(r) <= ix.get(s.last)) && !(s.missingIn ?? []).includes(r);
  /** "hypervisor.qemu.x" → rows of [hypervisor.*] x; "agent.kata.mem_agent.x" → [agent.kata.mem_agent] x. */
  const resolve = (dotted) => {
    if (!dotted || dotted.startsWith('annotation:') || dotted.includes('*')) return null;
    const parts = dotted.split('.');
    const key = parts.pop();
    const section = parts[0] === 'hypervisor' && parts.length >= 2 ? ['hypervisor', '*', ...parts.slice(2)].join('.') : parts.join('.');
    const concrete = parts.join('.');
    const tableName = section ? `${section}.${key}` : key;
    const table = sections.find((x) => x.name === tableName || x.name === dotted);
    if (table) return { table: true, read: (f) => covers(table.flavours[f], tag) };
    const rows = options.filter((o) => (o.section === section || o.section === concrete) && o.key === key);
    return { section: concrete, key, read: (f) => rows.some((o) => covers(o.flavours[f], tag)) };
  };
  const list = (x) => (x === null || x === undefined ? [] : Array.isArray(x) ? x : [x]);
  return {
    source: { file: `shared/reference/kata/${GUIDE}`, repo: g.source.repo, doc: g.source.doc, tag, commit: g.source.commit, tagsHavingDoc: g.source.tagsHavingDoc, scope: g.source.scope },
    mappings: g.mappings.map((m, i) => {
      const check = {};
      for (const k of list(m.goKey)) { const r = resolve(k); if (r) check[k] = { ...(r.table ? { table: true } : {}), go: r.read('go'), runtimeRs: r.read('runtime-rs') }; }
      for (const k of list(m.runtimeRsKey)) { const r = resolve(k); if (r) check[k] = { ...(r.table ? { table: true } : {}), go: r.read('go'), runtimeRs: r.read('runtime-rs') }; }
      for (const [from, to] of Object.entries(m.subKeys ?? {})) for (const k of [from, to]) { const r = resolve(k); if (r) check[k] = { ...(r.table ? { table: true } : {}), go: r.read('go'), runtimeRs: r.read('runtime-rs') }; }
      const guideErrors = [m.codeDiscrepancy, m.goValuesInCode?.note, m.docValuesNote].filter(Boolean);
      return {
        category: m.category, change: m.change, go: m.goKey, runtimeRs: m.runtimeRsKey ?? null,
        ...(m.subKeys ? { subKeys: m.subKeys } : {}),
        fact: m.fact,
        ...(m.codeNote ? { codeNote: m.codeNote } : {}),
        ...(guideErrors.length ? { guideErrors } : {}),
        ...(m.goValuesInCode ? { goValuesInCode: m.goValuesInCode } : {}),
        ...(m.runtimeRsValueHistory ? { runtimeRsValueHistory: m.runtimeRsValueHistory } : {}),
        [`readAt${tag.replace(/\./g, '_')}`]: check,
        source: `${GUIDE} mappings[${i}] (${g.source.doc} at kata-containers ${tag} ${g.source.commit.slice(0, 10)})`,
      };
    }),
  };
}
