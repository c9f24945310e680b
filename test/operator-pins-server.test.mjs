// Issue #31 item 3 in the server: the operator versions the workspace pins, read from the saved files by one bounded
// walk (server/operator-pins.ts), said by lsp-lint --print-config, and k8s/operator-pins-disagree the same in lsp-lint and
// in the editor, whatever is open; a pin changed on disk (didChangeWatchedFiles) re-checks the open files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scratch, lint } from './helpers/cli-run.mjs';
import { withLspClient, uriOf } from './helpers/lsp-client.mjs';

const CHART = 'apiVersion: v2\nname: platform\nversion: 1.0.0\ndependencies:\n  - name: external-secrets\n    repository: https://charts.external-secrets.io\n    version: 0.17.0\n  - name: traefik\n    repository: https://traefik.github.io/charts\n    version: 27.0.2\n';
const FLUX = 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: traefik\n  namespace: flux-system\nspec:\n  url: https://traefik.github.io/charts\n---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: traefik\n  namespace: traefik\nspec:\n  chart:\n    spec:\n      chart: traefik\n      version: 28.0.0\n      sourceRef:\n        kind: HelmRepository\n        name: traefik\n        namespace: flux-system\n';
const WORKSPACE = {
  'platform/Chart.yaml': CHART,
  'flux/traefik.yaml': FLUX,
  'ignored/kustomization.yaml': 'images:\n  - name: ghcr.io/external-secrets/external-secrets\n    newTag: v0.9.0\n',
  'node_modules/x/kustomization.yaml': 'images:\n  - name: ghcr.io/external-secrets/external-secrets\n    newTag: v0.8.0\n',
  '.skewguard.yaml': 'ignore:\n  - ignored/**\n',
};

test('lsp-lint --print-config says each pin and where it came from; ignored and skipped folders count for nothing', (t) => {
  const dir = scratch(t, WORKSPACE);
  const r = lint(dir, ['--print-config']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.operatorPins.pins, {
    'external-secrets': ['external-secrets 0.17.0 from platform/Chart.yaml:7'],
    traefik: ['traefik 3.0.0 from flux/traefik.yaml:18', 'traefik 2.11.2 from platform/Chart.yaml:10'],
  });
  assert.ok(out.operatorPins.details.includes('external-secrets 0.17.0 from platform/Chart.yaml dependencies: chart 0.17.0 → external-secrets 0.17.0 (external-secrets/external-secrets external-secrets helm-chart-0.17.0)'), JSON.stringify(out.operatorPins.details));
  // A workspace that pins nothing says so.
  const empty = scratch(t, { 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n' });
  assert.equal(JSON.parse(lint(empty, ['--print-config']).stdout).operatorPins, 'none found in the workspace');
});

test('lsp-lint reports pins that disagree at each pin, naming the others', (t) => {
  const dir = scratch(t, WORKSPACE);
  const r = lint(dir, ['-f', 'json', '.']);
  const report = JSON.parse(r.stdout);
  const got = report.flatMap((f) => f.messages.filter((m) => m.ruleId === 'k8s/operator-pins-disagree').map((m) => `${path.relative(dir, f.filePath)}:${m.line}:${m.column} ${m.message.split(':')[0]}`));
  assert.deepEqual(got.sort(), [
    'flux/traefik.yaml:18:7 traefik 3.0.0 pinned here disagrees with traefik 2.11.2 at platform/Chart.yaml',
    'platform/Chart.yaml:10:5 traefik 2.11.2 pinned here disagrees with traefik 3.0.0 at flux/traefik.yaml',
  ]);
});

test('LSP: the same findings whatever is open; a pin saved on disk re-checks the open files', async () => {
  await withLspClient(WORKSPACE, async (client, dir) => {
    const flux = uriOf(path.join(dir, 'flux/traefik.yaml'));
    const first = await client.open(flux, FLUX);
    const pins = (p) => p.diagnostics.filter((d) => d.code === 'k8s/operator-pins-disagree').map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message.split(':')[0]}`);
    assert.deepEqual(pins(first), ['17:6 traefik 3.0.0 pinned here disagrees with traefik 2.11.2 at platform/Chart.yaml']);
    // An unsaved edit of the chart changes nothing for the HelmRelease (other files' pins are read as saved).
    const chartUri = uriOf(path.join(dir, 'platform/Chart.yaml'));
    const chartOpen = await client.open(chartUri, CHART.replace('27.0.2', '28.0.0'));
    assert.deepEqual(chartOpen.diagnostics.filter((d) => d.code === 'k8s/operator-pins-disagree'), [], 'its own buffer agrees with the HelmRelease');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(pins(client.published.get(flux).at(-1)), ['17:6 traefik 3.0.0 pinned here disagrees with traefik 2.11.2 at platform/Chart.yaml']);
    // Saved: the watcher says so, the HelmRelease is checked again and agrees.
    fs.writeFileSync(path.join(dir, 'platform/Chart.yaml'), CHART.replace('27.0.2', '28.0.0'));
    const since = client.count(flux);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: chartUri, type: 2 }] });
    await client.waitFor(flux, (p) => pins(p).length === 0, { since });
    // A plain manifest saved (not a chart's file: only the indexes are told): the HelmRelease now pins chart 27.0.2,
    // which the open chart's dependency (28.0.0 in its buffer) disagrees with.
    fs.writeFileSync(path.join(dir, 'flux/traefik.yaml'), FLUX.replace('version: 28.0.0', 'version: 27.0.2'));
    const since2 = client.count(chartUri);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: flux, type: 2 }] });
    const chartNow = await client.waitFor(chartUri, (p) => pins(p).length > 0, { since: since2 });
    assert.deepEqual(pins(chartNow), ['9:4 traefik 3.0.0 pinned here disagrees with traefik 2.11.2 at flux/traefik.yaml']);
  });
});
