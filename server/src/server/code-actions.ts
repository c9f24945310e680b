// The code actions offered beside a finding's own fixes, as vscode-eslint offers them: "Disable <rule> for this line"
// and "… for the entire file" (the suppression comments of engine/suppress.ts, in files with `#` comments), for JSON
// (no comments) "Ignore <file> in .skewguard.yaml", "Show documentation for <rule>" (when the client has the command),
// and "Fix all skewguard problems in this file" whenever the file has a fix that fix-all applies.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type TextEdit, type WorkspaceEdit, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../engine/types';
import { notSuppressible, ruleById } from '../engine/rules';
import { findSuppressions } from '../engine/suppress';
import { CONFIG_FILENAMES } from '../shared/names';
import { relInside } from '../shared/within';

/** The command a client registers to show a rule's page (the VS Code client does; it says so at initialize). */
export const SHOW_DOCS_COMMAND = 'skewguard.showRuleDocumentation';

export interface ActionContext {
  uri: string;
  file: string;
  doc: TextDocument;
  /** The findings the request is about (at the cursor or the ones the client sent), with their LSP form. */
  here: Array<{ d: Diagnostic; lsp: LspDiagnostic }>;
  /** Fix-all's edits for the whole file (empty: nothing to fix). */
  fixAll: () => TextEdit[];
  /**
   * Whether fix-all is offered here as a quick fix too: VS Code's Ctrl+. menu asks without `only` and shows quick
   * fixes only, so the source.fixAll action alone would not be in it (vscode-eslint offers both, too).
   */
  quickFixAll: boolean;
  /** Whether the client runs SHOW_DOCS_COMMAND. */
  docsCommand: boolean;
  /** Whether the client can create files in a workspace edit (resourceOperations "create"). */
  canCreateFiles: boolean;
  /** The configuration that applies to the file (its path and current text), or where a new one would go. */
  config: { path: string; text: string } | { newAt: string };
}

/** Whether a file can hold `#` comment lines (YAML, TOML, Helm templates). */
export const hasHashComments = (file: string) => /\.(ya?ml|toml|tpl)$/i.test(file);

const leading = (line: string) => /^[ \t]*/.exec(line)![0];

/**
 * Whether a comment line put before `line` would become text rather than a comment: inside a YAML block scalar
 * (a less indented line above ends in `|` or `>`), or inside a TOML multi-line string.
 */
