// Fast path for the common YAML subset: builds the plain JS value and the node ranges of one document chunk
// straight from the text, without the `yaml` package's Lexer/Parser/Composer pipeline (about 10x js-yaml
// on big manifest files; this is about 1x).
//
// The contract is strict: for every chunk it accepts, the result is exactly what the full parse gives —
// `parseDocument(text, {version: '1.1', uniqueKeys: true}).toJS()` for the value, and the yaml package's
// range[0..2] for every key and value node — and that parse reports no error. Anything it is not sure
// about makes it give up (return null), and the caller runs the full parse: tabs but in block and quoted scalars and as
// trailing white space, a CR not before a LF (CRLF is read), a BOM but at the start, anchors and aliases other than
// those below, tags, directives, `...`, explicit (`?`) and multi-line keys, merge keys, duplicate keys, multi-line
// scalars inside flow collections (a flow collection over several lines is read, with its comments), `- - x`, block
// scalars on their own line, root scalars and root flow collections, and everything the full parse would call an error.
// test/yaml-fast.test.mjs compares the two on the fixtures, the bench corpus, tricky snippets and random documents;
// fastParseWhy() says where a chunk gave up.
//
// Anchors and aliases in block context are read (issue #29: 3% of real documents, which took a quarter of the parse
// time in the full parse): `&name` before a value of a mapping entry or a sequence item (a scalar or flow collection
// on the same line, or a block collection on the lines after it), and `*name` as such a value. An alias's value is
// its anchor's (the same object, as toJS() gives it). The fast path gives up on an anchor with an empty value or
// before an implicit key, on any anchor or alias in a flow collection or as a key, on an alias inside an anchored node
// (a cycle, "anchor value contains itself", or a nested expansion the full parse counts against its alias limit),
// on an alias whose anchor is not set before it, and past 1,000 aliases of one anchor (the full parse's maxAliasCount).
//
// Scalars resolve through the yaml package's own YAML 1.1 schema tags (same tests, same resolvers, same
// order), so `yes`/`on`/`0x1F`/`1:20`/`.inf`/timestamps come out as in the full parse. The folding
// functions at the end are copies of the yaml package's (2.x, ISC licence): compose/resolve-flow-scalar.js
// and compose/resolve-block-scalar.js, with errors turned into giving up.
//
// How the yaml package ends ranges (mirrored in attach(), close(), emptyEnd2()): a block collection's
// range[1] is its last item's range[2]. A flow scalar's or flow collection's range[2] runs to the end of
// its line and takes in the comment lines right after it that are indented deeper than its collection
// (blank lines between included). A block scalar ends with its source. An empty value ends where its
// `:`/`-` and spaces end; its range[2] runs on to the next content when a comment comes first. The other
// trailing comment/blank lines (plus the next content line's indentation) stay in the innermost closing
// collection whose indent is neither 0 nor above the deepest of those comments, as its range[2]; else
// they go up to the enclosing one.
import { keepShape } from '../keep-shapes';
import { parseDocument, isScalar, type Document } from 'yaml';

/**
 * A collection of the range tree; offsets are chunk-relative and `s`/`e`/`e2` are the yaml package's
 * range[0..2]. Per item, `r` holds (maps) the key's start and end, then the value's start, end and
 * range[2]; (sequences) the value's start, end and range[2]. A value whose start equals its end is an
 * empty (null) scalar; a value start of -1 means no value node at all (`{a}`). `kids` holds the
 * collections among the values, at their item index.
 */
export interface FastColl {
  t: 1 | 2; // 1 mapping, 2 sequence
  flow: boolean;
  s: number;
  e: number;
  e2: number;
  keys: string[];
  r: number[];
  kids: Array<FastColl | undefined> | null;
}
export const MAP_STRIDE = 5;
/**
 * Deepest nesting of collections that YAML documents may have (parse/yaml.ts reports deeper ones). The fast path
 * recurses once per level, so it gives up past this depth and the full parse reports it.
 */
export const MAX_DEPTH = 300;
export const SEQ_STRIDE = 3;

export interface FastResult {
  value: unknown;
  /** The root collection; null for an empty document. */
  root: FastColl | null;
  /** range[0..2] of the root node when it is an empty scalar (a document of just `---`); else null. */
  emptyRoot: [number, number, number] | null;
  /** Offset of the `---` marker, or -1. */
  docStart: number;
  /** Start of the document (its `---`, or the line of its first content). */
  docOffset: number;
  /** Whether the document's last value is empty (then the text after it is that value's, not the document's). */
  emptyLast: boolean;
  /** The anchors of the document: the start offset of the anchored value → its name (fast-ast.ts sets `anchor`); null when none. */
  anchors: Map<number, string> | null;
}

/** Thrown to give up on a chunk; never escapes fastParse. */
const GIVE_UP = { giveUp: true };
function giveUp(): never {
  if (debugGiveUp) throw new Error('give up');
  throw GIVE_UP;
}
let debugGiveUp = false;

/** Why the fast path gives up on a chunk (the stack of the give-up), or null if it does not: for tests and debugging. */
export function fastParseWhy(src: string): string | null {
  const p = prepared(src);
  if (typeof p === 'string') return p;
  debugGiveUp = true;
  try {
    return readPrepared(src, p) ? null : 'a tab outside the content of a block or quoted scalar, and not trailing white space';
  } catch (e) {
    return (e as Error).stack ?? String(e);
  } finally {
    debugGiveUp = false;
  }
}

interface ScalarTag { default?: boolean | 'key'; test?: RegExp; resolve: (...a: any[]) => unknown }
let schemaTags: ScalarTag[] | null = null;
let schemaOptions: unknown;
let schemaOk = true;

function initSchema(): void {
  const doc = parseDocument('', { version: '1.1', uniqueKeys: true }) as Document.Parsed;
  const schema = doc.schema as unknown as { tags: ScalarTag[]; compat?: unknown };
  schemaTags = schema.tags.filter((t) => t.default === true && t.test);
  schemaOptions = doc.options;
  // Letter-initial texts some tag matches: the YAML 1.1 null and bool words, in whichever letter cases
  // the tags' patterns accept (every case variant is tried).
  TYPED_WORDS.clear();
  for (const w of ['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n']) {
    for (let m = 0; m < 1 << w.length; m++) {
      const v = [...w].map((ch, i) => (m & (1 << i) ? ch.toUpperCase() : ch)).join('');
      if (schemaTags.some((t) => t.test!.test(v))) TYPED_WORDS.add(v);
    }
  }
  // The fast path relies on this shape; if a yaml upgrade changes it, always take the full parse.
  schemaOk = !schema.compat && schemaTags.length > 0;
  // What the tags make of their texts (a float is a Scalar with its digits counted), kept alive between files
  // (keep-shapes.ts): resolvePlain's optimised code refers to those objects' hidden classes.
  for (const sample of ['1.5', '1.50', '1e3', '.inf', '.nan', '0x1F', '0o17', '1_000', '190:20:30', '2001-12-14']) {
    for (const tag of schemaTags) {
      if (!tag.test!.test(sample)) continue;
      try { const r = tag.resolve(sample, () => undefined, schemaOptions); if (r !== null && typeof r === 'object') keepShape(r); } catch { /* not this tag's */ }
      break;
    }
  }
}

// First characters a plain scalar can have and still resolve to something other than a string in the
// YAML 1.1 schema: ~ null, [nNyYtTfFoO] null/bool words (TYPED_WORDS), digits, sign and dot for
// numbers, .inf/.nan and timestamps, < for the merge key.
const MAYBE_TYPED = new Uint8Array(128);
for (const c of '~nNyYtTfFoO0123456789+-.<') MAYBE_TYPED[c.charCodeAt(0)] = 1;

const TYPED_WORDS = new Set<string>();

