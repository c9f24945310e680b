// Issue #27 item 5: the web extension's client (dist/web/client.js, client/src/browser.ts) has what the desktop client
// has around the window: the status item (skewguard.window) with its menu, the "Show documentation for <rule>" command
// the server's code action runs, and "Show Resolved Window" as a read-only document titled for its file (the
// skewguard-window: provider of client/src/window.ts), not an untitled JSON buffer. The bundle is run in Node against a
// stand-in for the `vscode` module that records what the extension registers and opens (no VS Code is started; the
// editor suites in test/vscode run the real one in CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Module, { createRequire } from 'node:module';
import { repoRoot } from './helpers/lsp-client.mjs';

const API = fs.readFileSync(path.join(repoRoot, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
const NAMES = [...new Set([...API.matchAll(/^\s*export (?:namespace|class|enum|const|function|let) ([A-Za-z_]+)/gm)].map((m) => m[1]))];

function any(name) {
  return new Proxy(function () {}, {
    get(_, p) { if (p === 'then') return undefined; if (p === Symbol.toPrimitive || p === 'toString') return () => name; return any(`${name}.${String(p)}`); },
    apply() { return any(`${name}()`); },
    construct() { return any(`new ${name}`); },
  });
}
const disposable = () => ({ dispose() {} });
class Uri {
  constructor(s) { this.s = s; this.scheme = s.slice(0, s.indexOf(':')); const rest = s.slice(s.indexOf(':') + 1).replace(/^\/\/[^/]*/, ''); this.path = rest.split('?')[0]; this.query = rest.includes('?') ? rest.slice(rest.indexOf('?') + 1) : ''; }
  toString() { return this.s; }
  get fsPath() { return this.path; }
  static joinPath(u, ...p) { return new Uri(`${u.s.replace(/\/$/, '')}/${p.join('/')}`); }
  static parse(s) { return new Uri(s); }
  static file(p) { return new Uri(`file://${p}`); }
  static from(o) { return new Uri(`${o.scheme}:${o.path}${o.query ? `?${o.query}` : ''}`); }
}

function fakeVscode(rec) {
  const ns = (name, own) => new Proxy(own, { get: (t, p) => (p in t ? t[p] : any(`${name}.${String(p)}`)) });
  const base = {
    Uri,
    EventEmitter: class { constructor() { this.event = () => disposable(); } fire() {} dispose() {} },
    StatusBarAlignment: { Left: 1, Right: 2 },
    FileType: { File: 1, Directory: 2 },
    ThemeColor: class { constructor(id) { this.id = id; } },
    MarkdownString: class { constructor() { this.value = ''; } appendMarkdown(s) { this.value += s; return this; } },
    window: ns('window', {
      activeTextEditor: undefined,
      createStatusBarItem: (id) => { const it = { id, show() {}, hide() {}, dispose() {} }; rec.status.push(it); return it; },
      createOutputChannel: () => ({ info() {}, warn() {}, error() {}, dispose() {}, appendLine() {} }),
      onDidChangeActiveTextEditor: () => disposable(),
      showTextDocument: async (d) => { rec.shown.push(d); },
      showWarningMessage: async (m) => { rec.warnings.push(m); },
    }),
    commands: ns('commands', {
      registerCommand: (id, fn) => { rec.commands.set(id, fn); return disposable(); },
      executeCommand: async (...a) => { rec.executed.push(a); },
    }),
    languages: ns('languages', {
      onDidChangeDiagnostics: () => disposable(),
      setTextDocumentLanguage: async (d, l) => { d.languageId = l; return d; },
    }),
    workspace: ns('workspace', {
      findFiles: async () => [],
      registerTextDocumentContentProvider: (scheme, p) => { rec.providers.set(scheme, p); return disposable(); },
      createFileSystemWatcher: () => ({ onDidCreate: disposable, onDidChange: disposable, onDidDelete: disposable, dispose() {} }),
      openTextDocument: async (a) => { rec.opened.push(a); return { uri: a }; },
      asRelativePath: (u) => String(u.path ?? u).replace(/^\//, ''),
      fs: { stat: async () => ({ size: 1 }), readDirectory: async () => [] },
      getConfiguration: () => ({ get: () => undefined }),
    }),
  };
  for (const n of NAMES) if (!(n in base)) base[n] = any(n);
  return base;
}

test('#27 web extension: status item, the rule-documentation command, and the resolved window as a titled read-only document', async () => {
  const rec = { status: [], commands: new Map(), providers: new Map(), executed: [], opened: [], shown: [], warnings: [] };
  const fake = fakeVscode(rec);
  const load = Module._load;
  Module._load = function (req, ...rest) { return req === 'vscode' ? fake : load.call(this, req, ...rest); };
  const hadWorker = globalThis.Worker;
  globalThis.Worker = class { postMessage() {} addEventListener() {} removeEventListener() {} terminate() {} };
  try {
    const bundle = path.join(repoRoot, 'dist', 'web', 'client.js');
    const req = createRequire(import.meta.url);
    delete req.cache[bundle];
    const ext = req(bundle);
    const ctx = { subscriptions: [], extensionUri: new Uri('vscode-remote://host/ext'), asAbsolutePath: (p) => `/ext/${p}` };
    // The language client does not start here (no worker answers): everything the user sees is registered before.
    const done = ext.activate(ctx).catch(() => undefined);
    for (let i = 0; i < 50 && !rec.commands.has('skewguard.showResolvedWindow'); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(rec.status.map((s) => s.id), ['skewguard.window'], 'the status item');
    for (const id of ['skewguard.showResolvedWindow', 'skewguard.showRuleDocumentation', 'skewguard.windowMenu', 'skewguard.changeWindow', 'skewguard.openConfig', 'skewguard.restartServer']) {
      assert.ok(rec.commands.has(id), `${id} is registered`);
    }
    assert.ok(rec.providers.has('skewguard-window'), 'the read-only provider of the resolved window');
    // Show Resolved Window: a skewguard-window: document named for what it shows, not an untitled JSON buffer.
    await rec.commands.get('skewguard.showResolvedWindow')();
    const doc = rec.opened.at(-1);
    assert.ok(doc instanceof Uri, `opened ${JSON.stringify(doc)}`);
    assert.equal(doc.scheme, 'skewguard-window');
    assert.match(doc.path, /^\/Resolved window of .*\.json$/);
    // A rule page opens in the Markdown preview from the package.
    await rec.commands.get('skewguard.showRuleDocumentation')('k8s/removed-api');
    const preview = rec.executed.find((a) => a[0] === 'markdown.showPreview');
    assert.ok(preview, JSON.stringify(rec.executed));
    assert.equal(String(preview[1]), 'vscode-remote://host/ext/docs/rules/k8s/removed-api.md');
    void done;
  } finally {
    Module._load = load;
    globalThis.Worker = hadWorker;
  }
});
