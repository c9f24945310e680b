// The VS Code client: starts the skewguard language server (dist/server.js) and shows the resolved
// version window in the status bar. All analysis lives in the server.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  ConfigChangedNotification, SettingsProblemsNotification, WorkspaceTrustedNotification, userLevelAnswer,
  type SettingsProblem, type SettingsProblemsParams, type InitializationOptions, type UserLevelInitializeResult,
} from '../../server/src/shared/protocol';
import * as readline from 'node:readline';
import { RestartPolicy } from './restart';
import { registerDocs, docsMiddleware, SHOW_DOCS } from './docs';
import { registerWindow } from './window';
import { registerStatus } from './status';
import { registerWorkspaceCommands } from './workspace-commands';
import { registerVisibleRanges } from './visible';
import { registerWindowView } from './window-view';
import { documentSelector } from './selector';

let client: LanguageClient | undefined;
let refreshStatus: () => Promise<void> = async () => undefined;
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
    middleware: { ...docsMiddleware, workspace: { configuration: withUserLevel } },
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

  windowUi = registerWindow(context, () => client, () => void refreshStatus());
  refreshStatus = registerStatus(context, (uri) => windowUi?.resolvedFor(uri), () => settingsProblems);
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

/**
 * workspace/configuration answers for the skewguard section, with `userLevel`: for each setting the server named in its
 * initialize result (`userLevelSettings`, from the config sections), its entries set at the user level and not
 * overridden by the workspace or folder (inspect()). The server reads a workspace value only inside the workspace:
 * that value comes from the repository (.vscode/settings.json).
 */
const withUserLevel: NonNullable<NonNullable<LanguageClientOptions['middleware']>['workspace']>['configuration'] = async (params, token, next) => {
  const result = await next(params, token);
  if (!Array.isArray(result)) return result;
  const settings = (client?.initializeResult as UserLevelInitializeResult | undefined)?.userLevelSettings;
  if (!Array.isArray(settings) || !settings.length) return result;
  return result.map((r, i) => {
    const item = params.items[i];
    if (item?.section !== 'skewguard' || !r || typeof r !== 'object') return r;
    const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
    const config = vscode.workspace.getConfiguration('skewguard', scope);
    return { ...r, userLevel: userLevelAnswer(settings, (s) => config.inspect(s)) };
  });
};
