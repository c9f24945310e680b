// Which paths the server may read besides the documents it is sent: those in the checked roots (the workspace
// folders, and the paths the user named outside them: lsp-lint's arguments). A Kustomize entry, a chart's
// dependency or a .skewguard.yaml kubernetes.crds entry outside them is never read, listed or looked at (so a report
// never tells whoever reads it which files exist on the machine): it is said as "outside the workspace, not read".
// A path is inside when it is so both as written and through its links (a link in the workspace to ~/.ssh is not).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../shared/within';

const within = isWithin;

export class CheckedRoots {
  private reals = new Map<string, string>();
  constructor(private readonly roots: () => readonly string[], private readonly extra: readonly string[] = []) {}

  private real(p: string): string {
    let r = this.reals.get(p);
    if (r === undefined) {
      try { r = fs.realpathSync(p); } catch { r = p; }
      if (this.reals.size > 20_000) this.reals.clear();
      this.reals.set(p, r);
    }
    return r;
  }

  /** Whether `p` may be read. With no root at all (a single file opened without a folder) every path may. */
  inside(p: string): boolean {
    const roots = [...this.roots(), ...this.extra];
    if (!roots.length) return true;
    const abs = path.resolve(p);
    if (!roots.some((r) => within(abs, path.resolve(r)))) return false;
    // Through its links (a missing path: as written, its existing parent through links).
    let probe = abs;
    while (probe !== path.dirname(probe)) {
      const r = this.real(probe);
      if (r !== probe || fs.existsSync(probe)) {
        const real = path.join(r, path.relative(probe, abs));
        return roots.some((root) => within(real, this.real(path.resolve(root))));
      }
      probe = path.dirname(probe);
    }
    return true;
  }

  /** Links may have changed (a watched-file change): resolve them again. */
  invalidate(): void { this.reals.clear(); }
}
