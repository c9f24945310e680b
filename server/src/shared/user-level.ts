// Settings whose user-level value the server must tell from the repository's (a workspace value is read only inside the
// workspace; the user's own may point anywhere). The config sections declare them (ConfigSection.userLevel), the
// server names them in its initialize result, and the VS Code client, which alone can tell the levels apart
// (inspect()), says for each which of its entries are the user's, without naming any (client/src/extension.ts).

/** The initialize result's own field for editors: the settings (section.key, below skewguard.) whose user-level entries to say. */
export interface UserLevelInitializeResult { userLevelSettings?: string[] }

/** A setting's value at each level, as VS Code's WorkspaceConfiguration.inspect() gives it. */
export interface InspectedLevels { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }

const entriesOf = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});

/**
 * The `userLevel` of a workspace/configuration answer for the skewguard section: for each of `settings` (a map-valued
 * setting), the entries set at the user level and not overridden by the workspace or the folder (.vscode/settings.json,
 * the repository's). Undefined when no setting is asked for.
 */
export function userLevelAnswer(settings: readonly string[], inspect: (setting: string) => InspectedLevels | undefined): Record<string, string[]> | undefined {
  if (!settings.length) return undefined;
  return Object.fromEntries(settings.map((s) => {
    const seen = inspect(s);
    const repo = { ...entriesOf(seen?.workspaceValue), ...entriesOf(seen?.workspaceFolderValue) };
    return [s, Object.keys(entriesOf(seen?.globalValue)).filter((k) => !(k in repo))];
  }));
}
