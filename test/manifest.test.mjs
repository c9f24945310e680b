// The extension manifest (package.json `contributes`) must match the code: every rule id is offered in the
// `skewguard.rules` setting, every command the client registers is contributed, every setting is described.
// Reads the built engine (dist/engine.js); `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { rulesSettingProperties } from '../scripts/gen-docs.mjs';
import { tsSources } from './helpers/sources.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const e = require('../dist/engine.js');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const releases = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data/starlingx/releases.json'), 'utf8')).releases;
const settings = pkg.contributes?.configuration?.properties ?? {};
// Every client source: the desktop client, the web client (browser.ts) and the modules they share (window-view.ts).
const clientSource = fs.readdirSync(path.join(repoRoot, 'client/src')).filter((f) => f.endsWith('.ts')).sort()
  .map((f) => fs.readFileSync(path.join(repoRoot, 'client/src', f), 'utf8')).join('\n');

test('every rule id in the registry whose severity can be changed is a property of the skewguard.rules setting', () => {
  const rules = settings['skewguard.rules'];
  assert.ok(rules, 'skewguard.rules is not contributed');
  const props = rules.properties ?? {};
  const missing = e.allRules.filter((r) => !r.fixedSeverity && !props[r.id]);
  assert.deepEqual(missing.map((r) => r.id), [], 'add to contributes.configuration.properties["skewguard.rules"].properties:\n'
    + missing.map((r) => `"${r.id}": ${JSON.stringify({ type: 'string', enum: e.SEVERITIES, description: `${r.title} (default: ${r.defaultSeverity}).` })}`).join(',\n'));
  const unknown = Object.keys(props).filter((id) => !e.ruleIds.has(id));
  assert.deepEqual(unknown, [], 'skewguard.rules lists rule ids that are not in the registry');
  for (const [id, p] of Object.entries(props)) {
    assert.ok(p.description || p.markdownDescription, `${id}: no description`);
    assert.deepEqual(p.enum, e.SEVERITIES, `${id}: enum`);
  }
  assert.deepEqual(props, rulesSettingProperties(e.allRules, e.SEVERITIES, e.docsUrl), 'stale: run `npm run gen:docs`');
  assert.deepEqual(rules.additionalProperties?.enum, e.SEVERITIES);
});

