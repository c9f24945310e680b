// A file's resolved configuration (its .skewguard.yaml, the workspace facts, the editor settings, lsp-lint's flags;
// engine/config.ts resolveConfig), and the editor settings it is resolved with: pulled from the client, per
// document in a multi-root workspace, their problems said (settingsReport.ts).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { resolveConfig, ignoreLayersOf, type ResolvedConfig, type LoadedConfig, type Overrides } from '../engine/config';
import { weakMemoIn } from '../engine/memo';
import { ruleIds } from '../engine/rules';
import { normalizeSettings, debounceOf } from '../shared/settings';
import type { Settings } from '../shared/protocol';
import {
  connection, documents, init, settings, canPullConfig, ws, results, docSettings, settingsReporter, services, uriToPath, set,
} from './session';

/** Settings arrived or changed: say which of them are invalid (they are left out, as in .skewguard.yaml). */
export const settingsReceived = () => settingsReporter?.report([settings, ...docSettings.values()],
  services.flatMap((s) => s.settingsProblems?.() ?? []));

export async function pullSettings(): Promise<void> {
  try {
    const s = await connection.workspace.getConfiguration('skewguard');
    if (s && typeof s === 'object') set.settings(s as Settings);
  } catch { /* client without configuration support */ }
  docSettings.clear();
  await Promise.all(documents.all().map((d) => pullDocSettings(d.uri)));
}

/** Settings for one document (folder-scoped settings in a multi-root workspace). */
export async function pullDocSettings(uri: string): Promise<void> {
  if (!canPullConfig) return;
  try {
    const s = await connection.workspace.getConfiguration({ scopeUri: uri, section: 'skewguard' });
    if (s && typeof s === 'object') docSettings.set(uri, s as Settings);
  } catch { /* keep the workspace-wide settings */ }
  settingsReceived();
}

export function configFor(file: string, uri?: string): { config: ResolvedConfig; loaded?: LoadedConfig } {
  const loaded = ws.configFor(file);
  const s = (uri && docSettings.get(uri)) || settings;
  const facts = ws.factsFor(file);
  // Its inputs are cached objects (the config per file, the settings, the facts per folder): so is the result,
  // which spares resolving it again for each of thousands of files (and gives later caches one config to key on).
  const byConfig = weakMemoIn(resolvedCache, loaded ?? NO_CONFIG, () => new WeakMap<object, WeakMap<object, ResolvedConfig>>());
  const bySettings = weakMemoIn(byConfig, s, () => new WeakMap<object, ResolvedConfig>());
  const config = weakMemoIn(bySettings, facts, () => resolveConfig({ cli: init.cli, config: loaded, settings: withServices(file, s, normalizeSettings(s, ruleIds).overrides), workspace: facts }));
  return { config, loaded };
}
const NO_CONFIG = {};

/**
 * A file's ignore lists: its resolved configuration's ignoreLayers (configFor(file, uri).config.ignoreLayers), without
 * resolving its windows. lsp-lint asks which of its walked files are ignored before any is checked, and one server
 * answers for all of them: resolving every folder's windows there (about 0.6 s of a 10,000-file run, with the other
 * servers idle) was work no answer reads.
 */
export function ignoreLayersFor(file: string, uri?: string): Pick<ResolvedConfig, 'ignoreLayers'> {
  const loaded = ws.configFor(file);
  const s = (uri && docSettings.get(uri)) || settings;
  const byConfig = weakMemoIn(ignoreCache, loaded ?? NO_CONFIG, () => new WeakMap<object, Pick<ResolvedConfig, 'ignoreLayers'>>());
  return weakMemoIn(byConfig, s, () => ({ ignoreLayers: ignoreLayersOf({ cli: init.cli, config: loaded, settings: normalizeSettings(s, ruleIds).overrides }) }));
}
const ignoreCache = new WeakMap<object, WeakMap<object, Pick<ResolvedConfig, 'ignoreLayers'>>>();

/** The settings' overrides with what the families' server sides read on disk for them (the OpenAPI documents a setting names). */
function withServices(file: string, s: Settings, o: Overrides): Overrides {
  for (const svc of services) if (svc.settingsOverrides) o = svc.settingsOverrides(file, s, o);
  return o;
}

/**
 * Whether the document's last analysis is of this version with a configuration equal to the one it would get now:
 * settings that arrive later but resolve to the same configuration (window, rules, ignore, Helm) change nothing.
 */
export function analysedWithCurrentConfig(doc: TextDocument): boolean {
  const r = results.get(doc.uri);
  if (!r || r.version !== doc.version || !r.config) return false;
  try {
    const now = configFor(uriToPath(doc.uri), doc.uri).config;
    return now === r.config || JSON.stringify(now) === JSON.stringify(r.config);
  } catch { return false; }
}
const resolvedCache = new WeakMap<object, WeakMap<object, WeakMap<object, ResolvedConfig>>>();

export function debounce(): number {
  return debounceOf(normalizeSettings(settings, ruleIds).settings);
}
