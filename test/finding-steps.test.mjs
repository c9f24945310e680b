// Issue #19 item 3: every finding says the steps of the file's window it concerns (engine/steps.ts), so that the
// html/markdown matrix (and the editor's per-step code lens) can give a verdict per step. The server puts them in the
// diagnostic's data as `steps`, an array of version strings, unless the rule says its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine as e, analyze } from './helpers/k8s.mjs';

const ING_BETA = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const ING_V1 = 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n';

test('findingSteps: list keys, removedIn, deprecatedIn, introducedIn, and every step when the data names none of the window', () => {
  const w = ['1.21', '1.22', '1.23'];
  assert.deepEqual(e.findingSteps({ removedIn: '1.22' }, w), ['1.22', '1.23']);
  assert.deepEqual(e.findingSteps({ introducedIn: '1.22' }, w), ['1.21']);
  assert.deepEqual(e.findingSteps({ deprecatedIn: '1.23', removedIn: '1.25' }, w), ['1.23']);
  assert.deepEqual(e.findingSteps({ notReadBy: ['1.23'], fatalIn: ['1.21'] }, w), ['1.21', '1.23']);
  assert.deepEqual(e.findingSteps({ steps: ['1.22'] }, w), ['1.22']);
  assert.deepEqual(e.findingSteps({ key: 'x' }, w), w);
  assert.deepEqual(e.findingSteps(undefined, w), w);
  assert.deepEqual(e.findingSteps({ droppedBy: ['2.0.0'] }, w), w, 'versions of no step of this window: the whole window');
  assert.deepEqual(e.findingSteps({ steps: [{ starlingx: '11.0' }] }, w), w, 'records, not version strings, are not steps');
  // Kata releases compare as versions, not as text.
  assert.deepEqual(e.findingSteps({ removedIn: '3.10.0' }, ['3.2.0', '3.9.0', '3.10.0']), ['3.10.0']);
});

test('analyze: the window steps of the file, and each finding\'s steps among them', () => {
  const removed = analyze('/w/ing.yaml', ING_BETA, '1.21..1.22');
  assert.deepEqual(removed.windowSteps, ['1.21', '1.22']);
  const r = removed.diagnostics.find((d) => d.ruleId === 'k8s/removed-api');
  assert.deepEqual(r.steps, ['1.22'], 'removed in 1.22: only that step fails');
  const early = analyze('/w/ing.yaml', ING_V1, '1.18..1.20');
  const n = early.diagnostics.find((d) => d.ruleId === 'k8s/api-not-yet-served');
  assert.deepEqual(n.steps, ['1.18'], 'networking.k8s.io/v1 Ingress is served from 1.19');
  const broken = analyze('/w/ing.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n', '1.21..1.23');
  const p = broken.diagnostics.find((d) => d.ruleId === 'syntax/parse-error');
  assert.ok(p, 'a parse error');
  assert.deepEqual(p.steps, ['1.21', '1.22', '1.23'], 'a syntax error fails every step');
});

test('analyze: Kata releases and StarlingX releases are the steps of their families', () => {
  const kata = e.analyze({ path: '/w/configuration.toml', text: '[hypervisor.qemu]\nshared_fs = "none"\n', config: e.resolveConfig({ cli: { kataWindow: '3.1..3.3', kataFlavour: 'go' } }) });
  assert.deepEqual(kata.windowSteps.slice(0, 1), ['3.1.0']);
  const inv = kata.diagnostics.find((d) => d.ruleId === 'kata/invalid-value');
  assert.ok(inv, JSON.stringify(kata.diagnostics.map((d) => d.ruleId)));
  assert.deepEqual(inv.steps, inv.data.rejectedBy.filter((v) => kata.windowSteps.includes(v)));
  assert.ok(inv.steps.length < kata.windowSteps.length, 'not every release rejects it');
  const stx = e.analyze({ path: '/w/localhost.yml', text: 'system_mode: simplex\nkubernetes_version: v1.21.3\n', config: e.resolveConfig({ cli: { starlingxRelease: '6.0' } }) });
  assert.deepEqual(stx.windowSteps, ['6.0']);
  assert.ok(stx.diagnostics.length && stx.diagnostics.every((d) => d.steps.join() === '6.0'));
});
