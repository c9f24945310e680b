// The components' part of the configuration: the version of each product inside manifests whose API rows are checked
// at its own releases (cert-manager, istio, the operators of data/operators/, FluxCD …), and the component modules'
// windows (components/registry.ts). A config section as a family's is (engine/config-core.ts ConfigSection), composed
// by the core from engine/config.ts's one hook, but a key of the Kubernetes section's rather than a section of its own:
// `kubernetes.components` in .skewguard.yaml (after `window`), skewguard.kubernetes.components in the editor settings,
// lsp-lint --component-versions (printed after --rule). Defaults: the Kubernetes lifecycle data's componentTargets
// (Pluto's default target per component); an operator has none. Order -5: after the Kubernetes window (whose
// lifecycle rows may name components of the user's own), before the families' own windows.
import type { ConfigSection } from '../config-core';
import type { SourceInfo } from '../types';
import type { ComponentVersionSetting, ComponentWindowInput } from './types';
import { didYouMean } from '../text';
import { normalizeVersion } from '../versions';
import { kubernetesApis } from '../families/kubernetes/data/apis';
import { COMPONENTS } from './registry';

export type { ComponentVersionSetting };

declare module '../config' {
  interface Overrides {
    /** Versions of CRD-providing components (cert-manager, istio …) their lifecycle rows are checked at. */
    componentVersions?: Record<string, string>;
  }
  interface ResolvedConfig {
    /** The version each component's lifecycle rows are checked at, and where it came from. */
    components: Record<string, ComponentVersionSetting>;
    // Each component module with a window (components/<id>.ts) adds it here (Flux: `flux`).
  }
}

// skewguard.kubernetes.components: a key of the Kubernetes section's editor settings (its section's `within`, below).
declare module '../families/kubernetes/config' {
  interface KubernetesSettings {
    components?: Record<string, string>;
  }
}

/** Components with lifecycle rows in the shipped data, and Pluto's default target for each. */
export function knownComponents(): Record<string, { version: string; plutoTarget?: string; source: string }> {
  return kubernetesApis().componentTargets ?? {};
}

/** The component module of that name (components/registry.ts: Flux, each operator of the data …), if one. */
const moduleOf = (name: string) => COMPONENTS.find((m) => m.id === name);

/** Whether the component name itself is wrong (Kubernetes, or not a known component). */
function componentNameProblem(name: string, extra: string[]): boolean {
  return name === 'k8s' || name === 'kubernetes' || !(Object.keys(knownComponents()).includes(name) || !!moduleOf(name) || extra.includes(name));
}

/**
 * An error message for a component version setting, or undefined when it is fine. `extra`: components of user rows.
 * Known names: the data's components, the component modules' (the operators'), the user's rows'.
 */
export function checkComponentVersion(name: string, v: unknown, extra: string[] = []): string | undefined {
  const own = moduleOf(name)?.checkVersion; // a module's own versions: an operator's one release or a window of them
  if (own) return own(v);
  const known = [...new Set([...Object.keys(knownComponents()), ...COMPONENTS.map((m) => m.id), ...extra])].sort();
  if (name === 'k8s' || name === 'kubernetes') return 'Kubernetes versions are the Kubernetes window (kubernetes.window / --kubernetes-window), not a component version';
  if (!known.includes(name)) {
    const hint = didYouMean(name, known);
    return `unknown component "${name}"${hint ? `; did you mean "${hint}"?` : ''} (known: ${known.join(', ')})`;
  }
  if (typeof v !== 'string' || !/^\d+\.\d+(\.\d+)?$/.test(normalizeVersion(v))) return `"${String(v)}" is not a version such as 1.5 or v1.5.3`;
  return undefined;
}

/** Where the component windows are said in --print-config: after the StarlingX release (-20), before the Kubernetes window (-10). */
const WINDOWS_AT = -15;

