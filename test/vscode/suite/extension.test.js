// Runs inside the VS Code extension host (desktop VS Code through @vscode/test-electron, or code-server through the
// harness shim): the real client, the real language server, VS Code's own diagnostics, hover, code action and
// configuration machinery. The workspace is a temporary copy of examples/ (test/vscode/workspace.js).
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const { FILES } = require('../workspace');

const WS = process.env.SKEWGUARD_TEST_WORKSPACE;
const EXPECTED = JSON.parse(fs.readFileSync(process.env.SKEWGUARD_TEST_EXPECTED, 'utf8'));
const { localhost: LOCALHOST, manifest: MANIFEST, siteIngress: SITE_INGRESS, kata: KATA } = FILES;

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information, hint: vscode.DiagnosticSeverity.Hint,
};
const uriOf = (rel) => vscode.Uri.file(path.join(WS, rel));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(fn, what, ms = 30000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** skewguard's diagnostics for a file, in a comparable form. */
function diagnostics(rel) {
  return vscode.languages.getDiagnostics(uriOf(rel)).filter((d) => d.source === 'skewguard').map((d) => ({
    code: typeof d.code === 'object' ? d.code.value : d.code,
    target: typeof d.code === 'object' ? d.code.target.toString() : undefined,
    severity: d.severity,
    message: d.message,
    range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
  })).sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1] || String(a.code).localeCompare(String(b.code)));
}
const codes = (rel) => diagnostics(rel).map((d) => d.code);

function expectedFor(rel) {
  const f = EXPECTED.find((e) => e.file === rel);
  assert.ok(f, `lsp-lint did not check ${rel}`);
  return f.messages.map((m) => ({ code: m.code, severity: SEVERITY[m.severity], message: m.message, range: m.range }))
    .sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1] || String(a.code).localeCompare(String(b.code)));
}
const strip = (ds) => ds.map(({ target, ...d }) => d);

/** Waits until the file's diagnostics equal `want` and stay so for a moment (a clean file is clean at once). */
async function settle(rel, want, what) {
  const same = () => JSON.stringify(strip(diagnostics(rel))) === JSON.stringify(want);
  try {
    await waitFor(same, what);
    await sleep(400);
    await waitFor(same, what, 5000);
  } catch (e) {
    assert.deepEqual(strip(diagnostics(rel)), want, `${what}: ${e.message}`);
  }
}

