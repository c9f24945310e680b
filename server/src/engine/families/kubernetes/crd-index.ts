// The workspace's CustomResourceDefinitions and the custom resources that use them, for the Kubernetes rules
// (NeighbourFacts.crds, NeighbourFacts.customResourceUses): a root index (FamilyModule.rootFactProducers) read through
// the server's host (WorkspaceHost). Built only when a rule asks (a file holds an object of a custom group, or a CRD),
// by one bounded walk of the workspace root that reads each YAML/JSON file once: a workspace without custom resources
// never pays for it. Open documents win over the disk (host.openText). Each file's part is remembered as a summary
// (its CRD text, the custom groups its apiVersions name), so an edit, open or close that changes neither leaves the
// index alone (lsp-lint opens thousands of files whose buffers are the disk's). .skewguard.yaml's kubernetes.crds
// names more files (read once per configuration, their problems said at the entry: configProblems).
import * as path from 'node:path';
import { MAX_FILE_BYTES } from '../../../shared/limits';
import { isWithin } from '../../../shared/within';
import { indexOfBy } from '../../text';
import type { RootIndex, RootIndexProducer, WorkspaceHost } from '../types';
import type { Overrides } from '../../config';
import type { NeighbourFacts } from './index';
import { crdsEntry } from './config';
import { mayHoldCrd, mayBeCustomGroup, crdsOfText, crdFacts, customResourceUsesByGroup, isChartArchive, crdsOfArchive } from './crds';

/** A file is read up to the engine's file limit (the host's own bound). */
const ANY_SIZE = Number.MAX_SAFE_INTEGER;

type CrdFacts = NonNullable<NeighbourFacts['crds']>;
type CrdDef = CrdFacts['defs'] extends Map<string, infer D> ? D : never;
type Use = ReturnType<NonNullable<NeighbourFacts['customResourceUses']>>['uses'][number];

const MANIFEST_EXT = /\.(ya?ml|json)$/i;
/** Folders and files the CRD walk lists at most: a repository of 10,000 files spreads them over a few thousand folders. */
const MAX_FOLDERS = 10000;
const MAX_FILES = 20000;

/** What a file adds to the index: its CRD text (only when it may hold one), the custom groups its apiVersions name and
 *  those apiVersions (a custom resource moved to another version changes what its CRD's check says). */
interface Summary { crd?: string; groups: string[]; versions?: string[] }

/** An `apiVersion: group/version` line, from its start (the YAML form: key at any indent, perhaps a list item's). */
const APIVERSION_AT = /[ \t]*(?:-[ \t]+)?["']?apiVersion["']?[ \t]*:[ \t]*["']?([A-Za-z0-9.-]+)\/([A-Za-z0-9]+)/y;
/** A JSON `"apiVersion": "group/version"`, at the key's opening quote. */
const JSON_APIVERSION_AT = /"apiVersion"\s*:\s*"([A-Za-z0-9.-]+)\/([A-Za-z0-9]+)"/y;

/** The next "apiVersion" (or JSON key `"apiVersion"`) from `from`, found by "Versio" (text.ts indexOfBy). */
const nextApiVersion = (text: string, from: number, word = 'apiVersion'): number => indexOfBy(text, word, 'Versio', from);

/**
 * Each match of /^[ \t]*(?:-[ \t]+)?["']?apiVersion…/gm, found as that expression would (it was one, and scanning every
 * line start of every file the server opens and closes cost more than the rest of the index upkeep): a match starts at
 * a line start (after LF, CR, U+2028, U+2029) of a line whose first "apiVersion" follows only blanks, a dash or a quote,
 * so the native search for "apiVersion" finds the lines to try and the expression is tried once per line, at its start.
 */
function yamlApiVersions(text: string, found: (group: string, version: string) => void): void {
  let tried = -1;
  for (let i = nextApiVersion(text, 0); i >= 0; i = nextApiVersion(text, i + 10)) {
    let start = i;
    for (let c = text.charCodeAt(start - 1); start > 0 && c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029; c = text.charCodeAt(start - 1)) start--;
    if (start === tried) continue;
    tried = start;
    APIVERSION_AT.lastIndex = start;
    const m = APIVERSION_AT.exec(text);
    if (m) found(m[1], m[2]);
  }
}

/**
 * Each match of /"apiVersion"\s*:\s*"…"/g, found as that expression would: tried at each `"apiVersion"`, the next looked
 * for after the last match's end. The expression over the whole text took 5 ms of every check of an 11.7 MB bundle
 * that holds none.
 */
