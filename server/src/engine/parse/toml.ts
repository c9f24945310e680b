// The one place that parses TOML (toml-eslint-parser: a maintained TOML 1.0 parser whose syntax tree carries
// source ranges for every key, table header and value, and whose errors carry an offset). Rules see TomlFile only.
import { parseTOML, getStaticTOMLValue } from 'toml-eslint-parser';
import type { OffsetRange, SyntaxProblem } from './yaml';

export interface TomlEntry {
  /** The table the entry belongs to (["hypervisor", "qemu"]); [] for top-level keys. */
  table: string[];
  /** The key within that table (dotted keys give more than one segment). */
  key: string[];
  keyRange: OffsetRange;
  valueRange: OffsetRange;
  /** The whole `key = value` line(s). */
  range: OffsetRange;
  value: unknown;
}

export interface TomlTable {
  path: string[];
  kind: 'standard' | 'array' | 'implicit';
  /** The name inside the brackets. */
  headerRange: OffsetRange;
  /** From the header to the end of the table's last entry. */
  range: OffsetRange;
  /** The nearest table of the file whose path is a prefix of this one's (not enumerable: no JSON of chains). */
  readonly parent?: TomlTable;
  /** path.length, without building the path (inline tables nested N deep would make N paths of up to N keys). */
  depth: number;
  /** path[0] and path[1] (undefined past the path's end), without building the path. */
  readonly top: readonly [string | undefined, string | undefined];
  /** The path's last n keys (n ≤ depth), in O(n) without building the path (not enumerable). */
  readonly tail: (n: number) => string[];
}

/** A trie over table paths, for the parser's walk: each key/value knows the node of its table, so nested inline
 * tables cost one step per level, not a path string per level. */
interface PathNode {
  children: Map<string, PathNode>; up?: PathNode; key?: string; depth: number; table?: TomlTable; obj?: Record<string, unknown>; path?: string[];
  /** The path's first two keys (TomlTable.top), from the parent's. */
  top: readonly [string | undefined, string | undefined];
}
function descend(n: PathNode, segs: string[]): PathNode {
  for (const seg of segs) {
    let c = n.children.get(seg);
    if (!c) {
      const top = n.depth === 0 ? [seg, undefined] as const : n.depth === 1 ? [n.top[0], seg] as const : n.top;
      n.children.set(seg, (c = { children: new Map(), up: n, key: seg, depth: n.depth + 1, top }));
    }
    n = c;
  }
  return n;
}
/** The keys from the root to a node, built on first use and kept on the node (shared: callers must not change it). */
function pathOf(n: PathNode): string[] {
  if (n.path) return n.path;
  const keys: string[] = new Array(n.depth);
  for (let m: PathNode | undefined = n, i = n.depth - 1; m && i >= 0; m = m.up, i--) keys[i] = m.key!;
  return (n.path = keys);
}
/** A table whose path is made when asked for. */
function lazyTable(node: PathNode, t: Omit<TomlTable, 'path' | 'depth' | 'top' | 'tail'>): TomlTable {
  const out = t as { -readonly [K in keyof TomlTable]: TomlTable[K] };
  out.depth = node.depth;
  out.top = node.top;
  Object.defineProperty(out, 'path', { get: () => pathOf(node), enumerable: true, configurable: true });
  Object.defineProperty(out, 'tail', { value: (n: number) => tailOf(node, n), enumerable: false });
  return out;
}
/** The last n keys of a node's path: n steps up the trie (or a slice of the path, once it is built). */
function tailOf(node: PathNode, n: number): string[] {
  n = Math.max(0, Math.min(n, node.depth));
  if (node.path) return node.path.slice(node.depth - n);
  const keys: string[] = new Array(n);
  let m: PathNode | undefined = node;
  for (let i = n - 1; i >= 0 && m; i--, m = m.up) keys[i] = m.key!;
  return keys;
}
/** The object of the value at a node, made as ensure() makes it (own properties), found from the nearest node
 * that has one: one step per level the first time, none after. */
function objectAt(n: PathNode): Record<string, unknown> {
  const chain: PathNode[] = [];
  let top = n;
  while (!top.obj) { chain.push(top); top = top.up!; }
  let o = top.obj;
  for (let i = chain.length - 1; i >= 0; i--) {
    o = ensure(o, [chain[i].key!]);
    chain[i].obj = o;
  }
  return o;
}
/** Files the table at its node, with its nearest enclosing table. */
function fileTable(node: PathNode, t: TomlTable, tables: TomlTable[], tableNodes: PathNode[]): void {
  let up = node.up;
  while (up && !up.table) up = up.up;
  if (up?.table) Object.defineProperty(t, 'parent', { value: up.table, enumerable: false });
  node.table ??= t;
  tables.push(t);
  tableNodes.push(node);
}

