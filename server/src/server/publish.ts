// Big files whole (issue #18 item 5): VS Code shows at most 1,000 diagnostics per file. The limit is in the extension
// host's DiagnosticCollection (src/vs/workbench/api/common/extHostDiagnostics.ts, `_maxDiagnosticsPerFile = 1000`):
// past it, it keeps the first 1,000 by severity in the order they came and adds "Not showing N further errors and
// warnings", so a 12,000-document bundle had no squiggles at all past its first few thousand lines. And the editor
// draws squiggles for the first 500 markers of a file only, in the order they were given (MarkerDecorationsService:
// `read({ resource, take: 500 })`): what is sent comes most useful first, not in file order (the Problems panel sorts).
//
// When a file has more findings than the limit, the server chooses what is sent: first every finding on screen and
// around the cursor (the client says where that is: skewguard/visibleRanges), then errors, then the rest, nearest
// to where the user looks first; findings left out that are repeats of one another (same rule, severity and
// message) become one diagnostic with the count and their places (relatedInformation); one diagnostic says what was
// left out and how to see all of it (lsp-lint, which turns the limit off: initializationOptions.allDiagnostics).
import type { Connection, Diagnostic, DiagnosticRelatedInformation, Position, Range } from 'vscode-languageserver/node';
import { DiagnosticSeverity } from 'vscode-languageserver/node';
import { VisibleRangesNotification, type VisibleRangesParams } from '../shared/visible';

/** The editor's limit per file (VS Code's, see above). */
export const EDITOR_LIMIT = 1000;
/** Lines around the visible ranges, and around the cursor, that count as "where the user looks". */
const AROUND_VISIBLE = 40;
const AROUND_CURSOR = 200;
/** The share of the limit the focus may take; the rest goes to errors and the others, by distance. */
const FOCUS_SHARE = 0.6;
/** At most this many groups are kept back room for, and each lists at most this many of its other places. */
const MAX_GROUPS = 60;
const MAX_RELATED = 20;
export const LIMIT_CODE = 'skewguard/findings-limit';

export interface Focus { visible: Range[]; cursor?: Position }

/** 12,345 (toLocaleString and Intl take a millisecond a call). */
const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** How far (in lines) a diagnostic is from where the user looks; 0 inside the visible ranges. */
function distance(d: Diagnostic, focus: Focus | undefined): number {
  const line = d.range.start.line;
  if (!focus || (!focus.visible.length && !focus.cursor)) return line; // nothing known: the top of the file is on screen
  let best = Infinity;
  for (const r of focus.visible) best = Math.min(best, line < r.start.line ? r.start.line - line : line > r.end.line ? line - r.end.line : 0);
  if (focus.cursor) best = Math.min(best, Math.abs(line - focus.cursor.line));
  return best;
}

function near(d: Diagnostic, focus: Focus | undefined): boolean {
  const line = d.range.start.line;
  if (!focus || (!focus.visible.length && !focus.cursor)) return line <= AROUND_VISIBLE * 2;
  if (focus.cursor && Math.abs(line - focus.cursor.line) <= AROUND_CURSOR) return true;
  return focus.visible.some((r) => line >= r.start.line - AROUND_VISIBLE && line <= r.end.line + AROUND_VISIBLE);
}

/**
 * One number per distinct (rule, severity, message), kept per diagnostic object: the server publishes the same objects
 * again after each edit of a big file, and hashing 8,000 messages each time took 30 ms.
 */
let repeatIds = new WeakMap<Diagnostic, number>();
let interned = new Map<string, number>();
function repeatId(d: Diagnostic): number {
  let id = repeatIds.get(d);
  if (id !== undefined) return id;
  const k = `${d.code}\u0000${d.severity}\u0000${d.message as string}`;
  id = interned.get(k);
  if (id === undefined) {
    if (interned.size >= 200000) { interned = new Map(); repeatIds = new WeakMap(); } // bounded: ids start again
    interned.set(k, (id = interned.size));
  }
  repeatIds.set(d, id);
  return id;
}

