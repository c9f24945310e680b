// What makes a family (StarlingX localhost.yml, Kubernetes manifests, Kata configuration.toml, Kata persist.json):
// one module per family under families/<family>/, listed in registry.ts. The core (analyze, hover, completion,
// the server's file facts) only iterates over the registry: adding a family is its folder and one registry line.
import type { AnalyzeInput, AnalyzeResult } from '../analyze';
import type { CompletionResult, HoverResult } from '../language';
import type { YamlFile } from '../parse/yaml';
import type { Position, SourceInfo } from '../types';
import type { Finding, Rule, RuleMeta } from '../rules/types';
import type { FileAccess } from '../files';
import type { ConfigSection } from '../config-core';
import type { Overrides as ConfigOverrides } from '../config';
import type { WorkspaceFacts } from '../config';
import type { NeighbourFacts } from './registry';

export type Emit = (rule: RuleMeta, f: Finding) => void;
export type Stage = <T>(name: string, fn: () => T) => T;

/** An inlay hint (FamilyModule.inlayHints), shown after a value. */
export interface InlayHint {
  /** Zero-based line and UTF-16 character the hint is shown at (after the value). */
  position: { line: number; character: number };
  label: string;
  tooltip: string;
}

/** What files a family is served: see FamilyModule.serves. */
export interface ServedFiles {
  /** `name`: only a file whose name matches this pattern (`*` any characters, case-insensitive), e.g. `*metrics*`. */
  files: Array<{ ext: string; within?: string; parent?: string; name?: string }>;
  languages?: string[];
  patterns?: string[];
}

/** What is known of a file before it is parsed. */
export interface FileLook {
  file: string;
  /** The extension, lower case, with its dot ('' for none). */
  ext: string;
  text: string;
}

/** A family's cheap look at a file before the core parses it. */
export interface LookResult {
  /** The core does not parse the file as YAML (it is not YAML, or the family reads it itself; it may be large). */
  notYaml: boolean;
  /** Handed back to this family's detect(). */
  memo?: unknown;
}

export interface DetectInput extends FileLook {
  /** The first 2000 characters (where a modeline is looked for). */
  head: string;
  /** The file read as YAML, unless a family's look() said not to. */
  yaml?: YamlFile;
  /** This family's own look() memo. */
  memo?: unknown;
  /** Read access to the files around this one (AnalyzeInput.files), when the caller gives it. */
  files?: FileAccess;
}

/** What a family's analyze() gets: the input, the YAML reading (if any) and the core's emit and stage. */
export interface FamilyRun {
  input: AnalyzeInput;
  ext: string;
  yaml?: YamlFile;
  emit: Emit;
  stage: Stage;
}

/** Confidence levels of detect(): the highest wins; a tie goes to the family listed first in the registry. */
export const DETECT = {
  /** Not this family's file. */
  no: 0,
  /** Text hints only (e.g. an unrendered template, a top level that could not be read). */
  hint: 1,
  /** The content's shape is this family's. */
  content: 2,
  /** The content's structure is this family's beyond doubt (e.g. apiVersion and kind). */
  structure: 3,
  /** The file's name is this family's. */
  name: 4,
} as const;

