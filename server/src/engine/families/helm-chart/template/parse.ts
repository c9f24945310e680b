// Lexer and parser of Go's text/template syntax (the language of Helm templates), after Go's
// src/text/template/parse/lex.go and parse.go: delimiters `{{` `}}`, trim markers `{{- ` and ` -}}` (a marker needs
// the space; trimming removes all adjacent ASCII white space, new lines included), comments `{{/* … */}}`, the
// keywords if / else / with / range / break / continue / define / template / block / end. Positions are offsets
// into the file's text (JS string indices, UTF-16), never shifted by trimming: a text node keeps its source span.
// Pure: no I/O. Input-controlled nesting is bounded (MAX_NESTING) so a hostile file cannot overflow the stack.

export interface TemplateFile { path: string; text: string }
export interface TemplateProblem { path: string; start: number; end: number; message: string }

export type ActionKind = 'output' | 'if' | 'else' | 'else-if' | 'with' | 'range' | 'define' | 'template' | 'block' | 'end' | 'comment' | 'assign'
  | 'else-with' | 'break' | 'continue';

export interface ActionInfo { start: number; end: number; kind: ActionKind; source: string }

/** Nesting of control blocks and parentheses that the parser accepts (Go has none; ours keeps the JS stack safe). */
export const MAX_NESTING = 200;

// ---- AST ----
export type Expr =
  | { k: 'field'; names: string[]; start: number; end: number }                 // .a.b
  | { k: 'var'; name: string; names: string[]; start: number; end: number }     // $x.a.b, $ alone: name '$'
  | { k: 'dot'; start: number; end: number }
  | { k: 'nil'; start: number; end: number }
  | { k: 'bool'; v: boolean; start: number; end: number }
  | { k: 'num'; text: string; isInt: boolean; int: bigint; isFloat: boolean; float: number; isChar: boolean; start: number; end: number; notEvaluated?: string }
  | { k: 'str'; v: string; start: number; end: number }
  | { k: 'ident'; name: string; start: number; end: number }
  | { k: 'chain'; node: Expr; names: string[]; start: number; end: number }     // (pipe).a.b
  | { k: 'pipe'; pipe: Pipe; start: number; end: number };                      // ( pipeline )

export interface Cmd { args: Expr[]; start: number; end: number }
export interface Pipe { decl: string[]; isAssign: boolean; cmds: Cmd[]; start: number; end: number }

export interface Span { start: number; end: number }
export interface Arm { kind: 'if' | 'else-if' | 'else' | 'with' | 'else-with'; cond?: Pipe; action: Span; list: Node[] }

export type Node =
  | { k: 'text'; start: number; end: number }                                    // kept text (after trimming)
  | { k: 'action'; pipe: Pipe; start: number; end: number }
  | { k: 'if' | 'with'; arms: Arm[]; endAction: Span; start: number; end: number }
  | { k: 'range'; pipe: Pipe; action: Span; list: Node[]; elseAction?: Span; elseList?: Node[]; endAction: Span; start: number; end: number }
  | { k: 'template'; name: string; pipe?: Pipe; start: number; end: number }
  | { k: 'break' | 'continue'; start: number; end: number };

export interface Define { name: string; path: string; list: Node[]; start: number; end: number; /** the action `{{define …}}` */ action: Span }

export interface ParsedTemplate {
  path: string;
  text: string;
  errors: TemplateProblem[];
  /** The file's top-level nodes (what rendering the file outputs). */
  root: Node[];
  /** Its `define`s and `block`s, in source order. */
  defines: Define[];
  actions: ActionInfo[];
}

// ---- lexer ----
type TokT = 'space' | 'field' | 'var' | 'ident' | 'str' | 'raw' | 'char' | 'num' | 'bool' | 'nil' | 'dot' | 'pipe' | 'lparen' | 'rparen'
  | 'declare' | 'assign' | 'comma' | 'kw';
interface Tok { t: TokT; v: string; start: number; end: number }

