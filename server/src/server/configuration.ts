// Settings and trust: workspace/didChangeConfiguration (the settings pulled again, everything checked again), the
// workspace folders changing, and VS Code's workspace trust granted (a family's server side may now run a program: Helm).
import { DidChangeConfigurationNotification } from 'vscode-languageserver/node';
import { WorkspaceTrustedNotification, type Settings } from '../shared/protocol';
import { analysedWithCurrentConfig, pullSettings, settingsReceived } from './config-for';
import { schedule } from './diagnostics';
import { publishConfigProblems } from './publishing';
import { revalidateAll } from './document-sync';
import { connection, documents, canPullConfig, supportsFolders, ws, services, uriToPath, set } from './session';

export function registerConfiguration(): void {
  connection.onDidChangeConfiguration(async (change) => {
    if (canPullConfig) await pullSettings();
    else if (change.settings?.skewguard) set.settings(change.settings.skewguard as Settings);
    settingsReceived();
    revalidateAll();
  });

  // VS Code: the user trusted the workspace; each family's server side says whether that changes anything (Helm may
  // now be run, when the configuration asks for it); then everything is checked again.
  connection.onNotification(WorkspaceTrustedNotification, () => {
    let changed = false;
    for (const s of services) if (s.workspaceTrusted?.()) changed = true;
    if (!changed) return;
    revalidateAll();
  });
}

/** After initialized: the settings pulled (and the documents opened meanwhile checked again where they change), folders followed. */
export async function afterInitialized(): Promise<void> {
  if (canPullConfig) {
    await pullSettings();
    // Documents opened while the settings were being pulled were checked without them: checked again where the
    // settings change what they are checked with (a 10 MB file opened at start-up was analysed twice, the second
    // time blocking the first request for seconds).
    for (const d of documents.all()) if (!analysedWithCurrentConfig(d)) schedule(d, 0);
    connection.client.register(DidChangeConfigurationNotification.type, { section: 'skewguard' }).catch(() => undefined);
  }
  if (supportsFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const r of e.removed) ws.roots = ws.roots.filter((x) => x !== uriToPath(r.uri));
      for (const a of e.added) ws.roots.push(uriToPath(a.uri));
      revalidateAll();
    });
  }
  publishConfigProblems();
  settingsReceived();
}
