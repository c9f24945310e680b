// Issue #18 problem 8 (commands and settings that explain themselves): the palette has the commands a person looks
// for, the settings come in a person's order (the window first, editor details last), every empty enum choice has a
// label, and every setting that .skewguard.yaml can override says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './helpers/lsp-client.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

test('palette: Check Whole Workspace, Fix All in Workspace, Change Window…, Show Rule Documentation…, Restart Server', () => {
  const titles = pkg.contributes.commands.map((c) => `${c.category}: ${c.title}`);
  for (const t of ['Check Whole Workspace', 'Fix All in Workspace', 'Change Window…', 'Show Rule Documentation…', 'Restart Server', 'Show Resolved Window', 'Open .skewguard.yaml']) {
    assert.ok(titles.includes(`skewguard: ${t}`), `${t} in ${JSON.stringify(titles)}`);
  }
});

test('settings: ordered for a person, empty choices labelled, and each says what overrides it', () => {
  const props = pkg.contributes.configuration.properties;
  const byOrder = Object.entries(props).sort((a, b) => a[1].order - b[1].order).map(([k]) => k);
  assert.equal(byOrder[0], 'skewguard.starlingx.release');
  assert.ok(byOrder.indexOf('skewguard.debounceMs') > byOrder.indexOf('skewguard.rules'), 'Debounce Ms is not first any more');
  assert.ok(byOrder.indexOf('skewguard.trace.server') === byOrder.length - 1);
  for (const [k, s] of Object.entries(props)) {
    assert.equal(typeof s.order, 'number', `${k} has an order`);
    if (s.enum?.includes('')) assert.ok(s.enumItemLabels?.[s.enum.indexOf('')]?.length > 2, `${k}: the empty choice has a label`);
    if (s.enum) assert.equal(s.enumDescriptions?.length, s.enum.length, `${k}: every choice described`);
  }
  for (const k of ['starlingx.release', 'starlingx.upgradeFrom', 'kubernetes.window', 'kata.window', 'kata.flavour', 'containerd.window', 'rules', 'ignore', 'files', 'helm.path']) {
    assert.match(props[`skewguard.${k}`].markdownDescription, /\.skewguard\.yaml/, `skewguard.${k} says what .skewguard.yaml does to it`);
  }
});
