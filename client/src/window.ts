// The window one click away: the status item's menu ("Change window…", "Open .skewguard.yaml", "Show resolved
// window"), the change-window picker (the parts the server sends from the families' config sections: a part with
// choices is a quick pick of them, any other is typed with its current value filled in and checked by its pattern),
// which writes the .skewguard.yaml that applies to the file (creating it when missing) through the server
// (skewguard/windowEdit: checked by the validator first), and the resolved window as a read-only virtual document.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  ResolvedConfigRequest, WindowChoicesRequest, WindowEditRequest,
  type ResolvedConfigParams, type ResolvedConfigResult, type WindowChoicesResult, type WindowEditParams, type WindowEditResult, type WindowPart, type WindowPartSpec,
} from '../../server/src/shared/protocol';

export const WINDOW_MENU = 'skewguard.windowMenu';

/** A part's choices as quick pick items, the one equal to the current value marked "(current)" in place of its description. */
export const choiceItems = (spec: WindowPartSpec, current: string): vscode.QuickPickItem[] =>
  (spec.choices ?? []).map((x) => ({ label: x.label, description: x.label === current ? '(current)' : x.description, detail: x.detail }));

/** What the input box says of a typed value: its part's pattern message when the trimmed value does not match; else nothing (the server checks it too). */
export const typedProblem = (spec: WindowPartSpec, v: string): string | undefined =>
  (spec.pattern === undefined || new RegExp(spec.pattern).test(v.trim()) ? undefined : spec.patternMessage ?? `Does not match ${spec.pattern}`);
