// The one place that parses YAML. Rules see `YamlFile`/`YamlDoc` only, so the parser behind them
// can be swapped without touching any rule: each document first goes through the fast path
// (fast-yaml.ts: values and ranges straight from the text, for the common subset), and through the
// yaml package's full parse when the fast path is not sure; both give identical values and ranges.
//
// A file is split into documents at `---` lines first (a `---` at column 0 always starts a document:
// the YAML spec forbids it inside scalars), and each document is parsed on its own. Parsed
// documents are cached by their text, so an edit re-parses only the document it touches.
import { parseDocument, isMap, isSeq, isPair, isScalar, isNode, isCollection, isAlias, Alias, Composer, Parser, YAMLParseError, type CST, type Document, type Node, type Pair } from 'yaml';
import { fastParse, MAP_STRIDE, SEQ_STRIDE, MAX_DEPTH, type FastColl, type FastResult } from './fast-yaml';
import { fastDocument } from './fast-ast';
import { loneCrIn } from '../text';
import { keepShape } from '../keep-shapes';

export interface OffsetRange { start: number; end: number }

export interface SyntaxProblem { message: string; start: number; end: number; code: string }

export interface NodeLocation {
  /** The key (for a mapping entry) — where an unknown property is reported. */
  key?: OffsetRange;
  /** The value — where a wrong value is reported. Falls back to the key for empty values. */
  value: OffsetRange;
  node?: Node | null;
}

interface ParsedChunk {
  text: string;
  /** The yaml package's Document; for fast-path chunks built on first use, without comments (fast-ast.ts). */
  readonly doc: Document.Parsed;
  /** The Document of the full parse (comments included); the same as `doc` for full-parse chunks. */
  readonly fullDoc: Document.Parsed;
  value: unknown;
  errors: SyntaxProblem[];
  /** Keys that appear twice in one mapping: the file parses, the earlier value is silently dropped. */
  duplicateKeys: SyntaxProblem[];
  empty: boolean;
  /** Values and ranges from the fast path (fast-yaml.ts); null when the chunk took the full parse. */
  fast: FastResult | null;
}

export class YamlDoc {
  constructor(
    readonly index: number,
    /** Offset of this document's chunk in the file text. */
    readonly offset: number,
    private readonly chunk: ParsedChunk,
  ) {}
  get value(): unknown { return this.chunk.value; }
  get errors(): SyntaxProblem[] {
    return this.chunk.errors.map((e) => ({ ...e, start: e.start + this.offset, end: e.end + this.offset }));
  }
  get duplicateKeys(): SyntaxProblem[] {
    return this.chunk.duplicateKeys.map((e) => ({ ...e, start: e.start + this.offset, end: e.end + this.offset }));
  }
  get empty(): boolean { return this.chunk.empty; }
  get end(): number { return this.offset + this.chunk.text.length; }
  /**
   * The yaml package's Document, for computing edits (yaml-edit.ts). For a fast-path document it is built
   * from the fast path's ranges: the same nodes, values and ranges as the full parse, but no comments on
   * the nodes; `fullAst` has those.
   */
  get ast(): Document.Parsed { return this.chunk.doc; }
  /** The full parse's Document, comments included (parsed on first use for fast-path documents). */
  get fullAst(): Document.Parsed { return this.chunk.fullDoc; }
  /** Whether this document was read by the fast path (values and ranges identical to the full parse). */
  get fastPath(): boolean { return this.chunk.fast !== null; }
  /** The document's text (a lone CR made an LF), from its first line to the next document's marker. */
  get text(): string { return this.chunk.text; }
  /** The document's text as the parse cache keeps it (forgetParsed). */
  get cacheKey(): string { return this.chunk.text; }
  /** Its parse (the cache's entry for cacheKey): for pinParsed. */
  get parsedChunk(): ParsedChunk { return this.chunk; }

  private abs(r: readonly number[] | null | undefined): OffsetRange | undefined {
    if (!r) return undefined;
    return { start: r[0] + this.offset, end: r[1] + this.offset };
  }

  private range(s: number, e: number): OffsetRange { return { start: s + this.offset, end: e + this.offset }; }

  /** Range of the whole document's root node. */
  rootRange(): OffsetRange {
    const fast = this.chunk.fast;
    if (fast) {
      if (fast.root) return this.range(fast.root.s, fast.root.e);
      if (fast.emptyRoot) return this.range(fast.emptyRoot[0], fast.emptyRoot[1]);
      return { start: this.offset, end: this.offset };
    }
    const c = this.chunk.doc.contents as Node | null;
    return this.abs(c?.range) ?? { start: this.offset, end: this.offset };
  }