const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'nil', 'template', 'with']);
const isSpaceCh = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const ALNUM = /[\p{L}\p{Nd}_]/u;
const isAlnum = (c: string) => {
  const x = c.charCodeAt(0);
  if (x < 128) return (x >= 48 && x <= 57) || (x >= 65 && x <= 90) || (x >= 97 && x <= 122) || x === 95;
  return ALNUM.test(c);
};

class ParseError extends Error { constructor(readonly start: number, readonly end: number, msg: string) { super(msg); } }

interface RawAction { start: number; end: number; /** offsets of the inner tokens */ toks: Tok[]; comment: boolean; trimLeft: boolean; trimRight: boolean }
interface RawText { start: number; end: number }

/** Splits the text into text spans (after trimming) and actions (with their tokens). */
function lexAll(text: string): Array<RawText | RawAction> {
  const out: Array<RawText | RawAction> = [];
  let pos = 0;
  let pendingTrim = false; // the previous action ended with ` -}}`
  while (pos <= text.length) {
    const open = text.indexOf('{{', pos);
    let textEnd = open === -1 ? text.length : open;
    let textStart = pos;
    if (pendingTrim) { while (textStart < textEnd && isSpaceCh(text[textStart])) textStart++; pendingTrim = false; }
    let trimLeft = false;
    if (open !== -1 && text[open + 2] === '-' && isSpaceCh(text[open + 3] ?? '')) {
      trimLeft = true;
      while (textEnd > textStart && isSpaceCh(text[textEnd - 1])) textEnd--;
    }
    if (textEnd > textStart) out.push({ start: textStart, end: textEnd });
    if (open === -1) break;
    const a = lexAction(text, open, trimLeft);
    out.push(a);
    pendingTrim = a.trimRight;
    pos = a.end;
  }
  return out;
}

function atRightDelim(text: string, p: number): { delim: boolean; trim: boolean } {
  if (isSpaceCh(text[p] ?? '') && text[p + 1] === '-' && text.startsWith('}}', p + 2)) return { delim: true, trim: true };
  if (text.startsWith('}}', p)) return { delim: true, trim: false };
  return { delim: false, trim: false };
}

