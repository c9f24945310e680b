// Issue #30 items 1 and 2: a family's window is a config section in its own folder (families/<id>/config.ts), and
// the core composes .skewguard.yaml's schema, the settings, lsp-lint's flags and help, package.json's settings, the
// picker and the served-file lists from the registry. The families never import engine/config.ts at run time, so
// config.ts → registry → families → config.ts is no load-time cycle. Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot, engine as e } from './helpers/k8s.mjs';
import { loadSource, distRequire } from './helpers/source-module.mjs';
import { withFamilySettings } from '../scripts/gen-docs.mjs';

const sections = e.CONFIG_SECTIONS;
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

test('every family with a config section is in .skewguard.yaml\'s schema, the settings\' schema and the resolved configuration', () => {
  assert.ok(sections.length >= 2, 'the Kata and containerd windows are sections');
  const own = e.families.filter((f) => f.config).map((f) => f.config);
  // The registry's families' sections, and the components' (engine/components/config.ts: kubernetes.components), the
  // core's one hook for products inside manifests.
  assert.deepEqual(new Set(sections), new Set([...own, e.componentsConfigSection]), 'CONFIG_SECTIONS is the registry\'s families\' sections and the components\'');
  const resolved = e.resolveConfig({});
  const described = e.describeResolved(resolved);
  for (const c of sections.filter((x) => !x.within)) {
    // The schema is the section's; a section within another's (the components' versions) is put in after its key.
    const inner = sections.filter((x) => x.within?.section === c.section);
    const props = Object.fromEntries(Object.entries(e.configSchema.properties[c.section].properties).filter(([k]) => !inner.some((x) => x.section === k)));
    assert.deepEqual({ ...e.configSchema.properties[c.section], properties: props }, c.schema, `${c.section}: the schema is the section's`);
    assert.ok(e.settingsSchema.properties[c.section], `${c.section}: an editor setting`);
    assert.ok(c.section in resolved && c.section in described, `${c.section}: resolved and described`);
  }
  // kubernetes.components: the components' section's schema, in the Kubernetes section's right after its window (in
  // .skewguard.yaml's schema and the editor settings'), resolved and said as `components`.
  const comps = e.componentsConfigSection;
  assert.deepEqual(comps.within, { section: 'kubernetes', after: 'window' });
  assert.equal(e.configSchema.properties.kubernetes.properties.components, comps.schema);
  assert.deepEqual(Object.keys(e.configSchema.properties.kubernetes.properties).slice(0, 2), ['window', 'components']);
  assert.deepEqual(Object.keys(e.settingsSchema.properties.kubernetes.properties), ['window', 'components', 'openapi']);
  assert.ok(!('components' in e.configSchema.properties) && !('components' in e.settingsSchema.properties), 'not a section of its own');
  assert.ok('components' in resolved && 'components' in described);
  // Their place: first in .skewguard.yaml's schema, in the sections' order (the StarlingX release, the Kubernetes window,
  // then the families' own windows); in --print-config the windows every other is read from (negative order), the
  // component windows (Flux) after the StarlingX release, the core's component versions, then the families' own.
  // A section of order AFTER_CORE_KEYS (100) or more (the Helm family's helm:) comes after the core's rules, ignore and
  // files, in the schema, --print-config and the settings' schema, where helm: always was.
  const top = sections.filter((c) => !c.within);
  const tail = top.filter((c) => c.order >= 100).map((c) => c.section);
  const head = top.filter((c) => c.order < 100).map((c) => c.section);
  const keys = Object.keys(e.configSchema.properties);
  assert.deepEqual(keys, [...head, 'rules', 'ignore', 'files', ...tail]);
  assert.deepEqual(Object.keys(e.settingsSchema.properties), [...keys, 'debounceMs', 'trace', 'userLevel']);
  assert.deepEqual(sections.slice(0, 2).map((c) => c.section), ['starlingx', 'kubernetes']);
  const lead = top.filter((c) => c.order < 0).map((c) => c.section);
  const rest = top.filter((c) => c.order >= 0 && c.order < 100).map((c) => c.section);
  const withFlux = e.describeResolved(e.resolveConfig({ cli: { starlingxRelease: '11.0' } }));
  assert.deepEqual(Object.keys(withFlux).slice(0, lead.length + 2 + rest.length), [lead[0], 'flux', ...lead.slice(1), 'components', ...rest]);
  const dkeys = Object.keys(described);
  assert.deepEqual(dkeys.slice(dkeys.indexOf('components') + 1, dkeys.indexOf('components') + 1 + rest.length), rest);
  assert.deepEqual(dkeys.slice(dkeys.indexOf('files') + 1), [...tail, 'config']);
});

