// textDocument/completion: a .skewguard.yaml's keys and values (config-language.ts), else the family's completion at
// the position (engine/language.ts), in the part of a big file that holds it (scheduler.ts viewAt).
import { CompletionItemKind, MarkupKind } from 'vscode-languageserver/node';
import { complete } from '../engine/language';
import { LineIndex } from '../engine/text';
import { configCompletion } from './config-language';
import { viewAt } from './parts';
import { current } from './diagnostics';
import { guarded } from './publishing';
import { connection } from './session';

export function registerCompletion(): void {
  connection.onCompletion(guarded('completion', [], (p) => {
    const c = current(p.textDocument.uri);
    if (!c) return [];
    const cc = configCompletion(p.textDocument.uri, c.doc, p.position);
    if (cc) return cc;
    const v = viewAt(c.result, c.doc.getText(), p.position);
    const lines = new LineIndex(v.text);
    return complete(v.result, v.text, v.position).map((i) => ({
      label: i.label,
      kind: i.kind === 'value' ? CompletionItemKind.Value : CompletionItemKind.Property,
      detail: i.detail,
      documentation: i.documentation ? { kind: MarkupKind.Markdown, value: i.documentation } : undefined,
      sortText: i.sortText,
      preselect: i.preselect,
      textEdit: { range: v.back(lines.range(i.replace.start, i.replace.end)), newText: i.insertText },
    }));
  }));
}
