// The plugin args of a KubeSchedulerConfiguration: each `profiles[i].pluginConfig[j].args` is decoded by kube-scheduler
// as the Args kind of its plugin (`<name>Args` of the configuration's apiVersion, or the apiVersion/kind the args name
// themselves; a kind the scheduler has not registered is left to the plugin, an out-of-tree one's). The field rules
// check such args as an object of that kind (KubernetesContext.fieldObjects), with paths said from the configuration;
// k8s/component-config-kind says the args kube-scheduler refuses (another plugin's kind, a plugin whose args kind is
// only in an older apiVersion: a removed plugin), k8s/fields-not-checked those whose kind the table does not have.
import { componentFieldTable, rootNode, covers, maskOf, minorNumber, type FieldTable } from './data/fields';
import { splitApiVersion } from './data/api-version';
import { versionPriority } from './crds';
import { isObj, type ManifestObject } from './manifest-objects';

export const SCHEDULER_GROUP = 'kubescheduler.config.k8s.io';

export interface PluginArgs {
  /** The KubeSchedulerConfiguration the args are in. */
  config: ManifestObject;
  /** The plugin's name (pluginConfig[j].name). */
  name: string;
  /** Path of the pluginConfig entry inside its document. */
  entryAt: Array<string | number>;
  /** Path of the args. */
  at: Array<string | number>;
  value: Record<string, unknown>;
  /** The kind the args are decoded as: their own apiVersion/kind where they say one, else the configuration's and `<name>Args`. */
  apiVersion: string;
  kind: string;
  /** The args' own apiVersion/kind names another plugin's kind or another group: kube-scheduler refuses it (where it knows the plugin's kind). */
  mismatch?: 'kind' | 'apiVersion';
  /** The args as an object of their kind, for the field rules (only when the table has that kind and there is no mismatch). */
  object?: ManifestObject;
}

/** A KubeSchedulerConfiguration of the component table. */
export const isSchedulerConfig = (o: { apiVersion: string; kind: string }): boolean =>
  o.kind === 'KubeSchedulerConfiguration' && splitApiVersion(o.apiVersion).group === SCHEDULER_GROUP && !!componentFieldTable().kinds[`${o.apiVersion} ${o.kind}`];

/** Every pluginConfig entry with an object as args, of every KubeSchedulerConfiguration of the file, in document order. */
export function pluginArgsOf(objects: readonly ManifestObject[]): PluginArgs[] {
  const out: PluginArgs[] = [];
  for (const config of objects) {
    if (!isSchedulerConfig(config)) continue;
    const profiles = config.value.profiles;
    if (!Array.isArray(profiles)) continue;
    profiles.forEach((p: unknown, i: number) => {
      const list = isObj(p) ? p.pluginConfig : undefined;
      if (!Array.isArray(list)) return;
      list.forEach((c: unknown, j: number) => {
        if (!isObj(c) || typeof c.name !== 'string' || !c.name || !isObj(c.args)) return;
        const value = c.args as Record<string, unknown>;
        const entryAt = [...config.at, 'profiles', i, 'pluginConfig', j];
        const at = [...entryAt, 'args'];
        const own = { apiVersion: typeof value.apiVersion === 'string' && value.apiVersion ? value.apiVersion : undefined, kind: typeof value.kind === 'string' && value.kind ? value.kind : undefined };
        const apiVersion = own.apiVersion ?? config.apiVersion;
        const kind = own.kind ?? `${c.name}Args`;
        // kube-scheduler compares the group and the kind (runtime.Decode into <name>Args: "args for plugin … were not of type …").
        const mismatch = kind !== `${c.name}Args` ? 'kind' as const : splitApiVersion(apiVersion).group !== SCHEDULER_GROUP ? 'apiVersion' as const : undefined;
        const args: PluginArgs = { config, name: c.name, entryAt, at, value, apiVersion, kind, ...(mismatch ? { mismatch } : {}) };
        if (!mismatch && componentFieldTable().kinds[`${apiVersion} ${kind}`]) {
          const doc = config.doc;
          const name = doc.locate([...entryAt, 'name']).value;
          args.object = {
            doc, at, value, apiVersion, kind,
            apiVersionRange: own.apiVersion ? doc.locate([...at, 'apiVersion']).value : name,
            kindRange: own.kind ? doc.locate([...at, 'kind']).value : name,
            within: config,
          };
        }
        out.push(args);
      });
    });
  }
  return out;
}

