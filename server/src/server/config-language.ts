// Completion and hover in .skewguard.yaml, from the schema its validator uses (configSchema, engine/config.ts): the
// keys of each section with their descriptions, and the values the validator knows (StarlingX releases, flavours,
// severities, rule ids, file families). The key path at the cursor is read from the indentation of the lines above
// (block style, as the README's example is written); flow mappings are left to the schema-aware YAML extension.
import { CompletionItemKind, MarkupKind, type CompletionItem, type Hover, type Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { configSchema, CONFIG_SECTIONS } from '../engine/config';
import { allRules, ruleById } from '../engine/rules';
import { FAMILIES, families } from '../engine/families/registry';
import { SEVERITIES, isConfigFileName } from '../shared/names';

type Schema = { description?: string; properties?: Record<string, Schema>; enum?: readonly unknown[]; additionalProperties?: unknown; type?: string };

const KEY = /^(\s*)(?:-\s+)?(["']?)([\w./-]+)\2\s*:(?=\s|$)/;

/** The keys above the line (by indentation), outermost first. */
function parents(lines: string[], line: number, indent: number): string[] {
  const out: string[] = [];
  let limit = indent;
  for (let i = line - 1; i >= 0 && limit > 0; i--) {
    const m = KEY.exec(lines[i]);
    if (!m || /^\s*#/.test(lines[i])) continue;
    if (m[1].length < limit) { out.unshift(m[3]); limit = m[1].length; }
  }
  return out;
}

function schemaAt(path: string[]): Schema | undefined {
  let s: Schema | undefined = configSchema as unknown as Schema;
  for (const k of path) {
    if (!s) return undefined;
    s = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties as Schema : undefined);
  }
  return s;
}

/** The values the validator knows for a key path, with a line about each. */
function valuesFor(path: string[]): Array<{ label: string; detail?: string }> {
  // A section's own values (the StarlingX releases), from its folder (families/<id>/config.ts).
  const own = path.length === 2 ? CONFIG_SECTIONS.find((c) => !c.within && c.section === path[0])?.values?.(path[1]) : undefined;
  if (own) return own;
  if (path[0] === 'rules' && path.length === 2) return SEVERITIES.map((s) => ({ label: s }));
  if (path[0] === 'files' && path.length === 2) return FAMILIES.map((f, i) => ({ label: f, detail: families[i]?.title }));
  const s = schemaAt(path);
  return (s?.enum ?? []).map((v) => ({ label: String(v) }));
}

function keysFor(path: string[]): Array<{ label: string; detail?: string }> {
  if (path.length === 1 && path[0] === 'rules') return allRules.filter((r) => !r.fixedSeverity).map((r) => ({ label: r.id, detail: `${r.title} (default ${r.defaultSeverity})` }));
  const s = schemaAt(path);
  return Object.entries(s?.properties ?? {}).map(([k, v]) => ({ label: k, detail: v.description }));
}

function wordAt(text: string, col: number): { start: number; end: number } {
  let start = col, end = col;
  while (start > 0 && /[\w./-]/.test(text[start - 1])) start--;
  while (end < text.length && /[\w./-]/.test(text[end])) end++;
  return { start, end };
}

export function configCompletion(uri: string, doc: TextDocument, pos: Position): CompletionItem[] | undefined {
  if (!isConfigFileName(uri)) return undefined;
  const lines = doc.getText().split(/\r?\n|\r/);
  const text = lines[pos.line] ?? '';
  const m = KEY.exec(text);
  const indent = /^\s*/.exec(text)![0].length;
  const path = parents(lines, pos.line, indent);
  const onValue = m && pos.character > text.indexOf(':', m[0].length - 1);
  const w = wordAt(text, pos.character);
  const range = { start: { line: pos.line, character: w.start }, end: { line: pos.line, character: w.end } };
  const quoted = onValue && /["']/.test(text.slice(text.indexOf(':') + 1, w.start));
  const items = onValue ? valuesFor([...path, m![3]]) : keysFor(path);
  return items.map((i, n) => ({
    label: i.label, kind: onValue ? CompletionItemKind.Value : CompletionItemKind.Property, detail: i.detail, sortText: String(n).padStart(4, '0'),
    textEdit: { range, newText: onValue ? (quoted || !/^\d/.test(i.label) ? i.label : `"${i.label}"`) : i.label },
  }));
}

export function configHover(uri: string, doc: TextDocument, pos: Position, markdown: boolean): Hover | undefined {
  if (!isConfigFileName(uri)) return undefined;
  const lines = doc.getText().split(/\r?\n|\r/);
  const text = lines[pos.line] ?? '';
  const m = KEY.exec(text);
  if (!m) return undefined;
  const keyStart = m[1].length + (text.slice(m[1].length).startsWith('-') ? text.slice(m[1].length).indexOf(m[3]) : (m[2] ? 1 : 0));
  const keyEnd = keyStart + m[3].length;
  if (pos.character < keyStart || pos.character > keyEnd) return undefined;
  const path = [...parents(lines, pos.line, m[1].length), m[3]];
  let body: string | undefined;
  const rule = path[0] === 'rules' && path.length === 2 ? ruleById(m[3]) : undefined;
  if (rule) body = `**${rule.id}**: ${rule.title}\n\nDefault severity: ${rule.defaultSeverity}. ${rule.what}`;
  else {
    const s = schemaAt(path);
    if (s?.description) body = `**${path.join('.')}**: ${s.description}`;
  }
  if (!body) return undefined;
  const value = markdown ? body : body.replace(/\*\*/g, '').replace(/`/g, '');
  return { contents: { kind: markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value }, range: { start: { line: pos.line, character: keyStart }, end: { line: pos.line, character: keyEnd } } };
}