export function insideText(lines: string[], line: number, toml: boolean): boolean {
  if (toml) {
    let open: string | undefined;
    for (let i = 0; i < line; i++) {
      for (const m of lines[i].matchAll(/"""|'''/g)) open = open === undefined ? m[0] : open === m[0] ? undefined : open;
    }
    return open !== undefined;
  }
  const target = lines[line] ?? '';
  // A blank or less indented target line is its own start; look at what it is nested in.
  let indent = target.trim() ? leading(target).length : Infinity;
  for (let i = line - 1; i >= 0; i--) {
    const l = lines[i];
    if (!l.trim()) continue;
    const ind = leading(l).length;
    if (ind >= indent) continue;
    if (/(?::|^\s*-|^\s*)\s*[|>][1-9+-]{0,2}\s*(#.*)?$/.test(l) && !/^\s*#/.test(l)) return true;
    indent = ind;
    if (ind === 0) return false;
  }
  return false;
}

function lineStartOffset(doc: TextDocument, line: number): number { return doc.offsetAt({ line, character: 0 }); }

/** "Disable <rule> for this line": a `skewguard-disable-next-line` comment above it, or the rule added to one there. */
function disableLine(ctx: ActionContext, d: Diagnostic, lines: string[], eol: string): TextEdit | undefined {
  const line = d.range.start.line;
  if (insideText(lines, line, /\.toml$/i.test(ctx.file))) return undefined;
  const text = ctx.doc.getText();
  const above = findSuppressions(text).find((s) => s.kind === 'next-line' && s.line === line);
  if (above) {
    if (!above.ruleIds.length || above.ruleIds.includes(d.ruleId)) return undefined;
    return addToComment(ctx.doc, text, above.range, d.ruleId);
  }
  const at = lineStartOffset(ctx.doc, line);
  const pos = ctx.doc.positionAt(at);
  return { range: { start: pos, end: pos }, newText: `${leading(lines[line] ?? '')}# skewguard-disable-next-line ${d.ruleId}${eol}` };
}

/** "Disable <rule> for the entire file": a `skewguard-disable-file` comment on line 1, or the rule added to one. */
function disableFile(ctx: ActionContext, d: Diagnostic, eol: string): TextEdit | undefined {
  const text = ctx.doc.getText();
  const existing = findSuppressions(text).find((s) => s.kind === 'file');
  if (existing) {
    if (!existing.ruleIds.length || existing.ruleIds.includes(d.ruleId)) return undefined;
    return addToComment(ctx.doc, text, existing.range, d.ruleId);
  }
  // After a modeline (`# skewguard: <family>`) on line 1, which has to stay there.
  const first = text.split(/\r?\n|\r/, 1)[0];
  const line = /^#\s*skewguard:\s/.test(first) || /^#!/.test(first) ? 1 : 0;
  const pos = line === 1 && !/\r|\n/.test(text) ? { line: 0, character: first.length } : { line, character: 0 };
  const prefix = line === 1 && !/\r|\n/.test(text) ? eol : '';
  return { range: { start: pos, end: pos }, newText: `${prefix}# skewguard-disable-file ${d.ruleId}${eol}` };
}

/** Adds a rule id to an existing comment's list (before its `-- reason`). */
function addToComment(doc: TextDocument, text: string, range: { start: number; end: number }, ruleId: string): TextEdit {
  const comment = text.slice(range.start, range.end);
  const reason = /\s--(\s|$)/.exec(comment);
  const listEnd = range.start + (reason ? reason.index : comment.trimEnd().length);
  const pos = doc.positionAt(listEnd);
  return { range: { start: pos, end: pos }, newText: `, ${ruleId}` };
}

/** A gitignore pattern that matches exactly this relative path (wildcards and specials escaped). */
export function exactPattern(rel: string): string {
  return '/' + rel.split(path.sep).join('/').replace(/[\\*?[\]{}!#]/g, '\\$&');
}

const yamlQuote = (s: string) => JSON.stringify(s);

/**
 * The edit that adds `pattern` to the `ignore:` list of a .skewguard.yaml's text: after the last item of a block list,
 * into a flow list, or as a new `ignore:` key at the end. undefined when the list's form is not one of those.
 */
export function addIgnoreEntry(text: string, pattern: string): { offset: number; insert: string } | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const item = yamlQuote(pattern);
  const lines = text.split(/\r?\n/);
  let offset = 0;
  const starts: number[] = [];
  for (const l of lines) { starts.push(offset); offset += l.length + (text.startsWith('\r\n', offset + l.length) ? 2 : 1); }
  const k = lines.findIndex((l) => /^ignore\s*:/.test(l));
  if (k < 0) {
    const sep = text === '' || /\r?\n$/.test(text) ? '' : eol;
    return { offset: text.length, insert: `${sep}ignore:${eol}  - ${item}${eol}` };
  }
  const rest = lines[k].replace(/^ignore\s*:/, '').replace(/\s+#.*$/, '').trim();
  if (rest === '[]') {
    const at = starts[k] + lines[k].indexOf('[]');
    return { offset: at + 1, insert: item };
  }
  if (/^\[.*\]$/.test(rest)) {
    const at = starts[k] + lines[k].lastIndexOf(']');
    return { offset: at, insert: `, ${item}` };
  }
  if (rest !== '' && rest !== '~' && rest !== 'null') return undefined;
  // A block list: the item lines below the key (indented, or `- ` at column 0), blank lines and comments between.
  let last = k, indent = '  ';
  for (let i = k + 1; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim() || /^\s*#/.test(l)) continue;
    const m = /^(\s*)-(\s|$)/.exec(l);
    if (m) { indent = m[1]; last = i; continue; }
    if (/^\s+\S/.test(l) && last > k) { last = i; continue; } // a continuation of an item
    break;
  }
  if (rest === '~' || rest === 'null') return undefined;
  const end = starts[last] + lines[last].length;
  return { offset: end, insert: `${eol}${indent}- ${item}` };
}

/** "Ignore <file> in .skewguard.yaml": the file's own entry in the `ignore:` list of the configuration that applies. */
function ignoreFileEdit(ctx: ActionContext): { edit: WorkspaceEdit; title: string } | undefined {
  const cfgPath = 'path' in ctx.config ? ctx.config.path : ctx.config.newAt;
  const rel = path.relative(path.dirname(cfgPath), ctx.file);
  if (!rel || !relInside(rel)) return undefined;
  const pattern = exactPattern(rel);
  const cfgUri = pathToFileURL(cfgPath).toString();
  const name = path.basename(cfgPath);
  const title = `Ignore ${rel.split(path.sep).join('/')} in ${name} (JSON has no comments: no rule is checked in it)`;
  if ('path' in ctx.config) {
    const add = addIgnoreEntry(ctx.config.text, pattern);
    if (!add) return undefined;
    const pos = positionIn(ctx.config.text, add.offset);
    return { title, edit: { changes: { [cfgUri]: [{ range: { start: pos, end: pos }, newText: add.insert }] } } };
  }
  if (!ctx.canCreateFiles) return undefined;
  return {
    title: `${title}, creating it`,
    edit: {
      documentChanges: [
        { kind: 'create', uri: cfgUri, options: { ignoreIfExists: true } },
        { textDocument: { uri: cfgUri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: `ignore:\n  - ${yamlQuote(pattern)}\n` }] },
      ],
    },
  };
}

function positionIn(text: string, offset: number): { line: number; character: number } {
  let line = 0, start = 0;
  for (let i = 0; i < offset; i++) {
    if (text[i] === '\n') { line++; start = i + 1; } else if (text[i] === '\r' && text[i + 1] !== '\n') { line++; start = i + 1; }
  }
  return { line, character: offset - start };
}

/** The actions after the findings' own fixes, in vscode-eslint's order: disable line, disable file, docs; then fix-all. */
export function moreActions(ctx: ActionContext): CodeAction[] {
  const out: CodeAction[] = [];
  const text = ctx.doc.getText();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // Split only when a disable action is worked out (a big file's menu on a line without findings costs nothing).
  let split: string[] | undefined;
  const lines = () => (split ??= text.split(/\r?\n|\r/));
  const seen = new Set<string>();
  let jsonIgnoreOffered = false;
  for (const { d, lsp } of ctx.here) {
    if (seen.has(d.ruleId)) continue;
    seen.add(d.ruleId);
    const suppressible = !notSuppressible.has(d.ruleId) && !!ruleById(d.ruleId);
    if (suppressible && hasHashComments(ctx.file)) {
      const line = disableLine(ctx, d, lines(), eol);
      if (line) out.push({ title: `Disable ${d.ruleId} for this line`, kind: CodeActionKind.QuickFix, diagnostics: [lsp], edit: { changes: { [ctx.uri]: [line] } } });
      const file = disableFile(ctx, d, eol);
      if (file) out.push({ title: `Disable ${d.ruleId} for the entire file`, kind: CodeActionKind.QuickFix, diagnostics: [lsp], edit: { changes: { [ctx.uri]: [file] } } });
    } else if (suppressible && /\.json$/i.test(ctx.file) && !jsonIgnoreOffered) {
      jsonIgnoreOffered = true;
      const ig = ignoreFileEdit(ctx);
      if (ig) out.push({ title: ig.title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], edit: ig.edit });
    }
    if (ctx.docsCommand && ruleById(d.ruleId)) {
      out.push({ title: `Show documentation for ${d.ruleId}`, kind: CodeActionKind.QuickFix, diagnostics: [lsp], command: { title: `Show documentation for ${d.ruleId}`, command: SHOW_DOCS_COMMAND, arguments: [d.ruleId] } });
    }
  }
  if (ctx.here.length && ctx.quickFixAll) {
    const edits = ctx.fixAll();
    if (edits.length) out.push({ title: 'Fix all skewguard problems in this file', kind: CodeActionKind.QuickFix, edit: { changes: { [ctx.uri]: edits } } });
  }
  return out;
}

/** Where a new configuration for the file goes: the workspace root (or the file's folder outside any root). */
export function newConfigPath(root: string | undefined, file: string): string {
  return path.join(root ?? path.dirname(file), CONFIG_FILENAMES[0]);
}
