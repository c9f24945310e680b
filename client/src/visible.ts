// Big files whole (issue #18 item 5): tells the server where each skewguard document is looked at (its visible
// ranges and the cursor), so that a file with more findings than VS Code shows (1,000 per file) gets the ones on
// screen first. Debounced per document; only documents the server checks (the client's document selector).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { VisibleRangesNotification, type VisibleRangesParams } from '../../server/src/shared/protocol';

const DELAY_MS = 150;

export function registerVisibleRanges(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, selector: vscode.DocumentSelector): void {
  const timers = new Map<string, NodeJS.Timeout>();
  const send = (editor: vscode.TextEditor) => {
    const c = client();
    if (!c || !c.isRunning() || !vscode.languages.match(selector, editor.document)) return;
    const uri = editor.document.uri.toString();
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    timers.set(uri, setTimeout(() => {
      timers.delete(uri);
      const params: VisibleRangesParams = {
        uri,
        ranges: editor.visibleRanges.map((r) => ({ start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } })),
        cursor: { line: editor.selection.active.line, character: editor.selection.active.character },
      };
      c.sendNotification(VisibleRangesNotification, params).catch(() => undefined);
    }, DELAY_MS));
  };
  context.subscriptions.push(
    vscode.window.onDidChangeTextEditorVisibleRanges((e) => send(e.textEditor)),
    vscode.window.onDidChangeTextEditorSelection((e) => send(e.textEditor)),
    vscode.window.onDidChangeActiveTextEditor((e) => { if (e) send(e); }),
    { dispose: () => { for (const t of timers.values()) clearTimeout(t); timers.clear(); } },
  );
  for (const e of vscode.window.visibleTextEditors) send(e);
}
