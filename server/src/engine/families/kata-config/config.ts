// The Kata window's part of the configuration (`kata:` of .skewguard.yaml, skewguard.kata.*, --kata-window,
// --kata-flavour): composed by the core from the registry (engine/config-core.ts).
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { mark } from '../../config-core';
import { compareVersions } from '../../versions';
import { windowText } from '../../window-text';
import { checkKataWindowSpec, parseKataWindowSpec, isSpec, type KataWindowSpec } from './data/window';

declare module '../../config' {
  interface Overrides {
    kataWindow?: string;
    kataFlavour?: string;
  }
  interface ResolvedConfig {
    /** window: its ends, each with the flavour written after it ("3.20 (go)..4.1 (runtime-rs)"), engine/kata/window.ts. */
    kata: { window?: KataWindowSpec; flavour?: string; source: SourceInfo; flavourSource?: SourceInfo };
  }
  interface WorkspaceFacts {
    /** kata-deploy's image tags in the workspace (its DaemonSet or Helm values): the Kata window when none is configured. */
    kataDeploy?: { path: string; tags: string[] };
  }
}
declare module '../../../shared/protocol' {
  interface Settings {
    kata?: { window?: string; flavour?: string };
  }
}

/** Returns an error message for a Kata window that is malformed or names no known release. */
export function checkKataWindow(s: string): string | undefined {
  // Releases may carry their flavour ("3.20 (go)..4.1 (runtime-rs)"): engine/kata/window.ts.
  return checkKataWindowSpec(s);
}

/** A kata.window value as the resolved configuration holds it (undefined when malformed: reported where it is read). */
function kataWindowOf(s: string): KataWindowSpec | undefined {
  const r = parseKataWindowSpec(s);
  return isSpec(r) ? r : undefined;
}

/** "3.2..3.32", "3.20 (go)..4.1 (runtime-rs)": a window as --print-config and the status bar show it. */
export function kataWindowText(w: KataWindowSpec): string {
  const end = (v: string, f?: string) => (f ? `${v} (${f})` : v);
  if (w.from === w.to && w.fromFlavour === w.toFlavour) return end(w.from, w.fromFlavour);
  return `${end(w.from, w.fromFlavour)}..${end(w.to, w.toFlavour)}`;
}

type Picked = [string, SourceInfo] | undefined;
type KataResolved = { window?: KataWindowSpec; flavour?: string; source: SourceInfo; flavourSource?: SourceInfo };

/** The Kata window kata-deploy's image tags say: that release, or oldest..newest when the workspace holds several. */
function kataDeployWindow(k: { path: string; tags: string[] } | undefined): Picked {
  if (!k?.tags.length) return undefined;
  const tags = [...new Set(k.tags)].sort(compareVersions);
  // A patch release the data does not list stands for its minor (the data has every minor, not every patch).
  const end = (t: string) => (checkKataWindowSpec(t) ? t.split('.').slice(0, 2).join('.') : t);
  const w = windowText(tags.map((t) => end(t)));
  if (checkKataWindowSpec(w)) return undefined;
  return [w, { kind: 'workspace', detail: `${k.path}: kata-deploy image ${tags.join(', ')}` }];
}

/** The Kata part of a ResolvedConfig; without a configured window it is worked out (from kata-deploy) when first read. */
function resolveKata(kataW: Picked, kataF: Picked, fromDeploy: () => Picked): KataResolved {
  const build = (w: Picked): KataResolved => {
    const kataSpec = w ? kataWindowOf(w[0]) : undefined;
    // A window whose ends carry one flavour sets it, over kata.flavour (a crossing window checks each side with its own).
    const windowFlavour = kataSpec?.fromFlavour && kataSpec.fromFlavour === kataSpec.toFlavour ? kataSpec.fromFlavour : undefined;
    return {
      window: kataSpec,
      flavour: windowFlavour ?? kataF?.[0],
      source: w?.[1] ?? { kind: 'default', detail: 'newest Kata release' } as SourceInfo,
      flavourSource: kataSpec?.fromFlavour ? w![1] : kataF?.[1],
    };
  };
  if (kataW) return build(kataW);
  let memo: KataResolved | undefined;
  const get = () => (memo ??= build(fromDeploy()));
  return {
    get window() { return get().window; },
    get flavour() { return get().flavour; },
    get source() { return get().source; },
    get flavourSource() { return get().flavourSource; },
  };
}

/** A Kata window as typed, each end with its flavour or not (the setting's pattern, which also takes empty; the picker's input box). */
const WINDOW_PATTERN = '^\\s*v?\\d+\\.\\d+(\\.\\d+)?\\s*(\\(\\s*(go|runtime-rs)\\s*\\))?\\s*(\\.\\.\\s*v?\\d+\\.\\d+(\\.\\d+)?\\s*(\\(\\s*(go|runtime-rs)\\s*\\))?\\s*)?$';
const WINDOW_MESSAGE = 'A Kata Containers release or range, e.g. "3.2..3.32", or with each end\'s runtime flavour, e.g. "3.20 (go)..4.1 (runtime-rs)".';