/** Resolves a plain scalar's text as the yaml package's 1.1 schema does, then as toJS() converts it. */
function resolvePlain(str: string): unknown {
  const c = str.charCodeAt(0);
  if (str.length === 0) return null;
  if (c >= 128 || !MAYBE_TYPED[c]) return str;
  if (c >= 65 && c <= 122 && !TYPED_WORDS.has(str)) return str; // letters: only the null/bool words resolve
  for (const tag of schemaTags!) {
    if (tag.test!.test(str)) {
      let res: unknown;
      try {
        res = tag.resolve(str, giveUp, schemaOptions);
      } catch {
        giveUp();
      }
      const v = isScalar(res) ? res.value : res;
      if (typeof v === 'bigint' || typeof v === 'symbol') giveUp();
      return v; // a timestamp stays a Date, as in toJS(); keyAt() gives up on non-string-like keys
    }
  }
  return str;
}

/**
 * The 1.1 schema tag a plain scalar's text resolves by (for building its node, fast-ast.ts), or null for
 * a string. `resolve` returns what the tag's resolver returns (a value or a Scalar).
 */
export function plainTag(str: string): { resolve: (s: string) => unknown; format?: string } | null {
  if (schemaTags === null) initSchema();
  const c = str.charCodeAt(0);
  if (str.length > 0 && (c >= 128 || !MAYBE_TYPED[c] || (c >= 65 && c <= 122 && !TYPED_WORDS.has(str)))) return null;
  const tag = schemaTags!.find((t) => t.test!.test(str));
  if (!tag) return null;
  return { resolve: (s) => tag.resolve(s, () => undefined, schemaOptions), format: (tag as { format?: string }).format };
}

/** A plain scalar's value text: its source with line folding applied. */
export function unfold(source: string): string {
  return source.indexOf('\n') < 0 ? source : unfoldLines(withoutCrs(source));
}

/** A scalar's source with CRLF line breaks made LF (its value is the same: prepared()). */
function withoutCrs(source: string): string {
  return source.indexOf('\r') < 0 ? source : source.replace(/\r\n/g, '\n');
}

/** The string of the quoted scalar src[s..e) (quotes included). */
export function quotedText(src: string, s: number, e: number): string {
  const source = withoutCrs(src.slice(s, e));
  return src.charCodeAt(s) === 39 ? singleQuotedValue(source) : doubleQuotedValue(source);
}

function isWs(c: number): boolean { return c === 32 || c === 10 || c !== c /* NaN: end of text */; }
/** `,[]{}` */
function isFlowInd(c: number): boolean { return c === 44 || c === 91 || c === 93 || c === 123 || c === 125; }
/** Characters a value or key may not start with in the fast path (indicators, or errors). */
const BAD_START = new Uint8Array(128);
for (const c of ',[]{}#&*!|>\'"%@`') BAD_START[c.charCodeAt(0)] = 1;

/** What the fast parser reads of a chunk (prepared()). */
interface Prepared {
  /** The chunk without its BOM and CRs, its trailing tabs made spaces. */
  read: string;
  /** 1 when a BOM was taken out; the offsets in the chunk of the CRs taken out (each before a LF), or null. */
  bom: number;
  crs: number[] | null;
  /** Whether the chunk has tabs, and those made spaces (trailingTabs()). */
  tabs: boolean;
  trailing: number[];
}

/**
 * The text the fast parser reads for a chunk, or why the full parse must read it instead. A BOM at the start (a file
 * saved by some Windows editors) and CRLF line breaks (files written on Windows, whole or line by line) are taken out,
 * which gives YAML the same values: every offset is moved back past them after the reading (moved()). Such documents
 * took the full parse, at about ten times the time. Each exclusion is one scan of the chunk.
 */
function prepared(src: string): Prepared | string {
  if (schemaTags === null) initSchema();
  if (!schemaOk) return 'an unexpected yaml schema';
  if (src.indexOf('\uFEFF', 1) >= 0) return 'a BOM past the start';
  const firstCr = src.indexOf('\r');
  let crs: number[] | null = null;
  if (firstCr >= 0) {
    crs = [];
    for (let i = firstCr; i >= 0; i = src.indexOf('\r', i + 1)) {
      if (src.charCodeAt(i + 1) !== 10) return 'a CR not before a LF';
      crs.push(i);
    }
  }
  const bom = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let read = bom ? src.slice(1) : src;
  if (firstCr >= 0) read = withoutCrs(read);
  // The full parse reads a line starting with a BOM and then a `-` or a space otherwise (a root sequence there is an
  // error to it): the fast path leaves those to it.
  if (bom && (read.charCodeAt(0) === 45 || read.charCodeAt(0) === 32)) return 'a BOM before a `-` or a space';
  const tabs = read.indexOf('\t') >= 0;
  const spaced = tabs ? trailingTabs(read) : null;
  return { read: spaced?.text ?? read, bom, crs, tabs, trailing: spaced?.at ?? [] };
}

/** The fast result of a prepared chunk in `src`'s offsets, or null when a tab is where the fast path cannot read it. */
function readPrepared(src: string, p: Prepared): FastResult | null {
  const parser = new FastParser(p.read);
  let fast: FastResult;
  try { fast = parser.parseDocument(); } finally { parser.release(); }
  if (p.tabs && !tabsInScalars(p.read, fast, p.trailing)) return null;
  return p.bom || p.crs ? moved(fast, p.read.length, p.bom, p.crs ?? []) : fast;
}

/** The value and range tree of a document chunk, or null if the full parse has to read it. */
export function fastParse(src: string): FastResult | null {
  const p = prepared(src);
  if (typeof p === 'string') return null;
  try {
    return readPrepared(src, p);
  } catch {
    // GIVE_UP, or a bug in the fast path, which must not break analysis: the full parse is always right.
    return null;
  }
}

/** moved()'s table of how far each offset moves, kept between calls (up to a chunk of a million characters). */
let shiftScratch = new Int32Array(4096);
const SCRATCH_MAX = 1 << 20;

/**
 * A fast result of a chunk read without its BOM (`bom`: 1) and its CRs (`crs`: their offsets in the chunk, every one
 * before a LF), `readLength` the length of the text read, its offsets made the chunk's: an offset moves by the BOM and
 * by the CRs before it, that is by the line breaks before it in the text read (an offset at a line break, as a value's
 * end, stays before the CR: the content ends there). The move of every offset is looked up in a table made once per
 * chunk (a binary search per offset took a fifth of a CRLF file's parse).
 */
function moved(fast: FastResult, readLength: number, bom: number, crs: readonly number[]): FastResult {
  const size = readLength + 1;
  let shift: Int32Array;
  if (size <= shiftScratch.length) shift = shiftScratch;
  else if (size <= SCRATCH_MAX) shift = shiftScratch = new Int32Array(Math.min(SCRATCH_MAX, Math.max(size, shiftScratch.length * 2)));
  else shift = new Int32Array(size);
  // shift[o]: the BOM and the CRs before offset o of the text read. The k-th CR was before the LF at crs[k] - k - bom
  // there; the offsets after that LF move by one more.
  let from = 0;
  for (let k = 0; k < crs.length; k++) {
    const lf = crs[k] - k - bom;
    shift.fill(bom + k, from, lf + 1);
    from = lf + 1;
  }
  shift.fill(bom + crs.length, from, size);
  const all = bom + crs.length;
  const at = (off: number): number => (off < 0 ? off : off < size ? off + shift[off] : off + all);
  const move = (c: FastColl): void => {
    c.s = at(c.s); c.e = at(c.e); c.e2 = at(c.e2);
    const r = c.r;
    for (let i = 0; i < r.length; i++) r[i] = at(r[i]);
    if (c.kids) for (const k of c.kids) if (k) move(k);
  };
  if (fast.root) move(fast.root);
  if (fast.emptyRoot) fast.emptyRoot = [at(fast.emptyRoot[0]), at(fast.emptyRoot[1]), at(fast.emptyRoot[2])];
  fast.docStart = at(fast.docStart);
  fast.docOffset = at(fast.docOffset);
  if (fast.anchors) fast.anchors = new Map([...fast.anchors].map(([off, name]) => [at(off), name]));
  return fast;
}

