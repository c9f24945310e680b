// The Helm family's part of the configuration (`helm:` of .skewguard.yaml, skewguard.helm.path, --helm-render,
// --helm-path): real Helm rendering (whether, with which binary, which values files), the values scenarios of each
// chart and the URLs that name this repository in GitOps deployments. Composed by the core from the registry
// (engine/config-core.ts). Its order (AFTER_CORE_KEYS) keeps it where the core had it: after rules, ignore and files
// in .skewguard.yaml's schema, in --print-config and among the editor settings.
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { AFTER_CORE_KEYS } from '../../config-core';
import { checkGlob } from '../../glob';

declare module '../../config' {
  interface Overrides {
    /** Render Helm charts with a real Helm (helm.render, --helm-render). */
    helmRender?: boolean;
    /** The Helm binary (helm.path, skewguard.helm.path, --helm-path), as written. */
    helmPath?: string;
    /** Values files for every render (helm.values), as written. */
    helmValues?: string[];
    /** Values scenarios of each chart (helm.valueSets): globs relative to each chart's folder. */
    helmValueSets?: string[];
    /** The URLs that name this repository in GitOps deployments (helm.repositories). */
    helmRepositories?: string[];
  }
  interface ResolvedConfig {
    /** Real Helm rendering: whether asked for, the binary and values files (paths relative to `base`, where they were written). */
    helm: HelmSettings;
  }
}
declare module '../../../shared/protocol' {
  interface Settings {
    /** The Helm binary for real rendering (a machine setting: never taken from an untrusted workspace). */
    helm?: { path?: string };
  }
  interface CliOptions {
    /** Helm processes at a time (lsp-lint --jobs). */
    helmJobs?: number;
    /** Time one Helm render may take. */
    helmTimeoutMs?: number;
  }
}

export interface HelmSettings {
  render: boolean;
  source: SourceInfo;
  /**
   * user: the user's own setting (skewguard.helm.path) when .skewguard.yaml's path won over it: the one used when the
   * repository's is refused (a workspace not trusted).
   */
  path?: { value: string; base?: string; source: SourceInfo; user?: { value: string; source: SourceInfo } };
  values: { files: string[]; base?: string; source: SourceInfo };
  /** Values scenarios of each chart besides its ci/*-values.yaml (helm.valueSets): globs relative to each chart's folder. */
  valueSets: { patterns: string[]; source: SourceInfo };
  /** The URLs that name this repository in GitOps deployments (helm.repositories); none: the workspace's git remotes. */
  repositories?: { urls: string[]; source: SourceInfo };
}

