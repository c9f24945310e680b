// lsp-lint's queue of files with chart affinity. A Helm chart is loaded, and every one of its templates rendered at
// every step, by each server that checks one of its files (the dead-branch rule needs the branches of all of them):
// handing files out one by one sent the files of every chart to every server, and each chart was rendered once per
// server. Here the files of one chart (the outermost folder with a Chart.yaml among the files, since a vendored
// subchart renders with its parent) go to one server, as a group; other files are groups of one. A server that has
// nothing left takes over the rest of a large group another server is still working through, so one big chart does
// not leave the other servers idle.
import * as path from 'node:path';

/** A group this large (files left) is shared with an idle server rather than left to one. */
const SHARE_FROM = 16;

/** The files in groups, in their order: one group per chart, one per other file. */
export function groupByChart(files: string[]): string[][] {
  const chartDirs = new Set(files.filter((f) => path.basename(f) === 'Chart.yaml').map((f) => path.dirname(f)));
  const keyOf = (f: string): string => {
    if (!chartDirs.size) return f;
    let top: string | undefined;
    for (let d = path.dirname(f), i = 0; i < 64; i++) {
      if (chartDirs.has(d)) top = d;
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    return top ?? f;
  };
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const k = keyOf(f);
    const g = groups.get(k);
    if (g) g.push(f); else groups.set(k, [f]);
  }
  return [...groups.values()];
}

export class FileQueue {
  private readonly groups: string[][];
  private readonly current = new Map<object, string[]>();
  constructor(files: string[]) { this.groups = groupByChart(files); }

  /** The next file for a server (`slot`): the rest of its group, else the next group, else part of a large one. */
  next(slot: object): string | undefined {
    let g = this.current.get(slot);
    if (!g?.length) {
      g = this.groups.shift();
      if (!g) {
        let largest: string[] | undefined;
        for (const other of this.current.values()) if (other.length >= SHARE_FROM && (!largest || other.length > largest.length)) largest = other;
        if (largest) g = largest.splice(largest.length >> 1);
      }
      if (!g) { this.current.delete(slot); return undefined; }
      this.current.set(slot, g);
    }
    return g.shift();
  }

  /** A server that is gone: the rest of its group goes back to the front, for the others. */
  release(slot: object): void {
    const g = this.current.get(slot);
    this.current.delete(slot);
    if (g?.length) this.groups.unshift(g);
  }

  /** Every file not handed out yet. */
  rest(): string[] {
    const out = [...this.current.values(), ...this.groups].flat();
    this.current.clear();
    this.groups.length = 0;
    return out;
  }
}
