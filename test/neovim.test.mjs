// The README's Neovim configuration, run as written in headless Neovim (Debian's `neovim` package) against
// `skewguard-language-server --stdio` (bin/skewguard-language-server.js put on PATH): the diagnostics Neovim receives
// for a localhost.yml, a Kubernetes manifest and a Kata configuration TOML must be exactly what lsp-lint reports.
//
// Not part of `npm test` (it needs nvim): `npm run test:neovim`, which .ci/run runs after `apt-get install -y neovim`.
// Without nvim on PATH this test fails; it never passes silently.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILES = {
  'a StarlingX localhost.yml': 'starlingx/stx12-v-prefix/localhost.yml',
  'a Kubernetes manifest': 'kubernetes/upgrade-1.18-to-1.21/app.yaml',
  'a Kata configuration TOML': 'kata/gpu-host-3.1-to-3.32/configuration-qemu.toml',
};

// Waits for the first diagnostics of the current buffer, writes them as JSON, quits.
const WAIT_LUA = `
local out = os.getenv('SKEWGUARD_NVIM_OUT')
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(diags, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity,
    message = d.message, source = d.source, code = d.code or lsp.code })
end
local clients = {}
for _, c in pairs(vim.lsp.get_active_clients()) do table.insert(clients, { name = c.name, root_dir = c.config.root_dir }) end
local f = assert(io.open(out, 'w'))
f:write(vim.fn.json_encode({ waited = ok, filetype = vim.bo.filetype, version = vim.version(), clients = clients, diagnostics = diags }))
f:close()
vim.cmd('qa!')
`;

const SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 };

/** The README's tested Neovim block: the lua code block that starts the client with vim.lsp.start_client. */
function readmeConfig() {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```lua\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.includes('vim.lsp.start_client') && b.includes("'skewguard-language-server', '--stdio'"));
  assert.ok(block, 'README.md has no ```lua block with vim.lsp.start_client({ cmd = { \'skewguard-language-server\', \'--stdio\' } })');
  return block;
}

let tmp, ws, binDir, expected, nvim;

before(() => {
  const which = spawnSync('sh', ['-c', 'command -v nvim'], { encoding: 'utf8' });
  nvim = which.stdout.trim();
  assert.ok(nvim, 'nvim is not installed: apt-get install -y neovim (npm test leaves this file out; npm run test:neovim runs it)');
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-nvim-')));
  ws = path.join(tmp, 'examples');
  fs.cpSync(path.join(repoRoot, 'examples'), ws, { recursive: true });
  binDir = path.join(tmp, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(path.join(repoRoot, 'bin', 'skewguard-language-server.js'), path.join(binDir, 'skewguard-language-server'));
  fs.writeFileSync(path.join(tmp, 'init.lua'), readmeConfig());
  fs.writeFileSync(path.join(tmp, 'wait.lua'), WAIT_LUA);
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), '--format', 'json', ...Object.values(FILES)], { cwd: ws, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  expected = new Map(JSON.parse(r.stdout).map((f) => [path.relative(ws, f.filePath), f.messages]));
});

after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

function runNvim(rel) {
  const out = path.join(tmp, `${rel.replace(/\W+/g, '-')}.json`);
  const home = path.join(tmp, 'home');
  const t0 = Date.now();
  const r = spawnSync(nvim, ['--headless', '-i', 'NONE', '-n', '-u', path.join(tmp, 'init.lua'), '-c', `luafile ${path.join(tmp, 'wait.lua')}`, rel], {
    cwd: ws, encoding: 'utf8', timeout: 60000, input: '',
    env: {
      ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}`, SKEWGUARD_NVIM_OUT: out, HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'), XDG_DATA_HOME: path.join(home, 'data'), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'),
    },
  });
  assert.ok(fs.existsSync(out), `nvim wrote no result (exit ${r.status}, signal ${r.signal}):\n${r.stdout}\n${r.stderr}`);
  return { ...JSON.parse(fs.readFileSync(out, 'utf8')), ms: Date.now() - t0 };
}

for (const [what, rel] of Object.entries(FILES)) {
  test(`Neovim (README config) receives the diagnostics of ${what}: ${rel}`, () => {
    const res = runNvim(rel);
    assert.ok(res.waited, `no diagnostics within 30 s (filetype ${res.filetype}, clients ${JSON.stringify(res.clients)})`);
    assert.deepEqual(res.clients.map((c) => c.name), ['skewguard']);
    assert.equal(res.clients[0].root_dir, ws);
    const want = expected.get(rel).map((m) => ({
      lnum: m.line - 1, col: m.column - 1, end_lnum: m.endLine - 1, end_col: m.endColumn - 1,
      severity: SEVERITY[m.severity], message: m.message, source: 'skewguard', code: m.ruleId,
    }));
    assert.ok(want.length > 0, `lsp-lint reports nothing for ${rel}`);
    const key = (d) => `${String(d.lnum).padStart(5)}:${String(d.col).padStart(5)}:${d.code}`;
    const got = [...res.diagnostics].sort((a, b) => key(a).localeCompare(key(b)));
    assert.deepEqual(got, [...want].sort((a, b) => key(a).localeCompare(key(b))));
    const v = res.version;
    console.log(`# nvim ${v.major}.${v.minor}.${v.patch}, filetype ${res.filetype}: ${got.length} diagnostic(s) [${[...new Set(got.map((d) => d.code))].join(', ')}] in ${res.ms} ms`);
  });
}
