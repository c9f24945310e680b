import type { Rule } from '../../../rules/types';
import type { PersistContext } from '../index';
import type { KataCrossingWindow } from '../../kata-config';
import { describeReleases } from '../../kata-config/data';
import { switchData, takeOver } from '../../kata-config/data/switch';
import { PERSIST_NO_COMMENTS } from './common';

/** A Go persist.json under a window that switches flavour. */
export interface TakeOverRun { persist: PersistContext; crossing: KataCrossingWindow }

export const rule: Rule<TakeOverRun> = {
  id: 'kata-persist/sandbox-takeover',
  family: 'kata-persist',
  defaultSeverity: 'warning',
  title: 'Running Go sandbox under a window that switches to runtime-rs',
  what: 'Under a Kata window that switches from the Go runtime to runtime-rs (`"3.20 (go)..4.1 (runtime-rs)"`), reports the Go '
    + 'runtime\'s persist.json of a sandbox: runtime-rs cannot take that sandbox over, so the node is drained before the switch.',
  why: 'runtime-rs restores a sandbox only from its own `/run/kata/<sandbox-id>/state.json`; it never reads the Go runtime\'s '
    + '`/run/vc/sbs/<sandbox-id>/persist.json`. A pod started by the Go shim and then handed to runtime-rs (the RuntimeClass\'s '
    + 'containerd runtime switched, the Go artifacts removed) cannot be cleaned up or managed: its VM is left behind.',
  bad: { filename: '/run/vc/sbs/4f1c6a2d9e8b7f60a5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2/persist.json', text: '{"PersistVersion":2,"Config":{},"HypervisorState":{"Pid":4242,"Type":"qemu"}}\n', options: 'Kata 3.20 (go)..4.1 (runtime-rs)' },
  good: { filename: '/run/vc/sbs/4f1c6a2d9e8b7f60a5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2/persist.json', text: '{"PersistVersion":2,"Config":{},"HypervisorState":{"Pid":4242,"Type":"qemu"}}\n', options: 'Kata 3.20..4.0' },
  fix: 'none',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: [
    'kata-containers src/runtime-rs/crates/persist/src/lib.rs (state.json under /run/kata/<sandbox-id>), src/runtime-rs/crates/runtimes/src/manager.rs (cleanup restores from it only), data/kata/flavour-switch.json',
    'shared/reference/kata/persist-format.md §1 (Go: /run/vc/sbs/<sandbox-id>/persist.json)',
  ],
  check({ persist, crossing }, report) {
    if (crossing.first !== 'go' || crossing.second !== 'runtime-rs') return;
    const t = takeOver('go', 'runtime-rs');
    if (!t) return;
    const rs = switchData().persist.runtimeRs;
    const first = persist.json.topLevelKeys()[0]?.range ?? { start: 0, end: Math.min(1, persist.json.text.length) };
    report({
      message: `${t.says}: this is the Go runtime's state of a ${persist.kind} (${describeReleases(crossing.before, crossing.before)}), and runtime-rs `
        + `${describeReleases(crossing.after, crossing.after)} restores only ${rs.sandboxState} (${rs.shape.struct}: ${Object.keys(rs.shape.fields).join(', ')}), never this file`,
      range: first,
      data: { from: 'go', to: 'runtime-rs', goReleases: crossing.before, runtimeRsReleases: crossing.after },
    });
  },
};