/** A path the server said: a file path, or in the web extension a path under a `scheme://authority` root. */
const pathUri = (p: string) => (/^[a-z][\w+.-]*:\/\//i.test(p) ? vscode.Uri.parse(p) : vscode.Uri.file(p));
export const CHANGE_WINDOW = 'skewguard.changeWindow';
export const OPEN_CONFIG = 'skewguard.openConfig';
const SCHEME = 'skewguard-window';


export function registerWindow(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, refresh: () => void, opts: { anyScheme?: boolean } = {}): { showResolved: () => Promise<void>; resolvedFor: (uri?: string) => Promise<ResolvedConfigResult | undefined> } {
  const resolvedFor = async (uri?: string): Promise<ResolvedConfigResult | undefined> => {
    const c = client();
    if (!c?.isRunning()) return undefined;
    try { return await c.sendRequest<ResolvedConfigResult>(ResolvedConfigRequest, { uri } satisfies ResolvedConfigParams); } catch (e) {
      // Shown as "not running" / no status item; why is in the output channel, not passed over.
      c.warn(`${ResolvedConfigRequest} failed for ${uri ?? 'the workspace'}`, e, false);
      return undefined;
    }
  };
  const activeUri = () => {
    const d = vscode.window.activeTextEditor?.document;
    // The web extension's files are vscode-vfs:, vscode-remote: … (its server reads them from what the client hands over).
    return d && (opts.anyScheme ? d.uri.scheme !== SCHEME && d.uri.scheme !== 'output' : d.uri.scheme === 'file') ? d.uri.toString() : undefined;
  };

  // The resolved window, read-only: skewguard-window:/<file>.json?<file uri>
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const r = await resolvedFor(uri.query ? decodeURIComponent(uri.query) : undefined);
      if (!r) return '// skewguard: the language server is not running.\n';
      return JSON.stringify({ file: uri.query ? vscode.Uri.parse(decodeURIComponent(uri.query)).fsPath : null, window: r.fileWindow ?? null, ignored: r.ignored ?? null, family: r.family, ...r.resolved, configProblems: r.configProblems, settingsProblems: r.settingsProblems ?? [] }, null, 2) + '\n';
    },
  };
  const open: vscode.Uri[] = [];
  const showResolved = async () => {
    const u = activeUri();
    const name = u ? vscode.workspace.asRelativePath(vscode.Uri.parse(u), false) : 'workspace';
    const doc = vscode.Uri.from({ scheme: SCHEME, path: `/Resolved window of ${name.replace(/[\\/]/g, '∕')}.json`, query: u ? encodeURIComponent(u) : '' });
    open.push(doc);
    changed.fire(doc);
    const td = await vscode.workspace.openTextDocument(doc);
    await vscode.languages.setTextDocumentLanguage(td, 'json');
    await vscode.window.showTextDocument(td, { preview: true });
  };

  const openConfig = async () => {
    const r = await resolvedFor(activeUri());
    const existing = r?.resolved.config as string | null | undefined;
    if (existing) { await vscode.window.showTextDocument(pathUri(existing)); return; }
    const pick = await vscode.window.showInformationMessage('skewguard: there is no .skewguard.yaml for this file yet. Create one with a window?', 'Change window…');
    if (pick) await changeWindow();
  };

  const write = async (part: WindowPart, value: string): Promise<boolean> => {
    const c = client();
    if (!c?.isRunning()) { void vscode.window.showWarningMessage('skewguard: the language server is not running.'); return false; }
    const r = await c.sendRequest<WindowEditResult>(WindowEditRequest, { uri: activeUri(), part, value } satisfies WindowEditParams);
    if (r.problem || !r.path || r.text === undefined) { void vscode.window.showErrorMessage(`skewguard: ${value} cannot be used: ${r.problem ?? 'no configuration file'}`); return false; }
    const target = pathUri(r.path);
    const edit = new vscode.WorkspaceEdit();
    if (!r.exists) {
      edit.createFile(target, { ignoreIfExists: true });
      edit.insert(target, new vscode.Position(0, 0), r.text);
    } else {
      const doc = await vscode.workspace.openTextDocument(target);
      edit.replace(target, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), r.text);
    }
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    const doc = await vscode.workspace.openTextDocument(target);
    await doc.save();
    void vscode.window.setStatusBarMessage(`skewguard: ${part} set to ${value} in ${vscode.workspace.asRelativePath(target)}`, 4000);
    refresh();
    return true;
  };

  const changeWindow = async () => {
    const r = await resolvedFor(activeUri());
    const c = client();
    if (!c?.isRunning()) { void vscode.window.showWarningMessage('skewguard: the language server is not running.'); return; }
    const choices = await c.sendRequest<WindowChoicesResult>(WindowChoicesRequest, {});
    // The current value of a part ("kubernetes.window") in the resolved configuration.
    const cur = (at: string) => String(at.split('.').reduce((o: any, k) => o?.[k], r?.resolved) ?? '');
    const parts: Array<vscode.QuickPickItem & { part: WindowPart; spec: WindowPartSpec }> = (choices.parts ?? []).map((spec) => (
      { part: spec.part, spec, label: spec.label, description: cur(spec.current ?? spec.part) || spec.unset, detail: spec.detail }));
    const where = (r?.resolved.config as string | null | undefined) ? vscode.workspace.asRelativePath(r!.resolved.config as string) : '.skewguard.yaml (new, at the workspace root)';
    const which = await vscode.window.showQuickPick(parts, { title: `skewguard: Change window — written to ${where}`, placeHolder: 'Which part of the version window?' });
    if (!which) return;
    let value: string | undefined;
    if (which.spec.choices) {
      const pick = await vscode.window.showQuickPick(choiceItems(which.spec, which.description ?? ''), { title: `skewguard: ${which.label}`, placeHolder: `Current: ${which.description}` });
      value = pick?.label;
    } else {
      value = await vscode.window.showInputBox({
        title: `skewguard: ${which.label}`, value: which.description === which.spec.unset ? '' : which.description, prompt: which.detail,
        validateInput: (v) => typedProblem(which.spec, v),
      });
    }
    if (value) await write(which.part, value);
  };

  const menu = async () => {
    const r = await resolvedFor(activeUri());
    const items: Array<vscode.QuickPickItem & { run: () => Promise<void> | void }> = [
      { label: '$(edit) Change window…', detail: 'Pick a release or type a window; written to .skewguard.yaml (created when missing)', run: changeWindow },
      { label: '$(go-to-file) Open .skewguard.yaml', description: r?.resolved.config ? vscode.workspace.asRelativePath(r.resolved.config as string) : 'none yet', run: openConfig },
      { label: '$(json) Show resolved window', detail: 'Every part of the window and where it comes from (read-only)', run: showResolved },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: `skewguard: ${r?.fileWindow ?? r?.ignored ?? 'version window'}` });
    if (pick) await pick.run();
  };

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    vscode.commands.registerCommand('skewguard.windowMenu', menu),
    vscode.commands.registerCommand('skewguard.changeWindow', changeWindow),
    vscode.commands.registerCommand('skewguard.openConfig', openConfig),
    changed,
    // The family (whether the file is checked, and its window) is known once the server has analysed the file.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const u = vscode.window.activeTextEditor?.document.uri.toString();
      if (u && e.uris.some((x) => x.toString() === u)) refresh();
    }),
  );
  return { showResolved: async () => { await showResolved(); }, resolvedFor };
}
