// The configuration and bootstrap files as the workspace reads them (server/workspace.ts): a .skewguard.yaml's text,
// bounded, or why it cannot be used; a file's text on disk to compare an open buffer with; what is said of unsaved changes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFileUpTo, readTextUpTo } from '../shared/bounded-read';

/** Most bytes of a .skewguard.yaml that are read (a configuration is a few lines). */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * A config file's text (an open buffer wins), or why it cannot be used: not a regular file, unreadable, too large,
 * binary. undefined: there is no such file.
 */
export function readConfigText(p: string, open?: string): { text: string } | { problem: string } | undefined {
  const name = path.basename(p);
  let text = open;
  if (text === undefined) {
    let st: fs.Stats;
    try { st = fs.statSync(p); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : { problem: `cannot read ${name}: ${(e as Error).message}` };
    }
    if (st.isDirectory()) return { problem: `cannot read ${name}: EISDIR: it is a directory, not a configuration file` };
    // A FIFO or a device would block the read or never end.
    if (!st.isFile()) return { problem: `cannot read ${name}: it is not a regular file` };
    if (st.size > CONFIG_MAX_BYTES) return { problem: `${name} is ${st.size} bytes; a configuration is read only up to ${CONFIG_MAX_BYTES} bytes (1 MiB), so it is not used` };
    const r = readFileUpTo(p, CONFIG_MAX_BYTES);
    if ('over' in r) return { problem: `${name} reads more than ${CONFIG_MAX_BYTES} bytes (its size says ${st.size}); a configuration is read only up to ${CONFIG_MAX_BYTES} bytes (1 MiB), so it is not used` };
    if (!('bytes' in r)) return { problem: `cannot read ${name}: ${r.notFile ? `it is ${r.notFile}, not a regular file` : r.message}` };
    text = r.bytes.toString('utf8');
  }
  if (text.length > CONFIG_MAX_BYTES) return { problem: `${name} is ${text.length} characters; a configuration is read only up to ${CONFIG_MAX_BYTES} (1 MiB), so it is not used` };
  if (text.includes('\u0000')) return { problem: `${name} is a binary file (it holds NUL bytes), not YAML; it is not used` };
  return { text };
}

/** What the hover and the status item say of an open configuration or bootstrap file with unsaved changes (unsavedSaid). */
export function unsavedText(p: string, root: string | undefined, what: 'configuration' | 'bootstrap file'): string {
  const rel = (root && path.relative(root, p).split(path.sep).join('/')) || path.basename(p);
  return `Unsaved changes to ${rel} are not applied until it is saved: this file is checked with the saved ${what}, as lsp-lint checks it.`;
}

/** A configuration file's text on disk (undefined: missing or not usable), to compare an open buffer with. */
export function readConfigDisk(p: string): string | undefined {
  const r = readConfigText(p);
  return r && 'text' in r ? r.text : undefined;
}

/** A text without its byte order mark: editors and lsp-lint hand over the text without it, the disk may have one. */
export const withoutBom = (t: string | undefined) => t?.replace(/^\uFEFF/, '');

/** A file's text on disk, or undefined when it is missing, unreadable or too large to be a config. */
export function readDisk(file: string): string | undefined {
  return readTextUpTo(file, 512 * 1024);
}
