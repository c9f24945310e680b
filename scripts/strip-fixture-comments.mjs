#!/usr/bin/env node
// Strips comments from the upstream copies under test/fixtures (the project's guide: an upstream file copied into
// the repo keeps only its data — keys, values and structure, with its source cited — never its comments or prose).
//
//   node scripts/strip-fixture-comments.mjs            strip every upstream copy listed in test/fixtures/SOURCES.md
//   node scripts/strip-fixture-comments.mjs --check    only report the listed files that still hold a comment (exit 1)
//   node scripts/strip-fixture-comments.mjs FILE...    strip the named files (.toml, .yaml/.yml; .json has no comments)
//
// What goes: full-line comments (the whole line, its line break included), trailing comments (with the blanks
// before them), and runs of blank lines (outside scalars a run is cut to one blank line; blank lines at the start
// and at the end of the file go). Everything else stays byte for byte: line breaks (LF or CRLF, per line), a BOM,
// indentation, quoting, key order. `#` inside strings (TOML basic/literal/multi-line strings; YAML quoted, plain
// and block scalars) is data and is kept: comments are found by real tokenizers (toml-eslint-parser's comment list,
// the `yaml` package's lexer), not by a regular expression. Every stripped file is parsed before and after and must
// give the same data (TOML: getStaticTOMLValue; YAML: every document's toJS() and its error list), or nothing is
// written and the script fails. Helm templates (`{{ … }}`) and JSON are refused/skipped: no upstream copy needs them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Lexer, parseAllDocuments } from 'yaml';
import { parseTOML, getStaticTOMLValue } from 'toml-eslint-parser';
import picomatch from 'picomatch';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const FIXTURES = path.join(repoRoot, 'test', 'fixtures');

const BOM = '\uFEFF';

/** Comment ranges [start, end) of a TOML text (offsets into `text`, no BOM), and the ranges comments may not touch. */
function tomlComments(text) {
  const ast = parseTOML(text);
  return {
    comments: ast.comments.map((c) => c.range),
    scalars: ast.tokens.filter((t) => /String/.test(t.type)).map((t) => t.range),
  };
}

/** Comment ranges of a YAML text from the `yaml` lexer: a `#` token is a comment unless it is scalar source. */
function yamlComments(text) {
  const comments = [];
  const scalars = [];
  const MARKERS = new Set(['\x02', '\x18', '\x1f']); // document, flow-error and scalar markers: not source text
  let offset = 0;
  let prev = '';
  for (const tok of new Lexer().lex(text)) {
    if (MARKERS.has(tok)) { prev = tok; continue; }
    if (prev === '\x1f' || tok[0] === '"' || tok[0] === "'") scalars.push([offset, offset + tok.length]);
    else if (tok[0] === '#') comments.push([offset, offset + tok.length]);
    offset += tok.length;
    prev = tok;
  }
  if (offset !== text.length) throw new Error('the YAML lexer did not cover the text');
  return { comments, scalars };
}

/**
 * Removes the comments and blank runs of `text` (without BOM). `found` gives comment ranges and scalar ranges.
 * Returns the new text and, for every old 1-based line, its new line number (null when the line went).
 */
function strip(text, { comments, scalars }) {
  // Lines with their break: [start, contentEnd, end).
  const lines = [];
  for (let i = 0; i < text.length || lines.length === 0;) {
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl + 1;
    const contentEnd = nl < 0 ? text.length : (nl > i && text[nl - 1] === '\r' ? nl - 1 : nl);
    lines.push({ start: i, contentEnd, end, cut: null, drop: false });
    if (nl < 0) break;
    i = end;
  }
  const lineAt = (off) => {
    let lo = 0; let hi = lines.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lines[mid].start <= off) lo = mid; else hi = mid - 1; }
    return lo;
  };
  for (const [s, e] of comments) {
    const l = lines[lineAt(s)];
    if (e !== l.contentEnd) throw new Error(`a comment at offset ${s} does not end its line`);
    let ws = s;
    while (ws > l.start && (text[ws - 1] === ' ' || text[ws - 1] === '\t')) ws--;
    if (ws === l.start) l.drop = true;
    else l.cut = ws;
  }
  // A blank line inside a scalar (multi-line string, block scalar, folded plain scalar) is data.
  const inScalar = new Set();
  for (const [s, e] of scalars) {
    for (let i = lineAt(s) + 1; i <= lineAt(Math.max(s, e - 1)); i++) inScalar.add(i);
  }
  const blank = (i) => !lines[i].drop && lines[i].cut === null && /^[ \t]*$/.test(text.slice(lines[i].start, lines[i].contentEnd)) && !inScalar.has(i);
  const kept = lines.map((l, i) => (l.drop ? false : blank(i) ? 'blank' : true));
  // Cut blank runs to one; drop blank lines at the start and the end.
  let seenData = false;
  for (let i = 0; i < kept.length; i++) {
    if (kept[i] === true) { seenData = true; continue; }
    if (kept[i] !== 'blank') continue;
    let j = i + 1;
    while (j < kept.length && kept[j] !== true) j++;
    const keepOne = seenData && j < kept.length;
    let first = true;
    for (let k = i; k < j; k++) {
      if (kept[k] !== 'blank') continue;
      kept[k] = keepOne && first ? true : false;
      first = false;
    }
    i = j - 1;
  }
  let out = '';
  const lineMap = [];
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!kept[i]) { lineMap.push(null); continue; }
    lineMap.push(++n);
    out += l.cut === null ? text.slice(l.start, l.end) : text.slice(l.start, l.cut) + text.slice(l.contentEnd, l.end);
  }
  // The last kept line keeps a line break when the file had one at its end.
  const lastKept = kept.lastIndexOf(true);
  if (lastKept >= 0 && lines[lastKept].end === lines[lastKept].contentEnd && /\r?\n$/.test(text)) out += /\r\n$/.test(text) ? '\r\n' : '\n';
  return { text: out, lineMap };
}

