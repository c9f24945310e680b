// The rule pages offline: docs/rules/<rule-id>.md ship in the .vsix and open in VS Code's Markdown preview, from a
// finding's rule link (the server's file link to the page, turned into this command), from the code action "Show
// documentation for <rule>" and from the palette ("Show rule documentation…", a quick pick of every rule).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';

export const SHOW_DOCS = 'skewguard.showRuleDocumentation';

let docsRoot = '';

/** The packaged page of a rule id, or undefined (no such rule). */
export function docPath(ruleId: string): string | undefined {
  if (!/^[\w.-]+\/[\w./-]+$/.test(ruleId) || ruleId.includes('..')) return undefined;
  const f = path.join(docsRoot, ...ruleId.split('/')) + '.md';
  return fs.existsSync(f) ? f : undefined;
}

/** Every packaged page: rule id and the page's title (its first heading). */
export function allRulePages(): Array<{ id: string; title: string }> {
  const out: Array<{ id: string; title: string }> = [];
  let entries: string[] = [];
  try { entries = fs.readdirSync(docsRoot, { recursive: true }) as string[]; } catch { return out; }
  for (const rel of entries.sort()) {
    if (!rel.endsWith('.md') || !rel.includes(path.sep)) continue;
    const id = rel.slice(0, -3).split(path.sep).join('/');
    let title = '';
    try { title = /^#\s+(.*)$/m.exec(fs.readFileSync(path.join(docsRoot, rel), 'utf8'))?.[1] ?? ''; } catch { /* untitled */ }
    out.push({ id, title: title.replace(/`/g, '') });
  }
  return out;
}

async function showRuleDocumentation(ruleId?: unknown): Promise<void> {
  let id = typeof ruleId === 'string' ? ruleId : undefined;
  if (!id) {
    const pick = await vscode.window.showQuickPick(
      allRulePages().map((p) => ({ label: p.id, description: p.title.replace(new RegExp(`^${p.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[:—-]?\\s*`), '') })),
      { title: 'skewguard: Show rule documentation', placeHolder: 'A rule id or words of its title', matchOnDescription: true },
    );
    id = pick?.label;
  }
  if (!id) return;
  const f = docPath(id);
  if (!f) { void vscode.window.showWarningMessage(`skewguard: no documentation for ${id} in this package.`); return; }
  await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(f));
}

/** The command URI that opens a rule's page in the Markdown preview. */
export const docsCommandUri = (ruleId: string) => vscode.Uri.parse(`command:${SHOW_DOCS}?${encodeURIComponent(JSON.stringify([ruleId]))}`);

/**
 * Diagnostics middleware: the server links each finding to its packaged page (a file URI, which other editors open
 * as they like); in VS Code the link opens the page's preview instead of the Markdown source.
 */
export const docsMiddleware: Middleware = {
  handleDiagnostics(uri, diagnostics, next) {
    for (const d of diagnostics) {
      const code = d.code;
      if (!code || typeof code !== 'object' || !('target' in code)) continue;
      const target = code.target;
      if (target.scheme !== 'file' || !target.fsPath.startsWith(docsRoot + path.sep)) continue;
      d.code = { value: code.value, target: docsCommandUri(String(code.value)) };
    }
    next(uri, diagnostics);
  },
};

export function registerDocs(context: vscode.ExtensionContext): void {
  docsRoot = context.asAbsolutePath(path.join('docs', 'rules'));
  context.subscriptions.push(vscode.commands.registerCommand('skewguard.showRuleDocumentation', showRuleDocumentation));
}
