// What a file's analysis may read of the files around it (NeighbourFacts): its folder's static pods and the
// families' facts and indexes of its workspace root (FamilyModule.rootFactProducers), each made on first use with the
// server's bounded walk and saved-file reads, kept until the workspace changes. Reads files; runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LoadedConfig, WorkspaceFacts } from '../engine/config';
import { workspaceFacts, rootFactProducers, type NeighbourFacts } from '../engine/families/registry';
import type { RootFactProducer, RootIndex, RootIndexProducer, WorkspaceHost } from '../engine/families/types';
import { memoIn } from '../engine/memo';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readFileUpTo, readTextUpTo, whyNotRead } from '../shared/bounded-read';
import { walkFolders, unreadableNote } from './walk';
import { isWithin } from '../shared/within';

/** What the root facts read of the workspace (WorkspaceState): roots, configurations, open buffers, the bootstrap file. */
export interface RootFactsWorkspace {
  rootFor(file: string): string | undefined;
  configFor(file: string): LoadedConfig | undefined;
  factsFor(file: string): WorkspaceFacts;
  ignored(file: string): boolean;
  inside(file: string): boolean;
  readonly openTexts: ReadonlyMap<string, string>;
}

/** Roots whose indexes are kept at most (a file outside the workspace folders has its folder as its root). */
const MAX_INDEXED_ROOTS = 256;

export class RootFacts {
  constructor(private readonly ws: RootFactsWorkspace) {}

  /** Per folder: the kube-* static pods read there (on disk). */
  private folders = new Map<string, NonNullable<NeighbourFacts['staticPods']>>();
  /** Per producer key, per root: a family's root fact. */
  private facts = new Map<string, Map<string, unknown>>();
  /** Per producer key, per root: a family's root index. */
  private indexes = new Map<string, Map<string, RootIndex<unknown>>>();

  /** The configuration changed: facts are gathered again; the indexes keep their scans (forgetConfig) or are dropped. */
  invalidate(): void {
    this.folders.clear(); this.facts.clear();
    for (const byRoot of this.indexes.values()) for (const [root, idx] of [...byRoot]) { if (idx.forgetConfig) idx.forgetConfig(); else byRoot.delete(root); }
  }

  /** Everything read from the disk is in doubt (watched files, trust, settings): the root indexes are walked again too. */
  invalidateAll(): void { this.folders.clear(); this.facts.clear(); this.indexes.clear(); }

  invalidateFolder(dir: string): void { this.folders.delete(dir); }

  /** Whether the folder's static pods were read (only then can a file there make them stale). */
  hasFolderFacts(dir: string): boolean { return this.folders.has(dir); }