  /**
   * Locates a node by its path of keys and indices (as in an ajv instancePath).
   * Returns the deepest node that exists on the path, so an error below a missing node
   * still points somewhere sensible.
   */
  locate(path: ReadonlyArray<string | number>): NodeLocation {
    if (this.chunk.fast) return this.locateFast(this.chunk.fast, path);
    let node: unknown = this.chunk.doc.contents;
    let loc: NodeLocation = { value: this.rootRange(), node: node as Node };
    for (const seg of path) {
      if (isMap(node)) {
        const pair = findPair(node.items as Pair[], String(seg));
        if (!pair) return loc;
        const key = isNode(pair.key) ? this.abs(pair.key.range) : undefined;
        const v = pair.value as Node | null;
        const value = isNode(v) && v.range && !(isScalar(v) && v.value === null && v.range[0] === v.range[1])
          ? this.abs(v.range)! : key!;
        loc = { key, value, node: v };
        node = v;
      } else if (isSeq(node)) {
        const item = node.items[Number(seg)] as Node | undefined;
        if (!isNode(item)) return loc;
        loc = { value: this.abs(item.range)!, node: item };
        node = item;
      } else {
        return loc;
      }
    }
    return loc;
  }

  private locateFast(fast: FastResult, path: ReadonlyArray<string | number>): NodeLocation {
    let coll: FastColl | null | undefined = fast.root;
    let loc: NodeLocation = { value: this.rootRange() };
    let depth = 0;
    for (const seg of path) {
      if (!coll) break;
      if (coll.t === 1) {
        const i = keyIndex(coll.keys, String(seg));
        if (i < 0) break;
        const r = coll.r, o = i * MAP_STRIDE;
        const key = this.range(r[o], r[o + 1]);
        // an empty value (or none, in `{a}`) is reported at its key
        loc = { key, value: r[o + 2] === r[o + 3] ? key : this.range(r[o + 2], r[o + 3]) };
        coll = coll.kids?.[i];
      } else {
        const i = Number(seg);
        if (!(i >= 0 && i < coll.r.length / SEQ_STRIDE && Number.isInteger(i))) break;
        const r = coll.r, o = i * SEQ_STRIDE;
        loc = { value: this.range(r[o], r[o + 1]) };
        coll = coll.kids?.[i];
      }
      depth++;
    }
    return new FastLocation(loc.key, loc.value, this.chunk, path.slice(0, depth));
  }

  /** Top-level mapping entries with their key and value ranges, in source order. */
  topLevelEntries(): Array<{ key: string; keyRange: OffsetRange; valueRange: OffsetRange }> {
    const root = this.chunk.fast?.root;
    if (this.chunk.fast) {
      if (root?.t !== 1) return [];
      return root.keys.map((key, i) => {
        const r = root.r, o = i * MAP_STRIDE;
        const keyRange = this.range(r[o], r[o + 1]);
        return { key, keyRange, valueRange: r[o + 2] === r[o + 3] ? keyRange : this.range(r[o + 2], r[o + 3]) };
      });
    }
    const c = this.chunk.doc.contents;
    if (!isMap(c)) return [];
    const out = [];
    for (const p of c.items) {
      const k = keyString(p);
      if (k === undefined || !isNode(p.key)) continue;
      const loc = this.locate([k]);
      out.push({ key: k, keyRange: this.abs(p.key.range)!, valueRange: loc.value });
    }
    return out;
  }
}

/** A location from the fast path; its yaml `node` comes from the Document, built only if someone asks. */
class FastLocation implements NodeLocation {
  readonly #chunk: ParsedChunk;
  readonly #path: ReadonlyArray<string | number>;
  constructor(readonly key: OffsetRange | undefined, readonly value: OffsetRange, chunk: ParsedChunk, path: ReadonlyArray<string | number>) {
    this.#chunk = chunk;
    this.#path = path;
  }
  get node(): Node | null | undefined {
    let node: unknown = this.#chunk.doc.contents;
    for (const seg of this.#path) {
      if (isMap(node)) node = findPair(node.items as Pair[], String(seg))?.value as unknown;
      else if (isSeq(node)) node = node.items[Number(seg)];
      else return undefined;
    }
    return node as Node | null;
  }
}

function keyString(p: unknown): string | undefined {
  if (!isPair(p)) return undefined;
  const k = p.key as unknown;
  if (isScalar(k)) return k.value === null ? '' : String(k.value);
  // A collection key is not a plain key: stringifying it is exponential in its nesting ("{[" x 400), and it can throw.
  return undefined;
}

export class YamlFile {
  constructor(readonly text: string, readonly docs: YamlDoc[]) {}
  get errors(): SyntaxProblem[] { return this.docs.flatMap((d) => d.errors); }
}

/** Whether a `---` or `...` marker at `i` (a line start) is one: followed by a space, a tab, a line break or the end. */
function markerAt(text: string, i: number, ch: number): boolean {
  if (text.charCodeAt(i) !== ch || text.charCodeAt(i + 1) !== ch || text.charCodeAt(i + 2) !== ch) return false;
  const n = text.charCodeAt(i + 3);
  return n !== n /* end */ || n === 32 || n === 9 || n === 10 || n === 13;
}

