// Big files whole (issue #18 item 5): a big multi-document file is checked in parts of whole documents ("segments"),
// each analysed on its own and kept by its text, so that a keystroke re-analyses only the part it is in and the
// others come from the cache. The findings are the whole file's: the file's family must say that its rules look at
// one document at a time for this text (FamilyModule.documentWise), every part must be of that family, and a
// `# skewguard-disable-file` comment, a modeline or a once-per-run note that is still to be said sends the file
// through the whole analysis instead. On open (or after a change around the file: settings, the workspace), the parts
// near where the user looks are analysed first and published at once, with a note saying the check goes on; the rest
// is analysed in the background in slices of a few milliseconds, so the editor never waits for it; a newer version of
// the document cancels the stale work (its finished parts stay cached). lsp-lint never takes this path.
import { analyze, type AnalyzeInput, type AnalyzeResult } from '../engine/analyze';
import { forgetParsed } from '../engine/parse/yaml';
import { segmentsOf, resegment, type Segment } from './segments';
import { shifted, compact, compactOf, rebased } from './part-findings';
import { familyById, MODELINE } from '../engine/families/registry';
import type { Focus } from './publish';
import { injectFault } from '../engine/faults';
import type { Diagnostic } from '../engine/types';
import { keysMeet, mergedResult, traits, wise, PARSE_ERROR, type Part } from './parts';


/** Files below this size are analysed whole (fast enough, and nothing to gain). */
const MIN_CHARS = 256 * 1024;
/** The background pass analyses consecutive parts together up to about this much text (batch()). */
const BATCH_CHARS = 320 * 1024;
/** Synchronous work per validation, and per background slice (ms). */
const FOREGROUND_MS = 25;
const SLICE_MS = 12;
/** How often a background pass publishes what it has (ms). */
const PROGRESS_MS = 400;
/**
 * Parts whose whole analysis is kept (their parsed documents and the families' results, for hovers, completion and
 * fixes): the first part, and the last few the user worked in. Every other part keeps only its findings, their lazy
 * fixes worked out from its text again when asked for: a 3.5 MB bundle's parsed documents took 60 MB.
 */
const HOT_PARTS = 4;

interface DocState {
  /** The inputs the parts were analysed with (a new config or a re-check from outside drops them). */
  config: object;
  parts: Map<string, Part>;
  version: number;
  job?: { cancelled: boolean };
  /** The next validation of this version is the background pass's own (not a change from outside). */
  resuming: boolean;
  /** The last text and its segments (the next text is cut again only where it differs). */
  text?: string;
  segments: Segment[];
  /** The whole analyses of the hot parts, by key, the most recently used last (at most HOT_PARTS). */
  hot: Map<string, { text: string; result: AnalyzeResult }>;
}

export class Scheduler {
  private readonly docs = new Map<string, DocState>();
  /** Documents whose background pass failed: analysed whole from then on (until closed), never left "still checking". */
  private readonly whole = new Set<string>();
  /** Documents whose next analysis is whole (their text is not document-wise: see analyze()); once. */
  private readonly wholeNext = new Set<string>();

  /**
   * @param again validates the document again (main.ts schedule(doc, 0)): the background pass calls it to publish
   * @param focus where the document is looked at (the client's visible ranges), to analyse those parts first
   */
  constructor(private readonly again: (uri: string) => void, private readonly focus: (uri: string) => Focus | undefined) {}

