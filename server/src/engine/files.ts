// Family-neutral read access to the files around the analysed one (a Helm chart's Chart.yaml, values.yaml, other
// templates, its charts/*.tgz). The engine stays pure: the caller (the language server: the disk with the open
// documents over it) implements it; without it, a family that needs other files says so at a position.
import { MAX_FILE_BYTES } from '../shared/limits';

export interface FileAccess {
  /** A file's text (an open document's buffer wins over the disk); undefined when missing, unreadable or over MAX_FILE_BYTES. */
  read(absPath: string): string | undefined;
  /** A file's bytes (for archives); undefined when missing, unreadable or over MAX_FILE_BYTES. */
  readBytes(absPath: string): Uint8Array | undefined;
  /** A folder's entries, sorted by name; undefined when it is missing or unreadable (`unreadable` tells which). */
  list(absDir: string): Array<{ name: string; dir: boolean }> | undefined;
  /**
   * Why a file or folder that is there gave undefined from `read`/`readBytes`/`list`: over MAX_FILE_BYTES, not a
   * regular file, a folder that cannot be listed (EACCES, ELOOP …). Undefined when it is missing, or was read. An
   * access without it cannot tell a missing path from an unreadable one, and callers then say "missing or unreadable".
   */
  unreadable?(absPath: string): string | undefined;
  /**
   * True for a path outside the checked roots (the workspace folders, and what the user named outside them): it is
   * never read, listed nor looked at (whether it exists is not found out either); `read`/`list` give undefined and
   * `unreadable` says "outside the workspace, not read". Absent: every path may be read.
   */
  outside?(absPath: string): boolean;
  /** Changes whenever a file read through this access may have changed: caches of what was read key on it. */
  stamp?(): number;
}

export { MAX_FILE_BYTES };

/** What FileAccess.unreadable says of a path outside the checked roots. */
export const OUTSIDE_WORKSPACE = 'outside the workspace, not read';
