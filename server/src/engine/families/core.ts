// Steps every family's analyze() shares: running a rule, reporting YAML syntax. Family-neutral.
import type { YamlFile, YamlDoc, OffsetRange } from '../parse/yaml';
import type { Faults } from '../faults';
import { injectFault } from '../faults';
import type { Finding, RuleMeta } from '../rules/types';
import { parseError, duplicateKey, internalError, describeFailure } from '../rules/general';
import type { Emit } from './types';

/** Runs one rule; an exception in it is that rule's internal error, and the other rules still run. */
export function runRule<C>(rule: { check(ctx: C, report: (f: Finding) => void): void } & RuleMeta, ctx: C, emit: Emit, faults?: Faults) {
  // The stage's name is built only when a fault is injected or the rule throws: a rule runs for every file of its family.
  try {
    if (faults?.size) injectFault(faults, `rule:${rule.id}`);
    rule.check(ctx, (f) => emit(rule, f));
  } catch (e) {
    const stageName = `rule:${rule.id}`;
    emit(internalError, { message: describeFailure(stageName, e), range: { start: 0, end: 0 }, data: { stage: stageName, rule: rule.id, error: e } });
  }
}

/**
 * What a family knows of a document's syntax error that the YAML reader does not (where it really stands and why):
 * the error is said there, with `says` before the reader's own message. Undefined: the reader's message as it is.
 */
export type SyntaxHint = (doc: YamlDoc) => { range: OffsetRange; says: string } | undefined;

export function reportSyntax(yaml: YamlFile, emit: Emit, partOf?: { firstDocument: number }, hint?: SyntaxHint) {
  for (const doc of yaml.docs) {
    for (const dup of doc.duplicateKeys) {
      const key = yaml.text.slice(dup.start).match(/^["']?([^:"'\r\n]*)/)?.[1]?.trim() ?? '';
      const end = dup.start + Math.max(1, key.length + (/^["']/.test(yaml.text.slice(dup.start)) ? 2 : 0));
      emit(duplicateKey, { message: `key "${key}" is given more than once in this mapping: YAML readers keep this last value and silently drop the earlier one`, range: { start: dup.start, end } });
    }
    const e = doc.errors[0];
    if (!e) continue;
    const more = doc.errors.length - 1;
    const where = yaml.docs.length > 1 || partOf ? ` (document ${doc.index + 1 + (partOf?.firstDocument ?? 0)})` : '';
    const heading = `${e.code === 'TO_JS' || e.code === 'RESOURCE_EXHAUSTION' || e.code === 'TOO_DEEP' ? 'YAML not read' : 'YAML syntax error'}${where}`;
    const said = `${e.message}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'} after it)` : ''}`;
    const h = hint?.(doc);
    emit(parseError, h
      ? { message: `${heading}: ${h.says} (YAML: ${said})`, range: h.range }
      : { message: `${heading}: ${said}`, range: { start: e.start, end: e.end } });
  }
}
