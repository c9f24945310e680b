// Glob patterns from the user (`files:` and `ignore:` in .skewguard.yaml and the editor settings), checked against
// limits and matched without backtracking: a pattern is compiled into a small NFA over the characters of a path and
// simulated with a set of states, so a match costs O(path length × pattern length) whatever the pattern is
// (picomatch's and the `ignore` package's regular expressions backtrack exponentially on some patterns).
//
// Syntax: `*` (any characters but `/`), `?` (one character but `/`), `[abc]`, `[a-z]`, `[!a]`/`[^a]`, `**` as a whole
// path segment (any number of segments), `{a,b}` alternatives (expanded, bounded), `\x` (the character x).
// Extglobs (`+(…)`, `@(…)`, `!(…)`, `?(…)`, `*(…)`) are not supported and are reported.

/** Longest pattern accepted, in characters. */
export const GLOB_MAX_LENGTH = 1024;
/** Most wildcards (`*`, `**`, `?`, `[…]`) in one pattern. */
export const GLOB_MAX_WILDCARDS = 64;
/** Most patterns one `{…}` expansion may produce. */
export const GLOB_MAX_EXPANSIONS = 64;

/** Why a pattern is rejected, or undefined when it is fine. */
export function checkGlob(p: string): string | undefined {
  if (p.length > GLOB_MAX_LENGTH) return `the pattern is ${p.length} characters long; at most ${GLOB_MAX_LENGTH} are allowed`;
  if (p.length === 0) return 'the pattern is empty';
  if (/[+@!?*]\(/.test(p.replace(/\\./g, ''))) return 'extglob patterns such as +(…), @(…) or !(…) are not supported; use {a,b} alternatives';
  let wild = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') { i++; continue; }
    if (c === '?' || c === '[') wild++;
    else if (c === '*') { wild++; while (p[i + 1] === '*') i++; }
  }
  if (wild > GLOB_MAX_WILDCARDS) return `the pattern has ${wild} wildcards; at most ${GLOB_MAX_WILDCARDS} are allowed`;
  const n = expansionCount(p);
  if (n > GLOB_MAX_EXPANSIONS) return `the pattern's {…} alternatives expand to ${n > 1e6 ? 'over a million' : n} patterns; at most ${GLOB_MAX_EXPANSIONS} are allowed`;
  return undefined;
}

// ---- brace expansion ----

interface Alt { kind: 'alt'; options: Seq[] }
type Seq = Array<string | Alt>;

/** Parses `{a,b}` groups; a `{` without a matching `}` or without a comma is a literal. */
function parseBraces(p: string): Seq {
  let i = 0;
  // A group that failed to close from a position fails again from there: remembering it keeps `{{{{…` quadratic.
  const failed = new Set<number>();
  const seq = (inGroup: boolean): { seq: Seq; stop?: ',' | '}' } => {
    const out: Seq = [];
    let lit = '';
    while (i < p.length) {
      const c = p[i];
      if (c === '\\' && i + 1 < p.length) { lit += c + p[i + 1]; i += 2; continue; }
      if (inGroup && (c === ',' || c === '}')) { i++; if (lit) out.push(lit); return { seq: out, stop: c }; }
      if (c === '{' && !failed.has(i)) {
        const save = i;
        i++;
        const options: Seq[] = [];
        let closed = false;
        for (;;) {
          const r = seq(true);
          options.push(r.seq);
          if (r.stop === '}') { closed = true; break; }
          if (!r.stop) break;
        }
        if (closed && options.length > 1) { if (lit) out.push(lit); lit = ''; out.push({ kind: 'alt', options }); continue; }
        failed.add(save);
        i = save + 1; lit += '\\{'; continue; // not a group: a literal brace
      }
      lit += c === '{' ? '\\{' : c; i++;
    }
    if (lit) out.push(lit);
    return { seq: out };
  };
  return seq(false).seq;
}

function countSeq(s: Seq): number {
  let n = 1;
  for (const part of s) {
    if (typeof part === 'string') continue;
    let m = 0;
    for (const o of part.options) m += countSeq(o);
    n = Math.min(n * m, 1e9);
  }
  return n;
}
const expansionCount = (p: string) => countSeq(parseBraces(p));

function expandSeq(s: Seq): string[] {
  let acc = [''];
  for (const part of s) {
    if (typeof part === 'string') { acc = acc.map((a) => a + part); continue; }
    const alts = part.options.flatMap(expandSeq);
    acc = acc.flatMap((a) => alts.map((b) => a + b));
  }
  return acc;
}

/** The patterns a `{…}` pattern stands for (escapes kept). Call checkGlob first: the count is not bounded here. */
export function expandBraces(p: string): string[] { return expandSeq(parseBraces(p)); }

// ---- the NFA ----

const enum K { Lit, One, Class, Star, AnyStar, GsEntry, GsLoop, TailEntry, TailLoop }
interface Node { k: K; c?: string; test?: (ch: string) => boolean }