function lexAction(text: string, open: number, trimLeft: boolean): RawAction {
  let p = open + 2 + (trimLeft ? 2 : 0);
  // comment: `/*` right after the delimiter (and trim marker)
  if (text.startsWith('/*', p)) {
    const close = text.indexOf('*/', p + 2);
    if (close === -1) throw new ParseError(open, text.length, 'unclosed comment');
    const r = atRightDelim(text, close + 2);
    if (!r.delim) throw new ParseError(open, close + 2, 'comment ends before closing delimiter');
    const end = close + 2 + (r.trim ? 2 : 0) + 2;
    return { start: open, end, toks: [], comment: true, trimLeft, trimRight: r.trim };
  }
  const toks: Tok[] = [];
  let parenDepth = 0;
  for (;;) {
    const r = atRightDelim(text, p);
    if (r.delim && parenDepth === 0) {
      return { start: open, end: p + (r.trim ? 2 : 0) + 2, toks, comment: false, trimLeft, trimRight: r.trim };
    }
    if (r.delim && parenDepth > 0) throw new ParseError(open, p + 2, 'unclosed left paren');
    if (p >= text.length) throw new ParseError(open, text.length, 'unclosed action');
    const c = text[p];
    const s = p;
    if (isSpaceCh(c)) {
      while (p < text.length && isSpaceCh(text[p])) {
        if (atRightDelim(text, p).trim) break;
        p++;
      }
      toks.push({ t: 'space', v: ' ', start: s, end: p });
      continue;
    }
    if (c === '=') { toks.push({ t: 'assign', v: '=', start: s, end: ++p }); continue; }
    if (c === ':') {
      if (text[p + 1] !== '=') throw new ParseError(s, s + 1, 'expected :=');
      p += 2; toks.push({ t: 'declare', v: ':=', start: s, end: p }); continue;
    }
    if (c === '|') { toks.push({ t: 'pipe', v: '|', start: s, end: ++p }); continue; }
    if (c === ',') { toks.push({ t: 'comma', v: ',', start: s, end: ++p }); continue; }
    if (c === '(') {
      if (++parenDepth > MAX_NESTING) throw new ParseError(s, s + 1, `more than ${MAX_NESTING} nested parentheses`);
      toks.push({ t: 'lparen', v: '(', start: s, end: ++p }); continue;
    }
    if (c === ')') {
      if (--parenDepth < 0) throw new ParseError(s, s + 1, 'unexpected right paren');
      toks.push({ t: 'rparen', v: ')', start: s, end: ++p }); continue;
    }
    if (c === '"') {
      p++;
      for (;;) {
        if (p >= text.length || text[p] === '\n') throw new ParseError(s, p, 'unterminated quoted string');
        if (text[p] === '\\') { p += 2; continue; }
        if (text[p] === '"') { p++; break; }
        p++;
      }
      toks.push({ t: 'str', v: text.slice(s, p), start: s, end: p }); continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', p + 1);
      if (close === -1) throw new ParseError(s, text.length, 'unterminated raw quoted string');
      p = close + 1;
      toks.push({ t: 'raw', v: text.slice(s, p), start: s, end: p }); continue;
    }
    if (c === "'") {
      p++;
      for (;;) {
        if (p >= text.length || text[p] === '\n') throw new ParseError(s, p, 'unterminated character constant');
        if (text[p] === '\\') { p += 2; continue; }
        if (text[p] === "'") { p++; break; }
        p++;
      }
      toks.push({ t: 'char', v: text.slice(s, p), start: s, end: p }); continue;
    }
    if (c === '$') {
      p++;
      while (p < text.length && isAlnum(text[p])) p++;
      toks.push({ t: 'var', v: text.slice(s, p), start: s, end: p });
      checkTerm(text, p);
      continue;
    }
    if (c === '.') {
      if (/[0-9]/.test(text[p + 1] ?? '')) { p = lexNumber(text, p); toks.push({ t: 'num', v: text.slice(s, p), start: s, end: p }); checkTerm(text, p); continue; }
      p++;
      while (p < text.length && isAlnum(text[p])) p++;
      if (p === s + 1) toks.push({ t: 'dot', v: '.', start: s, end: p });
      else toks.push({ t: 'field', v: text.slice(s + 1, p), start: s, end: p });
      checkTerm(text, p);
      continue;
    }
    if (c === '+' || c === '-' || /[0-9]/.test(c)) {
      p = lexNumber(text, p);
      if (p === s + 1 && (c === '+' || c === '-')) throw new ParseError(s, p, `bad number syntax: "${c}"`);
      toks.push({ t: 'num', v: text.slice(s, p), start: s, end: p });
      checkTerm(text, p);
      continue;
    }
    if (isAlnum(c)) {
      while (p < text.length && isAlnum(text[p])) p++;
      const w = text.slice(s, p);
      if (w === 'true' || w === 'false') toks.push({ t: 'bool', v: w, start: s, end: p });
      else if (w === 'nil') toks.push({ t: 'nil', v: w, start: s, end: p });
      else if (KEYWORDS.has(w)) toks.push({ t: 'kw', v: w, start: s, end: p });
      else toks.push({ t: 'ident', v: w, start: s, end: p });
      checkTerm(text, p);
      continue;
    }
    const cp = String.fromCodePoint(text.codePointAt(p) ?? 0);
    throw new ParseError(s, s + cp.length, `unrecognized character in action: ${JSON.stringify(cp)}`);
  }
}

/** Go's lexer: a word must be followed by space, end, or punctuation that can follow it. */
function checkTerm(text: string, p: number): void {
  const c = text[p];
  if (c === undefined || isSpaceCh(c)) return;
  if ('.,|:)('.includes(c)) return;
  if (c === '}' && text[p + 1] === '}') return;
  throw new ParseError(p, p + 1, `bad character ${JSON.stringify(c)}`);
}

