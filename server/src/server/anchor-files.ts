// Which bootstrap file (the workspace's anchor: workspaceFacts.isAnchorName) a file's default window is read from
// (server/workspace.ts): the choice among one folder's, the note when several competed, and the bounded search below a
// workspace root. The anchor's family says its names' order (anchorRank) and how a user chooses (anchorChoiceHint).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_SKIPPED_FOLDERS } from '../shared/names';
import { workspaceFacts } from '../engine/families/registry';

const { isAnchorName, anchorRank, anchorChoiceHint } = workspaceFacts;

const SKIP_DIRS = new Set([...ALWAYS_SKIPPED_FOLDERS, 'dist', 'out', '.vscode-test', 'vendor']);

/** The bootstrap file chosen for a file's window, and the bootstrap files it was chosen among (one folder's). */
export interface AnchorChoice { file: string; among: string[] }

/**
 * The order in which bootstrap files of one folder are chosen: by the anchor family's rank, then by name (code-unit
 * order, the same on every machine and locale).
 */
export function anchorOrder(a: string, b: string): number {
  return anchorRank(a) - anchorRank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

export function chooseAnchor(dir: string, names: string[]): AnchorChoice {
  const sorted = [...names].sort(anchorOrder);
  return { file: path.join(dir, sorted[0]), among: sorted.map((n) => path.join(dir, n)) };
}

/** Several bootstrap files competed: which one sets the window, and how to choose another way. */
export function competitionNote(c: AnchorChoice, root: string): string | undefined {
  if (c.among.length < 2) return undefined;
  const folder = path.relative(root, path.dirname(c.file)).split(path.sep).join('/');
  return `${c.among.length} bootstrap files in ${folder ? `${folder}/` : 'the workspace folder'}: using ${path.basename(c.file)}; ${anchorChoiceHint}`;
}

/**
 * Breadth-first search on disk for a bootstrap file, a few levels deep: the first folder (by name, per level) that
 * holds one, and in it the first by anchorOrder.
 */
export function findAnchor(root: string, maxDepth = 3): AnchorChoice | undefined {
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: fs.Dirent[];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { continue; }
      const anchors = entries.filter((e) => e.isFile() && isAnchorName(e.name));
      if (anchors.length) return chooseAnchor(dir, anchors.map((e) => e.name));
      // Code-unit order, as chooseAnchor's (localeCompare's order depends on the locale, and its first call costs ~10 ms).
      const dirs = entries.filter((e) => e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')).map((e) => e.name).sort();
      for (const n of dirs) next.push(path.join(dir, n));
    }
    level = next.slice(0, 500);
  }
  return undefined;
}
