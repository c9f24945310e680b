import type { Rule } from '../../../rules/types';
import type { PersistContext } from '../index';
import { inRel } from '../data';
import { rel, PERSIST_NO_COMMENTS } from './common';

export const rule: Rule<PersistContext> = {
  id: 'kata-persist/persist-version',
  family: 'kata-persist',
  defaultSeverity: 'warning',
  title: 'PersistVersion missing, unknown, or not what the window writes',
  what: 'Reports a sandbox persist.json whose `PersistVersion` is missing, is not a version any Kata release writes '
    + '(error), or differs from what the releases of the window write.',
  why: 'The loader never checks the number and the layout changed six times without a bump, so the number says little; '
    + 'but a missing or foreign number means the file was not written by the runtimes this host runs.',
  bad: { filename: 'persist.json', text: '{\n  "PersistVersion": 1,\n  "HypervisorState": {\n    "Pid": 4242\n  }\n}\n', options: 'Kata 3.32' },
  good: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "HypervisorState": {\n    "Pid": 4242\n  }\n}\n', options: 'Kata 3.32' },
  fix: 'none',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: ['persist-format.md §2 (shared reference)', 'skew-facts.md #16, #17'],
  check(ctx, report) {
    if (ctx.kind !== 'sandbox') return;
    const v = (ctx.json.value as Record<string, unknown>).PersistVersion;
    const pv = ctx.data.persistVersion;
    const written = new Map<string, number | null>();
    for (const r of ctx.window) written.set(r, pv.values.find((x) => inRel(x, r))?.value ?? null);
    const expected = [...new Set([...written.values()].filter((x): x is number => x !== null))];
    const loc = ctx.json.locate(['PersistVersion']);
    if (v === undefined) {
      report({
        message: `PersistVersion is missing: every sandbox persist.json written by ${expected.length ? `the window's releases carries ${expected.join(' or ')}` : 'a Kata release carries one'}`,
        range: ctx.json.topLevelKeys()[0]?.range ?? { start: 0, end: 1 },
      });
      return;
    }
    const known = pv.values.map((x) => x.value).filter((x) => x !== null);
    if (typeof v !== 'number' || !known.includes(v)) {
      report({ message: `PersistVersion ${JSON.stringify(v)} is not a version any Kata release writes (${known.join(', ')})`, range: loc.value, severity: 'error' });
      return;
    }
    const others = ctx.window.filter((r) => written.get(r) !== v);
    if (!others.length) return;
    const theirs = [...new Set(others.map((r) => written.get(r) ?? null))];
    // A 2 under a 1.7–1.8 window was written by a newer runtime (a rollback), a 1 under a 2.x window by an older one.
    const by = theirs.every((x) => x !== null && x < v) ? 'a newer' : theirs.every((x) => x !== null && x > v) ? 'an older' : 'another';
    report({
      message: `PersistVersion ${v}: ${rel(ctx, others)} write${others.length === 1 ? 's' : ''} ${theirs.map((x) => x ?? 'no persist.json').join(' or ')}. `
        + `The loader does not check the number (and keeps it on restore), so this file was created by ${by} runtime: check its layout era`,
      range: loc.value,
      data: { value: v, windowWrites: expected },
    });
  },
};
