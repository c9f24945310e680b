// A V8 code cache for the two bundles a run of lsp-lint starts: dist/server.js runs the language server
// (dist/server-main.js) and dist/lsp-lint.js the CLI (dist/lsp-lint-main.js) through runCached. Compiling a bundle
// and then, lazily, each function a first file needs costs tens of milliseconds per start (about 50 ms for the
// server's 1.4 MB); with the cache, whose bytecode covers the functions an earlier run compiled, a few.
//
// Never a wrong result: a cache is keyed by the product version, node's V8 version, the architecture, and the
// bundle's size, modification time and CRC-32 of its text (V8 itself checks only the text's length); its own
// checksum is checked before V8 sees it; V8 rejects one made under other flags; a rejected, corrupt or unreadable
// cache is ignored and the bundle compiled as usual. A cache is written once, at exit (the server's: at shutdown,
// code-cache-handoff.ts), when there was none or it was rejected: to a temporary name opened exclusively, then
// renamed; only the newest few of a kind are kept. Where:
// SKEWGUARD_CACHE_DIR, else the per-user cache folder (XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%)
// under skewguard/. SKEWGUARD_CODE_CACHE=off turns it off.
//
// The checksums are zlib's CRC-32, not SHA-256: loading node:crypto and hashing the 1.8 MB bundle and its 1 MB cache
// cost about 6 ms of every start, CRC-32 about 1 ms. They guard against a torn or corrupted file and a changed
// bundle, not against an attacker: the cache folder and file must be private to the user (ownedAndPrivate). On a
// node without zlib.crc32 (before 20.15) the first 4 bytes of a SHA-256 take its place.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import Module from 'node:module';
import { VERSION } from './version';
import { nodeCrypto } from './lazy-node';
import { setPendingCacheWrite, writePendingCodeCache } from './code-cache-handoff';

const MAGIC = Buffer.from('skewguard-code-cache-2\n');
/** After MAGIC: the payload's checksum (4 bytes). */
const SUM = 4;
/** Cache files of this kind kept in the folder (other versions, other builds): the newest ones. */
const KEEP = 4;

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SKEWGUARD_CACHE_DIR) return env.SKEWGUARD_CACHE_DIR;
  let home = '';
  try { home = os.homedir(); } catch { /* no home: no cache */ }
  if (process.platform === 'win32') return env.LOCALAPPDATA ? path.join(env.LOCALAPPDATA, 'skewguard', 'Cache') : undefined;
  if (process.platform === 'darwin') return home ? path.join(home, 'Library', 'Caches', 'skewguard') : undefined;
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'skewguard');
  return home ? path.join(home, '.cache', 'skewguard') : undefined;
}

/** CRC-32 of the bytes, as 4 bytes (see the top of the file). */
function checksum(b: Uint8Array): Buffer {
  const out = Buffer.alloc(SUM);
  const crc32 = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (typeof crc32 === 'function') { out.writeUInt32BE(crc32(b) >>> 0); return out; }
  return nodeCrypto().createHash('sha256').update(b).digest().subarray(0, SUM);
}

/**
 * Whether a cache file or its folder may be trusted: it is code. On POSIX it must belong to this user and be
 * writable by nobody else (nor may its folder be), so that another user cannot plant bytecode.
 */
function ownedAndPrivate(st: fs.Stats): boolean {
  if (typeof process.getuid !== 'function') return true;
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

/** The cache's payload, when the file is whole (its own checksum matches) and private; else undefined. */
function readCache(file: string): Buffer | undefined {
  let buf: Buffer;
  let fd: number | undefined;
  try {
    if (!ownedAndPrivate(fs.statSync(path.dirname(file)))) return undefined;
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || !ownedAndPrivate(st)) return undefined;
    buf = fs.readFileSync(fd);
  } catch { return undefined; } finally { if (fd !== undefined) fs.closeSync(fd); }
  const head = MAGIC.length;
  if (buf.length <= head + SUM || !buf.subarray(0, head).equals(MAGIC)) return undefined;
  const payload = buf.subarray(head + SUM);
  return checksum(payload).equals(buf.subarray(head, head + SUM)) ? payload : undefined;
}

function writeCache(dir: string, file: string, prefix: string, payload: Buffer): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written at exit only: node:crypto is loaded here, not at start.
    const tmp = `${file}.${process.pid}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try { fs.writeSync(fd, Buffer.concat([MAGIC, checksum(payload), payload])); } finally { fs.closeSync(fd); }
    try { fs.renameSync(tmp, file); } catch { try { fs.unlinkSync(tmp); } catch { /* gone */ } return; }
    // Older caches (earlier builds and versions) go, except the newest few.
    const mine = fs.readdirSync(dir).filter((n) => n.startsWith(`${prefix}-`) && n.endsWith('.cache')).map((n) => {
      try { return { n, t: fs.statSync(path.join(dir, n)).mtimeMs }; } catch { return { n, t: 0 }; }
    }).sort((a, b) => b.t - a.t);
    for (const { n } of mine.slice(KEEP)) { try { fs.unlinkSync(path.join(dir, n)); } catch { /* another run took it */ } }
  } catch { /* no cache then: the next start compiles again */ }
}

/**
 * Loads the CommonJS bundle `file` as a module (child of `parent`) and runs it, compiled from the code cache named
 * `<name>-…` when there is a good one.
 */
export function runCached(file: string, name: string, parent: NodeModule): void {
  // The bundle and its stat from one descriptor: the key describes the text that is compiled.
  const fd = fs.openSync(file, 'r');
  let bytes: Buffer, st: fs.BigIntStats;
  try { st = fs.fstatSync(fd, { bigint: true }); bytes = fs.readFileSync(fd); } finally { fs.closeSync(fd); }
  // Decoded as UTF-8, not latin1, even though the bundles are ASCII (scripts/build.mjs, asciiOnly): latin1 makes a text
  // over 1 MB an external string, which cost the server's start about 10 ms more than the heap string UTF-8 gives.
  const source = bytes.toString('utf8');
  const off = /^(0|off|false|no)$/i.test(process.env.SKEWGUARD_CODE_CACHE ?? '');
  const dir = off ? undefined : cacheDir();
  const stamp = dir && `${bytes.length.toString(16)}-${st.mtimeNs.toString(16)}-${checksum(bytes).toString('hex')}`;
  const cacheFile = dir && path.join(dir, `${name}-${VERSION}-${process.versions.v8}-${process.arch}-${stamp}.cache`);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  // The CommonJS wrapper on a line of its own (line 0), so that positions in stack traces are the bundle's own.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file, lineOffset: -1, cachedData });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    // At exit, or earlier when the server is asked to shut down (code-cache-handoff.ts): whichever comes first.
    setPendingCacheWrite(() => {
      let data: Buffer;
      try { data = script.createCachedData(); } catch { return; }
      writeCache(dir!, cacheFile, name, data);
    });
    process.on('exit', writePendingCodeCache);
  }
  const m = new Module(file, parent);
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: Module, f: string, d: string) => void;
  run.call(m.exports, m.exports, Module.createRequire(file), m, file, path.dirname(file));
  m.loaded = true;
}

