// Globals the server's code expects from Node, for the web build (esbuild `inject`): `process` (no environment,
// no arguments: the web worker is never started with --stdio, faults or a data root) and a minimal `Buffer`
// (UTF-8, base64, hex; what the Helm template functions and the file access use).
import { PACKAGE_ROOT } from './fs';

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8');

// @ts-expect-error Node's Buffer.from(value, encoding | offset, length), not Uint8Array.from(items, mapfn).
export class Buffer extends Uint8Array {
  static override from(v: string | ArrayLike<number> | ArrayBufferLike | Uint8Array, encOrOffset?: string | number, length?: number): Buffer {
    if (typeof v === 'string') {
      const e = typeof encOrOffset === 'string' ? encOrOffset : 'utf8';
      if (e === 'base64') {
        const bin = atob(v.replace(/[^A-Za-z0-9+/=]/g, '').replace(/=+$/, ''));
        const b = new Buffer(bin.length);
        for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
        return b;
      }
      if (e === 'hex') {
        const b = new Buffer(v.length >> 1);
        for (let i = 0; i < b.length; i++) b[i] = parseInt(v.substr(i * 2, 2), 16);
        return b;
      }
      const u = enc.encode(v);
      return new Buffer(u.buffer, u.byteOffset, u.byteLength);
    }
    // By tag, not instanceof: the bytes may come from another realm (a TextEncoder's, a message's).
    if (/^\[object (Shared)?ArrayBuffer\]$/.test(Object.prototype.toString.call(v))) {
      return new Buffer(v as ArrayBuffer, (encOrOffset as number) ?? 0, length ?? ((v as ArrayBuffer).byteLength - ((encOrOffset as number) ?? 0)));
    }
    const b = new Buffer((v as ArrayLike<number>).length);
    b.set(v as ArrayLike<number>);
    return b;
  }
  static alloc(n: number): Buffer { return new Buffer(n); }
  static allocUnsafe(n: number): Buffer { return new Buffer(n); }
  static isBuffer(x: unknown): boolean { return x instanceof Buffer; }
  static byteLength(s: string | Uint8Array): number { return typeof s === 'string' ? enc.encode(s).length : s.byteLength; }
  static concat(list: Uint8Array[]): Buffer {
    const out = new Buffer(list.reduce((n, b) => n + b.length, 0));
    let o = 0;
    for (const b of list) { out.set(b, o); o += b.length; }
    return out;
  }
  static compare(a: Uint8Array, b: Uint8Array): number {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
  equals(o: Uint8Array): boolean { return Buffer.compare(this, o) === 0; }
  override toString(e = 'utf8', start = 0, end = this.length): string {
    const s = this.subarray(start, end);
    if (e === 'base64') { let bin = ''; for (const x of s) bin += String.fromCharCode(x); return btoa(bin); }
    if (e === 'hex') { let h = ''; for (const x of s) h += x.toString(16).padStart(2, '0'); return h; }
    if (e === 'latin1' || e === 'binary' || e === 'ascii') { let t = ''; for (const x of s) t += String.fromCharCode(e === 'ascii' ? x & 0x7f : x); return t; }
    return dec.decode(s);
  }
}

export const process = {
  env: { SKEWGUARD_ROOT: PACKAGE_ROOT } as Record<string, string | undefined>,
  argv: [] as string[],
  execArgv: [] as string[],
  platform: 'browser',
  version: 'v20.0.0',
  versions: {} as Record<string, string>,
  pid: 1,
  cwd: () => '/',
  exit: () => { /* a worker is ended by its client */ },
  on: () => process,
  once: () => process,
  nextTick: (f: (...a: unknown[]) => void, ...a: unknown[]) => { void Promise.resolve().then(() => f(...a)); },
  hrtime: Object.assign(() => [0, 0], { bigint: () => BigInt(Math.round(performance.now() * 1e6)) }),
  memoryUsage: () => ({ heapUsed: 0, rss: 0 }),
  stdout: { write: () => true },
  stderr: { write: (s: string) => { console.error(s); return true; } },
};