function lexNumber(text: string, p: number): number {
  // Go accepts: optional sign, 0x/0o/0b prefixes, digits with underscores, fraction, exponent, imaginary suffix.
  const re = /[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[oO][0-7_]*|0[bB][01_]*|[0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?)i?/y;
  re.lastIndex = p;
  const m = re.exec(text);
  const end = m ? p + m[0].length : p;
  if (isAlnum(text[end] ?? '')) throw new ParseError(p, end + 1, `bad number syntax: "${text.slice(p, end + 1)}"`);
  return end;
}

// ---- values of literals ----
export function unquoteGo(s: string, start: number): string {
  if (s[0] === '`') return s.slice(1, -1).replace(/\r/g, ''); // Go drops carriage returns from raw strings
  const q = s[0];
  let out = '';
  const bytes: number[] = [];
  const flushBytes = () => { if (bytes.length) { out += Buffer.from(bytes).toString('utf8'); bytes.length = 0; } };
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c !== '\\') { flushBytes(); out += c; continue; }
    const e = s[++i];
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };
    if (e in simple) {
      if ((e === "'" && q === '"') || (e === '"' && q === "'")) throw new ParseError(start + i - 1, start + i + 1, 'invalid syntax');
      flushBytes(); out += simple[e]; continue;
    }
    if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const h = s.slice(i + 1, i + 1 + n);
      if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) throw new ParseError(start + i - 1, start + i + 1 + n, 'invalid syntax');
      i += n;
      const v = parseInt(h, 16);
      if (e === 'x') { bytes.push(v); continue; }
      if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) throw new ParseError(start + i - n - 1, start + i + 1, 'invalid syntax');
      flushBytes(); out += String.fromCodePoint(v); continue;
    }
    if (/[0-7]/.test(e)) {
      const o = s.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(o) || parseInt(o, 8) > 255) throw new ParseError(start + i - 1, start + i + 3, 'invalid syntax');
      i += 2; bytes.push(parseInt(o, 8)); continue;
    }
    throw new ParseError(start + i - 1, start + i + 1, 'invalid syntax');
  }
  flushBytes();
  return out;
}

function numberNode(tok: Tok): Expr {
  const text = tok.v;
  const n = { k: 'num' as const, text, isInt: false, int: 0n, isFloat: false, float: 0, isChar: false, start: tok.start, end: tok.end };
  if (tok.t === 'char') {
    const v = unquoteGo(text, tok.start);
    const cp = v.codePointAt(0);
    if (cp === undefined || String.fromCodePoint(cp).length !== v.length) throw new ParseError(tok.start, tok.end, `malformed character constant: ${text}`);
    n.isChar = true; n.isInt = true; n.int = BigInt(cp); n.isFloat = true; n.float = cp;
    return n;
  }
  if (text.endsWith('i')) return { ...n, notEvaluated: `the complex constant ${text} is not evaluated` };
  const clean = text.replace(/_/g, '');
  const neg = clean.startsWith('-');
  const body = clean.replace(/^[+-]/, '');
  // integer?
  let iv: bigint | undefined;
  try {
    if (/^0[xX][0-9a-fA-F]+$/.test(body) || /^0[bB][01]+$/.test(body) || /^0[oO][0-7]+$/.test(body)) iv = BigInt(body);
    else if (/^0[0-7]+$/.test(body)) iv = BigInt('0o' + body.slice(1));
    else if (/^[0-9]+$/.test(body)) iv = BigInt(body);
  } catch { iv = undefined; }
  if (iv !== undefined) {
    if (neg) iv = -iv;
    if (iv >= -(2n ** 63n) && iv < 2n ** 63n) { n.isInt = true; n.int = iv; }
    n.isFloat = true; n.float = Number(iv);
    return n;
  }
  if (/^0[xX]/.test(body)) return { ...n, notEvaluated: `the hexadecimal floating-point constant ${text} is not evaluated` };
  const f = Number(body);
  if (!/^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(body) || Number.isNaN(f)) throw new ParseError(tok.start, tok.end, `bad number syntax: "${text}"`);
  n.isFloat = true; n.float = neg ? -f : f;
  if (Number.isInteger(n.float) && Math.abs(n.float) < 2 ** 63) { n.isInt = true; n.int = BigInt(n.float); }
  return n;
}

