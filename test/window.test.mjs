// The window at a glance (#19 item 2): the engine's per-step verdicts (engine/steps.ts), the server's code lenses and
// inlay hints, and the Upgrade Window view's request (server/code-lens.ts, server/inlay.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { LspClient, repoRoot, uriOf, makeWorkspace } from './helpers/lsp-client.mjs';

const require = createRequire(import.meta.url);
const engine = require(path.join(repoRoot, 'dist', 'engine.js'));
const { stepsOfFinding, windowVerdict, verdictLine, inlayHints } = engine.windowSteps;
const examples = path.join(repoRoot, 'examples');
const axis = (steps, name = 'Kubernetes') => ({ name, steps });
const d = (data, severity = 'error') => ({ ruleId: 'x/y', severity, message: 'm', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, docsUrl: '', data });
const analyze = (file, text, kubernetesWindow) => engine.analyze({ path: file, text, config: engine.resolveConfig({ cli: kubernetesWindow ? { kubernetesWindow } : {} }) });

test('stepsOfFinding reads the steps a finding concerns from its data, in each shape the rules use', () => {
  const k = axis(['1.18', '1.19', '1.20', '1.21']);
  assert.deepEqual(stepsOfFinding(d({ steps: ['1.20', '1.21'] }), k), ['1.20', '1.21']);
  assert.deepEqual(stepsOfFinding(d({ minor: '1.18', outsideAt: ['1.21'] }), k), ['1.21']);
  assert.deepEqual(stepsOfFinding(d({ notValidatedFor: ['1.19', '1.20', '1.21'], incompatibleWith: [] }), k), ['1.19', '1.20', '1.21']);
  // Full versions name their minor's step; the window's patch versions name theirs.
  assert.deepEqual(stepsOfFinding(d({ outside: ['1.21.3'] }), k), ['1.21']);
  // Removed from 1.16 on, the window 1.18..1.21: every step; removed in 1.20: from 1.20 on; deprecated from 1.14 and
  // removed after the window: deprecated at every step (engine/steps.ts: a deprecation concerns the steps from it on).
  assert.deepEqual(stepsOfFinding(d({ removedIn: '1.16', window: k.steps }), k), k.steps);
  assert.deepEqual(stepsOfFinding(d({ removedIn: '1.20', window: k.steps }), k), ['1.20', '1.21']);
  assert.deepEqual(stepsOfFinding(d({ deprecatedIn: '1.14', removedIn: '1.22' }, 'warning'), k), k.steps);
  // Served from 1.19 on: the steps before it.
  assert.deepEqual(stepsOfFinding(d({ introducedIn: '1.19' }), k), ['1.18']);
  // No step in the data, or steps of another axis (a Flux window's StarlingX releases): the whole window.
  assert.equal(stepsOfFinding(d({ value: 'v1.34.1' }), k), 'window');
  assert.equal(stepsOfFinding(d(undefined), k), 'window');
  assert.equal(stepsOfFinding(d({ steps: [{ starlingx: '11.0', flux: '2.3' }] }), k), 'window');
  const kata = axis(['3.1.0', '3.1.3', '3.2.0'], 'Kata Containers');
  assert.deepEqual(stepsOfFinding(d({ rejectedBy: ['3.1.0', '3.1.3'] }), kata), ['3.1.0', '3.1.3']);
});

