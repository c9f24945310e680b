// The window at a glance, client side (desktop and web clients): the command the server's per-step code lenses run
// (a quick pick of that step's findings, revealing the one picked), and the "Upgrade Window" view: the workspace's
// checked files with their verdict per step, filterable by step. The files are read with vscode.workspace.fs (so
// the view works in the web extension too) and checked by the server without publishing (skewguard/windowStatus);
// open files are answered from their current analysis.
import * as vscode from 'vscode';
import { CodeLensRequest, InlayHintRequest, type BaseLanguageClient } from 'vscode-languageclient';
import {
  SHOW_STEP_FINDINGS, WindowStatusRequest, type FileWindowStatus, type StepFinding, type StepFindingsArgs, type WindowStatusResult,
} from '../../server/src/shared/protocol';
import { ALWAYS_SKIPPED_FOLDERS } from '../../server/src/shared/names';

const FILES = '**/*.{yml,yaml,json,toml,tpl}';
const EXCLUDE = `**/{${ALWAYS_SKIPPED_FOLDERS.join(',')}}/**`;
/** The view checks at most this many files (the workspace's first ones by path), and says when it stopped. */
const MAX_FILES = 2000;
const FILE_MAX = 512 * 1024;
const MARK = { pass: '✓', warn: '⚠', fail: '✗' } as const;
const ICON = { pass: 'pass', warn: 'warning', fail: 'error' } as const;

type Node =
  | { kind: 'file'; status: FileWindowStatus }
  | { kind: 'step'; status: FileWindowStatus; step: FileWindowStatus['steps'][number] }
  | { kind: 'finding'; uri: string; finding: StepFinding }
  | { kind: 'note'; text: string };

async function revealFinding(uri: string, f: StepFinding): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const r = new vscode.Range(f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character);
  await vscode.window.showTextDocument(doc, { selection: r, preview: false });
}

/** A code lens's step: its findings in a quick pick; the one picked is revealed. */
async function showStepFindings(args: StepFindingsArgs): Promise<void> {
  if (!args?.findings) return;
  if (!args.findings.length) { void vscode.window.showInformationMessage(`skewguard: no findings concern ${args.step}.`); return; }
  type Item = vscode.QuickPickItem & { finding: StepFinding };
  const items: Item[] = args.findings.map((f) => ({
    label: `$(${f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'info'}) ${f.message}`,
    description: `${f.ruleId} · Ln ${f.range.start.line + 1}, Col ${f.range.start.character + 1}`,
    finding: f,
  }));
  const pick = await vscode.window.showQuickPick(items, { title: `skewguard: findings at ${args.step}`, matchOnDescription: true });
  if (pick) await revealFinding(args.uri, pick.finding);
}

