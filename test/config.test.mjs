// .skewguard.yaml parsing and validation, window resolution and its precedence, and the per-document YAML cache.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const parse = (text) => e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
const at = (text, p) => { const li = new e.LineIndex(text); const s = li.positionAt(p.range.start); return `${s.line + 1}:${s.character + 1}`; };

test('a valid config is read whole', () => {
  const c = parse('starlingx: { release: "6.0" }\nkubernetes: { window: "1.18..1.21" }\nkata: { window: "3.2..3.32", flavour: go }\nrules: { starlingx/unknown-key: error }\nignore: ["vendor/**"]\n');
  assert.deepEqual(c.problems, []);
  assert.deepEqual(c.overrides, {
    starlingxRelease: '6.0', kubernetesWindow: '1.18..1.21', kataWindow: '3.2..3.32', kataFlavour: 'go',
    rules: { 'starlingx/unknown-key': 'error' }, ignore: ['vendor/**'],
  });
});

test('every kind of mistake is reported at its key or value, and the rest still applies', () => {
  const text = [
    'starlingx: { release: "6.5" }',
    'kubernetes:',
    '  windw: "1.18..1.21"',
    'kata: { window: "three", flavour: java }',
    'rules:',
    '  starlingx/unknown-kye: off',
    '  starlingx/key-not-read: loud',
    '  starlingx/invalid-type: info',
    'ignore: vendor',
    'extra: 1',
    '',
  ].join('\n');
  const c = parse(text);
  const got = c.problems.map((p) => `${at(text, p)} ${p.message}`).sort();
  assert.deepEqual(got, [
    '10:1 unknown setting "extra"',
    '1:23 unknown StarlingX release "6.5"; known: 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, master',
    '3:3 unknown setting "kubernetes.windw"; did you mean "window"?',
    '4:17 kata.window "three" is not a release or range such as "3.2..3.32", or with flavours "3.20 (go)..4.1 (runtime-rs)"',
    '4:35 kata.flavour: must be equal to one of the allowed values: "go", "runtime-rs"',
    '6:3 unknown rule id "starlingx/unknown-kye"; did you mean "starlingx/unknown-key"?',
    '7:27 rules.starlingx/key-not-read: must be equal to one of the allowed values: "error", "warning", "info", "hint", "off"',
    '9:9 ignore: must be array',
  ].sort());
  assert.deepEqual(c.overrides.rules, { 'starlingx/invalid-type': 'info' });
});

test('`off` unquoted (a YAML 1.1 boolean) still means off', () => {
  assert.deepEqual(parse('rules:\n  starlingx/unknown-key: off\n').overrides.rules, { 'starlingx/unknown-key': 'off' });
});

test('broken YAML and a non-mapping config are clear errors', () => {
  assert.match(parse('starlingx: [\n').problems[0].message, /^YAML syntax:/);
  assert.match(parse('- a\n').problems[0].message, /must be a mapping/);
  // The keys it names are the schema's, every section of the registry's included (not a list written by hand).
  const named = /must be a mapping \((.*)\)$/.exec(parse('- a\n').problems[0].message)[1].split(', ');
  assert.deepEqual(named, Object.keys(e.configSchema.properties));
  for (const k of ['starlingx', 'kubernetes', 'kata', 'containerd', 'rules', 'ignore', 'files']) assert.ok(named.includes(k), k);
  assert.deepEqual(parse('').problems, []);
  assert.match(parse('kubernetes: { window: "1.21..1.18" }\n').problems[0].message, /start must not be newer than the end/);
});

test('precedence: CLI > .skewguard.yaml > settings > workspace localhost.yml > default', () => {
  const config = parse('starlingx: { release: "6.0" }\n');
  const settings = { starlingxRelease: '11.0', kubernetesWindow: '1.29..1.30' };
  const workspace = { localhost: { path: 'site/localhost.yml', kubernetesVersion: '1.19.13' } };
  let r = e.resolveConfig({ cli: { starlingxRelease: '12.0' }, config, settings, workspace });
  assert.equal(r.starlingx.release.release, '12.0');
  assert.equal(r.starlingx.source.kind, 'cli');
  assert.deepEqual(r.kubernetes.minors, ['1.29', '1.30']);
  assert.equal(r.kubernetes.source.kind, 'settings');
  r = e.resolveConfig({ config, settings: {}, workspace });
  assert.equal(r.starlingx.release.release, '6.0');
  assert.equal(r.starlingx.source.kind, 'config');
  assert.deepEqual(r.kubernetes.patches, ['1.19.13', '1.20.9', '1.21.3'], 'the release path from the workspace localhost.yml');
  assert.equal(r.kubernetes.source.kind, 'workspace');
  assert.match(r.kubernetes.source.detail, /site\/localhost\.yml/);
  r = e.resolveConfig({});
  assert.equal(r.starlingx.release.release, '12.0', 'default: the newest tagged release');
  assert.equal(r.starlingx.source.kind, 'default');
  assert.equal(r.kubernetes.source.kind, 'default');
  const d = e.describeResolved(e.resolveConfig({ cli: { starlingxRelease: '6.0' } }));
  assert.equal(d.kubernetes.window, '1.21');
  assert.deepEqual(e.describeResolved(e.resolveConfig({ cli: { kubernetesWindow: '1.18..1.21' } })).kubernetes.window, '1.18..1.21');
});

