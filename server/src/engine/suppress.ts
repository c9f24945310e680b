// Suppression comments, in any file family with `#` comments (YAML, TOML):
//   # skewguard-disable-next-line <rule-id>[, <rule-id>…] [-- reason]
//   # skewguard-disable-file <rule-id>[, <rule-id>…] [-- reason]
// Without rule ids they apply to every rule. One that suppresses nothing is itself reported.
import type { OffsetRange } from './parse/yaml';
import { includesBy } from './text';

export interface Suppression {
  kind: 'next-line' | 'file';
  /** Empty = every rule. */
  ruleIds: string[];
  /** Zero-based line the suppression applies to (next-line) . */
  line: number;
  range: OffsetRange;
  /** The whole comment line, for the removal fix. */
  lineRange: OffsetRange;
  used: Set<string>;
}

const RE = /#\s*skewguard-disable-(next-line|file)\b([^\n\r]*)/;

export function findSuppressions(text: string): Suppression[] {
  if (!includesBy(text, 'skewguard-disable', 'wguard')) return [];
  const out: Suppression[] = [];
  let line = 0, pos = 0;
  while (pos <= text.length) {
    let end = pos;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    const lineText = text.slice(pos, end);
    const m = RE.exec(lineText);
    if (m) {
      const spec = m[2].split(/\s--\s|\s--$/)[0];
      const ruleIds = spec.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
      const startCol = m.index;
      let next = end;
      if (text[next] === '\r') next++;
      if (text[next] === '\n') next++;
      const wholeLine = lineText.slice(0, startCol).trim() === '';
      out.push({
        kind: m[1] as Suppression['kind'], ruleIds, line: line + 1,
        range: { start: pos + startCol, end: pos + startCol + m[0].trimEnd().length },
        lineRange: wholeLine ? { start: pos, end: next } : { start: pos + startCol, end },
        used: new Set(),
      });
    }
    if (end >= text.length) break;
    pos = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
    line++;
  }
  return out;
}
