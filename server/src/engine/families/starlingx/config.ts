// The StarlingX release's part of the configuration (`starlingx:` of .skewguard.yaml: release, upgradeFrom;
// skewguard.starlingx.*; --starlingx-release, --starlingx-upgrade-from): composed by the core from the registry
// (engine/config-core.ts), first of the sections: the Kubernetes window (families/kubernetes/config.ts) and the
// component windows (engine/components/) are read from the release and the platform's upgrade path it resolves.
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { mark } from '../../config-core';
import { windowText } from '../../window-text';
import {
  findStarlingxRelease, newestStarlingxRelease, starlingxReleases, starlingxUpgradePath, unknownReleaseMessage, releaseIndex,
  type StxRelease,
} from './data';

declare module '../../config' {
  interface Overrides {
    starlingxRelease?: string;
    /** StarlingX release the platform is upgraded from: the releases from it to starlingxRelease are the path. */
    starlingxUpgradeFrom?: string;
  }
  interface ResolvedConfig {
    /** path: the releases from starlingx.upgradeFrom to release (just [release] without one). */
    starlingx: { release: StxRelease; source: SourceInfo; path: StxRelease[] };
  }
  interface WorkspaceFacts {
    /** A StarlingX localhost.yml found in the workspace and what it says. */
    localhost?: { path: string; kubernetesVersion?: string; note?: string };
  }
}
declare module '../../../shared/protocol' {
  interface Settings {
    starlingx?: { release?: string; upgradeFrom?: string };
  }
  interface WindowChoicesResult {
    /** The StarlingX releases (also each StarlingX part's choices), for other clients than VS Code's picker. */
    releases: Array<{ release: string; tag: string; kubernetes: string[]; default: string }>;
  }
}
declare module '../../components/types' {
  interface ComponentWindowInput {
    /**
     * The StarlingX upgrade path (the releases from starlingx.upgradeFrom to starlingx.release) when the configuration or
     * the workspace says StarlingX (a release, an upgradeFrom, a localhost.yml), with where it says so; else undefined.
     */
    starlingx?: { path: StxRelease[]; release: StxRelease; source: SourceInfo };
  }
}

/** "StarlingX 6.0 (tag 6.0.0): Kubernetes 1.18.1 … 1.21.3, default 1.21.3." — a release in the settings' list. */
function releaseLine(r: StxRelease, role = ''): string {
  const ks = r.kubernetes.map((k) => k.version);
  return `StarlingX ${r.release} (${r.tag ? `tag ${r.tag}` : 'development branch'})${role}: Kubernetes ${ks.length > 1 ? `${ks[0]} … ${ks[ks.length - 1]}` : ks[0]}, default ${r.default}.`;
}

/** The picker's choices for a release (newest first): "12.0", its tag, "Kubernetes 1.32.2, 1.33.0 — fresh install 1.33.0". */
function releaseChoices(): Array<{ label: string; description: string; detail: string }> {
  return starlingxReleases().releases.slice().reverse().map((r) => ({ label: r.release, description: r.tag, detail: `Kubernetes ${r.kubernetes.map((k) => k.version).join(', ')} — fresh install ${r.default}` }));
}

/** package.json's skewguard.starlingx.* (npm run gen:docs): the releases offered are the data's. */
function packageSettings(): ConfigSection['packageSettings'] {
  const rs = starlingxReleases().releases;
  const names = rs.map((r) => r.release);
  return {
    'skewguard.starlingx.release': {
      type: 'string',
      scope: 'resource',
      default: '',
      enum: ['', ...names],
      enumDescriptions: [`The newest tagged StarlingX release (${newestStarlingxRelease().release}).`, ...rs.map((r) => releaseLine(r))],
      description: 'StarlingX release the localhost.yml bootstrap overrides are for. Empty: the newest tagged release. A .skewguard.yaml `starlingx.release` or lsp-lint --starlingx-release wins over this setting.',
      markdownDescription: 'StarlingX release the `localhost.yml` bootstrap overrides are for. Empty: the newest tagged release. `starlingx.release` in `.skewguard.yaml` and `lsp-lint --starlingx-release` win over this setting.',
      enumItemLabels: ['(newest tagged release)', ...names],
      order: 1,
    },
    'skewguard.starlingx.upgradeFrom': {
      type: 'string',
      scope: 'resource',
      default: '',
      enum: ['', ...names],
      enumDescriptions: ['No platform upgrade: the path is starlingx.release alone.', ...rs.map((r) => releaseLine(r, ' (the platform is upgraded from it)'))],
      description: 'StarlingX release the platform is upgraded from: the releases from it to the StarlingX release are the path whose FluxCD an application bundle\'s Flux manifests must work with. Empty: no upgrade. A .skewguard.yaml `starlingx.upgradeFrom` or lsp-lint --starlingx-upgrade-from wins over this setting.',
      markdownDescription: 'StarlingX release the platform is upgraded from: the releases from it to the StarlingX release are the path whose FluxCD an application bundle\'s Flux manifests must work with. Empty: no upgrade. `starlingx.upgradeFrom` in `.skewguard.yaml` and `lsp-lint --starlingx-upgrade-from` win over this setting.',
      enumItemLabels: ['(no platform upgrade)', ...names],
      order: 2,
    },
  };
}