function yamlData(text) {
  return parseAllDocuments(text, { version: '1.1' }).map((d) => ({ errors: d.errors.map((e) => e.code), data: d.errors.length ? null : d.toJS() }));
}

/** The kind of comment syntax of a fixture file, by its name; undefined when it has none (JSON) or is not handled. */
export function kindOf(file) {
  if (/\.toml$/.test(file)) return 'toml';
  if (/\.helm\.ya?ml$/.test(file)) return 'helm';
  if (/\.ya?ml$/.test(file)) return 'yaml';
  if (/\.json$/.test(file)) return 'json';
  return undefined;
}

/**
 * Strips `raw` (the whole file, BOM included) as `kind`. Returns { text, lineMap, comments }; throws when the data
 * would change or the file cannot be tokenized.
 */
export function stripComments(raw, kind) {
  const bom = raw.startsWith(BOM) ? BOM : '';
  const text = raw.slice(bom.length);
  if (kind === 'json') return { text: raw, lineMap: raw.split('\n').map((_, i) => i + 1), comments: 0 };
  if (kind === 'helm') {
    if (/\{\{-?\s*\/\*/.test(text) || /^\s*#/m.test(text)) throw new Error('comments in a Helm template: not handled (no upstream copy needs it yet)');
    return { text: raw, lineMap: raw.split('\n').map((_, i) => i + 1), comments: 0 };
  }
  const found = kind === 'toml' ? tomlComments(text) : kind === 'yaml' ? yamlComments(text) : undefined;
  if (!found) throw new Error(`no comment syntax known for kind ${kind}`);
  const r = strip(text, found);
  const before = kind === 'toml' ? getStaticTOMLValue(parseTOML(text)) : yamlData(text);
  const after = kind === 'toml' ? getStaticTOMLValue(parseTOML(r.text)) : yamlData(r.text);
  if (!isDeepStrictEqual(before, after)) throw new Error('stripping would change the data');
  const again = kind === 'toml' ? tomlComments(r.text) : yamlComments(r.text);
  if (again.comments.length) throw new Error('comments left after stripping');
  return { text: bom + r.text, lineMap: r.lineMap, comments: found.comments.length };
}

/** Every file of the upstream copies listed in test/fixtures/SOURCES.md ("## Upstream copies" list of globs). */
export function upstreamCopies() {
  const md = fs.readFileSync(path.join(FIXTURES, 'SOURCES.md'), 'utf8');
  const section = /^## Upstream copies\b[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(md);
  if (!section) throw new Error('test/fixtures/SOURCES.md has no "## Upstream copies" section');
  const globs = [...section[1].matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
  const out = [];
  for (const g of globs) {
    const isMatch = picomatch(g);
    const matched = walk(FIXTURES).filter((f) => isMatch(f));
    if (!matched.length) throw new Error(`${g}: no fixture matches`);
    out.push(...matched);
  }
  return { globs, files: [...new Set(out)].sort() };
}

function walk(dir, rel = '') {
  const out = [];
  for (const ent of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${ent.name}` : ent.name;
    if (ent.isDirectory()) out.push(...walk(dir, r));
    else out.push(r);
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const named = args.filter((a) => a !== '--check');
  const files = named.length ? named.map((f) => path.resolve(f)) : upstreamCopies().files.map((f) => path.join(FIXTURES, f));
  let failed = 0;
  let changed = 0;
  for (const abs of files) {
    const rel = path.relative(repoRoot, abs);
    const kind = kindOf(abs);
    if (!kind) { console.error(`${rel}: not a .toml/.yaml/.yml/.json file`); failed++; continue; }
    const raw = fs.readFileSync(abs, 'utf8');
    let r;
    try { r = stripComments(raw, kind); } catch (err) { console.error(`${rel}: ${err.message}`); failed++; continue; }
    if (r.text === raw) continue;
    changed++;
    if (check) { console.error(`${rel}: ${r.comments} comment(s)`); failed++; continue; }
    fs.writeFileSync(abs, r.text);
    console.log(`${rel}: ${r.comments} comment(s) removed, ${raw.split('\n').length - r.text.split('\n').length} line(s) fewer`);
  }
  console.log(`${files.length} file(s), ${changed} ${check ? 'with comments' : 'stripped'}`);
  process.exit(failed ? 1 : 0);
}
