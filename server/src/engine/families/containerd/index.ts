// containerd's config.toml: recognition, the containerd window, and the per-file context its rules read: each table
// and key of the file matched to the keys containerd's config structs decode (data/containerd/config.json), and
// whether each containerd minor of the window reads it (after the in-memory migration of an older config version).
import type { KataChainFacts } from '../kata-config/data/chain';
import * as path from 'node:path';
import { parseTomlText, type TomlFile, type TomlEntry, type TomlTable } from '../../parse/toml';
import type { SourceInfo } from '../../types';
import type { ResolvedConfig } from '../../config';
import { compareMinor, leadingMinor } from '../../versions';
import { loadJson } from '../../data';
import { containerdData, containerdMinors, containerdRelease, containerdWindow, minorsText, type ContainerdKey, type ContainerdRelease } from './data';
import { windowText } from '../../window-text';

export { containerdData, minorsText };

/** config.toml in a folder named containerd (/etc/containerd/config.toml), or a containerd config drop-in (conf.d). */
export function isContainerdName(file: string): boolean {
  const base = path.basename(file).toLowerCase();
  const dir = path.basename(path.dirname(file)).toLowerCase();
  const up = path.basename(path.dirname(path.dirname(file))).toLowerCase();
  return (base === 'config.toml' && dir === 'containerd') || (/\.toml$/.test(base) && dir === 'conf.d' && up === 'containerd');
}

/**
 * Whether a TOML text is a containerd config by content: a `[plugins."io.containerd.…"]` table, a `[plugins.cri…]`
 * table (version 1), or top-level `root` and `state` with a `[grpc]` table. A web app's config.toml has none of these.
 */
