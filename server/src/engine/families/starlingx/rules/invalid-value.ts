import type { Rule } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { didYouMean } from '../../../text';
import { own } from '../../../text';

const VALUE_KEYWORDS = new Set(['enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'propertyNames', 'required', 'format', 'uniqueItems']);

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/invalid-value',
  family: 'starlingx',
  defaultSeverity: 'error',
  title: 'Override value the playbook rejects',
  what: 'Reports a value outside what the release\'s bootstrap playbook accepts: `system_mode` other than simplex, duplex or '
    + 'duplex-direct, more than three `dns_servers`, an unknown registry key under `docker_registries`, and the other '
    + 'checks of the validate-config role.',
  why: 'Bootstrap stops at the validate-config step with a `fail` task; catching it in the editor saves a bootstrap attempt.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplx\n' },
  good: { filename: 'localhost.yml', text: 'system_mode: duplex\n' },
  fix: 'suggestion',
  sources: ['starlingx/ansible-playbooks roles/bootstrap/validate-config/tasks/main.yml fail/assert tasks per release (shared reference: starlingx/validated-values.json)'],
  check(ctx, report) {
    for (const p of ctx.schemaProblems()) {
      const nested = p.keyword === 'additionalProperties' && p.path.length > 0;
      if (!VALUE_KEYWORDS.has(p.keyword) && !nested) continue;
      const where = p.path.join('.') || 'file';
      if (p.keyword === 'enum') {
        const allowed = p.params.allowedValues as unknown[];
        const val = p.path.reduce<any>((v, s) => v?.[s], ctx.value);
        // The playbook lower-cases some values (system_mode) before checking them.
        const sub = p.path.reduce<any>((s, seg) => (typeof seg === 'number' ? s?.items : own(s?.properties, seg)), ctx.schema);
        if (sub?.['x-skewguard']?.caseInsensitive && typeof val === 'string' && allowed.includes(val.toLowerCase())) continue;
        const hint = typeof val === 'string' ? didYouMean(val, allowed.map(String)) : undefined;
        const src = ctx.file.text.slice(p.range.start, p.range.end);
        const q = /^["']/.test(src) ? src[0] : '';
        report({
          message: `${where}: ${JSON.stringify(val)} is not accepted by StarlingX ${ctx.release.release}; allowed: ${allowed.map(String).join(', ')}`,
          range: p.range,
          fixes: hint ? [{ title: `Change to ${hint}`, edits: [{ range: p.range, newText: `${q}${hint}${q}` }], destructive: false }] : [],
          data: { allowed },
        });
      } else if (p.keyword === 'propertyNames' || nested) {
        { const allowed = p.params.allowedValues as unknown[] | undefined; report({ message: `${where}: key "${p.property}" is not accepted by StarlingX ${ctx.release.release}${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`, range: p.range, data: allowed ? { allowed } : undefined }); }
      } else {
        report({ message: `${where} ${p.message}`, range: p.range });
      }
    }
  },
};
