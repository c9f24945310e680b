// data/kata/flavour-switch.json: what each runtime flavour persists for a running sandbox (and whether the other can
// restore it), and how kata-deploy names each shim's containerd runtime.
import { loadJson } from '../../../data';
import type { Flavour } from './index';

export interface TakeOver { from: Flavour; to: Flavour; possible: boolean; says: string; why: string }
export interface FlavourSwitchData {
  persist: {
    go: { sandboxState: string; source: string };
    runtimeRs: { sandboxState: string; shape: { struct: string; fields: Record<string, string> }; restoredBy: string; sources: string[]; note?: string };
    takeOver: TakeOver[];
  };
  kataDeploy: {
    image: string; runtimeName: string; runtimeType: string; destDir: string;
    runtimePath: Record<Flavour, string>; configPath: Record<Flavour, string> & { note?: string };
    rustShims: string[]; sources: string[];
  };
  installPaths: string[];
}

export const switchData = (): FlavourSwitchData => loadJson<FlavourSwitchData>('data/kata/flavour-switch.json');

export function takeOver(from: Flavour, to: Flavour): TakeOver | undefined {
  return switchData().persist.takeOver.find((t) => t.from === from && t.to === to);
}
