// The engine's FileAccess for the language server: the disk, with the open documents' buffers over it. Reads are
// cached (a chart's 2,000 templates read its Chart.yaml and values.yaml once) until a change: an open document's
// text changing, or the client's didChangeWatchedFiles. Bounded by MAX_FILE_BYTES; reads only, runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OUTSIDE_WORKSPACE, type FileAccess } from '../engine/files';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readFileUpTo, whyNotRead } from '../shared/bounded-read';

const BOUND = 20000;

export class ServerFiles implements FileAccess {
  private texts = new Map<string, string | null>();
  private bytes = new Map<string, Uint8Array | null>();
  private lists = new Map<string, Array<{ name: string; dir: boolean }> | null>();
  /** Why a path that is there was not read or listed (see FileAccess.unreadable). */
  private problems = new Map<string, string>();
  /** Open documents whose buffer a reader got through this access (what was built from them depends on it). */
  private readOpen = new Set<string>();
  private generation = 0;

  constructor(private readonly openTextsOf: () => Map<string, string>) {}
  /** Whether a path lies in the checked roots (the server sets it: the workspace folders and the user's own paths). */
  inside: (p: string) => boolean = () => true;
  outside(p: string): boolean { return !this.inside(p); }
  /** A path outside the checked roots: noted, never touched. */
  private refused(p: string): boolean {
    if (this.inside(p)) return false;
    this.note(p, OUTSIDE_WORKSPACE);
    return true;
  }
  private get openTexts(): Map<string, string> { return this.openTextsOf(); }

  stamp(): number { return this.generation; }

  /** Something may have changed on disk (didChangeWatchedFiles, a workspace change): read everything again. */
  invalidate(): void {
    this.texts.clear(); this.bytes.clear(); this.lists.clear(); this.problems.clear(); this.readOpen.clear();
    this.generation++;
  }

  /**
   * A document was opened with `text`: what was read of it before (if anything) is stale when it differs. A file
   * never read through this access changes no cache (lsp-lint opens thousands of files with their disk text).
   */
  opened(file: string, text: string): void {
    const hit = this.texts.get(file);
    this.texts.delete(file);
    this.problems.delete(file);
    if (hit === undefined) return;
    if (hit === null) this.lists.delete(path.dirname(file));
    if (hit !== text.replace(/^\uFEFF/, '')) this.generation++;
  }

  /** An open document's text changed. */
  edited(before: string | undefined, after: string): void {
    if (before !== after) this.generation++;
  }

  /**
   * A document was closed (`text`: its last buffer): the disk takes over again. Only a buffer some reader got through
   * this access and that differs from the disk changes what was read: lsp-lint opens and closes every file of a
   * chart with its disk text, and a new stamp for each would read and render the chart again for every file.
   */
  closed(file: string, text?: string): void {
    this.texts.delete(file);
    this.problems.delete(file);
    if (!this.readOpen.delete(file)) return;
    if (text !== undefined && this.openTexts.get(file) === undefined && this.read(file) === text.replace(/^\uFEFF/, '')) return;
    this.generation++;
  }

  read(p: string): string | undefined {
    if (this.refused(p)) return undefined;
    const open = this.openTexts.get(p);
    if (open !== undefined) {
      if (this.readOpen.size >= BOUND) { this.readOpen.clear(); this.generation++; }
      this.readOpen.add(p);
      if (open.length <= MAX_FILE_BYTES) return open;
      this.note(p, `over the size limit (an open document of ${open.length} characters; at most ${MAX_FILE_BYTES} bytes are read)`);
      return undefined;
    }
    const hit = this.texts.get(p);
    if (hit !== undefined) return hit ?? undefined;
    const b = this.readBytes(p);
    let t: string | null = null;
    if (b) {
      t = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
      if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    }
    if (this.texts.size >= BOUND) { this.texts.clear(); this.generation++; }
    this.texts.set(p, t);
    return t ?? undefined;
  }

  readBytes(p: string): Uint8Array | undefined {
    if (this.refused(p)) return undefined;
    const hit = this.bytes.get(p);
    if (hit !== undefined) return hit ?? undefined;
    let b: Uint8Array | null = null;
    // Read in bounded chunks whatever stat says (a file stat calls regular may read without end: /proc/self/pagemap).
    const r = readFileUpTo(p, MAX_FILE_BYTES);
    if ('bytes' in r) b = r.bytes;
    else if ('over' in r) this.note(p, whyNotRead(r, MAX_FILE_BYTES));
    else if (r.notFile) { if (r.notFile !== 'a folder') this.note(p, 'not a regular file'); }
    else this.failed(p, Object.assign(new Error(r.message), { code: r.code }), ['ENOENT', 'ENOTDIR']);
    // Texts are kept in `texts`; bytes only for archives (the caller asks readBytes only for those).
    if (this.bytes.size >= 256) this.bytes.clear();
    this.bytes.set(p, b);
    return b ?? undefined;
  }

  list(dir: string): Array<{ name: string; dir: boolean }> | undefined {
    if (this.refused(dir)) return undefined;
    const hit = this.lists.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let out: Array<{ name: string; dir: boolean }> | null = null;
    try {
      out = fs.readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => ({ name: e.name, dir: e.isDirectory() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      // Missing, or a file (read() has it): not a problem of the folder. Anything else is a folder not listed.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.note(dir, `cannot be listed: ${code ?? (e as Error).message}`);
    }
    if (this.lists.size >= BOUND) { this.lists.clear(); this.generation++; }
    this.lists.set(dir, out);
    return out ?? undefined;
  }

  unreadable(p: string): string | undefined {
    if (this.refused(p)) return OUTSIDE_WORKSPACE;
    if (!this.problems.has(p) && !this.bytes.has(p) && !this.lists.has(p)) { this.readBytes(p); this.list(p); }
    return this.problems.get(p);
  }

  private note(p: string, why: string): void {
    if (this.problems.size >= BOUND) this.problems.clear();
    this.problems.set(p, why);
  }

  /** A read that failed: missing (the codes given) is no problem; anything else says why. */
  private failed(p: string, e: unknown, missing: string[]): void {
    const code = (e as NodeJS.ErrnoException).code;
    if (!code || !missing.includes(code)) this.note(p, `unreadable: ${code ?? (e as Error).message}`);
  }
}
