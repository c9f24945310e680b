// JSON with positions, for large machine-written files (Kata persist.json can be many megabytes): the value comes
// from the native JSON.parse; positions come from a small scanner that walks the text only along the path asked
// for, so a 20 MB file costs one native parse plus a few skips.
import type { OffsetRange, SyntaxProblem } from './yaml';

export interface JsonLocation { key?: OffsetRange; value: OffsetRange }

/** Deepest nesting of arrays and objects read; real persist.json files nest about 10 deep. */
export const MAX_JSON_DEPTH = 1000;

/** Offset of the first "[" or "{" that opens level MAX_JSON_DEPTH + 1 (outside strings), if any: one pass, no stack. */
export function tooDeep(t: string, limit = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 34) {
      for (i++; i < t.length; i++) {
        const d = t.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return i;
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}

export class JsonFile {
  readonly value: unknown;
  readonly errors: SyntaxProblem[];
  constructor(readonly text: string) {
    let value: unknown = undefined;
    const errors: SyntaxProblem[] = [];
    // Nesting first: a file nested deeper than anything real is reported where the limit is passed, never read on
    // (the rules, the era schemas and JSON.stringify all walk values), and never a pass.
    const deep = tooDeep(text);
    if (deep !== undefined) {
      errors.push({ message: `nested too deeply to read: more than ${MAX_JSON_DEPTH} levels of arrays and objects`, start: deep, end: deep + 1, code: 'JSON_DEPTH' });
    } else {
      try {
        value = JSON.parse(text);
      } catch (e) {
        const at = new Scanner(text).firstError() ?? { offset: 0, message: (e as Error).message };
        errors.push({ message: at.message, start: at.offset, end: Math.min(text.length, at.offset + 1), code: 'JSON' });
      }
    }
    this.value = value;
    this.errors = errors;
  }

  /** The members (or elements) of each object (array) scanned so far, by start offset: a rule that locates every
   * element of a 30 000-element array scans it once, not once per element. */
  private root?: JsonLocation;
  private readonly scanned = new Map<number, { byName?: Map<string, JsonLocation>; items?: JsonLocation[] }>();

  /** Range of the value (and key) at a path of keys and indices; the deepest existing node on the path. */
  locate(path: ReadonlyArray<string | number>): JsonLocation {
    const s = new Scanner(this.text);
    if (!this.root) { s.ws(); this.root = { value: { start: s.pos, end: s.skipValueFrom(s.pos) } }; }
    let loc: JsonLocation = this.root;
    let pos = loc.value.start;
    for (const seg of path) {
      let c = this.scanned.get(pos);
      if (!c) {
        const ch = this.text[pos];
        // Last one wins, as in JSON.parse.
        if (ch === '{') c = { byName: new Map(s.members(pos).map((m) => [m.name, { key: m.key, value: m.value }])) };
        else if (ch === '[') c = { items: s.elements(pos) };
        else c = {};
        this.scanned.set(pos, c);
      }
      const next = c.byName ? c.byName.get(String(seg)) : c.items && typeof seg === 'number' ? c.items[seg] : undefined;
      if (!next) return loc;
      loc = next;
      pos = next.value.start;
    }
    return loc;
  }

  /** The root object's members in source order. */
  topLevelKeys(): Array<{ key: string; range: OffsetRange }> {
    const s = new Scanner(this.text);
    s.ws();
    if (this.text[s.pos] !== '{') return [];
    return s.members(s.pos).map((m) => ({ key: m.name, range: m.key }));
  }
}

class Scanner {
  pos = 0;
  constructor(readonly t: string) {}

  ws(): void {
    const t = this.t;
    let p = this.pos;
    if (p === 0 && t.charCodeAt(0) === 0xfeff) p = 1;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else break;
    }
    this.pos = p;
  }

  /** End offset of the string starting at p (a quote). */
  private stringEnd(p: number): number {
    const t = this.t;
    for (let i = p + 1; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 92) { i++; continue; }
      if (c === 34) return i + 1;
    }
    return t.length;
  }

  /** End offset of the value starting at p. */
  skipValueFrom(p: number): number {
    const t = this.t;
    const c = t[p];
    if (c === '"') return this.stringEnd(p);
    if (c === '{' || c === '[') {
      let depth = 0;
      for (let i = p; i < t.length; i++) {
        const ch = t.charCodeAt(i);
        if (ch === 34) { i = this.stringEnd(i) - 1; continue; }
        if (ch === 123 || ch === 91) depth++;
        else if (ch === 125 || ch === 93) { depth--; if (depth === 0) return i + 1; }
      }
      return t.length;
    }
    let i = p;
    while (i < t.length && !/[\s,\]}]/.test(t[i])) i++;
    return i;
  }

  members(p: number): Array<{ name: string; key: OffsetRange; value: OffsetRange }> {
    const out = [];
    this.pos = p + 1;
    for (;;) {
      this.ws();
      if (this.t[this.pos] !== '"') return out;
      const ks = this.pos, ke = this.stringEnd(ks);
      let name: string;
      try { name = JSON.parse(this.t.slice(ks, ke)); } catch { return out; }
      this.pos = ke; this.ws();
      if (this.t[this.pos] !== ':') return out;
      this.pos++; this.ws();
      const vs = this.pos, ve = this.skipValueFrom(vs);
      out.push({ name, key: { start: ks, end: ke }, value: { start: vs, end: ve } });
      this.pos = ve; this.ws();
      if (this.t[this.pos] !== ',') return out;
      this.pos++;
    }
  }

  /** The elements of the array starting at p. */
  elements(p: number): JsonLocation[] {
    const out: JsonLocation[] = [];
    this.pos = p + 1;
    for (;;) {
      this.ws();
      if (this.pos >= this.t.length || this.t[this.pos] === ']') return out;
      const vs = this.pos, ve = this.skipValueFrom(vs);
      out.push({ value: { start: vs, end: ve } });
      this.pos = ve; this.ws();
      if (this.t[this.pos] !== ',') return out;
      this.pos++;
    }
  }

  /** Where the text stops being JSON, with a message (only called when JSON.parse failed). Iterative: an explicit
   * stack of the open containers, so the nesting depth costs memory, not call stack. */
  firstError(): { offset: number; message: string } | undefined {
    const t = this.t;
    const fail = (offset: number, message: string) => ({ offset: Math.min(offset, t.length), message });
    const str = () => {
      const s = this.pos;
      for (let i = s + 1; i < t.length; i++) {
        const ch = t.charCodeAt(i);
        if (ch === 92) {
          const n = t[i + 1];
          if (n === 'u') { if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) return fail(i, 'bad \\u escape in a string'); i += 5; continue; }
          if (!n || !'"\\/bfnrt'.includes(n)) return fail(i, 'bad escape in a string');
          i++; continue;
        }
        if (ch === 34) { this.pos = i + 1; return undefined; }
        if (ch < 32) return fail(i, 'control character (e.g. a line break) inside a string');
      }
      return fail(s, 'unterminated string');
    };
    /** A key and its ":" at this.pos (after "{" or ","). */
    const member = () => {
      this.ws();
      if (t[this.pos] !== '"') return fail(this.pos, t[this.pos] === undefined ? 'unexpected end of the file inside an object' : `expected a "key" in the object, found ${JSON.stringify(t[this.pos])}`);
      const e = str(); if (e) return e;
      this.ws();
      if (t[this.pos] !== ':') return fail(this.pos, 'expected ":" after the key');
      this.pos++;
      return undefined;
    };
    // '{' or '[' for each container open around the position.
    const open: string[] = [];
    this.pos = 0;
    for (;;) {
      // A value at this.pos.
      this.ws();
      const c = t[this.pos];
      if (c === undefined) return fail(this.pos, 'unexpected end of the file: a value was expected');
      if (c === '{' || c === '[') {
        this.pos++; this.ws();
        const close = c === '{' ? '}' : ']';
        if (t[this.pos] !== close) {
          open.push(c);
          if (c === '{') { const e = member(); if (e) return e; }
          continue;
        }
        this.pos++;
      } else if (c === '"') {
        const e = str(); if (e) return e;
      } else {
        const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(t.slice(this.pos, this.pos + 400));
        if (!m) return fail(this.pos, `unexpected ${JSON.stringify(c)}: not a JSON value`);
        this.pos += m[0].length;
      }
      // After a complete value: close containers until one wants another member or element.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) {
          this.ws();
          return this.pos < t.length ? fail(this.pos, 'unexpected text after the JSON value') : undefined;
        }
        const close = top === '{' ? '}' : ']';
        this.ws();
        if (t[this.pos] === ',') {
          this.pos++; this.ws();
          if (t[this.pos] === close) return fail(this.pos, `trailing comma before "${close}"`);
          if (top === '{') { const e = member(); if (e) return e; }
          break;
        }
        if (t[this.pos] === close) { this.pos++; open.pop(); continue; }
        return fail(this.pos, t[this.pos] === undefined ? `unexpected end of the file: "${close}" expected` : `expected "," or "${close}" after the value`);
      }
    }
  }
}
