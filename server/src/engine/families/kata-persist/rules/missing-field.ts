import type { Rule } from '../../../rules/types';
import type { PersistContext } from '../index';
import { inRel } from '../data';
import { rel, PERSIST_NO_COMMENTS } from './common';

export const rule: Rule<PersistContext> = {
  id: 'kata-persist/missing-field',
  family: 'kata-persist',
  defaultSeverity: 'warning',
  title: 'State field a runtime in the window needs is missing',
  what: 'Reports a persist.json that lacks a field some Kata release of the window needs when it loads the state '
    + '(e.g. `Config`, which loadSandboxConfig restores the sandbox configuration from, from 1.10.0).',
  why: 'A missing field decodes as its zero value: the runtime restores an empty configuration and manages the sandbox '
    + 'with defaults that are not the ones it was started with.',
  bad: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "HypervisorState": {\n    "Pid": 4242\n  },\n  "State": {\n    "State": "running"\n  }\n}\n', options: 'Kata 3.32' },
  good: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "Config": {},\n  "HypervisorState": {\n    "Pid": 4242\n  },\n  "State": {\n    "State": "running"\n  }\n}\n', options: 'Kata 3.32' },
  fix: 'none',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: ['persist-format.md §3–§4 (shared reference)', 'data/kata/persist.json fields[].required'],
  check(ctx, report) {
    const present = new Set(ctx.present.map((p) => p.field!.path.join('.')));
    const first = ctx.json.topLevelKeys()[0]?.range ?? { start: 0, end: 1 };
    for (const f of ctx.data.fields) {
      if (f.file !== ctx.kind || !f.required.length || present.has(f.path.join('.'))) continue;
      // Only top-level fields, or fields whose parent object is there.
      if (f.path.length > 1 && !present.has(f.path.slice(0, -1).join('.'))) continue;
      const needs = ctx.window.filter((r) => f.required.some((q) => inRel(q, r)));
      if (!needs.length) continue;
      const why = f.required.find((q) => inRel(q, needs[0]));
      report({
        message: `${f.path.join('.')} is missing, but ${rel(ctx, needs)} need${needs.length === 1 ? 's' : ''} it: ${why?.what ?? 'the loader reads it'}; a missing field decodes as its zero value`,
        range: first,
        data: { field: f.path.join('.'), neededBy: needs },
      });
    }
  },
};