test('helm: is the Helm chart family\'s section (issue #30): its schema, settings, flags and resolved part come from families/helm-chart/config.ts', () => {
  const helm = e.families.find((f) => f.id === 'helm-chart').config;
  assert.ok(helm && sections.includes(helm), 'CONFIG_SECTIONS has the helm-chart family\'s section');
  assert.equal(helm.section, 'helm');
  assert.deepEqual(sections.filter((c) => c.section === 'helm'), [helm], 'one helm section, the family\'s');
  assert.equal(e.configSchema.properties.helm, helm.schema);
  assert.deepEqual(Object.keys(helm.schema.properties), ['render', 'path', 'values', 'valueSets', 'repositories']);
  // The editor settings have only the binary: whether to render is the workspace's choice.
  assert.deepEqual(Object.keys(e.settingsSchema.properties.helm.properties), ['path']);
  assert.deepEqual(Object.keys(helm.packageSettings), ['skewguard.helm.path']);
  assert.deepEqual(helm.flags.map((f) => f.name), ['--helm-render', '--helm-path']);
  // Where users always saw it: after the core's rules, ignore and files (schema, settings, --print-config).
  assert.deepEqual(Object.keys(e.configSchema.properties).slice(-4), ['rules', 'ignore', 'files', 'helm']);
  assert.deepEqual(Object.keys(e.describeResolved(e.resolveConfig({}))).slice(-3), ['files', 'helm', 'config']);
  // Its values reach the resolved configuration (ResolvedConfig.helm, the shape the Helm family's server side reads), a path
  // written in .skewguard.yaml relative to its folder, and the user's own binary kept beside the repository's.
  const cfg = e.parseConfig('w/sub/.skewguard.yaml', 'helm:\n  render: true\n  path: bin/helm\n  values: [a.yaml]\n  valueSets: ["values-*.yaml"]\n  repositories: ["https://git.example.com/x.git"]\n', e.ruleIds);
  assert.deepEqual(cfg.problems, []);
  const r = e.resolveConfig({ config: cfg, settings: e.normalizeSettings({ helm: { path: '/opt/helm' } }, e.ruleIds).overrides });
  const source = { kind: 'config', detail: 'w/sub/.skewguard.yaml' };
  assert.deepEqual(r.helm, {
    render: true, source,
    path: { value: 'bin/helm', base: 'w/sub', source, user: { value: '/opt/helm', source: { kind: 'settings', detail: 'editor settings' } } },
    values: { files: ['a.yaml'], base: 'w/sub', source },
    valueSets: { patterns: ['values-*.yaml'], source },
    repositories: { urls: ['https://git.example.com/x.git'], source },
  });
  assert.deepEqual(e.resolveConfig({ cli: { helmRender: true } }).helm.source, { kind: 'cli', detail: 'command line' });
  // A bad value is said at its place, in the section's words; the settings refuse what only .skewguard.yaml has.
  const text = 'helm:\n  valueSets: ["/abs/*.yaml"]\n  values: [""]\n';
  const bad = e.parseConfig('x/.skewguard.yaml', text, e.ruleIds);
  assert.deepEqual(bad.problems.map((p) => [p.message, text.slice(p.range.start, p.range.end)]), [
    ['helm.values[0]: a values file path must not be empty', '""'],
    ["helm.valueSets[0]: a pattern is relative to each chart's folder, not absolute", '"/abs/*.yaml"'],
  ]);
  const s = e.normalizeSettings({ helm: { path: '/x/helm', render: true } }, e.ruleIds);
  assert.deepEqual(s.settings, { helm: { path: '/x/helm' } });
  assert.deepEqual(s.problems.map((p) => p.setting), ['skewguard.helm.render']);
});

