import type { Position, Range } from './types';
import { keepShape } from './keep-shapes';

/**
 * Whether text[from, to) holds a lone CR: a CR that is not followed by a LF inside the range (a line break of its own,
 * as LSP counts them). A CRLF file has none, and then its lines break where its LFs are: the native search for each CR
 * costs about a tenth of a loop over every character.
 */
export function loneCrIn(text: string, from = 0, to = text.length): boolean {
  for (let i = text.indexOf('\r', from); i !== -1 && i < to; i = text.indexOf('\r', i + 1)) {
    if (i + 1 >= to || text.charCodeAt(i + 1) !== 10) return true;
  }
  return false;
}

/**
 * Offset <-> position mapping for one text. Lines end at \n, \r\n or \r (as LSP says);
 * characters are UTF-16 code units, which is what JavaScript string offsets already are,
 * so multi-byte characters, tabs and BOMs need no special casing beyond that.
 */
export class LineIndex {
  private readonly starts: number[];
  constructor(readonly text: string) {
    const starts = [0];
    if (!loneCrIn(text)) {
      // Only \n and \r\n line breaks (the common case): each line starts after a \n, and the native search is several
      // times faster than a loop (a CRLF file of 5 MB: 8 ms against 24 with the loop below).
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
// Its hidden class, kept alive between files (keep-shapes.ts): a file's index goes with its analysis.
keepShape(new LineIndex(''));

/**
 * The line index of text, shared with the last caller that asked for the same text (the analysis and a rule that needs
 * the lines of the whole file: an 11.7 MB bundle was indexed twice per check). LineIndex is immutable.
 */
export function lineIndexOf(text: string): LineIndex {
  if (lastIndex?.text !== text) lastIndex = new LineIndex(text);
  return lastIndex;
}
let lastIndex: LineIndex | undefined;
/** Drops the shared index (analyze() ends: a closed file's text must not stay alive through it). */
export function forgetLineIndex(): void { lastIndex = undefined; }

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
  const { names, lower, byLength, counts } = candidateIndex(candidates);
  const wc = letterCounts(w, wordCounts.fill(0));
  let bestIndex = Infinity;
  // Only candidates whose length is within the limit can be near enough (the distance is at least the length
  // difference): a file with thousands of unknown keys must not compare each with every known key. The answer is
  // the one a scan in the candidates' order gives: the smallest distance, the first such candidate on a tie.
  for (let len = Math.max(0, w.length - limit); len <= w.length + limit; len++) {
    if (Math.abs(len - w.length) > Math.min(limit, bestD)) continue;
    for (const i of byLength.get(len) ?? []) {
      // Each edit changes the letter counts by at most two: a cheap lower bound rules most candidates out.
      if (countDistance(wc, counts[i] ??= letterCounts(lower[i], new Uint32Array(64))) > 2 * Math.min(limit, bestD)) continue;
      const d = editDistanceWithin(w, lower[i], Math.min(limit, bestD));
      if (d > limit) continue;
      if (d < bestD || (d === bestD && i < bestIndex)) { best = names[i]; bestD = d; bestIndex = i; }
    }
  }
  return best;
}

/** Counted once per candidate, when its length first makes it a candidate (most lists are asked once). */
interface CandidateIndex { names: string[]; lower: string[]; byLength: Map<number, number[]>; counts: Array<Uint32Array | undefined> }
const wordCounts = new Uint32Array(64);

/** How often each character occurs, in 64 buckets (merging characters keeps the distance below a lower bound). */
function letterCounts(s: string, c: Uint32Array): Uint32Array {
  for (let i = 0; i < s.length; i++) c[s.charCodeAt(i) & 63]++;
  return c;
}
function countDistance(a: Uint32Array, b: Uint32Array): number {
  let d = 0;
  for (let i = 0; i < 64; i++) d += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  return d;
}
const candidateIndexes = new WeakMap<object, CandidateIndex>();

/** The candidates lowercased and grouped by length, once per collection (the same list is asked for every key). */
function candidateIndex(candidates: Iterable<string>): CandidateIndex {
  const hit = typeof candidates === 'object' ? candidateIndexes.get(candidates as object) : undefined;
  const size = Array.isArray(candidates) ? candidates.length : candidates instanceof Set ? candidates.size : -1;
  if (hit && (size === -1 || hit.names.length === size)) return hit;
  const names = [...candidates];
  const lower = names.map((c) => c.toLowerCase());
  const byLength = new Map<number, number[]>();
  lower.forEach((c, i) => { let l = byLength.get(c.length); if (!l) byLength.set(c.length, l = []); l.push(i); });
  const index: CandidateIndex = { names, lower, byLength, counts: new Array(names.length) };
  if (typeof candidates === 'object') candidateIndexes.set(candidates as object, index);
  return index;
}

/** Levenshtein distance when it is at most `max`, else a number greater than `max` (rows stop early). */
function editDistanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      if (prev[j] < rowMin) rowMin = prev[j];
      diag = tmp;
    }
    if (rowMin > max) return max + 1;
  }
  return prev[b.length];
}

/** obj[key] only when it is the object's own property: user keys such as `constructor` or `__proto__` are plain keys. */
export function own<T = any>(obj: unknown, key: string | number): T | undefined {
  return obj !== null && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? (obj as any)[key] : undefined;
}

/**
 * Whether a line of text starts with s (what /^s/m finds: at the start, or after \n, \r, U+2028 or U+2029), by the
 * native substring search: a multiline regex walked a 5 MB manifest at every line start (20 ms, asked once per part).
 */
export function someLineStartsWith(text: string, s: string): boolean {
  for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + 1)) {
    if (i === 0) return true;
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

/**
 * Whether `re` (a sticky regex) matches at some place where text holds `lead` (re's literal start), by substring search
 * (for `piece`, a part of `lead`: indexOfBy).
 */
export function matchesAfter(text: string, lead: string, re: RegExp, piece = lead): boolean {
  for (let i = indexOfBy(text, lead, piece); i !== -1; i = indexOfBy(text, lead, piece, i + 1)) {
    re.lastIndex = i;
    if (re.test(text)) return true;
  }
  return false;
}

/**
 * text.indexOf(word, from), found by searching for `piece`, a part of `word`. V8 finds a pattern under 7 characters
 * by a native scan for its first character, so a piece whose first character is rare in YAML is found fast; a longer
 * word, or one starting with a common character ('h', 'a', 'o'), is searched for almost character by character. On
 * the 11.7 MB bundle with CRDs, "helm.toolkit.fluxcd.io", "argoproj.io" and "helmCharts" took 12.5 ms, their pieces
 * "xcd.io", "j.io" and "Charts" 1.3 ms (#29). A piece that is not part of the word: the word itself is searched for.
 */
export function indexOfBy(text: string, word: string, piece: string, from = 0): number {
  const k = word.indexOf(piece);
  if (k < 0) return text.indexOf(word, from);
  for (let i = text.indexOf(piece, from + k); i !== -1; i = text.indexOf(piece, i + 1)) if (text.startsWith(word, i - k)) return i - k;
  return -1;
}

/** text.includes(word), by indexOfBy. */
export const includesBy = (text: string, word: string, piece: string): boolean => indexOfBy(text, word, piece) !== -1;