function parseClass(p: string, i: number): { test: (ch: string) => boolean; end: number } | undefined {
  let j = i + 1;
  let neg = false;
  if (p[j] === '!' || p[j] === '^') { neg = true; j++; }
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (j < p.length && (p[j] !== ']' || first)) {
    first = false;
    let a = p[j];
    if (a === '\\' && j + 1 < p.length) { j++; a = p[j]; }
    if (p[j + 1] === '-' && j + 2 < p.length && p[j + 2] !== ']') {
      let b = p[j + 2];
      let k = j + 2;
      if (b === '\\' && k + 1 < p.length) { k++; b = p[k]; }
      ranges.push([a, b]); j = k + 1;
    } else { ranges.push([a, a]); j++; }
  }
  if (j >= p.length) return undefined; // no closing bracket: a literal '['
  const test = (ch: string) => ranges.some(([a, b]) => ch >= a && ch <= b) !== neg;
  return { test, end: j };
}

/** Compiles one brace-free pattern (already anchored as the caller wants) into NFA nodes; the last node + 1 accepts. */
function compile(p: string, nocase: boolean): Node[] {
  const nodes: Node[] = [];
  const segs = p.split('/');
  for (let s = 0; s < segs.length; s++) {
    const seg = segs[s];
    const last = s === segs.length - 1;
    if (seg === '**') {
      if (segs.length === 1) { nodes.push({ k: K.AnyStar }); continue; }
      if (!last) { nodes.push({ k: K.GsEntry }, { k: K.GsLoop }); continue; } // `**/`: zero or more whole segments
      // `/**` at the end: the previous '/' was pushed as a literal; replace it with "end, or / and anything".
      if (nodes.length && nodes[nodes.length - 1].k === K.Lit && nodes[nodes.length - 1].c === '/') nodes.pop();
      nodes.push({ k: K.TailEntry }, { k: K.TailLoop });
      continue;
    }
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i];
      if (c === '\\' && i + 1 < seg.length) { i++; nodes.push({ k: K.Lit, c: nocase ? seg[i].toLowerCase() : seg[i] }); continue; }
      if (c === '*') { while (seg[i + 1] === '*') i++; nodes.push({ k: K.Star }); continue; }
      if (c === '?') { nodes.push({ k: K.One }); continue; }
      if (c === '[') {
        const cls = parseClass(seg, i);
        if (cls) {
          const t = cls.test;
          nodes.push({ k: K.Class, test: nocase ? (ch) => t(ch) || t(ch.toUpperCase()) || t(ch.toLowerCase()) : t });
          i = cls.end; continue;
        }
      }
      nodes.push({ k: K.Lit, c: nocase ? c.toLowerCase() : c });
    }
    if (!last) nodes.push({ k: K.Lit, c: '/' });
  }
  return nodes;
}

/**
 * Simulates the NFA over `s`: O(s.length × nodes.length), no backtracking. With `atPrefix`, also records whether
 * each prefix s[0..i) is matched (atPrefix[i] = 1), which gives gitignore's parent-folder checks in the same run.
 */
function run(nodes: Node[], s: string, atPrefix?: Uint8Array): boolean {
  const m = nodes.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  // ε-moves only go forward (to i+1 or i+2), so one ascending pass closes a state set.
  const close = (set: Uint8Array) => {
    for (let i = 0; i < m; i++) {
      if (!set[i]) continue;
      switch (nodes[i].k) {
        case K.Star: case K.AnyStar: set[i + 1] = 1; break;
        case K.GsEntry: set[i + 1] = 1; set[i + 2] = 1; break;
        case K.TailEntry: set[i + 2] = 1; break;
        case K.TailLoop: set[i + 1] = 1; break;
        default: break;
      }
    }
  };
  cur[0] = 1; close(cur);
  if (atPrefix && cur[m]) atPrefix[0] = 1;
  for (let p = 0; p < s.length; p++) {
    const ch = s[p];
    next.fill(0);
    let any = false;
    for (let i = 0; i < m; i++) {
      if (!cur[i]) continue;
      const n = nodes[i];
      switch (n.k) {
        case K.Lit: if (ch === n.c) { next[i + 1] = 1; any = true; } break;
        case K.One: if (ch !== '/') { next[i + 1] = 1; any = true; } break;
        case K.Class: if (ch !== '/' && n.test!(ch)) { next[i + 1] = 1; any = true; } break;
        case K.Star: if (ch !== '/') { next[i] = 1; any = true; } break;
        case K.AnyStar: next[i] = 1; any = true; break;
        case K.GsLoop: next[i] = 1; if (ch === '/') next[i + 1] = 1; any = true; break;
        case K.TailEntry: if (ch === '/') { next[i + 1] = 1; any = true; } break;
        case K.TailLoop: next[i] = 1; any = true; break;
        default: break;
      }
    }
    if (!any) return false;
    close(next);
    [cur, next] = [next, cur];
    if (atPrefix && cur[m]) atPrefix[p + 1] = 1;
  }
  return cur[m] === 1;
}