/**
 * Whether every tab of `src` is content of a block scalar (after its header line) or of a quoted scalar, values of the
 * fast result: there a tab is a character like another, which the scalar's reading (the yaml package's, copied below)
 * takes as the full parse does. Anywhere else (indentation, separation, a plain scalar, a comment, a key) the fast path
 * would read it as it reads a space, so it gives up (a ConfigMap holding a Makefile or a script indented with tabs
 * took the full parse for its whole document).
 */
function tabsInScalars(src: string, fast: FastResult, trailing: readonly number[]): boolean {
  const spans: number[] = []; // [start, end) of each scalar whose content may hold tabs
  const visit = (c: FastColl): void => {
    const stride = c.t === 1 ? MAP_STRIDE : SEQ_STRIDE, first = c.t === 1 ? 2 : 0;
    for (let o = 0, i = 0; o < c.r.length; o += stride, i++) {
      // (a collection's range starts at its first key or item, which may be quoted: not a scalar's)
      if (c.kids?.[i]) continue;
      const vs = c.r[o + first], ve = c.r[o + first + 1];
      if (vs < 0 || ve <= vs) continue;
      const ch = src.charCodeAt(vs);
      if (ch === 124 || ch === 62) { const h = src.indexOf('\n', vs); if (h >= 0 && h < ve) spans.push(h + 1, ve); }
      else if (ch === 34 || ch === 39) spans.push(vs + 1, ve - 1);
    }
    if (c.kids) for (const k of c.kids) if (k) visit(k);
  };
  if (!fast.root) return false;
  visit(fast.root);
  // The spans in text order (they do not overlap), walked once beside the tabs: each tab in the span at or after the
  // last one's (a scan of every span per tab was quadratic in a big document of both).
  const order = Array.from({ length: spans.length / 2 }, (_, k) => k).sort((a, b) => spans[2 * a] - spans[2 * b]);
  let k = 0;
  for (let t = src.indexOf('\t'); t >= 0; t = src.indexOf('\t', t + 1)) {
    while (k < order.length && spans[2 * order[k] + 1] <= t) k++;
    if (k === order.length || t < spans[2 * order[k]]) return false;
  }
  // The trailing tabs read as spaces (trailingTabs()) must be outside those scalars, where white space is no content.
  k = 0;
  for (const t of trailing) {
    while (k < order.length && spans[2 * order[k] + 1] <= t) k++;
    if (k < order.length && t >= spans[2 * order[k]]) return false;
  }
  return true;
}

/** The ranges and keys of the collections open while a document is read (FastParser's rt, kt), shared by the parses. */
const OPEN_R: number[] = [];
const OPEN_KEYS: string[] = [];
/**
 * Longer than this (8 MB of ranges: a mapping of 200,000 keys open), they are let go before the next parse. With a
 * bound of 65,536 every parse of a mapping of 40,000 keys grew them again from nothing, and it took 6.6 times as long
 * as one of 10,000 keys (test/linear-yaml).
 */
const SCRATCH_KEPT = 1 << 20;
/** Whether OPEN_KEYS[from, to) holds key. */
function keyAmong(from: number, to: number, key: string): boolean {
  for (let i = from; i < to; i++) if (OPEN_KEYS[i] === key) return true;
  return false;
}

/**
 * The text with each tab that is trailing white space made a space (same length, same offsets): a run of spaces and
 * tabs after something on its line and before the line's end or a comment (`name: web\t# c`, `- x\t`), where YAML
 * reads a tab as it reads a space. `at`: the tabs so made, in order; null when there are none. Whether each was
 * really outside a scalar's content is checked after the reading (tabsInScalars); tabs anywhere else are left.
 */
function trailingTabs(src: string): { text: string; at: number[] } | null {
  const at: number[] = [];
  const len = src.length;
  const ws = (c: number) => c === 32 || c === 9;
  for (let t = src.indexOf('\t'); t >= 0 && t < len;) {
    // The run of spaces and tabs around this tab, decided once (linear in the text however long the run).
    let a = t, b = t + 1;
    while (a > 0 && ws(src.charCodeAt(a - 1))) a--;
    while (b < len && ws(src.charCodeAt(b))) b++;
    const before = a > 0 ? src.charCodeAt(a - 1) : 10;
    const after = b < len ? src.charCodeAt(b) : 10;
    if (before !== 10 && (after === 10 || after === 35)) for (let i = a; i < b; i++) if (src.charCodeAt(i) === 9) at.push(i);
    t = src.indexOf('\t', b);
  }
  if (!at.length) return null;
  let text = '', from = 0;
  for (const i of at) { text += `${src.slice(from, i)} `; from = i + 1; }
  return { text: text + src.slice(from), at };
}

class FastParser {
  private readonly len: number;
  /** Start of the current line (the next content line after trivia()). */
  private pos = 0;
  /** Indent of the next content line, or -1 at the end of the text. */
  private nj = -1;
  /** Offset of the next content line's first character, or the text length at the end. */
  private nq = 0;
  /** Comment lines seen by the last trivia(): column and end (after the newline). */
  private cc = 0;
  private readonly ccol: number[] = [];
  private readonly cend: number[] = [];
  /** Trailing trivia carried up to enclosing collections as they close: has comments, deepest column. */
  private carry = false;
  private carryMax = 0;
  /** The value parsed last: range[0..2], and the collection if it is one. */
  private vs = 0;
  private ve = 0;
  private v2 = 0;
  private kid: FastColl | undefined = undefined;
  /** Past the document start (a later `---` line makes the fast path give up). */
  private started = false;
  /** Whether the value parsed last was empty. */
  private emptyLast = false;
  /** Collections open (the recursion depth of parseMap/parseSeq/flowColl), at most MAX_DEPTH. */
  private depth = 0;
  /** Anchors set so far: name → the anchored value and its aliases so far (a later anchor of the same name wins, as in the full parse). */
  private anchorValues: Map<string, { value: unknown; aliases: number }> | null = null;
  /** Start offset of each anchored value → its anchor's name (FastResult.anchors). */
  private anchorAt: Map<number, string> | null = null;
  /** Anchored values being parsed (an alias inside one makes the fast path give up). */
  private openAnchors = 0;

  /**
   * The tops of OPEN_R and OPEN_KEYS: the ranges and keys of the collections open, innermost last. A collection's own
   * stretch is copied out when it closes, into arrays of their exact size: pushed one by one into arrays of its own,
   * each grew in steps and left its smaller copies behind (about a fifth of what a parse allocated).
   */
  private rt = 0;
  private kt = 0;

  constructor(private readonly s: string) {
    this.len = s.length;
    if (OPEN_R.length > SCRATCH_KEPT) { OPEN_R.length = 0; OPEN_KEYS.length = 0; }
  }

  /** The ranges pushed since `rb` (the closing collection's), taken off OPEN_R. */
  private takeRanges(rb: number): number[] {
    const r = OPEN_R.slice(rb, this.rt);
    this.rt = rb;
    return r;
  }

  /** The keys pushed since `kb` (the closing mapping's), taken off OPEN_KEYS. */
  private takeKeys(kb: number): string[] {
    const k = OPEN_KEYS.slice(kb, this.kt);
    this.kt = kb;
    return k;
  }

  /** A mapping entry's key, and its range (MAP_STRIDE numbers); a sequence item's range (SEQ_STRIDE numbers). */
  private pushKey(key: string): void {
    OPEN_KEYS[this.kt++] = key;
    if (this.kt > this.kUsed) this.kUsed = this.kt;
  }

  private pushPair(ks: number, ke: number, vs: number, ve: number, v2: number): void {
    const t = this.rt;
    OPEN_R[t] = ks; OPEN_R[t + 1] = ke; OPEN_R[t + 2] = vs; OPEN_R[t + 3] = ve; OPEN_R[t + 4] = v2;
    this.rt = t + 5;
  }