  /**
   * The analysis of a document version, part by part, or undefined when the file is to be analysed whole (small,
   * or not document-wise). What is not analysed yet is said by an info diagnostic and done in the background.
   * `whole`: the input holds what a family's server side added for the whole file (a chart's renders).
   */
  analyze(uri: string, version: number, input: AnalyzeInput, whole = false): AnalyzeResult | undefined {
    const { text } = input;
    if (text.length < MIN_CHARS || whole || this.whole.has(uri) || this.wholeNext.delete(uri) || MODELINE.test(text.slice(0, 2000))) return this.drop(uri);
    let st = this.docs.get(uri);
    if (st?.job) st.job.cancelled = true;
    const fresh = !st || st.config !== input.config || (st.version === version && !st.resuming);
    if (!st || fresh) {
      // New, another configuration, or the same version checked again because something around it changed.
      st = { config: input.config, parts: new Map(), version, resuming: false, segments: [], hot: new Map() };
      this.docs.set(uri, st);
    }
    st.version = version;
    st.resuming = false;
    const segments = (st.text !== undefined && resegment(st.text, st.segments, text)) || segmentsOf(text);
    st.text = text;
    st.segments = segments;
    const firstDocs: number[] = [];
    for (let i = 0, n = 0; i < segments.length; n += segments[i].docs, i++) firstDocs.push(n);
    const parts: Array<Part | undefined> = segments.map((s, i) => this.cached(st!, s, i, firstDocs[i], input));
    const first = this.part(st, segments[0], parts, 0, firstDocs[0], input, true);
    const fam = familyById(first.result.family);
    if (!fam?.documentWise) return this.drop(uri);
    const onScreen = this.onScreen(uri, segments);
    const order = this.order(segments, parts, onScreen);
    // A text analysed afresh that will be analysed whole (see below) gets in the foreground only the parts on screen,
    // for the first squiggles there: more parts would be analysed twice (a 5,000-document bundle with a CRD spent 5%
    // of its opening on them).
    const goesWhole = fresh && !wise(text, fam, first.result);
    const seen = goesWhole ? order.filter(onScreen).length : order.length;
    const t0 = performance.now();
    let k = 0;
    for (; k < seen && (k === 0 || performance.now() - t0 < FOREGROUND_MS); k++) this.part(st, segments[order[k]], parts, order[k], firstDocs[order[k]], input, true);
    // Every part analysed so far: of the family, and document-wise for its text (the others are looked at as they come).
    if (parts.some((p) => p && (!p.wise || p.result.family !== first.result.family)) || keysMeet(parts)) return this.drop(uri);
    const rest = order.slice(k).filter((i) => !parts[i]);
    // A text analysed afresh with parts still to do: what sends the file whole (a CRD, a component's manifest, a
    // suppression; the parts' own test below) looked for in the whole text at once. Else a CRD near the end had the
    // background pass analyse every part before it for nothing, and the file whole after that. The parts done are
    // published; the whole analysis follows at once.
    if (rest.length && goesWhole) {
      this.drop(uri);
      this.wholeNext.add(uri);
      setImmediate(() => this.again(uri));
      return mergedResult(segments, parts, first.result, input);
    }
    if (rest.length) this.background(uri, st, segments, parts, rest, firstDocs, input);
    else this.prune(st, segments);
    return mergedResult(segments, parts, first.result, input);
  }

  private key(i: number, seg: Segment, input: AnalyzeInput): string {
    // The first part says the once-per-run notes, or not: its cache entry is for one of the two.
    return i === 0 ? `${input.reportStaleData ? 1 : 0}${seg.text}` : seg.text;
  }

  /** Part i from the cache, when its text was analysed (and its messages number its documents as here). */
  private cached(st: DocState, seg: Segment, i: number, firstDocument: number, input: AnalyzeInput): Part | undefined {
    const p = st.parts.get(this.key(i, seg, input));
    if (!p) return undefined;
    if (p.firstDocument !== firstDocument && p.result.diagnostics.some((d) => d.ruleId === PARSE_ERROR)) return undefined;
    if (p.line === seg.line) return p;
    const moved = { ...p, line: seg.line, shifted: p.result.diagnostics.map((d) => shifted(d, seg.line)) };
    st.parts.set(this.key(i, seg, input), moved);
    return moved;
  }

