// The configuration's small core: the types a family's config section (families/<id>/config.ts) implements, and a few
// helpers. engine/config.ts composes the sections of the registry's families into `.skewguard.yaml`'s schema and
// validation, the resolved configuration and --print-config; shared/settings.ts into the editor settings; the build
// into lsp-lint's flags and help (server/src/cli/family-flags.ts) and package.json's settings (npm run gen:docs);
// the server into the window picker (window-command.ts) and the status item (window-status.ts).
// Families import this module, never engine/config.ts at run time (so no load-time cycle config → registry →
// families → config); they add their own keys to `Overrides`, `ResolvedConfig` and `Settings` by module augmentation.
import type { SourceInfo } from './types';
import type { WindowPartSpec } from '../shared/protocol';
import type { Overrides, ResolvedConfig, WorkspaceFacts } from './config';

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
  workspace?: WorkspaceFacts;
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
}

/** One part of the window the picker ("Change window…") offers (its shape is the protocol's: the client reads it). */
export type WindowPart = WindowPartSpec;

/** A family's section of the configuration: everything about its window, in its own folder. */
export interface ConfigSection {
  /** Its key in .skewguard.yaml, its editor settings' prefix (skewguard.<section>.*) and its --print-config key. */
  section: string;
  /**
   * Its place after the Kubernetes window, among the families' sections (in .skewguard.yaml's schema, --print-config,
   * --help, the picker and the status item); ties go by the registry's order.
   */
  order: number;
  /** The section's JSON schema (an object with additionalProperties: false). */
  schema: { type: 'object'; additionalProperties: false; properties: Record<string, object> };
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
  /** Its part of --print-config and the "Show Resolved Window" document. */
  describe(c: ResolvedConfig): unknown;
  flags: CliFlag[];
  parts: WindowPart[];
  /** The status item's words for a file whose facts (from this section's own family) name this window; undefined: none. */
  status?(facts: Record<string, unknown>, c: ResolvedConfig): string | undefined;
  /** Its line in the status item's tooltip when set (label, window, where it came from); undefined: no line. */
  tooltip?(c: ResolvedConfig): { label: string; window: string; source: SourceInfo } | undefined;
  /** Its words in the workspace's one-line summary (skewguard/resolvedConfig `summary`) when set; undefined: not said. */
  summary?(c: ResolvedConfig): string | undefined;
  /**
   * Fix-all holds back key-changing fixes under a default window (server/fix-window.ts): what it says for a file whose
   * steps are this window's (FamilyModule.stepsName), e.g. "the Kata window is the default 4.1.0; set kata.window".
   */
  heldBack?: { stepsName: string; text(window: string): string };
}

/** A part of the window nobody chose (no command line, .skewguard.yaml, setting or workspace fact): said "(default)". */
export const mark = (s: { kind?: string } | undefined): string => (s?.kind === 'default' ? ' (default)' : '');
