import type { Rule, Report } from '../../../rules/types';
import type { StarlingxContext } from '../index';
import { didYouMean } from '../../../text';
import { own } from '../../../text';
import { starlingxKeys, type StxKeyRule } from '../data';
import { windowText } from '../../../window-text';

const VALUE_KEYWORDS = new Set(['enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'propertyNames', 'required', 'format', 'uniqueItems']);

export const rule: Rule<StarlingxContext> = {
  id: 'starlingx/invalid-value',
  family: 'starlingx',
  defaultSeverity: 'error',
  title: 'Override value the playbook rejects',
  what: 'Reports a value outside what the release\'s bootstrap playbook accepts: `system_mode` other than simplex, duplex or '
    + 'duplex-direct, more than three `dns_servers`, an unknown registry key under `docker_registries`, one key of a pair given '
    + 'without the other (`k8s_root_ca_cert`/`k8s_root_ca_key`, `etcd_root_ca_cert`/`etcd_root_ca_key`, a registry\'s '
    + '`username`/`password`) in the releases whose playbook checks the pair, and the other checks of the validate-config role.',
  why: 'Bootstrap stops at the validate-config step with a `fail` task; catching it in the editor saves a bootstrap attempt.',
  bad: { filename: 'localhost.yml', text: 'system_mode: simplx\n' },
  good: { filename: 'localhost.yml', text: 'system_mode: duplex\n' },
  fix: 'suggestion',
  sources: ['starlingx/ansible-playbooks roles/bootstrap/validate-config/tasks/main.yml fail/assert tasks per release (shared reference: starlingx/validated-values.json)'],
  check(ctx, report) {
    checkPairs(ctx, report);
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

/** "5.0..11.0" for a run of consecutive releases of the key data, else the list. */
function releasesText(rels: string[]): string {
  const all = starlingxKeys().releases;
  const at = rels.map((r) => all.indexOf(r));
  return rels.length > 2 && at.every((i, k) => i >= 0 && (k === 0 || i === at[k - 1] + 1)) ? windowText(rels) : rels.join(', ');
}

/** "validate-config/tasks/main.yml:1251 at 11.0.0" */
function citation(r: StxKeyRule): string {
  const s = r.source;
  if (!s?.path) return 'validated-values.json';
  return `${s.path.replace(/^playbookconfig\/src\/playbooks\/roles\//, 'roles/')}:${s.line} at ${s.tag}`;
}

/** Jinja2's truth of a value (Python's): the playbook tests these keys as `a and not b`. */
const truthy = (v: unknown) => !(v === null || v === undefined || v === false || v === 0 || v === ''
  || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0));

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Pair rules of validated-values.json ("both or neither") at the selected release: one key given without the other
 * fails the bootstrap. Top-level pairs (k8s_root_ca_cert/k8s_root_ca_key, etcd_root_ca_cert/etcd_root_ca_key) are
 * tested by validate-config as `(a and not b) or (not a and b)`, so an empty value counts as not given; a registry's
 * username/password by validate-registries as `username is defined and password is not defined` (or the reverse),
 * so a key that is there counts as given even when empty.
 */
function checkPairs(ctx: StarlingxContext, report: Report): void {
  const rel = ctx.release.release;
  const value = ctx.value;
  const seen = new Set<string>();
  for (const k of starlingxKeys().keys) {
    for (const r of k.validation ?? []) {
      if (r.kind !== 'pair' || !r.members || r.members.length !== 2 || !r.releases.includes(rel)) continue;
      // "all three or none" (system-local-ca) is a rule of another shape: not this check.
      if (!r.allowed.some((a) => /^both or neither\b/.test(String(a)))) continue;
      const id = r.members.join('/');
      if (seen.has(id)) continue;
      seen.add(id);
      const [a, b] = r.members;
      const has = (m: string) => Object.prototype.hasOwnProperty.call(value, m) && truthy(value[m]);
      if (has(a) === has(b)) continue;
      const given = has(a) ? a : b, missing = given === a ? b : a;
      const loc = ctx.doc.locate([given]);
      report({
        message: `${given} is given without ${missing}: the StarlingX ${rel} bootstrap playbook fails with "${r.message ?? `${a} and ${b} must be provided as a pair`}" `
          + `(checked in StarlingX ${releasesText(r.releases)}; ${citation(r)})`,
        range: loc.key ?? loc.value,
        data: { pair: r.members, given, missing, releases: r.releases, source: r.source },
      });
    }
    for (const r of k.nested ?? []) {
      const m = r.kind === 'pair' ? /^<[^>]+>\.([a-z0-9_]+)\/([a-z0-9_]+)$/.exec(r.path ?? '') : null;
      if (!m || !r.releases.includes(rel) || !r.allowed.some((a) => /^both or neither\b/.test(String(a)))) continue;
      const parent = value[k.key];
      if (!Object.prototype.hasOwnProperty.call(value, k.key) || !isMap(parent)) continue;
      const [, a, b] = m;
      for (const [entry, fields] of Object.entries(parent)) {
        if (!isMap(fields)) continue;
        const has = (f: string) => Object.prototype.hasOwnProperty.call(fields, f);
        if (has(a) === has(b)) continue;
        const given = has(a) ? a : b, missing = given === a ? b : a;
        const loc = ctx.doc.locate([k.key, entry, given]);
        // The data's message is the one of the k8s.gcr.io entry; the playbook has one such task per registry.
        const says = !r.message ? 'fails: a registry\'s username and password must both be given or neither'
          : entry === 'k8s.gcr.io' ? `fails with "${r.message}"`
            : `fails: a registry's username and password must both be given or neither (its message for k8s.gcr.io: "${r.message}")`;
        report({
          message: `${k.key}.${entry}: ${given} is given without ${missing}: the StarlingX ${rel} bootstrap playbook ${says} `
            + `(checked in StarlingX ${releasesText(r.releases)}; ${citation(r)})`,
          range: loc.key ?? loc.value,
          data: { pair: [a, b], registry: entry, given, missing, releases: r.releases, source: r.source },
        });
      }
    }
  }
}