  private pushItem(vs: number, ve: number, v2: number): void {
    const t = this.rt;
    OPEN_R[t] = vs; OPEN_R[t + 1] = ve; OPEN_R[t + 2] = v2;
    this.rt = t + 3;
  }

  /** The slots of OPEN_KEYS this parse wrote (release()). */
  private kUsed = 0;

  /**
   * Lets go of the keys this parse left in OPEN_KEYS, done or given up: a key can be a slice of the document's text,
   * and a slot left holding one would keep that text alive after its file is closed.
   */
  release(): void {
    OPEN_KEYS.fill(undefined as unknown as string, 0, this.kUsed);
  }

  /** End of the line holding i: the offset of its '\n', or the text length. */
  private eol(i: number): number {
    const e = this.s.indexOf('\n', i);
    return e < 0 ? this.len : e;
  }

  /**
   * Skips blank and comment-only lines from this.pos (a line start); records the comments; leaves
   * this.pos/nj/nq at the next content line.
   */
  private trivia(): void {
    const s = this.s, len = this.len;
    let i = this.pos;
    this.cc = 0;
    while (i < len) {
      let j = i;
      while (s.charCodeAt(j) === 32) j++;
      if (j >= len) { i = len; break; }
      const ch = s.charCodeAt(j);
      if (ch === 10) { i = j + 1; continue; }
      if (ch === 35) {
        const e = this.eol(j);
        this.ccol[this.cc] = j - i;
        this.cend[this.cc] = e < len ? e + 1 : len;
        this.cc++;
        i = e + 1;
        continue;
      }
      this.pos = i; this.nj = j - i; this.nq = j;
      // `...` (document end) anywhere, `---` after the document's start: the full parse.
      if (j === i && (ch === 46 || (ch === 45 && this.started)) && (s.startsWith('...', j) || s.startsWith('---', j)) && isWs(s.charCodeAt(j + 3))) giveUp();
      return;
    }
    this.pos = len; this.nj = -1; this.nq = len;
  }

  /**
   * After a flow scalar or flow collection whose line ends at `lineEnd` (after the newline), as an item
   * of a collection at `indent`: comment lines deeper than `indent` right after it belong to its range[2];
   * the rest is carried. Returns its range[2].
   */
  private attach(lineEnd: number, indent: number): number {
    let end = lineEnd;
    let k = 0;
    while (k < this.cc && this.ccol[k] > indent) { end = this.cend[k]; k++; }
    this.setCarry(k);
    return end;
  }

  private setCarry(from: number): void {
    this.carry = from < this.cc;
    let m = -1;
    for (let k = from; k < this.cc; k++) if (this.ccol[k] > m) m = this.ccol[k];
    this.carryMax = m;
  }

  /** A collection at `indent` closes; `end1` is its last item's range[2]. Returns its range[2]. */
  private close(indent: number, end1: number): number {
    if (this.carry && indent !== 0 && this.carryMax >= indent) {
      this.carry = false;
      return this.nq;
    }
    return end1;
  }

  parseDocument(): FastResult {
    const s = this.s;
    this.trivia();
    this.started = true;
    let docStart = -1;
    let docOffset = this.pos;
    if (this.nj === 0 && s.startsWith('---', this.nq) && isWs(s.charCodeAt(this.nq + 3))) {
      docStart = docOffset = this.nq;
      let i = this.nq + 3;
      while (s.charCodeAt(i) === 32) i++;
      const ch = s.charCodeAt(i);
      if (!(ch === 10 || i >= this.len || ch === 35)) giveUp(); // content after ---
      const p = i;
      const e = this.eol(i);
      this.pos = e < this.len ? e + 1 : this.len;
      this.trivia();
      if (this.nj < 0) {
        // `---` and nothing else: a null scalar right after the marker and its spaces.
        const e2 = ch === 35 || this.cc > 0 ? this.len : p;
        return { value: null, root: null, emptyRoot: [p, p, e2], docStart, docOffset, emptyLast: true, anchors: null };
      }
    } else if (this.nj === 0 && s.charCodeAt(this.nq) === 37 /* % */) {
      giveUp();
    }
    if (this.nj < 0) return { value: null, root: null, emptyRoot: null, docStart, docOffset, emptyLast: false, anchors: null };
    if (this.nj !== 0) giveUp();
    this.carry = false;
    let value: unknown;
    if (this.isSeqLine(this.nq)) {
      value = this.parseSeq(0);
    } else {
      if (!this.keyAt(this.nq)) giveUp(); // root scalars and flow collections: full parse
      value = this.parseMap(0);
    }
    if (this.nj >= 0) giveUp(); // content after the root collection
    return { value, root: this.kid!, emptyRoot: null, docStart, docOffset, emptyLast: this.emptyLast, anchors: this.anchorAt };
  }

  private isSeqLine(q: number): boolean {
    return this.s.charCodeAt(q) === 45 && isWs(this.s.charCodeAt(q + 1));
  }

  // ------------------------------------------------------------------------------------------ keys

  private kStr = '';
  private kS = 0;
  private kE = 0;
  /** Offset of the `:` after the key found by keyAt(). */
  private kColon = 0;

  /**
   * Whether a block mapping key starts at q (a plain or quoted single-line key followed by `: ` or `:` at
   * the end of the line). Sets kStr/kS/kE/kColon. Gives up on keys it does not handle.
   */
  private keyAt(q: number): boolean {
    const s = this.s;
    const c0 = s.charCodeAt(q);
    if (c0 === 34 || c0 === 39) {
      const close = this.quoteEnd(q);
      const e = this.eol(q);
      if (close < 0 || close >= e) return false; // multi-line or unterminated: not a simple key
      let i = close + 1;
      while (s.charCodeAt(i) === 32) i++;
      if (s.charCodeAt(i) !== 58 || !isWs(s.charCodeAt(i + 1))) return false;
      if (i - q > 1000) giveUp(); // the yaml package's 1024-character implicit key limit
      this.kS = q; this.kE = close + 1; this.kColon = i;
      this.kStr = this.quotedValue(q, close + 1);
      if (this.kStr === '__proto__') giveUp();
      return true;
    }
    if (c0 < 128 && BAD_START[c0]) return false;
    if ((c0 === 45 || c0 === 63 || c0 === 58) && isWs(s.charCodeAt(q + 1))) return false;
    let i = q, end = q;
    for (;;) {
      const ch = s.charCodeAt(i);
      if (ch === 10 || ch !== ch) return false;
      if (ch === 58) {
        if (isWs(s.charCodeAt(i + 1))) break;
        end = i + 1;
      } else if (ch === 32) {
        if (s.charCodeAt(i + 1) === 35) return false;
      } else {
        end = i + 1;
      }
      i++;
    }
    this.kS = q; this.kE = end; this.kColon = i;
    const v = resolvePlain(s.slice(q, end));
    if (v === null || typeof v === 'object') giveUp();
    this.kStr = String(v);
    if (this.kStr === '<<' || this.kStr === '__proto__' || end - q > 1000) giveUp();
    return true;
  }

  // ------------------------------------------------------------------------------------------ block collections

