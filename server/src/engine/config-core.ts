// The configuration's small core: the types a family's config section (families/<id>/config.ts) implements, and a few
// helpers. engine/config.ts composes the sections of the registry's families into `.skewguard.yaml`'s schema and
// validation, the resolved configuration and --print-config; shared/settings.ts into the editor settings; the build
// into lsp-lint's flags and help (server/src/cli/family-flags.ts) and package.json's settings (npm run gen:docs);
// the server into the window picker (window-command.ts) and the status item (window-status.ts).
// Families (and the components' section, engine/components/config.ts) import this module, never engine/config.ts at
// run time (so no load-time cycle config → registry → families → config); they add their own keys to `Overrides`,
// `ResolvedConfig` and `Settings` by module augmentation.
import type { SourceInfo } from './types';
import type { WindowPartSpec, WindowChoicesResult } from '../shared/protocol';
import type { Overrides, ResolvedConfig, WorkspaceFacts } from './config';
import type { ComponentWindowInput } from './components/types';

/** A problem in a configuration value, at a path of keys ("at" says whether the key or the value is wrong). */
export interface ValueProblem { message: string; path: Array<string | number>; at: 'key' | 'value' | 'root' }

/** What a section's validate() gets: its own part of the value (an object or undefined) and where to put results. */
export interface ValidateContext {
  /** Whether the schema found nothing wrong at this path ("kata.window") or around it. */
  ok(path: string): boolean;
  overrides: Overrides;
  problems: ValueProblem[];
  /** Whether this key is part of the schema being validated against (the editor settings have fewer keys). */
  has(key: string): boolean;
}

/** The first layer (command line, .skewguard.yaml, editor settings, in that order of precedence) that sets a key. */
export type PickLayer = <K extends keyof Overrides>(k: K) => [NonNullable<Overrides[K]>, SourceInfo] | undefined;

export interface ResolveContext {
  pick: PickLayer;
  /** Every layer, most precedent first (command line, .skewguard.yaml, editor settings), for a value merged across them. */
  layers: ReadonlyArray<readonly [Overrides | undefined, SourceInfo]>;
  workspace?: WorkspaceFacts;
  /** The parts resolved so far: the sections before this one in order (the Kubernetes window reads the StarlingX release). */
  resolved: Partial<ResolvedConfig>;
  /** Every section, in order: what one may ask the others (the components' windows read their `componentInput`). */
  sections: readonly ConfigSection[];
}

/** One lsp-lint flag of a section (the build puts the table in lsp-lint: server/src/cli/family-flags.ts). */
export interface CliFlag {
  /** "--containerd-window". */
  name: string;
  /** Other spellings ("--kata-flavor"). */
  aliases?: string[];
  /** The Overrides key the value goes to. */
  key: string;
  /** The values it takes (else a usage error: `invalid`). */
  values?: string[];
  invalid?: string;
  /** Its lines in --help, as printed. */
  help: string;
  /**
   * How the value is read (default: as given). 'version': a version such as 1.25 or v1.25.0, normalised ("1.25"), else
   * the usage error `invalid`; 'minor=path': repeatable <minor>=<file>, the file resolved against the working folder,
   * gathered into a map by minor (else the usage error `invalid`); 'path': a file, resolved against the working folder;
   * 'switch': no value, the key is set to true (--helm-render); 'map': repeatable <name>=<value>[,…], each value as
   * given (the server checks it), gathered into a map by name (else the usage error `invalid`: --component-versions).
   */
  form?: 'version' | 'minor=path' | 'path' | 'switch' | 'map';
  /**
   * Where its --help lines are printed: with the window flags (default), right after --rule ('rules': the component
   * versions), or among the run's options after --no-ignore ('run').
   */
  among?: 'windows' | 'rules' | 'run';
}

/** One part of the window the picker ("Change window…") offers (its shape is the protocol's: the client reads it). */
export type WindowPart = WindowPartSpec;