test('windowVerdict: a removed API fails every step; a not-yet-served API fails the steps before it; info changes no verdict', () => {
  const removed = analyze('/w/ds.yaml', 'apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n      containers: []\n', '1.18..1.21');
  assert.equal(verdictLine(windowVerdict(removed)), '1.18 ✗ · 1.19 ✗ · 1.20 ✗ · 1.21 ✗');
  const ingress = analyze('/w/ing.yaml', 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: x\nspec: {}\n', '1.18..1.21');
  const v = windowVerdict(ingress);
  assert.equal(v.axis.name, 'Kubernetes');
  assert.equal(verdictLine(v), '1.18 ✗ · 1.19 ✓ · 1.20 ✓ · 1.21 ✓');
  assert.deepEqual(v.steps[0].findings.map((i) => ingress.diagnostics[i].ruleId), ['k8s/api-not-yet-served']);
  const clean = analyze('/w/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n', '1.18..1.21');
  assert.equal(verdictLine(windowVerdict(clean)), '1.18 ✓ · 1.19 ✓ · 1.20 ✓ · 1.21 ✓');
});

test('windowVerdict: a file that does not parse fails every step; a skipped file is not checked, never passed', () => {
  const broken = analyze('/w/x.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: [\n', '1.20..1.21');
  const v = windowVerdict(broken);
  assert.equal(verdictLine(v), '1.20 ✗ · 1.21 ✗');
  assert.ok(v.wholeWindow.length >= 1);
  const skipped = analyze('/w/big.yaml', `apiVersion: v1\nkind: ConfigMap\ndata:\n  x: "${'a'.repeat(engine.MAX_FILE_BYTES)}"\n`, '1.20..1.21');
  const s = windowVerdict(skipped);
  assert.match(s.notChecked, /./);
  assert.deepEqual(s.steps, []);
  assert.match(verdictLine(s), /^not checked: /);
});

test('windowVerdict: the steps are named by the file\'s family, also when its file does not parse (Kata releases, not Kubernetes)', () => {
  // Kata releases are the steps of a configuration.toml or persist.json that does not parse as much as of one that does.
  for (const [file, text] of [['/x/configuration.toml', '[hypervisor.qemu\npath = 1\n'], ['/x/configuration.toml', '[hypervisor.qemu]\npath = "/usr/bin/qemu"\n'], ['/x/persist.json', '{']]) {
    const v = windowVerdict(analyze(file, text));
    assert.equal(v.axis?.name, 'Kata Containers', `${file}: ${JSON.stringify(text)}`);
  }
  assert.equal(windowVerdict(analyze('/x/d.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n', '1.30')).axis?.name, 'Kubernetes');
});

test('verdictLine joins runs of one verdict over long windows (Kata releases)', () => {
  const steps = ['3.1.0', '3.1.1', '3.1.2', '3.1.3', '3.2.0', '3.3.0', '3.4.0', '3.5.0', '3.6.0'];
  const v = { axis: axis(steps, 'Kata Containers'), steps: steps.map((step, i) => ({ step, verdict: i < 4 ? 'fail' : 'pass', findings: [] })), wholeWindow: [], noStep: [] };
  assert.equal(verdictLine(v), '3.1.0–3.1.3 ✗ · 3.2.0–3.6.0 ✓');
  assert.equal(verdictLine(v, 20), steps.map((s, i) => `${s} ${i < 4 ? '✗' : '✓'}`).join(' · '));
});

test('inlayHints: after kubernetes_version the StarlingX upgrade path; after an image the steps it is validated for', () => {
  const text = '# lab\nsystem_mode: duplex\nkubernetes_version: 1.18.1  # oldest\n';
  const r = engine.analyze({ path: '/w/localhost.yml', text, config: engine.resolveConfig({ cli: { starlingxRelease: '6.0' } }) });
  const hints = inlayHints(r, text);
  assert.deepEqual(hints.map((h) => [h.position, h.label]), [[{ line: 2, character: 26 }, '→ 1.21.3: 3 upgrades']]);
  assert.match(hints[0].tooltip, /1\.18\.1 → 1\.19\.13 → 1\.20\.9 → 1\.21\.3/);
  const newest = 'kubernetes_version: "1.21.3"\n';
  const r2 = engine.analyze({ path: '/w/localhost.yml', text: newest, config: engine.resolveConfig({ cli: { starlingxRelease: '6.0' } }) });
  // The newest version implies no path, a "v" version is not one StarlingX takes: no hint.
  assert.deepEqual(inlayHints(r2, newest), []);
  const older = 'kubernetes_version: "1.20.9"\n';
  const r3 = engine.analyze({ path: '/w/localhost.yml', text: older, config: engine.resolveConfig({ cli: { starlingxRelease: '6.0' } }) });
  assert.deepEqual(inlayHints(r3, older).map((h) => [h.position.character, h.label]), [[28, '→ 1.21.3: 1 upgrade']]);
  const v = 'kubernetes_version: v1.18.1\n';
  assert.deepEqual(inlayHints(engine.analyze({ path: '/w/localhost.yml', text: v, config: engine.resolveConfig({ cli: { starlingxRelease: '6.0' } }) }), v), []);
  // A manifest's image: calico 3.12 is validated for none of 1.19..1.21 (the data's calico rows).
  const pod = fs.readFileSync(path.join(examples, 'kubernetes/stx6-skew-site/manifests/calico-node.yaml'), 'utf8');
  const rp = analyze('/w/calico-node.yaml', pod, '1.19..1.21');
  const ih = inlayHints(rp, pod);
  assert.ok(ih.length >= 1, 'a hint per calico image');
  for (const h of ih) {
    assert.equal(h.label, 'validated for no step of 1.19–1.21');
    const line = pod.split('\n')[h.position.line];
    assert.match(line.slice(0, h.position.character), /image: .*calico.*3\.12[^ ]*$/);
  }
});

test('LSP: code lens per step at the top of a checked file, each opening its step\'s findings; inlay hints; window status', async () => {
  const c = new LspClient(examples);
  try {
    const init = await c.initialize();
    assert.deepEqual(init.capabilities.codeLensProvider, {});
    assert.equal(init.capabilities.inlayHintProvider, true);
    const rel = 'kubernetes/upgrade-1.18-to-1.21/app.yaml';
    const uri = uriOf(path.join(examples, rel));
    await c.open(uri, fs.readFileSync(path.join(examples, rel), 'utf8'));
    const lenses = await c.request('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(lenses.map((l) => l.command.title), ['Kubernetes 1.18..1.21:', '1.18 ✗', '1.19 ✓', '1.20 ✓', '1.21 ⚠']);
    for (const l of lenses) {
      assert.deepEqual(l.range.start, { line: 0, character: 0 });
      assert.equal(l.command.command, 'skewguard.showStepFindings');
    }
    const at118 = lenses[1].command.arguments[0];
    assert.equal(at118.uri, uri);
    assert.deepEqual(at118.findings.map((f) => f.ruleId), ['k8s/api-not-yet-served']);
    assert.deepEqual(lenses[2].command.arguments[0].findings, []);
    // The localhost.yml's hint.
    const lrel = 'starlingx/stx6-upgrade-lab/localhost.yml';
    const luri = uriOf(path.join(examples, lrel));
    const ltext = fs.readFileSync(path.join(examples, lrel), 'utf8');
    await c.open(luri, ltext);
    const hints = await c.request('textDocument/inlayHint', { textDocument: { uri: luri }, range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } } });
    assert.deepEqual(hints.map((h) => h.label), ['→ 1.21.3: 3 upgrades']);
    assert.match(ltext.split('\n')[hints[0].position.line], /^kubernetes_version: 1\.18\.1/);
    // Outside the asked range: none.
    assert.deepEqual(await c.request('textDocument/inlayHint', { textDocument: { uri: luri }, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } } }), []);
    // The view's request: an open file from its analysis, a closed one from the text given, a non-skewguard file.
    const krel = 'kubernetes/stx6-skew-site/manifests/kube-proxy.yaml';
    const kuri = uriOf(path.join(examples, krel));
    const st = await c.request('skewguard/windowStatus', { files: [{ uri }, { uri: kuri, text: fs.readFileSync(path.join(examples, krel), 'utf8') }, { uri: uriOf(path.join(examples, 'x.json')), text: '{"a": 1}' }] });
    assert.equal(st.files[0].summary, '1.18 ✗ · 1.19 ✓ · 1.20 ✓ · 1.21 ⚠');
    assert.equal(st.files[1].summary, '1.19 ✓ · 1.20 ✓ · 1.21 ✗');
    assert.deepEqual(st.files[1].steps[2].findings.map((f) => f.ruleId), ['k8s/node-component-skew']);
    assert.equal(st.files[2].skewguardFile, false);
    // Nothing was published for the closed file.
    assert.equal(c.count(kuri), 0);
  } finally { c.kill(); }
});

