// The containerd window's part of the configuration (`containerd:` of .skewguard.yaml, skewguard.containerd.window,
// --containerd-window): composed by the core from the registry (engine/config-core.ts).
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { mark } from '../../config-core';
import { parseRange } from '../../versions';
import { containerdWindow, containerdMinors } from './data';

declare module '../../config' {
  interface Overrides {
    containerdWindow?: string;
  }
  interface ResolvedConfig {
    /** The containerd window when configured (else the containerd family derives it from StarlingX or the Kubernetes window). */
    containerd: { window?: { from: string; to: string }; source?: SourceInfo };
  }
}
declare module '../../../shared/protocol' {
  interface Settings {
    containerd?: { window?: string };
  }
}

/** Returns an error message for a containerd window that is malformed or names no containerd minor of the data. */
export function checkContainerdWindow(s: string): string | undefined {
  const r = parseRange(s);
  if (!r) return `containerd.window "${s}" is not a containerd minor or range such as "1.7..2.1"`;
  if (!containerdWindow(r.from, r.to).length) {
    const ms = containerdMinors();
    return `containerd window "${s}" holds no containerd minor of the data (it knows ${ms[0]} … ${ms[ms.length - 1]})`;
  }
  return undefined;
}

/** A window as typed (the setting's pattern, which also takes empty; the picker's input box), and what is said when it does not match. */
const WINDOW_PATTERN = '^v?\\d+\\.\\d+(\\.\\d+)?(\\s*\\.\\.\\s*v?\\d+\\.\\d+(\\.\\d+)?)?$';
const WINDOW_MESSAGE = 'A containerd minor or range, e.g. "1.7..2.1".';

export const containerdConfigSection: ConfigSection = {
  section: 'containerd',
  order: 20,
  schema: {
    type: 'object', additionalProperties: false,
    properties: {
      window: { type: 'string', description: 'containerd minors in the upgrade/rollback window of containerd\'s config.toml, e.g. "1.7..2.1".' },
    },
  },
  packageSettings: {
    'skewguard.containerd.window': {
      type: 'string',
      scope: 'resource',
      default: '',
      pattern: `^$|${WINDOW_PATTERN}`,
      patternErrorMessage: WINDOW_MESSAGE,
      description: 'containerd minors in the upgrade/rollback window of containerd\'s config.toml, e.g. "1.7..2.1". Empty: the containerd the StarlingX release ships, else the containerd minors that support the Kubernetes window.',
      markdownDescription: 'containerd minors in the upgrade/rollback window of containerd\'s `config.toml`, e.g. `1.7..2.1`. Empty: the containerd the StarlingX release ships, else the containerd minors that support the Kubernetes window. Overridden by `containerd.window` in `.skewguard.yaml` and by `lsp-lint --containerd-window`.',
      order: 6,
    },
  },
  validate(v, { ok, overrides, problems }) {
    const cw = typeof v?.window === 'string' ? v.window : undefined;
    if (cw !== undefined && ok('containerd.window')) {
      const err = checkContainerdWindow(cw);
      if (err) problems.push({ message: err, path: ['containerd', 'window'], at: 'value' });
      else overrides.containerdWindow = cw;
    }
  },
  settingsOf: (o) => (o.containerdWindow ? { window: o.containerdWindow } : undefined),
  checkCli(cli) {
    const ctr = cli.containerdWindow !== undefined ? checkContainerdWindow(cli.containerdWindow) : undefined;
    return ctr ? [`--containerd-window: ${ctr}`] : [];
  },
  resolve({ pick }) {
    const ctrW = pick('containerdWindow');
    return { window: ctrW ? parseRange(ctrW[0]) : undefined, source: ctrW?.[1] };
  },
  describe: (c) => ({ window: c.containerd.window ? `${c.containerd.window.from}..${c.containerd.window.to}` : null, source: c.containerd.source ?? { kind: 'default', detail: 'from StarlingX\'s release data or the Kubernetes window, per file (containerd family)' } }),
  flags: [{ name: '--containerd-window', key: 'containerdWindow', help: '      --containerd-window <w>     containerd window of config.toml, e.g. 1.7..2.1\n' }],
  parts: [{ part: 'containerd.window', label: 'containerd window', unset: 'from StarlingX or Kubernetes', detail: 'containerd minors, e.g. 1.7..2.1', pattern: WINDOW_PATTERN, patternMessage: WINDOW_MESSAGE }],
  heldBack: { stepsName: 'Containerd', text: (w) => `the containerd window is the default ${w}; set containerd.window` },
  // The facts of a containerd config (family.ts): its window as the family resolved it, and where that came from.
  status: (f) => (typeof f.containerdWindow === 'string' && f.containerdWindow ? `containerd ${f.containerdWindow}${mark(f.containerdWindowSource as { kind?: string } | undefined)}` : undefined),
};
