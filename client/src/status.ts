// The status item of the version window (desktop and web clients): the active file's window, or that it is ignored,
// and invalid settings; its tooltip says where each part of the window comes from; a click opens the window menu.
// No Node module: the web extension (client/src/browser.ts) uses it too.
import * as vscode from 'vscode';
import type { ResolvedConfigResult, SettingsProblem } from '../../server/src/shared/protocol';
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
    // The families' own windows that are set (their config sections, sent by the server).
    for (const w of r.windows ?? []) md.appendMarkdown(`- ${w.label} **${w.window}** — ${w.source.kind}: ${w.source.detail}\n`);
    // Which family read the file and why (the same answer as --print-config's readAs and the first line's hover).
    const readAs = r.resolved.readAs as { family: string | null; by: string; why: string } | null | undefined;
    if (readAs?.family) md.appendMarkdown(`- Read as **${escapeMd(readAs.family)}** (by ${escapeMd(readAs.by)}) — ${escapeMd(readAs.why)}\n`);
    const helm = r.resolved.helm?.readBy as { readBy: string; why?: string; helmVersion?: string } | undefined;
    if (helm) md.appendMarkdown(`- Helm chart read by **${helm.readBy === 'evaluator' ? "skewguard's evaluator" : `helm ${helm.helmVersion ?? ''}`}**${helm.why ? ` — ${escapeMd(helm.why)}` : ''}\n`);
    if (r.unsavedConfig) md.appendMarkdown(`\n$(edit) ${escapeMd(r.unsavedConfig)}\n`);
    if (r.configProblems.length) md.appendMarkdown(`\n$(warning) ${r.configProblems.length} problem(s) in ${r.configProblems[0].file.split(/[\\/]/).pop()}`);
    md.appendMarkdown('\n\nClick to change the window, open .skewguard.yaml or show the resolved window.');
    status.tooltip = md;
    status.show();
  };
}

const escapeMd = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