/**
 * The first marker line (`---` for ch 45, `...` for 46: markerAt) at or after `from` that starts a line: at 0 (only
 * asked for `...`; a `---` at the very start opens the first chunk anyway), or after an LF or a lone CR. -1: none.
 */
function markerFrom(text: string, ch: number, from: number): number {
  const s = ch === 45 ? '---' : '...';
  for (let i = text.indexOf(s, from); i !== -1; i = text.indexOf(s, i + 1)) {
    const p = i === 0 ? 10 : text.charCodeAt(i - 1);
    if ((p === 10 || p === 13) && markerAt(text, i, ch)) return i;
  }
  return -1;
}

/**
 * Where splitDocuments cuts `text` before it merges chunks of comments: 0, each `---` marker line, and the line after
 * each `...` line (those in `afterEnd`). Exported for the test that compares it with a line-by-line walk.
 */
export function documentCuts(text: string): { cuts: number[]; afterEnd: Set<number> } {
  const cuts: number[] = [0];
  /** Cuts made after a `...` line (the chunk there may start with directives). */
  const afterEnd = new Set<number>();
  const len = text.length;
  const noCR = text.indexOf('\r') === -1;
  // Only the marker lines matter: each marker is looked for with the native search and kept where it starts a line
  // (after an LF, or a lone CR: after a CRLF's CR comes its LF, never a marker), in file order. A line-by-line walk
  // spent most of its time going from line to line.
  let dash = markerFrom(text, 45, 1), dots = markerFrom(text, 46, 0);
  while (dash !== -1 || dots !== -1) {
    if (dots === -1 || (dash !== -1 && dash < dots)) {
      if (cuts[cuts.length - 1] !== dash) cuts.push(dash);
      dash = markerFrom(text, 45, dash + 3);
      continue;
    }
    // The line after a `...` line starts a new chunk (when there is one).
    let nl = dots + 3;
    if (noCR) {
      nl = text.indexOf('\n', nl);
      if (nl === -1) nl = len;
    } else for (;;) {
      const c = text.charCodeAt(nl);
      if (c === 10 || nl >= len) break;
      if (c === 13 && text.charCodeAt(nl + 1) !== 10) break;
      nl++;
    }
    if (nl + 1 < len) { cuts.push(nl + 1); afterEnd.add(nl + 1); }
    dots = markerFrom(text, 46, nl + 1);
  }
  return { cuts, afterEnd };
}

/**
 * Splits YAML text into document chunks: a chunk starts at a `---` line (the marker at column 0, then a space, a
 * tab, a line break or the end) and ends before the next one, or after a `...` (document end) line. Every line
 * break counts: LF, CRLF and a lone CR (parseYaml makes a lone CR an LF first, as the yaml package does not break
 * lines there; a caller with raw text gets the same cuts). A BOM counts only at the very start of the text, as in
 * the yaml package. Chunks that hold only comments, blank lines and directives are merged into the document after
 * them (or, at the end of the text after a `...`, into the one before). This is the one place that splits YAML
 * into documents; the chunks cover the text without gaps, so offsets inside a chunk plus its start are the file's.
 */
export function splitDocuments(text: string): Array<{ start: number; end: number }> {
  const { cuts, afterEnd } = documentCuts(text);
  const len = text.length;
  const chunks: Array<{ start: number; end: number }> = [];
  let pendingStart = -1;
  for (let i = 0; i < cuts.length; i++) {
    const start = pendingStart >= 0 ? pendingStart : cuts[i];
    const end = i + 1 < cuts.length ? cuts[i + 1] : len;
    const last = i + 1 === cuts.length;
    if (!last && isPreamble(text, cuts[i], end, i === 0 || afterEnd.has(cuts[i]))) { pendingStart = start; continue; }
    // Comments and blank lines after the last document's `...`: that document's.
    if (last && chunks.length && pendingStart < 0 && afterEnd.has(cuts[i]) && isPreamble(text, cuts[i], end, false)) {
      chunks[chunks.length - 1].end = end;
      continue;
    }
    pendingStart = -1;
    chunks.push({ start, end });
  }
  return chunks;
}