test('a section validates, resolves and checks lsp-lint\'s flags through the core: values reach the configuration, a bad one is said at its key', () => {
  const ok = e.parseConfig('x/.skewguard.yaml', 'containerd:\n  window: "1.7..2.0"\nkata:\n  window: "3.2..3.10"\n  flavour: go\n', e.ruleIds);
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.overrides, { containerdWindow: '1.7..2.0', kataWindow: '3.2..3.10', kataFlavour: 'go' });
  const r = e.resolveConfig({ config: ok });
  assert.deepEqual(r.containerd.window, { from: '1.7', to: '2.0' });
  assert.equal(r.kata.window.to, '3.10');
  const text = 'containerd:\n  window: "0.1"\n';
  const bad = e.parseConfig('x/.skewguard.yaml', text, e.ruleIds);
  assert.equal(bad.problems.length, 1);
  assert.equal(text.slice(bad.problems[0].range.start, bad.problems[0].range.end), '"0.1"');
  assert.deepEqual(e.checkCliOverrides({ containerdWindow: '0.1' }).map((m) => m.slice(0, 22)), ['--containerd-window: c']);
  const s = e.normalizeSettings({ containerd: { window: '1.7' }, kata: { flavour: 'runtime-rs' } }, e.ruleIds);
  assert.deepEqual(s.settings, { kata: { window: undefined, flavour: 'runtime-rs' }, containerd: { window: '1.7' } });
});

test('package.json\'s window settings are the sections\' own, put in by npm run gen:docs (a stale or missing one fails)', () => {
  const props = pkg.contributes.configuration.properties;
  const want = withFamilySettings(props, sections);
  assert.deepEqual(Object.keys(props), Object.keys(want), 'the settings and their order');
  assert.deepEqual(props, want, 'run npm run gen:docs');
  for (const c of sections) for (const k of Object.keys(c.packageSettings)) assert.ok(c.within ? k === `skewguard.${c.within.section}.${c.section}` : k.startsWith(`skewguard.${c.section}.`), k);
  // The components' setting (a section within the Kubernetes section's) right after the Kubernetes window's, put back there.
  const all = Object.keys(props);
  assert.equal(all[all.indexOf('skewguard.kubernetes.window') + 1], 'skewguard.kubernetes.components');
  const { 'skewguard.kubernetes.components': compSetting, ...noComps } = props;
  assert.deepEqual(Object.keys(withFamilySettings({ 'skewguard.kubernetes.components': compSetting, ...noComps }, sections)), all);
  // The generator puts a missing setting back, in its place, and corrects a stale one.
  const broken = structuredClone(props);
  delete broken['skewguard.containerd.window'];
  broken['skewguard.kata.window'].description = 'stale';
  const fixed = withFamilySettings(broken, sections);
  assert.deepEqual(Object.keys(fixed), Object.keys(props));
  assert.deepEqual(fixed, props);
  // The Helm binary's setting sits after skewguard.files (its order), not among the windows: put back there too.
  const keys = Object.keys(props);
  assert.equal(keys[keys.indexOf('skewguard.files') + 1], 'skewguard.helm.path');
  const { 'skewguard.helm.path': gone, ...noHelm } = props;
  assert.ok(gone);
  assert.deepEqual(Object.keys(withFamilySettings(noHelm, sections)), keys);
  const moved = { 'skewguard.helm.path': gone, ...noHelm };
  assert.deepEqual(Object.keys(withFamilySettings(moved, sections)), keys);
});

