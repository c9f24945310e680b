// lsp-lint's flags of the families' windows (--kata-window, --containerd-window …) without bundling the engine: a
// table that scripts/build.mjs takes from the families' config sections (engine/config-core.ts ConfigSection.flags,
// composed in engine/config.ts CONFIG_SECTIONS) and puts in at build time, as cli/rule-meta.ts does for the rules.
import type { CliFlag } from '../engine/config-core';

declare const __SKEWGUARD_FAMILY_FLAGS__: CliFlag[];

/** Every family flag, in the sections' order (their --help lines are printed in this order). */
export const familyFlags: readonly CliFlag[] = __SKEWGUARD_FAMILY_FLAGS__;

const byName = new Map<string, CliFlag>(familyFlags.flatMap((f) => [f.name, ...(f.aliases ?? [])].map((n) => [n, f] as [string, CliFlag])));

/** The family flag spelled `name` (or one of its aliases); undefined: not one. */
export const familyFlag = (name: string): CliFlag | undefined => byName.get(name);

/** The families' lines of --help: the window flags', those after --rule, or those among the run's options (CliFlag.among). */
export const familyFlagsHelp = (among: NonNullable<CliFlag['among']> = 'windows'): string => familyFlags.filter((f) => (f.among ?? 'windows') === among).map((f) => f.help).join('');