// ---- parser ----
class Parser {
  private i = 0;
  /** `vars`: the variables in scope (Go's parser rejects an undefined one at parse time). */
  constructor(private readonly toks: Tok[], private readonly a: RawAction, private readonly text: string, private readonly vars: string[]) {}
  peek(skipSpace = true): Tok | undefined {
    let j = this.i;
    if (skipSpace) while (this.toks[j]?.t === 'space') j++;
    return this.toks[j];
  }
  next(skipSpace = true): Tok | undefined {
    if (skipSpace) while (this.toks[this.i]?.t === 'space') this.i++;
    return this.toks[this.i++];
  }
  atEnd(): boolean { return this.peek() === undefined; }
  fail(msg: string, t?: Tok): never {
    throw new ParseError(t?.start ?? this.a.start, t?.end ?? this.a.end, msg);
  }
  endPos(): number { const last = this.toks[this.toks.length - 1]; return last ? last.end : this.a.start + 2; }

  /** pipeline: [decl] command ('|' command)*; context names the construct for messages. */
  pipeline(context: string, allowTwoVars: boolean, inParen = false, depth = 0): Pipe {
    if (depth > MAX_NESTING) this.fail(`more than ${MAX_NESTING} nested pipelines`);
    const first = this.peek();
    const start = first?.start ?? this.endPos();
    const decl: string[] = [];
    let isAssign = false;
    // declarations: $x := / $x = / $i, $v :=
    if (first?.t === 'var') {
      const save = this.i;
      this.next();
      const after = this.peek();
      if (after?.t === 'declare' || after?.t === 'assign') {
        this.next();
        decl.push(first.v);
        this.vars.push(first.v);
        isAssign = after.t === 'assign';
      } else if (after?.t === 'comma' && allowTwoVars) {
        this.next();
        const v2 = this.next();
        if (v2?.t !== 'var') this.fail('range can only initialize variables', v2);
        const d = this.next();
        if (d?.t !== 'declare' && d?.t !== 'assign') this.fail('expected := or = in range', d);
        decl.push(first.v, v2.v);
        this.vars.push(first.v, v2.v);
        isAssign = d.t === 'assign';
      } else if (after?.t === 'comma') {
        this.fail(`too many declarations in ${context}`, after);
      } else {
        this.i = save;
      }
    }
    const cmds: Cmd[] = [];
    for (;;) {
      const t = this.peek();
      if (t === undefined || (inParen && t.t === 'rparen')) break;
      cmds.push(this.command(depth));
      const n = this.peek();
      if (n?.t === 'pipe') { this.next(); if (this.peek() === undefined || (inParen && this.peek()?.t === 'rparen')) this.fail('missing command after |', n); continue; }
      if (n === undefined || (inParen && n.t === 'rparen')) break;
      this.fail(`unexpected ${JSON.stringify(n.v)} in ${context}`, n);
    }
    if (cmds.length === 0) this.fail(`missing value for ${context}`);
    cmds.slice(1).forEach((c, k) => {
      const a0 = c.args[0];
      if (a0.k === 'bool' || a0.k === 'dot' || a0.k === 'nil' || a0.k === 'num' || a0.k === 'str') {
        throw new ParseError(c.start, c.end, `non executable command in pipeline stage ${k + 2}`);
      }
    });
    const last = cmds[cmds.length - 1];
    return { decl, isAssign, cmds, start, end: last.end };
  }

  command(depth: number): Cmd {
    const args: Expr[] = [];
    for (;;) {
      const t = this.peek();
      if (t === undefined || t.t === 'pipe' || t.t === 'rparen') break;
      if (args.length > 0 && this.toks[this.i]?.t !== 'space') this.fail(`missing space?`, t);
      args.push(this.operand(depth));
    }
    if (args.length === 0) this.fail('empty command', this.peek());
    return { args, start: args[0].start, end: args[args.length - 1].end };
  }

