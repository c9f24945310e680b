// The status item of the version window (desktop and web clients): the active file's window, or that it is ignored,
// and invalid settings; its tooltip says where each part of the window comes from (the lines the server sends from
// the families' config sections: this module names no family); a click opens the window menu.
// No Node module: the web extension (client/src/browser.ts) uses it too.
import * as vscode from 'vscode';
import type { ResolvedConfigResult, SettingsProblem, WindowLine } from '../../server/src/shared/protocol';
import { WINDOW_MENU } from './window';

export function registerStatus(
  context: vscode.ExtensionContext,
  resolvedFor: (uri?: string) => Promise<ResolvedConfigResult | undefined> | undefined,
  settingsProblems: () => SettingsProblem[],
): () => Promise<void> {
  const status = vscode.window.createStatusBarItem('skewguard.window', vscode.StatusBarAlignment.Right, 100);
  status.name = 'skewguard version window';
  status.command = WINDOW_MENU;
  context.subscriptions.push(status);
  return async () => {
    // The active document's window, any scheme (an untitled YAML too).
    const r = await resolvedFor(vscode.window.activeTextEditor?.document.uri.toString());
    const problems = r?.settingsProblems ?? settingsProblems();
    // Only on a file skewguard checks (or ignores), with that file's window; invalid settings show anyway.
    if (!r || (!r.fileWindow && !r.ignored && !problems.length)) { status.hide(); return; }
    status.text = `${problems.length ? '$(warning)' : r.ignored ? '$(circle-slash)' : '$(versions)'} ${r.ignored ? 'skewguard: ignored' : r.fileWindow ?? r.summary}`;
    status.backgroundColor = problems.length ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**skewguard version window**${r.ignored ? ` — this file is ${escapeMd(r.ignored)}` : ''}\n\n`);
    if (problems.length) {
      md.appendMarkdown(`$(warning) **${problems.length} invalid setting(s), not applied:**\n\n`);
      for (const p of problems) md.appendMarkdown(`- \`${p.setting}\`: ${escapeMd(p.message)}\n`);
      md.appendMarkdown('\n');
    }
    // The windows every other is read from, then the families' own that are set (their config sections, sent by the server).
    for (const w of [...r.baseWindows ?? [], ...r.windows ?? []]) md.appendMarkdown(`${windowLine(w)}\n`);
    // Which family read the file and why (the same answer as --print-config's readAs and the first line's hover).
    const readAs = r.resolved.readAs as { family: string | null; by: string; why: string } | null | undefined;
    if (readAs?.family) md.appendMarkdown(`- Read as **${escapeMd(readAs.family)}** (by ${escapeMd(readAs.by)}) — ${escapeMd(readAs.why)}\n`);
    if (r.readBy) md.appendMarkdown(`- ${r.readBy.label} **${r.readBy.by}**${r.readBy.why ? ` — ${escapeMd(r.readBy.why)}` : ''}\n`);
    if (r.unsavedConfig) md.appendMarkdown(`\n$(edit) ${escapeMd(r.unsavedConfig)}\n`);
    if (r.configProblems.length) md.appendMarkdown(`\n$(warning) ${r.configProblems.length} problem(s) in ${r.configProblems[0].file.split(/[\\/]/).pop()}`);
    md.appendMarkdown('\n\nClick to change the window, open .skewguard.yaml or show the resolved window.');
    status.tooltip = md;
    status.show();
  };
}

/** A window's tooltip line: "- Kubernetes **1.18..1.21** (1.18.1, …, 1.21.3) — config: /ws/.skewguard.yaml". */
export const windowLine = (w: WindowLine): string => `- ${w.label} **${w.window}**${w.details ? ` (${w.details})` : ''} — ${w.source.kind}: ${w.source.detail}`;

const escapeMd = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