/**
 * The indices 0..n-1 ordered by (rank, index). The ranks are whole numbers: sorted as one number each (rank × n + index)
 * in a typed array, natively, instead of a comparator called 100,000 times for 8,000 findings on every publication.
 */
function byRank(rank: Float64Array): number[] {
  const n = rank.length;
  let max = 0;
  let whole = true;
  for (let i = 0; i < n; i++) { const r = rank[i]; if (r > max) max = r; if (!(r >= 0 && Number.isInteger(r))) whole = false; }
  if (!whole || (max + 1) * n >= Number.MAX_SAFE_INTEGER) {
    const idx = Array.from({ length: n }, (_, i) => i);
    return idx.sort((a, b) => rank[a] - rank[b] || a - b);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = rank[i] * n + i;
  keys.sort();
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = keys[i] % n;
  return idx;
}

export interface Chosen { diagnostics: Diagnostic[]; shown: number; grouped: number; groups: number; left: number }

/**
 * The diagnostics to send for a file with `all` findings (in file order): all of them when they fit in `limit`,
 * else at most `limit` chosen as said above, most useful first (the summary last).
 */
export function choose(all: Diagnostic[], uri: string, focus: Focus | undefined, limit = EDITOR_LIMIT): Chosen {
  if (all.length <= limit) return { diagnostics: all, shown: all.length, grouped: 0, groups: 0, left: 0 };
  const budget = limit - 1; // the summary
  // One number per finding: the focus first (by distance), then errors, then the others by severity, nearest first.
  const n = all.length;
  const rank = new Float64Array(n);
  const isNear = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = all[i];
    const dist = Math.min(distance(d, focus), 1e7);
    if (near(d, focus)) { isNear[i] = 1; rank[i] = dist; } else rank[i] = (1 + (d.severity ?? DiagnosticSeverity.Error)) * 1e8 + dist;
  }
  const idx = byRank(rank);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) keys[i] = repeatId(all[i]);
  const key = (i: number) => keys[i];
  const picked = new Set<number>();
  const maxFocus = Math.floor(budget * FOCUS_SHARE);
  let k = 0;
  for (; k < idx.length && isNear[idx[k]] && picked.size < maxFocus; k++) picked.add(idx[k]);
  // Room for the groups of what is left out: one per distinct finding, up to MAX_GROUPS.
  const rest = idx.slice(k).filter((i) => !picked.has(i));
  const distinct = new Set<number>();
  for (const i of rest) { distinct.add(key(i)); if (distinct.size > MAX_GROUPS) break; }
  const reserve = Math.min(MAX_GROUPS, distinct.size);
  for (const i of rest) { if (picked.size >= budget - reserve) break; picked.add(i); }
  // What is left out, grouped by finding (in file order inside each group).
  const groups = new Map<number, number[]>();
  for (let i = 0; i < all.length; i++) {
    if (picked.has(i)) continue;
    const g = groups.get(key(i));
    if (g) g.push(i); else groups.set(key(i), [i]);
  }
  const ordered = [...groups.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
  // In the order chosen (the first 500 get squiggles), then the groups, the biggest first.
  const out: Array<{ at: number; d: Diagnostic }> = [];
  for (const i of idx) if (picked.has(i)) out.push({ at: i, d: all[i] });
  let grouped = 0, groupCount = 0, left = 0;
  for (const g of ordered) {
    if (out.length >= budget) { left += g.length; continue; }
    if (g.length === 1) { out.push({ at: g[0], d: all[g[0]] }); continue; }
    const first = all[g[0]];
    const others = g.slice(1);
    const related: DiagnosticRelatedInformation[] = others.slice(0, MAX_RELATED).map((i) => ({
      location: { uri, range: all[i].range }, message: 'the same finding',
    }));
    const lines = others.slice(0, 5).map((i) => fmt(all[i].range.start.line + 1)).join(', ');
    out.push({
      at: g[0],
      d: {
        ...first,
        message: `${first.message} (and ${fmt(others.length)} more like it in this file, grouped here: line${others.length > 1 ? 's' : ''} ${lines}${others.length > 5 ? ', …' : ''})`,
        relatedInformation: related,
        data: { ...(first.data as object | undefined), grouped: g.length },
      },
    });
    grouped += g.length; groupCount++;
  }
  const shown = out.length - groupCount;
  const summary: Diagnostic = {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information, code: LIMIT_CODE, source: 'skewguard',
    message: `This file has ${fmt(all.length)} findings and the editor shows at most ${fmt(limit)} per file: ${fmt(shown)} are shown one by one `
      + '(those on screen and near the cursor first, then errors, then the nearest others)'
      + (groupCount ? `, ${fmt(grouped)} as ${fmt(groupCount)} grouped problems (one per repeated finding, with its places)` : '')
      + (left ? `, and ${fmt(left)} are not shown` : '')
      + '. Scroll or move the cursor and the findings there are shown; run lsp-lint on the file to see all of them.',
    data: { total: all.length, shown, grouped, groups: groupCount, left },
  };
  return { diagnostics: [...out.map((x) => x.d), summary], shown, grouped, groups: groupCount, left };
}

