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
    const at = typeof err.index === 'number' ? Math.min(err.index, text.length) : 0;
    const end = Math.min(text.length, at + 1);
    return { text, value: {}, entries: [], tables: [], errors: [{ message: err.message.split('\n')[0], start: at, end: Math.max(end, at), code: 'TOML' }] };
  }
  const entries: TomlEntry[] = [];
  const tables: TomlTable[] = [];
  const top = ast.body[0] as Node;
  const visitKv = (kv: Node, table: string[]) => {
    entries.push({
      table, key: keyNames(kv.key),
      keyRange: { start: kv.key.range[0], end: kv.key.range[1] },
      valueRange: { start: kv.value.range[0], end: kv.value.range[1] },
      range: { start: kv.range[0], end: kv.range[1] },
      value: getStaticTOMLValue(kv.value),
    });
  };
  for (const item of top.body as Node[]) {
    if (item.type === 'TOMLKeyValue') { visitKv(item, []); continue; }
    const path = (item.resolvedKey as Array<string | number>).filter((k): k is string => typeof k === 'string');
    tables.push({ path, kind: item.kind, headerRange: { start: item.key.range[0], end: item.key.range[1] }, range: { start: item.range[0], end: item.range[1] } });
    for (const kv of item.body as Node[]) visitKv(kv, path);
  }
  let value: Record<string, unknown> = {};
  try { value = getStaticTOMLValue(ast as any) as unknown as Record<string, unknown>; } catch { /* keep the entries */ }
  return { text, value, entries, tables, errors: [] };
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