export interface TomlFile {
  text: string;
  value: Record<string, unknown>;
  entries: TomlEntry[];
  tables: TomlTable[];
  errors: SyntaxProblem[];
}

interface Node { range: [number, number]; type: string; [k: string]: any }

const keyNames = (key: Node): string[] => key.keys.map((k: Node) => (k.type === 'TOMLBare' ? k.name : k.value));

/** Deepest nesting of arrays and inline tables read (the parser recurses per level; real files nest 2 deep). */
export const MAX_TOML_DEPTH = 1000;
/** Most items of one array or inline table read: the parser costs ~10 µs and a few hundred bytes per item (a
 * 1,000,000-item array took 11-25 s); real Kata files have arrays of a few paths. */
export const MAX_TOML_ITEMS = 100_000;
/** Longest string read: the parser recurses per character and runs out of stack at ~120,000. */
export const MAX_TOML_STRING = 50_000;

/**
 * Where the text passes one of the limits above, with what: one pass over the text, skipping comments, the four kinds
 * of strings, and [table] / [[array]] headers (a "[" at depth 0 starting a line). No stack: the per-level item
 * counts live in an array of at most MAX_TOML_DEPTH entries.
 */
export function tomlLimits(t: string): SyntaxProblem | undefined {
  // TOML_DEPTH is reported as a parse error (nesting far beyond any real file); TOML_LIMIT, valid TOML that this
  // parser cannot take, as a file not checked. Both at the place.
  const problem = (at: number, message: string, code = 'TOML_LIMIT'): SyntaxProblem => ({ message, start: at, end: at + 1, code });
  let depth = 0, lineStart = true, header = false;
  const items: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 10) { lineStart = true; header = false; continue; }
    if (c === 32 || c === 9 || c === 13) continue;
    const first = lineStart;
    lineStart = false;
    if (c === 35) { const e = t.indexOf('\n', i); if (e < 0) return undefined; i = e - 1; continue; } // # comment
    if (c === 34 || c === 39) { // " or '
      const q = t[i], start = i;
      if (t.startsWith(q + q + q, i)) {
        const e = c === 39 ? t.indexOf("'''", i + 3) : closeBasic(t, i + 3, true);
        if (e < 0) return undefined;
        i = e + 2;
        while (t[i + 1] === q) i++; // up to two quotes of the content may touch the closing ones
      } else {
        const e = c === 39 ? t.indexOf("'", i + 1) : closeBasic(t, i + 1, false);
        if (e < 0) return undefined;
        i = e;
      }
      if (i - start > MAX_TOML_STRING) return problem(start, `a string of more than ${MAX_TOML_STRING.toLocaleString('en-US')} characters: the TOML parser runs out of stack on strings this long`);
      continue;
    }
    if (header) continue;
    if (c === 91 || c === 123) {
      if (depth === 0 && first && c === 91) { header = true; continue; }
      if (++depth > MAX_TOML_DEPTH) return problem(i, `nested too deeply to read: more than ${MAX_TOML_DEPTH} levels of arrays and inline tables`, 'TOML_DEPTH');
      items[depth] = 0;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
    else if (c === 44 && depth > 0 && ++items[depth] >= MAX_TOML_ITEMS) {
      return problem(i, `an ${t[nearestOpen(t, i)] === '{' ? 'inline table' : 'array'} of more than ${MAX_TOML_ITEMS.toLocaleString('en-US')} items: the TOML parser takes about 10 µs per item`);
    }
  }
  return undefined;
}

/** The "[" or "{" of the innermost array or inline table around a comma, by a backward scan that skips nested ones
 * (only called once, when a limit is passed; strings may fool it, and then only the wording differs). */
function nearestOpen(t: string, i: number): number {
  let d = 0;
  for (let j = i; j >= 0; j--) {
    const c = t.charCodeAt(j);
    if (c === 93 || c === 125) d++;
    else if (c === 91 || c === 123) { if (d === 0) return j; d--; }
  }
  return 0;
}

/** Offset of the quote that closes a basic string ("…" or \"\"\"…\"\"\" when multi) whose content starts at i; -1 if none. */
function closeBasic(t: string, i: number, multi: boolean): number {
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) { i++; continue; }
    if (c === 34 && (!multi || t.startsWith('"""', i))) return i;
    if (c === 10 && !multi) return i; // a line break ends a (broken) one-line string: the parser reports it
  }
  return -1;
}

