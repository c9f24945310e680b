// File-system facts the server needs around a document: the nearest .skewguard.yaml and a StarlingX
// localhost.yml in the workspace (whose Kubernetes path sets the window for manifests). Reads files; runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isConfigFileName } from '../shared/names';
import { CONFIG_FILENAMES, parseConfig, type LoadedConfig, type WorkspaceFacts } from '../engine/config';
import { workspaceFacts, workspaceFactProducers, rootFactProducers, type NeighbourFacts } from '../engine/families/registry';
import type { WorkspaceFactInput, RootFactProducer, RootIndex, RootIndexProducer, WorkspaceHost } from '../engine/families/types';
import { ruleIds } from '../engine/rules';
import { memoIn } from '../engine/memo';
import { parseYaml } from '../engine/parse/yaml';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readFileUpTo, readTextUpTo, whyNotRead } from '../shared/bounded-read';
import { walkFolders, unreadableNote } from './walk';
import { readConfigText, readConfigDisk, readDisk, unsavedText, withoutBom } from './config-files';
import { anchorOrder, chooseAnchor, competitionNote, findLocalhost, type AnchorChoice } from './anchor-files';
import { isWithin } from '../shared/within';
import type { FamilyServerService } from './family-service';

const { isAnchorName } = workspaceFacts;

export class WorkspaceState {
  private configCache = new Map<string, LoadedConfig | null>();
  /** Per folder: the nearest config file's path, or null (saves a stat per folder level for every file). */
  private configPathCache = new Map<string, string | null>();
  private facts = new Map<string, WorkspaceFacts>();
  /** Per workspace root: the first localhost.yml below it (a bounded walk), or null. */
  private rootLocalhost = new Map<string, AnchorChoice | null>();
  /** The families' server sides (family-service.ts, set at initialize): what they read for a loaded configuration. */
  services: readonly FamilyServerService[] = [];

  /** Texts of open documents: each wins over the disk for its own file (other files' windows and facts read the disk, readSaved). */
  readonly openTexts = new Map<string, string>();

  constructor(public roots: string[], public explicitConfig?: string) {}

  /** Whether a path lies in the checked roots (server/checked-roots.ts, set by the server): one outside is not read on a repository's word. */
  inside: (p: string) => boolean = () => true;

