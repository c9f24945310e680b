import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { didYouMean } from '../../../text';
import { starlingxKeyNames } from '../data';

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/unknown-key',
  family: 'starlingx',
  defaultSeverity: 'warning',
  title: 'Key that no StarlingX release reads',
  what: 'Reports a top-level key of localhost.yml that no StarlingX release\'s bootstrap playbook reads, with a "did you mean" '
    + 'suggestion when a known key is close.',
  why: 'Ansible accepts any variable, so a misspelt override (`dns_server` for `dns_servers`) is silently ignored and the '
    + 'default is installed instead — which is usually found only after the system is up.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplex\ndns_server:\n  - 8.8.8.8\n' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\ndns_servers:\n  - 8.8.8.8\n' },
  fix: 'suggestion',
  sources: ['starlingx/ansible-playbooks host_vars/bootstrap/default.yml and every role reachable from bootstrap.yml (shared reference: starlingx/optional-keys.json)'],
  check(ctx, report) {
    const known = starlingxKeyNames();
    const readHere = Object.keys(ctx.schema?.properties ?? {});
    for (const p of ctx.schemaProblems()) {
      if (p.keyword !== 'additionalProperties' || p.path.length !== 0 || !p.property || known.has(p.property)) continue;
      const hint = didYouMean(p.property, readHere) ?? didYouMean(p.property, known);
      const src = ctx.file.text.slice(p.range.start, p.range.end);
      const q = /^["']/.test(src) ? src[0] : '';
      report({
        message: `unknown key "${p.property}": no StarlingX release reads it, so Ansible ignores it${hint ? `; did you mean "${hint}"?` : ''}`,
        range: p.range,
        fixes: hint ? [{ title: `Rename to ${hint}`, edits: [{ range: p.range, newText: `${q}${hint}${q}` }], destructive: true }] : [],
        data: { key: p.property, suggestion: hint },
      });
    }
  },
};