  operand(depth: number): Expr {
    let node = this.term(depth);
    // field chain directly after (no space)
    const names: string[] = [];
    let end = node.end;
    while (this.toks[this.i]?.t === 'field') { const f = this.toks[this.i++]; names.push(f.v); end = f.end; }
    if (names.length === 0) return node;
    switch (node.k) {
      case 'field': return { ...node, names: node.names.concat(names), end };
      case 'var': return { ...node, names: node.names.concat(names), end };
      case 'bool': case 'str': case 'num': case 'nil': case 'dot':
        throw new ParseError(node.start, end, `unexpected . after term ${JSON.stringify(this.text.slice(node.start, node.end))}`);
      default: return { k: 'chain', node, names, start: node.start, end };
    }
  }

  term(depth: number): Expr {
    const t = this.next();
    if (!t) this.fail('missing operand');
    switch (t.t) {
      case 'ident': return { k: 'ident', name: t.v, start: t.start, end: t.end };
      case 'dot': return { k: 'dot', start: t.start, end: t.end };
      case 'nil': return { k: 'nil', start: t.start, end: t.end };
      case 'var':
        if (!this.vars.includes(t.v)) throw new ParseError(t.start, t.end, `undefined variable ${JSON.stringify(t.v)}`);
        return { k: 'var', name: t.v, names: [], start: t.start, end: t.end };
      case 'field': {
        const names = [t.v];
        let end = t.end;
        while (this.toks[this.i]?.t === 'field') { const f = this.toks[this.i++]; names.push(f.v); end = f.end; }
        return { k: 'field', names, start: t.start, end };
      }
      case 'bool': return { k: 'bool', v: t.v === 'true', start: t.start, end: t.end };
      case 'num': case 'char': return numberNode(t);
      case 'str': case 'raw': return { k: 'str', v: unquoteGo(t.v, t.start), start: t.start, end: t.end };
      case 'lparen': {
        const pipe = this.pipeline('parenthesized pipeline', false, true, depth + 1);
        const r = this.next();
        if (r?.t !== 'rparen') this.fail('unclosed left paren', t);
        return { k: 'pipe', pipe, start: t.start, end: r.end };
      }
      default: this.fail(`unexpected ${JSON.stringify(t.v)} in operand`, t);
    }
  }
}

// ---- tree building ----
interface Frame {
  kind: 'root' | 'if' | 'with' | 'range' | 'define';
  list: Node[];
  node?: any;
  define?: Define;
  block?: { name: string; pipe?: Pipe; action: Span };
  /** Variables in scope when the block opened (restored at its end). */
  vars: string[];
}

