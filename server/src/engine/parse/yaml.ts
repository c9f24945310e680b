// The one place that parses YAML. Rules see `YamlFile`/`YamlDoc` only, so the parser behind them
// can be swapped (the speed work wants a token-level one) without touching any rule.
//
// A file is split into documents at `---` lines first (a `---` at column 0 always starts a document:
// the YAML spec forbids it inside scalars), and each document is parsed on its own. Parsed
// documents are cached by their text, so an edit re-parses only the document it touches.
import { parseDocument, isMap, isSeq, isPair, isScalar, isNode, type Document, type Node, type Pair } from 'yaml';

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
  doc: Document.Parsed;
  value: unknown;
  errors: SyntaxProblem[];
  /** Keys that appear twice in one mapping: the file parses, the earlier value is silently dropped. */
  duplicateKeys: SyntaxProblem[];
  empty: boolean;
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
  get ast(): Document.Parsed { return this.chunk.doc; }

  private abs(r: readonly number[] | null | undefined): OffsetRange | undefined {
    if (!r) return undefined;
    return { start: r[0] + this.offset, end: r[1] + this.offset };
  }

  /** Range of the whole document's root node. */
  rootRange(): OffsetRange {
    const c = this.chunk.doc.contents as Node | null;
    return this.abs(c?.range) ?? { start: this.offset, end: this.offset };
  }

  /**
   * Locates a node by its path of keys and indices (as in an ajv instancePath).
   * Returns the deepest node that exists on the path, so an error below a missing node
   * still points somewhere sensible.
   */
  locate(path: ReadonlyArray<string | number>): NodeLocation {
    let node: unknown = this.chunk.doc.contents;
    let loc: NodeLocation = { value: this.rootRange(), node: node as Node };
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => keyString(p) === String(seg)) as Pair | undefined;
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

  /** Top-level mapping entries with their key and value ranges, in source order. */
  topLevelEntries(): Array<{ key: string; keyRange: OffsetRange; valueRange: OffsetRange }> {
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

function keyString(p: unknown): string | undefined {
  if (!isPair(p)) return undefined;
  const k = p.key as unknown;
  if (isScalar(k)) return k.value === null ? '' : String(k.value);
  if (k === null || k === undefined) return undefined;
  return String(k);
}

export class YamlFile {
  constructor(readonly text: string, readonly docs: YamlDoc[]) {}
  get errors(): SyntaxProblem[] { return this.docs.flatMap((d) => d.errors); }
}

const DOC_START = /^---(?=[ \t]|$)/;

/** Splits YAML text into document chunks at `---` lines. Leading directive/comment-only chunks are merged forward. */
export function splitDocuments(text: string): Array<{ start: number; end: number }> {
  const cuts: number[] = [0];
  let pos = 0;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    if (pos > 0 && text.charCodeAt(pos) === 45 /* - */ && DOC_START.test(text.slice(pos, Math.min(nl, pos + 4)))) cuts.push(pos);
    pos = nl + 1;
  }
  const chunks: Array<{ start: number; end: number }> = [];
  let pendingStart = -1;
  for (let i = 0; i < cuts.length; i++) {
    const start = pendingStart >= 0 ? pendingStart : cuts[i];
    const end = i + 1 < cuts.length ? cuts[i + 1] : text.length;
    const body = text.slice(cuts[i], end);
    if (i + 1 < cuts.length && isPreamble(body, i === 0)) { pendingStart = start; continue; }
    pendingStart = -1;
    chunks.push({ start, end });
  }
  return chunks;
}

/** A chunk that holds only comments, blank lines and directives belongs to the document after it. */
function isPreamble(body: string, first: boolean): boolean {
  for (const raw of body.split(/\r?\n|\r/)) {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (line === '' || line.startsWith('#') || (first && line.startsWith('%'))) continue;
    return false;
  }
  return true;
}

// Parsed documents are kept by their text, bounded by the total size of that text: an editor keeps its open
// files' documents, a CI run over thousands of files does not grow without bound.
const CACHE_MAX_CHARS = 4 * 1024 * 1024;
const chunkCache = new Map<string, ParsedChunk>();
let cachedChars = 0;

function remember(text: string, chunk: ParsedChunk): void {
  if (text.length > CACHE_MAX_CHARS / 4) return; // one huge document would flush everything else
  chunkCache.set(text, chunk);
  cachedChars += text.length;
  for (const key of chunkCache.keys()) {
    if (cachedChars <= CACHE_MAX_CHARS) break;
    chunkCache.delete(key);
    cachedChars -= key.length;
  }
}

function parseChunk(text: string): ParsedChunk {
  const hit = chunkCache.get(text);
  if (hit) {
    chunkCache.delete(text); chunkCache.set(text, hit); // LRU touch
    return hit;
  }
  // YAML 1.1 as Ansible (PyYAML) and Kubernetes (go-yaml) read it: `yes`/`on` are booleans there.
  const doc = parseDocument(text, { version: '1.1', prettyErrors: false, uniqueKeys: true, keepSourceTokens: false, logLevel: 'error' });
  const all: SyntaxProblem[] = doc.errors.map((e) => ({
    message: e.message.split('\n')[0], start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), code: e.code,
  }));
  const errors = all.filter((e) => e.code !== 'DUPLICATE_KEY');
  const duplicateKeys = all.filter((e) => e.code === 'DUPLICATE_KEY');
  let value: unknown = null;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    const r = (doc.contents as Node | null)?.range ?? [0, 0];
    errors.push({ message: (e as Error).message, start: r[0], end: r[1], code: 'TO_JS' });
  }
  const chunk: ParsedChunk = { text, doc, value, errors, duplicateKeys, empty: doc.contents === null };
  remember(text, chunk);
  return chunk;
}

export function parseYaml(text: string): YamlFile {
  // A lone CR is a line break for LSP and for YAML 1.2, but not for the parser: make it LF (same length, same offsets).
  if (text.includes('\r')) text = text.replace(/\r(?!\n)/g, '\n');
  const docs = splitDocuments(text).map((c, i) => new YamlDoc(i, c.start, parseChunk(text.slice(c.start, c.end))));
  return new YamlFile(text, docs);
}