export function parseTomlText(text: string): TomlFile {
  const limit = tomlLimits(text);
  if (limit) return { text, value: {}, entries: [], tables: [], errors: [limit] };
  let ast: Node;
  try {
    ast = parseTOML(text) as unknown as Node;
  } catch (e) {
    const err = e as Error & { index?: number };
    // The parser recurses per character of a string: a value of ~120,000+ characters overflows its stack.
    if (e instanceof RangeError) return { text, value: {}, entries: [], tables: [], errors: [{ message: 'the TOML parser ran out of stack on this file (a value of more than about 100,000 characters)', start: 0, end: 0, code: 'TOML_LIMIT' }] };
    const at = typeof err.index === 'number' ? Math.min(err.index, text.length) : 0;
    const header = unterminatedHeader(text, at, err.message);
    if (header) return { text, value: {}, entries: [], tables: [], errors: [header] };
    const end = Math.min(text.length, at + 1);
    return { text, value: {}, entries: [], tables: [], errors: [{ message: err.message.split('\n')[0], start: at, end: Math.max(end, at), code: 'TOML' }] };
  }
  const entries: TomlEntry[] = [];
  const tables: TomlTable[] = [];
  const tableNodes: PathNode[] = []; // per table, its node
  const entryNodes: PathNode[] = []; // per entry, the node of the object it is set in
  const top = ast.body[0] as Node;
  const root: PathNode = { children: new Map(), depth: 0, path: [], top: [undefined, undefined] };
  const implicitTable = (node: PathNode, header: OffsetRange, range: OffsetRange) => {
    if (node.depth && !node.table) fileTable(node, lazyTable(node, { kind: 'implicit', headerRange: header, range }), tables, tableNodes);
  };
  // Dotted keys (`qemu.path = …`) and inline tables (`qemu = { … }`) define tables too: their keys are filed
  // under the table they belong to, as if written below a [table] header. Iterative, in source order (a stack of
  // the key/values still to visit, each inline table's members pushed last-first).
  const visitKvs = (kvs: Node[], tableNode: PathNode) => {
    const todo: Array<{ kv: Node; node: PathNode }> = [];
    for (let i = kvs.length - 1; i >= 0; i--) todo.push({ kv: kvs[i], node: tableNode });
    while (todo.length) {
      const { kv, node } = todo.pop()!;
      const segs = kv.key.keys as Node[];
      const names = keyNames(kv.key);
      const range = { start: kv.range[0], end: kv.range[1] };
      if (kv.value.type === 'TOMLInlineTable') {
        const at = descend(node, names);
        implicitTable(at, { start: kv.key.range[0], end: kv.key.range[1] }, range);
        const body = kv.value.body as Node[];
        for (let i = body.length - 1; i >= 0; i--) todo.push({ kv: body[i], node: at });
        continue;
      }
      const ownerNode = names.length > 1 ? descend(node, names.slice(0, -1)) : node;
      if (names.length > 1) implicitTable(ownerNode, { start: segs[0].range[0], end: segs[segs.length - 2].range[1] }, range);
      entryNodes.push(ownerNode);
      const last = segs[segs.length - 1];
      entries.push({
        table: pathOf(ownerNode), key: names.slice(-1),
        keyRange: { start: last.range[0], end: last.range[1] },
        valueRange: { start: kv.value.range[0], end: kv.value.range[1] },
        range,
        value: staticValue(kv.value),
      });
    }
  };
  for (const item of top.body as Node[]) {
    if (item.type === 'TOMLKeyValue') { visitKvs([item], root); continue; }
    const path = (item.resolvedKey as Array<string | number>).filter((k): k is string => typeof k === 'string');
    const node = descend(root, path);
    const table = { path, depth: path.length, top: node.top, kind: item.kind, headerRange: { start: item.key.range[0], end: item.key.range[1] }, range: { start: item.range[0], end: item.range[1] } } as Omit<TomlTable, 'tail'>;
    Object.defineProperty(table, 'tail', { value: (n: number) => tailOf(node, n), enumerable: false });
    fileTable(node, table as TomlTable, tables, tableNodes);
    visitKvs(item.body as Node[], node);
  }
  // The whole value, built from the entries with own properties only: `__proto__` and `constructor` are plain keys.
  const value: Record<string, unknown> = {};
  root.obj = value;
  tables.forEach((t, i) => { if (t.kind !== 'array') objectAt(tableNodes[i]); });
  entries.forEach((e, i) => setOwn(objectAt(entryNodes[i]), e.key[e.key.length - 1], e.value));
  return { text, value, entries, tables, errors: [] };
}

