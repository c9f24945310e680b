// The parts a big file is checked in (server/scheduler.ts): whole documents cut where a document's first bytes hash to
// a cut (so the cuts stay put under edits), and cut again only where the text changed.
import { splitDocuments, detached } from '../engine/parse/yaml';
import { loneCrIn } from '../engine/text';

export interface Segment { start: number; end: number; line: number; text: string; docs: number; lines: number }

/** A part ends after about this much text, or at a document whose first bytes hash to a cut (stable under edits). */
const SEGMENT_CHARS = 24 * 1024;
const MIN_SEGMENT_DOCS = 4;

/** Whether text holds s at pos (a slice compared at once: startsWith walks a long string character by character). */
const holds = (text: string, pos: number, s: string) => text.slice(pos, pos + s.length) === s;

/** FNV-1a of the first bytes of a document: where a part may end, the same wherever the document moves. */
function cutHere(text: string, start: number): boolean {
  let h = 0x811c9dc5;
  for (let i = start, e = Math.min(text.length, start + 48); i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return ((h >>> 0) & 7) === 0;
}

/**
 * Line breaks in text[from, to): LF, CRLF and a lone CR, as LineIndex counts them. `lone`: whether the text being cut
 * holds a lone CR (asked once per text by the caller: a search from each part's start ran to the end of a text without
 * any, so cutting a 5 MB file into 200 parts scanned a gigabyte). Without one, the breaks are the LFs (a CRLF is one
 * break, at its LF: a part ends after a LF, never between a CR and its LF).
 */
function breaks(text: string, from: number, to: number, lone: boolean): number {
  let n = 0;
  if (!lone) {
    for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
    return n;
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) { if (text.charCodeAt(i + 1) === 10 && i + 1 < to) i++; n++; }
  }
  return n;
}

/** text[from, to) (whole documents) cut into segments; `line` is the line of `from`. */
function segmentRange(text: string, from: number, to: number, line: number): Segment[] {
  const docs = splitDocuments(from === 0 && to === text.length ? text : text.slice(from, to));
  const lone = loneCrIn(text, from, to);
  const out: Segment[] = [];
  let start = from, n = 0;
  for (let i = 0; i < docs.length; i++) {
    n++;
    const end = docs[i].end + from;
    const last = i + 1 === docs.length;
    if (last || (n >= MIN_SEGMENT_DOCS && (end - start >= SEGMENT_CHARS || cutHere(text, docs[i + 1].start + from)))) {
      // Kept with its analysis: a copy, so that it does not hold this version of the whole text alive.
      const t = detached(text.slice(start, end));
      const lines = breaks(text, start, end, lone);
      out.push({ start, end, line, text: t, docs: n, lines });
      line += lines;
      start = end; n = 0;
    }
  }
  return out;
}

export function segmentsOf(text: string): Segment[] { return segmentRange(text, 0, text.length, 0); }

/**
 * The segments of `text`, from those of the previous text `old`: the ones before and after the change are kept (the
 * same strings: their parts are found at once), only the changed stretch (and the segment after it, which a
 * document emptied down to comments joins) is cut again. Undefined when the change reaches the whole text.
 */
export function resegment(old: string, segs: Segment[], text: string): Segment[] | undefined {
  if (text === old) return segs;
  const delta = text.length - old.length;
  let a = 0;
  // A kept segment before the change: its text, and the marker line after it, unchanged.
  while (a < segs.length - 1 && holds(text, segs[a].start, segs[a].text) && holds(text, segs[a].end, old.slice(segs[a].end, segs[a].end + 4))) a++;
  let b = segs.length;
  // A kept segment after the change: its text at the shifted place, and the line break before it, unchanged.
  while (b - 1 > a && segs[b - 1].start + delta >= segs[a].start
    && holds(text, segs[b - 1].start + delta, segs[b - 1].text) && old.charCodeAt(segs[b - 1].start - 1) === text.charCodeAt(segs[b - 1].start - 1 + delta)) b--;
  if (b < segs.length) b++; // the segment after the change is cut again with it
  const from = segs[a].start;
  const to = b < segs.length ? segs[b].start + delta : text.length;
  if (to < from) return undefined;
  const mid = segmentRange(text, from, to, segs[a].line);
  const oldLines = (b < segs.length ? segs[b].line : Infinity) - segs[a].line;
  const newLines = mid.reduce((n, s) => n + s.lines, 0);
  const tail = segs.slice(b).map((s) => ({ ...s, start: s.start + delta, end: s.end + delta, line: s.line + newLines - oldLines }));
  return [...segs.slice(0, a), ...mid, ...tail];
}
