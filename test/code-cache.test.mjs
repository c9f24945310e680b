// The V8 code cache of dist/server.js and dist/lsp-lint.js (server/src/shared/code-cache.ts): it makes start-up
// faster and never changes a result. A cache is used only for the exact text it was made from (V8 itself checks
// only the length), a corrupt or truncated one is ignored and rewritten, an unusable folder means no cache, and
// SKEWGUARD_CODE_CACHE=off writes none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { spawnSync } from 'node:child_process';
import { ShutdownRequest } from 'vscode-languageserver-protocol/node';
import { LspClient } from './helpers/lsp-client.mjs';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const lspLint = path.join(repoRoot, 'bin', 'lsp-lint.js');
const MAGIC = Buffer.from('skewguard-code-cache-2\n');
/** The payload's checksum after MAGIC (CRC-32). */
const SUM = 4;
const DEPLOYMENT = 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: a\n';

function workspace() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-code-cache-')));
  fs.writeFileSync(path.join(dir, 'dep.yaml'), DEPLOYMENT);
  return dir;
}

function lint(dir, env) {
  const r = spawnSync(process.execPath, [lspLint, '--kubernetes-window', '1.18..1.21', '--format', 'json', 'dep.yaml'], {
    cwd: dir, encoding: 'utf8', timeout: 60000, env: { ...process.env, SKEWGUARD_TODAY: '2026-12-01', ...env },
  });
  assert.equal(r.status, 1, r.stderr);
  return r.stdout;
}

const caches = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
const cacheOf = (dir, kind) => path.join(dir, caches(dir).find((n) => n.startsWith(`${kind}-`)));

test('code cache: written once for each bundle, used after, and the report is the one without it', () => {
  const dir = workspace();
  const cache = path.join(dir, 'cache');
  const without = lint(dir, { SKEWGUARD_CODE_CACHE: 'off', SKEWGUARD_CACHE_DIR: cache });
  assert.deepEqual(caches(cache), [], 'SKEWGUARD_CODE_CACHE=off writes nothing');
  assert.match(without, /extensions\/v1beta1 Deployment was removed/);

  assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: cache }), without);
  const names = caches(cache);
  assert.equal(names.length, 2, names.join(', '));
  assert.match(names[0], /^lsp-lint-\d+\.\d+\.\d+-.+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]{8}\.cache$/);
  assert.match(names[1], /^server-\d+\.\d+\.\d+-.+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]{8}\.cache$/);
  const before = names.map((n) => fs.readFileSync(path.join(cache, n)));
  for (const b of before) assert.ok(b.subarray(0, MAGIC.length).equals(MAGIC));

  // Accepted: the same report, and the caches are not written again.
  assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: cache }), without);
  assert.deepEqual(caches(cache), names, 'no temporary files are left');
  names.forEach((n, i) => assert.ok(fs.readFileSync(path.join(cache, n)).equals(before[i]), `${n} was rewritten`));
});

test('code cache: the server writes its cache when shutdown is asked, before answering, since lsp-lint then kills it', async () => {
  const dir = workspace();
  const cache = path.join(dir, 'cache');
  // As lsp-lint starts it (init.cli): an editor's server runs under another V8 heap flag, which V8's cache check sees.
  const client = new LspClient(dir, { env: { SKEWGUARD_CACHE_DIR: cache }, initializationOptions: { cli: {} } });
  try {
    await client.initialize();
    assert.deepEqual(caches(cache), [], 'nothing is written before shutdown');
    await client.conn.sendRequest(ShutdownRequest.type);
    const names = caches(cache);
    assert.equal(names.length, 1, names.join(', '));
    assert.match(names[0], /^server-.+\.cache$/);
    assert.ok(fs.readFileSync(path.join(cache, names[0])).subarray(0, MAGIC.length).equals(MAGIC), 'a whole cache file');
  } finally { client.kill(); }
  // Killed after that answer, as lsp-lint does: the next run uses the cache and does not write it again.
  const before = fs.readFileSync(cacheOf(cache, 'server'));
  const want = lint(dir, { SKEWGUARD_CODE_CACHE: 'off' });
  assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: cache }), want);
  assert.ok(fs.readFileSync(cacheOf(cache, 'server')).equals(before), 'the server cache was used, not rewritten');
});