/**
 * The server's side: where each document is looked at (from the client), the last full list per document, and a
 * new choice sent when the focus moves on a document over the limit.
 */
export class DiagnosticLimiter {
  private readonly focus = new Map<string, Focus>();
  private readonly last = new Map<string, { version: number | undefined; all: Diagnostic[] }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** false (lsp-lint: initializationOptions.allDiagnostics): every finding is sent. */
  enabled = true;

  constructor(private readonly connection: Connection, private readonly limit = EDITOR_LIMIT) {}

  /** Registers the client's notification; a new focus on a document over the limit sends a new choice. */
  listen(): void {
    this.connection.onNotification(VisibleRangesNotification, (p: VisibleRangesParams) => {
      if (!p || typeof p.uri !== 'string' || !Array.isArray(p.ranges)) return;
      this.focus.set(p.uri, { visible: p.ranges.filter(isRange), cursor: isPosition(p.cursor) ? p.cursor : undefined });
      const l = this.last.get(p.uri);
      if (!l || !this.enabled || l.all.length <= this.limit) return;
      const t = this.timers.get(p.uri);
      if (t) clearTimeout(t);
      this.timers.set(p.uri, setTimeout(() => {
        this.timers.delete(p.uri);
        const now = this.last.get(p.uri);
        if (now) void this.connection.sendDiagnostics({ uri: p.uri, version: now.version, diagnostics: choose(now.all, p.uri, this.focus.get(p.uri), this.limit).diagnostics }).catch(() => undefined);
      }, 30));
    });
  }

  /** What to send for a document's full list (kept for a later choice when the focus moves). */
  cap(uri: string, version: number | undefined, all: Diagnostic[]): Diagnostic[] {
    if (!this.enabled) return all;
    if (all.length <= this.limit) { this.last.delete(uri); return all; }
    this.last.set(uri, { version, all });
    return choose(all, uri, this.focus.get(uri), this.limit).diagnostics;
  }

  /** Where the client last said the document is looked at. */
  focusOf(uri: string): Focus | undefined { return this.focus.get(uri); }

  /** The document was closed. */
  forget(uri: string): void {
    this.last.delete(uri);
    this.focus.delete(uri);
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.delete(uri);
  }
}

const isPosition = (p: unknown): p is Position => !!p && typeof p === 'object' && Number.isInteger((p as Position).line) && Number.isInteger((p as Position).character);
const isRange = (r: unknown): r is Range => !!r && typeof r === 'object' && isPosition((r as Range).start) && isPosition((r as Range).end);
