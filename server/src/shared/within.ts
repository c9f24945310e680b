// Whether a path lies inside a folder: the one test for "inside the workspace" (checked roots, the folder walk's
// links, executables on PATH, the ignore: entry a quick fix writes). path.relative gives '..' or '../…' for a path
// outside, but also '..bin' for a folder *named* "..bin" inside: a test on the prefix '..' alone took such a folder for
// outside (its files refused, a program in it run as if it were not the workspace's).
import * as path from 'node:path';

/** `rel` (from path.relative(root, p)) names root itself or a path below it. */
export const relInside = (rel: string): boolean =>
  rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !rel.startsWith('../') && !path.isAbsolute(rel));

/** `p` is `root` or lies below it (both absolute; no links resolved here). */
export const isWithin = (p: string, root: string): boolean => relInside(path.relative(root, p));
