// What the server needs to know about its client for the editor features of code-actions.ts and docs.ts: whether it
// runs the docs command, can create files in an edit, wants plain text, and where a file's configuration is.
import { fileURLToPath } from 'node:url';
import { MarkupKind, type ClientCapabilities, type Hover, type Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../engine/types';
import type { AnalyzeResult } from '../engine/analyze';
import type { InitializationOptions } from '../shared/protocol';
import type { WorkspaceState } from './workspace';
import { SHOW_DOCS_COMMAND, newConfigPath, type ActionContext } from './code-actions';
import { docHref, docMarkdown, suppressionRuleAt } from './docs';
import { configHover } from './config-language';

let caps: ClientCapabilities = {};
let opts: InitializationOptions = {};
let wsOf: () => WorkspaceState | undefined = () => undefined;

export function setClient(c: ClientCapabilities, init: InitializationOptions, ws: () => WorkspaceState): void {
  caps = c ?? {}; opts = init ?? {}; wsOf = ws;
}

/** Whether the client shows Markdown in hovers (Neovim before 0.10, some others: plain text). */
export function hoverMarkdown(): boolean {
  const formats = caps.textDocument?.hover?.contentFormat;
  return !formats || formats.includes(MarkupKind.Markdown);
}

/** A finding's link: the packaged rule page in editors, the web page for lsp-lint's reports. */
export function docHrefFor(d: Diagnostic): string {
  return docHref(d.ruleId, d.docsUrl, !opts.cli);
}

const toPath = (uri: string) => { try { return fileURLToPath(uri); } catch { return uri.replace(/^[a-z]+:/i, ''); } };

export function actionContext(c: { doc: TextDocument; result: AnalyzeResult }, uri: string, here: ActionContext['here'], onlyGiven: boolean, fixAll: ActionContext['fixAll']): ActionContext {
  const file = toPath(uri);
  const ws = wsOf();
  const loaded = ws?.configFor(file);
  const ops = caps.workspace?.workspaceEdit?.resourceOperations ?? [];
  return {
    uri, file, doc: c.doc, here, fixAll,
    quickFixAll: onlyGiven,
    docsCommand: !!opts.clientCommands?.includes(SHOW_DOCS_COMMAND),
    canCreateFiles: !!caps.workspace?.workspaceEdit?.documentChanges && ops.includes('create'),
    config: loaded && loaded.text !== undefined && !ws?.explicitConfig ? { path: loaded.path, text: loaded.text } : { newAt: newConfigPath(ws?.rootFor(file), file) },
  };
}

/** The hover on a rule id inside a suppression comment: the rule's page (as ruff's server does for `# noqa` codes). */
export function docsHover(doc: TextDocument, pos: Position): Hover | null {
  const ch = configHover(doc.uri, doc, pos, hoverMarkdown());
  if (ch) return ch;
  const text = doc.getText();
  const at = suppressionRuleAt(text, doc.offsetAt(pos));
  if (!at) return null;
  const page = docMarkdown(at.ruleId);
  if (!page) return null;
  const range = { start: doc.positionAt(at.start), end: doc.positionAt(at.end) };
  // Relative links of the page do not resolve inside a hover: they are shown as their text.
  const body = page.replace(/\]\((?!https?:)[^)]*\)/g, ']');
  return hoverMarkdown()
    ? { contents: { kind: MarkupKind.Markdown, value: body }, range }
    : { contents: { kind: MarkupKind.PlainText, value: plainText(body) }, range };
}

/** Markdown as plain text, for clients without Markdown hovers: no emphasis marks, links as their text. */
export function plainText(md: string): string {
  return md
    .replace(/```[\w-]*\n?/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1').replace(/(^|[^\w*])\*([^*\n]+)\*/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}