  /**
   * Part i analysed (from the cache when its text was seen). A `hot` part (analysed in the foreground: the first, the
   * edited one, those on screen) keeps its whole analysis; the others only their findings, and their parsed
   * documents leave the parse cache.
   */
  private part(st: DocState, seg: Segment, parts: Array<Part | undefined>, i: number, firstDocument: number, input: AnalyzeInput, hot: boolean): Part {
    let p = this.cached(st, seg, i, firstDocument, input);
    if (!p) {
      const key = this.key(i, seg, input);
      // The inputs without the file's text (a closure kept with the part must not hold this version of it).
      const partInput: AnalyzeInput = { ...input, text: seg.text, reportStaleData: i === 0 && input.reportStaleData, partOf: { firstDocument } };
      const result = analyze(partInput);
      // (before its parsed documents may leave the cache below)
      const { wise: isWise, keys } = traits(seg.text, result, parts[0]?.result, input.path);
      let full: () => AnalyzeResult;
      let kept = result;
      if (i === 0) full = () => result;
      else {
        // Made apart: a closure made here would share this scope, and keep the whole analysis alive.
        full = this.reanalysis(st, key, seg.text, partInput);
        kept = compact(result, full);
        if (hot) this.keepHot(st, key, seg.text, result);
        else forgetParsed(seg.text, [...st.hot.values()].map((h) => h.text), result.yaml);
      }
      p = { result: kept, line: seg.line, firstDocument, shifted: kept.diagnostics.map((d) => shifted(d, seg.line)), wise: isWise, keys, full };
      st.parts.set(key, p);
    }
    parts[i] = p;
    return p;
  }

  /**
   * Parts idx (consecutive, none the first, none analysed yet) for the background pass, analysed as one text and each
   * given its findings: the family's rules look at one document at a time for the file's text (documentWise, asked of
   * each part's text as in part()), and the engine sorts findings by position, so each part's share of them is what it
   * alone gives, in the same order (its lazy fixes come from its own analysis, as a part's do). One analysis per few
   * parts, not per part: the background pass of a 5 MB manifest made 460 analyses, and their fixed costs were a third of
   * the editor's time to check it whole (the whole-file analysis took 0.6 of its time).
   */
  private batch(st: DocState, segments: Segment[], parts: Array<Part | undefined>, idx: number[], firstDocs: number[], input: AnalyzeInput): void {
    const segs = idx.map((i) => segments[i]);
    const text = segs.map((g) => g.text).join('');
    const result = analyze({ ...input, text, reportStaleData: false, partOf: { firstDocument: firstDocs[idx[0]] } });
    // Each finding to the part its start line is in (its lines counted from the batch's first).
    const own: Diagnostic[][] = segs.map(() => []);
    let g = 0;
    for (const d of result.diagnostics) {
      while (g + 1 < segs.length && d.range.start.line >= segs[g + 1].line - segs[0].line) g++;
      own[g].push(d);
    }
    const hotTexts = [...st.hot.values()].map((h) => h.text);
    segs.forEach((seg, n) => {
      const i = idx[n];
      const key = this.key(i, seg, input);
      const partInput: AnalyzeInput = { ...input, text: seg.text, reportStaleData: false, partOf: { firstDocument: firstDocs[i] } };
      const full = this.reanalysis(st, key, seg.text, partInput);
      const by = segs[0].line - seg.line;
      const kept = compactOf(result, own[n].map((d, k) => rebased(d, by, k, full)));
      const p: Part = { result: kept, line: seg.line, firstDocument: firstDocs[i], shifted: kept.diagnostics.map((d) => shifted(d, seg.line)), ...traits(seg.text, result, parts[0]?.result, input.path), full };
      st.parts.set(key, p);
      parts[i] = p;
    });
    forgetParsed(text, hotTexts, result.yaml);
  }

  private reanalysis(st: DocState, key: string, text: string, input: AnalyzeInput): () => AnalyzeResult {
    return () => this.wholeOf(st, key, text, () => analyze(input));
  }

  /** A part's whole analysis: kept while the part is hot, else made again (and the part is hot again). */
  private wholeOf(st: DocState, key: string, text: string, make: () => AnalyzeResult): AnalyzeResult {
    const h = st.hot.get(key);
    if (h) { st.hot.delete(key); st.hot.set(key, h); return h.result; }
    const result = make();
    this.keepHot(st, key, text, result);
    return result;
  }