test('code cache: a corrupt, truncated or foreign cache file is ignored (same report) and replaced by a good one', () => {
  const dir = workspace();
  const cache = path.join(dir, 'cache');
  const want = lint(dir, { SKEWGUARD_CODE_CACHE: 'off' });
  lint(dir, { SKEWGUARD_CACHE_DIR: cache });
  const server = cacheOf(cache, 'server');
  const good = fs.readFileSync(server);
  const flipped = Buffer.from(good); flipped[flipped.length - 100] ^= 0xff;
  const payload = good.subarray(MAGIC.length + SUM);
  for (const [what, bad] of [
    ['one byte of the payload changed', flipped],
    ['truncated', good.subarray(0, good.length >> 1)],
    ['only the header', good.subarray(0, MAGIC.length + SUM)],
    ['no header (what V8 wrote, as is)', payload],
    ['empty', Buffer.alloc(0)],
  ]) {
    fs.writeFileSync(server, bad);
    assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: cache }), want, what);
    assert.ok(fs.readFileSync(server).subarray(0, MAGIC.length).equals(MAGIC), `${what}: rewritten`);
    assert.equal(fs.readFileSync(server).length > MAGIC.length + SUM, true, `${what}: rewritten whole`);
  }
});

test('code cache: a cache made from another text of the same length is never used, though V8 would accept it', () => {
  const dir = workspace();
  const cache = path.join(dir, 'cache');
  // A copy of the server whose bundle can be changed; the data stay the repository's.
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(dist);
  for (const f of ['server.js', 'server-main.js']) fs.copyFileSync(path.join(repoRoot, 'dist', f), path.join(dist, f));
  const env = { SKEWGUARD_CACHE_DIR: cache, SKEWGUARD_SERVER: path.join(dist, 'server.js'), SKEWGUARD_ROOT: repoRoot };
  const original = fs.readFileSync(path.join(dist, 'server-main.js'), 'utf8');
  const phrase = 'served across the whole window';
  assert.ok(original.includes(phrase));
  const changed = original.split(phrase).join(phrase.toUpperCase());
  assert.equal(changed.length, original.length);

  assert.match(lint(dir, env), /apps\/v1, served across the whole window/);
  const first = fs.readFileSync(cacheOf(cache, 'server'));
  fs.writeFileSync(path.join(dist, 'server-main.js'), changed);
  assert.match(lint(dir, env), /apps\/v1, SERVED ACROSS THE WHOLE WINDOW/, 'the changed bundle ran, not the cached one');
  assert.equal(caches(cache).filter((n) => n.startsWith('server-')).length, 2, 'the changed text has a cache of its own');

  // Why the key holds the text's hash: V8 takes the first text's cache for the second one without a word.
  const wrap = (s) => `(function (exports, require, module, __filename, __dirname) {\n${s}\n})`;
  const script = new vm.Script(wrap(changed), { filename: path.join(dist, 'server-main.js'), lineOffset: -1, cachedData: first.subarray(MAGIC.length + SUM) });
  assert.equal(script.cachedDataRejected, false);
});

test('code cache: a cache folder that cannot be made or written means no cache, and the same report', () => {
  const dir = workspace();
  const want = lint(dir, { SKEWGUARD_CODE_CACHE: 'off' });
  const blocker = path.join(dir, 'not-a-folder');
  fs.writeFileSync(blocker, 'x');
  assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: path.join(blocker, 'cache') }), want);
  assert.equal(fs.readFileSync(blocker, 'utf8'), 'x');
});

test('code cache: a cache file or folder that others can write, or a link, is not used (it is code)', () => {
  const dir = workspace();
  const cache = path.join(dir, 'cache');
  const want = lint(dir, { SKEWGUARD_CODE_CACHE: 'off' });
  lint(dir, { SKEWGUARD_CACHE_DIR: cache });
  const server = cacheOf(cache, 'server');
  const good = fs.readFileSync(server);
  // Whether a cache was used shows in whether it is written again: an unused one is replaced at exit.
  const rewritten = (prepare) => {
    prepare();
    const before = fs.statSync(server, { throwIfNoEntry: false })?.mtimeMs;
    const ino = fs.lstatSync(server, { throwIfNoEntry: false })?.ino;
    assert.equal(lint(dir, { SKEWGUARD_CACHE_DIR: cache }), want);
    const st = fs.lstatSync(server);
    return st.ino !== ino || st.mtimeMs !== before;
  };
  const reset = () => { fs.chmodSync(cache, 0o700); fs.rmSync(server, { force: true }); fs.writeFileSync(server, good, { mode: 0o600 }); fs.chmodSync(server, 0o600); };
  assert.equal(rewritten(reset), false, 'a private cache is used');
  assert.equal(rewritten(() => { reset(); fs.chmodSync(server, 0o622); }), true, 'a cache file others can write is not used');
  assert.equal(rewritten(() => { reset(); fs.chmodSync(cache, 0o777); }), true, 'a cache in a folder others can write is not used');
  assert.equal(rewritten(() => {
    reset(); const elsewhere = path.join(dir, 'elsewhere.cache'); fs.renameSync(server, elsewhere); fs.symlinkSync(elsewhere, server);
  }), true, 'a symbolic link is not followed');
  fs.chmodSync(cache, 0o700);
});