/** A family's section of the configuration: everything about its window, in its own folder. */
export interface ConfigSection {
  /** Its key in .skewguard.yaml, its editor settings' prefix (skewguard.<section>.*) and its --print-config key. */
  section: string;
  /**
   * Its place among the sections (in .skewguard.yaml's schema and validation, --print-config, --help, the picker and
   * the status item); ties go by the registry's order. A negative order is a window every other family's is read from
   * (StarlingX -20, Kubernetes -10), then the components' versions (-5: engine/components/config.ts,
   * kubernetes.components), the families' own windows (order >= 0) after them; a section of order AFTER_CORE_KEYS (100)
   * or more comes after the core's rules, ignore and files (the Helm family's helm:).
   */
  order: number;
  /**
   * A key of another section's, not a section of its own: `.skewguard.yaml`'s `<section>.<this section>` (the components'
   * `kubernetes.components`), its schema put in that section's after the key `after`, its editor setting
   * (skewguard.<section>.<this section>) after that key's, and its settings under that section's. Its resolved and
   * --print-config key is its own (`components`); it validates, checks lsp-lint's flags and resolves at its order.
   */
  within?: { section: string; after: string };
  /** The section's JSON schema (an object with additionalProperties: false; with `within`: the key's schema). */
  schema: { type: 'object'; additionalProperties: false; properties: Record<string, object> };
  /** The keys of its schema the editor settings have (skewguard.<section>.<key>); absent: all of them. */
  settingsKeys?: string[];
  /**
   * Keys of its editor settings (maps) whose entries set at the user level the server must tell from the repository's
   * (a workspace value is read only inside the workspace): the server names them in its initialize result
   * (`userLevelSettings`, shared/user-level.ts) and the VS Code client says each one's user-level entries (`userLevel`).
   */
  userLevel?: string[];
  /** Its entries of package.json's contributes.configuration (written by npm run gen:docs; test/manifest checks them). */
  packageSettings: Record<string, Record<string, unknown>>;
  /** Checks its part of a value against the data; valid values go to ctx.overrides, problems to ctx.problems. */
  validate(section: Record<string, unknown> | undefined, ctx: ValidateContext): void;
  /** Its part of the editor settings (protocol Settings) from valid overrides; undefined: none set. */
  settingsOf(o: Overrides): Record<string, unknown> | undefined;
  /** lsp-lint's flags' problems, as the usage errors it prints. */
  checkCli(cli: Overrides): string[];
  /** Its part of the resolved configuration (ResolvedConfig[section]). */
  resolve(ctx: ResolveContext): unknown;
  /** Other keys of the resolved configuration it sets (after every section's own), e.g. the user's lifecycle rows. */
  also?(ctx: ResolveContext): Partial<ResolvedConfig>;
  /**
   * What `also` set, as --print-config says it: its keys as they are, among the sections' parts before those of order
   * `order` or more (the component windows: after the StarlingX release, before the Kubernetes window).
   */
  describeAlso?: { order: number; describe(c: ResolvedConfig): Record<string, unknown> };
  /** What it tells the component modules' windows (engine/components/), e.g. the StarlingX upgrade path. */
  componentInput?(ctx: ResolveContext): Partial<ComponentWindowInput>;
  /** Its part of --print-config and the "Show Resolved Window" document. */
  describe(c: ResolvedConfig): unknown;
  flags: CliFlag[];
  /**
   * The picker's parts (each with its `choices`, or the `pattern` of a typed value); read when asked, so a getter may
   * compute them from the data (the StarlingX releases).
   */
  parts: WindowPart[];
  /** Parts the picker lists after every section's (e.g. the platform's upgrade start). */
  partsLast?: WindowPart[];
  /** What else the picker offers (skewguard/windowChoices), e.g. the StarlingX releases to pick from. */
  choices?(): Partial<WindowChoicesResult>;
  /** The values .skewguard.yaml's completion offers for one of its keys, with a line about each; undefined: the schema's. */
  values?(key: string): Array<{ label: string; detail?: string }> | undefined;
  /**
   * The status item's words for a file whose facts (from this section's own family) name this window; undefined: none.
   * `said`: the parts the sections before it said.
   */
  status?(facts: Record<string, unknown>, c: ResolvedConfig, said: readonly string[]): string | string[] | undefined;
  /**
   * The status item's words for a checked file whose facts name no window (no section's status said one): the window
   * every family's checks start from (the Kubernetes window). The first section that has it says it.
   */
  statusOtherwise?(c: ResolvedConfig): string;
  /**
   * Its line in the status item's tooltip when set (label, window, details said after it, where it came from);
   * undefined: no line. A section of negative order (a window every other is read from) says it always.
   */
  tooltip?(c: ResolvedConfig): { label: string; window: string; details?: string; source: SourceInfo } | undefined;
  /** Its words in the workspace's one-line summary (skewguard/resolvedConfig `summary`) when set; undefined: not said. */
  summary?(c: ResolvedConfig): string | undefined;
  /**
   * Fix-all holds back key-changing fixes under a default window (server/fix-window.ts): what it says for a file whose
   * steps are this window's (FamilyModule.stepsName), e.g. "the Kata window is the default 4.1.0; set kata.window".
   */
  heldBack?: {
    /** A file whose steps are this window's (FamilyModule.stepsName). */
    stepsName?: string;
    /** Else a file whose window's source is this section's (the Kubernetes path of the default StarlingX release). */
    source?(c: ResolvedConfig): SourceInfo | undefined;
    /** Else any other file (the Kubernetes window, which every family's checks start from). */
    otherwise?: boolean;
    text(window: string): string;
  };
}

/**
 * A section of this order or more comes after the core's own keys (rules, ignore, files) in .skewguard.yaml's schema and
 * validation, --print-config, the editor settings and package.json's: the Helm family's `helm:`, which has always sat there.
 */
export const AFTER_CORE_KEYS = 100;

/** A part of the window nobody chose (no command line, .skewguard.yaml, setting or workspace fact): said "(default)". */
export const mark = (s: { kind?: string } | undefined): string => (s?.kind === 'default' ? ' (default)' : '');