  /** Parses a block mapping at `indent`; the first key starts at this.nq (keyAt() was called on it). */
  private parseMap(indent: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) giveUp(); // the full parse says it is too deep
    const s = this.s;
    const obj: Record<string, unknown> = {};
    const kb = this.kt, rb = this.rt;
    let kids: Array<FastColl | undefined> | null = null;
    const start = this.kS;
    let lastEnd2 = 0;
    for (let n = 0; ; n++) {
      // A key line at `indent`: keyAt() has been run for this.nq.
      const key = this.kStr;
      if (n < 12 ? keyAmong(kb, this.kt, key) : Object.prototype.hasOwnProperty.call(obj, key)) giveUp(); // duplicate or colliding key
      this.pushKey(key);
      const ks = this.kS, ke = this.kE;
      let v = this.kColon + 1;
      while (s.charCodeAt(v) === 32) v++;
      let ch = s.charCodeAt(v);
      let value: unknown;
      this.kid = undefined;
      const anchor = ch === 38 ? this.anchorName(v) : null;
      if (anchor !== null) { v = this.pendPos; ch = s.charCodeAt(v); this.openAnchors++; }
      if (ch === 10 || ch !== ch || ch === 35) {
        // Nothing on the key's line: a nested block, an indentless sequence, a scalar on its own line, or null.
        const lineComment = ch === 35;
        const e = this.eol(v);
        this.pos = e < this.len ? e + 1 : this.len;
        this.trivia();
        if (this.nj > indent || (this.nj === indent && this.isSeqLine(this.nq))) {
          value = this.parseNested(this.nj, indent);
          if (anchor !== null && !this.blockKid()) giveUp(); // an anchored scalar or flow on its own line
        } else {
          if (anchor !== null) giveUp(); // an anchored empty value
          value = null;
          this.emptyLast = true;
          this.vs = this.ve = v;
          this.v2 = this.nj === indent ? this.emptyEnd2(v, lineComment, e, indent) : lineComment || this.cc > 0 ? this.nq : v;
          this.carry = false;
        }
      } else {
        value = this.parseInlineValue(v, indent);
      }
      if (anchor !== null) this.setAnchor(anchor, value);
      obj[key] = value;
      this.pushPair(ks, ke, this.vs, this.ve, this.v2);
      if (this.kid) (kids ??= [])[n] = this.kid;
      lastEnd2 = this.v2;
      // Next content line.
      if (this.nj === indent) {
        this.carry = false;
        if (!this.keyAt(this.nq)) giveUp(); // a sequence or a scalar at the map's indent: error territory
        continue;
      }
      if (this.nj > indent) giveUp();
      break;
    }
    const e2 = this.close(indent, lastEnd2);
    this.kid = { t: 1, flow: false, s: start, e: lastEnd2, e2, keys: this.takeKeys(kb), r: this.takeRanges(rb), kids };
    this.vs = start; this.ve = lastEnd2; this.v2 = e2;
    this.depth--;
    return obj;
  }

  /**
   * range[2] of an empty mapping value followed by the next key of its mapping: its `:`'s line and the
   * lines up to the next key, minus what the yaml Parser hands on to the next key (from the second line
   * break of the last run of lines not broken by a comment deeper than the mapping).
   */
  private emptyEnd2(p: number, lineComment: boolean, keyLineEnd: number, indent: number): number {
    const s = this.s;
    let nl0 = keyLineEnd, nl1 = -1; // the first two line breaks of the current run
    let comment = lineComment;
    let commentBeforeCut = lineComment;
    let i = keyLineEnd + 1;
    while (i < this.pos) {
      let j = i;
      while (s.charCodeAt(j) === 32) j++;
      const e = this.eol(j);
      if (s.charCodeAt(j) === 35) {
        comment = true;
        if (nl1 < 0) commentBeforeCut = true;
        if (j - i > indent) { nl0 = -1; nl1 = -1; commentBeforeCut = comment; }
      }
      if (nl0 < 0) nl0 = e;
      else if (nl1 < 0) nl1 = e;
      i = e + 1;
    }
    if (nl1 >= 0) return commentBeforeCut ? nl1 : p;
    return comment ? this.nq : p;
  }

  /** Parses a block sequence at `indent`; the first `-` is at this.nq. */
  private parseSeq(indent: number): unknown[] {
    if (++this.depth > MAX_DEPTH) giveUp(); // the full parse says it is too deep
    const s = this.s;
    const arr: unknown[] = [];
    const rb = this.rt;
    let kids: Array<FastColl | undefined> | null = null;
    const start = this.nq;
    let lastEnd2 = 0;
    // Comment lines left before this item's `-` (not taken by the previous item) are in this item's props:
    // they make an empty item's range[2] run to the next content, like its own comments.
    let commentBefore = false;
    for (let n = 0; ; n++) {
      let v = this.nq + 1;
      while (s.charCodeAt(v) === 32) v++;
      let ch = s.charCodeAt(v);
      let value: unknown;
      this.kid = undefined;
      const anchor = ch === 38 ? this.anchorName(v) : null;
      if (anchor !== null) { v = this.pendPos; ch = s.charCodeAt(v); this.openAnchors++; }
      if (ch === 10 || ch !== ch || ch === 35) {
        const lineComment = ch === 35;
        const e = this.eol(v);
        this.pos = e < this.len ? e + 1 : this.len;
        this.trivia();
        if (this.nj > indent) {
          value = this.parseNested(this.nj, indent);
          if (anchor !== null && !this.blockKid()) giveUp(); // an anchored scalar or flow on its own line
        } else {
          if (anchor !== null) giveUp(); // an anchored empty item
          value = null;
          this.emptyLast = true;
          this.vs = this.ve = v;
          this.v2 = commentBefore || lineComment || this.cc > 0 ? this.nq : v;
          this.carry = false;
        }
      } else if (ch === 45 && isWs(s.charCodeAt(v + 1))) {
        giveUp(); // `- - x`
      } else if (this.keyAt(v)) {
        if (anchor !== null) giveUp(); // `- &a key: value`: the anchor is the key's
        // `- key: value`: a mapping whose indent is the key's column.
        value = this.parseMap(v - this.lineStartOf(v));
      } else {
        value = this.parseInlineValue(v, indent);
      }
      if (anchor !== null) this.setAnchor(anchor, value);
      arr.push(value);
      this.pushItem(this.vs, this.ve, this.v2);
      if (this.kid) (kids ??= [])[n] = this.kid;
      lastEnd2 = this.v2;
      if (this.nj === indent && this.isSeqLine(this.nq)) { commentBefore = this.carry; this.carry = false; continue; }
      if (this.nj > indent) giveUp();
      break; // a lower indent, the end, or a key at the same indent (the parent mapping's)
    }
    const e2 = this.close(indent, lastEnd2);
    this.kid = { t: 2, flow: false, s: start, e: lastEnd2, e2, keys: EMPTY_KEYS, r: this.takeRanges(rb), kids };
    this.vs = start; this.ve = lastEnd2; this.v2 = e2;
    this.depth--;
    return arr;
  }

  private lineStartOf(i: number): number {
    return this.s.lastIndexOf('\n', i - 1) + 1;
  }

  /**
   * A value that starts on its own line at indent `j` (> parent, or == parent for an indentless sequence),
   * the value of an item of a collection at `parent`.
   */
  private parseNested(j: number, parent: number): unknown {
    const q = this.nq;
    if (this.isSeqLine(q)) return this.parseSeq(j);
    if (this.keyAt(q)) return this.parseMap(j);
    const ch = this.s.charCodeAt(q);
    if (ch === 124 || ch === 62) giveUp(); // block scalar on its own line
    return this.parseInlineValue(q, parent);
  }

  /**
   * A scalar or flow collection at v (not at a line's end), the value of an item of a collection at
   * `indent`. Sets the value's range and moves to the next content line.
   */
  private parseInlineValue(v: number, indent: number): unknown {
    const s = this.s;
    const ch = s.charCodeAt(v);
    if (ch === 34 || ch === 39) return this.quotedScalar(v, indent);
    if (ch === 91 || ch === 123) return this.flowValue(v, indent);
    if (ch === 124 || ch === 62) return this.blockScalar(v, indent);
    if (ch === 42) return this.alias(v, indent);
    if (ch < 128 && BAD_START[ch]) giveUp();
    if ((ch === 45 || ch === 63 || ch === 58) && isWs(s.charCodeAt(v + 1))) giveUp();
    return this.plainScalar(v, indent);
  }

  /** After a value that ends at `end` on its line: checks the rest of the line is blank or a comment. */
  private lineRest(end: number): number {
    const s = this.s;
    let i = end;
    while (s.charCodeAt(i) === 32) i++;
    const ch = s.charCodeAt(i);
    if (ch === 10) return i + 1;
    if (i >= this.len) return this.len;
    if (ch === 35 && i > end) { const e = this.eol(i); return e < this.len ? e + 1 : this.len; }
    return giveUp();
  }

  // ------------------------------------------------------------------------------------------ anchors and aliases

  /** Whether the value parsed last is a block collection. */
  private blockKid(): boolean { const k = this.kid as FastColl | undefined; return !!k && !k.flow; }

  /** Where the value after the anchor read by anchorName() starts (after its spaces). */
  private pendPos = 0;

  /**
   * The name of the anchor `&name` at v (a block value's properties); pendPos is the first character after it and
   * its spaces. Gives up on names the full parse might end elsewhere (flow indicators, quotes, other properties).
   */
  private anchorName(v: number): string {
    const e = this.nameEnd(v + 1);
    if (e === v + 1) giveUp();
    let i = e;
    while (this.s.charCodeAt(i) === 32) i++;
    const ch = this.s.charCodeAt(i);
    if (ch === 38 || ch === 42 || ch === 33) giveUp(); // another anchor, an alias or a tag after it
    this.pendPos = i;
    return this.s.slice(v + 1, e);
  }

  /** End of an anchor or alias name starting at i: letters, digits and `-_./` only, then a space, a line break or the end. */
  private nameEnd(i: number): number {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 45 && c <= 57) || c === 95) { i++; continue; }
      if (isWs(c)) return i;
      return giveUp();
    }
  }

  /** The anchored value is parsed: later aliases of its name give it. */
  private setAnchor(name: string, value: unknown): void {
    this.openAnchors--;
    (this.anchorValues ??= new Map()).set(name, { value, aliases: 0 });
    (this.anchorAt ??= new Map()).set(this.vs, name);
  }

  /** The alias `*name` at v, a block value: its anchor's value, its range as a plain scalar's. */
  private alias(v: number, indent: number): unknown {
    const e = this.nameEnd(v + 1);
    const name = this.s.slice(v + 1, e);
    const anchor = this.anchorValues?.get(name);
    // Undefined, a cycle or an expansion inside an anchored node, or past the full parse's limit of 1,000 aliases of
    // one node (maxAliasCount: its aliases times the aliases inside it, which here is none).
    if (e === v + 1 || this.openAnchors > 0 || !anchor || ++anchor.aliases > 1000) giveUp();
    const value = anchor.value;
    const after = this.lineRest(e);
    this.pos = after;
    this.trivia();
    this.emptyLast = false;
    this.vs = v; this.ve = e; this.v2 = this.attach(after, indent);
    return value;
  }

  // ------------------------------------------------------------------------------------------ scalars

  private plainScalar(v: number, indent: number): unknown {
    const s = this.s, len = this.len;
    const inext = indent + 1;
    let i = v, end = v, comment = false;
    for (;;) {
      const ch = s.charCodeAt(i);
      if (ch === 10 || i >= len) break;
      if (ch === 58) {
        if (isWs(s.charCodeAt(i + 1))) giveUp(); // `a: b: c`
        end = i + 1;
      } else if (ch === 32) {
        if (s.charCodeAt(i + 1) === 35) { comment = true; break; }
      } else {
        end = i + 1;
      }
      i++;
    }
    let lineEnd = comment ? this.eol(i) : i; // the '\n' (or len) ending the scalar's last line
    let multi = false;
    if (!comment && lineEnd < len) {
      // Continuation lines: after blank lines, a line indented at least `inext` that is not a comment.
      for (;;) {
        let k = lineEnd + 1, sp = 0;
        for (;;) {
          const c = s.charCodeAt(k);
          if (c === 32) { sp++; k++; continue; }
          if (c === 10) { sp = 0; k++; continue; }
          break;
        }
        if (k >= len || sp < inext) break;
        const c0 = s.charCodeAt(k);
        if (c0 === 35) break;
        if (c0 < 128 && BAD_START[c0]) giveUp();
        if (c0 === 45 || c0 === 63 || c0 === 58) giveUp();
        // scan the continuation line
        let x = k, cend = k;
        for (;;) {
          const ch = s.charCodeAt(x);
          if (ch === 10 || x >= len) break;
          if (ch === 58) {
            if (isWs(s.charCodeAt(x + 1))) giveUp();
            cend = x + 1;
          } else if (ch === 32) {
            if (s.charCodeAt(x + 1) === 35) giveUp();
          } else cend = x + 1;
          x++;
        }
        multi = true;
        end = cend;
        lineEnd = x;
        if (x >= len) break;
      }
    }
    const source = s.slice(v, end);
    const value = resolvePlain(multi ? unfoldLines(source) : source);
    const after = comment || multi ? (lineEnd < len ? lineEnd + 1 : len) : this.lineRest(end);
    this.pos = after;
    this.trivia();
    this.emptyLast = false;
    this.vs = v; this.ve = end; this.v2 = this.attach(after, indent);
    return value;
  }

  /** Index of the closing quote of the quoted scalar at q, as the yaml Lexer finds it; -1 if none. */
  private quoteEnd(q: number): number {
    const s = this.s;
    if (s.charCodeAt(q) === 39) {
      let end = s.indexOf("'", q + 1);
      while (end !== -1 && s.charCodeAt(end + 1) === 39) end = s.indexOf("'", end + 2);
      return end;
    }
    let end = s.indexOf('"', q + 1);
    while (end !== -1) {
      let n = 0;
      while (s.charCodeAt(end - 1 - n) === 92) n++;
      if (n % 2 === 0) break;
      end = s.indexOf('"', end + 1);
    }
    return end;
  }

  private quotedValue(q: number, end: number): string {
    const source = this.s.slice(q, end);
    return this.s.charCodeAt(q) === 39 ? singleQuotedValue(source) : doubleQuotedValue(source);
  }

  private quotedScalar(v: number, indent: number): string {
    const s = this.s;
    const close = this.quoteEnd(v);
    if (close < 0) giveUp();
    // Every line break inside must be followed by a blank line or one indented at least indent + 1.
    let nl = s.indexOf('\n', v);
    while (nl >= 0 && nl < close) {
      let k = nl + 1, sp = 0;
      while (s.charCodeAt(k) === 32) { sp++; k++; }
      if (s.charCodeAt(k) !== 10 && sp < indent + 1) giveUp();
      nl = s.indexOf('\n', nl + 1);
    }
    const value = this.quotedValue(v, close + 1);
    const after = this.lineRest(close + 1);
    this.pos = after;
    this.trivia();
    this.emptyLast = false;
    this.vs = v; this.ve = close + 1; this.v2 = this.attach(after, indent);
    return value;
  }

  private blockScalar(v: number, indent: number): string {
    const s = this.s, len = this.len;
    // Header: |/> then at most one chomping indicator and one indentation digit, then spaces/comment.
    let i = v + 1, chomp = '', explicit = 0;
    for (let n = 0; n < 2; n++) {
      const ch = s.charCodeAt(i);
      if ((ch === 45 || ch === 43) && !chomp) { chomp = ch === 45 ? '-' : '+'; i++; } else if (ch >= 49 && ch <= 57 && !explicit) { explicit = ch - 48; i++; }
    }
    const ch = s.charCodeAt(i);
    if (!(ch === 32 || ch === 10 || i >= len)) giveUp(); // other header characters, or a comment without a space
    while (s.charCodeAt(i) === 32) i++;
    // Text after the header (`key: > first line`): the full parse says it is not a YAML token.
    if (i < len && s.charCodeAt(i) !== 10 && s.charCodeAt(i) !== 35) giveUp();
    const hl = this.eol(i);
    if (hl >= len) giveUp(); // header at the end of the text
    const start = hl + 1; // first content line
    // Content extent, as the yaml Lexer's parseBlockScalar finds it.
    let indentNext = indent + 1;
    let nl = hl;
    let ind = 0;
    for (let k = start; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c === 32) ind++;
      else if (c === 10) { nl = k; ind = 0; } else break;
    }
    if (ind >= indentNext) {
      indentNext = explicit ? explicit - 1 + indentNext : ind;
      for (;;) {
        // continueScalar(nl + 1)
        const o = nl + 1;
        let sp = 0;
        while (s.charCodeAt(o + sp) === 32) sp++;
        const c = s.charCodeAt(o + sp);
        if (!(c === 10 || sp >= indentNext)) break;
        nl = s.indexOf('\n', o + sp);
        if (nl === -1) { nl = len; break; }
      }
    }
    if (chomp !== '+') {
      for (;;) {
        let j = nl - 1;
        let c = s.charCodeAt(j);
        const lastChar = j;
        while (c === 32) c = s.charCodeAt(--j);
        if (c === 10 && j >= start && j + 1 + ind > lastChar) nl = j;
        else break;
      }
    }
    const srcEnd = Math.min(nl + 1, len);
    if (srcEnd < len && s.charCodeAt(srcEnd - 1) !== 10) giveUp();
    const value = blockScalarValue(s.charCodeAt(v) === 62, chomp, explicit, indent, s.slice(start, srcEnd));
    this.pos = srcEnd;
    this.trivia();
    this.setCarry(0);
    this.emptyLast = false;
    this.vs = v; this.ve = srcEnd; this.v2 = srcEnd;
    return value;
  }

  // ------------------------------------------------------------------------------------------ flow collections

  private fp = 0;

  /** The indent of the block collection that holds the flow collection being read (flowSpaces()). */
  private flowIndent = 0;
  /** Flow collections open (flowSpaces(): the outermost one's end may stand at flowIndent). */
  private flowOpen = 0;

  private flowValue(v: number, indent: number): unknown {
    this.fp = v;
    this.flowIndent = indent;
    const value = this.flowColl();
    const kid = this.kid;
    const after = this.lineRest(this.fp);
    this.pos = after;
    this.trivia();
    this.kid = kid;
    this.emptyLast = false;
    this.vs = v; this.ve = kid!.e; this.v2 = kid!.e2 = this.attach(after, indent);
    return value;
  }

  /**
   * Skips spaces inside a flow collection, and line breaks and blank lines where `lines` (a flow collection written over
   * several lines, as `args: [` then an item per line); returns the character after them. A line after the first must
   * be deeper than the block collection holding the flow collection (flowIndent), but for the outermost collection's
   * end, which may stand at it: elsewhere the full parse says BAD_INDENT. A comment (after a space or at a line's start)
   * is skipped to its line's end there.
   */
  private flowSpaces(lines = true): number {
    const s = this.s;
    for (;;) {
      while (s.charCodeAt(this.fp) === 32) this.fp++;
      const ch = s.charCodeAt(this.fp);
      if (ch === 10 && lines) {
        const ls = this.fp + 1;
        let j = ls;
        while (s.charCodeAt(j) === 32) j++;
        const c = s.charCodeAt(j);
        this.fp = j;
        if (c === 10) continue; // a blank line
        const col = j - ls;
        if (!(col > this.flowIndent || (col === this.flowIndent && this.flowOpen === 1 && (c === 93 || c === 125)))) giveUp();
        if (j === ls && (s.startsWith('---', j) || s.startsWith('...', j))) giveUp(); // a document marker
        continue;
      }
      // A comment after a space, to the end of its line, where the collection goes on over lines.
      if (ch === 35 && lines && this.fp > 0 && (s.charCodeAt(this.fp - 1) === 32 || s.charCodeAt(this.fp - 1) === 10)) {
        const e = s.indexOf('\n', this.fp);
        if (e < 0) giveUp();
        this.fp = e;
        continue;
      }
      if (ch === 10 || ch !== ch || ch === 35) giveUp(); // a comment where a line may not end, or the text ends
      return ch;
    }
  }

  /** A flow collection at this.fp (over one line or several: flowSpaces()); sets this.kid and moves this.fp past it. */
  private flowColl(): unknown {
    if (++this.depth > MAX_DEPTH) giveUp(); // the full parse says it is too deep
    this.flowOpen++;
    const s = this.s;
    const start = this.fp;
    const rb = this.rt, kb = this.kt;
    let kids: Array<FastColl | undefined> | null = null;
    if (s.charCodeAt(start) === 91) {
      this.fp++;
      const arr: unknown[] = [];
      for (let n = 0; ; n++) {
        let c = this.flowSpaces();
        if (c === 93) break;
        arr.push(this.flowItem(false));
        if (this.kid) (kids ??= [])[n] = this.kid;
        const vs = this.vs, ve = this.ve;
        c = this.flowSpaces();
        this.pushItem(vs, ve, this.fp); // range[2]: after the spaces that follow
        if (c === 44) { this.fp++; continue; }
        if (c === 93) break;
        giveUp(); // `[a: b]`, a missing comma, ...
      }
      this.fp++;
      this.kid = { t: 2, flow: true, s: start, e: this.fp, e2: this.fp, keys: EMPTY_KEYS, r: this.takeRanges(rb), kids };
      this.depth--;
      this.flowOpen--;
      return arr;
    }
    this.fp++;
    const obj: Record<string, unknown> = {};
    for (let n = 0; ; n++) {
      let c = this.flowSpaces();
      if (c === 125) break;
      const kv = this.flowItem(true);
      const ks = this.vs, ke = this.ve;
      if (this.fp - ks > 1000) giveUp();
      const key = String(kv);
      // duplicate or colliding key (a hash, not a scan: a one-line map of 50,000 keys took 19 s)
      if (key === '<<' || key === '__proto__' || (n < 12 ? keyAmong(kb, this.kt, key) : Object.prototype.hasOwnProperty.call(obj, key))) giveUp();
      c = this.flowSpaces(false); // a key and its `:` on one line (an implicit key over lines: the full parse)
      let value: unknown = null;
      let vs = -1, ve = -1, v2 = -1;
      this.kid = undefined;
      if (c === 58) {
        this.fp++;
        let e = this.fp;
        while (s.charCodeAt(e) === 32) e++;
        c = this.flowSpaces();
        if (c === 44 || c === 125) {
          // An empty value after `: `. Before a line break it stands after the `:` and that line's spaces, not at the
          // next line's `,` or `}` (the yaml package's emptyScalarPosition); after a comment its range[2] is that token.
          if (e < this.fp) { vs = ve = e; v2 = s.charCodeAt(e) === 35 ? this.fp : e; } else vs = ve = v2 = this.fp;
        } else {
          value = this.flowItem(false);
          vs = this.vs; ve = this.ve;
          let p = this.fp;
          while (s.charCodeAt(p) === 32) p++;
          c = this.flowSpaces();
          v2 = this.fp;
          // Before a line break, a flow map's value ends after its spaces, a comment and that line break, not at the
          // next line's indentation (the yaml package ends the pair there; a sequence item takes the indentation too).
          if (s.charCodeAt(p) === 35) p = this.eol(p);
          if (s.charCodeAt(p) === 10) v2 = p + 1;
        }
      }
      if (this.kid) (kids ??= [])[n] = this.kid;
      obj[key] = value;
      this.pushKey(key);
      this.pushPair(ks, ke, vs, ve, v2);
      if (c === 44) { this.fp++; continue; }
      if (c === 125) break;
      giveUp();
    }
    this.fp++;
    this.kid = { t: 1, flow: true, s: start, e: this.fp, e2: this.fp, keys: this.takeKeys(kb), r: this.takeRanges(rb), kids };
    this.depth--;
    this.flowOpen--;
    return obj;
  }

  /** A flow scalar or nested flow collection at this.fp; sets vs/ve (and kid). */
  private flowItem(atKey: boolean): unknown {
    const s = this.s;
    const start = this.fp;
    const ch = s.charCodeAt(start);
    this.kid = undefined;
    if (ch === 91 || ch === 123) {
      if (atKey) giveUp();
      const v = this.flowColl();
      this.vs = start; this.ve = this.fp;
      return v;
    }
    if (ch === 34 || ch === 39) {
      const close = this.quoteEnd(start);
      if (close < 0 || close >= this.eol(start)) giveUp();
      this.fp = close + 1;
      const after = s.charCodeAt(this.fp);
      // `"a":b` is fine after a quoted key; anything else glued to the quote is not
      if (!(after === 32 || after === 10 || after === 44 || after === 93 || after === 125 || (after === 58 && atKey))) giveUp();
      this.vs = start; this.ve = close + 1;
      return this.quotedValue(start, close + 1);
    }
    if (ch < 128 && BAD_START[ch]) giveUp();
    if ((ch === 45 || ch === 63 || ch === 58) && (isWs(s.charCodeAt(start + 1)) || isFlowInd(s.charCodeAt(start + 1)))) giveUp();
    let i = start, end = start;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 10 || c !== c) break;
      if (c === 58) {
        const n = s.charCodeAt(i + 1);
        if (isWs(n) || isFlowInd(n)) break;
        end = i + 1;
      } else if (c === 32) {
        if (s.charCodeAt(i + 1) === 35) giveUp();
      } else if (isFlowInd(c)) {
        break;
      } else {
        end = i + 1;
      }
      i++;
    }
    this.fp = end;
    this.vs = start; this.ve = end;
    const v = resolvePlain(s.slice(start, end));
    if (atKey && (v === null || typeof v === 'object')) giveUp();
    return v;
  }
}