test('StarlingX upgrade path: one minor at a time, newest patch of each', () => {
  const rel = e.findStarlingxRelease('6.0');
  assert.deepEqual(e.starlingxPath(rel, '1.18.1'), ['1.18.1', '1.19.13', '1.20.9', '1.21.3']);
  assert.deepEqual(e.starlingxPath(rel, '1.21.3'), ['1.21.3']);
  assert.deepEqual(e.windowFromStarlingx(rel, 'v1.99.0', { kind: 'default', detail: '' }).patches, ['1.21.3'], 'an unshipped start falls back to the default');
  assert.equal(e.findStarlingxRelease('stx-6.0.0').release, '6.0');
  assert.equal(e.findStarlingxRelease('6').release, '6.0');
  assert.equal(e.findStarlingxRelease('99'), undefined);
});

test('version ranges', () => {
  assert.deepEqual(e.minorsBetween('1.18', '1.21'), ['1.18', '1.19', '1.20', '1.21']);
  assert.deepEqual(e.parseRange('v1.21'), { from: '1.21', to: '1.21' });
  assert.equal(e.parseRange('1.x'), undefined);
  assert.equal(e.minorsBetween('1.21', '1.18'), undefined);
  assert.ok(e.compareVersions('1.9.0', '1.10.0') < 0);
});

test('YAML: documents split at --- lines; an edit re-parses only the document it touches', () => {
  const a = 'a: 1\n---\nb: 2\n---\nc: 3\n';
  const f1 = e.parseYaml(a);
  assert.deepEqual(f1.docs.map((d) => d.value), [{ a: 1 }, { b: 2 }, { c: 3 }]);
  const f2 = e.parseYaml(a.replace('b: 2', 'b: 22'));
  assert.equal(f2.docs[0].ast, f1.docs[0].ast, 'first document reused');
  assert.equal(f2.docs[2].ast, f1.docs[2].ast, 'last document reused');
  assert.notEqual(f2.docs[1].ast, f1.docs[1].ast, 'edited document re-parsed');
  assert.equal(f2.docs[2].offset, f1.docs[2].offset + 1, 'positions shift with the edit');
  assert.deepEqual(e.splitDocuments('%YAML 1.1\n---\na: 1\n'), [{ start: 0, end: 19 }], 'directives belong to the next document');
  assert.deepEqual(e.parseYaml('k: |\n  --- not a marker\n').docs.length, 1);
});

test('minorsBetween: one implementation (versions.ts) for both former call sites, edge cases included', () => {
  // There were two copies: versions.ts's (the window check in config.ts) answered undefined for reversed, malformed
  // and cross-major input; families/kubernetes/data/lifecycle.ts's (the lifecycle data test) answered [] for all three, which a
  // caller testing `!minors` took for a valid window. Now undefined is the one answer for "no such window".
  assert.equal(e.k8sLifecycle.minorsBetween, undefined, 'the lifecycle copy is gone');
  assert.deepEqual(e.minorsBetween('1.18', '1.21'), ['1.18', '1.19', '1.20', '1.21']);
  assert.deepEqual(e.minorsBetween('v1.20.3', '1.21.0'), ['1.20', '1.21'], 'patch versions and a v prefix');
  assert.deepEqual(e.minorsBetween('1.21', '1.21'), ['1.21'], 'equal ends: one minor');
  assert.equal(e.minorsBetween('1.21', '1.18'), undefined, 'reversed: no window');
  assert.equal(e.minorsBetween('1.30', '2.1'), undefined, 'different majors: no window');
  assert.equal(e.minorsBetween('1.x', '1.21'), undefined, 'malformed start');
  assert.equal(e.minorsBetween('1.18', ''), undefined, 'malformed end');
  // What the window check (the former versions.ts call site) makes of these.
  assert.equal(e.checkKubernetesWindow('1.21..1.21'), undefined);
  assert.match(e.checkKubernetesWindow('1.21..1.18'), /the start must not be newer than the end/);
  assert.match(e.checkKubernetesWindow('1.30..2.1'), /the start must not be newer than the end/);
  assert.match(e.checkKubernetesWindow('1.x..1.21'), /is not a version or range/);
});

test('the config and settings schemas are valid draft-07 schemas (the run-time validator skips that check)', () => {
  const Ajv = require('ajv');
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const s of [e.configSchema, e.settingsSchema]) assert.equal(ajv.validateSchema(s), true, JSON.stringify(ajv.errors));
});

test('ignoreLayersOf gives the ignore lists resolveConfig gives, for every mix of the config file, settings and command line (the ignoredFiles request resolves no window)', () => {
  const loaded = { path: '/w/team/.skewguard.yaml', overrides: parse('kubernetes: { window: "1.18..1.21" }\nignore: ["vendor/**", "/local.json"]\n').overrides };
  const noIgnore = { path: '/w/.skewguard.yaml', overrides: parse('kubernetes: { window: "1.18..1.21" }\n').overrides };
  const settings = [undefined, {}, { ignore: ['*.generated.yaml'] }];
  const clis = [undefined, {}, { ignore: ['tmp/**'] }];
  let seen = 0;
  for (const config of [undefined, noIgnore, loaded]) for (const s of settings) for (const cli of clis) {
    const want = e.resolveConfig({ config, settings: s, cli }).ignoreLayers;
    assert.deepEqual(e.ignoreLayersOf({ config, settings: s, cli }), want);
    seen += want.length;
  }
  // Every layer kind was compared: 3 sources × 9 combinations each.
  assert.equal(seen, 27);
  assert.deepEqual(e.ignoreLayersOf({ config: loaded, settings: { ignore: ['x'] }, cli: { ignore: ['y'] } }).map((l) => [l.source, l.base ?? null]),
    [['/w/team/.skewguard.yaml', '/w/team'], ['settings (skewguard.ignore)', null], ['command line (--ignore)', null]]);
});
