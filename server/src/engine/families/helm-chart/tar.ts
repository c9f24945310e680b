// A chart's packaged dependency (charts/*.tgz), read in memory: gunzip (node:zlib, bounded output) and a small tar
// reader (ustar, pax `path` records, GNU long names). Never unpacked to disk; regular files only.
import { MAX_FILE_BYTES } from '../../files';
import { nodeZlib } from '../../../shared/lazy-node';

export interface TarEntry { name: string; text: string }
/** An entry that is not read (a link: the tar holds no text for it), said where the archive is reported. */
export interface TarSkipped { name: string; why: string }
export type TarResult = { entries: TarEntry[]; skipped: TarSkipped[] } | { error: string };

/**
 * At most this much unpacked data per archive, and per chart for all its packaged dependencies together (a chart is
 * small; a gzip bomb is refused, not followed): 40 MiB.
 */
export const MAX_UNPACKED = 2 * MAX_FILE_BYTES;
/** At most this much per file in an archive (5 MiB): a bigger one is not read (said, as not checked), not parsed whole. */
export const MAX_ENTRY_BYTES = MAX_FILE_BYTES / 4;
const MAX_ENTRIES = 5000;
const mib = (n: number) => `${Math.round((n / 1048576) * 10) / 10} MiB`;

const str = (b: Uint8Array, start: number, len: number): string => {
  let end = start;
  while (end < start + len && b[end] !== 0) end++;
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8');
};
const octal = (b: Uint8Array, start: number, len: number): number => {
  const s = str(b, start, len).trim();
  return /^[0-7]+$/.test(s) ? parseInt(s, 8) : NaN;
};

/**
 * The entries of a .tgz. `maxUnpacked`: what is left of the caller's budget (a chart's packaged dependencies share
 * MAX_UNPACKED); `unpacked` in the result is what this archive took of it.
 */
export function readTgz(bytes: Uint8Array, maxUnpacked = MAX_UNPACKED): TarResult & { unpacked?: number } {
  let tar: Buffer;
  const limit = Math.max(0, Math.min(maxUnpacked, MAX_UNPACKED));
  try {
    // node:zlib, loaded the first time a .tgz is read rather than at every server start.
    tar = nodeZlib().gunzipSync(bytes, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ERR_WEB_EXTENSION: the web extension's zlib, which unpacks nothing (web/shims/misc.ts) — not the archive's fault.
    return { error: code === 'ERR_BUFFER_TOO_LARGE' || code === 'ERR_OUT_OF_RANGE' ? (limit < MAX_UNPACKED ? `more than the ${mib(limit)} left of the ${mib(MAX_UNPACKED)} a chart's packaged dependencies may unpack to in all` : `more than ${mib(MAX_UNPACKED)} unpacked`) : code === 'ERR_WEB_EXTENSION' ? (e as Error).message : `not a gzip archive (${(e as Error).message})` };
  }
  const entries: TarEntry[] = [];
  const skipped: TarSkipped[] = [];
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const size = octal(h, 124, 12);
    if (Number.isNaN(size)) return { error: `not a tar archive (bad header at byte ${off})` };
    const type = String.fromCharCode(h[156] || 48);
    const magic = str(h, 257, 6);
    let name = str(h, 0, 100);
    if (magic.startsWith('ustar')) { const prefix = str(h, 345, 155); if (prefix) name = `${prefix}/${name}`; }
    const dataStart = off + 512;
    if (dataStart + size > tar.length) return { error: `truncated tar archive (${name})` };
    const data = tar.subarray(dataStart, dataStart + size);
    off = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') { longName = str(data, 0, data.length); continue; }
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'g') continue;
    if (longName !== undefined) { name = longName; longName = undefined; }
    if (type === '1' || type === '2') {
      // A link's target is in the header, not its text: the file it stands for is not read, and that is said.
      const target = str(h, 157, 100);
      if (skipped.length < MAX_ENTRIES) skipped.push({ name: name.replace(/^\.\//, ''), why: `a ${type === '2' ? 'symbolic' : 'hard'} link${target ? ` to ${target}` : ''} in the archive: not read (only regular files are), so it is not checked` });
      continue;
    }
    if (type !== '0' && type !== '\0' && type !== '7') continue; // folders, devices, FIFOs: not chart files
    if (entries.length >= MAX_ENTRIES) return { error: `more than ${MAX_ENTRIES} files` };
    if (size > MAX_ENTRY_BYTES) {
      // Not turned into text nor parsed: said where the archive is reported.
      if (skipped.length < MAX_ENTRIES) skipped.push({ name: name.replace(/^\.\//, ''), why: `${size} bytes, over the ${mib(MAX_ENTRY_BYTES)} limit for a file in a packaged chart: not read, so it is not checked` });
      continue;
    }
    entries.push({ name: name.replace(/^\.\//, ''), text: data.toString('utf8').replace(/^\uFEFF/, '') });
  }
  return { entries, skipped, unpacked: tar.length };
}
