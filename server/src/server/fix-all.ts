// Which fixes fix-all applies: each diagnostic's fix (a group of edits) in order, unless one of its edits
// overlaps an edit already chosen, or is the same (empty) span: two insertions at one place. The chosen spans are
// kept in two sorted lists, the non-empty ones (which do not overlap each other, so their ends are sorted too)
// and the empty ones (insertion points), so each new span is checked by binary search instead of against every
// chosen span: O(log n) comparisons per edit (a JSON List of thousands of objects has thousands of fixes).
export type Span<R> = { start: number; end: number; edit: { range: R; newText: string } };

/** Index of the first element of the sorted `xs` whose key is > k (after: true) or >= k. */
function bound<T>(xs: T[], key: (x: T) => number, k: number, after: boolean): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = key(xs[mid]);
    if (v < k || (after && v === k)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * Inserts [start, end) into the sorted, disjoint `ranges`. Only edits of one fix can overlap each other (a fix that
 * overlaps a chosen edit is not chosen): those are merged, since a span overlaps their union exactly when it
 * overlaps one of them, and the list stays disjoint.
 */
function addRange(ranges: Array<{ start: number; end: number }>, start: number, end: number): void {
  let i = bound(ranges, (x) => x.start, start, true);
  while (i > 0 && ranges[i - 1].end > start) { i--; start = Math.min(start, ranges[i].start); end = Math.max(end, ranges[i].end); ranges.splice(i, 1); }
  while (i < ranges.length && ranges[i].start < end) { end = Math.max(end, ranges[i].end); ranges.splice(i, 1); }
  ranges.splice(i, 0, { start, end });
}

export function chooseNonOverlapping<R>(groups: Array<Array<Span<R>>>): Array<Span<R>> {
  const ranges: Array<{ start: number; end: number }> = []; // non-empty, sorted by start (and end)
  const points: number[] = []; // empty spans' offsets, sorted
  const chosen: Array<{ span: Span<R>; seq: number }> = [];
  const conflicts = (s: Span<R>) => {
    // A non-empty chosen range overlaps s when it ends after s starts and starts before s ends (an empty s inside it).
    const r = ranges[bound(ranges, (x) => x.end, s.start, true)];
    if (r && r.start < s.end) return true;
    if (s.start === s.end) {
      // Two insertions at one place.
      const i = bound(points, (x) => x, s.start, false);
      return i < points.length && points[i] === s.start;
    }
    // An insertion strictly inside s.
    const i = bound(points, (x) => x, s.start, true);
    return i < points.length && points[i] < s.end;
  };
  for (const spans of groups) {
    if (spans.some(conflicts)) continue;
    for (const sp of spans) {
      if (sp.start === sp.end) points.splice(bound(points, (x) => x, sp.start, true), 0, sp.start);
      else addRange(ranges, sp.start, sp.end);
      chosen.push({ span: sp, seq: chosen.length });
    }
  }
  // By start; equal starts keep the order in which they were chosen (as a stable sort of that order does).
  return chosen.sort((a, b) => a.span.start - b.span.start || a.seq - b.seq).map((c) => c.span);
}