test('lsp-lint\'s --help has each section\'s flags, and the flags reach the server (a value it rejects is a usage error)', () => {
  const help = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--help'], { encoding: 'utf8' }).stdout;
  for (const c of sections) for (const f of c.flags) assert.ok(help.includes(f.help), `${f.name} in --help`);
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--containerd-window=0.1', '--print-config'], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--containerd-window: containerd window "0\.1" holds no containerd minor/);
  const f = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--kata-flavor', 'rust', '--print-config'], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(f.status, 2);
  assert.match(f.stderr, /--kata-flavour must be go or runtime-rs/);
  const p = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--kata-flavor=runtime-rs', '--containerd-window', '1.7', '--print-config'], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(p.status, 0, p.stderr);
  const printed = JSON.parse(p.stdout);
  assert.equal(printed.kata.flavour, 'runtime-rs');
  assert.equal(printed.containerd.window, '1.7..1.7');
  // The Helm section's flags are printed among the run's options (CliFlag.among), where they always were: after
  // --no-ignore, before --allow-unchecked; --helm-render takes no value, --helm-path is resolved against the working folder.
  const at = (s) => help.indexOf(`\n      ${s} `);
  assert.ok(at('--no-ignore') > 0 && at('--no-ignore') < at('--helm-render') && at('--helm-render') < at('--helm-path') && at('--helm-path') < at('--allow-unchecked'));
  assert.ok(at('--containerd-window') < at('--rule'), 'the window flags where they were');
  const h = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--helm-render', '--helm-path', 'no/such/helm', '--print-config'], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(h.status, 0, h.stderr);
  const hp = JSON.parse(h.stdout).helm;
  assert.equal(hp.render, true);
  assert.deepEqual(hp.source, { kind: 'cli', detail: 'command line' });
  assert.equal(hp.path.value, path.join(repoRoot, 'no/such/helm'));
});

test('the served-file lists are the families\' (served table): every family\'s extensions, languages and patterns, and the walk\'s conditions', () => {
  const t = e.servedTable();
  for (const f of e.families) {
    for (const x of f.serves.files) assert.ok(t.extensions.includes(x.ext) || t.conditional.some((c) => c.ext === x.ext), `${f.id} ${x.ext}`);
    for (const l of f.serves.languages ?? []) assert.ok(t.languages.includes(l), `${f.id} ${l}`);
    for (const p of f.serves.patterns ?? []) assert.ok(t.patterns.includes(p), `${f.id} ${p}`);
  }
  // The bundles that do not bundle the engine carry this table (put in by the build).
  for (const b of ['dist/lsp-lint-main.js', 'dist/client.js', 'dist/web/client.js']) {
    const text = fs.readFileSync(path.join(repoRoot, b), 'utf8');
    assert.ok(!/=\s*__SKEWGUARD_SERVED__/.test(text), `${b}: the table is put in`);
    for (const p of t.patterns) assert.ok(text.includes(JSON.stringify(p)), `${b} holds ${p}`);
  }
});

/** The strongly connected parts (cycles) of the engine's run-time import graph, from esbuild's metafile. */
async function importCycles(entry) {
  const { build } = await import('esbuild');
  const r = await build({ entryPoints: [path.join(repoRoot, entry)], absWorkingDir: repoRoot, bundle: true, write: false, metafile: true, platform: 'node', format: 'cjs', logLevel: 'silent', packages: 'external' });
  const g = new Map(Object.entries(r.metafile.inputs).map(([f, v]) => [f, v.imports.filter((i) => !i.external).map((i) => i.path)]));
  let n = 0; const stack = []; const on = new Set(); const index = new Map(); const low = new Map(); const out = [];
  const visit = (v) => {
    index.set(v, n); low.set(v, n); n++; stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) { const c = []; let w; do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v); if (c.length > 1) out.push(c.sort()); }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('no load-time import cycle runs through engine/config.ts or the family registry (the families import config-core.ts, not config.ts)', async () => {
  const cycles = await importCycles('server/src/engine/index.ts');
  const core = cycles.filter((c) => c.some((f) => /engine\/(config|families\/registry)\.ts$/.test(f)));
  assert.deepEqual(core, [], `cycles:\n${core.map((c) => c.join(' → ')).join('\n')}`);
});