function jsonApiVersions(text: string, found: (group: string, version: string) => void): void {
  for (let i = nextApiVersion(text, 0, '"apiVersion"'); i >= 0;) {
    JSON_APIVERSION_AT.lastIndex = i;
    const m = JSON_APIVERSION_AT.exec(text);
    if (m) found(m[1], m[2]);
    i = nextApiVersion(text, m ? JSON_APIVERSION_AT.lastIndex : i + 1, '"apiVersion"');
  }
}

export function summaryOf(file: string, text: string | undefined): Summary {
  if (text === undefined || !MANIFEST_EXT.test(file)) return { groups: [] };
  // Editors and lsp-lint hand over the text without the byte order mark the disk may have.
  text = text.replace(/^\uFEFF/, '');
  const groups = new Set<string>();
  const versions = new Set<string>();
  const found = (group: string, version: string) => { if (mayBeCustomGroup(group)) { groups.add(group); versions.add(`${group}/${version}`); } };
  yamlApiVersions(text, found);
  jsonApiVersions(text, found);
  return { ...(mayHoldCrd(text) ? { crd: text } : {}), groups: [...groups].sort(), versions: [...versions].sort() };
}
const sameSummary = (a: Summary | undefined, b: Summary): boolean =>
  (a?.crd ?? '') === (b.crd ?? '') && (a?.versions ?? []).join(',') === (b.versions ?? []).join(',');

interface RootFiles {
  root: string;
  files: Map<string, Summary>;
  /** Parsed on first use: the CRD-side rule needs only the summaries. */
  facts?: CrdFacts;
  /** What the walk did not see (its bound, folders that could not be listed): said in the findings that depend on it. */
  notRead: string[];
  /** Each file's custom resources by group (read when a rule first asks for one of its groups). */
  uses: Map<string, Map<string, Use[]>>;
  /**
   * The files whose summary names each custom group, in the files' order: built on first use, dropped when a summary
   * changes. Without it every CRD a file defines scanned every file of the root (a root of thousands of manifests with
   * hundreds of CRD files: quadratic).
   */
  byGroup?: Map<string, string[]>;
  /** Packaged chart dependencies (charts/*.tgz): read (in memory) only when the facts are gathered. */
  archives: Set<string>;
}

type Extra = { facts: CrdFacts; problems: Array<{ index: number; message: string }> };
/**
 * Per host (one per server) and .skewguard.yaml (its kubernetes.crds): the CRDs of the files it names, and each path's
 * problem. Shared by the roots' indexes (a --config outside every root names the same files for all of them), read
 * again after a configuration change (forgetConfig).
 */
const extrasByHost = new WeakMap<WorkspaceHost, Map<string, Extra>>();

/** A charts/*.tgz of a chart (a Chart.yaml beside its charts/ folder): a dependency Helm installs with it, not a chart
 *  repository's folder of packaged releases. */
const isDependency = (host: WorkspaceHost, tgz: string): boolean => !('error' in host.look(path.join(path.dirname(path.dirname(tgz)), 'Chart.yaml')));

type ArchivePart = { found: Array<{ file: string; defs: CrdDef[] }>; notRead: string[] };

/**
 * The CRD index of one workspace root. `host.ignored(file)`: whether the `ignore:` lists (engine/ignore.ts
 * ignoreVerdict, with the configuration that applies to the file, as the editor and lsp-lint leave files out) leave the
 * file out. An ignored file is not part of the workspace for skewguard: its CRDs define nothing, its custom resources
 * are no use of a CRD's version. Asked when the facts are gathered (not when walking), so a configuration change needs
 * no new walk.
 */
export class CrdIndex implements RootIndex<unknown> {
  private idx?: RootFiles;

  constructor(private root: string, private host: WorkspaceHost) {}

  /** A file's effective text: its open buffer's, else as saved (bounded). */
  private readText(p: string): string | undefined {
    const open = this.host.openText(p);
    return open !== undefined ? open : this.host.readSaved(p, ANY_SIZE);
  }
  private get extra(): Map<string, Extra> {
    let m = extrasByHost.get(this.host);
    if (!m) extrasByHost.set(this.host, (m = new Map()));
    return m;
  }

  /** Each CRD file's parse, by path, kept while its text is the same (the index is updated in place on edits). */
  private parsed = new Map<string, { text: string; defs?: CrdDef[]; error?: string }>();
  /** Each packaged chart's CRDs, by path, kept while its size and modification time are the same. */
  private archiveParts = new Map<string, { stamp: string; part: ArchivePart }>();
  /** The facts with a configuration's kubernetes.crds after them, per facts and extra (the same object while neither changes). */
  private merged = new WeakMap<CrdFacts, WeakMap<CrdFacts, CrdFacts>>();