export function isContainerdContent(text: string): boolean {
  const head = text.slice(0, 1 << 20);
  const pluginTable = /^[ \t]*\[\[?[ \t]*plugins[ \t]*\.[ \t]*("io\.containerd\.[^"\r\n]*"|'io\.containerd\.[^'\r\n]*'|cri\b)/m.test(head);
  if (pluginTable) return true;
  // Both `root` and `state` before any table (containerd's top-level directories), and a [grpc] table.
  const top = head.slice(0, head.search(/^[ \t]*\[/m) >>> 0);
  const rootState = /^[ \t]*root[ \t]*=[ \t]*["']/m.test(top) && /^[ \t]*state[ \t]*=[ \t]*["']/m.test(top);
  const grpc = /^[ \t]*\[[ \t]*grpc[ \t]*\][ \t]*(#.*)?\r?$/m.test(head);
  return rootState && grpc;
}

// ---- the key trie: every data path, with the minors that read it or something under it ----

export interface KeyNode {
  seg: string;
  children: Map<string, KeyNode>;
  /** A `<name>` child: a user-chosen map key (a runtime's name, a registry host). */
  any?: KeyNode;
  /** The data path of this node (placeholder notation). */
  path: string;
  row?: ContainerdKey;
  /** Minors that read this path or a path under it. */
  minors: Set<string>;
}

/** Splits a data path (`plugins."io.containerd.grpc.v1.cri".containerd`) into its segments. */
export function splitPath(p: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < p.length;) {
    if (p[i] === '"') { const j = p.indexOf('"', i + 1); out.push(p.slice(i + 1, j)); i = j + 2; continue; }
    let j = p.indexOf('.', i);
    if (j < 0) j = p.length;
    out.push(p.slice(i, j));
    i = j + 1;
  }
  return out;
}

/** Writes segments as a data path: segments with dots quoted. */
export const joinPath = (segs: string[]): string => segs.map((s) => (/[^A-Za-z0-9_<>-]/.test(s) ? `"${s}"` : s)).join('.');

let trie: KeyNode | undefined;
export function keyTrie(): KeyNode {
  if (trie) return trie;
  const root: KeyNode = { seg: '', children: new Map(), path: '', minors: new Set() };
  for (const row of containerdData().keys) {
    let n = root;
    const segs = splitPath(row.path);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      for (const m of row.minors) n.minors.add(m);
      const ph = /^<.*>$/.test(s);
      let c = ph ? n.any : n.children.get(s);
      if (!c) {
        c = { seg: s, children: new Map(), path: joinPath(segs.slice(0, i + 1)), minors: new Set() };
        if (ph) n.any = c; else n.children.set(s, c);
      }
      n = c;
    }
    for (const m of row.minors) n.minors.add(m);
    n.row = row;
  }
  return (trie = root);
}

/** A map of plain values (pinned_images, headers, timeouts, options of a generic runtime): anything under it is its entries. */
const isLeafMap = (n: KeyNode) => !!n.row && /^table<string,(string|array<string>|any)>$/.test(n.row.type) && !n.children.size && !n.any;

export type Match =
  | { kind: 'known'; node: KeyNode; depth: number }
  /** Under a map of values, or a plugin whose configuration the data does not enumerate: not checked. */
  | { kind: 'opaque'; node?: KeyNode; plugin?: string }
  /** No containerd release of the data has this key: `node` is the deepest known table above it. */
  | { kind: 'unknown'; node: KeyNode; at: number };

/** The short (version 1) plugin names and their URIs (v1MigratePluginName). */
const V1_SHORT: Record<string, string> = { cri: 'io.containerd.grpc.v1.cri' };

export function matchPath(segs: string[], version: number): Match {
  const root = keyTrie();
  let n = root;
  for (let i = 0; i < segs.length; i++) {
    let s = segs[i];
    if (i === 1 && segs[0] === 'plugins') {
      if (version <= 1 && V1_SHORT[s]) s = V1_SHORT[s];
      const c = n.children.get(s);
      if (!c) return { kind: 'opaque', plugin: s };
      n = c;
      continue;
    }
    if (isLeafMap(n)) return { kind: 'opaque', node: n };
    const c = n.children.get(s) ?? n.any;
    if (!c) return { kind: 'unknown', node: n, at: i };
    n = c;
  }
  return { kind: 'known', node: n, depth: segs.length };
}

// ---- the window ----

export interface ContainerdWindow { minors: string[]; source: SourceInfo }

interface StxHost { release: string; components: Record<string, string>; source: { repo: string; tag: string; commit: string } }
const stxHosts = (): StxHost[] => loadJson<{ starlingx: { host: StxHost[] } }>('data/kubernetes/components.json').starlingx.host;
interface CtrComponent { id: string; versions: Array<{ version: string; kubernetes: { documented: string[]; documentedFrom: string | null; incompatibleFrom: string | null } }> }
const ctrComponent = (): CtrComponent | undefined => loadJson<{ components: CtrComponent[] }>('data/kubernetes/components.json').components.find((c) => c.id === 'containerd');

/** Kubernetes minors 1.10 … 1.40, for an open-ended "Kubernetes X.Y+" row. */
const K8S_MINORS = Array.from({ length: 31 }, (_, i) => `1.${i + 10}`);

/**
 * Kubernetes minors a containerd minor supports (RELEASES.md, the merged table of data/kubernetes/components.json): its
 * listed minors, or an open-ended "X.Y+" row up to the minor it is incompatible from. undefined: the data has no row.
 */
export function kubernetesOf(minor: string): string[] | undefined {
  const v = ctrComponent()?.versions.find((x) => x.version === minor);
  if (!v) return undefined;
  if (v.kubernetes.documented.length) return v.kubernetes.documented;
  const from = v.kubernetes.documentedFrom, to = v.kubernetes.incompatibleFrom;
  if (!from) return undefined;
  return K8S_MINORS.filter((k) => compareMinor(k, from) >= 0 && (!to || compareMinor(k, to) < 0));
}

/**
 * The containerd minors the file is checked against: `containerd.window` (.skewguard.yaml, settings, --containerd-window);
 * else the containerd the StarlingX release ships (when a release is named or a localhost.yml sets the window);
 * else every containerd minor that supports a Kubernetes minor of the window.
 */
export function resolveContainerdWindow(config: ResolvedConfig): ContainerdWindow {
  const w = config.containerd?.window;
  if (w) {
    const minors = containerdWindow(w.from, w.to);
    if (minors.length) return { minors, source: config.containerd.source ?? { kind: 'config', detail: 'containerd.window' } };
  }
  const stx = config.starlingx;
  if (stx.source.kind !== 'default' || config.kubernetes.source.kind === 'workspace') {
    const host = stxHosts().find((h) => h.release === stx.release.release);
    const v = host?.components.containerd;
    const minor = v && leadingMinor(v);
    if (minor && containerdMinors().includes(minor)) {
      return { minors: [minor], source: { kind: stx.source.kind === 'default' ? 'workspace' : stx.source.kind, detail: `StarlingX ${host!.release} ships containerd ${v} (${host!.source.repo} @ ${host!.source.tag})` } };
    }
  }
  const ks = config.kubernetes.minors;
  const minors = containerdMinors().filter((m) => (kubernetesOf(m) ?? []).some((k) => ks.includes(k)));
  if (minors.length) {
    return { minors, source: { kind: config.kubernetes.source.kind === 'default' ? 'default' : config.kubernetes.source.kind, detail: `containerd minors that support a Kubernetes minor of ${ks[0]}..${ks[ks.length - 1]} (containerd RELEASES.md)` } };
  }
  const newest = containerdMinors()[containerdMinors().length - 1];
  return { minors: [newest], source: { kind: 'default', detail: `no containerd of the data supports Kubernetes ${ks.join(', ')}: the newest containerd of the data (${newest})` } };
}

// ---- the context ----

export interface ContainerdItem {
  /** The full path of the table or key, as segments. */
  segs: string[];
  kind: 'table' | 'key';
  range: { start: number; end: number };
  entry?: TomlEntry;
  table?: TomlTable;
  match: Match;
}

export type ReadAt =
  | { read: true; via?: string }
  | { read: false; why: 'version' | 'absent' | 'migrated-away'; via?: string }
  /** A key under a runtime's `options` that is no field of the options struct its runtime_type selects there. */
  | { read: false; why: 'options-struct'; via?: string; runtimeType: string; struct: string; fields: string[] };

export class ContainerdContext {
  readonly items: ContainerdItem[] = [];
  readonly releases: ContainerdRelease[];
  /** The file's config version (a missing `version` is 1). */
  readonly version: number;
  readonly versionEntry?: TomlEntry;
  /** The node's chain from the workspace (Kata runtime entries → configuration files), when the server gave it. */
  kataChain?: KataChainFacts;
  /** The Kata window of the workspace's configuration files, for the ConfigPath hover. */
  kataWindowText?: string;
  constructor(readonly file: string, readonly toml: TomlFile, readonly window: ContainerdWindow, readonly kubernetesMinors: string[]) {
    this.releases = window.minors.map((m) => containerdRelease(m)!);
    this.versionEntry = toml.entries.find((e) => e.table.length === 0 && e.key.length === 1 && e.key[0] === 'version');
    const v = this.versionEntry?.value;
    this.version = typeof v === 'number' || typeof v === 'bigint' ? Number(v) : 1;
    for (const t of toml.tables) {
      if (t.kind === 'implicit') continue;
      this.items.push({ segs: t.path, kind: 'table', range: t.headerRange, table: t, match: matchPath(t.path, this.version) });
    }
    for (const e of toml.entries) {
      const segs = [...e.table, ...e.key];
      this.items.push({ segs, kind: 'key', range: e.keyRange, entry: e, match: matchPath(segs, this.version) });
    }
  }

  readonly data = containerdData();
  get windowText(): string { return windowText(this.window.minors); }
  get minors(): string[] { return this.window.minors; }

  /** Whether a minor reads the file's config version at all. */
  readsVersion(r: ContainerdRelease): boolean { return r.configVersions.includes(this.version); }

  /** Whether minor `r` reads the (known) data path, given the file's version and that minor's migration. */
  readAt(node: KeyNode, r: ContainerdRelease): ReadAt {
    if (!this.readsVersion(r)) return { read: false, why: 'version' };
    const cri1 = node.path.startsWith('plugins."io.containerd.grpc.v1.cri".');
    if (this.version < 3 && r.currentConfigVersion >= 3 && cri1) {
      const moves = this.data.v2map[r.minor]?.[node.path];
      if (moves?.length) {
        const ok = moves.find((m) => m.known);
        return ok ? { read: true, via: ok.to } : { read: false, why: 'migrated-away', via: moves[0].to };
      }
      // Not in the migration's map: a table above keys that are (read when one of them is), or a key of the server part.
      if (!node.row || /^table/.test(node.row.type)) {
        const prefix = `${node.path}.`;
        const under = Object.entries(this.data.v2map[r.minor] ?? {}).filter(([k]) => k.startsWith(prefix));
        if (under.length) return under.some(([, ms]) => ms.some((m) => m.known)) ? { read: true } : { read: false, why: 'migrated-away' };
      }
    }
    return node.minors.has(r.minor) ? { read: true } : { read: false, why: 'absent' };
  }

  /** The known items, each with the window's minors that do not read it (for a reason other than the version). */
  notReadItems(): Array<{ item: ContainerdItem; node: KeyNode; minors: ContainerdRelease[]; reads: ReadAt[] }> {
    const out = [];
    for (const item of this.items) {
      if (item.match.kind !== 'known') continue;
      const node = item.match.node;
      const reads = this.releases.map((r) => this.optionsRead(item, this.readAt(node, r), r));
      const not = this.releases.filter((_, i) => !reads[i].read && (reads[i] as { why: string }).why !== 'version');
      if (not.length) out.push({ item, node, minors: not, reads });
    }
    return out;
  }

  /**
   * A key under a runtime's `options` is read only when it is a field of the options struct the runtime's runtime_type
   * selects at that minor (getRuntimeOptionsType): SystemdCgroup is runc's, not the generic message's a Kata runtime
   * gets (TypeUrl, ConfigPath, ConfigBody). Without a runtime_type literal in the same table (absent, not a string, a
   * template) or for a runtime type whose struct the data does not enumerate, the read stands: no guess.
   */
  private optionsRead(item: ContainerdItem, read: ReadAt, r: ContainerdRelease): ReadAt {
    if (!read.read || item.kind !== 'key' || item.match.kind !== 'known' || !item.match.node.row?.appliesWhenRuntimeType) return read;
    const segs = item.segs;
    if (segs.length < 3 || segs[segs.length - 2] !== 'options') return read;
    const type = this.runtimeTypeOf(segs.slice(0, -2));
    if (!type) return read;
    const ro = r.runtimeOptions;
    if (!ro || ro.notExtracted.includes(type)) return read;
    const struct = ro.byRuntimeType[type] ?? ro.other;
    const fields = ro.structs[struct]?.fields;
    if (!fields || fields.includes(segs[segs.length - 1])) return read;
    return { read: false, why: 'options-struct', via: read.via, runtimeType: type, struct, fields };
  }

  /** The runtime_type literal of a runtime table (by its path), when the file sets one that is a plain name. */
  private runtimeTypeOf(table: string[]): string | undefined {
    const byPath = (this.runtimeTypes ??= new Map(this.toml.entries
      .filter((e) => e.key[e.key.length - 1] === 'runtime_type')
      .map((e) => [[...e.table, ...e.key].slice(0, -1).join('\u0000'), e] as const)));
    const v = byPath.get(table.join('\u0000'))?.value;
    // A templated value ({{ .RuntimeType }}, ${RUNTIME}) says nothing about the struct.
    return typeof v === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v) ? v : undefined;
  }
  private runtimeTypes?: Map<string, TomlEntry>;

  private runtimesRead?: ContainerdRuntimes;
  /** The file's runtime entries, read once (runtimesOf) for the rules, the hover and the facts. */
  runtimes(): ContainerdRuntimes { return (this.runtimesRead ??= runtimesOf(this.toml)); }

  /** The Kata runtime entries: `…containerd.runtimes.<name>` tables whose name or runtime_type says kata. */
  kataRuntimes(): ContainerdRuntime[] { return this.runtimes().entries.filter(isKataRuntime); }

  /** Every runtime name the file defines (a RuntimeClass handler must be one of them). */
  runtimeNames(): string[] { return this.runtimes().names; }
}

// ---- the runtime entries: the one reading of `…containerd.runtimes.<name>` every consumer shares ----

/** A runtime entry of a containerd config (`[plugins.<plugin>.containerd.runtimes.<name>]`, its keys below it). */
export interface ContainerdRuntime {
  name: string;
  /** The runtime table's path, as segments. */
  segs: string[];
  /** Its table (a header, or implied by dotted keys), when the file has one. */
  table?: TomlTable;
  runtimeType?: TomlEntry;
  runtimePath?: TomlEntry;
  configPath?: TomlEntry;
  /** Whether a key is set under it (a bare header sets none). */
  hasKeys: boolean;
  /** The table's header, else its first key. */
  range: { start: number; end: number };
}
export interface ContainerdRuntimes {
  entries: ContainerdRuntime[];
  /** Every runtime name, once each, in the order the file first names it. */
  names: string[];
}

/** Index of the runtime name in a path `plugins.<plugin>.containerd.runtimes.<name>…`, or -1. */
function runtimeNameAt(segs: string[]): number {
  const p = firstPair(segs);
  return p >= 0 && p + 2 < segs.length ? p + 2 : -1;
}

/** Index of the first `containerd`, `runtimes` pair of keys at or after `from`, or -1. */
function pairFrom(keys: string[], from: number): number {
  for (let i = from; i + 1 < keys.length; i++) if (keys[i] === 'containerd' && keys[i + 1] === 'runtimes') return i;
  return -1;
}

/** Index of the first `containerd`, `runtimes` pair of a path `plugins.<plugin>.containerd.runtimes…`, or -1. */
function firstPair(segs: string[]): number {
  return segs[0] === 'plugins' ? pairFrom(segs, 1) : -1;
}

const isKataRuntime = (r: ContainerdRuntime) => /kata/i.test(r.name) || (typeof r.runtimeType?.value === 'string' && /kata/i.test(r.runtimeType.value));

/** The runtime entries and names of a parsed containerd config. */
export function runtimesOf(toml: TomlFile): ContainerdRuntimes {
  const found = new Map<string, ContainerdRuntime>();
  const names = new Set<string>();
  // Each table's first `containerd`, `runtimes` pair (runtimeNameAt's), found from its parent's: a table under a pair
  // has its parent's; else only the keys past the parent's (and the parent's last, for a pair across the two) are
  // read. Inline tables nested N deep cost N steps, not N paths of up to N keys (8 such chains under plugins, 800
  // deep: 43 of 122 ms went to reading their paths).
  const pairOf = new Map<TomlTable, { at: number; name?: string }>();
  for (const t of toml.tables) {
    if (t.top[0] !== 'plugins') continue;
    const up = t.parent && pairOf.get(t.parent);
    let at = -1;
    let name: string | undefined;
    if (up && up.at >= 0) {
      at = up.at;
      name = up.name ?? (at + 2 < t.depth ? t.tail(t.depth - at - 2)[0] : undefined);
    } else {
      const from = up ? Math.max(1, t.parent!.depth - 1) : 0;
      const keys = up ? t.tail(t.depth - from) : t.path;
      const j = pairFrom(keys, Math.max(0, 1 - from));
      if (j >= 0) at = from + j;
      if (at >= 0 && at + 2 < t.depth) name = keys[at + 2 - from];
    }
    pairOf.set(t, { at, name });
    if (name === undefined) continue;
    names.add(name);
    if (t.depth === at + 3) {
      const key = t.path.slice(0, at + 3).join('\u0000');
      if (!found.has(key)) found.set(key, { name, table: t, segs: t.path, hasKeys: false, range: t.headerRange });
    }
  }
  // Entries: their table's path is one array shared by the table's entries, so its pair is looked for once.
  const pairIn = new Map<string[], { at: number; key?: string }>();
  for (const e of toml.entries) {
    let p = pairIn.get(e.table);
    if (!p) { p = { at: firstPair(e.table) }; pairIn.set(e.table, p); }
    let i: number;
    if (p.at >= 0) i = p.at + 2; // the table holds the pair: the name is its next key, in the table or the entry's key
    // Else a pair across the table's end has no name after it: an entry's key is one key (dotted keys are filed under
    // the tables they name), and a longer one is read whole.
    else if (e.key.length > 1) i = runtimeNameAt([...e.table, ...e.key]);
    else continue;
    if (i < 0) continue;
    const inTable = i < e.table.length;
    const segs = inTable ? e.table : [...e.table, ...e.key];
    const name = segs[i];
    names.add(name);
    const key = inTable ? (p.key ??= e.table.slice(0, i + 1).join('\u0000')) : segs.slice(0, i + 1).join('\u0000');
    const cur = found.get(key) ?? { name, segs: segs.slice(0, i + 1), hasKeys: false, range: e.keyRange };
    found.set(key, cur);
    cur.hasKeys = true;
    // What follows the name: only runtime_type, runtime_path and options.ConfigPath are read (two keys at most).
    if (e.table.length + e.key.length - (i + 1) > 2) continue;
    const rest = [...e.table, ...e.key].slice(i + 1).join('.');
    if (rest === 'runtime_type') cur.runtimeType = e;
    if (rest === 'runtime_path') cur.runtimePath = e;
    if (rest === 'options.ConfigPath') cur.configPath = e;
  }
  return { entries: [...found.values()], names: [...names] };
}

/** A containerd config's text read once for both workspace facts (runtime names, Kata runtimes): the last few kept. */
const runtimesOfTextMemo = new Map<string, ContainerdRuntimes | undefined>();
function runtimesOfText(text: string): ContainerdRuntimes | undefined {
  if (text.length > 1 << 20) return undefined;
  if (runtimesOfTextMemo.has(text)) return runtimesOfTextMemo.get(text);
  const toml = parseTomlText(text);
  const r = toml.errors.length ? undefined : runtimesOf(toml);
  if (runtimesOfTextMemo.size >= 8) runtimesOfTextMemo.delete(runtimesOfTextMemo.keys().next().value!);
  runtimesOfTextMemo.set(text, r);
  return r;
}

/**
 * The runtime names a containerd config defines (`…containerd.runtimes.<name>`), for the workspace's cross-file facts
 * (a RuntimeClass handler names one). undefined: not a containerd config, or it does not parse.
 */
export function containerdRuntimeNames(text: string): string[] | undefined {
  return runtimesOfText(text)?.names;
}

/**
 * The Kata runtime entries of a containerd config (name or runtime_type says kata, a key set under it) with
 * runtime_type, runtime_path and options.ConfigPath, for the workspace's chain RuntimeClass → runtime → Kata
 * configuration. undefined: does not parse.
 */
export function containerdKataRuntimes(text: string): Array<{ runtime: string; runtimeType?: string; runtimePath?: string; configPath?: string }> | undefined {
  const r = runtimesOfText(text);
  if (!r) return undefined;
  const str = (e?: TomlEntry) => (typeof e?.value === 'string' ? e.value : undefined);
  return r.entries.filter((rt) => rt.hasKeys && isKataRuntime(rt)).map((rt) => {
    const out: { runtime: string; runtimeType?: string; runtimePath?: string; configPath?: string } = { runtime: rt.name };
    const t = str(rt.runtimeType), p = str(rt.runtimePath), c = str(rt.configPath);
    if (t !== undefined) out.runtimeType = t;
    if (p !== undefined) out.runtimePath = p;
    if (c !== undefined) out.configPath = c;
    return out;
  });
}

/**
 * The folder that stands for a node's / in the workspace, for a containerd config there: the one holding etc/containerd/
 * (…/etc/containerd/config.toml, …/etc/containerd/conf.d/x.toml), else the one holding its containerd/ folder; never
 * above the workspace root. A Kata runtime's ConfigPath is looked up below it.
 */
export function containerdNodeRoot(file: string, root: string): string {
  const parts = file.split(path.sep);
  for (let i = parts.length - 2; i > 0; i--) {
    if (parts[i] === 'containerd' && parts[i - 1] === 'etc') { const r = parts.slice(0, i - 1).join(path.sep) || path.sep; return r.length < root.length ? root : r; }
  }
  const r = path.dirname(path.dirname(file));
  return r.length < root.length ? root : r;
}