const EMPTY_KEYS: string[] = [];

// A parser's hidden class, kept alive between files (keep-shapes.ts): every parsing method's optimised code refers to it.
keepShape(new FastParser(''));

// ---------------------------------------------------------------------------------------------- copied folding
// From yaml 2.x dist/compose/resolve-flow-scalar.js and resolve-block-scalar.js (ISC licence), unchanged
// except that errors give up instead of being reported.

function unfoldLines(source: string): string {
  const line = /(.*?)\r?\n/sy;
  let match = line.exec(source);
  if (!match) return source;
  const trimEnd = /(?<![ \t])[ \t]+$/;
  const trimBoth = /^[ \t]+|(?<![ \t])[ \t]+$/g;
  let res = match[1].replace(trimEnd, '');
  let sep = ' ';
  let pos = line.lastIndex;
  while ((match = line.exec(source))) {
    const lm = match[1].replace(trimBoth, '');
    if (lm === '') {
      if (sep === '\n') res += sep;
      else sep = '\n';
    } else {
      res += sep + lm;
      sep = ' ';
    }
    pos = line.lastIndex;
  }
  const last = /[ \t]*(.*)/sy;
  last.lastIndex = pos;
  match = last.exec(source);
  return res + sep + (match?.[1] ?? '');
}

