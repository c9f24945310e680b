import type { Rule } from '../../../rules/types';
import type { PersistContext } from '../index';
import { dotted, rel, jsonType, typeOk, located, PERSIST_NO_COMMENTS } from './common';

export const rule: Rule<PersistContext> = {
  id: 'kata-persist/field-type-mismatch',
  family: 'kata-persist',
  defaultSeverity: 'error',
  title: 'State field some runtime in the window reads with another type',
  what: 'Reports a persist.json field whose JSON type differs from the one a Kata release of the window decodes it as '
    + '(e.g. `Experimental`, a boolean before 1.10.0 and a list after it).',
  why: 'encoding/json cannot decode a value of the wrong type: the runtime fails to load the sandbox state and cannot '
    + 'manage (or even delete) the running sandbox.',
  bad: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "Config": {\n    "Experimental": true\n  }\n}\n', options: 'Kata 3.32' },
  good: { filename: 'persist.json', text: '{\n  "PersistVersion": 2,\n  "Config": {\n    "Experimental": []\n  }\n}\n', options: 'Kata 3.32' },
  fix: 'none',
  suppressible: false,
  docs: { suppressing: PERSIST_NO_COMMENTS },
  sources: ['persist-fields-by-release.json Go types per release (shared reference)', 'data/kata/persist.json fields[].types'],
  check(ctx, report) {
    for (const p of ctx.present) {
      const f = p.field!;
      const actual = jsonType(p.value);
      const { bad: clash, wanted: types } = ctx.typeClash(f, actual, typeOk);
      if (!clash.length) continue;
      const bad = clash.slice(), wanted = new Set(types);
      report({
        message: `${dotted(p.path)} is ${actual === 'integer' ? 'an integer' : `${/^[aeiou]/.test(actual) ? 'an' : 'a'} ${actual}`}, but ${rel(ctx, bad)} decode${bad.length === 1 ? 's' : ''} it as ${[...wanted].join(' or ')}: the runtime cannot load this state there`,
        range: located(ctx, p).value,
        data: { field: f.path.join('.'), actual, expected: [...wanted], failsIn: bad },
      });
    }
  },
};