test('every command the client registers is contributed with a title', () => {
  const registered = [...clientSource.matchAll(/registerCommand\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => m[1]);
  assert.ok(registered.length > 0, 'no registerCommand calls found in client/src/extension.ts');
  const contributed = new Map((pkg.contributes?.commands ?? []).map((c) => [c.command, c]));
  for (const id of registered) {
    const c = contributed.get(id);
    assert.ok(c, `${id} is registered in client/src/extension.ts but not in contributes.commands`);
    assert.ok(typeof c.title === 'string' && c.title.length > 0, `${id}: no title`);
    assert.equal(c.category, 'skewguard', `${id}: category`);
  }
  for (const id of contributed.keys()) assert.ok(registered.includes(id), `${id} is contributed but never registered`);
});

test('every command the client refers to (e.g. the status bar item) is contributed', () => {
  const contributed = new Set((pkg.contributes?.commands ?? []).map((c) => c.command));
  for (const [, id] of clientSource.matchAll(/['"`](skewguard\.[A-Za-z]+)['"`]/g)) {
    if (id === 'skewguard.window') continue; // the status bar item's id, and the Upgrade Window view's
    if (id === 'skewguard.showStepFindings') assert.ok(pkg.contributes.menus.commandPalette.some((m) => m.command === id && m.when === 'false'), 'the code lens command needs its arguments: not in the palette');
    assert.ok(contributed.has(id) || settings[id], `${id} is used by the client but not contributed`);
  }
});

test('every setting has a description, a type and a default of that type', () => {
  const names = Object.keys(settings);
  assert.ok(names.length > 0, 'no settings contributed');
  for (const [name, s] of Object.entries(settings)) {
    assert.match(name, /^skewguard\./, `${name}: settings live under skewguard.*`);
    assert.ok(s.description || s.markdownDescription, `${name}: no description`);
    assert.ok(s.type, `${name}: no type`);
    assert.ok('default' in s, `${name}: no default`);
    const t = Array.isArray(s.default) ? 'array' : s.default === null ? 'null' : typeof s.default;
    assert.equal(t, s.type === 'integer' ? 'number' : s.type, `${name}: default ${JSON.stringify(s.default)} is not a ${s.type}`);
    if (s.enum) {
      assert.ok(s.enum.includes(s.default), `${name}: default not in enum`);
      if (s.enumDescriptions) assert.equal(s.enumDescriptions.length, s.enum.length, `${name}: enumDescriptions`);
    }
    if (s.pattern) assert.match(String(s.default), new RegExp(s.pattern), `${name}: default does not match pattern`);
  }
});

test('the settings mirror the Settings type in server/src/shared/protocol.ts and its config sections\' augmentations', () => {
  const expected = [
    'skewguard.starlingx.release', 'skewguard.starlingx.upgradeFrom', 'skewguard.kubernetes.window', 'skewguard.kubernetes.openapi', 'skewguard.kubernetes.components', 'skewguard.kata.window', 'skewguard.kata.flavour', 'skewguard.containerd.window',
    'skewguard.rules', 'skewguard.files', 'skewguard.ignore', 'skewguard.helm.path', 'skewguard.debounceMs', 'skewguard.trace.server',
  ];
  assert.deepEqual(Object.keys(settings).sort(), [...expected].sort());
  // protocol.ts declares the core's keys; each config section adds its own (`declare module '…/shared/protocol'`).
  const bodies = tsSources(path.join(repoRoot, 'server/src')).flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/^([ \t]*)(?:export )?interface Settings \{([\s\S]*?)\n\1\}/gm)].map((m) => [m[1], m[2]]));
  const tops = bodies.flatMap(([indent, body]) => [...body.matchAll(new RegExp(`^${indent}\\s{2}(\\w+)\\?:`, 'gm'))].map((m) => m[1]));
  for (const top of tops) {
    assert.ok(Object.keys(settings).some((k) => k === `skewguard.${top}` || k.startsWith(`skewguard.${top}.`)), `Settings.${top} has no contributed setting`);
  }
  // …and every contributed setting is typed (but the LSP client's own trace).
  const contributedTops = [...new Set(Object.keys(settings).map((k) => k.split('.')[1]))].filter((t) => t !== 'trace');
  assert.deepEqual([...tops].sort(), contributedTops.sort());
  assert.equal(settings['skewguard.debounceMs'].default, 150);
  assert.deepEqual(settings['skewguard.kata.flavour'].enum, ['', 'go', 'runtime-rs']);
  assert.deepEqual(settings['skewguard.files'].additionalProperties.enum, e.FAMILIES);
});

test('skewguard.starlingx.release offers exactly the releases in data/starlingx/releases.json, plus "" for the newest', () => {
  const s = settings['skewguard.starlingx.release'];
  assert.deepEqual(s.enum, ['', ...releases.map((r) => r.release)]);
  assert.equal(s.default, '');
  for (const r of s.enum) if (r) assert.ok(e.findStarlingxRelease(r), `${r}: unknown to the engine`);
  // The release upgraded from offers the same releases, "" being no upgrade.
  assert.deepEqual(settings['skewguard.starlingx.upgradeFrom'].enum, s.enum);
  assert.equal(settings['skewguard.starlingx.upgradeFrom'].enumDescriptions.length, s.enum.length);
});