export const componentsConfigSection: ConfigSection = {
  section: 'components',
  order: -5,
  within: { section: 'kubernetes', after: 'window' },
  schema: {
    type: 'object',
    description: 'Version of each CRD-providing component whose lifecycle rows are checked at that version instead of the '
      + "Kubernetes window, e.g. { cert-manager: \"1.5\", istio: \"1.11\" }. A component not named here is checked at Pluto's "
      + 'default target for it. An operator of the bundled data (external-secrets, kyverno, traefik …) takes one release or a '
      + 'window of its releases, e.g. { external-secrets: "0.16..0.17" }, and has no default.',
    // Names and version format are checked by checkComponentVersion (known components, with did-you-mean).
    additionalProperties: { type: 'string' },
  } as unknown as ConfigSection['schema'],
  packageSettings: {
    'skewguard.kubernetes.components': {
      type: 'object',
      scope: 'resource',
      default: {},
      additionalProperties: { type: 'string', minLength: 1 },
      description: 'Version of each component or operator whose custom resources are checked at its own releases, e.g. { "external-secrets": "0.16..0.17", "kyverno": "1.19", "cert-manager": "1.5" }. An operator of the bundled data takes one release or a window of its releases and has no default. Overridden by kubernetes.components in .skewguard.yaml and by lsp-lint --component-versions.',
      markdownDescription: 'Version of each component or operator whose custom resources are checked at its own releases, e.g. `{ "external-secrets": "0.16..0.17", "kyverno": "1.19", "cert-manager": "1.5" }`. An operator of the bundled data (`external-secrets`, `kyverno`, `traefik` …) takes one release or a window of its releases and has no default. Overridden by `kubernetes.components` in `.skewguard.yaml` and by `lsp-lint --component-versions`.',
      order: 3,
    },
  },
  validate(comps, { ok, overrides, problems }) {
    if (!comps || !ok('kubernetes.components')) return;
    // Components the user's own lifecycle rows name (kubernetes.additionalVersions, validated before: order -10).
    const userComponents = (overrides.kubernetesRows ?? []).map((r) => r.component).filter((c): c is string => !!c);
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(comps)) {
      const err = checkComponentVersion(name, v, userComponents);
      // A wrong name is reported at the name, a wrong version at the version.
      if (err) problems.push({ message: `kubernetes.components.${name}: ${err}`, path: ['kubernetes', 'components', name], at: componentNameProblem(name, userComponents) ? 'key' : 'value' });
      else out[name] = normalizeVersion(String(v));
    }
    if (Object.keys(out).length) overrides.componentVersions = out;
  },
  settingsOf: (o) => o.componentVersions,
  checkCli(cli) {
    const out: string[] = [];
    for (const [name, v] of Object.entries(cli.componentVersions ?? {})) {
      const err = checkComponentVersion(name, v);
      if (err) out.push(`--component-versions ${name}: ${err}`);
    }
    return out;
  },
  // The defaults (Pluto's default targets), then the editor settings, .skewguard.yaml and the command line, per component.
  resolve({ layers }) {
    const out: Record<string, ComponentVersionSetting> = {};
    for (const [name, d] of Object.entries(knownComponents())) out[name] = { version: d.version, source: { kind: 'default', detail: d.plutoTarget ? `Pluto's default target, ${d.source}` : d.source } };
    for (const [o, layer] of [...layers].reverse()) {
      const source: SourceInfo = layer.kind === 'cli' ? { kind: 'cli', detail: '--component-versions' }
        : layer.kind === 'config' ? { kind: 'config', detail: `${layer.detail} kubernetes.components` } : layer;
      for (const [name, v] of Object.entries(o?.componentVersions ?? {})) out[name] = { version: normalizeVersion(v), source };
    }
    return out;
  },
  // The component modules' windows (components/registry.ts), from their versions and what the sections tell them (the
  // StarlingX upgrade path when the configuration or the workspace says StarlingX).
  also(ctx) {
    const told = Object.assign({}, ...ctx.sections.map((c) => c.componentInput?.(ctx) ?? {})) as ComponentWindowInput;
    const versions = ctx.resolved.components ?? {};
    return Object.fromEntries(COMPONENTS.map((m) => [m.key, m.window({ ...told, version: versions[m.id] })]));
  },
  describeAlso: {
    order: WINDOWS_AT,
    // Those that have one.
    describe: (c) => Object.fromEntries(COMPONENTS.flatMap((m) => ((c as unknown as Record<string, unknown>)[m.key] ? [[m.key, m.describe((c as unknown as Record<string, unknown>)[m.key])]] : []))),
  },
  describe: (c) => c.components,
  flags: [{
    name: '--component-versions', key: 'componentVersions', form: 'map', among: 'rules',
    invalid: '--component-versions takes <component>=<version>[,…], e.g. cert-manager=1.5,istio=1.11',
    help: '      --component-versions <c=v,…>  versions of CRD-providing components whose API rows are checked at them,\n'
      + "                                  e.g. cert-manager=1.5,istio=1.11 (default: Pluto's default target per component);\n"
      + '                                  an operator takes a window of its releases: external-secrets=0.16..0.17\n',
  }],
  parts: [],
};