  /**
   * The root facts' parts of the resolved configuration that `asked` asks for (RootIndexProducer.printConfig: the
   * operator versions the workspace pins, for --print-config), of the root of `folder` (or `folder` itself).
   */
  describeRootFacts(folder: string, asked: (name: string) => boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of rootFactProducers) {
      if (!('index' in p) || !p.printConfig || !asked(p.printConfig)) continue;
      const idx = this.rootIndex(p, this.rootFor(folder) ?? folder);
      if (idx.describe) out[p.printConfig] = idx.describe();
    }
    return out;
  }

  /**
   * A file changed, was created or was deleted on disk: each root index built for a root holding it reads that file
   * again (RootIndex.changed). Whether a root's fact changed: then the files are checked again.
   */
  rootIndexesChanged(file: string): boolean {
    let any = false;
    for (const byRoot of this.rootIndexes.values()) {
      for (const [root, idx] of byRoot) {
        if (!isWithin(file, root)) continue;
        // Every index is told (no short cut): each keeps its own scans up to date.
        if (idx.changed(file)) any = true;
      }
    }
    return any;
  }

  /** Whether the ignore: lists leave a file out (set by the server: engine/ignore.ts with the file's configuration). */
  ignored: (file: string) => boolean = () => false;

  /**
   * An open document's text changed (open, edit, close: `text` undefined, the disk's): the root indexes that follow
   * open buffers (RootIndex.edited) are told. Whether a root's fact changed (then the other files are checked again).
   * `before`: the text the workspace saw until now, when known (a closed buffer's).
   */
  rootIndexesEdited(file: string, text: string | undefined, before?: string): boolean {
    let any = false;
    for (const byRoot of this.rootIndexes.values()) {
      for (const [root, idx] of byRoot) if (idx.edited && isWithin(file, root) && idx.edited(file, text, before)) any = true;
    }
    return any;
  }

  private folders = new Map<string, NonNullable<NeighbourFacts['staticPods']>>();

  invalidate(): void {
    this.configCache.clear(); this.configPathCache.clear(); this.facts.clear(); this.folders.clear(); this.rootLocalhost.clear(); this.nearestCache.clear(); this.factsByLocalhost.clear(); this.sameAsDisk.clear(); this.rootFacts.clear(); this.bufferCache.clear(); this.bufferFacts.clear();
    // The root indexes keep their files' scans (no configuration changes them) and gather their facts again; one
    // that cannot (no forgetConfig) is dropped.
    for (const byRoot of this.rootIndexes.values()) for (const [root, idx] of [...byRoot]) { if (idx.forgetConfig) idx.forgetConfig(); else byRoot.delete(root); }
  }

  /** Everything read from the disk is in doubt (watched files, trust, settings): the root indexes are walked again too. */
  invalidateAll(): void { this.invalidate(); this.rootIndexes.clear(); }

  /**
   * Records an open bootstrap buffer's text (undefined: closed) and says whether the text its own analysis sees
   * changed (from the disk's or the buffer's before): opening a file whose buffer equals the disk changes nothing,
   * and neither does closing it again. Other files' facts read the disk (readSaved) and are not affected.
   */
  setOpenText(file: string, text: string | undefined): boolean {
    // Closing a buffer that was opened with the disk's text and never changed: nothing to read or compare.
    if (text === undefined && this.sameAsDisk.delete(file)) { this.openTexts.delete(file); return false; }
    const before = this.openTexts.has(file) ? this.openTexts.get(file) : readDisk(file);
    if (text === undefined) this.openTexts.delete(file); else this.openTexts.set(file, text);
    const after = text ?? readDisk(file);
    const changed = withoutBom(before) !== withoutBom(after);
    if (text !== undefined && !changed) this.sameAsDisk.add(file); else this.sameAsDisk.delete(file);
    return changed;
  }
  /** Open workspace files whose buffer is the disk's text (opened so, not changed since). */
  private sameAsDisk = new Set<string>();
  /** An open buffer changed: it no longer stands for the disk. */
  bufferChanged(file: string): void { this.sameAsDisk.delete(file); }

  invalidateFolder(dir: string): void { this.folders.delete(dir); }

  /** Whether the folder's static pods were read (only then can a file there make them stale). */
  hasFolderFacts(dir: string): boolean { return this.folders.has(dir); }

  /** kube-* static pods in the file's folder (other files, as saved), and the workspace's localhost.yml. */
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
    const out: NeighbourFacts = { staticPods: pods.filter((p) => p.file !== file), localhost: this.factsFor(file).localhost };
    for (const p of rootFactProducers) if ('produce' in p) Object.assign(out, { [p.key]: this.rootFact(p, file) });
    return out;
  }

  /**
   * A family's fact of the file's workspace root (FamilyModule.rootFactProducers: the containerd configs' runtimes, the
   * node's Kata chain …), produced with the server's bounded walk and saved-file reads on first use, kept per root
   * until the workspace changes. Files on disk only, as saved (issue #27 item 1): a fact of other files must not depend
   * on what is open. A root index (RootIndexProducer) gives its fact for `key` (its own or one of `also`); only one that
   * follows open buffers (the host's openText: the CRD index) reads them.
   */
  rootFact(p: RootFactProducer, file: string, key: keyof NeighbourFacts = p.key): unknown {
    const root = this.rootFor(file) ?? path.dirname(file);
    if ('index' in p) return this.rootIndex(p, root).fact(file, key);
    const byRoot = memoIn(this.rootFacts, p.key, () => new Map<string, unknown>());
    return memoIn(byRoot, root, () => p.produce(root, this.host), 16);
  }
  private rootFacts = new Map<string, Map<string, unknown>>();
  /**
   * A root index (RootIndexProducer: the operator versions the workspace pins, the GitOps deployments of its charts …)
   * of `root`, made on first use (it reads nothing until asked) and kept, updated file by file (rootIndexesChanged),
   * until everything read from the disk is in doubt (invalidateAll).
   */
  private rootIndex(p: RootIndexProducer, root: string): RootIndex<unknown> {
    const byRoot = memoIn(this.rootIndexes, p.key, () => new Map<string, RootIndex<unknown>>());
    return memoIn(byRoot, root, () => p.index(root, this.host), MAX_INDEXED_ROOTS);
  }
  private rootIndexes = new Map<string, Map<string, RootIndex<unknown>>>();
  /** What a family's root fact may use: the bounded walk, the saved text of a file, the ignore: lists, a file's configuration. */
  private readonly host: WorkspaceHost = {
    walk: walkFolders,
    unreadableNote,
    readSaved: (p, maxBytes) => readTextUpTo(p, Math.min(maxBytes, MAX_FILE_BYTES)),
    stamp: (p) => { const l = this.host.look(p); return 'kind' in l && l.kind === 'file' ? l.stamp : undefined; },
    ignored: (p) => this.ignored(p),
    configOf: (p) => this.configFor(p),
    openText: (p) => this.openTexts.get(p),
    openFiles: () => this.openTexts.keys(),
    inside: (p) => this.inside(p),
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

  /** neighboursFor, computed only when a rule asks (only Kubernetes manifests do; the folder is read once). */
  lazyNeighboursFor(file: string): NeighbourFacts {
    return new LazyNeighbours(this, file) as unknown as NeighbourFacts;
  }

  rootFor(file: string): string | undefined {
    // file.startsWith(r + sep) without building r + sep (a new string, flattened by startsWith) on every call.
    const under = (r: string) => file === r || (file.startsWith(r) && (r.endsWith(path.sep) || file[r.length] === path.sep));
    // One workspace folder (lsp-lint's case; asked several times per file): no list to build and sort.
    if (this.roots.length === 1) return under(this.roots[0]) ? this.roots[0] : undefined;
    return this.roots.filter(under).sort((a, b) => b.length - a.length)[0];
  }

  /**
   * A file's saved text: what other files' windows and facts are read from (issue #27 item 1: a function of the disk,
   * never of which buffers are open, as in lsp-lint). An open buffer counts only for its own analysis.
   */
  private readSaved(p: string): string | undefined {
    return readTextUpTo(p, MAX_FILE_BYTES);
  }

  /**
   * A configuration file as saved on disk: what sets the windows, rules and ignore: lists of other files. An open
   * buffer of it never does (issue #27 item 1: a file's window is a function of the disk, whatever is open, as in
   * lsp-lint); the buffer is validated on its own (bufferConfig) and its unsaved changes are said (unsavedConfigFor).
   */
  loadConfigFile(p: string): LoadedConfig | null {
    return memoIn(this.configCache, p, () => this.loadConfig(p, undefined));
  }

  /**
   * An open configuration buffer read as the configuration it would be once saved: its own problems (published on
   * it, with its hover and completion) while it is edited. Applied to no file. null: not open.
   */
  bufferConfig(p: string): LoadedConfig | null {
    const text = this.openTexts.get(p);
    if (text === undefined) return null;
    const hit = this.bufferCache.get(p);
    if (hit && hit.text === text) return hit.loaded;
    const loaded = this.loadConfig(p, text);
    if (this.bufferCache.size > 64) this.bufferCache.clear();
    if (loaded) this.bufferCache.set(p, { text, loaded });
    return loaded;
  }
  private bufferCache = new Map<string, { text: string; loaded: LoadedConfig }>();

  /**
   * The configurations whose problems are shown: each open file's (as saved), --config's, each root's, and every open
   * configuration buffer's own reading (which stands, on its own uri, for the saved file of the same path).
   */
  shownConfigs(openFiles: Iterable<string>): LoadedConfig[] {
    const byPath = new Map<string, LoadedConfig>();
    const add = (c: LoadedConfig | null | undefined) => { if (c && !byPath.has(c.path)) byPath.set(c.path, c); };
    for (const p of this.openTexts.keys()) if (isConfigFileName(p)) add(this.bufferConfig(p));
    for (const f of openFiles) add(this.configFor(f));
    if (this.explicitConfig) add(this.loadConfigFile(this.explicitConfig));
    for (const root of this.roots) add(this.configFor(path.join(root, CONFIG_FILENAMES[0])));
    return [...byPath.values()];
  }

  /**
   * The open .skewguard.yaml buffer with unsaved changes that would apply to a file once saved (the nearest
   * configuration, as configFor looks for it, counting the buffer as if it were saved), or undefined. Its changes
   * are not applied until it is saved: the hover and the status item say so.
   */
  unsavedConfigFor(file: string): string | undefined {
    if (this.explicitConfig || ![...this.openTexts.keys()].some((p) => isConfigFileName(p))) return undefined;
    const root = this.rootFor(file);
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      for (const n of CONFIG_FILENAMES) {
        const p = path.join(dir, n);
        const open = this.openTexts.get(p);
        const onDisk = fs.existsSync(p);
        if (open !== undefined && (!onDisk || withoutBom(open) !== withoutBom(readConfigDisk(p)))) return p;
        if (onDisk) return undefined;
      }
      if ((root && dir === root) || path.dirname(dir) === dir) return undefined;
    }
  }

  /**
   * The open bootstrap buffer with unsaved changes that would set the file's Kubernetes window once saved, or undefined:
   * the bootstrap file chosen on disk (factsFor) when its buffer differs from the disk, or a new one, open and not saved,
   * that would be chosen before it (in the file's folder or nearer to it). A bootstrap file's own buffer is its own.
   */
  unsavedBootstrapFor(file: string): string | undefined {
    if (isAnchorName(file)) return undefined;
    const open = [...this.openTexts.keys()].filter((p) => isAnchorName(p));
    if (!open.length) return undefined;
    const root = this.rootFor(file) ?? path.dirname(file);
    const l = this.factsFor(file).localhost;
    const chosen = l && path.resolve(root, l.path);
    if (chosen && this.openTexts.has(chosen) && withoutBom(this.openTexts.get(chosen)) !== withoutBom(readDisk(chosen))) return chosen;
    // A new bootstrap file not saved yet: in the file's folder or a parent up to the root, nearer than the chosen one.
    const dir = path.dirname(file);
    const chosenDir = chosen && path.dirname(chosen);
    const nearer = (p: string) => !chosenDir || !isWithin(dir, chosenDir) || path.dirname(p).length > chosenDir.length
      || (path.dirname(p) === chosenDir && anchorOrder(path.basename(p), path.basename(chosen!)) < 0);
    return open.filter((p) => isWithin(dir, path.dirname(p)) && isWithin(path.dirname(p), root) && !fs.existsSync(p) && nearer(p))
      .sort((a, b) => path.dirname(b).length - path.dirname(a).length || anchorOrder(path.basename(a), path.basename(b)))[0];
  }

  /**
   * What the hover and the status item say of the open files with unsaved changes that would apply to a file once saved
   * (its .skewguard.yaml, unsavedConfigFor; its bootstrap file, unsavedBootstrapFor), or undefined: they are not applied.
   */
  unsavedSaid(file: string): string | undefined {
    const root = this.rootFor(file);
    const c = this.unsavedConfigFor(file), b = this.unsavedBootstrapFor(file);
    const said = [c && unsavedText(c, root, 'configuration'), b && unsavedText(b, root, 'bootstrap file')].filter(Boolean);
    return said.length ? said.join(' ') : undefined;
  }

  private loadConfig(p: string, open: string | undefined): LoadedConfig | null {
    const r = readConfigText(p, open);
    if (r === undefined) return null;
    // A config that cannot be read is reported at its line 1, not skipped: a silent fallback checks every file
    // against the wrong window.
    if ('problem' in r) return { path: p, text: '', overrides: {}, problems: [{ message: r.problem, range: { start: 0, end: 0 } }] };
    const loaded = parseConfig(p, r.text, ruleIds);
    // The root indexes' entries of the configuration (files it names on disk): one that cannot be used is said at its
    // entry, not passed over (RootIndex.configProblems).
    let parsed: ReturnType<typeof parseYaml>['docs'][number] | undefined | null = null;
    const docOf = () => (parsed === null ? (parsed = parseYaml(r.text).docs.find((d) => !d.empty)) : parsed);
    for (const prod of rootFactProducers) {
      if (!('index' in prod)) continue;
      const idx = this.rootIndex(prod, this.rootFor(p) ?? path.dirname(p));
      for (const x of idx.configProblems?.(p, loaded.overrides, () => docOf()?.value) ?? []) {
        loaded.problems.push({ message: x.message, range: docOf()?.locate(x.path).value ?? { start: 0, end: 0 } });
      }
    }
    // What the families' server sides read on disk for its entries (family-service.ts configLoaded: the user's
    // OpenAPI documents), each entry they cannot use said at its place.
    for (const s of this.services) {
      for (const x of s.configLoaded?.(p, loaded.overrides, this.inside(p) ? this.inside : undefined) ?? []) {
        loaded.problems.push({ message: x.message, range: docOf()?.locate(x.path).value ?? { start: 0, end: 0 } });
      }
    }
    return loaded;
  }

  /** The config for a file: --config if given, else the nearest .skewguard.yaml up to the workspace root. */
  configFor(file: string): LoadedConfig | undefined {
    if (this.explicitConfig) return this.loadConfigFile(this.explicitConfig) ?? undefined;
    const root = this.rootFor(file);
    const found = memoIn(this.configPathCache, path.dirname(file), () => {
      for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
        for (const n of CONFIG_FILENAMES) {
          const p = path.join(dir, n);
          // On disk only: an open, unsaved buffer of a configuration applies to no file until it is saved.
          if (fs.existsSync(p) && this.loadConfigFile(p)) return p;
        }
        if ((root && dir === root) || path.dirname(dir) === dir) return null;
      }
    });
    return found === null ? undefined : this.loadConfigFile(found) ?? undefined;
  }

  /**
   * Workspace facts for a file: the localhost.yml nearest to it — the file itself when it is one, else in its folder or
   * a parent folder up to the workspace root, else the first one found below the root. Only files on disk are looked
   * for, and read as saved (issue #27 item 1): the window of a file is the same whatever is open and in whichever order,
   * in the editor and in lsp-lint. An open bootstrap buffer counts only for its own analysis (its facts read the
   * buffer); its unsaved changes are said to the files it would apply to (unsavedSaid). Several bootstrap files in the
   * folder that wins: the choice (anchorOrder) is said in the facts' note.
   */
  factsFor(file: string): WorkspaceFacts {
    const root = this.rootFor(file) ?? path.dirname(file);
    const dir = path.dirname(file);
    const self = isAnchorName(file);
    const open = self ? this.openTexts.get(file) : undefined;
    if (open !== undefined) {
      // Its own buffer: one facts object per text (the resolved configuration cached on it stays right).
      const hit = this.bufferFacts.get(file);
      if (hit && hit.text === open) return hit.facts;
      const facts = this.anchorFacts(root, { file, among: [file] }, this.configFor(file)?.path ?? '', open);
      if (this.bufferFacts.size > 64) this.bufferFacts.clear();
      this.bufferFacts.set(file, { text: open, facts });
      return facts;
    }
    // Folders that find the same localhost.yml share one facts object: it is read and parsed once, and the
    // resolved configuration cached on the facts is shared too. A bootstrap file is its own anchor.
    return memoIn(this.facts, self ? file : dir, () => {
      const found: AnchorChoice | undefined = self ? { file, among: [file] } : this.nearestLocalhost(dir, root) ?? this.firstBelow(root);
      // kata-deploy's tag is the window of the files under the same .skewguard.yaml (or none) as its DaemonSet/values.
      const scope = this.configFor(file)?.path ?? '';
      return memoIn(this.factsByLocalhost, `${root}\u0000${found?.file ?? ''}\u0000${scope}`, () => this.anchorFacts(root, found, scope, found && this.readSaved(found.file)));
    });
  }
  private factsByLocalhost = new Map<string, WorkspaceFacts>();
  /** Open bootstrap files' own facts, read from their buffers: file → the buffer's text and its facts. */
  private bufferFacts = new Map<string, { text: string; facts: WorkspaceFacts }>();

  /** The facts of a bootstrap file chosen for a window (its text: as saved, or its own open buffer), with the families' workspace facts. */
  private anchorFacts(root: string, found: AnchorChoice | undefined, scope: string, text: string | undefined): WorkspaceFacts {
    // The families' workspace facts (kata-deploy's tags …: FamilyModule.workspaceFactProducers), each looked up (a walk
    // of the workspace) only when a file's window needs it, from the facts of the root and the files under `scope`.
    const input: WorkspaceFactInput = {
      neighbours: this.lazyNeighboursFor(path.join(root, '__workspace__')),
      inScope: (f) => (this.configFor(f)?.path ?? '') === scope,
      relative: (f) => path.relative(root, f) || f,
    };
    const lazy = {} as WorkspaceFacts;
    for (const p of workspaceFactProducers) {
      let v: unknown;
      Object.defineProperty(lazy, p.key, { enumerable: true, configurable: true, get: () => (v ??= p.produce(input) ?? null) ?? undefined });
    }
    if (!found) return lazy;
    const note = competitionNote(found, root);
    return Object.defineProperties({ localhost: { path: path.relative(root, found.file) || found.file, kubernetesVersion: workspaceFacts.anchorKubernetesVersion(text), ...(note ? { note } : {}) } }, Object.getOwnPropertyDescriptors(lazy)) as WorkspaceFacts;
  }

  private firstBelow(root: string): AnchorChoice | undefined {
    return memoIn(this.rootLocalhost, root, () => findLocalhost(root) ?? null) ?? undefined;
  }

  /** The localhost.yml in dir or the nearest parent up to root (on disk); each folder is read once (until invalidate()). */
  private nearestLocalhost(dir: string, root: string): AnchorChoice | undefined {
    return memoIn(this.nearestCache, `${root}\u0000${dir}`, () => {
      let names: string[] = [];
      try { names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory() && isAnchorName(e.name)).map((e) => e.name); } catch { /* unreadable folder */ }
      if (names.length) return chooseAnchor(dir, names);
      if (dir === root || path.dirname(dir) === dir || !dir.startsWith(root)) return null;
      return this.nearestLocalhost(path.dirname(dir), root) ?? null;
    }) ?? undefined;
  }
  private nearestCache = new Map<string, AnchorChoice | null>();
}

/** Roots whose indexes are kept at most (a file outside the workspace folders has its folder as its root). */
const MAX_INDEXED_ROOTS = 256;

/**
 * A file's neighbour facts, each worked out when first read: the folder's (staticPods, localhost: neighboursFor, once)
 * and the families' root facts (an index's other keys too: RootIndexProducer.also). The getters are the prototype's,
 * defined once, not per file (an object of three private fields per analysed file).
 */
class LazyNeighbours {
  // Private (#): no fact's key can collide with them.
  readonly #ws: WorkspaceState;
  readonly #file: string;
  #got?: NeighbourFacts;
  constructor(ws: WorkspaceState, file: string) { this.#ws = ws; this.#file = file; }
  #all(): NeighbourFacts { return (this.#got ??= this.#ws.neighboursFor(this.#file)); }
  get staticPods() { return this.#all().staticPods; }
  get localhost() { return this.#all().localhost; }
  static {
    for (const p of rootFactProducers) {
      for (const key of [p.key, ...('index' in p ? p.also ?? [] : [])]) {
        Object.defineProperty(LazyNeighbours.prototype, key, { get(this: LazyNeighbours) { return this.#ws.rootFact(p, this.#file, key); }, enumerable: true });
      }
    }
  }
}
