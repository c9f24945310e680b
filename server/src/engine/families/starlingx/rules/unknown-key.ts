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
    + 'suggestion (and a rename fix) when a key the selected release reads holds it as its last words (`oam_floating_address`: '
    + '`external_oam_floating_address`) or is a few edits away; a key only other releases read is never suggested.',
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
      // Only keys this release reads (a key of another release changes what is configured: oam_floating_address is
      // not admin_floating_address, a network read only from 11.0); first one that holds the key as its whole last
      // words (oam_floating_address → external_oam_floating_address), then one a few edits away.
      const hint = containing(p.property, readHere) ?? didYouMean(p.property, readHere);
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

/** The key among `keys` that holds the two or more words of `key` as its last words (else anywhere, word for word); the shortest such. */
function containing(key: string, keys: string[]): string | undefined {
  const words = key.split('_').filter(Boolean);
  // One word alone (`dns`) names too little to say which key is meant.
  if (words.length < 2) return undefined;
  const at = (k: string) => {
    const ws = k.split('_');
    if (ws.length <= words.length) return -1;
    for (let i = ws.length - words.length; i >= 0; i--) if (words.every((w, j) => ws[i + j] === w)) return i + words.length === ws.length ? 0 : 1;
    return -1;
  };
  const ranked = keys.map((k) => ({ k, r: at(k) })).filter((x) => x.r >= 0).sort((a, b) => a.r - b.r || a.k.length - b.k.length || (a.k < b.k ? -1 : 1));
  return ranked[0]?.k;
}