/** Whether the table has the plugin's args kind (`<name>Args`) under some apiVersion of the scheduler's group. */
export function knownArgsKind(name: string): Array<{ apiVersion: string; runs: [number, number][] }> {
  return argsKinds().get(`${name}Args`) ?? [];
}
/** The scheduler group's kinds of the component table, by kind: built once (each plugin's args asked it up to three times, each a scan of the table). */
let argsKindsMemo: Map<string, Array<{ apiVersion: string; runs: [number, number][] }>> | undefined;
function argsKinds(): Map<string, Array<{ apiVersion: string; runs: [number, number][] }>> {
  if (argsKindsMemo) return argsKindsMemo;
  const m = new Map<string, Array<{ apiVersion: string; runs: [number, number][] }>>();
  for (const [key, iv] of Object.entries(componentFieldTable().kinds)) {
    const sp = key.indexOf(' ');
    if (splitApiVersion(key.slice(0, sp)).group !== SCHEDULER_GROUP) continue;
    const kind = key.slice(sp + 1);
    let list = m.get(kind);
    if (!list) m.set(kind, (list = []));
    list.push({ apiVersion: key.slice(0, sp), runs: iv.map(([, a, b]) => [a, b] as [number, number]) });
  }
  return (argsKindsMemo = m);
}

/**
 * The steps of the window where kube-scheduler reads the configuration but the table has no args kind for the args
 * (their apiVersion/kind at that minor), and what that means: `refused` when the table has the plugin's args kind only
 * in older apiVersions of the group (a plugin removed from this apiVersion: kube-scheduler refuses the file,
 * kubernetes/kubernetes#103478), else `notChecked` (an out-of-tree plugin's args, a plugin without an args kind at that
 * minor, or one whose args kind comes in a newer apiVersion: kube-scheduler does not decode them; not judged).
 * Undefined when every such step has the kind, or the args name a mismatching kind (said as such).
 */
export function argsKindMissing(p: PluginArgs, minors: readonly string[], t: FieldTable): { steps: number[]; verdict: 'refused' | 'notChecked'; elsewhere: Array<{ apiVersion: string; runs: [number, number][] }> } | undefined {
  if (p.mismatch) return undefined;
  const config = rootNode(p.config.apiVersion, p.config.kind, t);
  if (!config) return undefined;
  const window = minors.map(minorNumber).filter((m) => covers(t, m));
  const read = maskOf(window, t) & config.kindServed;
  const has = rootNode(p.apiVersion, p.kind, t)?.kindServed ?? 0;
  const steps = window.filter((m) => read & (1 << (m - t.first)) && !(has & (1 << (m - t.first))));
  if (!steps.length) return undefined;
  const known = p.kind === `${p.name}Args` ? knownArgsKind(p.name) : [];
  const here = known.some((k) => k.apiVersion === p.apiVersion);
  const version = splitApiVersion(p.apiVersion).version;
  const older = known.filter((k) => versionPriority(splitApiVersion(k.apiVersion).version, version) > 0);
  const refused = !here && older.length > 0 && older.length === known.length;
  return { steps, verdict: refused ? 'refused' : 'notChecked', elsewhere: known.filter((k) => k.apiVersion !== p.apiVersion) };
}

/** "1.19..1.22": a run list as findings say it. */
export const runsText = (runs: ReadonlyArray<[number, number]>): string => runs.map(([a, b]) => (a === b ? `1.${a}` : `1.${a}..1.${b}`)).join(', ');