  /**
   * The root facts' parts of the resolved configuration that `asked` asks for (RootIndexProducer.printConfig: the
   * operator versions the workspace pins, for --print-config), of the root of `folder` (or `folder` itself).
   */
  describe(folder: string, asked: (name: string) => boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of rootFactProducers) {
      if (!('index' in p) || !p.printConfig || !asked(p.printConfig)) continue;
      const idx = this.index(p, this.ws.rootFor(folder) ?? folder);
      if (idx.describe) out[p.printConfig] = idx.describe();
    }
    return out;
  }

  /**
   * A file changed, was created or was deleted on disk: each root index built for a root holding it reads that file
   * again (RootIndex.changed). Whether a root's fact changed: then the files are checked again.
   */
  changed(file: string): boolean {
    let any = false;
    for (const byRoot of this.indexes.values()) {
      for (const [root, idx] of byRoot) {
        if (!isWithin(file, root)) continue;
        // Every index is told (no short cut): each keeps its own scans up to date.
        if (idx.changed(file)) any = true;
      }
    }
    return any;
  }

  /**
   * An open document's text changed (open, edit, close: `text` undefined, the disk's): the root indexes that follow
   * open buffers (RootIndex.edited) are told. Whether a root's fact changed (then the other files are checked again).
   * `before`: the text the workspace saw until now, when known (a closed buffer's).
   */
  edited(file: string, text: string | undefined, before?: string): boolean {
    let any = false;
    for (const byRoot of this.indexes.values()) {
      for (const [root, idx] of byRoot) if (idx.edited && isWithin(file, root) && idx.edited(file, text, before)) any = true;
    }
    return any;
  }

  /** The folder's facts of its other files (workspaceFacts.folderFacts, as saved), the bootstrap file's facts, the families' root facts. */
  neighboursFor(file: string): NeighbourFacts {
    const dir = path.dirname(file);
    const pods = memoIn(this.folders, dir, () => {
      const found: NonNullable<NeighbourFacts['staticPods']> = [];
      let names: string[] = [];
      try { names = fs.readdirSync(dir).filter((n) => /\.(ya?ml|json)$/i.test(n)).sort().slice(0, 200); } catch { /* unreadable */ }
      for (const n of names) {
        const p = path.join(dir, n);
        // On disk only (issue #27 item 1): an open, unsaved static pod is no fact for its folder's other files until saved.
        const text = readTextUpTo(p, 512 * 1024);
        if (text === undefined) continue;
        for (const f of workspaceFacts.folderFacts(text)) found.push({ file: p, ...f });
      }
      return found;
    });
    const out: NeighbourFacts = { staticPods: pods.filter((p) => p.file !== file), localhost: this.ws.factsFor(file).localhost };
    for (const p of rootFactProducers) if ('produce' in p) Object.assign(out, { [p.key]: this.fact(p, file) });
    return out;
  }

  /** neighboursFor, computed only when a rule asks (the folder is read once). */
  lazyFor(file: string): NeighbourFacts {
    return new LazyNeighbours(this, file) as unknown as NeighbourFacts;
  }

  /**
   * A family's fact of the file's workspace root (FamilyModule.rootFactProducers: the containerd configs' runtimes, the
   * node's Kata chain …), produced with the server's bounded walk and saved-file reads on first use, kept per root
   * until the workspace changes. Files on disk only, as saved (issue #27 item 1): a fact of other files must not depend
   * on what is open. A root index (RootIndexProducer) gives its fact for `key` (its own or one of `also`); only one that
   * follows open buffers (the host's openText: the CRD index) reads them.
   */
  fact(p: RootFactProducer, file: string, key: keyof NeighbourFacts = p.key): unknown {
    const root = this.ws.rootFor(file) ?? path.dirname(file);
    if ('index' in p) return this.index(p, root).fact(file, key);
    const byRoot = memoIn(this.facts, p.key, () => new Map<string, unknown>());
    return memoIn(byRoot, root, () => p.produce(root, this.host), 16);
  }

  /**
   * A root index (RootIndexProducer: the operator versions the workspace pins, the GitOps deployments of its charts …)
   * of `root`, made on first use (it reads nothing until asked) and kept, updated file by file (changed), until
   * everything read from the disk is in doubt (invalidateAll).
   */
  index(p: RootIndexProducer, root: string): RootIndex<unknown> {
    const byRoot = memoIn(this.indexes, p.key, () => new Map<string, RootIndex<unknown>>());
    return memoIn(byRoot, root, () => p.index(root, this.host), MAX_INDEXED_ROOTS);
  }

  /** What a family's root fact may use: the bounded walk, the saved text of a file, the ignore: lists, a file's configuration. */
  private readonly host: WorkspaceHost = {
    walk: walkFolders,
    unreadableNote,
    readSaved: (p, maxBytes) => readTextUpTo(p, Math.min(maxBytes, MAX_FILE_BYTES)),
    stamp: (p) => { const l = this.host.look(p); return 'kind' in l && l.kind === 'file' ? l.stamp : undefined; },
    ignored: (p) => this.ws.ignored(p),
    configOf: (p) => this.ws.configFor(p),
    openText: (p) => this.ws.openTexts.get(p),
    openFiles: () => this.ws.openTexts.keys(),
    inside: (p) => this.ws.inside(p),
    look: (p, opts) => {
      try {
        const st = opts?.noFollow ? fs.lstatSync(p) : fs.statSync(p);
        const kind = st.isFile() ? 'file' : st.isDirectory() ? 'folder' : st.isSymbolicLink() ? 'link' : 'other';
        return { kind, size: st.size, stamp: `${st.size}:${st.mtimeMs}:${st.ino}` };
      } catch (e) { return { error: (e as NodeJS.ErrnoException).code ?? (e as Error).message }; }
    },
    readBytes: (p, maxBytes) => {
      const limit = Math.min(maxBytes, MAX_FILE_BYTES);
      const r = readFileUpTo(p, limit);
      if ('bytes' in r) return { bytes: r.bytes };
      return 'over' in r ? { over: whyNotRead(r, limit) } : { error: r.code ?? r.notFile ?? r.message };
    },
  };
}

/**
 * A file's neighbour facts, each worked out when first read: the folder's (staticPods, localhost: neighboursFor, once)
 * and the families' root facts (an index's other keys too: RootIndexProducer.also). The getters are the prototype's,
 * defined once, not per file (an object of three private fields per analysed file).
 */
class LazyNeighbours {
  // Private (#): no fact's key can collide with them.
  readonly #facts: RootFacts;
  readonly #file: string;
  #got?: NeighbourFacts;
  constructor(facts: RootFacts, file: string) { this.#facts = facts; this.#file = file; }
  #all(): NeighbourFacts { return (this.#got ??= this.#facts.neighboursFor(this.#file)); }
  get staticPods() { return this.#all().staticPods; }
  get localhost() { return this.#all().localhost; }
  static {
    for (const p of rootFactProducers) {
      for (const key of [p.key, ...('index' in p ? p.also ?? [] : [])]) {
        Object.defineProperty(LazyNeighbours.prototype, key, { get(this: LazyNeighbours) { return this.#facts.fact(p, this.#file, key); }, enumerable: true });
      }
    }
  }
}
