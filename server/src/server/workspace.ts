// File-system facts the server needs around a document: the nearest .skewguard.yaml and the workspace's bootstrap file
// (its anchor, workspaceFacts in the registry: the file whose versions set the default window of the files around it).
// Reads files; runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isConfigFileName } from '../shared/names';
import { CONFIG_FILENAMES, parseConfig, type LoadedConfig, type WorkspaceFacts } from '../engine/config';
import { workspaceFacts, workspaceFactProducers, rootFactProducers } from '../engine/families/registry';
import type { WorkspaceFactInput } from '../engine/families/types';
import { ruleIds } from '../engine/rules';
import { memoIn } from '../engine/memo';
import { parseYaml } from '../engine/parse/yaml';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readTextUpTo } from '../shared/bounded-read';
import { readConfigText, readDisk, withoutBom } from './config-files';
import { chooseAnchor, competitionNote, findAnchor, type AnchorChoice } from './anchor-files';
import { RootFacts } from './root-facts';
import { unsavedSaid } from './unsaved';
import type { FamilyServerService } from './family-service';

const { isAnchorName } = workspaceFacts;

export class WorkspaceState {
  private configCache = new Map<string, LoadedConfig | null>();
  /** Per folder: the nearest config file's path, or null (saves a stat per folder level for every file). */
  private configPathCache = new Map<string, string | null>();
  private facts = new Map<string, WorkspaceFacts>();
  /** Per workspace root: the first bootstrap file below it (a bounded walk), or null. */
  private rootAnchor = new Map<string, AnchorChoice | null>();
  /** The families' server sides (family-service.ts, set at initialize): what they read for a loaded configuration. */
  services: readonly FamilyServerService[] = [];

  /** Texts of open documents: each wins over the disk for its own file (other files' windows and facts read the disk, readSaved). */
  readonly openTexts = new Map<string, string>();

  constructor(public roots: string[], public explicitConfig?: string) {}

  /** Whether a path lies in the checked roots (server/checked-roots.ts, set by the server): one outside is not read on a repository's word. */
  inside: (p: string) => boolean = () => true;

  /** Whether the ignore: lists leave a file out (set by the server: engine/ignore.ts with the file's configuration). */
  ignored: (file: string) => boolean = () => false;

  /** What a file's analysis may read of the files around it: its folder's static pods, the families' root facts and indexes. */
  readonly around = new RootFacts(this);

  invalidate(): void {
    this.configCache.clear(); this.configPathCache.clear(); this.facts.clear(); this.rootAnchor.clear(); this.nearestCache.clear(); this.factsByAnchor.clear(); this.sameAsDisk.clear(); this.bufferCache.clear(); this.bufferFacts.clear();
    // The root indexes keep their files' scans (no configuration changes them) and gather their facts again; one
    // that cannot (no forgetConfig) is dropped.
    this.around.invalidate();
  }

  /** Everything read from the disk is in doubt (watched files, trust, settings): the root indexes are walked again too. */
  invalidateAll(): void { this.invalidate(); this.around.invalidateAll(); }

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

  /** What the hover and the status item say of unsaved buffers that would apply to the file once saved (unsaved.ts). */
  unsavedSaid(file: string): string | undefined { return unsavedSaid(this, file); }

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
      const idx = this.around.index(prod, this.rootFor(p) ?? path.dirname(p));
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
   * Workspace facts for a file: the bootstrap file nearest to it — the file itself when it is one, else in its folder or
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
    // Folders that find the same bootstrap file share one facts object: it is read and parsed once, and the
    // resolved configuration cached on the facts is shared too. A bootstrap file is its own anchor.
    return memoIn(this.facts, self ? file : dir, () => {
      const found: AnchorChoice | undefined = self ? { file, among: [file] } : this.nearestAnchor(dir, root) ?? this.firstBelow(root);
      // kata-deploy's tag is the window of the files under the same .skewguard.yaml (or none) as its DaemonSet/values.
      const scope = this.configFor(file)?.path ?? '';
      return memoIn(this.factsByAnchor, `${root}\u0000${found?.file ?? ''}\u0000${scope}`, () => this.anchorFacts(root, found, scope, found && this.readSaved(found.file)));
    });
  }
  private factsByAnchor = new Map<string, WorkspaceFacts>();
  /** Open bootstrap files' own facts, read from their buffers: file → the buffer's text and its facts. */
  private bufferFacts = new Map<string, { text: string; facts: WorkspaceFacts }>();

  /** The facts of a bootstrap file chosen for a window (its text: as saved, or its own open buffer), with the families' workspace facts. */
  private anchorFacts(root: string, found: AnchorChoice | undefined, scope: string, text: string | undefined): WorkspaceFacts {
    // The families' workspace facts (kata-deploy's tags …: FamilyModule.workspaceFactProducers), each looked up (a walk
    // of the workspace) only when a file's window needs it, from the facts of the root and the files under `scope`.
    const input: WorkspaceFactInput = {
      neighbours: this.around.lazyFor(path.join(root, '__workspace__')),
      inScope: (f) => (this.configFor(f)?.path ?? '') === scope,
      relative: (f) => path.relative(root, f) || f,
    };
    const lazy = {} as WorkspaceFacts;
    for (const p of workspaceFactProducers) {
      let v: unknown;
      Object.defineProperty(lazy, p.key, { enumerable: true, configurable: true, get: () => (v ??= p.produce(input) ?? null) ?? undefined });
    }
    // A file of the anchor's name that is no bootstrap file (a playbook named localhost.yml) sets no window.
    if (!found || workspaceFacts.anchorIsNot(text)) return lazy;
    const note = competitionNote(found, root);
    return Object.defineProperties({ localhost: { path: path.relative(root, found.file) || found.file, kubernetesVersion: workspaceFacts.anchorKubernetesVersion(text), ...(note ? { note } : {}) } }, Object.getOwnPropertyDescriptors(lazy)) as WorkspaceFacts;
  }

  private firstBelow(root: string): AnchorChoice | undefined {
    return memoIn(this.rootAnchor, root, () => findAnchor(root) ?? null) ?? undefined;
  }

  /** The bootstrap file in dir or the nearest parent up to root (on disk); each folder is read once (until invalidate()). */
  private nearestAnchor(dir: string, root: string): AnchorChoice | undefined {
    return memoIn(this.nearestCache, `${root}\u0000${dir}`, () => {
      let names: string[] = [];
      try { names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory() && isAnchorName(e.name)).map((e) => e.name); } catch { /* unreadable folder */ }
      if (names.length) return chooseAnchor(dir, names);
      if (dir === root || path.dirname(dir) === dir || !dir.startsWith(root)) return null;
      return this.nearestAnchor(path.dirname(dir), root) ?? null;
    }) ?? undefined;
  }
  private nearestCache = new Map<string, AnchorChoice | null>();
}
