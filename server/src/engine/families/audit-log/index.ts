// Kubernetes audit logs: audit.k8s.io Events as the API server's log backend writes them (one JSON object per line),
// also a JSON array of Events, an EventList, or Events pretty-printed one after another (`jq .`). Read as a stream of
// records: each record's span is found by a string-aware scan, then that record alone is parsed; nothing of the file
// is kept but the groups of calls the rules report (bounded), so memory does not grow with the log.
import * as path from 'node:path';

/** A record of the log: its span in the text and its value (undefined when it could not be read, with why). */
export interface AuditRecord { start: number; end: number; value?: unknown; why?: string }

/** Records nested deeper than this are not parsed (an audit event is about 6 deep; a request body at most a few dozen). */
export const MAX_DEPTH = 512;

const WS = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff;

/**
 * The index after the string starting at t[i] (a quote), or -1 when it is not closed before `limit` (a JSON string
 * never holds a line break: a record's line end, or the text's end when a record may span lines and JSON.parse says
 * the rest). Jumps from quote to quote (indexOf), counting the backslashes before each.
 */
function stringEnd(t: string, i: number, limit: number): number {
  let j = i + 1;
  for (;;) {
    const q = t.indexOf('"', j);
    if (q < 0 || q >= limit) return -1;
    let b = q - 1;
    while (b > i && t.charCodeAt(b) === 92) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The end of the object or array starting at t[i] (before `limit`), and its depth; end -1 when it does not close (or runs deeper than MAX_DEPTH). */
function containerEnd(t: string, i: number, limit: number): { end: number; depth: number } {
  let depth = 0, max = 0;
  for (let j = i; j < limit; j++) {
    const c = t.charCodeAt(j);
    if (c === 34) {
      const e = stringEnd(t, j, limit);
      if (e < 0) return { end: -1, depth: max };
      j = e - 1;
    } else if (c === 123 || c === 91) {
      if (++depth > max) { max = depth; if (max > MAX_DEPTH) return { end: -1, depth: max }; }
    } else if (c === 125 || c === 93) {
      if (--depth === 0) return { end: j + 1, depth: max };
    }
  }
  return { end: -1, depth: max };
}

const skipWs = (t: string, i: number) => { while (i < t.length && WS(t.charCodeAt(i))) i++; return i; };
/** Where the line holding t[i] ends: at the next LF, or CR (`cr`: the text has a CR at all; else LF alone is looked for, natively). */
const lineEndOf = (t: string, i: number, cr: boolean) => {
  if (!cr) { const n = t.indexOf('\n', i); return n < 0 ? t.length : n; }
  while (i < t.length) { const c = t.charCodeAt(i); if (c === 10 || c === 13) break; i++; }
  return i;
};
let hasCr = false;
const lineEnd = (t: string, i: number) => lineEndOf(t, i, hasCr);
const skipSpaces = (t: string, i: number) => { while (i < t.length && (t.charCodeAt(i) === 32 || t.charCodeAt(i) === 9)) i++; return i; };
const tooDeep = `nested more than ${MAX_DEPTH} levels deep`;

function parse(t: string, start: number, end: number): AuditRecord {
  try {
    return { start, end, value: JSON.parse(t.slice(start, end)) };
  } catch {
    // Not the parser's message: it quotes the file's text.
    return { start, end, why: 'not valid JSON' };
  }
}

/** Whether the log is JSON lines: its first record is one line, and another line or the end follows it. */
function isJsonLines(t: string, first: number): boolean {
  if (t.charCodeAt(first) !== 123) return false;
  const le = lineEnd(t, first);
  const { end } = containerEnd(t, first, le);
  return end > 0 && skipSpaces(t, end) === le;
}

/** A `# skewguard-disable…` line between records (engine/suppress.ts reads it): not a record of the log. */
const isSkewguardComment = (t: string, i: number) => t.charCodeAt(i) === 35 && /^#[ \t]*skewguard-/.test(t.slice(i, i + 40));
function skipComments(t: string, i: number): number {
  while (i < t.length && isSkewguardComment(t, i)) i = skipWs(t, lineEnd(t, i));
  return i;
}

/** Lines longer than this are checked for their depth before they are parsed (an audit event is a few KB). */
const LONG_LINE = 1 << 20;

/**
 * Every record of the log, in order, handed to `each` (no list is made). JSON lines: one record per non-blank line;
 * otherwise top-level values one after another, where an array's elements and an EventList's items are the records.
 * A record that cannot be read is handed over with why, and the reading goes on at the next line.
 */
export function eachRecord(t: string, each: (r: AuditRecord) => void): void {
  hasCr = t.indexOf('\r') >= 0;
  const first = skipComments(t, skipWs(t, 0));
  if (first >= t.length) return;
  if (isJsonLines(t, first)) {
    let s = first;
    while (s < t.length) {
      s = skipWs(t, s);
      if (s >= t.length) break;
      const e = lineEnd(t, s);
      if (isSkewguardComment(t, s)) { s = e; continue; }
      let end = e;
      while (end > s && (t.charCodeAt(end - 1) === 32 || t.charCodeAt(end - 1) === 9)) end--;
      if (t.charCodeAt(s) !== 123 || t.charCodeAt(end - 1) !== 125) each({ start: s, end, why: t.charCodeAt(s) !== 123 ? 'not a JSON object' : 'not valid JSON (cut before its end)' });
      else if (end - s > LONG_LINE && containerEnd(t, s, end).depth > MAX_DEPTH) each({ start: s, end, why: tooDeep });
      else each(parse(t, s, end));
      s = e;
    }
    return;
  }
  let i = first;
  while (i < t.length) {
    i = skipComments(t, skipWs(t, i));
    if (i >= t.length) break;
    const c = t.charCodeAt(i);
    if (c === 91) { i = elements(t, i, each); continue; }
    if (c === 123) {
      const items = eventListItems(t, i);
      if (items) { elements(t, items.at, each); i = items.end; continue; }
      const { end, depth } = containerEnd(t, i, t.length);
      if (end < 0) { each({ start: i, end: lineEnd(t, i), why: depth > MAX_DEPTH ? tooDeep : 'not valid JSON (not closed)' }); i = lineEnd(t, i); continue; }
      each(parse(t, i, end));
      i = end;
      continue;
    }
    const e = lineEnd(t, i);
    each({ start: i, end: e, why: 'not a JSON object' });
    i = e;
  }
}

/** The elements of the array at t[i], each handed over; returns the index after the array (or the line's end on an error). */
function elements(t: string, i: number, each: (r: AuditRecord) => void): number {
  let j = skipWs(t, i + 1);
  if (t.charCodeAt(j) === 93) return j + 1;
  for (;;) {
    j = skipWs(t, j);
    if (j >= t.length) { each({ start: i, end: lineEnd(t, i), why: 'the array is not closed' }); return t.length; }
    const c = t.charCodeAt(j);
    if (c === 123 || c === 91) {
      const { end, depth } = containerEnd(t, j, t.length);
      if (end < 0) { each({ start: j, end: lineEnd(t, j), why: depth > MAX_DEPTH ? tooDeep : 'not valid JSON (not closed)' }); return t.length; }
      each(parse(t, j, end));
      j = end;
    } else {
      // A scalar element: not an event.
      let e = j;
      if (c === 34) e = stringEnd(t, j, t.length);
      else while (e < t.length && !WS(t.charCodeAt(e)) && t.charCodeAt(e) !== 44 && t.charCodeAt(e) !== 93) e++;
      if (e < 0 || e === j) { each({ start: j, end: lineEnd(t, j), why: 'not valid JSON' }); return lineEnd(t, j); }
      each({ start: j, end: e, why: 'not a JSON object' });
      j = e;
    }
    j = skipWs(t, j);
    const d = t.charCodeAt(j);
    if (d === 44) { j++; continue; }
    if (d === 93) return j + 1;
    each({ start: j, end: lineEnd(t, j), why: 'not valid JSON (`,` or `]` expected)' });
    return lineEnd(t, j);
  }
}

/**
 * An EventList object at t[i]: its "items" array's place and the end of the object; undefined when the object is not
 * an EventList (then it is read as one record). Only the top level of the object is looked at.
 */
function eventListItems(t: string, i: number): { at: number; end: number } | undefined {
  let j = skipWs(t, i + 1);
  let kind: string | undefined, items = -1;
  for (;;) {
    if (t.charCodeAt(j) === 125) break;
    if (t.charCodeAt(j) !== 34) return undefined;
    const ke = stringEnd(t, j, t.length);
    if (ke < 0) return undefined;
    let key: string;
    try { key = JSON.parse(t.slice(j, ke)); } catch { return undefined; }
    j = skipWs(t, ke);
    if (t.charCodeAt(j) !== 58) return undefined;
    j = skipWs(t, j + 1);
    const c = t.charCodeAt(j);
    let ve: number;
    if (c === 123 || c === 91) ve = containerEnd(t, j, t.length).end;
    else if (c === 34) ve = stringEnd(t, j, t.length);
    else { ve = j; while (ve < t.length && !WS(t.charCodeAt(ve)) && t.charCodeAt(ve) !== 44 && t.charCodeAt(ve) !== 125) ve++; }
    if (ve < 0 || ve === j) return undefined;
    if (key === 'kind' && c === 34) { try { kind = JSON.parse(t.slice(j, ve)); } catch { return undefined; } }
    if (key === 'items' && c === 91) items = j;
    j = skipWs(t, ve);
    if (t.charCodeAt(j) === 44) { j = skipWs(t, j + 1); continue; }
    if (t.charCodeAt(j) === 125) break;
    return undefined;
  }
  return kind === 'EventList' && items >= 0 ? { at: items, end: j + 1 } : undefined;
}

const AUDIT_API = /"apiVersion"\s*:\s*"audit\.k8s\.io\/v1(?:beta1|alpha1)?"/;
const AUDIT_KIND = /"kind"\s*:\s*"Event(?:List)?"/;
const AUDIT_KEYS = /"(auditID|requestURI|stage)"\s*:/;
const OTHER_FORMATS = new Set(['.yaml', '.yml', '.toml', '.tpl', '.tgz', '.conf', '.md']);

/** A log the audit family claims by name: audit.log and its rotations (audit-2024-…log), *.audit.log, *audit*.jsonl. */
export const isAuditName = (file: string): boolean => {
  const base = path.basename(file).toLowerCase();
  return /^(.*[._-])?audit([._-].*)?\.(log|jsonl|ndjson)$/.test(base);
};

/** Audit events by content: the head names audit.k8s.io Events (the first record's own keys). */
export function isAuditContent(ext: string, text: string): boolean {
  if (OTHER_FORMATS.has(ext)) return false;
  const head = text.slice(0, 8192).replace(/^\uFEFF/, '');
  if (!/^\s*[[{]/.test(head)) return false;
  return AUDIT_API.test(head) && AUDIT_KIND.test(head) && AUDIT_KEYS.test(head);
}
