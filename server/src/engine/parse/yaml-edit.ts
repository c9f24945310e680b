// Minimal, formatting-preserving edits to a parsed YAML document: each operation touches only the text of
// the node it changes, so comments, quoting, key order and indentation elsewhere stay byte-for-byte the same.
import { stringify, isMap, isSeq, isScalar, isNode, isPair, Lexer, type Node, type Pair, type YAMLMap } from 'yaml';
import { findPair, type YamlDoc, type OffsetRange } from './yaml';

export interface OffsetEdit { range: OffsetRange; newText: string }

type Path = ReadonlyArray<string | number>;

const indentSeqOf = new WeakMap<YamlDoc, boolean>();

export class YamlEditor {
  readonly edits: OffsetEdit[] = [];
  /**
   * Whether an edit so far removes or rewrites a key: renameKey, deleteKey, replaceEntry, or replaceValue of a value
   * that holds keys. setScalar, insertKey and the replacement of a value without keys are not. A fix built from this
   * editor declares it (Fix.destructive), which fix-all reads under a default window (server/fix-window.ts).
   */
  destructive = false;
  private readonly indentSeq: boolean;
  /** `json`: the file is JSON, so new values and keys are written as JSON. */
  constructor(readonly text: string, readonly doc: YamlDoc, readonly json = false) {
    // Once per document: a List of thousands of objects gets an editor per fix, and the scan reads the whole document.
    let seq = indentSeqOf.get(doc);
    if (seq === undefined) indentSeqOf.set(doc, seq = detectIndentSeq(text.slice(doc.offset, doc.end)));
    this.indentSeq = seq;
  }

  private key(k: string): string { return this.json ? JSON.stringify(k) : k; }

  private node(path: Path): { node: Node | null | undefined; pair?: Pair } {
    let cur: unknown = this.doc.ast.contents;
    let pair: Pair | undefined;
    for (const seg of path) {
      if (isMap(cur)) {
        // The last pair of a key given twice: the value YAML readers keep, which the findings are about.
        pair = findPair(cur.items as Pair[], String(seg));
        cur = pair?.value;
      } else if (isSeq(cur)) {
        pair = undefined;
        cur = cur.items[Number(seg)];
      } else return { node: undefined };
    }
    return { node: cur as Node, pair };
  }

  private abs(n: number): number { return n + this.doc.offset; }

  /** Column (in characters) of the line holding an absolute offset, up to that offset. */
  private columnOf(off: number): number {
    let s = off;
    while (s > 0 && this.text[s - 1] !== '\n' && this.text[s - 1] !== '\r') s--;
    return off - s;
  }

  private lineStartAfter(off: number): number {
    let i = off;
    while (i < this.text.length && this.text[i] !== '\n') i++;
    return i < this.text.length ? i + 1 : i;
  }

  /** The document's line break, looked up once: a bundle's editor is asked for it at every insertion. */
  get newline(): string {
    return (this.nl ??= this.text.slice(this.doc.offset, this.doc.end).includes('\r\n') ? '\r\n' : '\n');
  }
  private nl?: string;

  private block(value: unknown, indent: number): string {
    const s = (plainBlock(value) ?? stringify(value, { indent: 2, lineWidth: 0, indentSeq: this.indentSeq, version: '1.1' })).replace(/\n$/, '');
    const pad = ' '.repeat(indent);
    return s.split('\n').map((l) => (l ? pad + l : l)).join(this.newline);
  }

  private flow(value: unknown): string {
    if (this.json) return JSON.stringify(value);
    if (value === null || typeof value !== 'object') return plainScalar(value) ?? stringify(value, { version: '1.1' }).trim();
    return stringify(value, { collectionStyle: 'flow', lineWidth: 0, version: '1.1' }).trim();
  }