/** The folder of a config file path (both separators), where its relative paths start. */
const folderOf = (p: string) => { const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')); return i < 0 ? '.' : p.slice(0, i) || '/'; };

export const helmConfigSection: ConfigSection = {
  section: 'helm',
  order: AFTER_CORE_KEYS,
  schema: {
    type: 'object', additionalProperties: false,
    properties: {
      render: {
        type: 'boolean',
        description: 'Also render each Helm chart with a real Helm 3 at every step of the Kubernetes window (off by default; never in '
          + "VS Code's Restricted Mode; never with network access), and use that where skewguard's own template evaluator cannot decide.",
      },
      path: { type: 'string', description: 'The Helm 3 binary to render with (default: helm on PATH); relative to this file.' },
      values: { type: 'array', items: { type: 'string' }, description: 'Values files given to every render (helm template -f), in order; relative to this file.' },
      valueSets: {
        type: 'array', items: { type: 'string' },
        description: "Values scenarios of each chart besides its ci/*-values.yaml: globs (files: syntax) relative to each chart's folder, e.g. \"values-*.yaml\"; each file that matches is rendered as its own scenario over the chart's defaults, by skewguard's evaluator.",
      },
      repositories: {
        type: 'array', items: { type: 'string', minLength: 1 },
        description: 'The URLs that name this repository in GitOps deployments, e.g. ["https://git.example.com/platform/deploy.git"]: a Flux '
          + "GitRepository's url or an Argo CD Application's repoURL among them deploys the workspace's chart, any other is another "
          + "repository's. Compared as git compares remotes (scheme, user, .git and a trailing slash aside). Default: the remotes in "
          + "the workspace folder's .git/config. Say them here when a clone's remotes are not the URLs the deployments name (CI clones "
          + 'of a mirror, a fork).',
      },
    },
  },
  // Only the binary: whether to render is the workspace's own choice (.skewguard.yaml helm.render, --helm-render).
  settingsKeys: ['path'],
  packageSettings: {
    'skewguard.helm.path': {
      type: 'string',
      scope: 'machine-overridable',
      default: '',
      description: 'The Helm 3 binary skewguard renders charts with when .skewguard.yaml asks for it (helm.render: true); empty: helm on PATH. Never used in Restricted Mode.',
      markdownDescription: 'The Helm 3 binary skewguard renders charts with when `.skewguard.yaml` asks for it (`helm.render: true`). Empty: `helm` on `PATH`. Never used in Restricted Mode. `helm.path` in `.skewguard.yaml` wins over this setting in a trusted workspace; where the workspace is not trusted (the repository\'s path is refused), this setting is used.',
      order: 10,
    },
  },
  // Only the keys this schema has (the editor settings have just the path): an unknown one is reported by the schema.
  validate(v, { ok, overrides, problems, has }) {
    const key = (k: string) => has(k) && ok(`helm.${k}`);
    if (typeof v?.render === 'boolean' && key('render')) overrides.helmRender = v.render;
    if (typeof v?.path === 'string' && v.path !== '' && key('path')) overrides.helmPath = v.path;
    if (Array.isArray(v?.values) && key('values')) {
      overrides.helmValues = v.values.filter((x: unknown, i: number) => {
        if (typeof x === 'string' && x.trim() !== '') return true;
        problems.push({ message: `helm.values[${i}]: a values file path must not be empty`, path: ['helm', 'values', i], at: 'value' });
        return false;
      });
    }
    if (Array.isArray(v?.repositories) && key('repositories')) {
      overrides.helmRepositories = v.repositories.filter((x: unknown) => typeof x === 'string' && x.trim() !== ''); // else reported by the schema
    }
    if (Array.isArray(v?.valueSets) && key('valueSets')) {
      overrides.helmValueSets = v.valueSets.filter((x: unknown, i: number) => {
        const err = typeof x !== 'string' ? undefined : x.startsWith('/') || /^[A-Za-z]:[\\/]/.test(x) ? "a pattern is relative to each chart's folder, not absolute" : checkGlob(x);
        if (typeof x === 'string' && !err) return true;
        if (err) problems.push({ message: `helm.valueSets[${i}]: ${err}`, path: ['helm', 'valueSets', i], at: 'value' });
        return false;
      });
    }
  },
  settingsOf: (o) => (o.helmPath ? { path: o.helmPath } : undefined),
  // --helm-render and --helm-path take no value the data could refuse (a missing binary is lsp-lint's usage error).
  checkCli: () => [],
  resolve({ pick, layers }): HelmSettings {
    // A path written in .skewguard.yaml is relative to its folder (the config layer's source names the file).
    const base = (s: SourceInfo) => (s.kind === 'config' && s.detail !== undefined ? folderOf(s.detail) : undefined);
    const render = pick('helmRender');
    const p = pick('helmPath');
    const v = pick('helmValues');
    const vs = pick('helmValueSets');
    const repos = pick('helmRepositories');
    const settings = layers.find(([, s]) => s.kind === 'settings');
    const user = p?.[1].kind === 'config' && settings?.[0]?.helmPath ? { value: settings[0].helmPath, source: settings[1] } : undefined;
    return {
      render: render?.[0] ?? false,
      source: render?.[1] ?? { kind: 'default', detail: 'off unless asked for (--helm-render, helm.render)' },
      ...(p ? { path: { value: p[0], base: base(p[1]), source: p[1], ...(user ? { user } : {}) } } : {}),
      values: v ? { files: v[0], base: base(v[1]), source: v[1] } : { files: [], source: { kind: 'default', detail: 'the chart\'s own values.yaml only' } },
      valueSets: vs ? { patterns: vs[0], source: vs[1] } : { patterns: [], source: { kind: 'default', detail: 'each chart\'s ci/*-values.yaml only' } },
      ...(repos ? { repositories: { urls: repos[0], source: repos[1] } } : {}),
    };
  },
  describe: (c) => ({ render: c.helm.render, source: c.helm.source, path: c.helm.path ?? null, values: c.helm.values, valueSets: c.helm.valueSets }),
  // Printed among the run's options (after --no-ignore), where they always were: they say how the run reads charts.
  flags: [
    {
      name: '--helm-render', key: 'helmRender', form: 'switch', among: 'run',
      help: '      --helm-render               also render each Helm chart with a real Helm 3 (--helm-path, else helm on PATH:\n'
        + '                                  never a relative PATH entry nor one inside the checked folder) at every step of\n'
        + '                                  the window, faithful to what each step serves; loopback only, never the network;\n'
        + '                                  one language server, which runs up to --jobs Helm processes at a time (default 2).\n'
        + '                                  The flag is the trust: helm.render in .skewguard.yaml alone runs nothing, and\n'
        + '                                  its helm.path is never run\n',
    },
    { name: '--helm-path', key: 'helmPath', form: 'path', among: 'run', help: '      --helm-path <file>          the Helm 3 binary --helm-render runs\n' },
  ],
  parts: [],
};