export const kataConfigSection: ConfigSection = {
  section: 'kata',
  order: 10,
  schema: {
    type: 'object', additionalProperties: false,
    properties: {
      window: {
        type: 'string',
        description: 'Kata Containers releases in the live-upgrade/rollback window, e.g. "3.2..3.32". A release may carry its runtime '
          + 'flavour: "3.20 (go)..4.1 (runtime-rs)" checks each configuration with the Go runtime at 3.20.0 … 4.0.x and with '
          + 'runtime-rs at 4.1.x (a window whose two ends have one flavour sets kata.flavour).',
      },
      flavour: { enum: ['go', 'runtime-rs'], description: 'Kata runtime flavour: go or runtime-rs.' },
    },
  },
  packageSettings: {
    'skewguard.kata.window': {
      type: 'string',
      scope: 'resource',
      default: '',
      pattern: `^$|${WINDOW_PATTERN}`,
      patternErrorMessage: WINDOW_MESSAGE,
      description: 'Kata Containers releases in the live-upgrade/rollback window, e.g. "3.2..3.32"; a release may carry its runtime flavour, "3.20 (go)..4.1 (runtime-rs)", and then each configuration file is checked with both dialects. Empty: the newest Kata release.',
      markdownDescription: 'Kata Containers releases in the live-upgrade/rollback window, e.g. `3.2..3.32`; a release may carry its runtime flavour, `3.20 (go)..4.1 (runtime-rs)`, and then each configuration file is checked with both dialects. Empty: the newest Kata release. Overridden by `kata.window` in `.skewguard.yaml` and by `lsp-lint --kata-window`.',
      order: 4,
    },
    'skewguard.kata.flavour': {
      type: 'string',
      scope: 'resource',
      default: '',
      enum: ['', 'go', 'runtime-rs'],
      enumDescriptions: ['Not set: no flavour is assumed.', 'The Go runtime (containerd-shim-kata-v2).', 'The Rust runtime (runtime-rs).'],
      description: 'Kata Containers runtime flavour the configuration is for.',
      markdownDescription: 'Kata Containers runtime flavour the configuration is for. Empty: from the file (its name or its tables), else the Go runtime. Overridden by `kata.flavour` in `.skewguard.yaml` and by `lsp-lint --kata-flavour`.',
      enumItemLabels: ['(from the file)', 'go', 'runtime-rs'],
      order: 5,
    },
  },
  validate(v, { ok, overrides, problems }) {
    const kk = typeof v?.window === 'string' ? v.window : undefined;
    if (kk !== undefined && ok('kata.window')) {
      const err = checkKataWindow(kk);
      if (err) problems.push({ message: err, path: ['kata', 'window'], at: 'value' });
      else overrides.kataWindow = kk;
    }
    if (v?.flavour && ok('kata.flavour')) overrides.kataFlavour = v.flavour as string;
  },
  settingsOf: (o) => (o.kataWindow || o.kataFlavour ? { window: o.kataWindow, flavour: o.kataFlavour } : undefined),
  checkCli(cli) {
    const kata = cli.kataWindow !== undefined ? checkKataWindow(cli.kataWindow) : undefined;
    return kata ? [kata] : [];
  },
  resolve: ({ pick, workspace }) => resolveKata(pick('kataWindow'), pick('kataFlavour'), () => kataDeployWindow(workspace?.kataDeploy)),
  describe: (c) => ({ window: c.kata.window ? kataWindowText(c.kata.window) : null, flavour: c.kata.flavour ?? null, source: c.kata.source }),
  flags: [
    { name: '--kata-window', key: 'kataWindow', help: '      --kata-window <w>           Kata window, e.g. 3.2..3.32 or "3.20 (go)..4.1 (runtime-rs)"\n' },
    {
      name: '--kata-flavour', aliases: ['--kata-flavor'], key: 'kataFlavour', values: ['go', 'runtime-rs'], invalid: '--kata-flavour must be go or runtime-rs',
      help: '      --kata-flavour <go|runtime-rs>  Kata runtime flavour (also --kata-flavor)\n',
    },
  ],
  parts: [
    { part: 'kata.window', label: 'Kata window', unset: 'not set', detail: 'The Kata Containers releases of the live-upgrade/rollback window, e.g. 3.2..3.32', pattern: WINDOW_PATTERN, patternMessage: WINDOW_MESSAGE },
    {
      part: 'kata.flavour', label: 'Kata flavour', unset: 'from the file', detail: 'go or runtime-rs',
      choices: [{ label: 'go', detail: 'The Go runtime (containerd-shim-kata-v2)' }, { label: 'runtime-rs', detail: 'The Rust runtime' }],
    },
  ],
  tooltip: (c) => (c.kata.window ? { label: 'Kata', window: kataWindowText(c.kata.window), source: c.kata.source } : undefined),
  summary: (c) => (c.kata.window ? `Kata ${kataWindowText(c.kata.window)}${mark(c.kata.source)}` : undefined),
  heldBack: { stepsName: 'Kata Containers', text: (w) => `the Kata window is the default ${w}; set kata.window` },
  // The facts of a Kata configuration (families/kata/family.ts) and of a persist.json (kata-persist) name the Kata window.
  status: (f, c) => (typeof f.kataWindow === 'string' ? `Kata ${f.kataWindow}${mark(c.kata.source)}${typeof f.kataFlavour === 'string' ? ` (${f.kataFlavour})` : ''}` : undefined),
};
