// The rule pages in the web extension: the same command as the desktop client's (client/src/docs.ts, which reads the
// package with node:fs), reading the packaged docs/rules/<rule-id>.md through the extension's URI instead, and opening
// it in the Markdown preview; the server offers it as the "Show documentation for <rule>" code action.
import * as vscode from 'vscode';

export const WEB_SHOW_DOCS = 'skewguard.showRuleDocumentation';

/** The packaged page of a rule id (under the extension's docs/rules), or undefined for what is not a rule id. */
export function webDocUri(extensionUri: vscode.Uri, ruleId: string): vscode.Uri | undefined {
  if (!/^[\w.-]+\/[\w./-]+$/.test(ruleId) || ruleId.includes('..')) return undefined;
  const parts = ruleId.split('/');
  parts[parts.length - 1] += '.md';
  return vscode.Uri.joinPath(extensionUri, 'docs', 'rules', ...parts);
}

async function rulePages(root: vscode.Uri, prefix = ''): Promise<string[]> {
  let entries: Array<[string, vscode.FileType]> = [];
  try { entries = await vscode.workspace.fs.readDirectory(root); } catch { return []; }
  const out: string[] = [];
  for (const [name, type] of entries.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (type === vscode.FileType.Directory && prefix.split('/').length < 4) { for (const id of await rulePages(vscode.Uri.joinPath(root, name), `${prefix}${name}/`)) out.push(id); }
    else if (prefix && name.endsWith('.md')) out.push(`${prefix}${name.slice(0, -3)}`);
  }
  return out;
}

export function registerWebDocs(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand(WEB_SHOW_DOCS, async (ruleId?: unknown) => {
    let id = typeof ruleId === 'string' ? ruleId : undefined;
    if (!id) id = await vscode.window.showQuickPick(await rulePages(vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules')), { title: 'skewguard: Show rule documentation', placeHolder: 'A rule id' });
    if (!id) return;
    const uri = webDocUri(context.extensionUri, id);
    try { if (uri) await vscode.workspace.fs.stat(uri); } catch { void vscode.window.showWarningMessage(`skewguard: no documentation for ${id} in this package.`); return; }
    if (!uri) { void vscode.window.showWarningMessage(`skewguard: ${id} is not a rule id.`); return; }
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }));
}