export function parseTemplate(file: TemplateFile): ParsedTemplate {
  const { path, text } = file;
  const out: ParsedTemplate = { path, text, errors: [], root: [], defines: [], actions: [] };
  let items: Array<RawText | RawAction>;
  try {
    items = lexAll(text);
  } catch (e) {
    if (e instanceof ParseError) { out.errors.push({ path, start: e.start, end: e.end, message: e.message }); return out; }
    throw e;
  }
  let vars: string[] = ['$'];
  const stack: Frame[] = [{ kind: 'root', list: out.root, vars }];
  const top = () => stack[stack.length - 1];
  const rangeDepth = () => stack.filter((f) => f.kind === 'range').length;
  try {
    for (const it of items) {
      if (!('toks' in it)) { top().list.push({ k: 'text', start: it.start, end: it.end }); continue; }
      const src = text.slice(it.start, it.end);
      const span = { start: it.start, end: it.end };
      if (it.comment) { out.actions.push({ ...span, kind: 'comment', source: src }); continue; }
      const p = new Parser(it.toks, it, text, vars);
      const varsBefore = vars.slice();
      const first = p.peek();
      if (!first) throw new ParseError(it.start, it.end, 'missing value for command');
      const kw = first.t === 'kw' ? first.v : undefined;
      const act = (kind: ActionKind) => out.actions.push({ ...span, kind, source: src });
      const push = (f: Frame) => {
        if (stack.length > MAX_NESTING) throw new ParseError(it.start, it.end, `more than ${MAX_NESTING} nested blocks`);
        stack.push(f);
      };
      if (kw === 'if' || kw === 'with' || kw === 'range') {
        p.next();
        const pipe = p.pipeline(kw, kw === 'range');
        if (kw !== 'range' && pipe.decl.length > 1) throw new ParseError(it.start, it.end, `too many declarations in ${kw}`);
        act(kw);
        if (kw === 'range') {
          const node = { k: 'range' as const, pipe, action: span, list: [] as Node[], endAction: span, start: it.start, end: it.end };
          top().list.push(node);
          push({ kind: 'range', list: node.list, node, vars: varsBefore });
        } else {
          const arm: Arm = { kind: kw, cond: pipe, action: span, list: [] };
          const node = { k: kw as 'if' | 'with', arms: [arm], endAction: span, start: it.start, end: it.end };
          top().list.push(node);
          push({ kind: kw, list: arm.list, node, vars: varsBefore });
        }
        continue;
      }
      if (kw === 'else') {
        p.next();
        const f = top();
        if (f.kind !== 'if' && f.kind !== 'with' && f.kind !== 'range') throw new ParseError(it.start, it.end, 'unexpected {{else}}');
        const nxt = p.peek();
        if (f.kind === 'range') {
          if (nxt) throw new ParseError(it.start, it.end, 'unexpected ' + JSON.stringify(nxt.v) + ' in else');
          if (f.node.elseList) throw new ParseError(it.start, it.end, 'unexpected {{else}}');
          act('else');
          f.node.elseAction = span; f.node.elseList = [];
          f.list = f.node.elseList;
          continue;
        }
        const arms: Arm[] = f.node.arms;
        if (arms[arms.length - 1].kind === 'else') throw new ParseError(it.start, it.end, 'unexpected {{else}}');
        // Go: `else if` continues an if, `else with` a with; the other pairing is a parse error
        if (nxt && nxt.t === 'kw' && ((nxt.v === 'if' && f.kind === 'if') || (nxt.v === 'with' && f.kind === 'with'))) {
          p.next();
          const pipe = p.pipeline(nxt.v, false);
          const kind = nxt.v === 'if' ? 'else-if' : 'else-with';
          act(kind);
          const arm: Arm = { kind, cond: pipe, action: span, list: [] };
          arms.push(arm); f.list = arm.list;
          continue;
        }
        if (nxt) throw new ParseError(it.start, it.end, 'unexpected ' + JSON.stringify(nxt.v) + ' in else');
        act('else');
        const arm: Arm = { kind: 'else', action: span, list: [] };
        arms.push(arm); f.list = arm.list;
        continue;
      }
      if (kw === 'end') {
        p.next();
        if (p.peek()) throw new ParseError(it.start, it.end, 'unexpected ' + JSON.stringify(p.peek()!.v) + ' in end');
        const f = top();
        if (f.kind === 'root') throw new ParseError(it.start, it.end, 'unexpected {{end}}');
        act('end');
        stack.pop();
        vars = f.vars;
        if (f.kind === 'define') {
          f.define!.end = it.end;
          if (f.block) top().list.push({ k: 'template', name: f.block.name, pipe: f.block.pipe, start: f.block.action.start, end: f.block.action.end });
        } else {
          f.node.endAction = span; f.node.end = it.end;
        }
        continue;
      }
      if (kw === 'define' || kw === 'block') {
        p.next();
        if (kw === 'define' && stack.length > 1) throw new ParseError(it.start, it.end, 'unexpected <define> in command');
        const nameTok = p.next();
        if (nameTok?.t !== 'str' && nameTok?.t !== 'raw') throw new ParseError(it.start, it.end, `unexpected ${nameTok ? JSON.stringify(nameTok.v) : 'end'} in ${kw} clause`);
        const name = unquoteGo(nameTok.v, nameTok.start);
        let pipe: Pipe | undefined;
        if (kw === 'block') { if (p.atEnd()) throw new ParseError(it.start, it.end, 'missing value for block clause'); pipe = p.pipeline('block clause', false); }
        else if (!p.atEnd()) throw new ParseError(it.start, it.end, 'unexpected ' + JSON.stringify(p.peek()!.v) + ' in define clause');
        act(kw);
        const d: Define = { name, path, list: [], start: it.start, end: it.end, action: span };
        out.defines.push(d);
        push({ kind: 'define', list: d.list, define: d, block: kw === 'block' ? { name, pipe, action: span } : undefined, vars });
        vars = ['$']; // a define's (and a block's) body starts with only $
        continue;
      }
      if (kw === 'template') {
        p.next();
        const nameTok = p.next();
        if (nameTok?.t !== 'str' && nameTok?.t !== 'raw') throw new ParseError(it.start, it.end, `unexpected ${nameTok ? JSON.stringify(nameTok.v) : 'end'} in template clause`);
        const name = unquoteGo(nameTok.v, nameTok.start);
        const pipe = p.atEnd() ? undefined : p.pipeline('template clause', false);
        act('template');
        top().list.push({ k: 'template', name, pipe, start: it.start, end: it.end });
        continue;
      }
      if (kw === 'break' || kw === 'continue') {
        p.next();
        if (p.peek()) throw new ParseError(it.start, it.end, `unexpected ${JSON.stringify(p.peek()!.v)} in {{${kw}}}`);
        if (rangeDepth() === 0) {
          throw new ParseError(it.start, it.end, `{{${kw}}} outside {{range}}`);
        }
        act(kw);
        top().list.push({ k: kw, start: it.start, end: it.end });
        continue;
      }
      if (kw) throw new ParseError(first.start, first.end, `unexpected ${JSON.stringify(kw)} in command`);
      const pipe = p.pipeline('command', false);
      act(pipe.decl.length ? 'assign' : 'output');
      top().list.push({ k: 'action', pipe, start: it.start, end: it.end });
    }
    // text/template Tree.add: two non-empty defines of one name in one file are an error
    const nonEmpty = new Set<string>();
    for (const d of out.defines) {
      const empty = d.list.every((n) => n.k === 'text' && text.slice(n.start, n.end).trim() === '');
      if (empty) continue;
      if (nonEmpty.has(d.name)) throw new ParseError(d.action.start, d.action.end, `template: multiple definition of template ${JSON.stringify(d.name)}`);
      nonEmpty.add(d.name);
    }
    if (stack.length > 1) {
      const f = top();
      const s = f.kind === 'define' ? f.define!.action : f.node.arms ? f.node.arms[0].action : f.node.action;
      throw new ParseError(s.start, s.end, `unexpected EOF: {{${f.kind === 'define' ? (f.block ? 'block' : 'define') : f.kind}}} has no {{end}}`);
    }
  } catch (e) {
    if (e instanceof ParseError) { out.errors.push({ path, start: e.start, end: e.end, message: e.message }); return out; }
    throw e;
  }
  return out;
}

/** The text with every action replaced by spaces (new lines kept), and the white space a trim marker removes too. */
export function maskActions(text: string): string {
  let items: Array<RawText | RawAction>;
  try { items = lexAll(text); } catch {
    // Unlexable: mask from each `{{` to its `}}` (or the end) so nothing template-like is read as YAML.
    return text.replace(/\{\{[\s\S]*?(\}\}|$)/g, (m) => m.replace(/[^\r\n]/g, ' '));
  }
  const keep = new Uint8Array(text.length);
  for (const it of items) if (!('toks' in it)) keep.fill(1, it.start, it.end);
  let out = '';
  let runStart = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || !keep[i]) {
      if (i > runStart) out += text.slice(runStart, i);
      if (i === text.length) break;
      const c = text[i];
      out += c === '\n' || c === '\r' ? c : ' ';
      runStart = i + 1;
    }
  }
  return out;
}

export function actionsOf(t: ParsedTemplate): ActionInfo[] {
  return t.actions;
}
