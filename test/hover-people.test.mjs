// Issue #18 problem 8 (hovers for people): no references into skewguard's own data tables in a hover, the verdict
// (the window line) right after the title, paths relative to the workspace, and the same text as plain text for
// clients without Markdown hovers (Neovim).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LspClient, makeWorkspace, uriOf, repoRoot } from './helpers/lsp-client.mjs';

const QEMU = fs.readFileSync(path.join(repoRoot, 'examples/kata/gpu-host-3.1-to-3.32/configuration-qemu.toml'), 'utf8');
const CONFIG = 'kata: { window: "3.1..3.32", flavour: go }\n';

async function hoverAt(t, opts, rel, line, character) {
  const root = makeWorkspace({ 'site/.skewguard.yaml': CONFIG });
  const client = new LspClient(root, opts);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const u = uriOf(path.join(root, rel));
  await client.open(u, QEMU, 1, 'toml');
  return { root, h: await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line, character } }) };
}
const line = QEMU.split('\n').findIndex((l) => l.startsWith('hotplug_vfio_on_root_bus'));

test('a Kata key\'s hover: title, then the verdict for the window, no internal data references, the config path relative', async (t) => {
  const { h, root } = await hoverAt(t, {}, 'site/configuration-qemu.toml', line, 3);
  const md = h.contents.value;
  assert.equal(h.contents.kind, 'markdown');
  const paras = md.split(/\n{2,}/);
  assert.match(paras[0], /^\*\*hotplug_vfio_on_root_bus\*\* in \[hypervisor\.qemu\]/);
  assert.match(paras[1], /^Window 3\.1\.0\.\.3\.32\.0 \(config: site\/\.skewguard\.yaml\): ✓ read by 3\.1\.0–3\.1\.3;/, paras[1]);
  assert.doesNotMatch(md, /\.json\s+[\w.]*\[/, 'no config-options.json options[…] and the like');
  assert.ok(!md.includes(root), 'no absolute workspace path');
  assert.match(md, /Renamed to `hot_plug_vfio` in 3\.2\.0/, 'the facts are all still there');
});

test('the same hover as plain text for a client without Markdown (Neovim)', async (t) => {
  const { h } = await hoverAt(t, { capabilities: { textDocument: { hover: { contentFormat: ['plaintext'] } } } }, 'site/configuration-qemu.toml', line, 3);
  assert.equal(h.contents.kind, 'plaintext');
  assert.match(h.contents.value, /^hotplug_vfio_on_root_bus in \[hypervisor\.qemu\]/);
  assert.doesNotMatch(h.contents.value, /\*\*|`/);
});