/** A family's module; `Id` is its id as a literal type, from which the registry derives the `Family` union. */
export interface FamilyModule<Id extends string = string> {
  id: Id;
  /** What its files are, as a heading: the section title of the rule docs (e.g. "Kubernetes manifests"). */
  title: string;
  /** Names a `# skewguard: <name>` modeline may give for this family. */
  modelineNames: string[];
  /**
   * The files it is served (engine/served.ts composes them: lsp-lint's folder walk, the editors' document selector, the
   * web extension's reads): by extension (`within`: only below a folder of that name; `parent`: only directly in one),
   * by VS Code language id, and by glob pattern whatever the language.
   */
  serves: ServedFiles;
  /** Before parsing (name, a scan of the text): whether the core should leave YAML parsing out. */
  look?(f: FileLook): LookResult;
  /** How surely the file is this family's (DETECT levels), by its name and content. */
  detect(d: DetectInput): number;
  /**
   * Why detect() gave this level, in a phrase ("under templates/ of the chart at …", "apiVersion and kind at its top
   * level; …"): what --print-config, the first line's hover and the status item say. Absent: the level's name.
   */
  explain?(d: DetectInput, level: number): string | undefined;
  /** Every rule of the family (each with its check), in the order of the rule registry and the docs. */
  rules: Array<Rule<any>>;
  /** Parses the file, builds its context and runs its rules; returns the result's family part. */
  analyze(run: FamilyRun): Partial<AnalyzeResult>;
  hover(result: AnalyzeResult, text: string, pos: Position): HoverResult | undefined;
  complete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[];
  /** Per-file facts (--print-config, the JSON report, the status bar, cross-file rules); undefined when none. */
  facts(result: AnalyzeResult): Record<string, unknown> | undefined;
  /** The steps of the file's window (the versions each finding's `steps` are among), in order; undefined when none. */
  steps?(result: AnalyzeResult): readonly string[] | undefined;
  /**
   * Where the file's window (those steps) came from: set by the user (cli, config, settings), found in the workspace,
   * or a default (fix-all applies no fix that removes or rewrites a key under a default window). Given with steps() (a
   * family whose steps are the Kubernetes window's gives that window's source).
   */
  stepsSource?(result: AnalyzeResult): SourceInfo | undefined;
  /**
   * What those steps are versions of, as the per-step views name them (the code lens' "Kubernetes 1.29–1.31:", fix-all's
   * reason): given with steps() (a family whose steps are the Kubernetes window's says 'Kubernetes').
   */
  stepsName?: string;
  /**
   * Its inlay hints of an analysed file, in order: after a version value, what it implies across the window (a
   * localhost.yml's kubernetes_version: the upgrade path; a manifest's image: the steps it is validated for). The core
   * (engine/window-verdict.ts inlayHints) asks only for a checked file with a configuration. Absent: none.
   */
  inlayHints?(result: AnalyzeResult, text: string): InlayHint[];
  /**
   * Its part of the configuration, when its files have a window of their own (families/<id>/config.ts): the core
   * composes .skewguard.yaml's schema, the settings, lsp-lint's flags, --print-config, the picker and status from it.
   */
  config?: ConfigSection;
  /**
   * The workspace facts its window is read from when none is configured (e.g. kata-deploy's image tags: the Kata
   * window), each produced by the server (server/workspace.ts) from what its bounded walks found, when first asked for.
   */
  workspaceFactProducers?: readonly WorkspaceFactProducer[];
  /**
   * The facts of a workspace root it gathers from the files there (the node's Kata chain, the containerd configs'
   * runtimes), each a NeighbourFacts key: the server produces one when a rule first asks for it, with its bounded walk
   * and saved-file reads (WorkspaceHost), and keeps it until the workspace changes.
   */
  rootFactProducers?: readonly RootFactProducer[];
  /**
   * Whether a saved change of `file` (a path) may change other files' findings in a way no root index follows (a Helm
   * chart's template or values file: the chart's other files render with it): the server then checks every file again
   * instead of only the file and what the root indexes say changed (server/watched-files.ts). Absent: never.
   */
  changeReachesOthers?(file: string): boolean;
  /** Loads the family's upstream data (cached by the loader). */
  data(): unknown;
  /**
   * Whether a multi-document file of this family may be checked in parts of whole documents, each part on its own,
   * with the same findings as the whole file (the language server does so for big files: server/scheduler.ts).
   * True only when no rule of the family looks at another document of the file for this text. `firstPart` is the
   * analysis of the file's first part alone (a note said once per file or run goes where the whole file puts it).
   * Absent: never.
   */
  documentWise?(text: string, firstPart: AnalyzeResult): boolean;
  /**
   * With documentWise: what a part of the file holds that a rule compares across the whole file (the Kubernetes
   * family: each operator version pin, as `op:<operator>`; `*` for one it cannot name alone, a HelmRelease whose chart
   * source may be elsewhere). The file is checked whole when a key is held twice, or `*` with any other key: the parts
   * alone would compare less than the whole file does.
   */
  partKeys?(text: string, path: string): readonly string[];
}

/** What the server gives a family's workspace fact (server/workspace.ts): it reads the disk, the families do not. */
export interface WorkspaceFactInput {
  /** What the server's walks gathered for the workspace root (the node's chain …), each read when first asked for. */
  neighbours: NeighbourFacts;
  /** Whether a file is under the same .skewguard.yaml (or none) as the files the fact is for. */
  inScope(file: string): boolean;
  /** A file's path as the fact says it (relative to the workspace root). */
  relative(file: string): string;
}

/** A fact of the workspace (WorkspaceFacts[key], declared by the family's config.ts) that a family produces. */
export interface WorkspaceFactProducer<K extends keyof WorkspaceFacts = keyof WorkspaceFacts> {
  key: K;
  /** The fact, or undefined when the workspace has none. */
  produce(input: WorkspaceFactInput): WorkspaceFacts[K] | undefined;
}

