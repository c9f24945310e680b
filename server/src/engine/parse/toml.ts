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

export function parseTomlText(text: string): TomlFile {
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
  const top = ast.body[0] as Node;
  const seen = new Set<string>();
  const implicitTable = (path: string[], header: OffsetRange, range: OffsetRange) => {
    const k = path.join('.');
    if (path.length && !seen.has(k)) { seen.add(k); tables.push({ path, kind: 'implicit', headerRange: header, range }); }
  };
  // Dotted keys (`qemu.path = …`) and inline tables (`qemu = { … }`) define tables too: their keys are filed
  // under the table they belong to, as if written below a [table] header.
  const visitKv = (kv: Node, table: string[]) => {
    const segs = kv.key.keys as Node[];
    const names = keyNames(kv.key);
    const range = { start: kv.range[0], end: kv.range[1] };
    if (kv.value.type === 'TOMLInlineTable') {
      const path = [...table, ...names];
      implicitTable(path, { start: kv.key.range[0], end: kv.key.range[1] }, range);
      for (const child of kv.value.body as Node[]) visitKv(child, path);
      return;
    }
    const owner = [...table, ...names.slice(0, -1)];
    if (names.length > 1) implicitTable(owner, { start: segs[0].range[0], end: segs[segs.length - 2].range[1] }, range);
    const last = segs[segs.length - 1];
    entries.push({
      table: owner, key: names.slice(-1),
      keyRange: { start: last.range[0], end: last.range[1] },
      valueRange: { start: kv.value.range[0], end: kv.value.range[1] },
      range,
      value: staticValue(kv.value),
    });
  };
  for (const item of top.body as Node[]) {
    if (item.type === 'TOMLKeyValue') { visitKv(item, []); continue; }
    const path = (item.resolvedKey as Array<string | number>).filter((k): k is string => typeof k === 'string');
    seen.add(path.join('.'));
    tables.push({ path, kind: item.kind, headerRange: { start: item.key.range[0], end: item.key.range[1] }, range: { start: item.range[0], end: item.range[1] } });
    for (const kv of item.body as Node[]) visitKv(kv, path);
  }
  // The whole value, built from the entries with own properties only: `__proto__` and `constructor` are plain keys.
  const value: Record<string, unknown> = {};
  for (const t of tables) if (t.kind !== 'array') ensure(value, t.path);
  for (const e of entries) setOwn(ensure(value, [...e.table, ...e.key.slice(0, -1)]), e.key[e.key.length - 1], e.value);
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

/** A value node as JS, with inline tables built from own properties (the parser's helper assigns obj[key]). */
function staticValue(n: Node): unknown {
  if (n.type === 'TOMLArray') return (n.elements as Node[]).map(staticValue);
  if (n.type === 'TOMLInlineTable') {
    const o: Record<string, unknown> = {};
    for (const kv of n.body as Node[]) {
      const names = keyNames(kv.key);
      setOwn(ensure(o, names.slice(0, -1)), names[names.length - 1], staticValue(kv.value));
    }
    return o;
  }
  return getStaticTOMLValue(n as any);
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

/** Parsed TOML, cached by text (an unchanged document is not parsed again). */
const cache = new Map<string, TomlFile>();
export function parseToml(text: string): TomlFile {
  const hit = cache.get(text);
  if (hit) return hit;
  const f = parseTomlText(text);
  if (cache.size > 64) cache.delete(cache.keys().next().value as string);
  cache.set(text, f);
  return f;
}
