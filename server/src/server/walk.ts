// The server's bounded workspace walks (containerd configs, the node's Kata chain, CustomResourceDefinitions): one
// breadth-first walk, hidden and always-skipped folders left out, bounded in folders, stoppable by the caller. A
// folder that cannot be listed is returned with why, never passed over as if it were empty.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_SKIPPED_FOLDERS } from '../shared/names';

export interface WalkResult {
  /** Folders listed. */
  folders: number;
  /** The walk ended before every folder was listed (the folder bound, or `onFile` asked it to stop). */
  stopped: boolean;
  /** Folders that could not be listed, relative to the root, with the error code. */
  unreadable: string[];
}

/** Walks `root`; `onFile(path, name)` returns false to stop the walk. `sorted`: entries in name order. */
export function walkFolders(root: string, opts: { maxFolders: number; onFile: (p: string, name: string) => boolean | void; sorted?: boolean }): WalkResult {
  const queue = [root];
  const unreadable: string[] = [];
  let folders = 0;
  while (queue.length && folders < opts.maxFolders) {
    const dir = queue.shift()!;
    folders++;
    let ents: fs.Dirent[];
    try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) {
      unreadable.push(`${path.relative(root, dir) || '.'} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      continue;
    }
    if (opts.sorted) ents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of ents) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) { if (!d.name.startsWith('.') && !ALWAYS_SKIPPED_FOLDERS.includes(d.name)) queue.push(p); continue; }
      if (d.isFile() && opts.onFile(p, d.name) === false) return { folders, stopped: true, unreadable };
    }
  }
  return { folders, stopped: queue.length > 0, unreadable };
}

/** "the folders a, b could not be listed" for a walk's unreadable folders (at most five named). */
export const unreadableNote = (what: string, u: string[]): string[] =>
  u.length ? [`${what}: ${u.length} folder${u.length === 1 ? '' : 's'} could not be listed (${u.slice(0, 5).join(', ')}${u.length > 5 ? ', …' : ''})`] : [];