test('window settings accept what the engine accepts', () => {
  for (const name of ['skewguard.kubernetes.window', 'skewguard.kata.window', 'skewguard.containerd.window']) {
    const re = new RegExp(settings[name].pattern);
    for (const ok of ['', '1.21', '1.21.3', '1.18..1.21', '3.2..3.32', 'v1.18..v1.21']) {
      assert.ok(re.test(ok), `${name}: pattern rejects "${ok}"`);
      if (ok) assert.ok(e.parseRange(ok), `engine rejects "${ok}"`);
    }
    for (const bad of ['1', 'latest', '1.18-1.21', '1.18..']) {
      assert.ok(!re.test(bad), `${name}: pattern accepts "${bad}"`);
      assert.ok(!e.parseRange(bad), `engine accepts "${bad}"`);
    }
  }
});

test('activation, capabilities and marketplace fields', () => {
  for (const ev of ['onLanguage:yaml', 'onLanguage:json', 'workspaceContains:**/.skewguard.yaml', 'workspaceContains:**/*localhost*.yml']) {
    assert.ok(pkg.activationEvents.includes(ev), `activationEvents lacks ${ev}`);
  }
  // Restricted Mode: everything but running Helm; its binary setting is not read from an untrusted workspace.
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skewguard.helm.path']);
  assert.match(pkg.capabilities.untrustedWorkspaces.description, /never runs Helm/);
  // Virtual workspaces (github.dev): the web extension, which reads the workspace through VS Code and never runs Helm.
  assert.equal(pkg.capabilities.virtualWorkspaces.supported, 'limited');
  assert.match(pkg.capabilities.virtualWorkspaces.description, /web extension.*never runs Helm/);
  assert.equal(pkg.browser, './dist/web/client.js');
  assert.deepEqual(pkg.categories, ['Linters']);
  assert.equal(pkg.repository.url, 'https://github.com/skewguard/skewguard');
  assert.ok(pkg.main && pkg.main.startsWith('./dist/'), 'main');
});

test('every package.json setting agrees with the one settings schema (shared/settings.ts): type, values, bounds', () => {
  // skewguard.trace.server is the LSP client's own (vscode-languageclient reads it); the schema only lets it through.
  const clientOnly = new Set(['skewguard.trace.server']);
  const at = (parts) => parts.reduce((n, p) => n?.properties?.[p], e.settingsSchema);
  const checked = [];
  for (const [name, s] of Object.entries(settings)) {
    if (clientOnly.has(name)) continue;
    const node = at(name.split('.').slice(1));
    assert.ok(node, `${name}: not in the settings schema`);
    const type = node.type ?? (node.enum?.every((v) => typeof v === 'string') ? 'string' : undefined);
    assert.equal(s.type, type, `${name}: type`);
    // A choice the editor shows may add "" (unset: the default applies); otherwise the values are the schema's.
    if (node.enum) assert.deepEqual(s.enum.filter((v) => v !== ''), [...node.enum], `${name}: values`);
    for (const k of ['minimum', 'maximum']) assert.equal(s[k], node[k], `${name}: ${k}`);
    if (node.additionalProperties?.enum) assert.deepEqual(s.additionalProperties.enum, [...node.additionalProperties.enum], `${name}: values of its entries`);
    if (node.items?.type) assert.equal(s.items?.type, node.items.type, `${name}: items`);
    checked.push(name);
  }
  // And every leaf of the schema (but the lifecycle rows, not a setting) is offered.
  const leaves = [];
  const walk = (n, p) => { if (n.type === 'object' && n.properties && !n.additionalProperties?.enum) for (const [k, c] of Object.entries(n.properties)) walk(c, [...p, k]); else leaves.push(p.join('.')); };
  for (const [k, c] of Object.entries(e.settingsSchema.properties)) walk(c, [k]);
  // userLevel is no setting: the VS Code client adds it to its answer (which minors of kubernetes.openapi are the user's).
  for (const leaf of leaves) if (leaf !== 'trace' && leaf !== 'userLevel') assert.ok(checked.includes(`skewguard.${leaf}`), `skewguard.${leaf} is in the schema but not offered`);
  assert.ok(checked.includes('skewguard.files') && checked.includes('skewguard.kata.flavour') && checked.includes('skewguard.debounceMs'));
});
