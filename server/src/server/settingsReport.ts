// Invalid editor settings: said to the client when the set of problems changes (skewguard/settingsProblems, and
// window/showMessage once per distinct set for clients that do not show the notification themselves).
import { MessageType, type Connection } from 'vscode-languageserver/node';
import { ruleIds } from '../engine/rules';
import { normalizeSettings, problemsKey, type SettingsProblem } from '../shared/settings';
import { SettingsProblemsNotification, type SettingsProblemsParams } from '../shared/protocol';

export class SettingsReporter {
  private lastKey = '';
  private shown = new Set<string>();
  constructor(private connection: Connection, private showMessages: boolean) {}

  /** All settings objects in use (workspace-wide and per document): reports their problems if they changed. */
  report(all: unknown[], extra: readonly SettingsProblem[] = []): void {
    const seen = new Map<string, SettingsProblem>();
    for (const s of all) for (const p of normalizeSettings(s, ruleIds).problems) seen.set(`${p.setting}\u0000${p.message}`, p);
    for (const p of extra) seen.set(`${p.setting}\u0000${p.message}`, p);
    const problems = [...seen.values()];
    const key = problemsKey(problems);
    if (key === this.lastKey) return;
    this.lastKey = key;
    void this.connection.sendNotification(SettingsProblemsNotification, { problems } satisfies SettingsProblemsParams);
    if (this.showMessages && problems.length && !this.shown.has(key)) {
      this.shown.add(key);
      void this.connection.sendNotification('window/showMessage', {
        type: MessageType.Warning,
        message: `skewguard: invalid settings are not applied: ${problems.map((p) => `${p.setting}: ${p.message}`).join('; ')}`,
      });
    }
  }
}