  /** A configuration changed: only what .skewguard.yaml's kubernetes.crds named is read again; the walk's index (files and
   *  their summaries, which no configuration changes) is kept, so a workspace with a config per folder is walked once. */
  forgetConfig(): void {
    this.extra.clear();
    // What the ignore: lists leave out may have changed: the facts and uses are gathered again from the summaries.
    if (this.idx) { this.idx.facts = undefined; this.idx.uses.clear(); }
  }

  /** NeighbourFacts.crds (the file's CRDs) or NeighbourFacts.customResourceUses (a function of the group) for `file`. */
  fact(file: string, key: keyof NeighbourFacts): unknown {
    if (key === 'customResourceUses') return (group: string) => this.usesFor(group, file);
    const c = this.host.configOf(file);
    return this.crdsFor(c?.overrides.kubernetesCrds ? { path: c.path, crds: c.overrides.kubernetesCrds } : undefined);
  }

  /** The CRD facts for a file under the root, with those of `config.crds` (.skewguard.yaml kubernetes.crds) after them. */
  crdsFor(config?: { path: string; crds?: string[] }): CrdFacts {
    const idx = this.index();
    const facts = this.factsOf(idx);
    if (!config?.crds?.length) return facts;
    const more = this.extraFor(config.path, config.crds).facts;
    let byMore = this.merged.get(facts);
    if (!byMore) this.merged.set(facts, (byMore = new WeakMap()));
    const hit = byMore.get(more);
    if (hit) return hit;
    const defs = new Map(facts.defs);
    for (const [k, d] of more.defs) if (!defs.has(k)) defs.set(k, d);
    const out = { defs, files: facts.files.concat(more.files), notRead: facts.notRead.concat(more.notRead) };
    byMore.set(more, out);
    return out;
  }

  /** The CRDs of the files whose summary says they may hold one, parsed once per index. */
  private factsOf(idx: RootFiles): CrdFacts {
    if (idx.facts) return idx.facts;
    const notRead = idx.notRead.slice();
    const found: Array<{ file: string; defs: CrdDef[] }> = [];
    for (const [p, s] of idx.files) {
      if (s.crd === undefined || this.host.ignored(p)) continue;
      const rel = path.relative(idx.root, p) || p;
      const text = s.crd;
      let got = this.parsed.get(p);
      if (!got || got.text !== text) {
        try { got = { text, defs: crdsOfText(text, rel, this.host.openText(p) !== undefined ? p : undefined) }; } catch (e) { got = { text, error: (e as Error).message }; }
        this.parsed.set(p, got);
      }
      if (got.defs) found.push({ file: rel, defs: got.defs }); else notRead.push(`${rel} does not parse (${got.error})`);
    }
    for (const p of idx.archives) {
      if (this.host.ignored(p)) continue;
      const part = this.archivePart(p, path.relative(idx.root, p) || p);
      for (const f of part.found) found.push(f);
      for (const n of part.notRead) notRead.push(n);
    }
    // The first by path wins (archive entries `<archive>!<entry>` among the files).
    found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    // The parses of this root's files that are gone from the index (closed, deleted, no longer a CRD) go too: each holds
    // its file's text and the CRDs read from it (a closed 12 MB bundle's stayed until the index was cleared).
    for (const p of [...this.parsed.keys()]) if (idx.files.get(p)?.crd === undefined) this.parsed.delete(p);
    return (idx.facts = crdFacts(found, notRead));
  }

  /** A packaged chart's CRDs (bounded: MAX_FILE_BYTES read, the tar reader's unpacked size), or why it was not read. */
  private archivePart(abs: string, rel: string): ArchivePart {
    // Not followed: a link is not read (the walk lists regular files only; the client's watcher may name one).
    const st = this.host.look(abs, { noFollow: true });
    if ('error' in st) {
      this.archiveParts.delete(abs);
      return { found: [], notRead: [`${rel} was not read (${st.error})`] };
    }
    const hit = this.archiveParts.get(abs);
    if (hit?.stamp === st.stamp) return hit.part;
    let part: ArchivePart;
    if (st.kind !== 'file') part = { found: [], notRead: [`${rel} was not read (not a regular file${st.kind === 'link' ? ': a link is not followed' : ''})`] };
    else if (st.size > MAX_FILE_BYTES) part = { found: [], notRead: [`${rel} was not read (over ${MAX_FILE_BYTES} bytes)`] };
    else {
      const r = this.host.readBytes(abs, MAX_FILE_BYTES);
      if ('bytes' in r) part = crdsOfArchive(r.bytes, rel);
      else part = { found: [], notRead: [`${rel} was not read (${'over' in r ? r.over : r.error})`] };
    }
    if (this.archiveParts.size >= 256) this.archiveParts.clear();
    this.archiveParts.set(abs, { stamp: st.stamp, part });
    return part;
  }