function singleQuotedValue(source: string): string {
  if (source[source.length - 1] !== "'" || source.length === 1) giveUp();
  const inner = source.slice(1, -1);
  return (inner.indexOf('\n') < 0 ? inner : unfoldLines(inner)).replace(/''/g, "'");
}

const escapeCodes: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', N: '\u0085', _: '\u00a0',
  L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\', '\t': '\t',
};

function doubleQuotedValue(source: string): string {
  if (source[source.length - 1] !== '"' || source.length === 1) giveUp();
  // Fast path: nothing to unescape or fold.
  if (source.indexOf('\\') < 0 && source.indexOf('\n') < 0) return source.slice(1, -1);
  let res = '';
  for (let i = 1; i < source.length - 1; ++i) {
    const ch = source[i];
    if (ch === '\r' && source[i + 1] === '\n') continue;
    if (ch === '\n') {
      const { fold, offset } = foldNewline(source, i);
      res += fold;
      i = offset;
    } else if (ch === '\\') {
      let next = source[++i];
      const cc = escapeCodes[next];
      if (cc) res += cc;
      else if (next === '\n') {
        next = source[i + 1];
        while (next === ' ' || next === '\t') next = source[++i + 1];
      } else if (next === '\r' && source[i + 1] === '\n') {
        next = source[++i + 1];
        while (next === ' ' || next === '\t') next = source[++i + 1];
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        res += parseCharCode(source, i + 1, length);
        i += length;
      } else {
        giveUp(); // invalid escape: an error in the full parse
      }
    } else if (ch === ' ' || ch === '\t') {
      const wsStart = i;
      let next = source[i + 1];
      while (next === ' ' || next === '\t') next = source[++i + 1];
      if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n')) res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
    } else {
      res += ch;
    }
  }
  return res;
}

