// The pending write of a V8 code cache (shared/code-cache.ts), across bundles: dist/server.js registers it while
// loading dist/server-main.js, and the server calls it when it is asked to shut down, because lsp-lint kills the
// server once shutdown is answered instead of waiting for node's orderly exit. The write happens once, whichever of
// shutdown and the process's exit comes first.
const PENDING = Symbol.for('skewguard.code-cache.pending-write');
type Holder = { [PENDING]?: () => void };

/** Registers the write (code-cache.ts); it runs at most once. */
export function setPendingCacheWrite(write: () => void): void {
  let done = false;
  (globalThis as Holder)[PENDING] = () => { if (done) return; done = true; write(); };
}

/** Writes the code cache now if one is pending (the server's shutdown); a no-op otherwise. Never throws. */
export function writePendingCodeCache(): void {
  try { (globalThis as Holder)[PENDING]?.(); } catch { /* no cache then: the next start compiles again */ }
}