test('the server sends the picker\'s parts (the core\'s, each section\'s, in order) and the status tooltip\'s window lines from the sections', async (t) => {
  const { LspClient, makeWorkspace, uriOf } = await import('./helpers/lsp-client.mjs');
  const root = makeWorkspace({ '.skewguard.yaml': 'kata: { window: "3.2..3.32" }\ncontainerd: { window: "1.7..2.0" }\n' });
  const client = new LspClient(root, {});
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const choices = await client.request('skewguard/windowChoices', {});
  assert.deepEqual(choices.parts.map((p) => p.part), [...sections.flatMap((c) => c.parts.map((p) => p.part)), ...sections.flatMap((c) => (c.partsLast ?? []).map((p) => p.part))]);
  assert.deepEqual(choices.parts.map((p) => p.part), ['starlingx.release', 'kubernetes.window', 'kata.window', 'kata.flavour', 'containerd.window', 'starlingx.upgradeFrom']);
  // The StarlingX releases to pick from are the StarlingX section's (choices()), the data's.
  assert.deepEqual(choices.releases.map((r) => r.release), e.starlingxReleases().releases.map((r) => r.release));
  assert.deepEqual(choices.parts.find((p) => p.part === 'kata.flavour').choices.map((c) => c.label), ['go', 'runtime-rs']);
  const uri = uriOf(path.join(root, 'etc/containerd/config.toml'));
  await client.open(uri, 'version = 2\n', 1, 'toml');
  const r = await client.request('skewguard/resolvedConfig', { uri });
  assert.deepEqual(r.windows, [{ label: 'Kata', window: '3.2..3.32', source: { kind: 'config', detail: path.join(root, '.skewguard.yaml') } }]);
  assert.match(r.summary, / · Kata 3\.2\.\.3\.32$/);
  assert.equal(r.fileWindow, 'containerd 1.7..2.0');
});