test('LSP: a file that is not checked gets a "not checked" lens saying why, not a pass', async () => {
  const ws = makeWorkspace({ '.skewguard.yaml': 'kubernetes:\n  window: "1.20..1.21"\n' });
  const c = new LspClient(ws, { initializationOptions: {} });
  try {
    await c.initialize();
    const uri = uriOf(path.join(ws, 'bin.yaml'));
    await c.open(uri, 'apiVersion: v1\u0000\u0000\u0000kind: ConfigMap\n');
    const lenses = await c.request('textDocument/codeLens', { textDocument: { uri } });
    assert.equal(lenses.length, 1);
    assert.match(lenses[0].command.title, /^skewguard: not checked — /);
  } finally { c.kill(); fs.rmSync(ws, { recursive: true, force: true }); }
});

test('#27 LSP: the axis of a localhost.yml is StarlingX (not Kubernetes); an ignored file and an over-size one say why in their lens and the view', async () => {
  const ws = makeWorkspace({
    '.skewguard.yaml': 'kubernetes:\n  window: "1.20..1.21"\nignore:\n  - "skip/**"\n',
    'starlingx/localhost.yml': 'system_mode: simplex\nkubernetes_version: 1.21.3\n',
    'skip/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  });
  const c = new LspClient(ws, { initializationOptions: {} });
  try {
    await c.initialize();
    const lx = uriOf(path.join(ws, 'starlingx/localhost.yml'));
    await c.open(lx, fs.readFileSync(path.join(ws, 'starlingx/localhost.yml'), 'utf8'));
    const st = await c.request('skewguard/windowStatus', { files: [{ uri: lx }] });
    assert.equal(st.files[0].axis, 'StarlingX', 'a StarlingX release is not a Kubernetes version');
    const lenses = await c.request('textDocument/codeLens', { textDocument: { uri: lx } });
    const steps = st.files[0].steps.map((s) => s.step);
    // No StarlingX release is set here: the release is the default, and the lens says so (#27 item 4).
    assert.equal(lenses[0].command.title, `StarlingX ${steps.length > 1 ? `${steps[0]}..${steps.at(-1)}` : steps[0]} (default):`);
    assert.equal(lenses[1].command.arguments[0].step, `StarlingX ${steps[0]}`);
    // Ignored: said so, open or not, with or without text; never checked as if it were not ignored.
    const ign = uriOf(path.join(ws, 'skip/cm.yaml'));
    await c.open(ign, fs.readFileSync(path.join(ws, 'skip/cm.yaml'), 'utf8'));
    const il = await c.request('textDocument/codeLens', { textDocument: { uri: ign } });
    assert.deepEqual(il.map((l) => l.command.title), ['skewguard: not checked — ignored by the ignore: list of .skewguard.yaml']);
    const other = uriOf(path.join(ws, 'skip/other.yaml'));
    const big = uriOf(path.join(ws, 'big.yaml'));
    const vs = await c.request('skewguard/windowStatus', { files: [{ uri: ign }, { uri: other, text: 'apiVersion: v1\nkind: ConfigMap\n' }, { uri: big, unread: '600000 bytes, over the view\'s 512 KiB limit: open the file to check it' }] });
    assert.deepEqual(vs.files.map((f) => f.notChecked), [
      'ignored by the ignore: list of .skewguard.yaml', 'ignored by the ignore: list of .skewguard.yaml',
      'not read: 600000 bytes, over the view\'s 512 KiB limit: open the file to check it',
    ]);
    // Over the size limit in the editor: a lens that says so once.
    const p = await c.open(big, `apiVersion: v1\nkind: ConfigMap\n${'#'.repeat(20 * 1024 * 1024 + 10)}\n`);
    assert.deepEqual(p.diagnostics.map((d) => d.code), ['skewguard/skipped-file']);
    const bl = await c.request('textDocument/codeLens', { textDocument: { uri: big } });
    assert.deepEqual(bl.map((l) => l.command.title), ['skewguard: not checked — larger than the 20 MB limit']);
  } finally { c.kill(); fs.rmSync(ws, { recursive: true, force: true }); }
});