class WindowView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private files: FileWindowStatus[] = [];
  private stopped = false;
  step: string | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly client: BaseLanguageClient, private readonly view: () => vscode.TreeView<Node> | undefined) {}

  /** Reads and checks the workspace's files again (one run at a time; a request during a run makes one more). */
  refresh(): Promise<void> {
    if (this.running) { this.again = true; return this.running; }
    this.running = this.load().finally(() => {
      this.running = undefined;
      if (this.again) { this.again = false; void this.refresh(); }
    });
    return this.running;
  }

  private async load(): Promise<void> {
    if (!this.client.isRunning()) return;
    const uris = (await vscode.workspace.findFiles(FILES, EXCLUDE, MAX_FILES + 1)).sort((a, b) => a.toString().localeCompare(b.toString()));
    this.stopped = uris.length > MAX_FILES;
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const out: FileWindowStatus[] = [];
    for (let i = 0; i < Math.min(uris.length, MAX_FILES); i += 50) {
      const batch = await Promise.all(uris.slice(i, i + 50).map(async (u) => {
        const uri = u.toString();
        if (open.has(uri)) return { uri };
        try {
          const bytes = await vscode.workspace.fs.readFile(u);
          return bytes.byteLength > FILE_MAX
            ? { uri, unread: `${bytes.byteLength} bytes, over the view's ${FILE_MAX / 1024} KiB limit: open the file to check it` }
            : { uri, text: new TextDecoder('utf-8').decode(bytes) };
        } catch (e) { return { uri, unread: `cannot be read: ${(e as Error)?.message ?? String(e)}` }; }
      }));
      const r = await this.client.sendRequest<WindowStatusResult>(WindowStatusRequest, { files: batch });
      for (const f of r.files) if (f.skewguardFile !== false) out.push(f);
    }
    this.files = out;
    this.updateTitle();
    this.changed.fire(undefined);
  }

  private updateTitle(): void {
    const v = this.view();
    if (!v) return;
    const failing = this.files.filter((f) => f.steps.some((s) => s.verdict === 'fail')).length;
    v.description = this.step ? `step ${this.step}` : undefined;
    v.message = this.stopped ? `Only the first ${MAX_FILES} files are listed.` : this.files.length ? undefined : 'No checked files in the workspace.';
    v.badge = failing ? { value: failing, tooltip: `${failing} file(s) fail at a step of their window` } : undefined;
  }

  /** The steps of all listed files, for the filter. */
  steps(): string[] {
    const all = new Set<string>();
    for (const f of this.files) for (const s of f.steps) all.add(`${f.axis ?? ''} ${s.step}`.trim());
    return [...all].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  }

  setStep(step: string | undefined): void {
    this.step = step;
    void vscode.commands.executeCommand('setContext', 'skewguard.window.filtered', !!step);
    this.updateTitle();
    this.changed.fire(undefined);
  }

  private stepOf(f: FileWindowStatus) {
    return this.step ? f.steps.find((s) => `${f.axis ?? ''} ${s.step}`.trim() === this.step) : undefined;
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      const rank = (f: FileWindowStatus) => {
        const s = this.stepOf(f);
        const v = this.step ? s?.verdict : f.steps.some((x) => x.verdict === 'fail') ? 'fail' : f.steps.some((x) => x.verdict === 'warn') ? 'warn' : 'pass';
        return f.notChecked ? -1 : v === 'fail' ? 0 : v === 'warn' ? 1 : 2;
      };
      const shown = this.step ? this.files.filter((f) => f.notChecked || this.stepOf(f)) : this.files;
      const items: Node[] = [...shown].sort((a, b) => rank(a) - rank(b) || a.uri.localeCompare(b.uri)).map((status) => ({ kind: 'file', status }));
      if (this.stopped) items.push({ kind: 'note', text: `Only the first ${MAX_FILES} files of the workspace are listed.` });
      return items;
    }
    if (node.kind === 'file') {
      if (node.status.notChecked) return node.status.findings.map((finding) => ({ kind: 'finding', uri: node.status.uri, finding }));
      const s = this.stepOf(node.status);
      return (s ? [s] : node.status.steps).map((step) => ({ kind: 'step', status: node.status, step }));
    }
    if (node.kind === 'step') return node.step.findings.map((finding) => ({ kind: 'finding', uri: node.status.uri, finding }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'note') return new vscode.TreeItem(node.text);
    if (node.kind === 'finding') {
      const t = new vscode.TreeItem(node.finding.message);
      t.description = `${node.finding.ruleId} · Ln ${node.finding.range.start.line + 1}`;
      t.iconPath = new vscode.ThemeIcon(node.finding.severity === 'error' ? 'error' : node.finding.severity === 'warning' ? 'warning' : 'info');
      t.command = { title: 'Show', command: 'skewguard.window.reveal', arguments: [node.uri, node.finding] };
      return t;
    }
    if (node.kind === 'step') {
      const t = new vscode.TreeItem(`${node.step.step} ${MARK[node.step.verdict]}`, node.step.findings.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      t.description = node.step.findings.length ? `${node.step.findings.length} finding(s)` : 'no findings';
      t.iconPath = new vscode.ThemeIcon(ICON[node.step.verdict]);
      return t;
    }
    const f = node.status;
    const uri = vscode.Uri.parse(f.uri);
    const t = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.Collapsed);
    const s = this.stepOf(f);
    // The verdicts first (a narrow side bar cuts the end off), then where the file is.
    t.description = `${f.notChecked ? f.summary : s ? `${f.axis} ${s.step} ${MARK[s.verdict]}` : f.summary} — ${vscode.workspace.asRelativePath(uri, false)}`;
    t.tooltip = `${vscode.workspace.asRelativePath(uri, false)}\n${f.axis ? `${f.axis} ` : ''}${f.summary}`;
    const verdict = f.notChecked ? undefined : s?.verdict ?? (f.steps.some((x) => x.verdict === 'fail') ? 'fail' : f.steps.some((x) => x.verdict === 'warn') ? 'warn' : 'pass');
    t.iconPath = new vscode.ThemeIcon(verdict ? ICON[verdict] : 'circle-slash');
    t.resourceUri = uri;
    return t;
  }
}

export function registerWindowView(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  if (SHOW_STEP_FINDINGS !== 'skewguard.showStepFindings') throw new Error('the code lens command id changed');
  let tree: vscode.TreeView<Node> | undefined;
  const view = new WindowView(client, () => tree);
  tree = vscode.window.createTreeView('skewguard.window', { treeDataProvider: view, showCollapseAll: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => { if (timer) clearTimeout(timer); timer = setTimeout(() => { timer = undefined; if (tree?.visible) void view.refresh(); }, 1000); };
  context.subscriptions.push(
    tree,
    // The id the server's code lenses name (SHOW_STEP_FINDINGS), written out for the manifest test.
    vscode.commands.registerCommand('skewguard.showStepFindings', showStepFindings),
    vscode.commands.registerCommand('skewguard.window.reveal', revealFinding),
    vscode.commands.registerCommand('skewguard.window.refresh', () => view.refresh()),
    vscode.commands.registerCommand('skewguard.window.filterStep', async () => {
      const steps = view.steps();
      const pick = await vscode.window.showQuickPick(['All steps', ...steps], { title: 'skewguard: show the files\' verdicts at one step' });
      if (pick) view.setStep(pick === 'All steps' ? undefined : pick);
    }),
    vscode.commands.registerCommand('skewguard.window.clearFilter', () => view.setStep(undefined)),
    tree.onDidChangeVisibility((e) => { if (e.visible) void view.refresh(); }),
    // What the server says changes: new diagnostics, a changed configuration or workspace file.
    vscode.languages.onDidChangeDiagnostics(later),
    // A file's lenses and hints come from the analysis its diagnostics come from: when the diagnostics change without
    // an edit (its .skewguard.yaml or localhost.yml changed), they are asked for again.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const docs = vscode.workspace.textDocuments.filter((d) => e.uris.some((u) => u.toString() === d.uri.toString()));
      for (const d of docs) {
        try {
          client.getFeature(CodeLensRequest.method)?.getProvider(d)?.onDidChangeCodeLensEmitter.fire();
          client.getFeature(InlayHintRequest.method)?.getProvider(d)?.onDidChangeInlayHints.fire();
        } catch { /* the client is stopping */ }
      }
    }),
    vscode.workspace.onDidSaveTextDocument(later),
  );
  if (tree.visible) void view.refresh();
}
