// The server's one connection: over stdio (lsp-lint, Neovim…) its input's framing and each request's params are
// checked and its output coalesced per event-loop turn; other transports are detected as the LSP library does.
import {
  createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection,
} from 'vscode-languageserver/node';
import { format } from 'node:util';
import { FramingCheck } from './framing';
import { ParamsCheckedReader } from './params-check';
import { coalesced } from '../shared/coalesce';

/**
 * Over stdio the input's framing is checked: a broken header (no, a negative or a huge Content-Length) would leave
 * the JSON-RPC reader waiting forever, so the server says why on stderr and exits, and its client can restart it.
 */
function stdinChecked(): NodeJS.ReadableStream {
  const checked = new FramingCheck((reason) => {
    process.stderr.write(`skewguard-language-server: broken message on standard input: ${reason}; closing the connection\n`);
    process.exit(1);
  });
  return process.stdin.pipe(checked);
}

/** Over stdio: framing checked, then each request's params checked before the library reads them. */
function stdioConnection(): Connection {
  const writer = new StreamMessageWriter(coalesced(process.stdout));
  return createConnection(ProposedFeatures.all, new ParamsCheckedReader(new StreamMessageReader(stdinChecked()), writer), writer);
}

/** The process's connection, from its arguments (`--stdio`, `--node-ipc`, …). */
export function serverConnection(): Connection {
  // Over stdio (lsp-lint, Neovim…) the output is coalesced per event-loop turn; other transports are detected as usual.
  const connection: Connection = process.argv.includes('--stdio')
    ? stdioConnection()
    : createConnection(ProposedFeatures.all);
  if (process.argv.includes('--stdio')) {
    // What createConnection does for --stdio when it opens the streams itself: stdout carries the protocol, so
    // console output (a library's warning) goes to the client's log instead.
    console.log = console.info = console.debug = (...a: unknown[]) => connection.console.log(format(...a));
    console.warn = (...a: unknown[]) => connection.console.warn(format(...a));
    console.error = (...a: unknown[]) => connection.console.error(format(...a));
  }
  return connection;
}
