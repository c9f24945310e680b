// A Helm release record's `release` value, decoded as Helm's storage drivers do (helm/pkg/storage/driver/util.go
// decodeRelease): base64, then gunzip when the bytes start with gzip's magic (Helm writes gzip, and reads plain JSON
// too), then JSON. A Secret's data adds Kubernetes' own base64 layer. Bounded: each base64 layer is checked before it
// is decoded, gunzip stops at a size (maxOutputLength: a gzip bomb is refused, not followed), and every failure is a
// reason, never an exception. node:zlib is loaded on first use (shared/lazy-node.ts); the web build's zlib unpacks
// nothing and says so (ERR_WEB_EXTENSION), which is said as "not checked here", not as a broken record.
import { nodeZlib } from '../../../shared/lazy-node';
import { MAX_FILE_BYTES } from '../../files';

/** At most this much JSON per record once unpacked (20 MiB; Kubernetes keeps an object under 1.5 MiB, gzipped). */
export const MAX_RECORD_BYTES = MAX_FILE_BYTES;
/**
 * At most this much unpacked for all the records of one file together (100 MiB: a 20 MB export of gzipped records
 * unpacks to about 60 MB of JSON). A record refused for its size is charged what was unpacked of it, so a file of
 * gzip bombs costs at most this much work, not 20 MiB per bomb. Only what the rules need is kept of each release.
 */
export const MAX_FILE_UNPACKED = 5 * MAX_FILE_BYTES;

/** `bytes`: what the record took of the file's budget (its unpacked size; for one refused, what was unpacked of it). */
export type Decoded =
  | { ok: true; release: Record<string, unknown>; gzipped: boolean; bytes: number }
  | { ok: false; why: string; web?: boolean; bytes?: number };

const mib = (n: number) => `${Math.round((n / 1048576) * 10) / 10} MiB`;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard padded base64 (what Kubernetes and Go's base64.StdEncoding write), or why it is not. */
function base64(text: string, layer: string): Uint8Array | string {
  // kubectl prints data on one line; a YAML writer may fold it, so line breaks and blanks are dropped first.
  const s = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (s.length % 4 !== 0 || !BASE64.test(s)) {
    const bad = s.search(/[^A-Za-z0-9+/=]/);
    return `${layer} is not base64 (${bad >= 0 ? `the character ${JSON.stringify(s[bad])} at ${bad + 1}` : `its length ${s.length} is not a multiple of 4`})`;
  }
  return Buffer.from(s, 'base64');
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/**
 * Decodes one record. `secret`: the value is a Secret's data (one more base64 layer than a ConfigMap's). `budget`: what
 * is left of the file's MAX_FILE_UNPACKED; `bytes` in the result is what this record took.
 */
export function decodeRelease(value: string, secret: boolean, budget: number = MAX_FILE_UNPACKED): Decoded {
  let bytes: Uint8Array;
  const outer = base64(value, secret ? "the Secret's data.release" : "the ConfigMap's data.release");
  if (typeof outer === 'string') return { ok: false, why: outer };
  bytes = outer;
  if (secret) {
    const inner = base64(latin1(bytes), 'the decoded data.release (Helm\'s own base64 layer)');
    if (typeof inner === 'string') return { ok: false, why: inner };
    bytes = inner;
  }
  const limit = Math.max(0, Math.min(MAX_RECORD_BYTES, budget));
  if (limit === 0) return { ok: false, why: `the records before it in this file have already unpacked to the ${mib(MAX_FILE_UNPACKED)} the records of one file may unpack to in all` };
  let gzipped = false;
  if (bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08) {
    gzipped = true;
    try {
      bytes = nodeZlib().gunzipSync(bytes, { maxOutputLength: Math.max(1, limit) });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ERR_WEB_EXTENSION') return { ok: false, web: true, why: 'the web extension does not unpack gzip (the desktop extension and lsp-lint decode it)' };
      if (code === 'ERR_BUFFER_TOO_LARGE' || code === 'ERR_OUT_OF_RANGE') {
        return { ok: false, bytes: limit, why: limit < MAX_RECORD_BYTES ? `it unpacks to more than the ${mib(limit)} left of the ${mib(MAX_FILE_UNPACKED)} the records of one file may unpack to in all` : `it unpacks to more than ${mib(MAX_RECORD_BYTES)} (a gzip bomb, or no release Helm could store)` };
      }
      return { ok: false, why: `its gzip data is broken (${(e as Error).message})` };
    }
  } else if (bytes.length > limit) {
    return { ok: false, why: limit < MAX_RECORD_BYTES ? `it is more than the ${mib(limit)} of JSON left of the ${mib(MAX_FILE_UNPACKED)} the records of one file may unpack to in all` : `it is more than ${mib(limit)} of JSON` };
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let release: unknown;
  try {
    release = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `its ${gzipped ? 'unpacked ' : ''}release is not JSON (${(e as Error).message.slice(0, 160)})` };
  }
  if (!release || typeof release !== 'object' || Array.isArray(release)) return { ok: false, why: 'its release is JSON but not an object' };
  return { ok: true, release: release as Record<string, unknown>, gzipped, bytes: bytes.length };
}
