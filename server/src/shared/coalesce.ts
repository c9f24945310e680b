// A pipe write is a system call each, and JSON-RPC writes every message as two of them (its header, then its body,
// after the header's write callback). lsp-lint and its server exchange a few messages per file for thousands of
// files, so both sides hand the JSON-RPC writer this stream instead: it acknowledges each write at once (so a
// message's header and body land in the same turn of the event loop, whole), and sends everything written during
// one turn as one write on the next. What is still buffered when the process exits is written synchronously then:
// the server exits from inside the `exit` notification's handler.
import { Writable } from 'node:stream';

/** A stream over `out` that coalesces the writes of one event-loop turn into one write. */
export function coalesced(out: NodeJS.WritableStream): NodeJS.WritableStream {
  let pending: Buffer[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending.length) return;
    const data = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending = [];
    out.write(data);
  };
  process.on('exit', flush);
  const stream = new Writable({
    write(chunk: Buffer, _enc, callback) {
      pending.push(chunk);
      if (!scheduled) { scheduled = true; setImmediate(flush); }
      callback();
    },
    final(callback) { flush(); out.end(); callback(); },
  });
  out.on('error', (e: Error) => stream.destroy(e));
  out.on('close', () => stream.destroy());
  return stream;
}