/** A chunk (text[start..end)) that holds only comments, blank lines and (`directives`) directives belongs to the document after it. */
function isPreamble(text: string, start: number, end: number, directives: boolean): boolean {
  // Line by line up to the first line that is not (a chunk usually fails on its first line, `---`).
  let pos = start;
  while (pos < end) {
    let e = pos;
    while (e < end && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
    const line = text.slice(pos, e).replace(/^\uFEFF/, '').trim();
    if (!(line === '' || line.startsWith('#') || (directives && line.startsWith('%')))) return false;
    pos = e + 1;
  }
  return true;
}

// Parsed documents are kept by their text, bounded by the total size of that text: an editor keeps its open
// files' documents, a CI run over thousands of files does not grow without bound.
// The editor's default holds the documents of its open files (a big file checked part by part keeps those of the parts
// last worked in: server/scheduler.ts, forgetParsed); lsp-lint, which sees each file once, asks for a small one.
let CACHE_MAX_CHARS = 4 * 1024 * 1024;
/** Sets the parse cache's budget (characters of document text); shrinking it evicts at once. */
export function setParseCacheBudget(chars: number): void {
  CACHE_MAX_CHARS = Math.max(0, chars);
  for (const key of chunkCache.keys()) {
    if (cachedChars <= CACHE_MAX_CHARS) break;
    uncache(key);
  }
}
const chunkCache = new Map<string, ParsedChunk>();
let cachedChars = 0;
/**
 * How many cached documents have each length: a document of a text can be in the cache only if one of that length
 * is, so forgetParsed cuts and looks up (hashes) only those (a closed 5 MB file's 5,000 documents were each cut and
 * hashed again to drop the few the editor had kept).
 */
const cachedLengths = new Map<number, number>();
function cache(text: string, chunk: ParsedChunk): void {
  chunkCache.set(text, chunk);
  cachedChars += text.length;
  cachedLengths.set(text.length, (cachedLengths.get(text.length) ?? 0) + 1);
}
/** Drops a cached document; whether it was cached. */
function uncache(text: string): boolean {
  if (!chunkCache.delete(text)) return false;
  cachedChars -= text.length;
  const n = cachedLengths.get(text.length)! - 1;
  if (n > 0) cachedLengths.set(text.length, n); else cachedLengths.delete(text.length);
  return true;
}

function remember(text: string, chunk: ParsedChunk): void {
  if (text.length > CACHE_MAX_CHARS / 4) return; // one huge document would flush everything else
  cache(text, chunk);
  if (cachedChars <= CACHE_MAX_CHARS) return;
  // Evict the oldest in batches (down to 1/64 under the budget): a Map iterator walks over the holes
  // earlier deletes left, so evicting one entry per insert would walk them again every time.
  for (const key of chunkCache.keys()) {
    if (cachedChars <= CACHE_MAX_CHARS - CACHE_MAX_CHARS / 64) break;
    uncache(key);
  }
}

// YAML 1.1 as Ansible (PyYAML) and Kubernetes (go-yaml) read it: `yes`/`on` are booleans there.
const PARSE_OPTIONS = { version: '1.1', prettyErrors: false, uniqueKeys: true, keepSourceTokens: false, logLevel: 'error' } as const;

// MAX_DEPTH (fast-yaml.ts): the deepest nesting of collections the reader takes. The yaml package composes and
// converts recursively, and its stack runs out near 1,000 levels; real files nest a few dozen (a CRD's
// openAPIV3Schema perhaps a hundred).

/**
 * Offset of the first collection nested deeper than MAX_DEPTH in the yaml Parser's tokens (which it builds
 * without recursion), or -1. Iterative, so any depth is measured without running out of stack.
 */
function tooDeepAt(tokens: CST.Token[]): number {
  const stack: Array<CST.Token | number> = [];
  for (const t of tokens) if (t.type === 'document' && t.value) stack.push(t.value, 0);
  while (stack.length) {
    const depth = stack.pop() as number;
    const t = stack.pop() as CST.Token;
    if (t.type !== 'block-map' && t.type !== 'block-seq' && t.type !== 'flow-collection') continue;
    if (depth >= MAX_DEPTH) return t.offset;
    const items = t.items as Array<{ key?: CST.Token | null; value?: CST.Token }>;
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i];
      if (it.value) stack.push(it.value, depth + 1);
      if (it.key) stack.push(it.key, depth + 1);
    }
  }
  return -1;
}

/** What one walk over a composed Document finds (iterative, in the order of the yaml package's visit()). */
interface DocumentScan {
  /** Keys given twice in one mapping (what `uniqueKeys: true` reports, found with a hash instead of a scan). */
  duplicateKeys: SyntaxProblem[];
  /** The first collection used as a mapping key. */
  complexKey?: Node;
  /** The first alias, and the first one whose anchor is not set before it. */
  firstAlias?: Alias;
  undefinedAlias?: Alias;
  /** Whether the undefined alias's anchor is set after it. */
  anchorLater?: boolean;
  /**
   * The first alias inside the node its anchor names (`spec: &s {template: *s}`): a cycle, not a repetition. toJS()
   * makes a value that holds itself, and every walk over it (the field walk, a CRD's schema walk) would never end;
   * kubectl and Helm (go-yaml) refuse it ("anchor value contains itself").
   */
  cyclicAlias?: Alias;
}

/**
 * The node each alias refers to: the last node before it (in visit() order) with its anchor, as
 * Alias.resolve() finds it, but found once for the whole document instead of by a scan from the start for
 * every alias (which made 20,000 aliases take half a minute).
 */
