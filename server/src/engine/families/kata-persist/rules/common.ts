import type { PersistContext, PresentField } from '../index';
import { describeReleases } from '../../kata-config/data';

/** Why no persist.json rule is suppressible (its pages' "Suppressing it" section). */
export const PERSIST_NO_COMMENTS = 'JSON has no comments, and persist.json is written by the runtime: set the rule\'s severity in `.skewguard.yaml` (`rules:`) or with `lsp-lint --rule`, or exclude the files with `ignore:`.';

export const dotted = (p: Array<string | number>) => p.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.').replace(/\.\[/g, '[');
export const rel = (ctx: PersistContext, subset: string[]) => describeReleases(subset, ctx.window);

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

export function typeOk(actual: string, t: { type: string; nullable?: boolean }): boolean {
  // Go's encoding/json decodes null into any type without an error (it leaves the zero value): never a mismatch.
  if (actual === 'null') return true;
  if (t.type === 'number') return actual === 'number' || actual === 'integer';
  return actual === t.type;
}

export function located(ctx: PersistContext, p: PresentField) {
  const loc = ctx.json.locate(p.path);
  return { key: loc.key ?? loc.value, value: loc.value };
}
