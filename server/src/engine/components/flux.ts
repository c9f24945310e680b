// FluxCD as a component module: the Flux of each StarlingX release on the platform's upgrade path, whose served APIs
// (data/starlingx/app-metadata.json `flux`, from scripts/import-starlingx-apps.mjs) the k8s/flux-* rules check an
// application bundle's Flux manifests against. A Flux version the user gives (kubernetes.components.fluxcd,
// --component-versions fluxcd=…) wins: the Flux rows are then checked at that one version, as any component's.
import type { ComponentModule } from './types';
import { fluxWindowOf, type FluxWindow } from '../families/starlingx-app/data';

declare module '../config' {
  interface ResolvedConfig {
    /**
     * The Flux of the StarlingX releases on the path, when the configuration or workspace says StarlingX (a release, an
     * upgradeFrom, or a localhost.yml) and no Flux version is given (kubernetes.components.fluxcd); else undefined.
     */
    flux?: FluxWindow;
  }
}

export const fluxComponent: ComponentModule<FluxWindow> = {
  id: 'fluxcd',
  key: 'flux',
  window: ({ starlingx, version }) => (starlingx && !(version && version.source.kind !== 'default') ? fluxWindowOf(starlingx.path, starlingx.source) : undefined),
  describe: (w) => ({ window: w.text, versions: w.steps.map((s) => ({ starlingx: s.starlingx, flux: s.flux })), source: w.source }),
};