export const starlingxConfigSection: ConfigSection = {
  section: 'starlingx',
  order: -20,
  schema: {
    type: 'object', additionalProperties: false,
    properties: {
      release: { type: 'string', description: 'StarlingX release the bootstrap overrides are for, e.g. "6.0".' },
      upgradeFrom: { type: 'string', description: 'StarlingX release the platform is upgraded from, e.g. "10.0": the releases from it to `release` are the path whose FluxCD an application bundle\'s Flux manifests must work with.' },
    },
  },
  // Read when asked for (npm run gen:docs, test/config-sections): the releases are the data's, loaded lazily.
  get packageSettings() { return packageSettings(); },
  validate(v, { ok, overrides, problems }) {
    const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
    const rel = str(v?.release);
    if (rel !== undefined && ok('starlingx.release')) {
      if (findStarlingxRelease(rel)) overrides.starlingxRelease = rel;
      else problems.push({ message: unknownReleaseMessage(rel), path: ['starlingx', 'release'], at: 'value' });
    }
    const from = str(v?.upgradeFrom);
    if (from !== undefined && ok('starlingx.upgradeFrom')) {
      const f = findStarlingxRelease(from);
      const to = overrides.starlingxRelease ? findStarlingxRelease(overrides.starlingxRelease) : undefined;
      if (!f) problems.push({ message: unknownReleaseMessage(from), path: ['starlingx', 'upgradeFrom'], at: 'value' });
      else if (to && releaseIndex(f) > releaseIndex(to)) problems.push({ message: `starlingx.upgradeFrom ${f.release} is newer than starlingx.release ${to.release}: an upgrade path goes from an older release to a newer one`, path: ['starlingx', 'upgradeFrom'], at: 'value' });
      else overrides.starlingxUpgradeFrom = from;
    }
  },
  settingsOf: (o) => (o.starlingxRelease || o.starlingxUpgradeFrom ? { release: o.starlingxRelease, upgradeFrom: o.starlingxUpgradeFrom } : undefined),
  checkCli(cli) {
    const out: string[] = [];
    if (cli.starlingxRelease !== undefined && !findStarlingxRelease(cli.starlingxRelease)) out.push(`unknown StarlingX release "${cli.starlingxRelease}"`);
    if (cli.starlingxUpgradeFrom !== undefined) {
      const f = findStarlingxRelease(cli.starlingxUpgradeFrom), to = cli.starlingxRelease ? findStarlingxRelease(cli.starlingxRelease) : undefined;
      if (!f) out.push(`--starlingx-upgrade-from: unknown StarlingX release "${cli.starlingxUpgradeFrom}"`);
      else if (to && releaseIndex(f) > releaseIndex(to)) out.push(`--starlingx-upgrade-from ${f.release} is newer than --starlingx-release ${to.release}: an upgrade path goes from an older release to a newer one`);
    }
    return out;
  },
  resolve({ pick }) {
    const relPick = pick('starlingxRelease');
    const relFound = relPick && findStarlingxRelease(relPick[0]);
    const release = relFound ?? newestStarlingxRelease();
    const relSource: SourceInfo = relFound ? relPick![1] : { kind: 'default', detail: 'newest StarlingX release in the data' };
    const fromPick = pick('starlingxUpgradeFrom');
    const path = starlingxUpgradePath(fromPick ? findStarlingxRelease(fromPick[0]) : undefined, release);
    return { release, source: relSource, path };
  },
  // Where the configuration or the workspace says StarlingX (its upgrade path): what a component's window may be read from.
  componentInput({ pick, workspace, resolved }) {
    const { release, source: relSource, path } = resolved.starlingx!;
    const relPick = pick('starlingxRelease');
    const relFound = relPick && findStarlingxRelease(relPick[0]);
    const fromPick = pick('starlingxUpgradeFrom');
    const saysStarlingx = relFound || fromPick || workspace?.localhost;
    const starlingx = saysStarlingx ? {
      path, release, source: (fromPick
        ? { kind: fromPick[1].kind, detail: `${fromPick[1].detail}: StarlingX upgrade path ${path[0].release}..${release.release}` }
        : relFound ? { kind: relSource.kind, detail: `${relSource.detail}: StarlingX ${release.release}` }
          : { kind: 'workspace', detail: `${workspace!.localhost!.path}: StarlingX ${release.release} (newest release in the data)` }) as SourceInfo,
    } : undefined;
    return { starlingx };
  },
  describe: (c) => ({ release: c.starlingx.release.release, source: c.starlingx.source, ...(c.starlingx.path.length > 1 ? { path: c.starlingx.path.map((r) => r.release) } : {}) }),
  flags: [
    { name: '--starlingx-release', key: 'starlingxRelease', help: '      --starlingx-release <rel>   StarlingX release, e.g. 6.0\n' },
    {
      name: '--starlingx-upgrade-from', key: 'starlingxUpgradeFrom',
      help: '      --starlingx-upgrade-from <rel>  StarlingX release the platform is upgraded from: the path whose FluxCD and\n'
        + '                                  sysinv an application bundle is checked against, e.g. 11.0 (with --starlingx-release 12.0)\n',
    },
  ],
  // The picker (client/src/window.ts) offers the data's releases, newest first, for release and upgradeFrom.
  get parts() {
    return [{ part: 'starlingx.release', label: 'StarlingX release', unset: '', detail: 'The release whose playbooks read localhost.yml; it sets the Kubernetes upgrade path', choices: releaseChoices() }];
  },
  get partsLast() {
    return [{ part: 'starlingx.upgradeFrom', label: 'StarlingX upgrade from', unset: 'no platform upgrade', current: 'starlingx.path.0', detail: 'The release the platform is upgraded from (application bundles)', choices: releaseChoices() }];
  },
  // The releases as data, for clients other than the picker (skewguard/windowChoices `releases`).
  choices: () => ({ releases: starlingxReleases().releases.map((r) => ({ release: r.release, tag: r.tag, kubernetes: r.kubernetes.map((k) => k.version), default: r.default })) }),
  // .skewguard.yaml's completion (server/config-language.ts): the data's releases.
  values: (key) => (key === 'release' || key === 'upgradeFrom'
    ? starlingxReleases().releases.map((r) => ({ label: r.release, detail: `${r.tag}: Kubernetes ${r.kubernetes.map((k) => k.version).join(', ')} (fresh install ${r.default})` }))
    : undefined),
  // Fix-all under the default release: a file whose window is the release's Kubernetes path.
  heldBack: { source: (c) => c.starlingx.source, text: (w) => `the StarlingX release is the default ${w}; set starlingx.release` },
  summary: (c) => `StarlingX ${c.starlingx.release.release}${mark(c.starlingx.source)}`,
  // The status item's tooltip says the release always (every window is read from it), first.
  tooltip: (c) => ({ label: 'StarlingX', window: c.starlingx.release.release, source: c.starlingx.source }),
  // The facts of a localhost.yml (its release and Kubernetes path) or of an application bundle (the releases of its path).
  status(f, c) {
    const stx = mark(c.starlingx.source);
    if (typeof f.starlingxRelease === 'string') return [`StarlingX ${f.starlingxRelease}${stx}`, `Kubernetes ${windowText(c.kubernetes.minors) + mark(c.kubernetes.source)}`];
    if (Array.isArray(f.starlingxReleases) && f.starlingxReleases.length) return `StarlingX ${f.starlingxReleases.join(' → ')}${stx}`;
    return undefined;
  },
};
