// A check of each request's params before the LSP library sees them. The library reads `params.workDoneToken`,
// `params.textDocument.uri` or `params.processId` before any handler of ours runs, so a request with null or
// missing params was answered with an internal error (-32603) that no handler could turn into a proper answer
// (the protocol fuzzer sent thousands). Such a request now gets InvalidParams (-32602) naming what is missing,
// and never reaches the library; everything else passes through unchanged.
import {
  ErrorCodes, type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter, type RequestMessage,
  type ResponseMessage, type PartialMessageInfo, type Event,
} from 'vscode-languageserver/node';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPosition = (p: unknown) => isObject(p) && Number.isInteger(p.line) && Number.isInteger(p.character);
const isRange = (r: unknown) => isObject(r) && isPosition(r.start) && isPosition(r.end);

/** What is wrong with a request's params, or undefined when the library and the handlers can read them. */
export function paramsProblem(method: string, params: unknown): string | undefined {
  if (method === 'shutdown') return undefined;
  if (!isObject(params)) {
    // Requests the server does not implement are answered MethodNotFound by the library, whatever their params.
    return KNOWN.has(method) ? `${method} needs an object as its params` : undefined;
  }
  if (method === 'initialize') {
    if (!isObject(params.capabilities)) return 'initialize needs params.capabilities (an object)';
    return undefined;
  }
  if (method.startsWith('textDocument/')) {
    const td = params.textDocument;
    if (!isObject(td) || typeof td.uri !== 'string') return `${method} needs params.textDocument.uri (a string)`;
    if ((method === 'textDocument/hover' || method === 'textDocument/completion') && !isPosition(params.position)) {
      return `${method} needs params.position ({ line, character }, whole numbers)`;
    }
    if (method === 'textDocument/codeAction') {
      if (!isRange(params.range)) return 'textDocument/codeAction needs params.range';
      if (!isObject(params.context) || !Array.isArray(params.context.diagnostics)) return 'textDocument/codeAction needs params.context.diagnostics (an array)';
    }
  }
  return undefined;
}
const KNOWN = new Set(['initialize', 'textDocument/hover', 'textDocument/completion', 'textDocument/codeAction', 'skewguard/resolvedConfig']);

/** Wraps a reader: requests with params the library cannot read are answered here with InvalidParams. */
export class ParamsCheckedReader implements MessageReader {
  constructor(private readonly inner: MessageReader, private readonly writer: MessageWriter) {}
  get onError(): Event<Error> { return this.inner.onError; }
  get onClose(): Event<void> { return this.inner.onClose; }
  get onPartialMessage(): Event<PartialMessageInfo> { return this.inner.onPartialMessage; }
  listen(callback: DataCallback): Disposable {
    return this.inner.listen((msg: Message) => {
      const req = msg as RequestMessage;
      if (typeof req.method === 'string' && req.id !== undefined && req.id !== null) {
        const problem = paramsProblem(req.method, req.params);
        if (problem) {
          const answer: ResponseMessage = { jsonrpc: '2.0', id: req.id, error: { code: ErrorCodes.InvalidParams, message: problem } };
          void this.writer.write(answer);
          return;
        }
      }
      callback(msg);
    });
  }
  dispose(): void { this.inner.dispose(); }
}
