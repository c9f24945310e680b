// Raised by the engine for a legacy store file (it has no persist.json layout to check field by field).
import type { RuleMeta } from '../../../rules/types';
import { compareVersions } from '../../../versions';
import { PERSIST_NO_COMMENTS } from './common';

export const legacyStore: RuleMeta = {
  id: 'kata-persist/legacy-store',
  family: 'kata-persist',
  defaultSeverity: 'error',
  title: 'Legacy store file that runtimes in the window cannot read',
  what: 'Reports a legacy store file (state.json, devices.json, hypervisor.json, agent.json, network.json, mounts.json, '
    + 'process.json …) in a sandbox directory when the window holds any Kata release from 2.0.0 on, which read only persist.json.',
  why: 'This is how 1.x → 2.x upgrades broke in practice: the new runtime looks for /run/vc/sbs/<id>/persist.json, finds '
    + 'only the legacy files, and cannot manage the running sandbox ("open …/persist.json: no such file or directory").',
  bad: { filename: '/run/vc/sbs/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/state.json', text: '{\n  "state": "running"\n}\n', options: 'Kata 1.13..2.0' },
  good: { filename: '/run/vc/sbs/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/state.json', text: '{\n  "state": "running"\n}\n', options: 'Kata 1.11..1.13' },
  fix: 'none',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: ['persist-format.md §3 (kata-containers commit 5200ac0678 "runtime: remove old store", first in 2.0.0)', 'skew-facts.md #18'],
};

/** The releases of the window that no longer read the legacy store. */
export function releasesWithoutLegacyStore(window: string[], notReadFrom: string): string[] {
  return window.filter((r) => compareVersions(r, notReadFrom) >= 0);
}