export interface GlobOptions {
  /** No `/` in the pattern: match the last path segment (picomatch's matchBase). */
  matchBase?: boolean;
  nocase?: boolean;
}

/**
 * A matcher for one pattern (rejected patterns match nothing: check them with checkGlob and report them first).
 * Paths use `/`; a leading `./` is ignored on both sides.
 */
export function compileGlob(pattern: string, opts: GlobOptions = {}): (path: string) => boolean {
  if (checkGlob(pattern)) return () => false;
  const nocase = !!opts.nocase;
  const pat = pattern.replace(/^(\.\/)+/, '');
  const base = !!opts.matchBase && !pat.replace(/\\./g, '').includes('/');
  const machines = machinesOf(pat, nocase);
  return (path: string) => {
    let s = path.replace(/^(\.\/)+/, '');
    if (base) s = s.slice(s.lastIndexOf('/') + 1);
    if (nocase) s = s.toLowerCase();
    return machines.some((n) => run(n, s));
  };
}

function machinesOf(pat: string, nocase: boolean): Node[][] {
  return expandBraces(pat).map((p) => compile(p, nocase));
}

const compiledCache = new Map<string, (path: string) => boolean>();
/** compileGlob, cached per pattern and options (detectFamily asks for every file). */
export function globMatcher(pattern: string, opts: GlobOptions = {}): (path: string) => boolean {
  const key = `${opts.matchBase ? 1 : 0}${opts.nocase ? 1 : 0}${pattern}`;
  let f = compiledCache.get(key);
  if (!f) {
    if (compiledCache.size >= 1024) compiledCache.clear();
    f = compileGlob(pattern, opts);
    compiledCache.set(key, f);
  }
  return f;
}

// ---- gitignore semantics ----

interface IgnoreRule { negate: boolean; dirOnly: boolean; machines: Node[][] }

/** One gitignore line as a rule, or undefined for blank lines, comments and rejected patterns. */
function ignoreRule(line: string, nocase: boolean): IgnoreRule | undefined {
  let p = line.replace(/^\uFEFF/, '');
  // Trailing spaces are dropped unless escaped with a backslash.
  p = p.replace(/(?<!\\)\s+$/, '').replace(/\\(\s)$/, '$1');
  if (!p || p.startsWith('#')) return undefined;
  let negate = false;
  if (p.startsWith('!')) { negate = true; p = p.slice(1); } else if (p.startsWith('\\!') || p.startsWith('\\#')) p = p.slice(1);
  const dirOnly = p.endsWith('/') && !p.endsWith('\\/');
  if (dirOnly) p = p.replace(/\/+$/, '');
  if (!p || checkGlob(p)) return undefined;
  // A slash at the start or in the middle anchors the pattern at the base folder; otherwise it matches at any depth.
  const anchored = p.replace(/\\./g, '').includes('/');
  const body = p.replace(/^\/+/, '');
  return { negate, dirOnly, machines: machinesOf(anchored ? body : `**/${body}`, nocase) };
}

/**
 * A gitignore-syntax matcher without backtracking blow-up: `ignores("a/b/c.yaml")` for a path relative to the base
 * folder (a trailing `/` marks a folder). As in git, a file in an ignored folder stays ignored whatever a later
 * negation says. Case-insensitive by default, like the `ignore` package. Each rule's NFA runs once over the path
 * and answers for the path and all its parent folders: O(rules × path length × pattern length).
 */
export function gitignoreMatcher(patterns: string[], opts: { nocase?: boolean } = {}): { ignores: (path: string) => boolean } {
  const nocase = opts.nocase ?? true;
  const rules = patterns.flatMap((p) => p.split(/\r?\n/)).map((l) => ignoreRule(l, nocase)).filter((r): r is IgnoreRule => !!r);
  return {
    ignores(path: string): boolean {
      const isDir = path.endsWith('/');
      let s = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '').replace(/\/{2,}/g, '/');
      if (!s) return false;
      if (nocase) s = s.toLowerCase();
      // Ends of the parent folders ("a", "a/b" in "a/b/c") and of the path itself.
      const ends: number[] = [];
      for (let i = 0; i < s.length; i++) if (s[i] === '/') ends.push(i);
      ends.push(s.length);
      const hits = rules.map((r) => {
        const at = new Uint8Array(s.length + 1);
        for (const n of r.machines) run(n, s, at);
        return at;
      });
      for (let e = 0; e < ends.length; e++) {
        const dir = e < ends.length - 1 || isDir;
        let ignored = false;
        for (let r = 0; r < rules.length; r++) {
          if (rules[r].dirOnly && !dir) continue;
          if (rules[r].negate === ignored && hits[r][ends[e]]) ignored = !rules[r].negate;
        }
        if (ignored) return true; // a folder's ignore cannot be undone inside it
      }
      return false;
    },
  };
}