function foldNewline(source: string, offset: number): { fold: string; offset: number } {
  let fold = '';
  let ch = source[offset + 1];
  while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
    if (ch === '\r' && source[offset + 2] !== '\n') break;
    if (ch === '\n') fold += '\n';
    offset += 1;
    ch = source[offset + 1];
  }
  if (!fold) fold = ' ';
  return { fold, offset };
}

function parseCharCode(source: string, offset: number, length: number): string {
  const cc = source.substr(offset, length);
  const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
  const code = ok ? parseInt(cc, 16) : NaN;
  try {
    return String.fromCodePoint(code);
  } catch {
    return giveUp();
  }
}

/** resolveBlockScalar's value computation; `indent` is the enclosing collection's indent. */
function blockScalarValue(folded: boolean, chomp: string, explicitIndent: number, indent: number, source: string): string {
  const lines = source ? splitLines(source) : [];
  let chompStart = lines.length;
  for (let i = lines.length - 1; i >= 0; --i) {
    const content = lines[i][1];
    if (content === '' || content === '\r') chompStart = i;
    else break;
  }
  if (chompStart === 0) {
    return chomp === '+' && lines.length > 0 ? '\n'.repeat(Math.max(1, lines.length - 1)) : '';
  }
  let trimIndent = indent + explicitIndent;
  let contentStart = 0;
  for (let i = 0; i < chompStart; ++i) {
    const [ind, content] = lines[i];
    if (content === '' || content === '\r') {
      if (explicitIndent === 0 && ind.length > trimIndent) trimIndent = ind.length;
    } else {
      if (ind.length < trimIndent) giveUp(); // more-indented leading empty lines need an indicator
      if (explicitIndent === 0) trimIndent = ind.length;
      contentStart = i;
      if (trimIndent === 0) giveUp(); // not indented (the fast path never has root block scalars)
      break;
    }
  }
  for (let i = lines.length - 1; i >= chompStart; --i) {
    if (lines[i][0].length > trimIndent) chompStart = i + 1;
  }
  let value = '';
  let sep = '';
  let prevMoreIndented = false;
  for (let i = 0; i < contentStart; ++i) value += lines[i][0].slice(trimIndent) + '\n';
  for (let i = contentStart; i < chompStart; ++i) {
    let [ind, content] = lines[i];
    const crlf = content[content.length - 1] === '\r';
    if (crlf) content = content.slice(0, -1);
    if (content && ind.length < trimIndent) giveUp();
    if (!folded) {
      value += sep + ind.slice(trimIndent) + content;
      sep = '\n';
    } else if (ind.length > trimIndent || content[0] === '\t') {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      value += sep + ind.slice(trimIndent) + content;
      sep = '\n';
      prevMoreIndented = true;
    } else if (content === '') {
      if (sep === '\n') value += '\n';
      else sep = '\n';
    } else {
      value += sep + content;
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  switch (chomp) {
    case '-':
      break;
    case '+':
      for (let i = chompStart; i < lines.length; ++i) value += '\n' + lines[i][0].slice(trimIndent);
      if (value[value.length - 1] !== '\n') value += '\n';
      break;
    default:
      value += '\n';
  }
  return value;
}

function splitLines(source: string): Array<[string, string]> {
  const split = source.split(/\n( *)/);
  const first = split[0];
  const m = first.match(/^( *)/);
  const line0: [string, string] = m?.[1] ? [m[1], first.slice(m[1].length)] : ['', first];
  const lines: Array<[string, string]> = [line0];
  for (let i = 1; i < split.length; i += 2) lines.push([split[i], split[i + 1]]);
  return lines;
}
