// A full garbage collection the editor's server asks for after a big file is closed (document-sync.ts). V8 otherwise
// grows its heap for the next big file instead of first collecting what the closed one left: a server that opened one
// 12 MB bundle after another peaked 150 MB higher on the second than on the first. The editor's server sets
// --expose-gc at initialize (main.ts tuneHeapForEditor, with its heap tuning); `gc` is taken from a new context made
// then, on first use. Where there is none (lsp-lint's server, the web build) nothing is done.
import * as vm from 'node:vm';

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      const g: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null');
      collect = typeof g === 'function' ? (g as () => void) : null;
    } catch { collect = null; }
  }
  collect?.();
}