function setOwn(obj: Record<string, unknown>, key: string, v: unknown): void {
  Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
}
function ensure(root: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let o = root;
  for (const k of path) {
    const next = Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
    if (next && typeof next === 'object' && !Array.isArray(next)) { o = next as Record<string, unknown>; continue; }
    const fresh: Record<string, unknown> = {};
    setOwn(o, k, fresh);
    o = fresh;
  }
  return o;
}

/** A value node as JS, with inline tables built from own properties (the parser's helper assigns obj[key]).
 * Iterative: each node's slot in its parent is filled when the node is taken off the stack; keys are defined in
 * source order first, so the order of an object's keys is the file's. */
function staticValue(root: Node): unknown {
  let result: unknown;
  const todo: Array<{ n: Node; set: (v: unknown) => void }> = [{ n: root, set: (v) => { result = v; } }];
  while (todo.length) {
    const { n, set } = todo.pop()!;
    if (n.type === 'TOMLArray') {
      const els = n.elements as Node[];
      const arr: unknown[] = new Array(els.length);
      set(arr);
      for (let i = els.length - 1; i >= 0; i--) todo.push({ n: els[i], set: (v) => { arr[i] = v; } });
    } else if (n.type === 'TOMLInlineTable') {
      const o: Record<string, unknown> = {};
      set(o);
      const slots: Array<{ n: Node; set: (v: unknown) => void }> = [];
      for (const kv of n.body as Node[]) {
        const names = keyNames(kv.key);
        const target = ensure(o, names.slice(0, -1));
        const key = names[names.length - 1];
        setOwn(target, key, undefined);
        slots.push({ n: kv.value, set: (v) => setOwn(target, key, v) });
      }
      for (let i = slots.length - 1; i >= 0; i--) todo.push(slots[i]);
    } else {
      set(getStaticTOMLValue(n as any));
    }
  }
  return result;
}

/**
 * A `[table` header without its `]`: the parser only notices at the next token, usually on the next line ("The key,
 * equals sign, and value must be on the same line" at the next key), so point at the header line itself.
 */
function unterminatedHeader(text: string, at: number, message: string): SyntaxProblem | undefined {
  if (!/same line|Unterminated table-key/.test(message)) return undefined;
  // The last non-blank, non-comment line that starts before the error.
  let lineEnd = text.lastIndexOf('\n', Math.max(0, at - 1));
  if (lineEnd < 0 || text.slice(lineEnd + 1, at).trim() !== '') {
    // The error is on the header line itself: take the whole line.
    lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
  }
  for (;;) {
    const start = text.lastIndexOf('\n', lineEnd - 1) + 1;
    const line = text.slice(start, lineEnd).replace(/\r$/, '');
    if (line.trim() === '' || /^\s*#/.test(line)) {
      if (start === 0) return undefined;
      lineEnd = start - 1;
      continue;
    }
    const m = /^(\s*)(\[\[?[\w.\-"' ]*?)\s*(#.*)?$/.exec(line);
    if (!m) return undefined;
    const s = start + m[1].length;
    return { message: `unterminated table header ${m[2].trim()}: missing "${m[2].startsWith('[[') ? ']]' : ']'}"`, start: s, end: s + m[2].length, code: 'TOML' };
  }
}

/**
 * Parsed TOML, cached by text (an unchanged document is not parsed again): the most recently used CACHE_FILES, and at
 * most CACHE_CHARS of text in all (a longer text is not kept). A parse holds many times its text (inline tables nested
 * 1,000 deep, about 50 times), and 64 parses of any size kept 180 MB alive after a few big files had been read.
 */
const cache = new Map<string, TomlFile>();
const CACHE_FILES = 64;
const CACHE_CHARS = 2 * 1024 * 1024;
let cachedChars = 0;
export function parseToml(text: string): TomlFile {
  const hit = cache.get(text);
  if (hit) { cache.delete(text); cache.set(text, hit); return hit; }
  const f = parseTomlText(text);
  if (text.length <= CACHE_CHARS) {
    cache.set(text, f);
    cachedChars += text.length;
    // The oldest go first; the text just kept fits alone, so it stays.
    for (const k of cache.keys()) {
      if (cache.size <= CACHE_FILES && cachedChars <= CACHE_CHARS) break;
      cache.delete(k);
      cachedChars -= k.length;
    }
  }
  return f;
}

/** The texts whose parses are kept, and their characters (tests). */
export function tomlCacheStats(): { files: number; chars: number } { return { files: cache.size, chars: cachedChars }; }
