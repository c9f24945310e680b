// What the containerd rules share: where a file-level finding goes, and how minors are named.
import type { ContainerdContext } from '../index';
import { minorsText } from '../index';
import type { ContainerdRelease } from '../data';

/** A file-level finding sits on `version = …`, else on the file's first character (there is nothing else to point at). */
export function fileAnchor(ctx: ContainerdContext): { start: number; end: number } {
  const v = ctx.versionEntry;
  if (v) return { start: v.keyRange.start, end: v.valueRange.end };
  const bom = ctx.toml.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { start: bom, end: bom };
}

export const releasesText = (ctx: ContainerdContext, rs: ContainerdRelease[]): string => `containerd ${minorsText(rs.map((r) => r.minor), ctx.minors)}`;