/** What the server lends a family's root fact (server/workspace.ts): it reads the disk, the families do not. */
export interface WorkspaceHost {
  /**
   * The server's bounded breadth-first walk of a folder (hidden and always-skipped folders left out; server/walk.ts):
   * `onFile(path, name)` returns false to stop it. A folder it cannot list is in `unreadable`, with why.
   */
  walk(root: string, opts: { maxFolders: number; onFile: (p: string, name: string) => boolean | void; sorted?: boolean }): { folders: number; stopped: boolean; unreadable: string[] };
  /** "…: N folders could not be listed (…)" for a walk's unreadable folders (none: nothing to say). */
  unreadableNote(what: string, unreadable: string[]): string[];
  /**
   * A file's saved text (never an open buffer's: a window or fact of other files is a function of the disk, whatever
   * is open, as in lsp-lint), read only up to `maxBytes` (and the engine's file limit); undefined when not read.
   */
  readSaved(file: string, maxBytes: number): string | undefined;
  /** A file's size and modification time on disk, as a string that changes when it is saved (undefined: not a regular file). */
  stamp(file: string): string | undefined;
  /** Whether the ignore: lists leave a file out (engine/ignore.ts with the file's configuration): it then counts for nothing. */
  ignored(file: string): boolean;
  /** The configuration that applies to a file (its nearest .skewguard.yaml, as saved, or --config), with its path. */
  configOf(file: string): { path: string; overrides: ConfigOverrides } | undefined;
  /**
   * An open document's text (undefined: not open). Only for a fact that follows what is open as the document's own
   * analysis does (the CRD index: a CRD being written defines its kinds for the other files at once); every other fact
   * reads the disk (readSaved).
   */
  openText(file: string): string | undefined;
  /** The open documents' paths. */
  openFiles(): Iterable<string>;
  /** Whether a path lies in the checked roots: a path a repository's configuration names outside them is not read. */
  inside(file: string): boolean;
  /**
   * What is at a path (`noFollow`: a link is not followed, it is a `link`), its size and a stamp that changes when it is
   * written; or why it cannot be looked at (the error's code, else its message).
   */
  look(file: string, opts?: { noFollow?: boolean }): { kind: 'file' | 'folder' | 'link' | 'other'; size: number; stamp: string } | { error: string };
  /**
   * A file's bytes, read only up to `maxBytes` (and the engine's file limit); or why not: `over` (said: "over the size
   * limit (…)") or `error` (the error's code, what it is when not a regular file, else its message).
   */
  readBytes(file: string, maxBytes: number): { bytes: Uint8Array } | { over: string } | { error: string };
}

/** A fact of a workspace root (NeighbourFacts[key]) that a family gathers with the server's walk and reads. */
export type RootFactProducer<K extends keyof NeighbourFacts = keyof NeighbourFacts> = RootValueProducer<K> | RootIndexProducer<K>;

/** A root fact produced whole (a walk and its reads) on first use, and kept until the workspace changes. */
export interface RootValueProducer<K extends keyof NeighbourFacts = keyof NeighbourFacts> {
  key: K;
  /** The fact of the workspace root `root` (an absolute folder). */
  produce(root: string, host: WorkspaceHost): NeighbourFacts[K];
}

/**
 * A root fact kept as an index of the root's files (each file's scan), which a file changed on disk updates in place:
 * only that file is read again, and the server checks the files again only when the root's fact changed.
 */
export interface RootIndexProducer<K extends keyof NeighbourFacts = keyof NeighbourFacts> {
  key: K;
  /** Other NeighbourFacts keys the same index gives (RootIndex.fact's `key`). */
  also?: ReadonlyArray<keyof NeighbourFacts>;
  /** The index of the root `root` (an absolute folder): nothing is read until its fact is first asked for. */
  index(root: string, host: WorkspaceHost): RootIndex<NeighbourFacts[K]>;
  /**
   * Its part of the resolved configuration (lsp-lint --print-config): the name of the request's flag that asks for it
   * and of the part that says it (RootIndex.describe).
   */
  printConfig?: string;
}

/** A root's index (RootIndexProducer): built on first use, kept by the server until the workspace changes. */
export interface RootIndex<T> {
  /**
   * The fact as the analysed file `file` (under the root) sees it; the index is built (walked, read) when first needed.
   * `key`: which of the producer's keys (its `key`, or one of `also`).
   */
  fact(file: string, key: keyof NeighbourFacts): T;
  /**
   * A file changed, was created or was deleted on disk (a watched-file event): only that file is read again (nothing
   * is done while the index is not built). Returns whether the root's fact changed: the server then checks the files again.
   */
  changed(file: string): boolean;
  /**
   * An open document's text changed (opened, edited; closed: `text` undefined, the disk's), for an index that follows
   * open buffers (WorkspaceHost.openText). `before`: the text the workspace saw until now, when known (a closed
   * buffer's). Returns whether the root's fact changed: the server then checks the other files again.
   */
  edited?(file: string, text: string | undefined, before?: string): boolean;
  /** The configuration changed (the ignore: lists …): what was gathered from the kept scans is gathered again. Absent: the index is dropped. */
  forgetConfig?(): void;
  /**
   * What a configuration file's entries for this index cannot give (a file it names cannot be read …), each at the path
   * of its entry in the file (`value`: the file's YAML value, read when needed): said as the configuration's problems.
   */
  configProblems?(configPath: string, overrides: ConfigOverrides, value: () => unknown): Array<{ message: string; path: Array<string | number> }>;
  /** Its part of the resolved configuration (RootIndexProducer.printConfig). */
  describe?(): unknown;
}