const ALIAS_TARGET = new WeakMap<Alias, Node | null>();
const aliasResolve = Alias.prototype.resolve;
function resolveKnownTarget(this: Alias, doc: Document, ctx?: { aliasResolveCache?: unknown }): ReturnType<typeof aliasResolve> {
  const found = ALIAS_TARGET.get(this);
  if (found === undefined) return aliasResolve.call(this, doc, ctx as never);
  if (!ctx) return (found ?? undefined) as ReturnType<typeof aliasResolve>; // getAliasCount's lookups
  // Alias.resolve() with its candidate list cut to the one node it would find: the counting (alias bombs)
  // and the anchor's conversion stay the yaml package's own.
  const saved = ctx.aliasResolveCache;
  ctx.aliasResolveCache = found ? [found] : [];
  try {
    return aliasResolve.call(this, doc, ctx as never);
  } finally {
    ctx.aliasResolveCache = saved;
  }
}

function scanDocument(doc: Document.Parsed): DocumentScan {
  const scan: DocumentScan = { duplicateKeys: [] };
  const anchors = new Map<string, Node>();
  const stack: unknown[] = [];
  if (doc.contents) stack.push(doc.contents);
  while (stack.length) {
    const n = stack.pop();
    if (isAlias(n)) {
      scan.firstAlias ??= n;
      const target = anchors.get(n.source) ?? null;
      ALIAS_TARGET.set(n, target);
      Object.defineProperty(n, 'resolve', { value: resolveKnownTarget, configurable: true, writable: true, enumerable: false });
      if (!target && !scan.undefinedAlias) scan.undefinedAlias = n;
      // The anchor's node is one this alias is inside of (visit order: it is set before its children are seen).
      const tr = target?.range, ar = n.range;
      if (tr && ar && !scan.cyclicAlias && tr[0] <= ar[0] && ar[1] <= tr[2]) scan.cyclicAlias = n;
      continue;
    }
    if (!isNode(n)) continue;
    const anchor = (n as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, n);
    if (isMap(n)) {
      const seen = new Map<unknown, true>();
      for (const p of n.items) {
        const k = p.key as unknown;
        if (isCollection(k)) scan.complexKey ??= k;
        if (isScalar(k) && k.value === k.value /* NaN !== NaN */) {
          if (seen.has(k.value)) {
            const at = k.range?.[0] ?? 0;
            scan.duplicateKeys.push({ message: 'Map keys must be unique', start: at, end: at + 1, code: 'DUPLICATE_KEY' });
          } else {
            seen.set(k.value, true);
          }
        }
      }
      for (let i = n.items.length - 1; i >= 0; i--) {
        const p = n.items[i];
        if (p.value != null) stack.push(p.value);
        if (p.key != null) stack.push(p.key);
      }
    } else if (isSeq(n)) {
      for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
    }
  }
  if (scan.undefinedAlias) {
    // Set after it? Then the anchor is in `anchors` now (the walk has seen the whole document).
    scan.anchorLater = anchors.has(scan.undefinedAlias.source);
  }
  scan.duplicateKeys.sort((a, b) => a.start - b.start);
  return scan;
}

/** An empty Document with the parse options, for a chunk that is not composed at all. */
function emptyDocument(): Document.Parsed {
  return parseDocument('', PARSE_OPTIONS) as Document.Parsed;
}

