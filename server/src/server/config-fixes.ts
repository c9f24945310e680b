// "Did you mean" in .skewguard.yaml carries its fix: a config/invalid problem whose message names the misspelt word
// and a suggestion (`unknown setting "starlingx.relase"; did you mean "release"?`, `unknown rule id …; did you mean …`)
// gets a quick fix that writes the suggestion in place of the word, keeping its quotes. Only when the word at the
// problem's range is the one the message names, so a fix never lands on something else.
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isConfigFileName } from '../shared/names';

export function didYouMeanFixes(uri: string, doc: TextDocument, diagnostics: LspDiagnostic[]): CodeAction[] {
  if (!isConfigFileName(uri)) return [];
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.code !== 'config/invalid') continue;
    const m = /"([^"]+)"[^"]*?;? did you mean "([^"]+)"\?/.exec(typeof d.message === "string" ? d.message : d.message.value);
    if (!m) continue;
    const raw = doc.getText(d.range);
    const q = /^(["'])(.*)\1$/.exec(raw);
    const word = q ? q[2] : raw;
    const named = m[1].split('.').pop();
    if (word !== m[1] && word !== named) continue;
    const newText = q ? `${q[1]}${m[2]}${q[1]}` : m[2];
    out.push({ title: `Change to ${m[2]}`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: { changes: { [uri]: [{ range: d.range, newText }] } } });
  }
  return out;
}