async function open(rel, show = true) {
  const doc = await vscode.workspace.openTextDocument(uriOf(rel));
  if (show) await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

async function hoverText(rel, line, character) {
  const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', uriOf(rel), new vscode.Position(line, character));
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

async function quickFixes(rel, range) {
  const r = new vscode.Range(range[0], range[1], range[2], range[3]);
  const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uriOf(rel), r, vscode.CodeActionKind.QuickFix.value);
  return actions.filter((a) => a.kind && vscode.CodeActionKind.QuickFix.contains(a.kind));
}

async function revert(doc) {
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await waitFor(() => !doc.isDirty, `${path.basename(doc.fileName)} to be reverted`);
}

async function setSetting(key, value) {
  await vscode.workspace.getConfiguration('skewguard').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('skewguard in VS Code', () => {
  suiteTeardown(async () => {
    await setSetting('kubernetes.window', undefined);
    await setSetting('starlingx.release', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('activates on a localhost.yml and starts the language server', async () => {
    await open(LOCALHOST);
    const ext = vscode.extensions.getExtension('skewguard.skewguard');
    assert.ok(ext, 'extension skewguard.skewguard is loaded');
    await waitFor(() => ext.isActive, 'the extension to activate');
    await waitFor(() => diagnostics(LOCALHOST).length > 0, 'the first diagnostics');
  });

  test('every example file shows exactly what lsp-lint reports (rule ids as codes, ranges, severities, messages)', async () => {
    assert.ok(EXPECTED.length >= 10, `only ${EXPECTED.length} files in the workspace`);
    // A chart's packaged dependency (charts/*.tgz) is binary: VS Code will not open it as a text document, so its
    // findings are lsp-lint's (the parent Chart.yaml's dependency findings are shown here like any other).
    const archives = EXPECTED.filter(({ file }) => file.endsWith('.tgz'));
    assert.ok(archives.every(({ file }) => /\/charts\/[^/]+\.tgz$/.test(file)), archives.map((a) => a.file).join(', '));
    for (const { file } of EXPECTED) {
      if (file.endsWith('.tgz')) continue;
      await open(file, false);
      await settle(file, expectedFor(file), file);
    }
    // Each code links to the rule's page.
    // Each code links to the rule's page shipped in the extension, opened in VS Code (#18: no web page, offline).
    for (const d of diagnostics(LOCALHOST)) assert.equal(d.target, `command:skewguard.showRuleDocumentation?${encodeURIComponent(JSON.stringify([d.code]))}`);
    // The three file kinds, each with findings.
    assert.ok(codes(LOCALHOST).includes('starlingx/kubernetes-version-v-prefix'));
    assert.ok(codes(MANIFEST).includes('k8s/removed-api'));
    assert.ok(codes(KATA).includes('kata/invalid-value'));
  });

  test('localhost.yml: the "v" prefix is an error on the value, and the key no longer read a warning on the key', () => {
    const [v] = diagnostics(LOCALHOST).filter((d) => d.code === 'starlingx/kubernetes-version-v-prefix');
    assert.deepEqual(v.range, [16, 20, 16, 27]);
    assert.equal(v.severity, vscode.DiagnosticSeverity.Error);
    const [k] = diagnostics(LOCALHOST).filter((d) => d.code === 'starlingx/key-not-read' && d.range[0] === 20);
    assert.deepEqual(k.range, [20, 0, 20, 16]);
    assert.equal(k.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('localhost.yml: hovers show what the release ships and which releases read a key', async () => {
    const version = await hoverText(LOCALHOST, 16, 22);
    assert.match(version, /\*\*kubernetes_version\*\* — StarlingX 12\.0/);
    assert.match(version, /1\.34\.1 is the newest version this release ships/);
    const key = await hoverText(LOCALHOST, 20, 3);
    assert.match(key, /\*\*Not read by StarlingX 12\.0\.\*\*/);
    assert.match(key, /Releases that read it: 5\.0, 6\.0, 7\.0, 8\.0, 9\.0, 10\.0, 11\.0\./);
  });

  test('localhost.yml: the quick fix removes the "v", and the error goes away', async () => {
    const doc = await open(LOCALHOST);
    const fixes = await quickFixes(LOCALHOST, [16, 20, 16, 27]);
    const fix = fixes.find((a) => a.title === 'Remove the "v": 1.34.1');
    assert.ok(fix, `offered: ${fixes.map((a) => a.title).join(' | ')}`);
    assert.equal(fix.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.lineAt(16).text, 'kubernetes_version: 1.34.1');
    await waitFor(() => !codes(LOCALHOST).includes('starlingx/kubernetes-version-v-prefix'), 'the v-prefix error to go');
    assert.deepEqual(codes(LOCALHOST), ['starlingx/key-not-read', 'starlingx/key-not-read', 'starlingx/key-not-read']);
    await revert(doc);
    await settle(LOCALHOST, expectedFor(LOCALHOST), 'after revert');
  });

  test('localhost.yml: fix-all (source.fixAll.skewguard) offers the complete fixes', async () => {
    const doc = await open(LOCALHOST);
    const all = new vscode.Range(0, 0, doc.lineCount, 0);
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, all, 'source.fixAll.skewguard');
    const fixAll = actions.find((a) => a.title === 'Fix all auto-fixable skewguard problems');
    assert.ok(fixAll, 'no fix-all action');
    const edits = fixAll.edit.get(doc.uri);
    assert.deepEqual(edits.map((e) => e.newText), ['1.34.1']);
  });

  test('manifest: hover on apiVersion shows the timeline over the window', async () => {
    await open(MANIFEST);
    const text = await hoverText(MANIFEST, 1, 14);
    assert.match(text, /\*\*extensions\/v1beta1 DaemonSet\*\*/);
    assert.match(text, /introduced 1\.1 · deprecated 1\.8 · removed 1\.16 · replacement apps\/v1/);
    assert.match(text, /Window 1\.18\.\.1\.21/);
    assert.match(text, /\| ✗ removed \| ✗ removed \| ✗ removed \| ✗ removed \|/);
    assert.match(text, /Served by every version of the window: `apps\/v1`/);
  });

  test('manifest: the quick fix converts the DaemonSet to apps/v1 and the error goes away', async () => {
    const doc = await open(MANIFEST);
    const [d] = diagnostics(MANIFEST);
    assert.equal(d.code, 'k8s/removed-api');
    assert.deepEqual(d.range, [1, 12, 1, 30]);
    const fixes = await quickFixes(MANIFEST, d.range);
    const fix = fixes.find((a) => a.title.startsWith('Convert to apps/v1'));
    assert.ok(fix, `offered: ${fixes.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const text = doc.getText();
    assert.equal(doc.lineAt(1).text, 'apiVersion: apps/v1');
    assert.match(text, /\n {2}selector:\n {4}matchLabels:\n {6}app: node-exporter\n/);
    await settle(MANIFEST, [], 'no findings after the conversion');
    await revert(doc);
    await settle(MANIFEST, expectedFor(MANIFEST), 'after revert');
  });

  test('Kata configuration TOML: toml language kept, the rejected value as an error, the values by release in the hover', async () => {
    const doc = await open(KATA);
    // #18 (3): the file keeps the toml language id (other TOML extensions keep working); Kata by its content.
    assert.equal(doc.languageId, 'toml');
    const [d] = diagnostics(KATA);
    assert.equal(d.code, 'kata/invalid-value');
    assert.deepEqual(d.range, [12, 12, 12, 18]);
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /^shared_fs = "none" is rejected by 3\.1\.0–3\.1\.3/);
    const hover = await hoverText(KATA, 12, 3);
    assert.match(hover, /\*\*shared_fs\*\* in \[hypervisor\.qemu\] — Kata Containers Go runtime/);
    assert.match(hover, /`virtio-9p`, `virtio-fs`, `virtio-fs-nydus` \(2\.4\.0–3\.1\.3, others fatal\)/);
    assert.match(hover, /Window 3\.1\.0\.\.3\.32\.0 .*✓ read by 3\.1\.0–3\.32\.0/);
  });

  test('Kata configuration TOML: the quick fix picks a value every release accepts, and the error goes away', async () => {
    const doc = await open(KATA);
    // The finding's own fixes (disable/documentation/fix-all follow them: tested below).
    const fixes = (await quickFixes(KATA, [12, 12, 12, 18])).filter((a) => !/^(Disable |Show documentation|Fix all skewguard)/.test(a.title));
    assert.deepEqual(fixes.map((a) => a.title), ['Change to virtio-9p', 'Change to virtio-fs', 'Change to virtio-fs-nydus']);
    assert.ok(!fixes.some((a) => a.isPreferred), 'a suggestion must not be preferred (fix-all would apply it)');
    assert.ok(await vscode.workspace.applyEdit(fixes[1].edit));
    assert.equal(doc.lineAt(12).text, 'shared_fs = "virtio-fs"');
    await settle(KATA, [], 'no findings after the fix');
    await revert(doc);
    await settle(KATA, expectedFor(KATA), 'after revert');
  });

  test('setting skewguard.kubernetes.window changes the findings of a manifest', async () => {
    await open(SITE_INGRESS);
    await settle(SITE_INGRESS, expectedFor(SITE_INGRESS), 'before');
    // The extensions/v1beta1 Ingress is deprecated in the window, and so is its kubernetes.io/ingress.class annotation.
    assert.deepEqual(codes(SITE_INGRESS), ['k8s/deprecated-api', 'k8s/deprecated-annotation']);
    await setSetting('kubernetes.window', '1.22..1.24');
    await waitFor(() => codes(SITE_INGRESS).includes('k8s/removed-api'), 'k8s/removed-api with the window 1.22..1.24');
    const [d] = diagnostics(SITE_INGRESS).filter((x) => x.code === 'k8s/removed-api');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /removed in Kubernetes 1\.22, which is in the window 1\.22\.\.1\.24/);
    await setSetting('kubernetes.window', undefined);
    await settle(SITE_INGRESS, expectedFor(SITE_INGRESS), 'after the setting is removed');
  });

  test('setting skewguard.starlingx.release changes the findings of a localhost.yml', async () => {
    // A site without .skewguard.yaml (one would win over the setting), written into the temporary workspace.
    const rel = 'starlingx/settings-probe/localhost.yml';
    fs.mkdirSync(path.dirname(path.join(WS, rel)), { recursive: true });
    fs.writeFileSync(path.join(WS, rel), '# Written by the test: the release comes from the setting.\nsystem_mode: simplex\nkubernetes_version: 1.21.3\n');
    await open(rel);
    await waitFor(() => codes(rel).includes('starlingx/unshipped-kubernetes-version'), 'unshipped-kubernetes-version under the newest release');
    assert.match(diagnostics(rel)[0].message, /^StarlingX 12\.0 does not ship Kubernetes 1\.21\.3/);
    await setSetting('starlingx.release', '6.0');
    await settle(rel, [], 'no findings: 6.0 ships 1.21.3 as its default');
    await setSetting('starlingx.release', '7.0');
    await waitFor(() => diagnostics(rel)[0]?.message.startsWith('StarlingX 7.0 does not ship Kubernetes 1.21.3'), 'the 7.0 finding');
    await setSetting('starlingx.release', undefined);
    await waitFor(() => diagnostics(rel)[0]?.message.startsWith('StarlingX 12.0 does not ship'), 'the 12.0 finding again');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('skewguard: Show Resolved Version Window opens the resolved window of the active file', async () => {
    await open(LOCALHOST);
    await vscode.commands.executeCommand('skewguard.showResolvedWindow');
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.languageId === 'json' && vscode.window.activeTextEditor, 'the JSON document');
    const r = JSON.parse(editor.document.getText());
    assert.equal(r.family, 'starlingx');
    assert.equal(r.starlingx.release, '12.0');
    assert.match(r.starlingx.source.detail, /stx12-v-prefix[/\\]\.skewguard\.yaml$/);
    assert.deepEqual(r.configProblems, []);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('#18 code actions: the v-prefix finding offers its fix, disable for line and file, its documentation and fix-all', async () => {
    const doc = await open(LOCALHOST);
    const r = new vscode.Range(16, 20, 16, 27);
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, r, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((a) => a.title);
    const V = 'starlingx/kubernetes-version-v-prefix';
    for (const t of ['Remove the "v": 1.34.1', `Disable ${V} for this line`, `Disable ${V} for the entire file`, `Show documentation for ${V}`, 'Fix all skewguard problems in this file']) {
      assert.ok(titles.includes(t), `${t} in ${JSON.stringify(titles)}`);
    }
    const disable = actions.find((a) => a.title === `Disable ${V} for this line`);
    assert.ok(await vscode.workspace.applyEdit(disable.edit));
    assert.equal(doc.lineAt(16).text, `# skewguard-disable-next-line ${V}`);
    await waitFor(() => !codes(LOCALHOST).includes(V), 'the suppressed finding to go');
    assert.ok(!codes(LOCALHOST).includes('skewguard/unused-suppression'));
    await revert(doc);
    await settle(LOCALHOST, expectedFor(LOCALHOST), 'after revert');
  });

  test('#18 docs offline: "Show documentation" opens the packaged rule page in the Markdown preview', async () => {
    const V = 'starlingx/kubernetes-version-v-prefix';
    await vscode.commands.executeCommand('skewguard.showRuleDocumentation', V);
    const tab = await waitFor(() => {
      const t = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((x) => x.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(x.input.viewType));
      return t;
    }, 'the Markdown preview of the rule page');
    assert.match(tab.label, /kubernetes-version-v-prefix/);
    const ext = vscode.extensions.getExtension('skewguard.skewguard');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'docs', 'rules', 'starlingx', 'kubernetes-version-v-prefix.md')), 'the page ships with the extension');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('#18 ignore parity: a file that ignore: in a nested .skewguard.yaml leaves out is not checked in the editor, as lsp-lint leaves it out', async () => {
    const dir = 'starlingx/ignored-site';
    fs.mkdirSync(path.join(WS, dir), { recursive: true });
    fs.writeFileSync(path.join(WS, dir, '.skewguard.yaml'), 'starlingx: { release: "6.0" }\nignore: ["/archive/**"]\n');
    fs.mkdirSync(path.join(WS, dir, 'archive'), { recursive: true });
    fs.writeFileSync(path.join(WS, dir, 'archive', 'localhost.yml'), 'system_mode: simplex\nkubernetes_version: v1.21.3\n');
    fs.writeFileSync(path.join(WS, dir, 'localhost.yml'), 'system_mode: simplex\nkubernetes_version: v1.21.3\n');
    const { spawnSync } = require('node:child_process');
    const lint = spawnSync(process.execPath, [path.join(__dirname, '..', '..', '..', 'bin', 'lsp-lint.js'), '-f', 'json', '--max-warnings', '-1', dir], { cwd: WS, encoding: 'utf8' });
    const files = JSON.parse(lint.stdout).map((f) => path.relative(WS, f.filePath).split(path.sep).join('/'));
    assert.deepEqual(files, [`${dir}/localhost.yml`], lint.stderr);
    // The ignored file first: the server answers in order, so once the second file's finding is there, the first was done.
    await open(`${dir}/archive/localhost.yml`);
    await open(`${dir}/localhost.yml`);
    await waitFor(() => codes(`${dir}/localhost.yml`).includes('starlingx/kubernetes-version-v-prefix'), 'the checked file\'s finding');
    assert.deepEqual(codes(`${dir}/archive/localhost.yml`), [], 'the ignored file has no findings');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('skewguard: Restart Language Server brings the findings back', async () => {
    await open(LOCALHOST);
    await vscode.commands.executeCommand('skewguard.restartServer');
    await settle(LOCALHOST, expectedFor(LOCALHOST), 'after the restart');
    await settle(MANIFEST, expectedFor(MANIFEST), 'other open files after the restart');
  });
});
