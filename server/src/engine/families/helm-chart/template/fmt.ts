// The part of Go's fmt that templates reach: %v of every value kind, Sprint/Sprintln spacing, Sprintf with the
// verbs %s %d %v %q %t %f %x %X %o %b %c %e %g %T %%, flags + - # 0 space, width and precision. A verb or value
// outside that throws NotEvaluated (the caller turns it into an Unknown), never a guess.
import { charge } from './cost';
import { GoStruct, TypedInt, Unk, UNORDERED, type V, goType } from './values';

// The evaluator's "not evaluated" (the engine's: the web build's node:crypto stand-in throws it too).
import { NotEvaluated } from '../../../not-evaluated';
export { NotEvaluated };

/** strconv.FormatFloat(f, 'g', -1, 64) = fmt's %v of a float64: shortest digits, %e form when the exponent is
 *  < -4 or >= 6 (strconv: "if precision was the shortest possible, use precision 6 for this decision"). */
export function formatFloat(f: number): string { return floatShortest(f, -4, 6); }

/** encoding/json's float64: %f form unless the exponent is < -6 or >= 21. */
export function jsonFloat(f: number): string {
  const s = floatShortest(f, -6, 21);
  // json: "clean up e-09 to e-9"
  return s.replace(/e([+-])0(\d)$/, 'e$1$2');
}

function floatShortest(f: number, lo: number, hi: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expS] = f.toExponential().split('e');
  const exp = Number(expS);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  if (exp < lo || exp >= hi) {
    // Go: %e with the shortest digits, exponent at least two digits
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp) < 10 ? '0' + Math.abs(exp) : String(Math.abs(exp));
    return (neg ? '-' : '') + m + 'e' + (exp < 0 ? '-' : '+') + e;
  }
  let s: string;
  if (exp >= digits.length - 1) s = digits + '0'.repeat(exp - digits.length + 1);
  else if (exp >= 0) s = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  else s = '0.' + '0'.repeat(-exp - 1) + digits;
  return (neg ? '-' : '') + s;
}

export function formatFloatV(f: number): string { return formatFloat(f); }

/** strconv.Quote: Go's double-quoted string with escapes, printable Unicode kept. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0xd800 && c < 0xe000) out += '\\ufffd'; // lone surrogate: Go sees invalid UTF-8
    else if (c >= 0x80 && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u.test(ch)) {
      out += c > 0xffff ? '\\U' + c.toString(16).padStart(8, '0') : '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0x80 && /\p{Zs}/u.test(ch) && c !== 0x20) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out + '"';
}

/** fmt's %v of a value (the print of an operand). */
export function formatV(v: V, depth = 0): string {
  charge();
  if (depth > 100) throw new NotEvaluated('printing a value nested deeper than 100 levels');
  if (v === undefined || v === null) return '<nil>';
  switch (typeof v) {
    case 'string': return v;
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return v.toString();
    case 'number': return formatFloatV(v);
  }
  if (v instanceof Unk) throw new NotEvaluated(v.reason);
  if (v instanceof TypedInt) return v.v.toString();
  if (Array.isArray(v)) {
    if (UNORDERED.has(v) && v.length > 1) throw new NotEvaluated('the order of a list of map keys or values is random in Go');
    return '[' + v.map((x) => formatV(x, depth + 1)).join(' ') + ']';
  }
  if (v instanceof Map) {
    const keys = [...v.keys()].sort(cmpStr);
    return 'map[' + keys.map((k) => k + ':' + formatV(v.get(k), depth + 1)).join(' ') + ']';
  }
  if (v instanceof GoStruct) {
    if (v.str !== undefined) return v.str;
    throw new NotEvaluated(`printing a ${v.type} is not evaluated`);
  }
  throw new NotEvaluated('printing this value is not evaluated');
}

/** Go compares strings by bytes (UTF-8); for BMP-only text code unit order equals that except surrogates. */
export function cmpStr(a: string, b: string): number {
  if (a === b) return 0;
  const ba = Buffer.from(a, 'utf8'), bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: V[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    const isStr = typeof args[i] === 'string';
    if (i > 0 && !isStr && typeof args[i - 1] !== 'string') out += ' ';
    out += formatV(args[i]);
  }
  return out;
}

export function sprintln(args: V[]): string {
  return args.map((a) => formatV(a)).join(' ') + '\n';
}

