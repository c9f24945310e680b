import type { Rule } from '../../../rules/types';
import type { KataCrossing } from '../crossing';
import { describeReleases } from '../data';
import { switchData, takeOver } from '../data/switch';

export const rule: Rule<KataCrossing> = {
  id: 'kata/sandbox-takeover',
  family: 'kata-config',
  defaultSeverity: 'info',
  title: 'Window that switches flavour: running sandboxes are not taken over',
  what: 'Under a Kata window that switches the runtime flavour (`"3.20 (go)..4.1 (runtime-rs)"` or back), says once per '
    + 'configuration file, at its first table, that sandboxes running with one flavour cannot be taken over by the other: '
    + 'the node is drained before the switch.',
  why: 'Each flavour restores a running sandbox only from its own state (the Go runtime: `/run/vc/sbs/<id>/persist.json`; '
    + 'runtime-rs: `/run/kata/<id>/state.json`, another shape). A configuration that both read does not make the sandboxes '
    + 'portable: pods started before the switch must be stopped (the node drained) first.',
  bad: { filename: 'configuration-qemu.toml', text: '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n', options: 'Kata 3.20 (go)..4.1 (runtime-rs)' },
  good: { filename: 'configuration-qemu.toml', text: '[hypervisor.qemu]\npath = "/opt/kata/bin/qemu-system-x86_64"\n', options: 'Kata 3.20..4.0' },
  fix: 'none',
  sources: ['data/kata/flavour-switch.json persist (kata-containers src/runtime-rs/crates/persist, src/runtime-rs/crates/runtimes/src/manager.rs; persist-format.md §1)'],
  check(x, report) {
    const t = takeOver(x.first.flavour, x.second.flavour);
    if (!t) return;
    const p = switchData().persist;
    const [from, to] = x.first.flavour === 'go' ? [p.go.sandboxState, p.runtimeRs.sandboxState] : [p.runtimeRs.sandboxState, p.go.sandboxState];
    const header = x.toml.tables[0]?.headerRange ?? x.toml.entries[0]?.keyRange ?? { start: 0, end: 0 };
    report({
      message: `${t.says} (${describeReleases(x.first.window, x.first.window)} ${x.first.flavour} → ${describeReleases(x.second.window, x.second.window)} ${x.second.flavour}): `
        + `a sandbox's state is ${from}, and the other flavour restores only ${to}`,
      range: header,
      data: { from: x.first.flavour, to: x.second.flavour },
    });
  },
};