  /** Replaces a scalar's text, keeping its quote style. */
  setScalar(path: Path, value: string | number): boolean {
    const { node } = this.node(path);
    if (!isScalar(node) || !node.range) return false;
    const start = this.abs(node.range[0]), end = this.abs(node.range[1]);
    const src = this.text.slice(start, end);
    const q = /^["']/.test(src) ? src[0] : '';
    this.edits.push({ range: { start, end }, newText: typeof value === 'number' ? String(value) : `${q}${value}${q}` });
    return true;
  }

  /** Renames a mapping key in place. */
  renameKey(path: Path, newKey: string): boolean {
    const { pair } = this.node(path);
    if (!pair || !isScalar(pair.key) || !pair.key.range) return false;
    const src = this.text.slice(this.abs(pair.key.range[0]), this.abs(pair.key.range[1]));
    const q = /^["']/.test(src) ? src[0] : '';
    this.edits.push({ range: { start: this.abs(pair.key.range[0]), end: this.abs(pair.key.range[1]) }, newText: q ? `${q}${newKey}${q}` : this.key(newKey) });
    this.destructive = true;
    return true;
  }

  /** Replaces a value (scalar or collection) with a new one, in the style the old value had. */
  replaceValue(path: Path, value: unknown): boolean {
    const { node } = this.node(path);
    if (!isNode(node) || !node.range) return false;
    const start = this.abs(node.range[0]), end = this.abs(node.range[1]);
    if (holdsKeys(node)) this.destructive = true;
    const flowStyle = isScalar(node) || (node as YAMLMap).flow || value === null || typeof value !== 'object';
    if (flowStyle) {
      this.edits.push({ range: { start, end }, newText: this.flow(value) });
    } else {
      // A block collection under a key: keep its indentation, start it on the key's next line.
      const indent = this.columnOf(start);
      const text = this.block(value, indent);
      // The node's range runs to the end of a comment on its last line: stop at the last value instead,
      // so that comment stays (after the new text); comments inside the old value are kept as comment
      // lines above the new one.
      const valueEnd = trimTrailingBreak(this.text, start, Math.min(end, this.abs(lastValueEnd(node))));
      const comments = commentsIn(' '.repeat(indent) + this.text.slice(start, valueEnd));
      const lead = comments.map((c) => `${c}${this.newline}${' '.repeat(indent)}`).join('');
      this.edits.push({ range: { start, end: valueEnd }, newText: lead + text.slice(indent) });
    }
    return true;
  }

  /** Adds a key to a mapping (after its last entry), unless it is already there. */
  insertKey(mapPath: Path, key: string, value: unknown): boolean {
    const { node } = this.node(mapPath);
    if (!isMap(node) || !node.range) return false;
    if (node.items.some((p) => isScalar(p.key) && String(p.key.value) === key)) return false;
    if (node.flow) {
      const entry = `${this.key(key)}: ${this.flow(value)}`;
      const last = node.items[node.items.length - 1] as Pair | undefined;
      const multiLine = /[\r\n]/.test(this.text.slice(this.abs(node.range[0]), this.abs(node.range[1])));
      if (last && multiLine && isScalar(last.key) && last.key.range) {
        // One entry per line (pretty JSON): a new line after the last entry, at its indentation.
        const lastEnd = this.abs(((last.value as Node | null)?.range ?? last.key.range)[1]);
        const indent = this.columnOf(this.abs(last.key.range[0]));
        this.edits.push({ range: { start: lastEnd, end: lastEnd }, newText: `,${this.newline}${' '.repeat(indent)}${entry}` });
      } else {
        const close = this.abs(node.range[1]) - 1; // the closing brace
        this.edits.push({ range: { start: close, end: close }, newText: `${node.items.length ? ', ' : ''}${entry}` });
      }
      return true;
    }
    const first = node.items[0] as Pair | undefined;
    if (!first || !isScalar(first.key) || !first.key.range) return false;
    const indent = this.columnOf(this.abs(first.key.range[0]));
    const last = node.items[node.items.length - 1] as Pair;
    const lastEnd = this.abs(((last.value as Node | null)?.range ?? (last.key as Node).range!)[1]);
    const at = this.text[lastEnd - 1] === '\n' ? lastEnd : this.lineStartAfter(lastEnd);
    // At the end of a file without a final line break the first insertion there starts one; later ones follow it.
    const atEof = at === this.text.length && this.text[at - 1] !== '\n' && !this.edits.some((e) => e.range.start === at && e.range.end === at);
    const scalar = value === null || typeof value !== 'object';
    const body = scalar ? `${' '.repeat(indent)}${key}: ${this.flow(value)}` : `${' '.repeat(indent)}${key}:${this.newline}${this.block(value, indent + 2)}`;
    this.edits.push({ range: { start: at, end: at }, newText: `${atEof ? this.newline : ''}${body}${this.newline}` });
    return true;
  }

  /** Removes a key and its value (whole lines for block mappings). */
  deleteKey(path: Path): boolean {
    const { pair } = this.node(path);
    const parentPath = path.slice(0, -1);
    const { node: parent } = this.node(parentPath);
    if (!pair || !isMap(parent) || !isScalar(pair.key) || !pair.key.range) return false;
    const kStart = this.abs(pair.key.range[0]);
    const vEnd = this.abs(((pair.value as Node | null)?.range ?? pair.key.range)[1]);
    if (parent.flow) {
      const idx = parent.items.indexOf(pair);
      let s = kStart, e = vEnd;
      const tail = this.text.slice(e).match(/^\s*,\s*/);
      if (tail) e += tail[0].length;
      else if (idx > 0) { const head = this.text.slice(0, s).match(/,\s*$/); if (head) s -= head[0].length; }
      this.edits.push({ range: { start: s, end: e }, newText: '' });
      this.destructive = true;
      return true;
    }
    const lineStart = kStart - this.columnOf(kStart);
    const end = this.text[vEnd - 1] === '\n' ? vEnd : this.lineStartAfter(vEnd);
    this.edits.push({ range: { start: lineStart, end }, newText: '' });
    this.destructive = true;
    return true;
  }

  /**
   * Replaces a key and its value with another key and a scalar value; comments the old entry held are kept as
   * lines above the new one (JSON and flow mappings have none: a rename and a new value).
   */
  replaceEntry(path: Path, newKey: string, value: string | number | boolean): boolean {
    const { pair } = this.node(path);
    const { node: parent } = this.node(path.slice(0, -1));
    if (!pair || !isMap(parent) || !isScalar(pair.key) || !pair.key.range) return false;
    if (parent.flow) return this.replaceValue(path, value) && this.renameKey(path, newKey);
    const kStart = this.abs(pair.key.range[0]);
    const vEnd = this.abs(((pair.value as Node | null)?.range ?? pair.key.range)[1]);
    const indent = this.columnOf(kStart);
    const lineStart = kStart - indent;
    const end = this.text[vEnd - 1] === '\n' ? vEnd : this.lineStartAfter(vEnd);
    const pad = ' '.repeat(indent);
    const comments = commentsIn(this.text.slice(lineStart, end)).map((c) => `${pad}${c}${this.newline}`).join('');
    this.edits.push({ range: { start: lineStart, end }, newText: `${comments}${pad}${this.key(newKey)}: ${this.flow(value)}${this.newline}` });
    this.destructive = true;
    return true;
  }

  /** The edits applied to the text (for checking a conversion before offering it). */
  apply(): string {
    let out = this.text;
    for (const e of this.edits.map((x, i) => ({ ...x, i })).sort((a, b) => b.range.start - a.range.start || b.i - a.i)) out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
    return out;
  }
}

/** Offset (in the document) where the last value inside a block collection ends, before any comment after it. */
function lastValueEnd(n: Node): number {
  let cur: Node = n;
  for (;;) {
    if ((isMap(cur) || isSeq(cur)) && !cur.flow && cur.items.length) {
      const last = cur.items[cur.items.length - 1] as unknown;
      const next = isPair(last) ? (last.value ?? last.key) : last;
      if (!isNode(next) || !next.range) return cur.range![1];
      cur = next;
    } else return cur.range![1];
  }
}

/** The comments (`# …`) in a piece of YAML text, in order. */
/**
 * A number or a word that YAML 1.1 and 1.2 both read back as that same value, as the yaml package writes it; undefined
 * for anything else (the package's stringify then decides). Fixes in a bundle insert thousands of these.
 */
function plainScalar(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : undefined;
  if (typeof v !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(v)) return undefined;
  return /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/.test(v) ? undefined : v;
}

/** A block mapping of plain keys and scalars (nested mappings too), as the yaml package writes it; else undefined. */
function plainBlock(v: unknown, pad = ''): string | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  let out = '';
  for (const [k, x] of Object.entries(v)) {
    if (plainScalar(k) === undefined) return undefined;
    if (x && typeof x === 'object') {
      const inner = Array.isArray(x) || !Object.keys(x).length ? undefined : plainBlock(x, `${pad}  `);
      if (inner === undefined) return undefined;
      out += `${pad}${k}:\n${inner}`;
    } else {
      const s = plainScalar(x);
      if (s === undefined) return undefined;
      out += `${pad}${k}: ${s}\n`;
    }
  }
  return out || undefined;
}

function commentsIn(text: string): string[] {
  return [...new Lexer().lex(text)].filter((t) => t.startsWith('#'));
}

function trimTrailingBreak(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && (text[e - 1] === '\n' || text[e - 1] === '\r')) e--;
  return e;
}

/** Whether block sequences are indented under their key (`key:\n  - a`) or not (`key:\n- a`). */
export function detectIndentSeq(text: string): boolean {
  const m = /^([ \t]*)[^\s#-][^\n]*:[ \t]*(?:#.*)?\r?\n([ \t]*)- /m.exec(text);
  return m ? m[2].length > m[1].length : true;
}

export { isPair };

/** Whether a node is or holds a mapping with at least one key (a value whose replacement rewrites keys). */
function holdsKeys(node: unknown): boolean {
  if (isMap(node)) return node.items.length > 0;
  if (isSeq(node)) return node.items.some(holdsKeys);
  if (isPair(node)) return true;
  return false;
}