interface Spec { minus: boolean; plus: boolean; sharp: boolean; zero: boolean; space: boolean; width?: number; prec?: number }

function pad(s: string, sp: Spec, numeric: boolean): string {
  const w = sp.width;
  const len = [...s].length;
  if (w === undefined || len >= w) return s;
  if (sp.minus) return s + ' '.repeat(w - len);
  if (sp.zero && numeric) {
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(w - len) + s.slice(sign.length);
  }
  // Go 1.23 pads strings, quoted strings and bools with zeros too (helm template 3.17.3: %06s of "ab" is 0000ab)
  if (sp.zero) return '0'.repeat(w - len) + s;
  return ' '.repeat(w - len) + s;
}

/** fmt's %!verb(type=value): the value printed with %v and the verb's own flags, width and precision. */
function badVerb(verb: string, v: V, sp?: Spec): string {
  if (v === undefined || v === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${goType(v)}=${sp ? fmtValue(v, 'v', sp) : formatV(v)})`;
}

function fmtInt(n: bigint, verb: string, sp: Spec): string {
  const neg = n < 0n;
  const a = neg ? -n : n;
  let s: string;
  switch (verb) {
    case 'd': case 'v': s = a.toString(10); break;
    case 'x': s = a.toString(16); if (sp.sharp) s = '0x' + s; break;
    case 'X': s = a.toString(16).toUpperCase(); if (sp.sharp) s = '0X' + s; break;
    case 'o': s = a.toString(8); if (sp.sharp) s = '0' + s; break;
    case 'b': s = a.toString(2); break;
    default: throw new NotEvaluated(`printf %${verb} of an int is not evaluated`);
  }
  if (sp.prec !== undefined) s = s.padStart(sp.prec, '0');
  const sign = neg ? '-' : sp.plus ? '+' : sp.space ? ' ' : '';
  const zero = sp.zero && sp.prec === undefined && !sp.minus;
  return pad(sign + s, { ...sp, zero }, true);
}

/** The exact decimal value of a finite double: |f| = n / 10^frac. */
function exactDecimal(f: number): { n: bigint; frac: number } {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(f));
  const bits = dv.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (expBits === 0) exp = -1074; else { mant |= 1n << 52n; exp = expBits - 1075; }
  if (exp >= 0) return { n: mant << BigInt(exp), frac: 0 };
  return { n: mant * 5n ** BigInt(-exp), frac: -exp };
}

/** n / 10^drop rounded half to even (strconv's exact decimal rounding). */
function roundDrop(n: bigint, drop: number): bigint {
  if (drop <= 0) return n * 10n ** BigInt(-drop);
  const d = 10n ** BigInt(drop);
  const q = n / d, r = n % d, twice = r * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) return q + 1n;
  return q;
}

/** %.Nf with Go's exact rounding (half to even on the exact binary value). */
function fixedGo(f: number, prec: number): string {
  const { n, frac } = exactDecimal(f);
  const q = roundDrop(n, frac - prec);
  let digits = q.toString();
  if (prec > 0) {
    digits = digits.padStart(prec + 1, '0');
    digits = digits.slice(0, digits.length - prec) + '.' + digits.slice(digits.length - prec);
  }
  return (f < 0 || Object.is(f, -0) ? '-' : '') + digits;
}

/** The value rounded to `sig` significant digits: the digits and the decimal exponent of the first. */
function sigDigits(f: number, sig: number): { digits: string; exp: number } {
  const { n, frac } = exactDecimal(f);
  if (n === 0n) return { digits: '0'.repeat(sig), exp: 0 };
  const len = n.toString().length;
  let exp = len - frac - 1;
  let q = roundDrop(n, len - sig);
  if (q.toString().length > sig) { q = q / 10n; exp++; }
  return { digits: q.toString(), exp };
}

function expGo(f: number, prec: number): string {
  const { digits, exp } = sigDigits(f, prec + 1);
  const m = prec > 0 ? digits[0] + '.' + digits.slice(1) : digits[0];
  const e = Math.abs(exp) < 10 ? '0' + Math.abs(exp) : String(Math.abs(exp));
  return (f < 0 || Object.is(f, -0) ? '-' : '') + m + 'e' + (exp < 0 ? '-' : '+') + e;
}

/** %.Ng: N significant digits (0 means 1), %e form when the exponent is < -4 or >= N, trailing zeros dropped. */
function genGo(f: number, prec: number): string {
  const p = prec === 0 ? 1 : prec;
  const { digits, exp } = sigDigits(f, p);
  const sign = f < 0 || Object.is(f, -0) ? '-' : '';
  const trimmed = digits.replace(/0+$/, '') || '0';
  if (exp < -4 || exp >= p) {
    const m = trimmed.length > 1 ? trimmed[0] + '.' + trimmed.slice(1) : trimmed;
    const e = Math.abs(exp) < 10 ? '0' + Math.abs(exp) : String(Math.abs(exp));
    return sign + m + 'e' + (exp < 0 ? '-' : '+') + e;
  }
  if (exp >= trimmed.length - 1) return sign + trimmed + '0'.repeat(exp - trimmed.length + 1);
  if (exp >= 0) return sign + trimmed.slice(0, exp + 1) + '.' + trimmed.slice(exp + 1);
  return sign + '0.' + '0'.repeat(-exp - 1) + trimmed;
}

function fmtFloat(f: number, verb: string, sp: Spec): string {
  let s: string;
  if (!Number.isFinite(f)) s = Number.isNaN(f) ? 'NaN' : f > 0 ? (sp.plus ? '+Inf' : 'Inf') : '-Inf';
  else switch (verb) {
    case 'v': case 'g':
      if (sp.sharp) throw new NotEvaluated('printf %#g is not evaluated');
      s = sp.prec === undefined ? formatFloat(f) : genGo(f, sp.prec); break;
    case 'f': case 'F': if (sp.sharp) throw new NotEvaluated('printf %#f is not evaluated'); s = fixedGo(f, sp.prec ?? 6); break;
    case 'e': if (sp.sharp) throw new NotEvaluated('printf %#e is not evaluated'); s = expGo(f, sp.prec ?? 6); break;
    default: throw new NotEvaluated(`printf %${verb} of a float64 is not evaluated`);
  }
  if (!s.startsWith('-') && Number.isFinite(f)) s = (sp.plus ? '+' : sp.space ? ' ' : '') + s;
  return pad(s, Number.isFinite(f) ? sp : { ...sp, zero: false }, Number.isFinite(f));
}
/** fmt's %!verb(type=value): the value printed with %v and the verb's own flags, width and precision. */
function fmtValue(v: V, verb: string, sp: Spec, depth = 0): string {
  charge();
  if (v instanceof Unk) throw new NotEvaluated(v.reason);
  if (verb === 'T') return pad(goType(v), sp, false);
  if (v === undefined || v === null) {
    if (verb === 'v') return pad('<nil>', sp, false);
    return badVerb(verb, v, sp);
  }
  if (verb === 'v' && sp.sharp) {
    // %#v: Go syntax; a string is quoted, ints and bools print as themselves, the rest is not evaluated
    if (typeof v === 'string') return pad(goQuote(v), sp, false);
    if (typeof v === 'boolean') return pad(v ? 'true' : 'false', sp, false);
    if (typeof v === 'bigint') return fmtInt(v, 'd', { ...sp, sharp: false });
    throw new NotEvaluated(`printf %#v of a ${goType(v)} is not evaluated`);
  }
  if (typeof v === 'string') {
    if (verb === 's' || verb === 'v') {
      let s = v;
      if (sp.prec !== undefined) s = [...s].slice(0, sp.prec).join('');
      return pad(s, sp, false);
    }
    if (verb === 'q') { if (sp.sharp || sp.plus) throw new NotEvaluated('printf %+q/%#q is not evaluated'); return pad(goQuote(v), sp, false); }
    if (verb === 'x' || verb === 'X') {
      const h = Buffer.from(v, 'utf8').toString('hex');
      if (sp.space || sp.prec !== undefined) throw new NotEvaluated('printf % x / %.Nx of a string is not evaluated');
      return pad((sp.sharp ? (verb === 'X' ? '0X' : '0x') : '') + (verb === 'X' ? h.toUpperCase() : h), sp, false);
    }
    return badVerb(verb, v, sp);
  }
  if (typeof v === 'boolean') {
    if (verb === 't' || verb === 'v') return pad(v ? 'true' : 'false', sp, false);
    return badVerb(verb, v, sp);
  }
  if (typeof v === 'bigint' || v instanceof TypedInt) {
    const n = typeof v === 'bigint' ? v : v.v;
    if (verb === 'c') { if (n < 0n || n > 0x10ffffn) throw new NotEvaluated('printf %c of an out-of-range rune is not evaluated'); return pad(String.fromCodePoint(Number(n)), sp, false); }
    if (verb === 'q') throw new NotEvaluated('printf %q of an int is not evaluated');
    if (verb === 'U') {
      if (sp.sharp || n < 0n) throw new NotEvaluated('printf %#U or %U of a negative int is not evaluated');
      return pad('U+' + n.toString(16).toUpperCase().padStart(Math.max(4, sp.prec ?? 0), '0'), sp, false);
    }
    if ('dvxXob'.includes(verb)) return fmtInt(n, verb, sp);
    return badVerb(verb, v, sp);
  }
  if (typeof v === 'number') {
    if ('vgfFe'.includes(verb)) return fmtFloat(v, verb, sp);
    if ('xXobq'.includes(verb)) throw new NotEvaluated(`printf %${verb} of a float64 is not evaluated`);
    return badVerb(verb, v, sp);
  }
  if (depth > 50) throw new NotEvaluated('printing a value nested deeper than 50 levels');
  if (Array.isArray(v)) {
    if (UNORDERED.has(v) && v.length > 1) throw new NotEvaluated('the order of a list of map keys or values is random in Go');
    if (sp.width !== undefined || sp.sharp) throw new NotEvaluated('printf width on a list is not evaluated');
    return '[' + v.map((x) => fmtValue(x, verb, sp, depth + 1)).join(' ') + ']';
  }
  if (v instanceof Map) {
    if (sp.width !== undefined || sp.sharp) throw new NotEvaluated('printf width on a map is not evaluated');
    const keys = [...v.keys()].sort(cmpStr);
    return 'map[' + keys.map((k) => fmtValue(k, verb, sp, depth + 1) + ':' + fmtValue(v.get(k), verb, sp, depth + 1)).join(' ') + ']';
  }
  if (v instanceof GoStruct && v.str !== undefined && (verb === 's' || verb === 'v')) return pad(v.str, sp, false);
  if (v instanceof GoStruct && v.str !== undefined && verb === 'q') return pad(goQuote(v.str), sp, false);
  throw new NotEvaluated(`printf %${verb} of a ${goType(v)} is not evaluated`);
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: V[]): string {
  let out = '';
  let argi = 0;
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct === -1) { out += format.slice(i); break; }
    out += format.slice(i, pct);
    i = pct + 1;
    const sp: Spec = { minus: false, plus: false, sharp: false, zero: false, space: false };
    for (; i < format.length; i++) {
      const c = format[i];
      if (c === '-') { sp.minus = true; sp.zero = false; }
      else if (c === '+') sp.plus = true;
      else if (c === '#') sp.sharp = true;
      else if (c === '0') sp.zero = !sp.minus;
      else if (c === ' ') sp.space = true;
      else break;
    }
    const num = (): number | undefined => {
      if (format[i] === '*') {
        i++;
        const a = args[argi++];
        const n = typeof a === 'bigint' ? a : a instanceof TypedInt ? a.v : undefined;
        if (n === undefined || n > 999999n || n < -999999n) throw new NotEvaluated('printf * with a non-int or huge argument is not evaluated');
        return Number(n);
      }
      const m = /^[0-9]+/.exec(format.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      if (m[0].length > 6) throw new NotEvaluated('printf width over 999999 is not evaluated');
      return Number(m[0]);
    };
    if (format[i] === '[') throw new NotEvaluated('printf argument indexes are not evaluated');
    sp.width = num();
    if (sp.width !== undefined && sp.width < 0) { sp.minus = true; sp.width = -sp.width; }
    if (format[i] === '.') { i++; sp.prec = num() ?? 0; }
    if (i >= format.length) { out += '%!(NOVERB)'; break; }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') { out += '%'; continue; }
    if (!'vTtsqdxXobcfFegU'.includes(verb)) {
      if (argi >= args.length) { out += `%!${verb}(MISSING)`; continue; }
      out += badVerb(verb, args[argi++]);
      continue;
    }
    if (argi >= args.length) { out += `%!${verb}(MISSING)`; continue; }
    out += fmtValue(args[argi++], verb, sp);
  }
  if (argi < args.length) {
    out += '%!(EXTRA ' + args.slice(argi).map((a) => (a === undefined || a === null ? '<nil>' : `${goType(a)}=${formatV(a)}`)).join(', ') + ')';
  }
  return out;
}