/** The full parse: the yaml package's Document, its errors and its toJS() value. */
function parseFull(text: string): ParsedChunk {
  const tokens = Array.from(new Parser().parse(text));
  const deep = tooDeepAt(tokens);
  if (deep >= 0) {
    const doc = emptyDocument();
    const errors = [{ message: limitMessage('TOO_DEEP', '')!, start: deep, end: deep + 1, code: 'TOO_DEEP' }];
    return { text, doc, fullDoc: doc, value: null, errors, duplicateKeys: [], empty: false, fast: null };
  }
  // parseDocument(), with the tokens above; duplicate keys are found by scanDocument (the yaml package's
  // check compares each key with every earlier one: quadratic).
  let doc: Document.Parsed | null = null;
  for (const d of new Composer({ ...PARSE_OPTIONS, uniqueKeys: false }).compose(tokens, true, text.length)) {
    if (!doc) doc = d as Document.Parsed;
    else {
      doc.errors.push(new YAMLParseError(d.range.slice(0, 2) as [number, number], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  doc ??= emptyDocument();
  doc.options.uniqueKeys = true;
  const errors: SyntaxProblem[] = doc.errors.map((e) => ({
    message: limitMessage(e.code, e.message) ?? e.message.split('\n')[0], start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), code: e.code,
  }));
  if (errors.length) relocateErrors(errors, doc);
  const scan = scanDocument(doc);
  const duplicateKeys = scan.duplicateKeys;
  let value: unknown = null;
  // A collection used as a mapping key makes toJS stringify it at every level: exponential in the nesting
  // ("{[" x 200 takes seconds). No format skewguard reads uses one, so it is an error, not a value.
  const complexKey = scan.complexKey;
  const undef = scan.undefinedAlias;
  if (complexKey) {
    const r = complexKey.range ?? [0, 0];
    errors.push({ message: 'a collection used as a mapping key: not supported (Kubernetes, Ansible and Kata files use plain keys)', start: r[0], end: Math.max(r[0] + 1, Math.min(r[1], r[0] + 200)), code: 'COMPLEX_KEY' });
  } else if (undef) {
    // YAML: an alias refers to an anchor set before it in the same document (the yaml package says "Unresolved alias").
    const r = undef.range ?? [0, 0];
    const name = undef.source;
    errors.push({
      message: scan.anchorLater ? `alias *${name} is not defined before it is used (its anchor &${name} comes later)` : `alias *${name} is not defined`,
      start: r[0], end: Math.max(r[0] + 1, r[1]), code: 'UNDEFINED_ALIAS',
    });
    errors.sort((a, b) => a.start - b.start);
  } else if (scan.cyclicAlias) {
    const r = scan.cyclicAlias.range ?? [0, 0];
    const name = scan.cyclicAlias.source;
    errors.push({
      message: `alias *${name} is inside the node its anchor &${name} names: a cycle (kubectl and Helm refuse it: "anchor value contains itself"); this document is not checked`,
      start: r[0], end: Math.max(r[0] + 1, r[1]), code: 'CYCLIC_ALIAS',
    });
    errors.sort((a, b) => a.start - b.start);
  } else try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    let r = (doc.contents as Node | null)?.range ?? [0, 0];
    const message = (e as Error).message;
    // Point at the first alias rather than underline the whole document.
    if (/alias/i.test(message) && scan.firstAlias?.range) r = scan.firstAlias.range;
    errors.push({ message: limitMessage('TO_JS', message) ?? message, start: r[0], end: r[1], code: 'TO_JS' });
  }
  return { text, doc, fullDoc: doc, value, errors, duplicateKeys, empty: doc.contents === null, fast: null };
}

/**
 * Errors moved to where the parser went wrong (issue #18 item 6). The yaml package reports an unclosed quote where it
 * ran out of text (the end of the document: the `---` line after it) and an unclosed flow collection at the line
 * after it; both are reported here at the opening quote or bracket, the node that is not closed. Errors the same
 * failure caused at one position keep the quote first (an open quote swallows the brackets after it).
 */
function relocateErrors(errors: SyntaxProblem[], doc: Document.Parsed): void {
  const quoted: Array<[number, number]> = [];
  const flows: Array<[number, number, string]> = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const n = stack.pop();
    if (isScalar(n)) {
      if ((n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE') && n.range) quoted.push([n.range[0], n.range[1]]);
    } else if (isMap(n) || isSeq(n)) {
      if (n.flow && n.range) flows.push([n.range[0], n.range[1], isMap(n) ? '{' : '[']);
      for (const it of n.items as unknown[]) {
        if (isPair(it)) { stack.push(it.key, it.value); } else stack.push(it);
      }
    }
  }
  /** The node of `list` that starts last before `pos` and reaches it: the innermost one left open there. */
  const openAt = <T extends [number, number, ...unknown[]]>(list: T[], pos: number) => {
    let best: T | undefined;
    for (const r of list) if (r[0] < pos && r[1] >= pos && (!best || r[0] > best[0])) best = r;
    return best;
  };
  const at = new Map<SyntaxProblem, number>();
  for (const e of errors) {
    at.set(e, e.start);
    if (e.code === 'MISSING_CHAR' && /quote/i.test(e.message)) {
      const q = openAt(quoted, e.start);
      if (q) { e.message = `${e.message}: the quoted value opened here is not closed`; e.start = q[0]; e.end = q[0] + 1; }
    } else if (/flow (map|sequence)/i.test(e.message)) {
      const f = openAt(flows, e.start);
      if (f) { e.message = `${e.message}: the ${f[2]} opened here is not closed`; e.start = f[0]; e.end = f[0] + 1; }
    }
  }
  const quoteFirst = (e: SyntaxProblem) => (e.code === 'MISSING_CHAR' && /quote/i.test(e.message) ? 0 : 1);
  errors.sort((a, b) => at.get(a)! - at.get(b)! || quoteFirst(a) - quoteFirst(b) || a.start - b.start);
}

/**
 * Plain words for the reader's limits (the yaml package says "Maximum call stack size exceeded" or "Excessive alias
 * count indicates a resource exhaustion attack"): what happened and that the document is not checked.
 */
function limitMessage(code: string, message: string): string | undefined {
  if (code === 'TOO_DEEP' || /call stack|too much recursion/i.test(message)) {
    return `nested too deeply to read (more than ${MAX_DEPTH} levels; no Kubernetes, Ansible or Kata file nests this deep): this document is not checked`;
  }
  // Only the count check ("Excessive alias count indicates a resource exhaustion attack"): an alias without
  // its anchor is an error of its own (parseFull), not a bomb.
  if (/resource exhaustion|excessive alias/i.test(message)) {
    return 'its aliases expand to more than 1,000 nodes (a "billion laughs" alias bomb?): this document is not checked';
  }
  return undefined;
}

/** A chunk the fast path read: no errors, no duplicate keys; the Documents are made only if asked for. */
class FastChunk implements ParsedChunk {
  private full: ParsedChunk | null = null;
  private built: Document.Parsed | null = null;
  readonly errors: SyntaxProblem[] = [];
  readonly duplicateKeys: SyntaxProblem[] = [];
  readonly value: unknown;
  readonly empty: boolean;
  constructor(readonly text: string, readonly fast: FastResult) {
    this.value = fast.value;
    this.empty = fast.root === null && fast.emptyRoot === null;
  }
  get doc(): Document.Parsed { return (this.built ??= fastDocument(this.text, this.fast, PARSE_OPTIONS)); }
  get fullDoc(): Document.Parsed { return (this.full ??= parseFull(this.text)).doc; }
}

// The hidden classes of a parse's objects, kept alive between files (keep-shapes.ts): the parse cache lets every
// document of a closed file go, and the code that reads documents, chunks and locations refers to these classes.
{
  const chunk = keepShape(new FastChunk('', { value: null, root: null, emptyRoot: null, docStart: -1, docOffset: 0, emptyLast: false, anchors: null }));
  keepShape(new YamlFile('', [keepShape(new YamlDoc(0, 0, chunk))]));
  keepShape(new FastLocation({ start: 0, end: 0 }, { start: 0, end: 0 }, chunk, []));
}

/**
 * A copy of a slice that does not keep the text it was cut from alive: V8 keeps the whole parent string of a slice
 * (and of every value sliced from it), so a cached document of a 3.5 MB file held that file's text of every version
 * an edit had made, 3.5 MB per keystroke.
 */
export function detached(s: string): string { return (' ' + s).slice(1); }

/**
 * The parse of the text analyze() is analysing, for its duration (pinParsed): its documents are found by their text
 * even when the cache has let them go (a big bundle's documents go long before its analysis ends, and a CRD index
 * that reads the same file's CRDs, as every workspace's does for the file being checked, parsed them all again:
 * 0.3 s of a fresh editor's check of an 11.7 MB bundle).
 */
let pinned: { file: YamlFile; byText?: Map<string, ParsedChunk> } | undefined;
export function pinParsed(file: YamlFile | undefined): void { pinned = file && { file }; }

function pinnedChunk(text: string): ParsedChunk | undefined {
  if (!pinned) return undefined;
  if (!pinned.byText) {
    pinned.byText = new Map();
    for (const d of pinned.file.docs) pinned.byText.set(d.cacheKey, d.parsedChunk);
  }
  return pinned.byText.get(text);
}

/**
 * Documents an open file's reader parsed ahead of that file's own analysis (parseYamlHeld: the editor's CRD index reads
 * an open bundle's CRDs while the parts on screen are checked, and the whole file's analysis follows at once), kept
 * until that analysis parses them (taken, not parsed again), the file closes (forgetParsed), another file's are held,
 * or HELD_MAX_CHARS is reached. Without it an 11.7 MB bundle's CRDs were parsed twice on open: 0.27 s of 1.4 s.
 */
const held = new Map<string, ParsedChunk>();
let heldOwner: string | undefined;
let heldChars = 0;
const HELD_MAX_CHARS = 32 * 1024 * 1024;
function dropHeld(): void { held.clear(); heldChars = 0; heldOwner = undefined; }
/** `owner` closed (or is read no more): the documents held for its analysis go. */
export function forgetHeld(owner: string): void { if (heldOwner === owner) dropHeld(); }

/** parseYaml, holding the documents it had to parse for `owner`'s coming analysis (see `held`). */
export function parseYamlHeld(text: string, owner: string): YamlFile {
  if (heldOwner !== owner) { dropHeld(); heldOwner = owner; }
  return parseWith(text, (chunk) => {
    const known = chunkCache.has(chunk) || held.has(chunk) || pinnedChunk(chunk) !== undefined;
    const parsed = parseChunk(chunk);
    if (!known && heldChars + chunk.length <= HELD_MAX_CHARS) { held.set(chunk, parsed); heldChars += chunk.length; }
    return parsed;
  });
}

/**
 * The values of the documents parsed last, kept alive between files (keep-shapes.ts): a document's objects have hidden
 * classes of their keys' order, which the rules' optimised code refers to, and those of the last few dozen documents
 * parsed cover most of the next file's (a few hundred kilobytes at most: only their values, not their chunks).
 */
const RECENT = 64;
/** Only documents up to this size (their values hold their text alive): 64 of them hold at most 1 MB of text. */
const RECENT_MAX_CHARS = 16 * 1024;
const recentValues: unknown[] = new Array(RECENT).fill(null);
let recentAt = 0;
function keepRecent(value: unknown): void {
  if (value !== null && typeof value === 'object') recentValues[recentAt++ & (RECENT - 1)] = value;
}

function parseChunk(text: string): ParsedChunk {
  const hit = chunkCache.get(text);
  if (hit) {
    chunkCache.delete(text); chunkCache.set(text, hit); // LRU touch
    return hit;
  }
  const mine = pinnedChunk(text);
  if (mine) return mine;
  const ahead = held.get(text);
  if (ahead) {
    held.delete(text);
    heldChars -= text.length;
    remember(text, ahead);
    return ahead;
  }
  // Kept by the cache: its text and the values read from it must not hold the whole file's text.
  if (text.length <= CACHE_MAX_CHARS / 4) text = detached(text);
  const fast = fastParse(text);
  if (fast && text.length <= RECENT_MAX_CHARS) keepRecent(fast.value);
  const chunk: ParsedChunk = fast ? new FastChunk(text, fast) : parseFull(text);
  remember(text, chunk);
  return chunk;
}

export function parseYaml(text: string): YamlFile {
  return parseWith(text, parseChunk);
}

/** The documents of `text` as parseYaml cuts it (the parse cache's keys). */
function documentTexts(text: string): string[] {
  text = loneCrsAsLf(text);
  return splitDocuments(text).map((c) => text.slice(c.start, c.end));
}

/**
 * Drops the parsed documents of `text` from the parse cache, but those that are documents of a text in `keep` too.
 * For a caller that keeps what it needs of an analysis itself: the language server keeps only the findings of most
 * parts of a big file, and their parsed documents (about 15 times the size of their text) need not stay.
 */
export function forgetParsed(text: string, keep: readonly string[] = [], parsed?: YamlFile): void {
  if (!chunkCache.size) return;
  let kept: Set<string> | undefined;
  const drop = (d: string) => {
    if (!chunkCache.has(d)) return;
    // The texts to keep are cut only when a document is there to drop, and each once while it is kept (the editor's
    // background pass asks once per part with the same few hot parts: cutting them every time cost more than the rest).
    kept ??= new Set(keep.flatMap(keptDocuments));
    if (!kept.has(d)) uncache(d);
  };
  // `parsed`: text's parse, whose documents are the cache's own keys (no cutting and copying of the text again, and
  // each key's hash is already worked out; a big file's background pass spent 6% of its time cutting its parts again).
  if (parsed) { for (const d of parsed.docs) drop(d.cacheKey); return; }
  // Else only the documents of a length the cache holds are cut and looked up.
  text = loneCrsAsLf(text);
  for (const c of splitDocuments(text)) if (cachedLengths.has(c.end - c.start)) drop(text.slice(c.start, c.end));
}
const keptMemo = new Map<string, string[]>();
function keptDocuments(text: string): string[] {
  let docs = keptMemo.get(text);
  if (!docs) {
    docs = documentTexts(text);
    keptMemo.set(text, docs);
    if (keptMemo.size > 8) keptMemo.delete(keptMemo.keys().next().value as string);
  }
  return docs;
}

/** parseYaml without the fast path and the cache: every document through the yaml package's full parse. */
export function parseYamlFull(text: string): YamlFile {
  return parseWith(text, parseFull);
}

/**
 * The text as the parse reads it: a lone CR is a line break for LSP and for YAML 1.2, but not for the parser, so it is
 * made a LF (same length, same offsets). parseWith, documentTexts and forgetParsed cut the same documents from it.
 */
function loneCrsAsLf(text: string): string {
  return loneCrIn(text) ? text.replace(/\r(?!\n)/g, '\n') : text;
}

function parseWith(text: string, parse: (chunk: string) => ParsedChunk): YamlFile {
  text = loneCrsAsLf(text);
  const docs = splitDocuments(text).map((c, i) => new YamlDoc(i, c.start, parse(text.slice(c.start, c.end))));
  return new YamlFile(text, docs);
}

/**
 * The last index of `key` in a mapping's keys: of a key given twice, the value YAML readers keep (and the value the
 * rules judged), so that a finding and its fix land on that one, not on the pair they drop. A big mapping gets an
 * index on its first lookup: every schema problem of a file with tens of thousands of keys is located by its key, and
 * a scan each time was quadratic.
 */
function keyIndex(keys: readonly string[], key: string): number {
  if (keys.length <= INDEX_FROM) return keys.lastIndexOf(key);
  let m = keyIndexes.get(keys);
  if (!m) {
    m = new Map();
    for (let i = 0; i < keys.length; i++) m.set(keys[i], i);
    keyIndexes.set(keys, m);
  }
  return m.get(key) ?? -1;
}
const keyIndexes = new WeakMap<readonly string[], Map<string, number>>();
const INDEX_FROM = 32;

/** The last pair of a mapping (the full parse) whose key is `key` (as keyIndex), with the same index for big mappings. */
export function findPair(items: readonly Pair[], key: string): Pair | undefined {
  if (items.length <= INDEX_FROM) {
    for (let i = items.length - 1; i >= 0; i--) if (keyString(items[i]) === key) return items[i];
    return undefined;
  }
  let m = pairIndexes.get(items);
  if (!m) {
    m = new Map();
    for (const p of items) { const k = keyString(p); if (k !== undefined) m.set(k, p); }
    pairIndexes.set(items, m);
  }
  return m.get(key);
}
const pairIndexes = new WeakMap<readonly Pair[], Map<string, Pair>>();