  /**
   * The custom resources of a group in the workspace's files other than `except`. Each file is read once per index for
   * all the custom groups its summary names (not once per group), and `except` (the analysed file, whose own custom
   * resources the rule reads from its parsed documents) is not read at all.
   */
  usesFor(group: string, except: string): { uses: Use[]; notRead?: string } {
    const idx = this.index();
    const uses: Use[] = [];
    if (!idx.byGroup) {
      idx.byGroup = new Map();
      for (const [p, s] of idx.files) for (const g of s.groups) { const l = idx.byGroup.get(g); if (l) l.push(p); else idx.byGroup.set(g, [p]); }
    }
    for (const p of idx.byGroup.get(group) ?? []) {
      const s = idx.files.get(p)!;
      if (p === except || this.host.ignored(p)) continue;
      let byGroup = idx.uses.get(p);
      if (!byGroup) {
        const text = this.readText(p);
        byGroup = new Map();
        // Each use keeps its file's absolute path (`abs`), as the findings' data always had it.
        if (text !== undefined) for (const [g, us] of customResourceUsesByGroup(text, path.relative(this.root, p) || p, s.groups)) byGroup.set(g, us.map((u) => ({ ...u, abs: p })));
        idx.uses.set(p, byGroup);
      }
      for (const u of byGroup.get(group) ?? []) uses.push(u);
    }
    // What the walk did not see (its bound, folders that could not be listed): uses there are not known.
    return { uses, ...(idx.notRead.length ? { notRead: idx.notRead.join('; ') } : {}) };
  }

  /** A file changed on disk: its effective text is the disk's only when it is not open (an open buffer wins). */
  changed(file: string): boolean {
    return this.host.openText(file) === undefined && this.edited(file, undefined);
  }

  /**
   * A file's effective text is now `text` (opened, edited, closed: the disk's): whether that changes what the index
   * says (a CRD changed, appeared or went; a custom group is used or no longer). If so the index is updated and the
   * caller re-checks the open files. An index not built yet has nothing to update.
   * `before`: the text the workspace saw until now (a closed buffer's). While a file is open the index holds its
   * buffer's summary (updated on open and on each edit; a walk reads open buffers first), so when the new text is that
   * same text nothing changes: the disk's text equal to the closed buffer (lsp-lint's every file) is not summarised again.
   */
  edited(file: string, text: string | undefined, before?: string): boolean {
    const idx = this.idx;
    // A packaged chart (charts/*.tgz) is opened by lsp-lint with no text, which changes nothing here; one changed on disk
    // (the client's watcher) makes the server forget the whole index (watched-files.ts: not a plain manifest).
    if (!idx || !MANIFEST_EXT.test(file)) return false;
    const effective = text ?? this.readText(file);
    if (before !== undefined && effective === before) return false;
    const now = summaryOf(file, effective);
    if (sameSummary(idx.files.get(file), now)) return false;
    // Updated in place (not walked again): a walk that stopped at its bound would otherwise be redone for every file
    // outside it that is opened, and a workspace with a .skewguard.yaml per folder for every folder.
    idx.files.set(file, now);
    idx.facts = undefined;
    idx.byGroup = undefined;
    idx.uses.delete(file);
    // Its parse, for another text, goes now (it holds the old text and its CRDs; the next facts parse it again).
    if (this.parsed.get(file)?.text !== now?.crd) this.parsed.delete(file);
    return true;
  }

  /** .skewguard.yaml's kubernetes.crds entries that cannot be used, each at its entry (read when the config is loaded). */
  configProblems(configPath: string, overrides: Overrides, value: () => unknown): Array<{ message: string; path: Array<string | number> }> {
    const crds = overrides.kubernetesCrds;
    if (!crds?.length) return [];
    return this.extraFor(configPath, crds).problems.map((x) => ({ message: x.message, path: crdsEntry(configIndexOf(value(), crds[x.index])).path }));
  }

