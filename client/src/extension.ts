// The VS Code client: starts the skewguard language server (dist/server.js) and shows the resolved
// version window in the status bar. All analysis lives in the server.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  ConfigChangedNotification, SettingsProblemsNotification, WorkspaceTrustedNotification,
  type SettingsProblem, type SettingsProblemsParams, type InitializationOptions,
} from '../../server/src/shared/protocol';
import * as readline from 'node:readline';
import { RestartPolicy } from './restart';
import { registerDocs, docsMiddleware, SHOW_DOCS } from './docs';
import { registerWindow, WINDOW_MENU } from './window';
import { registerWorkspaceCommands } from './workspace-commands';
import { registerVisibleRanges } from './visible';
import { registerWindowView } from './window-view';
import { documentSelector } from './selector';

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem | undefined;
let windowUi: ReturnType<typeof registerWindow> | undefined;
/** Invalid editor settings, as the server last said (they are left out, like invalid .skewguard.yaml values). */
let settingsProblems: SettingsProblem[] = [];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const restarts = new RestartPolicy({
    notify: (message, final) => {
      const show = final ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
      void show(message, 'Show Output').then((pick) => { if (pick) client?.outputChannel.show(true); });
    },
  });
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector('file'),
    synchronize: {
      configurationSection: 'skewguard',
      // Globs that overlap as little as they can: the client sends every watcher's event, so a file under two globs had its
      // change said twice (still so for a template's YAML, under both).
      fileEvents: [
        // .skewguard.yaml/.yml, localhost.yml, a chart's Chart.yaml and values.yaml, and manifests: a
        // CustomResourceDefinition (or a custom resource) changed on disk re-checks what uses it (the server re-checks
        // only when the workspace's CRD index changes).
        vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}'),
        // A chart's other files that its files render with (helpers, packaged dependencies).
        vscode.workspace.createFileSystemWatcher('**/{templates/**,charts/*.tgz}'),
      ],
    },
    diagnosticCollectionName: 'skewguard',
    // The client shows invalid settings itself (a warning and the status bar), so the server sends no showMessage.
    // The server never runs Helm in Restricted Mode; it is told when the user trusts the workspace.
    initializationOptions: { showSettingsProblems: false, workspaceTrusted: vscode.workspace.isTrusted, clientCommands: [SHOW_DOCS] } satisfies InitializationOptions,
    middleware: { ...docsMiddleware },
    // A server that dies is restarted a bounded number of times, and the user is told why it died.
    errorHandler: restarts,
    stdioOptions: {
      stdout: (input, out) => { readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', (l) => out.info(l)); },
      stderr: (input, out) => {
        readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', (l) => { restarts.stderrLine(l); out.error(l); });
      },
    },
  };
  client = new LanguageClient('skewguard', 'skewguard', serverOptions, clientOptions);
  registerDocs(context);

  status = vscode.window.createStatusBarItem('skewguard.window', vscode.StatusBarAlignment.Right, 100);
  status.name = 'skewguard version window';
  status.command = WINDOW_MENU;
  context.subscriptions.push(status);
  windowUi = registerWindow(context, () => client, () => void refreshStatus());
  registerWorkspaceCommands(context, () => client);

  context.subscriptions.push(
    vscode.commands.registerCommand('skewguard.showResolvedWindow', windowUi.showResolved),
    vscode.commands.registerCommand('skewguard.restartServer', async () => { restarts.reset(); await client?.restart(); void refreshStatus(); }),
    vscode.window.onDidChangeActiveTextEditor(() => void refreshStatus()),
  );
  await client.start();
  registerVisibleRanges(context, () => client, clientOptions.documentSelector as vscode.DocumentSelector);
  registerWindowView(context, client);
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => { void client?.sendNotification(WorkspaceTrustedNotification, {}); }));
  context.subscriptions.push(client.onNotification(ConfigChangedNotification, () => void refreshStatus()));
  context.subscriptions.push(client.onNotification(SettingsProblemsNotification, (p: SettingsProblemsParams) => {
    settingsProblems = p.problems;
    void refreshStatus();
    if (p.problems.length) void warnAboutSettings(p.problems);
  }));
  void refreshStatus();
}

async function refreshStatus(): Promise<void> {
  if (!status) return;
  // The active document's window, any scheme (an untitled YAML too).
  const r = await windowUi?.resolvedFor(vscode.window.activeTextEditor?.document.uri.toString());
  const problems = r?.settingsProblems ?? settingsProblems;
  // Only on a file skewguard checks (or ignores), with that file's window; invalid settings show anyway.
  if (!r || (!r.fileWindow && !r.ignored && !problems.length)) { status.hide(); return; }
  const k = r.resolved.kubernetes;
  const s = r.resolved.starlingx;
  status.text = `${problems.length ? '$(warning)' : r.ignored ? '$(circle-slash)' : '$(versions)'} ${r.ignored ? 'skewguard: ignored' : r.fileWindow ?? r.summary}`;
  status.backgroundColor = problems.length ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**skewguard version window**${r.ignored ? ` — this file is ${escapeMd(r.ignored)}` : ''}\n\n`);
  if (problems.length) {
    md.appendMarkdown(`$(warning) **${problems.length} invalid setting(s), not applied:**\n\n`);
    for (const p of problems) md.appendMarkdown(`- \`${p.setting}\`: ${escapeMd(p.message)}\n`);
    md.appendMarkdown('\n');
  }
  md.appendMarkdown(`- StarlingX **${s.release}** — ${s.source.kind}: ${s.source.detail}\n`);
  md.appendMarkdown(`- Kubernetes **${k.window}** (${(k.versions as string[]).join(', ')}) — ${k.source.kind}: ${k.source.detail}\n`);
  if (r.resolved.kata.window) md.appendMarkdown(`- Kata **${r.resolved.kata.window}** — ${r.resolved.kata.source.kind}: ${r.resolved.kata.source.detail}\n`);
  // Which family read the file and why (the same answer as --print-config's readAs and the first line's hover).
  const readAs = r.resolved.readAs as { family: string | null; by: string; why: string } | null | undefined;
  if (readAs?.family) md.appendMarkdown(`- Read as **${escapeMd(readAs.family)}** (by ${escapeMd(readAs.by)}) — ${escapeMd(readAs.why)}\n`);
  const helm = r.resolved.helm?.readBy as { readBy: string; why?: string; helmVersion?: string } | undefined;
  if (helm) md.appendMarkdown(`- Helm chart read by **${helm.readBy === 'evaluator' ? "skewguard's evaluator" : `helm ${helm.helmVersion ?? ''}`}**${helm.why ? ` — ${escapeMd(helm.why)}` : ''}\n`);
  if (r.configProblems.length) md.appendMarkdown(`\n$(warning) ${r.configProblems.length} problem(s) in ${path.basename(r.configProblems[0].file)}`);
  md.appendMarkdown('\n\nClick to change the window, open .skewguard.yaml or show the resolved window.');
  status.tooltip = md;
  status.show();
}

const escapeMd = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

async function warnAboutSettings(problems: SettingsProblem[]): Promise<void> {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  const pick = await vscode.window.showWarningMessage(
    `skewguard: invalid setting ${first.setting}: ${first.message}${more}. Invalid settings are not applied.`, 'Open Settings');
  if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', first.setting);
}


export async function deactivate(): Promise<void> {
  await client?.stop();
}
