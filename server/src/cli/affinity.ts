// lsp-lint's queue of files with affinity: files that share work in a server go to the same server, as a group.
// - A Helm chart is loaded, and every one of its templates rendered at every step, by each server that checks one of
//   its files (the dead-branch rule needs the branches of all of them): handing files out one by one sent the files of
//   every chart to every server, and each chart was rendered once per server. The files of one chart (the outermost
//   folder with a Chart.yaml among the files, since a vendored subchart renders with its parent) are one group.
// - Every other file's window and configuration are worked out per folder (the nearest .skewguard.yaml, the bootstrap
//   file a window is read from, the folder's neighbours): handed out one by one, the files of a folder went to every
//   server, and each server worked the folder out again. The other files of one folder are one group.
// A server that has nothing left takes over the rest of a group another server is still working through (a chart's
// when it is large, so one big chart does not leave the other servers idle; a folder's from two files left), so the
// servers finish together and a run over a few files of one folder still uses every server.
import * as path from 'node:path';

/** A chart's group this large (files left) is shared with an idle server rather than left to one. */
const SHARE_FROM = 16;
/** A folder's group is shared from two files left: its per-folder work is cheap next to a chart's renders. */
const SHARE_FOLDER_FROM = 2;

interface Group { files: string[]; shareFrom: number }

/** The files in groups, in their order of first appearance: one group per chart, one per folder of the other files. */
export function groupFiles(files: string[]): Group[] {
  const chartDirs = new Set(files.filter((f) => path.basename(f) === 'Chart.yaml').map((f) => path.dirname(f)));
  const chartOf = (f: string): string | undefined => {
    if (!chartDirs.size) return undefined;
    let top: string | undefined;
    for (let d = path.dirname(f), i = 0; i < 64; i++) {
      if (chartDirs.has(d)) top = d;
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    return top;
  };
  const groups = new Map<string, Group>();
  for (const f of files) {
    const chart = chartOf(f);
    // Keys cannot meet: a chart's is its folder with a NUL before it.
    const k = chart !== undefined ? `\0${chart}` : path.dirname(f);
    const g = groups.get(k);
    if (g) g.files.push(f); else groups.set(k, { files: [f], shareFrom: chart !== undefined ? SHARE_FROM : SHARE_FOLDER_FROM });
  }
  return [...groups.values()];
}

export class FileQueue {
  private readonly groups: Group[];
  private readonly current = new Map<object, Group>();
  constructor(files: string[]) { this.groups = groupFiles(files); }

  /** The next file for a server (`slot`): the rest of its group, else the next group, else part of another's. */
  next(slot: object): string | undefined {
    let g = this.current.get(slot);
    if (!g?.files.length) {
      g = this.groups.shift();
      if (!g) {
        let largest: Group | undefined;
        for (const other of this.current.values()) if (other.files.length >= other.shareFrom && (!largest || other.files.length > largest.files.length)) largest = other;
        if (largest) g = { files: largest.files.splice(largest.files.length >> 1), shareFrom: largest.shareFrom };
      }
      if (!g) { this.current.delete(slot); return undefined; }
      this.current.set(slot, g);
    }
    return g.files.shift();
  }

  /** A server that is gone: the rest of its group goes back to the front, for the others. */
  release(slot: object): void {
    const g = this.current.get(slot);
    this.current.delete(slot);
    if (g?.files.length) this.groups.unshift(g);
  }

  /** Every file not handed out yet. */
  rest(): string[] {
    const out = [...this.current.values(), ...this.groups].flatMap((g) => g.files);
    this.current.clear();
    this.groups.length = 0;
    return out;
  }
}
