// A path below a value as a link to its parent's path ({ up, seg }): a walk that goes into every value of a big
// object makes one small object per value instead of a copy of the whole path, and an array only for what it reports.

export type PathLink = { readonly up: PathLink; readonly seg: string | number } | null;

/** The link of a path given as segments (outermost first). */
export function linkOf(segs: ReadonlyArray<string | number>): PathLink {
  let p: PathLink = null;
  for (const seg of segs) p = { up: p, seg };
  return p;
}

/** A path's segments, outermost first (a new array). */
export function pathSegments(p: PathLink): Array<string | number> {
  const segs: Array<string | number> = [];
  for (let q = p; q; q = q.up) segs.push(q.seg);
  return segs.reverse();
}
