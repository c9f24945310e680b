// The Kubernetes window's part of the configuration (`kubernetes:` of .skewguard.yaml: window, crds, openapi,
// additionalVersions; skewguard.kubernetes.*; --kubernetes-window, --kubernetes-version, --kubernetes-openapi): composed
// by the core from the registry (engine/config-core.ts) right after the StarlingX release, whose upgrade path it is by
// default. `kubernetes.components` (the component modules' versions) is a key of this section's that is not this
// family's: the components' section (engine/components/config.ts, ConfigSection.within) puts it in after `window`.
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { mark } from '../../config-core';
import { parseRange, minorsBetween, compareVersions, normalizeVersion } from '../../versions';
import { windowText } from '../../window-text';
import { windowFromStarlingx } from '../starlingx/data';
import type { PlutoRow } from './index';
import type { OpenapiDoc, OpenapiMinor } from './data/openapi';
import { windowPastDataOf, knowledgeOf } from './data/past-data';

export interface KubeWindow {
  /** Minor versions, ascending: ["1.18", "1.19", ...]. */
  minors: string[];
  /** Exact patch versions along a StarlingX upgrade path, when the window came from one. */
  patches?: string[];
  source: SourceInfo;
}

declare module '../../config' {
  interface Overrides {
    kubernetesWindow?: string;
    /** Lifecycle rows for the user's own APIs, in Pluto's row format. */
    kubernetesRows?: PlutoRow[];
    /** CRD files or folders outside the workspace (kubernetes.crds), as written: relative to the config file. */
    kubernetesCrds?: string[];
    /** OpenAPI documents per Kubernetes minor (kubernetes.openapi, --kubernetes-openapi), as written. */
    kubernetesOpenapi?: Record<string, string>;
    /** Those documents as read by the server (it reads files; the engine does not). */
    kubernetesOpenapiDocs?: Record<string, { file: string; doc: OpenapiDoc }>;
  }
  interface ResolvedConfig {
    kubernetes: KubeWindow;
    /** The user's OpenAPI documents per Kubernetes minor (kubernetes.openapi, --kubernetes-openapi; the command line wins per minor). */
    kubernetesOpenapi?: Record<string, OpenapiMinor>;
    /** The user's lifecycle rows and the file they came from. */
    kubernetesRows?: { rows: PlutoRow[]; origin: string };
  }
}

declare module '../../../shared/protocol' {
  interface Settings {
    kubernetes?: KubernetesSettings;
  }
}
/** skewguard.kubernetes.*; the components' section adds its key (kubernetes.components) by module augmentation. */
export interface KubernetesSettings {
  window?: string;
  /** The cluster's OpenAPI document (or v3 folder) per minor; a workspace value is read only inside the workspace. */
  openapi?: Record<string, string>;
}

/** Returns an error message for a malformed Kubernetes window, or undefined when it is fine. */
export function checkKubernetesWindow(s: string): string | undefined {
  const r = parseRange(s);
  if (!r) return `Kubernetes window "${s}" is not a version or range such as "1.18..1.21"`;
  if (!minorsBetween(r.from, r.to)) return `Kubernetes window "${s}": the start must not be newer than the end`;
  return undefined;
}

/** A window as typed: a version or a range (the setting's pattern, which also takes empty; the picker's input box). */
const WINDOW_PATTERN = '^v?\\d+\\.\\d+(\\.\\d+)?(\\s*\\.\\.\\s*v?\\d+\\.\\d+(\\.\\d+)?)?$';

/** Where .skewguard.yaml's kubernetes.openapi entry for a minor is (the server reports a document it cannot read there). */
export const openapiEntry = (minor: string): { path: Array<string | number> } => ({ path: ['kubernetes', 'openapi', minor] });

/** Where .skewguard.yaml's kubernetes.crds entry i is (the server reports an entry it cannot read there). */
export const crdsEntry = (i: number): { path: Array<string | number> } => ({ path: ['kubernetes', 'crds', i] });

