// Palette commands over the whole workspace, through the same language server: "Check Whole Workspace" (the files
// lsp-lint would check; results in the Problems panel) and "Fix All in Workspace" (fix-all of every file, applied as
// one edit, after the user says yes: undoable, left unsaved for review). The fixes fix-all leaves alone under a window
// nobody chose (a key it would remove or rewrite) are said in the question.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CheckWorkspaceRequest, FixAllWorkspaceRequest, type WorkspaceCheckResult as Result } from '../../server/src/shared/protocol';

export function registerWorkspaceCommands(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  const ask = async (method: typeof CheckWorkspaceRequest | typeof FixAllWorkspaceRequest, title: string): Promise<Result | undefined> => {
    const c = client();
    if (!c?.isRunning()) { void vscode.window.showWarningMessage('skewguard: the language server is not running.'); return undefined; }
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => c.sendRequest<Result>(method, {}));
  };
  const tail = (r: Result) => `${r.notChecked.length ? ` ${r.notChecked.length} not checked (${r.notChecked.slice(0, 3).join('; ')}${r.notChecked.length > 3 ? '; …' : ''}).` : ''}${r.truncated ? ` ${r.truncated}.` : ''}`;
  context.subscriptions.push(
    vscode.commands.registerCommand('skewguard.checkWorkspace', async () => {
      const r = await ask(CheckWorkspaceRequest, 'skewguard: checking the workspace…');
      if (!r) return;
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      void vscode.window.showInformationMessage(`skewguard: checked ${r.files} files, ${r.withFindings} with findings (Problems panel).${tail(r)}`);
    }),
    vscode.commands.registerCommand('skewguard.fixAllWorkspace', async () => {
      const r = await ask(FixAllWorkspaceRequest, 'skewguard: fixing the workspace…');
      if (!r) return;
      const edit = new vscode.WorkspaceEdit();
      const c = client()!;
      for (const [uri, edits] of Object.entries(r.changes ?? {})) {
        edit.set(vscode.Uri.parse(uri), edits.map((e) => new vscode.TextEdit(c.protocol2CodeConverter.asRange(e.range), e.newText)));
      }
      const n = Object.keys(r.changes ?? {}).length;
      const held = r.notFixedCount ?? 0;
      const heldText = held ? ` ${held} finding${held === 1 ? '' : 's'} not fixed (${(r.notFixed ?? []).slice(0, 3).join('; ')}${held > 3 ? '; …' : ''}).` : '';
      if (!n) { void vscode.window.showInformationMessage(`skewguard: nothing to fix automatically in ${r.files} files.${heldText}${tail(r)}`); return; }
      // Many files at once: asked first (the edit is undoable and left unsaved, but it may touch files never opened).
      const detail = Object.keys(r.changes ?? {}).slice(0, 10).map((u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u), false)).join('\n') + (n > 10 ? `\n… ${n - 10} more` : '');
      const yes = await vscode.window.showWarningMessage(`skewguard: apply the automatic fixes to ${n} of ${r.files} files?${heldText}`, { modal: true, detail }, 'Apply Fixes');
      if (yes !== 'Apply Fixes') return;
      const ok = await vscode.workspace.applyEdit(edit);
      void vscode.window.showInformationMessage(ok ? `skewguard: fixed ${n} of ${r.files} files; review and save them (File › Save All).${heldText}${tail(r)}` : 'skewguard: the fixes could not be applied (a file changed meanwhile?).');
    }),
  );
}