  private index(): RootFiles {
    if (this.idx) return this.idx;
    const root = this.root;
    const files = new Map<string, Summary>();
    const candidates = new Set<string>();
    const archives = new Set<string>();
    for (const p of this.host.openFiles()) if (isWithin(p, root) && MANIFEST_EXT.test(p)) candidates.add(p);
    let truncated: string | undefined;
    const w = this.host.walk(root, {
      maxFolders: MAX_FOLDERS,
      onFile: (p, name) => {
        if (MANIFEST_EXT.test(name)) candidates.add(p);
        else if (isChartArchive(p)) archives.add(p);
        if (candidates.size + archives.size > MAX_FILES) { truncated = `the workspace walk for CustomResourceDefinitions stopped after ${MAX_FILES} files`; return false; }
      },
    });
    if (w.stopped && !truncated) truncated = `the workspace walk for CustomResourceDefinitions stopped after ${MAX_FOLDERS} folders`;
    const notRead: string[] = [...(truncated ? [truncated] : []), ...this.host.unreadableNote('the workspace walk for CustomResourceDefinitions', w.unreadable)];
    for (const p of [...candidates].sort()) files.set(p, summaryOf(p, this.readText(p)));
    return (this.idx = { root, files, notRead, uses: new Map(), archives: new Set([...archives].filter((a) => isDependency(this.host, a)).sort()) });
  }

  private extraFor(configPath: string, crds: string[]): Extra {
    const key = `${configPath}\u0000${crds.join('\u0000')}`;
    const hit = this.extra.get(key);
    if (hit) return hit;
    const base = path.dirname(configPath);
    const problems: Array<{ index: number; message: string }> = [];
    const found: Array<{ file: string; defs: CrdDef[] }> = [];
    crds.forEach((entry, index) => {
      const abs = path.resolve(base, entry);
      // Outside the checked roots: read only when the configuration itself is outside them (the user's own, named by
      // lsp-lint --config), never on a repository's word.
      if (!this.host.inside(abs) && this.host.inside(configPath)) { problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": outside the workspace, not read (looked up as ${abs}), so its CustomResourceDefinitions are not known` }); return; }
      const st = this.host.look(abs);
      if ('error' in st) { problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": cannot be read (${st.error}), so its CustomResourceDefinitions are not known` }); return; }
      const list: string[] = [];
      if (st.kind === 'folder') {
        const w = this.host.walk(abs, { maxFolders: MAX_FOLDERS, sorted: true, onFile: (p, name) => { if (MANIFEST_EXT.test(name)) list.push(p); return list.length < MAX_FILES; } });
        for (const u of w.unreadable) problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": folder ${u} cannot be read` });
        if (w.stopped) problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": only the first ${list.length} files of ${w.folders} folders were read` });
      } else if (st.kind === 'file') {
        list.push(abs);
      } else {
        problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": not a regular file or folder` });
        return;
      }
      let defs = 0;
      for (const p of list.sort()) {
        const shown = path.join(entry, path.relative(abs, p)) || entry;
        const at = this.host.look(p);
        const size = 'error' in at ? 0 : at.size;
        if (size > MAX_FILE_BYTES) { problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": ${shown} is over ${MAX_FILE_BYTES} bytes and was not read` }); continue; }
        const text = this.readText(p);
        if (text === undefined) {
          const r = this.host.readBytes(p, MAX_FILE_BYTES);
          problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": ${shown} ${'over' in r ? `was not read: ${r.over}` : 'cannot be read'}` });
          continue;
        }
        let ds: CrdDef[] = [];
        try { ds = crdsOfText(text, shown); } catch (e) { problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": ${shown} does not parse (${(e as Error).message})` }); continue; }
        defs += ds.length;
        found.push({ file: shown, defs: ds });
      }
      if (!defs) problems.push({ index, message: `kubernetes.crds[${index}] "${entry}": ${st.kind === 'folder' ? `no file in this folder holds` : 'the file holds no'} apiextensions.k8s.io CustomResourceDefinition` });
    });
    const out = { facts: crdFacts(found, problems.map((p) => p.message)), problems };
    this.extra.set(key, out);
    return out;
  }
}

/** The index in the file's kubernetes.crds list of an entry (empty entries are left out of the overrides). */
function configIndexOf(value: unknown, entry: string): number {
  const list = (value as { kubernetes?: { crds?: unknown[] } } | null)?.kubernetes?.crds;
  return Array.isArray(list) ? Math.max(0, list.indexOf(entry)) : 0;
}

/** The Kubernetes family's root index of CRDs and custom resources (FamilyModule.rootFactProducers). */
export const crdIndexProducer: RootIndexProducer<'crds'> = {
  key: 'crds',
  also: ['customResourceUses'],
  index: (root, host) => new CrdIndex(root, host) as RootIndex<NeighbourFacts['crds']>,
};