export const kubernetesConfigSection: ConfigSection = {
  section: 'kubernetes',
  order: -10,
  schema: {
    type: 'object', additionalProperties: false,
    properties: {
      window: { type: 'string', description: 'Kubernetes versions every file must work with: "1.18..1.21" or one version "1.21".' },
      crds: {
        type: 'array', items: { type: 'string' },
        description: 'CustomResourceDefinition files or folders outside the workspace (relative to this file): their CRDs define '
          + 'custom resources as the workspace\'s own do (served, deprecated and storage versions, openAPIV3Schema).',
      },
      openapi: {
        type: 'object',
        description: 'Your cluster\'s own OpenAPI document per Kubernetes minor, e.g. { "1.38": "openapi-1.38.json" } (relative to this file, '
          + 'inside the workspace): the output of `kubectl get --raw /openapi/v2`, or a folder of OpenAPI v3 documents (one per '
          + 'group-version: `kubectl get --raw /openapi/v3/apis/<group>/<version>`). That minor is judged from the document (the kinds '
          + 'it serves and their fields; a v3 document only for the group-versions it covers), even past the shipped data.',
        propertyNames: { pattern: '^\\d+\\.\\d+$' },
        additionalProperties: { type: 'string', minLength: 1 },
      },
      additionalVersions: {
        type: 'array', description: "Lifecycle rows for your own APIs (CRDs), in Pluto's versions.yaml row format.",
        items: {
          type: 'object', required: ['version', 'kind'], additionalProperties: false,
          properties: {
            version: { type: 'string', pattern: '^[^/\\s]+(/[^/\\s]+)?$' },
            kind: { type: 'string' },
            'introduced-in': { type: 'string', pattern: '^v?\\d+\\.\\d+(\\.\\d+)?$' },
            'deprecated-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
            'removed-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
            'replacement-api': { type: 'string' },
            'replacement-available-in': { type: 'string', pattern: '^(v?\\d+\\.\\d+(\\.\\d+)?)?$' },
            component: { type: 'string' },
          },
        },
      },
    },
  },
  // The editor settings have the window (and after it the components' versions, the components' section within this
  // one) and the OpenAPI documents (a user-level value may point anywhere).
  settingsKeys: ['window', 'openapi'],
  // A user-level document may be anywhere; a workspace one is read only inside the workspace (server/config-for.ts).
  userLevel: ['openapi'],
  packageSettings: {
    'skewguard.kubernetes.window': {
      type: 'string',
      scope: 'resource',
      default: '',
      pattern: `^$|${WINDOW_PATTERN}`,
      patternErrorMessage: 'A Kubernetes version or range, e.g. "1.21" or "1.18..1.21".',
      description: 'Kubernetes versions every file must work with, e.g. "1.18..1.21" or one version "1.21". Empty: the upgrade path from the workspace localhost.yml kubernetes_version (or the release default) to the newest version the StarlingX release ships.',
      markdownDescription: 'Kubernetes versions every file must work with, e.g. `1.18..1.21` or one version `1.21`. Empty: the StarlingX upgrade path from the workspace `localhost.yml` `kubernetes_version` (or the release default) to the newest version the release ships. Overridden by `kubernetes.window` in `.skewguard.yaml` and by `lsp-lint --kubernetes-window`.',
      order: 3,
    },
    'skewguard.kubernetes.openapi': {
      type: 'object',
      scope: 'resource',
      default: {},
      propertyNames: {
        pattern: '^\\d+\\.\\d+$',
      },
      additionalProperties: {
        type: 'string',
        minLength: 1,
      },
      description: "Your cluster's own OpenAPI document per Kubernetes minor, e.g. { \"1.38\": \"/home/me/openapi-1.38.json\" }: the output of `kubectl get --raw /openapi/v2`, or a folder of OpenAPI v3 documents (one per group-version). That minor is judged from the document: the kinds it serves and their fields. A value in the workspace or folder settings comes from the repository and is read only inside the workspace; a user-level value may point anywhere.",
      markdownDescription: "Your cluster's own OpenAPI document per Kubernetes minor, e.g. `{ \"1.38\": \"/home/me/openapi-1.38.json\" }`: the output of `kubectl get --raw /openapi/v2`, or a folder of OpenAPI v3 documents (one per group-version: `kubectl get --raw /openapi/v3/apis/<group>/<version>`). That minor is judged from the document: the kinds it serves and their fields, even past the shipped data. A relative path is the workspace folder's. A value in the **workspace or folder** settings comes from the repository and is read only inside the workspace (as `.skewguard.yaml`'s `kubernetes.openapi`); a **user-level** value may point anywhere. `kubernetes.openapi` in `.skewguard.yaml` and `lsp-lint --kubernetes-openapi` win over this setting for their minors.",
      order: 3,
    },
  },
  validate(v, { ok, overrides, problems, has }) {
    const kw = typeof v?.window === 'string' ? v.window : undefined;
    if (kw !== undefined && ok('kubernetes.window')) {
      const err = checkKubernetesWindow(kw);
      if (err) problems.push({ message: err, path: ['kubernetes', 'window'], at: 'value' });
      else overrides.kubernetesWindow = kw;
    }
    if (Array.isArray(v?.additionalVersions) && ok('kubernetes.additionalVersions')) {
      // A row's versions must be in lifecycle order; a row that is not is reported and left out (it would make every
      // window answer nonsense, e.g. removed before it was introduced).
      const rows = v.additionalVersions as Array<Record<string, unknown>>;
      const order = ['introduced-in', 'deprecated-in', 'removed-in'] as const;
      overrides.kubernetesRows = rows.filter((row, i) => {
        const set = order.filter((f) => typeof row[f] === 'string' && row[f] !== '');
        for (let a = 0; a < set.length; a++) {
          for (let b = a + 1; b < set.length; b++) {
            const x = String(row[set[a]]), y = String(row[set[b]]);
            if (compareVersions(normalizeVersion(x), normalizeVersion(y)) > 0) {
              problems.push({
                message: `kubernetes.additionalVersions[${i}] (${String(row.version)} ${String(row.kind)}): ${set[b]} ${y} is before ${set[a]} ${x}; `
                  + 'a row must be introduced, then deprecated, then removed. The row is not used',
                path: ['kubernetes', 'additionalVersions', i, set[b]], at: 'value',
              });
              return false;
            }
          }
        }
        return true;
      }) as unknown as PlutoRow[];
    }
    const oa = v?.openapi;
    if (oa && typeof oa === 'object' && !Array.isArray(oa) && has('openapi') && ok('kubernetes.openapi')) {
      overrides.kubernetesOpenapi = {};
      for (const [minor, file] of Object.entries(oa as Record<string, unknown>)) {
        if (!ok(`kubernetes.openapi.${minor}`) || typeof file !== 'string' || !/^\d+\.\d+$/.test(minor) || !file.trim()) continue; // reported by the schema
        overrides.kubernetesOpenapi[minor] = file;
      }
    }
    if (Array.isArray(v?.crds) && has('crds') && ok('kubernetes.crds')) {
      overrides.kubernetesCrds = (v.crds as unknown[]).filter((x: unknown, i: number) => {
        if (typeof x === 'string' && x.trim() !== '') return true;
        problems.push({ message: `kubernetes.crds[${i}]: a CRD file or folder path must not be empty`, path: ['kubernetes', 'crds', i], at: 'value' });
        return false;
      }) as string[];
    }
  },
  settingsOf: (o) => (o.kubernetesWindow ? { window: o.kubernetesWindow } : undefined),
  checkCli(cli) {
    const k = cli.kubernetesWindow !== undefined ? checkKubernetesWindow(cli.kubernetesWindow) : undefined;
    return k ? [k] : [];
  },
  resolve({ pick, workspace, resolved }) {
    const release = resolved.starlingx!.release;
    const kw = pick('kubernetesWindow');
    const r = kw && parseRange(kw[0]);
    const minors = r ? minorsBetween(r.from, r.to) : undefined;
    if (kw && minors) return { minors, source: kw[1] } as KubeWindow;
    if (workspace?.localhost) {
      const l = workspace.localhost;
      return windowFromStarlingx(release, l.kubernetesVersion, {
        kind: 'workspace', detail: `${l.path}: StarlingX ${release.release} upgrade path from ${l.kubernetesVersion ?? `the default ${release.default}`}${l.note ? ` (${l.note})` : ''}`,
      });
    }
    return windowFromStarlingx(release, undefined, { kind: 'default', detail: `StarlingX ${release.release} default Kubernetes ${release.default} to its newest version` });
  },
  also({ pick, layers }) {
    let kubernetesOpenapi: Record<string, OpenapiMinor> | undefined;
    for (const [o, s] of [...layers].reverse()) {
      for (const [minor, d] of Object.entries(o?.kubernetesOpenapiDocs ?? {})) (kubernetesOpenapi ??= {})[minor] = { file: d.file, doc: d.doc, origin: s.kind === 'cli' ? 'from the command line' : `from ${s.detail}` };
    }
    const rowsPick = pick('kubernetesRows');
    const kubernetesRows = rowsPick ? { rows: rowsPick[0], origin: rowsPick[1].detail } : undefined;
    return { kubernetesRows, ...(kubernetesOpenapi ? { kubernetesOpenapi } : {}) };
  },
  describe: (c) => ({ window: windowText(c.kubernetes.minors), versions: c.kubernetes.patches ?? c.kubernetes.minors, source: c.kubernetes.source, pastData: windowPastDataOf(c.kubernetes.minors, c.kubernetesOpenapi) ?? null, knowledge: knowledgeOf(c) }),
  flags: [
    { name: '--kubernetes-window', key: 'kubernetesWindow', help: '      --kubernetes-window <w>     Kubernetes window, e.g. 1.18..1.21 or 1.21\n' },
    {
      name: '--kubernetes-version', key: 'kubernetesWindow', form: 'version', invalid: '--kubernetes-version takes a version such as 1.25 or v1.25.0',
      help: '      --kubernetes-version <v>    one target version (Pluto\'s --target-versions k8s=v1.25.0): the window v..v\n',
    },
    {
      name: '--kubernetes-openapi', key: 'kubernetesOpenapi', form: 'minor=path', invalid: '--kubernetes-openapi takes <minor>=<file>, e.g. 1.38=openapi-1.38.json',
      help: '      --kubernetes-openapi <minor>=<file>  judge that Kubernetes minor from your cluster\'s OpenAPI document\n'
        + '                                  (kubectl get --raw /openapi/v2 > file), even past the shipped data; repeatable\n',
    },
  ],
  parts: [{
    part: 'kubernetes.window', label: 'Kubernetes window', unset: '', detail: 'The Kubernetes minors every file must work with, e.g. 1.29..1.32',
    pattern: WINDOW_PATTERN, patternMessage: 'A version or a range, e.g. 1.29..1.32',
  }],
  // Fix-all under a default window that no other section's is: the Kubernetes window, every family's start.
  heldBack: { otherwise: true, text: (w) => `the Kubernetes window is the default ${w}; set kubernetes.window or starlingx.release` },
  summary: (c) => `Kubernetes ${windowText(c.kubernetes.minors)}${mark(c.kubernetes.source)}`,
  // The status item's tooltip says the window always (every family's checks start from it), with its versions.
  tooltip: (c) => ({ label: 'Kubernetes', window: windowText(c.kubernetes.minors), details: (c.kubernetes.patches ?? c.kubernetes.minors).join(', '), source: c.kubernetes.source }),
  // The facts of a manifest (its Kubernetes window), unless the StarlingX section said the window already.
  status: (f, c, said) => (typeof f.kubernetesWindow === 'string' && !said.some((p) => p.startsWith('Kubernetes')) ? `Kubernetes ${f.kubernetesWindow}${mark(c.kubernetes.source)}` : undefined),
  // A file whose facts name no window: the Kubernetes window, which every family's checks start from.
  statusOtherwise: (c) => `Kubernetes ${windowText(c.kubernetes.minors)}${mark(c.kubernetes.source)}`,
};