test('no file outside the families\' folders names a section\'s keys (its overrides, its resolved window): the core only composes them', async () => {
  const { tsSources } = await import('./helpers/sources.mjs');
  const keys = sections.flatMap((c) => c.flags.map((f) => f.key));
  const names = sections.map((c) => c.section);
  const res = [new RegExp(`\\b(${keys.join('|')})\\b`), new RegExp(`\\.(${names.join('|')})\\??\\.(window|flavour|source|flavourSource)\\b`)];
  // A family's own places: its folder, its rules, and its data helpers in engine/<its folder's name>/ (engine/kata/ …).
  const folders = fs.readdirSync(path.join(repoRoot, 'server/src/engine/families'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  // The components' section's (kubernetes.components, --component-versions): engine/components/.
  const own = (rel) => /^server\/src\/engine\/(families|rules|components)\//.test(rel) || folders.some((f) => rel.startsWith(`server/src/engine/${f}/`));
  // The StarlingX release and the Kubernetes window are sections too, but they are the windows every family's is read
  // from: the core reads their resolved parts as the families do. What else names their keys, each with why:
  const ALLOWED = [
    // lsp-lint's --helm-render (the Helm section's flag) is the trust to run Helm (the Helm family's server side,
    // families/helm-chart/server/index.ts, runs it only then, or in a workspace the client trusts), and lsp-lint runs one
    // server and says a missing Helm as a usage error.
    { file: 'server/src/cli/main.ts', line: /^o\.renderWithHelm = o\.family\.helmRender === true;$/ },
  ];
  const hits = [];
  for (const file of [...tsSources(path.join(repoRoot, 'server/src')), ...tsSources(path.join(repoRoot, 'client/src'))]) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    if (own(rel)) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      if (ALLOWED.some((a) => a.file === rel && a.line.test(line.trim()))) return;
      if (res.some((re) => re.test(line))) hits.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, [], hits.join('\n'));
  // It can fail: the line server/main.ts had before the summary came from the sections.
  assert.ok(res[1].test("${config.kata.window ? ` · Kata ${(resolved.kata as { window: string }).window}${mark(config.kata.source)}` : ''}"));
  assert.ok(res[0].test('kataWindow: opts.kataWindow, containerdWindow: opts.containerdWindow,'));
});

test('fix-all\'s reason under a default window is the section\'s whose window it is (a family\'s steps, the StarlingX release, else the Kubernetes window)', async () => {
  const { defaultWindowReason } = await loadSource('server/src/server/fix-window.ts', { packagesExternal: true, require: distRequire });
  const config = e.resolveConfig({});
  const at = (family, windowSource, windowSteps) => defaultWindowReason({ family, windowSource, windowSteps, config });
  assert.equal(at('kata-config', { kind: 'default', detail: 'x' }, ['4.1.0']), 'the Kata window is the default 4.1.0; set kata.window');
  assert.equal(at('starlingx', config.starlingx.source, ['1.32', '1.34']), 'the StarlingX release is the default 1.32..1.34; set starlingx.release');
  assert.equal(at('kubernetes', config.kubernetes.source, ['1.34']), 'the Kubernetes window is the default 1.34; set kubernetes.window or starlingx.release');
  assert.equal(at('kubernetes', { kind: 'config', detail: 'x' }, ['1.34']), undefined, 'a chosen window holds nothing back');
});

test('the status item\'s words for a file whose facts name no window are the section\'s that every family starts from (statusOtherwise)', async () => {
  const { fileStatus } = await loadSource('server/src/server/window-status.ts', { packagesExternal: true, require: distRequire });
  assert.deepEqual(sections.filter((c) => c.statusOtherwise).map((c) => c.section), ['kubernetes']);
  const config = e.resolveConfig({ cli: { kubernetesWindow: '1.29..1.31' } });
  // An audit log's facts name no window: the Kubernetes window, as the status item said before the sections had it.
  assert.deepEqual(fileStatus('audit-log', {}, config, undefined, undefined), { fileWindow: 'Kubernetes 1.29..1.31' });
  assert.deepEqual(fileStatus('audit-log', undefined, e.resolveConfig({}), undefined, undefined), { fileWindow: `Kubernetes ${e.windowText(e.resolveConfig({}).kubernetes.minors)} (default)` });
  // A family whose facts name a window says that one only; a file of no family, nothing.
  assert.deepEqual(fileStatus('kata-config', { kataWindow: '3.2.0..3.3.0' }, config, undefined, undefined).fileWindow?.includes('Kubernetes'), false);
  assert.deepEqual(fileStatus(undefined, undefined, config, undefined, undefined), {});
});

// Issue #30: the VS Code client names no setting whose user-level entries it says (`userLevel`, from inspect(): a
// workspace value of skewguard.kubernetes.openapi is read only inside the workspace, a user-level one anywhere). The
// sections declare them (ConfigSection.userLevel), the server names them at initialize, the client asks inspect() for each.
test('the settings whose user-level entries the client says are the sections\' (userLevel), named in the initialize result', async (t) => {
  const declared = sections.flatMap((c) => (c.userLevel ?? []).map((k) => `${c.section}.${k}`));
  assert.deepEqual(declared, ['kubernetes.openapi']);
  assert.deepEqual(e.userLevelSettings(), declared);
  // Each is a map-valued editor setting (its entries are what the client says).
  for (const s of declared) assert.equal(pkg.contributes.configuration.properties[`skewguard.${s}`].type, 'object', s);
  const { LspClient, makeWorkspace } = await import('./helpers/lsp-client.mjs');
  const root = makeWorkspace({ 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
  const client = new LspClient(root, {});
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  const init = await client.initialize();
  assert.deepEqual(init.userLevelSettings, declared);
  // The client's answer (client/src/extension.ts, shared/user-level.ts) for what inspect() says: the entries set at the
  // user level that neither the workspace nor the folder (the repository's .vscode/settings.json) overrides. This is
  // the shape the server reads (test/k8s-openapi: a user-level document outside the workspace is read).
  const levels = { 'kubernetes.openapi': { globalValue: { '1.38': '/home/me/a.json', '1.39': '/home/me/b.json', '1.40': '/home/me/c.json' }, workspaceValue: { '1.39': 'w.json' }, workspaceFolderValue: { '1.40': 'f.json' } } };
  assert.deepEqual(e.userLevelAnswer(init.userLevelSettings, (s) => levels[s]), { 'kubernetes.openapi': ['1.38'] });
  assert.deepEqual(e.userLevelAnswer(init.userLevelSettings, () => undefined), { 'kubernetes.openapi': [] });
  assert.deepEqual(e.userLevelAnswer(init.userLevelSettings, () => ({ workspaceValue: { '1.38': 'x' } })), { 'kubernetes.openapi': [] });
  assert.equal(e.userLevelAnswer([], (s) => levels[s]), undefined);
});
