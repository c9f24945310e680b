// A check of the LSP base protocol's framing on the server's input: every message must start with a header that
// has one Content-Length of decimal digits, no larger than a message the server can hold. The JSON-RPC reader
// otherwise waits forever on a missing, negative or huge length (alive and silent); this passes the bytes on
// unchanged and calls onBroken once with the reason instead, so that the server can close the connection and exit
// (and its client restart it). Bodies are only counted, never copied or parsed.
import { Transform, type TransformCallback } from 'node:stream';

/** Larger than any message the server could decode into a string (V8's limit is about 2^29 characters). */
export const MAX_CONTENT_LENGTH = 512 * 1024 * 1024;
const MAX_HEADER_BYTES = 8192;
const END = Buffer.from('\r\n\r\n');

export class FramingCheck extends Transform {
  /** Body bytes still to come for the current message (0: a header comes next). */
  private remaining = 0;
  /** A header that has not ended yet in the bytes received so far. */
  private head: Buffer | undefined;
  private broken = false;

  constructor(private readonly onBroken: (reason: string) => void, private readonly maxLength = MAX_CONTENT_LENGTH) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (this.broken) { cb(); return; }
    let pos = 0;
    while (pos < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - pos);
        this.remaining -= n;
        pos += n;
        continue;
      }
      let buf = chunk, from = pos, carried = 0;
      if (this.head) { carried = this.head.length; buf = Buffer.concat([this.head, chunk.subarray(pos)]); from = 0; }
      const end = buf.indexOf(END, from);
      if (end < 0) {
        const rest = buf.subarray(from);
        if (rest.length > MAX_HEADER_BYTES) return this.fail(`no end of the message header after ${MAX_HEADER_BYTES} bytes`, cb);
        this.head = Buffer.from(rest);
        pos = chunk.length;
        break;
      }
      this.head = undefined;
      if (end - from > MAX_HEADER_BYTES) return this.fail(`a message header longer than ${MAX_HEADER_BYTES} bytes`, cb);
      const why = this.checkHeader(buf.toString('latin1', from, end));
      if (why) return this.fail(why, cb);
      pos = pos + (end + END.length - from) - carried;
    }
    this.push(chunk);
    cb();
  }

  /** The reason the header is broken, or undefined (and the body length is recorded). */
  private checkHeader(text: string): string | undefined {
    // The header every client sends ("Content-Length: 123", one field): what the loop below makes of it, without it.
    if (text.startsWith('Content-Length: ') && /^\d{1,12}$/.test(text.slice(16))) {
      const n = Number(text.slice(16));
      if (n > this.maxLength) return `Content-Length ${n} is larger than the ${this.maxLength}-byte limit`;
      this.remaining = n;
      return undefined;
    }
    let length: number | undefined;
    for (const line of text.split('\r\n')) {
      const m = /^([!-9;-~]+):[ \t]*(.*?)[ \t]*$/.exec(line);
      if (!m) return `a malformed message header line ${JSON.stringify(line.slice(0, 80))}`;
      if (m[1].toLowerCase() !== 'content-length') continue;
      if (length !== undefined) return 'a message header with two Content-Length fields';
      if (!/^\d{1,12}$/.test(m[2])) return `Content-Length ${JSON.stringify(m[2].slice(0, 40))} is not a length in bytes`;
      length = Number(m[2]);
      if (length > this.maxLength) return `Content-Length ${length} is larger than the ${this.maxLength}-byte limit`;
    }
    if (length === undefined) return `a message header without Content-Length: ${JSON.stringify(text.slice(0, 80))}`;
    this.remaining = length;
    return undefined;
  }

  private fail(reason: string, cb: TransformCallback): void {
    this.broken = true;
    cb();
    this.onBroken(reason);
  }
}
