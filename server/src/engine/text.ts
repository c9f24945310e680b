import type { Position, Range } from './types';

/**
 * Offset <-> position mapping for one text. Lines end at \n, \r\n or \r (as LSP says);
 * characters are UTF-16 code units, which is what JavaScript string offsets already are,
 * so multi-byte characters, tabs and BOMs need no special casing beyond that.
 */
export class LineIndex {
  private readonly starts: number[];
  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') === -1) {
      // Only \n line breaks (the common case): the native search is several times faster than a loop.
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }
  get lineCount(): number { return this.starts.length; }
  lineStart(line: number): number { return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))]; }
  /** Offset just past the line's content (before its line break). */
  lineEnd(line: number): number {
    if (line + 1 >= this.starts.length) return this.text.length;
    let end = this.starts[line + 1];
    if (this.text.charCodeAt(end - 1) === 10) end--;
    if (this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
  positionAt(offset: number): Position {
    offset = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    // An offset between the \r and \n of a CRLF is the end of that line, not a character past it.
    return { line: lo, character: Math.min(offset, this.lineEnd(lo)) - this.starts[lo] };
  }
  offsetAt(pos: Position): number {
    if (pos.line >= this.starts.length) return this.text.length;
    return Math.min(this.lineStart(pos.line) + pos.character, this.lineEnd(pos.line));
  }
  range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
  lineText(line: number): string { return this.text.slice(this.lineStart(line), this.lineEnd(line)); }
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

export function containsPosition(r: Range, p: Position): boolean {
  return comparePositions(r.start, p) <= 0 && comparePositions(p, r.end) <= 0;
}

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const prev = new Array(b.length + 1).fill(0).map((_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined, bestD = Infinity;
  const limit = Math.max(2, Math.floor(word.length / 3));
  const w = word.toLowerCase();
  for (const c of candidates) {
    if (Math.abs(c.length - w.length) > Math.min(limit, bestD)) continue; // the distance is at least the length difference
    const d = editDistance(w, c.toLowerCase());
    if (d < bestD && d <= limit) { best = c; bestD = d; }
  }
  return best;
}

/** obj[key] only when it is the object's own property: user keys such as `constructor` or `__proto__` are plain keys. */
export function own<T = any>(obj: unknown, key: string | number): T | undefined {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? (obj as any)[key] : undefined;
}