  /** Keeps a part's whole analysis; the least recently used one over HOT_PARTS goes, and its parsed documents. */
  private keepHot(st: DocState, key: string, text: string, result: AnalyzeResult): void {
    st.hot.delete(key);
    st.hot.set(key, { text, result });
    for (const [k, h] of st.hot) {
      if (st.hot.size <= HOT_PARTS) break;
      st.hot.delete(k);
      forgetParsed(h.text, [...st.hot.values()].map((x) => x.text));
    }
  }

  /** Parts not analysed yet, those where the user looks first, then in file order. */
  private order(segments: Segment[], parts: Array<Part | undefined>, seen: (i: number) => boolean): number[] {
    const idx = segments.map((_, i) => i).filter((i) => !parts[i]);
    return [...idx.filter(seen), ...idx.filter((i) => !seen(i))];
  }

  /** Whether part i is where the user looks (near the client's visible ranges or cursor; the first part when unknown). */
  private onScreen(uri: string, segments: Segment[]): (i: number) => boolean {
    const f = this.focus(uri);
    const lines = [...(f?.visible ?? []).flatMap((r) => [r.start.line, r.end.line]), ...(f?.cursor ? [f.cursor.line] : [])];
    return (i) => {
      if (!lines.length) return i === 0;
      const end = segments[i].line + segments[i].lines;
      return lines.some((l) => l >= segments[i].line - 50 && l <= end + 50);
    };
  }

  private background(uri: string, st: DocState, segments: Segment[], parts: Array<Part | undefined>, rest: number[], firstDocs: number[], input: AnalyzeInput): void {
    const job = { cancelled: false };
    st.job = job;
    let k = 0;
    const began = performance.now();
    let published = began;
    const step = () => {
      if (job.cancelled || this.docs.get(uri) !== st) return;
      const t0 = performance.now();
      try {
        while (k < rest.length && performance.now() - t0 < SLICE_MS) {
          injectFault(input.faults, 'segment');
          // The parts that follow this one in the file, not analysed yet: analysed together (see batch()).
          let j = k + 1, chars = segments[rest[k]].text.length;
          while (j < rest.length && rest[j] === rest[j - 1] + 1 && !parts[rest[j]] && chars < BATCH_CHARS) chars += segments[rest[j++]].text.length;
          if (j - k > 1) this.batch(st, segments, parts, rest.slice(k, j), firstDocs, input);
          else this.part(st, segments[rest[k]], parts, rest[k], firstDocs[rest[k]], input, false);
          k = j;
        }
      } catch {
        // Outside any request's guard (an exception here would end the server, and the note "still checking" would
        // stay): the file is analysed whole instead, where a failure is the file's internal error.
        this.drop(uri);
        this.whole.add(uri);
        this.again(uri);
        return;
      }
      // Progress is shown every PROGRESS_MS, unless the rest will be done in less than half of that (by the pace so far):
      // each publication checks the document again and sends every finding so far (a 5,000-document bundle's 1,000),
      // a cost a file checked in under a second paid two or three times for a note that was gone a moment later.
      const now = performance.now();
      const left = ((now - began) / Math.max(1, k)) * (rest.length - k);
      if (k < rest.length && (now - published < PROGRESS_MS || left < PROGRESS_MS / 2)) { setImmediate(step); return; }
      // Done, or time to show progress: the document is validated again, from the cache.
      published = now;
      st.resuming = true;
      if (k < rest.length) setImmediate(step); else st.job = undefined;
      this.again(uri);
    };
    setImmediate(step);
  }

  /** Cached parts the current text no longer has. */
  private prune(st: DocState, segments: Segment[]): void {
    if (st.parts.size <= segments.length + 8) return;
    const keep = new Set(segments.map((s) => s.text));
    for (const k of st.parts.keys()) if (!keep.has(k) && !keep.has(k.slice(1))) st.parts.delete(k);
  }

  private drop(uri: string): undefined {
    const st = this.docs.get(uri);
    if (st?.job) st.job.cancelled = true;
    this.docs.delete(uri);
    return undefined;
  }

  forget(uri: string): void { this.drop(uri); this.whole.delete(uri); this.wholeNext.delete(uri); }
}
