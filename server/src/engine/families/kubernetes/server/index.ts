// The Kubernetes family's server side (server/family-service.ts): the user's OpenAPI documents, read from the disk
// (./openapi-docs.ts, bounded), which the engine may not: lsp-lint's --kubernetes-openapi (anywhere the user named),
// kubernetes.openapi of .skewguard.yaml (inside the checked roots; one it cannot use said at its entry) and the
// skewguard.kubernetes.openapi setting (a workspace value read inside the workspace only, a user-level one wherever it
// points). The engine gets them as the overrides' kubernetesOpenapiDocs. And the hover says which bootstrap file set
// a file's Kubernetes window when several competed.
import * as path from 'node:path';
import { memoIn } from '../../../memo';
import { openapiEntry } from '../config';
import type { OpenapiDoc } from '../data/openapi';
import type { FamilyServiceContext, FamilyServerService } from '../../../../server/family-service';
import { readOpenapiFile } from './openapi-docs';

export function start(ctx: FamilyServiceContext): FamilyServerService {
  /** The documents the loaded configs and settings named, absolute: a change to one reloads the configs. */
  const openapiFiles = new Set<string>();
  /** skewguard.kubernetes.openapi (editor settings) read per folder and entries; forgotten with the configs. */
  const settingsCache = new Map<string, Record<string, { file: string; doc: OpenapiDoc }>>();
  /** The setting's documents that cannot be used, per minor: said as invalid settings (SettingsReporter). */
  const settingsProblems = new Map<string, string>();

  /**
   * The documents skewguard.kubernetes.openapi names for a file's folder. A relative path is the workspace folder's.
   * A value set in the workspace or folder settings comes from the repository (.vscode/settings.json): read only inside
   * the checked roots, like .skewguard.yaml's entry. One set at the user level (`userMinors`, as the client says from
   * VS Code's inspect()) is the user's choice: read wherever it points. Bounded as every document is (openapi-docs.ts).
   */
  function settingsOpenapi(file: string, entries: Readonly<Record<string, string>>, userMinors: readonly string[]): Record<string, { file: string; doc: OpenapiDoc }> {
    const root = ctx.rootFor(file) ?? path.dirname(file);
    const key = `${root}\u0000${JSON.stringify(entries)}\u0000${userMinors.join(',')}`;
    return memoIn(settingsCache, key, () => {
      const out: Record<string, { file: string; doc: OpenapiDoc }> = {};
      let said = false;
      for (const [minor, written] of Object.entries(entries)) {
        if (openapiFiles.size < 1000) openapiFiles.add(path.resolve(root, written));
        const user = userMinors.includes(minor);
        const got = readOpenapiFile(minor, written, root, user ? undefined : ctx.inside);
        if ('problem' in got) {
          const msg = `${got.problem}${user ? '' : ' (a workspace setting: read only inside the workspace)'}`;
          if (settingsProblems.get(minor) !== msg) { settingsProblems.set(minor, msg); said = true; }
        } else out[minor] = got;
      }
      if (said) ctx.settingsProblemsChanged();
      return out;
    });
  }

  return {
    // --kubernetes-openapi: read now (anywhere the user named; bounded), before any file is checked with them.
    cliOptions(cli) {
      const problems: string[] = [];
      if (cli.kubernetesOpenapi && typeof cli.kubernetesOpenapi === 'object') {
        cli.kubernetesOpenapiDocs = {};
        for (const [minor, file] of Object.entries(cli.kubernetesOpenapi)) {
          if (typeof file !== 'string') continue;
          const got = readOpenapiFile(minor, file, process.cwd());
          if ('problem' in got) problems.push(`--kubernetes-openapi ${got.problem}`);
          else cli.kubernetesOpenapiDocs[minor] = got;
        }
      }
      return problems;
    },
    // kubernetes.openapi names documents on disk: read here (bounded, inside the workspace), said at the entry when unusable.
    configLoaded(p, overrides, inside) {
      const oa = overrides.kubernetesOpenapi;
      if (!oa || !Object.keys(oa).length) return [];
      const problems: Array<{ path: Array<string | number>; message: string }> = [];
      overrides.kubernetesOpenapiDocs = {};
      for (const [minor, written] of Object.entries(oa)) {
        if (openapiFiles.size < 1000) openapiFiles.add(path.resolve(path.dirname(p), written));
        const got = readOpenapiFile(minor, written, path.dirname(p), inside);
        if ('problem' in got) problems.push({ path: openapiEntry(minor).path, message: got.problem });
        else overrides.kubernetesOpenapiDocs[minor] = got;
      }
      return problems;
    },
    // skewguard.kubernetes.openapi: the documents read, for the settings' overrides.
    settingsOverrides(file, s, o) {
      if (!o.kubernetesOpenapi || !Object.keys(o.kubernetesOpenapi).length) return o;
      // The VS Code client says which minors are set at the user level (userLevel, from inspect()); every other client's
      // value is taken as the workspace's (the safe reading: inside the workspace only).
      const lv = (s as { userLevel?: { 'kubernetes.openapi'?: unknown } }).userLevel?.['kubernetes.openapi'];
      const user = Array.isArray(lv) ? lv.filter((m): m is string => typeof m === 'string') : [];
      return { ...o, kubernetesOpenapiDocs: settingsOpenapi(file, o.kubernetesOpenapi, user) };
    },
    settingsProblems: () => [...settingsProblems].map(([minor, message]) => ({ setting: `skewguard.kubernetes.openapi.${minor}`, message })),
    readsForConfig: (file) => openapiFiles.has(file),
    reset() { settingsCache.clear(); settingsProblems.clear(); },
    // Several bootstrap files competed for the file's Kubernetes window: which one was used, and how to choose (server/workspace.ts).
    hoverNote(r, file) {
      const k = r.config?.kubernetes.source;
      if (!k || k.kind !== 'workspace' || r.windowSource !== k) return '';
      const l = ctx.workspaceFacts(file).localhost;
      return l?.note ? `\n\nKubernetes window from ${l.path}: ${l.note}.` : '';
    },
  };
}
