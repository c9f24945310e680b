// Which paths the server may read besides the documents it is sent: those in the checked roots (the workspace
// folders, and the paths the user named outside them: lsp-lint's arguments). A Kustomize entry, a chart's
// dependency or a file a .skewguard.yaml entry names (its CRDs, OpenAPI documents) outside them is never read, listed
// or looked at (so a report never tells whoever reads it which files exist on the machine): it is said as "outside the
// workspace, not read".
// A path is inside when it is so both as written and through its links (a link in the workspace to ~/.ssh is not).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../shared/within';

const within = isWithin;

export class CheckedRoots {
  /**
   * Real paths found, per path: only of paths that exist (a realpath that succeeded). A lookup that failed (a path
   * not there yet) is never kept, so a file created later is looked up again rather than judged as it was written;
   * the paths found are dropped on every watched-file batch (invalidate), when links may have changed.
   */
  private reals = new Map<string, string>();
  constructor(private readonly roots: () => readonly string[], private readonly extra: readonly string[] = []) {}

  private real(p: string): string | undefined {
    const hit = this.reals.get(p);
    if (hit !== undefined) return hit;
    let r: string;
    try { r = fs.realpathSync(p); } catch { return undefined; }
    if (this.reals.size >= 20_000) this.reals.clear();
    this.reals.set(p, r);
    return r;
  }

  /** Whether `p` may be read. With no root at all (a single file opened without a folder) every path may. */
  inside(p: string): boolean {
    const roots = [...this.roots(), ...this.extra];
    if (!roots.length) return true;
    const abs = path.resolve(p);
    if (!roots.some((r) => within(abs, path.resolve(r)))) return false;
    // Through its links (a missing path: its nearest existing parent through links, and the rest as written). A path
    // whose realpath is known exists: no other call to the file system is made for it.
    for (let probe = abs; ; ) {
      const r = this.real(probe);
      if (r !== undefined) {
        const real = path.join(r, path.relative(probe, abs));
        return roots.some((root) => { const at = path.resolve(root); return within(real, this.real(at) ?? at); });
      }
      const up = path.dirname(probe);
      if (up === probe) return true;
      probe = up;
    }
  }

  /** Links may have changed (a watched-file change): resolve them again. */
  invalidate(): void { this.reals.clear(); }
}
