// A chart's packaged dependency (charts/*.tgz), read in memory: gunzip (node:zlib, bounded output) and a small tar
// reader (ustar, pax `path` records, GNU long names). Never unpacked to disk; regular files only.
import { MAX_FILE_BYTES } from '../../files';
import { nodeZlib } from '../../../shared/lazy-node';

export interface TarEntry { name: string; text: string }
/** An entry that is not read (a link: the tar holds no text for it), said where the archive is reported. */
export interface TarSkipped { name: string; why: string }
export type TarResult = { entries: TarEntry[]; skipped: TarSkipped[] } | { error: string };

/** At most this much unpacked data per archive (a chart is small; a gzip bomb is refused, not followed). */
export const MAX_UNPACKED = 8 * MAX_FILE_BYTES;
const MAX_ENTRIES = 5000;

const str = (b: Uint8Array, start: number, len: number): string => {
  let end = start;
  while (end < start + len && b[end] !== 0) end++;
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8');
};
const octal = (b: Uint8Array, start: number, len: number): number => {
  const s = str(b, start, len).trim();
  return /^[0-7]+$/.test(s) ? parseInt(s, 8) : NaN;
};

export function readTgz(bytes: Uint8Array): TarResult {
  let tar: Buffer;
  try {
    // node:zlib, loaded the first time a .tgz is read rather than at every server start.
    tar = nodeZlib().gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ERR_WEB_EXTENSION: the web extension's zlib, which unpacks nothing (web/shims/misc.ts) — not the archive's fault.
    return { error: code === 'ERR_BUFFER_TOO_LARGE' ? `more than ${MAX_UNPACKED / 1048576} MB unpacked` : code === 'ERR_WEB_EXTENSION' ? (e as Error).message : `not a gzip archive (${(e as Error).message})` };
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
    entries.push({ name: name.replace(/^\.\//, ''), text: data.toString('utf8').replace(/^\uFEFF/, '') });
  }
  return { entries, skipped };
}
