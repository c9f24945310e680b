// A product inside manifests (FluxCD, an operator, Gateway API, a CNI) whose API rows are checked at the component's own
// versions, not at the Kubernetes window: a component module (issue #30 item 3). Each is one module in this folder,
// listed in components/registry.ts; the components' config section (components/config.ts: kubernetes.components,
// --component-versions) resolves and describes their versions and windows from that list, and the Kubernetes family
// checks a component that has a window at its window's steps (its own rules) instead of at one version.
import type { SourceInfo } from '../types';

/** A component's version (kubernetes.components.<id>, --component-versions, settings, or its default) and where it came from. */
export interface ComponentVersionSetting { version: string; source: SourceInfo }

/**
 * What a component's window may be read from, besides a version the user gives. The config sections add what they
 * tell (ConfigSection.componentInput, by module augmentation): the StarlingX section its upgrade path (`starlingx`).
 */
export interface ComponentWindowInput {
  /** Its version as the user set it (kubernetes.components.<id>, --component-versions <id>=…), or its default. */
  version?: ComponentVersionSetting;
}

export interface ComponentModule<W = unknown> {
  /**
   * Its name: the `component` of its lifecycle rows (data/kubernetes/api-lifecycle.json, from its import script) and
   * its key in kubernetes.components and --component-versions, where a user gives its version.
   */
  id: string;
  /** Its key in ResolvedConfig (the module adds the key's type there by module augmentation) and in --print-config. */
  key: string;
  /**
   * Its version window when one can be read (e.g. Flux: the FluxCD each StarlingX release on the path ships), which wins
   * over its one default version; undefined: checked at one version (the user's or the default), as any component.
   */
  window(input: ComponentWindowInput): W | undefined;
  /** Its window in --print-config and the "Show Resolved Window" document. */
  describe(w: W): unknown;
  /**
   * The problem of a version the user gives it (kubernetes.components.<id>, --component-versions <id>=…, the setting),
   * undefined when it is fine, e.g. an operator's one release or window of its releases in the data; absent: a version
   * such as 1.5 or v1.5.3 (components/config.ts). Its id is a component name the configuration knows either way.
   */
  checkVersion?(v: unknown): string | undefined;
}
